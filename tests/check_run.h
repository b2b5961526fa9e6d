/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_run.h - the one way every Check test binary runs its suite, so that
 * a failure always reaches make check as a non-zero exit status.
 */
#ifndef TESTS_CHECK_RUN_H
#define TESTS_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/**
 * check_run_suite() - run every test of @suite and free the runner.
 * @suite: the suite; the runner takes ownership
 *
 * Return: EXIT_SUCCESS when every test passed, EXIT_FAILURE otherwise.
 */
static inline int check_run_suite(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	int failed;

	srunner_run_all(runner, CK_NORMAL);
	failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* TESTS_CHECK_RUN_H */
