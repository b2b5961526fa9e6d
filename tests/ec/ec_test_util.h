/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_test_util.h - shared helpers for the EC model's unit tests: a fake
 * clock the test moves by hand, and ECs built from shipped or inline
 * profiles.
 */
#ifndef EC_TEST_UTIL_H
#define EC_TEST_UTIL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "ec/ec.h"
#include "ec/ec_internal.h"

#define NS_PER_S 1000000000ull

/**
 * struct fake_clock - time that only moves when the test (or injected
 * latency, through sleep_ns) moves it.
 * @now:   current time in ns
 * @slept: total ns the EC asked to sleep
 * @clock: the ec_clock pointing at this struct
 */
struct fake_clock {
	uint64_t now;
	uint64_t slept;
	struct ec_clock clock;
};

/** fake_clock_init() - start @fc at an arbitrary non-zero time. */
void fake_clock_init(struct fake_clock *fc);
/** fake_clock_advance() - move @fc forward by @ns. */
void fake_clock_advance(struct fake_clock *fc, uint64_t ns);

/** test_path() - $top_srcdir/@rel in a static buffer (tests run from anywhere). */
const char *test_path(const char *rel);

/**
 * make_ec_file() - an EC from a shipped profile (NULL = the built-in default)
 * on @fc; fails the test on error.
 */
struct ec *make_ec_file(const char *profile_file, struct fake_clock *fc);
/** make_ec_text() - an EC from inline profile text on @fc; fails the test on error. */
struct ec *make_ec_text(const char *text, struct fake_clock *fc);
/**
 * make_ec_file_plus() - an EC from a shipped profile with @extra appended
 * (a later key wins) on @fc; fails the test on error.
 */
struct ec *make_ec_file_plus(const char *profile_file, const char *extra, struct fake_clock *fc);

/**
 * EC_TEST_FIXTURE() - the checked fixture most EC test programs share: a
 * file-scope fake clock @fc and EC @ec, made from @profile_file (a shipped
 * profile, NULL = the built-in default) before each test by setup() and
 * destroyed after it by teardown(), for tcase_add_checked_fixture().
 * @profile_file: as make_ec_file() takes it
 */
#define EC_TEST_FIXTURE(profile_file)				\
	static struct fake_clock fc;				\
	static struct ec *ec;					\
	static void setup(void)					\
	{							\
		fake_clock_init(&fc);				\
		ec = make_ec_file((profile_file), &fc);		\
	}							\
	static void teardown(void)				\
	{							\
		ec_destroy(ec);					\
		ec = NULL;					\
	}							\
	struct ec_test_fixture_semicolon

/**
 * hc() - run a host command with a guard zone after @resp_max and check the
 * EC wrote nothing past it; returns ec_host_command()'s value.
 */
int hc(struct ec *ec, uint32_t cmd, uint32_t ver, const void *req, size_t req_len,
       void *resp, size_t resp_max, uint32_t *status);

/**
 * hc_status() - hc() for tests that check the EC's answer: returns the EC
 * result code and stores hc()'s return value in @ret when @ret is not NULL.
 */
uint32_t hc_status(struct ec *ec, uint32_t cmd, uint32_t ver, const void *req, size_t req_len,
		   void *resp, size_t resp_max, int *ret);

/**
 * struct test_listener - what an open file keeps: an entry on the EC's
 * notifier chain, its own queue and mask, under its own lock.
 * @nb:     the chain entry
 * @lock:   protects everything below
 * @q:      events selected by @mask
 * @mask:   bit n: keep MKBP event type n
 * @calls:  notifier calls seen (every event, selected or not)
 * @queued: events queued
 * @hook:   optional, called after each event with @lock not held
 * @arg:    for @hook
 */
struct test_listener {
	struct ec_notifier nb;
	pthread_mutex_t lock;
	struct ec_event_queue q;
	uint32_t mask;
	unsigned int calls;
	unsigned int queued;
	void (*hook)(struct test_listener *l, const struct ec_event *ev);
	void *arg;
};

/** test_listener_init() - an empty listener keeping @mask's types (not registered). */
void test_listener_init(struct test_listener *l, uint32_t mask);
/** test_listener_pop() - ec_event_queue_pop() under the listener's lock. */
int test_listener_pop(struct test_listener *l, void *buf, size_t len);
/** test_listener_calls() - notifier calls so far, read under the lock. */
unsigned int test_listener_calls(struct test_listener *l);
/** test_listener_fini() - free queued events (the listener must be unregistered). */
void test_listener_fini(struct test_listener *l);

/**
 * status_on_board() - run one command on a fresh EC of @profile_file (on
 * its own fake clock) and return its EC status: "does this board have it".
 */
uint32_t status_on_board(const char *profile_file, uint32_t cmd, uint32_t ver, const void *req,
			 size_t req_len, size_t resp_max);

/** le32() / le16() - little-endian reads from a byte buffer. */
uint32_t le32(const uint8_t *p);
uint16_t le16(const uint8_t *p);

/**
 * test_cmd_table() - the command table the EC derives from its subsystems,
 * copied into one sorted array.
 * @count: set to the number of commands
 *
 * Return: the array (static; valid until the next call).
 */
const struct ec_cmd_entry *test_cmd_table(size_t *count);

/**
 * check_doc_answered_list() - docs/ec-commands.md's marker list for a
 * profile ("<!-- answered:NAME -->" up to "<!-- end -->") names exactly the
 * commands @ec answers (GET_CMD_VERSIONS non-zero): a Check failure names
 * the first command on one side only.
 * @ec:   an EC built from that profile
 * @name: the profile's name in the marker
 */
void check_doc_answered_list(struct ec *ec, const char *name);

#endif /* EC_TEST_UTIL_H */
