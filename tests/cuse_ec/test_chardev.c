// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev.c - the /dev/cros_ec file operations through the seam, as the
 * kernel would drive them: every ioctl path and its bad inputs, read/poll,
 * parked reads, unplug/replug and the lifecycle modes' distinct behaviour.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

#define EV_BUTTON 3	/* MKBP event type used by these tests */

static struct chardev_file *open_ok(struct chardev_ctx *ctx)
{
	struct chardev_file *file = NULL;

	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	ck_assert_ptr_nonnull(file);
	return file;
}

static long hello(struct chardev_file *file, uint32_t in, uint32_t *out)
{
	uint32_t result = 0xdead, resp = 0;
	long ret;

	ret = do_xcmd(file, EC_CMD_HELLO, 0, &in, sizeof(in), &resp, sizeof(resp), &result);
	if (ret >= 0) {
		ck_assert_uint_eq(result, EC_RES_SUCCESS);
		if (out)
			*out = resp;
	}
	return ret;
}

struct inject_arg {
	uint8_t type;
	uint8_t payload[4];
	size_t len;
};

static int inject_cb(struct ec *ec, void *arg)
{
	struct inject_arg *ia = arg;

	return ec_inject_event(ec, ia->type, ia->payload, ia->len);
}

static void inject(struct chardev_ctx *ctx, uint8_t type)
{
	struct inject_arg ia = { .type = type, .payload = { 1, 2, 3, 4 }, .len = 4 };

	ck_assert_int_eq(chardev_with_ec(ctx, inject_cb, &ia), 0);
}

START_TEST(test_open_needs_an_ec)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = NULL;
	struct chardev_stats st;

	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_unplug(ctx), -ENODEV);
	ck_assert_int_eq(chardev_open(ctx, &file), -ENODEV);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), -EBUSY);
	file = open_ok(ctx);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.opens, 1);
	ck_assert_uint_eq(st.open_enodev, 1);
	ck_assert_uint_eq(st.open_files, 1);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_version_text_then_eof)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	char buf[128] = { 0 };
	int n;

	n = do_read(ctx, file, buf, 79, false, 1000);
	ck_assert_int_gt(n, 6);
	ck_assert_int_le(n, 79);
	ck_assert_mem_eq(buf, "1.0.0\n", 6);
	/* Like the kernel: a later read (non-zero offset) is end of file. */
	ck_assert_int_eq(do_read(ctx, file, buf, 79, false, 1000), 0);
	chardev_release(file);

	/* A short buffer gets a truncated text, never an overflow. */
	file = open_ok(ctx);
	memset(buf, 0x55, sizeof(buf));
	ck_assert_int_eq(do_read(ctx, file, buf, 3, false, 1000), 3);
	ck_assert_mem_eq(buf, "1.0", 3);
	ck_assert_uint_eq((unsigned char)buf[3], 0x55);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_readmem)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	long ret;

	ret = do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0);
	ck_assert_int_eq(ret, 2);
	ck_assert_mem_eq(mem.buffer, "EC", 2);

	/* bytes = 0: a NUL-terminated string, the count includes the NUL. */
	memset(&mem, 0, sizeof(mem));
	mem.offset = 0x60;	/* battery manufacturer */
	ret = do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0);
	ck_assert_int_gt(ret, 0);
	ck_assert_uint_eq(mem.buffer[ret - 1], 0);

	/* More than the 255-byte buffer: EINVAL. */
	mem.offset = 0;
	mem.bytes = 256;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0), -EINVAL);
	mem.bytes = 0xffffffffu;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0), -EINVAL);
	/* A range past the end of the map: the EC refuses it. */
	mem.offset = 250;
	mem.bytes = 10;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0), -EINVAL);
	mem.offset = 0xffffffffu;
	mem.bytes = 1;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0), -EINVAL);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_readmem_bad_retry_sizes)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct chardev_ioctl_result res;
	unsigned char buf[300] = { 0 };

	chardev_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, 0x1000, 0, NULL, 0, 0, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_RETRY);
	ck_assert_uint_eq(res.in_iov.len, 264);
	ck_assert_uint_eq(res.out_iov.len, 264);
	ck_assert_uint_eq(res.in_iov.base, 0x1000);
	/* Anything but the full struct both ways is a protocol violation. */
	chardev_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, 0x1000, 0, buf, 100, 264, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_ERROR);
	ck_assert_int_eq(res.ret, -EINVAL);
	chardev_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, 0x1000, 0, buf, 264, 0, &res);
	ck_assert_int_eq(res.ret, -EINVAL);
	chardev_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, 0x1000, 0, buf, 300, 300, &res);
	ck_assert_int_eq(res.ret, -EINVAL);
	/* Bytes promised but no buffer: EFAULT, not a crash. */
	chardev_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, 0x1000, 0, NULL, 264, 264, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_ERROR);
	ck_assert_int_eq(res.ret, -EFAULT);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_xcmd_hello_and_protocol_info)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct ec_response_get_protocol_info info;
	uint32_t out = 0, result = 0xff;
	struct chardev_stats st;

	ck_assert_int_eq(hello(file, 0x10203040u, &out), 4);
	ck_assert_uint_eq(out, 0x10203040u + EC_HELLO_MAGIC);

	ck_assert_int_eq(do_xcmd(file, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, &info,
				 sizeof(info), &result), 12);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert_uint_gt(info.max_request_packet_size, 8);
	ck_assert_uint_gt(info.max_response_packet_size, 8);

	/* EC-level failure: return >= 0, status in result. */
	ck_assert_int_eq(do_xcmd(file, 0x3fff, 0, NULL, 0, &info, sizeof(info), &result), 0);
	ck_assert_uint_eq(result, EC_RES_INVALID_COMMAND);

	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.ioctl_ok, 2);
	ck_assert_uint_eq(st.ioctl_ec_error, 1);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_xcmd_sizes)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct ec_response_get_protocol_info info;
	struct cros_ec_command_v2 *cmd;
	uint32_t result, max_req, max_resp;
	size_t room = 66000;
	long ret;

	ck_assert_int_eq(do_xcmd(file, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, &info,
				 sizeof(info), &result), 12);
	max_req = info.max_request_packet_size - 8u;
	max_resp = info.max_response_packet_size - 8u;

	cmd = calloc(1, sizeof(*cmd) + room);
	ck_assert_ptr_nonnull(cmd);

	/* Above 64 KiB either way: EINVAL before anything is run. */
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = CROS_EC_MAX_XCMD_PAYLOAD + 1;
	cmd->insize = 4;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0), -EINVAL);
	cmd->outsize = 4;
	cmd->insize = CROS_EC_MAX_XCMD_PAYLOAD + 1;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0), -EINVAL);
	cmd->outsize = 0xffffffffu;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0), -EINVAL);

	/* A request larger than the EC takes: EMSGSIZE. */
	cmd->outsize = max_req + 1;
	cmd->insize = 4;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0), -EMSGSIZE);

	/* A response buffer larger than the EC sends: clamped, works. */
	memset(cmd, 0, sizeof(*cmd));
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	cmd->insize = CROS_EC_MAX_XCMD_PAYLOAD;
	ret = do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0);
	ck_assert_int_eq(ret, 4);
	ck_assert_uint_eq(cmd->result, EC_RES_SUCCESS);
	ck_assert_uint_eq(cmd->insize, max_resp);

	/* Fewer request bytes than the struct: zero-filled, not rejected. */
	memset(cmd, 0, sizeof(*cmd) + 8);
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 1;
	cmd->insize = 4;
	cmd->data[0] = 1;
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0), 4);
	ck_assert_uint_eq(cmd->result, EC_RES_SUCCESS);

	/* insize 0: nothing to return, still a success. */
	memset(cmd, 0, sizeof(*cmd) + 8);
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	ret = do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0);
	ck_assert_int_ge(ret, 0);
	free(cmd);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_xcmd_retry_protocol_violations)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	unsigned char buf[64] = { 0 };
	struct cros_ec_command_v2 *hdr = (void *)buf;
	struct chardev_ioctl_result res;
	const unsigned int xcmd = CROS_EC_DEV_IOCXCMD_V2;

	/* Step 1: only the header is asked for. */
	chardev_ioctl(file, xcmd, 0x2000, 0, NULL, 0, 0, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_RETRY);
	ck_assert_uint_eq(res.in_count, 1);
	ck_assert_uint_eq(res.in_iov.len, 20);
	ck_assert_uint_eq(res.out_count, 0);

	/* Step 2: header -> 20 + outsize in, 20 + insize out. */
	hdr->command = EC_CMD_HELLO;
	hdr->outsize = 4;
	hdr->insize = 8;
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 20, 0, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_RETRY);
	ck_assert_uint_eq(res.in_iov.len, 24);
	ck_assert_uint_eq(res.out_iov.len, 28);
	ck_assert_uint_eq(res.out_iov.base, 0x2000);

	/* Short header. */
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 12, 0, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_ERROR);
	ck_assert_int_eq(res.ret, -EINVAL);
	/* More than a header in step 2. */
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 24, 0, &res);
	ck_assert_int_eq(res.ret, -EINVAL);

	/* Step 3 where the caller changed outsize between the copies. */
	hdr->outsize = 8;
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 24, 28, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_ERROR);
	ck_assert_int_eq(res.ret, -EINVAL);
	/* ... or insize. */
	hdr->outsize = 4;
	hdr->insize = 16;
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 24, 28, &res);
	ck_assert_int_eq(res.ret, -EINVAL);
	/* ... or a size grew past 64 KiB. */
	hdr->insize = 0x7fffffff;
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 24, 28, &res);
	ck_assert_int_eq(res.ret, -EINVAL);

	/* The consistent step 3 runs the command. */
	hdr->insize = 8;
	chardev_ioctl(file, xcmd, 0x2000, 0, buf, 24, 28, &res);
	ck_assert_int_eq(res.action, CHARDEV_IOCTL_REPLY);
	ck_assert_int_eq(res.ret, 4);
	ck_assert_uint_eq(res.out_len, 28);
	chardev_ioctl_result_free(&res);

	/* Bytes promised but none given. */
	chardev_ioctl(file, xcmd, 0x2000, 0, NULL, 24, 28, &res);
	ck_assert_int_eq(res.ret, -EFAULT);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_enotty)
{
	static const unsigned int bad[] = {
		CROS_EC_DEV_IOCXCMD_V1, CROS_EC_DEV_IOCRDMEM_V1, 0, 0xffffffffu,
		_IO(0xEC, 3), _IOWR(0xEC, 0, uint64_t), _IOWR(0xEC, 1, uint32_t),
		0xC014EB00u, 0x5401 /* TCGETS */,
	};
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	unsigned char buf[512] = { 0 };
	struct chardev_stats st;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(do_ioctl(file, bad[i], buf, 0), -ENOTTY);
	/* ... and the same once the EC is gone: the number decides first. */
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(do_ioctl(file, bad[i], buf, CHARDEV_IOCTL_COMPAT), -ENOTTY);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.ioctl_enotty, 2 * (sizeof(bad) / sizeof(bad[0])));
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_compat_callers_same_layout)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	unsigned char buf[sizeof(struct cros_ec_command_v2) + 4] = { 0 };
	struct cros_ec_command_v2 *cmd = (void *)buf;
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	uint32_t in = 7, out;

	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	cmd->insize = 4;
	memcpy(cmd->data, &in, 4);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, CHARDEV_IOCTL_COMPAT), 4);
	memcpy(&out, cmd->data, 4);
	ck_assert_uint_eq(out, 7 + EC_HELLO_MAGIC);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, CHARDEV_IOCTL_COMPAT), 2);
	ck_assert_mem_eq(mem.buffer, "EC", 2);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2, (void *)(uintptr_t)8,
				  CHARDEV_IOCTL_COMPAT), 0);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_events_read_poll_nonblock)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct chardev_file *other = open_ok(ctx);
	struct fake_poll ph = { 0 };
	unsigned char buf[64];
	int n;

	/* The EVENTMASK argument is the mask itself, not a pointer. */
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2,
				  (void *)(uintptr_t)(1u << EV_BUTTON), 0), 0);
	ck_assert_uint_eq(chardev_poll(file, &ph), 0);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), -EAGAIN);

	inject(ctx, EV_BUTTON);
	ck_assert_int_ge(__atomic_load_n(&ph.notified, __ATOMIC_SEQ_CST), 1);
	ck_assert_uint_eq(chardev_poll(file, NULL), CHARDEV_POLLIN | CHARDEV_POLLRDNORM);
	n = do_read(ctx, file, buf, sizeof(buf), true, 0);
	ck_assert_int_eq(n, 5);
	ck_assert_uint_eq(buf[0], EV_BUTTON);
	ck_assert_mem_eq(buf + 1, "\x01\x02\x03\x04", 4);
	ck_assert_uint_eq(chardev_poll(file, NULL), 0);

	/* Truncated to the read length, and consumed. */
	inject(ctx, EV_BUTTON);
	ck_assert_int_eq(do_read(ctx, file, buf, 2, true, 0), 2);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), -EAGAIN);
	/* A zero-length read consumes nothing. */
	inject(ctx, EV_BUTTON);
	ck_assert_int_eq(do_read(ctx, file, buf, 0, true, 0), 0);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), 5);

	/* A type outside the mask is not delivered; the other file has no mask. */
	inject(ctx, EV_BUTTON + 1);
	ck_assert_int_eq(do_read(ctx, file, buf, sizeof(buf), true, 0), -EAGAIN);
	ck_assert_uint_eq(chardev_poll(other, NULL), 0);
	n = do_read(ctx, other, buf, sizeof(buf), true, 0);
	ck_assert_int_gt(n, 0);	/* mask 0: the version text */

	chardev_release(other);
	chardev_release(file);
	ck_assert_int_eq(ph.destroyed, 1);
	harness_ctx_free(ctx);
}
END_TEST

struct reader_arg {
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	int result;
	unsigned char buf[64];
	int wait_ms;
};

static void *blocking_reader(void *p)
{
	struct reader_arg *ra = p;

	ra->result = do_read(ra->ctx, ra->file, ra->buf, sizeof(ra->buf), false, ra->wait_ms);
	return NULL;
}

START_TEST(test_blocked_reader_gets_event)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct reader_arg ra = { .ctx = ctx, .wait_ms = 10000 };
	pthread_t t;

	ra.file = open_ok(ctx);
	ck_assert_int_eq(do_ioctl(ra.file, CROS_EC_DEV_IOCEVENTMASK_V2,
				  (void *)(uintptr_t)(1u << EV_BUTTON), 0), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, blocking_reader, &ra), 0);
	WAIT_UNTIL(STAT_NOW(ctx, parked_reads) >= 1);
	inject(ctx, EV_BUTTON);
	pthread_join(t, NULL);
	ck_assert_int_eq(ra.result, 5);
	ck_assert_uint_eq(ra.buf[0], EV_BUTTON);
	chardev_release(ra.file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_unplug_wakes_reader_and_poller)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct reader_arg ra = { .ctx = ctx, .wait_ms = 10000 };
	struct fake_poll ph = { 0 };
	unsigned char buf[300] = { 0 };
	pthread_t t;

	ra.file = open_ok(ctx);
	ck_assert_int_eq(do_ioctl(ra.file, CROS_EC_DEV_IOCEVENTMASK_V2,
				  (void *)(uintptr_t)(1u << EV_BUTTON), 0), 0);
	ck_assert_uint_eq(chardev_poll(ra.file, &ph), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, blocking_reader, &ra), 0);
	WAIT_UNTIL(STAT_NOW(ctx, parked_reads) >= 1);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(ra.result, -ENODEV);
	ck_assert_int_ge(ph.notified, 1);
	ck_assert_uint_eq(chardev_poll(ra.file, NULL), CHARDEV_POLLERR);

	/*
	 * What follows the EC pointer fails with ENODEV; what is the file's
	 * own answers as the fixed driver does (test_chardev_unplug.c has every
	 * row); release still succeeds.
	 */
	ck_assert_int_eq(do_read(ctx, ra.file, buf, 10, false, 1000), -ENODEV);
	/* Non-blocking too: poll says POLLERR, so read must not say "try again". */
	ck_assert_int_eq(do_read(ctx, ra.file, buf, 10, true, 1000), -ENODEV);
	ck_assert_int_eq(hello(ra.file, 1, NULL), -ENODEV);
	ck_assert_int_eq(do_ioctl(ra.file, CROS_EC_DEV_IOCRDMEM_V2, buf, 0), -ENODEV);
	ck_assert_int_eq(do_ioctl(ra.file, CROS_EC_DEV_IOCEVENTMASK_V2, (void *)1, 0), 0);
	chardev_release(ra.file);
	ck_assert_int_eq(ph.destroyed, 1);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_replug_old_files_stay_dead)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *old = open_ok(ctx), *fresh;
	char buf[128];

	ck_assert_int_eq(hello(old, 1, NULL), 4);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	fresh = open_ok(ctx);
	ck_assert_int_eq(hello(old, 1, NULL), -ENODEV);
	ck_assert_int_eq(do_read(ctx, old, buf, 79, false, 100), -ENODEV);
	ck_assert_int_eq(hello(fresh, 1, NULL), 4);
	ck_assert_int_gt(do_read(ctx, fresh, buf, 79, false, 100), 0);
	chardev_release(old);
	chardev_release(fresh);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_text_read_after_unplug_is_enodev)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	char buf[128];

	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(do_read(ctx, file, buf, 79, false, 100), -ENODEV);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_read_cancel_and_interrupt)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	unsigned char buf[CHARDEV_READ_MAX];
	struct fake_read r;
	size_t len;

	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2, (void *)0xff, 0), 0);
	/* Parked, then a signal: completed once with EINTR (harness checks). */
	ck_assert_int_eq(do_read(ctx, file, buf, 64, false, 20), -ETIMEDOUT);

	/* Interrupted before it could park: EINTR at once. */
	fake_read_init(&r);
	r.interrupted = true;
	ck_assert_int_eq(chardev_read(file, 64, false, &r, buf, &len), -EINTR);
	ck_assert_int_eq(r.completions, 0);

	/* Cancelling an unknown or finished request is harmless. */
	chardev_read_cancel(ctx, &r);
	ck_assert_int_eq(r.completions, 0);

	/* A read parked at release is completed (EBADF), never leaked. */
	fake_read_init(&r);
	ck_assert_int_eq(chardev_read(file, 64, false, &r, buf, &len), CHARDEV_READ_PARKED);
	chardev_release(file);
	ck_assert(fake_read_wait(&r, 1000));
	ck_assert_int_eq(r.completions, 1);
	ck_assert_int_eq(r.result, -EBADF);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_poll_handle_replaced)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_ok(ctx);
	struct fake_poll a = { 0 }, b = { 0 };

	ck_assert_uint_eq(chardev_poll(file, &a), 0);
	ck_assert_uint_eq(chardev_poll(file, &a), 0);
	ck_assert_int_eq(a.destroyed, 0);
	ck_assert_uint_eq(chardev_poll(file, &b), 0);
	ck_assert_int_eq(a.destroyed, 1);
	chardev_release(file);
	ck_assert_int_eq(b.destroyed, 1);
	ck_assert_int_eq(a.destroyed, 1);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_refcount_zombies)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REFCOUNT);
	struct chardev_file *file = open_ok(ctx), *dummy;
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	struct chardev_stats st;
	uint32_t out = 0;

	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_open(ctx, &dummy), -ENODEV);
	/* The teaching point: the gone EC still "answers". */
	ck_assert_int_eq(hello(file, 1, &out), 4);
	ck_assert_uint_eq(out, 1 + EC_HELLO_MAGIC);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0), 2);
	chardev_stats(ctx, &st);
	ck_assert_uint_ge(st.zombie_accesses, 2);
	ck_assert_uint_eq(st.ioctl_enodev, 0);
	/* The daemon itself no longer reaches it. */
	ck_assert_int_eq(chardev_set_latency(ctx, 1), -ENODEV);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_unsafe_mode_before_unplug)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_UNSAFE);
	struct chardev_file *file = open_ok(ctx);

	/* Until the EC goes, unsafe mode works like the others. */
	ck_assert_int_eq(hello(file, 1, NULL), 4);
	chardev_release(file);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	harness_ctx_free(ctx);
}
END_TEST

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * The cached clock reaches @target, a real time read before, within a
 * deadline generous for any machine: how far behind it may lag depends on
 * when its ticker thread gets a CPU, so no bound on the lag is asserted.
 */
static void assert_clock_reaches(const struct ec_clock *ops, uint64_t target, const char *when)
{
	uint64_t deadline = real_ns() + 10000000000ULL;

	while (ops->now_ns(ops->ctx) < target) {
		ck_assert_msg(real_ns() < deadline,
			      "the cached clock did not reach the real time read %s within 10 s", when);
		usleep(1000);
	}
}

/* The daemon's cached clock: follows real time, monotonic, also after idling. */
START_TEST(test_cached_clock)
{
	struct cached_clock *clock;
	const struct ec_clock *ops;
	uint64_t last = 0, t, before;
	int i;

	ck_assert_int_eq(cached_clock_create(&clock), 0);
	ops = cached_clock_ops(clock);
	for (i = 0; i < 2000; i++) {
		before = real_ns();
		t = ops->now_ns(ops->ctx);
		ck_assert_uint_ge(t, last);
		ck_assert_uint_le(t, real_ns());
		last = t;
		if (i % 100 == 0) {
			assert_clock_reaches(ops, before, "while in use");
			usleep(2000);
		}
	}
	/* Idle long enough for the ticker to park: still accurate after. */
	usleep(300000);
	before = real_ns();
	t = ops->now_ns(ops->ctx);
	ck_assert_uint_ge(t, last);
	ck_assert_uint_le(t, real_ns());
	assert_clock_reaches(ops, before, "after idling");
	/* Injected latency really sleeps. */
	before = real_ns();
	ops->sleep_ns(ops->ctx, 20000000);
	ck_assert_uint_ge(real_ns() - before, 20000000);
	cached_clock_destroy(clock);
	cached_clock_destroy(NULL);
}
END_TEST

/* ---- the lifecycle interface on its own ---- */

static struct ec *new_ec(void)
{
	struct ec_profile *profile;
	struct ec *ec;

	ck_assert_int_eq(ec_profile_default(&profile), 0);
	ck_assert_int_eq(ec_create(profile, NULL, &ec), 0);
	ec_profile_free(profile);
	return ec;
}

static void zombie_count(void *arg)
{
	(*(int *)arg)++;
}

START_TEST(test_lifecycle_revocable)
{
	struct lifecycle_ref *ref, *late;
	struct lifecycle *lc;
	struct ec *ec;

	ck_assert_int_eq(lifecycle_create(LIFECYCLE_REVOCABLE, new_ec(), NULL, &lc), 0);
	ck_assert_int_eq(lifecycle_mode_of(lc), LIFECYCLE_REVOCABLE);
	ck_assert_int_eq(lifecycle_attach(lc, &ref), 0);
	ec = lifecycle_access(ref);
	ck_assert_ptr_nonnull(ec);
	/* Unplugging from inside an access of the same EC: refused, not a hang. */
	ck_assert_int_eq(lifecycle_unplug(lc), -EDEADLK);
	ck_assert(!lifecycle_is_unplugged(lc));
	lifecycle_release(ref);
	ck_assert_int_eq(lifecycle_unplug(lc), 1);
	ck_assert_int_eq(lifecycle_unplug(lc), 0);
	ck_assert(lifecycle_is_unplugged(lc));
	ck_assert_ptr_null(lifecycle_access(ref));
	lifecycle_release(ref);
	ck_assert_ptr_null(lifecycle_access_owner(lc));
	lifecycle_release_owner(lc);
	/* Attaching after the unplug is safe and yields nothing. */
	ck_assert_int_eq(lifecycle_attach(lc, &late), 0);
	ck_assert_ptr_null(lifecycle_access(late));
	lifecycle_release(late);
	lifecycle_detach(late);
	lifecycle_detach(ref);
	lifecycle_detach(NULL);
	lifecycle_put(lc);
	lifecycle_put(NULL);
}
END_TEST

START_TEST(test_lifecycle_refcount_and_unsafe)
{
	struct lifecycle_ref *ref;
	struct lifecycle *lc;
	int zombies = 0;
	const struct lifecycle_hooks hooks = { .on_zombie = zombie_count, .arg = &zombies };

	ck_assert_int_eq(lifecycle_create(LIFECYCLE_REFCOUNT, new_ec(), &hooks, &lc), 0);
	ck_assert_int_eq(lifecycle_attach(lc, &ref), 0);
	ck_assert_ptr_nonnull(lifecycle_access(ref));
	lifecycle_release(ref);
	ck_assert_int_eq(zombies, 0);
	ck_assert_int_eq(lifecycle_unplug(lc), 1);
	ck_assert_int_eq(lifecycle_unplug(lc), 0);
	/* The file still reaches the EC, and each time it counts as a zombie. */
	ck_assert_ptr_nonnull(lifecycle_access(ref));
	lifecycle_release(ref);
	ck_assert_ptr_nonnull(lifecycle_access(ref));
	lifecycle_release(ref);
	ck_assert_int_eq(zombies, 2);
	ck_assert_ptr_null(lifecycle_access_owner(lc));
	lifecycle_release_owner(lc);
	lifecycle_put(lc);	/* the file's reference keeps the EC alive */
	ck_assert_ptr_nonnull(lifecycle_access(ref));
	lifecycle_release(ref);
	lifecycle_detach(ref);	/* last reference: EC freed (LSan checks) */

	ck_assert_int_eq(lifecycle_create(LIFECYCLE_UNSAFE, new_ec(), NULL, &lc), 0);
	ck_assert_int_eq(lifecycle_attach(lc, &ref), 0);
	ck_assert_ptr_nonnull(lifecycle_access(ref));
	lifecycle_release(ref);
	ck_assert_ptr_nonnull(lifecycle_access_owner(lc));
	lifecycle_release_owner(lc);
	ck_assert_int_eq(lifecycle_unplug(lc), 1);
	ck_assert_int_eq(lifecycle_unplug(lc), 0);
	ck_assert_ptr_null(lifecycle_access_owner(lc));
	lifecycle_release_owner(lc);
	lifecycle_detach(ref);	/* never accessed again: that would be the UAF */
	lifecycle_put(lc);

	/* A bad mode is refused, and the EC handed over is still freed. */
	ck_assert_int_eq(lifecycle_create((enum lifecycle_mode)7, new_ec(), NULL, &lc),
			 -EINVAL);
	ck_assert_int_eq(lifecycle_create(LIFECYCLE_REVOCABLE, NULL, NULL, &lc), -EINVAL);
}
END_TEST

static void async_done(void *arg)
{
	__atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST);
}

START_TEST(test_lifecycle_async_all_modes)
{
	enum lifecycle_mode mode;
	struct lifecycle *lc;
	int done;

	for (mode = 0; mode < lifecycle_mode_count(); mode++) {
		done = 0;
		ck_assert_int_eq(lifecycle_create(mode, new_ec(), NULL, &lc), 0);
		ck_assert_int_eq(lifecycle_unplug_async(lc, async_done, &done), 1);
		while (!__atomic_load_n(&done, __ATOMIC_SEQ_CST))
			usleep(1000);
		ck_assert_int_eq(lifecycle_unplug_async(lc, async_done, &done), 0);
		ck_assert_int_eq(lifecycle_unplug(lc), 0);
		lifecycle_put(lc);
	}
	/* One past the table is no mode: refused, the EC freed (ASan would see a leak). */
	ck_assert_int_eq(lifecycle_create(mode, new_ec(), NULL, &lc), -EINVAL);
}
END_TEST

#ifdef HAVE_ASAN
/*
 * Unsafe mode's whole point: a file used after unplug reads freed EC memory.
 * Under ASan a child does exactly that and must die with ASan's report.
 */
static void use_after_free(void *arg)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_UNSAFE);
	struct chardev_file *file = open_ok(ctx);

	(void)arg;
	chardev_unplug(ctx);
	hello(file, 1, NULL);	/* use after free */
}

START_TEST(test_unsafe_mode_use_after_free_is_caught)
{
	static char report[8192];

	ck_assert(!harness_child_report(use_after_free, NULL, report, sizeof(report)));
	ck_assert_msg(strstr(report, "heap-use-after-free"), "no ASan report:\n%s", report);
}
END_TEST
#endif

static Suite *chardev_suite(void)
{
	Suite *s = suite_create("chardev");
	TCase *tc = tcase_create("ops");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_open_needs_an_ec);
	tcase_add_test(tc, test_version_text_then_eof);
	tcase_add_test(tc, test_readmem);
	tcase_add_test(tc, test_readmem_bad_retry_sizes);
	tcase_add_test(tc, test_xcmd_hello_and_protocol_info);
	tcase_add_test(tc, test_xcmd_sizes);
	tcase_add_test(tc, test_xcmd_retry_protocol_violations);
	tcase_add_test(tc, test_enotty);
	tcase_add_test(tc, test_compat_callers_same_layout);
	tcase_add_test(tc, test_events_read_poll_nonblock);
	tcase_add_test(tc, test_blocked_reader_gets_event);
	tcase_add_test(tc, test_unplug_wakes_reader_and_poller);
	tcase_add_test(tc, test_replug_old_files_stay_dead);
	tcase_add_test(tc, test_text_read_after_unplug_is_enodev);
	tcase_add_test(tc, test_read_cancel_and_interrupt);
	tcase_add_test(tc, test_poll_handle_replaced);
	tcase_add_test(tc, test_refcount_zombies);
	tcase_add_test(tc, test_unsafe_mode_before_unplug);
	tcase_add_test(tc, test_cached_clock);
	tcase_add_test(tc, test_lifecycle_revocable);
	tcase_add_test(tc, test_lifecycle_refcount_and_unsafe);
	tcase_add_test(tc, test_lifecycle_async_all_modes);
#ifdef HAVE_ASAN
	tcase_add_test(tc, test_unsafe_mode_use_after_free_is_caught);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(chardev_suite());
}
