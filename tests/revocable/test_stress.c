// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stress: eight consumer threads share ONE handle per provider while the
 * producer revokes and re-provides a fresh resource, cycle after cycle.
 * The release callback poisons and frees the resource, so any access after
 * it is a use-after-free that ASan reports and that the canary catches
 * otherwise; TSan checks the happens-before edges the library promises.
 * The oracles: a canary checked on every access that saw the resource
 * (nested ones included), and a count of open accesses that the release
 * callback requires to be 0.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <revocable.h>

#include "test_util.h"

#define NR_CONSUMERS	8
#define NR_CYCLES	300
#define CANARY_ALIVE	0x600d
#define CANARY_DEAD	0xdead

struct resource {
	int canary;
	int active;		/* readers inside, must be 0 at release */
};

struct stress {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct revocable *current;	/* the shared handle, or NULL */
	int users;			/* consumers holding @current */
	int cycle;			/* which provider @current is */
	int stop;

	/* outcome counters, updated atomically */
	long ok, nulls, attempts, bad, releases, async_done, release_busy;
};

struct consumer {
	struct stress *st;
	unsigned int seed;
	long ok, nulls, attempts;
};

static void count(long *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

static void resource_release(void *res, void *arg)
{
	struct resource *r = res;
	struct stress *st = arg;

	if (__atomic_load_n(&r->active, __ATOMIC_SEQ_CST) != 0)
		count(&st->release_busy);
	r->canary = CANARY_DEAD;
	free(r);
	count(&st->releases);
}

static void async_done(struct revocable_provider *rp, void *arg)
{
	struct stress *st = arg;

	count(&st->async_done);
}

/* Use the resource; sometimes nest (same handle, past the slot stack) and
 * sometimes block inside, like a driver call would. */
static void use_resource(struct consumer *c, struct revocable *h,
			 struct resource *r, int k)
{
	struct stress *st = c->st;
	int i, depth;

	__atomic_fetch_add(&r->active, 1, __ATOMIC_SEQ_CST);
	if (r->canary != CANARY_ALIVE)
		count(&st->bad);
	if (k % 7 == 0) {
		depth = k % 21 == 0 ? REVOCABLE_READER_SLOTS + 3 : 2;
		for (i = 0; i < depth; i++) {
			struct resource *inner = revocable_try_access(h);

			/* Nested: the same resource, or NULL once revoking;
			 * the canary is checked on every access that sees it. */
			if (inner && (inner != r || inner->canary != CANARY_ALIVE))
				count(&st->bad);
		}
		for (i = 0; i < depth; i++)
			revocable_release(h);
	}
	if (rand_r(&c->seed) % 16 == 0)
		sched_yield();
	if (rand_r(&c->seed) % 64 == 0) {
		struct timespec ts = { 0, 200000 };

		nanosleep(&ts, NULL);	/* a reader that blocks */
	}
	if (r->canary != CANARY_ALIVE)
		count(&st->bad);
	__atomic_fetch_sub(&r->active, 1, __ATOMIC_SEQ_CST);
}

static void *consumer_fn(void *arg)
{
	struct consumer *c = arg;
	struct stress *st = c->st;
	struct revocable *h;
	int k, cycle, dead_cycle = -1;

	for (;;) {
		pthread_mutex_lock(&st->lock);
		/* Wait for a handle not yet seen revoked. */
		while ((!st->current || st->cycle == dead_cycle) && !st->stop)
			pthread_cond_wait(&st->cond, &st->lock);
		if (st->stop) {
			pthread_mutex_unlock(&st->lock);
			break;
		}
		h = st->current;	/* re-attach to the newest provider */
		cycle = st->cycle;
		st->users++;
		pthread_mutex_unlock(&st->lock);

		for (k = 0; k < 64; k++) {
			struct resource *r = revocable_try_access(h);

			c->attempts++;
			if (!r) {
				c->nulls++;
				revocable_release(h);
				dead_cycle = cycle;
				break;
			}
			c->ok++;
			use_resource(c, h, r, k);
			revocable_release(h);
		}

		pthread_mutex_lock(&st->lock);
		st->users--;
		pthread_cond_broadcast(&st->cond);
		pthread_mutex_unlock(&st->lock);
	}
	return NULL;
}

static void wait_users_gone(struct stress *st)
{
	int64_t start = now_ms();

	pthread_mutex_lock(&st->lock);
	st->current = NULL;
	while (st->users) {
		pthread_mutex_unlock(&st->lock);
		ck_assert_msg(now_ms() - start < 10000, "consumers stuck");
		sleep_ms(1);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
}

static void stress_revoke_reprovide(void)
{
	struct stress st = { .lock = PTHREAD_MUTEX_INITIALIZER,
			     .cond = PTHREAD_COND_INITIALIZER };
	struct consumer c[NR_CONSUMERS];
	pthread_t tids[NR_CONSUMERS];
	long async_cycles = 0, sum_ok = 0, sum_nulls = 0, sum_attempts = 0;
	unsigned int seed = 1;
	int cycle, i;

	for (i = 0; i < NR_CONSUMERS; i++) {
		c[i] = (struct consumer){ .st = &st, .seed = i + 1 };
		tids[i] = start_thread(consumer_fn, &c[i]);
	}

	for (cycle = 0; cycle < NR_CYCLES; cycle++) {
		struct resource *r = malloc(sizeof(*r));
		struct revocable_provider *rp;
		struct revocable *h;
		struct timespec ts = { 0, 0 };

		ck_assert_ptr_nonnull(r);
		r->canary = CANARY_ALIVE;
		r->active = 0;
		rp = revocable_provider_alloc(r);
		ck_assert_ptr_nonnull(rp);
		ck_assert_int_eq(revocable_provider_set_release(rp, resource_release, &st), 0);
		h = revocable_alloc(rp);
		ck_assert_ptr_nonnull(h);

		pthread_mutex_lock(&st.lock);
		st.current = h;
		st.cycle = cycle;
		pthread_cond_broadcast(&st.cond);
		pthread_mutex_unlock(&st.lock);

		ts.tv_nsec = (rand_r(&seed) % 2000) * 1000L;
		nanosleep(&ts, NULL);

		if (cycle % 2) {
			ck_assert_int_eq(revocable_provider_revoke(rp), 1);
			ck_assert_int_eq(__atomic_load_n(&st.releases, __ATOMIC_SEQ_CST),
					 cycle + 1);
		} else {
			ck_assert_int_eq(revocable_provider_revoke_async(rp, async_done, &st), 0);
			async_cycles++;
			/* Sync revoke after async: waits for the same end. */
			ck_assert_int_eq(revocable_provider_revoke(rp), 0);
			ck_assert_int_eq(__atomic_load_n(&st.releases, __ATOMIC_SEQ_CST),
					 cycle + 1);
		}
		ck_assert_ptr_null(revocable_try_access(h));
		revocable_release(h);

		wait_users_gone(&st);
		revocable_free(h);
		revocable_provider_free(rp);
	}

	pthread_mutex_lock(&st.lock);
	st.stop = 1;
	pthread_cond_broadcast(&st.cond);
	pthread_mutex_unlock(&st.lock);
	for (i = 0; i < NR_CONSUMERS; i++) {
		join_within(tids[i], 10000, "consumer");
		sum_ok += c[i].ok;
		sum_nulls += c[i].nulls;
		sum_attempts += c[i].attempts;
	}
	revocable_barrier();

	printf("stress: %d cycles, %ld accesses (%ld ok, %ld NULL)\n",
	       NR_CYCLES, sum_attempts, sum_ok, sum_nulls);
	ck_assert_int_eq(st.bad, 0);
	ck_assert_int_eq(st.release_busy, 0);
	ck_assert_int_eq(st.releases, NR_CYCLES);
	ck_assert_int_eq(st.async_done, async_cycles);
	ck_assert_int_eq(sum_ok + sum_nulls, sum_attempts);
	ck_assert_int_gt(sum_ok, 0);
	ck_assert_int_gt(sum_nulls, 0);
}

START_TEST(test_stress_revoke_reprovide)
{
	stress_revoke_reprovide();
}
END_TEST

/* The same with the fallback for kernels without sys_membarrier(); set
 * before the library initialises in this forked test process. */
START_TEST(test_stress_no_membarrier)
{
	setenv("REVOCABLE_NO_MEMBARRIER", "1", 1);
	stress_revoke_reprovide();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_stress");
	TCase *tc = tcase_create("stress");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_stress_revoke_reprovide);
	tcase_add_test(tc, test_stress_no_membarrier);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
