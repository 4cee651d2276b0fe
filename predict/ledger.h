/*
 * ledger.h - the validation ledger over the published rows (ledger.c):
 * prediction, observation, error, sign, held-out role and the known
 * limits of each row, with a summary per seed.  `memscale model
 * validate` prints it, followed by any results directories given.
 */
#ifndef MEMSCALE_LEDGER_H
#define MEMSCALE_LEDGER_H

#include <stdio.h>

#include "predict/calib.h"
#include "predict/predict.h"

/* Prints the ledger; returns 0. */
int predict_ledger(const struct experiment_def *defs, size_t ndefs, const struct calib *c,
		  const struct predict_opts *o, FILE *out);

#endif
