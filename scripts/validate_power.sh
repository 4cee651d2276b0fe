#!/bin/sh
# validate_power.sh - the validator's power against a rarely broken lock:
# runs `memscale validate --lock LOCK` TRIES times with the default run
# length (extra arguments are passed on) and prints how often the lock was
# caught (exit 1 and a FAIL line), missed (an `ok` line) or inconclusive.
#   sh scripts/validate_power.sh [TRIES] [LOCK] [validate options...]
#   sh scripts/validate_power.sh 100 tas_skip1000 --threads 2
set -eu
M=${MEMSCALE:-./bin/memscale}
TRIES=${1:-100}
LOCK=${2:-tas_skip1000}
[ $# -ge 2 ] && shift 2 || shift $#
caught=0 missed=0 other=0 i=0
t0=$(date +%s)
while [ $i -lt "$TRIES" ]; do
	i=$((i + 1))
	st=0
	out=$($M validate --lock "$LOCK" "$@" 2>&1) || st=$?
	line=$(printf '%s\n' "$out" | grep "^$LOCK " || true)
	case "$st:$line" in
	1:*FAIL*) caught=$((caught + 1)) ;;
	*" ok "*) missed=$((missed + 1)) ;;
	*) other=$((other + 1)); printf '# try %d: exit %d: %s\n' $i $st "$line" ;;
	esac
done
t1=$(date +%s)
echo "lock=$LOCK tries=$TRIES caught=$caught missed=$missed other=$other seconds=$((t1 - t0)) args=$*"
