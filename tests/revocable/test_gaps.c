// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Promises of revocable(3) that had no test (notes/claims26.md, GAPS):
 * the scoped form left by goto, a guard never entered, the reports on
 * standard error (a stray release, revocable_fini() of a handle in use, a
 * thread exiting inside accesses, a reference count below zero,
 * revoke_async in the last put's callback), revocable_barrier() from a
 * done() callback and from a free_fn, and nested accesses that write
 * neither their provider nor their handle.
 * Public API only; "released" is seen as a revoke from the same thread
 * completing (1) instead of being refused (-EDEADLK).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <revocable.h>

#include "test_util.h"

#define RES_A	((void *)0xa11ce)
#define RES_B	((void *)0xb0b)

/* Wait for *@flag to be set by a library thread, at most @ms. */
static void wait_flag(int *flag, long ms, const char *what)
{
	int64_t start = now_ms();

	while (!__atomic_load_n(flag, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < ms, "%s: not within %ld ms",
			      what, ms);
		sched_yield();
	}
}

/* ---- REVOCABLE() left by goto and by break ---- */

static int goto_out(struct revocable *rev, struct revocable_provider *rp,
		    int *runs)
{
	void *res;

	REVOCABLE(rev, res) {
		(*runs)++;
		/* Held inside the body: a revoke from here is refused. */
		ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);
		if (res)
			goto out;
		return -1;
	}
	return -2;	/* the body always leaves by goto or return */
out:
	return 0;
}

static int break_out(struct revocable *rev, int *runs)
{
	void *res;

	for (;;) {
		REVOCABLE(rev, res) {
			(*runs)++;
			if (res)
				break;
			return -1;
		}
		break;
	}
	return 0;
}

/*
 * REVOCABLE(3): "runs statement once ... and releases the access however
 * the statement is left (break, return, goto)".
 */
START_TEST(test_revocable_goto_break)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	int runs = 0;

	ck_assert_int_eq(goto_out(rev, rp, &runs), 0);
	ck_assert_int_eq(runs, 1);
	runs = 0;
	ck_assert_int_eq(break_out(rev, &runs), 0);
	ck_assert_int_eq(runs, 1);

	/* Both left by a jump: the accesses are over, this thread revokes. */
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);

	/* Revoked: the body still runs once, with NULL, and returns. */
	runs = 0;
	ck_assert_int_eq(goto_out(rev, rp, &runs), -1);
	ck_assert_int_eq(runs, 1);
	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- a guard never entered ---- */

static void exit_guard(void *arg)
{
	revocable_guard_exit(arg);
}

/*
 * revocable_guard_exit(3): "a second call, or one on a guard never
 * entered, does nothing"; REVOCABLE_GUARD_INIT(3): exit "on it does
 * nothing".  While this thread holds a plain access, exiting a fresh
 * guard, or again one already exited, must neither end that access nor
 * report a stray release.
 */
START_TEST(test_guard_exit_never_entered)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct revocable *rev = revocable_alloc(rp);
	struct revocable_guard g = REVOCABLE_GUARD_INIT;
	struct revocable_guard used = REVOCABLE_GUARD_INIT;
	const char *err;

	/* A guard entered and exited: exiting it again does nothing. */
	ck_assert_ptr_eq(revocable_guard_enter(&used, rev), RES_A);
	revocable_guard_exit(&used);

	ck_assert_ptr_eq(revocable_try_access(rev), RES_A);
	err = stderr_of(exit_guard, &used);
	ck_assert_msg(err[0] == '\0', "unexpected report: '%s'", err);
	err = stderr_of(exit_guard, &g);
	ck_assert_msg(err[0] == '\0', "unexpected report: '%s'", err);
	err = stderr_of(exit_guard, &g);	/* and again */
	ck_assert_msg(err[0] == '\0', "unexpected report: '%s'", err);
	/* The plain access is still held. */
	ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);
	revocable_release(rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);

	revocable_free(rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- misuse reported on standard error ---- */

static void release_handle(void *arg)
{
	revocable_release(arg);
}

/*
 * revocable(3) Misuse: "A release matching no access" is reported.  It
 * must change nothing: an access to another provider held around it
 * stays held, and the stray provider is neither revoked nor held.
 */
START_TEST(test_report_release_matching_no_access)
{
	struct revocable_provider *a = revocable_provider_alloc(RES_A);
	struct revocable_provider *b = revocable_provider_alloc(RES_B);
	struct revocable *rev_a = revocable_alloc(a);
	struct revocable *rev_b = revocable_alloc(b);
	const char *err;

	/* Nothing held at all. */
	err = stderr_of(release_handle, rev_a);
	ck_assert_msg(strstr(err, "revocable_release() without a matching access") != NULL,
		      "no report of a stray release: '%s'", err);

	/* Held: B.  Stray: A. */
	ck_assert_ptr_eq(revocable_try_access(rev_b), RES_B);
	err = stderr_of(release_handle, rev_a);
	ck_assert_msg(strstr(err, "revocable_release() without a matching access") != NULL,
		      "no report of a stray release inside another access: '%s'",
		      err);
	ck_assert(!revocable_provider_is_revoked(a));
	ck_assert_int_eq(revocable_provider_revoke(b), -EDEADLK);	/* B held */
	ck_assert_ptr_eq(revocable_try_access(rev_a), RES_A);
	revocable_release(rev_a);
	revocable_release(rev_b);
	ck_assert_int_eq(revocable_provider_revoke(a), 1);
	ck_assert_int_eq(revocable_provider_revoke(b), 1);
	revocable_free(rev_a);
	revocable_free(rev_b);
	revocable_provider_free(a);
	revocable_provider_free(b);
}
END_TEST

struct emb_provider {
	struct revocable_provider rp;
	int freed;
};

static void emb_free(struct revocable_provider *rp)
{
	struct emb_provider *e = (struct emb_provider *)rp;

	__atomic_fetch_add(&e->freed, 1, __ATOMIC_SEQ_CST);
}

static void fini_handle(void *arg)
{
	revocable_fini(arg);
}

/*
 * revocable(3) Misuse: "revocable_free() or revocable_fini() of a handle
 * that holds its provider's last reference while an access to the
 * provider is open" is reported.  An embedded handle whose access is
 * open on this thread; a copy of it ends the access afterwards (the
 * misuse's use-after-free is not what this test is about).  Otherwise
 * fini does what it always does: the provider is torn down once.
 */
START_TEST(test_report_fini_handle_in_use)
{
	struct emb_provider *e = calloc(1, sizeof(*e));
	struct revocable rev, copy;
	const char *err;

	revocable_provider_init(&e->rp, RES_A, emb_free);
	revocable_init(&rev, &e->rp);
	revocable_provider_put(&e->rp);		/* the handle holds the last */
	ck_assert_ptr_eq(revocable_try_access(&rev), RES_A);
	copy = rev;

	err = stderr_of(fini_handle, &rev);
	ck_assert_msg(strstr(err, "revocable_free()/revocable_fini() of a handle while an access through it is open") != NULL,
		      "no report of revocable_fini() of a handle in use: '%s'",
		      err);
	/*
	 * The reference is still dropped: a never-revoked provider's teardown
	 * does not wait for readers (none should exist), so free_fn may run
	 * at once - the misuse's consequence.  The memory is ours, so the
	 * copy's release below reads valid memory.
	 */
	revocable_release(&copy);
	revocable_barrier();
	ck_assert_int_eq(__atomic_load_n(&e->freed, __ATOMIC_SEQ_CST), 1);
	free(e);
}
END_TEST

/* ---- revocable_barrier() from done() and from free_fn ---- */

struct barrier_cb {
	struct revocable_provider rp;	/* embedded, for the free_fn case */
	int called, returned;
};

static void done_barrier(struct revocable_provider *rp, void *arg)
{
	struct barrier_cb *c = arg;

	__atomic_store_n(&c->called, 1, __ATOMIC_SEQ_CST);
	revocable_barrier();	/* its own revoke is queued before it */
	__atomic_store_n(&c->returned, 1, __ATOMIC_SEQ_CST);
}

/*
 * revocable(3): revocable_barrier() "returns at once when called from a
 * library callback" - here an asynchronous revoke's done(), which
 * would otherwise wait for its own revoke.
 */
START_TEST(test_barrier_in_done)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct barrier_cb c = { 0 };

	ck_assert_int_eq(revocable_provider_revoke_async(rp, done_barrier, &c),
			 0);
	wait_flag(&c.called, 10000, "done() called");
	wait_flag(&c.returned, 5000, "revocable_barrier() inside done() returned");
	revocable_barrier();
	ck_assert(revocable_provider_is_revoked(rp));
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

static void free_fn_barrier(struct revocable_provider *rp)
{
	struct barrier_cb *c = (struct barrier_cb *)rp;

	__atomic_store_n(&c->called, 1, __ATOMIC_SEQ_CST);
	revocable_barrier();	/* its own deferred free is queued before it */
	__atomic_store_n(&c->returned, 1, __ATOMIC_SEQ_CST);
}

/* The same from an embedded provider's free_fn. */
START_TEST(test_barrier_in_free_fn)
{
	struct barrier_cb *c = calloc(1, sizeof(*c));

	revocable_provider_init(&c->rp, RES_A, free_fn_barrier);
	revocable_provider_free(&c->rp);
	wait_flag(&c->called, 10000, "free_fn called");
	wait_flag(&c->returned, 5000,
		  "revocable_barrier() inside free_fn returned");
	revocable_barrier();
	free(c);
}
END_TEST

/* ---- more reports on standard error ---- */

struct exiting_reader {
	struct revocable *rev;
	int depth;		/* accesses it makes and never releases */
};

static void *exit_inside_fn(void *arg)
{
	struct exiting_reader *r = arg;
	int i;

	for (i = 0; i < r->depth; i++)
		ck_assert_ptr_eq(revocable_try_access(r->rev), RES_A);
	return NULL;	/* exits inside r->depth accesses */
}

/* The thread's exit, and so its record's destructor, before the join
 * returns: the report is written while stderr is captured. */
static void run_exiting_reader(void *arg)
{
	pthread_t tid = start_thread(exit_inside_fn, arg);

	ck_assert_int_eq(pthread_join(tid, NULL), 0);
}

/*
 * revocable(3) NOTES: "A thread that exits while inside an access is
 * reported on standard error and its accesses are dropped."  The report
 * counts them: in slots alone, and beyond the slots (the counted path);
 * dropped means a revoke afterwards waits for nothing.
 */
START_TEST(test_report_thread_exit_inside_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_A);
	struct exiting_reader r = { .rev = revocable_alloc(rp) };
	const int depths[] = { 3, REVOCABLE_READER_SLOTS + 2 };
	char want[128];
	const char *err;
	unsigned int i;

	for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		r.depth = depths[i];
		snprintf(want, sizeof(want),
			 "revocable: thread exited inside %d access(es); dropped",
			 r.depth);
		err = stderr_of(run_exiting_reader, &r);
		ck_assert_msg(strstr(err, want) != NULL,
			      "no report '%s' of a thread exiting inside accesses: '%s'",
			      want, err);
	}
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(r.rev);
	revocable_provider_free(rp);
}
END_TEST

static void put_provider(void *arg)
{
	revocable_provider_put(arg);
}

/*
 * revocable(3) Misuse: "a reference count going below zero" is reported.
 * An embedded provider without free_fn is done with at its last put and
 * its memory is still ours, so one put too many touches valid memory.
 */
START_TEST(test_report_refcount_underflow)
{
	struct revocable_provider emb;
	char want[128];
	const char *err;

	revocable_provider_init(&emb, RES_A, NULL);
	err = stderr_of(put_provider, &emb);	/* the last reference */
	ck_assert_msg(err[0] == '\0', "unexpected report: '%s'", err);
	snprintf(want, sizeof(want), "revocable: provider %p reference underflow",
		 (void *)&emb);
	err = stderr_of(put_provider, &emb);	/* one too many */
	ck_assert_msg(strstr(err, want) != NULL,
		      "no report '%s' of a reference count below zero: '%s'",
		      want, err);
}
END_TEST

struct teardown_async {
	struct revocable_provider *rp;
	int runs, ret;
};

static void release_revokes_async(void *res, void *arg)
{
	struct teardown_async *t = arg;

	(void)res;
	t->runs++;
	t->ret = revocable_provider_revoke_async(t->rp, NULL, NULL);
}

/* The last put queues the teardown; the barrier waits until it ran. */
static void last_put_and_barrier(void *arg)
{
	revocable_provider_put(arg);
	revocable_barrier();
}

/*
 * revocable(3), "Calling back from a release callback": in the callback
 * that the last put of a never revoked provider runs, no reference is
 * left, so revocable_provider_revoke_async() of it "returns -EDEADLK
 * (reported)".  The return was tested (test_defects.c); here the report.
 */
START_TEST(test_report_async_in_last_put_callback)
{
	struct teardown_async t = { .ret = 1 };
	const char *err;

	t.rp = revocable_provider_alloc(RES_A);
	ck_assert_int_eq(revocable_provider_set_release(t.rp,
							release_revokes_async,
							&t), 0);
	err = stderr_of(last_put_and_barrier, t.rp);
	ck_assert_int_eq(t.runs, 1);
	ck_assert_int_eq(t.ret, -EDEADLK);
	ck_assert_msg(strstr(err, "revocable_provider_revoke_async() inside the release callback of the provider's last put; refused (-EDEADLK)") != NULL,
		      "no report of revoke_async in the last put's callback: '%s'",
		      err);
}
END_TEST

/* ---- nested accesses write neither the provider nor the handle ---- */

/* Two providers and their handles, alone in a page made read-only. */
struct ro_objects {
	struct revocable_provider a, b;
	struct revocable rev_a, rev_b;
};

/*
 * REVOCABLE_READER_SLOTS(3): a thread holds that many nested accesses
 * "without touching shared memory"; docs/design.md: nested accesses
 * "write no shared memory", no atomic read-modify-write.  The providers
 * and handles such accesses use sit in a page that is read-only while
 * this thread makes REVOCABLE_READER_SLOTS nested accesses, alternating
 * between the two, and releases them oldest first (holes, slot 0's mark):
 * any store or atomic RMW to a provider or a handle (its reference count,
 * the overflow counter, its state) is a SIGSEGV, which fails the test.
 * It proves nothing about memory outside that page; the other shared
 * objects are the library's registry and context, which the read side
 * does not name.  One access more than the slots takes the counted path
 * and faults here.
 */
START_TEST(test_nested_accesses_write_no_provider)
{
	long page = sysconf(_SC_PAGESIZE);
	struct revocable_provider *warm = revocable_provider_alloc(RES_B);
	struct revocable *warm_rev = revocable_alloc(warm);
	struct ro_objects *ro;
	int i;

	ck_assert_int_ge(page, (long)sizeof(*ro));
	ro = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(ro, MAP_FAILED);
	/* The thread's first access registers it: not what is measured. */
	ck_assert_ptr_eq(revocable_try_access(warm_rev), RES_B);
	revocable_release(warm_rev);
	revocable_provider_init(&ro->a, RES_A, NULL);
	revocable_provider_init(&ro->b, RES_B, NULL);
	revocable_init(&ro->rev_a, &ro->a);
	revocable_init(&ro->rev_b, &ro->b);

	ck_assert_int_eq(mprotect(ro, page, PROT_READ), 0);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(i % 2 ? &ro->rev_b :
						      &ro->rev_a),
				 i % 2 ? RES_B : RES_A);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(i % 2 ? &ro->rev_b : &ro->rev_a);
	ck_assert_int_eq(mprotect(ro, page, PROT_READ | PROT_WRITE), 0);

	/* All released: this thread may revoke both. */
	ck_assert_int_eq(revocable_provider_revoke(&ro->a), 1);
	ck_assert_int_eq(revocable_provider_revoke(&ro->b), 1);
	revocable_fini(&ro->rev_a);
	revocable_fini(&ro->rev_b);
	revocable_provider_put(&ro->a);
	revocable_provider_put(&ro->b);
	ck_assert_int_eq(munmap(ro, page), 0);
	revocable_free(warm_rev);
	revocable_provider_free(warm);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_gaps");
	TCase *tc = tcase_create("gaps");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_revocable_goto_break);
	tcase_add_test(tc, test_guard_exit_never_entered);
	tcase_add_test(tc, test_report_release_matching_no_access);
	tcase_add_test(tc, test_report_fini_handle_in_use);
	tcase_add_test(tc, test_barrier_in_done);
	tcase_add_test(tc, test_barrier_in_free_fn);
	tcase_add_test(tc, test_report_thread_exit_inside_access);
	tcase_add_test(tc, test_report_refcount_underflow);
	tcase_add_test(tc, test_report_async_in_last_put_callback);
	tcase_add_test(tc, test_nested_accesses_write_no_provider);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
