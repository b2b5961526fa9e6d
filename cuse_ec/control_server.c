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
#include <sched.h>
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
#include "common/common.h"
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

/* Send what the socket takes now of the client's queued replies. */
static int control_flush(struct control_client *cl)
{
	ssize_t n;

	while (cl->out_off < cl->out_len) {
		n = send(cl->fd, cl->out + cl->out_off, cl->out_len - cl->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0)
			return -1;	/* the client went away; its next poll says so */
		cl->out_off += (size_t)n;
		cl->last_ms = control_now_ms();
	}
	if (cl->out_off == cl->out_len)
		cl->out_off = cl->out_len = 0;
	return 0;
}

/* Room for @len more bytes at the end of @cl->out, moving the rest down. */
static bool control_out_room(struct control_client *cl, size_t len)
{
	if (CONTROL_OUT_MAX - cl->out_len >= len)
		return true;
	if (cl->out_off) {
		memmove(cl->out, cl->out + cl->out_off, cl->out_len - cl->out_off);
		cl->out_len -= cl->out_off;
		cl->out_off = 0;
	}
	return CONTROL_OUT_MAX - cl->out_len >= len;
}

int control_send_bytes(struct control_client *cl, const char *buf, size_t len)
{
	if (cl->fd < 0 || cl->overflow)
		return -1;
	if (!control_out_room(cl, len)) {
		cl->overflow = true;
		return -1;
	}
	memcpy(cl->out + cl->out_len, buf, len);
	cl->out_len += len;
	return control_flush(cl);
}

void control_send(struct control_client *cl, const char *reply)
{
	if (!control_send_bytes(cl, reply, strlen(reply)))
		control_send_bytes(cl, "\n", 1);
}

void control_send_error(struct control_client *cl, int err, const char *reason)
{
	char reply[160];

	ctl_error(reply, sizeof(reply), err, "%s", reason);
	control_send(cl, reply);
}

/* One error line to a peer that gets no slot: what the socket takes, no more. */
static void control_send_once(int fd, int err, const char *reason)
{
	char buf[128];
	int len;

	ctl_error(buf, sizeof(buf) - 1, err, "%s", reason);
	len = (int)strlen(buf);
	buf[len++] = '\n';

	if (send(fd, buf, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		/* A refused peer that does not read loses the reason, nothing else. */
	}
}

int control_trace_fill(struct control_client *cl)
{
	size_t len;

	while (cl->trace_i < cl->trace_n && !cl->overflow &&
	       control_out_room(cl, CHARDEV_TRACE_LINE_MAX + 1)) {
		len = chardev_trace_format(&cl->trace[cl->trace_i++], cl->out + cl->out_len,
					   CHARDEV_TRACE_LINE_MAX);
		if (len >= CHARDEV_TRACE_LINE_MAX)
			len = CHARDEV_TRACE_LINE_MAX - 1;
		cl->out[cl->out_len + len] = '\n';
		cl->out_len += len + 1;
	}
	if (cl->trace_i == cl->trace_n) {
		free(cl->trace);
		cl->trace = NULL;
	}
	return control_flush(cl);
}

/* Unsent replies or a trace still being produced. */
static bool control_output_pending(const struct control_client *cl)
{
	return cl->out_off < cl->out_len || cl->trace;
}

static void control_close_client(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];
	struct control_waiter *w;

	for (w = srv->waiters; w; w = w->next) {
		if (w->client == idx)
			w->client = -1;
	}
	close(cl->fd);
	cl->fd = -1;
	free(cl->out);
	cl->out = NULL;
	free(cl->trace);
	cl->trace = NULL;
}

/*
 * Run every complete line in the client's buffer; stops while a reply is
 * still due (an "unplug wait", a trace being produced), so replies keep
 * the order of their requests.
 */
static void control_drain_lines(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];
	char *nl;
	size_t used;

	while (!cl->waiting && !cl->trace && !cl->overflow && cl->fd >= 0 &&
	       (nl = memchr(cl->buf, '\n', cl->len))) {
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
	if (cl->len > CTL_LINE_MAX && !memchr(cl->buf, '\n', cl->len)) {
		/* No newline in sight: reject once, then skip to the next one. */
		if (!cl->discard)
			control_send_error(cl, -EMSGSIZE, "line too long");
		cl->discard = true;
		cl->len = 0;
	}
}

/*
 * The peer shut its side (or went away). A last command without a newline
 * is still a command: answer it (a shutdown(SHUT_WR) peer reads the reply),
 * and close once no reply is pending any more.
 */
static void control_finish_eof(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];

	cl->eof = true;
	if (cl->waiting || cl->trace)
		return;
	if (cl->len && !memchr(cl->buf, '\n', cl->len) && !cl->discard) {
		size_t len = cl->len;

		cl->buf[len] = '\0';
		cl->len = 0;
		control_handle_line(srv, idx, cl->buf, len);
		if (cl->waiting)
			return;
	}
	/* Its last replies still go out; then it closes (control_output()). */
	if (!control_output_pending(cl))
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

static void control_accept(struct control_server *srv)
{
	int fd, i;

	fd = accept4(srv->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	if (!unix_peer_trusted(fd)) {
		control_send_once(fd, -EACCES, "permission denied");
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
			control_send_once(fd, -EUSERS, "too many control connections");
			control_log_refusal(srv, "every connection busy");
			close(fd);
			return;
		}
		control_send_error(&srv->clients[oldest], -ECONNABORTED,
				   "closed: idle longest, a new peer needed the slot");
		control_close_client(srv, oldest);
		i = oldest;
	}
	memset(&srv->clients[i], 0, sizeof(srv->clients[i]));
	/* Allocated, not touched: pages are used only by a client's backlog. */
	srv->clients[i].out = malloc(CONTROL_OUT_MAX);
	if (!srv->clients[i].out) {
		control_send_once(fd, -ENOMEM, "out of memory");
		close(fd);
		srv->clients[i].fd = -1;
		return;
	}
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
			control_send_error(cl, -ETIMEDOUT, "idle timeout");
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

/*
 * A client's replies can move again (its socket took bytes, an "unplug
 * wait" was answered): send, produce more of a trace, then run the lines
 * that waited; a peer that shut its side closes once all is sent.
 */
static void control_resume(struct control_server *srv, int idx)
{
	struct control_client *cl = &srv->clients[idx];
	int ret;

	ret = cl->trace ? control_trace_fill(cl) : control_flush(cl);
	if (ret) {
		control_close_client(srv, idx);
		return;
	}
	control_drain_lines(srv, idx);
	if (cl->fd >= 0 && cl->eof && !cl->waiting)
		control_finish_eof(srv, idx);
}

/*
 * A peer whose replies overflowed its output buffer has stopped reading:
 * serving it would mean waiting for it, so it goes, with a warning.
 */
static void control_drop_overflowed(struct control_server *srv)
{
	struct control_client *cl;
	int i;

	for (i = 0; i < CONTROL_MAX_CLIENTS; i++) {
		cl = &srv->clients[i];
		if (cl->fd < 0 || !cl->overflow)
			continue;
		chardev_log(srv->ctx, CHARDEV_LOG_WARNING,
			    "control: dropped a peer that stopped reading its replies (%zu bytes unsent)",
			    cl->out_len - cl->out_off);
		control_close_client(srv, i);
	}
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
			ctl_error(reply, sizeof(reply), w->result, "unplug failed: %s",
				  strerror(-w->result));
		else
			snprintf(reply, sizeof(reply), "ok unplugged");
		free(w);
		w = next;
		if (idx >= 0 && srv->clients[idx].fd >= 0) {
			control_send(&srv->clients[idx], reply);
			srv->clients[idx].waiting = false;
			srv->clients[idx].last_ms = control_now_ms();
			control_resume(srv, idx);
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
			struct control_client *cl = &srv->clients[i];
			short events = 0;

			if (cl->fd < 0)
				continue;
			/* Lines behind a reply still due wait for it. */
			if (!cl->waiting && !cl->trace && !cl->eof)
				events |= POLLIN;
			if (control_output_pending(cl))
				events |= POLLOUT;
			if (!events)
				continue;
			map[nfds] = i;
			pfd[nfds].fd = cl->fd;
			pfd[nfds++].events = events;
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
			short re = pfd[i].revents;
			bool reading = pfd[i].events & POLLIN;

			if (!re || srv->clients[map[i]].fd < 0)
				continue;
			if ((re & POLLOUT) || (!reading && (re & (POLLERR | POLLHUP))))
				control_resume(srv, map[i]);
			if (reading && srv->clients[map[i]].fd >= 0 && (re & ~POLLOUT))
				control_read_client(srv, map[i]);
		}
		control_drop_overflowed(srv);
	}
	return NULL;
}

/* Unlink the socket path if it still names our socket, not a newer one. */
static void control_unlink_own(struct control_server *srv)
{
	unix_unlink_own(srv->path, &srv->sock_id);
}

int control_server_start(struct chardev_ctx *ctx, const char *path, struct control_server **out)
{
	const struct control_device one = { .name = NULL, .ctx = ctx };

	return control_server_start_devices(&one, 1, path, out);
}

/* Several devices need names to be told apart; one may go without. */
static bool control_devices_valid(const struct control_device *devs, size_t n)
{
	size_t i;

	if (!n || n > CTL_DEVICES_MAX)
		return false;
	for (i = 0; i < n; i++) {
		if (devs[i].name ? !ctl_device_name_valid(devs[i].name) : n > 1)
			return false;
	}
	return true;
}

int control_server_start_devices(const struct control_device *devs, size_t n, const char *path,
				 struct control_server **out)
{
	struct control_server *srv;
	size_t used = 0, k;
	int ret, i;

	if (!path || !path[0] || strlen(path) >= sizeof(((struct control_server *)0)->path) ||
	    !control_devices_valid(devs, n))
		return -EINVAL;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->ctx = devs[0].ctx;
	memcpy(srv->devices, devs, n * sizeof(*devs));
	srv->n_devices = n;
	for (k = 0; k < n && devs[k].name; k++)
		used += (size_t)snprintf(srv->device_names + used, sizeof(srv->device_names) - used,
					 "%s%s", k ? "," : "", devs[k].name);
	strcpy(srv->path, path);
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
	ret = unix_listen(path, SOCK_STREAM, 8, &srv->listen_fd, &srv->sock_id);
	if (ret)
		goto err_pipe;
	ret = -pthread_create(&srv->thread, NULL, control_thread, srv);
	if (ret)
		goto err_unlink;
	pthread_setname_np(srv->thread, CONTROL_THREAD_NAME);
	*out = srv;
	return 0;

err_unlink:
	control_unlink_own(srv);
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

void control_server_unlink(struct control_server *srv)
{
	if (srv)
		control_unlink_own(srv);
}

void control_server_set_idle_timeout(struct control_server *srv, unsigned int ms)
{
	atomic_store(&srv->idle_timeout_ms, ms);
	/* Wake the thread so its poll timeout follows. */
	if (write(srv->wake[1], "", 1) < 0) {
		/* Full pipe: the thread is awake already. */
	}
}

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
			control_close_client(srv, i);
	}
	close(srv->listen_fd);
	control_unlink_own(srv);
	close(srv->wake[0]);
	close(srv->wake[1]);
	pthread_cond_destroy(&srv->waiter_done);
	pthread_mutex_destroy(&srv->lock);
	free(srv);
}
