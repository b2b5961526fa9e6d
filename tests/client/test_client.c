// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_client.c - the client library and ecctl against the fake device:
 * start-up (and each step's failure), the raw ioctls, typed helpers and
 * their output, argument parsing, concurrency and unplug.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cros_ec/cros_ec_dev.h>
#include <cros_ec/ec_commands.h>

#include "client/ec_client.h"
#include "client/ecctl_cli.h"
#include "tests/client/fake_dev.h"
#include "../check_run.h"

/* Ends the argument lists of the variadic helpers below. */
#define END ((const char *)NULL)

/*
 * Per-test fixture. Check runs each test in its own forked process, so a
 * file-scope fixture is private to one test.
 */
static struct canned_ec *canned;
static struct fake_dev dev;

static void setup(void)
{
	canned = calloc(1, sizeof(*canned));
	ck_assert_ptr_nonnull(canned);
	canned_ec_init(canned);
	fake_dev_init(&dev, &canned_backend, canned);
}

static void teardown(void)
{
	fake_dev_destroy(&dev);
	free(canned);
}

static struct ec_client *attach_ok(unsigned int flags)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;
	int ret;

	ret = ec_client_attach(&fake_transport, &dev, flags, &err, &c);
	ck_assert_msg(ret == 0, "attach failed: %d %s", ret, err.message);
	return c;
}

/* ---- start-up ---- */

/*
 * The start-up cases, one row each: what is wrong with the device (or
 * nothing), then either the error ec_client_attach() must return with the
 * step and words of its message, or what the attached client must say.
 * Every failure message starts with the row's name.
 */
struct startup_case {
	const char *name;
	unsigned int flags;			/* ec_client_attach() flags */
	const char *version_text;		/* read() text; NULL: the real one */
	void (*arrange)(void);			/* anything else to break; or NULL */
	int want_ret;				/* 0: attached */
	enum ec_client_step want_step;		/* when not: the step blamed */
	const char *want_words[2];		/* ... and words of the message */
	void (*check)(const char *name, struct ec_client *c); /* when attached */
};

static void check_real_ec(const char *name, struct ec_client *c)
{
	ck_assert_msg(ec_client_max_request(c) == 0x88 - 8, "%s: max request %zu", name,
		      (size_t)ec_client_max_request(c));
	ck_assert_msg(ec_client_max_response(c) == 0x108 - 8, "%s: max response %zu", name,
		      (size_t)ec_client_max_response(c));
	ck_assert_msg(ec_client_has_direct_memmap(c), "%s: no direct memmap", name);
	ck_assert_msg(!strcmp(ec_client_version_text(c), "1.0.0\nro-1.2\nrw-1.3\nread-write\n"),
		      "%s: version text \"%s\"", name, ec_client_version_text(c));
}

static void break_everything(void)
{
	dev.version_override = "garbage";
	dev.v1_ret = 0;
}

static void check_raw_untouched(const char *name, struct ec_client *c)
{
	ck_assert_msg(dev.ioctl_calls == 0, "%s: %u ioctls at attach", name,
		      (unsigned int)dev.ioctl_calls);
	ck_assert_msg(ec_client_max_request(c) == EC_CLIENT_DEFAULT_MAX_PAYLOAD,
		      "%s: max request %zu", name, (size_t)ec_client_max_request(c));
	ck_assert_msg(!strcmp(ec_client_version_text(c), ""), "%s: version text \"%s\"", name,
		      ec_client_version_text(c));
}

static void check_attached(const char *name, struct ec_client *c)
{
	ck_assert_msg(c != NULL, "%s: no client", name);
}

static void device_gone(void)
{
	fake_dev_set_gone(&dev, ENODEV);
}

static void v1_probe_accepted(void)
{
	dev.v1_ret = 0;
}

static void v1_probe_eacces(void)
{
	dev.v1_ret = -EACCES;
}

static void memmap_id_wrong(void)
{
	canned->memmap[EC_MEMMAP_ID + 1] = 'X';
}

static void readmem_enotty(void)
{
	dev.readmem_err = -ENOTTY;
}

static void readmem_enotty_no_read_memmap(void)
{
	dev.readmem_err = -ENOTTY;
	canned->ver_mask[EC_CMD_READ_MEMMAP] = 0;
}

static void readmem_efault(void)
{
	dev.readmem_err = -EFAULT;
}

/* Later reads go through READ_MEMMAP and see the same bytes. */
static void check_memmap_through_command(const char *name, struct ec_client *c)
{
	uint8_t buf[4];
	int ret;

	ck_assert_msg(!ec_client_has_direct_memmap(c), "%s: direct memmap claimed", name);
	ret = ec_client_readmem(c, EC_MEMMAP_BATT_VOLT, 4, buf);
	ck_assert_msg(ret == 4, "%s: readmem returned %d", name, ret);
	ck_assert_msg((buf[0] | buf[1] << 8) == 12100, "%s: battery voltage %d", name,
		      buf[0] | buf[1] << 8);
}

static void protoinfo_empty(void)
{
	canned->protoinfo_len = 0;
}

static void protoinfo_8_bytes(void)
{
	canned->protoinfo_len = 8;
}

static void protoinfo_11_bytes(void)
{
	canned->protoinfo_len = 11;
}

static void protoinfo_access_denied(void)
{
	canned->fail_command = EC_CMD_GET_PROTOCOL_INFO;
	canned->fail_status = EC_RES_ACCESS_DENIED;
}

/* Max request 0 makes every XCMD with a request EMSGSIZE; protoinfo has none. */
static void protoinfo_tiny_packets(void)
{
	canned->max_req_pkt = 8;
	canned->max_resp_pkt = 0x108;
}

#define BAD_VERSION_TEXT(text)                                                     \
	{ "version text " #text, 0, text, NULL, -EPROTO, EC_STEP_VERSION_TEXT,     \
	  { "step 1", "expected \"1.0.0\"" }, NULL }

static const struct startup_case startup_cases[] = {
	{ "a real EC", 0, NULL, NULL, 0, EC_STEP_NONE, { NULL }, check_real_ec },
	{ "EC_CLIENT_RAW skips every step", EC_CLIENT_RAW, NULL, break_everything, 0,
	  EC_STEP_NONE, { NULL }, check_raw_untouched },
	BAD_VERSION_TEXT("1.0.1\nro\nrw\nread-write\n"),
	BAD_VERSION_TEXT("1.0.\n"),
	BAD_VERSION_TEXT(""),
	BAD_VERSION_TEXT("2.0.0\n"),
	BAD_VERSION_TEXT("1.0.00\n"),
	BAD_VERSION_TEXT(" 1.0.0\n"),
	BAD_VERSION_TEXT("1.0.0x\n"),
	{ "version text without a newline", 0, "1.0.0", NULL, 0, EC_STEP_NONE, { NULL },
	  check_attached },
	{ "reading the version text fails", 0, NULL, device_gone, -ENODEV,
	  EC_STEP_VERSION_TEXT, { "reading the version text failed" }, NULL },
	{ "v1 probe succeeds", 0, NULL, v1_probe_accepted, -EPROTO, EC_STEP_V1_PROBE,
	  { "succeeded" }, NULL },
	{ "v1 probe fails EACCES", 0, NULL, v1_probe_eacces, -EACCES, EC_STEP_V1_PROBE,
	  { "expected ENOTTY" }, NULL },
	{ "no \"EC\" in the memmap", 0, NULL, memmap_id_wrong, -EPROTO, EC_STEP_MEMMAP_ID,
	  { "expected \"EC\"" }, NULL },
	{ "READMEM ENOTTY: READ_MEMMAP instead", 0, NULL, readmem_enotty, 0, EC_STEP_NONE,
	  { NULL }, check_memmap_through_command },
	{ "READMEM ENOTTY and no READ_MEMMAP", 0, NULL, readmem_enotty_no_read_memmap,
	  EC_CLIENT_EC_ERR(EC_RES_INVALID_COMMAND), EC_STEP_MEMMAP_ID,
	  { "READ_MEMMAP", "EC error INVALID_COMMAND" }, NULL },
	{ "READMEM EFAULT", 0, NULL, readmem_efault, -EFAULT, EC_STEP_MEMMAP_ID, { NULL },
	  NULL },
	{ "protocol info of 0 bytes", 0, NULL, protoinfo_empty, -EPROTO,
	  EC_STEP_PROTOCOL_INFO, { "expected 12" }, NULL },
	{ "protocol info of 8 bytes", 0, NULL, protoinfo_8_bytes, -EPROTO,
	  EC_STEP_PROTOCOL_INFO, { "expected 12" }, NULL },
	{ "protocol info of 11 bytes", 0, NULL, protoinfo_11_bytes, -EPROTO,
	  EC_STEP_PROTOCOL_INFO, { "expected 12" }, NULL },
	{ "protocol info refused", 0, NULL, protoinfo_access_denied, -EPROTO,
	  EC_STEP_PROTOCOL_INFO, { "ACCESS_DENIED" }, NULL },
	{ "protocol info with 8-byte packets", 0, NULL, protoinfo_tiny_packets, -EPROTO,
	  EC_STEP_PROTOCOL_INFO, { "not above 8" }, NULL },
};

START_TEST(startup_case)
{
	const struct startup_case *t = &startup_cases[_i];
	struct ec_client_error err = { 0 };
	struct ec_client *c = NULL;
	size_t w;
	int ret;

	if (t->version_text)
		dev.version_override = t->version_text;
	if (t->arrange)
		t->arrange();
	ret = ec_client_attach(&fake_transport, &dev, t->flags, &err, &c);
	ck_assert_msg(ret == t->want_ret, "%s: attach returned %d, want %d (%s)", t->name, ret,
		      t->want_ret, err.message);
	if (t->want_ret == 0) {
		ck_assert_msg(c != NULL, "%s: attached without a client", t->name);
		t->check(t->name, c);
		ec_client_close(c);
		return;
	}
	ck_assert_msg(c == NULL, "%s: a client although attach failed", t->name);
	ck_assert_msg(err.step == t->want_step, "%s: step %d blamed, want %d", t->name,
		      (int)err.step, (int)t->want_step);
	ck_assert_msg(err.err == ret, "%s: error %d in the report, %d returned", t->name,
		      err.err, ret);
	for (w = 0; w < sizeof(t->want_words) / sizeof(t->want_words[0]); w++)
		ck_assert_msg(!t->want_words[w] || strstr(err.message, t->want_words[w]),
			      "%s: \"%s\" not in the message \"%s\"", t->name, t->want_words[w],
			      err.message);
}
END_TEST

START_TEST(attach_bad_args)
{
	struct ec_client_error err;
	struct ec_transport_ops partial = { .read = fake_transport.read };
	struct ec_client *c = NULL;

	ck_assert_int_eq(ec_client_attach(NULL, &dev, 0, &err, &c), -EINVAL);
	ck_assert_int_eq(err.step, EC_STEP_OPEN);
	ck_assert_int_eq(ec_client_attach(&partial, &dev, 0, &err, &c), -EINVAL);
	ck_assert_int_eq(ec_client_attach(&fake_transport, &dev, 0, NULL, NULL), -EINVAL);
	ck_assert_ptr_null(c);
	ec_client_close(NULL);
}
END_TEST

/* ---- opening real files through the fd transport ---- */

START_TEST(open_bad_names)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;
	char longname[5000];

	ck_assert_int_eq(ec_client_open_diag(NULL, 0, &err, &c), -EINVAL);
	ck_assert_int_eq(ec_client_open_diag("", 0, &err, &c), -EINVAL);
	ck_assert_int_eq(ec_client_open_diag("no_such_cros_ec_node", 0, &err, &c), -ENOENT);
	ck_assert_int_eq(err.step, EC_STEP_OPEN);
	ck_assert_ptr_nonnull(strstr(err.message, "/dev/no_such_cros_ec_node"));
	memset(longname, 'a', sizeof(longname) - 1);
	longname[0] = '/';
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(ec_client_open_diag(longname, 0, &err, &c), -ENAMETOOLONG);
	ck_assert_ptr_null(c);
}
END_TEST

START_TEST(open_dev_null_is_not_an_ec)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;

	ck_assert_int_eq(ec_client_open_diag("null", 0, &err, &c), -EPROTO);
	ck_assert_int_eq(err.step, EC_STEP_VERSION_TEXT);
	ck_assert_int_eq(ec_client_open_diag("/dev/null", EC_CLIENT_NONBLOCK, &err, &c), -EPROTO);
	ck_assert_int_eq(ec_client_open("/dev/null", 0, &c), -EPROTO);
	ck_assert_int_eq(ec_client_open(NULL, 0, &c), -EINVAL);
	ck_assert_int_eq(ec_client_open("null", 0, NULL), -EINVAL);
	ck_assert_ptr_null(c);
}
END_TEST

START_TEST(open_regular_file)
{
	char path[] = "/tmp/ec_client_test_XXXXXX";
	struct ec_client_error err;
	struct ec_client *c = NULL;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "1.0.0\nro\nrw\nread-only\n", 22), 22);
	close(fd);
	/*
	 * A plain file passes steps 1 and 2 (ioctl -> ENOTTY) but READMEM and
	 * its READ_MEMMAP fallback both fail ENOTTY in step 3.
	 */
	ck_assert_int_eq(ec_client_open_diag(path, 0, &err, &c), -ENOTTY);
	ck_assert_int_eq(err.step, EC_STEP_MEMMAP_ID);
	/* Raw open skips start-up and lets ioctls fail one by one. */
	ck_assert_int_eq(ec_client_open_diag(path, EC_CLIENT_RAW, &err, &c), 0);
	/* A regular file always polls readable. */
	ck_assert_int_ne(ec_client_poll(c, 0) & POLLIN, 0);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, NULL, 0, NULL, 0, NULL), -ENOTTY);
	ck_assert_int_eq(ec_client_set_event_mask(c, 1), -ENOTTY);
	ec_client_close(c);
	unlink(path);
}
END_TEST

/* ---- raw ioctls ---- */

START_TEST(xcmd_basic_and_errors)
{
	struct ec_client *c = attach_ok(0);
	struct ec_params_hello req = { .in_data = 5 };
	struct ec_response_hello resp;
	uint8_t big[70000];
	uint32_t result = 99;
	unsigned int before;

	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, &req, sizeof(req), &resp,
					sizeof(resp), &result), 4);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert_uint_eq(resp.out_data, 5 + EC_HELLO_MAGIC);

	/* EC-level errors: a return >= 0 with the status set. */
	ck_assert_int_eq(ec_client_xcmd(c, 0x3333, 0, NULL, 0, NULL, 0, &result), 0);
	ck_assert_uint_eq(result, EC_RES_INVALID_COMMAND);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 3, &req, sizeof(req), &resp,
					sizeof(resp), &result), 0);
	ck_assert_uint_eq(result, EC_RES_INVALID_VERSION);
	/* Without a status to fill, the EC's no is spelled as every helper spells it. */
	ck_assert_int_eq(ec_client_xcmd(c, 0x3333, 0, NULL, 0, NULL, 0, NULL),
			 EC_CLIENT_EC_ERR(EC_RES_INVALID_COMMAND));

	/* Refused locally, without a round trip. */
	before = dev.ioctl_calls;
	memset(big, 0, sizeof(big));
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, big, ec_client_max_request(c) + 1,
					NULL, 0, &result), -EMSGSIZE);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, big, sizeof(big), NULL, 0,
					&result), -EINVAL);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, NULL, 0, big, sizeof(big),
					&result), -EINVAL);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, NULL, 4, NULL, 0, &result), -EINVAL);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, NULL, 0, NULL, 4, &result), -EINVAL);
	ck_assert_int_eq(ec_client_xcmd(NULL, EC_CMD_HELLO, 0, NULL, 0, NULL, 0, &result),
			 -EINVAL);
	ck_assert_uint_eq(dev.ioctl_calls, before);

	/* Big insize takes the heap path; the device clamps it. */
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_GET_VERSION, 1, NULL, 0, big, 60000, &result),
			 (int)sizeof(struct ec_response_get_version_v1));
	ck_assert_str_eq((char *)big, "ro-1.2");
	ec_client_close(c);
}
END_TEST

/* "The EC said no" reads the same from the raw call, READ_MEMMAP and a typed helper. */
START_TEST(ec_refusal_one_spelling)
{
	const int no = EC_CLIENT_EC_ERR(EC_RES_INVALID_COMMAND);
	struct ec_client *c = attach_ok(EC_CLIENT_NO_MEMMAP);
	struct ec_info_chip chip;
	uint8_t buf[4];

	canned->fail_status = EC_RES_INVALID_COMMAND;
	canned->fail_command = EC_CMD_READ_MEMMAP;
	ck_assert_int_eq(ec_client_readmem(c, EC_MEMMAP_BATT_VOLT, 4, buf), no);
	ck_assert_int_eq(ec_client_readmem(c, EC_MEMMAP_BATT_MFGR, 0, buf), no);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_READ_MEMMAP, 0, NULL, 0, NULL, 0, NULL), no);
	canned->fail_command = EC_CMD_GET_CHIP_INFO;
	ck_assert_int_eq(ec_client_chipinfo(c, &chip), no);
	ck_assert_int_eq(ec_client_cmd(c, EC_CMD_GET_CHIP_INFO, 0, NULL, 0, NULL, 0), no);
	ec_client_close(c);
}
END_TEST

START_TEST(readmem_ranges)
{
	struct ec_client *c = attach_ok(0);
	unsigned int before;
	uint8_t buf[256];
	int pass;

	for (pass = 0; pass < 2; pass++) {
		ck_assert_int_eq(ec_client_readmem(c, 256, 1, buf), -EINVAL);
		ck_assert_int_eq(ec_client_readmem(c, 0, 256, buf), -EINVAL);
		ck_assert_int_eq(ec_client_readmem(c, 200, 100, buf), -EINVAL);
		ck_assert_int_eq(ec_client_readmem(c, 0xffffffffu, 2, buf), -EINVAL);
		ck_assert_int_eq(ec_client_readmem(c, 0, 1, NULL), -EINVAL);
		ck_assert_int_eq(ec_client_readmem(c, 255, 1, buf), 1);
		/* A string: the count includes the NUL, and nothing past it is written. */
		memset(buf, 0x5a, sizeof(buf));
		ck_assert_int_eq(ec_client_readmem(c, EC_MEMMAP_BATT_MFGR, 0, buf), 5);
		ck_assert_str_eq((char *)buf, "ACME");
		ck_assert_uint_eq(buf[5], 0x5a);
		ec_client_close(c);
		/* Second pass: the same through READ_MEMMAP, on a fresh open file. */
		fake_dev_destroy(&dev);
		fake_dev_init(&dev, &canned_backend, canned);
		c = attach_ok(EC_CLIENT_NO_MEMMAP);
		ck_assert(!ec_client_has_direct_memmap(c));
	}
	/* A small EC: a 255-byte read arrives in pieces, all of it. */
	ck_assert_int_eq(ec_client_readmem(c, 1, 255, buf), 255);
	ck_assert_mem_eq(buf, canned->memmap + 1, 255);
	ec_client_close(c);
	canned->max_resp_pkt = 8 + 40;
	fake_dev_destroy(&dev);
	fake_dev_init(&dev, &canned_backend, canned);
	c = attach_ok(EC_CLIENT_NO_MEMMAP);
	ck_assert_uint_eq(ec_client_max_response(c), 40);
	before = dev.ioctl_calls;
	ck_assert_int_eq(ec_client_readmem(c, 1, 255, buf), 255);
	ck_assert_mem_eq(buf, canned->memmap + 1, 255);
	ck_assert_uint_eq(dev.ioctl_calls - before, 7);
	/* A string stops at the piece holding its NUL. */
	before = dev.ioctl_calls;
	ck_assert_int_eq(ec_client_readmem(c, EC_MEMMAP_BATT_MFGR, 0, buf), 5);
	ck_assert_str_eq((char *)buf, "ACME");
	ck_assert_uint_eq(dev.ioctl_calls - before, 1);
	/* A string with no NUL before the end of what the EC returns. */
	memset(canned->memmap + 0xf0, 'x', 16);
	ck_assert_int_eq(ec_client_readmem(c, 0xf0, 0, buf), -EPROTO);
	ec_client_close(c);
}
END_TEST

START_TEST(events_read_timeout_and_unplug)
{
	struct ec_client *c = attach_ok(0);
	const uint8_t payload[4] = { 1, 2, 3, 4 };
	uint8_t ev[32];

	ck_assert_int_eq(ec_client_set_event_mask(c, 1u << EC_MKBP_EVENT_BUTTON), 0);
	ck_assert_uint_eq(dev.event_mask, 1u << EC_MKBP_EVENT_BUTTON);
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 1000), 5);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_BUTTON);
	ck_assert_mem_eq(ev + 1, payload, 4);
	/* Truncated to the caller's length. */
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
	ck_assert_int_eq(ec_client_read_event(c, ev, 2, 1000), 2);
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 30), -ETIMEDOUT);
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 0), -ETIMEDOUT);
	ck_assert_int_eq(ec_client_read_event(c, NULL, 1, 0), -EINVAL);
	ck_assert_int_eq(ec_client_read_event(c, ev, 0, 0), -EINVAL);
	ck_assert_int_eq(ec_client_poll(c, 0), 0);
	ck_assert_int_eq(ec_client_poll(c, 10), 0);
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, payload, 1);
	ck_assert_int_eq(ec_client_poll(c, -1), POLLIN | POLLRDNORM);
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 0), 2);
	ck_assert_int_eq(ec_client_poll(NULL, 0), -EINVAL);
	fake_dev_set_gone(&dev, ENODEV);
	ck_assert_int_eq(ec_client_poll(c, 0), POLLERR | POLLHUP);
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 1000), -ENODEV);
	ck_assert_int_eq(ec_client_set_event_mask(c, 1), -ENODEV);
	ec_client_close(c);
}
END_TEST

struct reader_arg {
	struct ec_client *c;
	int ret;
};

static void *blocked_reader(void *p)
{
	struct reader_arg *arg = p;
	uint8_t ev[32];

	arg->ret = ec_client_read_event(arg->c, ev, sizeof(ev), -1);
	return NULL;
}

START_TEST(events_blocked_reader_woken_by_unplug)
{
	struct reader_arg arg = { .c = attach_ok(0) };
	pthread_t t;

	ck_assert_int_eq(ec_client_set_event_mask(arg.c, 0xff), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, blocked_reader, &arg), 0);
	usleep(50 * 1000);
	fake_dev_set_gone(&dev, ENODEV);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(arg.ret, -ENODEV);
	ec_client_close(arg.c);
}
END_TEST

/* ---- names ---- */

START_TEST(result_names)
{
	/* Against the ABI header's constants: common/ec_result.c cannot see them. */
	static const struct {
		uint32_t code;
		const char *name;
	} expect[] = {
		{ EC_RES_SUCCESS, "SUCCESS" },
		{ EC_RES_INVALID_COMMAND, "INVALID_COMMAND" },
		{ EC_RES_ERROR, "ERROR" },
		{ EC_RES_INVALID_PARAM, "INVALID_PARAM" },
		{ EC_RES_ACCESS_DENIED, "ACCESS_DENIED" },
		{ EC_RES_INVALID_RESPONSE, "INVALID_RESPONSE" },
		{ EC_RES_INVALID_VERSION, "INVALID_VERSION" },
		{ EC_RES_INVALID_CHECKSUM, "INVALID_CHECKSUM" },
		{ EC_RES_IN_PROGRESS, "IN_PROGRESS" },
		{ EC_RES_UNAVAILABLE, "UNAVAILABLE" },
		{ EC_RES_TIMEOUT, "TIMEOUT" },
		{ EC_RES_OVERFLOW, "OVERFLOW" },
		{ EC_RES_INVALID_HEADER, "INVALID_HEADER" },
		{ EC_RES_REQUEST_TRUNCATED, "REQUEST_TRUNCATED" },
		{ EC_RES_RESPONSE_TOO_BIG, "RESPONSE_TOO_BIG" },
		{ EC_RES_BUS_ERROR, "BUS_ERROR" },
		{ EC_RES_BUSY, "BUSY" },
	};
	char buf[96], err[128];
	uint32_t r, parsed;
	size_t i;

	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		ck_assert_str_eq(ec_result_name(expect[i].code), expect[i].name);
		ck_assert_int_eq(ec_result_parse(expect[i].name, &parsed, err, sizeof(err)), 0);
		ck_assert_uint_eq(parsed, expect[i].code);
	}
	ck_assert_int_eq(ec_result_parse("busy", &parsed, err, sizeof(err)), 0);
	ck_assert_uint_eq(parsed, EC_RES_BUSY);
	ck_assert_int_eq(ec_result_parse("200", &parsed, err, sizeof(err)), 0);
	ck_assert_uint_eq(parsed, 200);
	ck_assert_int_eq(ec_result_parse("EC_RES_BUSY", &parsed, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(ec_result_parse("256", &parsed, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(ec_result_parse("", &parsed, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(ec_result_parse("UNKNOWN", &parsed, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "unknown EC result"));
	ck_assert_str_eq(ec_result_name(17), "UNKNOWN");
	ck_assert_str_eq(ec_result_name(0xffffffffu), "UNKNOWN");

	ck_assert(ec_client_err_is_ec(EC_CLIENT_EC_ERR(EC_RES_BUSY), &r));
	ck_assert_uint_eq(r, EC_RES_BUSY);
	ck_assert(!ec_client_err_is_ec(-ENODEV, &r));
	ck_assert(!ec_client_err_is_ec(-4095, NULL));
	ck_assert_str_eq(ec_client_strerror(EC_CLIENT_EC_ERR(3), buf, sizeof(buf)),
			 "EC error INVALID_PARAM (3)");
	ck_assert_ptr_nonnull(strstr(ec_client_strerror(-ENODEV, buf, sizeof(buf)), "ENODEV"));
	ck_assert_str_eq(ec_client_strerror(0, buf, sizeof(buf)), "success");
	ck_assert_str_eq(ec_errno_name(ENOTTY), "ENOTTY");
	ck_assert_str_eq(ec_errno_name(99999), "E?");
	ck_assert_str_eq(ec_client_step_name(EC_STEP_PROTOCOL_INFO), "protocol info");
	ck_assert_str_eq(ec_client_step_name((enum ec_client_step)77), "unknown");
	ck_assert_str_eq(ec_client_image_name(EC_IMAGE_RO), "read-only");
	ck_assert_str_eq(ec_client_image_name(9), "invalid");
	ck_assert_ptr_null(ec_client_temp_status_name(100));
	ck_assert_str_eq(ec_client_temp_status_name(EC_TEMP_SENSOR_NOT_CALIBRATED), "not calibrated");
}
END_TEST

/* ---- argument parsing ---- */

START_TEST(parse_numbers)
{
	uint8_t buf[4];
	size_t len;

	ck_assert_int_eq(ecctl_parse_hex("0a0B", buf, sizeof(buf), &len), 0);
	ck_assert_uint_eq(len, 2);
	ck_assert_uint_eq(buf[1], 0x0b);
	ck_assert_int_eq(ecctl_parse_hex("0x01 02:03,04", buf, sizeof(buf), &len), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_uint_eq(buf[3], 4);
	ck_assert_int_eq(ecctl_parse_hex("", buf, sizeof(buf), &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(ecctl_parse_hex("abc", buf, sizeof(buf), &len), -EINVAL);
	ck_assert_int_eq(ecctl_parse_hex("zz", buf, sizeof(buf), &len), -EINVAL);
	ck_assert_int_eq(ecctl_parse_hex("0g", buf, sizeof(buf), &len), -EINVAL);
	ck_assert_int_eq(ecctl_parse_hex("0 1", buf, sizeof(buf), &len), -EINVAL);
	ck_assert_int_eq(ecctl_parse_hex("0102030405", buf, sizeof(buf), &len), -E2BIG);
	ck_assert_int_eq(ecctl_parse_hex(NULL, buf, sizeof(buf), &len), -EINVAL);
}
END_TEST

static int parse(struct ecctl_opts *o, char *err, const char *a0, ...)
{
	char *argv[16];
	va_list ap;
	int argc = 0;
	const char *a;

	argv[argc++] = (char *)"ecctl";
	va_start(ap, a0);
	for (a = a0; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return ecctl_parse_args(argc, argv, o, err, 160);
}

#define PARSE_OK(...) ck_assert_msg(parse(&o, err, __VA_ARGS__, END) == 0, "%s", err)
#define PARSE_BAD(substr, ...) do {						\
	ck_assert_int_eq(parse(&o, err, __VA_ARGS__, END), -EINVAL);		\
	ck_assert_msg(strstr(err, substr), "message '%s' lacks '%s'", err, substr); \
} while (0)

START_TEST(parse_args_good)
{
	struct ecctl_opts o;
	char err[160];

	PARSE_OK("hello");
	ck_assert_int_eq(o.command, ECCTL_CMD_HELLO);
	ck_assert_str_eq(o.device, "cros_ec");
	ck_assert(!o.json);
	PARSE_OK("--name", "cros_pd", "--json", "version");
	ck_assert_str_eq(o.device, "cros_pd");
	ck_assert(o.json);
	PARSE_OK("--device=/tmp/x", "-j", "temps");
	ck_assert_str_eq(o.device, "/tmp/x");
	PARSE_OK("-n", "cros_fp", "-d", "/dev/y", "fans");
	ck_assert_str_eq(o.device, "/dev/y");
	ck_assert(o.device_is_path);
	PARSE_OK("-d", "/dev/y", "-n", "cros_fp", "fans");
	ck_assert_str_eq(o.device, "cros_fp");
	ck_assert(!o.device_is_path);
	PARSE_OK("cmdversions", "0x601");
	ck_assert_uint_eq(o.host_cmd, 0x601);
	PARSE_OK("events");
	ck_assert_uint_eq(o.event_count, 1);
	ck_assert_int_eq(o.timeout_ms, 10000);
	PARSE_OK("events", "0x18", "3", "-1");
	ck_assert_uint_eq(o.event_mask, 0x18);
	ck_assert_uint_eq(o.event_count, 3);
	ck_assert_int_eq(o.timeout_ms, -1);
	PARSE_OK("usbpd", "ports");
	ck_assert_int_eq(o.command, ECCTL_CMD_USBPD_PORTS);
	PARSE_OK("usbpd", "power");
	ck_assert_int_eq(o.command, ECCTL_CMD_USBPD_POWER);
	ck_assert_int_eq(o.port, -1);
	PARSE_OK("usbpd", "power", "1");
	ck_assert_int_eq(o.port, 1);
	PARSE_OK("raw", "0x01", "0", "d0c0b0a0");
	ck_assert_uint_eq(o.raw_len, 4);
	ck_assert_uint_eq(o.raw_req[0], 0xd0);
	PARSE_OK("raw", "2", "1");
	ck_assert_uint_eq(o.raw_len, 0);
	PARSE_OK("--", "hello");
	PARSE_OK("--help");
	ck_assert(o.help);
	PARSE_OK("-V", "whatever");
	ck_assert(o.version);
}
END_TEST

START_TEST(parse_args_bad)
{
	char hex[2 * ECCTL_RAW_MAX + 3];
	struct ecctl_opts o;
	char err[160];

	ck_assert_int_eq(ecctl_parse_args(1, (char *[]){ (char *)"ecctl", NULL }, &o, err,
					  sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "no command"));
	PARSE_BAD("unknown option '--bogus' (try --help)", "--bogus", "hello");
	PARSE_BAD("option '--json' takes no argument", "--json=yes", "hello");
	PARSE_BAD("unknown option '-x'", "-x", "hello");
	PARSE_BAD("option '--name' needs an argument", "--name");
	PARSE_BAD("option '--device' needs an argument", "--device");
	PARSE_BAD("non-empty", "--name=", "hello");
	PARSE_BAD("must not contain '/'", "--name", "a/b", "hello");
	PARSE_BAD("no command", "--json");
	PARSE_BAD("unknown command 'frobnicate'", "frobnicate");
	PARSE_BAD("wrong number of arguments", "hello", "extra");
	PARSE_BAD("wrong number of arguments", "cmdversions");
	PARSE_BAD("invalid command number '0x10000': out of range 0x0..0xffff", "cmdversions",
		  "0x10000");
	PARSE_BAD("invalid command number 'abc': expected a whole number", "cmdversions", "abc");
	PARSE_BAD("invalid event mask 'zz'", "events", "zz");
	PARSE_BAD("invalid event mask '0': out of range 1..", "events", "0");
	PARSE_BAD("invalid event count '0': out of range 1..100000", "events", "1", "0");
	PARSE_BAD("invalid event count '1000000'", "events", "1", "1000000");
	PARSE_BAD("invalid timeout (ms, or -1) '-2'", "events", "1", "1", "-2");
	PARSE_BAD("invalid timeout (ms, or -1) 'soon'", "events", "1", "1", "soon");
	PARSE_BAD("wrong number of arguments", "events", "1", "1", "1", "1");
	PARSE_BAD("wrong number of arguments", "usbpd");
	PARSE_BAD("unknown sub-command 'foo'", "usbpd", "foo");
	PARSE_BAD("takes no argument", "usbpd", "ports", "1");
	PARSE_BAD("invalid port '300': out of range 0..254", "usbpd", "power", "300");
	PARSE_BAD("invalid port '-1'", "usbpd", "power", "-1");
	PARSE_BAD("wrong number of arguments", "raw", "1");
	PARSE_BAD("invalid command number 'x'", "raw", "x", "0");
	PARSE_BAD("invalid command version '32': out of range 0..31", "raw", "1", "32");
	PARSE_BAD("bad hex bytes", "raw", "1", "0", "abc");
	memset(hex, 'a', sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = '\0';
	PARSE_BAD("more than 1024", "raw", "1", "0", hex);
}
END_TEST

/* ---- typed helpers and ecctl output ---- */

struct captured {
	char *out, *err;
	size_t out_len, err_len;
	int status;
};

static void run_cli(struct ec_client *c, struct captured *cap, const char *a0, ...)
{
	char *argv[16], err[160];
	struct ecctl_opts o;
	FILE *out, *errf;
	va_list ap;
	int argc = 0;
	const char *a;

	argv[argc++] = (char *)"ecctl";
	va_start(ap, a0);
	for (a = a0; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	ck_assert_msg(ecctl_parse_args(argc, argv, &o, err, sizeof(err)) == 0, "%s", err);
	out = open_memstream(&cap->out, &cap->out_len);
	errf = open_memstream(&cap->err, &cap->err_len);
	ck_assert(out && errf);
	cap->status = ecctl_run(c, &o, out, errf);
	fclose(out);
	fclose(errf);
}

static void free_cap(struct captured *cap)
{
	free(cap->out);
	free(cap->err);
}

#define EXPECT_OUT(cap, text) \
	ck_assert_msg(strstr((cap).out, text), "output lacks '%s':\n%s", text, (cap).out)

START_TEST(cli_outputs)
{
	struct ec_client *c = attach_ok(0);
	struct captured cap;

	run_cli(c, &cap, "hello", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_OK);
	ck_assert_str_eq(cap.out, "EC says hello!\n");
	free_cap(&cap);

	run_cli(c, &cap, "version", END);
	EXPECT_OUT(cap, "RO version:    ro-1.2\n");
	EXPECT_OUT(cap, "RW version:    rw-1.3\n");
	EXPECT_OUT(cap, "RO cros fwid:  fwid-ro\n");
	EXPECT_OUT(cap, "Firmware copy: read-write\n");
	EXPECT_OUT(cap, "Build info:    canned_v1.0 2026-12-03\n");
	free_cap(&cap);

	run_cli(c, &cap, "chipinfo", END);
	EXPECT_OUT(cap, "  vendor:    acme\n");
	EXPECT_OUT(cap, "  name:      nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn\n");
	EXPECT_OUT(cap, "  revision:  B1\n");
	free_cap(&cap);

	run_cli(c, &cap, "protoinfo", END);
	EXPECT_OUT(cap, "protocol versions: 3\n");
	EXPECT_OUT(cap, "max request:   136 bytes\n");
	EXPECT_OUT(cap, "max response:  264 bytes\n");
	free_cap(&cap);

	run_cli(c, &cap, "cmdversions", "2", END);
	ck_assert_str_eq(cap.out, "Command 0x0002 supports version mask 0x00000003\n");
	free_cap(&cap);
	run_cli(c, &cap, "cmdversions", "0x600", END);
	ck_assert_str_eq(cap.out, "Command 0x0600 supports version mask 0x00000003\n");
	free_cap(&cap);
	run_cli(c, &cap, "cmdversions", "0x555", END);
	ck_assert_str_eq(cap.out, "Command 0x0555 supports version mask 0x00000000\n");
	free_cap(&cap);

	run_cli(c, &cap, "battery", END);
	EXPECT_OUT(cap, "  OEM name:               ACME Power\n");
	EXPECT_OUT(cap, "  Model number:           MODEL-123456\n");
	EXPECT_OUT(cap, "  Design capacity:        5000 mAh\n");
	EXPECT_OUT(cap, "  Cycle count             42\n");
	EXPECT_OUT(cap, "  Present voltage         12100 mV\n");
	EXPECT_OUT(cap, "  Desired voltage         13200 mV\n");
	EXPECT_OUT(cap, "  Flags                   0x0b AC_PRESENT BATT_PRESENT CHARGING\n");
	free_cap(&cap);

	run_cli(c, &cap, "temps", END);
	EXPECT_OUT(cap, "Sensor 0              300 K (= 27 C)\n");
	EXPECT_OUT(cap, "Sensor 1              310 K (= 37 C)\n");
	EXPECT_OUT(cap, "sensor 2 error\n");
	EXPECT_OUT(cap, "Sensor 16             320 K (= 47 C)\n");
	free_cap(&cap);

	run_cli(c, &cap, "fans", END);
	ck_assert_str_eq(cap.out, "Fan 0 RPM: 3000\n");
	free_cap(&cap);

	run_cli(c, &cap, "console", END);
	ck_assert_str_eq(cap.out, canned->console);
	free_cap(&cap);

	run_cli(c, &cap, "uptime", END);
	EXPECT_OUT(cap, "EC uptime: 123.456 seconds\n");
	EXPECT_OUT(cap, "AP resets since EC boot: 2\n");
	EXPECT_OUT(cap, "\t1.500: cause 7\n");
	EXPECT_OUT(cap, "EC reset flags at last EC boot: 0x00000400\n");
	free_cap(&cap);

	run_cli(c, &cap, "panicinfo", END);
	ck_assert_str_eq(cap.out, "No panic data.\n");
	free_cap(&cap);
	memset(canned->panic, 0xab, 18);
	canned->panic_len = 18;
	run_cli(c, &cap, "panicinfo", END);
	EXPECT_OUT(cap, "Panic data (18 bytes):\nab ab");
	EXPECT_OUT(cap, "ab\nab ab\n");
	free_cap(&cap);

	run_cli(c, &cap, "usbpd", "ports", END);
	ck_assert_str_eq(cap.out, "Number of USB PD ports: 2\n");
	free_cap(&cap);
	run_cli(c, &cap, "usbpd", "power", END);
	EXPECT_OUT(cap, "Port 0: SNK PD DRP 20000mV / 3000mA, max 20000mV / 3000mA / 60000mW\n");
	EXPECT_OUT(cap, "Port 1: Disconnected\n");
	free_cap(&cap);

	run_cli(c, &cap, "raw", "1", "0", "01000000", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_OK);
	EXPECT_OUT(cap, "Result: 0 (SUCCESS)\nResponse (4 bytes):\n05 03 02 01\n");
	free_cap(&cap);
	run_cli(c, &cap, "raw", "0x3333", "0", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	EXPECT_OUT(cap, "Result: 1 (INVALID_COMMAND)");
	free_cap(&cap);
	ec_client_close(c);
}
END_TEST

START_TEST(cli_json_outputs)
{
	struct ec_client *c = attach_ok(0);
	struct captured cap;

	run_cli(c, &cap, "--json", "hello", END);
	ck_assert_str_eq(cap.out, "{\"hello\":true,\"out_data\":2712847316}\n");
	free_cap(&cap);
	run_cli(c, &cap, "--json", "fans", END);
	ck_assert_str_eq(cap.out, "{\"fans\":[{\"id\":0,\"rpm\":3000}]}\n");
	free_cap(&cap);
	run_cli(c, &cap, "--json", "console", END);
	EXPECT_OUT(cap, "{\"console\":\"[0.001 boot]\\n[0.200 power on]\\n[1.000 \\\"quoted\\\"");
	free_cap(&cap);
	run_cli(c, &cap, "--json", "temps", END);
	EXPECT_OUT(cap, "{\"id\":2,\"name\":\"Sensor 2\",\"status\":\"error\"}");
	EXPECT_OUT(cap, "{\"id\":16,\"name\":\"Sensor 16\",\"kelvin\":320,\"celsius\":47}");
	free_cap(&cap);
	run_cli(c, &cap, "--json", "battery", END);
	EXPECT_OUT(cap, "\"present\":true,\"manufacturer\":\"ACME Power\"");
	EXPECT_OUT(cap, "\"cycle_count\":42");
	free_cap(&cap);
	run_cli(c, &cap, "-j", "raw", "1", "0", "01000000", END);
	ck_assert_str_eq(cap.out, "{\"result\":0,\"result_name\":\"SUCCESS\",\"data\":\"05030201\"}\n");
	free_cap(&cap);
	run_cli(c, &cap, "-j", "usbpd", "power", "0", END);
	EXPECT_OUT(cap, "{\"ports\":[{\"port\":0,\"role\":\"SNK\",\"type\":\"PD\"");
	free_cap(&cap);
	ec_client_close(c);
}
END_TEST

START_TEST(cli_variants)
{
	struct ec_client *c;
	struct captured cap;

	/* No PWM fan feature: clients see no fans. */
	canned->features0 = 0;
	/* GET_VERSION v0 only: no fwid lines. */
	canned->ver_mask[EC_CMD_GET_VERSION] = EC_VER_MASK(0);
	/* No battery commands: memory-map strings, 8 bytes at most. */
	canned->ver_mask[EC_CMD_BATTERY_GET_STATIC] = 0;
	canned->ver_mask[EC_CMD_BATTERY_GET_DYNAMIC] = 0;
	/* Thermal version 1: the second bank is not read. */
	canned->memmap[EC_MEMMAP_THERMAL_VERSION] = 1;
	/* No build info. */
	canned->ver_mask[EC_CMD_GET_BUILD_INFO] = 0;
	/* Fan stalled (second fan), then list end. */
	canned->memmap[EC_MEMMAP_FAN + 2] = 0xfe;
	canned->memmap[EC_MEMMAP_FAN + 3] = 0xff;
	c = attach_ok(0);

	run_cli(c, &cap, "fans", END);
	ck_assert_str_eq(cap.out, "No fans\n");
	free_cap(&cap);
	canned->features0 = 1u << EC_FEATURE_PWM_FAN;
	run_cli(c, &cap, "fans", END);
	ck_assert_str_eq(cap.out, "Fan 0 RPM: 3000\nFan 1 stalled!\n");
	free_cap(&cap);

	run_cli(c, &cap, "version", END);
	ck_assert_ptr_null(strstr(cap.out, "fwid"));
	EXPECT_OUT(cap, "Build info:    \n");
	free_cap(&cap);

	run_cli(c, &cap, "battery", END);
	EXPECT_OUT(cap, "  OEM name:               ACME\n");
	EXPECT_OUT(cap, "  Model number:           BAT12345\n");
	ck_assert_ptr_null(strstr(cap.out, "Desired"));
	free_cap(&cap);

	run_cli(c, &cap, "temps", END);
	ck_assert_ptr_null(strstr(cap.out, "Sensor 16"));
	free_cap(&cap);

	canned->memmap[EC_MEMMAP_BATT_FLAG] = EC_BATT_FLAG_AC_PRESENT;
	run_cli(c, &cap, "battery", END);
	ck_assert_str_eq(cap.out, "Battery not present\n");
	free_cap(&cap);

	canned->pd_ports = 0;
	run_cli(c, &cap, "usbpd", "power", END);
	ck_assert_str_eq(cap.out, "No USB PD ports\n");
	free_cap(&cap);
	ec_client_close(c);
}
END_TEST

START_TEST(cli_without_cmd_versions)
{
	struct ec_client *c = attach_ok(0);
	struct captured cap;

	/* An EC that refuses GET_CMD_VERSIONS: v0 and the memory map only. */
	canned->fail_command = EC_CMD_GET_CMD_VERSIONS;
	canned->fail_status = EC_RES_INVALID_COMMAND;
	run_cli(c, &cap, "version", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_OK);
	EXPECT_OUT(cap, "RO version:    ro-1.2\n");
	ck_assert_ptr_null(strstr(cap.out, "fwid"));
	free_cap(&cap);
	run_cli(c, &cap, "battery", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_OK);
	EXPECT_OUT(cap, "  OEM name:               ACME\n");
	free_cap(&cap);
	run_cli(c, &cap, "cmdversions", "1", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_str_eq(cap.err, "ecctl: cmdversions: EC error INVALID_COMMAND (1)\n");
	free_cap(&cap);
	ec_client_close(c);
}
END_TEST

START_TEST(cli_events)
{
	struct ec_client *c = attach_ok(0);
	const uint8_t sw[] = { 0x01, 0, 0, 0 };
	struct captured cap;

	fake_dev_push_event(&dev, EC_MKBP_EVENT_SWITCH, sw, sizeof(sw));
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, sw, 1);
	run_cli(c, &cap, "events", "0x18", "2", "1000", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_OK);
	ck_assert_str_eq(cap.out, "Event type 4 (4 bytes): 01 00 00 00\nEvent type 3 (1 bytes): 01\n");
	free_cap(&cap);
	run_cli(c, &cap, "events", "0x18", "1", "20", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_ptr_nonnull(strstr(cap.err, "ETIMEDOUT"));
	free_cap(&cap);
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, sw, 1);
	run_cli(c, &cap, "-j", "events", "0x18", "1", "1000", END);
	ck_assert_str_eq(cap.out, "{\"events\":[{\"type\":3,\"data\":\"01\"}]}\n");
	free_cap(&cap);
	/* It says it waits, and for how long (stderr: stdout is the answer). */
	run_cli(c, &cap, "events", "0x18", "2", "20", END);
	ck_assert_str_eq(cap.out, "");
	ck_assert_msg(!strncmp(cap.err, "ecctl: waiting for 2 event(s) (mask 0x18), up to 20 ms each\n",
			       60), "%s", cap.err);
	free_cap(&cap);
	/* Under --json a failure is part of the one object, with what was read. */
	fake_dev_push_event(&dev, EC_MKBP_EVENT_BUTTON, sw, 1);
	run_cli(c, &cap, "--json", "events", "0x18", "2", "20", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_str_eq(cap.out, "{\"events\":[{\"type\":3,\"data\":\"01\"}],\"error\":{"
			 "\"command\":\"events\",\"message\":\"ETIMEDOUT (Connection timed out)\","
			 "\"errno\":\"ETIMEDOUT\",\"ec_result\":null}}\n");
	free_cap(&cap);
	ec_client_close(c);
}
END_TEST

START_TEST(cli_errors)
{
	static const char *const cmds[] = {
		"hello", "version", "chipinfo", "protoinfo", "battery", "temps", "fans",
		"console", "uptime", "panicinfo",
	};
	struct ec_client *c = attach_ok(0);
	char hex[2 * 200 + 1];	/* 200 bytes: above the canned max request of 128 */
	struct captured cap;
	size_t i;

	/* EC says no: exit 1 and the EC status named. */
	canned->fail_command = EC_CMD_GET_CHIP_INFO;
	canned->fail_status = EC_RES_ACCESS_DENIED;
	run_cli(c, &cap, "chipinfo", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_str_eq(cap.err, "ecctl: chipinfo: EC error ACCESS_DENIED (4)\n");
	free_cap(&cap);
	/* Under --json the same failure is also a JSON object on stdout. */
	run_cli(c, &cap, "--json", "chipinfo", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_str_eq(cap.out, "{\"error\":{\"command\":\"chipinfo\",\"message\":\"EC error "
			 "ACCESS_DENIED (4)\",\"errno\":null,\"ec_result\":\"ACCESS_DENIED\"}}\n");
	ck_assert_str_eq(cap.err, "ecctl: chipinfo: EC error ACCESS_DENIED (4)\n");
	free_cap(&cap);
	canned->fail_command = EC_CMD_CONSOLE_SNAPSHOT;
	canned->fail_status = EC_RES_BUSY;
	run_cli(c, &cap, "console", END);
	ck_assert_str_eq(cap.err, "ecctl: console: EC error BUSY (16)\n");
	free_cap(&cap);
	canned->fail_command = EC_CMD_USB_PD_POWER_INFO;
	canned->fail_status = EC_RES_INVALID_PARAM;
	run_cli(c, &cap, "usbpd", "power", "7", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	free_cap(&cap);
	canned->fail_command = 0;

	/* A request larger than the EC's max request never leaves the client. */
	memset(hex, 'a', sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = '\0';
	run_cli(c, &cap, "raw", "1", "0", hex, END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_ptr_nonnull(strstr(cap.err, "EMSGSIZE"));
	free_cap(&cap);

	/* The device is gone: every command fails with ENODEV, exit 1. */
	fake_dev_set_gone(&dev, ENODEV);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_cli(c, &cap, cmds[i], END);
		ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
		ck_assert_msg(strstr(cap.err, "ENODEV"), "%s: '%s'", cmds[i], cap.err);
		free_cap(&cap);
		/* ... and under --json says so on stdout, as JSON only. */
		run_cli(c, &cap, "-j", cmds[i], END);
		ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
		ck_assert_msg(!strncmp(cap.out, "{\"error\":{\"command\":\"", 21) &&
			      strstr(cap.out, "\"errno\":\"ENODEV\",\"ec_result\":null}}\n") &&
			      strchr(cap.out, '\n') == cap.out + strlen(cap.out) - 1,
			      "%s --json: '%s'", cmds[i], cap.out);
		free_cap(&cap);
	}
	ec_client_close(c);
}
END_TEST

START_TEST(hello_wrong_answer)
{
	struct ec_client *c = attach_ok(0);
	struct captured cap;
	uint32_t out;

	canned->hello_add = 1;
	ck_assert_int_eq(ec_client_hello(c, 1, &out), -EPROTO);
	ck_assert_uint_eq(out, 2);
	run_cli(c, &cap, "hello", END);
	ck_assert_int_eq(cap.status, ECCTL_EXIT_DEVICE);
	ck_assert_str_eq(cap.err, "ecctl: hello: expected 0xa1b2c3d4, got 0xa0b0c0d1\n");
	free_cap(&cap);
	/* A version the EC does not have comes back as that EC error. */
	canned->ver_mask[EC_CMD_HELLO] = EC_VER_MASK(1);
	ck_assert_int_eq(ec_client_hello(c, 1, &out), EC_CLIENT_EC_ERR(EC_RES_INVALID_VERSION));
	ec_client_close(c);
}
END_TEST

/* ---- concurrency ---- */

struct hammer_arg {
	struct ec_client *c;
	unsigned int ok, enodev, other;
};

static void *hammer(void *p)
{
	struct hammer_arg *arg = p;
	uint8_t buf[8];
	int i, ret;

	for (i = 0; i < 2000; i++) {
		if (i & 1)
			ret = ec_client_hello(arg->c, (uint32_t)i, NULL);
		else
			ret = ec_client_readmem(arg->c, EC_MEMMAP_ID, 2, buf);
		if (ret > 0)
			ret = ret == 2 && buf[0] == 'E' && buf[1] == 'C' ? 0 : -EIO;
		if (!ret)
			arg->ok++;
		else if (ret == -ENODEV)
			arg->enodev++;
		else
			arg->other++;
	}
	return NULL;
}

START_TEST(concurrent_calls_then_unplug)
{
	struct hammer_arg args[8];
	pthread_t threads[8];
	struct ec_client *c = attach_ok(0);
	unsigned int i, ok = 0, enodev = 0;

	for (i = 0; i < 8; i++) {
		args[i] = (struct hammer_arg){ .c = c };
		ck_assert_int_eq(pthread_create(&threads[i], NULL, hammer, &args[i]), 0);
	}
	usleep(2000);
	fake_dev_set_gone(&dev, ENODEV);
	for (i = 0; i < 8; i++) {
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
		ck_assert_uint_eq(args[i].other, 0);
		ok += args[i].ok;
		enodev += args[i].enodev;
	}
	ck_assert_uint_eq(ok + enodev, 8 * 2000);
	/* After the unplug nothing succeeds. */
	ck_assert_int_eq(ec_client_hello(c, 1, NULL), -ENODEV);
	ec_client_close(c);
}
END_TEST

static Suite *client_suite(void)
{
	Suite *s = suite_create("client");
	TCase *tc;

	tc = tcase_create("startup");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, startup_case, 0,
			     sizeof(startup_cases) / sizeof(startup_cases[0]));
	tcase_add_test(tc, attach_bad_args);
	tcase_add_test(tc, open_bad_names);
	tcase_add_test(tc, open_dev_null_is_not_an_ec);
	tcase_add_test(tc, open_regular_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("ioctls");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, xcmd_basic_and_errors);
	tcase_add_test(tc, readmem_ranges);
	tcase_add_test(tc, ec_refusal_one_spelling);
	tcase_add_test(tc, events_read_timeout_and_unplug);
	tcase_add_test(tc, events_blocked_reader_woken_by_unplug);
	tcase_add_test(tc, concurrent_calls_then_unplug);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, result_names);
	tcase_add_test(tc, parse_numbers);
	tcase_add_test(tc, parse_args_good);
	tcase_add_test(tc, parse_args_bad);
	tcase_add_test(tc, cli_outputs);
	tcase_add_test(tc, cli_json_outputs);
	tcase_add_test(tc, cli_variants);
	tcase_add_test(tc, cli_without_cmd_versions);
	tcase_add_test(tc, cli_events);
	tcase_add_test(tc, cli_errors);
	tcase_add_test(tc, hello_wrong_answer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(client_suite());
}
