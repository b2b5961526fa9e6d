// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_fault.c - faults on demand (ec_fault.c): the rule parser with
 * every bad input, the text form both ways, the plan's bookkeeping (order,
 * times, chance, the recovery commands spared), and what each kind makes
 * of a host command.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

static struct fake_clock fc;
static struct ec *ec;
static struct ec_fault_plan *plan;

static void setup(void)
{
	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_fault_plan_create(42, &plan), 0);
	ec_set_fault_plan(ec, plan);
}

static void teardown(void)
{
	ec_destroy(ec);
	ec = NULL;
	ec_fault_plan_destroy(plan);
	plan = NULL;
}

static void add(const char *spec)
{
	struct ec_fault f;
	char err[160] = "";

	ck_assert_msg(!ec_fault_parse(spec, &f, err, sizeof(err)), "%s: %s", spec, err);
	ck_assert_int_eq(ec_fault_plan_add(plan, &f), 0);
}

/* HELLO through the EC: its ec_host_command_effects() return value. */
static int hello(uint32_t *status, struct ec_cmd_effects *fx)
{
	uint8_t req[4] = { 1, 2, 3, 4 }, resp[4] = { 0 };

	return ec_host_command_effects(ec, EC_CMD_HELLO, 0, req, 4, resp, 4, status, fx);
}

START_TEST(test_parse_defaults_and_items)
{
	struct ec_fault f;
	char err[160];

	ck_assert_int_eq(ec_fault_parse("eio", &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(f.command, EC_FAULT_ANY_COMMAND);
	ck_assert_int_eq(f.kind, EC_FAULT_EIO);
	ck_assert_uint_eq(f.times, 1);
	ck_assert_uint_eq(f.ppm, 1000000);

	ck_assert_int_eq(ec_fault_parse("cmd=0x0b,result=busy,times=3,p=0.25", &f, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(f.command, 0x0b);
	ck_assert_int_eq(f.kind, EC_FAULT_RESULT);
	ck_assert_uint_eq(f.arg, EC_RES_BUSY);
	ck_assert_uint_eq(f.times, 3);
	ck_assert_uint_eq(f.ppm, 250000);

	ck_assert_int_eq(ec_fault_parse("p=1,times=always,result=17,cmd=65535", &f, err,
					sizeof(err)), 0);
	ck_assert_uint_eq(f.arg, 17);
	ck_assert_uint_eq(f.times, 0);
	ck_assert_uint_eq(f.command, 0xFFFF);

	ck_assert_int_eq(ec_fault_parse("delay=50ms", &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(f.arg, 50000000);
	ck_assert_int_eq(ec_fault_parse("short=0", &f, err, sizeof(err)), 0);
	ck_assert_uint_eq(f.arg, 0);
}
END_TEST

START_TEST(test_parse_bad_inputs)
{
	static const char *const bad[] = {
		"", ",", "eio,", ",eio", "eio,,cmd=1", "frobnicate", "eio,eio",
		"eio,unplug", "result", "result=", "result=NOPE", "result=256",
		"result=-1", "short", "short=x", "short=65536", "delay", "delay=5",
		"delay=61s", "delay=-1ms", "oversize=1", "eio=1", "unplug=yes",
		"cmd=1", "eio,cmd", "eio,cmd=", "eio,cmd=0x10000", "eio,cmd=some",
		"eio,cmd=1,cmd=2", "eio,times", "eio,times=0", "eio,times=1000001",
		"eio,times=never", "eio,times=1,times=2", "eio,p", "eio,p=0", "eio,p=1.5",
		"eio,p=-0.5", "eio,p=0.0000001", "eio,p=1,p=1", "eio,P=1", "EIO",
		"eio cmd=1", "eio;cmd=1", "cmd=all",
		"eio,cmd=all,times=always,p=0.5,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	};
	struct ec_fault f = { .kind = EC_FAULT_DELAY, .arg = 7 };
	char err[160];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(ec_fault_parse(bad[i], &f, err, sizeof(err)) < 0,
			      "'%s' was accepted", bad[i]);
		ck_assert_msg(err[0], "'%s' was refused without a reason", bad[i]);
		/* Nothing written on failure. */
		ck_assert_int_eq(f.kind, EC_FAULT_DELAY);
		ck_assert_uint_eq(f.arg, 7);
	}
	ck_assert_int_lt(ec_fault_parse(NULL, &f, err, sizeof(err)), 0);
}
END_TEST

/* The text form reads back as the same rule, for every kind. */
START_TEST(test_format_round_trip)
{
	static const char *const specs[] = {
		"result=BUSY", "result=200,cmd=0x4001", "short=3,times=always",
		"oversize,p=0.000001", "delay=1500us,times=7", "eio,p=0.5", "timeout",
		"in_progress,cmd=0", "unplug,cmd=0x0002,p=0.999999",
	};
	char text[EC_FAULT_TEXT_MAX], err[160];
	struct ec_fault a, b;
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		ck_assert_int_eq(ec_fault_parse(specs[i], &a, err, sizeof(err)), 0);
		ck_assert_uint_lt(ec_fault_format(&a, text, sizeof(text)), sizeof(text));
		ck_assert_msg(!ec_fault_parse(text, &b, err, sizeof(err)), "%s -> %s: %s",
			      specs[i], text, err);
		ck_assert_msg(!memcmp(&a, &b, sizeof(a)), "%s -> %s reads back otherwise",
			      specs[i], text);
	}
	ck_assert_int_eq(ec_fault_parse("cmd=11,result=busy", &a, err, sizeof(err)), 0);
	ec_fault_format(&a, text, sizeof(text));
	ck_assert_str_eq(text, "cmd=0x000b,result=BUSY,times=1,p=1");
	/* Every kind has a name and a line of help; none and beyond have none. */
	for (i = EC_FAULT_NONE + 1; i < EC_FAULT_KINDS; i++) {
		ck_assert_str_ne(ec_fault_kind_name(i), "none");
		ck_assert_str_ne(ec_fault_kind_help(i), "");
	}
	ck_assert_str_eq(ec_fault_kind_name(EC_FAULT_NONE), "none");
	ck_assert_str_eq(ec_fault_kind_name(EC_FAULT_KINDS), "none");
	ck_assert_str_eq(ec_fault_kind_help(EC_FAULT_KINDS), "");
}
END_TEST

START_TEST(test_plan_bookkeeping)
{
	struct ec_fault rules[EC_FAULT_RULES_MAX], none = { .kind = EC_FAULT_NONE, .ppm = 1 };
	uint64_t injected = 99;
	struct ec_fault f;
	char err[160];
	int i;

	for (i = 0; i < EC_FAULT_RULES_MAX; i++)
		add("eio,cmd=0x1234");
	ck_assert_int_eq(ec_fault_parse("eio", &f, err, sizeof(err)), 0);
	ck_assert_int_eq(ec_fault_plan_add(plan, &f), -ENOSPC);
	f.ppm = 0;
	ck_assert_int_eq(ec_fault_plan_add(plan, &f), -EINVAL);
	ck_assert_int_eq(ec_fault_plan_add(plan, &none), -EINVAL);
	ck_assert_int_eq(ec_fault_plan_add(NULL, &none), -EINVAL);
	ck_assert_uint_eq(ec_fault_plan_list(plan, rules, 2, &injected), EC_FAULT_RULES_MAX);
	ck_assert_uint_eq(injected, 0);
	ck_assert_uint_eq(rules[1].command, 0x1234);
	ck_assert_uint_eq(ec_fault_plan_clear(plan), EC_FAULT_RULES_MAX);
	ck_assert_uint_eq(ec_fault_plan_list(plan, rules, EC_FAULT_RULES_MAX, NULL), 0);
	ec_fault_plan_destroy(NULL);
}
END_TEST

/* result=: the answer without running it (a cold reboot does not happen). */
START_TEST(test_result_does_not_run)
{
	struct ec_cmd_effects fx;
	uint8_t req[2] = { EC_REBOOT_COLD, 0 };
	uint32_t status;

	add("cmd=0x00d2,result=ACCESS_DENIED");
	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_REBOOT_EC, 0, req, 2, NULL, 0,
						 &status, &fx), 0);
	ck_assert_uint_eq(status, EC_RES_ACCESS_DENIED);
	ck_assert_int_eq(fx.fault, EC_FAULT_RESULT);
	ck_assert_uint_eq(fx.cold_resets, 0);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);
	/* Once by default: the next one runs. */
	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_REBOOT_EC, 0, req, 2, NULL, 0,
						 &status, &fx), 0);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_NONE);
	ck_assert_uint_eq(ec_cold_resets(ec), 1);
}
END_TEST

START_TEST(test_each_transport_kind)
{
	struct ec_cmd_effects fx;
	uint64_t slept;
	uint32_t status;

	add("eio,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), -EIO);
	ck_assert_int_eq(fx.fault, EC_FAULT_EIO);

	add("oversize,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), -EMSGSIZE);
	ck_assert_int_eq(fx.fault, EC_FAULT_OVERSIZE);

	slept = fc.slept;
	add("timeout,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), -ETIMEDOUT);
	ck_assert_uint_eq(status, EC_RES_TIMEOUT);
	ck_assert_int_eq(fx.fault, EC_FAULT_TIMEOUT);
	ck_assert_uint_eq(fc.slept - slept, NS_PER_S);	/* the profile's timeout_delay */

	slept = fc.slept;
	add("delay=3ms,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_DELAY);
	ck_assert_uint_eq(fc.slept - slept, 3000000);

	ck_assert_int_eq(hello(&status, &fx), 4);
	ck_assert_int_eq(fx.fault, EC_FAULT_NONE);
}
END_TEST

START_TEST(test_short_in_progress_unplug)
{
	uint8_t req[4] = { 1, 2, 3, 4 }, resp[4] = { 0 }, comms[4];
	struct ec_cmd_effects fx;
	uint32_t status;

	add("short=2,cmd=1");
	ck_assert_int_eq(ec_host_command_effects(ec, EC_CMD_HELLO, 0, req, 4, resp, 4,
						 &status, &fx), 2);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_SHORT);
	ck_assert_uint_eq(le16(resp), 0x0505);	/* HELLO adds 0x01020304 */
	ck_assert_uint_eq(resp[2], 0);

	add("in_progress,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), 0);
	ck_assert_uint_eq(status, EC_RES_IN_PROGRESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_IN_PROGRESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_COMMS_STATUS, 0, NULL, 0, comms, 4, NULL),
			  EC_RES_SUCCESS);
	memset(resp, 0, sizeof(resp));
	ck_assert_uint_eq(hc_status(ec, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, resp, 4, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 0x04030201u + 0x01020304u);

	add("unplug,cmd=1");
	ck_assert_int_eq(hello(&status, &fx), 4);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	ck_assert_int_eq(fx.fault, EC_FAULT_UNPLUG);
}
END_TEST

/* Order, times, the command filter and the recovery commands spared. */
START_TEST(test_matching)
{
	struct ec_fault rules[EC_FAULT_RULES_MAX];
	struct ec_cmd_effects fx;
	uint64_t injected;
	uint8_t buf[8], big[256];
	uint32_t status;
	int i;

	add("result=BUSY,times=2");
	add("eio,cmd=1,times=always");
	/* The recovery commands are spared by cmd=all... */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_COMMS_STATUS, 0, NULL, 0, buf, 4, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_fault_plan_list(plan, rules, EC_FAULT_RULES_MAX, &injected), 2);
	ck_assert_uint_eq(rules[0].times, 2);
	ck_assert_uint_eq(injected, 0);
	/* ...the first rule that hits decides, twice, then it is gone. */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(hello(&status, &fx), 0);
		ck_assert_uint_eq(status, EC_RES_BUSY);
	}
	ck_assert_uint_eq(ec_fault_plan_list(plan, rules, EC_FAULT_RULES_MAX, &injected), 1);
	ck_assert_uint_eq(injected, 2);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(hello(&status, &fx), -EIO);
	/* Other commands pass the cmd=1 rule by. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_GET_VERSION, 0, NULL, 0, big, sizeof(big), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_fault_plan_list(plan, rules, EC_FAULT_RULES_MAX, &injected), 1);
	ck_assert_uint_eq(rules[0].times, 0);
	ck_assert_uint_eq(injected, 7);
	/* ...but a rule naming a recovery command hits it. */
	ec_fault_plan_clear(plan);
	add("cmd=0x00db,eio");
	ck_assert_int_eq(hc(ec, EC_CMD_RESEND_RESPONSE, 0, NULL, 0, buf, 4, &status), -EIO);
	/* No plan: plain answers. */
	add("eio");
	ec_set_fault_plan(ec, NULL);
	ck_assert_int_eq(hello(&status, &fx), 4);
	ck_assert_int_eq(fx.fault, EC_FAULT_NONE);
}
END_TEST

/*
 * p draws from the plan's seed: the same seed gives the same run, and the
 * count over many commands is near p (a fixed seed: this is no chance test).
 */
static unsigned int hits_with_seed(uint64_t seed, unsigned int runs)
{
	struct ec_fault_plan *p;
	struct ec_cmd_effects fx;
	struct ec_fault f;
	unsigned int i, hits = 0;
	uint32_t status;
	char err[160];

	ck_assert_int_eq(ec_fault_plan_create(seed, &p), 0);
	ck_assert_int_eq(ec_fault_parse("eio,times=always,p=0.25,cmd=1", &f, err,
					sizeof(err)), 0);
	ck_assert_int_eq(ec_fault_plan_add(p, &f), 0);
	ec_set_fault_plan(ec, p);
	for (i = 0; i < runs; i++)
		hits += hello(&status, &fx) == -EIO;
	ec_set_fault_plan(ec, plan);
	ec_fault_plan_destroy(p);
	return hits;
}

START_TEST(test_probability_seeded)
{
	unsigned int a = hits_with_seed(7, 4000), b = hits_with_seed(7, 4000);
	unsigned int c = hits_with_seed(8, 4000);

	ck_assert_uint_eq(a, b);
	ck_assert_uint_gt(a, 800);
	ck_assert_uint_lt(a, 1200);
	ck_assert_uint_gt(c, 800);
	ck_assert_uint_lt(c, 1200);
	ck_assert_uint_ne(a, c);
	ck_assert_uint_eq(hits_with_seed(0, 100), hits_with_seed(0, 100));
}
END_TEST

static Suite *fault_suite(void)
{
	Suite *s = suite_create("fault");
	TCase *tc = tcase_create("fault");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_parse_defaults_and_items);
	tcase_add_test(tc, test_parse_bad_inputs);
	tcase_add_test(tc, test_format_round_trip);
	tcase_add_test(tc, test_plan_bookkeeping);
	tcase_add_test(tc, test_result_does_not_run);
	tcase_add_test(tc, test_each_transport_kind);
	tcase_add_test(tc, test_short_in_progress_unplug);
	tcase_add_test(tc, test_matching);
	tcase_add_test(tc, test_probability_seeded);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(fault_suite());
}
