// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_client_gone.c - every way the device can vanish reaches a client of
 * libecclient as one error, EC_CLIENT_GONE, from every call: the kernel's
 * ENODEV (EC unplugged), ECONNABORTED (daemon died during the call),
 * ENOTCONN (daemon died before it) and EIO (connection torn down). Other
 * errors pass through unchanged, and so does EIO from a device that is
 * still there (a transport error: cuse_ec's "eio" fault).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "client/ec_client.h"
#include "cros_ec/ec_commands.h"
#include "tests/client/fake_dev.h"
#include "tests/check_run.h"

/* Check forks each test, so the fixture is private to one test. */
static struct canned_ec *canned;
static struct fake_dev dev;

static const int gone_errnos[] = { ENODEV, ECONNABORTED, ENOTCONN, EIO };

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

static struct ec_client *attach_ok(void)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;

	ck_assert_msg(ec_client_attach(&fake_transport, &dev, 0, &err, &c) == 0, "%s",
		      err.message);
	return c;
}

START_TEST(every_call_says_gone)
{
	int kernel_errno = gone_errnos[_i];
	unsigned char buf[16];
	struct ec_client *c = attach_ok();
	char text[64];

	fake_dev_set_gone(&dev, kernel_errno);
	ck_assert_int_eq(ec_client_hello(c, 0x10, NULL), EC_CLIENT_GONE);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, buf, 4, buf, 4, NULL), EC_CLIENT_GONE);
	ck_assert_int_eq(ec_client_readmem(c, 0x20, 2, buf), EC_CLIENT_GONE);
	ck_assert_int_eq(ec_client_set_event_mask(c, 1), EC_CLIENT_GONE);
	ck_assert_int_eq(ec_client_read_event(c, buf, sizeof(buf), 1000), EC_CLIENT_GONE);
	ck_assert(ec_client_err_is_gone(ec_client_hello(c, 0x10, NULL)));
	ck_assert_str_eq(ec_client_strerror(EC_CLIENT_GONE, text, sizeof(text)),
			 "ENODEV (No such device)");
	ec_client_close(c);
}
END_TEST

START_TEST(startup_says_gone)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;

	fake_dev_set_gone(&dev, gone_errnos[_i]);
	ck_assert_int_eq(ec_client_attach(&fake_transport, &dev, 0, &err, &c), EC_CLIENT_GONE);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(err.err, EC_CLIENT_GONE);
}
END_TEST

START_TEST(other_errors_pass_through)
{
	struct ec_client *c = attach_ok();
	unsigned char buf[4];

	fake_dev_set_gone(&dev, EACCES);
	ck_assert_int_eq(ec_client_xcmd(c, EC_CMD_HELLO, 0, buf, 4, buf, 4, NULL), -EACCES);
	ck_assert(!ec_client_err_is_gone(-EACCES));
	ck_assert(!ec_client_err_is_gone(-ETIMEDOUT));
	ck_assert(!ec_client_err_is_gone(EC_CLIENT_EC_ERR(1)));
	ec_client_close(c);
}
END_TEST

/* EIO while poll() says the file is fine: a transport error, not gone. */
START_TEST(transport_eio_on_a_live_device)
{
	struct ec_client *c = attach_ok();
	unsigned char buf[4];

	dev.readmem_err = -EIO;
	ck_assert_int_eq(ec_client_readmem(c, 0x20, 2, buf), -EIO);
	ck_assert(!ec_client_err_is_gone(-EIO));
	dev.readmem_err = 0;
	ck_assert_int_eq(ec_client_readmem(c, 0x20, 2, buf), 2);
	ec_client_close(c);
}
END_TEST

static Suite *client_gone_suite(void)
{
	Suite *s = suite_create("client_gone");
	TCase *tc = tcase_create("gone");
	int n = (int)(sizeof(gone_errnos) / sizeof(gone_errnos[0]));

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, every_call_says_gone, 0, n);
	tcase_add_loop_test(tc, startup_says_gone, 0, n);
	tcase_add_test(tc, other_errors_pass_through);
	tcase_add_test(tc, transport_eio_on_a_live_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(client_gone_suite());
}
