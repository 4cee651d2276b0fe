/*
 * model_calibrate.c - `memscale model calibrate`: run the probes
 * (harness/calib_probe.c) and the kernel-shaped work's calibration of
 * every model workload (workloads/model/kwork_calib.c), and write the
 * machine's calibration file (predict/calib.h): --out FILE, "-" for
 * stdout, else the machine's file (calib_machine_path()) that run, the
 * sweeps and model predict read.
 */
#include "cli/model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outlock.h"
#include "workloads/model/model_workload.h"

int model_calibrate(struct mopts *m)
{
	struct calib c;
	struct calib_opts o;
	const char *out = m->out ? m->out : calib_machine_path();
	bool to_stdout = !strcmp(out, "-");
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
	if (!to_stdout) {
		char *failed;
		/* the machine file's directories (mkdir -p) */
		if (!m->out && file_mkdir_p(out, false, &failed))
			die_errno(EXIT_USAGE, "model calibrate: cannot create '%s'", failed);
		check_output_file("model calibrate", out);
		out_lock_file(out, "model calibrate"); /* one writer, minutes long */
	}
	calib_measure(&c, &o);
	if (o.workloads)
		kwork_calibrate_all(&c, true);
	/* Written whole to a temporary beside it, then renamed: a run never
	 * reads a half-written calibration. */
	if (!to_stdout) {
		struct out_file of;

		if (out_file_begin(&of, out, 0644))
			die_errno(EXIT_USAGE, "model calibrate: cannot write '%s'", out);
		if (calib_write(&c, of.f)) {
			out_file_abort(&of);
			die_errno(1, "model calibrate: writing '%s'", out);
		}
		if (out_file_commit(&of))
			die_errno(1, "model calibrate: writing '%s'", out);
		fprintf(stderr, "calibrate: wrote %s\n", out);
	} else if (calib_write(&c, f) || fflush(f)) {
		die_errno(1, "model calibrate: writing stdout");
	}
	calib_free(&c);
	return 0;
}
