// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How a revoker decides that the access it found in a slot has ended.  The
 * library's revoke.c is #included by this test (and its other sources
 * built into it) so that the revoker's own predicate, slot_busy(), can
 * be asked at exact points of a reader's life:
 * the access seen at scan time still running (busy), then ended (free),
 * then replaced in the same slot by a later access of the revoked provider
 * (free: that access saw NULL and counted itself).  Without that count a
 * thread looping on accesses of a revoked provider could keep a revoker
 * waiting for as long as it loops.  Both the inline path (slot 0) and the
 * out-of-line one (a nested access, slot 1) are checked.
 */
#include "config.h"

#include <check.h>

#include "../../revocable/revoke.c"

#include "test_util.h"

#define RES_A	((void *)0xa11ce)
#define RES_B	((void *)0xb0b)

/* The scan's view of slot @idx of the calling thread's reader. */
static unsigned long scan_snapshot(struct reader_record *rec, unsigned int idx,
				   struct revocable_provider *rp)
{
	ck_assert_ptr_eq(rec->pub.slot[idx].rp, rp);
	return __atomic_load_n(&rec->pub.slot[idx].revoked_seen, __ATOMIC_ACQUIRE);
}

static void check_later_access_ends_wait(struct revocable *rev,
					 struct revocable_provider *rp,
					 unsigned int idx)
{
	struct reader_record *rec;
	unsigned long seen;

	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	rec = to_record(current_reader());
	publish_revocation(rp);		/* a revoker's first step */
	seen = scan_snapshot(rec, idx, rp);
	ck_assert_msg(slot_busy(rec, idx, rp, seen),
		      "slot %u: the access that saw the resource is not waited for", idx);

	revocable_release(rev);
	ck_assert(!slot_busy(rec, idx, rp, seen));

	ck_assert_ptr_null(revocable_try_access(rev));	/* the same slot */
	ck_assert_ptr_eq(rec->pub.slot[idx].rp, rp);
	ck_assert_msg(!slot_busy(rec, idx, rp, seen),
		      "slot %u: a later access that saw NULL still keeps the revoker waiting",
		      idx);
	revocable_release(rev);
}

START_TEST(test_inline_slot)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);

	/* Register the thread first, so the access below is the inline one. */
	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	revocable_release(rev);

	check_later_access_ends_wait(rev, rp, 0);
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

START_TEST(test_nested_slot)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable_provider *outer_rp = revocable_provider_alloc(RES_B);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable *outer = revocable_alloc(outer_rp);

	ck_assert_ptr_eq(revocable_try_access(outer), RES_B);	/* slot 0 */
	check_later_access_ends_wait(rev, rp, 1);
	revocable_release(outer);

	revocable_free(rev);
	revocable_free(outer);
	revocable_provider_free(rp);
	revocable_provider_free(outer_rp);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_slot_wait");
	TCase *tc = tcase_create("slot_wait");

	tcase_add_test(tc, test_inline_slot);
	tcase_add_test(tc, test_nested_slot);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
