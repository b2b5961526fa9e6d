/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_run.h - the one way every Check test binary runs its suite, so that
 * a failure always reaches make check as a non-zero exit status.
 *
 * Check forks a child per test. In a sanitizer build that child's exit is
 * what costs: LeakSanitizer scans the whole heap at every exit, TSan tears
 * its shadow down (under ASan test_ec_sizes took 38.6 s forked and 1.0 s in
 * one process, on a loaded 2-core machine; TSan 16.0 s and 0.6 s). So a
 * sanitizer build runs a suite in one process: its leaks are still found
 * (at the one exit) and every access still checked; what is lost is a
 * test's isolation from the ones before it, which the main build's forked
 * run keeps, and Check's per-test time limits, which a watchdog for the
 * whole program replaces. Suites whose tests change process-wide state
 * (fork, dlclose, signal handlers, the environment a library reads once)
 * call check_run_suite_forked() and fork in every build. CK_FORK in the
 * environment overrides both, as Check documents.
 */
#ifndef TESTS_CHECK_RUN_H
#define TESTS_CHECK_RUN_H

#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHECK_RUN_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define CHECK_RUN_SANITIZED 1
#endif
#endif
#ifndef CHECK_RUN_SANITIZED
#define CHECK_RUN_SANITIZED 0
#endif

/* The whole program's limit when its tests share one process. */
#define CHECK_RUN_WATCHDOG_S 600

static void check_run_watchdog(int sig)
{
	static const char msg[] =
		"check_run: the suite ran past its watchdog (600 s, one process: "
		"a test hangs)\n";
	ssize_t unused = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)sig;
	(void)unused;
	_exit(99);	/* a hard error for the test harness */
}

static inline int check_run(Suite *suite, bool may_share_process)
{
	SRunner *runner = srunner_create(suite);
	int failed;

	if (may_share_process && CHECK_RUN_SANITIZED && !getenv("CK_FORK")) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = check_run_watchdog;
		sigaction(SIGALRM, &sa, NULL);
		alarm(CHECK_RUN_WATCHDOG_S);
		srunner_set_fork_status(runner, CK_NOFORK);
	}
	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/**
 * check_run_suite() - run every test of @suite and free the runner.
 * @suite: the suite; the runner takes ownership
 *
 * A test per child process, but in a sanitizer build all in this one (see
 * the top of this file).
 *
 * Return: EXIT_SUCCESS when every test passed, EXIT_FAILURE otherwise.
 */
static inline int check_run_suite(Suite *suite)
{
	return check_run(suite, true);
}

/**
 * check_run_suite_forked() - check_run_suite() with a child per test in
 * every build, for tests of process-wide state.
 * @suite: the suite; the runner takes ownership
 *
 * Return: EXIT_SUCCESS when every test passed, EXIT_FAILURE otherwise.
 */
static inline int check_run_suite_forked(Suite *suite)
{
	return check_run(suite, false);
}

#endif /* TESTS_CHECK_RUN_H */
