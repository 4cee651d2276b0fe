#!/bin/sh
# install.t - `make install` gives a memscale that works outside the
# checkout: the binary in $(PREFIX)/bin, the data it reads at run time
# under $(PREFIX)/share/memscale (core/util.h data_dir()), so that from
# another directory, with no MEMSCALE_* variable set, the installed
# command lists the same targets, kernels and experiments as the
# checkout's, predicts a published pair and draws a figure.
. tests/lib.sh
ROOT=$(pwd)
expect_exit 0 "make install into a staging directory" -- \
	make --no-print-directory -s install DESTDIR="$TMP/stage" PREFIX=/opt/ms
M=$TMP/stage/opt/ms/bin/memscale
SHARE=$TMP/stage/opt/ms/share/memscale
[ -x "$M" ]; ok $? "the binary is installed"
for d in experiments models/kernels predict/targets; do
	a=$(cd "$ROOT/$d" && ls *.ini | sort | tr '\n' ' ')
	b=$(cd "$SHARE/$d" 2>/dev/null && ls *.ini | sort | tr '\n' ' ')
	[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "$d: every file installed"
done
[ -f "$SHARE/predict/work/reference.txt" ] && [ -f "$SHARE/plots/plot.sh" ]
ok $? "the work reference and the plot driver are installed"

# From a directory that is not a checkout, nothing in the environment.
run_inst() { (cd "$TMP" && env -u MEMSCALE_TARGETS -u MEMSCALE_KERNELS \
	-u MEMSCALE_EXPERIMENTS -u MEMSCALE_WORK -u MEMSCALE_PLOTS "$M" "$@"); }
for what in targets kernels experiments; do
	"$MEMSCALE" list $what >"$TMP/want.$what" 2>&1
	run_inst list $what >"$TMP/got.$what" 2>&1
	[ -s "$TMP/want.$what" ] && cmp -s "$TMP/want.$what" "$TMP/got.$what"
	ok $? "the installed 'list $what' is the checkout's"
done
run_inst model predict --workload page_fault2 --pair 70a64b7919cb..fefc6e6631ff \
	--target shakeel-52cpu --cpus 4 --iters 2000 --calib "$ROOT/tests/fixtures/model_calib.txt" \
	-f csv >"$TMP/pred" 2>"$TMP/pred.err"
[ $? -eq 0 ] && grep -q "^page_fault2,kernel=70a64b7919cb,kernel=fefc6e6631ff,shakeel-52cpu,4," "$TMP/pred" &&
	grep -q "^#   pair_rfo .*target profile" "$TMP/pred.err"
ok $? "the installed binary predicts a published pair from the installed profiles"
if command -v gnuplot >/dev/null 2>&1; then
	(cd "$TMP" && FORMATS=png run_inst plot "$ROOT/tests/fixtures/plots/counters" --out "$TMP/fig" \
		>/dev/null 2>&1)
	[ -s "$TMP/fig/counter_tradeoff_counters.png" ]
	ok $? "the installed binary draws a figure with the installed plot scripts"
else
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP gnuplot not installed (make deps)"
fi
done_testing
