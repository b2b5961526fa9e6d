// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The happens-before edges of docs/design.md, "Weakly ordered CPUs (the
 * C11 argument)", one case per way a revoker concludes that an access it
 * noted has ended:
 *   (a) the slot's ending store (REVOCABLE__ORD_END in
 *       revocable__release_inline(), which revocable_release() runs: the
 *       library's own sources, compiled in, call rather than inline);
 *   (b) the slot's revoked_seen moved: the same thread's later access of
 *       the revoked provider in the same slot (revocable__count_revoked());
 *   (c) the overflow counter's decrement (an access nested deeper than
 *       the slots: the counted path).
 * A reader thread writes the resource inside its access, and the release
 * callback, on the revoker, reads and writes it afterwards.  Between the
 * two threads there is no synchronisation but the library's: the test's
 * hand-shakes are relaxed atomics, which ThreadSanitizer does not take as
 * ordering anything (a relaxed flag between two writes is reported as a
 * race by this toolchain's TSan).  So in the TSan build (scripts/check's
 * TSan stage) a missing release/acquire pair on the way under test is a
 * data race report; in every build the callback must see both of the
 * reader's writes.  The revoker is held, through the test-only seam after
 * its scan (REVOCABLE__SCAN_NOTED), until the reader has ended its
 * access: the scan noted the access, and the wait finds it ended without
 * parking (a parked revoker is woken through wake_seq, a seq_cst RMW the
 * revoker reads: an edge of its own, which would hide a missing one).
 *
 * In TSan mode the slot store is seq_cst, itself a release: a revoker that
 * reads the later access's slot store in (b) synchronises with it before
 * it reads the count, so (b) checks the count's release only where the
 * slot's stores are relaxed, as in a plain build (docs/design.md).
 */
#include "config.h"

#include <check.h>
#include <sched.h>
#include <stdlib.h>

#include "revocable_internal.h"
#include "test_util.h"

#define FILL_RES	((void *)0xf111)
#define STEP_DEADLINE_MS 30000

enum c11_way { WAY_SLOT_END, WAY_COUNT_MOVED, WAY_COUNTED };

/* The reader's steps, published by relaxed stores only. */
enum c11_step { STEP_START, STEP_INSIDE, STEP_GO, STEP_RELEASED, STEP_REVOKED };

struct resource {
	long data;		/* plain: every access is checked by TSan */
	long seen_by_release;	/* what the release callback found */
};

struct c11_case {
	enum c11_way way;
	struct resource res;
	struct revocable_provider *rp, *filler;
	struct revocable *rev, *fill;
	int step;
	/* Written by the reader, read after the join. */
	bool saw_resource, in_slot0, counted, second_null, second_in_slot0;
	/* Written by the revoker's seam, on the test's thread. */
	bool held_revoker;
};

static void set_step(struct c11_case *c, enum c11_step step)
{
	__atomic_store_n(&c->step, step, __ATOMIC_RELAXED);
}

static bool wait_step(struct c11_case *c, enum c11_step step)
{
	int64_t start = now_ms();

	while (__atomic_load_n(&c->step, __ATOMIC_RELAXED) < (int)step) {
		if (now_ms() - start > STEP_DEADLINE_MS)
			return false;
		sched_yield();
	}
	return true;
}

/* ---- the library's hooks ---- */

static struct c11_case *scan_gate;

/*
 * The revoke's scan has noted what it waits for: the reader may now end
 * its access, and the revoker goes on once it has, so that the wait that
 * follows finds the access ended through the way under test.
 */
void revocable__test_scan_noted(const struct revocable_provider *rp)
{
	struct c11_case *c = __atomic_load_n(&scan_gate, __ATOMIC_RELAXED);

	if (!c || c->rp != rp)
		return;
	__atomic_store_n(&scan_gate, NULL, __ATOMIC_RELAXED);
	set_step(c, STEP_GO);
	c->held_revoker = wait_step(c, STEP_RELEASED);
}

static void read_and_scribble(void *res, void *arg)
{
	struct resource *r = res;

	r->seen_by_release = r->data;
	r->data = -1;
}

static struct revocable__slot *own_slot0(void)
{
	return &revocable__tls_reader->slot[0];
}

static void *reader_fn(void *arg)
{
	struct c11_case *c = arg;
	struct resource *r;
	int i;

	/* Registered first: the registry's mutex must order nothing below. */
	revocable_try_access(c->fill);
	revocable_release(c->fill);
	if (c->way == WAY_COUNTED)
		for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
			revocable_try_access(c->fill);

	r = revocable_try_access(c->rev);
	c->saw_resource = r == &c->res;
	c->in_slot0 = __atomic_load_n(&own_slot0()->rp, __ATOMIC_RELAXED) == c->rp;
	c->counted = __atomic_load_n(&c->rp->priv_overflow_readers,
				     __ATOMIC_RELAXED) == 1;
	if (r)
		r->data++;
	set_step(c, STEP_INSIDE);
	if (!wait_step(c, STEP_GO))
		return NULL;	/* the test fails on the revoke's result */
	if (r)
		r->data++;
	revocable_release(c->rev);

	if (c->way == WAY_COUNT_MOVED) {
		/* The same slot again: sees NULL and counts itself. */
		c->second_null = !revocable_try_access(c->rev);
		c->second_in_slot0 = __atomic_load_n(&own_slot0()->rp,
						     __ATOMIC_RELAXED) == c->rp;
	}
	set_step(c, STEP_RELEASED);
	/*
	 * Alive until the revoke returned: a thread's exit releases its
	 * record (its reference, the registry's mutex), which the revoker
	 * would acquire before the callback, ordering the accesses above
	 * whatever the way under test did.
	 */
	wait_step(c, STEP_REVOKED);
	if (c->way == WAY_COUNT_MOVED)
		revocable_release(c->rev);
	if (c->way == WAY_COUNTED)
		for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
			revocable_release(c->fill);
	return NULL;
}

static void run_case(enum c11_way way)
{
	struct c11_case *c = calloc(1, sizeof(*c));
	pthread_t reader;

	ck_assert_ptr_nonnull(c);
	c->way = way;
	c->rp = revocable_provider_alloc(&c->res);
	c->filler = revocable_provider_alloc(FILL_RES);
	ck_assert(c->rp && c->filler);
	ck_assert_int_eq(revocable_provider_set_release(c->rp, read_and_scribble,
							 NULL), 0);
	c->rev = revocable_alloc(c->rp);
	c->fill = revocable_alloc(c->filler);
	ck_assert(c->rev && c->fill);

	reader = start_thread(reader_fn, c);
	ck_assert_msg(wait_step(c, STEP_INSIDE),
		      "the reader did not enter its access within %d ms",
		      STEP_DEADLINE_MS);
	__atomic_store_n(&scan_gate, c, __ATOMIC_RELAXED);
	ck_assert_int_eq(revocable_provider_revoke(c->rp), 1);
	set_step(c, STEP_REVOKED);
	join_within(reader, 10000, "the reader");

	ck_assert_msg(c->held_revoker,
		      "the revoke's scan did not stop at the seam until the reader ended its access");
	ck_assert_msg(c->saw_resource, "the reader's access did not see the resource");
	ck_assert_msg(c->res.seen_by_release == 2,
		      "the release callback saw %ld of the reader's 2 writes",
		      c->res.seen_by_release);
	switch (way) {
	case WAY_SLOT_END:
		ck_assert_msg(c->in_slot0, "(a) the access was not in slot 0");
		break;
	case WAY_COUNT_MOVED:
		ck_assert_msg(c->in_slot0 && c->second_in_slot0,
			      "(b) the two accesses were not both in slot 0");
		ck_assert_msg(c->second_null,
			      "(b) the later access saw the revoked resource");
		break;
	case WAY_COUNTED:
		ck_assert_msg(c->counted && !c->in_slot0,
			      "(c) the access was not on the counted path");
		break;
	}
	revocable_free(c->rev);
	revocable_free(c->fill);
	revocable_provider_free(c->rp);
	revocable_provider_free(c->filler);
	revocable_barrier();
	free(c);
}

/* (a): the revoker reads the slot's ending store. */
START_TEST(test_c11_slot_end_orders_access_before_release)
{
	run_case(WAY_SLOT_END);
}
END_TEST

/* (b): it reads the count of the same slot's later access, which saw NULL. */
START_TEST(test_c11_count_moved_orders_access_before_release)
{
	run_case(WAY_COUNT_MOVED);
}
END_TEST

/* (c): it reads the overflow counter the access's release decremented. */
START_TEST(test_c11_counted_orders_access_before_release)
{
	run_case(WAY_COUNTED);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_c11");
	TCase *tc = tcase_create("c11");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_c11_slot_end_orders_access_before_release);
	tcase_add_test(tc, test_c11_count_moved_orders_access_before_release);
	tcase_add_test(tc, test_c11_counted_orders_access_before_release);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
