/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * frontend.h - how the daemon serves one node: through CUSE, as the
 * kernel's /dev/NAME (frontend_cuse.c), or as the device socket DIR/NAME
 * that the preload library speaks (frontend_sock.c over sock_frontend.c).
 *
 * cuse_main.c picks one front end per node and calls its operations at
 * fixed points of the daemon's phases; everything else (options, the
 * chardev with its EC, the control socket, udev following, the shutdown
 * watch, the teardown) is the same for every front end and is done there
 * once per device. An instance serves one node, one chardev context: a
 * daemon that serves several nodes (--device) has one instance per node,
 * all of one front end, and ->run serves them together.
 *
 * The phases, in cuse_main.c's order (each operation's comment says what
 * the daemon has done before it, which is what it may rely on):
 *
 *   1 on the terminal, no thread:  per device: profile, ->setup
 *   2 fuse_daemonize()
 *   3 the process that stays:      clock; per device: ->start, chardev
 *                                  (->chardev_ops), first EC, ->attach,
 *                                  udev following; then the control
 *                                  socket and the shutdown watch (all
 *                                  devices)
 *   4                              ->run (every instance), until an exit
 *                                  signal
 *   5 teardown:                    watch, control, every udev stop; every
 *                                  revoke; every ->stop; the chardevs and
 *                                  the rest freed; the instance locks let
 *                                  go last
 *   (the shutdown watch's timeout, instead of 5: ->abandon, then _exit)
 */
#ifndef CUSE_EC_FRONTEND_H
#define CUSE_EC_FRONTEND_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "chardev.h"

struct cuse_ec_frontend;

/**
 * struct cuse_ec_frontend_config - the node an instance serves and what
 * the daemon lends it. Strings must outlive the instance.
 * @name:         the node's name: /dev/@name, the lock's and the socket's name
 * @socket_path:  the device socket, DIR/@name made absolute; "" for CUSE
 * @lifecycle:    the lifecycle mode's name, for the "serving" line
 * @node_mode:    --mode, or -1
 * @owner:        --owner, or (uid_t)-1
 * @group:        --group, or (gid_t)-1
 * @started_usec: CLOCK_MONOTONIC at the daemon's start, in microseconds
 *                (node_setup.h: an older udev entry of the number is not ours)
 * @argv0:        the program's name, for libfuse's command line
 * @debug:        -d: libfuse prints every request
 * @log:          the messages' sink, already filtered by --log-level
 * @drop_root:    --user: become the user for good; logs its failure and
 *                returns -1 (the front end then ends the daemon, status 1);
 *                NULL without --user
 * @arg:          passed to @log and @drop_root
 */
struct cuse_ec_frontend_config {
	const char *name;
	const char *socket_path;
	const char *lifecycle;
	int node_mode;
	uid_t owner;
	gid_t group;
	uint64_t started_usec;
	const char *argv0;
	bool debug;
	void (*log)(void *arg, int level, const char *msg);
	int (*drop_root)(void *arg);
	void *arg;
};

/**
 * struct cuse_ec_frontend_ops - one front end; every member is required
 * unless it says "may be NULL".
 * @name:        "cuse" or "socket"
 * @size:        the size of the front end's instance, whose first member
 *               is its struct cuse_ec_frontend
 * @kernel_node: it makes a kernel node /dev/NAME, which udev following
 *               watches unless --no-udev (a socket follows only a named one)
 * @describe:    where it would serve @cfg's node, for --check's line
 *               ("through CUSE", "as PATH"); needs no instance
 * @setup:       phase 1, on the terminal: claim the node's name (the
 *               instance lock in @fe->lock_fd), open what needs root, catch
 *               the exit signals; start no thread (the daemon forks next).
 *               Reports its failures on stderr; returns 0 or -1
 * @start:       phase 3, in the process that stays, before any thread of
 *               the daemon's; may be NULL
 * @chardev_ops: the chardev callbacks for what completes later (parked
 *               reads, poll wake-ups); the daemon sets ops->log and ops->ctx
 * @attach:      phase 3: @ctx exists with its first EC; make the node
 *               reachable if that needs the chardev. Logs its failures;
 *               returns 0 or -1
 * @run:         phase 4: serve @fes[0..@n), every instance of this front
 *               end the daemon has (one per device), from the calling
 *               thread, until an exit signal, which ends every instance;
 *               runs --user's drop once, when what needs root is open
 *               for every instance; logs "exiting (why)". Returns the
 *               exit status, 0 or 1
 * @stop:        phase 5, after chardev_shutdown() (no operation waits for
 *               long): end every open file, close the node, undo @setup,
 *               @start and @attach, whatever of them happened; the lock stays
 * @abandon:     the process exits without its teardown: remove what a next
 *               daemon would trip over. Runs on the shutdown watch's thread
 */
struct cuse_ec_frontend_ops {
	const char *name;
	size_t size;
	bool kernel_node;
	void (*describe)(const struct cuse_ec_frontend_config *cfg, char *buf, size_t size);
	int (*setup)(struct cuse_ec_frontend *fe);
	void (*start)(struct cuse_ec_frontend *fe);
	void (*chardev_ops)(struct chardev_ops *ops);
	int (*attach)(struct cuse_ec_frontend *fe, struct chardev_ctx *ctx);
	int (*run)(struct cuse_ec_frontend *const *fes, size_t n);
	void (*stop)(struct cuse_ec_frontend *fe);
	void (*abandon)(struct cuse_ec_frontend *fe);
};

/**
 * struct cuse_ec_frontend - what every instance has; a front end's own
 * instance embeds it first.
 * @ops:     its front end
 * @cfg:     its node (a copy)
 * @lock_fd: the instance lock on the node's name (node_lock_instance()),
 *           or -1; let go by cuse_ec_frontend_destroy(), last
 */
struct cuse_ec_frontend {
	const struct cuse_ec_frontend_ops *ops;
	struct cuse_ec_frontend_config cfg;
	int lock_fd;
};

/* The front ends. */
extern const struct cuse_ec_frontend_ops frontend_cuse_ops;
extern const struct cuse_ec_frontend_ops frontend_sock_ops;

/**
 * cuse_ec_frontend_create() - an instance of @ops for @cfg's node, nothing
 * set up yet.
 * @ops: the front end
 * @cfg: the node; copied
 * @out: the instance
 *
 * Return: 0 or -ENOMEM.
 */
int cuse_ec_frontend_create(const struct cuse_ec_frontend_ops *ops,
			    const struct cuse_ec_frontend_config *cfg, struct cuse_ec_frontend **out);

/**
 * cuse_ec_frontend_destroy() - let go of the instance lock and free.
 * @fe: the instance, stopped (->stop), or NULL
 *
 * Call last in the teardown: a next daemon for the name may start at once.
 */
void cuse_ec_frontend_destroy(struct cuse_ec_frontend *fe);

/**
 * cuse_ec_frontend_log() - a front end's message, to the daemon's sink.
 * @fe:    the instance
 * @level: a CHARDEV_LOG_* (syslog) level
 * @fmt:   printf format; the line is cut at 255 bytes
 */
void cuse_ec_frontend_log(const struct cuse_ec_frontend *fe, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * cuse_ec_frontend_block_signals() - block the exit signals in the calling
 * thread: threads the daemon makes leave them to the front end's loop (the
 * thread that runs ->run), and the teardown holds them pending.
 * @old: where the previous mask goes, or NULL
 */
void cuse_ec_frontend_block_signals(sigset_t *old);

#endif /* CUSE_EC_FRONTEND_H */
