// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Out-of-memory paths of librevocable.  The library sources are compiled
 * into this test with the allocation-failure hook, which fails chosen
 * allocations on demand, so the paths that a real allocator does not
 * reach run here: a thread that cannot register, nesting that cannot
 * grow.  Either
 * way an access must fail safe (NULL), pair with its release silently, and
 * never let a revoke finish while an access that saw the resource is open.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "revocable_internal.h"

/* Allocation failure switches, set by the tests (one test per process). */
static struct {
	bool fail[REVOCABLE__ALLOC_SITES];
} nomem;

/* The library's test-only hook (REVOCABLE_TEST_ALLOC_HOOK). */
bool revocable__test_alloc_fails(enum revocable__alloc_site site)
{
	return __atomic_load_n(&nomem.fail[site], __ATOMIC_RELAXED);
}

static void fail_alloc(enum revocable__alloc_site site, bool fail)
{
	__atomic_store_n(&nomem.fail[site], fail, __ATOMIC_RELAXED);
}

#include "test_util.h"

#define RES_A	((void *)0xa11ce)
#define RES_B	((void *)0xb0b)

/* Slots the thread's accesses use, slot 0 included. */
static unsigned int slots_used(const struct revocable__reader *rd)
{
	return rd->slot[0].rp ? rd->depth + 1 : 0;
}

/* Nothing held: slot 0 free for the inline path, no slow-path entry. */
static bool inline_open(const struct revocable__reader *rd)
{
	return !rd->slot[0].rp && !rd->depth && !rd->overflow_depth;
}

static void *revoke_thread(void *arg)
{
	return (void *)(intptr_t)revocable_provider_revoke(arg);
}

/* A thread whose reader record cannot be allocated. */
static void *unregistered_reader(void *arg)
{
	struct revocable *rev = arg;
	void *res;

	res = revocable__try_access_inline(rev);
	revocable__release_inline(rev);
	return res;
}

START_TEST(test_register_fails_safe)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	pthread_t tid;
	void *seen;

	fail_alloc(REVOCABLE__ALLOC_READER, true);
	tid = start_thread(unregistered_reader, rev);
	ck_assert_int_eq(pthread_join(tid, &seen), 0);
	ck_assert_ptr_null(seen);		/* refused, not the resource */
	fail_alloc(REVOCABLE__ALLOC_READER, false);

	/* Nothing was counted anywhere: the revoke does not wait. */
	ck_assert_int_eq(rp->priv_overflow_readers, 0);
	tid = start_thread(revoke_thread, rp);
	join_within(tid, 5000, "revoke after refused accesses");
	ck_assert(revocable_provider_is_revoked(rp));
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* Nesting beyond the slots when the overflow stack cannot grow. */
START_TEST(test_grow_fails_safe)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable_provider *other = revocable_provider_alloc(RES_B);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable *other_rev = revocable_alloc(other);
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable__try_access_inline(other_rev), RES_B);
	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, true);
	ck_assert_ptr_null(revocable__try_access_inline(rev));	/* refused */
	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, false);

	/*
	 * A release ends an access of the provider it names: releasing
	 * "other" ends the newest access of RES_B (a slot), and the refused
	 * access waits for the release that names rp.
	 */
	revocable__release_inline(other_rev);
	ck_assert_uint_eq(slots_used(revocable__tls_reader),
			  REVOCABLE_READER_SLOTS - 1);
	ck_assert_int_eq(revocable_provider_revoke(other), -EDEADLK);
	revocable__release_inline(rev);		/* the refused one */
	ck_assert(!revocable__self_holds(rp));
	revocable__try_access_inline(other_rev);	/* back to 8 */
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable__release_inline(other_rev);
	ck_assert_msg(inline_open(revocable__tls_reader),
		      "slot 0 is not free for the inline path again");

	/* Back on the inline path, and nothing left held. */
	ck_assert_ptr_eq(revocable__try_access_inline(rev), RES_A);
	revocable__release_inline(rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	ck_assert_int_eq(revocable_provider_revoke(other), 1);
	revocable_free(rev);
	revocable_free(other_rev);
	revocable_provider_free(rp);
	revocable_provider_free(other);
}
END_TEST

/*
 * A refused access must be ended by the release that names its provider.
 * Eight accesses to A fill the slots, a ninth to B is refused, then the
 * releases come out of order (allowed): A, B, then A seven times.  Every
 * access of A must be over afterwards, so revoking A works from here and
 * from another thread.
 */
START_TEST(test_refused_release_out_of_order)
{
	struct revocable_provider *a = revocable_provider_alloc(RES_A);
	struct revocable_provider *b = revocable_provider_alloc(RES_B);
	struct revocable *rev_a = revocable_alloc(a);
	struct revocable *rev_b = revocable_alloc(b);
	pthread_t tid;
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable__try_access_inline(rev_a), RES_A);
	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, true);
	ck_assert_ptr_null(revocable__try_access_inline(rev_b));	/* refused */
	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, false);

	revocable__release_inline(rev_a);
	revocable__release_inline(rev_b);
	for (i = 0; i < REVOCABLE_READER_SLOTS - 1; i++)
		revocable__release_inline(rev_a);

	ck_assert_msg(!revocable__self_holds(a),
		      "a slot still names A after every access of A was released");
	ck_assert_msg(inline_open(revocable__tls_reader),
		      "slot 0 is not free for the inline path again");
	tid = start_thread(revoke_thread, a);
	join_within(tid, 5000, "revoke of A from another thread");
	ck_assert_int_eq(revocable_provider_revoke(a), 0);
	ck_assert_int_eq(revocable_provider_revoke(b), 1);
	revocable_free(rev_a);
	revocable_free(rev_b);
	revocable_provider_free(a);
	revocable_provider_free(b);
}
END_TEST

/* N providers of RES_B, a handle on each (the refused-table tests). */
static void providers_alloc(struct revocable_provider **rp,
			    struct revocable **rev, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		rp[i] = revocable_provider_alloc(RES_B);
		rev[i] = revocable_alloc(rp[i]);
	}
}

/* With no memory for the overflow stack, an access to each is refused. */
static void providers_refused(struct revocable **rev, int n)
{
	int i;

	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, true);
	for (i = 0; i < n; i++)
		ck_assert_ptr_null(revocable__try_access_inline(rev[i]));
	fail_alloc(REVOCABLE__ALLOC_OVERFLOW, false);
}

/* Every access released: slot 0 free for the inline path again, and @rp
 * revoked at once, then freed with its handle @rev. */
static void all_released_then_free(struct revocable_provider *rp,
				   struct revocable *rev)
{
	ck_assert_msg(inline_open(revocable__tls_reader),
		      "slot 0 is not free for the inline path again");
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}

/* Each revoked at once (no access left open), then freed. */
static void providers_revoke_free(struct revocable_provider **rp,
				  struct revocable **rev, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ck_assert_int_eq(revocable_provider_revoke(rp[i]), 1);
		revocable_free(rev[i]);
		revocable_provider_free(rp[i]);
	}
}

/* More distinct providers refused at once than the table holds: released
 * newest first (the usual nesting), each release still ends an access of
 * its provider and nothing stays set.  (Out of order, a release of a
 * provider with both recorded and forgotten refused accesses ends the
 * refused one: safe, documented in revocable(3).) */
START_TEST(test_refused_many_providers)
{
	enum { N = 20 };
	struct revocable_provider *rp[N], *slot_rp;
	struct revocable *rev[N], *slot_rev;
	int i;

	slot_rp = revocable_provider_alloc(RES_A);
	slot_rev = revocable_alloc(slot_rp);
	providers_alloc(rp, rev, N);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable__try_access_inline(slot_rev), RES_A);
	providers_refused(rev, N);
	for (i = N; i-- > 0;)
		revocable__release_inline(rev[i]);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable__release_inline(slot_rev);
	providers_revoke_free(rp, rev, N);
	all_released_then_free(slot_rp, slot_rev);
}
END_TEST

struct lock_holder {
	struct revocable *rev;			/* accessed and held */
	struct revocable_provider *other;	/* revoked while holding */
	struct revocable *third;		/* a new thread accesses it */
	struct revocable__reader *rd;		/* our reader, for waiters */
	int entered, go, other_ret;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *first_access(void *arg)
{
	struct revocable *rev = arg;
	void *res = revocable__try_access_inline(rev);

	revocable__release_inline(rev);
	return res;
}

/* Held inside an access while a revoker waits for it, this reader needs
 * the registry lock twice: to revoke another provider and to start a
 * thread whose first access registers. */
static void *lock_holder_fn(void *arg)
{
	struct lock_holder *h = arg;
	pthread_t tid;

	ck_assert_ptr_eq(revocable__try_access_inline(h->rev), RES_A);
	pthread_mutex_lock(&h->lock);
	h->rd = revocable__tls_reader;
	h->entered = 1;
	pthread_cond_broadcast(&h->cond);
	while (!h->go)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);

	h->other_ret = revocable_provider_revoke(h->other);
	tid = start_thread(first_access, h->third);
	ck_assert_int_eq(pthread_join(tid, NULL), 0);
	revocable__release_inline(h->rev);
	return NULL;
}

/*
 * A revoke scan without memory for its wait list must not wait for a
 * reader while holding the registry lock: the reader may need the lock
 * before it can leave.
 */
START_TEST(test_scan_nomem_waits_unlocked)
{
	struct lock_holder h = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable_provider *third = revocable_provider_alloc(RES_B);
	pthread_t holder, revoker;
	int64_t start;

	h.rev = revocable_alloc(rp);
	h.other = revocable_provider_alloc(RES_B);
	h.third = revocable_alloc(third);
	holder = start_thread(lock_holder_fn, &h);
	pthread_mutex_lock(&h.lock);
	while (!h.entered)
		pthread_cond_wait(&h.cond, &h.lock);
	pthread_mutex_unlock(&h.lock);

	fail_alloc(REVOCABLE__ALLOC_SCAN, true);
	revoker = start_thread(revoke_thread, rp);
	/* The revoker reports itself asleep on the holder's slot. */
	start = now_ms();
	while (!__atomic_load_n(&h.rd->waiters, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < 5000,
			      "revoker never waited for the reader's slot");
		sched_yield();
	}
	pthread_mutex_lock(&h.lock);
	h.go = 1;
	pthread_cond_broadcast(&h.cond);
	pthread_mutex_unlock(&h.lock);

	join_within(holder, 5000,
		    "reader revoking another provider and starting a thread while a revoke waits for it");
	join_within(revoker, 5000, "revoke scanning without memory");
	fail_alloc(REVOCABLE__ALLOC_SCAN, false);
	ck_assert_int_eq(h.other_ret, 1);
	revocable_free(h.rev);
	revocable_free(h.third);
	revocable_provider_free(rp);
	revocable_provider_free(h.other);
	revocable_provider_free(third);
}
END_TEST

/* Many readers inside accesses, scan without memory: the stack list takes
 * several passes and the revoke still waits for every one of them. */
struct many_reader {
	struct revocable *rev;
	int *entered, *go;
	pthread_mutex_t *lock;
	pthread_cond_t *cond;
	int *released;
};

static void *many_reader_fn(void *arg)
{
	struct many_reader *m = arg;
	int i;

	for (i = 0; i < 3; i++)
		ck_assert_ptr_eq(revocable__try_access_inline(m->rev), RES_A);
	pthread_mutex_lock(m->lock);
	(*m->entered)++;
	pthread_cond_broadcast(m->cond);
	while (!*m->go)
		pthread_cond_wait(m->cond, m->lock);
	pthread_mutex_unlock(m->lock);
	for (i = 0; i < 3; i++) {
		__atomic_fetch_add(m->released, 1, __ATOMIC_SEQ_CST);
		revocable__release_inline(m->rev);
	}
	return NULL;
}

START_TEST(test_scan_nomem_many_passes)
{
	enum { READERS = 24 };	/* 72 slots: more than the stack list */
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct many_reader m[READERS];
	pthread_t tids[READERS], revoker;
	int entered = 0, go = 0, released = 0, i;

	for (i = 0; i < READERS; i++) {
		m[i] = (struct many_reader){ rev, &entered, &go, &lock, &cond,
					     &released };
		tids[i] = start_thread(many_reader_fn, &m[i]);
	}
	pthread_mutex_lock(&lock);
	while (entered < READERS)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);

	fail_alloc(REVOCABLE__ALLOC_SCAN, true);
	revoker = start_thread(revoke_thread, rp);
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	join_within(revoker, 10000, "revoke of a provider with 72 open accesses");
	/* Every access counted itself out before its release. */
	ck_assert_int_eq(__atomic_load_n(&released, __ATOMIC_SEQ_CST),
			 3 * READERS);
	fail_alloc(REVOCABLE__ALLOC_SCAN, false);
	for (i = 0; i < READERS; i++)
		join_within(tids[i], 5000, "reader");
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

static void count_done(struct revocable_provider *rp, void *arg)
{
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/* revoke_async() with @site failing returns @err. */
static void revoke_async_fails(struct revocable_provider *rp,
			       enum revocable__alloc_site site, int err,
			       int *done_calls)
{
	fail_alloc(site, true);
	ck_assert_int_eq(revocable_provider_revoke_async(rp, count_done,
							 done_calls), err);
	fail_alloc(site, false);
}

/* After a refused revoke_async(): the resource still reached through @rev,
 * our own revoke does the revoking, and done() never ran; both freed. */
static void nothing_revoked_then_free(struct revocable_provider *rp,
				      struct revocable *rev, int *done_calls)
{
	ck_assert_ptr_eq(revocable__try_access_inline(rev), RES_A);
	revocable__release_inline(rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);	/* ours */
	revocable_barrier();
	ck_assert_int_eq(__atomic_load_n(done_calls, __ATOMIC_SEQ_CST), 0);
	revocable_free(rev);
	revocable_provider_free(rp);
}

/*
 * revocable(3): revoke_async returns "-ENOMEM or -EAGAIN (nothing
 * revoked, done not called)".  The job cannot be allocated: the provider
 * stays live, an access still gets the resource, and done() never runs,
 * not even after a later synchronous revoke.
 */
START_TEST(test_revoke_async_nomem)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	int done_calls = 0;

	revoke_async_fails(rp, REVOCABLE__ALLOC_ASYNC, -ENOMEM, &done_calls);
	ck_assert(!revocable_provider_is_revoked(rp));
	nothing_revoked_then_free(rp, rev, &done_calls);
}
END_TEST

/*
 * revocable(3): revoke_async returns "-EAGAIN (nothing revoked, done not
 * called)"; docs/design.md, "Revoke": its thread "is created before step 2
 * so that a creation failure leaves nothing half-revoked".  The hook
 * stands for pthread_create() failing with EAGAIN: the state is still
 * live, the resource still published, the job's reference given back, no
 * job left for revocable_barrier() to wait for, and done() never runs.
 */
START_TEST(test_revoke_async_no_thread)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	int done_calls = 0;

	revoke_async_fails(rp, REVOCABLE__ALLOC_THREAD, -EAGAIN, &done_calls);

	ck_assert_int_eq(rp->priv_state, REVOCABLE_LIVE);
	ck_assert_ptr_eq(__atomic_load_n(&rp->priv_res, __ATOMIC_SEQ_CST),
			 RES_A);
	ck_assert_int_eq(__atomic_load_n(&rp->priv_refcount, __ATOMIC_SEQ_CST),
			 2);	/* the owner's and the handle's */
	ck_assert(!revocable_provider_is_revoked(rp));
	revocable_barrier();	/* returns: no job in flight */
	nothing_revoked_then_free(rp, rev, &done_calls);
}
END_TEST

/* revocable(3): revocable_provider_alloc() returns "NULL if out of memory". */
START_TEST(test_provider_alloc_nomem)
{
	struct revocable_provider *rp;

	fail_alloc(REVOCABLE__ALLOC_PROVIDER, true);
	ck_assert_ptr_null(revocable_provider_alloc(RES_A));
	fail_alloc(REVOCABLE__ALLOC_PROVIDER, false);
	rp = revocable_provider_alloc(RES_A);
	ck_assert_ptr_nonnull(rp);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

static void release_handle(void *arg)
{
	revocable__release_inline(arg);
}

/*
 * docs/design.md, "Known limits": with more than 16 distinct providers
 * refused at once, "the provider of the 17th is forgotten; a release of a
 * provider that has both such a forgotten refused access and a recorded
 * one ends the refused one (safe: the recorded access stays held,
 * reported on stderr)".  Eight accesses of A fill the slots, 17 providers
 * are refused, and A is released first, out of order: reported; the 17th
 * provider's own release then matches nothing (also reported), and after
 * as many releases of A as accesses one access of A is still held - until
 * one release more.
 */
START_TEST(test_refused_17th_provider_reported)
{
	enum { N = 17 };
	struct revocable_provider *rp[N], *a = revocable_provider_alloc(RES_A);
	struct revocable *rev[N], *rev_a = revocable_alloc(a);
	const char *err;
	int i;

	providers_alloc(rp, rev, N);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable__try_access_inline(rev_a), RES_A);
	providers_refused(rev, N);

	err = stderr_of(release_handle, rev_a);
	ck_assert_msg(strstr(err, "revocable: out of memory with 17 providers refused at once; an access may stay held") != NULL,
		      "no report of a release of A ending the 17th refused access: '%s'",
		      err);
	for (i = 0; i < N - 1; i++)
		revocable__release_inline(rev[i]);
	err = stderr_of(release_handle, rev[N - 1]);
	ck_assert_msg(strstr(err, "revocable_release() without a matching access") != NULL,
		      "the 17th provider's release found an access: '%s'", err);
	for (i = 1; i < REVOCABLE_READER_SLOTS; i++)
		revocable__release_inline(rev_a);

	/* The recorded access that the refused one stood in for. */
	ck_assert(revocable__self_holds(a));
	ck_assert_int_eq(revocable_provider_revoke(a), -EDEADLK);
	revocable__release_inline(rev_a);
	providers_revoke_free(rp, rev, N);
	all_released_then_free(a, rev_a);
}
END_TEST

/* A reader that holds REVOCABLE_READER_SLOTS accesses (a whole record's
 * worth of the scan's list) until told. */
struct full_reader {
	struct revocable *rev;
	struct revocable__reader *rd;
	pthread_mutex_t *lock;
	pthread_cond_t *cond;
	int *go;
	void *seen;
	int entered;
};

static void *full_reader_fn(void *arg)
{
	struct full_reader *r = arg;
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		r->seen = revocable__try_access_inline(r->rev);
	pthread_mutex_lock(r->lock);
	r->rd = revocable__tls_reader;
	r->entered = 1;
	pthread_cond_broadcast(r->cond);
	while (!*r->go)
		pthread_cond_wait(r->cond, r->lock);
	pthread_mutex_unlock(r->lock);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable__release_inline(r->rev);
	return NULL;
}

/*
 * docs/design.md, "Why the scan cannot miss a slot": "a record registered
 * after the NULL was published cannot hold an access that saw the
 * resource ..., so skipping it is safe".  Without memory for its list the
 * scan takes four full records a pass: five readers make two passes.
 * While the revoker waits in the first (parked on the newest reader), a
 * new thread makes its first access: it gets NULL, and it holds that
 * access until the revoke has returned - which it does once the five
 * readers leave, the new record skipped by the second pass.  A scan that
 * did not skip it would wait for that access, and the revoke would not
 * return.
 */
START_TEST(test_scan_skips_record_registered_during_wait)
{
	enum { READERS = 5 };
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct full_reader r[READERS + 1];
	pthread_t tids[READERS + 1], revoker;
	int go = 0, late_go = 0, i;
	struct timespec deadline;
	int64_t start;
	void *ret;

	for (i = 0; i <= READERS; i++)
		r[i] = (struct full_reader){ .rev = rev, .lock = &lock,
					     .cond = &cond, .go = &go };
	r[READERS].go = &late_go;
	for (i = 0; i < READERS; i++) {
		tids[i] = start_thread(full_reader_fn, &r[i]);
		pthread_mutex_lock(&lock);
		while (!r[i].entered)	/* one at a time: registration order */
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		ck_assert_ptr_eq(r[i].seen, RES_A);
	}

	fail_alloc(REVOCABLE__ALLOC_SCAN, true);
	revoker = start_thread(revoke_thread, rp);
	/* The first pass begins with the newest reader's slots. */
	start = now_ms();
	while (!__atomic_load_n(&r[READERS - 1].rd->waiters, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < 10000,
			      "the revoker never waited for the newest reader");
		sched_yield();
	}
	tids[READERS] = start_thread(full_reader_fn, &r[READERS]);
	pthread_mutex_lock(&lock);
	while (!r[READERS].entered)
		pthread_cond_wait(&cond, &lock);
	go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	ck_assert_ptr_null(r[READERS].seen);	/* registered after the NULL */

	/* The revoke's result: joined within the deadline, or a failure. */
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += 10;
	ck_assert_msg(pthread_timedjoin_np(revoker, &ret, &deadline) == 0,
		      "the revoke did not return while a thread registered during its wait held a NULL access (10 s)");
	ck_assert_int_eq((intptr_t)ret, 1);
	fail_alloc(REVOCABLE__ALLOC_SCAN, false);
	pthread_mutex_lock(&lock);
	late_go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (i = 0; i <= READERS; i++)
		join_within(tids[i], 5000, "reader");
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_nomem");
	TCase *tc = tcase_create("nomem");

	tcase_set_timeout(tc, 60);	/* the tests' own deadlines come first */

	tcase_add_test(tc, test_register_fails_safe);
	tcase_add_test(tc, test_grow_fails_safe);
	tcase_add_test(tc, test_refused_release_out_of_order);
	tcase_add_test(tc, test_refused_many_providers);
	tcase_add_test(tc, test_scan_nomem_waits_unlocked);
	tcase_add_test(tc, test_scan_nomem_many_passes);
	tcase_add_test(tc, test_revoke_async_nomem);
	tcase_add_test(tc, test_revoke_async_no_thread);
	tcase_add_test(tc, test_provider_alloc_nomem);
	tcase_add_test(tc, test_refused_17th_provider_reported);
	tcase_add_test(tc, test_scan_skips_record_registered_during_wait);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
