// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_chipset.c - the laptop commands ectool's pause_in_s5,
 * reboot_ap_on_g3, backlight, i2cspeed and pdwritelog use:
 * GSV_PAUSE_IN_S5, REBOOT_AP_ON_G3, SWITCH_ENABLE_BKLIGHT, I2C_CONTROL and
 * PD_WRITE_LOG_ENTRY, each with the state it acts on and its bad inputs.
 */
#include <check.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

/* The console's text since the last snapshot, for what a command logged. */
static void console(struct ec *e, char *buf, size_t len)
{
	hc_status(e, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, NULL, 0, NULL);
	memset(buf, 0, len);
	hc_status(e, EC_CMD_CONSOLE_READ, 0, NULL, 0, buf, len - 1, NULL);
}

static uint32_t pause_in_s5(struct ec *e, uint32_t flags, uint32_t value, uint32_t *now)
{
	struct ec_params_get_set_value p = { flags, value };
	uint8_t resp[8];
	int len;
	uint32_t st = hc_status(e, EC_CMD_GSV_PAUSE_IN_S5, 0, &p, sizeof(p), resp, 8, &len);

	if (st == EC_RES_SUCCESS) {
		ck_assert_int_eq(len, 8);
		*now = le32(resp + 4);
	}
	return st;
}

START_TEST(test_pause_in_s5)
{
	struct ec_params_reboot_ec cold = { .cmd = EC_REBOOT_COLD };
	uint8_t raw[8] = { 0 };
	uint32_t now = 7;

	ck_assert_uint_eq(pause_in_s5(ec, 0, 1, &now), EC_RES_SUCCESS);
	ck_assert_uint_eq(now, 0);
	ck_assert_uint_eq(pause_in_s5(ec, EC_GSV_SET, 2, &now), EC_RES_SUCCESS);
	ck_assert_uint_eq(now, 1);
	ck_assert_uint_eq(pause_in_s5(ec, 0, 0, &now), EC_RES_SUCCESS);
	ck_assert_uint_eq(now, 1);
	ck_assert_uint_eq(pause_in_s5(ec, EC_GSV_SET, 0, &now), EC_RES_SUCCESS);
	ck_assert_uint_eq(now, 0);
	/* EC RAM: off again after a reset. */
	pause_in_s5(ec, EC_GSV_SET, 1, &now);
	hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL);
	ck_assert_uint_eq(pause_in_s5(ec, 0, 0, &now), EC_RES_SUCCESS);
	ck_assert_uint_eq(now, 0);
	/* Bad inputs: short request, version 1. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GSV_PAUSE_IN_S5, 0, raw, 7, raw, sizeof(raw), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GSV_PAUSE_IN_S5, 1, raw, 8, raw, sizeof(raw), NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

START_TEST(test_reboot_ap_on_g3)
{
	uint32_t delay = 42;
	char text[2048];

	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_AP_ON_G3, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	console(ec, text, sizeof(text));
	ck_assert_msg(strstr(text, "AP reboot at G3 requested (delay 0 s)"), "%s", text);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_AP_ON_G3, 1, &delay, 4, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	console(ec, text, sizeof(text));
	ck_assert_msg(strstr(text, "AP reboot at G3 requested (delay 42 s)"), "%s", text);
	/* Bad inputs: a short v1 request, version 2. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_AP_ON_G3, 1, &delay, 3, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_AP_ON_G3, 2, &delay, 4, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

/* The ENABLE_BACKLIGHT GPIO's value, read with GPIO_GET by name. */
static uint8_t backlight_gpio(struct ec *e)
{
	struct ec_params_gpio_get p = { "ENABLE_BACKLIGHT" };
	uint8_t resp[4];

	ck_assert_uint_eq(hc_status(e, EC_CMD_GPIO_GET, 0, &p, sizeof(p), resp, 1, NULL),
			  EC_RES_SUCCESS);
	return resp[0];
}

START_TEST(test_switch_enable_backlight)
{
	struct ec_params_switch_enable_backlight p = { 0 };

	ck_assert_uint_eq(backlight_gpio(ec), 1);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SWITCH_ENABLE_BKLIGHT, 0, &p, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(backlight_gpio(ec), 0);
	p.enabled = 7;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SWITCH_ENABLE_BKLIGHT, 0, &p, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(backlight_gpio(ec), 1);
	/* Bad inputs: empty request, version 1; a board without the GPIO. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SWITCH_ENABLE_BKLIGHT, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SWITCH_ENABLE_BKLIGHT, 1, &p, 1, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(status_on_board("ec/profiles/usbc-dual.profile",
					  EC_CMD_SWITCH_ENABLE_BKLIGHT, 0, &p, 1, 0),
			  EC_RES_INVALID_COMMAND);
}
END_TEST

static uint32_t i2c_control(struct ec *e, uint8_t port, uint8_t cmd, uint16_t khz, size_t len,
			    uint16_t *old)
{
	struct ec_params_i2c_control p = { port, cmd, khz };
	uint8_t resp[4] = { 0 };
	int n;
	uint32_t st = hc_status(e, EC_CMD_I2C_CONTROL, 0, &p, len, resp, sizeof(resp), &n);

	if (st == EC_RES_SUCCESS) {
		ck_assert_int_eq(n, 2);
		*old = le16(resp);
	}
	return st;
}

START_TEST(test_i2c_control)
{
	struct ec_params_reboot_ec cold = { .cmd = EC_REBOOT_COLD };
	uint16_t old = 0;

	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old), EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 100);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_SET_SPEED, 400, 4, &old),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 100);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_SET_SPEED, 1000, 4, &old),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 400);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old), EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 1000);
	/* The other buses are untouched; a reset puts them all at 100 kHz. */
	ck_assert_uint_eq(i2c_control(ec, 0, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old), EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 100);
	hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old), EC_RES_SUCCESS);
	ck_assert_uint_eq(old, 100);
	/* Bad inputs: a speed the buses lack, a port the EC lacks, a sub-command, short. */
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_SET_SPEED, 200, 4, &old),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_SET_SPEED, 0, 4, &old),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(i2c_control(ec, 4, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(i2c_control(ec, 200, EC_I2C_CONTROL_GET_SPEED, 0, 4, &old),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(i2c_control(ec, 1, 2, 0, 4, &old), EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(i2c_control(ec, 1, EC_I2C_CONTROL_GET_SPEED, 0, 3, &old),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_I2C_CONTROL, 1, &old, 2, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

/* The oldest PD log record's type and port; 0xFF when the log is empty. */
static uint8_t pd_log_pop(struct ec *e, uint8_t *port)
{
	uint8_t resp[64];

	ck_assert_uint_eq(hc_status(e, EC_CMD_PD_GET_LOG_ENTRY, 0, NULL, 0, resp, sizeof(resp),
				    NULL), EC_RES_SUCCESS);
	*port = resp[5] >> PD_LOG_PORT_SHIFT;
	return resp[4];
}

START_TEST(test_pd_write_log_entry)
{
	struct ec_params_pd_write_log_entry p;
	uint8_t port;

	while (pd_log_pop(ec, &port) != PD_EVENT_NO_ENTRY)
		;
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_MCU_CONNECT, 1 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 2, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_MCU_CHARGE, 0 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 2, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_ACC_BASE - 1, 0 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 2, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(pd_log_pop(ec, &port), PD_EVENT_MCU_CONNECT);
	ck_assert_uint_eq(port, 1);
	ck_assert_uint_eq(pd_log_pop(ec, &port), PD_EVENT_MCU_CHARGE);
	ck_assert_uint_eq(port, 0);
	ck_assert_uint_eq(pd_log_pop(ec, &port), PD_EVENT_ACC_BASE - 1);
	ck_assert_uint_eq(pd_log_pop(ec, &port), PD_EVENT_NO_ENTRY);
	/* Bad inputs: an accessory's type, a port past the board's two, short. */
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_ACC_BASE, 0 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 2, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_MCU_CONNECT, 2 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 2, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	p = (struct ec_params_pd_write_log_entry){ PD_EVENT_MCU_CONNECT, 0 };
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PD_WRITE_LOG_ENTRY, 0, &p, 1, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(pd_log_pop(ec, &port), PD_EVENT_NO_ENTRY);
}
END_TEST

static Suite *ec_chipset_suite(void)
{
	Suite *s = suite_create("ec_chipset");
	TCase *tc = tcase_create("chipset");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pause_in_s5);
	tcase_add_test(tc, test_reboot_ap_on_g3);
	tcase_add_test(tc, test_switch_enable_backlight);
	tcase_add_test(tc, test_i2c_control);
	tcase_add_test(tc, test_pd_write_log_entry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_chipset_suite());
}
