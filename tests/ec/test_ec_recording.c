// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_recording.c - recordings (ec_recording.c, ec_recording_umockdev.c)
 * and their replay (ec_replay.c): both formats read and written, a
 * umockdev file through read and write byte for byte, every refusal of
 * either parser, the matching rules (exact, and by order) and both miss
 * policies.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec_test_util.h"
#include "../check_run.h"

/*
 * umockdev's public cros_ec sample (devices/cros_ec/crosfingerprint.ioctl,
 * recorded from a real /dev/cros_fp), described as its facts: three
 * CROS_EC_DEV_IOCXCMD_V2 calls, each a return value, the five header words
 * (version, command, outsize, insize, result) and the answer's bytes.
 * umock_line() writes them in umockdev's notation.
 */
struct umock_fact {
	int ret;
	uint32_t version, command, outsize, insize, result;
	const char *answer_hex;
};

static const struct umock_fact crosfp_facts[] = {
	/* FP_MODE (0x402) v0: the mode asked and answered, FP_MODE_DONT_CHANGE */
	{ 4, 0, 0x0402, 4, 4, 0, "00000080" },
	/* FP_INFO (0x403) v1: vendor "FPC ", sensor and template geometry */
	{ 48, 1, 0x0403, 0, 48, 0,
	  "46504320090000001B020000010000009466000047524559A000A0000800FF03"
	  "24140000050001000100000004000000" },
	/* FP_STATS (0x407) v0: capture and matcher times */
	{ 22, 0, 0x0407, 0, 22, 0, "65630100B44A020007B30300DC33505A070000000000" },
};

static void put_word(char *out, uint32_t v)
{
	sprintf(out, "%02X%02X%02X%02X", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
}

static size_t umock_line(char *out, const struct umock_fact *f)
{
	char *p = out + sprintf(out, "CROS_EC_DEV_IOCXCMD_V2 %d ", f->ret);

	put_word(p, f->version);
	put_word(p + 8, f->command);
	put_word(p + 16, f->outsize);
	put_word(p + 24, f->insize);
	put_word(p + 32, f->result);
	return (size_t)(p + 40 - out) + (size_t)sprintf(p + 40, "%s\n", f->answer_hex);
}

static char *crosfp_text(void)
{
	char *text = malloc(4096), *p = text;
	size_t i;

	p += sprintf(p, "@DEV /dev/cros_fp\n");
	for (i = 0; i < sizeof(crosfp_facts) / sizeof(crosfp_facts[0]); i++)
		p += umock_line(p, &crosfp_facts[i]);
	return text;
}

static struct ec_recording *parse_ok(const char *text)
{
	struct ec_recording *rec = NULL;
	char err[256] = "";

	ck_assert_msg(!ec_recording_parse(text, strlen(text), &rec, err, sizeof(err)),
		      "parse failed: %s", err);
	return rec;
}

/* The recording in @format, as a malloc'd string. */
static char *write_text(const struct ec_recording *rec, enum ec_rec_format format,
			size_t *skipped)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ec_recording_write(rec, format, f, skipped), 0);
	fclose(f);
	return buf;
}

START_TEST(test_umockdev_sample_round_trips)
{
	char *text = crosfp_text(), *again;
	struct ec_recording *rec = parse_ok(text);
	const struct ec_rec *r;
	size_t skipped = 99;

	ck_assert_str_eq(ec_recording_device(rec), "/dev/cros_fp");
	ck_assert_uint_eq(ec_recording_count(rec), 3);
	r = ec_recording_get(rec, 0);
	ck_assert_int_eq(r->kind, EC_REC_XCMD);
	ck_assert_uint_eq(r->command, 0x0402);
	ck_assert_uint_eq(r->version, 0);
	ck_assert_uint_eq(r->out_size, 4);
	ck_assert_uint_eq(r->in_size, 4);
	ck_assert_int_eq(r->ret, 4);
	ck_assert(!r->req_known);
	ck_assert_uint_eq(r->data_len, 4);
	ck_assert_uint_eq(r->data[3], 0x80);
	r = ec_recording_get(rec, 1);
	ck_assert_uint_eq(r->command, 0x0403);
	ck_assert_uint_eq(r->version, 1);
	ck_assert_mem_eq(r->data, "FPC ", 4);
	ck_assert_ptr_null(ec_recording_get(rec, 3));

	again = write_text(rec, EC_REC_FORMAT_UMOCKDEV, &skipped);
	ck_assert_str_eq(again, text);
	ck_assert_uint_eq(skipped, 0);
	free(again);
	ec_recording_destroy(rec);
	free(text);
}
END_TEST

/* umockdev -> native -> umockdev: the request stays unknown ("req=?"). */
START_TEST(test_umockdev_through_native)
{
	char *text = crosfp_text(), *native, *back;
	struct ec_recording *rec = parse_ok(text), *rec2;

	native = write_text(rec, EC_REC_FORMAT_NATIVE, NULL);
	ck_assert_msg(strstr(native, "req=?") != NULL, "%s", native);
	ck_assert(!strncmp(native, "cuse_ec-recording 1\ndevice /dev/cros_fp\n", 40));
	rec2 = parse_ok(native);
	back = write_text(rec2, EC_REC_FORMAT_UMOCKDEV, NULL);
	ck_assert_str_eq(back, text);
	free(back);
	free(native);
	ec_recording_destroy(rec2);
	ec_recording_destroy(rec);
	free(text);
}
END_TEST

static const uint8_t hello_req[4] = { 1, 2, 3, 4 };
static const uint8_t hello_resp[4] = { 0x05, 0x04, 0x03, 0x02 };
static const uint8_t ev_bytes[3] = { 1, 0x10, 0x20 };
static const uint8_t mem_bytes[2] = { 'E', 'C' };

/* One record of each kind, the XCMDs of every shape. */
static struct ec_recording *every_kind(void)
{
	struct ec_recording *rec;
	const struct ec_rec recs[] = {
		{ .kind = EC_REC_XCMD, .t_ns = 1000, .command = 0x0001, .out_size = 4,
		  .in_size = 4, .ret = 4, .req_known = true, .req = hello_req,
		  .data_len = 4, .data = hello_resp },
		{ .kind = EC_REC_XCMD, .t_ns = 2000, .command = 0x0097, .version = 1,
		  .in_size = 16, .result = 1, .ret = 0, .req_known = true },
		{ .kind = EC_REC_XCMD, .t_ns = 2500, .command = 0x0002, .in_size = 8,
		  .ret = -110, .req_known = true },
		{ .kind = EC_REC_READMEM, .t_ns = 3000, .offset = 0x20, .in_size = 2,
		  .ret = 2, .data_len = 2, .data = mem_bytes },
		{ .kind = EC_REC_EVENT, .t_ns = 4000, .data_len = 3, .data = ev_bytes },
		{ .kind = EC_REC_UNPLUG, .t_ns = 5000 },
		{ .kind = EC_REC_PLUG, .t_ns = 6000 },
	};
	size_t i;

	ck_assert_int_eq(ec_recording_create(&rec), 0);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		ck_assert_int_eq(ec_recording_add(rec, &recs[i]), 0);
	return rec;
}

START_TEST(test_native_round_trip)
{
	struct ec_recording *rec = every_kind(), *rec2;
	char *text = write_text(rec, EC_REC_FORMAT_NATIVE, NULL), *again, *umock;
	const struct ec_rec *a, *b;
	size_t i, skipped = 0;

	ck_assert(!strncmp(text, "cuse_ec-recording 1\n", 20));
	rec2 = parse_ok(text);
	ck_assert_uint_eq(ec_recording_count(rec2), ec_recording_count(rec));
	for (i = 0; i < ec_recording_count(rec); i++) {
		a = ec_recording_get(rec, i);
		b = ec_recording_get(rec2, i);
		ck_assert_int_eq(a->kind, b->kind);
		ck_assert_uint_eq(a->t_ns, b->t_ns);
		ck_assert_uint_eq(a->command, b->command);
		ck_assert_uint_eq(a->version, b->version);
		ck_assert_uint_eq(a->result, b->result);
		ck_assert_int_eq(a->ret, b->ret);
		ck_assert_uint_eq(a->offset, b->offset);
		ck_assert_uint_eq(a->in_size, b->in_size);
		ck_assert_uint_eq(a->data_len, b->data_len);
		if (a->data_len)
			ck_assert_mem_eq(a->data, b->data, a->data_len);
	}
	again = write_text(rec2, EC_REC_FORMAT_NATIVE, NULL);
	ck_assert_str_eq(again, text);

	/* umockdev carries the three XCMDs; a failure's errno becomes -1. */
	umock = write_text(rec, EC_REC_FORMAT_UMOCKDEV, &skipped);
	ck_assert_uint_eq(skipped, 4);
	ck_assert_msg(strstr(umock, "CROS_EC_DEV_IOCXCMD_V2 -1 ") != NULL, "%s", umock);
	ck_assert_msg(strstr(umock, "CROS_EC_DEV_IOCXCMD_V2 4 00000000010000000400000004000000"
			     "0000000005040302\n") != NULL, "%s", umock);
	free(umock);
	free(again);
	free(text);
	ec_recording_destroy(rec2);
	ec_recording_destroy(rec);
}
END_TEST

/* cuse_ec-recording(5)'s EXAMPLES: the native record, written umockdev's way. */
START_TEST(test_man_page_example)
{
	struct ec_recording *rec = parse_ok("cuse_ec-recording 1\n0 plug\n1200000 xcmd cmd=0x0001 "
					    "ver=0 out=4 in=4 result=0 ret=4 req=01020304 "
					    "data=05050505\n");
	char *umock = write_text(rec, EC_REC_FORMAT_UMOCKDEV, NULL);

	ck_assert_str_eq(umock, "CROS_EC_DEV_IOCXCMD_V2 4 0000000001000000040000000400000000000000"
			 "05050505\n");
	free(umock);
	ec_recording_destroy(rec);
}
END_TEST

/* Every refusal names its line and why; none crashes. */
START_TEST(test_bad_inputs)
{
	static const struct {
		const char *text;
		const char *why;
	} bad[] = {
		{ "", "empty" },
		{ "hello\n", "line 1: neither" },
		{ "cuse_ec-recording 2\n", "line 1: unsupported version" },
		{ "cuse_ec-recording 1x\n", "unsupported version" },
		{ "cuse_ec-recording 1\n5\n", "line 2: expected 'TIME KIND" },
		{ "cuse_ec-recording 1\nx plug\n", "line 2: invalid time" },
		{ "cuse_ec-recording 1\n5 jump\n", "unknown record kind 'jump'" },
		{ "cuse_ec-recording 1\n5 plug now\n", "plug takes 0 fields, found 1" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=0 in=0 result=0 ret=0 req=-\n",
		  "xcmd takes 8 fields" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=0x10000 ver=0 out=0 in=0 result=0 ret=0 req=- data=-\n",
		  "invalid cmd" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=32 out=0 in=0 result=0 ret=0 req=- data=-\n",
		  "invalid ver" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 vers=0 out=0 in=0 result=0 ret=0 req=- data=-\n",
		  "expected 'ver='" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=0 in=0 result=0 ret=-0 req=- data=-\n",
		  "invalid ret" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=0 in=0 result=0 ret=-5000 req=- data=-\n",
		  "invalid ret" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=2 in=0 result=0 ret=0 req=01 data=-\n",
		  "req has 1 bytes, out says 2" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=1 in=0 result=0 ret=0 req=0g data=-\n",
		  "req: not an even count of hex digits" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=1 in=0 result=0 ret=0 req=012 data=-\n",
		  "req: not an even count" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=0 in=1 result=0 ret=1 req=- data=0102\n",
		  "an answer longer than in=1" },
		{ "cuse_ec-recording 1\n5 xcmd cmd=1 ver=0 out=0 in=1 result=0 ret=2 req=- data=-\n",
		  "an answer longer than in=1" },
		{ "cuse_ec-recording 1\n5 readmem offset=255 bytes=1 ret=1 data=00\n",
		  "invalid offset" },
		{ "cuse_ec-recording 1\n5 readmem offset=0 bytes=256 ret=1 data=00\n",
		  "invalid bytes" },
		{ "cuse_ec-recording 1\n5 readmem offset=0 bytes=1 ret=300 data=00\n",
		  "ret above the map" },
		{ "cuse_ec-recording 1\n5 event data=-\n", "at least its type byte" },
		{ "cuse_ec-recording 1\n5 event data=000102030405060708090a0b0c0d0e0f1011\n",
		  "data: more than 17 bytes" },
		{ "cuse_ec-recording 1\ndevice cros_ec\n", "line 2: device: not an absolute" },
		{ "cuse_ec-recording 1\n5 plug\ndevice /dev/x\n", "line 3: 'device' only once" },
		{ "@DEV /dev/a\n@DEV /dev/b\n", "line 2: a second @DEV" },
		{ "@DEV cros_fp\n", "@DEV: not an absolute" },
		{ "@DEV /dev/cros_fp\n CROS_EC_DEV_IOCXCMD_V2 0 0000000001000000000000000000000000000000\n",
		  "line 2: an indented (nested) record" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0\n", "line 1: expected 'NAME RET HEX'" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0 00 00\n", "expected 'NAME RET HEX'" },
		{ "CROS_EC_DEV_IOCRDMEM_V2 0 00\n", "a cros_ec file holds CROS_EC_DEV_IOCXCMD_V2 only" },
		{ "CROS_EC_DEV_IOCXCMD_V2 -2 0000000001000000000000000000000000000000\n",
		  "a failure is -1" },
		{ "CROS_EC_DEV_IOCXCMD_V2 x 0000000001000000000000000000000000000000\n",
		  "invalid ret" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0 000000000100000000000000000000000000000\n",
		  "not an even count" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0 00000000010000000000000000000000\n",
		  "shorter than the 20-byte command header" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0 000000000100000000000000020000000000000000\n",
		  "insize 2 but 1 data bytes" },
		{ "CROS_EC_DEV_IOCXCMD_V2 0 0000000000000100000000000000000000000000\n",
		  "out of range" },
		{ "CROS_EC_DEV_IOCXCMD_V2 2 0000000001000000000000000100000000000000AA\n",
		  "return value 2 above insize 1" },
	};
	struct ec_recording *rec;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rec = (struct ec_recording *)1;
		err[0] = '\0';
		ck_assert_msg(ec_recording_parse(bad[i].text, strlen(bad[i].text), &rec, err,
						 sizeof(err)) == -EINVAL, "accepted: %s", bad[i].text);
		ck_assert_msg(strstr(err, bad[i].why) != NULL, "%s: '%s' lacks '%s'",
			      bad[i].text, err, bad[i].why);
		ck_assert_ptr_eq(rec, (void *)1);
	}
	/* A NUL inside, and a line too long for either format. */
	{
		char nul[] = "cuse_ec-recording 1\n5 p\0ug\n", *longl;

		ck_assert_int_eq(ec_recording_parse(nul, sizeof(nul) - 1, &rec, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, "line 2: a NUL byte"), "%s", err);
		longl = malloc(20000);
		memset(longl, 'A', 20000);
		memcpy(longl, "CROS_EC_DEV_IOCXCMD_V2 0 ", 25);
		ck_assert_int_eq(ec_recording_parse(longl, 20000, &rec, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "line 1: longer than"), "%s", err);
		free(longl);
	}
}
END_TEST

START_TEST(test_blank_comment_and_metadata_lines)
{
	struct ec_recording *rec = parse_ok("# a comment\n\n@OTHER x\n@DEV /dev/cros_ec\n"
					    "CROS_EC_DEV_IOCXCMD_V2 0 0000000002000000000000000000000000000000");

	/* umockdev skips '#', empty and unknown '@' lines; a last line needs no newline. */
	ck_assert_uint_eq(ec_recording_count(rec), 1);
	ck_assert_str_eq(ec_recording_device(rec), "/dev/cros_ec");
	ec_recording_destroy(rec);
	/* Hex in either case; umockdev's -1 reads back as EIO. */
	rec = parse_ok("cuse_ec-recording 1\n1 event data=0AbC\n");
	ck_assert_uint_eq(ec_recording_get(rec, 0)->data[1], 0xbc);
	ec_recording_destroy(rec);
	rec = parse_ok("CROS_EC_DEV_IOCXCMD_V2 -1 0000000002000000000000000000000000000000\n");
	ck_assert_int_eq(ec_recording_get(rec, 0)->ret, -EIO);
	ec_recording_destroy(rec);
	rec = parse_ok("cuse_ec-recording 1\n# note\n\n7 unplug");
	ck_assert_uint_eq(ec_recording_count(rec), 1);
	ck_assert_int_eq(ec_recording_get(rec, 0)->kind, EC_REC_UNPLUG);
	ck_assert_ptr_null(ec_recording_device(rec));
	ec_recording_destroy(rec);
}
END_TEST

START_TEST(test_names_and_load)
{
	enum ec_rec_format fmt;
	enum ec_replay_miss miss;
	enum ec_replay_match match;
	struct ec_recording *rec = NULL;
	struct ec_replay *replay;
	char path[] = "/tmp/test_ec_recording.XXXXXX", err[512];
	const struct ec_rec too_big = { .kind = EC_REC_EVENT, .data_len = EC_REC_DATA_MAX + 1,
					.data = hello_req };
	const struct ec_rec bad_kind = { .kind = EC_REC_KINDS };
	int fd;

	ck_assert_int_eq(ec_rec_format_parse("native", &fmt), 0);
	ck_assert_int_eq(fmt, EC_REC_FORMAT_NATIVE);
	ck_assert_int_eq(ec_rec_format_parse("umockdev", &fmt), 0);
	ck_assert_int_eq(fmt, EC_REC_FORMAT_UMOCKDEV);
	ck_assert_int_eq(ec_rec_format_parse("ioctl", &fmt), -EINVAL);
	ck_assert_int_eq(ec_rec_format_for_path("a/b.ioctl"), EC_REC_FORMAT_UMOCKDEV);
	ck_assert_int_eq(ec_rec_format_for_path("a/b.rec"), EC_REC_FORMAT_NATIVE);
	ck_assert_int_eq(ec_rec_format_for_path("ioctl"), EC_REC_FORMAT_NATIVE);
	ck_assert_int_eq(ec_replay_miss_parse("model", &miss), 0);
	ck_assert_int_eq(miss, EC_REPLAY_MISS_MODEL);
	ck_assert_int_eq(ec_replay_miss_parse("invalid", &miss), 0);
	ck_assert_int_eq(miss, EC_REPLAY_MISS_INVALID);
	ck_assert_int_eq(ec_replay_miss_parse("Model", &miss), -EINVAL);
	ck_assert_str_eq(ec_replay_miss_name(EC_REPLAY_MISS_INVALID), "invalid");
	ck_assert_int_eq(ec_replay_match_parse("bytes", &match), 0);
	ck_assert_int_eq(match, EC_REPLAY_MATCH_BYTES);
	ck_assert_int_eq(ec_replay_match_parse("order", &match), 0);
	ck_assert_int_eq(match, EC_REPLAY_MATCH_ORDER);
	ck_assert_int_eq(ec_replay_match_parse("Order", &match), -EINVAL);
	ck_assert_int_eq(ec_replay_match_parse("", &match), -EINVAL);
	ck_assert_int_eq(ec_replay_match_parse(NULL, &match), -EINVAL);
	ck_assert_str_eq(ec_replay_match_name(EC_REPLAY_MATCH_ORDER), "order");
	ck_assert_str_eq(ec_replay_match_name((enum ec_replay_match)7), "?");

	ck_assert_int_eq(ec_recording_create(&rec), 0);
	ck_assert_int_eq(ec_recording_add(rec, &too_big), -EINVAL);
	ck_assert_int_eq(ec_recording_add(rec, &bad_kind), -EINVAL);
	ck_assert_int_eq(ec_recording_set_device(rec, "/dev/a b"), -EINVAL);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_MODEL, (enum ec_replay_match)2,
					  &replay), -EINVAL);
	ck_assert_int_eq(ec_replay_create(rec, (enum ec_replay_miss)2, EC_REPLAY_MATCH_BYTES,
					  &replay), -EINVAL);
	ck_assert_int_eq(ec_rec_write(EC_REC_FORMAT_UMOCKDEV,
				      &(struct ec_rec){ .kind = EC_REC_PLUG }, stdout), 0);
	ec_recording_destroy(rec);

	ck_assert_int_eq(ec_recording_load("/nonexistent/x.rec", &rec, err, sizeof(err)),
			 -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/x.rec: "), "%s", err);
	ck_assert_int_eq(ec_recording_load("/tmp", &rec, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "cuse_ec-recording 1\n1 plug\n2 bogus\n", 35), 35);
	close(fd);
	ck_assert_int_eq(ec_recording_load(path, &rec, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, ": line 3: unknown record kind 'bogus'"), "%s", err);
	unlink(path);
}
END_TEST

/* ---- replay ---- */

static struct fake_clock fc;

static int xcmd(struct ec *ec, uint32_t cmd, uint32_t ver, const void *req, size_t len,
		void *resp, size_t room, uint32_t *status)
{
	return ec_host_command(ec, cmd, ver, req, len, resp, room, status);
}

START_TEST(test_replay_matching)
{
	static const uint8_t v1[4] = { 0xaa }, v2[4] = { 0xbb }, other_req[4] = { 9 };
	const struct ec_rec recs[] = {
		{ .kind = EC_REC_XCMD, .command = EC_CMD_HELLO, .out_size = 4, .in_size = 4,
		  .ret = 4, .req_known = true, .req = hello_req, .data_len = 4, .data = v1 },
		{ .kind = EC_REC_XCMD, .command = EC_CMD_HELLO, .out_size = 4, .in_size = 4,
		  .ret = 4, .req_known = true, .req = hello_req, .data_len = 4, .data = v2 },
		{ .kind = EC_REC_XCMD, .command = EC_CMD_GET_VERSION, .version = 0,
		  .in_size = 8, .result = EC_RES_ACCESS_DENIED, .ret = 0, .req_known = true },
		{ .kind = EC_REC_READMEM, .offset = 0x20, .in_size = 2, .ret = 2,
		  .data_len = 2, .data = mem_bytes },
	};
	struct ec_recording *rec;
	struct ec_replay *replay;
	struct ec *ec;
	uint8_t resp[8], mem[255];
	uint32_t status;
	uint64_t hits, misses;
	size_t i;

	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_recording_create(&rec), 0);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		ck_assert_int_eq(ec_recording_add(rec, &recs[i]), 0);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_MODEL, EC_REPLAY_MATCH_BYTES,
					  &replay), 0);
	ec_set_replay(ec, replay);

	/* Identical requests: recorded order, then the last answer repeats. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, hello_req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(resp[0], 0xaa);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, hello_req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xbb);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, hello_req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xbb);
	/* Less room than the recorded answer: the transport's EMSGSIZE. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, hello_req, 4, resp, 2, &status), -EMSGSIZE);
	/* The recorded EC result comes back too. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_GET_VERSION, 0, NULL, 0, resp, 8, &status), 0);
	ck_assert_uint_eq(status, EC_RES_ACCESS_DENIED);
	ec_replay_counts(replay, &hits, NULL, &misses);
	ck_assert_uint_eq(hits, 5);
	ck_assert_uint_eq(misses, 0);

	/* Other request bytes, another version: misses, the model answers. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, other_req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 9 + EC_HELLO_MAGIC);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 1, hello_req, 4, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_INVALID_VERSION);
	ec_replay_counts(replay, &hits, NULL, &misses);
	ck_assert_uint_eq(misses, 2);

	/* READMEM: offset and count match; another offset is the model's. */
	ck_assert(ec_memmap_direct(ec));
	ck_assert_int_eq(ec_read_memmap(ec, 0x20, 2, mem), 2);
	ck_assert_mem_eq(mem, "EC", 2);
	/* A plain read inside a recorded one is answered from its bytes. */
	ck_assert_int_eq(ec_read_memmap(ec, 0x21, 1, mem), 1);
	ck_assert_uint_eq(mem[0], 'C');
	/* Outside it, or a string: the model's (the laptop maps directly). */
	ec_replay_counts(replay, &hits, NULL, &misses);
	ck_assert_int_eq(ec_read_memmap(ec, 0x21, 2, mem), 2);
	ck_assert_int_gt(ec_read_memmap(ec, 0x20, 0, mem), 0);
	ec_replay_counts(replay, NULL, NULL, &misses);
	ck_assert_uint_eq(misses, 4);

	ec_set_replay(ec, NULL);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, hello_req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x04030201 + EC_HELLO_MAGIC);
	ec_destroy(ec);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
}
END_TEST

START_TEST(test_replay_miss_invalid_and_umockdev)
{
	char *text = crosfp_text();
	struct ec_recording *rec = parse_ok(text);
	struct ec_replay *replay;
	uint8_t req[4] = { 0x12, 0x34, 0x56, 0x78 }, resp[64], mem[255];
	uint32_t status;
	uint64_t hits, misses;
	struct ec *ec;

	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_INVALID, EC_REPLAY_MATCH_BYTES,
					  &replay), 0);
	ec_set_replay(ec, replay);
	/* A umockdev record kept no request: any 4-byte FP_MODE v0 matches. */
	ck_assert_int_eq(xcmd(ec, 0x0402, 0, req, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 0x80000000u);
	/* but not another length */
	ck_assert_int_eq(xcmd(ec, 0x0402, 0, req, 2, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	ck_assert_int_eq(xcmd(ec, 0x0403, 1, NULL, 0, resp, 64, &status), 48);
	ck_assert_mem_eq(resp, "FPC ", 4);
	/* A command the laptop model knows, missing from the recording. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, req, 4, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	ck_assert_int_eq(ec_read_memmap(ec, 0, 4, mem), -ENOTTY);
	ec_replay_counts(replay, &hits, NULL, &misses);
	ck_assert_uint_eq(hits, 2);
	ck_assert_uint_eq(misses, 3);
	ec_destroy(ec);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
	free(text);
}
END_TEST

/* HELLO records of three request bytes, and a replay of them matching HOW. */
static const uint8_t req_a[4] = { 0xa1 }, req_b[4] = { 0xb1 }, req_c[4] = { 0xc1 };
static const uint8_t ans_a[4] = { 0xaa }, ans_b[4] = { 0xbb }, ans_c[4] = { 0xcc };

static struct ec_recording *three_hellos(void)
{
	const struct ec_rec recs[] = {
		{ .kind = EC_REC_XCMD, .command = EC_CMD_HELLO, .out_size = 4, .in_size = 4,
		  .ret = 4, .req_known = true, .req = req_a, .data_len = 4, .data = ans_a },
		{ .kind = EC_REC_XCMD, .command = EC_CMD_HELLO, .out_size = 4, .in_size = 4,
		  .ret = 4, .req_known = true, .req = req_b, .data_len = 4, .data = ans_b },
		{ .kind = EC_REC_XCMD, .command = EC_CMD_HELLO, .out_size = 4, .in_size = 4,
		  .ret = 4, .req_known = true, .req = req_c, .data_len = 4, .data = ans_c },
	};
	struct ec_recording *rec;
	size_t i;

	ck_assert_int_eq(ec_recording_create(&rec), 0);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		ck_assert_int_eq(ec_recording_add(rec, &recs[i]), 0);
	return rec;
}

/*
 * --replay-match=order: an exact match first, even past an unused record;
 * then the unused records of the command, version and length in recorded
 * order, whatever their bytes; then the miss policy. Counted apart.
 */
START_TEST(test_replay_match_order)
{
	static const uint8_t stray1[4] = { 0xa1, 0, 0x2b, 0x88 }, stray2[4] = { 0x77 },
			     stray3[4] = { 0x55 };
	struct ec_recording *rec = three_hellos();
	struct ec_replay *replay;
	uint64_t hits, loose, misses;
	uint8_t resp[4];
	uint32_t status;
	struct ec *ec;

	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_MODEL, EC_REPLAY_MATCH_ORDER,
					  &replay), 0);
	ec_set_replay(ec, replay);
	/* Exact: req_b's record, though req_a's comes first and is unused. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, req_b, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xbb);
	/* No exact match: the first unused record (a's), then the next (c's). */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, stray1, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_uint_eq(resp[0], 0xaa);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, stray2, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xcc);
	ec_replay_counts(replay, &hits, &loose, &misses);
	ck_assert_uint_eq(hits, 1);
	ck_assert_uint_eq(loose, 2);
	ck_assert_uint_eq(misses, 0);
	/* Every record used: the miss policy (here the model) answers. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, stray3, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x55 + EC_HELLO_MAGIC);
	/* An exact request still gets its record, used or not. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, req_a, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xaa);
	/* Another length or version is never a loose match. */
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 1, stray3, 4, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_INVALID_VERSION);
	ec_replay_counts(replay, &hits, &loose, &misses);
	ck_assert_uint_eq(hits, 2);
	ck_assert_uint_eq(loose, 2);
	ck_assert_uint_eq(misses, 2);
	ec_destroy(ec);
	ec_replay_destroy(replay);

	/* Length: a fresh replay, a 2-byte HELLO finds no 4-byte record. */
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_INVALID, EC_REPLAY_MATCH_ORDER,
					  &replay), 0);
	ec_set_replay(ec, replay);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, stray1, 2, resp, 4, &status), 0);
	ck_assert_uint_eq(status, EC_RES_INVALID_COMMAND);
	ec_replay_counts(replay, &hits, &loose, &misses);
	ck_assert_uint_eq(loose, 0);
	ck_assert_uint_eq(misses, 1);
	ec_destroy(ec);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
}
END_TEST

/* --replay-match=bytes (the default) never answers from another request's record. */
START_TEST(test_replay_match_bytes_never_loose)
{
	static const uint8_t stray[4] = { 0xa1, 0, 0x2b, 0x88 };
	struct ec_recording *rec = three_hellos();
	struct ec_replay *replay;
	uint64_t hits, loose, misses;
	uint8_t resp[4];
	uint32_t status;
	struct ec *ec;

	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_MODEL, EC_REPLAY_MATCH_BYTES,
					  &replay), 0);
	ec_set_replay(ec, replay);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, stray, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(le32(resp), 0x882b00a1u + EC_HELLO_MAGIC);
	ck_assert_int_eq(xcmd(ec, EC_CMD_HELLO, 0, req_c, 4, resp, 4, &status), 4);
	ck_assert_uint_eq(resp[0], 0xcc);
	ec_replay_counts(replay, &hits, &loose, &misses);
	ck_assert_uint_eq(hits, 1);
	ck_assert_uint_eq(loose, 0);
	ck_assert_uint_eq(misses, 1);
	ec_destroy(ec);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
}
END_TEST

static Suite *recording_suite(void)
{
	Suite *s = suite_create("recording");
	TCase *tc = tcase_create("recording");

	tcase_add_test(tc, test_umockdev_sample_round_trips);
	tcase_add_test(tc, test_umockdev_through_native);
	tcase_add_test(tc, test_native_round_trip);
	tcase_add_test(tc, test_man_page_example);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_blank_comment_and_metadata_lines);
	tcase_add_test(tc, test_names_and_load);
	tcase_add_test(tc, test_replay_matching);
	tcase_add_test(tc, test_replay_miss_invalid_and_umockdev);
	tcase_add_test(tc, test_replay_match_order);
	tcase_add_test(tc, test_replay_match_bytes_never_loose);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(recording_suite());
}
