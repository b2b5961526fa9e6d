// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librevocable through its test-only seams (REVOCABLE_TEST_HOOKS): the
 * library sources are compiled into this test, which supplies the hooks,
 * so what a counter does can be counted rather than timed.  The installed
 * library has no hook.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>

#include "revocable_internal.h"
#include "test_util.h"

#define RES_LIVE	((void *)0x11fe)
#define RES_GONE	((void *)0x90e)

/* ---- defect 4: the counted path livelocks a revoke ---- */

static const struct revocable_provider *counted_rp;
static unsigned long counted;

/* The library's hook: an overflow access incremented @rp's counter. */
void revocable__test_overflow_counted(const struct revocable_provider *rp)
{
	if (rp == counted_rp)
		__atomic_fetch_add(&counted, 1, __ATOMIC_RELAXED);
}

/* @n accesses to @rev nested below a full slot stack: the counted path. */
static void overflow_accesses(struct revocable *rev, int n, void *want)
{
	struct revocable_provider *filler = revocable_provider_alloc(RES_LIVE);
	struct revocable *fill = revocable_alloc(filler);
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(fill), RES_LIVE);
	for (i = 0; i < n; i++)
		ck_assert_ptr_eq(revocable_try_access(rev), want);
	for (i = 0; i < n; i++)
		revocable_release(rev);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(fill);
	revocable_free(fill);
	revocable_provider_free(filler);
}

/*
 * An access that finds the provider revoked must not touch its counter:
 * a stream of such accesses would keep a waiting revoke above zero (16
 * readers on 2 CPUs kept one there for over 10 s).  So no increment at
 * all once revoked, not merely one undone at once.
 */
START_TEST(test_overflow_revoked_not_counted)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_GONE);
	struct revocable *rev = revocable_alloc(rp);

	counted_rp = rp;
	/* The hook sees live overflow accesses (else the test proves nothing). */
	overflow_accesses(rev, 3, RES_GONE);
	ck_assert_uint_eq(__atomic_load_n(&counted, __ATOMIC_RELAXED), 3);

	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	overflow_accesses(rev, 100, NULL);
	ck_assert_msg(__atomic_load_n(&counted, __ATOMIC_RELAXED) == 3,
		      "%lu accesses to a revoked provider touched its overflow counter",
		      __atomic_load_n(&counted, __ATOMIC_RELAXED) - 3);
	ck_assert_int_eq(__atomic_load_n(&rp->priv_overflow_readers,
					 __ATOMIC_SEQ_CST), 0);
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_hooks");
	TCase *tc = tcase_create("hooks");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_overflow_revoked_not_counted);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
