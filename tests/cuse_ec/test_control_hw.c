// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_hw.c - the control verbs that move a convertible's hardware
 * ("motion angle", "motion tablet on|off", "button vup|vdown|rec"): every
 * bad input refused with its reason and EINVAL before it reaches the EC; on
 * the laptop the EC's own answer follows the move (MOTION_SENSE's lid
 * angle, MKBP's switches and buttons); a board without the hardware (the
 * fingerprint MCU) is EOPNOTSUPP, an unplugged EC ENODEV, as cuse_ec(8)
 * says.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "control.h"
#include "harness.h"
#include "../check_run.h"

/* One control line; returns control_execute()'s value, the reply in @reply. */
static int verb(struct chardev_ctx *ctx, const char *line, char *reply, size_t len)
{
	struct control_cmd cmd;
	char err[160];

	ck_assert_msg(control_parse(line, &cmd, err, sizeof(err)) == 0, "%s: %s", line, err);
	return control_execute(ctx, &cmd, reply, len);
}

/* @line is refused by the parser with EINVAL and a reason starting @why. */
static void refused(const char *line, const char *why)
{
	struct control_cmd cmd;
	char err[160];

	ck_assert_msg(control_parse(line, &cmd, err, sizeof(err)) == -EINVAL,
		      "'%s' was taken", line);
	ck_assert_msg(!strncmp(err, why, strlen(why)), "'%s': '%s', expected '%s...'", line, err,
		      why);
}

#define MOTION_USAGE "usage: motion angle DEGREES | motion tablet on | motion tablet off"
#define BUTTON_USAGE "usage: button vup MS | button vdown MS | button rec MS"

START_TEST(test_bad_inputs)
{
	refused("motion", MOTION_USAGE);
	refused("motion angle", MOTION_USAGE);
	refused("motion angle 90 91", MOTION_USAGE);
	refused("motion tablet", MOTION_USAGE);
	refused("motion tablet maybe", MOTION_USAGE);
	refused("motion tablet on now", MOTION_USAGE);
	refused("motion angle 361", "invalid DEGREES");
	refused("motion angle 4294967296", "invalid DEGREES");
	refused("motion angle -1", "invalid DEGREES");
	refused("motion angle 9x", "invalid DEGREES");
	refused("motion angle ninety", "invalid DEGREES");
	refused("button", BUTTON_USAGE);
	refused("button vup", BUTTON_USAGE);
	refused("button power 100", BUTTON_USAGE);
	refused("button vup 100 200", BUTTON_USAGE);
	refused("button vup 0", "invalid MS");
	refused("button vdown 60001", "invalid MS");
	refused("button rec 1.5", "invalid MS");
	refused("@../fp motion angle 90", "bad device name");
}
END_TEST

START_TEST(test_good_values_parse)
{
	struct control_cmd cmd;
	char err[160];

	ck_assert_int_eq(control_parse("motion angle 0", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.lid_angle, 0);
	ck_assert_int_eq(control_parse("@cros_ec motion angle 360", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.lid_angle, 360);
	ck_assert_str_eq(cmd.device, "cros_ec");
	ck_assert_int_eq(control_parse("button vdown 60000", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.button, EC_MKBP_VOL_DOWN);
	ck_assert_uint_eq(cmd.press_ms, 60000);
	ck_assert_int_eq(control_parse("button rec 1", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.button, EC_MKBP_RECOVERY);
	ck_assert_int_eq(control_parse("button vup 5", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.button, EC_MKBP_VOL_UP);
}
END_TEST

/* MOTION_SENSE v2 LID_ANGLE: the EC's reading, in degrees. */
static int lid_angle(struct chardev_file *file)
{
	uint8_t req[8] = { MOTIONSENSE_CMD_LID_ANGLE };
	int16_t resp[8] = { 0 };
	uint32_t result = 0xff;

	ck_assert_int_ge(do_xcmd(file, EC_CMD_MOTION_SENSE_CMD, 2, req, sizeof(req), resp,
				 sizeof(resp), &result), 2);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	return resp[0];
}

/* MKBP_INFO CURRENT of @event_type (SWITCH or BUTTON): its bits now. */
static uint32_t mkbp_current(struct chardev_file *file, uint8_t event_type)
{
	struct ec_params_mkbp_info p = { .info_type = EC_MKBP_INFO_CURRENT,
					 .event_type = event_type };
	uint32_t bits = 0, result = 0xff;

	ck_assert_int_eq(do_xcmd(file, EC_CMD_MKBP_INFO, 0, &p, sizeof(p), &bits, sizeof(bits),
				 &result), 4);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	return bits;
}

START_TEST(test_laptop_moves)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = harness_open(ctx);
	char reply[160];

	ck_assert_int_eq(verb(ctx, "motion angle 180", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok lid_angle=180 tablet_mode=0");
	ck_assert_int_eq(lid_angle(file), 180);
	ck_assert_uint_eq(mkbp_current(file, EC_MKBP_EVENT_SWITCH) & (1u << EC_MKBP_TABLET_MODE),
			  0);
	ck_assert_int_eq(verb(ctx, "motion angle 300", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok lid_angle=300 tablet_mode=1");
	ck_assert_int_eq(lid_angle(file), 300);
	ck_assert_uint_ne(mkbp_current(file, EC_MKBP_EVENT_SWITCH) & (1u << EC_MKBP_TABLET_MODE),
			  0);
	ck_assert_int_eq(verb(ctx, "motion tablet off", reply, sizeof(reply)), 0);
	/*
	 * Folded flat, the accelerometers read 0 degrees while the lid switch
	 * says open: the EC calls the angle unreliable (LID_ANGLE_UNRELIABLE).
	 */
	ck_assert_int_eq(verb(ctx, "motion tablet on", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok lid_angle=500 tablet_mode=1");
	ck_assert_int_eq(lid_angle(file), 500);
	ck_assert_uint_ne(mkbp_current(file, EC_MKBP_EVENT_SWITCH) & (1u << EC_MKBP_TABLET_MODE),
			  0);
	ck_assert_int_eq(verb(ctx, "motion tablet off", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok lid_angle=110 tablet_mode=0");
	ck_assert_uint_eq(mkbp_current(file, EC_MKBP_EVENT_SWITCH) & (1u << EC_MKBP_TABLET_MODE),
			  0);
	/* Held a minute of the EC's clock: still down when asked. */
	ck_assert_int_eq(verb(ctx, "button vdown 60000", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok button vdown held 60000 ms");
	ck_assert_uint_ne(mkbp_current(file, EC_MKBP_EVENT_BUTTON) & (1u << EC_MKBP_VOL_DOWN), 0);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_unplugged_is_enodev)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char reply[160];

	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(verb(ctx, "motion angle 90", reply, sizeof(reply)), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	ck_assert_int_eq(verb(ctx, "button vup 10", reply, sizeof(reply)), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	harness_ctx_free(ctx);
}
END_TEST

/* The fingerprint MCU has no hinge and no side buttons. */
START_TEST(test_no_sensors_is_eopnotsupp)
{
	struct chardev_config config = { .mode = LIFECYCLE_REVOCABLE };
	const char *top = getenv("top_srcdir");
	struct ec_profile *profile;
	struct chardev_ctx *ctx;
	char path[512], err[256], reply[160];

	snprintf(path, sizeof(path), "%s/ec/profiles/fingerprint.profile", top ? top : ".");
	ck_assert_msg(ec_profile_load(path, &profile, err, sizeof(err)) == 0, "%s", err);
	config.profile = profile;
	config.ops = harness_ops();
	ck_assert_int_eq(chardev_ctx_create(&config, &ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(verb(ctx, "motion angle 90", reply, sizeof(reply)), -EOPNOTSUPP);
	ck_assert_str_eq(reply, "error this board has no lid angle (no lid and base "
			 "accelerometers in its profile) errno=EOPNOTSUPP");
	ck_assert_int_eq(verb(ctx, "motion tablet on", reply, sizeof(reply)), -EOPNOTSUPP);
	ck_assert_int_eq(verb(ctx, "button vup 10", reply, sizeof(reply)), -EOPNOTSUPP);
	ck_assert_str_eq(reply, "error this board has no such button (its profile's [keyboard] "
			 "buttons) errno=EOPNOTSUPP");
	harness_ctx_free(ctx);
}
END_TEST

static Suite *control_hw_suite(void)
{
	Suite *s = suite_create("control_hw");
	TCase *tc = tcase_create("hw");

	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_good_values_parse);
	tcase_add_test(tc, test_laptop_moves);
	tcase_add_test(tc, test_unplugged_is_enodev);
	tcase_add_test(tc, test_no_sensors_is_eopnotsupp);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(control_hw_suite());
}
