// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_motion.c - the convertible (laptop.profile): MOTION_SENSE_CMD's
 * sub-commands and their bad inputs, the lid angle computed from the
 * accelerometers, tablet mode with its hysteresis and events, the sensor
 * FIFO and its MKBP event, the memory map's ACC area, BUTTON and the side
 * buttons; and a board without sensors (usbc-dual) lacking all of it.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

#define NS_PER_MS	1000000ull
#define DUAL		"ec/profiles/usbc-dual.profile"

EC_TEST_FIXTURE(NULL);

/* One MOTION_SENSE_CMD; @resp_len set to the answer's bytes. */
static uint32_t ms(struct ec *e, uint32_t ver, const void *req, size_t len, uint8_t *resp,
		   int *resp_len)
{
	memset(resp, 0xEE, 64);
	return hc_status(e, EC_CMD_MOTION_SENSE_CMD, ver, req, len, resp, 248, resp_len);
}

static int32_t ms_rate(struct ec *e, uint8_t sub, uint8_t sensor, int32_t data, uint8_t roundup,
		       uint32_t *status)
{
	struct ec_params_motion_sense_rate p = { sub, sensor, roundup, 0, data };
	uint8_t resp[256];

	*status = ms(e, 1, &p, sizeof(p), resp, NULL);
	return (int32_t)le32(resp);
}

static int lid_angle(struct ec *e)
{
	uint8_t req = MOTIONSENSE_CMD_LID_ANGLE, resp[256];
	int len;

	ck_assert_uint_eq(ms(e, 2, &req, 1, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 2);
	return le16(resp);
}

static void sample(struct ec *e, uint8_t sensor, int16_t out[3])
{
	uint8_t req[2] = { MOTIONSENSE_CMD_DATA, sensor }, resp[256];
	int len;

	ck_assert_uint_eq(ms(e, 1, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 8);
	memcpy(out, resp + 2, 6);
}

static uint32_t mkbp_current(struct ec *e, uint8_t event_type)
{
	struct ec_params_mkbp_info p = { EC_MKBP_INFO_CURRENT, event_type };
	uint8_t resp[32];

	ck_assert_uint_eq(hc_status(e, EC_CMD_MKBP_INFO, 0, &p,
				    sizeof(p), resp, 32, NULL), EC_RES_SUCCESS);
	return le32(resp);
}

/* The next queued MKBP event of @type (others are skipped); false if none. */
static bool next_event(struct ec *e, uint8_t type, uint8_t *payload)
{
	uint8_t resp[32];
	int len;

	while (hc_status(e, EC_CMD_GET_NEXT_EVENT, 2, NULL, 0, resp, sizeof(resp), &len) ==
	       EC_RES_SUCCESS) {
		if ((resp[0] & EC_MKBP_EVENT_TYPE_MASK) == type) {
			memcpy(payload, resp + 1, (size_t)len - 1);
			return true;
		}
	}
	return false;
}

static void drain(struct ec *e)
{
	uint8_t resp[32];

	while (hc_status(e, EC_CMD_GET_NEXT_EVENT, 2, NULL, 0, resp, sizeof(resp), NULL) ==
	       EC_RES_SUCCESS)
		;
}

START_TEST(test_dump_and_info)
{
	uint8_t req[2] = { MOTIONSENSE_CMD_DUMP, 16 }, resp[256];
	int16_t d[3];
	int len;

	ck_assert_uint_eq(ms(ec, 1, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 2 + 3 * 8);
	ck_assert_uint_eq(resp[0], MOTIONSENSE_MODULE_FLAG_ACTIVE);
	ck_assert_uint_eq(resp[1], 3);
	/* The base lies flat: 1 g up, in counts of its 4 g range. */
	ck_assert_uint_eq(resp[2], MOTIONSENSE_SENSOR_FLAG_PRESENT);
	memcpy(d, resp + 4, 6);
	ck_assert_int_eq(d[0], 0);
	ck_assert_int_eq(d[2], 8192);
	/* The lid at 110 degrees, 2 g range: gravity turned by the hinge. */
	memcpy(d, resp + 4 + 8, 6);
	ck_assert_int_eq(d[1], (int)lround(16384 * sin(110 * M_PI / 180)));
	ck_assert_int_eq(d[2], (int)lround(-16384 * cos(110 * M_PI / 180)));
	/* The gyroscope: no rotation. */
	memcpy(d, resp + 4 + 16, 6);
	ck_assert(!d[0] && !d[1] && !d[2]);
	/* max_sensor_count cuts the samples, not the count. */
	req[1] = 1;
	ck_assert_uint_eq(ms(ec, 1, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 2 + 8);
	ck_assert_uint_eq(resp[1], 3);

	/* INFO: 3 bytes in v1/v2, 16 in v3, 19 in v4, the rates at byte 4 in both. */
	req[0] = MOTIONSENSE_CMD_INFO;
	req[1] = 1;
	ck_assert_uint_eq(ms(ec, 2, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 3);
	ck_assert_uint_eq(resp[0], MOTIONSENSE_TYPE_ACCEL);
	ck_assert_uint_eq(resp[1], MOTIONSENSE_LOC_LID);
	ck_assert_uint_eq(resp[2], 8);
	ck_assert_uint_eq(ms(ec, 3, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 16);
	ck_assert_uint_eq(le32(resp + 4), 7810);
	ck_assert_uint_eq(le32(resp + 8), 125000);
	ck_assert_uint_eq(le32(resp + 12), 256);
	req[1] = 2;
	ck_assert_uint_eq(ms(ec, 4, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 19);
	ck_assert_uint_eq(resp[0], MOTIONSENSE_TYPE_GYRO);
	ck_assert_uint_eq(le32(resp + 4), 25000);
	ck_assert_uint_eq(le32(resp + 8), 100000);
	ck_assert_uint_eq(le32(resp + 12), 256);
	ck_assert_uint_eq(le32(resp + 15), 0);	/* flags: none (and the count's top byte) */

	/* Bad inputs: a sensor past the board's; versions 0 and 5. */
	req[1] = 3;
	ck_assert_uint_eq(ms(ec, 3, req, 2, resp, NULL), EC_RES_INVALID_PARAM);
	req[1] = 0;
	ck_assert_uint_eq(ms(ec, 0, req, 2, resp, NULL), EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(ms(ec, 5, req, 2, resp, NULL), EC_RES_INVALID_VERSION);
	sample(ec, 0, d);
	ck_assert_int_eq(d[2], 8192);
}
END_TEST

/* The EC's readings of the hinge, tablet mode and what each change raises. */
START_TEST(test_lid_angle_and_tablet_mode)
{
	uint8_t ev[32];

	ck_assert_int_eq(lid_angle(ec), 110);
	ck_assert_int_eq(ec_motion_lid_angle(ec), 110);
	ck_assert_int_eq(ec_tablet_mode(ec), 0);
	drain(ec);
	/* 200 is not above 180 + 20; 210 is. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 200), 0);
	ck_assert_int_eq(lid_angle(ec), 200);
	ck_assert_int_eq(ec_tablet_mode(ec), 0);
	ck_assert(!next_event(ec, EC_MKBP_EVENT_SWITCH, ev));
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 210), 0);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	ck_assert_msg(next_event(ec, EC_MKBP_EVENT_SWITCH, ev), "no MKBP switch event");
	ck_assert_uint_eq(le32(ev), (1u << EC_MKBP_LID_OPEN) | (1u << EC_MKBP_TABLET_MODE));
	ck_assert_uint_eq(mkbp_current(ec, EC_MKBP_EVENT_SWITCH),
			  (1u << EC_MKBP_LID_OPEN) | (1u << EC_MKBP_TABLET_MODE));
	{
		uint8_t resp[8];

		ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_EVENT_GET_B, 0, NULL, 0, resp, 8, NULL),
				  EC_RES_SUCCESS);
		ck_assert(le32(resp) & EC_HOST_EVENT_MASK(EC_HOST_EVENT_MODE_CHANGE));
	}
	/* Folded flat it reads 0 with the lid open: unreliable, tablet stays. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 360), 0);
	ck_assert_int_eq(lid_angle(ec), LID_ANGLE_UNRELIABLE);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	/* Hysteresis: 170 is inside the band, 150 below it. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 170), 0);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	drain(ec);
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 150), 0);
	ck_assert_int_eq(ec_tablet_mode(ec), 0);
	ck_assert(next_event(ec, EC_MKBP_EVENT_SWITCH, ev));
	ck_assert_uint_eq(le32(ev), 1u << EC_MKBP_LID_OPEN);
	/* Open at 15 degrees or less is unreliable. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 15), 0);
	ck_assert_int_eq(lid_angle(ec), LID_ANGLE_UNRELIABLE);
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 16), 0);
	ck_assert_int_eq(lid_angle(ec), 16);
	/* The lid switch moves the hinge: closed is 0, open goes back. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 120), 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_CLOSE), 0);
	ck_assert_int_eq(lid_angle(ec), 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_OPEN), 0);
	ck_assert_int_eq(lid_angle(ec), 120);
	/* Closed but above 15 degrees is unreliable too. */
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_CLOSE), 0);
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 30), 0);
	ck_assert_int_eq(lid_angle(ec), LID_ANGLE_UNRELIABLE);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_LID_OPEN), 0);

	/* Tablet mode by folding: the same path. */
	ck_assert_int_eq(ec_set_tablet_mode(ec, true), 0);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	ck_assert_int_eq(ec_set_tablet_mode(ec, false), 0);
	ck_assert_int_eq(ec_tablet_mode(ec), 0);
	ck_assert_int_eq(lid_angle(ec), 110);

	/* Bad inputs. */
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 361), -EINVAL);
	ck_assert_int_eq(ec_motion_set_lid_angle(NULL, 10), -EINVAL);
	ck_assert_int_eq(ec_motion_lid_angle(NULL), -EINVAL);
	ck_assert_int_eq(ec_tablet_mode(NULL), -EINVAL);
	ck_assert_int_eq(ec_set_tablet_mode(NULL, true), -EINVAL);
}
END_TEST

/* The angle survives an EC reset (it is the hinge), the EC's settings do not. */
START_TEST(test_reset_keeps_the_hinge)
{
	struct ec_params_reboot_ec r = { .cmd = EC_REBOOT_COLD };
	uint32_t st;

	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 250), 0);
	ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, 100, 0, &st);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &r, sizeof(r), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(lid_angle(ec), 250);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, EC_MOTION_SENSE_NO_VALUE, 0, &st),
			 0);
}
END_TEST

START_TEST(test_tablet_threshold_and_kb_wake)
{
	struct ec_params_motion_sense_tablet t = { MOTIONSENSE_CMD_TABLET_MODE_LID_ANGLE, -1, -1 };
	struct ec_params_motion_sense_angle w = { MOTIONSENSE_CMD_KB_WAKE_ANGLE, -1 };
	static const int16_t bad[][2] = { { -2, 5 }, { 10, 20 }, { 350, 20 }, { 5, -3 } };
	uint8_t resp[256];
	size_t i;
	int len;

	ck_assert_uint_eq(ms(ec, 2, &t, sizeof(t), resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 4);
	ck_assert_uint_eq(le16(resp), 180);
	ck_assert_uint_eq(le16(resp + 2), 20);
	/* A lower zone puts the board at 110 degrees in tablet mode at once. */
	t.lid_angle = 90;
	t.hys_degree = 10;
	ck_assert_uint_eq(ms(ec, 2, &t, sizeof(t), resp, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(resp), 90);
	ck_assert_int_eq(ec_tablet_mode(ec), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t.lid_angle = bad[i][0];
		t.hys_degree = bad[i][1];
		ck_assert_uint_eq(ms(ec, 2, &t, sizeof(t), resp, NULL), EC_RES_INVALID_PARAM);
	}
	t.lid_angle = -1;
	ck_assert_uint_eq(ms(ec, 2, &t, sizeof(t), resp, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(resp), 90);

	/* KB_WAKE_ANGLE: 180 by default, clamped to 0..360. */
	ck_assert_uint_eq(ms(ec, 1, &w, sizeof(w), resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 4);
	ck_assert_int_eq((int32_t)le32(resp), 180);
	w.data = 400;
	ms(ec, 1, &w, sizeof(w), resp, NULL);
	ck_assert_int_eq((int32_t)le32(resp), 360);
	w.data = -5;
	ms(ec, 1, &w, sizeof(w), resp, NULL);
	ck_assert_int_eq((int32_t)le32(resp), 0);
	w.data = 200;
	ms(ec, 1, &w, sizeof(w), resp, NULL);
	ck_assert_int_eq((int32_t)le32(resp), 200);
}
END_TEST

START_TEST(test_rates_and_ranges)
{
	uint32_t st;
	int16_t d[3];

	/* EC_RATE: 0 until set, at least 3 ms. */
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, -1, 0, &st), 0);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, 1, 0, &st), 3);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, 100, 0, &st), 100);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, -1, 0, &st), 100);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 0, -7, 0, &st), 0);
	/* ODR: the lid accelerometers run at the EC's own 10 Hz, rounded up. */
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 0, -1, 1, &st), 12500);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 1, -1, 1, &st), 15620);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, -1, 1, &st), 0);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 30000, 1, &st), 50000);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 30000, 0, &st), 25000);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 1000000, 1, &st), 100000);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 1, 1, &st), 25000);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 0, 1, &st), 0);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 0, 50000, 1, &st), 50000);
	ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, -5, 1, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
	/* Range: rounded to 2/4/8/16 g or 125..2000 deg/s. */
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 1, -1, 1, &st), 2);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 1, 3, 1, &st), 4);
	sample(ec, 1, d);
	ck_assert_int_eq(d[1], (int)lround(8192 * sin(110 * M_PI / 180)));
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 1, 3, 0, &st), 2);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 1, 100, 1, &st), 16);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 2, 300, 1, &st), 500);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 2, 300, 0, &st), 250);
	/* The lid angle does not depend on the ranges. */
	ck_assert_int_eq(lid_angle(ec), 110);
	/* Bad inputs: a sensor past the board's, for each. */
	ms_rate(ec, MOTIONSENSE_CMD_EC_RATE, 3, -1, 0, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
	ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 3, -1, 0, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
	ms_rate(ec, MOTIONSENSE_CMD_SENSOR_RANGE, 200, -1, 0, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_offset_and_scale)
{
	struct ec_params_motion_sense_offset p = { MOTIONSENSE_CMD_SENSOR_OFFSET, 0, 0, 0, { 0 } };
	uint8_t resp[256];
	int16_t d[3];
	int len;

	ck_assert_uint_eq(ms(ec, 1, &p, sizeof(p), resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 8);
	ck_assert_uint_eq(le16(resp), EC_MOTION_SENSE_INVALID_CALIB_TEMP);
	ck_assert_uint_eq(le16(resp + 2), 0);
	p.flags = MOTION_SENSE_SET_OFFSET;
	p.temp = 2500;
	p.offset[0] = 10;
	p.offset[1] = -20;
	p.offset[2] = 30;
	ck_assert_uint_eq(ms(ec, 1, &p, sizeof(p), resp, NULL), EC_RES_SUCCESS);
	ck_assert_int_eq((int16_t)le16(resp), 2500);
	ck_assert_int_eq((int16_t)le16(resp + 4), -20);
	sample(ec, 0, d);
	ck_assert_int_eq(d[0], 10);
	ck_assert_int_eq(d[1], -20);
	ck_assert_int_eq(d[2], 8192 + 30);
	/* Scale: 32768 is 1.0; half halves the reading. */
	p.cmd = MOTIONSENSE_CMD_SENSOR_SCALE;
	p.sensor_num = 2;
	p.flags = 0;
	ck_assert_uint_eq(ms(ec, 1, &p, sizeof(p), resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 8);
	ck_assert_uint_eq(le16(resp + 2), MOTION_SENSE_DEFAULT_SCALE);
	p.sensor_num = 0;
	p.flags = MOTION_SENSE_SET_OFFSET;
	p.offset[0] = p.offset[1] = p.offset[2] = 16384;
	ck_assert_uint_eq(ms(ec, 1, &p, sizeof(p), resp, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(resp + 2), 16384);
	sample(ec, 0, d);
	ck_assert_int_eq(d[2], (8192 + 30) / 2);
	p.sensor_num = 3;
	ck_assert_uint_eq(ms(ec, 1, &p, sizeof(p), resp, NULL), EC_RES_INVALID_PARAM);
}
END_TEST

/* FIFO_INFO's fixed part and the lost count of each sensor. */
static void fifo_info(struct ec *e, uint8_t sub, uint16_t *count, uint16_t *total_lost,
		      uint16_t lost[3])
{
	uint8_t req[2] = { sub, 2 }, resp[256];
	int len;

	ck_assert_uint_eq(ms(e, 2, req, 2, resp, &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 10 + 3 * 2);
	ck_assert_uint_eq(le16(resp), 256);
	*count = le16(resp + 2);
	*total_lost = le16(resp + 8);
	lost[0] = le16(resp + 10);
	lost[1] = le16(resp + 12);
	lost[2] = le16(resp + 14);
}

static uint32_t fifo_read(struct ec *e, uint32_t max, uint8_t *resp, size_t room)
{
	struct ec_params_motion_sense_fifo_read p = { MOTIONSENSE_CMD_FIFO_READ, max };

	ck_assert_uint_eq(hc_status(e, EC_CMD_MOTION_SENSE_CMD, 2, &p, sizeof(p), resp, room, NULL),
			  EC_RES_SUCCESS);
	return le32(resp);
}

static int32_t fifo_int(struct ec *e, int8_t enable, uint32_t *st)
{
	struct ec_params_motion_sense_fifo_int p = { MOTIONSENSE_CMD_FIFO_INT_ENABLE, enable };
	uint8_t resp[256];

	*st = ms(e, 2, &p, sizeof(p), resp, NULL);
	return (int32_t)le32(resp);
}

START_TEST(test_fifo)
{
	uint16_t count, total, lost[3];
	uint8_t resp[256], ev[32];
	uint32_t st, n, i;
	int16_t d[3];

	fifo_info(ec, MOTIONSENSE_CMD_FIFO_INFO, &count, &total, lost);
	ck_assert_uint_eq(count, 0);
	/* The interrupt is off at boot: a new ODR is queued but not announced. */
	ck_assert_int_eq(fifo_int(ec, -1, &st), 0);
	drain(ec);
	ck_assert_int_eq(ms_rate(ec, MOTIONSENSE_CMD_SENSOR_ODR, 2, 25000, 1, &st), 25000);
	ck_assert(!next_event(ec, EC_MKBP_EVENT_SENSOR_FIFO, ev));
	fifo_info(ec, MOTIONSENSE_CMD_FIFO_INFO, &count, &total, lost);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(fifo_int(ec, 1, &st), 1);
	/* A move: a timestamp and a sample of the one sensor the AP collects. */
	fake_clock_advance(&fc, 5 * NS_PER_MS);
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 120), 0);
	ck_assert_msg(next_event(ec, EC_MKBP_EVENT_SENSOR_FIFO, ev), "no sensor FIFO event");
	ck_assert_uint_eq(le16(ev), 256);
	ck_assert_uint_eq(le16(ev + 2), 3);
	n = fifo_read(ec, 10, resp, sizeof(resp));
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(resp[4], MOTIONSENSE_SENSOR_FLAG_ODR | MOTIONSENSE_SENSOR_FLAG_TIMESTAMP);
	ck_assert_uint_eq(resp[4 + 8], MOTIONSENSE_SENSOR_FLAG_TIMESTAMP);
	ck_assert_uint_eq(resp[4 + 8 + 1], 2);
	ck_assert_uint_eq(le32(resp + 4 + 8 + 4), 5000 + le32(resp + 4 + 4));
	ck_assert_uint_eq(resp[4 + 16], 0);
	ck_assert_uint_eq(resp[4 + 16 + 1], 2);
	memcpy(d, resp + 4 + 16 + 2, 6);
	ck_assert(!d[0] && !d[1] && !d[2]);
	ck_assert_uint_eq(fifo_read(ec, 10, resp, sizeof(resp)), 0);
	/* A flush: its marker, answered like FIFO_INFO, announced. */
	drain(ec);
	fifo_info(ec, MOTIONSENSE_CMD_FIFO_FLUSH, &count, &total, lost);
	ck_assert_uint_eq(count, 1);
	ck_assert(next_event(ec, EC_MKBP_EVENT_SENSOR_FIFO, ev));
	ck_assert_uint_eq(fifo_read(ec, 1, resp, sizeof(resp)), 1);
	ck_assert_uint_eq(resp[4], MOTIONSENSE_SENSOR_FLAG_FLUSH |
			  MOTIONSENSE_SENSOR_FLAG_TIMESTAMP);
	/* Overflow: the oldest go, counted per sensor and in all, reset once read. */
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(ec_motion_set_lid_angle(ec, i % 2 ? 130 : 120), 0);
	fifo_info(ec, MOTIONSENSE_CMD_FIFO_INFO, &count, &total, lost);
	ck_assert_uint_eq(count, 256);
	ck_assert_uint_eq(total, 400 - 256);
	ck_assert_uint_eq(lost[2], (400 - 256) / 2);
	ck_assert_uint_eq(lost[0], 0);
	fifo_info(ec, MOTIONSENSE_CMD_FIFO_INFO, &count, &total, lost);
	ck_assert_uint_eq(total, 0);
	ck_assert_uint_eq(lost[2], 0);
	/* FIFO_READ takes what max_data_vector and the host's room allow. */
	ck_assert_uint_eq(fifo_read(ec, 5, resp, sizeof(resp)), 5);
	ck_assert_uint_eq(fifo_read(ec, 100, resp, 4 + 3 * 8 + 7), 3);
	ck_assert_uint_eq(fifo_read(ec, 0, resp, sizeof(resp)), 0);

	/* Bad inputs. */
	fifo_int(ec, 5, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
	fifo_int(ec, -2, &st);
	ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
	{
		uint8_t req[2] = { MOTIONSENSE_CMD_FIFO_FLUSH, 3 };

		ck_assert_uint_eq(ms(ec, 2, req, 2, resp, NULL), EC_RES_INVALID_PARAM);
	}
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MOTION_SENSE_CMD, 2,
				    (uint8_t[]){ MOTIONSENSE_CMD_FIFO_INFO }, 1, resp, 12, NULL),
			  EC_RES_RESPONSE_TOO_BIG);
}
END_TEST

START_TEST(test_memmap)
{
	uint8_t m[32], before;
	int16_t d[3];

	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_ACC_STATUS, 22, m), 22);
	ck_assert(m[0] & EC_MEMMAP_ACC_STATUS_PRESENCE_BIT);
	ck_assert(!(m[0] & EC_MEMMAP_ACC_STATUS_BUSY_BIT));
	before = m[0] & EC_MEMMAP_ACC_STATUS_SAMPLE_ID_MASK;
	ck_assert_uint_eq(le16(m + 2), 110);
	memcpy(d, m + 4, 6);
	ck_assert_int_eq(d[2], 8192);
	memcpy(d, m + 10, 6);
	ck_assert_int_eq(d[1], (int)lround(16384 * sin(110 * M_PI / 180)));
	memcpy(d, m + 16, 6);
	ck_assert(!d[0] && !d[1] && !d[2]);
	ck_assert_int_eq(ec_motion_set_lid_angle(ec, 360), 0);
	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_ACC_STATUS, 4, m), 4);
	ck_assert_uint_ne(m[0] & EC_MEMMAP_ACC_STATUS_SAMPLE_ID_MASK, before);
	ck_assert_uint_eq(le16(m + 2), LID_ANGLE_UNRELIABLE);
	/* Tablet mode is no memory-map switch (the header has no bit). */
	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_SWITCHES, 1, m), 1);
	ck_assert_uint_eq(m[0] & ~(EC_SWITCH_LID_OPEN | EC_SWITCH_WRITE_PROTECT_DISABLED), 0);
}
END_TEST

/* Every sub-command's short request, and what this firmware lacks. */
START_TEST(test_bad_requests)
{
	static const struct { uint8_t sub, len; } need[] = {
		{ MOTIONSENSE_CMD_DUMP, 2 }, { MOTIONSENSE_CMD_INFO, 2 },
		{ MOTIONSENSE_CMD_EC_RATE, 9 }, { MOTIONSENSE_CMD_SENSOR_ODR, 9 },
		{ MOTIONSENSE_CMD_SENSOR_RANGE, 9 }, { MOTIONSENSE_CMD_KB_WAKE_ANGLE, 3 },
		{ MOTIONSENSE_CMD_DATA, 2 }, { MOTIONSENSE_CMD_FIFO_FLUSH, 2 },
		{ MOTIONSENSE_CMD_FIFO_READ, 5 }, { MOTIONSENSE_CMD_SENSOR_OFFSET, 12 },
		{ MOTIONSENSE_CMD_FIFO_INT_ENABLE, 2 },
		{ MOTIONSENSE_CMD_TABLET_MODE_LID_ANGLE, 5 }, { MOTIONSENSE_CMD_SENSOR_SCALE, 12 },
	};
	static const uint8_t absent[] = {
		MOTIONSENSE_CMD_LIST_ACTIVITIES, MOTIONSENSE_CMD_SET_ACTIVITY, MOTIONSENSE_CMD_SPOOF,
		MOTIONSENSE_CMD_ONLINE_CALIB_READ, MOTIONSENSE_CMD_GET_ACTIVITY, MOTIONSENSE_NUM_CMDS,
		0xFF,
	};
	uint8_t req[64] = { 0 }, resp[256];
	size_t i;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		memset(req, 0, sizeof(req));
		req[0] = need[i].sub;
		req[4] = 0xFF;	/* NO_VALUE-ish bytes where a full request has them */
		ck_assert_msg(ms(ec, 2, req, need[i].len - 1u, resp, NULL) == EC_RES_INVALID_PARAM,
			      "sub-command %u with %u bytes", need[i].sub, need[i].len - 1u);
		/* A longer request than needed is fine. */
		memset(req + 1, 0, sizeof(req) - 1);
		ck_assert_msg(ms(ec, 2, req, sizeof(req), resp, NULL) == EC_RES_SUCCESS,
			      "sub-command %u with 64 bytes", need[i].sub);
	}
	ck_assert_uint_eq(ms(ec, 1, req, 0, resp, NULL), EC_RES_INVALID_PARAM);
	for (i = 0; i < sizeof(absent); i++) {
		req[0] = absent[i];
		ck_assert_msg(ms(ec, 2, req, sizeof(req), resp, NULL) == EC_RES_INVALID_PARAM,
			      "sub-command %u", absent[i]);
	}
	/* PERFORM_CALIB: no calibrating driver; a bad sensor is still INVALID_PARAM. */
	req[0] = MOTIONSENSE_CMD_PERFORM_CALIB;
	req[1] = 0;
	req[2] = 1;
	ck_assert_uint_eq(ms(ec, 1, req, 3, resp, NULL), EC_RES_INVALID_COMMAND);
	req[1] = 3;
	ck_assert_uint_eq(ms(ec, 1, req, 3, resp, NULL), EC_RES_INVALID_PARAM);
	/* DUMP into a host room too small for its samples. */
	req[0] = MOTIONSENSE_CMD_DUMP;
	req[1] = 3;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_MOTION_SENSE_CMD, 1, req, 2, resp, 2 + 2 * 8, NULL),
			  EC_RES_RESPONSE_TOO_BIG);
}
END_TEST

static uint32_t button(struct ec *e, uint32_t mask, uint32_t ms_held, size_t len)
{
	struct ec_params_button p = { mask, ms_held };

	return hc_status(e, EC_CMD_BUTTON, 0, &p, len, NULL, 0, NULL);
}

START_TEST(test_button)
{
	uint8_t ev[32], resp[16];

	drain(ec);
	ck_assert_uint_eq(button(ec, 1u << KEYBOARD_BUTTON_VOLUME_UP, 100, 8), EC_RES_SUCCESS);
	ck_assert_msg(next_event(ec, EC_MKBP_EVENT_BUTTON, ev), "no press event");
	ck_assert_uint_eq(le32(ev), 1u << EC_MKBP_VOL_UP);
	ck_assert_uint_eq(mkbp_current(ec, EC_MKBP_EVENT_BUTTON), 1u << EC_MKBP_VOL_UP);
	fake_clock_advance(&fc, 99 * NS_PER_MS);
	ck_assert_int_eq(ec_tick(ec), 0);
	ck_assert(!next_event(ec, EC_MKBP_EVENT_BUTTON, ev));
	fake_clock_advance(&fc, 1 * NS_PER_MS);
	ck_assert_int_eq(ec_tick(ec), 0);
	ck_assert_msg(next_event(ec, EC_MKBP_EVENT_BUTTON, ev), "no release event");
	ck_assert_uint_eq(le32(ev), 0);
	ck_assert_uint_eq(mkbp_current(ec, EC_MKBP_EVENT_BUTTON), 0);
	/* Buttons the board lacks (power, recovery) are ignored. */
	ck_assert_uint_eq(button(ec, (1u << KEYBOARD_BUTTON_POWER) |
				 (1u << KEYBOARD_BUTTON_RECOVERY), 50, 8), EC_RES_SUCCESS);
	ck_assert(!next_event(ec, EC_MKBP_EVENT_BUTTON, ev));
	/* The physical press. */
	ck_assert_int_eq(ec_press_button(ec, EC_MKBP_VOL_DOWN, 10), 0);
	ck_assert(next_event(ec, EC_MKBP_EVENT_BUTTON, ev));
	ck_assert_uint_eq(le32(ev), 1u << EC_MKBP_VOL_DOWN);
	ck_assert_int_eq(ec_press_button(ec, EC_MKBP_POWER_BUTTON, 10), -EINVAL);
	ck_assert_int_eq(ec_press_button(ec, 9, 10), -EINVAL);
	ck_assert_int_eq(ec_press_button(ec, EC_MKBP_RECOVERY, 10), -ENODEV);
	ck_assert_int_eq(ec_press_button(NULL, EC_MKBP_VOL_UP, 10), -EINVAL);

	/* Bad inputs: short request, version 1, a locked system. */
	ck_assert_uint_eq(button(ec, 1u << KEYBOARD_BUTTON_VOLUME_UP, 100, 7),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_BUTTON, 1, resp, 8, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
	ec_apply_stimulus(ec, EC_STIM_WP_ASSERT);
	{
		struct ec_params_flash_protect fp = { EC_FLASH_PROTECT_RO_AT_BOOT,
						      EC_FLASH_PROTECT_RO_AT_BOOT };

		hc_status(ec, EC_CMD_FLASH_PROTECT, 1, &fp, sizeof(fp), resp, 12, NULL);
	}
	ck_assert_uint_eq(button(ec, 1u << KEYBOARD_BUTTON_VOLUME_UP, 100, 8),
			  EC_RES_ACCESS_DENIED);
}
END_TEST

/* A board without sensors or side buttons has none of it. */
START_TEST(test_board_without_sensors)
{
	struct fake_clock clk;
	struct ec_params_mkbp_info p = { EC_MKBP_INFO_SUPPORTED, EC_MKBP_EVENT_SWITCH };
	uint8_t req[2] = { MOTIONSENSE_CMD_DUMP, 4 }, resp[256];
	struct ec *dual;
	size_t i;

	fake_clock_init(&clk);
	dual = make_ec_file(DUAL, &clk);
	ck_assert_uint_eq(ms(dual, 1, req, 2, resp, NULL), EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(button(dual, 1u << KEYBOARD_BUTTON_VOLUME_UP, 10, 8),
			  EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(hc_status(dual, EC_CMD_MKBP_INFO, 0, &p, sizeof(p), resp, 32, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 1u << EC_MKBP_LID_OPEN);
	ck_assert_int_eq(ec_read_memmap(dual, EC_MEMMAP_ACC_STATUS, 22, resp), 22);
	for (i = 0; i < 22; i++)
		ck_assert_uint_eq(resp[i], 0);
	ck_assert_int_eq(ec_motion_set_lid_angle(dual, 90), -ENODEV);
	ck_assert_int_eq(ec_motion_lid_angle(dual), -ENODEV);
	ck_assert_int_eq(ec_set_tablet_mode(dual, true), -ENODEV);
	ck_assert_int_eq(ec_tablet_mode(dual), -ENODEV);
	ck_assert_int_eq(ec_press_button(dual, EC_MKBP_VOL_UP, 10), -ENODEV);
	ec_destroy(dual);
}
END_TEST

/* A board with only a base accelerometer has no lid angle. */
START_TEST(test_board_without_lid_angle)
{
	struct fake_clock clk;
	uint8_t req[3] = { MOTIONSENSE_CMD_LID_ANGLE }, resp[256];
	struct ec *e;

	fake_clock_init(&clk);
	e = make_ec_text("[ec]\nfeatures = motion_sense\n[motion_sensor]\ntype = accel\n"
			 "min_frequency = 12500\nmax_frequency = 100000\n", &clk);
	ck_assert_uint_eq(ms(e, 2, req, 1, resp, NULL), EC_RES_INVALID_PARAM);
	req[0] = MOTIONSENSE_CMD_KB_WAKE_ANGLE;
	ck_assert_uint_eq(ms(e, 2, req, 3, resp, NULL), EC_RES_INVALID_PARAM);
	req[0] = MOTIONSENSE_CMD_DUMP;
	req[1] = 4;
	ck_assert_uint_eq(ms(e, 2, req, 2, resp, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(resp[1], 1);
	ck_assert_int_eq(ec_motion_set_lid_angle(e, 90), -ENODEV);
	ck_assert_int_eq(ec_read_memmap(e, EC_MEMMAP_ACC_DATA, 2, resp), 2);
	ck_assert_uint_eq(le16(resp), LID_ANGLE_UNRELIABLE);
	ec_destroy(e);
}
END_TEST

/* The profile's motion rules, each refused with its reason. */
START_TEST(test_motion_profile_errors)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "[motion_sensor]\ntype = accel\nrange = 3\nmin_frequency = 1\nmax_frequency = 2\n",
		  "range 3 is not one the accelerometer has" },
		{ "[motion_sensor]\ntype = gyro\nrange = 4\nmin_frequency = 1\nmax_frequency = 2\n",
		  "range 4 is not one the gyroscope has" },
		{ "[motion_sensor]\ntype = accel\n", "needs min_frequency <= max_frequency" },
		{ "[motion_sensor]\nmin_frequency = 5\nmax_frequency = 2\n",
		  "needs min_frequency <= max_frequency" },
		{ "[motion_sensor]\ntype = magnet\n", "unknown value 'magnet'" },
		{ "[motion_sensor]\nlocation = camera\n", "unknown value 'camera'" },
		{ "[motion_sensor]\nchip = 31\n", "chip" },
		{ "[state]\nlid_angle = 361\n", "lid_angle" },
		{ "[ec]\nkind = fpmcu\n[motion_sensor]\nmin_frequency = 1\nmax_frequency = 2\n",
		  "[motion_sensor] needs [ec] kind = ec" },
		{ "[ec]\nfeatures = motion_sense\n", "needs command 0x002b" },
		{ "[motion_sensor]\nmin_frequency = 1\nmax_frequency = 2\n[motion_sensor]\n"
		  "min_frequency = 1\nmax_frequency = 2\n[motion_sensor]\nmin_frequency = 1\n"
		  "max_frequency = 2\n[motion_sensor]\nmin_frequency = 1\nmax_frequency = 2\n"
		  "[motion_sensor]\n", "too many [motion_sensor] sections (max 4)" },
	};
	struct ec_profile prof;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ck_assert_msg(ec_profile_parse_text(bad[i].text, "m", &prof, err, sizeof(err)) ==
			      -EINVAL, "accepted: %s", bad[i].text);
		ck_assert_msg(strstr(err, bad[i].why), "'%s': got '%s'", bad[i].why, err);
	}
	/* The type's first range when unset. */
	ck_assert_int_eq(ec_profile_parse_text("[motion_sensor]\ntype = gyro\nmin_frequency = 1\n"
					       "max_frequency = 2\n", "m", &prof, err,
					       sizeof(err)), 0);
	ck_assert_uint_eq(prof.motion[0].range, 125);
}
END_TEST

static Suite *ec_motion_suite(void)
{
	Suite *s = suite_create("ec_motion");
	TCase *tc = tcase_create("motion");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_dump_and_info);
	tcase_add_test(tc, test_lid_angle_and_tablet_mode);
	tcase_add_test(tc, test_reset_keeps_the_hinge);
	tcase_add_test(tc, test_tablet_threshold_and_kb_wake);
	tcase_add_test(tc, test_rates_and_ranges);
	tcase_add_test(tc, test_offset_and_scale);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_memmap);
	tcase_add_test(tc, test_bad_requests);
	tcase_add_test(tc, test_button);
	tcase_add_test(tc, test_board_without_sensors);
	tcase_add_test(tc, test_board_without_lid_angle);
	tcase_add_test(tc, test_motion_profile_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_motion_suite());
}
