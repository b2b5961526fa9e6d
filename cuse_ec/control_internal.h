/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control_internal.h - what the control socket's two halves share: the
 * verbs (control.c: parser, one-shot commands, "trace", "unplug wait") and
 * the server (control_server.c: listening, clients, the poll loop, waiters,
 * idle timeout, eviction), and the verbs that move the EC's hardware
 * (control_hw.c). Not for use outside those files.
 */
#ifndef CUSE_EC_CONTROL_INTERNAL_H
#define CUSE_EC_CONTROL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "chardev_trace.h"
#include "common/common.h"
#include "control.h"

#define CONTROL_MAX_CLIENTS 16

/**
 * struct control_verb - one control verb: the only place it is declared.
 * @name:  the words that select it: "plug", "unplug wait"
 * @value: NULL, or the placeholder of the value it takes last ("NS"), which
 *         @parse reads
 * @help:  what it does, for "help VERB"
 * @arg:   a constant of the row for @parse or @now (a button's code,
 *         "motion tablet on"'s 1)
 * @parse: reads the value into the command; -EINVAL with a reason
 * @now:   runs a verb whose one-line reply is ready at once
 * @serve: runs a verb that needs the server (several lines, a later reply)
 *
 * Exactly one of @now and @serve is set. A line selects the row whose
 * @name its first words are and whose @value it has; rows are tried in
 * table order, so with two rows of one first word the literal one comes
 * first (tests/cuse_ec/test_control_options.c checks the table). The
 * table is control.c's; the verbs' functions are in control.c and
 * control_hw.c.
 */
struct control_verb {
	const char *name;
	const char *value;
	const char *help;
	unsigned int arg;
	int (*parse)(const char *value, struct control_cmd *cmd, char *err, size_t errlen);
	int (*now)(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		   char *reply, size_t len);
	void (*serve)(struct control_server *srv, int idx, const struct control_cmd *cmd);
};

/* Longest press "button" takes: above a minute it is a stuck button. */
#define CONTROL_PRESS_MS_MAX 60000

/* control_hw.c: the hardware verbs' values (the verb table's @parse)... */
int control_parse_angle(const char *value, struct control_cmd *cmd, char *err, size_t errlen);
int control_parse_press(const char *value, struct control_cmd *cmd, char *err, size_t errlen);
/* ... and handlers (@now): "ok ..." or an error naming why, -errno. */
int control_do_motion_angle(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			    char *reply, size_t len);
int control_do_motion_tablet(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len);
int control_do_button(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		      char *reply, size_t len);

/**
 * struct control_waiter - an "unplug wait" whose reply is still due.
 * @next:   server list link
 * @srv:    the server, to wake its loop
 * @client: index of the waiting client, -1 once it disconnected
 * @done:   set by the unplug completion (any thread), under srv->lock
 * @result: the unplug's result, valid once @done
 */
struct control_waiter {
	struct control_waiter *next;
	struct control_server *srv;
	int client;
	bool done;
	int result;
};

/*
 * Bytes of replies one client may have waiting to be sent: far more than
 * any one reply (a trace is produced line by line as this drains), so
 * only a peer that stopped reading fills it, and that peer is dropped.
 */
#define CONTROL_OUT_MAX 65536

/**
 * struct control_client - one connection.
 * @fd:       socket, -1 when the slot is free
 * @len:      bytes in @buf
 * @discard:  an overlong line is being skipped up to its newline
 * @waiting:  an "unplug wait" reply is pending; later lines wait too
 * @eof:      the peer shut its side; close once the pending reply is sent
 * @overflow: a reply did not fit in @out: the peer stopped reading
 * @last_ms:  when it last sent something, took some of its replies, or
 *            was accepted (monotonic ms)
 * @out:      replies not yet taken by the socket (CONTROL_OUT_MAX bytes)
 * @out_off:  first unsent byte in @out
 * @out_len:  end of the unsent bytes in @out
 * @trace:    a "trace" reply being produced as @out drains (its later
 *            lines wait), NULL when none
 * @trace_n:  events in @trace
 * @trace_i:  the next one to format
 * @buf:      partial line
 */
struct control_client {
	int fd;
	size_t len;
	bool discard;
	bool waiting;
	bool eof;
	bool overflow;
	uint64_t last_ms;
	char *out;
	size_t out_off;
	size_t out_len;
	struct chardev_trace_entry *trace;
	size_t trace_n;
	size_t trace_i;
	char buf[CTL_LINE_MAX + 2];
};

/**
 * struct control_server - the control thread's state.
 * @ctx:     the first device's context (the default one, and the logs')
 * @devices: the devices served (control_server_start_devices())
 * @n_devices: how many
 * @device_names: their names joined by commas, for "info"
 * @path:    socket path (unlinked at stop)
 * @listen_fd: listening socket
 * @wake:    self-pipe: [0] polled by the thread, [1] written to stop it or to
 *           report an unplug completion
 * @sock_id: the socket file bound at @path (is it still ours?)
 * @stop:    set to end the thread
 * @thread:  the control thread
 * @lock:    protects every waiter's @done and @result, and orders the
 *           completions' last touch of the server before stop frees it
 * @waiter_done: signalled (under @lock) when a waiter's unplug completed
 * @waiters: outstanding "unplug wait"s (list touched by the control thread,
 *           then by stop once the thread is gone)
 * @idle_timeout_ms: a connection silent this long is closed (0: never)
 * @refusal_log_ms: when the last refusal warning was logged
 * @refusals_unlogged: refusals since then, counted but not logged
 * @clients: connections
 */
struct control_server {
	struct chardev_ctx *ctx;
	struct control_device devices[CTL_DEVICES_MAX];
	size_t n_devices;
	char device_names[CTL_DEVICES_MAX * CTL_DEVICE_NAME_MAX];
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int listen_fd;
	int wake[2];
	struct unix_sock_id sock_id;
	atomic_bool stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t waiter_done;
	struct control_waiter *waiters;
	atomic_uint idle_timeout_ms;
	uint64_t refusal_log_ms;
	unsigned int refusals_unlogged;
	struct control_client clients[CONTROL_MAX_CLIENTS];
};

/**
 * control_send_bytes() - queue @len bytes of reply for a client and send
 * what its socket takes now; the rest goes out as the peer reads.
 * @cl:  the client
 * @buf: the bytes
 * @len: how many
 *
 * Never waits. A reply that does not fit in the client's output buffer
 * sets its @overflow: the server drops that client (it stopped reading).
 *
 * Return: 0, or -1 when the client went away or overflowed.
 */
int control_send_bytes(struct control_client *cl, const char *buf, size_t len);

/**
 * control_send() - queue one reply line for a client (control_send_bytes()).
 * @cl:    the client
 * @reply: the line, without its newline (added here)
 */
void control_send(struct control_client *cl, const char *reply);

/**
 * control_send_error() - queue an error reply (ctl_error()'s form).
 * @cl:     the client
 * @err:    -errno of what failed
 * @reason: the reason, for people
 */
void control_send_error(struct control_client *cl, int err, const char *reason);

/**
 * control_trace_fill() - format more of the client's "trace" reply into
 * its output buffer, as far as it has room; free the snapshot at the end.
 * @cl: a client with @trace set
 *
 * Return: 0, or -1 when the client went away.
 */
int control_trace_fill(struct control_client *cl);

/**
 * control_handle_line() - run one command line a client sent and reply.
 * @srv:  the server
 * @idx:  the client's index in @srv->clients
 * @line: the line, newline removed, NUL-terminated
 * @len:  its length as received (a NUL inside makes strlen() shorter)
 *
 * Runs in the control thread. An "unplug wait" lists a waiter and sets the
 * client's @waiting; the reply comes from the server once it completes.
 */
void control_handle_line(struct control_server *srv, int idx, const char *line, size_t len);

#endif /* CUSE_EC_CONTROL_INTERNAL_H */
