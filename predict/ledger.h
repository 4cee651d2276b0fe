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

/* Prints the ledger (csv: one CSV row per published row on out, the
 * comments and summaries on stderr); returns 0, 1 on a failed write. */
int predict_ledger(const struct experiment_def *defs, size_t ndefs, const struct calib *c,
		   const struct predict_opts *o, bool csv, FILE *out);

#endif
