// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_record.c - --record and --replay through the file
 * operations: what a session writes (host commands, memory-map reads,
 * events read, unplug and plug) in the daemon's order with several files
 * at once, a failing file counted and logged once, and a recording's
 * answers given over the profile's.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

struct log_count {
	pthread_mutex_t lock;
	unsigned int record_errors;
};

static void count_log(void *arg, int level, const char *msg)
{
	struct log_count *lc = arg;

	pthread_mutex_lock(&lc->lock);
	if (strstr(msg, "--record"))
		lc->record_errors++;
	pthread_mutex_unlock(&lc->lock);
}

static struct chardev_ctx *ctx_with(FILE *record, struct ec_replay *replay,
				    struct log_count *lc)
{
	struct chardev_config config = { 0 };
	struct ec_profile *profile;
	struct chardev_ctx *ctx;

	ck_assert_int_eq(ec_profile_default(&profile), 0);
	config.mode = LIFECYCLE_REVOCABLE;
	config.profile = profile;
	config.ops = harness_ops();
	config.ops.log = count_log;
	config.ops.ctx = lc;
	config.log_level = CHARDEV_LOG_ERR;
	config.record = record;
	config.record_format = EC_REC_FORMAT_NATIVE;
	config.replay = replay;
	ck_assert_int_eq(chardev_ctx_create(&config, &ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	return ctx;
}

static int inject_cb(struct ec *ec, void *arg)
{
	static const uint8_t payload[2] = { 0x5a, 0xa5 };

	return ec_inject_event(ec, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
}

static struct log_count lc = { .lock = PTHREAD_MUTEX_INITIALIZER };

START_TEST(test_a_session_recorded)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	struct cros_ec_readmem_v2 rm = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	struct ec_recording *rec;
	const struct ec_rec *r;
	struct chardev_stats st;
	uint8_t buf[32];
	uint32_t result;

	ck_assert_ptr_nonnull(mem);
	ck_assert_int_eq(ec_recording_write_header(EC_REC_FORMAT_NATIVE, NULL, mem), 0);
	ctx = ctx_with(mem, NULL, &lc);
	file = harness_open(ctx);
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &rm, 0), 2);
	ck_assert_int_eq(do_xcmd(file, 0x3ffe, 0, NULL, 0, buf, 4, &result), 0);
	ck_assert_uint_eq(result, EC_RES_INVALID_COMMAND);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2,
				  (void *)(uintptr_t)(1u << EC_MKBP_EVENT_BUTTON), 0), 0);
	ck_assert_int_eq(chardev_with_ec(ctx, inject_cb, NULL), 0);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), false, HARNESS_DEADLINE_MS), 3);
	chardev_release(file);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.records_written, 7);
	ck_assert_uint_eq(st.record_write_errors, 0);
	harness_ctx_free(ctx);
	fclose(mem);

	ck_assert_msg(!ec_recording_parse(text, len, &rec, err, sizeof(err)), "%s\n%s", err, text);
	/* ... and the unplug of the context's end */
	ck_assert_uint_eq(ec_recording_count(rec), 8);
	ck_assert_int_eq(ec_recording_get(rec, 7)->kind, EC_REC_UNPLUG);
	ck_assert_int_eq(ec_recording_get(rec, 0)->kind, EC_REC_PLUG);
	r = ec_recording_get(rec, 1);
	ck_assert_int_eq(r->kind, EC_REC_XCMD);
	ck_assert_uint_eq(r->command, EC_CMD_HELLO);
	ck_assert(r->req_known);
	ck_assert_uint_eq(r->out_size, 4);
	ck_assert_int_eq(r->ret, 4);
	ck_assert_uint_eq(r->data_len, 4);
	r = ec_recording_get(rec, 2);
	ck_assert_int_eq(r->kind, EC_REC_READMEM);
	ck_assert_uint_eq(r->offset, EC_MEMMAP_ID);
	ck_assert_mem_eq(r->data, "EC", 2);
	r = ec_recording_get(rec, 3);
	ck_assert_uint_eq(r->command, 0x3ffe);
	ck_assert_uint_eq(r->result, EC_RES_INVALID_COMMAND);
	r = ec_recording_get(rec, 4);
	ck_assert_int_eq(r->kind, EC_REC_EVENT);
	ck_assert_uint_eq(r->data_len, 3);
	ck_assert_uint_eq(r->data[0], EC_MKBP_EVENT_BUTTON);
	ck_assert_int_eq(ec_recording_get(rec, 5)->kind, EC_REC_UNPLUG);
	ck_assert_int_eq(ec_recording_get(rec, 6)->kind, EC_REC_PLUG);
	ec_recording_destroy(rec);
	free(text);
}
END_TEST

/* Several files at once: every command recorded once, times in file order. */
#define RECORD_THREADS	4
#define RECORD_ROUNDS	200

static void *hello_loop(void *arg)
{
	struct chardev_file *file = arg;
	int i;

	for (i = 0; i < RECORD_ROUNDS; i++)
		if (harness_hello(file) != 4)
			return (void *)1;
	return NULL;
}

START_TEST(test_several_files_one_order)
{
	char *text = NULL, err[256] = "";
	size_t len = 0, i, n;
	FILE *mem = open_memstream(&text, &len);
	struct chardev_file *files[RECORD_THREADS];
	pthread_t threads[RECORD_THREADS];
	struct ec_recording *rec;
	struct chardev_ctx *ctx;
	void *failed;
	uint64_t prev = 0;

	ck_assert_int_eq(ec_recording_write_header(EC_REC_FORMAT_NATIVE, NULL, mem), 0);
	ctx = ctx_with(mem, NULL, &lc);
	for (i = 0; i < RECORD_THREADS; i++) {
		files[i] = harness_open(ctx);
		ck_assert_int_eq(pthread_create(&threads[i], NULL, hello_loop, files[i]), 0);
	}
	for (i = 0; i < RECORD_THREADS; i++) {
		ck_assert_int_eq(pthread_join(threads[i], &failed), 0);
		ck_assert_ptr_null(failed);
		chardev_release(files[i]);
	}
	harness_ctx_free(ctx);
	fclose(mem);
	ck_assert_msg(!ec_recording_parse(text, len, &rec, err, sizeof(err)), "%s", err);
	n = ec_recording_count(rec);
	/* plug, the commands, and the unplug of the context's end */
	ck_assert_uint_eq(n, 2 + RECORD_THREADS * RECORD_ROUNDS);
	for (i = 0; i < n; i++) {
		ck_assert_uint_ge(ec_recording_get(rec, i)->t_ns, prev);
		prev = ec_recording_get(rec, i)->t_ns;
	}
	ec_recording_destroy(rec);
	free(text);
}
END_TEST

/* A file that cannot be written: counted every time, logged once, served on. */
START_TEST(test_write_errors_counted_logged_once)
{
	FILE *full = fopen("/dev/full", "w");
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	struct chardev_stats st;

	if (!full)
		return;	/* no /dev/full here: nothing to test with */
	setvbuf(full, NULL, _IONBF, 0);
	lc.record_errors = 0;
	ctx = ctx_with(full, NULL, &lc);
	file = harness_open(ctx);
	ck_assert_int_eq(harness_hello(file), 4);
	ck_assert_int_eq(harness_hello(file), 4);
	chardev_stats(ctx, &st);
	ck_assert_uint_ge(st.record_write_errors, 3);
	ck_assert_uint_eq(st.records_written, 0);
	chardev_release(file);
	harness_ctx_free(ctx);
	ck_assert_uint_eq(lc.record_errors, 1);
	fclose(full);
}
END_TEST

START_TEST(test_replay_over_the_profile)
{
	static const uint8_t req[4] = { 1, 2, 3, 4 }, answer[4] = { 0xde, 0xad, 0xbe, 0xef };
	const struct ec_rec hello = { .kind = EC_REC_XCMD, .command = EC_CMD_HELLO,
				      .out_size = 4, .in_size = 4, .ret = 4, .req_known = true,
				      .req = req, .data_len = 4, .data = answer };
	struct ec_recording *rec;
	struct ec_replay *replay;
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	struct chardev_stats st;
	uint8_t resp[4];
	uint32_t result;

	ck_assert_int_eq(ec_recording_create(&rec), 0);
	ck_assert_int_eq(ec_recording_add(rec, &hello), 0);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_INVALID, EC_REPLAY_MATCH_BYTES,
					  &replay), 0);
	ctx = ctx_with(NULL, replay, &lc);
	file = harness_open(ctx);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, req, 4, resp, 4, &result), 4);
	ck_assert_mem_eq(resp, answer, 4);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_GET_VERSION, 0, NULL, 0, resp, 4, &result), 0);
	ck_assert_uint_eq(result, EC_RES_INVALID_COMMAND);
	/* A replug keeps the replay: it belongs to the device, not one EC. */
	chardev_release(file);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	file = harness_open(ctx);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, req, 4, resp, 4, &result), 4);
	ck_assert_mem_eq(resp, answer, 4);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.replay_hits, 2);
	ck_assert_uint_eq(st.replay_misses, 1);
	chardev_release(file);
	harness_ctx_free(ctx);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
}
END_TEST

/* A loose match reaches the daemon's stats as replay_loose_hits, apart. */
START_TEST(test_replay_loose_hits_counted)
{
	static const uint8_t req[4] = { 1, 2, 3, 4 }, stray[4] = { 1, 2, 3, 0x99 },
			     answer[4] = { 0xde, 0xad, 0xbe, 0xef };
	const struct ec_rec hello = { .kind = EC_REC_XCMD, .command = EC_CMD_HELLO,
				      .out_size = 4, .in_size = 4, .ret = 4, .req_known = true,
				      .req = req, .data_len = 4, .data = answer };
	struct ec_recording *rec;
	struct ec_replay *replay;
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	struct chardev_stats st;
	char text[CHARDEV_STATS_TEXT_MAX];
	uint8_t resp[4];
	uint32_t result;

	ck_assert_int_eq(ec_recording_create(&rec), 0);
	ck_assert_int_eq(ec_recording_add(rec, &hello), 0);
	ck_assert_int_eq(ec_replay_create(rec, EC_REPLAY_MISS_INVALID, EC_REPLAY_MATCH_ORDER,
					  &replay), 0);
	ctx = ctx_with(NULL, replay, &lc);
	file = harness_open(ctx);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, stray, 4, resp, 4, &result), 4);
	ck_assert_mem_eq(resp, answer, 4);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, req, 4, resp, 4, &result), 4);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.replay_hits, 1);
	ck_assert_uint_eq(st.replay_loose_hits, 1);
	ck_assert_uint_eq(st.replay_misses, 0);
	chardev_stats_format(&st, text, sizeof(text));
	ck_assert_msg(strstr(text, " replay_hits=1 replay_loose_hits=1 replay_misses=0 "), "%s",
		      text);
	chardev_release(file);
	harness_ctx_free(ctx);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
}
END_TEST

static Suite *record_suite(void)
{
	Suite *s = suite_create("chardev_record");
	TCase *tc = tcase_create("record");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_a_session_recorded);
	tcase_add_test(tc, test_several_files_one_order);
	tcase_add_test(tc, test_write_errors_counted_logged_once);
	tcase_add_test(tc, test_replay_over_the_profile);
	tcase_add_test(tc, test_replay_loose_hits_counted);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(record_suite());
}
