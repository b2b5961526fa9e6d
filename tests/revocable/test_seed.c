// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seed series' three KUnit scenarios (basic, revocation, macro),
 * written the way a kernel consumer of the v3 API writes them: only the
 * includes differ from a KUnit test, proving the seed API is unchanged.
 * A fourth case reads the way the seed's kselftest module does.
 */
#include "config.h"

#include "kunit_shim.h"
#include <revocable.h>

#include <stdio.h>
#include <string.h>

static void seed_test_basic(struct kunit *test)
{
	void *resource = (void *)0xc0ffee, *got;
	struct revocable_provider *rp;
	struct revocable *rev;

	rp = revocable_provider_alloc(resource);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rp);
	rev = revocable_alloc(rp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rev);

	got = revocable_try_access(rev);
	KUNIT_EXPECT_PTR_EQ(test, got, resource);
	revocable_release(rev);

	revocable_free(rev);
	revocable_provider_free(rp);
}

static void seed_test_revocation(struct kunit *test)
{
	void *resource = (void *)0xc0ffee, *got;
	struct revocable_provider *rp;
	struct revocable *rev;

	rp = revocable_provider_alloc(resource);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rp);
	rev = revocable_alloc(rp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rev);

	got = revocable_try_access(rev);
	KUNIT_EXPECT_PTR_EQ(test, got, resource);
	revocable_release(rev);

	/* The owner goes away first; the consumer's handle outlives it. */
	revocable_provider_free(rp);

	got = revocable_try_access(rev);
	KUNIT_EXPECT_PTR_EQ(test, got, NULL);
	revocable_release(rev);

	revocable_free(rev);
}

static void seed_test_macro(struct kunit *test)
{
	void *resource = (void *)0xc0ffee, *got;
	struct revocable_provider *rp;
	struct revocable *rev;
	bool ran;

	rp = revocable_provider_alloc(resource);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rp);
	rev = revocable_alloc(rp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rev);

	ran = false;
	REVOCABLE(rev, got) {
		KUNIT_EXPECT_PTR_EQ(test, got, resource);
		ran = true;
	}
	KUNIT_EXPECT_TRUE(test, ran);

	revocable_provider_free(rp);

	/* The seed macro always runs its body, with NULL once revoked. */
	ran = false;
	REVOCABLE(rev, got) {
		KUNIT_EXPECT_PTR_EQ(test, got, NULL);
		ran = true;
	}
	KUNIT_EXPECT_TRUE(test, ran);

	revocable_free(rev);
}

/*
 * The seed's kselftest module reads through its consumer like this: a
 * brace-less REVOCABLE() statement inside a switch, then break.
 */
static size_t selftest_style_read(struct revocable *rev, int offset,
				  char *buf, size_t len)
{
	char *res;

	switch (offset) {
	case 0:
		res = revocable_try_access(rev);
		snprintf(buf, len, "%s", res ?: "(null)");
		revocable_release(rev);
		break;
	case 1:
		REVOCABLE(rev, res)
			snprintf(buf, len, "%s", res ?: "(null)");
		break;
	default:
		return 0;
	}
	return strlen(buf);
}

static void seed_test_selftest_consumer(struct kunit *test)
{
	char data[16] = "12345678", buf[16];
	struct revocable_provider *rp;
	struct revocable *rev;

	rp = revocable_provider_alloc(data);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rp);
	rev = revocable_alloc(rp);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rev);

	KUNIT_EXPECT_TRUE(test, selftest_style_read(rev, 0, buf, sizeof(buf)) == 8);
	KUNIT_EXPECT_TRUE(test, !strcmp(buf, data));
	KUNIT_EXPECT_TRUE(test, selftest_style_read(rev, 1, buf, sizeof(buf)) == 8);
	KUNIT_EXPECT_TRUE(test, !strcmp(buf, data));

	revocable_provider_free(rp);

	selftest_style_read(rev, 0, buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, !strcmp(buf, "(null)"));
	selftest_style_read(rev, 1, buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, !strcmp(buf, "(null)"));
	KUNIT_EXPECT_TRUE(test, selftest_style_read(rev, 2, buf, sizeof(buf)) == 0);

	revocable_free(rev);
}

static struct kunit_case seed_test_cases[] = {
	KUNIT_CASE(seed_test_basic),
	KUNIT_CASE(seed_test_revocation),
	KUNIT_CASE(seed_test_macro),
	KUNIT_CASE(seed_test_selftest_consumer),
	{}
};

static struct kunit_suite seed_test_suite = {
	.name = "revocable_seed",
	.test_cases = seed_test_cases,
};

kunit_test_suite(seed_test_suite);
