// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_settings.c - PWM duty, thermal thresholds, hibernation delay,
 * charge and external power limits (the charger obeys), wireless switches,
 * a forced-open lid, the hang detector, battery cut-off, USB-A charge modes
 * and FLASH_SPI_INFO, with their bad inputs.
 */
#include <check.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

static uint32_t run(uint32_t cmd, uint32_t ver, const void *req, size_t len, void *resp,
		    size_t resp_max)
{
	return hc_status(ec, cmd, ver, req, len, resp, resp_max, NULL);
}

static uint16_t get_duty(uint8_t type, uint8_t index)
{
	uint8_t req[2] = { type, index }, r[2];

	ck_assert_uint_eq(run(EC_CMD_PWM_GET_DUTY, 0, req, 2, r, 2), EC_RES_SUCCESS);
	return le16(r);
}

static uint32_t set_duty(uint16_t duty, uint8_t type, uint8_t index)
{
	uint8_t req[4] = { (uint8_t)duty, (uint8_t)(duty >> 8), type, index };

	return run(EC_CMD_PWM_SET_DUTY, 0, req, 4, NULL, 0);
}

START_TEST(test_pwm_duty)
{
	uint8_t r[4] = { 0 };	/* room for the short SET_DUTY request below */

	ck_assert_uint_eq(set_duty(0x8000, EC_PWM_TYPE_GENERIC, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(get_duty(EC_PWM_TYPE_GENERIC, 0), 50 * 0xFFFF / 100);
	/* Back to automatic control, the fan follows the temperatures again. */
	ck_assert_uint_eq(run(EC_CMD_THERMAL_AUTO_FAN_CTRL, 0, NULL, 0, NULL, 0), EC_RES_SUCCESS);
	ck_assert_uint_ne(get_duty(EC_PWM_TYPE_GENERIC, 0), 50 * 0xFFFF / 100);

	ck_assert_uint_eq(set_duty(0xFFFF, EC_PWM_TYPE_KB_LIGHT, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(run(EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, r, 2),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r[0], 100);
	ck_assert_uint_eq(get_duty(EC_PWM_TYPE_KB_LIGHT, 0), 0xFFFF);
	/* The backlight keeps the raw duty; its percent rounds. */
	ck_assert_uint_eq(set_duty(50, EC_PWM_TYPE_KB_LIGHT, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(get_duty(EC_PWM_TYPE_KB_LIGHT, 0), 50);
	run(EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, r, 2);
	ck_assert_uint_eq(r[0], 0);

	ck_assert_uint_eq(set_duty(1, EC_PWM_TYPE_GENERIC, 1), EC_RES_INVALID_PARAM); /* 1 fan */
	ck_assert_uint_eq(set_duty(1, EC_PWM_TYPE_KB_LIGHT, 1), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_duty(1, EC_PWM_TYPE_DISPLAY_LIGHT, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_duty(1, 7, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_PWM_GET_DUTY, 0, r, 1, r, 2), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_PWM_SET_DUTY, 0, r, 3, NULL, 0), EC_RES_INVALID_PARAM);
}
END_TEST

static void get_threshold(uint32_t sensor, uint32_t *cfg)
{
	ck_assert_uint_eq(run(EC_CMD_THERMAL_GET_THRESHOLD, 1, &sensor, 4, cfg, 32),
			  EC_RES_SUCCESS);
}

START_TEST(test_thermal_set_threshold)
{
	uint32_t set[9] = { 0 }, cfg[8];
	uint64_t events;
	uint8_t r[8], q[12] = { EC_HOST_EVENT_GET, EC_HOST_EVENT_MAIN };

	get_threshold(0, cfg);
	memcpy(set + 1, cfg, sizeof(cfg));
	set[1] = 300;			/* warn below the CPU's 318 K ambient */
	ck_assert_uint_eq(run(EC_CMD_THERMAL_SET_THRESHOLD, 1, set, 36, NULL, 0), EC_RES_SUCCESS);
	get_threshold(0, cfg);
	ck_assert_uint_eq(cfg[0], 300);
	fake_clock_advance(&fc, NS_PER_S);
	run(EC_CMD_HOST_EVENT, 0, q, 12, r, 8);
	events = le32(r) | (uint64_t)le32(r + 4) << 32;
	ck_assert(events & EC_HOST_EVENT_MASK(EC_HOST_EVENT_THERMAL_THRESHOLD));

	/* An EC reset brings the profile's thresholds back. */
	ck_assert_uint_eq(run(EC_CMD_REBOOT_EC, 0, (uint8_t[2]){ EC_REBOOT_COLD }, 2, NULL, 0),
			  EC_RES_SUCCESS);
	get_threshold(0, cfg);
	ck_assert_uint_eq(cfg[0], 358);

	set[0] = 3;			/* the laptop has three sensors */
	ck_assert_uint_eq(run(EC_CMD_THERMAL_SET_THRESHOLD, 1, set, 36, NULL, 0),
			  EC_RES_INVALID_PARAM);
	set[0] = 0;
	ck_assert_uint_eq(run(EC_CMD_THERMAL_SET_THRESHOLD, 1, set, 35, NULL, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_THERMAL_SET_THRESHOLD, 0, set, 36, NULL, 0),
			  EC_RES_INVALID_VERSION);
}
END_TEST

START_TEST(test_hibernation_delay)
{
	uint32_t secs = 0, r[3];

	ck_assert_uint_eq(run(EC_CMD_HIBERNATION_DELAY, 0, &secs, 4, r, 12), EC_RES_SUCCESS);
	ck_assert_uint_eq(r[2], 3600);
	ck_assert_uint_eq(r[0], 0);
	secs = 60;
	ck_assert_uint_eq(run(EC_CMD_HIBERNATION_DELAY, 0, &secs, 4, r, 12), EC_RES_SUCCESS);
	secs = 0;
	run(EC_CMD_HIBERNATION_DELAY, 0, &secs, 4, r, 12);
	ck_assert_uint_eq(r[2], 60);
	ck_assert_uint_eq(run(EC_CMD_HIBERNATION_DELAY, 0, &secs, 2, r, 12),
			  EC_RES_INVALID_PARAM);
}
END_TEST

/* The battery's current after a second on the EC clock, mA. */
static int battery_ma(void)
{
	uint8_t idx = 0, r[14];

	fake_clock_advance(&fc, NS_PER_S);
	ck_assert_uint_eq(run(EC_CMD_BATTERY_GET_DYNAMIC, 0, &idx, 1, r, 14), EC_RES_SUCCESS);
	return (int16_t)le16(r + 2);
}

static uint16_t battery_flags(void)
{
	uint8_t idx = 0, r[14];

	ck_assert_uint_eq(run(EC_CMD_BATTERY_GET_DYNAMIC, 0, &idx, 1, r, 14), EC_RES_SUCCESS);
	return le16(r + 8);
}

START_TEST(test_charge_limits)
{
	uint32_t limit = 500;
	uint16_t ext[2] = { 1000, 5000 };
	int ma;

	ck_assert_int_eq(battery_ma(), 2400);		/* the profile's charge current */
	ck_assert_uint_eq(run(EC_CMD_CHARGE_CURRENT_LIMIT, 0, &limit, 4, NULL, 0),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(battery_ma(), 500);
	limit = 100000;
	run(EC_CMD_CHARGE_CURRENT_LIMIT, 0, &limit, 4, NULL, 0);
	ck_assert_int_eq(battery_ma(), 2400);

	/* 5 W from the adapter leaves well under 500 mA at the pack's ~12 V. */
	ck_assert_uint_eq(run(EC_CMD_EXTERNAL_POWER_LIMIT, 1, ext, 4, NULL, 0), EC_RES_SUCCESS);
	ma = battery_ma();
	ck_assert_int_gt(ma, 300);
	ck_assert_int_lt(ma, 500);
	ext[0] = ext[1] = EC_POWER_LIMIT_NONE;
	run(EC_CMD_EXTERNAL_POWER_LIMIT, 1, ext, 4, NULL, 0);
	ck_assert_int_eq(battery_ma(), 2400);
	ext[0] = 0;
	run(EC_CMD_EXTERNAL_POWER_LIMIT, 1, ext, 4, NULL, 0);
	ck_assert_int_eq(battery_ma(), 0);

	ck_assert_uint_eq(run(EC_CMD_CHARGE_CURRENT_LIMIT, 0, &limit, 2, NULL, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_EXTERNAL_POWER_LIMIT, 1, ext, 3, NULL, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_EXTERNAL_POWER_LIMIT, 0, ext, 4, NULL, 0),
			  EC_RES_INVALID_VERSION);
}
END_TEST

START_TEST(test_wireless)
{
	uint8_t req[4] = { 0 }, r[2];

	ck_assert_uint_eq(run(EC_CMD_SWITCH_ENABLE_WIRELESS, 1, req, 4, r, 2), EC_RES_SUCCESS);
	ck_assert_uint_eq(r[0], 0x0F);
	ck_assert_uint_eq(r[1], 0);
	req[1] = EC_WIRELESS_SWITCH_WLAN;		/* now_mask: WLAN off */
	req[2] = EC_WIRELESS_SWITCH_BLUETOOTH;
	req[3] = 0xFF;					/* suspend: only BT */
	run(EC_CMD_SWITCH_ENABLE_WIRELESS, 1, req, 4, r, 2);
	ck_assert_uint_eq(r[0], 0x0E);
	ck_assert_uint_eq(r[1], EC_WIRELESS_SWITCH_BLUETOOTH);
	ck_assert_uint_eq(run(EC_CMD_SWITCH_ENABLE_WIRELESS, 0, (uint8_t[1]){ 0 }, 1, NULL, 0),
			  EC_RES_SUCCESS);
	memset(req, 0, sizeof(req));
	run(EC_CMD_SWITCH_ENABLE_WIRELESS, 1, req, 4, r, 2);
	ck_assert_uint_eq(r[0], 0);
	ck_assert_uint_eq(run(EC_CMD_SWITCH_ENABLE_WIRELESS, 1, req, 3, r, 2),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_SWITCH_ENABLE_WIRELESS, 0, req, 0, NULL, 0),
			  EC_RES_INVALID_PARAM);
}
END_TEST

static uint8_t switches(void)
{
	uint8_t b;

	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_SWITCHES, 1, &b), 1);
	return b;
}

START_TEST(test_force_lid_open)
{
	uint8_t on = 1, off = 0, r[8];

	ck_assert_uint_eq(run(EC_CMD_FORCE_LID_OPEN, 0, &on, 1, NULL, 0), EC_RES_SUCCESS);
	run(EC_CMD_HOST_EVENT_CLEAR, 0, (uint32_t[1]){ 0xFFFFFFFFu }, 4, NULL, 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_CLOSE), 0);
	ck_assert_uint_eq(switches() & EC_SWITCH_LID_OPEN, EC_SWITCH_LID_OPEN);
	run(EC_CMD_HOST_EVENT_GET_B, 0, NULL, 0, r, 4);
	ck_assert_uint_eq(le32(r) & EC_HOST_EVENT_MASK(EC_HOST_EVENT_LID_CLOSED), 0);
	ck_assert_uint_eq(run(EC_CMD_FORCE_LID_OPEN, 0, &off, 1, NULL, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(switches() & EC_SWITCH_LID_OPEN, 0);
	ck_assert_uint_eq(run(EC_CMD_FORCE_LID_OPEN, 0, NULL, 0, NULL, 0), EC_RES_INVALID_PARAM);
}
END_TEST

static uint32_t hang(uint32_t flags, uint16_t host_ms, uint16_t reboot_ms)
{
	struct ec_params_hang_detect p = { flags, host_ms, reboot_ms };

	return run(EC_CMD_HANG_DETECT, 0, &p, sizeof(p), NULL, 0);
}

static uint32_t events_b(void)
{
	uint8_t r[4];

	run(EC_CMD_HOST_EVENT_GET_B, 0, NULL, 0, r, 4);
	return le32(r);
}

START_TEST(test_hang_detect)
{
	uint32_t hd = EC_HOST_EVENT_MASK(EC_HOST_EVENT_HANG_DETECT);
	uint32_t hr = EC_HOST_EVENT_MASK(EC_HOST_EVENT_HANG_REBOOT);

	ck_assert_uint_eq(hang(EC_HANG_START_NOW, 0, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hang(0, 1000, 3000), EC_RES_SUCCESS);
	ck_assert_uint_eq(hang(EC_HANG_START_NOW, 0, 0), EC_RES_SUCCESS);
	fake_clock_advance(&fc, 999 * 1000000ull);
	ck_assert_uint_eq(events_b() & (hd | hr), 0);
	fake_clock_advance(&fc, 1000000ull);
	ck_assert_uint_eq(events_b() & (hd | hr), hd);
	fake_clock_advance(&fc, 2000 * 1000000ull);
	ck_assert_uint_eq(events_b() & (hd | hr), hd | hr);

	/* STOP_NOW, and a host command with STOP_ON_HOST_COMMAND, stop the timer. */
	run(EC_CMD_HOST_EVENT_CLEAR_B, 0, (uint32_t[1]){ hd | hr }, 4, NULL, 0);
	hang(EC_HANG_START_NOW, 0, 0);
	hang(EC_HANG_STOP_NOW, 0, 0);
	fake_clock_advance(&fc, 5000 * 1000000ull);
	ck_assert_uint_eq(events_b() & (hd | hr), 0);
	ck_assert_uint_eq(hang(EC_HANG_STOP_ON_HOST_COMMAND, 1000, 0), EC_RES_SUCCESS);
	hang(EC_HANG_START_NOW, 0, 0);
	run(EC_CMD_HELLO, 0, (uint32_t[1]){ 0 }, 4, (uint8_t[4]){ 0 }, 4);
	fake_clock_advance(&fc, 5000 * 1000000ull);
	ck_assert_uint_eq(events_b() & (hd | hr), 0);

	ck_assert_uint_eq(hang(0, 2000, 1000), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_HANG_DETECT, 0, (uint8_t[8]){ 0 }, 7, NULL, 0),
			  EC_RES_INVALID_PARAM);
}
END_TEST

/* Smart battery Voltage over I2C: the pack answers, or (cut off) NAKs. */
static uint8_t sbs_status(void)
{
	uint8_t req[11] = { 1, 2, 0x0B, 0, 1, 0, 0x0B, 0x80, 2, 0, 0x09 }, r[4];

	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, 0, req, 11, r, 4), EC_RES_SUCCESS);
	return r[0];
}

START_TEST(test_battery_cut_off)
{
	ck_assert_uint_eq(run(EC_CMD_BATTERY_CUT_OFF, 1,
			      (uint8_t[1]){ EC_BATTERY_CUTOFF_FLAG_AT_SHUTDOWN }, 1, NULL, 0),
			  EC_RES_SUCCESS);
	ck_assert(battery_flags() & EC_BATT_FLAG_BATT_PRESENT);	/* waits for shutdown */

	ck_assert_uint_eq(run(EC_CMD_BATTERY_CUT_OFF, 0, NULL, 0, NULL, 0), EC_RES_SUCCESS);
	ck_assert_int_eq(battery_ma(), 0);
	ck_assert(!(battery_flags() & EC_BATT_FLAG_BATT_PRESENT));
	ck_assert_uint_eq(sbs_status(), EC_I2C_STATUS_NAK);
	/* AC still there: the pack stays off; unplugged and plugged, it wakes. */
	ck_assert_int_eq(battery_ma(), 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	ck_assert_int_eq(battery_ma(), 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_PLUG), 0);
	ck_assert_int_gt(battery_ma(), 0);
	ck_assert(battery_flags() & EC_BATT_FLAG_BATT_PRESENT);
	ck_assert_uint_eq(sbs_status(), 0);

	ck_assert_uint_eq(status_on_board("ec/profiles/minimal.profile", EC_CMD_BATTERY_CUT_OFF, 0,
					  NULL, 0, 0), EC_RES_INVALID_COMMAND);
}
END_TEST

START_TEST(test_usb_charge_mode)
{
	uint8_t req[2] = { 1, USB_CHARGE_MODE_CDP | 0x80 };

	ck_assert_uint_eq(run(EC_CMD_USB_CHARGE_SET_MODE, 0, req, 2, NULL, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(ec->ctl.usb_mode[1], USB_CHARGE_MODE_CDP);
	ck_assert(ec->ctl.usb_inhibit[1]);
	req[0] = 2;		/* two USB-A ports */
	ck_assert_uint_eq(run(EC_CMD_USB_CHARGE_SET_MODE, 0, req, 2, NULL, 0),
			  EC_RES_INVALID_PARAM);
	req[0] = 0;
	req[1] = USB_CHARGE_MODE_COUNT;
	ck_assert_uint_eq(run(EC_CMD_USB_CHARGE_SET_MODE, 0, req, 2, NULL, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_USB_CHARGE_SET_MODE, 0, req, 1, NULL, 0),
			  EC_RES_INVALID_PARAM);

	/* The two-port board has no USB-A ports. */
	ck_assert_uint_eq(status_on_board("ec/profiles/usbc-dual.profile",
					  EC_CMD_USB_CHARGE_SET_MODE, 0, req, 2, 0),
			  EC_RES_INVALID_COMMAND);
}
END_TEST

START_TEST(test_flash_spi_info)
{
	uint32_t prot[2] = { EC_FLASH_PROTECT_RO_AT_BOOT, EC_FLASH_PROTECT_RO_AT_BOOT };
	uint8_t r[12];

	ck_assert_uint_eq(run(EC_CMD_FLASH_SPI_INFO, 0, NULL, 0, r, 8), EC_RES_SUCCESS);
	ck_assert_mem_eq(r, "\xef\x30\x13\x00\xef\x12\x00\x00", 8);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_ASSERT), 0);
	run(EC_CMD_FLASH_PROTECT, 1, prot, 8, r, 12);
	run(EC_CMD_FLASH_SPI_INFO, 0, NULL, 0, r, 8);
	ck_assert_uint_eq(r[6], 0x9C);		/* SRP0 and BP0-BP2 */

	ck_assert_uint_eq(status_on_board("ec/profiles/usbc-dual.profile", EC_CMD_FLASH_SPI_INFO, 0,
					  NULL, 0, 8), EC_RES_INVALID_COMMAND);
}
END_TEST

static Suite *settings_suite(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("settings");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pwm_duty);
	tcase_add_test(tc, test_thermal_set_threshold);
	tcase_add_test(tc, test_hibernation_delay);
	tcase_add_test(tc, test_charge_limits);
	tcase_add_test(tc, test_wireless);
	tcase_add_test(tc, test_force_lid_open);
	tcase_add_test(tc, test_hang_detect);
	tcase_add_test(tc, test_battery_cut_off);
	tcase_add_test(tc, test_usb_charge_mode);
	tcase_add_test(tc, test_flash_spi_info);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(settings_suite());
}
