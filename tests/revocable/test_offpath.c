// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librevocable off the happy path: an embedded provider whose memory goes
 * the moment its last reference is dropped, fork() while the library's
 * worker is busy, the release callback calling back into the library, and
 * the misuse reports.  Each test makes the failure loud in any build: freed
 * memory is unmapped (a touch is SIGSEGV, not silent corruption), a hang
 * is a deadline that fails the test.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <revocable.h>

#include "test_util.h"

#define RES	((void *)0x5e50)

/*
 * The fork tests start threads in the child of a threaded parent, which
 * TSan refuses by default (it cannot vouch for its own state there).  The
 * library's fork handling is what is under test, so let TSan go on; the
 * TSan runtime reads this hook, other builds never call it.
 */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}

/* ---- a deferred free that blocks, to hold the library's worker busy ---- */

struct blocker {
	struct revocable_provider rp;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int busy, go, freed;
};

static void blocker_free(struct revocable_provider *rp)
{
	struct blocker *b = caa_container_of(rp, struct blocker, rp);

	pthread_mutex_lock(&b->lock);
	b->busy = 1;
	pthread_cond_broadcast(&b->cond);
	while (!b->go)
		pthread_cond_wait(&b->cond, &b->lock);
	b->freed = 1;
	pthread_mutex_unlock(&b->lock);
}

/* Drop the blocker's last reference and wait until the worker is in it. */
static void blocker_start(struct blocker *b)
{
	int64_t start = now_ms();

	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->cond, NULL);
	b->busy = b->go = b->freed = 0;
	revocable_provider_init(&b->rp, RES, blocker_free);
	revocable_provider_free(&b->rp);
	pthread_mutex_lock(&b->lock);
	while (!b->busy) {
		pthread_mutex_unlock(&b->lock);
		ck_assert_msg(now_ms() - start < 5000,
			      "deferred free never started on the worker");
		sched_yield();
		pthread_mutex_lock(&b->lock);
	}
	pthread_mutex_unlock(&b->lock);
}

static void blocker_finish(struct blocker *b)
{
	pthread_mutex_lock(&b->lock);
	b->go = 1;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
	revocable_barrier();
	ck_assert_int_eq(b->freed, 1);
}

/* ---- 3: an embedded provider with no free_fn ---- */

struct device {
	struct revocable_provider rp;
	int value;
};

static int release_runs;

static void count_release(void *res, void *arg)
{
	(void)res;
	(void)arg;
	__atomic_fetch_add(&release_runs, 1, __ATOMIC_SEQ_CST);
}

static struct device *device_map(void)
{
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(mem, MAP_FAILED);
	return mem;
}

/*
 * revocable_provider_free() drops the last reference: the caller may free
 * the memory at once (kref users do).  The worker is held busy so that
 * anything the library deferred runs after the unmap - and faults.
 */
START_TEST(test_embedded_no_free_fn_revoked)
{
	struct blocker b;
	struct device *d = device_map();
	struct revocable *rev;

	blocker_start(&b);
	revocable_provider_init(&d->rp, RES, NULL);
	ck_assert_int_eq(revocable_provider_set_release(&d->rp, count_release,
							NULL), 0);
	rev = revocable_alloc(&d->rp);
	ck_assert_ptr_eq(revocable_try_access(rev), RES);
	revocable_release(rev);
	revocable_free(rev);
	revocable_provider_free(&d->rp);
	ck_assert_int_eq(release_runs, 1);
	ck_assert_int_eq(munmap(d, 4096), 0);
	blocker_finish(&b);
}
END_TEST

/* Never revoked: the last put (of a handle here) must still run the
 * release callback once, from a library thread, without the memory. */
START_TEST(test_embedded_no_free_fn_never_revoked)
{
	struct blocker b;
	struct device *d = device_map();
	struct revocable *rev;

	blocker_start(&b);
	revocable_provider_init(&d->rp, RES, NULL);
	ck_assert_int_eq(revocable_provider_set_release(&d->rp, count_release,
							NULL), 0);
	rev = revocable_alloc(&d->rp);
	revocable_provider_put(&d->rp);		/* the owner's reference */
	revocable_free(rev);			/* the last one */
	ck_assert_int_eq(munmap(d, 4096), 0);
	blocker_finish(&b);
	ck_assert_int_eq(release_runs, 1);
}
END_TEST

/*
 * revocable(3): "An embedded provider without free_fn is finished with
 * when the call that drops its last reference (revocable_provider_free(),
 * revocable_provider_put(), revocable_free()) returns: its memory may be
 * freed at once."  The two tests above end with free and with
 * revocable_free(); here revocable_provider_put() drops the last
 * reference, of a provider revoked before and of one never revoked (whose
 * release callback is still due), and the memory is unmapped right after
 * the put, with the worker held busy so that anything deferred runs after.
 */
START_TEST(test_embedded_no_free_fn_put_last)
{
	struct blocker b;
	struct device *revoked = device_map(), *live = device_map();
	struct revocable rev;

	blocker_start(&b);
	revocable_provider_init(&revoked->rp, RES, NULL);
	ck_assert_int_eq(revocable_provider_set_release(&revoked->rp,
							count_release, NULL), 0);
	revocable_init(&rev, &revoked->rp);
	ck_assert_int_eq(revocable_provider_revoke(&revoked->rp), 1);
	ck_assert_int_eq(release_runs, 1);
	revocable_fini(&rev);
	revocable_provider_put(&revoked->rp);	/* the owner's, the last */
	ck_assert_int_eq(munmap(revoked, 4096), 0);

	revocable_provider_init(&live->rp, RES, NULL);
	ck_assert_int_eq(revocable_provider_set_release(&live->rp,
							count_release, NULL), 0);
	revocable_init(&rev, &live->rp);
	revocable_fini(&rev);
	revocable_provider_put(&live->rp);	/* the last, never revoked */
	ck_assert_int_eq(munmap(live, 4096), 0);
	blocker_finish(&b);
	ck_assert_int_eq(release_runs, 2);
}
END_TEST

/* A concurrent revoker may still be on its way out when the other one
 * returns and the caller frees: also no touch after that. */
static void *revoke_fn(void *arg)
{
	return (void *)(intptr_t)revocable_provider_revoke(arg);
}

START_TEST(test_embedded_concurrent_revoke_then_free)
{
	int round;

	for (round = 0; round < 200; round++) {
		struct device *d = malloc(sizeof(*d));
		pthread_t tid;
		void *ret;

		ck_assert_ptr_nonnull(d);
		revocable_provider_init(&d->rp, RES, NULL);
		revocable_provider_get(&d->rp);		/* the thread's */
		tid = start_thread(revoke_fn, &d->rp);
		revocable_provider_revoke(&d->rp);
		ck_assert_int_eq(pthread_join(tid, &ret), 0);
		revocable_provider_put(&d->rp);
		revocable_provider_free(&d->rp);
		free(d);	/* ASan: any later touch is a use-after-free */
	}
	revocable_barrier();
}
END_TEST

/* ---- 4: fork() ---- */

/* In the child: the library must work as in a fresh single thread. */
static int child_uses_library(void)
{
	struct revocable_provider *rp;
	struct revocable *rev;

	signal(SIGALRM, SIG_DFL);	/* Check's own handler is inherited */
	alarm(10);	/* a hang becomes SIGALRM, seen by the parent */
	revocable_barrier();
	rp = revocable_provider_alloc(RES);
	rev = revocable_alloc(rp);
	if (revocable_try_access(rev) != RES)
		return 2;
	revocable_release(rev);
	if (revocable_provider_revoke_async(rp, NULL, NULL))
		return 3;
	revocable_barrier();
	if (revocable_provider_revoke(rp) != 0)
		return 4;
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
	return 0;
}

static void expect_child_ok(pid_t pid)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(!WIFSIGNALED(status),
		      "child after fork() died of signal %d (SIGALRM: it hung)",
		      WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child after fork() failed step %d", WEXITSTATUS(status));
}

/* The deferred-free worker is busy at fork(); the child has no worker. */
START_TEST(test_fork_with_busy_worker)
{
	struct blocker b;
	pid_t pid;

	blocker_start(&b);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(child_uses_library());
	expect_child_ok(pid);
	blocker_finish(&b);
}
END_TEST

struct held_access {
	struct revocable *rev;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int entered, leave;
};

static void *hold_access_fn(void *arg)
{
	struct held_access *h = arg;

	revocable_try_access(h->rev);
	pthread_mutex_lock(&h->lock);
	h->entered = 1;
	pthread_cond_broadcast(&h->cond);
	while (!h->leave)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	revocable_release(h->rev);
	return NULL;
}

/* Another thread is inside an access at fork(): it does not exist in the
 * child, so the child's revoke must not wait for it. */
START_TEST(test_fork_with_reader_inside)
{
	struct held_access h = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct revocable_provider *rp = revocable_provider_alloc(RES);
	pthread_t tid;
	pid_t pid;

	h.rev = revocable_alloc(rp);
	tid = start_thread(hold_access_fn, &h);
	pthread_mutex_lock(&h.lock);
	while (!h.entered)
		pthread_cond_wait(&h.cond, &h.lock);
	pthread_mutex_unlock(&h.lock);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		alarm(10);
		_exit(revocable_provider_revoke(rp) == 1 ? 0 : 5);
	}
	expect_child_ok(pid);

	pthread_mutex_lock(&h.lock);
	h.leave = 1;
	pthread_cond_broadcast(&h.cond);
	pthread_mutex_unlock(&h.lock);
	join_within(tid, 5000, "reader");
	revocable_free(h.rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- 5: the release callback calling back into the library ---- */

enum reentry {
	REENTER_REVOKE,
	REENTER_FREE,
	REENTER_ASYNC_BARRIER,
	REENTER_OTHER,
};

struct reentrant {
	struct revocable_provider *rp;
	struct revocable_provider *other;
	enum reentry what;
	int ret, other_ret, runs;
};

static void reentrant_release(void *res, void *arg)
{
	struct reentrant *r = arg;

	(void)res;
	r->runs++;
	switch (r->what) {
	case REENTER_REVOKE:
		r->ret = revocable_provider_revoke(r->rp);
		break;
	case REENTER_FREE:
		revocable_provider_free(r->rp);
		break;
	case REENTER_ASYNC_BARRIER:
		r->ret = revocable_provider_revoke_async(r->rp, NULL, NULL);
		revocable_barrier();
		break;
	case REENTER_OTHER:
		/* Another provider, with readers gone: allowed, completes. */
		r->other_ret = revocable_provider_revoke(r->other);
		break;
	}
}

static void *revoke_reentrant_fn(void *arg)
{
	struct reentrant *r = arg;

	return (void *)(intptr_t)revocable_provider_revoke(r->rp);
}

static void run_reentrant(struct reentrant *r, bool async)
{
	pthread_t tid;

	r->rp = revocable_provider_alloc(RES);
	r->other = revocable_provider_alloc(RES);
	ck_assert_int_eq(revocable_provider_set_release(r->rp, reentrant_release,
							r), 0);
	if (async) {
		ck_assert_int_eq(revocable_provider_revoke_async(r->rp, NULL,
								 NULL), 0);
		tid = start_thread(revoke_reentrant_fn, r);
		join_within(tid, 5000, "revoke waiting for the async revoke");
		revocable_barrier();
	} else {
		tid = start_thread(revoke_reentrant_fn, r);
		join_within(tid, 5000,
			    "revoke whose release callback re-enters the library");
	}
	ck_assert_int_eq(r->runs, 1);
	revocable_provider_free(r->other);
}

START_TEST(test_release_cb_revokes_self)
{
	struct reentrant r = { .what = REENTER_REVOKE };

	run_reentrant(&r, false);
	ck_assert_int_eq(r.ret, -EDEADLK);
	revocable_provider_free(r.rp);
	revocable_barrier();
}
END_TEST

START_TEST(test_release_cb_revokes_self_async)
{
	struct reentrant r = { .what = REENTER_REVOKE };

	run_reentrant(&r, true);
	ck_assert_int_eq(r.ret, -EDEADLK);
	revocable_provider_free(r.rp);
	revocable_barrier();
}
END_TEST

/* The owner drops its reference from the callback: completes safely, the
 * provider goes once the revoke is over (no double free: owner ref only). */
START_TEST(test_release_cb_frees_self)
{
	struct reentrant r = { .what = REENTER_FREE };

	run_reentrant(&r, false);
	revocable_barrier();
}
END_TEST

START_TEST(test_release_cb_async_and_barrier)
{
	struct reentrant r = { .what = REENTER_ASYNC_BARRIER };

	run_reentrant(&r, false);
	ck_assert_int_eq(r.ret, 0);
	revocable_provider_free(r.rp);
	revocable_barrier();
}
END_TEST

START_TEST(test_release_cb_revokes_other)
{
	struct reentrant r = { .what = REENTER_OTHER };

	run_reentrant(&r, false);
	ck_assert_int_eq(r.other_ret, 1);
	revocable_provider_free(r.rp);
	revocable_barrier();
}
END_TEST

/* ---- async-signal safety ---- */

static struct revocable *signal_rev;
static volatile sig_atomic_t signal_saw;

static void access_in_handler(int sig)
{
	void *res = revocable_try_access(signal_rev);

	(void)sig;
	signal_saw = res == RES ? 1 : 2;
	revocable_release(signal_rev);
}

/* On a registered thread, an access and its release in a signal handler
 * interrupting an access work (the inline path takes no lock), and leave
 * the interrupted access intact. */
START_TEST(test_access_in_signal_handler)
{
	struct revocable_provider *rp = revocable_provider_alloc(RES);

	signal_rev = revocable_alloc(rp);
	ck_assert_ptr_eq(signal(SIGUSR1, access_in_handler), SIG_DFL);
	ck_assert_ptr_eq(revocable_try_access(signal_rev), RES);
	raise(SIGUSR1);
	ck_assert_int_eq(signal_saw, 1);
	ck_assert_int_eq(revocable_provider_revoke(rp), -EDEADLK);	/* still held */
	revocable_release(signal_rev);
	ck_assert_int_eq(revocable_provider_revoke(rp), 1);
	revocable_free(signal_rev);
	revocable_provider_free(rp);
}
END_TEST

/* ---- misuse reports ---- */

static void free_handle(void *arg)
{
	revocable_free(arg);
}

/* The handle holds the provider's last reference while another thread is
 * inside an access through it: reported before the memory goes. */
START_TEST(test_report_free_handle_in_use)
{
	struct held_access h = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct revocable_provider *rp = revocable_provider_alloc(RES);
	struct revocable *spare;
	const char *err;
	pthread_t tid;

	h.rev = revocable_alloc(rp);
	spare = revocable_alloc(rp);	/* the reader releases through it */
	revocable_provider_put(rp);	/* owner gone: handles hold it */
	tid = start_thread(hold_access_fn, &h);
	pthread_mutex_lock(&h.lock);
	while (!h.entered)
		pthread_cond_wait(&h.cond, &h.lock);
	pthread_mutex_unlock(&h.lock);

	/* Two handles: ambiguous, so no report yet. */
	err = stderr_of(free_handle, spare);
	ck_assert_msg(strstr(err, "access") == NULL, "unexpected report: %s", err);
	/*
	 * The last handle with an access open on another thread: reported.
	 * The handle is then fini'ed but not freed here, so that the reader's
	 * release below reads valid memory (the misuse's consequence, a
	 * use-after-free, is not what this test is about).
	 */
	spare = h.rev;
	h.rev = malloc(sizeof(*h.rev));
	memcpy(h.rev, spare, sizeof(*h.rev));
	err = stderr_of(free_handle, spare);
	ck_assert_msg(strstr(err, "revocable_free") != NULL,
		      "no report of freeing a handle in use: '%s'", err);

	pthread_mutex_lock(&h.lock);
	h.leave = 1;
	pthread_cond_broadcast(&h.cond);
	pthread_mutex_unlock(&h.lock);
	join_within(tid, 5000, "reader");
	free(h.rev);
	revocable_barrier();
}
END_TEST

static void revoke_self(void *arg)
{
	struct reentrant *r = arg;

	run_reentrant(r, false);
}

START_TEST(test_report_revoke_in_own_release)
{
	struct reentrant r = { .what = REENTER_REVOKE };
	const char *err = stderr_of(revoke_self, &r);

	ck_assert_msg(strstr(err, "release callback") != NULL,
		      "no report of a revoke inside its own release: '%s'", err);
	revocable_provider_free(r.rp);
	revocable_barrier();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("revocable_offpath");
	TCase *tc = tcase_create("offpath");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_embedded_no_free_fn_revoked);
	tcase_add_test(tc, test_embedded_no_free_fn_never_revoked);
	tcase_add_test(tc, test_embedded_no_free_fn_put_last);
	tcase_add_test(tc, test_embedded_concurrent_revoke_then_free);
	tcase_add_test(tc, test_fork_with_busy_worker);
	tcase_add_test(tc, test_fork_with_reader_inside);
	tcase_add_test(tc, test_release_cb_revokes_self);
	tcase_add_test(tc, test_release_cb_revokes_self_async);
	tcase_add_test(tc, test_release_cb_frees_self);
	tcase_add_test(tc, test_release_cb_async_and_barrier);
	tcase_add_test(tc, test_release_cb_revokes_other);
	tcase_add_test(tc, test_access_in_signal_handler);
	tcase_add_test(tc, test_report_free_handle_in_use);
	tcase_add_test(tc, test_report_revoke_in_own_release);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
