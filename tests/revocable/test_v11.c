// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel series' v11 KUnit cases (drivers/base/test/revocable-test.c:
 * basic and revocation, each with an allocated and an embedded provider,
 * the access macros, concurrent access), written here against
 * revocable_v11.h through the KUnit shim, plus three cases of ours: a v11
 * provider with a consumer written with the seed's names in another
 * translation unit (v11_seed_side.c), and the other way round; and a
 * revoke inside an access to its own provider, reported, not a deadlock.
 *
 * Where the library differs from the kernel's the case says so: a revoke
 * that waits holds one reference of its own (upstream reads 4, here 5),
 * and "the revoker is waiting" is what the library reports (the reader's
 * waiters word), not a 100 ms sleep.
 */
#include "config.h"

#include "kunit_shim.h"
#include "test_util.h"
#include <revocable_v11.h>

#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "v11_seed_side.h"

#define REAL_RES	((void *)0x12345678)
#define DEADLINE_MS	10000

static int get_refcount(struct revocable *rev)
{
	return (int)__atomic_load_n(&rev->priv_provider.priv_refcount,
				    __ATOMIC_SEQ_CST);
}

static bool is_embedded(struct revocable *rev)
{
	return !rev->priv_provider.priv_allocated;
}

/* Wait until @reader's thread has a revoker asleep on its accesses. */
static void wait_for_revoker_on(struct revocable__reader *const *reader,
				const char *what)
{
	int64_t deadline = now_ms() + DEADLINE_MS;

	for (;;) {
		struct revocable__reader *rd =
			__atomic_load_n(reader, __ATOMIC_SEQ_CST);

		if (rd && __atomic_load_n(&rd->waiters, __ATOMIC_SEQ_CST))
			return;
		ck_assert_msg(now_ms() < deadline,
			      "%s: no revoker waited within %d ms", what,
			      DEADLINE_MS);
		sleep_ms(1);
	}
}

static void sem_wait_within(sem_t *sem, const char *what)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += DEADLINE_MS / 1000;
	while (sem_timedwait(sem, &deadline))
		ck_assert_msg(errno == EINTR, "%s did not happen within %d ms",
			      what, DEADLINE_MS);
}

static void v11_test_basic(struct kunit *test)
{
	struct revocable_handle rh;
	struct revocable *rev;

	rev = revocable_alloc(REAL_RES);
	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	KUNIT_EXPECT_FALSE(test, is_embedded(rev));

	revocable_handle_init(rev, &rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);

	revocable_handle_deinit(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	revocable_revoke(rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
}

static void v11_embedded_test_basic(struct kunit *test)
{
	struct revocable_handle rh;
	struct revocable rev;

	KUNIT_EXPECT_EQ(test, revocable_init(&rev, REAL_RES), 0);
	KUNIT_EXPECT_TRUE(test, is_embedded(&rev));
	KUNIT_EXPECT_EQ(test, get_refcount(&rev), 2);

	revocable_handle_init(&rev, &rh);
	KUNIT_EXPECT_EQ(test, get_refcount(&rev), 3);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);

	revocable_handle_deinit(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(&rev), 2);
	revocable_revoke(&rev);
	KUNIT_EXPECT_EQ(test, get_refcount(&rev), 1);
	/* The last reference of an embedded provider: done on return, so
	 * the stack frame may go. */
	revocable_put(&rev);
}

/* Access, revoke with the handle still held, access again: NULL. */
static void check_revocation(struct kunit *test, struct revocable *rev)
{
	struct revocable_handle rh;

	revocable_handle_init(rev, &rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);

	revocable_revoke(rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), NULL);
	revocable_withdraw_access(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);

	revocable_handle_deinit(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
}

static void v11_test_revocation(struct kunit *test)
{
	struct revocable *rev = revocable_alloc(REAL_RES);

	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_EXPECT_FALSE(test, is_embedded(rev));
	check_revocation(test, rev);
}

static void v11_embedded_test_revocation(struct kunit *test)
{
	struct revocable rev;

	KUNIT_EXPECT_EQ(test, revocable_init(&rev, REAL_RES), 0);
	KUNIT_EXPECT_TRUE(test, is_embedded(&rev));
	check_revocation(test, &rev);
}

/* Each returning macro in a function of its own, called once revoked. */
static int or_return_err(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return_err(rev, res, -ENXIO);
	return 0;
}

static int or_return(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return(rev, res);
	return 0;
}

static void or_return_void(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return_void(rev, res);
	KUNIT_FAIL(NULL, "revocable_try_access_or_return_void() went on");
}

static int or_return_err_scoped(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return_err_scoped(rev, res, -ENXIO) {}
	return 0;
}

static int or_return_scoped(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return_scoped(rev, res) {}
	return 0;
}

static void or_return_void_scoped(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return_void_scoped(rev, res) {}
	KUNIT_FAIL(NULL, "revocable_try_access_or_return_void_scoped() went on");
}

static void v11_test_try_access_macro(struct kunit *test)
{
	struct revocable *rev = revocable_alloc(REAL_RES);
	bool accessed;
	void *res;

	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);

	/* Live: each form holds a handle (a reference) for its scope. */
	{
		revocable_try_access_with(rev, res);
		KUNIT_EXPECT_PTR_EQ(test, res, REAL_RES);
		KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);
	}
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	accessed = false;
	revocable_try_access_with_scoped(rev, res) {
		KUNIT_EXPECT_PTR_EQ(test, res, REAL_RES);
		KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);
		accessed = true;
	}
	KUNIT_EXPECT_TRUE(test, accessed);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	KUNIT_EXPECT_EQ(test, or_return_err(rev), 0);
	KUNIT_EXPECT_EQ(test, or_return_scoped(rev), 0);
	accessed = false;
	revocable_try_access_or_skip_scoped(rev, res)
		accessed = true;
	KUNIT_EXPECT_TRUE(test, accessed);

	revocable_revoke(rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);

	/* Revoked: the plain forms run with NULL, the others leave. */
	{
		revocable_try_access_with(rev, res);
		KUNIT_EXPECT_PTR_EQ(test, res, NULL);
		KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	}
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	accessed = false;
	revocable_try_access_with_scoped(rev, res) {
		KUNIT_EXPECT_PTR_EQ(test, res, NULL);
		KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
		accessed = true;
	}
	KUNIT_EXPECT_TRUE(test, accessed);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);

	KUNIT_EXPECT_EQ(test, or_return_err(rev), -ENXIO);
	KUNIT_EXPECT_EQ(test, or_return(rev), -ENODEV);
	or_return_void(rev);
	KUNIT_EXPECT_EQ(test, or_return_err_scoped(rev), -ENXIO);
	KUNIT_EXPECT_EQ(test, or_return_scoped(rev), -ENODEV);
	or_return_void_scoped(rev);
	accessed = false;
	revocable_try_access_or_skip_scoped(rev, res)
		accessed = true;
	KUNIT_EXPECT_FALSE(test, accessed);

	/* Every early return dropped its handle. */
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
}

/* ---- concurrent access: one provider thread, two consumer threads ---- */

struct v11_thread {
	sem_t enter, inside, exit;
	struct revocable *rev;			/* provider thread */
	struct revocable_handle rh;		/* consumer threads */
	void *got;
	struct revocable__reader *reader;	/* the consumer's record */
	bool done;
};

static void *v11_provider_thread(void *arg)
{
	struct v11_thread *t = arg;

	sem_wait(&t->enter);
	revocable_revoke(t->rev);
	__atomic_store_n(&t->done, true, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *v11_consumer_thread(void *arg)
{
	struct v11_thread *t = arg;

	sem_wait(&t->enter);
	t->got = revocable_try_access(&t->rh);
	__atomic_store_n(&t->reader, revocable__tls_reader, __ATOMIC_SEQ_CST);
	sem_post(&t->inside);
	sem_wait(&t->exit);
	revocable_withdraw_access(&t->rh);
	return NULL;
}

static void v11_test_concurrent_access(struct kunit *test)
{
	struct v11_thread t[3] = { 0 };
	struct revocable *rev = revocable_alloc(REAL_RES);
	pthread_t tid[3];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 2);
	for (i = 0; i < 3; i++) {
		sem_init(&t[i].enter, 0, 0);
		sem_init(&t[i].inside, 0, 0);
		sem_init(&t[i].exit, 0, 0);
		if (i == 0) {
			/* The provider's reference goes with the thread. */
			t[i].rev = rev;
			tid[i] = start_thread(v11_provider_thread, &t[i]);
		} else {
			revocable_handle_init(rev, &t[i].rh);
			KUNIT_EXPECT_EQ(test, get_refcount(rev), 2 + i);
			tid[i] = start_thread(v11_consumer_thread, &t[i]);
		}
	}

	/* Consumer 1 inside, then the revoke starts and waits for it. */
	sem_post(&t[1].enter);
	sem_wait_within(&t[1].inside, "consumer 1's access");
	KUNIT_EXPECT_PTR_EQ(test, t[1].got, REAL_RES);
	sem_post(&t[0].enter);
	wait_for_revoker_on(&t[1].reader, "consumer 1");
	KUNIT_EXPECT_FALSE(test, __atomic_load_n(&t[0].done, __ATOMIC_SEQ_CST));
	/* Caller, provider, two handles - and the waiting revoke's own. */
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 5);

	/* Consumer 2 comes after the revocation: NULL. */
	sem_post(&t[2].enter);
	sem_wait_within(&t[2].inside, "consumer 2's access");
	KUNIT_EXPECT_PTR_EQ(test, t[2].got, NULL);

	for (i = 1; i < 3; i++) {
		sem_post(&t[i].exit);
		join_within(tid[i], DEADLINE_MS, "a consumer thread");
		revocable_handle_deinit(&t[i].rh);
	}
	join_within(tid[0], DEADLINE_MS, "the revoking provider thread");
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
	for (i = 0; i < 3; i++) {
		sem_destroy(&t[i].enter);
		sem_destroy(&t[i].inside);
		sem_destroy(&t[i].exit);
	}
}

/* ---- ours: both APIs on one provider, from two translation units ---- */

static void *revoke_thread(void *arg)
{
	struct v11_thread *t = arg;

	revocable_revoke(t->rev);
	__atomic_store_n(&t->done, true, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A v11 provider, a consumer written with the seed's names: the v11
 * revoke waits for the seed access and the seed handle then sees NULL. */
static void v11_interop_v11_provider_seed_consumer(struct kunit *test)
{
	struct v11_thread t = { 0 };
	struct revocable *rev = revocable_alloc(REAL_RES);
	struct revocable__reader *self;
	void *seed_handle;
	pthread_t tid;

	KUNIT_ASSERT_NOT_NULL(test, rev);
	seed_handle = seed_side_attach(revocable_to_provider(rev));
	KUNIT_ASSERT_NOT_NULL(test, seed_handle);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);

	KUNIT_EXPECT_PTR_EQ(test, seed_side_begin(seed_handle), REAL_RES);
	self = revocable__tls_reader;	/* registered by that access */
	t.rev = rev;
	tid = start_thread(revoke_thread, &t);
	wait_for_revoker_on(&self, "the seed side's access");
	KUNIT_EXPECT_FALSE(test, __atomic_load_n(&t.done, __ATOMIC_SEQ_CST));
	seed_side_end(seed_handle);
	join_within(tid, DEADLINE_MS, "the v11 revoke");

	KUNIT_EXPECT_PTR_EQ(test, seed_side_begin(seed_handle), NULL);
	seed_side_end(seed_handle);
	seed_side_detach(seed_handle);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
}

/* A provider made and revoked with the seed's names, read through a v11
 * handle and a v11 macro. */
static void v11_interop_seed_provider_v11_consumer(struct kunit *test)
{
	struct revocable_provider *rp = seed_side_provide(REAL_RES);
	struct revocable *rev = revocable_from_provider(rp);
	struct revocable_handle rh;
	void *res;

	KUNIT_ASSERT_NOT_NULL(test, rp);
	revocable_handle_init(rev, &rh);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);
	{
		revocable_try_access_with(rev, res);
		KUNIT_EXPECT_PTR_EQ(test, res, REAL_RES);
	}

	seed_side_unprovide(rp);	/* revoke, drop the owner's reference */
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), NULL);
	revocable_withdraw_access(&rh);
	revocable_handle_deinit(&rh);	/* the last reference */
	revocable_barrier();
}

/*
 * Ours: revocable_revoke() inside an access to the same provider cannot wait
 * for itself; it reports that on stderr and leaves the provider alone
 * (upstream's synchronize_srcu() would never return).
 */
static void v11_revoke_inside_access_reported(struct kunit *test)
{
	struct revocable *rev = revocable_alloc(REAL_RES);
	struct revocable_handle rh;
	char report[256] = "";
	FILE *err = tmpfile();
	int saved;

	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_ASSERT_NOT_NULL(test, err);
	revocable_handle_init(rev, &rh);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fileno(err), STDERR_FILENO), 0);
	revocable_revoke(rev);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(err);
	if (!fgets(report, sizeof(report), err))
		report[0] = '\0';
	fclose(err);
	ck_assert_msg(strstr(report, "inside an access to the same provider"),
		      "no report of a revoke inside its own access: '%s'",
		      report);

	/* Untouched: still live, no reference dropped. */
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 3);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);
	revocable_withdraw_access(&rh);

	revocable_revoke(rev);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), NULL);
	revocable_withdraw_access(&rh);
	revocable_handle_deinit(&rh);
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
}

static void v11_count(void *res, void *arg)
{
	(void)res;
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

static void v11_count_done(struct revocable_provider *rp, void *arg)
{
	(void)rp;
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

/*
 * revocable(3), "The v11 API": revocable_provider_set_release(),
 * revocable_provider_revoke_async(), revocable_provider_is_revoked() and
 * revocable_barrier() "have no v11 names and stay usable, on
 * revocable_to_provider(rev)" - called here at run time from this v11
 * translation unit, on a provider made and read with v11's names.
 */
static void v11_seed_extensions_on_provider(struct kunit *test)
{
	struct revocable *rev = revocable_alloc(REAL_RES);
	struct revocable_provider *rp = revocable_to_provider(rev);
	struct revocable_handle rh;
	int releases = 0, done = 0;

	KUNIT_ASSERT_NOT_NULL(test, rev);
	KUNIT_EXPECT_EQ(test, revocable_provider_set_release(rp, v11_count,
							     &releases), 0);
	KUNIT_EXPECT_FALSE(test, revocable_provider_is_revoked(rp));
	revocable_handle_init(rev, &rh);
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), REAL_RES);
	revocable_withdraw_access(&rh);

	KUNIT_EXPECT_EQ(test, revocable_provider_revoke_async(rp, v11_count_done,
							      &done), 0);
	KUNIT_EXPECT_TRUE(test, revocable_provider_is_revoked(rp));
	KUNIT_EXPECT_PTR_EQ(test, revocable_try_access(&rh), NULL);
	revocable_withdraw_access(&rh);
	revocable_barrier();
	KUNIT_EXPECT_EQ(test, __atomic_load_n(&done, __ATOMIC_SEQ_CST), 1);
	KUNIT_EXPECT_EQ(test, __atomic_load_n(&releases, __ATOMIC_SEQ_CST), 1);
	KUNIT_EXPECT_EQ(test, revocable_provider_set_release(rp, v11_count,
							     &releases),
			-EBUSY);

	revocable_handle_deinit(&rh);
	revocable_revoke(rev);		/* already revoked: drops its reference */
	KUNIT_EXPECT_EQ(test, get_refcount(rev), 1);
	revocable_put(rev);
	revocable_barrier();
	KUNIT_EXPECT_EQ(test, __atomic_load_n(&releases, __ATOMIC_SEQ_CST), 1);
}

static struct kunit_case v11_test_cases[] = {
	KUNIT_CASE(v11_test_basic),
	KUNIT_CASE(v11_embedded_test_basic),
	KUNIT_CASE(v11_test_revocation),
	KUNIT_CASE(v11_embedded_test_revocation),
	KUNIT_CASE(v11_test_try_access_macro),
	KUNIT_CASE(v11_test_concurrent_access),
	KUNIT_CASE(v11_interop_v11_provider_seed_consumer),
	KUNIT_CASE(v11_interop_seed_provider_v11_consumer),
	KUNIT_CASE(v11_revoke_inside_access_reported),
	KUNIT_CASE(v11_seed_extensions_on_provider),
	{}
};

static struct kunit_suite v11_test_suite = {
	.name = "revocable_v11",
	.test_cases = v11_test_cases,
};

kunit_test_suite(v11_test_suite);
