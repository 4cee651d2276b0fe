#!/bin/sh
# plugins.sh - the plug-ins' names that keep one style in every figure
# (plots/style.gp's plugin_names): locks, counters, stats designs and
# model workloads, a group at a time, as `memscale list` registers them.
# One line, names separated by spaces; empty when MEMSCALE cannot list.
#
#   MEMSCALE=bin/memscale plots/plugins.sh
MEMSCALE=${MEMSCALE:-$(dirname "$0")/../bin/memscale}
for k in locks counters stats workloads; do
	"$MEMSCALE" list "$k" 2>/dev/null | awk -v k="$k" \
		'NR > 1 && /^[a-z0-9]/ && (k != "workloads" || $2 ~ /^model/) { print $1 }'
done | tr '\n' ' '
