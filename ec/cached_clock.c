// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cached_clock.c - the cached monotonic clock the daemon gives its ECs
 * (declared in ec.h): a ticker thread publishes the time, so a host
 * command reads it without a system call.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "common/common.h"
#include "ec.h"

#define TICK_NS 10000000ULL	/* publish the time every 10 ms (why: ec.h)... */
#define IDLE_TICKS 10		/* ...until nobody asked for 10 ticks */

/**
 * struct cached_clock - the clock and its ticker.
 * @ops:        what the EC calls
 * @now_ns:     last published reading
 * @idle_ticks: ticks since a reader last asked
 * @parked:     the ticker sleeps until a reader wakes it
 * @stop:       the ticker must exit
 * @lock:       pairs with @wake for parking
 * @wake:       signalled to unpark or stop the ticker
 * @thread:     the ticker
 */
struct cached_clock {
	struct ec_clock ops;
	atomic_uint_fast64_t now_ns;
	atomic_uint idle_ticks;
	atomic_bool parked;
	atomic_bool stop;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
};

/* Publish @t unless a later reading is already there: never go backwards. */
static uint64_t cached_clock_publish(struct cached_clock *c, uint64_t t)
{
	uint64_t old = atomic_load(&c->now_ns);

	while (old < t && !atomic_compare_exchange_weak(&c->now_ns, &old, t))
		;
	return old > t ? old : t;
}

static uint64_t cached_clock_now(void *ctx)
{
	struct cached_clock *c = ctx;
	uint64_t t;

	if (atomic_load_explicit(&c->idle_ticks, memory_order_relaxed))
		atomic_store_explicit(&c->idle_ticks, 0, memory_order_relaxed);
	if (!atomic_load(&c->parked))
		return atomic_load(&c->now_ns);

	/* The ticker is parked: read the real time and wake it up. */
	t = cached_clock_publish(c, mono_now_ns());
	pthread_mutex_lock(&c->lock);
	atomic_store(&c->parked, false);
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	return t;
}

static void cached_clock_sleep(void *ctx, uint64_t ns)
{
	mono_sleep_ns(ns);
}

static void *cached_clock_ticker(void *arg)
{
	struct cached_clock *c = arg;

	while (!atomic_load(&c->stop)) {
		cached_clock_publish(c, mono_now_ns());
		if (atomic_fetch_add(&c->idle_ticks, 1) < IDLE_TICKS) {
			mono_sleep_ns(TICK_NS);
			continue;
		}
		pthread_mutex_lock(&c->lock);
		atomic_store(&c->parked, true);
		while (atomic_load(&c->parked) && !atomic_load(&c->stop))
			pthread_cond_wait(&c->wake, &c->lock);
		pthread_mutex_unlock(&c->lock);
		atomic_store(&c->idle_ticks, 0);
	}
	return NULL;
}

int cached_clock_create(struct cached_clock **out)
{
	struct cached_clock *c;
	sigset_t all, old;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ops.now_ns = cached_clock_now;
	c->ops.sleep_ns = cached_clock_sleep;
	c->ops.ctx = c;
	atomic_init(&c->now_ns, mono_now_ns());
	atomic_init(&c->idle_ticks, 0);
	atomic_init(&c->parked, false);
	atomic_init(&c->stop, false);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->wake, NULL);
	/* The ticker must not take SIGTERM/SIGINT meant for the frontend's loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&c->thread, NULL, cached_clock_ticker, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		pthread_cond_destroy(&c->wake);
		pthread_mutex_destroy(&c->lock);
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

void cached_clock_destroy(struct cached_clock *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	atomic_store(&c->stop, true);
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

const struct ec_clock *cached_clock_ops(struct cached_clock *c)
{
	return &c->ops;
}
