// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload_poll.c - poll() and ppoll() over sets that hold device files.
 *
 * A device file's readiness is the daemon's answer to DEVSOCK_POLL, not
 * the socket's: the daemon sends DEVSOCK_NOTIFY when it may have changed.
 * So: ask for each device file, check the other descriptors without
 * waiting, and if nothing is ready wait in libc's ppoll() on the other
 * descriptors and on the device files' sockets; a message on a socket is
 * received (it may be a notification, or another thread's answer, which
 * is handed on) and the device files are asked again once notified.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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
