#!/bin/sh
# The demo's seed table (scripts/demo_table.awk over plots/abcsv.awk):
# from compare's CSV columns, a change whose 95 % interval spans zero is
# "no significant change (interval ...)", never a signed headline; one
# that excludes zero is signed with its interval; without interval
# columns Welch's p decides; predictions are found by the variants'
# knob values (experiment.ini) and print band and regime or n/a.
. tests/lib.sh
cat > "$TMP/exp.ini" <<'INI'
[experiment]
name = seedx
[variant base]
kernel = v1
[variant patch]
kernel = v2
INI
cat > "$TMP/cmp.csv" <<'CSV'
experiment,workload,mode,workers,knob,base,patch,n_base,n_patch,base_mean,patch_mean,change_pct,ci_lo_pct,ci_hi_pct,p,significant,warnings,published
seedx,wa,processes,2,kernel,base,patch,5,5,100,170,70.28,-3.1,143.7,0.042,no,,+50% (52 CPUs)
seedx,wb,processes,2,kernel,base,patch,5,5,100,112,12,4,20,0.001,yes,,
seedx,wa,processes,1,kernel,base,patch,5,5,100,100,0,-1,1,0.9,no,,
CSV
cat > "$TMP/pred.csv" <<'CSV'
seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime
seedx,wa,v1,v2,t52,52,dev,50,3.5,1.0,6.0,lock-bound
seedx,wb,v1,v2,t52,52,held,1,nan,nan,nan,unknown
CSV
awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed=seedx -v workers=2 \
	"$TMP/exp.ini" "$TMP/pred.csv" "$TMP/cmp.csv" > "$TMP/t.txt"
cat "$TMP/t.txt" | sed 's/^/# /'
grep '^seedx *wa ' "$TMP/t.txt" | grep -q 'no significant change (interval -3.1..+143.7 %)'
ok $? "an interval spanning zero reads 'no significant change (interval ...)'"
! grep '^seedx *wa ' "$TMP/t.txt" | grep -q '+70'
ok $? "... and shows no signed headline (+70.28 % appears nowhere in its row)"
grep '^seedx *wb ' "$TMP/t.txt" | grep -q -F '+12.0 % (95 %: +4.0..+20.0 %)'
ok $? "an interval excluding zero is signed, with its interval"
grep -q -F 'predicted: +3.5% @52 (band +1.0..+6.0, lock-bound)' "$TMP/t.txt"
ok $? "prediction found through the variants' knob values, with band and regime"
grep -q -F 'predicted: n/a (no prediction for this pair)' "$TMP/t.txt"
ok $? "a nan prediction is n/a, not a number"
grep -q -F 'published: +50% (52 CPUs)' "$TMP/t.txt"
ok $? "published value from compare's published column"
[ "$(grep -c '^seedx' "$TMP/t.txt")" -eq 2 ]
ok $? "only rows at the largest worker count"

# Without interval columns (an older compare): Welch's p decides.
printf 'label,workload,workers,base,patch,change_pct,welch_p,significant\nwa-2,wa,2,base,patch,6.8,0.076,1\nwb-2,wb,2,base,patch,9,0.01,1\n' > "$TMP/old.csv"
awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed=seedx -v workers=2 \
	"$TMP/exp.ini" "$TMP/pred.csv" "$TMP/old.csv" > "$TMP/o.txt"
grep '^seedx *wa ' "$TMP/o.txt" | grep -q 'no significant change (+6.8 %, p = 0.076, interval n/a)'
ok $? "p = 0.076 without an interval: no significant change (mmtests' p < 0.10 flag ignored)"
grep '^seedx *wb ' "$TMP/o.txt" | grep -q -F '+9.0 % (95 %: interval n/a)'
ok $? "p = 0.01 without an interval: signed, interval n/a"
# Two predictions for one pair (52 and 80 CPUs): one line each, the
# regime's first clause only (the per-lock figures are in the ledger).
printf '%s\n' 'seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime' \
	'seedx,wa,v1,v2,t52,52,dev,50,3.5,1.0,6.0,lock-bound; A lock util 0.96 queue 48.2 hold 1117 ns' \
	'seedx,wa,v1,v2,t80,80,dev,50,2.5,0.5,4.0,contended; A lock util 0.93 queue 0.7 hold 1128 ns' > "$TMP/pred2.csv"
awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed=seedx -v workers=2 \
	"$TMP/exp.ini" "$TMP/pred2.csv" "$TMP/cmp.csv" > "$TMP/t2.txt"
[ "$(grep -c 'predicted: +[0-9.]*% @[0-9]* (band [^,]*, [a-z-]*)$' "$TMP/t2.txt")" -eq 2 ]
ok $? "each prediction on its own line, regime cut to its first clause"
! grep -q 'queue' "$TMP/t2.txt"; ok $? "no per-lock figures in the demo table"
awk '{ if (length($0) > 120) bad = 1 } END { exit bad }' "$TMP/t2.txt"
ok $? "no line wider than 120 columns"
# A compare row of the reverse pair (patch v1 vs base v2, the demo's
# base -> before): the v1 -> v2 prediction turned over, 100 / (1 + p/100)
# - 100 (+3.5 % -> -3.4 %), band ends turned and swapped (+6.0..+1.0 ->
# -5.7..-1.0).
cat > "$TMP/exp2.ini" <<'INI'
[experiment]
name = seedx
[variant base]
kernel = v2
[variant before]
kernel = v1
INI
printf '%s\n' 'experiment,workload,mode,workers,knob,base,patch,n_base,n_patch,base_mean,patch_mean,change_pct,ci_lo_pct,ci_hi_pct,p,significant,warnings,published' \
	'seedx,wa,processes,2,kernel,base,before,5,5,100,97,-3,-5,-1,0.01,yes,,' > "$TMP/cmp2.csv"
awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed=seedx -v workers=2 \
	"$TMP/exp2.ini" "$TMP/pred.csv" "$TMP/cmp2.csv" > "$TMP/t3.txt"
sed 's/^/# /' "$TMP/t3.txt"
grep -q -F "predicted: -3.4% @52 (band -5.7..-1.0, lock-bound; reverse pair's, turned over)" "$TMP/t3.txt"
ok $? "a reverse pair's prediction, turned over"
# compare's published column joins the rows with "; ": one line each
printf '%s\n' 'experiment,workload,mode,workers,knob,base,patch,n_base,n_patch,base_mean,patch_mean,change_pct,ci_lo_pct,ci_hi_pct,p,significant,warnings,published' \
	'seedx,wa,processes,2,kernel,base,before,5,5,100,97,-3,-5,-1,0.01,yes,,+13.51% (reversed from -11.9%) (104-thread 2S Skylake (LKP)); +16.82% (reversed from -14.4%) (64-thread 2S Ice Lake (LKP))' > "$TMP/cmp3.csv"
awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed=seedx -v workers=2 \
	"$TMP/exp2.ini" "$TMP/pred.csv" "$TMP/cmp3.csv" > "$TMP/t4.txt"
[ "$(grep -c 'published: +1[36]\.[0-9]*% (reversed from -1[14]\.[0-9]%) ([0-9]*-thread 2S [A-Za-z ]* (LKP))$' "$TMP/t4.txt")" -eq 2 ]
ok $? "several published rows: one line each"
done_testing
