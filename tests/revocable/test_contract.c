// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One test per point of librevocable's contract (revocable(3)).  Every
 * wait is bounded: a broken library makes a test fail, not hang.
 */
#include "config.h"

#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <revocable.h>

#include "test_util.h"

#define RES_A	((void *)0xa11ce)
#define RES_B	((void *)0xb0b)

/* ---- shared helpers ---- */

/* A reader thread that holds one access for a while. */
struct holder {
	struct revocable *rev;
	long hold_ms;
	void *seen;
	int64_t released_at;		/* written before release */
	int entered;			/* 1 once inside the access */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool wake;			/* ends the hold early */
};

static void holder_init(struct holder *h, struct revocable *rev, long hold_ms)
{
	memset(h, 0, sizeof(*h));
	h->rev = rev;
	h->hold_ms = hold_ms;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
}

static void *holder_fn(void *arg)
{
	struct holder *h = arg;
	struct timespec deadline;

	h->seen = revocable_try_access(h->rev);
	__atomic_store_n(&h->entered, 1, __ATOMIC_RELEASE);

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += h->hold_ms / 1000;
	deadline.tv_nsec += (h->hold_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&h->lock);
	while (!h->wake &&
	       pthread_cond_timedwait(&h->cond, &h->lock, &deadline) == 0)
		;
	pthread_mutex_unlock(&h->lock);

	__atomic_store_n(&h->released_at, now_ms(), __ATOMIC_RELEASE);
	revocable_release(h->rev);
	return NULL;
}

static void holder_wait_entered(struct holder *h)
{
	int64_t start = now_ms();

	while (!__atomic_load_n(&h->entered, __ATOMIC_ACQUIRE)) {
		ck_assert_msg(now_ms() - start < 5000, "holder never entered");
		sleep_ms(1);
	}
}

static void holder_wake(struct holder *h)
{
	pthread_mutex_lock(&h->lock);
	h->wake = true;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

struct release_log {
	int calls;
	void *res;
	int64_t at;
	void *arg_seen;
};

static void log_release(void *res, void *arg)
{
	struct release_log *log = arg;

	__atomic_fetch_add(&log->calls, 1, __ATOMIC_SEQ_CST);
	log->res = res;
	log->arg_seen = arg;
	__atomic_store_n(&log->at, now_ms(), __ATOMIC_RELEASE);
}

struct revoke_call {
	struct revocable_provider *rp;
	int ret;
	int64_t returned_at;
	struct release_log *log;
	int release_calls_seen;		/* release callbacks done at return */
};

static void *revoke_fn(void *arg)
{
	struct revoke_call *call = arg;

	call->ret = revocable_provider_revoke(call->rp);
	call->returned_at = now_ms();
	if (call->log)
		call->release_calls_seen =
			__atomic_load_n(&call->log->calls, __ATOMIC_SEQ_CST);
	return NULL;
}

/* ---- bad input ---- */

START_TEST(test_null_inputs)
{
	struct revocable stack_rev;
	struct revocable_guard g = REVOCABLE_GUARD_INIT;
	struct revocable_provider *rp;
	struct revocable *rev;
	void *res;
	int i;

	ck_assert_ptr_null(revocable_alloc(NULL));
	ck_assert_ptr_null(revocable_try_access(NULL));
	revocable_release(NULL);
	revocable_free(NULL);
	revocable_provider_free(NULL);
	revocable_provider_put(NULL);
	ck_assert_ptr_null(revocable_provider_get(NULL));
	ck_assert_int_eq(revocable_provider_revoke(NULL), -EINVAL);
	ck_assert_int_eq(revocable_provider_revoke_async(NULL, NULL, NULL),
			 -EINVAL);
	ck_assert_int_eq(revocable_provider_set_release(NULL, NULL, NULL),
			 -EINVAL);
	ck_assert(revocable_provider_is_revoked(NULL));
	revocable_provider_init(NULL, NULL, NULL);
	revocable_init(NULL, NULL);
	revocable_fini(NULL);

	/* A handle on no provider behaves like a revoked one. */
	revocable_init(&stack_rev, NULL);
	ck_assert_ptr_null(revocable_try_access(&stack_rev));
	revocable_release(&stack_rev);
	ck_assert_ptr_null(revocable_guard_enter(&g, &stack_rev));
	revocable_guard_exit(&g);
	revocable_guard_exit(&g);	/* idempotent */
	REVOCABLE(&stack_rev, res)
		ck_assert_ptr_null(res);
	/* Nested past the slots on a handle on no provider: all pair up. */
	for (i = 0; i < REVOCABLE_READER_SLOTS + 4; i++)
		ck_assert_ptr_null(revocable_try_access(&stack_rev));
	for (i = 0; i < REVOCABLE_READER_SLOTS + 4; i++)
		revocable_release(&stack_rev);
	revocable_fini(&stack_rev);

	rp = revocable_provider_alloc(RES_A);
	rev = revocable_alloc(rp);
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);	/* inline again */
	revocable_release(rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);	/* nothing held */
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

START_TEST(test_release_without_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);

	/* A stray release is reported, and does not corrupt later accesses. */
	revocable_release(rev);
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	revocable_release(rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- revoke: result, idempotence, hint ---- */

START_TEST(test_revoke_result)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);

	ck_assert(!revocable_provider_is_revoked(rp));
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	ck_assert(revocable_provider_is_revoked(rp));
	ck_assert_int_eq(revocable_provider_revoke(rp), 0);
	ck_assert_ptr_null(revocable_try_access(rev));
	revocable_release(rev);
	revocable_free(rev);
	revocable_provider_free(rp);	/* revoke + put on a revoked one */
}
END_TEST

/* ---- readers may block; revoke waits for them ---- */

START_TEST(test_reader_blocks_revoke_waits)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct holder h;
	pthread_t tid;
	int64_t returned;

	holder_init(&h, rev, 300);
	tid = start_thread(holder_fn, &h);
	holder_wait_entered(&h);
	ck_assert_ptr_eq(h.seen, RES_A);

	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	returned = now_ms();
	ck_assert_msg(__atomic_load_n(&h.released_at, __ATOMIC_ACQUIRE) != 0,
		      "revoke returned while a reader was inside");
	ck_assert(returned >= h.released_at);
	join_within(tid, 5000, "holder");
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- release callback ---- */

START_TEST(test_release_cb_sync_once)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct release_log log = { 0 };
	struct holder h;
	pthread_t tid;

	ck_assert_int_eq(revocable_provider_set_release(rp, log_release, &log), 0);
	holder_init(&h, rev, 200);
	tid = start_thread(holder_fn, &h);
	holder_wait_entered(&h);

	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	/* Ran before revoke returned, after the reader left, with res. */
	ck_assert_int_eq(log.calls, 1);
	ck_assert_ptr_eq(log.res, RES_A);
	ck_assert_ptr_eq(log.arg_seen, &log);
	ck_assert(log.at >= h.released_at);

	ck_assert_int_eq(revocable_provider_revoke(rp), 0);
	ck_assert_int_eq(revocable_provider_set_release(rp, log_release, &log),
			 -EBUSY);
	join_within(tid, 5000, "holder");
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
	ck_assert_int_eq(log.calls, 1);
}
END_TEST

START_TEST(test_release_cb_without_revoke)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_B);
	struct release_log log = { 0 };

	ck_assert_int_eq(revocable_provider_set_release(rp, log_release, &log), 0);
	/* Last reference dropped without any revoke: still called once. */
	revocable_provider_put(rp);
	revocable_barrier();
	ck_assert_int_eq(log.calls, 1);
	ck_assert_ptr_eq(log.res, RES_B);
}
END_TEST

/* ---- async revoke ---- */

struct async_log {
	int calls;
	struct revocable_provider *rp_seen;
	int64_t at;
	pthread_t thread;
	struct release_log *release;
	int release_calls_at_done;
};

static void async_done(struct revocable_provider *rp, void *arg)
{
	struct async_log *log = arg;

	log->rp_seen = rp;
	log->thread = pthread_self();
	log->at = now_ms();
	if (log->release)
		log->release_calls_at_done =
			__atomic_load_n(&log->release->calls, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&log->calls, 1, __ATOMIC_SEQ_CST);
}

START_TEST(test_revoke_async)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct release_log rlog = { 0 };
	struct async_log alog = { .release = &rlog };
	struct holder h;
	pthread_t tid;
	int64_t t0;

	ck_assert_int_eq(revocable_provider_set_release(rp, log_release, &rlog), 0);
	holder_init(&h, rev, 400);
	tid = start_thread(holder_fn, &h);
	holder_wait_entered(&h);

	t0 = now_ms();
	ck_assert_int_eq(revocable_provider_revoke_async(rp, async_done, &alog), 0);
	ck_assert_msg(now_ms() - t0 < 200, "async revoke blocked the caller");
	/* New accesses already fail even before the reader left. */
	sleep_ms(50);
	ck_assert_ptr_null(revocable_try_access(rev));
	revocable_release(rev);
	ck_assert_int_eq(__atomic_load_n(&alog.calls, __ATOMIC_SEQ_CST), 0);

	join_within(tid, 5000, "holder");
	revocable_barrier();
	ck_assert_int_eq(alog.calls, 1);
	ck_assert_ptr_eq(alog.rp_seen, rp);
	ck_assert(!pthread_equal(alog.thread, pthread_self()));
	ck_assert(alog.at >= h.released_at);
	ck_assert_int_eq(alog.release_calls_at_done, 1);
	ck_assert_int_eq(rlog.calls, 1);

	/* Already revoked: still returns 0 and still reports once. */
	memset(&alog, 0, sizeof(alog));
	ck_assert_int_eq(revocable_provider_revoke_async(rp, async_done, &alog), 0);
	revocable_barrier();
	ck_assert_int_eq(alog.calls, 1);
	ck_assert_int_eq(rlog.calls, 1);

	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/*
 * A revoker waiting for an access must stop waiting once that access has
 * ended, even when the same thread at once holds a new access of the
 * revoked provider in the same slot (it saw NULL, so it needs no waiting).
 * The revoker is known to be waiting once it has registered itself as a
 * sleeper on this thread's reader.  If the revoker could not tell the new
 * access from the old one this fails at the deadline whenever its re-check
 * comes after the new access began; test_revocable_slot_wait checks the
 * mechanism itself deterministically.
 */
START_TEST(test_revoke_ignores_later_access_in_same_slot)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct async_log alog = { 0 };
	int64_t deadline;

	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	ck_assert_int_eq(revocable_provider_revoke_async(rp, async_done, &alog), 0);
	deadline = now_ms() + 10000;
	while (!__atomic_load_n(&revocable__tls_reader->waiters, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() < deadline,
			      "the revoker never waited for our access");
		sleep_ms(1);
	}
	revocable_release(rev);
	ck_assert_ptr_null(revocable_try_access(rev));	/* same slot, held */
	deadline = now_ms() + 10000;
	while (!__atomic_load_n(&alog.calls, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() < deadline,
			      "revoke kept waiting for an access that began after it");
		sleep_ms(1);
	}
	revocable_release(rev);
	revocable_barrier();
	ck_assert_int_eq(alog.calls, 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- concurrent revokers ---- */

#define NR_REVOKERS 4

START_TEST(test_concurrent_revokers)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct release_log log = { 0 };
	struct revoke_call calls[NR_REVOKERS];
	pthread_t tids[NR_REVOKERS], holder_tid;
	struct holder h;
	int i, winners = 0;

	ck_assert_int_eq(revocable_provider_set_release(rp, log_release, &log), 0);
	holder_init(&h, rev, 300);
	holder_tid = start_thread(holder_fn, &h);
	holder_wait_entered(&h);

	for (i = 0; i < NR_REVOKERS; i++) {
		calls[i] = (struct revoke_call){ .rp = rp, .log = &log };
		tids[i] = start_thread(revoke_fn, &calls[i]);
	}
	for (i = 0; i < NR_REVOKERS; i++)
		join_within(tids[i], 5000, "revoker");
	join_within(holder_tid, 5000, "holder");

	for (i = 0; i < NR_REVOKERS; i++) {
		ck_assert(calls[i].ret == 0 || calls[i].ret == 1);
		winners += calls[i].ret;
		/* Every caller, winner or not, returned after the reader
		 * left and after the release callback. */
		ck_assert(calls[i].returned_at >= h.released_at);
		ck_assert_int_eq(calls[i].release_calls_seen, 1);
	}
	ck_assert_int_eq(winners, 1);
	ck_assert_int_eq(log.calls, 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- get / put, embedded providers, deferred free ---- */

struct device {
	int canary;
	struct revocable_provider rp;
	int freed;
	pthread_t freed_on;
};

static void device_free(struct revocable_provider *rp)
{
	struct device *dev = caa_container_of(rp, struct device, rp);

	dev->freed_on = pthread_self();
	__atomic_fetch_add(&dev->freed, 1, __ATOMIC_SEQ_CST);
}

START_TEST(test_get_put_keeps_provider)
{
	struct device dev = { .canary = 42 };
	struct revocable_provider *extra;
	struct revocable *rev;

	revocable_provider_init(&dev.rp, &dev.canary, device_free);
	extra = revocable_provider_get(&dev.rp);
	ck_assert_ptr_eq(extra, &dev.rp);

	revocable_provider_free(&dev.rp);	/* owner ref gone */
	revocable_barrier();
	ck_assert_int_eq(dev.freed, 0);

	/* Attach through the remaining reference: safe, yields NULL. */
	rev = revocable_alloc(extra);
	ck_assert_ptr_nonnull(rev);
	ck_assert_ptr_null(revocable_try_access(rev));
	revocable_release(rev);
	revocable_provider_put(extra);
	revocable_barrier();
	ck_assert_int_eq(dev.freed, 0);		/* the handle still holds one */

	revocable_free(rev);
	revocable_barrier();
	ck_assert_int_eq(dev.freed, 1);
}
END_TEST

START_TEST(test_embedded_provider)
{
	struct device *dev = calloc(1, sizeof(*dev));
	struct revocable *rev;
	int *res;

	dev->canary = 7;
	revocable_provider_init(&dev->rp, &dev->canary, device_free);
	rev = revocable_alloc(&dev->rp);
	res = revocable_try_access(rev);
	ck_assert_ptr_eq(res, &dev->canary);
	ck_assert_int_eq(*res, 7);
	revocable_release(rev);

	revocable_provider_free(&dev->rp);
	ck_assert_ptr_null(revocable_try_access(rev));
	revocable_release(rev);
	revocable_free(rev);
	revocable_barrier();
	ck_assert_int_eq(dev->freed, 1);
	free(dev);
}
END_TEST

/* The last reference is dropped from inside another access on this
 * thread: the teardown must happen elsewhere, later, never under the
 * caller's locks. */
START_TEST(test_final_free_deferred)
{
	struct device dev = { .canary = 1 };
	struct revocable_provider *other = revocable_provider_alloc(RES_B);
	struct revocable *other_rev = revocable_alloc(other);
	struct revocable *rev;
	void *res;

	revocable_provider_init(&dev.rp, &dev.canary, device_free);
	rev = revocable_alloc(&dev.rp);
	revocable_provider_free(&dev.rp);

	res = revocable_try_access(other_rev);
	ck_assert_ptr_eq(res, RES_B);
	revocable_free(rev);			/* last reference */
	ck_assert_int_eq(__atomic_load_n(&dev.freed, __ATOMIC_SEQ_CST) &&
			 pthread_equal(dev.freed_on, pthread_self()), 0);
	revocable_release(other_rev);

	revocable_barrier();
	ck_assert_int_eq(dev.freed, 1);
	ck_assert(!pthread_equal(dev.freed_on, pthread_self()));
	revocable_free(other_rev);
	revocable_provider_free(other);
}
END_TEST

/* ---- stack handles, guards, scoped macros ---- */

START_TEST(test_stack_handle)
{
	struct device dev = { .canary = 3 };
	struct revocable rev;

	revocable_provider_init(&dev.rp, &dev.canary, device_free);
	revocable_init(&rev, &dev.rp);
	ck_assert_ptr_eq(revocable_try_access(&rev), &dev.canary);
	revocable_release(&rev);
	revocable_provider_free(&dev.rp);
	revocable_barrier();
	ck_assert_int_eq(dev.freed, 0);		/* stack handle holds a ref */
	ck_assert_ptr_null(revocable_try_access(&rev));
	revocable_release(&rev);
	revocable_fini(&rev);
	revocable_barrier();
	ck_assert_int_eq(dev.freed, 1);
	/* A finished handle fails safe rather than touch freed memory. */
	ck_assert_ptr_null(revocable_try_access(&rev));
	revocable_release(&rev);
}
END_TEST

static void *guarded_access(struct revocable *rev)
{
	REVOCABLE_GUARD(g);
	void *res = revocable_guard_enter(&g, rev);

	return res;	/* released by the cleanup attribute */
}

START_TEST(test_guard)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable_guard g = REVOCABLE_GUARD_INIT;

	ck_assert_ptr_eq(revocable_guard_enter(&g, rev), RES_A);
	/* Held: revoking from this thread is refused, not a hang. */
	ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);
	revocable_guard_exit(&g);
	revocable_guard_exit(&g);

	ck_assert_ptr_eq(guarded_access(rev), RES_A);
	/* Both guards released: this thread may revoke now. */
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	ck_assert_ptr_null(guarded_access(rev));
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

static int scoped_runs(struct revocable *rev, void **seen)
{
	void *res;
	int runs = 0;

	REVOCABLE_SCOPED(rev, res) {
		*seen = res;
		runs++;
	}
	return runs;
}

static int breaks_out(struct revocable *rev)
{
	void *res;

	REVOCABLE(rev, res) {
		if (res)
			break;
		return -1;
	}
	return 0;
}

static int or_return(struct revocable *rev)
{
	REVOCABLE_OR_RETURN(rev, res, 99);
	return res == RES_A ? 1 : -1;
}

static int or_enodev(struct revocable *rev)
{
	REVOCABLE_OR_ENODEV(rev, res);
	return res == RES_A ? 0 : -EINVAL;
}

START_TEST(test_scoped_macros)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	void *seen = NULL;

	ck_assert_int_eq(scoped_runs(rev, &seen), 1);
	ck_assert_ptr_eq(seen, RES_A);
	ck_assert_int_eq(breaks_out(rev), 0);
	ck_assert_int_eq(or_return(rev), 1);
	ck_assert_int_eq(or_enodev(rev), 0);

	/* Every form released its access: revoke from here succeeds. */
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);

	seen = NULL;
	ck_assert_int_eq(scoped_runs(rev, &seen), 0);	/* body skipped */
	ck_assert_ptr_null(seen);
	ck_assert_int_eq(breaks_out(rev), -1);		/* seed form runs */
	ck_assert_int_eq(or_return(rev), 99);
	ck_assert_int_eq(or_enodev(rev), -ENODEV);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- -EDEADLK ---- */

START_TEST(test_revoke_inside_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable_provider *other = revocable_provider_alloc(RES_B);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable *other_rev = revocable_alloc(other);
	int i;

	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);
	/* Refused means untouched. */
	ck_assert(!revocable_provider_is_revoked(rp));
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	revocable_release(rev);
	/* The seed's void free cannot fail loudly: it must not hang or free. */
	revocable_provider_free(rp);
	ck_assert(!revocable_provider_is_revoked(rp));
	/* Revoking another provider from inside this access is fine. */
	ck_assert_int_eq(revocable_provider_revoke(other), 1);
	revocable_release(rev);

	/* Deeper than the per-thread slots: still detected. */
	for (i = 0; i < REVOCABLE_READER_SLOTS + 4; i++)
		ck_assert_ptr_null(revocable_try_access(other_rev));
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);
	revocable_release(rev);
	for (i = 0; i < REVOCABLE_READER_SLOTS + 4; i++)
		revocable_release(other_rev);

	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(rev);
	revocable_free(other_rev);
	revocable_provider_free(rp);
	revocable_provider_free(other);
}
END_TEST

/* ---- nesting ---- */

struct deep_reader {
	struct revocable *a, *b;
	int depth;
	bool all_seen;
	int entered;
	long hold_ms;
	int64_t released_at;
};

static void *deep_reader_fn(void *arg)
{
	struct deep_reader *d = arg;
	int i;

	d->all_seen = true;
	for (i = 0; i < d->depth; i++) {
		void *want = i % 2 ? RES_B : RES_A;
		struct revocable *rev = i % 2 ? d->b : d->a;

		if (revocable_try_access(rev) != want)
			d->all_seen = false;
	}
	__atomic_store_n(&d->entered, 1, __ATOMIC_RELEASE);
	sleep_ms(d->hold_ms);
	/* Release in FIFO order (not LIFO) to use the out-of-order path;
	 * stamp the time just before the last access of A goes. */
	for (i = 0; i < d->depth; i++) {
		if (i == (d->depth - 1) / 2 * 2)
			__atomic_store_n(&d->released_at, now_ms(),
					 __ATOMIC_RELEASE);
		revocable_release(i % 2 ? d->b : d->a);
	}
	return NULL;
}

START_TEST(test_nested_same_and_different)
{
	struct revocable_provider *pa = revocable_provider_alloc(RES_A);
	struct revocable_provider *pb = revocable_provider_alloc(RES_B);
	struct revocable *a = revocable_alloc(pa), *b = revocable_alloc(pb);
	struct deep_reader d = { .a = a, .b = b, .hold_ms = 200 };
	struct revoke_call call = { .rp = pa };
	pthread_t tid;

	/* Same provider twice and a different one in between. */
	ck_assert_ptr_eq(revocable_try_access(a), RES_A);
	ck_assert_ptr_eq(revocable_try_access(b), RES_B);
	ck_assert_ptr_eq(revocable_try_access(a), RES_A);
	revocable_release(a);
	revocable_release(a);			/* out of order */
	ck_assert_ptr_eq(revocable_try_access(a), RES_A);
	revocable_release(a);
	revocable_release(b);

	/* Nesting deeper than the slots, in another thread, while revoking:
	 * revoke waits for the last (overflow) access to go. */
	d.depth = 3 * REVOCABLE_READER_SLOTS;
	tid = start_thread(deep_reader_fn, &d);
	while (!__atomic_load_n(&d.entered, __ATOMIC_ACQUIRE))
		sleep_ms(1);
	revoke_fn(&call);
	ck_assert_int_eq(call.ret, 1);
	ck_assert(__atomic_load_n(&d.released_at, __ATOMIC_ACQUIRE) != 0);
	ck_assert(call.returned_at >= d.released_at);
	join_within(tid, 5000, "deep reader");
	ck_assert(d.all_seen);

	ck_assert_int_eq(revocable_provider_revoke(pb), 1);
	revocable_free(a);
	revocable_free(b);
	revocable_provider_free(pa);
	revocable_provider_free(pb);
}
END_TEST

/*
 * The inline read side and the exported calls keep one bookkeeping: an
 * access begun by either is ended by either (revocable(3), "Inline read
 * side"); a revoke afterwards finds nothing left inside and returns.  The
 * parenthesised names call the functions even where the macros are
 * inline; in test_revocable_contract_calls both forms are calls.
 */
START_TEST(test_mixed_inline_and_calls)
{
	struct revocable_provider *pa = revocable_provider_alloc(RES_A);
	struct revocable *a = revocable_alloc(pa);

	ck_assert_ptr_eq(revocable_try_access(a), RES_A);
	ck_assert_ptr_eq((revocable_try_access)(a), RES_A);
	revocable_release(a);
	(revocable_release)(a);
	ck_assert_ptr_eq((revocable_try_access)(a), RES_A);
	revocable_release(a);
	ck_assert_ptr_eq(revocable_try_access(a), RES_A);
	(revocable_release)(a);
	ck_assert_int_eq(revocable_provider_revoke(pa), 1);
	ck_assert_ptr_null(revocable_try_access(a));
	revocable_release(a);
	ck_assert_ptr_null((revocable_try_access)(a));
	(revocable_release)(a);
	revocable_free(a);
	revocable_provider_free(pa);
}
END_TEST

/*
 * Two accesses of one provider by one thread are not interchangeable: the
 * older may have seen the resource, the newer NULL.  Releasing one of them
 * must leave the revoke waiting for the other.  Both are beyond the slots
 * (the first by nesting, the second because an overflow entry exists), so
 * what the revoke waits for is the provider's overflow counter: the one
 * access that saw the resource must still be counted after the newer
 * release (docs/design.md, "Overflow and fallback path").  The counter is
 * read through the struct's private field - the library's own record of
 * what the revoker waits for, not a sleep.
 */
START_TEST(test_release_ends_newest_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable_provider *other = revocable_provider_alloc(RES_B);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable *other_rev = revocable_alloc(other);
	struct async_log alog = { 0 };
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(other_rev), RES_B);
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);	/* overflow */
	revocable_release(other_rev);		/* frees a slot, out of order */

	ck_assert_int_eq(__atomic_load_n(&rp->priv_overflow_readers,
					 __ATOMIC_SEQ_CST), 1);
	ck_assert_int_eq(revocable_provider_revoke_async(rp, async_done, &alog), 0);
	ck_assert_ptr_null(revocable_try_access(rev));		/* newer: NULL */
	revocable_release(rev);			/* ends the newer one */
	ck_assert_msg(__atomic_load_n(&rp->priv_overflow_readers,
				      __ATOMIC_SEQ_CST) == 1,
		      "the release ended the access that saw the resource: the revoke no longer waits for it");
	ck_assert_msg(__atomic_load_n(&alog.calls, __ATOMIC_SEQ_CST) == 0,
		      "revoke finished while an access that saw the resource was open");

	revocable_release(rev);			/* the one that saw RES_A */
	revocable_barrier();
	ck_assert_int_eq(alog.calls, 1);
	for (i = 1; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(other_rev);
	ck_assert_int_eq(revocable_provider_revoke(other), 1);
	revocable_free(rev);
	revocable_free(other_rev);
	revocable_provider_free(rp);
	revocable_provider_free(other);
}
END_TEST

/* ---- one shared handle, many threads (the v3 index bug) ---- */

#define NR_SHARERS 4

struct sharer {
	struct revocable *rev;		/* the same handle for all */
	int *stop;
	long hits, nulls;
	int *inside;			/* all inside at once, once */
	int nr;
};

static void *sharer_fn(void *arg)
{
	struct sharer *s = arg;
	void *res;

	/* First: all threads inside the same handle at the same time. */
	res = revocable_try_access(s->rev);
	if (res == RES_A)
		s->hits++;
	__atomic_fetch_add(s->inside, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(s->inside, __ATOMIC_SEQ_CST) < s->nr &&
	       !__atomic_load_n(s->stop, __ATOMIC_ACQUIRE))
		sched_yield();
	revocable_release(s->rev);

	/* Then interleave accesses on the shared handle until stopped. */
	while (!__atomic_load_n(s->stop, __ATOMIC_ACQUIRE)) {
		res = revocable_try_access(s->rev);
		if (res == RES_A)
			s->hits++;
		else if (!res)
			s->nulls++;
		sched_yield();
		revocable_release(s->rev);
	}
	return NULL;
}

START_TEST(test_shared_handle_revoke_completes)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct sharer s[NR_SHARERS];
	pthread_t tids[NR_SHARERS], revoker;
	struct revoke_call call = { .rp = rp };
	int stop = 0, inside = 0, i;

	for (i = 0; i < NR_SHARERS; i++) {
		s[i] = (struct sharer){ .rev = rev, .stop = &stop,
					.inside = &inside, .nr = NR_SHARERS };
		tids[i] = start_thread(sharer_fn, &s[i]);
	}
	while (__atomic_load_n(&inside, __ATOMIC_SEQ_CST) < NR_SHARERS)
		sleep_ms(1);
	sleep_ms(50);
	/* The readers keep going during the revoke (no livelock). */
	revoker = start_thread(revoke_fn, &call);
	join_within(revoker, 5000, "revoke with a shared handle");
	ck_assert_int_eq(call.ret, 1);
	sleep_ms(20);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NR_SHARERS; i++) {
		join_within(tids[i], 5000, "sharer");
		ck_assert_int_gt(s[i].hits, 0);
		ck_assert_int_gt(s[i].nulls, 0);
	}
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- attach after revoke ---- */

START_TEST(test_attach_after_revoke)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev;
	struct revocable stack_rev;

	revocable_provider_get(rp);		/* as a lookup table would */
	revocable_provider_free(rp);
	rev = revocable_alloc(rp);
	ck_assert_ptr_nonnull(rev);
	ck_assert_ptr_null(revocable_try_access(rev));
	revocable_release(rev);
	revocable_init(&stack_rev, rp);
	ck_assert_ptr_null(revocable_try_access(&stack_rev));
	revocable_release(&stack_rev);
	revocable_fini(&stack_rev);
	revocable_free(rev);
	revocable_provider_put(rp);
}
END_TEST

/* ---- no grace period in allocation; per-provider isolation ---- */

START_TEST(test_alloc_does_not_wait)
{
	struct revocable_provider *pa = revocable_provider_alloc(RES_A);
	struct revocable *a = revocable_alloc(pa);
	struct revocable_provider *pb;
	struct revocable *b;
	struct holder h;
	pthread_t tid;
	int64_t t0, took;

	holder_init(&h, a, 5000);
	tid = start_thread(holder_fn, &h);
	holder_wait_entered(&h);

	t0 = now_ms();
	pb = revocable_provider_alloc(RES_B);
	b = revocable_alloc(pb);
	ck_assert_ptr_eq(revocable_try_access(b), RES_B);
	revocable_release(b);
	revocable_free(b);
	revocable_provider_free(pb);
	took = now_ms() - t0;
	ck_assert_msg(took < 2000, "alloc/attach/free took %lld ms next to a sleeping reader",
		      (long long)took);

	holder_wake(&h);
	join_within(tid, 5000, "holder");
	revocable_free(a);
	revocable_provider_free(pa);
}
END_TEST

START_TEST(test_isolation)
{
	struct revocable_provider *pa = revocable_provider_alloc(RES_A);
	struct revocable_provider *pb = revocable_provider_alloc(RES_B);
	struct revocable *a = revocable_alloc(pa), *b = revocable_alloc(pb);
	struct holder ha, hb;
	pthread_t ta, tb;
	int64_t t0, took;

	/* A reader sleeps inside A; B has a short reader of its own. */
	holder_init(&ha, a, 5000);
	ta = start_thread(holder_fn, &ha);
	holder_wait_entered(&ha);
	holder_init(&hb, b, 100);
	tb = start_thread(holder_fn, &hb);
	holder_wait_entered(&hb);

	t0 = now_ms();
	ck_assert_int_eq(revocable_provider_revoke(pb), 1);
	took = now_ms() - t0;
	ck_assert_msg(took < 2000, "revoking B took %lld ms: delayed by A's reader",
		      (long long)took);
	ck_assert(!revocable_provider_is_revoked(pa));

	holder_wake(&ha);
	join_within(ta, 6000, "holder A");
	join_within(tb, 5000, "holder B");
	revocable_free(a);
	revocable_free(b);
	revocable_provider_free(pa);
	revocable_provider_free(pb);
}
END_TEST

/* ---- threads exiting ---- */

static void *one_access(void *arg)
{
	struct revocable *rev = arg;

	if (revocable_try_access(rev) != RES_A)
		return (void *)1;
	revocable_release(rev);
	return NULL;
}

static void *exit_inside(void *arg)
{
	revocable_try_access(arg);
	return NULL;		/* a bug: leaves without releasing */
}

START_TEST(test_thread_exit)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct revoke_call call = { .rp = rp };
	pthread_t tid;
	void *ret;
	int i;
#ifndef __SANITIZE_ADDRESS__
	struct mallinfo2 before, after;

	/* Warm up so one-time allocations do not count as growth. */
	tid = start_thread(one_access, rev);
	pthread_join(tid, NULL);
	before = mallinfo2();
#endif
	for (i = 0; i < 200; i++) {
		tid = start_thread(one_access, rev);
		ck_assert_int_eq(pthread_join(tid, &ret), 0);
		ck_assert_ptr_null(ret);
	}
#ifndef __SANITIZE_ADDRESS__
	after = mallinfo2();
	/* 200 leaked reader records would be > 30 KiB. */
	ck_assert_msg(after.uordblks < before.uordblks + 8192,
		      "heap grew by %zu bytes over 200 thread lifetimes",
		      after.uordblks - before.uordblks);
#endif

	/* A thread that dies inside an access does not hang the revoke. */
	tid = start_thread(exit_inside, rev);
	pthread_join(tid, NULL);
	tid = start_thread(revoke_fn, &call);
	join_within(tid, 5000, "revoke after a reader died inside");
	ck_assert_int_eq(call.ret, 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* The fallback for kernels without sys_membarrier(): every access is
 * counted on the provider.  Checked fixtures run in the forked test
 * process before the library initialises, so the switch takes effect. */
static void force_no_membarrier(void)
{
	setenv("REVOCABLE_NO_MEMBARRIER", "1", 1);
}

int main(void)
{
	Suite *s = suite_create("revocable_contract");
	/*
	 * Cases whose accesses are all made by one thread (the library's own
	 * threads make none), apart: the teaching lab's library must pass
	 * them (tests/revocable/lab_v3bug.sh runs this case alone there).
	 */
	TCase *single = tcase_create("single_thread");
	TCase *tc = tcase_create("contract");
	TCase *fallback = tcase_create("no_membarrier");

	tcase_set_timeout(single, 60);
	tcase_add_test(single, test_null_inputs);
	tcase_add_test(single, test_release_without_access);
	tcase_add_test(single, test_revoke_result);
	tcase_add_test(single, test_release_cb_without_revoke);
	tcase_add_test(single, test_revoke_ignores_later_access_in_same_slot);
	tcase_add_test(single, test_get_put_keeps_provider);
	tcase_add_test(single, test_embedded_provider);
	tcase_add_test(single, test_final_free_deferred);
	tcase_add_test(single, test_stack_handle);
	tcase_add_test(single, test_guard);
	tcase_add_test(single, test_scoped_macros);
	tcase_add_test(single, test_revoke_inside_access);
	tcase_add_test(single, test_mixed_inline_and_calls);
	tcase_add_test(single, test_release_ends_newest_access);
	tcase_add_test(single, test_attach_after_revoke);
	suite_add_tcase(s, single);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reader_blocks_revoke_waits);
	tcase_add_test(tc, test_release_cb_sync_once);
	tcase_add_test(tc, test_revoke_async);
	tcase_add_test(tc, test_concurrent_revokers);
	tcase_add_test(tc, test_nested_same_and_different);
	tcase_add_test(tc, test_shared_handle_revoke_completes);
	tcase_add_test(tc, test_alloc_does_not_wait);
	tcase_add_test(tc, test_isolation);
	tcase_add_test(tc, test_thread_exit);
	suite_add_tcase(s, tc);

	tcase_set_timeout(fallback, 60);
	tcase_add_checked_fixture(fallback, force_no_membarrier, NULL);
	tcase_add_test(fallback, test_reader_blocks_revoke_waits);
	tcase_add_test(fallback, test_concurrent_revokers);
	tcase_add_test(fallback, test_revoke_inside_access);
	tcase_add_test(fallback, test_nested_same_and_different);
	tcase_add_test(fallback, test_shared_handle_revoke_completes);
	tcase_add_test(fallback, test_isolation);
	tcase_add_test(fallback, test_thread_exit);
	suite_add_tcase(s, fallback);
	return check_run_suite(s);
}
