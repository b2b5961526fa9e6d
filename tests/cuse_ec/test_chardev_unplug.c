// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_unplug.c - every file operation after an unplug, in each
 * mode, against docs/teaching.md's "Op by op" table: what follows the EC
 * pointer fails (revocable), reaches a zombie (refcount) or freed memory
 * (unsafe, under ASan only); what is the file's own works in every mode.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "chardev_testing.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

#define EV_BUTTON 3

static long eventmask(struct chardev_file *file, uint32_t mask)
{
	return do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2, (void *)(uintptr_t)mask, 0);
}

static long readmem(struct chardev_file *file, uint32_t offset, uint32_t bytes)
{
	struct cros_ec_readmem_v2 mem = { .offset = offset, .bytes = bytes };

	return do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0);
}

static long xcmd_oversized(struct chardev_file *file)
{
	struct cros_ec_command_v2 hdr = { .command = EC_CMD_HELLO, .outsize = 0x10001 };

	return do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, &hdr, 0);
}

static int inject_button(struct ec *ec, void *arg)
{
	static const uint8_t payload[4] = { 1, 2, 3, 4 };

	(void)arg;
	return ec_inject_event(ec, EV_BUTTON, payload, sizeof(payload));
}

/* The files every test sets up while the EC is present. */
struct files {
	struct chardev_file *queued;	/* two events queued */
	struct chardev_file *empty;	/* mask set, nothing queued */
	struct chardev_file *version;	/* version text not read yet */
	struct chardev_file *eof;	/* version text read once */
};

static void setup_files(struct chardev_ctx *ctx, struct files *f)
{
	char text[CHARDEV_READ_MAX];

	f->queued = harness_open(ctx);
	f->empty = harness_open(ctx);
	f->version = harness_open(ctx);
	f->eof = harness_open(ctx);
	ck_assert_int_gt(do_read(ctx, f->eof, text, sizeof(text), false, 1000), 0);
	ck_assert_int_eq(eventmask(f->queued, 1u << EV_BUTTON), 0);
	ck_assert_int_eq(eventmask(f->empty, 1u << EV_BUTTON), 0);
	ck_assert_int_eq(chardev_with_ec(ctx, inject_button, NULL), 0);
	ck_assert_int_eq(chardev_with_ec(ctx, inject_button, NULL), 0);
	while (do_read(ctx, f->empty, text, sizeof(text), true, 0) > 0)
		;
}

static void release_files(struct files *f)
{
	chardev_release(f->queued);
	chardev_release(f->empty);
	chardev_release(f->version);
	chardev_release(f->eof);
}

/* The rows that touch only the file: the same answers in every mode. */
static void check_file_only_rows(struct chardev_ctx *ctx, struct files *f, unsigned int err)
{
	unsigned char buf[CHARDEV_READ_MAX];

	ck_assert_uint_eq(chardev_poll(f->queued, NULL),
			  CHARDEV_POLLIN | CHARDEV_POLLRDNORM | err);
	ck_assert_uint_eq(chardev_poll(f->empty, NULL), err);
	/* Events queued before the unplug are delivered after it. */
	ck_assert_int_eq(do_read(ctx, f->queued, buf, sizeof(buf), false, 1000), 5);
	ck_assert_uint_eq(buf[0], EV_BUTTON);
	ck_assert_int_eq(do_read(ctx, f->queued, buf, 3, false, 1000), 3);
	/*
	 * Empty queue, O_NONBLOCK: EAGAIN, except where poll says POLLERR -
	 * then ENODEV, or an event loop would poll and read for ever.
	 */
	ck_assert_int_eq(do_read(ctx, f->queued, buf, sizeof(buf), true, 0),
			 err ? -ENODEV : -EAGAIN);
	ck_assert_int_eq(do_read(ctx, f->empty, buf, sizeof(buf), true, 0),
			 err ? -ENODEV : -EAGAIN);
	/* Zero length: O_NONBLOCK on an empty queue says EAGAIN, else 0. */
	ck_assert_int_eq(do_read(ctx, f->empty, buf, 0, true, 0), -EAGAIN);
	ck_assert_int_eq(do_read(ctx, f->empty, buf, 0, false, 0), 0);
	/* The version text at offset != 0: 0, before the device is asked. */
	ck_assert_int_eq(do_read(ctx, f->eof, buf, sizeof(buf), false, 1000), 0);
	ck_assert_int_eq(eventmask(f->version, 0), 0);
	ck_assert_int_eq(eventmask(f->empty, 1u << EV_BUTTON), 0);
	ck_assert_int_eq(do_ioctl(f->empty, 0xC0283A00u, buf, 0), -ENOTTY);
	ck_assert_int_eq(xcmd_oversized(f->empty), -EINVAL);
}

/* The fixes: revocable as in seed 006, fenced as finally posted; same answers. */
static const enum lifecycle_mode fixed_modes[] = { LIFECYCLE_REVOCABLE, LIFECYCLE_FENCED };
#define N_FIXED_MODES ((int)(sizeof(fixed_modes) / sizeof(fixed_modes[0])))

START_TEST(test_revocable_answers_as_the_fixed_driver)
{
	struct chardev_ctx *ctx = harness_ctx(fixed_modes[_i]);
	unsigned char buf[CHARDEV_READ_MAX];
	struct chardev_stats st;
	struct chardev_file *none;
	struct files f;

	setup_files(ctx, &f);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	check_file_only_rows(ctx, &f, CHARDEV_POLLERR);
	/* What follows the EC pointer: ENODEV. */
	ck_assert_int_eq(do_read(ctx, f.version, buf, sizeof(buf), false, 1000), -ENODEV);
	ck_assert_int_eq(harness_hello(f.empty), -ENODEV);
	ck_assert_int_eq(readmem(f.empty, EC_MEMMAP_ID, 2), -ENODEV);
	/* READMEM: ENODEV comes before the argument check (006 lines 219-221). */
	ck_assert_int_eq(readmem(f.empty, 0, 300), -ENODEV);
	/* Later upstream: a blocking read of an empty queue is told at once. */
	ck_assert_int_eq(do_read(ctx, f.empty, buf, sizeof(buf), false, 1000), -ENODEV);
	ck_assert_int_eq(chardev_open(ctx, &none), -ENODEV);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.zombie_accesses, 0);
	release_files(&f);
	harness_ctx_free(ctx);
}
END_TEST

/* A reader and a poller asleep across the unplug, in either behaviour. */
static void check_waiters_at_unplug(enum lifecycle_mode mode,
				    enum chardev_unplug_wakeups wakeups)
{
	struct chardev_ctx *ctx = harness_ctx_wakeups(mode, wakeups);
	struct chardev_file *file = harness_open(ctx);
	unsigned char buf[CHARDEV_READ_MAX];
	struct fake_poll ph = { 0 };
	struct fake_read r, late;
	struct chardev_stats st;
	size_t len;

	ck_assert_int_eq(eventmask(file, 1u << EV_BUTTON), 0);
	ck_assert_uint_eq(chardev_poll(file, &ph), 0);
	fake_read_init(&r);
	fake_read_init(&late);
	ck_assert_int_eq(chardev_read(file, 64, false, &r, buf, &len), CHARDEV_READ_PARKED);
	/* Synchronous: an unplug that wakes readers has done so on return. */
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	chardev_stats(ctx, &st);
	if (wakeups == CHARDEV_WAKEUPS_UPSTREAM) {
		ck_assert(fake_read_wait(&r, 1000));
		ck_assert_int_eq(r.result, -ENODEV);
		ck_assert_int_ge(__atomic_load_n(&ph.notified, __ATOMIC_SEQ_CST), 1);
		ck_assert_uint_eq(chardev_poll(file, NULL), CHARDEV_POLLERR);
		ck_assert_int_eq(chardev_read(file, 64, false, &late, buf, &len), -ENODEV);
	} else {
		/* Seed v3: nothing tells the file; only a signal ends the read. */
		ck_assert_int_eq(__atomic_load_n(&r.completions, __ATOMIC_SEQ_CST), 0);
		ck_assert_uint_eq(st.read_enodev, 0);
		ck_assert_int_eq(__atomic_load_n(&ph.notified, __ATOMIC_SEQ_CST), 0);
		ck_assert_uint_eq(chardev_poll(file, NULL), 0);
		chardev_read_cancel(ctx, &r);
		ck_assert(fake_read_wait(&r, 1000));
		ck_assert_int_eq(r.result, -EINTR);
		/* A blocking read started after the unplug sleeps too. */
		ck_assert_int_eq(chardev_read(file, 64, false, &late, buf, &len),
				 CHARDEV_READ_PARKED);
		chardev_read_cancel(ctx, &late);
		ck_assert(fake_read_wait(&late, 1000));
		ck_assert_int_eq(late.result, -EINTR);
		/* The pointer-following reads still fail as in 006. */
		ck_assert_int_eq(harness_hello(file), -ENODEV);
	}
	/* Non-blocking: told as poll is (POLLERR: ENODEV), or EAGAIN where poll says 0. */
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0),
			 wakeups == CHARDEV_WAKEUPS_UPSTREAM ? -ENODEV : -EAGAIN);
	chardev_release(file);
	harness_ctx_free(ctx);
}

START_TEST(test_unplug_wakes_waiters_by_default)
{
	check_waiters_at_unplug(fixed_modes[_i], CHARDEV_WAKEUPS_UPSTREAM);
}
END_TEST

START_TEST(test_unplug_wakeups_v3_leaves_them_asleep)
{
	check_waiters_at_unplug(fixed_modes[_i], CHARDEV_WAKEUPS_V3);
}
END_TEST

START_TEST(test_unplug_wakeups_parse)
{
	enum chardev_unplug_wakeups w = CHARDEV_WAKEUPS_V3;

	ck_assert_int_eq(chardev_unplug_wakeups_parse("upstream", &w), 0);
	ck_assert_int_eq(w, CHARDEV_WAKEUPS_UPSTREAM);
	ck_assert_int_eq(chardev_unplug_wakeups_parse("v3", &w), 0);
	ck_assert_int_eq(w, CHARDEV_WAKEUPS_V3);
	ck_assert_int_eq(chardev_unplug_wakeups_parse("V3", &w), -EINVAL);
	ck_assert_int_eq(chardev_unplug_wakeups_parse("", &w), -EINVAL);
	ck_assert_int_eq(chardev_unplug_wakeups_parse(NULL, &w), -EINVAL);
}
END_TEST

START_TEST(test_refcount_file_state_is_no_zombie)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REFCOUNT);
	unsigned char buf[CHARDEV_READ_MAX];
	struct chardev_stats st;
	struct fake_read r;
	struct files f;
	size_t len;

	setup_files(ctx, &f);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	check_file_only_rows(ctx, &f, 0);
	/* Reading the file's own state reached no zombie. */
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.zombie_accesses, 0);
	/* A blocking read sleeps: nothing tells a refcount file. */
	fake_read_init(&r);
	ck_assert_int_eq(chardev_read(f.empty, 64, false, &r, buf, &len), CHARDEV_READ_PARKED);
	chardev_read_cancel(ctx, &r);
	ck_assert(fake_read_wait(&r, 1000));
	ck_assert_int_eq(r.result, -EINTR);
	/* What follows the pointer reaches the zombie and is counted. */
	ck_assert_int_gt(do_read(ctx, f.version, buf, sizeof(buf), false, 1000), 6);
	ck_assert_int_eq(memcmp(buf, "1.0.0\n", 6), 0);
	ck_assert_int_eq(harness_hello(f.empty), 4);
	ck_assert_int_eq(readmem(f.empty, 0, 300), -EINVAL);
	chardev_stats(ctx, &st);
	ck_assert_uint_ge(st.zombie_accesses, 3);
	release_files(&f);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * The notifier of a file whose EC is gone: the fixed driver's access fails
 * and the event is dropped (006 lines 97-124); a refcount file's zombie EC
 * still reaches it.
 */
START_TEST(test_notifier_after_unplug)
{
	static const enum lifecycle_mode modes[] = { LIFECYCLE_REVOCABLE, LIFECYCLE_REFCOUNT };
	struct ec_event ev = { .type = EV_BUTTON, .len = 4, .data = { 9, 8, 7, 6 } };
	struct chardev_ctx *ctx = harness_ctx(modes[_i]);
	struct chardev_file *file = harness_open(ctx);
	unsigned char buf[CHARDEV_READ_MAX];

	ck_assert_int_eq(eventmask(file, 1u << EV_BUTTON), 0);
	/* Present: the call queues by the file's mask. */
	chardev_notify_file(file, &ev);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), 5);
	ck_assert_uint_eq(buf[1], 9);
	ev.type = EV_BUTTON + 1;
	chardev_notify_file(file, &ev);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), -EAGAIN);
	ev.type = EV_BUTTON;

	ck_assert_int_eq(chardev_unplug(ctx), 0);
	chardev_notify_file(file, &ev);
	if (modes[_i] == LIFECYCLE_REVOCABLE) {
		/* Dropped: nothing queued, and the file is told the EC is gone. */
		ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), -ENODEV);
	} else {
		ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), 5);
		ck_assert_uint_eq(buf[0], EV_BUTTON);
	}
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/* As many replugs as uaf-lab's step 2 makes (its replug_cycles). */
#define LIVE_REPLUGS 10

/* An error text when live_ecs/live_ec_bytes are not @n ECs of @one bytes. */
static const char *live_ecs_differ(struct chardev_ctx *ctx, uint64_t n, uint64_t one,
				   const char *when)
{
	static char err[256];
	struct chardev_stats st;

	chardev_stats(ctx, &st);
	if (st.live_ecs == n && st.live_ec_bytes == n * one)
		return NULL;
	snprintf(err, sizeof(err), "%s: live_ecs=%llu live_ec_bytes=%llu, want %llu and %llu",
		 when, (unsigned long long)st.live_ecs, (unsigned long long)st.live_ec_bytes,
		 (unsigned long long)n, (unsigned long long)(n * one));
	return err;
}

static void live_unplug_done(void *arg, int result)
{
	__atomic_store_n((int *)arg, result ? result : 1, __ATOMIC_SEQ_CST);
}

/* The control socket's unplug: asynchronous, its completion reported. */
static const char *live_unplug_async(struct chardev_ctx *ctx)
{
	int done = 0, waited;

	if (chardev_unplug_async(ctx, live_unplug_done, &done))
		return "chardev_unplug_async() failed";
	for (waited = 0; waited < 30000; waited++) {
		if (__atomic_load_n(&done, __ATOMIC_SEQ_CST))
			return done == 1 ? NULL : "the async unplug failed";
		usleep(1000);
	}
	return "the async unplug did not report its completion within 30 s";
}

/*
 * An old file open across LIVE_REPLUGS replugs (every other one
 * asynchronous, as the control socket's), then closed, unless @close_old is
 * false; a plug refused with -EBUSY on the way. Every path that frees an EC
 * must be counted: a missed one leaves a live EC behind in some mode.
 */
static const char *live_ecs_scenario(enum lifecycle_mode mode, bool close_old)
{
	struct chardev_ctx *ctx = harness_ctx(mode);
	uint64_t one, pinned = mode == LIFECYCLE_REFCOUNT;
	struct chardev_stats st;
	struct chardev_file *old;
	const char *err;
	int i;

	chardev_stats(ctx, &st);
	one = st.live_ec_bytes;
	if (st.live_ecs != 1 || one < 4096)
		return "a plugged context does not count its one EC";
	/* The refused plug's EC was counted and freed at once. */
	if (chardev_plug(ctx) != -EBUSY)
		return "a second plug was not refused";
	if ((err = live_ecs_differ(ctx, 1, one, "after a refused plug")))
		return err;
	if (chardev_open(ctx, &old) || harness_hello(old) != 4)
		return "the old file does not work before the replugs";
	for (i = 0; i < LIVE_REPLUGS; i++) {
		err = i % 2 ? live_unplug_async(ctx) : chardev_unplug(ctx) ? "unplug failed" : NULL;
		if (err || chardev_plug(ctx))
			return err ? err : "plug failed";
	}
	/* Refcount: the old file keeps its EC, of the same size (same profile). */
	if ((err = live_ecs_differ(ctx, 1 + pinned, one, "replugs, the old file open")))
		return err;
	/* Unsafe: the close itself is the use-after-free (step 1's lesson). */
	if (!close_old)
		return NULL;
	chardev_release(old);
	if ((err = live_ecs_differ(ctx, 1, one, "the old file closed")))
		return err;
	if (chardev_unplug(ctx))
		return "the last unplug failed";
	if ((err = live_ecs_differ(ctx, 0, one, "the last EC unplugged")))
		return err;
	harness_ctx_free(ctx);
	return NULL;
}

static void live_ecs_unsafe_child(void *arg)
{
	const char *err = live_ecs_scenario(LIFECYCLE_UNSAFE, false);

	(void)arg;
	if (err) {
		fprintf(stderr, "%s\n", err);
		_exit(1);
	}
}

START_TEST(test_live_ecs_across_replugs)
{
	enum lifecycle_mode mode = (enum lifecycle_mode)_i;
	static char report[65536];
	const char *err;

	if (mode != LIFECYCLE_UNSAFE) {
		err = live_ecs_scenario(mode, true);
		ck_assert_msg(!err, "%s mode: %s", lifecycle_mode_name(mode), err);
		return;
	}
	/* The old file is left open: the child exits without touching it. */
	ck_assert_msg(harness_child_report(live_ecs_unsafe_child, NULL, report, sizeof(report)),
		      "unsafe mode: %s", report);
}
END_TEST

#ifdef HAVE_ASAN
enum unsafe_site { SITE_NONE, SITE_RELEASE, SITE_VERSION, SITE_XCMD, SITE_READMEM };

/*
 * In a child: set up files, unplug in unsafe mode, run every file-only row
 * (which must stay clean), then touch the site *@arg.
 */
static void unsafe_child(void *arg)
{
	enum unsafe_site site = *(enum unsafe_site *)arg;
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_UNSAFE);
	unsigned char buf[CHARDEV_READ_MAX];
	struct files f;

	setup_files(ctx, &f);
	chardev_unplug(ctx);
	check_file_only_rows(ctx, &f, 0);
	switch (site) {
	case SITE_RELEASE:
		chardev_release(f.empty);
		break;
	case SITE_VERSION:
		do_read(ctx, f.version, buf, sizeof(buf), false, 1000);
		break;
	case SITE_XCMD:
		harness_hello(f.empty);
		break;
	case SITE_READMEM:
		readmem(f.empty, 0, 300);
		break;
	case SITE_NONE:
		break;
	}
}

static char asan_report[65536];

START_TEST(test_unsafe_file_only_rows_are_clean)
{
	enum unsafe_site none = SITE_NONE;

	ck_assert_msg(harness_child_report(unsafe_child, &none, asan_report, sizeof(asan_report)),
		      "a file-only operation touched freed EC memory:\n%s", asan_report);
}
END_TEST

static const struct {
	enum unsafe_site site;
	const char *frame;	/* the function that follows the stale pointer */
} unsafe_sites[] = {
	{ SITE_RELEASE, "ec_notifier_unregister" },
	{ SITE_VERSION, "ec_get_version_text" },
	{ SITE_XCMD, "chardev_ioctl_xcmd" },
	{ SITE_READMEM, "ec_memmap_direct" },
};

START_TEST(test_unsafe_uaf_at_the_driver_sites)
{
	enum unsafe_site site = unsafe_sites[_i].site;
	bool clean = harness_child_report(unsafe_child, &site, asan_report, sizeof(asan_report));

	ck_assert_msg(!clean && strstr(asan_report, "heap-use-after-free") &&
		      strstr(asan_report, unsafe_sites[_i].frame),
		      "no use-after-free in %s:\n%s", unsafe_sites[_i].frame, asan_report);
}
END_TEST
#endif

static Suite *chardev_unplug_suite(void)
{
	Suite *s = suite_create("chardev_unplug");
	TCase *tc = tcase_create("unplug");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_revocable_answers_as_the_fixed_driver, 0, N_FIXED_MODES);
	tcase_add_loop_test(tc, test_unplug_wakes_waiters_by_default, 0, N_FIXED_MODES);
	tcase_add_loop_test(tc, test_unplug_wakeups_v3_leaves_them_asleep, 0, N_FIXED_MODES);
	tcase_add_test(tc, test_unplug_wakeups_parse);
	tcase_add_test(tc, test_refcount_file_state_is_no_zombie);
	tcase_add_loop_test(tc, test_notifier_after_unplug, 0, 2);
	tcase_add_loop_test(tc, test_live_ecs_across_replugs, 0, (int)lifecycle_mode_count());
#ifdef HAVE_ASAN
	tcase_add_test(tc, test_unsafe_file_only_rows_are_clean);
	tcase_add_loop_test(tc, test_unsafe_uaf_at_the_driver_sites, 0,
			    (int)(sizeof(unsafe_sites) / sizeof(unsafe_sites[0])));
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(chardev_unplug_suite());
}
