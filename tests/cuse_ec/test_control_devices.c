// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_devices.c - one daemon, several devices: --device's parsing
 * and its refusals, the control line's "@NAME" and a control server over
 * two chardevs, where unplugging one leaves the other as it was.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chardev.h"
#include "control.h"
#include "ctl/ctl.h"
#include "harness.h"
#include "options.h"
#include "../check_run.h"

/* ---- --device ---- */

/* Parse argv (NULL-terminated after argv[0]); what it printed in @text. */
static int parse_args(struct cuse_ec_options *opts, char *text, size_t room, ...)
{
	char *argv[CUSE_EC_DEVICES_MAX + 16], *buf = NULL;
	size_t len = 0;
	va_list ap;
	FILE *out;
	int argc = 1, ret;

	argv[0] = "cuse_ec";
	va_start(ap, room);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ret = cuse_ec_parse_options(argc, argv, opts, out, out);
	fclose(out);
	snprintf(text, room, "%s", buf ? buf : "");
	free(buf);
	return ret;
}

/* @args refused (status 2) with a message holding @why. */
#define REFUSED(why, ...)							\
	do {									\
		ck_assert_int_eq(parse_args(&o, text, sizeof(text), __VA_ARGS__, NULL), \
				 -EINVAL);					\
		ck_assert_msg(strstr(text, why), "expected '%s', got '%s'", why, text); \
	} while (0)

START_TEST(test_device_options_good)
{
	struct cuse_ec_options o;
	static char help[65536];
	char text[512];

	/* Without --device: the one node of --name and --profile. */
	ck_assert_int_eq(parse_args(&o, text, sizeof(text), NULL), 0);
	ck_assert_uint_eq(o.n_devices, 1);
	ck_assert_str_eq(o.devices[0].name, "cros_ec");
	ck_assert_ptr_null(o.devices[0].profile);
	ck_assert_int_eq(parse_args(&o, text, sizeof(text), "--name=cros_pd", "--profile=usbc-dual",
				    NULL), 0);
	ck_assert_uint_eq(o.n_devices, 1);
	ck_assert_str_eq(o.devices[0].name, "cros_pd");
	ck_assert_str_eq(o.devices[0].profile, "usbc-dual");

	/* Several, in order; a profile after the first colon, a file's path may hold more. */
	ck_assert_int_eq(parse_args(&o, text, sizeof(text), "--device=cros_ec:laptop",
				    "--device=cros_fp:./my:fp.profile", "--device=cros_tp",
				    "--socket-dir=/tmp", NULL), 0);
	ck_assert_uint_eq(o.n_devices, 3);
	ck_assert_str_eq(o.devices[0].name, "cros_ec");
	ck_assert_str_eq(o.devices[0].profile, "laptop");
	ck_assert_str_eq(o.devices[1].name, "cros_fp");
	ck_assert_str_eq(o.devices[1].profile, "./my:fp.profile");
	ck_assert_str_eq(o.devices[2].name, "cros_tp");
	ck_assert_ptr_null(o.devices[2].profile);
	/* The first is what --name names: the default device. */
	ck_assert_str_eq(o.name, "cros_ec");

	/* One --device is the one node, through CUSE too, with its files. */
	ck_assert_int_eq(parse_args(&o, text, sizeof(text), "--device=cros_fp:fingerprint",
				    "--state=/tmp/fp.state", NULL), 0);
	ck_assert_uint_eq(o.n_devices, 1);
	ck_assert_str_eq(o.name, "cros_fp");
	/* The whole text: its profile directory is as long as the prefix makes it. */
	ck_assert_int_eq(parse_args(&o, help, sizeof(help), "--help", NULL), CUSE_EC_OPTIONS_EXIT);
	ck_assert_msg(strstr(help, "--device=NAME[:PROFILE]"), "--help lacks --device: %s", help);
}
END_TEST

START_TEST(test_device_options_bad)
{
	char name64[CUSE_EC_NAME_MAX + 8], arg[CUSE_EC_NAME_MAX + 32], many[CUSE_EC_DEVICES_MAX + 1][24];
	struct cuse_ec_options o;
	char *argv[CUSE_EC_DEVICES_MAX + 4], text[512];
	FILE *sink;
	int i;

	REFUSED("invalid --device 'a/b'", "--device=a/b");
	REFUSED("invalid --device ''", "--device=");
	REFUSED("invalid --device ':laptop'", "--device=:laptop");
	REFUSED("invalid --device '.x'", "--device=.x");
	REFUSED("invalid --device '-x:laptop'", "--device=-x:laptop");
	memset(name64, 'n', CUSE_EC_NAME_MAX);
	name64[CUSE_EC_NAME_MAX] = '\0';
	snprintf(arg, sizeof(arg), "--device=%s", name64);
	REFUSED("invalid --device", arg);
	REFUSED("a profile name or file after the colon", "--device=cros_fp:");
	REFUSED("cros_ec is served once", "--device=cros_ec", "--device=cros_fp",
		"--device=cros_ec:minimal", "--socket-dir=/tmp");
	REFUSED("--name and --profile describe the one node", "--name=x", "--device=cros_ec");
	REFUSED("--name and --profile describe the one node", "--device=cros_ec", "--profile=laptop");
	REFUSED("one node's", "--device=a", "--device=b", "--socket-dir=/tmp", "--state=/tmp/s");
	REFUSED("one node's", "--device=a", "--device=b", "--socket-dir=/tmp", "--record=/tmp/r");
	REFUSED("one node's", "--device=a", "--device=b", "--socket-dir=/tmp", "--replay=/tmp/r");
	REFUSED("one node's", "--device=a", "--device=b", "--socket-dir=/tmp", "--follow=/sys/x");
	REFUSED("one node's", "--device=a", "--device=b", "--socket-dir=/tmp",
		"--follow-match=ID_X=1");
	/* The second device's socket path is too long, not the first's. */
	snprintf(arg, sizeof(arg), "--device=%.*s", CUSE_EC_NAME_MAX - 1, name64);
	REFUSED("longer than a socket path", "--device=a", arg,
		"--socket-dir=/tmp/a-directory-name-long-enough-to-overflow-a-socket-path-with-it");

	/* One more than the most. */
	argv[0] = "cuse_ec";
	for (i = 0; i <= CUSE_EC_DEVICES_MAX; i++) {
		snprintf(many[i], sizeof(many[i]), "--device=d%d", i);
		argv[i + 1] = many[i];
	}
	argv[i + 1] = "--socket-dir=/tmp";
	argv[i + 2] = NULL;
	sink = fopen("/dev/null", "w");
	ck_assert_ptr_nonnull(sink);
	ck_assert_int_eq(cuse_ec_parse_options(i + 2, argv, &o, sink, sink), -EINVAL);
	argv[CUSE_EC_DEVICES_MAX + 1] = "--socket-dir=/tmp";
	argv[CUSE_EC_DEVICES_MAX + 2] = NULL;
	ck_assert_int_eq(cuse_ec_parse_options(CUSE_EC_DEVICES_MAX + 2, argv, &o, sink, sink), 0);
	ck_assert_uint_eq(o.n_devices, CUSE_EC_DEVICES_MAX);
	fclose(sink);
}
END_TEST

/* ---- "@NAME" ---- */

START_TEST(test_parse_device_prefix)
{
	struct control_cmd cmd;
	char err[256];

	ck_assert_int_eq(control_parse("status", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(cmd.device, "");
	ck_assert_int_eq(control_parse("@cros_fp status", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(cmd.device, "cros_fp");
	ck_assert_str_eq(control_verb_name(&cmd), "status");
	ck_assert_int_eq(control_parse("  @cros_fp\tunplug wait", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(cmd.device, "cros_fp");
	ck_assert_str_eq(control_verb_name(&cmd), "unplug wait");
	ck_assert_int_eq(control_parse("@x.1 latency 5", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(cmd.device, "x.1");
	ck_assert_uint_eq(cmd.latency_ns, 5);

	ck_assert_int_eq(control_parse("@ status", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad device name '@'"), "%s", err);
	ck_assert_int_eq(control_parse("@a/b status", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad device name '@a/b'"), "%s", err);
	ck_assert_int_eq(control_parse("@-a status", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad device name"), "%s", err);
	ck_assert_int_eq(control_parse("@nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn "
				       "status", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "bad device name"), "%s", err);
	ck_assert_int_eq(control_parse("@cros_fp", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "empty command"), "%s", err);
	/* One device a line: a second "@" is no verb. */
	ck_assert_int_eq(control_parse("@a @b status", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "unknown command '@b'"), "%s", err);
	/* A device word does not make room for a fourth verb word. */
	ck_assert_int_eq(control_parse("@a unplug wait now", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "usage: unplug | unplug wait"), "%s", err);
	ck_assert_int_eq(control_parse("status@a", &cmd, err, sizeof(err)), -EINVAL);
}
END_TEST

/* ---- the server over two devices ---- */

static void request(struct ctl_conn *conn, const char *line, char *reply, size_t room)
{
	ck_assert_int_eq(ctl_request(conn, line, reply, room, 10000), 0);
}

#define EXPECT_PREFIX(conn, line, want)						\
	do {									\
		request(conn, line, reply, sizeof(reply));			\
		ck_assert_msg(!strncmp(reply, want, strlen(want)),		\
			      "'%s' -> '%s', expected '%s...'", line, reply, want); \
	} while (0)

#define EXPECT_HAS(conn, line, want)						\
	do {									\
		request(conn, line, reply, sizeof(reply));			\
		ck_assert_msg(strstr(reply, want), "'%s' -> '%s', expected '%s' in it", \
			      line, reply, want);				\
	} while (0)

/* How many of a "trace" reply's event lines name @event. */
static unsigned int trace_count(struct ctl_conn *conn, const char *line, const char *event)
{
	char reply[CTL_REPLY_MAX], word[40];
	unsigned int n, i, count = 0;

	request(conn, line, reply, sizeof(reply));
	ck_assert_msg(sscanf(reply, CTL_TRACE_HEADER "%u", &n) == 1, "'%s' -> '%s'", line, reply);
	snprintf(word, sizeof(word), " %s ", event);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(ctl_read_line(conn, reply, sizeof(reply), 10000), 0);
		count += strstr(reply, word) != NULL;
	}
	return count;
}

START_TEST(test_server_two_devices)
{
	struct chardev_ctx *ec = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_ctx *fp = harness_ctx(LIFECYCLE_REVOCABLE);
	const struct control_device devs[] = {
		{ .name = "cros_ec", .ctx = ec }, { .name = "cros_fp", .ctx = fp },
	};
	char dir[] = "/tmp/cuse_ec_devXXXXXX", path[128], reply[CTL_REPLY_MAX];
	struct control_server *srv;
	struct chardev_file *ec_file;
	struct ctl_conn conn;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ck_assert_int_eq(control_server_start_devices(devs, 2, path, &srv), 0);
	ck_assert_int_eq(ctl_open(&conn, path), 0);

	EXPECT_HAS(&conn, "info", " devices=cros_ec,cros_fp");
	EXPECT_HAS(&conn, "status", " device=cros_ec");
	EXPECT_HAS(&conn, "@cros_fp status", " device=cros_fp");

	/* cros_ec has a file open through the unplug of cros_fp, and answers. */
	ec_file = harness_open(ec);
	EXPECT_PREFIX(&conn, "@cros_fp unplug wait", "ok unplugged");
	ck_assert(!chardev_is_plugged(fp));
	ck_assert(chardev_is_plugged(ec));
	ck_assert_int_eq(harness_hello(ec_file), 4);
	EXPECT_PREFIX(&conn, "@cros_fp status", "ok unplugged");
	EXPECT_PREFIX(&conn, "status", "ok plugged");
	EXPECT_PREFIX(&conn, "@cros_ec status", "ok plugged");
	EXPECT_HAS(&conn, "@cros_fp stats", " unplugs=1 revocations=1 ");
	EXPECT_HAS(&conn, "stats", " unplugs=0 revocations=0 ");
	EXPECT_HAS(&conn, "@cros_ec stats", " ioctl_ok=1 ");
	EXPECT_PREFIX(&conn, "@cros_fp unplug", "error not plugged errno=ENODEV");
	EXPECT_PREFIX(&conn, "@cros_fp plug", "ok plugged");
	EXPECT_PREFIX(&conn, "@cros_ec plug", "error already plugged errno=EBUSY");
	/* Each device's trace is its own: cros_ec's holds no revoke. */
	ck_assert_uint_eq(trace_count(&conn, "@cros_fp trace", "revoke-start"), 1);
	ck_assert_uint_eq(trace_count(&conn, "@cros_ec trace", "revoke-start"), 0);
	ck_assert_uint_eq(trace_count(&conn, "@cros_ec trace", "plug"), 1);
	EXPECT_PREFIX(&conn, "@cros_ec latency 1000", "ok latency 1000 ns");

	/* A name not served, and a bad one. */
	EXPECT_PREFIX(&conn, "@cros_pd status",
		      "error no device 'cros_pd' (devices: cros_ec,cros_fp) errno=ENODEV");
	EXPECT_PREFIX(&conn, "@cros_pd unplug wait", "error no device 'cros_pd'");
	EXPECT_PREFIX(&conn, "@cros_pd trace", "error no device 'cros_pd'");
	EXPECT_PREFIX(&conn, "@../x status", "error bad device name '@../x'");
	ck_assert(chardev_is_plugged(ec) && chardev_is_plugged(fp));

	ctl_close(&conn);
	chardev_release(ec_file);
	control_server_stop(srv);
	rmdir(dir);
	harness_ctx_free(fp);
	harness_ctx_free(ec);
}
END_TEST

START_TEST(test_server_devices_bad)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_device devs[CTL_DEVICES_MAX + 1];
	char dir[] = "/tmp/cuse_ec_devXXXXXX", path[128], reply[CTL_REPLY_MAX];
	struct control_server *srv = NULL;
	struct ctl_conn conn;
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	for (i = 0; i <= CTL_DEVICES_MAX; i++)
		devs[i] = (struct control_device){ .name = "d", .ctx = ctx };
	ck_assert_int_eq(control_server_start_devices(devs, 0, path, &srv), -EINVAL);
	ck_assert_int_eq(control_server_start_devices(devs, CTL_DEVICES_MAX + 1, path, &srv),
			 -EINVAL);
	devs[1].name = NULL;
	ck_assert_int_eq(control_server_start_devices(devs, 2, path, &srv), -EINVAL);
	devs[1].name = "a/b";
	ck_assert_int_eq(control_server_start_devices(devs, 2, path, &srv), -EINVAL);
	ck_assert_ptr_null(srv);
	ck_assert_int_ne(access(path, F_OK), 0);

	/* One named device (a daemon of one node): "@" its own name reaches it. */
	devs[0] = (struct control_device){ .name = "cros_pd", .ctx = ctx };
	ck_assert_int_eq(control_server_start_devices(devs, 1, path, &srv), 0);
	ck_assert_int_eq(ctl_open(&conn, path), 0);
	EXPECT_PREFIX(&conn, "@cros_pd status", "ok plugged");
	EXPECT_HAS(&conn, "status", " device=cros_pd");
	EXPECT_HAS(&conn, "info", " devices=cros_pd");
	EXPECT_PREFIX(&conn, "@cros_ec status", "error no device 'cros_ec' (devices: cros_pd)");
	ctl_close(&conn);
	control_server_stop(srv);

	/* One unnamed device (control_server_start()): no name reaches it. */
	ck_assert_int_eq(control_server_start(ctx, path, &srv), 0);
	ck_assert_int_eq(ctl_open(&conn, path), 0);
	EXPECT_PREFIX(&conn, "@cros_ec status",
		      "error no device 'cros_ec' (devices: none named) errno=ENODEV");
	request(&conn, "status", reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");
	request(&conn, "info", reply, sizeof(reply));
	ck_assert_ptr_null(strstr(reply, "devices="));
	ctl_close(&conn);
	control_server_stop(srv);
	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("control_devices");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_device_options_good);
	tcase_add_test(tc, test_device_options_bad);
	tcase_add_test(tc, test_parse_device_prefix);
	tcase_add_test(tc, test_server_two_devices);
	tcase_add_test(tc, test_server_devices_bad);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
