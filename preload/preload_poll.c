// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload_poll.c - poll(), ppoll(), select() and pselect() over sets that
 * hold device files.
 *
 * A device file's readiness is the daemon's answer to DEVSOCK_POLL, not
 * the socket's: the daemon sends DEVSOCK_NOTIFY when it may have changed.
 * So: ask for each device file, check the other descriptors without
 * waiting, and if nothing is ready wait in libc's ppoll() on the other
 * descriptors and on the device files' sockets; a message on a socket is
 * received (it may be a notification, or another thread's answer, which
 * is handed on) and the device files are asked again once notified.
 * select() and pselect() are that poll over the descriptors their sets
 * name, with the kernel's mapping from poll bits to set bits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include "devsock/devsock.h"
#include "preload.h"

/* How long a poller waits for another thread's receive to dispatch a message. */
#define SHIM_POLL_HANDOFF_MS 10

static uint64_t shim_notifies(struct shim_conn *c)
{
	uint64_t n;

	pthread_mutex_lock(&c->lock);
	n = c->notifies;
	pthread_mutex_unlock(&c->lock);
	return n;
}

/* The device file's readiness; a lost connection is a device gone. */
static short shim_poll_query(struct shim_conn *c, int fd)
{
	struct devsock_hdr req = { .type = DEVSOCK_POLL }, ans;

	if (shim_request(c, fd, &req, NULL, 0, &ans, NULL, 0, NULL, false))
		return POLLERR | POLLHUP;
	return (short)ans.status;
}

/* Take the message waiting on @c's socket, or let its receiver take it. */
static int shim_poll_pump(struct shim_conn *c, int fd)
{
	struct timespec until;
	sigset_t mask;
	int ret = 0;

	pthread_mutex_lock(&c->lock);
	if (!c->receiving && !c->dead) {
		pthread_sigmask(SIG_SETMASK, NULL, &mask);
		ret = shim_receive_one(c, fd, &mask);
		if (ret != -EINTR)
			ret = 0;	/* a dead connection is reported by the query */
	} else if (c->receiving) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SHIM_POLL_HANDOFF_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&c->cond, &c->lock, &until);
	}
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static int64_t shim_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int shim_poll(struct pollfd *fds, nfds_t n, int timeout_ms, const sigset_t *sigmask,
		     struct shim_conn **conns)
{
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	uint64_t *gens = calloc(n, sizeof(*gens));
	int64_t deadline = timeout_ms >= 0 ? shim_now_ms() + timeout_ms : -1;
	struct timespec ts;
	bool query = true;
	int ret, ready = 0;
	nfds_t i;

	if (!pfd || !gens) {
		ready = -1;
		errno = ENOMEM;
		goto out;
	}
	for (;;) {
		if (query) {
			for (i = 0; i < n; i++) {
				pfd[i] = fds[i];
				if (!conns[i])
					continue;
				pfd[i].fd = -1;	/* checked by asking, below */
				gens[i] = shim_notifies(conns[i]);
				fds[i].revents = shim_poll_query(conns[i], fds[i].fd) &
						 (fds[i].events | POLLERR | POLLHUP | POLLNVAL);
			}
			ret = shim.real_poll(pfd, n, 0);
			if (ret < 0) {
				ready = -1;
				goto out;
			}
			ready = 0;
			for (i = 0; i < n; i++) {
				if (!conns[i])
					fds[i].revents = pfd[i].revents;
				ready += fds[i].revents != 0;
			}
			if (ready || !timeout_ms)
				goto out;
		}
		if (deadline >= 0 && shim_now_ms() >= deadline)
			goto out;
		for (i = 0; i < n; i++) {
			pfd[i] = fds[i];
			pfd[i].revents = 0;
			if (conns[i])
				pfd[i].events = POLLIN;
		}
		if (deadline >= 0) {
			int64_t left = deadline - shim_now_ms();

			left = left > 0 ? left : 0;
			ts.tv_sec = left / 1000;
			ts.tv_nsec = (left % 1000) * 1000000L;
		}
		ret = shim.real_ppoll(pfd, n, deadline >= 0 ? &ts : NULL, sigmask);
		if (ret < 0) {
			ready = -1;
			goto out;
		}
		query = false;
		for (i = 0; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			if (!conns[i]) {
				query = true;
				continue;
			}
			if (shim_poll_pump(conns[i], fds[i].fd) == -EINTR) {
				errno = EINTR;
				ready = -1;
				goto out;
			}
		}
		for (i = 0; i < n; i++)
			if (conns[i] && shim_notifies(conns[i]) != gens[i])
				query = true;
	}
out:
	free(pfd);
	free(gens);
	return ready;
}

/* NULL when no descriptor in the set is a device file: libc serves it. */
static struct shim_conn **shim_poll_conns(struct pollfd *fds, nfds_t n)
{
	struct shim_conn **conns = NULL;
	nfds_t i;

	shim_init();
	for (i = 0; i < n; i++) {
		struct shim_conn *c = shim_conn_of(fds[i].fd);

		if (!c)
			continue;
		if (!conns)
			conns = calloc(n, sizeof(*conns));
		if (!conns)
			return NULL;
		conns[i] = c;
	}
	return conns;
}

SHIM_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	struct shim_conn **conns = shim_poll_conns(fds, n);
	int ret;

	if (!conns)
		return shim.real_poll(fds, n, timeout);
	ret = shim_poll(fds, n, timeout, NULL, conns);
	free(conns);
	return ret;
}

SHIM_EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		abort();	/* what glibc's own check does */
	return poll(fds, n, timeout);
}

SHIM_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
		      const sigset_t *sigmask)
{
	struct shim_conn **conns = shim_poll_conns(fds, n);
	int ret, ms = -1;

	if (!conns)
		return shim.real_ppoll(fds, n, tmo, sigmask);
	if (tmo)
		ms = tmo->tv_sec > 86400 ? 86400000 : (int)(tmo->tv_sec * 1000 +
							    (tmo->tv_nsec + 999999) / 1000000);
	ret = shim_poll(fds, n, ms, sigmask, conns);
	free(conns);
	return ret;
}

SHIM_EXPORT int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *tmo,
			    const sigset_t *sigmask, size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		abort();
	return ppoll(fds, n, tmo, sigmask);
}

/* What the kernel's select() takes as ready for each set (fs/select.c). */
#define SHIM_SEL_IN	(POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SHIM_SEL_OUT	(POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SHIM_SEL_EX	POLLPRI
#define SHIM_LONG_BITS	(8 * sizeof(unsigned long))

/*
 * An fd_set is an array of longs whatever its declared size: a caller with
 * more than FD_SETSIZE descriptors passes a larger one, as to the kernel.
 */
static bool shim_fd_isset(const fd_set *set, int fd)
{
	const unsigned long *bits = (const unsigned long *)set;

	return set && (bits[fd / SHIM_LONG_BITS] >> (fd % SHIM_LONG_BITS)) & 1;
}

static void shim_fd_assign(fd_set *set, int fd, bool on)
{
	unsigned long *bits = (unsigned long *)set, bit = 1ul << (fd % SHIM_LONG_BITS);

	if (!set)
		return;
	if (on)
		bits[fd / SHIM_LONG_BITS] |= bit;
	else
		bits[fd / SHIM_LONG_BITS] &= ~bit;
}

/* The poll events the sets ask of @fd: 0 when no set names it. */
static short shim_select_events(int fd, const fd_set *rd, const fd_set *wr, const fd_set *ex)
{
	return (shim_fd_isset(rd, fd) ? POLLIN : 0) | (shim_fd_isset(wr, fd) ? POLLOUT : 0) |
	       (shim_fd_isset(ex, fd) ? POLLPRI : 0);
}

/* Whether any descriptor the sets name is a device file. */
static bool shim_select_is_ours(int nfds, fd_set *rd, fd_set *wr, fd_set *ex)
{
	int fd;

	shim_init();
	for (fd = 0; fd < nfds && fd < SHIM_FDS; fd++)
		if (shim_select_events(fd, rd, wr, ex) && shim_conn_of(fd))
			return true;
	return false;
}

/*
 * select() as poll(): one pollfd per descriptor the sets name, and the
 * answer written back as the kernel writes it (every bit below @nfds
 * cleared, then the ready ones set; the count is of set bits, so a
 * descriptor ready in two sets counts twice). A descriptor that is not
 * open fails the call with EBADF.
 */
static int shim_select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, int timeout_ms,
		       const sigset_t *sigmask)
{
	struct shim_conn **conns = NULL;
	struct pollfd *pfd = NULL;
	int fd, ready = -1;
	nfds_t n = 0, i;

	for (fd = 0; fd < nfds; fd++)
		n += shim_select_events(fd, rd, wr, ex) != 0;
	pfd = calloc(n, sizeof(*pfd));
	conns = calloc(n, sizeof(*conns));
	if (!pfd || !conns) {
		errno = ENOMEM;
		goto out;
	}
	for (fd = 0, i = 0; fd < nfds; fd++) {
		short events = shim_select_events(fd, rd, wr, ex);

		if (!events)
			continue;
		pfd[i] = (struct pollfd){ .fd = fd, .events = events };
		conns[i++] = shim_conn_of(fd);
	}
	if (shim_poll(pfd, n, timeout_ms, sigmask, conns) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (pfd[i].revents & POLLNVAL) {
			errno = EBADF;
			goto out;
		}
	}
	ready = 0;
	for (fd = 0; fd < nfds; fd++) {
		shim_fd_assign(rd, fd, false);
		shim_fd_assign(wr, fd, false);
		shim_fd_assign(ex, fd, false);
	}
	for (i = 0; i < n; i++) {
		short ev = pfd[i].events, rev = pfd[i].revents;
		bool in = (ev & POLLIN) && (rev & SHIM_SEL_IN);
		bool out = (ev & POLLOUT) && (rev & SHIM_SEL_OUT);
		bool exc = (ev & POLLPRI) && (rev & SHIM_SEL_EX);

		shim_fd_assign(rd, pfd[i].fd, in);
		shim_fd_assign(wr, pfd[i].fd, out);
		shim_fd_assign(ex, pfd[i].fd, exc);
		ready += in + out + exc;
	}
out:
	free(pfd);
	free(conns);
	return ready;
}

/* A timeout in ms for shim_poll(), capped as ppoll()'s; -1 when invalid. */
static int shim_timeout_ms(time_t sec, long nsec)
{
	if (sec < 0 || nsec < 0 || nsec >= 1000000000L)
		return -1;
	if (sec > 86400)
		return 86400000;
	return (int)(sec * 1000 + (nsec + 999999) / 1000000);
}

SHIM_EXPORT int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tmo)
{
	int64_t start, left;
	int ms = -1, ret;

	if (nfds < 0 || !shim_select_is_ours(nfds, rd, wr, ex))
		return shim.real_select(nfds, rd, wr, ex, tmo);
	if (tmo) {
		/* The kernel folds whole seconds of tv_usec into tv_sec. */
		if (tmo->tv_usec < 0)
			goto invalid;
		ms = shim_timeout_ms(tmo->tv_sec + tmo->tv_usec / 1000000,
				     (tmo->tv_usec % 1000000) * 1000L);
		if (ms < 0)
			goto invalid;
	}
	start = shim_now_ms();
	ret = shim_select(nfds, rd, wr, ex, ms, NULL);
	if (tmo) {
		/* Linux's select() leaves the time not slept in the timeout. */
		left = ms - (shim_now_ms() - start);
		left = left > 0 ? left : 0;
		tmo->tv_sec = left / 1000;
		tmo->tv_usec = (left % 1000) * 1000;
	}
	return ret;
invalid:
	errno = EINVAL;
	return -1;
}

SHIM_EXPORT int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex,
			const struct timespec *tmo, const sigset_t *sigmask)
{
	int ms = -1;

	if (nfds < 0 || !shim_select_is_ours(nfds, rd, wr, ex))
		return shim.real_pselect(nfds, rd, wr, ex, tmo, sigmask);
	if (tmo) {
		ms = shim_timeout_ms(tmo->tv_sec, tmo->tv_nsec);
		if (ms < 0) {
			errno = EINVAL;
			return -1;
		}
	}
	return shim_select(nfds, rd, wr, ex, ms, sigmask);
}
