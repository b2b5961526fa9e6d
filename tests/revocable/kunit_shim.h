/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kunit_shim.h - just enough of the KUnit API, on top of Check, for the
 * seed's and v11's revocable KUnit tests to build with their own calls.
 *
 * KUnit's EXPECT forms keep going after a failure; Check has no such
 * assertion, so both EXPECT and ASSERT end the test case here.
 */
#ifndef KUNIT_SHIM_H
#define KUNIT_SHIM_H

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../check_run.h"

struct kunit {
	int unused;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn)	{ .run_case = fn, .name = #fn }

#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ptr)				\
	ck_assert_msg((ptr) != NULL, "%s is NULL", #ptr)
#define KUNIT_EXPECT_PTR_EQ(test, a, b)	ck_assert_ptr_eq((a), (b))
#define KUNIT_EXPECT_TRUE(test, cond)	ck_assert(cond)
#define KUNIT_EXPECT_FALSE(test, cond)	ck_assert(!(cond))
/* What v11's cases use besides. */
#define KUNIT_ASSERT_NOT_NULL(test, ptr)				\
	ck_assert_msg((ptr) != NULL, "%s is NULL", #ptr)
#define KUNIT_ASSERT_FALSE(test, cond)	ck_assert(!(cond))
#define KUNIT_EXPECT_EQ(test, a, b)	ck_assert_int_eq((a), (b))
#define KUNIT_FAIL(test, msg)		ck_abort_msg("%s", (msg))

/*
 * kunit_test_suite() - run every case of @suite as one Check loop test and
 * exit non-zero if any failed.
 */
#define kunit_test_suite(suite)						\
	START_TEST(kunit_shim_run_case)					\
	{								\
		struct kunit test = { 0 };				\
									\
		(suite).test_cases[_i].run_case(&test);			\
	}								\
	END_TEST							\
									\
	int main(void)							\
	{								\
		Suite *s = suite_create((suite).name);			\
		TCase *tc = tcase_create("kunit");			\
		int n = 0;						\
									\
		while ((suite).test_cases[n].run_case)			\
			n++;						\
		tcase_add_loop_test(tc, kunit_shim_run_case, 0, n);	\
		suite_add_tcase(s, tc);					\
		return check_run_suite(s);				\
	}

#endif /* KUNIT_SHIM_H */
