// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librevocable through its test-only seams (REVOCABLE_TEST_HOOKS): the
 * library sources are compiled into this test, which supplies the hooks,
 * so what a counter does can be counted rather than timed.  The installed
 * library has no hook.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* ---- defect 3: fork() while another thread is inside a counted access ---- */

/* The fork test starts no thread in the child, but TSan would still
 * refuse a threaded parent's fork by default. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}

struct holder {
	struct revocable *rev;
	int depth;		/* accesses it makes, nested */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int inside, go;
	void *seen;
};

static void *holder_fn(void *arg)
{
	struct holder *h = arg;
	int i;

	for (i = 0; i < h->depth; i++)
		h->seen = revocable_try_access(h->rev);
	pthread_mutex_lock(&h->lock);
	h->inside = 1;
	pthread_cond_broadcast(&h->cond);
	while (!h->go)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	for (i = 0; i < h->depth; i++)
		revocable_release(h->rev);
	return NULL;
}

/*
 * Another thread holds @depth nested accesses to a provider (the last
 * ones counted); the child of a fork() must revoke it at once: the other
 * thread does not exist there.
 */
static void fork_while_counted(int depth)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	struct holder h = { .rev = revocable_alloc(rp), .depth = depth };
	pthread_t tid;
	int status;
	pid_t pid;

	pthread_mutex_init(&h.lock, NULL);
	pthread_cond_init(&h.cond, NULL);
	tid = start_thread(holder_fn, &h);
	pthread_mutex_lock(&h.lock);
	while (!h.inside)
		pthread_cond_wait(&h.cond, &h.lock);
	pthread_mutex_unlock(&h.lock);
	ck_assert_ptr_eq(h.seen, RES_LIVE);
	ck_assert_int_gt(__atomic_load_n(&rp->priv_overflow_readers,
					 __ATOMIC_SEQ_CST), 0);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);	/* Check's handler is inherited */
		alarm(10);	/* a hang becomes SIGALRM, seen below */
		_exit(revocable_provider_revoke(rp) == 1 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFSIGNALED(status),
		      "the child's revoke died of signal %d (SIGALRM: it waited for a thread the child does not have)",
		      WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child's revoke did not return 1");

	pthread_mutex_lock(&h.lock);
	h.go = 1;
	pthread_cond_broadcast(&h.cond);
	pthread_mutex_unlock(&h.lock);
	join_within(tid, 10000, "the holder's releases");
	revocable_free(h.rev);
	revocable_provider_free(rp);
	revocable_barrier();
}

START_TEST(test_fork_other_thread_nested_counted)
{
	fork_while_counted(REVOCABLE_READER_SLOTS + 2);
}
END_TEST

/* Without membarrier every access is counted: the same, in that mode.
 * Check runs each test in a process of its own, so the mode set here,
 * before the library's first use, is this test's alone. */
START_TEST(test_fork_other_thread_counted_no_membarrier)
{
	ck_assert_int_eq(setenv("REVOCABLE_NO_MEMBARRIER", "1", 1), 0);
	revocable__context_ensure();
	ck_assert_msg(!revocable__ctx.use_membarrier,
		      "REVOCABLE_NO_MEMBARRIER=1 not in effect (is CK_FORK=no set?)");
	fork_while_counted(1);
}
END_TEST

/*
 * Without membarrier no access uses a slot: slot 0 holds SLOT_SLOW for
 * good and every access is counted.  The slow release's slot branch
 * relies on it: it orders its waiter check with a compiler barrier only,
 * which the revoker's sys_membarrier() makes a fence (docs/design.md,
 * "Read side").
 */
START_TEST(test_no_membarrier_uses_no_slot)
{
	static int res;
	struct revocable_provider *rp;
	struct revocable *rev;
	struct revocable__reader *rd;
	unsigned int i;

	ck_assert_int_eq(setenv("REVOCABLE_NO_MEMBARRIER", "1", 1), 0);
	revocable__context_ensure();
	ck_assert_msg(!revocable__ctx.use_membarrier,
		      "REVOCABLE_NO_MEMBARRIER=1 not in effect (is CK_FORK=no set?)");
	rp = revocable_provider_alloc(&res);
	rev = revocable_alloc(rp);
	ck_assert_ptr_eq(revocable_try_access(rev), &res);
	ck_assert_ptr_eq(revocable_try_access(rev), &res);
	rd = revocable__tls_reader;
	ck_assert_ptr_eq(rd->slot[0].rp, SLOT_SLOW);
	for (i = 1; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_null(rd->slot[i].rp);
	ck_assert_uint_eq(rd->depth, 0);
	ck_assert_uint_eq(rd->overflow_depth, 2);
	revocable_release(rev);
	revocable_release(rev);
	ck_assert_ptr_eq(rd->slot[0].rp, SLOT_SLOW);
	ck_assert_uint_eq(rd->overflow_depth, 0);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/*
 * Builds may be mixed: a program built without TSan may inline its read
 * side against a TSan-built library, and that read side is ordered only by
 * the revoker's sys_membarrier(). So every build issues it on a revoke,
 * TSan's included (whose own readers would not need it).
 */
START_TEST(test_revoke_issues_membarrier_in_every_build)
{
	static int res;
	struct revocable_provider *rp = revocable_provider_alloc(&res);
	struct revocable *rev;
	uint64_t before;

	ck_assert_ptr_nonnull(rp);
	rev = revocable_alloc(rp);
	ck_assert_ptr_nonnull(rev);
	ck_assert_ptr_eq(revocable_try_access(rev), &res);	/* registers this thread */
	revocable_release(rev);
	ck_assert_msg(revocable__ctx.use_membarrier,
		      "this kernel offers no private expedited membarrier");
	before = __atomic_load_n(&revocable__ctx.membarriers, __ATOMIC_RELAXED);
	ck_assert_int_ge(revocable_provider_revoke(rp), 0);
	ck_assert_msg(__atomic_load_n(&revocable__ctx.membarriers, __ATOMIC_RELAXED) > before,
		      "the revoke published NULL without sys_membarrier()");
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/* ---- defect 9: registration ids wrapping (ILP32: after 2^32 threads) ---- */

#define WRAP_READERS 3

struct wrap_reader {
	struct revocable *rev;
	struct revocable__reader *rd;	/* its record, for the waiters */
	pthread_mutex_t *lock;
	pthread_cond_t *cond;
	int inside, go;
};

static void *wrap_reader_fn(void *arg)
{
	struct wrap_reader *r = arg;
	void *res = revocable_try_access(r->rev);

	pthread_mutex_lock(r->lock);
	r->rd = current_reader();
	r->inside = res == RES_LIVE;
	pthread_cond_broadcast(r->cond);
	while (!r->go)
		pthread_cond_wait(r->cond, r->lock);
	__atomic_store_n(&r->inside, 0, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(r->lock);
	revocable_release(r->rev);
	return NULL;
}

static struct wrap_reader wrap_readers[WRAP_READERS];
static int wrap_release_saw_inside = -1;

static void wrap_release(void *res, void *arg)
{
	int i, n = 0;

	(void)res;
	(void)arg;
	for (i = 0; i < WRAP_READERS; i++)
		n += __atomic_load_n(&wrap_readers[i].inside, __ATOMIC_SEQ_CST);
	wrap_release_saw_inside = n;
}

static void *revoke_fn(void *arg)
{
	return (void *)(intptr_t)revocable_provider_revoke(arg);
}

/*
 * Three readers registered across the id counter's wrap, all inside an
 * access: the revoke must wait for each in turn.  The revoker parking on
 * a reader (its waiters count) is the reported condition that lets the
 * test release that reader; a release callback that runs while one is
 * still inside is the failure.  The counter is started near its end
 * through the library's internal context (test build only: no such hook
 * exists in the installed library or revocable.sym).
 */
START_TEST(test_reader_ids_wrap)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	pthread_t tid[WRAP_READERS], revoker;
	int i, released = 0;
	int64_t start;

	revocable__context_ensure();
	revocable__ctx.next_id = (__typeof__(revocable__ctx.next_id))-2;
	ck_assert_int_eq(revocable_provider_set_release(rp, wrap_release, NULL),
			 0);
	for (i = 0; i < WRAP_READERS; i++) {
		struct wrap_reader *r = &wrap_readers[i];

		r->rev = revocable_alloc(rp);
		r->lock = &lock;
		r->cond = &cond;
		tid[i] = start_thread(wrap_reader_fn, r);
		pthread_mutex_lock(&lock);
		while (!r->rd)
			pthread_cond_wait(&cond, &lock);
		pthread_mutex_unlock(&lock);
		ck_assert_int_eq(r->inside, 1);
	}
	ck_assert_msg(to_record(wrap_readers[2].rd)->id <
		      to_record(wrap_readers[1].rd)->id,
		      "the ids did not wrap: the test proves nothing");

	revoker = start_thread(revoke_fn, rp);
	start = now_ms();
	while (released < WRAP_READERS) {
		ck_assert_msg(wrap_release_saw_inside < 0,
			      "the release callback ran with %d reader(s) still inside",
			      wrap_release_saw_inside);
		for (i = 0; i < WRAP_READERS; i++) {
			struct wrap_reader *r = &wrap_readers[i];

			if (r->go || !__atomic_load_n(&r->rd->waiters,
						      __ATOMIC_SEQ_CST))
				continue;
			pthread_mutex_lock(&lock);
			r->go = 1;
			pthread_cond_broadcast(&cond);
			pthread_mutex_unlock(&lock);
			join_within(tid[i], 10000, "a released reader");
			released++;
		}
		ck_assert_msg(now_ms() - start < 10000,
			      "the revoker never parked on the %d reader(s) left",
			      WRAP_READERS - released);
		sched_yield();
	}
	join_within(revoker, 10000, "the revoke after its readers left");
	ck_assert_int_eq(wrap_release_saw_inside, 0);
	for (i = 0; i < WRAP_READERS; i++)
		revocable_free(wrap_readers[i].rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/* ---- defect 5: every release woke a revoker waiting on the thread ---- */

static unsigned long revokers_woken;

/* The library's hook: a release woke the revokers parked on its thread. */
void revocable__test_revokers_woken(void)
{
	__atomic_fetch_add(&revokers_woken, 1, __ATOMIC_SEQ_CST);
}

struct busy_reader {
	struct revocable *rev_a, *rev_b;
	struct revocable__reader *rd;
	int inside, go, b_rounds;
	unsigned long woken_by_b;
	const char *stuck;
};

/*
 * Inside A while a revoke of A waits, the thread works on B: each of its
 * releases of B comes while the revoker is parked on it (its waiters
 * count, the reported condition), and none may wake the revoker.
 */
static void *busy_reader_fn(void *arg)
{
	struct busy_reader *r = arg;
	unsigned long before;
	int i;

	if (revocable_try_access(r->rev_a) != RES_LIVE)
		return (void *)"no access to A";
	r->rd = current_reader();
	__atomic_store_n(&r->inside, 1, __ATOMIC_SEQ_CST);
	before = __atomic_load_n(&revokers_woken, __ATOMIC_SEQ_CST);
	for (i = 0; i < r->b_rounds; i++) {
		int64_t start = now_ms();

		while (!__atomic_load_n(&r->rd->waiters, __ATOMIC_SEQ_CST)) {
			if (now_ms() - start > 10000) {
				r->stuck = "the revoker of A never parked on the reader";
				break;
			}
			sched_yield();
		}
		if (revocable_try_access(r->rev_b) != RES_GONE)
			return (void *)"no access to B";
		revocable_release(r->rev_b);
	}
	r->woken_by_b = __atomic_load_n(&revokers_woken, __ATOMIC_SEQ_CST) -
			before;
	revocable_release(r->rev_a);
	return NULL;
}

START_TEST(test_unrelated_release_wakes_no_revoker)
{
	struct revocable_provider *a = revocable_provider_alloc(RES_LIVE);
	struct revocable_provider *b = revocable_provider_alloc(RES_GONE);
	struct busy_reader r = { .rev_a = revocable_alloc(a),
				 .rev_b = revocable_alloc(b), .b_rounds = 50 };
	pthread_t reader, revoker;
	int64_t start = now_ms();
	void *err;

	reader = start_thread(busy_reader_fn, &r);
	while (!__atomic_load_n(&r.inside, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < 10000, "the reader never got inside A");
		sched_yield();
	}
	revoker = start_thread(revoke_fn, a);
	ck_assert_int_eq(pthread_join(reader, &err), 0);
	ck_assert_msg(!err, "%s", (const char *)err);
	ck_assert_msg(!r.stuck, "%s", r.stuck);
	ck_assert_msg(r.woken_by_b == 0,
		      "%lu of %d releases of B woke the revoker waiting for A",
		      r.woken_by_b, r.b_rounds);
	join_within(revoker, 10000, "the revoke of A after the reader left");
	revocable_free(r.rev_a);
	revocable_free(r.rev_b);
	revocable_provider_free(a);
	revocable_provider_free(b);
	revocable_barrier();
}
END_TEST

/* ---- defect 5: a waiting revoker re-parked with a membarrier each time ---- */

static unsigned long revoker_parks;

/* The library's hook: a revoker is about to sleep on a reader's futex. */
void revocable__test_revoker_parks(void)
{
	__atomic_fetch_add(&revoker_parks, 1, __ATOMIC_SEQ_CST);
}

/* Parks of the revoker a long wait is made of: each beyond the first
 * is the bounded sleep running out (or a wake-up finding the slot busy). */
#define LONG_WAIT_PARKS 6

/*
 * A revoke that waits for a reader issues one membarrier to publish and
 * one when it first parks on the reader, and no more however often it
 * parks again: the reader stays inside A until the revoker has parked
 * LONG_WAIT_PARKS times (the hook's count, the reported condition), making
 * releases of B meanwhile.  Re-parking with a fresh membarrier, as before,
 * gave one per park.
 */
START_TEST(test_long_wait_membarriers_bounded)
{
	struct revocable_provider *a = revocable_provider_alloc(RES_LIVE);
	struct revocable_provider *b = revocable_provider_alloc(RES_GONE);
	struct revocable *rev_a = revocable_alloc(a), *rev_b = revocable_alloc(b);
	uint64_t before, issued;
	pthread_t revoker;
	int64_t start;

	ck_assert_ptr_eq(revocable_try_access(rev_a), RES_LIVE);
	ck_assert_msg(revocable__ctx.use_membarrier,
		      "this kernel offers no private expedited membarrier");
	before = __atomic_load_n(&revocable__ctx.membarriers, __ATOMIC_SEQ_CST);
	revoker = start_thread(revoke_fn, a);
	start = now_ms();
	while (__atomic_load_n(&revoker_parks, __ATOMIC_SEQ_CST) < LONG_WAIT_PARKS) {
		ck_assert_msg(now_ms() - start < 20000,
			      "the revoker of A parked %lu times, not %d, in 20 s",
			      __atomic_load_n(&revoker_parks, __ATOMIC_SEQ_CST),
			      LONG_WAIT_PARKS);
		ck_assert_ptr_eq(revocable_try_access(rev_b), RES_GONE);
		revocable_release(rev_b);
		sched_yield();
	}
	issued = __atomic_load_n(&revocable__ctx.membarriers, __ATOMIC_SEQ_CST) -
		 before;
	revocable_release(rev_a);
	join_within(revoker, 10000, "the revoke of A after the reader left");
	/* Exactly 2 in every build: the TSan build's own readers need
	 * neither, but a plain program's inlined read side against it does
	 * (docs/design.md, TSan mode); this runs in the TSan stage too. */
	ck_assert_msg(issued == 2,
		      "%llu membarriers while the revoke waited through %d parks (1 to publish + 1 at the first park on the slot = 2)",
		      (unsigned long long)issued, LONG_WAIT_PARKS);
	revocable_free(rev_a);
	revocable_free(rev_b);
	revocable_provider_free(a);
	revocable_provider_free(b);
	revocable_barrier();
}
END_TEST

static int release_calls, other_release_calls, set_release_ret = 1;

static void count_release(void *res, void *arg)
{
	__atomic_fetch_add((int *)arg, 1, __ATOMIC_SEQ_CST);
}

static void *set_release_fn(void *arg)
{
	__atomic_store_n(&set_release_ret,
			 revocable_provider_set_release(arg, count_release,
							&other_release_calls),
			 __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * revocable_provider_is_revoked(3): "true once a revocation of rp has
 * begun"; revocable_provider_set_release(3): "-EBUSY if a revocation has
 * begun".  Not only after the revoke returned: while it waits for this
 * thread's access (the revoker reports itself parked), both already
 * hold, and the release callback set before the revoke is the one run.
 */
START_TEST(test_revoke_in_progress_is_revoked_busy)
{
	struct revocable_provider *a = revocable_provider_alloc(RES_LIVE);
	struct revocable *rev_a = revocable_alloc(a);
	unsigned long parks = __atomic_load_n(&revoker_parks, __ATOMIC_SEQ_CST);
	pthread_t revoker, setter;
	int64_t start;

	ck_assert_int_eq(revocable_provider_set_release(a, count_release,
							&release_calls), 0);
	ck_assert_ptr_eq(revocable_try_access(rev_a), RES_LIVE);
	ck_assert(!revocable_provider_is_revoked(a));
	revoker = start_thread(revoke_fn, a);
	start = now_ms();
	while (__atomic_load_n(&revoker_parks, __ATOMIC_SEQ_CST) == parks) {
		ck_assert_msg(now_ms() - start < 10000,
			      "the revoker never parked on this thread's access");
		sched_yield();
	}

	/* The revoke is in progress: it cannot end while we hold A. */
	ck_assert_msg(revocable_provider_is_revoked(a),
		      "is_revoked false while a revoke waits for a reader");
	setter = start_thread(set_release_fn, a);
	join_within(setter, 10000, "set_release during the revoke");
	ck_assert_int_eq(__atomic_load_n(&set_release_ret, __ATOMIC_SEQ_CST),
			 -EBUSY);

	revocable_release(rev_a);
	join_within(revoker, 10000, "the revoke of A after the reader left");
	revocable_barrier();
	ck_assert_int_eq(__atomic_load_n(&release_calls, __ATOMIC_SEQ_CST), 1);
	ck_assert_int_eq(__atomic_load_n(&other_release_calls,
					 __ATOMIC_SEQ_CST), 0);
	revocable_free(rev_a);
	revocable_provider_free(a);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_hooks");
	TCase *tc = tcase_create("hooks");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_overflow_revoked_not_counted);
	tcase_add_test(tc, test_fork_other_thread_nested_counted);
	tcase_add_test(tc, test_fork_other_thread_counted_no_membarrier);
	tcase_add_test(tc, test_no_membarrier_uses_no_slot);
	tcase_add_test(tc, test_revoke_issues_membarrier_in_every_build);
	tcase_add_test(tc, test_reader_ids_wrap);
	tcase_add_test(tc, test_unrelated_release_wakes_no_revoker);
	tcase_add_test(tc, test_long_wait_membarriers_bounded);
	tcase_add_test(tc, test_revoke_in_progress_is_revoked_busy);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
