/*
 * kwork_store.c - the machine's store of kernel-shaped work
 * (kwork_calib.c): each model workload's figures measured once per
 * machine and kept, so every later run, sweep, will-it-scale binary and
 * bench of that workload reads the same figures and records the same
 * hash, and compares with the others.
 *
 * The store is kwork.ini in the machine's state directory
 * (calib_state_dir(): $MEMSCALE_STATE_DIR, else /var/lib/memscale for
 * root, else $XDG_STATE_HOME/memscale or ~/.local/state/memscale), one
 * INI section per workload (read with libinih):
 *
 *   [page_fault2]
 *   units = 1446          residual units per operation
 *   source = 1            1 kernel backend, 2 probes
 *   unit_ns = 14.4545     ...the figures of struct kwork_cal
 *   hash = 0123456789abcdef
 *   host = ... kernel = ... commit = ... date = ...   (provenance)
 *
 * A workload's hash covers its own figures only (FNV-1a 64 of the
 * canonical text kwork_store_hash() prints), so adding another
 * workload's section never changes the hash recorded by earlier runs.
 * The file is replaced whole (atomic_write_file: O_EXCL|O_NOFOLLOW
 * temporary, rename) under an exclusive flock of kwork.ini.lock, held
 * across the measurement, so two commands that both miss calibrate once:
 * the second waits and reads what the first wrote.  The directory is
 * created 0755 and must be a real directory owned by the caller or root,
 * not writable by group or others.
 */
#include "workloads/model/model_workload.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/meta.h"
#include "predict/calib.h"

#define STORE_NAME "kwork.ini"
#define STORE_MAX_BYTES (1u << 20)

/* The canonical text of a workload's figures, hashed and compared. */
static void canon(const char *wl, const struct kwork_cal *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s %d %llu %.9g %.9g %.9g %.9g", wl, (int)c->source,
		 (unsigned long long)c->units, c->unit_ns, c->kernel_ns, c->model0_ns,
		 c->model_ns);
}

void kwork_store_hash(const char *wl, const struct kwork_cal *c, char out[17])
{
	char txt[320];

	canon(wl, c, txt, sizeof(txt));
	calib_hash_bytes(txt, strlen(txt), out);
}

/* mkdir -p of dir (0755), then the vetting: a directory, not a link,
 * owned by us or root, not writable by group or others.  0, or -1 with
 * *why set. */
static int vet_dir(const char *dir, const char **why)
{
	struct stat st;

	if (file_mkdir_p(dir, true, NULL)) {
		*why = strerror(errno);
		return -1;
	}
	if (lstat(dir, &st)) {
		*why = strerror(errno);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = "is not a directory (a symbolic link or a file)";
		return -1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		*why = "is owned by another user";
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		*why = "is writable by group or others";
		return -1;
	}
	return 0;
}

struct store_read {
	const char *wl;
	struct kwork_cal c;
	unsigned fields;
	bool bad;
};

static int store_on_value(void *user, const char *section, const char *name, const char *value)
{
	struct store_read *r = user;
	static const char *const num[] = { "units", "source", "unit_ns", "kernel_ns",
					   "model0_ns", "model_ns" };
	double v;

	if (strcmp(section, r->wl))
		return 1;
	for (unsigned i = 0; i < ARRAY_SIZE(num); i++) {
		if (strcmp(name, num[i]))
			continue;
		if (!parse_double(value, 0, 1e15, &v)) {
			r->bad = true;
			return 0;
		}
		switch (i) {
		case 0: r->c.units = (uint64_t)llround(v); break;
		case 1: r->c.source = v == KWORK_SRC_PROBES ? KWORK_SRC_PROBES : KWORK_SRC_KERNEL;
			break;
		case 2: r->c.unit_ns = v; break;
		case 3: r->c.kernel_ns = v; break;
		case 4: r->c.model0_ns = v; break;
		case 5: r->c.model_ns = v; break;
		}
		r->fields |= 1u << i;
	}
	if (!strcmp(name, "hash")) {
		snprintf(r->c.calib_hash, sizeof(r->c.calib_hash), "%s", value);
		r->fields |= 1u << 6;
	}
	return 1;
}

/* The whole store as text ("" when there is none yet); NULL after a
 * message when it cannot be read. */
static char *store_text(const char *path)
{
	struct stat st;
	char *t;

	if (lstat(path, &st) && errno == ENOENT)
		return xstrdup("");
	if (!(t = read_text_file(path)) || strlen(t) > STORE_MAX_BYTES) {
		fprintf(stderr, "memscale: the kernel-shaped work's store '%s' cannot be "
			"read (a regular file of at most 1 MiB; remove it to calibrate again)\n",
			path);
		free(t);
		return NULL;
	}
	return t;
}

int kwork_store_lookup(const char *text, const char *path, const char *wl,
		       struct kwork_cal *out)
{
	struct store_read r = { .wl = wl };
	char h[17];
	int rc = ini_parse_string(text, store_on_value, &r);

	if (rc || r.bad) {
		fprintf(stderr, "memscale: the kernel-shaped work's store '%s' is corrupt "
			"(line %d; remove it to calibrate again)\n", path, rc > 0 ? rc : 0);
		return -1;
	}
	if (!r.fields)
		return 0;
	kwork_store_hash(wl, &r.c, h);
	if (r.fields != 0x7f || strcmp(h, r.c.calib_hash)) {
		fprintf(stderr, "memscale: the kernel-shaped work's store '%s': section "
			"[%s] is incomplete or its hash does not match its figures (remove "
			"the section to calibrate again)\n", path, wl);
		return -1;
	}
	*out = r.c;
	snprintf(out->calib_file, sizeof(out->calib_file), "%s", path);
	return 1;
}

/* text with wl's section appended (the caller looked it up: absent). */
static char *with_section(const char *text, const char *wl, const struct kwork_cal *c)
{
	char h[17];

	kwork_store_hash(wl, c, h);
	return xasprintf("%s%s[%s]\nunits = %llu\nsource = %d\nunit_ns = %.9g\n"
			 "kernel_ns = %.9g\nmodel0_ns = %.9g\nmodel_ns = %.9g\nhash = %s\n"
			 "host = %s\nkernel = %s\ncommit = %s\ndate = %s\n",
			 *text ? text : "; memscale: each model workload's kernel-shaped "
			 "work, calibrated once on this machine\n; (kwork_store.c; remove a "
			 "section, or the file, to calibrate again)\n",
			 *text ? "\n" : "", wl, (unsigned long long)c->units, (int)c->source,
			 c->unit_ns, c->kernel_ns, c->model0_ns, c->model_ns, h,
			 meta_hostname(), meta_kernel(), meta_git_commit(), meta_now_iso());
}

enum kwork_store_rc kwork_store_resolve(const struct workload *wl,
	int (*measure)(const struct workload *wl, void *arg, struct kwork_cal *c),
	void *arg, struct kwork_cal *out)
{
	const char *dir = calib_state_dir(), *why;
	char *path, *lockp, *text = NULL, *next;
	int lfd = -1, found;
	enum kwork_store_rc rc = KWS_UNUSABLE;

	if (vet_dir(dir, &why)) {
		fprintf(stderr, "memscale: state directory '%s' %s: the kernel-shaped work "
			"is calibrated for this run only\n", dir, why);
		return KWS_UNUSABLE;
	}
	path = xasprintf("%s/%s", dir, STORE_NAME);
	lockp = xasprintf("%s/%s.lock", dir, STORE_NAME);
	lfd = file_append_open(lockp, O_RDWR | O_CREAT, NULL, &why);
	if (lfd < 0) {
		fprintf(stderr, "memscale: the store's lock file '%s' %s: the kernel-shaped "
			"work is calibrated for this run only\n", lockp, why);
		goto out;
	}
	if (flock(lfd, LOCK_EX)) {
		fprintf(stderr, "memscale: cannot lock '%s' (%s): the kernel-shaped work is "
			"calibrated for this run only\n", lockp, strerror(errno));
		goto out;
	}
	rc = KWS_BAD;
	if (!(text = store_text(path)))
		goto out;
	if ((found = kwork_store_lookup(text, path, wl->name, out)) != 0) {
		rc = found > 0 ? KWS_FOUND : KWS_BAD;
		goto out;
	}
	fprintf(stderr, "memscale: %s: calibrating the kernel-shaped work once for this "
		"machine (kept in %s)\n", wl->name, path);
	if (measure(wl, arg, out)) {
		rc = KWS_FAILED;
		goto out;
	}
	next = with_section(text, wl->name, out);
	if (atomic_write_file(path, next, strlen(next))) {
		fprintf(stderr, "memscale: cannot write '%s' (%s): the kernel-shaped work "
			"is this run's own\n", path, strerror(errno));
		free(next);
		rc = KWS_MEASURED;
		goto out;
	}
	free(next);
	kwork_store_hash(wl->name, out, out->calib_hash);
	snprintf(out->calib_file, sizeof(out->calib_file), "%s", path);
	fprintf(stderr, "memscale: %s: kernel-shaped work written to %s (hash %s): "
		"kernel %.0f ns/op, model without it %.0f ns/op, %llu units of %.2f ns, "
		"model with it %.0f ns/op; later runs reuse it\n", wl->name, path,
		out->calib_hash, out->kernel_ns, out->model0_ns,
		(unsigned long long)out->units, out->unit_ns, out->model_ns);
	rc = KWS_KEPT;
out:
	if (lfd >= 0)
		close(lfd);
	free(text);
	free(path);
	free(lockp);
	return rc;
}
