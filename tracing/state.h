/*
 * state.h - memscale's private run-state directory (the LTTng session
 * daemon a traced run started, and which runs use it).
 *
 * Traced runs run as root, so nothing in the state may be another user's:
 * the directory is $XDG_RUNTIME_DIR/memscale, else /run/memscale for root
 * (else /tmp/memscale-EUID), created 0700; it and every file in it must
 * be ours (owner = euid), not writable by group or others, and no
 * symbolic link.  The directory is opened once (O_DIRECTORY|O_NOFOLLOW),
 * checked by fstat on that descriptor and then used only through it
 * (openat, unlinkat), so swapping its path afterwards changes nothing
 * this process touches.  Files are created O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC,
 * mode 0600, and opened O_NOFOLLOW; their owner and mode are checked
 * (fstat on the open descriptor) before a byte of them is read.  Anything
 * else is refused with one line (exit 2) naming the file.
 */
#ifndef MEMSCALE_TRACING_STATE_H
#define MEMSCALE_TRACING_STATE_H

#include <stdbool.h>
#include <sys/types.h>

/* True once a check failed (the process is dying): exit-time clean-up
 * must leave the state alone rather than die a second time. */
bool state_refused(void);
/* The checked state directory (created on first use); dies if unsafe. */
const char *state_dir(void);
/* Takes the directory's exclusive lock (flock on its "lock" file, for
 * the read-modify-write of the files below); returns the fd to pass to
 * state_unlock. */
int state_lock(void);
void state_unlock(int fd);
/* The number in file NAME; false when absent (or empty, or no number).
 * Dies when it exists but is not ours. */
bool state_read_long(const char *name, long *v);
/* Replaces file NAME with "V\n" (never through what is there). */
void state_write_long(const char *name, long v);
void state_remove(const char *name);
/* The pids of files named PREFIX<pid> (e.g. "user."); heap array. */
size_t state_list_pids(const char *prefix, pid_t **out);

#endif
