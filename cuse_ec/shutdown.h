/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * shutdown.h - SIGTERM/SIGINT/SIGHUP as an unplug first: every parked
 * reader and poller is woken at once, commands in flight get a bounded
 * time to finish, then the daemon exits.
 */
#ifndef CUSE_EC_SHUTDOWN_H
#define CUSE_EC_SHUTDOWN_H

#include <stddef.h>

#include "chardev.h"

/* The signals that end the daemon (unplug first), for every front end. */
#define SHUTDOWN_NSIG 3
extern const int shutdown_signals[SHUTDOWN_NSIG];

/* Default of --shutdown-timeout: seconds commands in flight may take. */
#define SHUTDOWN_TIMEOUT_DEFAULT_S 10

struct shutdown_watch;

/**
 * shutdown_watch_start() - watch for the exit signals.
 * @ctxs:       the chardevs whose ECs are revoked on a signal, every one
 *              at once (the daemon's devices)
 * @n:          how many, at least 1
 * @timeout_ms: how long commands in flight may go on after the signal
 * @abandon:    run just before the process exits because that time ran
 *              out (remove what must not outlive the daemon); may be NULL
 * @arg:        passed to @abandon
 * @out:        the watch
 *
 * Call after the front end installed its own handlers (its ->setup),
 * from the thread that runs ->run: the signal is handed on to the front
 * end's handler there once the waiters are out. One watch per process.
 *
 * Return: 0, -EINVAL for a bad @n, or -errno.
 */
int shutdown_watch_start(struct chardev_ctx *const *ctxs, size_t n, unsigned int timeout_ms,
			 void (*abandon)(void *arg), void *arg, struct shutdown_watch **out);

/**
 * shutdown_watch_stop() - restore the previous handlers and end the watch,
 * waiting for a shutdown it started (which is bounded by @timeout_ms).
 * @w: the watch, or NULL
 */
void shutdown_watch_stop(struct shutdown_watch *w);

#endif /* CUSE_EC_SHUTDOWN_H */
