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
#include <stdlib.h>

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
	 * The refused access is released first whatever handle the caller
	 * names: releasing "other" now must end the refused access, not the
	 * newest slot that saw RES_B.  Proof: the slots still hold all 8.
	 */
	revocable__release_inline(other_rev);
	ck_assert_uint_eq(reader_depth(revocable__tls_reader),
			  REVOCABLE_READER_SLOTS);
	ck_assert_int_eq(revocable_provider_revoke(other), -EDEADLK);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable__release_inline(other_rev);
	ck_assert_uint_eq(reader_depth(revocable__tls_reader), 0);
	ck_assert_uint_eq(reader_flags(revocable__tls_reader), 0);

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

int main(void)
{
	Suite *s = suite_create("revocable_nomem");
	TCase *tc = tcase_create("nomem");

	tcase_add_test(tc, test_register_fails_safe);
	tcase_add_test(tc, test_grow_fails_safe);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
