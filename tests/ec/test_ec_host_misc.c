// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_host_misc.c - the laptop commands behind ectool's test,
 * apreset, chargesplash, batteryparam, smartdischarge and infopddev:
 * TEST_PROTOCOL, AP_RESET, CHARGESPLASH, BATTERY_VENDOR_PARAM,
 * SMART_DISCHARGE, USB_PD_DISCOVERY and (gpioset) GPIO_SET, each with the state it acts on and
 * its bad inputs; and docs/ec-commands.md's lists of what the laptop and
 * usbc-dual boards answer.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

static const struct ec_params_reboot_ec cold = { .cmd = EC_REBOOT_COLD };

START_TEST(test_test_protocol)
{
	struct ec_params_test_protocol p = { .ec_result = EC_RES_SUCCESS, .ret_len = 5 };
	uint8_t resp[40];
	int len;

	memcpy(p.buf, "abcdefgh", 8);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p), resp, 40, &len),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(len, 5);
	ck_assert_mem_eq(resp, "abcde", 5);
	/* At most the 32 bytes of the buffer. */
	p.ret_len = 1000;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p), resp, 40, &len),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(len, 32);
	/* The status asked for comes back. */
	p.ec_result = EC_RES_ACCESS_DENIED;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p), resp, 40, NULL),
			  EC_RES_ACCESS_DENIED);
	/* Bad inputs: IN_PROGRESS, no status at all, a short request, version 1. */
	p.ec_result = EC_RES_IN_PROGRESS;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p), resp, 40, NULL),
			  EC_RES_INVALID_PARAM);
	p.ec_result = EC_RES_BUSY + 1;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p), resp, 40, NULL),
			  EC_RES_INVALID_PARAM);
	p.ec_result = 0;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 0, &p, sizeof(p) - 1, resp, 40,
				    NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_TEST_PROTOCOL, 1, &p, sizeof(p), resp, 40, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

static struct ec_response_uptime_info uptime(void)
{
	struct ec_response_uptime_info u;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, &u, sizeof(u), NULL),
			  EC_RES_SUCCESS);
	return u;
}

START_TEST(test_ap_reset)
{
	struct ec_response_port80_last_boot last;
	struct ec_response_uptime_info u = uptime();
	uint8_t info[12];
	uint32_t writes;
	unsigned int i;

	ck_assert_uint_eq(u.ap_resets_since_ec_boot, 0);
	ck_assert_uint_eq(u.recent_ap_reset[3].reset_cause, 0);
	{
		struct ec_params_port80_read q = { .subcmd = EC_PORT80_GET_INFO };

		ck_assert_uint_eq(hc_status(ec, EC_CMD_PORT80_READ, 1, &q, sizeof(q), info, 12, NULL),
				  EC_RES_SUCCESS);
	}
	writes = le32(info);
	fake_clock_advance(&fc, 1500ull * 1000 * 1000);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_AP_RESET, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	u = uptime();
	ck_assert_uint_eq(u.ap_resets_since_ec_boot, 1);
	/* The newest entry is last: the ring is read from its oldest slot. */
	ck_assert_uint_eq(u.recent_ap_reset[3].reset_cause, CHIPSET_RESET_HOST_CMD);
	ck_assert_uint_ge(u.recent_ap_reset[3].reset_time_ms, 1500);
	ck_assert_uint_eq(u.recent_ap_reset[0].reset_cause, 0);
	/* A new boot in the port-80 history; its last code became last boot's. */
	{
		struct ec_params_port80_read q = { .subcmd = EC_PORT80_GET_INFO };

		ck_assert_uint_eq(hc_status(ec, EC_CMD_PORT80_READ, 1, &q, sizeof(q), info, 12, NULL),
				  EC_RES_SUCCESS);
	}
	ck_assert_uint_gt(le32(info), writes + 1);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PORT80_READ, 0, NULL, 0, &last, sizeof(last), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(last.code, 0xf8);
	/* Five resets: the ring keeps the last four. */
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(hc_status(ec, EC_CMD_AP_RESET, 0, NULL, 0, NULL, 0, NULL),
				  EC_RES_SUCCESS);
	u = uptime();
	ck_assert_uint_eq(u.ap_resets_since_ec_boot, 5);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(u.recent_ap_reset[i].reset_cause, CHIPSET_RESET_HOST_CMD);
	/* EC RAM: a cold reboot of the EC forgets them. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(uptime().ap_resets_since_ec_boot, 0);
	/* Bad input: version 1. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_AP_RESET, 1, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

static uint32_t splash(uint8_t cmd, struct ec_response_chargesplash *r)
{
	struct ec_params_chargesplash p = { .cmd = cmd };
	int len = -1;
	uint32_t st = hc_status(ec, EC_CMD_CHARGESPLASH, 0, &p, sizeof(p), r, sizeof(*r), &len);

	if (st == EC_RES_SUCCESS)
		ck_assert_int_eq(len, 3);
	return st;
}

START_TEST(test_chargesplash)
{
	struct ec_response_chargesplash r;
	unsigned int i;

	ck_assert_uint_eq(splash(EC_CHARGESPLASH_GET_STATE, &r), EC_RES_SUCCESS);
	ck_assert(!r.requested && !r.display_initialized && !r.locked_out);
	/* DISPLAY_READY counts only after a request. */
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_DISPLAY_READY, &r), EC_RES_SUCCESS);
	ck_assert(!r.display_initialized);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
	ck_assert(r.requested && !r.display_initialized);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_DISPLAY_READY, &r), EC_RES_SUCCESS);
	ck_assert(r.requested && r.display_initialized);
	/* Five requests in the period are allowed, the sixth locks out. */
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
		ck_assert(!r.locked_out);
	}
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
	ck_assert(r.locked_out);
	/* Locked out, a request inside the period is inhibited (the display stays) ... */
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_DISPLAY_READY, &r), EC_RES_SUCCESS);
	ck_assert(r.display_initialized);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
	ck_assert(r.locked_out && r.display_initialized);
	/* ... one once every logged request has expired clears it. */
	fake_clock_advance(&fc, 901ull * 1000 * 1000 * 1000);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
	ck_assert(r.requested && !r.locked_out && !r.display_initialized);
	/* LOCKOUT by hand; RESET clears everything. */
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_LOCKOUT, &r), EC_RES_SUCCESS);
	ck_assert(r.locked_out);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_RESET, &r), EC_RES_SUCCESS);
	ck_assert(!r.requested && !r.display_initialized && !r.locked_out);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_REQUEST, &r), EC_RES_SUCCESS);
	ck_assert(r.requested);
	/* EC RAM: gone after a cold reboot. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_GET_STATE, &r), EC_RES_SUCCESS);
	ck_assert(!r.requested);
	/* Bad inputs: an unknown sub-command, an empty request, version 1. */
	ck_assert_uint_eq(splash(EC_CHARGESPLASH_LOCKOUT + 1, &r), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_CHARGESPLASH, 0, NULL, 0, &r, 3, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_CHARGESPLASH, 1, "", 1, &r, 3, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

static uint32_t vendor_param(uint8_t mode, uint32_t param, uint32_t value, uint32_t *out)
{
	struct ec_params_battery_vendor_param p = { .param = param, .value = value, .mode = mode };
	uint8_t resp[4];
	int len = -1;
	uint32_t st = hc_status(ec, EC_CMD_BATTERY_VENDOR_PARAM, 0, &p, sizeof(p), resp, 4, &len);

	if (st == EC_RES_SUCCESS) {
		ck_assert_int_eq(len, 4);
		*out = le32(resp);
	}
	return st;
}

START_TEST(test_battery_vendor_param)
{
	struct ec_params_battery_vendor_param p = { 0 };
	uint32_t v = 1;

	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_GET, 0, 0, &v), EC_RES_SUCCESS);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_SET, 0, 0x20261206, &v),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(v, 0x20261206);
	/* In the pack: an EC reset keeps it. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_GET, 0, 0, &v), EC_RES_SUCCESS);
	ck_assert_uint_eq(v, 0x20261206);
	/* Three slots; a fourth write is refused, the last one stays. */
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_SET, 0, 2, &v), EC_RES_SUCCESS);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_SET, 0, 3, &v), EC_RES_SUCCESS);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_SET, 0, 4, &v), EC_RES_ERROR);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_GET, 0, 0, &v), EC_RES_SUCCESS);
	ck_assert_uint_eq(v, 3);
	/* Bad inputs: another parameter, another mode, short, version 1. */
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_GET, 1, 0, &v),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(vendor_param(2, 0, 0, &v), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_BATTERY_VENDOR_PARAM, 0, &p, sizeof(p) - 1, &v, 4,
				    NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_BATTERY_VENDOR_PARAM, 1, &p, sizeof(p), &v, 4,
				    NULL), EC_RES_INVALID_VERSION);
	/* A cut-off pack does not answer. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_BATTERY_CUT_OFF, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(vendor_param(BATTERY_VENDOR_PARAM_MODE_GET, 0, 0, &v), EC_RES_ERROR);
	/* A board without a battery has no such command. */
	ck_assert_uint_eq(status_on_board("ec/profiles/minimal.profile",
					  EC_CMD_BATTERY_VENDOR_PARAM, 0, &p, sizeof(p), 4),
			  EC_RES_INVALID_COMMAND);
}
END_TEST

static uint32_t smart(uint8_t flags, uint16_t hours, uint16_t cutoff, uint16_t hibern,
		      struct ec_response_smart_discharge *r)
{
	struct ec_params_smart_discharge p = {
		.flags = flags, .hours_to_zero = hours,
		.drate = { .cutoff = cutoff, .hibern = hibern },
	};
	int len = -1;
	uint32_t st = hc_status(ec, EC_CMD_SMART_DISCHARGE, 0, &p, sizeof(p), r, sizeof(*r), &len);

	if (st == EC_RES_SUCCESS)
		ck_assert_int_eq(len, 16);
	return st;
}

START_TEST(test_smart_discharge)
{
	const uint8_t set = EC_SMART_DISCHARGE_FLAGS_SET;
	struct ec_response_smart_discharge r;

	ck_assert_uint_eq(smart(0, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.hours_to_zero, 0);
	ck_assert_int_eq(r.dzone_stayup, 0);
	/* 100 h at 2000 uA in hibernation, 1000 uA in cutoff: 200 and 100 mAh. */
	ck_assert_uint_eq(smart(set, 100, 1000, 2000, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.hours_to_zero, 100);
	ck_assert_uint_eq(r.drate.cutoff, 1000);
	ck_assert_uint_eq(r.drate.hibern, 2000);
	ck_assert_int_eq(r.dzone_stayup, 200);
	ck_assert_int_eq(r.dzone_cutoff, 100);
	/* Rates 0, 0 keep the rates; the zones follow the new hours. */
	ck_assert_uint_eq(smart(set, 50, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.drate.hibern, 2000);
	ck_assert_int_eq(r.dzone_stayup, 100);
	/* Capped by the pack's full charge (laptop: 4650 mAh). */
	ck_assert_uint_eq(smart(set, 10000, 1000, 2000, &r), EC_RES_SUCCESS);
	ck_assert_int_eq(r.dzone_stayup, 4650);
	ck_assert_int_eq(r.dzone_cutoff, 4650);
	/* Without the flag nothing changes. */
	ck_assert_uint_eq(smart(0, 1, 1, 1, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.hours_to_zero, 10000);
	/* Bad inputs: hibernation below cutoff, one rate zero, short, version 1. */
	ck_assert_uint_eq(smart(set, 10, 2000, 1000, &r), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(smart(set, 10, 0, 1000, &r), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SMART_DISCHARGE, 0, "\x01", 1, &r, 16, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_SMART_DISCHARGE, 1, NULL, 0, &r, 16, NULL),
			  EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(smart(0, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.hours_to_zero, 10000);
	/* EC RAM: a cold reboot clears it. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(smart(0, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.hours_to_zero, 0);
	/* A cut-off pack cannot be asked its capacity. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_BATTERY_CUT_OFF, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(smart(set, 10, 0, 0, &r), EC_RES_UNAVAILABLE);
}
END_TEST

START_TEST(test_usb_pd_discovery)
{
	struct ec_params_usb_pd_discovery_entry r;
	uint8_t port = 0;
	int len = -1;

	/* Port 0: a Google charger (a power-source device, PSD). */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_USB_PD_DISCOVERY, 0, &port, 1, &r, sizeof(r), &len),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(len, 5);
	ck_assert_uint_eq(r.vid, 0x18d1);
	ck_assert_uint_eq(r.pid, 0x5002);
	ck_assert_uint_eq(r.ptype, 3);
	/* Port 1: nothing attached, all zero. */
	port = 1;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_USB_PD_DISCOVERY, 0, &port, 1, &r, sizeof(r), &len),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(len, 5);
	ck_assert(!r.vid && !r.pid && !r.ptype);
	/* Bad inputs: a port past the board's, an empty request, version 1. */
	port = 2;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_USB_PD_DISCOVERY, 0, &port, 1, &r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_USB_PD_DISCOVERY, 0, NULL, 0, &r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_USB_PD_DISCOVERY, 1, &port, 1, &r, sizeof(r), NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

static uint32_t gpio_set(const char *name, uint8_t val)
{
	struct ec_params_gpio_set p = { .val = val };

	snprintf(p.name, sizeof(p.name), "%s", name);
	return hc_status(ec, EC_CMD_GPIO_SET, 0, &p, sizeof(p), NULL, 0, NULL);
}

static uint8_t gpio_get(const char *name)
{
	struct ec_params_gpio_get p = { { 0 } };
	uint8_t val = 0xff;

	snprintf(p.name, sizeof(p.name), "%s", name);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GPIO_GET, 0, &p, sizeof(p), &val, 1, NULL),
			  EC_RES_SUCCESS);
	return val;
}

START_TEST(test_gpio_set)
{
	struct ec_params_gpio_set p = { "ENABLE_BACKLIGHT", 1 };
	uint8_t resp[12];

	ck_assert_uint_eq(gpio_set("ENABLE_BACKLIGHT", 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(gpio_get("ENABLE_BACKLIGHT"), 0);
	ck_assert_uint_eq(gpio_set("ENABLE_BACKLIGHT", 7), EC_RES_SUCCESS);
	ck_assert_uint_eq(gpio_get("ENABLE_BACKLIGHT"), 1);
	/* Bad inputs: an input, an unknown name, short, version 1, locked. */
	ck_assert_uint_eq(gpio_set("LID_OPEN", 0), EC_RES_ERROR);
	ck_assert_uint_eq(gpio_get("LID_OPEN"), 1);
	ck_assert_uint_eq(gpio_set("NO_SUCH_GPIO", 0), EC_RES_ERROR);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GPIO_SET, 0, &p, sizeof(p) - 1, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GPIO_SET, 1, &p, sizeof(p), NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
	ec_apply_stimulus(ec, EC_STIM_WP_ASSERT);
	{
		struct ec_params_flash_protect fp = { EC_FLASH_PROTECT_RO_AT_BOOT,
						      EC_FLASH_PROTECT_RO_AT_BOOT };

		hc_status(ec, EC_CMD_FLASH_PROTECT, 1, &fp, sizeof(fp), resp, 12, NULL);
	}
	ck_assert_uint_eq(gpio_set("ENABLE_BACKLIGHT", 0), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(gpio_get("ENABLE_BACKLIGHT"), 1);
}
END_TEST

START_TEST(test_doc_lists_what_laptops_answer)
{
	struct fake_clock fc2;
	struct ec *dual;

	check_doc_answered_list(ec, "laptop");
	fake_clock_init(&fc2);
	dual = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	check_doc_answered_list(dual, "usbc-dual");
	ec_destroy(dual);
}
END_TEST

static Suite *ec_host_misc_suite(void)
{
	Suite *s = suite_create("ec_host_misc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_test_protocol);
	tcase_add_test(tc, test_ap_reset);
	tcase_add_test(tc, test_chargesplash);
	tcase_add_test(tc, test_battery_vendor_param);
	tcase_add_test(tc, test_smart_discharge);
	tcase_add_test(tc, test_usb_pd_discovery);
	tcase_add_test(tc, test_gpio_set);
	tcase_add_test(tc, test_doc_lists_what_laptops_answer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_host_misc_suite());
}
