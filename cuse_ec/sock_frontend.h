/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sock_frontend.h - cuse_ec's second front end: the device's file
 * operations over a UNIX socket (devsock/devsock.h) instead of CUSE, for
 * hosts without /dev/cuse and for the sanitizers, which cannot run inside
 * user-mode-linux. Each connection is one open file; the calls made on it
 * are the chardev seam's (chardev.h), exactly as the CUSE front end makes
 * them, so modes, unplugs, stats and the trace behave the same.
 */
#ifndef CUSE_EC_SOCK_FRONTEND_H
#define CUSE_EC_SOCK_FRONTEND_H

#include "chardev.h"

/* Most connections (open files) served at once; more are refused (EMFILE). */
#define SOCK_FRONTEND_CONNS_MAX 256
/* Most threads one connection uses: ioctls of one file in flight at once. */
#define SOCK_FRONTEND_WORKERS_MAX 16

struct sock_frontend;

/**
 * sock_frontend_chardev_ops() - the callbacks a chardev context served by
 * this front end needs (parked reads, poll wake-ups).
 * @ops: filled in; the caller sets @ops->log and @ops->ctx
 */
void sock_frontend_chardev_ops(struct chardev_ops *ops);

/**
 * sock_frontend_catch_signals() - SIGTERM, SIGINT and SIGHUP end
 * sock_frontend_run(). Call before shutdown_watch_start(), which runs
 * first and hands the signal on to this handler once the waiters are out.
 *
 * Return: 0 or -errno.
 */
int sock_frontend_catch_signals(void);

/**
 * sock_frontend_start() - listen at @path for files of @ctx.
 * @ctx:  the chardev context (its ops from sock_frontend_chardev_ops())
 * @path: the socket; a stale one is replaced, a live one refused
 * @out:  the front end
 *
 * Return: 0; -EADDRINUSE when another server listens at @path; -EINVAL for
 * a path too long for a socket address; or -errno.
 */
int sock_frontend_start(struct chardev_ctx *ctx, const char *path, struct sock_frontend **out);

/**
 * sock_frontend_run() - accept connections until an exit signal.
 * @fe: the front end
 *
 * Return: the signal that ended it, or -errno.
 */
int sock_frontend_run(struct sock_frontend *fe);

/**
 * sock_frontend_run_all() - sock_frontend_run() for several front ends in
 * one thread: a daemon's devices, each its own socket and chardev.
 * @fes: the front ends
 * @n:   how many, at least 1
 *
 * Return: the signal that ended it, -EINVAL for no front end, or -errno.
 */
int sock_frontend_run_all(struct sock_frontend *const *fes, size_t n);

/**
 * sock_frontend_unlink() - remove the socket if it is still ours (the
 * process is about to exit without its teardown).
 * @fe: the front end, or NULL
 */
void sock_frontend_unlink(struct sock_frontend *fe);

/**
 * sock_frontend_stop() - stop accepting, end every connection (its file is
 * released once its operations in flight return), remove the socket, free.
 * @fe: the front end, or NULL
 *
 * Call after chardev_shutdown(): then no operation waits for long.
 */
void sock_frontend_stop(struct sock_frontend *fe);

#endif /* CUSE_EC_SOCK_FRONTEND_H */
