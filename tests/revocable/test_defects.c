// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librevocable's issue-26 defects, one test each, each written to fail on
 * the code before its fix: freed memory is unmapped (a late touch is
 * SIGSEGV in any build, not silent corruption), a hang is a deadline that
 * fails the test with the condition it waited for, and counts the library
 * reports replace any timing.
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

#define RES	((void *)0x5e51)

/* An embedded provider in a page of its own: munmap() makes any later
 * touch by the library a fault. */
struct device {
	struct revocable_provider rp;
	int done_runs;
};

static struct device *device_map(void)
{
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(mem, MAP_FAILED);
	return mem;
}

/* ---- defect 8: the async job touches the provider after done() ---- */

static int unmapped_in_done;

/* The usual shape: done() is where the owner lets the device go. */
static void done_frees_device(struct revocable_provider *rp, void *arg)
{
	struct device *d = arg;

	ck_assert_ptr_eq(rp, &d->rp);
	revocable_provider_free(rp);	/* the owner's reference, the last */
	ck_assert_int_eq(munmap(d, 4096), 0);
	__atomic_store_n(&unmapped_in_done, 1, __ATOMIC_SEQ_CST);
}

START_TEST(test_async_done_frees_embedded)
{
	struct device *d = device_map();

	unmapped_in_done = 0;
	revocable_provider_init(&d->rp, RES, NULL);
	ck_assert_int_eq(revocable_provider_revoke_async(&d->rp,
							 done_frees_device, d),
			 0);
	revocable_barrier();
	ck_assert_msg(__atomic_load_n(&unmapped_in_done, __ATOMIC_SEQ_CST),
		      "done() never ran before revocable_barrier() returned");
}
END_TEST

/* ---- defect 2: teardown's release callback without the reentrancy frame ---- */

enum reenter { REENTER_REVOKE, REENTER_REVOKE_ASYNC, REENTER_FREE };

struct torn {
	struct revocable_provider rp;
	enum reenter what;
	int release_runs;
	int frees;
	int ret;
};

static void torn_free(struct revocable_provider *rp)
{
	struct torn *t = caa_container_of(rp, struct torn, rp);

	__atomic_fetch_add(&t->frees, 1, __ATOMIC_SEQ_CST);
}

/* Runs from the last put's teardown (never revoked) and calls back in. */
static void torn_release(void *res, void *arg)
{
	struct torn *t = arg;

	(void)res;
	if (__atomic_fetch_add(&t->release_runs, 1, __ATOMIC_SEQ_CST))
		return;		/* a second run: the defect; counted, no more */
	switch (t->what) {
	case REENTER_REVOKE:
		t->ret = revocable_provider_revoke(&t->rp);
		break;
	case REENTER_REVOKE_ASYNC:
		t->ret = revocable_provider_revoke_async(&t->rp, NULL, NULL);
		break;
	case REENTER_FREE:
		revocable_provider_free(&t->rp);
		t->ret = 0;
		break;
	}
}

static void run_torn(enum reenter what, int want_ret)
{
	struct torn t = { .what = what, .ret = 1 };

	revocable_provider_init(&t.rp, RES, torn_free);
	ck_assert_int_eq(revocable_provider_set_release(&t.rp, torn_release,
							&t), 0);
	revocable_provider_put(&t.rp);	/* last reference, never revoked */
	revocable_barrier();
	ck_assert_int_eq(t.ret, want_ret);
	ck_assert_msg(t.release_runs == 1,
		      "release callback ran %d times (want once)",
		      t.release_runs);
	ck_assert_msg(t.frees == 1, "free_fn ran %d times (want once)",
		      t.frees);
}

START_TEST(test_teardown_release_revokes_self)
{
	run_torn(REENTER_REVOKE, -EDEADLK);
}
END_TEST

START_TEST(test_teardown_release_revokes_self_async)
{
	run_torn(REENTER_REVOKE_ASYNC, -EDEADLK);
}
END_TEST

START_TEST(test_teardown_release_frees_self)
{
	run_torn(REENTER_FREE, 0);
}
END_TEST

/* ---- defect 7: revocable_barrier() waits for work queued after it ---- */

/*
 * A chain of async revokes: each done() starts the next before it ends,
 * so from the first one on there is always one in flight (and a deferred
 * free queued by each), until the chain is told to stop.  A barrier that
 * waits for "nothing in flight" never returns; one that waits for what
 * was queued before it returns once the link in flight at its call ends.
 */
static int chain_stop;
static int chain_links;

static void chain_done(struct revocable_provider *rp, void *arg);

static void chain_next(void)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES);

	ck_assert_ptr_nonnull(rp);
	ck_assert_int_eq(revocable_provider_revoke_async(rp, chain_done, NULL),
			 0);
	revocable_provider_put(rp);	/* the job's reference remains */
}

static void chain_done(struct revocable_provider *rp, void *arg)
{
	(void)rp;
	(void)arg;
	__atomic_fetch_add(&chain_links, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&chain_stop, __ATOMIC_SEQ_CST))
		chain_next();
}

static void *barrier_fn(void *arg)
{
	(void)arg;
	revocable_barrier();
	return NULL;
}

START_TEST(test_barrier_ignores_later_work)
{
	int64_t start = now_ms();
	pthread_t tid;

	chain_next();
	/* The chain is running: it has replaced its first link. */
	while (__atomic_load_n(&chain_links, __ATOMIC_SEQ_CST) < 2) {
		ck_assert_msg(now_ms() - start < 10000,
			      "the async revoke chain never reached its second link");
		sched_yield();
	}
	tid = start_thread(barrier_fn, NULL);
	join_within(tid, 10000,
		    "revocable_barrier() under a chain of async revokes started after it");
	__atomic_store_n(&chain_stop, 1, __ATOMIC_SEQ_CST);
	/* The chain ends with the link in flight now: this one returns too. */
	tid = start_thread(barrier_fn, NULL);
	join_within(tid, 10000, "revocable_barrier() after the chain stopped");
}
END_TEST

/* ---- defect 1: a signal handler's access inside the inline fast path ---- */

#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#include <signal.h>
#include <ucontext.h>

#define X86_EFLAGS_TF	0x100

/* The handler's handles: on another provider, and on the stepped one's. */
static struct revocable *step_rev_handler[2];
static volatile sig_atomic_t step_stop;
static volatile long step_count;	/* instructions stepped this run */
static volatile long step_target;	/* the one the handler runs after */
static volatile sig_atomic_t step_fired;
static volatile long step_handler_bad;
/* Stepping the slow path: the handler's accesses inside it are refused
 * (NULL, by design), so NULL is no error there. */
static volatile sig_atomic_t step_in_slow_path;
/* Stepping a thread's first access: the unregistered thread's reader, and
 * counting from the moment the thread's own record is published. */
static struct revocable__reader *volatile step_sentinel;
/* The stepped access's provider, and whether slot 0 named it already
 * when the handler ran: the window after the publication had closed. */
static const void *volatile step_window_provider;
static volatile sig_atomic_t step_window_closed;

/*
 * Runs after every single instruction of the stepped code (the trap
 * flag), and after the target one does what a signal handler may do at
 * that boundary: two accesses and their releases, oldest first - a nested
 * access, one of the provider the interrupted code holds or is taking,
 * and an out-of-order release with its compaction.  Once per run, so that
 * nothing the handler does later repairs what it broke at the target.
 * Once the stepped code says it is done, the trap flag is cleared in the
 * context it returns to.
 */
static void step_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	if (step_stop) {
		uc->uc_mcontext.gregs[REG_EFL] &= ~X86_EFLAGS_TF;
		return;
	}
	if (step_sentinel) {
		if (revocable__tls_reader == step_sentinel ||
		    ++step_count != step_target)
			return;
	} else if (++step_count != step_target) {
		return;
	}
	step_fired = 1;
	if (step_sentinel)
		step_window_closed = revocable__tls_reader->slot[0].rp ==
				     step_window_provider;
	if (revocable_try_access(step_rev_handler[0]) != RES &&
	    !step_in_slow_path)
		step_handler_bad++;
	if (revocable_try_access(step_rev_handler[1]) != RES &&
	    !step_in_slow_path)
		step_handler_bad++;
	revocable_release(step_rev_handler[0]);
	revocable_release(step_rev_handler[1]);
}

enum step_op { STEP_ACCESS, STEP_RELEASE, STEP_ACCESS_CALL, STEP_RELEASE_CALL };

/*
 * One operation single-stepped, the handler after its @target-th
 * instruction.  Return: whether the handler ran (false once @target is
 * past the operation's last instruction).
 */
static bool step_once(enum step_op op, struct revocable *rev, long target,
		      void **res)
{
	struct revocable *volatile vrev = rev;

	step_count = 0;
	step_target = target;
	step_fired = 0;
	step_stop = 0;
	__asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq"
			 ::: "memory", "cc");
	switch (op) {
	case STEP_ACCESS:
		*res = revocable_try_access(vrev);
		break;
	case STEP_RELEASE:
		revocable_release(vrev);
		break;
	case STEP_ACCESS_CALL:	/* the parentheses: the exported call */
		*res = (revocable_try_access)(vrev);
		break;
	case STEP_RELEASE_CALL:
		(revocable_release)(vrev);
		break;
	}
	step_stop = 1;
	/* The handler clears the trap flag at the first boundary after. */
	__asm__ volatile("" ::: "memory");
	return step_fired;
}

/* Nothing but the stepped accesses may be recorded: slot 0 as @want0,
 * slot 1 as @want1 (the slots above it empty), no counted entry. */
static void check_slots(const struct revocable__reader *rd,
			const void *want0, const void *want1, const char *when,
			long target)
{
	ck_assert_msg(rd->slot[0].rp == want0 && rd->slot[1].rp == want1 &&
		      !rd->slot[2].rp && rd->depth == (want1 != NULL) &&
		      !rd->overflow_depth,
		      "%s, handler after instruction %ld: slot 0 %p (want %p), slot 1 %p (want %p), slot 2 %p, depth %u, overflow %u",
		      when, target, (void *)rd->slot[0].rp, want0,
		      (void *)rd->slot[1].rp, want1, (void *)rd->slot[2].rp,
		      rd->depth, rd->overflow_depth);
}

/*
 * Single-steps try_access and release of a registered thread, with a
 * handler's accesses after each instruction in turn: the fast path
 * (inline, and the exported calls) with slot 0 free, then the slow path
 * of a nested access of the same provider and its release, then the slow
 * paths that leave slot 0 free as their last store: an out-of-order
 * release (slot 0 a hole under a nested access) and the release that
 * settles the hole, where the handler takes slot 0 inline.  The
 * interrupted access must come out intact whatever instruction the handler
 * followed: recorded while held (slot 0, marked while the nested one is
 * held), so a revoke still waits for it, and gone after its release.
 */
/* What a stepped first access left, read by its own thread. */
struct first_access_run {
	struct revocable *rev;
	long target;
	bool fired, window_closed;
	void *res;
	const void *slot0_held, *slot1_held, *slot0_after;
	unsigned int depth_held;
};

static void *first_access_thread(void *arg)
{
	struct first_access_run *run = arg;
	struct revocable__reader *rd;

	step_sentinel = revocable__tls_reader;	/* not registered yet */
	step_window_closed = 0;
	run->fired = step_once(STEP_ACCESS, run->rev, run->target, &run->res);
	step_sentinel = NULL;
	run->window_closed = step_window_closed;
	rd = revocable__tls_reader;
	run->slot0_held = rd->slot[0].rp;
	run->slot1_held = rd->slot[1].rp;
	run->depth_held = rd->depth;
	revocable_release(run->rev);
	run->slot0_after = rd->slot[0].rp;
	return NULL;
}

/*
 * A thread's first access registers it: its record is published, then
 * the access is recorded.  A handler after each instruction from the
 * publication on (a fresh thread per run) makes its two accesses and
 * out-of-order releases, until slot 0 names the access's provider (the
 * window is closed; each run steps all of the registration, thousands of
 * instructions under a sanitizer); the first access must come out
 * recorded in slot 0 alone, and its release must leave slot 0 free.
 */
START_TEST(test_signal_in_first_access)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES);
	struct revocable_provider *rp_h = revocable_provider_alloc(RES);
	struct sigaction sa = { .sa_sigaction = step_trap,
				.sa_flags = SA_SIGINFO };
	struct first_access_run run = { .rev = revocable_alloc(rp) };
	pthread_t thread;

	step_rev_handler[0] = revocable_alloc(rp_h);
	step_rev_handler[1] = revocable_alloc(rp);
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGTRAP, &sa, NULL), 0);
	step_window_provider = rp;
	step_in_slow_path = 1;
	for (run.target = 1;; run.target++) {
		ck_assert_int_eq(pthread_create(&thread, NULL, first_access_thread, &run), 0);
		ck_assert_int_eq(pthread_join(thread, NULL), 0);
		ck_assert_ptr_eq(run.res, RES);
		ck_assert_msg(run.slot0_held == rp && !run.slot1_held && !run.depth_held &&
			      !run.slot0_after,
			      "first access, handler %ld instructions after the record's publication: slot 0 %p (want %p), slot 1 %p, depth %u; after the release slot 0 %p",
			      run.target, run.slot0_held, (void *)rp, run.slot1_held,
			      run.depth_held, run.slot0_after);
		if (!run.fired || run.window_closed)
			break;
	}
	step_in_slow_path = 0;
	ck_assert_msg(run.target > 3, "only %ld steps after the publication",
		      run.target - 1);
	ck_assert_int_eq(revocable_provider_revoke(rp_h), 1);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);

	revocable_free(run.rev);
	revocable_free(step_rev_handler[0]);
	revocable_free(step_rev_handler[1]);
	revocable_provider_free(rp);
	revocable_provider_free(rp_h);
	revocable_barrier();
}
END_TEST

START_TEST(test_signal_at_every_fast_path_step)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES);
	struct revocable_provider *rp_h = revocable_provider_alloc(RES);
	struct revocable_provider *rp2 = revocable_provider_alloc(RES);
	struct revocable *rev = revocable_alloc(rp), *rev2;
	struct sigaction sa = { .sa_sigaction = step_trap,
				.sa_flags = SA_SIGINFO };
	void *marked = (void *)((uintptr_t)rp | 1);
	const void *hole;
	struct revocable__reader *rd;
	long target, steps[2] = { 0, 0 };
	void *res;
	int calls;
	bool fired;

	step_rev_handler[0] = revocable_alloc(rp_h);
	rev2 = revocable_alloc(rp2);
	step_rev_handler[1] = revocable_alloc(rp);
	ck_assert_ptr_eq(revocable_try_access(rev), RES);	/* registers */
	revocable_release(rev);
	rd = revocable__tls_reader;
	check_slots(rd, NULL, NULL, "before", 0);
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGTRAP, &sa, NULL), 0);

	for (calls = 0; calls < 2; calls++) {
		for (target = 1;; target++) {
			res = NULL;
			fired = step_once(calls ? STEP_ACCESS_CALL : STEP_ACCESS,
					  rev, target, &res);
			ck_assert_ptr_eq(res, RES);
			check_slots(rd, rp, NULL, calls ? "exported access" :
				    "inline access", target);
			fired |= step_once(calls ? STEP_RELEASE_CALL : STEP_RELEASE,
					   rev, target, NULL);
			check_slots(rd, NULL, NULL, calls ? "exported release" :
				    "inline release", target);
			if (!fired)
				break;
		}
		ck_assert_msg(target > 4, "only %ld steps: the trap flag did not work",
			      target - 1);
	}
	ck_assert_int_eq(step_handler_bad, 0);

	ck_assert_ptr_eq(revocable_try_access(rev), RES);
	step_in_slow_path = 1;
	for (target = 1;; target++) {
		res = NULL;
		fired = step_once(STEP_ACCESS, rev, target, &res);
		if (fired)
			steps[0] = target;
		ck_assert_ptr_eq(res, RES);
		check_slots(rd, marked, rp, "nested access", target);
		if (step_once(STEP_RELEASE, rev, target, NULL)) {
			fired = true;
			steps[1] = target;
		}
		check_slots(rd, rp, NULL, "nested release", target);
		if (!fired)
			break;
	}
	step_in_slow_path = 0;
	ck_assert_msg(steps[0] > 20 && steps[1] > 20,
		      "only %ld and %ld steps in the slow path", steps[0], steps[1]);
	revocable_release(rev);
	check_slots(rd, NULL, NULL, "outer release", 0);

	/*
	 * The slow paths that leave slot 0 free: an out-of-order release
	 * (the outer access of P while a nested one of P2 is held: slot 0
	 * becomes a hole) and the release that ends the nesting (slot 0
	 * settled to NULL as its last store).  A handler after any of their
	 * instructions may find slot 0 free and take the fast path there.
	 */
	ck_assert_ptr_eq(revocable_try_access(rev), RES);
	ck_assert_ptr_eq(revocable_try_access(rev2), RES);
	revocable_release(rev);
	hole = rd->slot[0].rp;	/* the library's hole mark, not a provider */
	ck_assert(hole && hole != rp && hole != rp2);
	check_slots(rd, hole, rp2, "out-of-order release, unstepped", 0);
	revocable_release(rev2);
	check_slots(rd, NULL, NULL, "release over the hole, unstepped", 0);
	step_in_slow_path = 1;
	for (target = 1;; target++) {
		ck_assert_ptr_eq(revocable_try_access(rev), RES);
		ck_assert_ptr_eq(revocable_try_access(rev2), RES);
		fired = step_once(STEP_RELEASE, rev, target, NULL);
		check_slots(rd, hole, rp2, "out-of-order release", target);
		fired |= step_once(STEP_RELEASE, rev2, target, NULL);
		check_slots(rd, NULL, NULL, "release over the hole", target);
		if (!fired)
			break;
	}
	step_in_slow_path = 0;
	ck_assert_msg(target > 20, "only %ld steps in the hole's slow paths", target - 1);
	ck_assert_ptr_eq(revocable_try_access(rev), RES);
	check_slots(rd, rp, NULL, "access after the hole", 0);
	revocable_release(rev);

	revocable_free(rev);
	revocable_free(rev2);
	revocable_free(step_rev_handler[0]);
	revocable_free(step_rev_handler[1]);
	revocable_provider_free(rp);
	revocable_provider_free(rp2);
	revocable_provider_free(rp_h);
	revocable_barrier();
}
END_TEST
#endif

int main(void)
{
	Suite *s = suite_create("revocable_defects");
	TCase *tc = tcase_create("defects");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_async_done_frees_embedded);
	tcase_add_test(tc, test_teardown_release_revokes_self);
	tcase_add_test(tc, test_teardown_release_revokes_self_async);
	tcase_add_test(tc, test_teardown_release_frees_self);
	tcase_add_test(tc, test_barrier_ignores_later_work);
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
	tcase_add_test(tc, test_signal_at_every_fast_path_step);
	tcase_add_test(tc, test_signal_in_first_access);
#endif
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
