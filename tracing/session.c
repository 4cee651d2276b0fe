/*
 * session.c - LTTng session control for `memscale run --trace[=DIR]`.
 *
 * Drives the lttng(1) CLI by fork/exec with argument vectors (no shell,
 * so no quoting or injection issues):
 *
 *   lttng-sessiond --daemonize --no-kernel   only if none answers; the
 *                                            last traced run using a daemon
 *                                            memscale started stops it
 *   lttng create memscale-<pid>-<time> --output=DIR
 *   lttng enable-channel -u --subbuf-size=4M --num-subbuf=4 memscale
 *                        (per-UID buffers, discard mode: the defaults)
 *   lttng enable-event -u -c memscale 'memscale:*'
 *   lttng untrack -u --vpid --all; lttng track -u --vpid=<our pid>
 *                                            (other processes of the user
 *                                            stay out of the per-UID
 *                                            buffers; forked workers are
 *                                            added by trace_track_workers)
 *   lttng start; (wait until this process's probes are enabled)
 *   ... the runs ...
 *   lttng stop; lttng destroy
 *
 * Buffer sizing.  Per-event records exist only for contended acquisitions:
 * contention_begin + contention_end + lock_release, about 3 x 32 B with
 * the compact event header and the 1-byte class enum.  lock_agg records
 * (~600 B with two 32-bucket histograms) come once per worker and class
 * per sample, which is negligible.  A heavily contended 2-worker lock
 * microbenchmark reaches ~2-5 M contended acquisitions/s, i.e. up to
 * ~500 MB/s, far above what the consumer daemon can drain; discard mode
 * (the default, the one whose losses are counted in the trace) then drops
 * records and we report how many.  4 sub-buffers of 4 MiB per CPU (per
 * UID) follow the LTTng advice for high rates: few large sub-buffers,
 * since every sub-buffer switch costs; 16 MiB per CPU absorbs ~160 k
 * contended acquisitions per CPU between drains.  Override with
 * MEMSCALE_TRACE_SUBBUF (e.g. 8M) and MEMSCALE_TRACE_NSUBBUF.
 *
 * Under heavy contention the records themselves dominate (each costs a
 * few hundred ns, a contended acquisition three of them):
 * MEMSCALE_TRACE_EVENTS=memscale:lock_agg,memscale:run_phase records the
 * aggregates only (the lttng enable-event list; default memscale:*).
 *
 * The session daemon is shared by reference count: every traced run
 * holds a file user.PID in the checked state directory (tracing/state.h),
 * and the file "sessiond" names a daemon memscale started.  Under the
 * directory's lock a run registers (starting the daemon if none answers)
 * and releases; the run that releases last, with no session left on the
 * daemon, stops it, so concurrent traced runs never stop each other's
 * daemon.  A run killed by SIGKILL leaves its user file; the next run
 * removes it (its pid is gone).  The daemon is signalled only when
 * /proc says that pid is an lttng-sessiond of our uid.
 */
#include "core/escape.h"
#include "trace/tp.h"
#include "tracing/session.h"
#include "tracing/lockstat.h"
#include "tracing/state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct trace_session {
	char *name;
	char *dir;
	bool registered; /* holds a reference on the session daemon */
	bool active;
	bool only_self; /* vpid tracker: this process and its workers */
};

static struct trace_session *live; /* for the atexit cleanup */

static char *find_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (!path || !*path)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *dir ? dir : ".", prog);
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

/* Runs argv[0] (found in PATH) with stdout discarded; stderr is kept
 * unless quiet.  Returns the exit status, or -1 if it could not run. */
static int run_tool(char *const argv[], bool quiet)
{
	pid_t pid;
	int ws;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = file_kernel_fd("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			if (quiet)
				dup2(fd, STDERR_FILENO);
			close(fd);
		}
		/* The tool must not be traced into our session. */
		unsetenv("LD_PRELOAD");
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

static int lttng(bool quiet, const char *a1, const char *a2, const char *a3,
		 const char *a4, const char *a5, const char *a6, const char *a7)
{
	char *argv[] = { "lttng", (char *)a1, (char *)a2, (char *)a3, (char *)a4,
			 (char *)a5, (char *)a6, (char *)a7, NULL };
	return run_tool(argv, quiet);
}

static bool sessiond_alive(void)
{
	/* `lttng list` fails with "No session daemon is available". */
	return lttng(true, "list", NULL, NULL, NULL, NULL, NULL, NULL) == 0;
}

static pid_t read_sessiond_pid(void)
{
	char *paths[2];
	const char *home = getenv("HOME");
	pid_t pid = 0;

	paths[0] = xstrdup(geteuid() == 0 ? "/var/run/lttng/lttng-sessiond.pid" :
			   "/nonexistent");
	paths[1] = xasprintf("%s/.lttng/lttng-sessiond.pid", home ? home : "/");
	for (int i = 0; i < 2 && !pid; i++) {
		const char *why;
		FILE *f = file_read_open(paths[i], FILE_NOFOLLOW, &why);
		long v;
		if (f && fscanf(f, "%ld", &v) == 1 && v > 1)
			pid = (pid_t)v;
		if (f)
			fclose(f);
	}
	free(paths[0]);
	free(paths[1]);
	return pid;
}

/* Gone, or a zombie waiting for a reaper that is not us. */
static bool pid_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool zombie = false;

	if (kill(pid, 0))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = file_kernel_open(path, "r"))) {
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
			zombie = p[1] == ' ' && p[2] == 'Z';
		fclose(f);
	}
	return zombie;
}

static void stop_sessiond(pid_t pid)
{
	if (pid <= 0 || kill(pid, SIGTERM))
		return;
	for (int i = 0; i < 500 && !pid_gone(pid); i++)
		usleep(10000);
}

static char *default_dir(const char *out)
{
	char stamp[32];
	time_t t = time(NULL);
	size_t n;

	if (out) {
		n = strlen(out);
		if (n > 4 && !strcmp(out + n - 4, ".csv"))
			n -= 4;
		return xasprintf("%.*s.trace", (int)n, out);
	}
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	return xasprintf("results/trace-%s", stamp);
}

/* mkdir -p; the last component must end up an empty, writable directory. */
static void prepare_dir(const char *dir)
{
	char *p = xstrdup(dir), *failed;
	struct stat sb;

	if (file_mkdir_p(p, true, &failed))
		die_errno(EXIT_USAGE, "cannot create trace directory '%s'", failed);
	if (stat(p, &sb) || !S_ISDIR(sb.st_mode))
		die(EXIT_USAGE, "trace directory '%s' is not a directory", dir);
	if (access(p, W_OK | X_OK))
		die_errno(EXIT_USAGE, "trace directory '%s' is not writable", dir);
	{
		char *probe = xasprintf("%s/.memscale-write-test", p);
		FILE *pf = file_create_new(probe);
		if (!pf)
			die_errno(EXIT_USAGE, "trace directory '%s' is not writable", dir);
		fclose(pf);
		unlink(probe);
		free(probe);
	}
	if (lockstat_dir_has_trace(p))
		die(EXIT_USAGE, "trace directory '%s' already holds a trace; "
		    "choose another --trace=DIR", dir);
	{
		/* New or empty only: LTTng writes its ust/ tree into it. */
		DIR *d = opendir(p);
		struct dirent *de;
		bool empty = true;

		while (d && empty && (de = readdir(d)))
			empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
		if (d)
			closedir(d);
		if (!empty)
			die(EXIT_USAGE, "trace directory '%s' is not empty (want a new "
			    "or empty directory)", dir);
	}
	free(p);
}

static void sessiond_release(struct trace_session *s);

/* die() and exit() paths: leave no session, and no daemon we started. */
static void session_cleanup_at_exit(void)
{
	if (!live)
		return;
	if (live->active)
		lttng(true, "destroy", live->name, NULL, NULL, NULL, NULL, NULL);
	live->active = false;
	sessiond_release(live);
}

/* Record only this process (other memscale processes of the same user
 * would otherwise add their events to the per-UID buffers). */
static bool track_self(const char *name)
{
	char *pid = xasprintf("--vpid=%d", (int)getpid());
	bool ok = lttng(false, "untrack", "-u", "-s", name, "--vpid", "--all",
			NULL) == 0 &&
		  lttng(false, "track", "-u", "-s", name, pid, NULL, NULL) == 0;
	free(pid);
	return ok;
}

/* Runs lttng with argv and returns its stdout (stderr discarded), or
 * NULL if it could not run or failed. */
static char *lttng_output(char *const argv[])
{
	int fds[2], ws;
	pid_t pid;
	char *text = NULL;
	size_t len = 0;
	FILE *m, *in;
	int c;

	fflush(NULL);
	if (pipe(fds))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0) {
		int fd = file_kernel_fd("/dev/null", O_WRONLY);
		dup2(fds[1], STDOUT_FILENO);
		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		unsetenv("LD_PRELOAD");
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	m = open_memstream(&text, &len);
	while (in && (c = getc(in)) != EOF)
		putc(c, m);
	fclose(m);
	if (in)
		fclose(in);
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			break;
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * A traced run killed by SIGKILL leaves its session (memscale-PID-TIME)
 * and its user file: destroy every memscale session whose process is
 * gone.  Returns the number of sessions left on the daemon.
 */
static size_t clean_stale_sessions(void)
{
	char *argv[] = { "lttng", "list", NULL };
	char *text, *line, *save = NULL;
	size_t left = 0;

	if (!(text = lttng_output(argv)))
		return 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128];
		int pid;
		/* "  1) memscale-1234-1700000000 [active]" */
		if (sscanf(line, " %*d) %127s", name) != 1)
			continue;
		if (sscanf(name, "memscale-%d-", &pid) == 1 && pid > 0 &&
		    pid != getpid() && pid_gone(pid)) {
			lttng(true, "destroy", name, NULL, NULL, NULL, NULL, NULL);
			warnx_("note: destroyed LTTng session %s left by a "
			       "killed run", name);
		} else {
			left++;
		}
	}
	free(text);
	return left;
}

/* Live traced runs other than this one holding a reference; the user
 * files of dead ones are removed.  Under the state lock. */
static size_t other_users(void)
{
	pid_t *pids;
	size_t n = state_list_pids("user.", &pids), live_users = 0;

	for (size_t i = 0; i < n; i++) {
		char name[32];
		long v;

		snprintf(name, sizeof(name), "user.%d", (int)pids[i]);
		/* read for its checks: another user's file is refused */
		(void)state_read_long(name, &v);
		if (pids[i] == getpid())
			continue;
		if (pid_gone(pids[i]))
			state_remove(name);
		else
			live_users++;
	}
	free(pids);
	return live_users;
}

/* PID, when it is an lttng-sessiond process of our uid; else 0. */
static pid_t verified_sessiond(long pid)
{
	char path[64], comm[64] = "";
	struct stat st;
	FILE *f;

	if (pid <= 1 || pid > 0x7fffffff)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (stat(path, &st) || st.st_uid != geteuid())
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (!(f = file_kernel_open(path, "r")))
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "lttng-sessiond") ? 0 : (pid_t)pid;
}

static char *user_file(void)
{
	return xasprintf("user.%d", (int)getpid());
}

/* Takes this run's reference on the session daemon, starting one when
 * none answers. */
static void sessiond_acquire(struct trace_session *s)
{
	int lk = state_lock();
	char *me = user_file();
	long dpid;

	clean_stale_sessions();
	other_users(); /* prunes the dead */
	state_write_long(me, getpid());
	s->registered = true;
	if (state_read_long("sessiond", &dpid) && !verified_sessiond(dpid))
		state_remove("sessiond"); /* gone: its pid means nothing now */
	if (!sessiond_alive()) {
		char *argv[] = { "lttng-sessiond", "--daemonize", "--no-kernel", NULL };
		char *bin = find_in_path("lttng-sessiond");
		pid_t d;

		if (!bin)
			die(EXIT_USAGE, "--trace needs 'lttng-sessiond' from the Debian "
			    "package lttng-tools (not found in PATH)");
		free(bin);
		if (run_tool(argv, false) != 0)
			die(1, "--trace: could not start lttng-sessiond");
		if ((d = verified_sessiond(read_sessiond_pid())))
			state_write_long("sessiond", d);
		for (int i = 0; i < 200 && !sessiond_alive(); i++)
			usleep(10000);
	}
	state_unlock(lk);
	free(me);
}

/* Drops this run's reference; the last run stops a daemon memscale
 * started once no session is left on it. */
static void sessiond_release(struct trace_session *s)
{
	int lk;
	char *me;
	long dpid;
	pid_t d;

	if (!s->registered || state_refused())
		return;
	s->registered = false;
	lk = state_lock();
	me = user_file();
	state_remove(me);
	if (!other_users() && state_read_long("sessiond", &dpid)) {
		if (!(d = verified_sessiond(dpid))) {
			state_remove("sessiond");
		} else if (!clean_stale_sessions()) {
			stop_sessiond(d);
			state_remove("sessiond");
		}
	}
	state_unlock(lk);
	free(me);
}

/* A MEMSCALE_TRACE_* value for an lttng argument (its default when unset
 * or empty); anything lttng could read as more than that value is
 * refused with one line. */
static const char *trace_env(const char *name, const char *dflt)
{
	const char *e = getenv(name), *why;
	char *ok;

	if (!e || !*e)
		return dflt;
	if (!(ok = esc_lttng_arg(e, &why))) {
		char *shown = xstrdup(e); /* printable: no raw control bytes */
		for (char *c = shown; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		die(EXIT_USAGE, "--trace: %s='%s' %s", name, shown, why);
	}
	free(ok);
	return e;
}

/* The environment's settings go to lttng as arguments: each is checked
 * first (one line naming the variable, exit 2), so that no value can
 * add an option or reach lttng malformed.  SUBBUF: a power of two of
 * 4 KiB..1 GiB, digits with an optional k, K, M or G; NSUBBUF: a power of
 * two, 2..1024; EVENTS: a comma list of memscale:NAME (NAME letters,
 * digits, '_' or '*'). */
static void check_trace_env(void)
{
	const char *e = getenv("MEMSCALE_TRACE_SUBBUF");
	char *end;
	unsigned long long v;

	if (e && *e) {
		int shift = 0;
		errno = 0;
		v = isdigit((unsigned char)e[0]) ? strtoull(e, &end, 10) : 0;
		if (v && !errno && *end && !end[1])
			shift = *end == 'k' || *end == 'K' ? 10 : *end == 'M' ? 20 :
				*end == 'G' ? 30 : -1;
		else if (v && !errno && *end)
			shift = -1;
		if (!v || errno || shift < 0 || v > (1ull << 30) >> shift ||
		    (v << shift) < 4096 || ((v << shift) & ((v << shift) - 1)))
			die(EXIT_USAGE, "bad MEMSCALE_TRACE_SUBBUF '%s' (want a power of two "
			    "of 4k..1G bytes, such as 4M)", e);
	}
	e = getenv("MEMSCALE_TRACE_NSUBBUF");
	if (e && *e) {
		errno = 0;
		v = isdigit((unsigned char)e[0]) ? strtoull(e, &end, 10) : 0;
		if (errno || *end || v < 2 || v > 1024 || (v & (v - 1)))
			die(EXIT_USAGE, "bad MEMSCALE_TRACE_NSUBBUF '%s' (want a power of "
			    "two, 2..1024)", e);
	}
	e = getenv("MEMSCALE_TRACE_EVENTS");
	if (e && *e) {
		const char *p = e;
		bool ok = true;

		while (ok) {
			size_t n = strcspn(p, ",");
			ok = n > 9 && !strncmp(p, "memscale:", 9);
			for (size_t i = 9; ok && i < n; i++)
				ok = isalnum((unsigned char)p[i]) || p[i] == '_' || p[i] == '*';
			if (!p[n])
				break;
			p += n + 1;
		}
		if (!ok)
			die(EXIT_USAGE, "bad MEMSCALE_TRACE_EVENTS '%s' (want a comma list "
			    "of memscale:EVENT, such as memscale:lock_agg,memscale:run_phase)", e);
	}
}

struct trace_session *trace_session_start(const char *dir, const char *out,
					  bool only_self)
{
	struct trace_session *s;
	char *bin, *subbuf, *nsub;
	const char *e;
	bool ok;

	if (!TRACE_BUILT_IN)
		die(EXIT_USAGE, "--trace: tracing was compiled out (built with "
		    "TRACE=0, or with ThreadSanitizer); rebuild with 'make TRACE=1'");
	check_trace_env();
	state_dir(); /* checked before anything else is done */
	trace_env("MEMSCALE_TRACE_SUBBUF", "");
	trace_env("MEMSCALE_TRACE_NSUBBUF", "");
	trace_env("MEMSCALE_TRACE_EVENTS", "");
	if (!(bin = find_in_path("lttng")))
		die(EXIT_USAGE, "--trace needs the 'lttng' command from the Debian "
		    "package lttng-tools (not found in PATH); 'make deps' installs it");
	free(bin);
	s = xcalloc(1, sizeof(*s));
	s->dir = dir ? xstrdup(dir) : default_dir(out);
	prepare_dir(s->dir);
	/* lttng wants an absolute output path. */
	if (s->dir[0] != '/') {
		char *abs = realpath(s->dir, NULL);
		if (!abs)
			die_errno(EXIT_USAGE, "trace directory '%s'", s->dir);
		free(s->dir);
		s->dir = abs;
	}

	live = s;
	atexit(session_cleanup_at_exit);
	sessiond_acquire(s);

	s->name = xasprintf("memscale-%d-%ld", (int)getpid(), (long)time(NULL));
	s->only_self = only_self;
	{
		char *outopt = xasprintf("--output=%s", s->dir);
		ok = lttng(false, "create", s->name, outopt, NULL, NULL, NULL, NULL) == 0;
		free(outopt);
	}
	if (!ok)
		die(1, "--trace: 'lttng create' failed");
	s->active = true;
	e = trace_env("MEMSCALE_TRACE_SUBBUF", "4M");
	subbuf = xasprintf("--subbuf-size=%s", e);
	e = trace_env("MEMSCALE_TRACE_NSUBBUF", "4");
	nsub = xasprintf("--num-subbuf=%s", e);
	e = trace_env("MEMSCALE_TRACE_EVENTS", "memscale:*");
	ok = lttng(false, "enable-channel", "-u", "-s", s->name, subbuf, nsub,
		   "memscale") == 0 &&
	     lttng(false, "enable-event", "-u", "-s", s->name, "-c", "memscale",
		   e) == 0 &&
	     (!only_self || track_self(s->name)) &&
	     lttng(false, "start", s->name, NULL, NULL, NULL, NULL, NULL) == 0;
	free(subbuf);
	free(nsub);
	if (!ok)
		die(1, "--trace: could not set up LTTng session '%s' (see the "
		    "lttng messages above)", s->name);
	/* Our process registers with the session daemon asynchronously (at
	 * start-up, or when a daemon we just started appears).  Wait until the
	 * session has enabled our probes, so no early event goes unrecorded
	 * without being counted as discarded. */
	for (int i = 0; i < 1000 && !MS_TP_ENABLED(run_phase); i++)
		usleep(10000);
	if (!MS_TP_ENABLED(run_phase))
		die(1, "--trace: LTTng session '%s' started but this process was not "
		    "registered with the session daemon within 10 s", s->name);
	fprintf(stderr, "memscale: tracing to %s (LTTng session %s)\n", s->dir,
		s->name);
	return s;
}

void trace_track_workers(const pid_t *pids, unsigned n)
{
	char *list, *opt;
	size_t len = 0;
	FILE *f;

	if (!live || !live->active || !live->only_self || !n)
		return;
	f = open_memstream(&list, &len);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", (int)pids[i]);
	fclose(f);
	opt = xasprintf("--vpid=%s", list);
	/* The session daemon applies the tracker to registered apps before
	 * the command returns; the workers are still before the start gate. */
	if (lttng(false, "track", "-u", "-s", live->name, opt, NULL, NULL))
		warnx_("warning: could not add worker processes to LTTng session "
		       "'%s'; their events are missing from the trace", live->name);
	free(opt);
	free(list);
}

int trace_session_stop(struct trace_session *s)
{
	struct lockstat_counts c;
	int status = 0;

	if (lttng(false, "stop", s->name, NULL, NULL, NULL, NULL, NULL) != 0)
		status = 1;
	if (lttng(false, "destroy", s->name, NULL, NULL, NULL, NULL, NULL) != 0)
		status = 1;
	s->active = false;
	live = NULL;
	sessiond_release(s);
	if (lockstat_count(s->dir, &c) == 0) {
		fprintf(stderr, "memscale: trace %s: %llu events, %llu discarded "
			"by the tracer (lost)%s\n", s->dir,
			(unsigned long long)c.events, (unsigned long long)c.discarded,
			c.discarded ? "; enlarge MEMSCALE_TRACE_SUBBUF/_NSUBBUF" : "");
	} else {
		warnx_("trace %s could not be read back", s->dir);
		status = 1;
	}
	free(s->name);
	free(s->dir);
	free(s);
	return status;
}
