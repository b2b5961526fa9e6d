// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_reboot.c - REBOOT_EC: what a reset starts over and what it keeps,
 * the reset causes GET_UPTIME_INFO and SYSINFO report, image jumps, pending
 * reboots and the bad inputs.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

static uint32_t run(uint32_t cmd, uint32_t ver, const void *req, size_t len, void *resp,
		    size_t resp_max)
{
	return hc_status(ec, cmd, ver, req, len, resp, resp_max, NULL);
}

static uint32_t reboot(uint8_t cmd, uint8_t flags)
{
	uint8_t req[2] = { cmd, flags };

	return run(EC_CMD_REBOOT_EC, 0, req, 2, NULL, 0);
}

/* GET_UPTIME_INFO: uptime ms and reset flags. */
static void uptime(uint32_t *ms, uint32_t *flags)
{
	uint8_t r[44];

	ck_assert_uint_eq(run(EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, r, 44), EC_RES_SUCCESS);
	*ms = le32(r);
	*flags = le32(r + 8);
}

static uint32_t sysinfo(uint32_t *flags)
{
	uint8_t r[12];

	ck_assert_uint_eq(run(EC_CMD_SYSINFO, 0, NULL, 0, r, 12), EC_RES_SUCCESS);
	if (flags)
		*flags = le32(r + 8);
	return le32(r);
}

static uint32_t image(void)
{
	uint8_t r[100];

	ck_assert_uint_eq(run(EC_CMD_GET_VERSION, 0, NULL, 0, r, 100), EC_RES_SUCCESS);
	return le32(r + 96);
}

START_TEST(test_cold_reboot)
{
	uint8_t bl = 40, r[76], cbi_set[13] = { CBI_TAG_SSFC, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7 };
	uint8_t wr[12] = { 0, 0, 0, 0, 4, 0, 0, 0, 0x12, 0x34, 0x56, 0x78 };
	uint8_t cbi_get[8] = { CBI_TAG_SSFC };
	uint32_t ms, flags, rtc, mask = 0x1234, alarm = 100;

	uptime(&ms, &flags);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_POWER_ON);
	ck_assert_uint_eq(sysinfo(NULL), EC_RESET_FLAG_POWER_ON);
	fake_clock_advance(&fc, 10 * NS_PER_S);
	uptime(&ms, &flags);
	ck_assert_uint_ge(ms, 10000);

	/* RAM state the reset must drop, and non-volatile state it must keep. */
	run(EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &bl, 1, NULL, 0);
	run(EC_CMD_HOST_EVENT_SET_SCI_MASK, 0, &mask, 4, NULL, 0);
	run(EC_CMD_RTC_SET_ALARM, 0, &alarm, 4, NULL, 0);
	ck_assert_uint_eq(run(EC_CMD_SET_CROS_BOARD_INFO, 0, cbi_set, 13, NULL, 0),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(run(EC_CMD_FLASH_ERASE, 0, (uint8_t[8]){ 0, 0, 0, 0, 0, 0x10 }, 8,
			      NULL, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(run(EC_CMD_FLASH_WRITE, 0, wr, 12, NULL, 0), EC_RES_SUCCESS);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_CLOSE), 0);
	ck_assert_uint_eq(run(EC_CMD_RTC_GET_VALUE, 0, NULL, 0, r, 4), EC_RES_SUCCESS);
	rtc = le32(r);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);

	ck_assert_uint_eq(reboot(EC_REBOOT_COLD, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_cold_resets(ec), 1);
	uptime(&ms, &flags);
	ck_assert_uint_eq(ms, 0);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD);
	ck_assert_uint_eq(sysinfo(NULL), EC_RESET_FLAG_HARD);

	run(EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, r, 2);
	ck_assert_uint_eq(r[0], 0);
	run(EC_CMD_HOST_EVENT_GET_SCI_MASK, 0, NULL, 0, r, 4);
	ck_assert_uint_eq(le32(r), 0);
	run(EC_CMD_RTC_GET_ALARM, 0, NULL, 0, r, 4);
	ck_assert_uint_eq(le32(r), 0);
	/* The wall clock ran on; CBI, flash and the lid are as they were. */
	run(EC_CMD_RTC_GET_VALUE, 0, NULL, 0, r, 4);
	ck_assert_uint_ge(le32(r), rtc);
	ck_assert_uint_le(le32(r), rtc + 1);
	ck_assert_uint_eq(run(EC_CMD_GET_CROS_BOARD_INFO, 0, cbi_get, 8, r, 8), EC_RES_SUCCESS);
	ck_assert_uint_eq(r[0], 7);
	ck_assert_uint_eq(run(EC_CMD_FLASH_READ, 0, (uint8_t[8]){ 0, 0, 0, 0, 4 }, 8, r, 4),
			  EC_RES_SUCCESS);
	ck_assert_mem_eq(r, wr + 8, 4);
	run(EC_CMD_MKBP_INFO, 0, (uint8_t[2]){ EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_SWITCH }, 2,
	    r, 4);
	ck_assert_uint_eq(le32(r) & 1, 0);	/* lid still closed */
	/* The boot hash of RW runs again. */
	ck_assert_uint_eq(run(EC_CMD_VBOOT_HASH, 0, (uint8_t[76]){ EC_VBOOT_HASH_GET }, 76, r, 76),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r[0], EC_VBOOT_HASH_STATUS_BUSY);

	fake_clock_advance(&fc, 3 * NS_PER_S);
	uptime(&ms, &flags);
	ck_assert_uint_ge(ms, 3000);
}
END_TEST

START_TEST(test_reset_causes)
{
	uint32_t ms, flags;

	ck_assert_uint_eq(reboot(EC_REBOOT_COLD_AP_OFF, 0), EC_RES_SUCCESS);
	uptime(&ms, &flags);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD | EC_RESET_FLAG_AP_OFF);
	ck_assert_uint_eq(reboot(EC_REBOOT_HIBERNATE, 0), EC_RES_SUCCESS);
	uptime(&ms, &flags);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HIBERNATE);
	ck_assert_uint_eq(ec_cold_resets(ec), 2);
}
END_TEST

START_TEST(test_jump)
{
	uint32_t ms, flags, sys;

	fake_clock_advance(&fc, 2 * NS_PER_S);
	ck_assert_uint_eq(image(), EC_IMAGE_RW);
	ck_assert_uint_eq(reboot(EC_REBOOT_JUMP_RO, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(image(), EC_IMAGE_RO);
	uptime(&ms, &flags);
	ck_assert_uint_ge(ms, 2000);			/* no reset */
	ck_assert_uint_eq(flags, EC_RESET_FLAG_POWER_ON | EC_RESET_FLAG_SYSJUMP);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);

	sysinfo(&sys);
	ck_assert(sys & SYSTEM_JUMP_ENABLED);
	ck_assert_uint_eq(reboot(EC_REBOOT_DISABLE_JUMP, 0), EC_RES_SUCCESS);
	sysinfo(&sys);
	ck_assert(!(sys & SYSTEM_JUMP_ENABLED));
	ck_assert_uint_eq(reboot(EC_REBOOT_JUMP_RW, 0), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(image(), EC_IMAGE_RO);

	/* A cold reset boots the board's image and allows jumps again. */
	ck_assert_uint_eq(reboot(EC_REBOOT_COLD, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(image(), EC_IMAGE_RW);
	ck_assert_uint_eq(reboot(EC_REBOOT_JUMP_RO, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(reboot(EC_REBOOT_JUMP_RW, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(image(), EC_IMAGE_RW);
}
END_TEST

START_TEST(test_pending_and_bad_inputs)
{
	uint32_t ms, flags;

	fake_clock_advance(&fc, NS_PER_S);
	/* The simulated AP never shuts down: the reboot waits, CANCEL drops it. */
	ck_assert_uint_eq(reboot(EC_REBOOT_COLD, EC_REBOOT_FLAG_ON_AP_SHUTDOWN), EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);
	uptime(&ms, &flags);
	ck_assert_uint_ge(ms, 1000);
	ck_assert_uint_eq(reboot(EC_REBOOT_CANCEL, 0), EC_RES_SUCCESS);

	ck_assert_uint_eq(reboot(3, 0), EC_RES_INVALID_PARAM);	/* was jump to RW-B */
	ck_assert_uint_eq(reboot(99, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_REBOOT_EC, 0, NULL, 0, NULL, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_REBOOT_EC, 1, (uint8_t[2]){ 0 }, 2, NULL, 0),
			  EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);
}
END_TEST

/* With WP asserted, RO_AT_BOOT in flash protects RO again after the reset. */
START_TEST(test_reboot_keeps_protection)
{
	uint32_t req[2] = { EC_FLASH_PROTECT_RO_AT_BOOT, EC_FLASH_PROTECT_RO_AT_BOOT };
	uint8_t r[12];

	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_ASSERT), 0);
	ck_assert_uint_eq(run(EC_CMD_FLASH_PROTECT, 1, req, 8, r, 12), EC_RES_SUCCESS);
	ck_assert_uint_eq(reboot(EC_REBOOT_COLD, 0), EC_RES_SUCCESS);
	req[0] = 0;
	ck_assert_uint_eq(run(EC_CMD_FLASH_PROTECT, 1, req, 8, r, 12), EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(r) & (EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_RO_NOW |
				     EC_FLASH_PROTECT_GPIO_ASSERTED),
			  EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_RO_NOW |
			  EC_FLASH_PROTECT_GPIO_ASSERTED);
}
END_TEST

/* REBOOT_EC @cmd through ec_host_command_effects(); returns what it reports. */
static uint32_t reboot_reported(uint8_t cmd)
{
	struct ec_cmd_effects fx = { .cold_resets = 99 };
	uint8_t req[2] = { cmd, 0 };
	uint32_t status;

	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_REBOOT_EC, 0, req, 2, NULL, 0,
						 &status, &fx), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_NONE);
	return fx.cold_resets;
}

/* The command that made a cold reset says so, with the count; others say 0. */
START_TEST(test_reset_reported_by_its_command)
{
	struct ec_cmd_effects fx = { .cold_resets = 99 };
	uint32_t status;
	uint8_t r[4];

	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_HELLO, 0, (uint8_t[4]){ 1 }, 4,
						 r, 4, &status, &fx), 4);
	ck_assert_uint_eq(fx.cold_resets, 0);
	ck_assert_uint_eq(reboot_reported(EC_REBOOT_JUMP_RO), 0);
	ck_assert_uint_eq(reboot_reported(EC_REBOOT_COLD), 1);
	ck_assert_uint_eq(reboot_reported(EC_REBOOT_HIBERNATE), 2);
	ck_assert_uint_eq(ec_host_command_effects(ec, EC_CMD_HELLO, 0, (uint8_t[4]){ 1 }, 4,
						  r, 4, &status, &fx), 4);
	ck_assert_uint_eq(fx.cold_resets, 0);
	ck_assert_uint_eq(ec_cold_resets(ec), 2);
	/* A rejected call reports none, and NULL asks for nothing. */
	fx.cold_resets = 99;
	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_HELLO, 0, NULL, 4, r, 4, &status,
						 &fx), -EINVAL);
	ck_assert_uint_eq(fx.cold_resets, 0);
	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_REBOOT_EC,
						 0, (uint8_t[2]){ EC_REBOOT_COLD }, 2, NULL, 0,
						 &status, NULL), 0);
	ck_assert_uint_eq(ec_cold_resets(ec), 3);
}
END_TEST

static Suite *reboot_suite(void)
{
	Suite *s = suite_create("reboot");
	TCase *tc = tcase_create("reboot");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cold_reboot);
	tcase_add_test(tc, test_reset_causes);
	tcase_add_test(tc, test_jump);
	tcase_add_test(tc, test_pending_and_bad_inputs);
	tcase_add_test(tc, test_reboot_keeps_protection);
	tcase_add_test(tc, test_reset_reported_by_its_command);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(reboot_suite());
}
