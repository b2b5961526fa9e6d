// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_fpmcu.c - the fingerprint MCU as a board (fingerprint.profile):
 * the RWSIG and rollback commands with their bad inputs; its kind of
 * firmware against the laptop EC's (each refuses the other's commands, its
 * memory map, a feature the kind cannot back); its profile rules and
 * description; docs/ec-commands.md's list of what it answers. The sensor's
 * own commands: test_ec_fp.c.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

#define NS_PER_MS 1000000ull
#define FP_PROFILE "ec/profiles/fingerprint.profile"

EC_TEST_FIXTURE(FP_PROFILE);

/* fingerprint.profile with @extra appended (a later key wins). */
static struct ec *fp_variant(const char *extra, struct fake_clock *clk)
{
	return make_ec_file_plus(FP_PROFILE, extra, clk);
}

static void no_event(struct ec *e)
{
	uint8_t resp[32];

	ck_assert_uint_eq(hc_status(e, EC_CMD_GET_NEXT_EVENT, 1, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_UNAVAILABLE);
}

/* ---- RWSIG and rollback ---- */

START_TEST(test_rwsig_and_rollback)
{
	struct ec_response_rwsig_info info;
	struct ec_response_rollback_info rb;
	uint32_t action = 2;
	uint8_t act;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_RWSIG_INFO, 0, NULL, 0, &info, sizeof(info), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(info.sig_alg, VB2_SIG_RSA3072_EXP3);
	ck_assert_uint_eq(info.hash_alg, VB2_HASH_SHA256);
	ck_assert_uint_eq(info.key_version, 1);
	ck_assert_uint_eq(info.key_is_valid, 1);
	/* The RWSIG task takes actions; it has no check-status command. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_RWSIG_ACTION, 0, &action, 3, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	action = RWSIG_ACTION_ABORT;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_RWSIG_CHECK_STATUS, 0, NULL, 0, &action, 4, NULL),
			  EC_RES_INVALID_COMMAND);

	ck_assert_uint_eq(hc_status(ec, EC_CMD_ROLLBACK_INFO, 0, NULL, 0, &rb, sizeof(rb), NULL),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(rb.id, 0);
	ck_assert_int_eq(rb.rollback_min_version, 0);
	ck_assert_int_eq(rb.rw_rollback_version, 0);

	/* ADD_ENTROPY: asynchronous, BUSY until the flash write is done. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	act = 3;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	act = ADD_ENTROPY_ASYNC;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_BUSY);
	act = ADD_ENTROPY_GET_RESULT;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_BUSY);
	fake_clock_advance(&fc, 250 * NS_PER_MS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ROLLBACK_INFO, 0, NULL, 0, &rb, sizeof(rb), NULL),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(rb.id, 1);
	/* RESET_ASYNC writes both blocks. */
	act = ADD_ENTROPY_RESET_ASYNC;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ADD_ENTROPY, 0, &act, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	fake_clock_advance(&fc, 250 * NS_PER_MS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_ROLLBACK_INFO, 0, NULL, 0, &rb, sizeof(rb), NULL),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(rb.id, 3);
}
END_TEST

START_TEST(test_rwsig_without_task)
{
	struct fake_clock clk;
	struct ec *e;
	uint32_t status = 9, action = RWSIG_ACTION_ABORT;

	fake_clock_init(&clk);
	/* Without the task there is no RWSIG_ACTION, so no rwsig feature. */
	e = fp_variant("[ec]\nfeatures = flash, fingerprint\n[rwsig]\ntask = no\n", &clk);
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_CHECK_STATUS, 0, NULL, 0, &status, 4, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(status, 1);
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_INVALID_COMMAND);
	ec_destroy(e);
	/* An RW image older than the rollback minimum does not verify. */
	e = fp_variant("[ec]\nfeatures = flash, fingerprint\n[rwsig]\ntask = no\n"
		       "rollback_min_version = 2\nrw_rollback_version = 1\n", &clk);
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_CHECK_STATUS, 0, NULL, 0, &status, 4, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(status, 0);
	ec_destroy(e);
}
END_TEST

static uint32_t running_image(struct ec *e)
{
	struct ec_response_get_version ver;

	ck_assert_uint_eq(hc_status(e, EC_CMD_GET_VERSION, 0, NULL, 0, &ver, sizeof(ver), NULL),
			  EC_RES_SUCCESS);
	return ver.current_image;
}

START_TEST(test_rwsig_action_in_ro)
{
	struct fake_clock clk;
	struct ec *e;
	uint32_t action = RWSIG_ACTION_CONTINUE;

	fake_clock_init(&clk);
	e = fp_variant("[ec]\ncurrent_image = ro\n", &clk);
	ck_assert_uint_eq(running_image(e), EC_IMAGE_RO);
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(running_image(e), EC_IMAGE_RW);
	ec_destroy(e);
	/* ABORT: the task stops, a later CONTINUE finds nobody to jump. */
	e = fp_variant("[ec]\ncurrent_image = ro\n", &clk);
	action = RWSIG_ACTION_ABORT;
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	action = RWSIG_ACTION_CONTINUE;
	ck_assert_uint_eq(hc_status(e, EC_CMD_RWSIG_ACTION, 0, &action, 4, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(running_image(e), EC_IMAGE_RO);
	ec_destroy(e);
}
END_TEST

/* ---- two kinds of firmware ---- */

/* The laptop's commands an FPMCU lacks, and the FPMCU's a laptop lacks. */
START_TEST(test_kinds_refuse_each_other)
{
	static const uint16_t laptop_only[] = {
		EC_CMD_BATTERY_GET_STATIC, EC_CMD_CHARGE_STATE, EC_CMD_TEMP_SENSOR_GET_INFO,
		EC_CMD_PWM_SET_FAN_DUTY, EC_CMD_MKBP_INFO, EC_CMD_HOST_EVENT_GET_B,
		EC_CMD_USB_PD_PORTS, EC_CMD_LED_CONTROL, EC_CMD_RTC_GET_VALUE,
		EC_CMD_GET_CROS_BOARD_INFO, EC_CMD_I2C_PASSTHRU, EC_CMD_HANG_DETECT,
	};
	static const uint16_t fp_only[] = {
		EC_CMD_FP_MODE, EC_CMD_FP_INFO, EC_CMD_FP_FRAME, EC_CMD_FP_TEMPLATE,
		EC_CMD_FP_CONTEXT, EC_CMD_FP_STATS, EC_CMD_FP_SEED, EC_CMD_FP_ENC_STATUS,
		EC_CMD_RWSIG_INFO, EC_CMD_RWSIG_ACTION, EC_CMD_RWSIG_CHECK_STATUS,
		EC_CMD_ADD_ENTROPY, EC_CMD_ROLLBACK_INFO,
	};
	struct fake_clock clk;
	struct ec *laptop;
	uint8_t resp[64];
	char console[512];
	size_t i;

	fake_clock_init(&clk);
	laptop = make_ec_file(NULL, &clk);
	for (i = 0; i < sizeof(laptop_only) / sizeof(laptop_only[0]); i++) {
		ck_assert_msg(ec_cmd_versions(laptop, laptop_only[i]), "0x%04x", laptop_only[i]);
		ck_assert_msg(hc_status(ec, laptop_only[i], 0, resp, 16, resp, sizeof(resp), NULL) ==
			      EC_RES_INVALID_COMMAND, "FPMCU answers 0x%04x", laptop_only[i]);
	}
	for (i = 0; i < sizeof(fp_only) / sizeof(fp_only[0]); i++)
		ck_assert_msg(hc_status(laptop, fp_only[i], 0, resp, 16, resp, sizeof(resp), NULL) ==
			      EC_RES_INVALID_COMMAND, "laptop answers 0x%04x", fp_only[i]);
	/* Both answer the identity, flash, console, events and reboot. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_INFO, 0, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_FEATURES, 0, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 1u << EC_FEATURE_FLASH | 1u << EC_FEATURE_FINGERPRINT |
				      1u << EC_FEATURE_RWSIG);
	ck_assert_uint_eq(le32(resp + 4), 0);
	/* Its boot banner names the board, and no lid or charger. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	memset(console, 0, sizeof(console));
	ck_assert_uint_eq(hc_status(ec, EC_CMD_CONSOLE_READ, 0, NULL, 0, console,
				    sizeof(console) - 1, NULL), EC_RES_SUCCESS);
	ck_assert_msg(strstr(console, "Board: bloonchipper"), "%s", console);
	ck_assert_msg(!strstr(console, "lid"), "%s", console);
	/* A finger on a laptop does nothing. */
	ck_assert_int_eq(ec_apply_stimulus(laptop, EC_STIM_FINGER_DOWN), 0);
	ck_assert_int_eq(ec_apply_stimulus(laptop, EC_STIM_FINGER_UP), 0);
	no_event(laptop);
	ec_destroy(laptop);
}
END_TEST

/* Its memory map (READ_MEMMAP) has the ID and nothing of a laptop. */
START_TEST(test_fpmcu_memmap)
{
	struct ec_params_read_memmap rm = { .offset = 0, .size = 255 };
	uint8_t map[255];

	ck_assert_uint_eq(hc_status(ec, EC_CMD_READ_MEMMAP, 0, &rm, sizeof(rm), map, sizeof(map),
				    NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(map[EC_MEMMAP_ID], 'E');
	ck_assert_uint_eq(map[EC_MEMMAP_ID + 1], 'C');
	ck_assert_uint_eq(map[EC_MEMMAP_HOST_CMD_FLAGS], EC_HOST_CMD_FLAG_VERSION_3);
	ck_assert_uint_eq(map[EC_MEMMAP_BATT_FLAG], 0);
	ck_assert_uint_eq(map[EC_MEMMAP_BATTERY_VERSION], 0);
	ck_assert_uint_eq(map[EC_MEMMAP_SWITCHES_VERSION], 0);
	ck_assert_uint_eq(map[EC_MEMMAP_THERMAL_VERSION], 0);
	ck_assert_uint_eq(map[EC_MEMMAP_FAN], 0);
}
END_TEST

/* A feature whose commands the board's kind lacks: no EC is built. */
START_TEST(test_kind_feature_mismatch)
{
	static char text[16384];
	struct ec_profile prof;
	struct ec *e = NULL;
	char err[256];
	FILE *f = fopen(test_path(FP_PROFILE), "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	snprintf(text + n, sizeof(text) - n, "\n[ec]\nfeatures = flash, fingerprint, thermal\n");
	ck_assert_int_eq(ec_profile_parse_text(text, "fp", &prof, err, sizeof(err)), 0);
	ck_assert_int_eq(ec_create(&prof, NULL, &e), -EINVAL);
	ck_assert_int_eq(ec_profile_parse_text("[ec]\nfeatures = fingerprint\n", "l", &prof, err,
					       sizeof(err)), 0);
	ck_assert_int_eq(ec_create(&prof, NULL, &e), -EINVAL);
	ck_assert_ptr_null(e);
}
END_TEST

/* The profile's fingerprint rules, each refused with its reason. */
START_TEST(test_fp_profile_bad)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "[fingerprint]\nwidth = 10\n", "need [ec] kind = fpmcu" },
		{ "[rwsig]\ntask = yes\n", "need [ec] kind = fpmcu" },
		{ "[ec]\nkind = fpmcu\n", "needs a [fingerprint] and an [rwsig] section" },
		{ "[ec]\nkind = laptop\n", "unknown value 'laptop' for 'kind'" },
		{ "[ec]\nkind = fpmcu\n[rwsig]\n[fingerprint]\nwidth = 10\n",
		  "[fingerprint] needs frame_size" },
		{ "[ec]\nkind = fpmcu\n[rwsig]\n[fingerprint]\nframe_size = 100\nwidth = 10\n"
		  "height = 10\nbpp = 8\ntemplate_size = 100\ntemplate_max = 1\n"
		  "pixel_format = GRY\n", "four-character code" },
		{ "[ec]\nkind = fpmcu\n[rwsig]\n[fingerprint]\nframe_size = 99\nwidth = 10\n"
		  "height = 10\nbpp = 8\ntemplate_size = 100\ntemplate_max = 1\n"
		  "pixel_format = GREY\n", "smaller than the 100-byte image" },
		{ "[ec]\nkind = fpmcu\n[rwsig]\n[fingerprint]\nframe_size = 100\nwidth = 10\n"
		  "height = 10\nbpp = 8\ntemplate_size = 64\ntemplate_max = 1\n"
		  "pixel_format = GREY\n", "must exceed the 64 bytes" },
		{ "[fingerprint]\ntemplate_max = 16\n", "template_max" },
		{ "[fingerprint]\nbpp = 16\n", "bpp" },
	};
	struct ec_profile prof;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ck_assert_int_eq(ec_profile_parse_text(bad[i].text, "p", &prof, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, bad[i].why), "%zu: '%s' lacks '%s'", i, err, bad[i].why);
	}
}
END_TEST

/* --check-profile's description names the kind and shows the sensor. */
START_TEST(test_fp_profile_described)
{
	struct ec_profile *prof;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_int_eq(ec_profile_load(test_path(FP_PROFILE), &prof, err, sizeof(err)), 0);
	ck_assert_int_eq(ec_profile_describe(prof, out), 0);
	fclose(out);
	ck_assert_msg(strstr(text, "kind:         fpmcu\n"), "%s", text);
	ck_assert_msg(strstr(text, "fingerprint:  sensor 20435046:9 model 0x21b, 160 x 160 GREY"),
		      "%s", text);
	ck_assert_msg(strstr(text, "rwsig:        RWSIG task in RO"), "%s", text);
	ck_assert_ptr_null(strstr(text, "keyboard:"));
	free(text);
	ec_profile_free(prof);
}
END_TEST

/* docs/ec-commands.md's list for fingerprint.profile is what it answers. */
START_TEST(test_doc_lists_what_fpmcu_answers)
{
	check_doc_answered_list(ec, "fingerprint");
}
END_TEST

static Suite *ec_fpmcu_suite(void)
{
	Suite *s = suite_create("ec_fpmcu");
	TCase *tc = tcase_create("fpmcu");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rwsig_and_rollback);
	tcase_add_test(tc, test_rwsig_without_task);
	tcase_add_test(tc, test_rwsig_action_in_ro);
	tcase_add_test(tc, test_kinds_refuse_each_other);
	tcase_add_test(tc, test_fpmcu_memmap);
	tcase_add_test(tc, test_kind_feature_mismatch);
	tcase_add_test(tc, test_fp_profile_bad);
	tcase_add_test(tc, test_fp_profile_described);
	tcase_add_test(tc, test_doc_lists_what_fpmcu_answers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_fpmcu_suite());
}
