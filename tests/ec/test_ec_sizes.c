// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_sizes.c - one success case per host command and version: the
 * response sizes of the ABI, exact-size and one-short buffers, on the
 * laptop, on the two-port board and on the fingerprint MCU; and that the
 * cases cover the table.
 */
#include <check.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

#define RESP_MAX 248

struct size_case {
	uint32_t cmd;
	uint32_t ver;
	uint8_t req[40];
	size_t req_len;
	int size;		/* expected response bytes; -1 = string (>= 1) */
};

/* One success case per command and version, with the ABI doc's sizes. */
static const struct size_case size_cases[] = {
	{ EC_CMD_HELLO, 0, { 1, 2, 3, 4 }, 4, 4 },
	{ EC_CMD_GET_VERSION, 0, { 0 }, 0, 100 },
	{ EC_CMD_GET_VERSION, 1, { 0 }, 0, 132 },
	{ EC_CMD_GET_BUILD_INFO, 0, { 0 }, 0, -1 },
	{ EC_CMD_GET_CHIP_INFO, 0, { 0 }, 0, 96 },
	{ EC_CMD_GET_BOARD_VERSION, 0, { 0 }, 0, 2 },
	{ EC_CMD_READ_MEMMAP, 0, { 0x20, 2 }, 2, 2 },
	{ EC_CMD_GET_CMD_VERSIONS, 0, { EC_CMD_GET_VERSION }, 1, 4 },
	{ EC_CMD_GET_CMD_VERSIONS, 1, { 0x01, 0x06 }, 2, 4 },
	{ EC_CMD_GET_COMMS_STATUS, 0, { 0 }, 0, 4 },
	{ EC_CMD_TEST_PROTOCOL, 0, { 0, 0, 0, 0, 8 }, 40, 8 },
	{ EC_CMD_GET_PROTOCOL_INFO, 0, { 0 }, 0, 12 },
	{ EC_CMD_GET_FEATURES, 0, { 0 }, 0, 8 },
	{ EC_CMD_FLASH_INFO, 0, { 0 }, 0, 16 },
	{ EC_CMD_FLASH_INFO, 1, { 0 }, 0, 24 },
	{ EC_CMD_FLASH_READ, 0, { 0, 0, 0, 0, 16 }, 8, 16 },
	{ EC_CMD_FLASH_WRITE, 0, { 0, 0, 0, 0, 4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF }, 12, 0 },
	{ EC_CMD_FLASH_WRITE, 1, { 0, 0, 0, 0, 4, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF }, 12, 0 },
	{ EC_CMD_FLASH_ERASE, 0, { 0, 0, 0, 0, 0, 0x10 }, 8, 0 },
	{ EC_CMD_FLASH_ERASE, 1, { FLASH_ERASE_GET_RESULT }, 12, 0 },
	{ EC_CMD_FLASH_PROTECT, 1, { 0 }, 8, 12 },
	{ EC_CMD_FLASH_REGION_INFO, 1, { EC_FLASH_REGION_RO }, 4, 8 },
	{ EC_CMD_FLASH_SPI_INFO, 0, { 0 }, 0, 8 },
	{ EC_CMD_RAND_NUM, 0, { 16 }, 2, 16 },
	{ EC_CMD_SYSINFO, 0, { 0 }, 0, 12 },
	{ EC_CMD_PWM_SET_FAN_TARGET_RPM, 0, { 0xB8, 0x0B }, 4, 0 },
	{ EC_CMD_PWM_SET_FAN_TARGET_RPM, 1, { 0xB8, 0x0B, 0, 0, 0 }, 5, 0 },
	{ EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, { 0 }, 0, 2 },
	{ EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, { 40 }, 1, 0 },
	{ EC_CMD_PWM_SET_FAN_DUTY, 0, { 50 }, 4, 0 },
	{ EC_CMD_PWM_SET_FAN_DUTY, 1, { 50, 0, 0, 0, 0 }, 5, 0 },
	{ EC_CMD_PWM_SET_DUTY, 0, { 0xFF, 0x7F, EC_PWM_TYPE_GENERIC, 0 }, 4, 0 },
	{ EC_CMD_PWM_GET_DUTY, 0, { EC_PWM_TYPE_GENERIC, 0 }, 2, 2 },
	{ EC_CMD_LED_CONTROL, 1, { EC_LED_ID_BATTERY_LED, EC_LED_FLAGS_QUERY }, 8, 6 },
	{ EC_CMD_VBOOT_HASH, 0, { EC_VBOOT_HASH_GET }, 76, 76 },
	{ EC_CMD_MOTION_SENSE_CMD, 1, { MOTIONSENSE_CMD_DUMP, 16 }, 2, 2 + 3 * 8 },
	{ EC_CMD_MOTION_SENSE_CMD, 2, { MOTIONSENSE_CMD_INFO, 0 }, 2, 3 },
	{ EC_CMD_MOTION_SENSE_CMD, 3, { MOTIONSENSE_CMD_INFO, 1 }, 2, 16 },
	{ EC_CMD_MOTION_SENSE_CMD, 4, { MOTIONSENSE_CMD_INFO, 2 }, 2, 19 },
	{ EC_CMD_FORCE_LID_OPEN, 0, { 1 }, 1, 0 },
	{ EC_CMD_USB_CHARGE_SET_MODE, 0, { 0, USB_CHARGE_MODE_CDP }, 2, 0 },
	{ EC_CMD_RTC_GET_VALUE, 0, { 0 }, 0, 4 },
	{ EC_CMD_RTC_GET_ALARM, 0, { 0 }, 0, 4 },
	{ EC_CMD_RTC_SET_VALUE, 0, { 0, 0, 0, 0x60 }, 4, 0 },
	{ EC_CMD_RTC_SET_ALARM, 0, { 10 }, 4, 0 },
	{ EC_CMD_PORT80_READ, 0, { 0 }, 0, 2 },
	{ EC_CMD_PORT80_READ, 1, { EC_PORT80_GET_INFO }, 10, 12 },
	{ EC_CMD_THERMAL_SET_THRESHOLD, 1, { 0 }, 36, 0 },
	{ EC_CMD_THERMAL_GET_THRESHOLD, 1, { 0 }, 4, 32 },
	{ EC_CMD_THERMAL_AUTO_FAN_CTRL, 0, { 0 }, 0, 0 },
	{ EC_CMD_THERMAL_AUTO_FAN_CTRL, 1, { 0 }, 1, 0 },
	{ EC_CMD_MKBP_INFO, 0, { EC_MKBP_INFO_KBD }, 2, 9 },
	{ EC_CMD_MKBP_SIMULATE_KEY, 0, { 0, 0, 0 }, 3, 0 },
	{ EC_CMD_GET_KEYBOARD_ID, 0, { 0 }, 0, 4 },
	{ EC_CMD_MKBP_SET_CONFIG, 0, { 0 }, 21, 0 },
	{ EC_CMD_MKBP_GET_CONFIG, 0, { 0 }, 0, 21 },
	{ EC_CMD_MKBP_WAKE_MASK, 0, { GET_WAKE_MASK, EC_MKBP_EVENT_WAKE_MASK }, 8, 4 },
	{ EC_CMD_TEMP_SENSOR_GET_INFO, 0, { 0 }, 1, 33 },
	{ EC_CMD_HOST_EVENT_GET_B, 0, { 0 }, 0, 4 },
	{ EC_CMD_HOST_EVENT_GET_SMI_MASK, 0, { 0 }, 0, 4 },
	{ EC_CMD_HOST_EVENT_GET_SCI_MASK, 0, { 0 }, 0, 4 },
	{ EC_CMD_HOST_EVENT_SET_SMI_MASK, 0, { 1 }, 4, 0 },
	{ EC_CMD_HOST_EVENT_SET_SCI_MASK, 0, { 1 }, 4, 0 },
	{ EC_CMD_HOST_EVENT_CLEAR, 0, { 1 }, 4, 0 },
	{ EC_CMD_HOST_EVENT_GET_WAKE_MASK, 0, { 0 }, 0, 4 },
	{ EC_CMD_HOST_EVENT_SET_WAKE_MASK, 0, { 1 }, 4, 0 },
	{ EC_CMD_HOST_EVENT_CLEAR_B, 0, { 1 }, 4, 0 },
	{ EC_CMD_SWITCH_ENABLE_WIRELESS, 0, { 1 }, 1, 0 },
	{ EC_CMD_SWITCH_ENABLE_WIRELESS, 1, { 0 }, 4, 2 },
	{ EC_CMD_GPIO_GET, 0, { 'E', 'C', '_', 'W', 'P', '_', 'L' }, 32, 1 },
	{ EC_CMD_GPIO_GET, 1, { EC_GPIO_GET_INFO, 0 }, 33, 40 },
	{ EC_CMD_CHARGE_CONTROL, 2, { 0, 0, 0, 0, EC_CHARGE_CONTROL_CMD_GET }, 8, 8 },
	{ EC_CMD_CONSOLE_SNAPSHOT, 0, { 0 }, 0, 0 },
	{ EC_CMD_CONSOLE_READ, 0, { 0 }, 0, -1 },
	{ EC_CMD_CONSOLE_READ, 1, { CONSOLE_READ_RECENT }, 1, -1 },
	{ EC_CMD_BATTERY_CUT_OFF, 0, { 0 }, 0, 0 },
	{ EC_CMD_BATTERY_CUT_OFF, 1, { EC_BATTERY_CUTOFF_FLAG_AT_SHUTDOWN }, 1, 0 },
	{ EC_CMD_USB_MUX, 0, { USB_PD_MUX_USB_ENABLED }, 1, 0 },
	{ EC_CMD_POWER_INFO, 1, { 0 }, 0, 15 },
	{ EC_CMD_I2C_PASSTHRU, 0, { 1, 2, 0x0B, 0, 1, 0, 0x0B, 0x80, 2, 0, 0x09 }, 11, 4 },
	{ EC_CMD_HANG_DETECT, 0, { 0 }, 8, 0 },
	{ EC_CMD_CHARGE_STATE, 0, { CHARGE_STATE_CMD_GET_STATE }, 1, 20 },
	{ EC_CMD_CHARGE_CURRENT_LIMIT, 0, { 0xE8, 3 }, 4, 0 },
	{ EC_CMD_EXTERNAL_POWER_LIMIT, 1, { 0xFF, 0xFF, 0xFF, 0xFF }, 4, 0 },
	{ EC_CMD_HOST_EVENT, 0, { EC_HOST_EVENT_GET, EC_HOST_EVENT_SCI_MASK }, 12, 8 },
	{ EC_CMD_HIBERNATION_DELAY, 0, { 0 }, 4, 12 },
	{ EC_CMD_HOST_SLEEP_EVENT, 0, { HOST_SLEEP_EVENT_S0IX_SUSPEND }, 1, 0 },
	{ EC_CMD_HOST_SLEEP_EVENT, 1, { HOST_SLEEP_EVENT_S0IX_RESUME }, 4, 4 },
	{ EC_CMD_I2C_PASSTHRU_PROTECT, 0, { EC_CMD_I2C_PASSTHRU_PROTECT_STATUS, 1 }, 2, 1 },
	{ EC_CMD_REBOOT_EC, 0, { EC_REBOOT_CANCEL }, 2, 0 },
	{ EC_CMD_GET_PANIC_INFO, 0, { 0 }, 0, 0 },
	{ EC_CMD_USB_PD_CONTROL, 0, { 0 }, 4, 4 },
	{ EC_CMD_USB_PD_CONTROL, 1, { 0 }, 4, 35 },
	{ EC_CMD_USB_PD_CONTROL, 2, { 0 }, 4, 41 },
	{ EC_CMD_USB_PD_PORTS, 0, { 0 }, 0, 1 },
	{ EC_CMD_USB_PD_POWER_INFO, 0, { 0 }, 1, 16 },
	{ EC_CMD_USB_PD_DEV_INFO, 0, { 0 }, 1, 27 },
	{ EC_CMD_USB_PD_DISCOVERY, 0, { 0 }, 1, 5 },
	{ EC_CMD_GPIO_SET, 0, { 'E', 'N', 'A', 'B', 'L', 'E', '_', 'B', 'A', 'C', 'K', 'L', 'I', 'G',
				'H', 'T' }, 33, 0 },
	{ EC_CMD_PD_CHARGE_PORT_OVERRIDE, 0, { 0xFF, 0xFF }, 2, 0 },
	{ EC_CMD_USB_PD_GET_AMODE, 0, { 0 }, 3, 2 },
	{ EC_CMD_PD_CONTROL, 0, { 0, PD_RESUME }, 2, 0 },
	{ EC_CMD_USB_PD_MUX_INFO, 0, { 0 }, 1, 1 },
	{ EC_CMD_PD_CHIP_INFO, 0, { 0 }, 2, 14 },
	{ EC_CMD_PD_CHIP_INFO, 1, { 0 }, 2, 22 },
	{ EC_CMD_GET_CROS_BOARD_INFO, 0, { CBI_TAG_BOARD_VERSION }, 8, 1 },
	{ EC_CMD_SET_CROS_BOARD_INFO, 0, { CBI_TAG_SSFC, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7 }, 13,
	  0 },
	{ EC_CMD_GET_UPTIME_INFO, 0, { 0 }, 0, 44 },
	{ EC_CMD_ADC_READ, 0, { 0 }, 1, 4 },
	{ EC_CMD_LOCATE_CHIP, 0, { EC_CHIP_TYPE_CBI_EEPROM }, 4, 6 },
	{ EC_CMD_TYPEC_DISCOVERY, 0, { 0, TYPEC_PARTNER_SOP }, 2, 28 },
	{ EC_CMD_TYPEC_CONTROL, 0, { 0, TYPEC_CONTROL_COMMAND_CLEAR_EVENTS }, 8, 0 },
	{ EC_CMD_TYPEC_STATUS, 0, { 0 }, 1, 108 },
	{ EC_CMD_BATTERY_GET_STATIC, 0, { 0 }, 1, 40 },
	{ EC_CMD_BATTERY_GET_STATIC, 1, { 0 }, 1, 56 },
	{ EC_CMD_BATTERY_GET_DYNAMIC, 0, { 0 }, 1, 14 },
	{ EC_CMD_BUTTON, 0, { 1u << KEYBOARD_BUTTON_VOLUME_UP, 0, 0, 0, 10 }, 8, 0 },
	{ EC_CMD_GSV_PAUSE_IN_S5, 0, { 0 }, 8, 8 },
	{ EC_CMD_SWITCH_ENABLE_BKLIGHT, 0, { 1 }, 1, 0 },
	{ EC_CMD_REBOOT_AP_ON_G3, 0, { 0 }, 0, 0 },
	{ EC_CMD_REBOOT_AP_ON_G3, 1, { 5 }, 4, 0 },
	{ EC_CMD_CHARGESPLASH, 0, { EC_CHARGESPLASH_GET_STATE }, 1, 3 },
	{ EC_CMD_AP_RESET, 0, { 0 }, 0, 0 },
	{ EC_CMD_BATTERY_VENDOR_PARAM, 0, { 0 }, 9, 4 },
	{ EC_CMD_SMART_DISCHARGE, 0, { 0 }, 8, 16 },
	{ EC_CMD_I2C_CONTROL, 0, { 0, EC_I2C_CONTROL_GET_SPEED }, 4, 2 },
	{ EC_CMD_PD_WRITE_LOG_ENTRY, 0, { PD_EVENT_MCU_CONNECT, 1 }, 2, 0 },
};

/*
 * The fingerprint MCU's own commands, on fingerprint.profile (each case on
 * a fresh MCU: FP_SEED is once per boot).
 */
static const struct size_case fp_size_cases[] = {
	{ EC_CMD_RWSIG_INFO, 0, { 0 }, 0, 32 },
	{ EC_CMD_RWSIG_ACTION, 0, { RWSIG_ACTION_CONTINUE }, 4, 0 },
	{ EC_CMD_ADD_ENTROPY, 0, { ADD_ENTROPY_ASYNC }, 1, 0 },
	{ EC_CMD_ROLLBACK_INFO, 0, { 0 }, 0, 12 },
	{ EC_CMD_FP_MODE, 0, { 0, 0, 0, 0x80 }, 4, 4 },
	{ EC_CMD_FP_INFO, 0, { 0 }, 0, 32 },
	{ EC_CMD_FP_INFO, 1, { 0 }, 0, 48 },
	{ EC_CMD_FP_FRAME, 0, { 0 }, 8, 0 },
	{ EC_CMD_FP_TEMPLATE, 0, { 0 }, 8, 0 },
	{ EC_CMD_FP_CONTEXT, 1, { FP_CONTEXT_GET_RESULT }, 36, 0 },
	{ EC_CMD_FP_STATS, 0, { 0 }, 0, 22 },
	{ EC_CMD_FP_SEED, 0, { FP_TEMPLATE_FORMAT_VERSION }, 36, 0 },
	{ EC_CMD_FP_ENC_STATUS, 0, { 0 }, 0, 8 },
	/* Shared commands whose laptop case asks what this board lacks. */
	{ EC_CMD_GET_CMD_VERSIONS, 1, { 0x02, 0x04 }, 2, 4 },
	{ EC_CMD_FLASH_ERASE, 0, { 0, 0, 0, 0, 0, 0x40 }, 8, 0 },
};

EC_TEST_FIXTURE(NULL);

/* What a command answers when the host's room is one byte short. */
static uint32_t room_status(uint32_t cmd)
{
	switch (cmd) {
	case EC_CMD_FLASH_READ:
	case EC_CMD_RAND_NUM:
		return EC_RES_OVERFLOW;
	case EC_CMD_GET_CROS_BOARD_INFO:
	case EC_CMD_I2C_PASSTHRU:
		return EC_RES_INVALID_PARAM;
	default:
		return EC_RES_RESPONSE_TOO_BIG;
	}
}

/* One case on @e: its size, an exact buffer, and one byte short refused. */
static void check_size_case(struct ec *e, const struct size_case *c)
{
	uint8_t resp[RESP_MAX];
	uint32_t status;
	int ret;

	ret = hc(e, c->cmd, c->ver, c->req, c->req_len, resp, sizeof(resp), &status);
	ck_assert_msg(status == EC_RES_SUCCESS, "cmd 0x%x v%u status %u", c->cmd, c->ver, status);
	if (c->size < 0) {
		ck_assert_int_ge(ret, 1);
		ck_assert_int_eq(resp[ret - 1], 0);
	} else {
		ck_assert_msg(ret == c->size, "cmd 0x%x v%u: %d bytes, want %d", c->cmd, c->ver,
			      ret, c->size);
	}
	/* Exactly-sized buffer works; one byte less is refused, never cut. */
	if (c->size > 0) {
		ret = hc(e, c->cmd, c->ver, c->req, c->req_len, resp, (size_t)c->size, &status);
		ck_assert_int_eq(ret, c->size);
		ret = hc(e, c->cmd, c->ver, c->req, c->req_len, resp, (size_t)c->size - 1,
			 &status);
		ck_assert_int_eq(ret, 0);
		/* Some handlers check the host's room themselves, as the firmware does. */
		ck_assert_uint_eq(status, room_status(c->cmd));
	}
}

START_TEST(test_sizes)
{
	check_size_case(ec, &size_cases[_i]);
}
END_TEST

/* The FPMCU's commands on a fresh fingerprint MCU each. */
START_TEST(test_sizes_fpmcu)
{
	struct fake_clock fc2;
	struct ec *fp;

	fake_clock_init(&fc2);
	fp = make_ec_file("ec/profiles/fingerprint.profile", &fc2);
	check_size_case(fp, &fp_size_cases[_i]);
	ec_destroy(fp);
}
END_TEST

/*
 * The laptop's cases the FPMCU answers too (identity, flash, console ...),
 * but for the two that ask what it lacks: a battery command's versions, an
 * erase smaller than its 16 KiB block (fp_size_cases has its own).
 */
START_TEST(test_sizes_fpmcu_shared)
{
	const struct size_case *c = &size_cases[_i];
	struct fake_clock fc2;
	struct ec *fp;

	fake_clock_init(&fc2);
	fp = make_ec_file("ec/profiles/fingerprint.profile", &fc2);
	if (ec_cmd_versions(fp, c->cmd) &&
	    !(c->cmd == EC_CMD_GET_CMD_VERSIONS && c->ver == 1) && c->cmd != EC_CMD_FLASH_ERASE)
		check_size_case(fp, c);
	ec_destroy(fp);
}
END_TEST

/* The same cases on the two-port board: every command answers there too. */
START_TEST(test_sizes_usbc_dual)
{
	const struct size_case *c = &size_cases[_i];
	struct fake_clock fc2;
	struct ec *dual;
	uint8_t resp[RESP_MAX];
	uint32_t status;
	int ret;

	fake_clock_init(&fc2);
	dual = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	ret = hc(dual, c->cmd, c->ver, c->req, c->req_len, resp, sizeof(resp), &status);
	/*
	 * Its GPIOs and LEDs differ from the laptop's: those cases may refuse;
	 * it lacks some hardware (keyboard backlight, ...), whose commands it
	 * does not answer.
	 */
	if ((status == EC_RES_INVALID_PARAM &&
	     (c->cmd == EC_CMD_GPIO_GET || c->cmd == EC_CMD_LED_CONTROL)) ||
	    (status == EC_RES_ERROR && c->cmd == EC_CMD_GPIO_SET) ||
	    (status == EC_RES_INVALID_COMMAND && !ec_cmd_versions(dual, c->cmd))) {
		ec_destroy(dual);
		return;
	}
	ck_assert_msg(status == EC_RES_SUCCESS, "cmd 0x%x v%u status %u", c->cmd, c->ver, status);
	if (c->size >= 0)
		ck_assert_int_eq(ret, c->size);
	ec_destroy(dual);
}
END_TEST

START_TEST(test_every_table_version_covered)
{
	const struct ec_cmd_entry *table;
	size_t n, i, k;
	unsigned int v;

	table = test_cmd_table(&n);
	for (i = 0; i < n; i++) {
		for (v = 0; v < 32; v++) {
			bool found = false;

			if (!(table[i].versions & EC_VER_MASK(v)))
				continue;
			/*
			 * Covered by their own tests: SET_AMODE needs a DP
			 * partner, reading the PD log consumes it.
			 */
			if (table[i].command == EC_CMD_RESEND_RESPONSE ||
			    table[i].command == EC_CMD_GET_NEXT_EVENT ||
			    table[i].command == EC_CMD_USB_PD_SET_AMODE ||
			    table[i].command == EC_CMD_PD_GET_LOG_ENTRY)
				continue;
			/* No shipped board answers it: test_ec_fpmcu.c covers it. */
			if (table[i].command == EC_CMD_RWSIG_CHECK_STATUS)
				continue;
			for (k = 0; k < sizeof(size_cases) / sizeof(size_cases[0]); k++)
				if (size_cases[k].cmd == table[i].command && size_cases[k].ver == v)
					found = true;
			for (k = 0; k < sizeof(fp_size_cases) / sizeof(fp_size_cases[0]); k++)
				if (fp_size_cases[k].cmd == table[i].command &&
				    fp_size_cases[k].ver == v)
					found = true;
			ck_assert_msg(found, "no size case for 0x%x v%u", table[i].command, v);
		}
		if (i)
			ck_assert_uint_lt(table[i - 1].command, table[i].command);
	}
}
END_TEST

static Suite *ec_sizes_suite(void)
{
	Suite *s = suite_create("ec_sizes");
	TCase *tc = tcase_create("sizes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_sizes, 0, sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_loop_test(tc, test_sizes_usbc_dual, 0,
			    sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_loop_test(tc, test_sizes_fpmcu, 0,
			    sizeof(fp_size_cases) / sizeof(fp_size_cases[0]));
	tcase_add_loop_test(tc, test_sizes_fpmcu_shared, 0,
			    sizeof(size_cases) / sizeof(size_cases[0]));
	tcase_add_test(tc, test_every_table_version_covered);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_sizes_suite());
}
