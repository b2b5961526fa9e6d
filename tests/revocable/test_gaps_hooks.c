// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Promises of revocable(3) and docs/design.md that had no test
 * (notes/claims26.md, GAPS) and need the library's internals or its
 * test-only seams (REVOCABLE_TEST_HOOKS, as test_hooks.c): what a fork()
 * child forgets (async revokes in flight, other threads' counted
 * accesses), a thread exiting while a revoke waits for it (the wake-up,
 * the record's lifetime), the records' alignment, and the schedule of a
 * revoker polling an overflow counter.  The library
 * sources are compiled into this test, which supplies the hooks.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "revocable_internal.h"
#include "test_util.h"

#define RES_LIVE	((void *)0x11fe)

/* The fork tests start no thread in the child, but TSan would still
 * refuse a threaded parent's fork by default. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}

/* ---- the library's hooks ---- */

static unsigned long revokers_woken;

/* A release or a thread's exit woke the revokers parked on its thread. */
void revocable__test_revokers_woken(void)
{
	__atomic_fetch_add(&revokers_woken, 1, __ATOMIC_SEQ_CST);
}

/*
 * Armed by a test, a revoker about to park stops here until the test
 * opens the gate: it has counted itself a waiter on the reader's slot,
 * holds its reference on the reader's record, and will read the record
 * again once it goes on.
 */
static struct {
	int armed, reached, open;
} park_gate;

void revocable__test_revoker_parks(void)
{
	int64_t start;

	if (!__atomic_load_n(&park_gate.armed, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&park_gate.reached, 1, __ATOMIC_SEQ_CST);
	start = now_ms();
	/* The test's own deadline fails it first; this one only ends the
	 * revoker's wait so that the test process can finish. */
	while (!__atomic_load_n(&park_gate.open, __ATOMIC_SEQ_CST) &&
	       now_ms() - start < 30000)
		sched_yield();
}

/* The first sleeps of the revokers polling an overflow counter, in ns. */
#define POLL_SLEEPS_KEPT 64
static long poll_sleeps[POLL_SLEEPS_KEPT];
static unsigned int poll_sleeps_seen;

void revocable__test_backoff_sleeps(long ns)
{
	unsigned int i = __atomic_fetch_add(&poll_sleeps_seen, 1, __ATOMIC_SEQ_CST);

	if (i < POLL_SLEEPS_KEPT)
		__atomic_store_n(&poll_sleeps[i], ns, __ATOMIC_SEQ_CST);
}

struct revoke_call {
	struct revocable_provider *rp;
	int ret;
};

static void *revoke_fn(void *arg)
{
	struct revoke_call *c = arg;

	c->ret = revocable_provider_revoke(c->rp);
	return NULL;
}

/* A thread that makes one access and holds it until told; then releases
 * it, or with @exit_inside exits inside it (a misuse, reported). */
struct holder {
	struct revocable *rev;
	struct revocable__reader *rd;
	bool exit_inside;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int inside, go;
};

static void *holder_fn(void *arg)
{
	struct holder *h = arg;

	ck_assert_ptr_eq(revocable_try_access(h->rev), RES_LIVE);
	pthread_mutex_lock(&h->lock);
	h->rd = current_reader();
	h->inside = 1;
	pthread_cond_broadcast(&h->cond);
	while (!h->go)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	if (!h->exit_inside)
		revocable_release(h->rev);
	return NULL;
}

static pthread_t holder_start(struct holder *h)
{
	pthread_t tid;

	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	tid = start_thread(holder_fn, h);
	pthread_mutex_lock(&h->lock);
	while (!h->inside)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	return tid;
}

static void holder_go(struct holder *h)
{
	pthread_mutex_lock(&h->lock);
	h->go = 1;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

/* ---- fork(): what the child forgets ---- */

static int async_done_calls;

static void count_async_done(struct revocable_provider *rp, void *arg)
{
	(void)rp;
	(void)arg;
	__atomic_fetch_add(&async_done_calls, 1, __ATOMIC_SEQ_CST);
}

/* The child's exit status: 0, or the step that failed. */
static void expect_child_ok(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFSIGNALED(status),
		      "the child died of signal %d (SIGALRM: it hung)",
		      WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child failed step %d", WEXITSTATUS(status));
}

/*
 * revocable(3) fork: "the child forgets ... asynchronous revokes in
 * flight".  An async revoke waits for another thread's access at the
 * fork: in the child neither exists, so revocable_barrier() returns
 * there and done() is never called; the parent's revoke goes on.
 */
START_TEST(test_fork_forgets_async_revoke_in_flight)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	struct holder h = { .rev = revocable_alloc(rp) };
	pthread_t tid = holder_start(&h);
	pid_t pid;

	ck_assert_int_eq(revocable_provider_revoke_async(rp, count_async_done,
							 NULL), 0);
	/* In flight until the holder leaves: it cannot end before the fork. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);	/* Check's handler is inherited */
		alarm(10);	/* a hang becomes SIGALRM, seen below */
		if (!cds_list_empty(&revocable__ctx.async_jobs))
			_exit(1);
		revocable_barrier();
		_exit(__atomic_load_n(&async_done_calls, __ATOMIC_SEQ_CST) ? 2 : 0);
	}
	expect_child_ok(pid);

	ck_assert_int_eq(__atomic_load_n(&async_done_calls, __ATOMIC_SEQ_CST), 0);
	holder_go(&h);
	join_within(tid, 10000, "the holder's release");
	revocable_barrier();
	ck_assert_int_eq(__atomic_load_n(&async_done_calls, __ATOMIC_SEQ_CST), 1);
	revocable_free(h.rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/* Another thread: the slots full of @fill, then one counted access to
 * each of @p and @q. */
struct counted_holder {
	struct revocable *fill, *p, *q;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int inside, go;
};

static void *counted_holder_fn(void *arg)
{
	struct counted_holder *c = arg;
	int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(c->fill), RES_LIVE);
	ck_assert_ptr_eq(revocable_try_access(c->p), RES_LIVE);
	ck_assert_ptr_eq(revocable_try_access(c->q), RES_LIVE);
	pthread_mutex_lock(&c->lock);
	c->inside = 1;
	pthread_cond_broadcast(&c->cond);
	while (!c->go)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	revocable_release(c->q);
	revocable_release(c->p);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(c->fill);
	return NULL;
}

static long overflow_count(const struct revocable_provider *rp)
{
	return __atomic_load_n(&rp->priv_overflow_readers, __ATOMIC_SEQ_CST);
}

/* The child of test_fork_recounts_overflow: the exit status is the step. */
static int fork_recount_child(struct counted_holder *c,
			      struct revocable_provider *p,
			      struct revocable_provider *q)
{
	signal(SIGALRM, SIG_DFL);
	alarm(10);
	if (overflow_count(p) != 2)
		return 1;	/* not the forking thread's own 2 */
	if (overflow_count(q) != 0)
		return 2;	/* the other thread's access not dropped */
	if (revocable_provider_revoke(q) != 1)
		return 3;
	if (revocable_provider_revoke(p) != -EDEADLK)
		return 4;	/* its own accesses are still held */
	revocable_release(c->p);
	revocable_release(c->p);
	if (overflow_count(p) != 0)
		return 5;
	if (revocable_provider_revoke(p) != 1)
		return 6;
	return 0;
}

/*
 * docs/design.md, "Off the happy path", fork(): "each provider its
 * overflow entries name gets the count of the forking thread's own
 * entries".  Another thread holds one counted access to each of P and Q
 * (beyond its slots), the forking thread two to P: 3 and 1 in the
 * parent, 2 and 0 in the child.  So in the child Q is revocable at once,
 * and P once the child released its own two accesses - with the other
 * thread's count left in, its revoke would never return.
 */
START_TEST(test_fork_recounts_overflow)
{
	struct revocable_provider *fill = revocable_provider_alloc(RES_LIVE);
	struct revocable_provider *p = revocable_provider_alloc(RES_LIVE);
	struct revocable_provider *q = revocable_provider_alloc(RES_LIVE);
	struct counted_holder c = { .fill = revocable_alloc(fill),
				    .p = revocable_alloc(p),
				    .q = revocable_alloc(q),
				    .lock = PTHREAD_MUTEX_INITIALIZER,
				    .cond = PTHREAD_COND_INITIALIZER };
	pthread_t tid;
	pid_t pid;
	int i;

	tid = start_thread(counted_holder_fn, &c);
	pthread_mutex_lock(&c.lock);
	while (!c.inside)
		pthread_cond_wait(&c.cond, &c.lock);
	pthread_mutex_unlock(&c.lock);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(c.fill), RES_LIVE);
	ck_assert_ptr_eq(revocable_try_access(c.p), RES_LIVE);
	ck_assert_ptr_eq(revocable_try_access(c.p), RES_LIVE);
	ck_assert_int_eq(overflow_count(p), 3);
	ck_assert_int_eq(overflow_count(q), 1);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(fork_recount_child(&c, p, q));
	expect_child_ok(pid);

	/* The parent's counts are its own business: untouched. */
	ck_assert_int_eq(overflow_count(p), 3);
	revocable_release(c.p);
	revocable_release(c.p);
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(c.fill);
	pthread_mutex_lock(&c.lock);
	c.go = 1;
	pthread_cond_broadcast(&c.cond);
	pthread_mutex_unlock(&c.lock);
	join_within(tid, 10000, "the other thread's releases");
	ck_assert_int_eq(revocable_provider_revoke(p), 1);
	ck_assert_int_eq(revocable_provider_revoke(q), 1);
	revocable_free(c.fill);
	revocable_free(c.p);
	revocable_free(c.q);
	revocable_provider_free(fill);
	revocable_provider_free(p);
	revocable_provider_free(q);
	revocable_barrier();
}
END_TEST

/* ---- a thread exiting while a revoke waits for it ---- */

struct exit_join {
	struct holder *e;
	pthread_t tid;
};

static void let_holder_exit(void *arg)
{
	struct exit_join *j = arg;

	holder_go(j->e);
	join_within(j->tid, 10000, "the exiting thread");
}

/*
 * docs/design.md, "Waking the revoker": "Thread exit, which clears a
 * dying thread's slots, wakes waiters too"; "Why the scan cannot miss a
 * slot": "A record whose thread exits during the wait stays allocated
 * (the revoker holds a reference)".  The revoker is held at its park on
 * the thread's slot (the hook's gate) while the thread exits inside its
 * access: the exit must wake it (the wake-up hook counts it; the 20 ms
 * bound of the park would end a missed wake-up too, so the revoke's
 * return alone proves nothing), and the record must still be there with
 * the revoker's reference (one: the registry's went with the thread).
 * Under ASan a record freed early is a use-after-free at that read and
 * at the revoker's next look at the slot.
 */
START_TEST(test_exit_during_wait_wakes_revoker)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	struct holder e = { .rev = revocable_alloc(rp), .exit_inside = true };
	struct exit_join j = { .e = &e };
	struct revoke_call call = { .rp = rp, .ret = 99 };
	struct reader_record *rec;
	unsigned long woken;
	pthread_t revoker;
	const char *err;
	int64_t start;

	j.tid = holder_start(&e);
	rec = to_record(e.rd);

	__atomic_store_n(&park_gate.armed, 1, __ATOMIC_SEQ_CST);
	revoker = start_thread(revoke_fn, &call);
	start = now_ms();
	while (!__atomic_load_n(&park_gate.reached, __ATOMIC_SEQ_CST)) {
		ck_assert_msg(now_ms() - start < 10000,
			      "the revoker never parked on the thread's access");
		sched_yield();
	}
	ck_assert_int_eq(__atomic_load_n(&rec->refs, __ATOMIC_SEQ_CST), 2);
	woken = __atomic_load_n(&revokers_woken, __ATOMIC_SEQ_CST);

	err = stderr_of(let_holder_exit, &j);
	ck_assert_msg(strstr(err, "thread exited inside 1 access(es); dropped"),
		      "no report of the thread's exit inside its access: '%s'",
		      err);
	ck_assert_msg(__atomic_load_n(&revokers_woken, __ATOMIC_SEQ_CST) > woken,
		      "the thread's exit did not wake the revoker parked on its slot");
	ck_assert_msg(__atomic_load_n(&rec->refs, __ATOMIC_SEQ_CST) == 1,
		      "the exited thread's record is not held by the revoker alone");

	__atomic_store_n(&park_gate.open, 1, __ATOMIC_SEQ_CST);
	join_within(revoker, 10000, "the revoke after the thread exited");
	ck_assert_int_eq(call.ret, 1);
	revocable_free(e.rev);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/* ---- records are 64-byte aligned ---- */

#define ALIGN_THREADS 16

struct aligned_reader {
	struct revocable *rev;
	pthread_barrier_t *all_registered;
	uintptr_t record;
};

/* Register, note the record's address, and live until every thread has:
 * the records all exist at once, so none reuses another's memory. */
static void *aligned_reader_fn(void *arg)
{
	struct aligned_reader *r = arg;

	ck_assert_ptr_eq(revocable_try_access(r->rev), RES_LIVE);
	revocable_release(r->rev);
	r->record = (uintptr_t)to_record(current_reader());
	pthread_barrier_wait(r->all_registered);
	return NULL;
}

/*
 * docs/design.md, "Threads and memory": "records are 64-byte aligned (no
 * false sharing between readers)".  The records of 16 threads alive at
 * once: malloc()'s 16-byte alignment would make all of them 64-byte
 * aligned by chance once in 4^16.
 */
START_TEST(test_records_64_byte_aligned)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES_LIVE);
	struct aligned_reader r[ALIGN_THREADS];
	pthread_t tid[ALIGN_THREADS];
	pthread_barrier_t all_registered;
	int i;

	ck_assert_int_eq(pthread_barrier_init(&all_registered, NULL,
					      ALIGN_THREADS + 1), 0);
	for (i = 0; i < ALIGN_THREADS; i++) {
		r[i] = (struct aligned_reader){ .rev = revocable_alloc(rp),
						.all_registered = &all_registered };
		tid[i] = start_thread(aligned_reader_fn, &r[i]);
	}
	pthread_barrier_wait(&all_registered);
	for (i = 0; i < ALIGN_THREADS; i++) {
		join_within(tid[i], 10000, "a registered thread");
		ck_assert_msg(r[i].record % 64 == 0,
			      "thread %d's record at %#lx is not 64-byte aligned",
			      i, (unsigned long)r[i].record);
		revocable_free(r[i].rev);
	}
	pthread_barrier_destroy(&all_registered);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_provider_free(rp);
	revocable_barrier();
}
END_TEST

/* ---- the overflow counter's poll ---- */

/* 1 us doubling: 1, 2, 4 ... 512 us, then the 1 ms cap. */
#define POLL_SLEEPS_WANTED 14

/*
 * docs/design.md, Revoke step 5 and Known limits: a revoke waiting for a
 * counted access (one nested beyond the slots) polls the provider's
 * overflow counter, sleeping "1 us doubling to 1 ms", so "at most every
 * 1 ms".  This thread holds the counted access while a revoke of its
 * provider waits, until the hook has seen the revoker sleep 14 times;
 * then each sleep must be the schedule's, none longer than 1 ms.
 */
START_TEST(test_overflow_poll_schedule)
{
	struct revocable_provider *fill = revocable_provider_alloc(RES_LIVE);
	struct revocable_provider *p = revocable_provider_alloc(RES_LIVE);
	struct revocable *rev_fill = revocable_alloc(fill);
	struct revocable *rev_p = revocable_alloc(p);
	struct revoke_call call = { .rp = p };
	pthread_t revoker;
	unsigned int i, seen;
	int64_t start;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		ck_assert_ptr_eq(revocable_try_access(rev_fill), RES_LIVE);
	ck_assert_ptr_eq(revocable_try_access(rev_p), RES_LIVE);
	ck_assert_int_eq(__atomic_load_n(&p->priv_overflow_readers,
					 __ATOMIC_SEQ_CST), 1);

	revoker = start_thread(revoke_fn, &call);
	start = now_ms();
	while (__atomic_load_n(&poll_sleeps_seen, __ATOMIC_SEQ_CST) <
	       POLL_SLEEPS_WANTED) {
		ck_assert_msg(now_ms() - start < 10000,
			      "the revoker slept %u times polling the overflow counter within 10 s, not %d",
			      __atomic_load_n(&poll_sleeps_seen, __ATOMIC_SEQ_CST),
			      POLL_SLEEPS_WANTED);
		sched_yield();
	}
	revocable_release(rev_p);
	join_within(revoker, 10000, "the revoke once the counted access ended");
	ck_assert_int_eq(call.ret, 1);

	seen = __atomic_load_n(&poll_sleeps_seen, __ATOMIC_SEQ_CST);
	for (i = 0; i < seen && i < POLL_SLEEPS_KEPT; i++) {
		long want = i < 10 ? 1000L << i : 1000000L;

		ck_assert_msg(poll_sleeps[i] == want,
			      "sleep %u of the overflow poll was %ld ns, not %ld",
			      i, poll_sleeps[i], want);
	}
	for (i = 0; i < REVOCABLE_READER_SLOTS; i++)
		revocable_release(rev_fill);
	revocable_free(rev_fill);
	revocable_free(rev_p);
	revocable_provider_free(p);
	ck_assert_int_eq(revocable_provider_revoke(fill), 1);
	revocable_provider_free(fill);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_gaps_hooks");
	TCase *tc = tcase_create("gaps_hooks");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fork_forgets_async_revoke_in_flight);
	tcase_add_test(tc, test_fork_recounts_overflow);
	tcase_add_test(tc, test_exit_during_wait_wakes_revoker);
	tcase_add_test(tc, test_records_64_byte_aligned);
	tcase_add_test(tc, test_overflow_poll_schedule);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
