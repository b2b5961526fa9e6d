// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Out-of-memory paths of librevocable.  The library source is compiled
 * into this test with its allocators redirected to ones that fail on
 * demand, so the paths that cannot be reached with a real allocator run
 * here: a thread that cannot register, nesting that cannot grow.  Either
 * way an access must fail safe (NULL), pair with its release silently, and
 * never let a revoke finish while an access that saw the resource is open.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Allocation failure switches, set by the tests (one test per process). */
static struct {
	bool fail_register;		/* posix_memalign */
	bool fail_grow;			/* realloc */
} nomem;

static int test_posix_memalign(void **mem, size_t align, size_t size)
{
	if (nomem.fail_register)
		return ENOMEM;
	return posix_memalign(mem, align, size);
}

static void *test_realloc(void *ptr, size_t size)
{
	if (nomem.fail_grow)
		return NULL;
	return realloc(ptr, size);
}

#define posix_memalign test_posix_memalign
#define realloc test_realloc
#include "../../revocable/revocable.c"
#undef posix_memalign
#undef realloc

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

	nomem.fail_register = true;
	tid = start_thread(unregistered_reader, rev);
	ck_assert_int_eq(pthread_join(tid, &seen), 0);
	ck_assert_ptr_null(seen);		/* refused, not the resource */
	nomem.fail_register = false;

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
	nomem.fail_grow = true;
	ck_assert_ptr_null(revocable__try_access_inline(rev));	/* refused */
	nomem.fail_grow = false;

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
