/*
 * model_calibrate.c - `memscale model calibrate`: run the probes
 * (harness/calib_probe.c) and write a calibration file (predict/calib.h).
 */
#include "cli/model.h"

int model_calibrate(struct mopts *m)
{
	struct calib c;
	struct calib_opts o;
	FILE *f = stdout;

	model_need_args(m, 0, "");
	calib_opts_default(&o);
	o.reps = (unsigned)m->reps;
	if (m->quick) {
		o.reps = m->reps == 7 ? 3 : o.reps;
		o.scale = 0.2;
		o.wl_seconds = 0.15;
	}
	o.locks = !m->nolocks;
	o.workloads = !m->nowl;
	o.verbose = true;
	if (m->out)
		check_output_file("model calibrate", m->out);
	if (m->out && !(f = fopen(m->out, "w")))
		die_errno(EXIT_USAGE, "model calibrate: cannot write '%s'", m->out);
	calib_measure(&c, &o);
	if (calib_write(&c, f) || (f != stdout && fclose(f)))
		die_errno(1, "model calibrate: writing '%s'", m->out ? m->out : "stdout");
	if (m->out)
		fprintf(stderr, "calibrate: wrote %s\n", m->out);
	calib_free(&c);
	return 0;
}
