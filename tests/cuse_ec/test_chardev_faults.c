// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_faults.c - the device's fault plan through the file
 * operations: a rule shapes the answer a client gets in every lifecycle
 * mode, is counted and traced, outlives a replug, and an injected unplug
 * lets its own command answer before the device goes.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "chardev_trace.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

static void add(struct chardev_ctx *ctx, const char *spec)
{
	struct ec_fault f;
	char err[160] = "";

	ck_assert_msg(!ec_fault_parse(spec, &f, err, sizeof(err)), "%s: %s", spec, err);
	ck_assert_int_eq(ec_fault_plan_add(chardev_fault_plan(ctx), &f), 0);
}

/* The last trace event @ev, or NULL; @e holds @n events. */
static const struct chardev_trace_entry *last(const struct chardev_trace_entry *e, size_t n,
					      enum chardev_trace_event ev)
{
	while (n--)
		if (e[n].event == ev)
			return &e[n];
	return NULL;
}

static struct chardev_trace_entry *snapshot(struct chardev_ctx *ctx, size_t *n)
{
	struct chardev_trace_entry *e = calloc(CHARDEV_TRACE_DEFAULT_EVENTS, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	*n = chardev_trace_snapshot(chardev_trace(ctx), e, CHARDEV_TRACE_DEFAULT_EVENTS, NULL);
	return e;
}

/* Each kind as a client sees it, in every mode (_i: the mode). */
START_TEST(test_kinds_through_the_file)
{
	struct chardev_ctx *ctx = harness_ctx((enum lifecycle_mode)_i);
	struct chardev_file *file = harness_open(ctx);
	const struct chardev_trace_entry *f;
	struct chardev_trace_entry *e;
	uint8_t resp[4];
	uint32_t result = 0;
	size_t n;

	add(ctx, "cmd=1,result=BUSY");
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, "\1\2\3\4", 4, resp, 4, &result), 0);
	ck_assert_uint_eq(result, EC_RES_BUSY);
	add(ctx, "cmd=1,eio");
	ck_assert_int_eq(harness_hello(file), -EIO);
	add(ctx, "cmd=1,oversize");
	ck_assert_int_eq(harness_hello(file), -EMSGSIZE);
	add(ctx, "cmd=1,short=1");
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, "\1\2\3\4", 4, resp, 4, &result), 1);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	/*
	 * IN_PROGRESS as the kernel's driver handles it: it polls
	 * GET_COMMS_STATUS and answers with that poll's SUCCESS and 4 bytes -
	 * the request's own, still in its buffer. RESEND_RESPONSE has the
	 * command's answer.
	 */
	add(ctx, "cmd=1,in_progress");
	memset(resp, 0xee, sizeof(resp));
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, "\1\2\3\4", 4, resp, 4, &result), 4);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert(!memcmp(resp, "\1\2\3\4", 4));
	ck_assert_int_eq(do_xcmd(file, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, 4, &result), 4);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert(!memcmp(resp, "\5\5\5\5", 4));
	add(ctx, "cmd=1,timeout");
	ck_assert_int_eq(harness_hello(file), -ETIMEDOUT);
	add(ctx, "cmd=1,delay=1ms");
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_int_eq(harness_hello(file), 4);

	ck_assert_uint_eq(STAT_NOW(ctx, faults_injected), 7);
	e = snapshot(ctx, &n);
	f = last(e, n, CHARDEV_TRACE_EC_FAULT);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->cmd, EC_CMD_HELLO);
	ck_assert_uint_eq(f->file, 1);
	ck_assert_int_eq(f->a, EC_FAULT_DELAY);
	ck_assert_int_eq(f->b, 4);
	free(e);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/* The plan is the device's: a rule's injections left outlive a replug. */
START_TEST(test_plan_outlives_replug)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = harness_open(ctx);

	add(ctx, "cmd=1,eio,times=2");
	ck_assert_int_eq(harness_hello(file), -EIO);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	chardev_release(file);
	file = harness_open(ctx);
	ck_assert_int_eq(harness_hello(file), -EIO);
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_uint_eq(STAT_NOW(ctx, faults_injected), 2);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * unplug: the command that drew it answers, then the device is gone as
 * after an operator's unplug (the trace has the fault before the revoke).
 */
START_TEST(test_injected_unplug)
{
	enum lifecycle_mode mode = (enum lifecycle_mode)_i;
	struct chardev_ctx *ctx = harness_ctx(mode);
	struct chardev_file *file = harness_open(ctx), *again;
	const struct chardev_trace_entry *f, *revoke;
	struct chardev_trace_entry *e;
	size_t n;

	add(ctx, "cmd=1,unplug");
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert(!chardev_is_plugged(ctx));
	ck_assert_uint_eq(STAT_NOW(ctx, unplugs), 1);
	e = snapshot(ctx, &n);
	f = last(e, n, CHARDEV_TRACE_EC_FAULT);
	revoke = last(e, n, CHARDEV_TRACE_REVOKE_START);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->a, EC_FAULT_UNPLUG);
	if (revoke)
		ck_assert_uint_gt(revoke->seq, f->seq);
	free(e);
	/*
	 * What an old file then gets is the mode's unplug answer: once the
	 * unplug is complete (fenced mode takes its write lock on a thread
	 * of its own, as for the "unplug" verb).
	 */
	if (mode == LIFECYCLE_REVOCABLE || mode == LIFECYCLE_FENCED) {
		WAIT_UNTIL(STAT_NOW(ctx, revocations) == 1);
		ck_assert_int_eq(harness_hello(file), -ENODEV);
	}
	else if (mode == LIFECYCLE_REFCOUNT)
		ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_int_eq(chardev_open(ctx, &again), -ENODEV);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	again = harness_open(ctx);
	ck_assert_int_eq(harness_hello(again), 4);
	chardev_release(again);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("chardev_faults");
	TCase *tc = tcase_create("faults");

	tcase_add_loop_test(tc, test_kinds_through_the_file, 0, (int)lifecycle_mode_count());
	tcase_add_test(tc, test_plan_outlives_replug);
	/* Not unsafe: its old file would reach the freed EC, by design. */
	tcase_add_loop_test(tc, test_injected_unplug, LIFECYCLE_REVOCABLE, LIFECYCLE_UNSAFE);
	tcase_add_loop_test(tc, test_injected_unplug, LIFECYCLE_FENCED, LIFECYCLE_FENCED + 1);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(faults_suite());
}
