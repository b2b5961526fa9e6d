// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_board.c - the RTC setters and alarm (on the fake EC clock) and the
 * port-80 history, with their bad inputs.
 */
#include <check.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

static uint32_t run(uint32_t cmd, uint32_t ver, const void *req, size_t len, void *resp,
		    size_t resp_max, int *ret)
{
	return hc_status(ec, cmd, ver, req, len, resp, resp_max, ret);
}

static uint32_t rtc_u32(uint32_t cmd)
{
	uint8_t resp[4];

	ck_assert_uint_eq(run(cmd, 0, NULL, 0, resp, 4, NULL), EC_RES_SUCCESS);
	return le32(resp);
}

static uint64_t host_events(void)
{
	struct ec_params_host_event p = { .action = EC_HOST_EVENT_GET };
	uint8_t resp[8];

	ck_assert_uint_eq(run(EC_CMD_HOST_EVENT, 0, &p, sizeof(p), resp, 8, NULL), EC_RES_SUCCESS);
	return le32(resp) | (uint64_t)le32(resp + 4) << 32;
}

START_TEST(test_rtc_set_value)
{
	uint32_t t = 1700000000;

	ck_assert_uint_eq(run(EC_CMD_RTC_SET_VALUE, 0, &t, 4, NULL, 0, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_VALUE), t);
	fake_clock_advance(&fc, 5 * NS_PER_S);
	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_VALUE), t + 5);
	ck_assert_uint_eq(run(EC_CMD_RTC_SET_VALUE, 1, &t, 4, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

START_TEST(test_rtc_alarm)
{
	uint64_t rtc = EC_HOST_EVENT_MASK(EC_HOST_EVENT_RTC);
	uint32_t secs = 10;

	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_ALARM), 0);
	ck_assert_uint_eq(run(EC_CMD_RTC_SET_ALARM, 0, &secs, 4, NULL, 0, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_ALARM), 10);
	fake_clock_advance(&fc, 9 * NS_PER_S + NS_PER_S / 2);
	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_ALARM), 1);	/* rounded up */
	ck_assert_uint_eq(host_events() & rtc, 0);
	fake_clock_advance(&fc, NS_PER_S / 2);
	ck_assert_uint_eq(rtc_u32(EC_CMD_RTC_GET_ALARM), 0);
	ck_assert(host_events() & rtc);

	/* A cleared alarm never fires. */
	secs = 3;
	run(EC_CMD_HOST_EVENT_CLEAR, 0, &(uint32_t){ (uint32_t)rtc }, 4, NULL, 0, NULL);
	run(EC_CMD_RTC_SET_ALARM, 0, &secs, 4, NULL, 0, NULL);
	secs = EC_RTC_ALARM_CLEAR;
	ck_assert_uint_eq(run(EC_CMD_RTC_SET_ALARM, 0, &secs, 4, NULL, 0, NULL), EC_RES_SUCCESS);
	fake_clock_advance(&fc, 10 * NS_PER_S);
	ck_assert_uint_eq(host_events() & rtc, 0);
	ck_assert_uint_eq(run(EC_CMD_RTC_GET_ALARM, 2, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
}
END_TEST

static uint32_t p80(uint16_t subcmd, uint32_t offset, uint32_t n, uint8_t *resp, int *ret)
{
	struct ec_params_port80_read p = { .subcmd = subcmd, .offset = offset,
					   .num_entries = n };

	return run(EC_CMD_PORT80_READ, 1, &p, sizeof(p), resp, 64, ret);
}

START_TEST(test_port80)
{
	uint8_t resp[64];
	uint32_t writes;
	int ret;

	ck_assert_uint_eq(run(EC_CMD_PORT80_READ, 0, NULL, 0, resp, 2, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 2);
	ck_assert_uint_eq(le16(resp), 0xf8);
	ck_assert_uint_eq(p80(EC_PORT80_GET_INFO, 0, 0, resp, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 12);
	writes = le32(resp);
	ck_assert_uint_eq(le32(resp + 4), 128);
	ck_assert_uint_eq(le32(resp + 8), 0xf8);
	ck_assert_uint_eq(p80(EC_PORT80_READ_BUFFER, 0, 32, resp, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 64);
	ck_assert_uint_eq(le16(resp), PORT_80_EVENT_RESET);
	ck_assert_uint_eq(le16(resp + 2), 0x01);

	/* An S3 round trip the host reports adds the resume path. */
	resp[0] = HOST_SLEEP_EVENT_S3_SUSPEND;
	run(EC_CMD_HOST_SLEEP_EVENT, 0, resp, 1, NULL, 0, NULL);
	resp[0] = HOST_SLEEP_EVENT_S3_RESUME;
	run(EC_CMD_HOST_SLEEP_EVENT, 0, resp, 1, NULL, 0, NULL);
	p80(EC_PORT80_GET_INFO, 0, 0, resp, NULL);
	ck_assert_uint_eq(le32(resp), writes + 7);
	p80(EC_PORT80_READ_BUFFER, writes, 1, resp, &ret);
	ck_assert_int_eq(ret, 2);
	ck_assert_uint_eq(le16(resp), PORT_80_EVENT_RESUME);

	/* Bad inputs. */
	ck_assert_uint_eq(p80(EC_PORT80_READ_BUFFER, 128, 1, resp, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(p80(EC_PORT80_READ_BUFFER, 0, 33, resp, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(p80(EC_PORT80_READ_BUFFER, 120, 16, resp, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(p80(EC_PORT80_READ_BUFFER, 0xFFFFFFF0u, 32, resp, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(p80(2, 0, 0, resp, NULL), EC_RES_INVALID_PARAM);
}
END_TEST

static Suite *ec_board_suite(void)
{
	Suite *s = suite_create("ec_board");
	TCase *tc = tcase_create("board");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_rtc_set_value);
	tcase_add_test(tc, test_rtc_alarm);
	tcase_add_test(tc, test_port80);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_board_suite());
}
