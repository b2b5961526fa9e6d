// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The teaching lab's library (REVOCABLE_LAB_V3_INDEX_BUG, docs/design.md,
 * "Teaching switch") has v3's defect, step by step and without waiting
 * for a hang: two threads on one handle, ordered by the test - T1
 * accesses, T2 accesses, T1 releases.  T1's release ends T2's access
 * (T2's slot is cleared while T2 is still inside: a revoker's scan, which
 * reads the slots, cannot see it) and leaves T1's own slot set; once both
 * have released, a revoke parks on T1's slot with no thread inside any
 * access (the hang of test_revocable_stress_v3bug, counted through the
 * library's park hook instead of timed).  The lab library's sources are
 * compiled into this test with its test-only seams (REVOCABLE_TEST_HOOKS);
 * every access is a call (REVOCABLE_NO_INLINE), as in the lab's own tests.
 */
#include "config.h"

#include <check.h>
#include <sched.h>

#include "revocable_internal.h"
#include "test_util.h"

#define RES_LIVE	((void *)0x1ab)
#define STEP_DEADLINE_MS 30000

/* ---- the library's hooks ---- */

static unsigned long revoker_parks;

void revocable__test_revoker_parks(void)
{
	__atomic_fetch_add(&revoker_parks, 1, __ATOMIC_SEQ_CST);
}

/* ---- a thread that does one step at a time, when told ---- */

enum lab_cmd { CMD_NONE, CMD_ACCESS, CMD_RELEASE, CMD_EXIT };

struct lab_thread {
	struct revocable *rev;
	int cmd;			/* enum lab_cmd, set by the test */
	unsigned int done;		/* commands carried out */
	void *res;			/* what its access returned */
	struct revocable__slot *slot0;	/* its own reader's slot 0 */
};

static void *lab_thread_fn(void *arg)
{
	struct lab_thread *t = arg;
	unsigned int seen = 0;
	int cmd;

	for (;;) {
		while ((cmd = __atomic_load_n(&t->cmd, __ATOMIC_SEQ_CST)) ==
		       CMD_NONE)
			sched_yield();
		__atomic_store_n(&t->cmd, CMD_NONE, __ATOMIC_SEQ_CST);
		if (cmd == CMD_ACCESS) {
			t->res = revocable_try_access(t->rev);
			t->slot0 = &revocable__tls_reader->slot[0];
		} else if (cmd == CMD_RELEASE) {
			revocable_release(t->rev);
		}
		__atomic_store_n(&t->done, ++seen, __ATOMIC_SEQ_CST);
		if (cmd == CMD_EXIT)
			return NULL;	/* its record's destructor runs now */
	}
}

/* Tell @t to do @cmd and wait until it has. */
static void lab_do(struct lab_thread *t, enum lab_cmd cmd, const char *what)
{
	unsigned int before = __atomic_load_n(&t->done, __ATOMIC_SEQ_CST);
	int64_t start = now_ms();

	__atomic_store_n(&t->cmd, cmd, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&t->done, __ATOMIC_SEQ_CST) == before) {
		ck_assert_msg(now_ms() - start < STEP_DEADLINE_MS,
			      "%s: not done within %d ms", what,
			      STEP_DEADLINE_MS);
		sched_yield();
	}
}

static struct revocable_provider *slot_holds(const struct lab_thread *t)
{
	return slot_provider(__atomic_load_n(&t->slot0->rp, __ATOMIC_SEQ_CST));
}

struct revoke_call {
	struct revocable_provider *rp;
	int ret;
};

static void *revoke_fn(void *arg)
{
	struct revoke_call *c = arg;

	__atomic_store_n(&c->ret, revocable_provider_revoke(c->rp),
			 __ATOMIC_SEQ_CST);
	return NULL;
}

START_TEST(test_lab_shared_handle_release_ends_other_thread_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	struct revocable *rev = revocable_alloc(rp);
	struct lab_thread t1 = { .rev = rev }, t2 = { .rev = rev };
	struct revoke_call call = { .rp = rp, .ret = -1 };
	pthread_t tid1, tid2, revoker;
	int64_t start;

	tid1 = start_thread(lab_thread_fn, &t1);
	tid2 = start_thread(lab_thread_fn, &t2);
	lab_do(&t1, CMD_ACCESS, "T1's access");
	lab_do(&t2, CMD_ACCESS, "T2's access");
	ck_assert_ptr_eq(t1.res, RES_LIVE);
	ck_assert_ptr_eq(t2.res, RES_LIVE);
	ck_assert_msg(slot_holds(&t1) == rp && slot_holds(&t2) == rp,
		      "both accesses should be in their threads' slot 0");

	lab_do(&t1, CMD_RELEASE, "T1's release");
	ck_assert_msg(slot_holds(&t2) == NULL,
		      "T2 is inside its access, yet a revoker must not see it: T1's release should have cleared T2's slot");
	ck_assert_msg(slot_holds(&t1) == rp,
		      "T1 released, yet its slot should still name the provider");

	/* Nobody is inside an access now; a revoke still waits for T1. */
	lab_do(&t2, CMD_RELEASE, "T2's release");
	revoker = start_thread(revoke_fn, &call);
	start = now_ms();
	while (!__atomic_load_n(&revoker_parks, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < STEP_DEADLINE_MS,
			      "the revoke did not park on T1's slot within %d ms (ret %d)",
			      STEP_DEADLINE_MS,
			      __atomic_load_n(&call.ret, __ATOMIC_SEQ_CST));
		sched_yield();
	}
	ck_assert_int_eq(__atomic_load_n(&call.ret, __ATOMIC_SEQ_CST), -1);

	/* T1's exit clears its slot (reported on stderr) and lets it go. */
	lab_do(&t1, CMD_EXIT, "T1's exit");
	join_within(tid1, 10000, "T1");
	join_within(revoker, 10000, "the revoke, after T1's exit");
	ck_assert_int_eq(call.ret, 1);
	lab_do(&t2, CMD_EXIT, "T2's exit");
	join_within(tid2, 10000, "T2");
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_lab");
	TCase *tc = tcase_create("lab");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lab_shared_handle_release_ends_other_thread_access);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
