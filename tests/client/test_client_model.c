// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_client_model.c - the client and every ecctl command against the
 * project's EC model (cuse_ec/libecmodel) behind the fake device: the two
 * sides must agree on the ABI without any kernel in between.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cros_ec/ec_commands.h>

#include "client/ec_client.h"
#include "client/ecctl_cli.h"
#include "ec/ec.h"
#include "tests/client/fake_dev.h"
#include "../check_run.h"

/* Ends the argument lists of the variadic helpers below. */
#define END ((const char *)NULL)

/* The model's side of the fake device: an EC and this file's chain entry. */
struct model {
	struct ec *ec;
	struct ec_notifier nb;
	uint32_t mask;
	struct fake_dev *dev;
	uint64_t now_ns;
};

static uint64_t fake_now(void *ctx)
{
	return __atomic_load_n(&((struct model *)ctx)->now_ns, __ATOMIC_RELAXED);
}

static void fake_sleep(void *ctx, uint64_t ns)
{
	__atomic_fetch_add(&((struct model *)ctx)->now_ns, ns, __ATOMIC_RELAXED);
}

static int model_host_command(void *ctx, uint32_t command, uint32_t version, const void *req,
			      size_t req_len, void *resp, size_t resp_max, uint32_t *status)
{
	return ec_host_command(((struct model *)ctx)->ec, command, version, req, req_len, resp,
			       resp_max, status);
}

static int model_read_memmap(void *ctx, uint32_t offset, uint32_t bytes, void *buf)
{
	return ec_read_memmap(((struct model *)ctx)->ec, offset, bytes, buf);
}

static int model_version_text(void *ctx, char *buf, size_t len)
{
	return ec_get_version_text(((struct model *)ctx)->ec, buf, len);
}

static size_t model_max_request(void *ctx)
{
	return ec_max_request(((struct model *)ctx)->ec);
}

static size_t model_max_response(void *ctx)
{
	return ec_max_response(((struct model *)ctx)->ec);
}

static void model_set_mask(void *ctx, uint32_t mask)
{
	struct model *m = ctx;

	__atomic_store_n(&m->mask, mask, __ATOMIC_RELAXED);
}

/* Events the file's mask selects go to the fake device's read() queue. */
static void model_notify(struct ec_notifier *nb, const struct ec_event *ev)
{
	struct model *m = (struct model *)((char *)nb - offsetof(struct model, nb));
	uint32_t mask = __atomic_load_n(&m->mask, __ATOMIC_RELAXED);

	if (ev->type < 32 && (mask & (1u << ev->type)))
		fake_dev_push_event(m->dev, ev->type, ev->data, ev->len);
}

static const struct fake_backend model_backend = {
	.host_command = model_host_command,
	.read_memmap = model_read_memmap,
	.version_text = model_version_text,
	.max_request = model_max_request,
	.max_response = model_max_response,
	.set_mask = model_set_mask,
};

static struct model model;
static struct fake_dev dev;

/* The shipped board profiles; the index of a loop test picks one. */
static const char *const profiles[] = { "laptop", "usbc-dual", "minimal" };
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

static void setup_profile(const char *name)
{
	struct ec_clock clock = { .now_ns = fake_now, .sleep_ns = fake_sleep, .ctx = &model };
	const char *srcdir = getenv("top_srcdir");
	struct ec_profile *profile;
	char path[4096], err[256] = "";

	memset(&model, 0, sizeof(model));
	model.now_ns = 1000000000ull;
	snprintf(path, sizeof(path), "%s/ec/profiles/%s.profile", srcdir ? srcdir : ".",
		 name);
	ck_assert_msg(ec_profile_load(path, &profile, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(ec_create(profile, &clock, &model.ec), 0);
	ec_profile_free(profile);
	fake_dev_init(&dev, &model_backend, &model);
	model.dev = &dev;
	model.nb.call = model_notify;
	ck_assert_int_eq(ec_notifier_register(model.ec, &model.nb), 0);
}

/* Tests not looped over profiles run on the built-in default. */
static void setup_default(void)
{
	struct ec_clock clock = { .now_ns = fake_now, .sleep_ns = fake_sleep, .ctx = &model };
	struct ec_profile *profile;

	memset(&model, 0, sizeof(model));
	model.now_ns = 1000000000ull;
	ck_assert_int_eq(ec_profile_default(&profile), 0);
	ck_assert_int_eq(ec_create(profile, &clock, &model.ec), 0);
	ec_profile_free(profile);
	fake_dev_init(&dev, &model_backend, &model);
	model.dev = &dev;
	model.nb.call = model_notify;
	ck_assert_int_eq(ec_notifier_register(model.ec, &model.nb), 0);
}

static void teardown(void)
{
	if (!model.ec)
		return;
	ec_notifier_unregister(model.ec, &model.nb);
	ec_destroy(model.ec);
	model.ec = NULL;
	fake_dev_destroy(&dev);
}

static struct ec_client *attach_ok(unsigned int flags)
{
	struct ec_client_error err;
	struct ec_client *c = NULL;

	ck_assert_msg(ec_client_attach(&fake_transport, &dev, flags, &err, &c) == 0, "%s",
		      err.message);
	return c;
}

/* Run one ecctl command line; its output and error text are returned. */
static int run_cli(struct ec_client *c, char **out_text, char **err_text, const char *a0, ...)
{
	char *argv[16], msg[160];
	size_t out_len, err_len;
	struct ecctl_opts o;
	FILE *out, *err;
	const char *a;
	va_list ap;
	int argc = 0, status;

	argv[argc++] = (char *)"ecctl";
	va_start(ap, a0);
	for (a = a0; a; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	ck_assert_msg(ecctl_parse_args(argc, argv, &o, msg, sizeof(msg)) == 0, "%s", msg);
	out = open_memstream(out_text, &out_len);
	err = open_memstream(err_text, &err_len);
	status = ecctl_run(c, &o, out, err);
	fclose(out);
	fclose(err);
	return status;
}

START_TEST(model_startup_and_sizes)
{
	struct ec_client *c = attach_ok(0);

	ck_assert_uint_eq(ec_client_max_request(c), ec_max_request(model.ec));
	ck_assert_uint_eq(ec_client_max_response(c), ec_max_response(model.ec));
	ck_assert_int_eq(strncmp(ec_client_version_text(c), "1.0.0\n", 6), 0);
	ec_client_close(c);
}
END_TEST

static const char *const every_command[][4] = {
	{ "hello" }, { "version" }, { "chipinfo" }, { "protoinfo" }, { "cmdversions", "0x600" },
	{ "battery" }, { "temps" }, { "fans" }, { "console" }, { "uptime" }, { "panicinfo" },
	{ "usbpd", "ports" }, { "usbpd", "power" }, { "raw", "1", "0", "01020304" },
	{ "kblight" }, { "kblight", "40" },
};

#define NCOMMANDS (sizeof(every_command) / sizeof(every_command[0]))

/*
 * Every command on every shipped profile: it succeeds, or the EC refuses it
 * with a status (a command the board does not have). Never a transport or
 * protocol error: that would mean client and EC disagree on the ABI.
 */
START_TEST(model_every_command)
{
	const char *const *cmd = every_command[_i % NCOMMANDS];
	const char *profile = profiles[_i / NCOMMANDS];
	struct ec_client *c;
	char *out = NULL, *err = NULL;
	int status;

	setup_profile(profile);
	c = attach_ok(0);
	status = run_cli(c, &out, &err, cmd[0], cmd[1], cmd[2], cmd[3], END);
	if (status == ECCTL_EXIT_OK)
		ck_assert_msg(*out, "%s/%s printed nothing", profile, cmd[0]);
	else
		ck_assert_msg(strstr(err, "EC error") || strstr(out, "Result: "),
			      "%s/%s: %s", profile, cmd[0], err);
	free(out);
	free(err);
	status = run_cli(c, &out, &err, "--json", cmd[0], cmd[1], cmd[2], cmd[3], END);
	if (status == ECCTL_EXIT_OK)
		ck_assert_msg(out[0] == '{' && out[strlen(out) - 2] == '}',
			      "%s/%s: bad JSON '%s'", profile, cmd[0], out);
	free(out);
	free(err);
	ec_client_close(c);
}
END_TEST

/* The commands a real client needs most work on every board. */
START_TEST(model_core_commands_succeed)
{
	static const char *const core[] = { "hello", "version", "chipinfo", "protoinfo",
					    "temps", "console", "uptime" };
	struct ec_client *c;
	char *out = NULL, *err = NULL;
	size_t k;

	setup_profile(profiles[_i]);
	c = attach_ok(0);
	for (k = 0; k < sizeof(core) / sizeof(core[0]); k++) {
		ck_assert_msg(run_cli(c, &out, &err, core[k], END) == ECCTL_EXIT_OK, "%s/%s: %s",
			      profiles[_i], core[k], err);
		free(out);
		free(err);
	}
	ec_client_close(c);
}
END_TEST

START_TEST(model_memmap_paths_agree)
{
	struct ec_client *direct = attach_ok(0);
	struct ec_client *via_cmd;
	uint8_t a[256], b[256];
	uint32_t off;

	fake_dev_destroy(&dev);
	fake_dev_init(&dev, &model_backend, &model);
	via_cmd = attach_ok(EC_CLIENT_NO_MEMMAP);
	for (off = 0; off < 256; off += 64) {
		ck_assert_int_eq(ec_client_readmem(direct, off, 64, a), 64);
		ck_assert_int_eq(ec_client_readmem(via_cmd, off, 64, b), 64);
		ck_assert_mem_eq(a, b, 64);
	}
	ck_assert_int_eq(ec_client_readmem(direct, EC_MEMMAP_BATT_MFGR, 0, a),
			 ec_client_readmem(via_cmd, EC_MEMMAP_BATT_MFGR, 0, b));
	ec_client_close(direct);
	ec_client_close(via_cmd);
}
END_TEST

START_TEST(model_events)
{
	struct ec_client *c = attach_ok(0);
	const uint8_t payload[2] = { 0x12, 0x34 };
	uint8_t ev[32];
	int n;

	ck_assert_int_eq(ec_client_set_event_mask(c, 1u << EC_MKBP_EVENT_SENSOR_FIFO), 0);
	ck_assert_int_eq(ec_inject_event(model.ec, EC_MKBP_EVENT_SENSOR_FIFO, payload, 2), 0);
	n = ec_client_read_event(c, ev, sizeof(ev), 1000);
	ck_assert_int_ge(n, 3);
	ck_assert_uint_eq(ev[0] & EC_MKBP_EVENT_TYPE_MASK, EC_MKBP_EVENT_SENSOR_FIFO);
	ck_assert_mem_eq(ev + 1, payload, 2);
	/* Masked-out types never arrive. */
	ck_assert_int_eq(ec_inject_event(model.ec, EC_MKBP_EVENT_BUTTON, payload, 1), 0);
	ck_assert_int_eq(ec_client_read_event(c, ev, sizeof(ev), 20), -ETIMEDOUT);
	ec_client_close(c);
}
END_TEST

START_TEST(model_hello_typed)
{
	struct ec_client *c = attach_ok(0);
	struct ec_info_protocol p;
	uint32_t out, mask;

	ck_assert_int_eq(ec_client_hello(c, 0x11111111, &out), 0);
	ck_assert_uint_eq(out, 0x11111111 + EC_HELLO_MAGIC);
	ck_assert_int_eq(ec_client_protoinfo(c, &p), 0);
	ck_assert_uint_eq(p.max_request_packet - 8u, ec_client_max_request(c));
	ck_assert_int_eq(ec_client_cmd_versions(c, 0x3fff, &mask), 0);
	ck_assert_uint_eq(mask, 0);
	ck_assert_int_eq(ec_client_cmd_versions(c, EC_CMD_HELLO, &mask), 0);
	ck_assert_uint_eq(mask & 1, 1);
	/* Asked as ectool asks (v1 for a command <= 0xff) and v0: the same. */
	ck_assert_int_eq(ec_client_cmd_versions_ver(c, EC_CMD_FLASH_INFO, 1, &mask), 0);
	ck_assert_uint_eq(mask, EC_VER_MASK(0) | EC_VER_MASK(1));
	ck_assert_int_eq(ec_client_cmd_versions_ver(c, EC_CMD_FLASH_INFO, 0, &mask), 0);
	ck_assert_uint_eq(mask, EC_VER_MASK(0) | EC_VER_MASK(1));
	ck_assert_int_eq(ec_client_cmd_versions_ver(c, EC_CMD_FLASH_INFO, 2, &mask), -EINVAL);
	ec_client_close(c);
}
END_TEST

/* The keyboard backlight through libecclient and ecctl, and its bad inputs. */
START_TEST(model_kblight)
{
	struct ec_client *c = attach_ok(0);
	char *out = NULL, *err = NULL;
	uint8_t pct;
	bool on;

	ck_assert_int_eq(ec_client_set_kblight(c, 40), 0);
	ck_assert_int_eq(ec_client_kblight(c, &pct, &on), 0);
	ck_assert_uint_eq(pct, 40);
	ck_assert(on);
	ck_assert_int_eq(ec_client_set_kblight(c, 101), -EINVAL);
	ck_assert_int_eq(run_cli(c, &out, &err, "kblight", "0", END), ECCTL_EXIT_OK);
	ck_assert_str_eq(out, "Keyboard backlight: 0% (off)\n");
	free(out);
	free(err);
	ck_assert_int_eq(run_cli(c, &out, &err, "--json", "kblight", END), ECCTL_EXIT_OK);
	ck_assert_str_eq(out, "{\"percent\":0,\"enabled\":false}\n");
	free(out);
	free(err);
	{
		char *argv[] = { "ecctl", "kblight", "101", NULL };
		struct ecctl_opts o;
		char msg[160] = "";

		ck_assert_int_eq(ecctl_parse_args(3, argv, &o, msg, sizeof(msg)), -EINVAL);
		ck_assert_msg(strstr(msg, "backlight percent"), "%s", msg);
	}
	ec_client_close(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("client_model");
	TCase *tc = tcase_create("model");
	TCase *profiles_tc = tcase_create("profiles");

	tcase_add_checked_fixture(tc, setup_default, teardown);
	tcase_add_test(tc, model_startup_and_sizes);
	tcase_add_test(tc, model_memmap_paths_agree);
	tcase_add_test(tc, model_events);
	tcase_add_test(tc, model_hello_typed);
	tcase_add_test(tc, model_kblight);
	suite_add_tcase(s, tc);

	/* These pick their profile themselves; teardown frees it. */
	tcase_add_checked_fixture(profiles_tc, NULL, teardown);
	tcase_add_loop_test(profiles_tc, model_every_command, 0, (int)(NPROFILES * NCOMMANDS));
	tcase_add_loop_test(profiles_tc, model_core_commands_succeed, 0, (int)NPROFILES);
	suite_add_tcase(s, profiles_tc);

	return check_run_suite(s);
}
