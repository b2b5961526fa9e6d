// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sock_frontend.c - the device over a UNIX socket (sock_frontend.h).
 *
 * One connection is one open file. Its requests are served the way
 * libfuse's multi-threaded loop serves CUSE's: the connection's workers
 * all wait in recv() on it (a SOCK_SEQPACKET record goes whole to one of
 * them) and each serves what it took; a connection starts a further worker
 * only when an ioctl arrives and no other worker is waiting, so two threads
 * of a client may be inside ioctls of one file at once, as on a real
 * device, while a single-threaded client is served by two workers with no
 * hand-over between them (a message wakes one thread, as with CUSE).
 *
 * Reads that must wait park in the chardev (CHARDEV_READ_PARKED) and are
 * answered from whichever thread completes them. A client's CANCEL for a
 * read (a signal) may be taken by another worker before the read is
 * listed: it is then remembered, and the read starts interrupted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/common.h"
#include "devsock/devsock.h"
#include "shutdown.h"
#include "sock_frontend.h"

/* A read's answer fits the client's buffer for it. */
_Static_assert(CHARDEV_READ_MAX <= DEVSOCK_READ_MAX, "devsock read answers too small");

/* CANCELs without their read that a connection remembers (the newest). */
#define SOCK_CANCELLED_KEPT 8

/* An ioctl is at most this many steps of the retry protocol, answered here. */
#define SOCK_LOCAL_RETRIES 8

/**
 * struct sock_frontend - the listening socket and its connections.
 * @ctx:       the chardev context served
 * @path:      the socket's path
 * @id:        which file at @path is ours
 * @listen_fd: the listening socket
 * @lock:      protects @conns and @nconns
 * @gone:      signalled when a connection ends
 * @conns:     the live connections
 * @nconns:    how many
 */
struct sock_frontend {
	struct chardev_ctx *ctx;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct unix_sock_id id;
	int listen_fd;
	pthread_mutex_t lock;
	pthread_cond_t gone;
	struct sock_conn *conns;
	unsigned int nconns;
};

/**
 * struct sock_conn - one connection, one open file.
 * @fe:        the front end
 * @fd:        the connection
 * @file:      the chardev file
 * @lock:      protects everything below
 * @refs:      workers, parked reads and poll handles holding the connection
 * @nworkers:  workers alive
 * @nidle:     workers waiting in recv()
 * @closing:   the peer went (or the front end stops): workers leave
 * @parked:    reads parked in the chardev, for CANCEL
 * @cancelled: CANCELs that found no read (it may not be listed yet)
 * @ncancelled: next slot of @cancelled
 * @next:      in @fe->conns
 * @prev:      in @fe->conns
 */
struct sock_conn {
	struct sock_frontend *fe;
	int fd;
	struct chardev_file *file;
	pthread_mutex_t lock;
	unsigned int refs;
	unsigned int nworkers;
	unsigned int nidle;
	bool closing;
	struct sock_read *parked;
	uint32_t cancelled[SOCK_CANCELLED_KEPT];
	unsigned int ncancelled;
	struct sock_conn *next;
	struct sock_conn *prev;
};

/**
 * struct sock_read - a read request; the chardev's token while parked.
 * @conn:        its connection (a reference)
 * @seq:         the request's number
 * @refs:        the parked state, plus a CANCEL looking at it
 * @interrupted: the client said a signal interrupted it
 * @listed:      on @conn->parked
 * @next:        in @conn->parked
 */
struct sock_read {
	struct sock_conn *conn;
	uint32_t seq;
	unsigned int refs;
	atomic_bool interrupted;
	bool listed;
	struct sock_read *next;
};

/* A poll handle: who to send DEVSOCK_NOTIFY to. */
struct sock_poll {
	struct sock_conn *conn;
};

/*
 * A signal handler gets no argument: the pipe sock_frontend_run() waits on
 * is the one thing it must reach. Set once, before any signal is caught.
 */
static int sock_signal_pipe[2] = { -1, -1 };

static void sock_conn_put(struct sock_conn *c)
{
	bool last;

	pthread_mutex_lock(&c->lock);
	last = !--c->refs;
	pthread_mutex_unlock(&c->lock);
	if (!last)
		return;
	close(c->fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/*
 * Send an answer (a record: whole, whichever thread sends); a peer that
 * went is no error here (its file is closing).
 */
static void sock_send(struct sock_conn *c, struct devsock_hdr *h, const void *data, size_t len)
{
	int ret;

	h->len = (uint32_t)len;
	ret = devsock_send(c->fd, h, data, len);
	if (ret && ret != -EPIPE && ret != -ECONNRESET)
		chardev_log(c->fe->ctx, CHARDEV_LOG_WARNING, "device socket: send: %s",
			    strerror(-ret));
}

static void sock_reply(struct sock_conn *c, uint32_t seq, int status, const void *data,
		       size_t len)
{
	struct devsock_hdr h = { .type = DEVSOCK_REPLY, .seq = seq, .status = status };

	sock_send(c, &h, data, len);
}

/* ---- parked reads ---- */

static void sock_read_put(struct sock_read *r)
{
	struct sock_conn *c = r->conn;
	bool last;

	pthread_mutex_lock(&c->lock);
	last = !--r->refs;
	pthread_mutex_unlock(&c->lock);
	if (!last)
		return;
	free(r);
	sock_conn_put(c);
}

/* Take @r off its connection's list, if still there. Called with c->lock. */
static void sock_read_unlist(struct sock_read *r)
{
	struct sock_read **p;

	if (!r->listed)
		return;
	for (p = &r->conn->parked; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			break;
		}
	}
	r->listed = false;
}

static void sock_read_complete(void *token, int result, const void *data, size_t len)
{
	struct sock_read *r = token;

	pthread_mutex_lock(&r->conn->lock);
	sock_read_unlist(r);
	pthread_mutex_unlock(&r->conn->lock);
	sock_reply(r->conn, r->seq, result, result < 0 ? NULL : data, result < 0 ? 0 : len);
	sock_read_put(r);
}

static bool sock_read_interrupted(void *token)
{
	struct sock_read *r = token;

	return atomic_load(&r->interrupted);
}

/*
 * A READ, listed before it is served (c->lock held): a CANCEL finds it,
 * parked or not yet; one that came first left its number behind.
 */
static struct sock_read *sock_read_new(struct sock_conn *c, uint32_t seq)
{
	struct sock_read *r = calloc(1, sizeof(*r));
	bool interrupted = false;
	unsigned int i;

	if (!r)
		return NULL;
	for (i = 0; i < SOCK_CANCELLED_KEPT; i++) {
		if (c->cancelled[i] == seq && seq) {
			c->cancelled[i] = 0;
			interrupted = true;
		}
	}
	r->conn = c;
	r->seq = seq;
	r->refs = 1;
	atomic_init(&r->interrupted, interrupted);
	r->listed = true;
	r->next = c->parked;
	c->parked = r;
	c->refs++;
	return r;
}

static void sock_serve_read(struct sock_conn *c, const struct devsock_hdr *h, struct sock_read *r)
{
	char buf[CHARDEV_READ_MAX];
	size_t len = 0;
	int ret;

	if (!r) {
		sock_reply(c, h->seq, -ENOMEM, NULL, 0);
		return;
	}
	ret = chardev_read(c->file, (size_t)h->arg[0], h->flags & DEVSOCK_F_NONBLOCK, r, buf, &len);
	/* Parked: the chardev calls sock_read_complete() later; else it is done now. */
	if (ret != CHARDEV_READ_PARKED)
		sock_read_complete(r, ret < 0 ? ret : (int)len, buf, len);
}

static void sock_serve_cancel(struct sock_conn *c, const struct devsock_hdr *h)
{
	struct sock_read *r;

	pthread_mutex_lock(&c->lock);
	for (r = c->parked; r && r->seq != (uint32_t)h->arg[0]; r = r->next)
		;
	if (r) {
		atomic_store(&r->interrupted, true);
		r->refs++;
	} else {
		/* Answered already, or not listed yet: remembered for the latter. */
		c->cancelled[c->ncancelled++ % SOCK_CANCELLED_KEPT] = (uint32_t)h->arg[0];
	}
	pthread_mutex_unlock(&c->lock);
	if (!r)
		return;
	chardev_read_cancel(c->fe->ctx, r);
	sock_read_put(r);
}

/* ---- poll ---- */

static void sock_poll_notify(void *poll_handle)
{
	struct sock_poll *p = poll_handle;
	struct devsock_hdr h = { .type = DEVSOCK_NOTIFY };

	sock_send(p->conn, &h, NULL, 0);
}

static void sock_poll_destroy(void *poll_handle)
{
	struct sock_poll *p = poll_handle;

	sock_conn_put(p->conn);
	free(p);
}

static void sock_serve_poll(struct sock_conn *c, const struct devsock_hdr *h)
{
	struct sock_poll *p = malloc(sizeof(*p));

	if (p) {
		p->conn = c;
		pthread_mutex_lock(&c->lock);
		c->refs++;
		pthread_mutex_unlock(&c->lock);
	}
	/* Without a handle the answer is still right; only the wake-up is lost. */
	sock_reply(c, h->seq, (int)chardev_poll(c->file, p), NULL, 0);
}

/* ---- ioctl ---- */

/*
 * Each IOCTL message is one step of CUSE's retry protocol, as each
 * FUSE_IOCTL request is: the chardev keeps nothing between steps. Steps
 * whose memory the client sent ahead (DEVSOCK_F_PREFETCH, bytes from the
 * argument's address on) are answered here from that copy.
 */
static void sock_serve_ioctl(struct sock_conn *c, const struct devsock_hdr *h, const void *data)
{
	struct devsock_hdr ans = { .seq = h->seq };
	struct chardev_ioctl_result res;
	const void *in = data;
	size_t in_len = h->len, out_len = (size_t)h->arg[2];
	uint64_t out_base = h->arg[3];
	unsigned int flags = h->flags & DEVSOCK_F_COMPAT ? CHARDEV_IOCTL_COMPAT : 0;
	bool prefetch = h->flags & DEVSOCK_F_PREFETCH;
	int step;

	if (prefetch) {
		in = NULL;
		in_len = 0;
		out_len = 0;
		out_base = 0;
	}
	for (step = 0;; step++) {
		chardev_ioctl(c->file, (unsigned int)h->arg[0], h->arg[1], flags, in, in_len, out_len,
			      &res);
		if (res.action != CHARDEV_IOCTL_RETRY)
			break;
		/* Answered from the prefetched copy when it covers the step. */
		if (prefetch && step < SOCK_LOCAL_RETRIES &&
		    (!res.in_count || (res.in_iov.base >= h->arg[1] &&
				       res.in_iov.base - h->arg[1] <= h->len &&
				       res.in_iov.len <= h->len - (res.in_iov.base - h->arg[1])))) {
			in = res.in_count ? (const char *)data + (res.in_iov.base - h->arg[1]) : NULL;
			in_len = res.in_count ? res.in_iov.len : 0;
			out_len = res.out_count ? res.out_iov.len : 0;
			out_base = res.out_count ? res.out_iov.base : 0;
			chardev_ioctl_result_free(&res);
			continue;
		}
		ans.type = DEVSOCK_RETRY;
		ans.arg[0] = res.in_count ? res.in_iov.base : 0;
		ans.arg[1] = res.in_count ? res.in_iov.len : 0;
		ans.arg[2] = res.out_count ? res.out_iov.base : 0;
		ans.arg[3] = res.out_count ? res.out_iov.len : 0;
		sock_send(c, &ans, NULL, 0);
		chardev_ioctl_result_free(&res);
		return;
	}
	ans.type = DEVSOCK_REPLY;
	if (res.action == CHARDEV_IOCTL_ERROR) {
		ans.status = res.ret;
		sock_send(c, &ans, NULL, 0);
	} else if (res.out_len > out_len || res.out_len > DEVSOCK_DATA_MAX) {
		/* More than the caller made room for: CUSE's kernel says EIO. */
		ans.status = -EIO;
		sock_send(c, &ans, NULL, 0);
	} else {
		ans.status = res.ret;
		ans.arg[2] = out_base;
		ans.arg[3] = out_len;
		sock_send(c, &ans, res.out, res.out_len);
	}
	chardev_ioctl_result_free(&res);
}

/* ---- connections ---- */

static void sock_serve(struct sock_conn *c, const struct devsock_hdr *h, const void *data,
		       struct sock_read *r)
{
	switch (h->type) {
	case DEVSOCK_READ:
		sock_serve_read(c, h, r);
		break;
	case DEVSOCK_IOCTL:
		sock_serve_ioctl(c, h, data);
		break;
	case DEVSOCK_POLL:
		sock_serve_poll(c, h);
		break;
	case DEVSOCK_CANCEL:
		sock_serve_cancel(c, h);
		break;
	default:
		/* A daemon's message sent to the daemon: answered, not served. */
		sock_reply(c, h->seq, -EINVAL, NULL, 0);
		break;
	}
}

static void *sock_worker(void *arg);

/* Start one more worker; called with a worker and a reference counted for it. */
static int sock_spawn(struct sock_conn *c)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int ret;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Exit signals are the main thread's (sock_frontend_run()). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&thread, &attr, sock_worker, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return ret;
}

/* The last worker out: release the file, drop the connection from the list. */
static void sock_conn_end(struct sock_conn *c)
{
	struct sock_frontend *fe = c->fe;

	chardev_release(c->file);
	shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_lock(&fe->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		fe->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	fe->nconns--;
	pthread_cond_broadcast(&fe->gone);
	pthread_mutex_unlock(&fe->lock);
}

static void *sock_worker(void *arg)
{
	struct sock_conn *c = arg;
	struct devsock_hdr h;
	struct sock_read *r;
	bool last, spawn;
	void *data;
	int ret;

	data = malloc(DEVSOCK_DATA_MAX);
	pthread_mutex_lock(&c->lock);
	if (!data) {
		c->closing = true;
		shutdown(c->fd, SHUT_RDWR);	/* the other workers' recv() ends */
	}
	while (!c->closing) {
		c->nidle++;
		pthread_mutex_unlock(&c->lock);
		ret = devsock_recv(c->fd, &h, data, DEVSOCK_DATA_MAX, 1);
		pthread_mutex_lock(&c->lock);
		c->nidle--;
		if (ret <= 0) {
			if (ret < 0 && ret != -ECONNRESET && !c->closing)
				chardev_log(c->fe->ctx, CHARDEV_LOG_NOTICE,
					    "device socket: dropping a client: %s", strerror(-ret));
			c->closing = true;
			shutdown(c->fd, SHUT_RDWR);
			break;
		}
		r = h.type == DEVSOCK_READ ? sock_read_new(c, h.seq) : NULL;
		/* An ioctl may take long: someone must be waiting for the next message. */
		spawn = h.type == DEVSOCK_IOCTL && !c->nidle &&
			c->nworkers < SOCK_FRONTEND_WORKERS_MAX;
		if (spawn) {
			c->nworkers++;
			c->refs++;
		}
		pthread_mutex_unlock(&c->lock);
		if (spawn && sock_spawn(c)) {
			pthread_mutex_lock(&c->lock);
			c->nworkers--;
			c->refs--;	/* ours is still held: never the last */
			pthread_mutex_unlock(&c->lock);
		}
		sock_serve(c, &h, data, r);
		pthread_mutex_lock(&c->lock);
		/* Two others waiting are enough; more leave. */
		if (c->nidle >= 2)
			break;
	}
	c->nworkers--;
	last = c->closing && !c->nworkers;
	pthread_mutex_unlock(&c->lock);
	free(data);
	if (last)
		sock_conn_end(c);
	sock_conn_put(c);
	return NULL;
}

static void sock_refuse(int fd, int err)
{
	struct devsock_hdr h = { .type = DEVSOCK_OPENED, .status = err };

	devsock_send(fd, &h, NULL, 0);
	close(fd);
}

/*
 * Connections whose client still has them open, under fe->lock: a closed
 * one stays listed until its worker reads the end and releases the file,
 * which a loaded daemon may do only after the client's next open.  So
 * the limit is checked against this count once the list is full: a
 * client that closes as it opens never meets EMFILE for files it no
 * longer has (devsock-ec.test's 2000 open/close cycles under ASan did).
 */
static unsigned int sock_conns_open(const struct sock_frontend *fe)
{
	struct pollfd pfd[64];
	const struct sock_conn *c = fe->conns;
	unsigned int open = 0, n, i;

	while (c) {
		for (n = 0; c && n < sizeof(pfd) / sizeof(pfd[0]); c = c->next, n++)
			pfd[n] = (struct pollfd){ .fd = c->fd, .events = POLLRDHUP };
		if (poll(pfd, n, 0) < 0)
			return fe->nconns;	/* count them all, as before */
		for (i = 0; i < n; i++)
			if (!(pfd[i].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
				open++;
	}
	return open;
}

static void sock_accept(struct sock_frontend *fe)
{
	struct devsock_hdr opened = { .type = DEVSOCK_OPENED };
	struct chardev_file *file;
	struct sock_conn *c;
	int fd, ret;

	fd = accept4(fe->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;		/* gone meanwhile, or EMFILE: the next poll tells */
	if (!unix_peer_trusted(fd)) {
		chardev_log(fe->ctx, CHARDEV_LOG_NOTICE,
			    "device socket: refused a client of another user");
		sock_refuse(fd, -EACCES);
		return;
	}
	pthread_mutex_lock(&fe->lock);
	ret = fe->nconns >= SOCK_FRONTEND_CONNS_MAX &&
	      sock_conns_open(fe) >= SOCK_FRONTEND_CONNS_MAX ? -EMFILE : 0;
	pthread_mutex_unlock(&fe->lock);
	if (!ret)
		ret = chardev_open(fe->ctx, &file);
	if (ret) {
		sock_refuse(fd, ret);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		chardev_release(file);
		sock_refuse(fd, -ENOMEM);
		return;
	}
	c->fe = fe;
	c->fd = fd;
	c->file = file;
	c->refs = 1;		/* the first worker's */
	c->nworkers = 1;
	pthread_mutex_init(&c->lock, NULL);
	/* Answered before any worker can send on it. */
	devsock_send(fd, &opened, NULL, 0);
	pthread_mutex_lock(&fe->lock);
	c->next = fe->conns;
	if (fe->conns)
		fe->conns->prev = c;
	fe->conns = c;
	fe->nconns++;
	pthread_mutex_unlock(&fe->lock);
	if (sock_spawn(c)) {
		pthread_mutex_lock(&c->lock);
		c->closing = true;
		c->nworkers = 0;
		pthread_mutex_unlock(&c->lock);
		sock_conn_end(c);
		sock_conn_put(c);
	}
}

/* ---- the front end ---- */

void sock_frontend_chardev_ops(struct chardev_ops *ops)
{
	ops->read_complete = sock_read_complete;
	ops->read_interrupted = sock_read_interrupted;
	ops->poll_notify = sock_poll_notify;
	ops->poll_destroy = sock_poll_destroy;
}

static void sock_on_signal(int sig)
{
	unsigned char c = (unsigned char)sig;
	int saved = errno;

	if (write(sock_signal_pipe[1], &c, 1) < 0) {
		/* Full: the loop has a signal to read already. */
	}
	errno = saved;
}

int sock_frontend_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = sock_on_signal };
	size_t i;

	if (sock_signal_pipe[0] < 0 && pipe2(sock_signal_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		if (sigaction(shutdown_signals[i], &sa, NULL))
			return -errno;
	/* A client that goes mid-answer is a send error, never a signal. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int sock_frontend_start(struct chardev_ctx *ctx, const char *path, struct sock_frontend **out)
{
	struct sock_frontend *fe;
	int ret;

	if (!path || strlen(path) >= sizeof(fe->path))
		return -EINVAL;
	fe = calloc(1, sizeof(*fe));
	if (!fe)
		return -ENOMEM;
	fe->ctx = ctx;
	strcpy(fe->path, path);
	pthread_mutex_init(&fe->lock, NULL);
	pthread_cond_init(&fe->gone, NULL);
	ret = unix_listen(path, SOCK_SEQPACKET, 64, &fe->listen_fd, &fe->id);
	if (ret) {
		pthread_cond_destroy(&fe->gone);
		pthread_mutex_destroy(&fe->lock);
		free(fe);
		return ret;
	}
	*out = fe;
	return 0;
}

int sock_frontend_run(struct sock_frontend *fe)
{
	return sock_frontend_run_all(&fe, 1);
}

int sock_frontend_run_all(struct sock_frontend *const *fes, size_t n)
{
	struct pollfd *pfd;
	unsigned char sig;
	size_t i, nfds = n + (sock_signal_pipe[0] >= 0);
	int ret;

	if (!n)
		return -EINVAL;
	/* The signal pipe last: the listening sockets' index is their front end's. */
	pfd = calloc(n + 1, sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = fes[i]->listen_fd, .events = POLLIN };
	pfd[n] = (struct pollfd){ .fd = sock_signal_pipe[0], .events = POLLIN };
	for (;;) {
		if (poll(pfd, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (nfds > n && pfd[n].revents && read(sock_signal_pipe[0], &sig, 1) == 1) {
			ret = sig;
			break;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].revents)
				sock_accept(fes[i]);
		}
	}
	free(pfd);
	return ret;
}

void sock_frontend_unlink(struct sock_frontend *fe)
{
	if (fe)
		unix_unlink_own(fe->path, &fe->id);
}

void sock_frontend_stop(struct sock_frontend *fe)
{
	struct sock_conn *c;

	if (!fe)
		return;
	close(fe->listen_fd);
	unix_unlink_own(fe->path, &fe->id);
	/*
	 * Every connection's receiver sees the end of its stream; workers in
	 * an operation finish it (the chardev was shut down: nothing waits
	 * long) and the last one releases the file.
	 */
	pthread_mutex_lock(&fe->lock);
	for (c = fe->conns; c; c = c->next)
		shutdown(c->fd, SHUT_RDWR);
	while (fe->nconns)
		pthread_cond_wait(&fe->gone, &fe->lock);
	pthread_mutex_unlock(&fe->lock);
	pthread_cond_destroy(&fe->gone);
	pthread_mutex_destroy(&fe->lock);
	free(fe);
}
