/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * path_wait.h - wait, event-driven (inotify), for a directory entry to
 * appear and be ready: the daemon's /dev node, and udevd's database entry
 * for it. No polling: the wait sleeps in poll() until the directory changes
 * or the deadline passes.
 */
#ifndef CUSE_EC_PATH_WAIT_H
#define CUSE_EC_PATH_WAIT_H

#include <stdbool.h>

/**
 * typedef path_wait_ready_fn - is the entry there and ready?
 * @path: the entry's full path, "DIR/NAME"
 * @arg:  the caller's argument to path_wait()
 *
 * Called again after each change in the directory, so it should be cheap
 * and side-effect free beyond filling @arg (e.g. with the entry's stat).
 *
 * Return: true once the wait is over.
 */
typedef bool (*path_wait_ready_fn)(const char *path, void *arg);

/**
 * path_wait() - wait until DIR/NAME exists and is ready.
 * @dir:        the directory, which may not exist yet (its parent must)
 * @name:       the entry, one path component (no '/')
 * @ready:      the readiness test, or NULL for "exists" (access(F_OK))
 * @arg:        passed to @ready
 * @timeout_ms: the deadline, from now; 0 checks once
 *
 * The directory is watched before the entry is checked, so an entry made
 * between the check and the watch cannot be missed. A directory that does
 * not exist yet is waited for through its parent, then watched itself.
 *
 * Return: 0 once @ready says so, -ETIMEDOUT at the deadline, -EINVAL for a
 * bad @name or @timeout_ms, -ENAMETOOLONG, -ENOENT when neither @dir nor
 * its parent exists, or another -errno from inotify or poll.
 */
int path_wait(const char *dir, const char *name, path_wait_ready_fn ready, void *arg,
	      int timeout_ms);

#endif /* CUSE_EC_PATH_WAIT_H */
