// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_fp.c - the fingerprint MCU (fingerprint.profile): FP_INFO,
 * FP_MODE's state machine and the fingerprint MKBP events it raises,
 * FP_FRAME and FP_TEMPLATE (download, upload, encryption), FP_CONTEXT,
 * FP_SEED, FP_ENC_STATUS and FP_STATS, each with its bad inputs (the
 * rest of the FPMCU: test_ec_fpmcu.c).
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
#define TEMPLATE_SIZE 5156u
#define IMAGE_BYTES (160u * 160u)

EC_TEST_FIXTURE(FP_PROFILE);

/* fingerprint.profile with @extra appended (a later key wins). */
static struct ec *fp_variant(const char *extra, struct fake_clock *clk)
{
	return make_ec_file_plus(FP_PROFILE, extra, clk);
}

static uint32_t set_mode(struct ec *e, uint32_t mode, uint32_t *now)
{
	uint8_t resp[4];
	uint32_t st = hc_status(e, EC_CMD_FP_MODE, 0, &mode, sizeof(mode), resp, sizeof(resp), NULL);

	if (now && st == EC_RES_SUCCESS)
		*now = le32(resp);
	return st;
}

static uint32_t mode_now(struct ec *e)
{
	uint32_t mode = 0;

	ck_assert_uint_eq(set_mode(e, FP_MODE_DONT_CHANGE, &mode), EC_RES_SUCCESS);
	return mode;
}

/* The next fingerprint event's fp_events word; fails when there is none. */
static uint32_t next_fp_event(struct ec *e)
{
	uint8_t resp[32];
	int ret;

	for (;;) {
		uint32_t st = hc_status(e, EC_CMD_GET_NEXT_EVENT, 1, NULL, 0, resp, sizeof(resp),
					&ret);

		ck_assert_msg(st == EC_RES_SUCCESS, "no fingerprint event queued (%u)", st);
		if ((resp[0] & EC_MKBP_EVENT_TYPE_MASK) == EC_MKBP_EVENT_FINGERPRINT) {
			ck_assert_int_eq(ret, 5);
			return le32(resp + 1);
		}
	}
}

static void no_event(struct ec *e)
{
	uint8_t resp[32];

	ck_assert_uint_eq(hc_status(e, EC_CMD_GET_NEXT_EVENT, 1, NULL, 0, resp, sizeof(resp), NULL),
			  EC_RES_UNAVAILABLE);
}

static void touch(struct ec *e)
{
	ck_assert_int_eq(ec_apply_stimulus(e, EC_STIM_FINGER_DOWN), 0);
}

static void lift(struct ec *e)
{
	ck_assert_int_eq(ec_apply_stimulus(e, EC_STIM_FINGER_UP), 0);
}

static uint32_t set_seed(struct ec *e, uint16_t version, size_t len)
{
	struct ec_params_fp_seed p = { .struct_version = version };

	memset(p.seed, 0x5A, sizeof(p.seed));
	return hc_status(e, EC_CMD_FP_SEED, 0, &p, len, NULL, 0, NULL);
}

static uint32_t context(struct ec *e, uint8_t action, uint8_t user)
{
	struct ec_params_fp_context_v1 p = { .action = action };

	memset(p.userid, user, sizeof(p.userid));
	return hc_status(e, EC_CMD_FP_CONTEXT, 1, &p, sizeof(p), NULL, 0, NULL);
}

/* A new user: the asynchronous reset, then its result once it is done. */
static void new_user(struct ec *e, struct fake_clock *clk, uint8_t user)
{
	ck_assert_uint_eq(context(e, FP_CONTEXT_ASYNC, user), EC_RES_SUCCESS);
	ck_assert_uint_eq(context(e, FP_CONTEXT_GET_RESULT, user), EC_RES_BUSY);
	fake_clock_advance(clk, 200 * NS_PER_MS);
	ck_assert_uint_eq(context(e, FP_CONTEXT_GET_RESULT, user), EC_RES_SUCCESS);
}

static void info_v1(struct ec *e, struct ec_response_fp_info *r)
{
	int ret;

	ck_assert_uint_eq(hc_status(e, EC_CMD_FP_INFO, 1, NULL, 0, r, sizeof(*r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, (int)sizeof(*r));
}

/* A whole enrollment: enroll_touches (5) touches, 20 % each. */
static void enroll(struct ec *e)
{
	unsigned int i;

	for (i = 1; i <= 5; i++) {
		uint32_t evt;

		ck_assert_uint_eq(set_mode(e, FP_MODE_ENROLL_SESSION | FP_MODE_ENROLL_IMAGE, NULL),
				  EC_RES_SUCCESS);
		touch(e);
		evt = next_fp_event(e);
		ck_assert_uint_eq(evt & EC_MKBP_FP_ENROLL, EC_MKBP_FP_ENROLL);
		ck_assert_uint_eq(EC_MKBP_FP_ERRCODE(evt), EC_MKBP_FP_ERR_ENROLL_OK);
		ck_assert_uint_eq(EC_MKBP_FP_ENROLL_PROGRESS(evt), i * 20);
		lift(e);
	}
	ck_assert_uint_eq(mode_now(e) & FP_MODE_ENROLL_SESSION, 0);
}

/* FP_FRAME of @size bytes at @offset of buffer @index. */
static uint32_t frame(struct ec *e, uint32_t index, uint32_t offset, uint32_t size, void *out,
		      size_t room)
{
	struct ec_params_fp_frame p = { index << FP_FRAME_INDEX_SHIFT | offset, size };

	return hc_status(e, EC_CMD_FP_FRAME, 0, &p, sizeof(p), out, room, NULL);
}

/* A template download, as ectool does it, in chunks of 240 bytes. */
static uint32_t download(struct ec *e, uint32_t index, uint8_t *buf)
{
	uint32_t off, st = EC_RES_SUCCESS;

	for (off = 0; off < TEMPLATE_SIZE && st == EC_RES_SUCCESS; off += 240) {
		uint32_t n = TEMPLATE_SIZE - off < 240 ? TEMPLATE_SIZE - off : 240;

		st = frame(e, index, off, n, buf + off, n);
	}
	return st;
}

/* A template upload in chunks of 200 bytes, the last one committing. */
static uint32_t upload(struct ec *e, const uint8_t *buf)
{
	uint8_t req[8 + 200];
	uint32_t off, st = EC_RES_SUCCESS;

	for (off = 0; off < TEMPLATE_SIZE && st == EC_RES_SUCCESS; off += 200) {
		uint32_t n = TEMPLATE_SIZE - off < 200 ? TEMPLATE_SIZE - off : 200;
		uint32_t size = n | (off + n == TEMPLATE_SIZE ? FP_TEMPLATE_COMMIT : 0);

		memcpy(req, &off, 4);
		memcpy(req + 4, &size, 4);
		memcpy(req + 8, buf + off, n);
		st = hc_status(e, EC_CMD_FP_TEMPLATE, 0, req, 8 + n, NULL, 0, NULL);
	}
	return st;
}

/* ---- identity ---- */

START_TEST(test_fp_info)
{
	struct ec_response_fp_info r;
	uint8_t v0[32];
	int ret;

	/* The sensor a real bloonchipper reported (umockdev's recording). */
	info_v1(ec, &r);
	ck_assert_uint_eq(r.vendor_id, 0x20435046);
	ck_assert_uint_eq(r.product_id, 9);
	ck_assert_uint_eq(r.model_id, 0x021b);
	ck_assert_uint_eq(r.version, 1);
	ck_assert_uint_eq(r.frame_size, 26260);
	ck_assert_uint_eq(r.pixel_format, 0x59455247);	/* GREY */
	ck_assert_uint_eq(r.width, 160);
	ck_assert_uint_eq(r.height, 160);
	ck_assert_uint_eq(r.bpp, 8);
	ck_assert_uint_eq(r.errors, FP_ERROR_DEAD_PIXELS_UNKNOWN);
	ck_assert_uint_eq(r.template_size, TEMPLATE_SIZE);
	ck_assert_uint_eq(r.template_max, 5);
	ck_assert_uint_eq(r.template_valid, 0);
	ck_assert_uint_eq(r.template_dirty, 0);
	ck_assert_uint_eq(r.template_version, FP_TEMPLATE_FORMAT_VERSION);
	/* v0 is the first 32 bytes; v2 is not served. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_INFO, 0, NULL, 0, v0, sizeof(v0), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 32);
	ck_assert_mem_eq(v0, &r, 32);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_INFO, 2, NULL, 0, &r, sizeof(r), NULL),
			  EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_INFO, 1, NULL, 0, &r, 47, NULL),
			  EC_RES_RESPONSE_TOO_BIG);
}
END_TEST

/* ---- FP_MODE and its events ---- */

START_TEST(test_fp_mode_bad_inputs)
{
	uint32_t mode = FP_MODE_FINGER_DOWN;
	uint8_t resp[4];

	/* Short request, unknown bit, capture type past the last, wrong version. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_MODE, 0, &mode, 3, resp, sizeof(resp), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_mode(ec, 1u << 9, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_mode(ec, 1u << 27, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_CAPTURE | 6u << FP_MODE_CAPTURE_TYPE_SHIFT, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_MODE, 1, &mode, 4, resp, sizeof(resp), NULL),
			  EC_RES_INVALID_VERSION);
	/* A refused mode changes nothing. */
	ck_assert_uint_eq(mode_now(ec), 0);
	/* RESET_SENSOR only from an idle sensor. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_DOWN, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_RESET_SENSOR, NULL), EC_RES_INVALID_PARAM);
	/* DONT_CHANGE reads back, whatever else is set with it. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_DONT_CHANGE | FP_MODE_MATCH, &mode),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(mode, FP_MODE_FINGER_DOWN);
	no_event(ec);
}
END_TEST

START_TEST(test_fp_finger_down_up)
{
	struct test_listener l;
	uint8_t ev[8];

	test_listener_init(&l, 1u << EC_MKBP_EVENT_FINGERPRINT);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	/* No mode: a touch raises nothing. */
	touch(ec);
	lift(ec);
	no_event(ec);
	/* FINGER_DOWN: the touch raises it, and the MCU leaves that mode. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_DOWN | FP_MODE_DEEPSLEEP, NULL),
			  EC_RES_SUCCESS);
	no_event(ec);
	touch(ec);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_FINGER_DOWN);
	ck_assert_uint_eq(mode_now(ec), FP_MODE_DEEPSLEEP);
	/* The listeners see the same event. */
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), 5);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_FINGERPRINT);
	ck_assert_uint_eq(le32(ev + 1), EC_MKBP_FP_FINGER_DOWN);
	/* A second touch without lifting is no new touch. */
	touch(ec);
	no_event(ec);
	/* FINGER_UP waits for the finger to leave ... */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_UP, NULL), EC_RES_SUCCESS);
	no_event(ec);
	lift(ec);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_FINGER_UP);
	ck_assert_uint_eq(mode_now(ec), 0);
	/* ... and a sensor already clear says so at once. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_UP, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_FINGER_UP);
	/* A finger already down when FINGER_DOWN is set is seen at once. */
	touch(ec);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_DOWN, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_FINGER_DOWN);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	test_listener_fini(&l);
}
END_TEST

START_TEST(test_fp_maintenance_reset_sensor)
{
	struct ec_response_fp_info r;
	uint32_t mode;

	ck_assert_uint_eq(set_mode(ec, FP_MODE_SENSOR_MAINTENANCE, &mode), EC_RES_SUCCESS);
	ck_assert_uint_eq(mode, 0);
	info_v1(ec, &r);
	ck_assert_uint_eq(FP_ERROR_DEAD_PIXELS(r.errors), 0);
	/* A sensor reset takes its time and clears the templates. */
	enroll(ec);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 1);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_RESET_SENSOR, &mode), EC_RES_SUCCESS);
	ck_assert_uint_eq(mode, FP_MODE_RESET_SENSOR);
	fake_clock_advance(&fc, 100 * NS_PER_MS);
	ck_assert_uint_eq(mode_now(ec), FP_MODE_RESET_SENSOR);
	fake_clock_advance(&fc, 100 * NS_PER_MS);
	ck_assert_uint_eq(mode_now(ec), 0);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 0);
}
END_TEST

/* ---- capture and FP_FRAME ---- */

START_TEST(test_fp_capture_and_frame)
{
	static uint8_t img[IMAGE_BYTES];
	uint8_t buf[240];
	uint32_t off, mode = FP_MODE_CAPTURE | FP_CAPTURE_SIMPLE_IMAGE << FP_MODE_CAPTURE_TYPE_SHIFT;
	unsigned int bright = 0;
	size_t i;

	/* Nothing captured yet: no byte to give. */
	ck_assert_uint_eq(frame(ec, 0, 0, 16, buf, sizeof(buf)), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_mode(ec, mode, NULL), EC_RES_SUCCESS);
	no_event(ec);
	touch(ec);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_IMAGE_READY);
	ck_assert_uint_eq(mode_now(ec), FP_CAPTURE_SIMPLE_IMAGE << FP_MODE_CAPTURE_TYPE_SHIFT);
	/* The simple image, as ectool fpframe reads it, in chunks. */
	for (off = 0; off < IMAGE_BYTES; off += 240) {
		uint32_t n = IMAGE_BYTES - off < 240 ? IMAGE_BYTES - off : 240;

		ck_assert_uint_eq(frame(ec, 0, off, n, img + off, n), EC_RES_SUCCESS);
	}
	for (i = 0; i < IMAGE_BYTES; i++)
		bright += img[i] > 0x80;
	ck_assert_msg(bright > IMAGE_BYTES / 4 && bright < IMAGE_BYTES * 3 / 4,
		      "ridges and valleys: %u bright pixels", bright);
	/* Past the image, more than the host takes, short, offset overflow. */
	ck_assert_uint_eq(frame(ec, 0, IMAGE_BYTES - 8, 16, buf, sizeof(buf)),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(frame(ec, 0, 0, 241, buf, 240), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(frame(ec, 0, FP_FRAME_OFFSET_MASK, 200, buf, sizeof(buf)),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_FRAME, 0, buf, 7, buf, sizeof(buf), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_FRAME, 1, buf, 8, buf, sizeof(buf), NULL),
			  EC_RES_INVALID_VERSION);
	/* The vendor format: the whole frame, header included. */
	lift(ec);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_CAPTURE, NULL), EC_RES_SUCCESS);
	touch(ec);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_IMAGE_READY);
	ck_assert_uint_eq(frame(ec, 0, 26260 - 240, 240, buf, sizeof(buf)), EC_RES_SUCCESS);
	ck_assert_uint_eq(frame(ec, 0, 26260 - 239, 240, buf, sizeof(buf)), EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_fp_test_pattern_needs_no_finger)
{
	uint8_t buf[16];

	ck_assert_uint_eq(set_mode(ec, FP_MODE_CAPTURE | FP_CAPTURE_PATTERN0 <<
				   FP_MODE_CAPTURE_TYPE_SHIFT, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(next_fp_event(ec), EC_MKBP_FP_IMAGE_READY);
	/* A checkerboard of 8 x 8 squares: row 0 changes every 8 pixels. */
	ck_assert_uint_eq(frame(ec, 0, 0, 16, buf, sizeof(buf)), EC_RES_SUCCESS);
	ck_assert_uint_eq(buf[0], buf[7]);
	ck_assert_uint_ne(buf[7], buf[8]);
}
END_TEST

START_TEST(test_fp_raw_frame_refused_when_locked)
{
	struct fake_clock clk;
	struct ec *locked;
	uint8_t buf[16];

	fake_clock_init(&clk);
	locked = fp_variant("[flash]\nprotect_flags = 1\nwrite_protect = yes\n", &clk);
	ck_assert_uint_eq(set_mode(locked, FP_MODE_CAPTURE, NULL), EC_RES_SUCCESS);
	touch(locked);
	ck_assert_uint_eq(next_fp_event(locked), EC_MKBP_FP_IMAGE_READY);
	ck_assert_uint_eq(frame(locked, 0, 0, 16, buf, sizeof(buf)), EC_RES_ACCESS_DENIED);
	ec_destroy(locked);
}
END_TEST

/* ---- enrollment, matching, FP_STATS ---- */

START_TEST(test_fp_enroll_and_match)
{
	struct ec_response_fp_info r;
	struct ec_response_fp_stats st;
	uint32_t evt;
	int i;

	/* Matching with no template: NO_TEMPLATES, the index nibble all ones. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_MATCH, NULL), EC_RES_SUCCESS);
	touch(ec);
	evt = next_fp_event(ec);
	ck_assert_uint_eq(evt & EC_MKBP_FP_MATCH, EC_MKBP_FP_MATCH);
	ck_assert_uint_eq(EC_MKBP_FP_ERRCODE(evt), EC_MKBP_FP_ERR_MATCH_NO_TEMPLATES);
	ck_assert_uint_eq(EC_MKBP_FP_MATCH_IDX(evt), 15);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_STATS, 0, NULL, 0, &st, sizeof(st), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(st.timestamps_invalid, FPSTATS_MATCHING_INV);
	ck_assert_int_eq(st.template_matched, -1);
	lift(ec);

	/* Enrollment: ENROLL_IMAGE without a session is refused by the MCU. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_ENROLL_IMAGE, NULL), EC_RES_SUCCESS);
	touch(ec);
	evt = next_fp_event(ec);
	ck_assert_uint_eq(EC_MKBP_FP_ERRCODE(evt), EC_MKBP_FP_ERR_ENROLL_INTERNAL);
	lift(ec);
	enroll(ec);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 1);
	ck_assert_uint_eq(r.template_dirty, 1);

	/* The finger now matches template 0; FP_STATS tells the times. */
	fake_clock_advance(&fc, 3 * NS_PER_S);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_MATCH, NULL), EC_RES_SUCCESS);
	touch(ec);
	evt = next_fp_event(ec);
	ck_assert_uint_eq(evt, EC_MKBP_FP_MATCH | EC_MKBP_FP_ERR_MATCH_YES);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_STATS, 0, NULL, 0, &st, sizeof(st), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(st.capture_time_us, 90981);
	ck_assert_uint_eq(st.matching_time_us, 150196);
	ck_assert_uint_eq(st.overall_time_us, 90981 + 150196);
	ck_assert_uint_eq((uint64_t)st.overall_t0_hi << 32 | st.overall_t0_lo, 3000000);
	ck_assert_uint_eq(st.timestamps_invalid, 0);
	ck_assert_int_eq(st.template_matched, 0);
	lift(ec);

	/* Every slot in use: a new enrollment session is refused. */
	for (i = 1; i < 5; i++)
		enroll(ec);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 5);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_ENROLL_SESSION | FP_MODE_ENROLL_IMAGE, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_fp_session_ends_without_template)
{
	struct ec_response_fp_info r;

	ck_assert_uint_eq(set_mode(ec, FP_MODE_ENROLL_SESSION | FP_MODE_ENROLL_IMAGE, NULL),
			  EC_RES_SUCCESS);
	touch(ec);
	ck_assert_uint_eq(EC_MKBP_FP_ENROLL_PROGRESS(next_fp_event(ec)), 20);
	lift(ec);
	/* The host ends the session: the next one starts from 0 %. */
	ck_assert_uint_eq(set_mode(ec, 0, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_ENROLL_SESSION | FP_MODE_ENROLL_IMAGE, NULL),
			  EC_RES_SUCCESS);
	touch(ec);
	ck_assert_uint_eq(EC_MKBP_FP_ENROLL_PROGRESS(next_fp_event(ec)), 20);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 0);
}
END_TEST

/* ---- templates out and back in ---- */

START_TEST(test_fp_template_round_trip)
{
	static uint8_t blob[TEMPLATE_SIZE], other[TEMPLATE_SIZE];
	struct ec_response_fp_info r;
	uint8_t buf[16];
	uint32_t evt;

	enroll(ec);
	/* No TPM seed yet: the template cannot be encrypted. */
	ck_assert_uint_eq(frame(ec, 1, 0, 16, buf, sizeof(buf)), EC_RES_UNAVAILABLE);
	ck_assert_uint_eq(set_seed(ec, FP_TEMPLATE_FORMAT_VERSION, 36), EC_RES_SUCCESS);
	ck_assert_uint_eq(download(ec, 1, blob), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(blob), FP_TEMPLATE_FORMAT_VERSION);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_dirty, 0);
	/* One encryption a second: BUSY until it has passed. */
	ck_assert_uint_eq(frame(ec, 1, 0, 16, buf, sizeof(buf)), EC_RES_BUSY);
	fake_clock_advance(&fc, NS_PER_S);
	ck_assert_uint_eq(download(ec, 1, other), EC_RES_SUCCESS);
	ck_assert_msg(memcmp(blob + 4, other + 4, 12), "a fresh nonce for every encryption");
	/* Template indexes: past the maximum, past the ones in use. */
	ck_assert_uint_eq(frame(ec, 6, 0, 16, buf, sizeof(buf)), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(frame(ec, 15, 0, 16, buf, sizeof(buf)), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(frame(ec, 2, 0, 16, buf, sizeof(buf)), EC_RES_UNAVAILABLE);
	ck_assert_uint_eq(frame(ec, 1, TEMPLATE_SIZE - 8, 16, buf, sizeof(buf)),
			  EC_RES_INVALID_PARAM);

	/* A new user clears the templates; the blob comes back in. */
	new_user(ec, &fc, 0);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 0);
	ck_assert_uint_eq(upload(ec, blob), EC_RES_SUCCESS);
	info_v1(ec, &r);
	ck_assert_uint_eq(r.template_valid, 1);
	ck_assert_uint_eq(r.template_dirty, 0);
	ck_assert_uint_eq(set_mode(ec, FP_MODE_MATCH, NULL), EC_RES_SUCCESS);
	lift(ec);
	touch(ec);
	evt = next_fp_event(ec);
	ck_assert_uint_eq(evt, EC_MKBP_FP_MATCH | EC_MKBP_FP_ERR_MATCH_YES);

	/* Another user's key does not open it; an altered byte neither. */
	new_user(ec, &fc, 7);
	ck_assert_uint_eq(upload(ec, blob), EC_RES_UNAVAILABLE);
	new_user(ec, &fc, 0);
	blob[100] ^= 1;
	ck_assert_uint_eq(upload(ec, blob), EC_RES_UNAVAILABLE);
	blob[100] ^= 1;
	/* Another format version is refused before any decryption. */
	blob[0] = 3;
	ck_assert_uint_eq(upload(ec, blob), EC_RES_INVALID_PARAM);
	blob[0] = FP_TEMPLATE_FORMAT_VERSION;
	ck_assert_uint_eq(upload(ec, blob), EC_RES_SUCCESS);
}
END_TEST

START_TEST(test_fp_template_bad_inputs)
{
	uint8_t req[8 + 32] = { 0 };
	uint32_t v;
	int i;

	/* Short header; a size that is not the bytes sent; past the template. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 7, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	v = 16;
	memcpy(req + 4, &v, 4);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8 + 15, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8 + 16, NULL, 0, NULL),
			  EC_RES_SUCCESS);
	v = TEMPLATE_SIZE - 8;
	memcpy(req, &v, 4);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8 + 16, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	v = 0xFFFFFFF8u;
	memcpy(req, &v, 4);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8 + 16, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	/* A commit of zeros: not this format. */
	memset(req, 0, sizeof(req));
	v = FP_TEMPLATE_COMMIT;
	memcpy(req + 4, &v, 4);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 1, req, 8, NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
	/* Every slot in use: OVERFLOW before anything else. */
	for (i = 0; i < 5; i++)
		enroll(ec);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_TEMPLATE, 0, req, 8, NULL, 0, NULL),
			  EC_RES_OVERFLOW);
}
END_TEST

/* ---- FP_CONTEXT, FP_SEED, FP_ENC_STATUS ---- */

START_TEST(test_fp_context)
{
	struct ec_params_fp_context_v1 p = { .action = 2 };

	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_CONTEXT, 1, &p, sizeof(p) - 1, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_CONTEXT, 1, &p, sizeof(p), NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_CONTEXT, 0, &p, sizeof(p), NULL, 0, NULL),
			  EC_RES_INVALID_VERSION);
	/* The reset needs an idle sensor; a second start while it runs is BUSY. */
	ck_assert_uint_eq(set_mode(ec, FP_MODE_FINGER_DOWN, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(context(ec, FP_CONTEXT_ASYNC, 1), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_mode(ec, 0, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(context(ec, FP_CONTEXT_ASYNC, 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(context(ec, FP_CONTEXT_ASYNC, 1), EC_RES_BUSY);
	fake_clock_advance(&fc, 175 * NS_PER_MS);
	ck_assert_uint_eq(context(ec, FP_CONTEXT_GET_RESULT, 1), EC_RES_SUCCESS);
}
END_TEST

START_TEST(test_fp_seed_once_per_boot)
{
	struct ec_response_fp_encryption_status r;
	struct ec_params_reboot_ec reboot = { .cmd = EC_REBOOT_COLD };

	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_ENC_STATUS, 0, NULL, 0, &r, sizeof(r), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r.valid_flags, FP_ENC_STATUS_SEED_SET);
	ck_assert_uint_eq(r.status, 0);
	ck_assert_uint_eq(set_seed(ec, 3, 36), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_seed(ec, FP_TEMPLATE_FORMAT_VERSION, 35), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_seed(ec, FP_TEMPLATE_FORMAT_VERSION, 36), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_ENC_STATUS, 0, NULL, 0, &r, sizeof(r), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, FP_ENC_STATUS_SEED_SET);
	ck_assert_uint_eq(set_seed(ec, FP_TEMPLATE_FORMAT_VERSION, 36), EC_RES_ACCESS_DENIED);
	/* A new boot takes a new seed. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_REBOOT_EC, 0, &reboot, sizeof(reboot), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FP_ENC_STATUS, 0, NULL, 0, &r, sizeof(r), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, 0);
	ck_assert_uint_eq(set_seed(ec, FP_TEMPLATE_FORMAT_VERSION, 36), EC_RES_SUCCESS);
}
END_TEST

static Suite *ec_fp_suite(void)
{
	Suite *s = suite_create("ec_fp");
	TCase *tc = tcase_create("fp");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fp_info);
	tcase_add_test(tc, test_fp_mode_bad_inputs);
	tcase_add_test(tc, test_fp_finger_down_up);
	tcase_add_test(tc, test_fp_maintenance_reset_sensor);
	tcase_add_test(tc, test_fp_capture_and_frame);
	tcase_add_test(tc, test_fp_test_pattern_needs_no_finger);
	tcase_add_test(tc, test_fp_raw_frame_refused_when_locked);
	tcase_add_test(tc, test_fp_enroll_and_match);
	tcase_add_test(tc, test_fp_session_ends_without_template);
	tcase_add_test(tc, test_fp_template_round_trip);
	tcase_add_test(tc, test_fp_template_bad_inputs);
	tcase_add_test(tc, test_fp_context);
	tcase_add_test(tc, test_fp_seed_once_per_boot);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_fp_suite());
}
