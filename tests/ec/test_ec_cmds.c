// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_cmds.c - the EC model's commands: versions and the command
 * table's honesty, fields and error codes, passthrough, latency and fault
 * injection (response sizes: test_ec_sizes.c).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

#define RESP_MAX 248

EC_TEST_FIXTURE(NULL);

START_TEST(test_unsupported_versions)
{
	const struct ec_cmd_entry *table;
	uint8_t resp[RESP_MAX];
	uint32_t status;
	size_t n, i;
	unsigned int v;

	table = test_cmd_table(&n);
	for (i = 0; i < n; i++) {
		/* Another kind's command is INVALID_COMMAND here (test_ec_fpmcu.c). */
		if (!ec_cmd_find_kind(table[i].command, EC_KIND_EC))
			continue;
		for (v = 0; v < 34; v++) {
			if (v < 32 && (table[i].versions & EC_VER_MASK(v)))
				continue;
			ck_assert_int_eq(hc(ec, table[i].command, v, NULL, 0, resp, sizeof(resp),
					    &status), 0);
			ck_assert_msg(status == EC_RES_INVALID_VERSION, "0x%x v%u -> %u",
				      table[i].command, v, status);
		}
		hc(ec, table[i].command, 0xFFFFFFFFu, NULL, 0, resp, sizeof(resp), &status);
		ck_assert_uint_eq(status, EC_RES_INVALID_VERSION);
	}
}
END_TEST

START_TEST(test_unknown_commands)
{
	static const uint32_t unknown[] = { 0x0000, 0x0003, 0x000E, 0x3FFF, 0x10000,
					    0xFFFFFFFFu, 0x4001, 0x8002, 0xC000 };
	uint8_t resp[RESP_MAX];
	uint32_t status;
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		ck_assert_int_eq(hc(ec, unknown[i], 0, NULL, 0, resp, sizeof(resp), &status), 0);
		ck_assert_msg(status == EC_RES_INVALID_COMMAND, "0x%x -> %u", unknown[i], status);
	}
}
END_TEST

/* GET_CMD_VERSIONS must agree with the table for every command number. */
START_TEST(test_cmd_versions_truthful)
{
	uint8_t req[2], resp[4];
	uint32_t status, cmd;

	for (cmd = 0; cmd <= 0x7FFF; cmd++) {
		uint32_t want = ec_cmd_versions(ec, cmd);

		req[0] = (uint8_t)cmd;
		req[1] = (uint8_t)(cmd >> 8);
		hc(ec, EC_CMD_GET_CMD_VERSIONS, 1, req, 2, resp, 4, &status);
		/* 32,768 rounds: Check is called only on a failure (see hc()). */
		if (want) {
			if (status != EC_RES_SUCCESS || le32(resp) != want ||
			    want != ec_cmd_table_versions(cmd))
				ck_abort_msg("0x%x: status %u, mask %#x, want %#x, table %#x", cmd,
					     status, le32(resp), want, ec_cmd_table_versions(cmd));
		} else {
			if (status != EC_RES_INVALID_PARAM)
				ck_abort_msg("0x%x: %u", cmd, status);
			/* In the table but another kind of firmware's (an FPMCU's). */
			if (ec_cmd_table_versions(cmd) && cmd < 0x4000 &&
			    ec_cmd_find_kind(cmd, EC_KIND_EC))
				ck_abort_msg("0x%x: in the laptop EC's table, not advertised", cmd);
		}
		/* Every listed version really runs; the next one is refused. */
		if (want && cmd < 0x4000) {
			hc(ec, cmd, 31 - (uint32_t)__builtin_clz(want) + 1, NULL, 0, resp, 0,
			   &status);
			if (status != EC_RES_INVALID_VERSION)
				ck_abort_msg("0x%x past its versions: %u", cmd, status);
		}
		if (cmd < 256) {
			hc(ec, EC_CMD_GET_CMD_VERSIONS, 0, req, 1, resp, 4, &status);
			if (status != (want ? EC_RES_SUCCESS : EC_RES_INVALID_PARAM))
				ck_abort_msg("0x%x by GET_CMD_VERSIONS v0: %u", cmd, status);
		}
	}
}
END_TEST

/*
 * The table derived from the subsystems' declarations: each subsystem's
 * own array sorted (dispatch searches it by halves), the merge sorted with
 * no command declared twice, every mask non-zero, and the derived lookup
 * finding exactly the declared entries.
 */
START_TEST(test_derived_table)
{
#define SUBSYS_REF(name) &ec_subsys_##name,
	static const struct ec_subsystem *const subs[] = { EC_SUBSYSTEMS(SUBSYS_REF) };
#undef SUBSYS_REF
	const struct ec_cmd_entry *table[EC_CMDS_MAX];
	size_t n = ec_cmd_table_fill(table, EC_CMDS_MAX), total = 0, i, k;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		for (k = 0; k < subs[i]->n_cmds; k++) {
			const struct ec_cmd_entry *e = &subs[i]->cmds[k];

			ck_assert_msg(e->versions && e->handler, "%s: 0x%04x without versions/handler",
				      subs[i]->name, e->command);
			ck_assert_msg(k == 0 || subs[i]->cmds[k - 1].command < e->command,
				      "%s: 0x%04x out of order", subs[i]->name, e->command);
			ck_assert_ptr_eq(ec_cmd_find(e->command), e);
		}
		total += subs[i]->n_cmds;
	}
	ck_assert_uint_eq(n, total);
	ck_assert_uint_le(n, EC_CMDS_MAX);
	ck_assert_uint_eq(ec_host_command_count(), n);
	for (i = 0; i < n; i++) {
		ck_assert_msg(i == 0 || table[i - 1]->command < table[i]->command,
			      "0x%04x declared twice or out of order", table[i]->command);
		ck_assert_uint_eq(ec_host_command_number(i), table[i]->command);
	}
	ck_assert_uint_eq(ec_host_command_number(n), 0xFFFFFFFFu);
}
END_TEST

/*
 * GET_CMD_VERSIONS and the dispatcher agree on every command number
 * 0..0xFFFF: "unsupported" is INVALID_COMMAND, and for a supported one the
 * first version past the mask is INVALID_VERSION (no handler runs).
 */
START_TEST(test_cmd_versions_match_dispatch)
{
	uint8_t req[2], resp[4];
	uint32_t status, cmd;

	for (cmd = 0; cmd <= 0xFFFF; cmd++) {
		uint32_t mask, v;

		req[0] = (uint8_t)cmd;
		req[1] = (uint8_t)(cmd >> 8);
		hc(ec, EC_CMD_GET_CMD_VERSIONS, 1, req, 2, resp, 4, &status);
		mask = status == EC_RES_SUCCESS ? le32(resp) : 0;
		/* 65,536 rounds: Check is called only on a failure (see hc()). */
		if (!mask) {
			if (status != EC_RES_INVALID_PARAM)
				ck_abort_msg("0x%04x: %u", cmd, status);
			hc(ec, cmd, 0, NULL, 0, resp, 0, &status);
			if (status != EC_RES_INVALID_COMMAND)
				ck_abort_msg("0x%04x unsupported but dispatched: %u", cmd, status);
			continue;
		}
		if (mask != ec_cmd_versions(ec, cmd))
			ck_abort_msg("0x%04x: GET_CMD_VERSIONS says %#x, the table %#x", cmd, mask,
				     ec_cmd_versions(ec, cmd));
		for (v = 0; v < 32 && (mask & EC_VER_MASK(v)); v++)
			;
		hc(ec, cmd, v, NULL, 0, resp, 0, &status);
		if (status != EC_RES_INVALID_VERSION)
			ck_abort_msg("0x%04x v%u: %u", cmd, v, status);
	}
}
END_TEST

START_TEST(test_hello_and_short_requests)
{
	uint8_t req[4] = { 0x10, 0x20, 0x30, 0x40 }, resp[4];
	uint32_t status;

	ck_assert_int_eq(hc(ec, EC_CMD_HELLO, 0, req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x40302010u + 0x01020304u);
	/* One byte of a four-byte struct: the rest reads as zero. */
	ck_assert_int_eq(hc(ec, EC_CMD_HELLO, 0, req, 1, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x10u + 0x01020304u);
	ck_assert_int_eq(hc(ec, EC_CMD_HELLO, 0, NULL, 0, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x01020304u);
	/* READ_MEMMAP with only the offset: size 0, an empty success. */
	req[0] = 0x20;
	ck_assert_int_eq(hc(ec, EC_CMD_READ_MEMMAP, 0, req, 1, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
}
END_TEST

START_TEST(test_request_limits)
{
	size_t max = ec_max_request(ec);
	uint8_t *req = calloc(1, max + 1);
	uint8_t resp[4];
	uint32_t status = 1234;

	ck_assert_uint_eq(max, 256 - 8);
	ck_assert_uint_eq(ec_max_response(ec), 256 - 8);
	ck_assert_int_eq(ec_host_command(ec, EC_CMD_HELLO, 0, req, max + 1, resp, 4, &status),
			 -EMSGSIZE);
	ck_assert_int_eq(hc(ec, EC_CMD_HELLO, 0, req, max, resp, 4, &status), 4);
	ck_assert_int_eq(ec_host_command(ec, EC_CMD_HELLO, 0, NULL, 4, resp, 4, &status), -EINVAL);
	ck_assert_int_eq(ec_host_command(ec, EC_CMD_HELLO, 0, req, 4, NULL, 4, &status), -EINVAL);
	ck_assert_int_eq(ec_host_command(ec, EC_CMD_HELLO, 0, req, 4, resp, 4, NULL), -EINVAL);
	/* No room at all: a fixed-size answer is refused. */
	ck_assert_int_eq(hc(ec, EC_CMD_HELLO, 0, req, 4, NULL, 0, &status), 0);
	ck_assert_uint_eq(status, EC_RES_RESPONSE_TOO_BIG);
	free(req);
}
END_TEST

START_TEST(test_identity_fields)
{
	uint8_t resp[RESP_MAX];
	struct ec_response_get_version_v1 *v1 = (void *)resp;
	struct ec_response_get_chip_info *chip = (void *)resp;
	uint32_t status;
	char text[128];

	hc(ec, EC_CMD_GET_VERSION, 1, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_str_eq(v1->version_string_ro, "laptop_v2.0.1234-ro");
	ck_assert_str_eq(v1->version_string_rw, "laptop_v2.0.1234-rw");
	ck_assert_str_eq(v1->cros_fwid_ro, "Google_Laptop.15000.0.0");
	ck_assert_str_eq(v1->cros_fwid_rw, "Google_Laptop.15000.1.0");
	ck_assert_uint_eq(v1->current_image, EC_IMAGE_RW);

	hc(ec, EC_CMD_GET_CHIP_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_str_eq(chip->vendor, "nuvoton");
	ck_assert_str_eq(chip->name, "npcx796fc");
	ck_assert_str_eq(chip->revision, "B");

	hc(ec, EC_CMD_GET_BOARD_VERSION, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le16(resp), 3);

	ck_assert_int_eq(hc(ec, EC_CMD_GET_BUILD_INFO, 0, NULL, 0, resp, sizeof(resp), &status),
			 (int)strlen("laptop_v2.0.1234-rw 2026-01-15 10:00:00 builder@cuse-ec") + 1);
	ck_assert_str_eq((char *)resp, "laptop_v2.0.1234-rw 2026-01-15 10:00:00 builder@cuse-ec");
	/* A string answer is cut to fit, still NUL-terminated. */
	ck_assert_int_eq(hc(ec, EC_CMD_GET_BUILD_INFO, 0, NULL, 0, resp, 7, &status), 7);
	ck_assert_str_eq((char *)resp, "laptop");

	hc(ec, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1u << 3);
	ck_assert_uint_eq(le16(resp + 4), 256);
	ck_assert_uint_eq(le16(resp + 6), 256);

	hc(ec, EC_CMD_GET_FEATURES, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert(le32(resp) & (1u << EC_FEATURE_PWM_FAN));
	ck_assert(le32(resp) & (1u << EC_FEATURE_USB_PD));
	ck_assert(le32(resp + 4) & (1u << (EC_FEATURE_HOST_EVENT64 - 32)));

	hc(ec, EC_CMD_FLASH_INFO, 1, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 524288);
	ck_assert_uint_eq(le32(resp + 8), 4096);
	ck_assert_uint_eq(le32(resp + 16), 256);

	hc(ec, EC_CMD_SYSINFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp + 4), EC_IMAGE_RW);

	ck_assert_int_gt(ec_get_version_text(ec, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "1.0.0\nlaptop_v2.0.1234-ro\nlaptop_v2.0.1234-rw\nread-write\n");
	ck_assert_int_eq(ec_get_version_text(ec, text, 6), 5);
	ck_assert_str_eq(text, "1.0.0");
	ck_assert_int_eq(ec_get_version_text(ec, NULL, 6), -EINVAL);
}
END_TEST

START_TEST(test_flash_protect)
{
	struct ec_params_flash_protect p = { 0 };
	uint8_t resp[12];
	uint32_t status;

	hc(ec, EC_CMD_FLASH_PROTECT, 1, &p, sizeof(p), resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 0);
	p.mask = EC_FLASH_PROTECT_RO_AT_BOOT;
	p.flags = EC_FLASH_PROTECT_RO_AT_BOOT;
	hc(ec, EC_CMD_FLASH_PROTECT, 1, &p, sizeof(p), resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp) & EC_FLASH_PROTECT_RO_AT_BOOT, EC_FLASH_PROTECT_RO_AT_BOOT);
	ck_assert(le32(resp + 8) & EC_FLASH_PROTECT_RO_AT_BOOT);
	/*
	 * RO_NOW is state, not a knob: as in the firmware, a bit that cannot
	 * change is ignored and the answer is SUCCESS with the flags as they
	 * are (ectool's "stress" relies on it).
	 */
	p.mask = EC_FLASH_PROTECT_RO_NOW | EC_FLASH_PROTECT_GPIO_ASSERTED | 0x80000000u;
	p.flags = p.mask;
	hc(ec, EC_CMD_FLASH_PROTECT, 1, &p, sizeof(p), resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), EC_FLASH_PROTECT_RO_AT_BOOT);
}
END_TEST

struct bad_param_case {
	uint32_t cmd;
	uint32_t ver;
	uint8_t req[40];
	size_t req_len;
};

static const struct bad_param_case bad_params[] = {
	{ EC_CMD_READ_MEMMAP, 0, { 250, 7 }, 2 },
	{ EC_CMD_READ_MEMMAP, 0, { 2, 255 }, 2 },
	{ EC_CMD_TEMP_SENSOR_GET_INFO, 0, { 3 }, 1 },
	{ EC_CMD_TEMP_SENSOR_GET_INFO, 0, { 255 }, 1 },
	{ EC_CMD_THERMAL_GET_THRESHOLD, 1, { 3 }, 4 },
	{ EC_CMD_THERMAL_GET_THRESHOLD, 1, { 0, 0, 0, 1 }, 4 },
	{ EC_CMD_PWM_SET_FAN_DUTY, 0, { 101 }, 4 },
	{ EC_CMD_PWM_SET_FAN_DUTY, 1, { 50, 0, 0, 0, 1 }, 5 },
	{ EC_CMD_PWM_SET_FAN_TARGET_RPM, 1, { 0, 0, 0, 0, 1 }, 5 },
	{ EC_CMD_THERMAL_AUTO_FAN_CTRL, 1, { 1 }, 1 },
	{ EC_CMD_LED_CONTROL, 1, { EC_LED_ID_LEFT_LED, EC_LED_FLAGS_QUERY }, 8 },
	{ EC_CMD_LED_CONTROL, 1, { 200, EC_LED_FLAGS_QUERY }, 8 },
	{ EC_CMD_LED_CONTROL, 1, { EC_LED_ID_BATTERY_LED, 0, 2 }, 8 },
	{ EC_CMD_GPIO_GET, 0, { 'N', 'O', 'P', 'E' }, 32 },
	{ EC_CMD_GPIO_GET, 0, { 0 }, 0 },
	{ EC_CMD_GPIO_GET, 1, { EC_GPIO_GET_INFO, 99 }, 33 },
	{ EC_CMD_GPIO_GET, 1, { EC_GPIO_GET_BY_NAME, 'X' }, 33 },
	{ EC_CMD_GPIO_GET, 1, { 7 }, 1 },
	{ EC_CMD_CHARGE_CONTROL, 2, { 9, 0, 0, 0, EC_CHARGE_CONTROL_CMD_SET }, 8 },
	{ EC_CMD_CHARGE_CONTROL, 2, { 0, 0, 0, 0, EC_CHARGE_CONTROL_CMD_SET, 0, 80, 20 }, 8 },
	{ EC_CMD_CHARGE_CONTROL, 2, { 0, 0, 0, 0, EC_CHARGE_CONTROL_CMD_SET, 0, 10, 101 }, 8 },
	{ EC_CMD_CHARGE_CONTROL, 2, { 0, 0, 0, 0, 5 }, 8 },
	{ EC_CMD_CHARGE_STATE, 0, { 9 }, 1 },
	{ EC_CMD_CHARGE_STATE, 0, { CHARGE_STATE_CMD_GET_PARAM, 0, 0, 0, 99 }, 8 },
	{ EC_CMD_CHARGE_STATE, 0, { CHARGE_STATE_CMD_SET_PARAM, 0, 0, 0, CS_PARAM_CHG_VOLTAGE }, 12 },
	{ EC_CMD_CONSOLE_READ, 1, { 2 }, 1 },
	{ EC_CMD_USB_PD_CONTROL, 0, { 2 }, 4 },
	{ EC_CMD_USB_PD_CONTROL, 1, { 0, USB_PD_CTRL_ROLE_COUNT }, 4 },
	{ EC_CMD_USB_PD_CONTROL, 2, { 0, 0, USB_PD_CTRL_MUX_COUNT }, 4 },
	{ EC_CMD_USB_PD_CONTROL, 2, { 0, 0, 0, USB_PD_CTRL_SWAP_COUNT }, 4 },
	{ EC_CMD_USB_PD_POWER_INFO, 0, { 2 }, 1 },
	{ EC_CMD_USB_PD_MUX_INFO, 0, { 9 }, 1 },
	{ EC_CMD_TYPEC_STATUS, 0, { 2 }, 1 },
	{ EC_CMD_BATTERY_GET_STATIC, 0, { 1 }, 1 },
	{ EC_CMD_BATTERY_GET_STATIC, 1, { 1 }, 1 },
	{ EC_CMD_BATTERY_GET_DYNAMIC, 0, { 1 }, 1 },
	{ EC_CMD_GET_CMD_VERSIONS, 1, { 0xFF, 0x3F }, 2 },
};

START_TEST(test_bad_params)
{
	const struct bad_param_case *c = &bad_params[_i];
	uint8_t resp[RESP_MAX];
	uint32_t status;

	ck_assert_int_eq(hc(ec, c->cmd, c->ver, c->req, c->req_len, resp, sizeof(resp), &status),
			 0);
	ck_assert_msg(status == EC_RES_INVALID_PARAM, "case %d cmd 0x%x: status %u", _i, c->cmd,
		      status);
}
END_TEST

START_TEST(test_thermal_and_gpio_fields)
{
	uint8_t resp[RESP_MAX], req[33] = { 0 };
	uint32_t status;

	req[0] = 0;
	hc(ec, EC_CMD_THERMAL_GET_THRESHOLD, 1, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 358);
	ck_assert_uint_eq(le32(resp + 4), 368);
	ck_assert_uint_eq(le32(resp + 8), 378);
	ck_assert_uint_eq(le32(resp + 24), 323);
	ck_assert_uint_eq(le32(resp + 28), 353);
	req[0] = 2;
	hc(ec, EC_CMD_TEMP_SENSOR_GET_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_str_eq((char *)resp, "Battery");
	ck_assert_uint_eq(resp[32], TEMP_SENSOR_TYPE_BATTERY);

	req[0] = EC_GPIO_GET_COUNT;
	ck_assert_int_eq(hc(ec, EC_CMD_GPIO_GET, 1, req, 1, resp, sizeof(resp), &status), 1);
	ck_assert_uint_eq(resp[0], 9);
	req[0] = EC_GPIO_GET_INFO;
	req[1] = 4;
	hc(ec, EC_CMD_GPIO_GET, 1, req, 2, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], 1);
	ck_assert_str_eq((char *)resp + 1, "ENTERING_RW");
	ck_assert_uint_eq(le32(resp + 36), GPIO_OUTPUT);
	memset(req, 0, sizeof(req));
	req[0] = EC_GPIO_GET_BY_NAME;
	memcpy(req + 1, "LID_OPEN", 8);
	ck_assert_int_eq(hc(ec, EC_CMD_GPIO_GET, 1, req, 33, resp, sizeof(resp), &status), 1);
	ck_assert_uint_eq(resp[0], 1);
	/* A 32-byte name without NUL is matched on 32 bytes, no over-read. */
	memset(req, 'A', 32);
	hc(ec, EC_CMD_GPIO_GET, 0, req, 32, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_led_control)
{
	uint8_t req[8] = { EC_LED_ID_BATTERY_LED, EC_LED_FLAGS_QUERY }, resp[6];
	uint32_t status;

	hc(ec, EC_CMD_LED_CONTROL, 1, req, 8, resp, 6, &status);
	ck_assert_uint_eq(resp[EC_LED_COLOR_RED], 1);
	ck_assert_uint_eq(resp[EC_LED_COLOR_AMBER], 1);
	ck_assert_uint_eq(resp[EC_LED_COLOR_BLUE], 0);
	req[1] = 0;
	req[2 + EC_LED_COLOR_WHITE] = 1;
	ck_assert_int_eq(hc(ec, EC_CMD_LED_CONTROL, 1, req, 8, resp, 6, &status), 6);
	ck_assert_uint_eq(ec->led_auto[0], false);
	ck_assert_uint_eq(ec->led_brightness[0][EC_LED_COLOR_WHITE], 1);
	req[1] = EC_LED_FLAGS_AUTO;
	hc(ec, EC_CMD_LED_CONTROL, 1, req, 8, resp, 6, &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(ec->led_auto[0], true);
}
END_TEST

START_TEST(test_power_fields)
{
	uint8_t resp[RESP_MAX], req[12] = { 0 };
	uint32_t status;

	hc(ec, EC_CMD_BATTERY_GET_STATIC, 1, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le16(resp), 4800);
	ck_assert_uint_eq(le16(resp + 2), 11550);
	ck_assert_uint_eq(le32(resp + 4), 42);
	ck_assert_str_eq((char *)resp + 8, "SMP");
	ck_assert_str_eq((char *)resp + 20, "L20M3PG1");
	ck_assert_str_eq((char *)resp + 44, "LION");
	hc(ec, EC_CMD_BATTERY_GET_STATIC, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_str_eq((char *)resp + 4, "SMP");
	/* 8-byte v0 fields keep their NUL, as the memory map does. */
	ck_assert_str_eq((char *)resp + 12, "L20M3PG");
	ck_assert_uint_eq(le32(resp + 36), 42);

	hc(ec, EC_CMD_BATTERY_GET_DYNAMIC, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_int_eq((int16_t)le16(resp + 4), 3720);	/* 80 % of 4650 */
	ck_assert_int_eq((int16_t)le16(resp + 6), 4650);
	ck_assert(le16(resp + 8) & EC_BATT_FLAG_AC_PRESENT);

	req[0] = CHARGE_STATE_CMD_GET_STATE;
	hc(ec, EC_CMD_CHARGE_STATE, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_int_eq((int32_t)le32(resp), 1);
	ck_assert_int_eq((int32_t)le32(resp + 16), 80);
	req[0] = CHARGE_STATE_CMD_GET_PARAM;
	req[4] = CS_PARAM_CHG_CURRENT;
	ck_assert_int_eq(hc(ec, EC_CMD_CHARGE_STATE, 0, req, 8, resp, sizeof(resp), &status), 4);
	ck_assert_uint_eq(le32(resp), 2400);
	req[0] = CHARGE_STATE_CMD_SET_PARAM;
	req[8] = 0xE8;
	req[9] = 0x03;
	ck_assert_int_eq(hc(ec, EC_CMD_CHARGE_STATE, 0, req, 12, resp, sizeof(resp), &status), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	req[0] = CHARGE_STATE_CMD_GET_PARAM;
	hc(ec, EC_CMD_CHARGE_STATE, 0, req, 8, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1000);

	hc(ec, EC_CMD_POWER_INFO, 1, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], POWER_SOURCE_AC_BATTERY);
	ck_assert_uint_eq(resp[1], 80);
	ck_assert_uint_eq(resp[2], 65);

	memset(req, 0, sizeof(req));
	req[0] = CHARGE_CONTROL_IDLE;
	req[4] = EC_CHARGE_CONTROL_CMD_SET;
	req[6] = 40;
	req[7] = 60;
	ck_assert_int_eq(hc(ec, EC_CMD_CHARGE_CONTROL, 2, req, 8, resp, 8, &status), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	req[4] = EC_CHARGE_CONTROL_CMD_GET;
	ck_assert_int_eq(hc(ec, EC_CMD_CHARGE_CONTROL, 2, req, 8, resp, 8, &status), 8);
	ck_assert_uint_eq(le32(resp), CHARGE_CONTROL_IDLE);
	ck_assert_int_eq((int8_t)resp[4], 40);
	ck_assert_int_eq((int8_t)resp[5], 60);
}
END_TEST

START_TEST(test_usbpd_fields)
{
	uint8_t resp[RESP_MAX], req[4] = { 0 };
	uint32_t status;

	hc(ec, EC_CMD_USB_PD_PORTS, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], 2);
	hc(ec, EC_CMD_USB_PD_CONTROL, 2, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], PD_CTRL_RESP_ENABLED_COMMS | PD_CTRL_RESP_ENABLED_CONNECTED |
			  PD_CTRL_RESP_ENABLED_PD_CAPABLE);
	ck_assert_uint_eq(resp[1] & PD_CTRL_RESP_ROLE_POWER, 0);
	ck_assert_str_eq((char *)resp + 3, "SNK_READY");
	req[0] = 1;
	hc(ec, EC_CMD_USB_PD_CONTROL, 1, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], PD_CTRL_RESP_ENABLED_COMMS);
	ck_assert_str_eq((char *)resp + 3, "SNK_DISCONNECTED");

	req[0] = 0;
	hc(ec, EC_CMD_USB_PD_POWER_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_PORT_POWER_SINK);
	ck_assert_uint_eq(le16(resp + 4), 20000);
	ck_assert_uint_eq(le16(resp + 8), 3250);
	ck_assert_uint_eq(le32(resp + 12), 20000u * 3250u);
	req[0] = PD_POWER_CHARGING_PORT;
	hc(ec, EC_CMD_USB_PD_POWER_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_PORT_POWER_SINK);
	req[0] = 1;
	hc(ec, EC_CMD_USB_PD_POWER_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_PORT_POWER_DISCONNECTED);

	req[0] = 0;
	hc(ec, EC_CMD_USB_PD_MUX_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_MUX_USB_ENABLED);
	hc(ec, EC_CMD_TYPEC_STATUS, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[1], 1);
	ck_assert_uint_eq(resp[4], PD_ROLE_SINK);
	ck_assert_str_eq((char *)resp + 12, "Attached.SNK");
	ck_assert_uint_eq(resp[3], 1);
	ck_assert_uint_eq(le32(resp + 52), (400u << 10) | 325u);

	/* Power swap, then a DP mux request, then read back. */
	req[3] = USB_PD_CTRL_SWAP_POWER;
	req[2] = USB_PD_CTRL_MUX_DOCK;
	hc(ec, EC_CMD_USB_PD_CONTROL, 0, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[1] & PD_CTRL_RESP_ROLE_POWER, PD_CTRL_RESP_ROLE_POWER);
	hc(ec, EC_CMD_USB_PD_MUX_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_MUX_USB_ENABLED | USB_PD_MUX_DP_ENABLED |
			  USB_PD_MUX_HPD_LVL);
	req[1] = USB_PD_CTRL_ROLE_FORCE_SINK;
	req[2] = 0;
	req[3] = 0;
	hc(ec, EC_CMD_USB_PD_CONTROL, 0, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[1] & PD_CTRL_RESP_ROLE_POWER, 0);

	/* AC comes through port 0's charger: unplugging disconnects it. */
	ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG);
	hc(ec, EC_CMD_USB_PD_POWER_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_PORT_POWER_DISCONNECTED);
	hc(ec, EC_CMD_POWER_INFO, 1, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], POWER_SOURCE_BATTERY);
	hc(ec, EC_CMD_TYPEC_STATUS, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[1], 0);
	ec_apply_stimulus(ec, EC_STIM_AC_PLUG);
	hc(ec, EC_CMD_USB_PD_POWER_INFO, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(resp[0], USB_PD_PORT_POWER_SINK);
}
END_TEST

START_TEST(test_console)
{
	uint8_t resp[RESP_MAX], req[1] = { CONSOLE_READ_RECENT };
	char all[4096] = "";
	uint32_t status;
	int ret, rounds = 0;

	/* Before any snapshot there is nothing to read. */
	ck_assert_int_eq(hc(ec, EC_CMD_CONSOLE_READ, 0, NULL, 0, resp, sizeof(resp), &status), 1);
	ck_assert_uint_eq(resp[0], 0);

	hc(ec, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, resp, 0, &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	do {
		ret = hc(ec, EC_CMD_CONSOLE_READ, 0, NULL, 0, resp, 32, &status);
		ck_assert_int_ge(ret, 1);
		ck_assert_int_le(ret, 32);
		ck_assert_uint_eq(resp[ret - 1], 0);
		strncat(all, (char *)resp, sizeof(all) - strlen(all) - 1);
		ck_assert_int_lt(++rounds, 200);
	} while (resp[0]);
	ck_assert_ptr_nonnull(strstr(all, "UART initialized"));
	ck_assert_ptr_nonnull(strstr(all, "Board: laptop"));

	/* RECENT: only what arrived since the previous snapshot. */
	ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
	hc(ec, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, resp, 0, &status);
	ret = hc(ec, EC_CMD_CONSOLE_READ, 1, req, 1, resp, sizeof(resp), &status);
	ck_assert_int_gt(ret, 1);
	ck_assert_ptr_nonnull(strstr((char *)resp, "lid closed"));
	ck_assert_ptr_null(strstr((char *)resp, "UART"));
	ret = hc(ec, EC_CMD_CONSOLE_READ, 1, req, 1, resp, sizeof(resp), &status);
	ck_assert_int_eq(ret, 1);
	/* No room even for the NUL. */
	hc(ec, EC_CMD_CONSOLE_READ, 0, NULL, 0, NULL, 0, &status);
	ck_assert_uint_eq(status, EC_RES_RESPONSE_TOO_BIG);
}
END_TEST

START_TEST(test_console_wraps)
{
	uint8_t resp[RESP_MAX];
	uint32_t status;
	size_t total = 0;
	int i, ret;

	for (i = 0; i < 200; i++) {
		ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
		ec_apply_stimulus(ec, EC_STIM_LID_OPEN);
	}
	hc(ec, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, resp, 0, &status);
	do {
		ret = hc(ec, EC_CMD_CONSOLE_READ, 0, NULL, 0, resp, sizeof(resp), &status);
		total += (size_t)ret - 1;
	} while (ret > 1);
	ck_assert_uint_eq(total, EC_CONSOLE_SIZE);
}
END_TEST

START_TEST(test_panic_info)
{
	uint8_t blob[EC_PANIC_MAX + 1], resp[RESP_MAX];
	uint32_t status;

	ck_assert_int_eq(hc(ec, EC_CMD_GET_PANIC_INFO, 0, NULL, 0, resp, sizeof(resp), &status), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	memset(blob, 0x5A, sizeof(blob));
	ck_assert_int_eq(ec_inject_panic(ec, blob, 144), 0);
	ck_assert_int_eq(hc(ec, EC_CMD_GET_PANIC_INFO, 0, NULL, 0, resp, sizeof(resp), &status),
			 144);
	ck_assert_uint_eq(resp[143], 0x5A);
	hc(ec, EC_CMD_GET_PANIC_INFO, 0, NULL, 0, resp, 100, &status);
	ck_assert_uint_eq(status, EC_RES_RESPONSE_TOO_BIG);
	ck_assert_int_eq(ec_inject_panic(ec, blob, sizeof(blob)), -EINVAL);
	ck_assert_int_eq(ec_inject_panic(ec, NULL, 4), -EINVAL);
	ck_assert_int_eq(ec_inject_panic(ec, NULL, 0), 0);
	ck_assert_int_eq(hc(ec, EC_CMD_GET_PANIC_INFO, 0, NULL, 0, resp, sizeof(resp), &status), 0);
}
END_TEST

START_TEST(test_rtc_uptime)
{
	uint8_t resp[RESP_MAX];
	uint32_t status, rtc0;

	hc(ec, EC_CMD_RTC_GET_VALUE, 0, NULL, 0, resp, sizeof(resp), &status);
	rtc0 = le32(resp);
	hc(ec, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 0);
	fake_clock_advance(&fc, 90 * NS_PER_S + 500000000ull);
	hc(ec, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 90500);
	hc(ec, EC_CMD_RTC_GET_VALUE, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), rtc0 + 90);
}
END_TEST

START_TEST(test_passthrough)
{
	struct fake_clock fc2;
	struct ec *dual;
	uint8_t resp[RESP_MAX], req[4] = { 1, 0, 0, 0 };
	uint32_t status;

	fake_clock_init(&fc2);
	dual = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	ck_assert_int_eq(hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_HELLO, 0, req, 4, resp,
			    sizeof(resp), &status), 4);
	ck_assert_uint_eq(le32(resp), 1 + 0x01020304u);
	ck_assert_int_eq(hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_VERSION, 0, NULL, 0, resp,
			    sizeof(resp), &status), 100);
	ck_assert_str_eq((char *)resp, "dual_pd_v1.0.5");
	ck_assert_int_eq(hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_VERSION, 1, NULL, 0, resp,
			    sizeof(resp), &status), 132);
	hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_VERSION, 2, NULL, 0, resp, sizeof(resp),
	   &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_VERSION);
	ck_assert_int_eq(hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0,
			    resp, sizeof(resp), &status), 12);
	req[0] = EC_CMD_HELLO;
	hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_CMD_VERSIONS, 0, req, 1, resp,
	   sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1);
	req[0] = EC_CMD_CHARGE_STATE;
	hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_GET_CMD_VERSIONS, 0, req, 1, resp,
	   sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_PARAM);
	/* A laptop command on the PD chip, and devices 2 and 3, do not exist. */
	hc(dual, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_CHARGE_STATE, 0, NULL, 0, resp, sizeof(resp),
	   &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	hc(dual, EC_CMD_PASSTHRU_OFFSET(2) + EC_CMD_HELLO, 0, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	hc(dual, EC_CMD_PASSTHRU_OFFSET(3) + EC_CMD_HELLO, 0, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	/* GET_CMD_VERSIONS on the EC itself reports the device's commands. */
	req[0] = 0x01;
	req[1] = 0x40;
	hc(dual, EC_CMD_GET_CMD_VERSIONS, 1, req, 2, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1);
	ec_destroy(dual);

	/* The default laptop has nothing behind it. */
	hc(ec, EC_CMD_PASSTHRU_OFFSET(1) + EC_CMD_HELLO, 0, req, 4, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
}
END_TEST

START_TEST(test_minimal_profile)
{
	struct fake_clock fc2;
	struct ec *mini;
	uint8_t resp[RESP_MAX], req[2] = { 0x20, 2 }, buf[255];
	uint32_t status;

	fake_clock_init(&fc2);
	mini = make_ec_file("ec/profiles/minimal.profile", &fc2);
	ck_assert_int_eq(ec_read_memmap(mini, 0x20, 2, buf), -ENOTTY);
	ck_assert_int_eq(hc(mini, EC_CMD_READ_MEMMAP, 0, req, 2, resp, sizeof(resp), &status), 2);
	ck_assert_mem_eq(resp, "EC", 2);
	ck_assert_uint_eq(ec_max_request(mini), 120);
	ck_assert_uint_eq(ec_max_response(mini), 152);
	/* Switched-off commands: INVALID_COMMAND, and GET_CMD_VERSIONS agrees. */
	hc(mini, EC_CMD_BATTERY_GET_STATIC, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	req[0] = 0x00;
	req[1] = 0x06;
	hc(mini, EC_CMD_GET_CMD_VERSIONS, 1, req, 2, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_PARAM);
	/* GET_VERSION v1 (132 bytes) still fits the smaller packet. */
	ck_assert_int_eq(hc(mini, EC_CMD_GET_VERSION, 1, NULL, 0, resp, ec_max_response(mini),
			    &status), 132);
	ck_assert_int_gt(ec_get_version_text(mini, (char *)buf, sizeof(buf)), 0);
	ck_assert_ptr_nonnull(strstr((char *)buf, "\nread-only\n"));
	ec_destroy(mini);
}
END_TEST

START_TEST(test_latency)
{
	struct fake_clock fc2;
	struct ec *dual;
	uint8_t resp[RESP_MAX], req[1] = { 0 };
	uint32_t status;

	fake_clock_init(&fc2);
	dual = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	hc(dual, EC_CMD_HELLO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(fc2.slept, 50000);
	hc(dual, EC_CMD_TYPEC_STATUS, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(fc2.slept, 250000);
	ec_set_latency_ns(dual, 1000);
	hc(dual, EC_CMD_TYPEC_STATUS, 0, req, 1, resp, sizeof(resp), &status);
	ck_assert_uint_eq(fc2.slept, 251000);
	ec_destroy(dual);
	ec_set_latency_ns(NULL, 5);
}
END_TEST

START_TEST(test_fault_busy_and_timeout)
{
	static const char busy_profile[] =
		"[faults]\nbusy = 1\n";
	static const char timeout_profile[] =
		"[faults]\ntimeout = 1\ntimeout_delay = 250ms\n";
	struct fake_clock fc2;
	struct ec *e;
	uint8_t resp[8];
	uint32_t status;

	fake_clock_init(&fc2);
	e = make_ec_text(busy_profile, &fc2);
	ck_assert_int_eq(hc(e, EC_CMD_HELLO, 0, NULL, 0, resp, sizeof(resp), &status), 0);
	ck_assert_uint_eq(status, EC_RES_BUSY);
	hc(e, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_UNAVAILABLE);
	ec_destroy(e);

	fake_clock_init(&fc2);
	e = make_ec_text(timeout_profile, &fc2);
	ck_assert_int_eq(ec_host_command(e, EC_CMD_HELLO, 0, NULL, 0, resp, sizeof(resp), &status),
			 -ETIMEDOUT);
	ck_assert_uint_eq(status, EC_RES_TIMEOUT);
	ck_assert_uint_eq(fc2.slept, 250000000ull);
	ec_destroy(e);
}
END_TEST

START_TEST(test_fault_in_progress_resend)
{
	static const char text[] = "[faults]\nin_progress = 1\n";
	struct fake_clock fc2;
	struct ec *e;
	uint8_t resp[RESP_MAX], req[4] = { 5 };
	uint32_t status;

	fake_clock_init(&fc2);
	e = make_ec_text(text, &fc2);
	ck_assert_int_eq(hc(e, EC_CMD_HELLO, 0, req, 4, resp, sizeof(resp), &status), 0);
	ck_assert_uint_eq(status, EC_RES_IN_PROGRESS);
	ck_assert_int_eq(hc(e, EC_CMD_GET_COMMS_STATUS, 0, NULL, 0, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0);
	ck_assert_int_eq(hc(e, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, sizeof(resp), &status), 4);
	ck_assert_uint_eq(le32(resp), 5 + 0x01020304u);
	hc(e, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_UNAVAILABLE);
	/* A held-back error stays an error. */
	hc(e, 0x3333, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_IN_PROGRESS);
	hc(e, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	ec_destroy(e);
}
END_TEST

START_TEST(test_fault_probability_reproducible)
{
	static const char text[] = "[faults]\nbusy = 0.3\nseed = 77\n";
	struct fake_clock fc2;
	struct ec *a, *b;
	uint8_t resp[8];
	uint32_t sa, sb;
	int i, busy = 0;

	fake_clock_init(&fc2);
	a = make_ec_text(text, &fc2);
	b = make_ec_text(text, &fc2);
	for (i = 0; i < 2000; i++) {
		hc(a, EC_CMD_HELLO, 0, NULL, 0, resp, sizeof(resp), &sa);
		hc(b, EC_CMD_HELLO, 0, NULL, 0, resp, sizeof(resp), &sb);
		ck_assert_uint_eq(sa, sb);
		busy += sa == EC_RES_BUSY;
	}
	ck_assert_int_gt(busy, 450);
	ck_assert_int_lt(busy, 750);
	ec_destroy(a);
	ec_destroy(b);
}
END_TEST

static Suite *ec_cmds_suite(void)
{
	Suite *s = suite_create("ec_cmds");
	TCase *tc = tcase_create("commands");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_unsupported_versions);
	tcase_add_test(tc, test_unknown_commands);
	tcase_add_test(tc, test_cmd_versions_truthful);
	tcase_add_test(tc, test_derived_table);
	tcase_add_test(tc, test_cmd_versions_match_dispatch);
	tcase_add_test(tc, test_hello_and_short_requests);
	tcase_add_test(tc, test_request_limits);
	tcase_add_test(tc, test_identity_fields);
	tcase_add_test(tc, test_flash_protect);
	tcase_add_loop_test(tc, test_bad_params, 0, sizeof(bad_params) / sizeof(bad_params[0]));
	tcase_add_test(tc, test_thermal_and_gpio_fields);
	tcase_add_test(tc, test_led_control);
	tcase_add_test(tc, test_power_fields);
	tcase_add_test(tc, test_usbpd_fields);
	tcase_add_test(tc, test_console);
	tcase_add_test(tc, test_console_wraps);
	tcase_add_test(tc, test_panic_info);
	tcase_add_test(tc, test_rtc_uptime);
	tcase_add_test(tc, test_passthrough);
	tcase_add_test(tc, test_minimal_profile);
	tcase_add_test(tc, test_latency);
	tcase_add_test(tc, test_fault_busy_and_timeout);
	tcase_add_test(tc, test_fault_in_progress_resend);
	tcase_add_test(tc, test_fault_probability_reproducible);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_cmds_suite());
}
