/*
 * sensitivity.h - how much a prediction depends on each measured input of
 * the calibration.  Every input the cost composition reads
 * (predict/target.c: target_costs) is multiplied alone by a factor, the
 * prediction is made again, and the change in the predicted % reported.
 * An input that moves no prediction says why: the target profile's
 * sourced figure replaces it, or it is read but the pair's program does
 * not weigh it.
 */
#ifndef MEMSCALE_SENSITIVITY_H
#define MEMSCALE_SENSITIVITY_H

#include <stddef.h>

#include "predict/calib.h"
#include "predict/target.h"

struct sens_input {
	const char *probe; /* calibration probe ("fault") or meta key */
	const char *param; /* the parameter it feeds (target_costs' note name) */
};

/* The measured inputs, NULL-terminated. */
extern const struct sens_input sens_inputs[];

/* out = c with every figure of in->probe (median, quartiles, min, max;
 * or the meta value) multiplied by f.  calib_free(out) after. */
void sens_scaled_copy(const struct calib *c, const struct sens_input *in, double f,
		      struct calib *out);

/* Why input `in`, scaled by f, changes nothing for target t: "" when it
 * changes the target's costs (then it is the pair's program that does
 * not weigh it; the caller says so). */
const char *sens_unused_reason(const struct calib *c, const struct target *t,
			       const struct sens_input *in, double f, char *buf, size_t len);

#endif
