#!/bin/sh
# calib_components.sh CAL...: the fault and syscall probes and components
# (least disturbed repetition, ns) of calibration files side by side, with
# each file's load average and how instructions were counted.
set -eu
[ $# -ge 1 ] || { echo "usage: calib_components.sh CAL..." >&2; exit 2; }
awk '
	FNR == 1 { f++; name[f] = FILENAME }
	/^meta\.loadavg_start = / { sub(/^[^=]*= /, ""); la[f] = $0 }
	/^meta\.instructions = / { sub(/^[^=]*= /, ""); insn[f] = $0 }
	/^steal_pct = / { steal[f] = $3 }
	/^(fault|fault\.[a-z]+|syscall|syscall\.falloc|syscall\.falloc\.root|clear|page|clock)\.min_ns = / ||
	/^clock\.median_ns = / || /^part\.[a-z_]+_ns = / || /^fault\.first\.inflated = / {
		k = $1; sub(/\.min_ns$/, "", k); sub(/\.median_ns$/, "", k)
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
		v[k, f] = $3
	}
	END {
		for (i = 1; i <= f; i++) printf "# %d: %s (load average at start %s; steal %s %%)\n", i, name[i], la[i], steal[i]
		for (i = 1; i <= f; i++) printf "# %d: instructions: %s\n", i, insn[i]
		printf "%-40s", "# probe or component (ns)"
		for (i = 1; i <= f; i++) printf " %10d", i
		printf "\n"
		for (j = 1; j <= n; j++) {
			printf "%-40s", order[j]
			for (i = 1; i <= f; i++) printf " %10s", ((order[j], i) in v) ? sprintf("%.1f", v[order[j], i]) : "-"
			printf "\n"
		}
	}' "$@"
