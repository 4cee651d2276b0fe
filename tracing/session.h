/*
 * session.h - LTTng session control for `memscale run --trace`: checks the
 * tracer, creates, starts and stops a session, tracks forked workers.
 * A TRACE=0 build refuses a session (exit 2).
 */
#ifndef MEMSCALE_SESSION_H
#define MEMSCALE_SESSION_H

#include <stdbool.h>
#include <sys/types.h>

struct trace_session;
/* Checks the tracer is usable and DIR writable (exit 2 with one line if
 * not), creates and starts a session writing to dir (NULL: beside `out`,
 * or results/trace-TIME).  only_self: record this process only. */
struct trace_session *trace_session_start(const char *dir, const char *out,
					  bool only_self);
/* Stops, destroys, reports events and discarded events on stderr.
 * Returns 0, or 1 if the session could not be stopped cleanly. */
int trace_session_stop(struct trace_session *s);
/* Process mode: add forked workers to the session's vpid tracker (no-op
 * without a session).  Call before the workers pass the start gate. */
void trace_track_workers(const pid_t *pids, unsigned n);

#endif
