/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control.h - the daemon's control socket: one text command per line.
 *
 *   unplug          start an unplug (asynchronous revoke); replies at once
 *   unplug wait     the same, but the reply comes once the EC is gone
 *                   (in-flight commands finished); the control thread keeps
 *                   serving other clients meanwhile
 *   plug            create a fresh EC
 *   status          plugged/unplugged, mode, open files
 *   stats           every counter as key=value
 *   inject EVENT    lid-open | lid-close | power-button | ac-plug | ac-unplug
 *   latency NS      latency every host command spends inside the EC (this
 *                   EC and every later one)
 *   trace           the lifecycle event log: a header line
 *                   "ok trace events=N dropped=D capacity=C", then exactly N
 *                   lines, one event each (chardev_trace.h), oldest first
 *   trace clear     forget the events so far (numbers keep counting)
 *   help            the list above
 *
 * Replies are one line, "ok ..." or "error <reason>", except the N event
 * lines that follow "ok trace events=N".
 */
#ifndef CUSE_EC_CONTROL_H
#define CUSE_EC_CONTROL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctl/ctl.h"
#include "ec/ec.h"

struct chardev_ctx;
struct control_server;

/* The server thread's name (top -H, /proc/PID/task/TID/comm). */
#define CONTROL_THREAD_NAME "ec-control"


enum control_verb {
	CONTROL_UNPLUG,
	CONTROL_UNPLUG_WAIT,
	CONTROL_PLUG,
	CONTROL_STATUS,
	CONTROL_STATS,
	CONTROL_INJECT,
	CONTROL_LATENCY,
	CONTROL_HELP,
	CONTROL_TRACE,
	CONTROL_TRACE_CLEAR,
};


/**
 * struct control_cmd - one parsed command line.
 * @verb:       what to do
 * @stimulus:   CONTROL_INJECT: the event
 * @latency_ns: CONTROL_LATENCY: the latency
 */
struct control_cmd {
	enum control_verb verb;
	enum ec_stimulus stimulus;
	uint64_t latency_ns;
};

/**
 * control_parse() - parse one command line (no newline).
 * @line:   the text, NUL-terminated
 * @cmd:    the command
 * @err:    on failure, the reason (without the "error " prefix)
 * @errlen: room in @err
 *
 * Return: 0, or -EINVAL with @err set.
 */
int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen);

/**
 * control_execute() - run a command that replies at once.
 * @ctx:   the daemon
 * @cmd:   a parsed command other than CONTROL_UNPLUG_WAIT and CONTROL_TRACE
 *         (which need the server: a reply later, several lines)
 * @reply: the one-line reply, "ok ..." or "error ..." (no newline)
 * @len:   room in @reply
 *
 * Return: 0 on "ok", -errno on "error".
 */
int control_execute(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		    char *reply, size_t len);

/**
 * control_server_start() - listen on @path and serve it from a new thread.
 * @ctx:  the daemon
 * @path: unix socket path
 * @out:  the server
 *
 * A stale socket at @path (nobody answers on it) is replaced; a live one,
 * another server's, is left alone. The socket's file is created with mode
 * 0666 by bind() itself, whatever the process umask, and nothing at @path
 * is changed afterwards. Only peers with uid 0 or the daemon's own uid are
 * served (SO_PEERCRED); others get "error permission denied".
 *
 * Return: 0; -EADDRINUSE when a server answers at @path or something that
 * is not a socket is there; -EEXIST when @path no longer named our socket
 * right after bind (someone who can write its directory replaced it); or
 * another -errno.
 */
int control_server_start(struct chardev_ctx *ctx, const char *path, struct control_server **out);

/* Default of --control-idle-timeout, in seconds. */
#define CONTROL_IDLE_TIMEOUT_DEFAULT_S 60

/**
 * control_server_unlink() - remove the socket's path now, if it still names
 * this server's socket (a process about to exit without its teardown).
 * @srv: the server; NULL is ignored
 */
void control_server_unlink(struct control_server *srv);

/**
 * control_server_set_idle_timeout() - close connections silent this long
 * (CONTROL_IDLE_TIMEOUT_DEFAULT_S until set); one waiting for an
 * "unplug wait" reply is not silent.
 * @srv: the server
 * @ms:  the timeout, 0 for never
 */
void control_server_set_idle_timeout(struct control_server *srv, unsigned int ms);

/**
 * control_server_stop() - stop the thread, close the socket, and unlink its
 * path unless another server has bound a socket there since.
 * @srv: the server; NULL is ignored
 *
 * Waits (up to 10 s) for "unplug wait" completions still due; if one does
 * not come, the server is leaked rather than freed under it.
 */
void control_server_stop(struct control_server *srv);

#endif /* CUSE_EC_CONTROL_H */
