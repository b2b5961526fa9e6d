// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control_server.c - the control socket's server (see control.h): a
 * poll()-driven thread that never blocks on the EC's readers (unplugs are
 * asynchronous; "unplug wait" replies on completion). It owns the listening
 * socket, the clients, their waiters, the idle timeout and eviction; the
 * verbs are control.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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
#include "control.h"
#include "control_internal.h"

/* At most one refusal warning per this many ms; the rest are counted. */
#define CONTROL_REFUSAL_LOG_MS 1000
/* How long stop waits for "unplug wait" completions still outstanding. */
#define CONTROL_STOP_WAIT_S 10

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

/**
 * control_send_bytes() - send bytes, waiting (bounded) while the buffer is full.
 * @cl:  the client
 * @buf: the bytes
 * @len: how many
 *
 * Return: 0, or -1 when the client went away or stopped reading.
 */
int control_send_bytes(struct control_client *cl, const char *buf, size_t len)
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

/**
 * control_send() - send one reply line.
 * @cl:    the client
 * @reply: the line, without its newline
 */
void control_send(struct control_client *cl, const char *reply)
{
	if (!control_send_bytes(cl, reply, strlen(reply)))
		control_send_bytes(cl, "\n", 1);
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
