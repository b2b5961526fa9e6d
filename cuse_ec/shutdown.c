// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shutdown.c - the daemon's exit, unplug first.
 *
 * Left to the front end, SIGTERM/SIGINT/SIGHUP stop the loop from taking new
 * requests at once, but the loop ends only when every worker is done with
 * the request it serves: a command with a long EC latency holds the exit,
 * the revoke in the teardown, and every waiter - a woken poller asks the
 * daemon again (FUSE_POLL), which nobody reads any more. So the signal goes
 * to a thread of ours first, while the loop keeps serving: it starts the
 * revoke (chardev_shutdown_begin(): parked reads get ENODEV, pollers
 * POLLERR, new calls ENODEV), gives the commands in flight @timeout_ms to
 * finish, and only then hands the signal on to the front end's handler
 * (frontend_cuse.c's or sock_frontend.c's), which ends the loops. Past
 * @timeout_ms the process exits without the commands (their callers get
 * ECONNABORTED from the kernel).
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
#include <time.h>
#include <unistd.h>

#include "shutdown.h"

const int shutdown_signals[SHUTDOWN_NSIG] = { SIGTERM, SIGINT, SIGHUP };
/* How long the loop may take to leave before it is signalled again. */
#define SHUTDOWN_KICK_MS 200

/*
 * A signal handler gets no argument, so what it needs lives here: the pipe
 * it writes to and the handlers (the front end's) it hands the signal on to. Set
 * before the handlers are installed, cleared after they are removed.
 */
static int shutdown_signal_fd = -1;
static struct sigaction shutdown_prev[SHUTDOWN_NSIG];
/*
 * Set once the waiters are out: signals go to the front end from then on. Written
 * by the watch's thread, read in the handler on another thread: an atomic
 * (lock-free, so safe in a handler), not merely volatile.
 */
static atomic_int shutdown_hand_on;

/*
 * @ctxs/@n: the chardevs revoked together; @pending: revokes not yet
 * completed (under @lock).
 */
struct shutdown_watch {
	size_t n;
	size_t pending;
	unsigned int timeout_ms;
	void (*abandon)(void *arg);
	void *abandon_arg;
	int pipe[2];
	pthread_t thread;
	pthread_t loop_thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chardev_ctx *ctxs[];
};

static void shutdown_on_signal(int sig)
{
	unsigned char c = (unsigned char)sig;
	int saved = errno;
	size_t i;

	if (!atomic_load(&shutdown_hand_on)) {
		if (write(shutdown_signal_fd, &c, 1) < 0) {
			/* Full pipe: a shutdown is under way already. */
		}
		errno = saved;
		return;
	}
	for (i = 0; i < SHUTDOWN_NSIG; i++) {
		if (shutdown_signals[i] == sig && !(shutdown_prev[i].sa_flags & SA_SIGINFO) &&
		    shutdown_prev[i].sa_handler != SIG_DFL && shutdown_prev[i].sa_handler != SIG_IGN)
			shutdown_prev[i].sa_handler(sig);
	}
	errno = saved;
}

static void shutdown_revoked(void *arg, int result)
{
	struct shutdown_watch *w = arg;

	(void)result;
	pthread_mutex_lock(&w->lock);
	w->pending--;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/* Wait for every revoke; false when @timeout_ms ran out first. */
static bool shutdown_wait_revoked(struct shutdown_watch *w)
{
	struct timespec until;
	bool revoked;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += w->timeout_ms / 1000;
	until.tv_nsec += (long)(w->timeout_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	while (w->pending &&
	       pthread_cond_timedwait(&w->cond, &w->lock, &until) != ETIMEDOUT)
		;
	revoked = !w->pending;
	pthread_mutex_unlock(&w->lock);
	return revoked;
}

/*
 * True once shutdown_watch_stop()'s zero byte arrives within @ms; signal
 * bytes that came meanwhile (a second SIGTERM) are read and dropped.
 */
static bool shutdown_stop_seen(struct shutdown_watch *w, int ms)
{
	struct pollfd pfd = { .fd = w->pipe[0], .events = POLLIN };
	unsigned char c;

	for (;;) {
		int n = poll(&pfd, 1, ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		if (read(w->pipe[0], &c, 1) == 1 && !c)
			return true;
	}
}

static void *shutdown_thread(void *arg)
{
	struct shutdown_watch *w = arg;
	unsigned char sig;
	ssize_t n;
	size_t i;

	do {
		n = read(w->pipe[0], &sig, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1 || !sig)
		return NULL;	/* shutdown_watch_stop(): no signal came */

	chardev_log(w->ctxs[0], CHARDEV_LOG_NOTICE, "%s: revoking the EC%s, waking every waiter",
		    strsignal(sig), w->n > 1 ? "s" : "");
	/*
	 * Every device's revoke starts before any is waited for: the time
	 * commands in flight get is one @timeout_ms for them all. -ENODEV:
	 * nothing was plugged, so nothing is in flight to wait for.
	 */
	pthread_mutex_lock(&w->lock);
	w->pending = w->n;
	pthread_mutex_unlock(&w->lock);
	for (i = 0; i < w->n; i++) {
		if (chardev_shutdown_begin(w->ctxs[i], shutdown_revoked, w))
			shutdown_revoked(w, 0);
	}
	if (!shutdown_wait_revoked(w)) {
		chardev_log(w->ctxs[0], CHARDEV_LOG_ERR, "commands still in flight after %u ms; "
			    "exiting without them", w->timeout_ms);
		if (w->abandon)
			w->abandon(w->abandon_arg);
		_exit(1);
	}
	/*
	 * Now the front end's handler, in ->run's thread: the signal there
	 * also interrupts its wait, so it sees the exit at once. A signal
	 * that lands after it checked and before it sleeps again is lost to
	 * it (valgrind widens that window), so the thread kicks again until
	 * shutdown_watch_stop() says ->run is out.
	 */
	atomic_store(&shutdown_hand_on, 1);
	do
		pthread_kill(w->loop_thread, sig);
	while (!shutdown_stop_seen(w, SHUTDOWN_KICK_MS));
	return NULL;
}

int shutdown_watch_start(struct chardev_ctx *const *ctxs, size_t n, unsigned int timeout_ms,
			 void (*abandon)(void *arg), void *arg, struct shutdown_watch **out)
{
	struct sigaction sa = { .sa_handler = shutdown_on_signal };
	struct shutdown_watch *w;
	pthread_condattr_t ca;
	sigset_t all, old;
	size_t i;
	int ret;

	if (!n)
		return -EINVAL;
	w = calloc(1, sizeof(*w) + n * sizeof(*ctxs));
	if (!w)
		return -ENOMEM;
	memcpy(w->ctxs, ctxs, n * sizeof(*ctxs));
	w->n = n;
	w->timeout_ms = timeout_ms;
	w->abandon = abandon;
	w->abandon_arg = arg;
	w->loop_thread = pthread_self();
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (pipe2(w->pipe, O_CLOEXEC)) {
		ret = -errno;
		goto err_free;
	}
	/* The handler must never block a loop thread. */
	fcntl(w->pipe[1], F_SETFL, O_NONBLOCK);

	/* The thread leaves the signals to the front end's loop threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&w->thread, NULL, shutdown_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto err_pipe;

	shutdown_signal_fd = w->pipe[1];
	atomic_store(&shutdown_hand_on, 0);
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaddset(&sa.sa_mask, shutdown_signals[i]);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaction(shutdown_signals[i], &sa, &shutdown_prev[i]);
	*out = w;
	return 0;

err_pipe:
	close(w->pipe[0]);
	close(w->pipe[1]);
err_free:
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return ret;
}

void shutdown_watch_stop(struct shutdown_watch *w)
{
	unsigned char none = 0;
	size_t i;

	if (!w)
		return;
	/*
	 * Wakes the thread if no signal came, ends its kicks if one did; the
	 * handlers are restored only after it is gone, so no kick can reach a
	 * default action.
	 */
	while (write(w->pipe[1], &none, 1) < 0 && errno == EAGAIN) {
		/* Full of signal bytes: the thread drains them, one poll away. */
		poll(NULL, 0, 1);
	}
	pthread_join(w->thread, NULL);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaction(shutdown_signals[i], &shutdown_prev[i], NULL);
	shutdown_signal_fd = -1;
	close(w->pipe[0]);
	close(w->pipe[1]);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
