/*
 * outlock.h - one writer per output.  A sweep holds an exclusive flock(2)
 * on its --out directory and `run --out` on its CSV for as long as the
 * process lives (the kernel drops the lock when it exits, however it
 * exits, so a killed writer never leaves a stale lock behind).  A second
 * writer is refused with exit status 2 and a line naming the holder (its
 * pid and command, read from /proc/locks and /proc/PID/cmdline).
 * Output files are locked through a lock file beside them, so every
 * command that writes one (appending or replacing) takes the same lock.
 */
#ifndef MEMSCALE_OUTLOCK_H
#define MEMSCALE_OUTLOCK_H

#include <stdbool.h>

/*
 * Lock `fd` (an open file or directory named `path`): exclusive, or shared
 * (fleet jobs writing disjoint points of one directory share it; a whole
 * sweep or a collect excludes them).  On conflict: die(EXIT_USAGE) with
 * "CMD: 'PATH' is being written by pid N (COMMAND); ...".
 */
void out_lock_fd(int fd, const char *path, bool shared, const char *cmd);
/* Open `dir` and lock it for the rest of the process. */
void out_lock_dir(const char *dir, bool shared, const char *cmd);
/*
 * The one writer of the output file `path`, whichever command writes it
 * (run -o appending, merge or calibrate replacing it): an exclusive flock
 * of the lock file ".NAME.lock" beside it (created O_NOFOLLOW, a regular
 * file of the caller or root), held for the rest of the process.  A
 * second writer dies with one line naming the holder.
 */
void out_lock_file(const char *path, const char *cmd);

#endif
