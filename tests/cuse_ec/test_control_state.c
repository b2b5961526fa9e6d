// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_state.c - --state in the daemon's chardev layer and the
 * control verbs "save" and "load": a plug loads the file (none: a fresh
 * EC; a refused one: no plug), every unplug saves it, the verbs act on it
 * alone and answer each case as cuse_ec(8) says.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "control.h"
#include "harness.h"
#include "../check_run.h"

static char dir[32];
static char path[64];

static void setup(void)
{
	strcpy(dir, "/tmp/control-state-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ec.state", dir);
}

static void teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* One control line; returns control_execute()'s value, the reply in @reply. */
static int verb(struct chardev_ctx *ctx, const char *line, char *reply, size_t len)
{
	struct control_cmd cmd;
	char err[128];

	ck_assert_msg(control_parse(line, &cmd, err, sizeof(err)) == 0, "%s: %s", line, err);
	return control_execute(ctx, &cmd, reply, len);
}

static int set_backlight(struct ec *ec, void *arg)
{
	uint8_t percent = (uint8_t)(uintptr_t)arg;
	uint32_t status;

	return ec_host_command(ec, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &percent, 1, NULL, 0,
			       &status) < 0 || status ? -EIO : 0;
}

static int get_backlight(struct ec *ec, void *arg)
{
	(void)arg;
	return ec_kb_backlight_percent(ec);
}

static int backlight(struct chardev_ctx *ctx)
{
	return chardev_with_ec(ctx, get_backlight, NULL);
}

static void backlight_set(struct chardev_ctx *ctx, unsigned int percent)
{
	ck_assert_int_eq(chardev_with_ec(ctx, set_backlight, (void *)(uintptr_t)percent), 0);
}

START_TEST(test_no_state_file)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char reply[256];

	ck_assert_int_eq(verb(ctx, "save", reply, sizeof(reply)), -EDESTADDRREQ);
	ck_assert_str_eq(reply, "error no --state file errno=EDESTADDRREQ");
	ck_assert_int_eq(verb(ctx, "load", reply, sizeof(reply)), -EDESTADDRREQ);
	ck_assert_str_eq(reply, "error no --state file errno=EDESTADDRREQ");
	/* Without --state a replug is a fresh EC. */
	backlight_set(ctx, 44);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(backlight(ctx), 0);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_verbs_and_replug)
{
	struct chardev_ctx *ctx;
	char reply[512];
	struct stat st;
	size_t n;

	/* No file yet: a fresh EC. */
	ck_assert_int_eq(harness_ctx_state(LIFECYCLE_REVOCABLE, path, &ctx), 0);
	ck_assert_int_eq(backlight(ctx), 0);
	backlight_set(ctx, 37);
	ck_assert_int_eq(verb(ctx, "save", reply, sizeof(reply)), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(sscanf(reply, "ok saved bytes=%zu", &n), 1);
	ck_assert_uint_eq(n, (size_t)st.st_size);
	backlight_set(ctx, 5);
	ck_assert_int_eq(verb(ctx, "load", reply, sizeof(reply)), 0);
	ck_assert_int_eq(sscanf(reply, "ok loaded fields=%zu", &n), 1);
	ck_assert_uint_gt(n, 100);
	ck_assert_int_eq(backlight(ctx), 37);

	/* An unplug saves; the next plug continues from it. */
	backlight_set(ctx, 80);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(verb(ctx, "save", reply, sizeof(reply)), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	ck_assert_int_eq(verb(ctx, "load", reply, sizeof(reply)), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	ck_assert_int_eq(verb(ctx, "plug", reply, sizeof(reply)), 0);
	ck_assert_int_eq(backlight(ctx), 80);

	/* A corrupt file: the verb refuses it, the EC stays as it was. */
	ck_assert_int_eq(truncate(path, st.st_size - 1), 0);
	backlight_set(ctx, 22);
	ck_assert_int_eq(verb(ctx, "load", reply, sizeof(reply)), -EBADMSG);
	ck_assert_msg(!strncmp(reply, "error load refused: ", 20) && strstr(reply, "corrupt") &&
		      strstr(reply, " errno=EBADMSG"), "%s", reply);
	ck_assert_int_eq(backlight(ctx), 22);
	/* Counted: saves by the verb and the unplug, loads by the verb and the plug. */
	ck_assert_uint_eq(STAT_NOW(ctx, state_saves), 2);
	ck_assert_uint_eq(STAT_NOW(ctx, state_loads), 2);
	ck_assert_uint_eq(STAT_NOW(ctx, state_refused), 1);
	harness_ctx_free(ctx);	/* the last unplug saves over it */

	/* A plug with a file it refuses: no EC. */
	ck_assert_int_eq(harness_ctx_state(LIFECYCLE_REVOCABLE, path, &ctx), 0);
	ck_assert_int_eq(backlight(ctx), 22);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(truncate(path, 8), 0);
	ck_assert_int_eq(verb(ctx, "plug", reply, sizeof(reply)), -EBADMSG);
	ck_assert_str_eq(reply, "error plug failed: Bad message errno=EBADMSG");
	ck_assert(!chardev_is_plugged(ctx));
	ck_assert_uint_eq(STAT_NOW(ctx, state_refused), 1);
	harness_ctx_free(ctx);
}
END_TEST

static int set_sku(struct ec *ec, void *arg)
{
	uint32_t req[4] = { CBI_TAG_SKU_ID, 0, 4, (uint32_t)(uintptr_t)arg }, status;

	return ec_host_command(ec, EC_CMD_SET_CROS_BOARD_INFO, 0, req, sizeof(req), NULL, 0,
			       &status) < 0 || status ? -EIO : 0;
}

static int get_sku(struct ec *ec, void *arg)
{
	uint32_t req[2] = { CBI_TAG_SKU_ID, 0 }, sku = 0, status;

	(void)arg;
	if (ec_host_command(ec, EC_CMD_GET_CROS_BOARD_INFO, 0, req, sizeof(req), &sku,
			    sizeof(sku), &status) != 4 || status)
		return -EIO;
	return (int)sku;
}

/*
 * Every unplug saves, whatever made it: an injected unplug fault, and a cold
 * reset (whose new EC then keeps what the EEPROM kept, as a real one does).
 */
START_TEST(test_every_unplug_saves)
{
	struct ec_params_reboot_ec reboot = { .cmd = EC_REBOOT_COLD };
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	char reply[256];
	uint32_t result;

	ck_assert_int_eq(harness_ctx_state(LIFECYCLE_REVOCABLE, path, &ctx), 0);
	backlight_set(ctx, 61);
	file = harness_open(ctx);
	ck_assert_int_eq(verb(ctx, "fault cmd=1,unplug", reply, sizeof(reply)), 0);
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert(!chardev_is_plugged(ctx));
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(backlight(ctx), 61);

	ck_assert_int_eq(chardev_with_ec(ctx, set_sku, (void *)(uintptr_t)0x5150), 0);
	file = harness_open(ctx);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_REBOOT_EC, 0, &reboot, sizeof(reboot), NULL, 0,
				 &result), 0);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert(chardev_is_plugged(ctx));
	ck_assert_int_eq(chardev_with_ec(ctx, get_sku, NULL), 0x5150);
	harness_ctx_free(ctx);
}
END_TEST

static Suite *control_state_suite(void)
{
	Suite *s = suite_create("control_state");
	TCase *tc = tcase_create("state");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_no_state_file);
	tcase_add_test(tc, test_verbs_and_replug);
	tcase_add_test(tc, test_every_unplug_saves);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(control_state_suite());
}
