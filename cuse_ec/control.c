// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control.c - the control socket (see control.h): a parser that is tested on
 * its own, and a poll()-driven server thread that never blocks on the EC's
 * readers (unplugs are asynchronous; "unplug wait" replies on completion).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "chardev.h"
#include "chardev_trace.h"
#include "control.h"

#define CONTROL_MAX_CLIENTS 16
/* At most one refusal warning per this many ms; the rest are counted. */
#define CONTROL_REFUSAL_LOG_MS 1000
/* How long stop waits for "unplug wait" completions still outstanding. */
#define CONTROL_STOP_WAIT_S 10

static const struct {
	const char *name;
	enum ec_stimulus stimulus;
} control_stimuli[] = {
	{ "lid-open", EC_STIM_LID_OPEN },
	{ "lid-close", EC_STIM_LID_CLOSE },
	{ "power-button", EC_STIM_POWER_BUTTON },
	{ "ac-plug", EC_STIM_AC_PLUG },
	{ "ac-unplug", EC_STIM_AC_UNPLUG },
	{ "wp-assert", EC_STIM_WP_ASSERT },
	{ "wp-deassert", EC_STIM_WP_DEASSERT },
};

static const char control_help[] =
	"ok commands: unplug [wait], plug, status, stats, "
	"inject lid-open|lid-close|power-button|ac-plug|ac-unplug|wp-assert|wp-deassert, latency <ns>, "
	"trace [clear], help";

/* Split off the next space-separated word; returns NULL at the end. */
static char *control_next_word(char **cursor)
{
	char *s = *cursor, *word;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*cursor = s;
		return NULL;
	}
	word = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*cursor = s;
	return word;
}

/**
 * control_parse() - parse one command line.
 * @line:   the text
 * @cmd:    the command
 * @err:    reason on failure
 * @errlen: room in @err
 *
 * Return: 0 or -EINVAL.
 */
int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen)
{
	char buf[CONTROL_LINE_MAX + 1], *cursor = buf, *verb, *arg, *extra, *end;
	unsigned long long ns;
	size_t len, i;

	memset(cmd, 0, sizeof(*cmd));
	len = strlen(line);
	if (len > CONTROL_LINE_MAX) {
		snprintf(err, errlen, "line too long (max %d bytes)", CONTROL_LINE_MAX);
		return -EINVAL;
	}
	/* Tolerate the CR of clients that send CRLF. */
	memcpy(buf, line, len + 1);
	if (len && buf[len - 1] == '\r')
		buf[--len] = '\0';
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c < 0x20 && c != '\t') {
			snprintf(err, errlen, "control character in command");
			return -EINVAL;
		}
		if (c >= 0x7f) {
			snprintf(err, errlen, "non-ASCII byte in command");
			return -EINVAL;
		}
	}

	verb = control_next_word(&cursor);
	if (!verb) {
		snprintf(err, errlen, "empty command (try 'help')");
		return -EINVAL;
	}
	arg = control_next_word(&cursor);
	extra = arg ? control_next_word(&cursor) : NULL;

	if (!strcmp(verb, "unplug")) {
		if (arg && strcmp(arg, "wait")) {
			snprintf(err, errlen, "usage: unplug [wait]");
			return -EINVAL;
		}
		cmd->verb = arg ? CONTROL_UNPLUG_WAIT : CONTROL_UNPLUG;
	} else if (!strcmp(verb, "trace")) {
		if (arg && strcmp(arg, "clear")) {
			snprintf(err, errlen, "usage: trace [clear]");
			return -EINVAL;
		}
		cmd->verb = arg ? CONTROL_TRACE_CLEAR : CONTROL_TRACE;
	} else if (!strcmp(verb, "plug") || !strcmp(verb, "status") ||
		   !strcmp(verb, "stats") || !strcmp(verb, "help")) {
		if (arg) {
			snprintf(err, errlen, "'%s' takes no argument", verb);
			return -EINVAL;
		}
		cmd->verb = !strcmp(verb, "plug") ? CONTROL_PLUG :
			    !strcmp(verb, "status") ? CONTROL_STATUS :
			    !strcmp(verb, "stats") ? CONTROL_STATS : CONTROL_HELP;
		return 0;
	} else if (!strcmp(verb, "inject")) {
		if (!arg) {
			snprintf(err, errlen, "usage: inject lid-open|lid-close|power-button|"
				 "ac-plug|ac-unplug");
			return -EINVAL;
		}
		for (i = 0; i < sizeof(control_stimuli) / sizeof(control_stimuli[0]); i++) {
			if (!strcmp(arg, control_stimuli[i].name))
				break;
		}
		if (i == sizeof(control_stimuli) / sizeof(control_stimuli[0])) {
			snprintf(err, errlen, "unknown event '%.40s'", arg);
			return -EINVAL;
		}
		cmd->verb = CONTROL_INJECT;
		cmd->stimulus = control_stimuli[i].stimulus;
	} else if (!strcmp(verb, "latency")) {
		if (!arg || arg[0] < '0' || arg[0] > '9') {
			snprintf(err, errlen, "usage: latency <nanoseconds>");
			return -EINVAL;
		}
		errno = 0;
		ns = strtoull(arg, &end, 10);
		/* Above 60 s a "latency" is a hang; refuse it. */
		if (errno || *end || ns > 60000000000ULL) {
			snprintf(err, errlen, "latency must be 0..60000000000 ns");
			return -EINVAL;
		}
		cmd->verb = CONTROL_LATENCY;
		cmd->latency_ns = ns;
	} else {
		snprintf(err, errlen, "unknown command '%.40s' (try 'help')", verb);
		return -EINVAL;
	}
	if (extra) {
		snprintf(err, errlen, "unexpected argument '%.40s'", extra);
		return -EINVAL;
	}
	return 0;
}

static int control_inject(struct ec *ec, void *arg)
{
	return ec_apply_stimulus(ec, *(const enum ec_stimulus *)arg);
}

static int control_kb_backlight(struct ec *ec, void *arg)
{
	(void)arg;
	return ec_kb_backlight_percent(ec);
}

/**
 * control_execute() - run a command that replies at once.
 * @ctx:   the daemon
 * @cmd:   the command
 * @reply: the reply line
 * @len:   room in @reply
 *
 * Return: 0 or -errno.
 */
int control_execute(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		    char *reply, size_t len)
{
	struct chardev_stats st;
	char kb[32] = "";
	bool held;
	int ret = 0;

	switch (cmd->verb) {
	case CONTROL_UNPLUG:
		/* Before the unplug: no uevent "add" may slip in after it. */
		held = chardev_operator_hold(ctx);
		chardev_set_operator_hold(ctx, true);
		ret = chardev_unplug_async(ctx, NULL, NULL);
		if (ret == -ENODEV) {
			snprintf(reply, len, "error not plugged");
		} else if (ret) {
			/* The EC stays: so does whatever held it before. */
			chardev_set_operator_hold(ctx, held);
			snprintf(reply, len, "error unplug failed: %s", strerror(-ret));
		} else {
			snprintf(reply, len, "ok unplug started");
		}
		return ret;
	case CONTROL_PLUG:
		chardev_set_operator_hold(ctx, false);
		ret = chardev_plug(ctx);
		if (ret == -EBUSY)
			snprintf(reply, len, "error already plugged");
		else if (ret)
			snprintf(reply, len, "error plug failed: %s", strerror(-ret));
		else
			snprintf(reply, len, "ok plugged");
		return ret;
	case CONTROL_STATUS:
		/* -ENODEV: no EC, or a board without a keyboard backlight. */
		ret = chardev_with_ec(ctx, control_kb_backlight, NULL);
		if (ret >= 0)
			snprintf(kb, sizeof(kb), " kb_backlight=%d", ret);
		snprintf(reply, len, "ok %s lifecycle=%s open_files=%" PRIu64 "%s",
			 chardev_is_plugged(ctx) ? "plugged" : "unplugged",
			 lifecycle_mode_name(chardev_mode(ctx)), chardev_open_files(ctx), kb);
		return 0;
	case CONTROL_STATS:
		chardev_stats(ctx, &st);
		/* "ok " and the counters; a cut reply would mislead, so refuse. */
		if (len < 4 || chardev_stats_format(&st, reply + 3, len - 3) >= len - 3) {
			snprintf(reply, len, "error stats do not fit");
			return -EMSGSIZE;
		}
		memcpy(reply, "ok ", 3);
		return 0;
	case CONTROL_INJECT:
		ret = chardev_with_ec(ctx, control_inject, (void *)&cmd->stimulus);
		if (ret == -ENODEV)
			snprintf(reply, len, "error not plugged");
		else if (ret)
			snprintf(reply, len, "error inject failed: %s", strerror(-ret));
		else
			snprintf(reply, len, "ok injected");
		return ret;
	case CONTROL_LATENCY:
		ret = chardev_set_latency(ctx, cmd->latency_ns);
		snprintf(reply, len, "ok latency %" PRIu64 " ns%s", cmd->latency_ns,
			 ret == -ENODEV ? " (from the next plug)" : "");
		return 0;
	case CONTROL_HELP:
		snprintf(reply, len, "%s", control_help);
		return 0;
	case CONTROL_TRACE_CLEAR:
		chardev_trace_clear(chardev_trace(ctx));
		snprintf(reply, len, "ok trace cleared");
		return 0;
	case CONTROL_UNPLUG_WAIT:
	case CONTROL_TRACE:
		break;
	}
	snprintf(reply, len, "error command needs the server");
	return -EINVAL;
}

/* ---- the server ---- */

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

/**
 * struct control_client - one connection.
 * @fd:       socket, -1 when the slot is free
 * @len:      bytes in @buf
 * @discard:  an overlong line is being skipped up to its newline
 * @waiting:  an "unplug wait" reply is pending; later lines wait too
 * @eof:      the peer shut its side; close once the pending reply is sent
 * @last_ms:  when it last sent something or was accepted (monotonic ms)
 * @buf:      partial line
 */
struct control_client {
	int fd;
	size_t len;
	bool discard;
	bool waiting;
	bool eof;
	uint64_t last_ms;
	char buf[CONTROL_LINE_MAX + 2];
};

/**
 * struct control_server - the control thread's state.
 * @ctx:     the daemon
 * @path:    socket path (unlinked at stop)
 * @listen_fd: listening socket
 * @wake:    self-pipe: [0] polled by the thread, [1] written to stop it or to
 *           report an unplug completion
 * @sock_dev: device of the socket bound at @path (is it still ours?)
 * @sock_ino: its inode
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
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int listen_fd;
	int wake[2];
	dev_t sock_dev;
	ino_t sock_ino;
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

static uint64_t control_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * A refused connection costs the peer nothing; a warning per refusal would
 * let anyone flood the log. One per CONTROL_REFUSAL_LOG_MS, with a count.
 */
static void control_log_refusal(struct control_server *srv, const char *why)
{
	uint64_t now = control_now_ms();

	if (srv->refusal_log_ms && now - srv->refusal_log_ms < CONTROL_REFUSAL_LOG_MS) {
		srv->refusals_unlogged++;
		return;
	}
	if (srv->refusals_unlogged)
		chardev_log(srv->ctx, CHARDEV_LOG_WARNING,
			    "control: refused a peer (%s); %u more refused before, not logged",
			    why, srv->refusals_unlogged);
	else
		chardev_log(srv->ctx, CHARDEV_LOG_WARNING, "control: refused a peer (%s)", why);
	srv->refusal_log_ms = now;
	srv->refusals_unlogged = 0;
}

/* How long one reply may wait for a client that does not read it. */
#define CONTROL_SEND_TIMEOUT_MS 5000

/*
 * Send @len bytes on the client's non-blocking socket, waiting (bounded)
 * while its buffer is full: a trace is far larger than one socket buffer.
 * Return: 0, or -1 when the client went away or stopped reading.
 */
static int control_send_bytes(struct control_client *cl, const char *buf, size_t len)
{
	struct pollfd pfd = { .fd = cl->fd, .events = POLLOUT };
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = send(cl->fd, buf + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (poll(&pfd, 1, CONTROL_SEND_TIMEOUT_MS) <= 0)
				return -1;
			continue;
		}
		if (n <= 0)
			return -1;	/* the client went away; its next poll says so */
		off += (size_t)n;
	}
	return 0;
}

static void control_send(struct control_client *cl, const char *reply)
{
	if (!control_send_bytes(cl, reply, strlen(reply)))
		control_send_bytes(cl, "\n", 1);
}

/* "trace": the header, then one line per event, in chunks of many lines. */
static void control_send_trace(struct control_server *srv, struct control_client *cl)
{
	struct chardev_trace *tr = chardev_trace(srv->ctx);
	size_t cap = chardev_trace_capacity(tr), n, i, len, used = 0;
	struct chardev_trace_entry *events;
	char chunk[16384];
	uint64_t dropped;

	events = calloc(cap, sizeof(*events));
	if (!events) {
		control_send(cl, "error out of memory");
		return;
	}
	n = chardev_trace_snapshot(tr, events, cap, &dropped);
	used = (size_t)snprintf(chunk, sizeof(chunk),
				CONTROL_TRACE_HEADER "%zu dropped=%" PRIu64 " capacity=%zu\n",
				n, dropped, cap);
	for (i = 0; i < n; i++) {
		if (sizeof(chunk) - used < CHARDEV_TRACE_LINE_MAX + 1) {
			if (control_send_bytes(cl, chunk, used))
				goto out;
			used = 0;
		}
		len = chardev_trace_format(&events[i], chunk + used, CHARDEV_TRACE_LINE_MAX);
		used += len < CHARDEV_TRACE_LINE_MAX ? len : CHARDEV_TRACE_LINE_MAX - 1;
		chunk[used++] = '\n';
	}
	control_send_bytes(cl, chunk, used);
out:
	free(events);
}

/*
 * An "unplug wait" completed, in whatever thread finished the unplug. All of
 * it runs under srv->lock: the control thread frees @w, and stop frees the
 * server and closes the pipe, only after seeing @done under that lock, so
 * nothing here can touch freed memory or a reused descriptor.
 */
static void control_unplug_done(void *arg, int result)
{
	struct control_waiter *w = arg;
	struct control_server *srv = w->srv;
	char byte = 'w';
	ssize_t n;

	pthread_mutex_lock(&srv->lock);
	w->done = true;
	w->result = result;
	do {
		n = write(srv->wake[1], &byte, 1);
	} while (n < 0 && errno == EINTR);
	pthread_cond_broadcast(&srv->waiter_done);
	pthread_mutex_unlock(&srv->lock);
}

static void control_close_client(struct control_server *srv, int idx)
{
	struct control_waiter *w;

	for (w = srv->waiters; w; w = w->next) {
		if (w->client == idx)
			w->client = -1;
	}
	close(srv->clients[idx].fd);
	srv->clients[idx].fd = -1;
}

static void control_handle_line(struct control_server *srv, int idx, const char *line,
				size_t len)
{
	struct control_client *cl = &srv->clients[idx];
	struct control_waiter *w;
	struct control_cmd cmd;
	char reply[CHARDEV_STATS_TEXT_MAX + 8], err[160];	/* "ok " + stats fits */
	bool held;
	int ret;

	if (strlen(line) != len) {
		control_send(cl, "error NUL byte in command");
		return;
	}
	/* Blank lines, whitespace only or empty, are harmless: ignore them. */
	if (!line[strspn(line, " \t\r")])
		return;
	if (control_parse(line, &cmd, err, sizeof(err))) {
		snprintf(reply, sizeof(reply), "error %s", err);
		control_send(cl, reply);
		return;
	}
	if (cmd.verb == CONTROL_TRACE) {
		control_send_trace(srv, cl);
		return;
	}
	if (cmd.verb != CONTROL_UNPLUG_WAIT) {
		control_execute(srv->ctx, &cmd, reply, sizeof(reply));
		control_send(cl, reply);
		return;
	}

	w = calloc(1, sizeof(*w));
	if (!w) {
		control_send(cl, "error out of memory");
		return;
	}
	w->srv = srv;
	w->client = idx;
	/* Listed before starting: the completion may run at once. */
	w->next = srv->waiters;
	srv->waiters = w;
	held = chardev_operator_hold(srv->ctx);
	chardev_set_operator_hold(srv->ctx, true);
	ret = chardev_unplug_async(srv->ctx, control_unplug_done, w);
	if (ret) {
		srv->waiters = w->next;
		free(w);
		if (ret == -ENODEV) {
			control_send(cl, "error not plugged");
			return;
		}
		chardev_set_operator_hold(srv->ctx, held);
		snprintf(reply, sizeof(reply), "error unplug failed: %s", strerror(-ret));
		control_send(cl, reply);
		return;
	}
	cl->waiting = true;
}

/* Run every complete line in the client's buffer (stops while waiting). */
static void control_drain_lines(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];
	char *nl;
	size_t used;

	while (!cl->waiting && cl->fd >= 0 && (nl = memchr(cl->buf, '\n', cl->len))) {
		*nl = '\0';
		used = (size_t)(nl - cl->buf) + 1;
		if (cl->discard)
			cl->discard = false;	/* end of the overlong line */
		else
			control_handle_line(srv, idx, cl->buf, used - 1);
		memmove(cl->buf, cl->buf + used, cl->len - used);
		cl->len -= used;
	}
	/*
	 * Too long only if no line ends in the buffer: lines queued behind a
	 * pending "unplug wait" are complete and wait their turn.
	 */
	if (cl->len > CONTROL_LINE_MAX && !memchr(cl->buf, '\n', cl->len)) {
		/* No newline in sight: reject once, then skip to the next one. */
		if (!cl->discard)
			control_send(cl, "error line too long");
		cl->discard = true;
		cl->len = 0;
	}
}

/*
 * The peer shut its side (or went away). A last command without a newline
 * is still a command: answer it (a shutdown(SHUT_WR) peer reads the reply),
 * and close once no "unplug wait" reply is pending any more.
 */
static void control_finish_eof(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];

	cl->eof = true;
	if (cl->waiting)
		return;
	if (cl->len && !cl->discard) {
		size_t len = cl->len;

		cl->buf[len] = '\0';
		cl->len = 0;
		control_handle_line(srv, idx, cl->buf, len);
		if (cl->waiting)
			return;
	}
	control_close_client(srv, idx);
}

static void control_read_client(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];
	ssize_t n;

	n = recv(cl->fd, cl->buf + cl->len, sizeof(cl->buf) - 1 - cl->len, 0);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n < 0) {
		control_close_client(srv, idx);
		return;
	}
	if (!n) {
		control_finish_eof(srv, idx);
		return;
	}
	cl->last_ms = control_now_ms();
	cl->len += (size_t)n;
	control_drain_lines(srv, idx);
}

static bool control_peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred))
		return false;
	return cred.uid == 0 || cred.uid == geteuid();
}

static void control_accept(struct control_server *srv)
{
	int fd, i;

	fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	if (!control_peer_allowed(fd)) {
		struct control_client tmp = { .fd = fd };

		control_send(&tmp, "error permission denied");
		control_log_refusal(srv, "uid check");
		close(fd);
		return;
	}
	for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		if (srv->clients[i].fd < 0)
			break;
	}
	if (i == CONTROL_MAX_CLIENTS) {
		/*
		 * Full: a privileged newcomer beats the connection silent the
		 * longest, so idle peers cannot lock the operator out. One
		 * waiting for an "unplug wait" reply is busy, not idle.
		 */
		int oldest = -1;

		for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
			if (srv->clients[i].waiting)
				continue;
			if (oldest < 0 || srv->clients[i].last_ms < srv->clients[oldest].last_ms)
				oldest = i;
		}
		if (oldest < 0) {
			struct control_client tmp = { .fd = fd };

			control_send(&tmp, "error too many control connections");
			control_log_refusal(srv, "every connection busy");
			close(fd);
			return;
		}
		control_send(&srv->clients[oldest], "error closed: idle longest, a new peer needed the slot");
		control_close_client(srv, oldest);
		i = oldest;
	}
	memset(&srv->clients[i], 0, sizeof(srv->clients[i]));
	srv->clients[i].fd = fd;
	srv->clients[i].last_ms = control_now_ms();
}

/*
 * Close the connections silent for the idle timeout (none waiting for a
 * reply); return the poll timeout until the next one would expire.
 */
static int control_expire_idle(struct control_server *srv)
{
	unsigned int idle = atomic_load(&srv->idle_timeout_ms);
	uint64_t now = control_now_ms(), next = UINT64_MAX, end;
	int i;

	if (!idle)
		return -1;
	for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		struct control_client *cl = &srv->clients[i];

		if (cl->fd < 0 || cl->waiting)
			continue;
		end = cl->last_ms + idle;
		if (end <= now) {
			control_send(cl, "error idle timeout");
			control_close_client(srv, i);
			continue;
		}
		if (end < next)
			next = end;
	}
	if (next == UINT64_MAX)
		return -1;
	return (int)(next - now);
}

/* Unlink the completed waiters (their callbacks have let go of them). */
static struct control_waiter *control_take_done(struct control_server *srv)
{
	struct control_waiter **pp = &srv->waiters, *w, *done = NULL;

	pthread_mutex_lock(&srv->lock);
	while (*pp) {
		w = *pp;
		if (!w->done) {
			pp = &w->next;
			continue;
		}
		*pp = w->next;
		w->next = done;
		done = w;
	}
	pthread_mutex_unlock(&srv->lock);
	return done;
}

/* Reply to every "unplug wait" that completed; free their records. */
static void control_reap_waiters(struct control_server *srv)
{
	struct control_waiter *w = control_take_done(srv);
	char reply[160];
	int idx;

	while (w) {
		struct control_waiter *next = w->next;

		idx = w->client;
		if (w->result)
			snprintf(reply, sizeof(reply), "error unplug failed: %s",
				 strerror(-w->result));
		else
			snprintf(reply, sizeof(reply), "ok unplugged");
		free(w);
		w = next;
		if (idx >= 0 && srv->clients[idx].fd >= 0) {
			control_send(&srv->clients[idx], reply);
			srv->clients[idx].waiting = false;
			srv->clients[idx].last_ms = control_now_ms();
			control_drain_lines(srv, idx);
			if (srv->clients[idx].fd >= 0 && srv->clients[idx].eof &&
			    !srv->clients[idx].waiting)
				control_finish_eof(srv, idx);
		}
	}
}

static void *control_thread(void *arg)
{
	struct control_server *srv = arg;
	struct pollfd pfd[2 + CONTROL_MAX_CLIENTS];
	int map[2 + CONTROL_MAX_CLIENTS];
	char drain[64];
	int n, i, nfds, timeout;

	while (!atomic_load(&srv->stop)) {
		timeout = control_expire_idle(srv);
		nfds = 0;
		pfd[nfds].fd = srv->wake[0];
		pfd[nfds++].events = POLLIN;
		pfd[nfds].fd = srv->listen_fd;
		pfd[nfds++].events = POLLIN;
		for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
			/* A waiting client's further lines wait for its reply. */
			if (srv->clients[i].fd < 0 || srv->clients[i].waiting)
				continue;
			map[nfds] = i;
			pfd[nfds].fd = srv->clients[i].fd;
			pfd[nfds++].events = POLLIN;
		}
		n = poll(pfd, (nfds_t)nfds, timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			chardev_log(srv->ctx, CHARDEV_LOG_ERR, "control: poll: %s", strerror(errno));
			break;
		}
		if (pfd[0].revents) {
			while (read(srv->wake[0], drain, sizeof(drain)) > 0)
				;
			control_reap_waiters(srv);
		}
		if (pfd[1].revents & POLLIN)
			control_accept(srv);
		for (i = 2; i < nfds; i++) {
			if (pfd[i].revents && srv->clients[map[i]].fd >= 0)
				control_read_client(srv, map[i]);
		}
	}
	return NULL;
}

/**
 * control_server_start() - listen on @path, serve from a new thread.
 * @ctx:  the daemon
 * @path: socket path
 * @out:  the server
 *
 * Return: 0 or -errno.
 */
int control_server_start(struct chardev_ctx *ctx, const char *path, struct control_server **out)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct control_server *srv;
	struct stat st;
	int ret, i;

	if (!path || !path[0] || strlen(path) >= sizeof(addr.sun_path))
		return -EINVAL;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->ctx = ctx;
	strcpy(srv->path, path);
	strcpy(addr.sun_path, path);
	atomic_init(&srv->stop, false);
	for (i = 0; i < CONTROL_MAX_CLIENTS; i++)
		srv->clients[i].fd = -1;
	atomic_init(&srv->idle_timeout_ms, CONTROL_IDLE_TIMEOUT_DEFAULT_S * 1000u);
	ret = -pthread_mutex_init(&srv->lock, NULL);
	if (ret)
		goto err_free;
	ret = -pthread_cond_init(&srv->waiter_done, NULL);
	if (ret)
		goto err_mutex;

	if (pipe2(srv->wake, O_CLOEXEC | O_NONBLOCK)) {
		ret = -errno;
		goto err_cond;
	}
	srv->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (srv->listen_fd < 0) {
		ret = -errno;
		goto err_pipe;
	}
	/* Replace a stale socket from an earlier run, but never a regular file. */
	if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
	if (bind(srv->listen_fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		goto err_sock;
	}
	/* Remember which socket is ours: stop unlinks only that one. */
	if (lstat(path, &st)) {
		ret = -errno;
		goto err_unlink;
	}
	srv->sock_dev = st.st_dev;
	srv->sock_ino = st.st_ino;
	/*
	 * Anyone may connect; SO_PEERCRED decides who is served, so that a
	 * refused peer gets a clear reply rather than a bare EACCES.
	 */
	if (chmod(path, 0666)) {
		ret = -errno;
		goto err_unlink;
	}
	if (listen(srv->listen_fd, 8)) {
		ret = -errno;
		goto err_unlink;
	}
	ret = -pthread_create(&srv->thread, NULL, control_thread, srv);
	if (ret)
		goto err_unlink;
	pthread_setname_np(srv->thread, CONTROL_THREAD_NAME);
	*out = srv;
	return 0;

err_unlink:
	unlink(path);
err_sock:
	close(srv->listen_fd);
err_pipe:
	close(srv->wake[0]);
	close(srv->wake[1]);
err_cond:
	pthread_cond_destroy(&srv->waiter_done);
err_mutex:
	pthread_mutex_destroy(&srv->lock);
err_free:
	free(srv);
	return ret;
}

/* Unlink the socket path if it still names our socket, not a newer one. */
static void control_unlink_own(struct control_server *srv)
{
	struct stat st;

	if (lstat(srv->path, &st) || st.st_dev != srv->sock_dev || st.st_ino != srv->sock_ino)
		return;
	unlink(srv->path);
}

/* Wait (bounded) until every "unplug wait" completion has run. */
static bool control_wait_waiters(struct control_server *srv)
{
	struct control_waiter *w;
	struct timespec deadline;
	bool pending;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += CONTROL_STOP_WAIT_S;
	pthread_mutex_lock(&srv->lock);
	for (;;) {
		pending = false;
		for (w = srv->waiters; w; w = w->next)
			pending |= !w->done;
		if (!pending ||
		    pthread_cond_timedwait(&srv->waiter_done, &srv->lock, &deadline) == ETIMEDOUT)
			break;
	}
	/* Re-checked under the lock: a completion may have come at the deadline. */
	pending = false;
	for (w = srv->waiters; w; w = w->next)
		pending |= !w->done;
	pthread_mutex_unlock(&srv->lock);
	return !pending;
}

/**
 * control_server_set_idle_timeout() - close connections silent this long.
 * @srv: the server
 * @ms:  the timeout, 0 for never
 */
void control_server_set_idle_timeout(struct control_server *srv, unsigned int ms)
{
	atomic_store(&srv->idle_timeout_ms, ms);
	/* Wake the thread so its poll timeout follows. */
	if (write(srv->wake[1], "", 1) < 0) {
		/* Full pipe: the thread is awake already. */
	}
}

/**
 * control_server_stop() - stop the thread and remove the socket.
 * @srv: the server; NULL is ignored
 */
void control_server_stop(struct control_server *srv)
{
	struct control_waiter *w;
	char byte = 's';
	int i;

	if (!srv)
		return;
	atomic_store(&srv->stop, true);
	if (write(srv->wake[1], &byte, 1) < 0)
		chardev_log(srv->ctx, CHARDEV_LOG_WARNING, "control: cannot wake thread");
	pthread_join(srv->thread, NULL);

	/* Completions still due write to our pipe: let them land first. */
	if (!control_wait_waiters(srv)) {
		/* Leak rather than free what a late callback will still touch. */
		chardev_log(srv->ctx, CHARDEV_LOG_ERR, "control: unplug still pending at exit");
		return;
	}
	while (srv->waiters) {
		w = srv->waiters;
		srv->waiters = w->next;
		free(w);
	}
	for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		if (srv->clients[i].fd >= 0)
			close(srv->clients[i].fd);
	}
	close(srv->listen_fd);
	control_unlink_own(srv);
	close(srv->wake[0]);
	close(srv->wake[1]);
	pthread_cond_destroy(&srv->waiter_done);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}
