// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_reboot.c - a cold REBOOT_EC is, for the clients, the device
 * going away and coming back: the old files see what an unplug gives in the
 * mode, a new open reaches a fresh EC, and the daemon counts and traces it.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "chardev_testing.h"
#include "chardev_trace.h"
#include "harness.h"
#include "../check_run.h"

/* REBOOT_EC as ectool sends it; returns the EC result (or -errno). */
static long reboot(struct chardev_file *file, uint8_t cmd)
{
	struct ec_params_reboot_ec p = { .cmd = cmd };
	uint32_t result = 0;
	long ret;

	ret = do_xcmd(file, EC_CMD_REBOOT_EC, 0, &p, sizeof(p), NULL, 0, &result);
	return ret < 0 ? ret : (long)result;
}

/* The first trace event @ev after sequence @after, or NULL. */
static const struct chardev_trace_entry *find(const struct chardev_trace_entry *e, size_t n,
					      enum chardev_trace_event ev, uint64_t after)
{
	for (size_t i = 0; i < n; i++) {
		if (e[i].event == ev && e[i].seq > after)
			return &e[i];
	}
	return NULL;
}

START_TEST(test_cold_reboot_revocable)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *sender = harness_open(ctx), *other = harness_open(ctx), *fresh;
	const struct chardev_trace_entry *cold, *revoke, *plug;
	struct chardev_trace_entry *e;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t n;

	ck_assert_int_eq(harness_hello(other), 4);
	/* The reply to the reboot itself still arrives. */
	ck_assert_int_eq(reboot(sender, EC_REBOOT_COLD), EC_RES_SUCCESS);
	ck_assert_int_eq(harness_hello(sender), -ENODEV);
	ck_assert_int_eq(harness_hello(other), -ENODEV);
	ck_assert_int_eq(do_read(ctx, other, buf, sizeof(buf), false, 1000), -ENODEV);
	ck_assert(chardev_is_plugged(ctx));
	fresh = harness_open(ctx);
	ck_assert_int_eq(harness_hello(fresh), 4);

	ck_assert_uint_eq(STAT_NOW(ctx, ec_cold_reboots), 1);
	ck_assert_uint_eq(STAT_NOW(ctx, unplugs), 1);
	ck_assert_uint_eq(STAT_NOW(ctx, plugs), 2);
	WAIT_UNTIL(STAT_NOW(ctx, revocations) == 1);

	/* cold-reboot by the sender (file 1), then the revoke, then the plug. */
	e = calloc(CHARDEV_TRACE_DEFAULT_EVENTS, sizeof(*e));
	ck_assert_ptr_nonnull(e);
	n = chardev_trace_snapshot(chardev_trace(ctx), e, CHARDEV_TRACE_DEFAULT_EVENTS, NULL);
	cold = find(e, n, CHARDEV_TRACE_EC_COLD_REBOOT, 0);
	ck_assert_ptr_nonnull(cold);
	ck_assert_uint_eq(cold->file, 1);
	ck_assert_int_eq(cold->a, 1);
	revoke = find(e, n, CHARDEV_TRACE_REVOKE_START, cold->seq);
	ck_assert_ptr_nonnull(revoke);
	plug = find(e, n, CHARDEV_TRACE_PLUG, revoke->seq);
	ck_assert_ptr_nonnull(plug);
	ck_assert_int_eq(plug->a, 0);
	free(e);

	chardev_release(sender);
	chardev_release(other);
	chardev_release(fresh);
	harness_ctx_free(ctx);
}
END_TEST

/* A warm reset (jump to RO) keeps the device: the files go on working. */
START_TEST(test_warm_reboot_keeps_device)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = harness_open(ctx);

	ck_assert_int_eq(reboot(file, EC_REBOOT_JUMP_RO), EC_RES_SUCCESS);
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_uint_eq(STAT_NOW(ctx, ec_cold_reboots), 0);
	ck_assert_uint_eq(STAT_NOW(ctx, unplugs), 0);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * Refcount mode keeps the old EC alive for its files: they reach a zombie.
 * A cold reset sent to that zombie retires nothing: it is not the device.
 */
START_TEST(test_cold_reboot_refcount)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REFCOUNT);
	struct chardev_file *old = harness_open(ctx), *fresh;

	ck_assert_int_eq(reboot(old, EC_REBOOT_COLD), EC_RES_SUCCESS);
	ck_assert_int_eq(harness_hello(old), 4);
	ck_assert_uint_ge(STAT_NOW(ctx, zombie_accesses), 1);
	fresh = harness_open(ctx);
	ck_assert_int_eq(harness_hello(fresh), 4);

	ck_assert_int_eq(reboot(old, EC_REBOOT_COLD), EC_RES_SUCCESS);
	ck_assert_uint_eq(STAT_NOW(ctx, ec_cold_reboots), 1);
	ck_assert_uint_eq(STAT_NOW(ctx, plugs), 2);
	ck_assert_int_eq(harness_hello(fresh), 4);
	chardev_release(old);
	chardev_release(fresh);
	harness_ctx_free(ctx);
}
END_TEST

/* A gate for one file's commands; every other command passes freely. */
struct reboot_gate {
	struct harness_gate gate;
	struct chardev_file *file;
};

static void inside_gate_hook(void *arg, enum chardev_test_point point,
			     struct chardev_file *file)
{
	struct reboot_gate *rg = arg;

	if (point == CHARDEV_TEST_XCMD_ENTER && file == rg->file)
		harness_gate_pass(&rg->gate);
}

struct hello_arg {
	struct chardev_file *file;
	long ret;
};

static void *hello_thread(void *p)
{
	struct hello_arg *ha = p;

	ha->ret = harness_hello(ha->file);
	return NULL;
}

/*
 * A reboot while another command is inside the EC: the unplug starts, does
 * not wait in the rebooting request, and completes when that command leaves.
 * The command is held at the EC's entry until the reboot has answered.
 */
START_TEST(test_cold_reboot_with_command_inside)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *sender = harness_open(ctx), *busy = harness_open(ctx), *fresh;
	struct reboot_gate rg = { .gate = HARNESS_GATE_INIT(0), .file = busy };
	struct hello_arg ha = { .file = busy };
	pthread_t t;

	chardev_set_test_point(ctx, inside_gate_hook, &rg);
	ck_assert_int_eq(pthread_create(&t, NULL, hello_thread, &ha), 0);
	ck_assert_msg(harness_gate_wait_arrived(&rg.gate, 1), "the command never reached the EC");
	ck_assert_int_eq(reboot(sender, EC_REBOOT_COLD), EC_RES_SUCCESS);
	ck_assert_uint_eq(STAT_NOW(ctx, ec_cold_reboots), 1);
	ck_assert(chardev_is_plugged(ctx));
	/* The revoke waits for the command still inside. */
	ck_assert_uint_eq(STAT_NOW(ctx, revocations), 0);
	harness_gate_open(&rg.gate);
	pthread_join(t, NULL);
	chardev_set_test_point(ctx, NULL, NULL);
	/* The command inside was answered: the revoke waited for it. */
	ck_assert_int_eq(ha.ret, 4);
	WAIT_UNTIL(STAT_NOW(ctx, revocations) == 1);
	fresh = harness_open(ctx);
	ck_assert_int_eq(harness_hello(fresh), 4);
	chardev_release(sender);
	chardev_release(busy);
	chardev_release(fresh);
	harness_ctx_free(ctx);
}
END_TEST

struct reboot_inside {
	struct chardev_ctx *ctx;
	struct chardev_file *sender, *busy;
	bool fired;
	long reboot_ret;
	uint64_t reboots_at_reply;
};

/*
 * Where @busy's command is about to reach the EC, @sender's cold reboot
 * reaches it first, in full: what a thread that is scheduled sooner does.
 */
static void reboot_first_hook(void *arg, enum chardev_test_point point,
			      struct chardev_file *file)
{
	struct reboot_inside *ri = arg;

	if (point != CHARDEV_TEST_XCMD_ENTER || file != ri->busy || ri->fired)
		return;
	ri->fired = true;
	ri->reboot_ret = reboot(ri->sender, EC_REBOOT_COLD);
	ri->reboots_at_reply = STAT_NOW(ri->ctx, ec_cold_reboots);
}

/*
 * A command that entered the EC after another file's cold reboot, on an
 * access taken before it, runs on the old EC (the revoke waits for it) and
 * did not reset it: the reboot is its sender's alone, counted before the
 * sender's reply, and traced once, as the sender's.
 */
START_TEST(test_cold_reboot_credited_to_sender)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct reboot_inside ri = { .ctx = ctx };
	const struct chardev_trace_entry *cold;
	struct chardev_trace_entry *e;
	size_t n;

	ri.sender = harness_open(ctx);
	ri.busy = harness_open(ctx);
	chardev_set_test_point(ctx, reboot_first_hook, &ri);
	ck_assert_int_eq(harness_hello(ri.busy), 4);
	chardev_set_test_point(ctx, NULL, NULL);
	ck_assert(ri.fired);
	ck_assert_int_eq(ri.reboot_ret, EC_RES_SUCCESS);
	ck_assert_uint_eq(ri.reboots_at_reply, 1);
	WAIT_UNTIL(STAT_NOW(ctx, revocations) == 1);
	ck_assert_uint_eq(STAT_NOW(ctx, ec_cold_reboots), 1);

	e = calloc(CHARDEV_TRACE_DEFAULT_EVENTS, sizeof(*e));
	ck_assert_ptr_nonnull(e);
	n = chardev_trace_snapshot(chardev_trace(ctx), e, CHARDEV_TRACE_DEFAULT_EVENTS, NULL);
	cold = find(e, n, CHARDEV_TRACE_EC_COLD_REBOOT, 0);
	ck_assert_ptr_nonnull(cold);
	ck_assert_msg(cold->file == 1, "cold reboot traced as file %" PRIu64 "'s, not the sender's",
		      cold->file);
	ck_assert_msg(!find(e, n, CHARDEV_TRACE_EC_COLD_REBOOT, cold->seq),
		      "a second cold reboot traced, from file %" PRIu64,
		      find(e, n, CHARDEV_TRACE_EC_COLD_REBOOT, cold->seq)->file);
	free(e);

	chardev_release(ri.sender);
	chardev_release(ri.busy);
	harness_ctx_free(ctx);
}
END_TEST

static Suite *reboot_suite(void)
{
	Suite *s = suite_create("chardev_reboot");
	TCase *tc = tcase_create("reboot");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cold_reboot_revocable);
	tcase_add_test(tc, test_warm_reboot_keeps_device);
	tcase_add_test(tc, test_cold_reboot_refcount);
	tcase_add_test(tc, test_cold_reboot_credited_to_sender);
	suite_add_tcase(s, tc);

	/* A case of its own, so that it can be run alone (CK_RUN_CASE). */
	tc = tcase_create("command_inside");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cold_reboot_with_command_inside);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(reboot_suite());
}
