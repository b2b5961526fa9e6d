// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_keyboard.c - the keyboard and MKBP commands: matrix info, the
 * supported and current buttons and switches, simulated keys reaching
 * GET_NEXT_EVENT (v0 and v3) and the notifier chain, keyboard ID, scanner config,
 * wake masks and the keyboard backlight; each with its bad inputs.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

/* Drop the boot-time events so GET_NEXT_EVENT shows only what a test does. */
static void drain(struct ec *e)
{
	uint8_t resp[32];

	while (hc_status(e, EC_CMD_GET_NEXT_EVENT, 2, NULL, 0, resp, sizeof(resp), NULL) ==
	       EC_RES_SUCCESS)
		;
}

START_TEST(test_backlight)
{
	struct fake_clock fc2;
	struct ec *mini;
	uint8_t resp[2], pct = 40;
	int ret;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, resp, 2, &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 2);
	ck_assert_uint_eq(resp[0], 0);
	ck_assert_uint_eq(resp[1], 0);
	ck_assert_int_eq(ec_kb_backlight_percent(ec), 0);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &pct, 1, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	hc_status(ec, EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, resp, 2, NULL);
	ck_assert_uint_eq(resp[0], 40);
	ck_assert_uint_eq(resp[1], 1);
	ck_assert_int_eq(ec_kb_backlight_percent(ec), 40);
	pct = 101;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &pct, 1, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	hc_status(ec, EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, resp, 2, NULL);
	ck_assert_uint_eq(resp[0], 40);
	ck_assert_int_eq(ec_kb_backlight_percent(ec), 40);

	/* A board without a backlight does not have the commands at all. */
	fake_clock_init(&fc2);
	mini = make_ec_file("ec/profiles/minimal.profile", &fc2);
	ck_assert_uint_eq(hc_status(mini, EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, resp, 2, NULL),
			  EC_RES_INVALID_COMMAND);
	ck_assert_int_eq(ec_kb_backlight_percent(mini), -ENODEV);
	ec_destroy(mini);
}
END_TEST

static uint32_t mkbp_info(struct ec *e, uint8_t info, uint8_t type, uint8_t *resp, int *ret)
{
	struct ec_params_mkbp_info p = { .info_type = info, .event_type = type };

	memset(resp, 0, 32);
	return hc_status(e, EC_CMD_MKBP_INFO, 0, &p, sizeof(p), resp, 32, ret);
}

START_TEST(test_mkbp_info)
{
	uint8_t resp[32];
	int ret;

	ck_assert_uint_eq(mkbp_info(ec, EC_MKBP_INFO_KBD, 0, resp, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 9);
	ck_assert_uint_eq(le32(resp), 8);
	ck_assert_uint_eq(le32(resp + 4), 13);
	ck_assert_uint_eq(mkbp_info(ec, EC_MKBP_INFO_SUPPORTED, EC_MKBP_EVENT_BUTTON, resp, &ret),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), (1u << EC_MKBP_POWER_BUTTON) | (1u << EC_MKBP_VOL_UP) |
			  (1u << EC_MKBP_VOL_DOWN));
	mkbp_info(ec, EC_MKBP_INFO_SUPPORTED, EC_MKBP_EVENT_SWITCH, resp, NULL);
	ck_assert_uint_eq(le32(resp), (1u << EC_MKBP_LID_OPEN) | (1u << EC_MKBP_TABLET_MODE));
	mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_SWITCH, resp, NULL);
	ck_assert_uint_eq(le32(resp), 1u << EC_MKBP_LID_OPEN);
	ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
	mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_SWITCH, resp, NULL);
	ck_assert_uint_eq(le32(resp), 0);
	mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_HOST_EVENT, resp, NULL);
	ck_assert(le32(resp) & EC_HOST_EVENT_MASK(EC_HOST_EVENT_LID_CLOSED));
	ck_assert_uint_eq(mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_KEY_MATRIX, resp,
				    &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 13);

	/* Bad inputs. */
	ck_assert_uint_eq(mkbp_info(ec, 3, 0, resp, &ret), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(mkbp_info(ec, EC_MKBP_INFO_SUPPORTED, EC_MKBP_EVENT_KEY_MATRIX, resp,
				    NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_COUNT, resp, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

static uint32_t key(struct ec *e, uint8_t col, uint8_t row, uint8_t pressed)
{
	struct ec_params_mkbp_simulate_key p = { col, row, pressed };

	return hc_status(e, EC_CMD_MKBP_SIMULATE_KEY, 0, &p, sizeof(p), NULL, 0, NULL);
}

START_TEST(test_simulate_key)
{
	struct test_listener l;
	uint8_t resp[32], ev[32];
	int ret;

	test_listener_init(&l, 1u << EC_MKBP_EVENT_KEY_MATRIX);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	drain(ec);
	ck_assert_uint_eq(key(ec, 2, 3, 1), EC_RES_SUCCESS);
	/* v3: the type byte and all 13 columns. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 3, NULL, 0, resp, sizeof(resp), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 14);
	ck_assert_uint_eq(resp[0], EC_MKBP_EVENT_KEY_MATRIX);
	ck_assert_uint_eq(resp[1 + 2], 1u << 3);
	/* The same event reached the open file's queue. */
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), 14);
	ck_assert_mem_eq(ev, resp, 14);
	mkbp_info(ec, EC_MKBP_INFO_CURRENT, EC_MKBP_EVENT_KEY_MATRIX, resp, NULL);
	ck_assert_uint_eq(resp[2], 1u << 3);

	/* Pressing it again changes nothing and sends nothing. */
	ck_assert_uint_eq(key(ec, 2, 3, 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 3, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_UNAVAILABLE);
	ck_assert_uint_eq(key(ec, 2, 3, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 0, NULL, 0, resp, sizeof(resp), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 14);
	ck_assert_uint_eq(resp[3], 0);

	/* Bad inputs: outside the matrix; a locked system. */
	ck_assert_uint_eq(key(ec, 13, 0, 1), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(key(ec, 0, 8, 1), EC_RES_INVALID_PARAM);
	ec_apply_stimulus(ec, EC_STIM_WP_ASSERT);
	{
		struct ec_params_flash_protect fp = { EC_FLASH_PROTECT_RO_AT_BOOT,
						      EC_FLASH_PROTECT_RO_AT_BOOT };

		hc_status(ec, EC_CMD_FLASH_PROTECT, 1, &fp, sizeof(fp), resp, 12, NULL);
	}
	ck_assert_uint_eq(key(ec, 0, 0, 1), EC_RES_ACCESS_DENIED);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	test_listener_fini(&l);
}
END_TEST

START_TEST(test_next_event_v3_room)
{
	uint8_t payload[16], resp[32];
	int ret;
	unsigned int i;

	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(0xA0 + i);
	drain(ec);
	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, payload, 16), 0);
	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, payload, 16), 0);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 3, NULL, 0, resp, sizeof(resp), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 17);
	ck_assert_uint_eq(resp[0], EC_MKBP_EVENT_SYSRQ | EC_MKBP_HAS_MORE_EVENTS);
	ck_assert_mem_eq(resp + 1, payload, 16);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 0, NULL, 0, resp, sizeof(resp), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 14);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_NEXT_EVENT, 4, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

START_TEST(test_keyboard_id)
{
	uint8_t resp[4];
	struct ec *e;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_KEYBOARD_ID, 0, NULL, 0, resp, 4, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), KEYBOARD_ID_UNSUPPORTED);
	e = make_ec_text("[keyboard]\nid = 0x1234\nrows = 4\ncols = 3\nbuttons = 7\n", &fc);
	hc_status(e, EC_CMD_GET_KEYBOARD_ID, 0, NULL, 0, resp, 4, NULL);
	ck_assert_uint_eq(le32(resp), 0x1234);
	ck_assert_uint_eq(key(e, 2, 3, 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(key(e, 3, 0, 1), EC_RES_INVALID_PARAM);
	ec_destroy(e);
}
END_TEST

START_TEST(test_mkbp_config)
{
	struct ec_mkbp_config c, got;
	int ret;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_GET_CONFIG, 0, NULL, 0, &got, sizeof(got), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 21);
	ck_assert_uint_eq(got.flags & EC_MKBP_FLAGS_ENABLE, EC_MKBP_FLAGS_ENABLE);
	c = got;
	c.valid_mask = EC_MKBP_VALID_SCAN_PERIOD;
	c.scan_period_us = 5000;
	c.debounce_up_us = 1;		/* not in valid_mask: ignored */
	c.valid_flags = EC_MKBP_FLAGS_ENABLE;
	c.flags = 0;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_SET_CONFIG, 0, &c, sizeof(c), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	hc_status(ec, EC_CMD_MKBP_GET_CONFIG, 0, NULL, 0, &c, sizeof(c), NULL);
	ck_assert_uint_eq(c.scan_period_us, 5000);
	ck_assert_uint_eq(c.debounce_up_us, got.debounce_up_us);
	ck_assert_uint_eq(c.flags & EC_MKBP_FLAGS_ENABLE, 0);

	/* Bad inputs leave everything as it was. */
	c.valid_mask = EC_MKBP_VALID_SCAN_PERIOD | EC_MKBP_VALID_DEBOUNCE_UP;
	c.scan_period_us = 0;
	c.debounce_up_us = 7;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_SET_CONFIG, 0, &c, sizeof(c), NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	c.valid_mask = EC_MKBP_VALID_FIFO_MAX_DEPTH;
	c.fifo_max_depth = 17;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_SET_CONFIG, 0, &c, sizeof(c), NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	hc_status(ec, EC_CMD_MKBP_GET_CONFIG, 0, NULL, 0, &c, sizeof(c), NULL);
	ck_assert_uint_eq(c.scan_period_us, 5000);
	ck_assert_uint_eq(c.debounce_up_us, got.debounce_up_us);
	ck_assert_uint_eq(c.fifo_max_depth, got.fifo_max_depth);
}
END_TEST

START_TEST(test_mkbp_wake_mask)
{
	struct ec_params_mkbp_event_wake_mask p = { SET_WAKE_MASK, EC_MKBP_EVENT_WAKE_MASK,
						    { 0 }, 0x1a };
	uint8_t resp[4];
	int ret;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_WAKE_MASK, 0, &p, sizeof(p), resp, 4, &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 0);
	p.action = GET_WAKE_MASK;
	hc_status(ec, EC_CMD_MKBP_WAKE_MASK, 0, &p, sizeof(p), resp, 4, &ret);
	ck_assert_int_eq(ret, 4);
	ck_assert_uint_eq(le32(resp), 0x1a);
	p.mask_type = EC_MKBP_HOST_EVENT_WAKE_MASK;
	hc_status(ec, EC_CMD_MKBP_WAKE_MASK, 0, &p, sizeof(p), resp, 4, NULL);
	ck_assert_uint_eq(le32(resp), 0);

	p.action = 2;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_WAKE_MASK, 0, &p, sizeof(p), resp, 4, NULL),
			  EC_RES_INVALID_PARAM);
	p.action = GET_WAKE_MASK;
	p.mask_type = 2;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MKBP_WAKE_MASK, 0, &p, sizeof(p), resp, 4, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_keyboard_profile_errors)
{
	static const char *const bad[] = {
		"[keyboard]\nrows = 9\n",
		"[keyboard]\ncols = 0\n",
		"[keyboard]\nbuttons = 16\n",
		"[ec]\nfeatures = pwm_keyb\n",	/* no backlight on this board */
	};
	struct ec_profile prof;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(ec_profile_parse_text(bad[i], "k", &prof, err, sizeof(err)) ==
			      -EINVAL, "accepted: %s", bad[i]);
	ck_assert_int_eq(ec_profile_parse_text("[keyboard]\nbacklight = yes\n[ec]\n"
					       "features = pwm_keyb, keyb\n", "k", &prof, err,
					       sizeof(err)), 0);
}
END_TEST

static Suite *ec_keyboard_suite(void)
{
	Suite *s = suite_create("ec_keyboard");
	TCase *tc = tcase_create("keyboard");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_backlight);
	tcase_add_test(tc, test_mkbp_info);
	tcase_add_test(tc, test_simulate_key);
	tcase_add_test(tc, test_next_event_v3_room);
	tcase_add_test(tc, test_keyboard_id);
	tcase_add_test(tc, test_mkbp_config);
	tcase_add_test(tc, test_mkbp_wake_mask);
	tcase_add_test(tc, test_keyboard_profile_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_keyboard_suite());
}
