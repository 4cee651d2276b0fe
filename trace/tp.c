/*
 * tp.c - instantiates the "memscale" LTTng-UST tracepoint provider
 * (trace/memscale_tp.h) and keeps lttng-ust consistent across fork().
 *
 * Process mode forks workers from a process that has lttng-ust's listener
 * threads and RCU state.  lttng-ust expects the application to bracket
 * fork() with lttng_ust_before_fork() / lttng_ust_after_fork_{parent,child}
 * (what LD_PRELOAD=liblttng-ust-fork.so does, lttng-ust(3) "Using
 * LTTng-UST with daemons"); without it a child may inherit a held lttng-ust
 * lock and is never registered with the session daemon, so its events are
 * lost.  We register the same calls with pthread_atfork() instead, unless
 * the preload helper is already doing it.
 */
#if defined(MEMSCALE_TRACE) && !defined(__SANITIZE_THREAD__)
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#endif
#include "trace/tp.h"

#ifdef MEMSCALE_TRACE
#include <lttng/ust-fork.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The harness forks from one thread at a time: one saved mask suffices. */
static sigset_t fork_sigset;

static void tp_before_fork(void)
{
	lttng_ust_before_fork(&fork_sigset);
}

static void tp_after_fork_parent(void)
{
	lttng_ust_after_fork_parent(&fork_sigset);
}

static void tp_after_fork_child(void)
{
	lttng_ust_after_fork_child(&fork_sigset);
}

__attribute__((constructor)) static void tp_fork_hooks(void)
{
	const char *pre = getenv("LD_PRELOAD");

	if (pre && strstr(pre, "liblttng-ust-fork"))
		return;
	pthread_atfork(tp_before_fork, tp_after_fork_parent, tp_after_fork_child);
}
#endif

void trace_counter_fold(const char *counter, unsigned worker, int64_t delta,
			int64_t total)
{
	MS_TP(counter_fold, counter, worker, delta, total);
}

void trace_stats_flush(unsigned worker, uint64_t duration_ns,
		       uint64_t nr_updates)
{
	MS_TP(stats_flush, worker, duration_ns, nr_updates);
}
