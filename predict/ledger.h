/*
 * ledger.h - the validation ledger over the published rows (ledger.c):
 * prediction, observation, error, sign, held-out role and the known
 * limits of each row, with a summary per seed.  `memscale model
 * validate` prints it, followed by any results directories given.
 */
#ifndef MEMSCALE_LEDGER_H
#define MEMSCALE_LEDGER_H

#include <stdbool.h>
#include <stdio.h>

#include "predict/calib.h"
#include "predict/predict.h"

/*
 * The verdict on one published row: lo..hi the published change (a
 * range, or lo == hi), pct the predicted change (NAN: none), band_lo the
 * low end of its band (NAN: not computed), regime as predict.h's (a band
 * that changes sign says "undetermined").  err: pp beyond the published
 * range, 0 inside it, NAN without a prediction; sign: 1 right, 0 wrong,
 * -1 where the published change has no sign or there is no prediction;
 * determined: banded and its band keeps one sign.  The one scoring of a
 * row: the ledger's CSV and summaries and the paper's tables use it.
 */
struct ledger_verdict {
	bool predicted, banded, determined;
	int sign;
	double err;
};
void ledger_verdict(double lo, double hi, double pct, double band_lo, const char *regime,
		    struct ledger_verdict *v);

/* The summary of a set of rows (ledger_tally_add each verdict). */
struct ledger_tally {
	unsigned rows, predicted, signed_rows, sign_ok;
	double abs_sum;
	/* the rows whose band was computed and keeps one sign */
	unsigned banded, det, det_signed, det_sign_ok;
	double det_abs_sum;
};
void ledger_tally_add(struct ledger_tally *t, const struct ledger_verdict *v);
/* Issue 19's target: every row predicted, every sign right, mean |error|
 * <= 8 pp.  Issue 23's: every row predicted, mean |error| <= 8 pp, at
 * most 2 wrong signs of the signed rows. */
bool ledger_target19_met(const struct ledger_tally *t);
bool ledger_target23_met(const struct ledger_tally *t);

/* Prints the ledger (csv: one CSV row per published row on out, the
 * comments and summaries on stderr); returns 0, 1 on a failed write. */
int predict_ledger(const struct experiment_def *defs, size_t ndefs, const struct calib *c,
		   const struct predict_opts *o, bool csv, FILE *out);

#endif
