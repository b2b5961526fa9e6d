// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hs_parse.c - hotplug_sim's parsers: mixes, errno lists, uevent
 * arguments and lines, scenario files and the command line (the number and
 * duration rules themselves are tests/common's).
 * Bad input first: every rejection must come with a useful message.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hotplug_sim/hs.h"
#include "../check_run.h"

/* A large struct: one per test, off the stack. */
static struct hs_config *new_config(void)
{
	struct hs_config *cfg = malloc(sizeof(*cfg));

	ck_assert_ptr_nonnull(cfg);
	hs_config_init(cfg);
	return cfg;
}

START_TEST(mix_good_and_bad)
{
	static const char *const bad[] = {
		"", "xcmd", "xcmd=", "xcmd=50", "xcmd=70,readmem=20", "xcmd=70,readmem=40",
		"xcmd=101,readmem=0", "ioctl=100", "xcmd=50,xcmd=50", "xcmd=-10,readmem=110",
		"xcmd=5O,readmem=50", ",,,",
	};
	unsigned int pct = 33;
	char err[HS_ERR_MAX];

	ck_assert_int_eq(hs_parse_mix("xcmd=70,readmem=30", &pct, err), 0);
	ck_assert_uint_eq(pct, 70);
	ck_assert_int_eq(hs_parse_mix("readmem=100", &pct, err), 0);
	ck_assert_uint_eq(pct, 0);
	ck_assert_int_eq(hs_parse_mix("xcmd=100", &pct, err), 0);
	ck_assert_uint_eq(pct, 100);
	ck_assert_int_eq(hs_parse_mix("xcmd=25 readmem=75", &pct, err), 0);
	ck_assert_uint_eq(pct, 25);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(hs_parse_mix(bad[i], &pct, err) == -EINVAL, "accepted '%s'", bad[i]);
		ck_assert_msg(err[0], "no message for '%s'", bad[i]);
	}
	ck_assert_uint_eq(pct, 25);
}
END_TEST

START_TEST(expect_good_and_bad)
{
	bool set[HS_OUTCOME_SLOTS];
	char err[HS_ERR_MAX];

	ck_assert_int_eq(hs_parse_expect("ok,ENODEV,EIO", set, err), 0);
	ck_assert(set[0] && set[ENODEV] && set[EIO]);
	ck_assert(!set[EINVAL] && !set[HS_OUTCOME_EC_ERROR]);
	ck_assert_int_eq(hs_parse_expect("EC_ERROR ENOTCONN", set, err), 0);
	ck_assert(!set[0] && set[ENOTCONN] && set[HS_OUTCOME_EC_ERROR]);

	ck_assert_int_eq(hs_parse_expect("ok,ENOSUCH", set, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ENOSUCH"));
	ck_assert_int_eq(hs_parse_expect("", set, err), -EINVAL);
	ck_assert_int_eq(hs_parse_expect(",", set, err), -EINVAL);
	ck_assert_int_eq(hs_parse_expect("enodev", set, err), -EINVAL);
	ck_assert_int_eq(hs_parse_expect("19", set, err), -EINVAL);
	ck_assert_int_eq(hs_parse_expect("E?", set, err), -EINVAL);
	/* A failed parse leaves the previous set alone. */
	ck_assert(set[ENOTCONN] && set[HS_OUTCOME_EC_ERROR]);
}
END_TEST

START_TEST(uevent_arg_bad)
{
	static const char *const bad[] = {
		"", "=", "KEY", "KEY=", "=VAL", "KE Y=1", "KEY=va-l", "KEY=a=b", "K_Y=1",
		"KEY=\n", "KEY=v\"", "KEY=01234567890123456789012345678901234567890123456789012345678901234",
		"K012345678901234567890123456789012=1",
	};
	struct hs_uevent_arg arg;
	char err[HS_ERR_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(hs_parse_uevent_arg(bad[i], &arg, err) == -EINVAL, "accepted '%s'",
			      bad[i]);
		ck_assert_msg(strstr(err, "uevent arg"), "no message for '%s'", bad[i]);
	}
	ck_assert_int_eq(hs_parse_uevent_arg("SIM1=run42", &arg, err), 0);
	ck_assert_str_eq(arg.key, "SIM1");
	ck_assert_str_eq(arg.val, "run42");
}
END_TEST

START_TEST(uevent_line)
{
	struct hs_uevent_arg args[2];
	const char *uuid = "0f8e3d2c-1b4a-4c5d-8e6f-708192a3b4c5";
	char err[HS_ERR_MAX], line[HS_UEVENT_LINE_MAX], tiny[20];

	ck_assert_int_eq(hs_parse_uevent_arg("A=1", &args[0], err), 0);
	ck_assert_int_eq(hs_parse_uevent_arg("Run=x7", &args[1], err), 0);
	ck_assert_int_eq(hs_format_uevent("remove", uuid, args, 2, line, sizeof(line)),
			 (int)strlen("remove ") + 36 + (int)strlen(" A=1 Run=x7"));
	ck_assert_str_eq(line, "remove 0f8e3d2c-1b4a-4c5d-8e6f-708192a3b4c5 A=1 Run=x7");
	ck_assert_int_gt(hs_format_uevent("add", uuid, NULL, 0, line, sizeof(line)), 0);
	ck_assert_str_eq(line, "add 0f8e3d2c-1b4a-4c5d-8e6f-708192a3b4c5");

	ck_assert_int_eq(hs_format_uevent("change", uuid, NULL, 0, line, sizeof(line)), -EINVAL);
	ck_assert_int_eq(hs_format_uevent("add", "not-a-uuid", NULL, 0, line, sizeof(line)),
			 -EINVAL);
	ck_assert_int_eq(hs_format_uevent("add", "0f8e3d2c-1b4a-4c5d-8e6f-708192a3b4cz", NULL, 0,
					  line, sizeof(line)), -EINVAL);
	ck_assert_int_eq(hs_format_uevent("add", "0f8e3d2c11b4a-4c5d-8e6f-708192a3b4c5", NULL, 0,
					  line, sizeof(line)), -EINVAL);
	ck_assert_int_eq(hs_format_uevent("add", uuid, NULL, 0, tiny, sizeof(tiny)),
			 -ENAMETOOLONG);
}
END_TEST

START_TEST(uuid_format)
{
	uint8_t rnd[16];
	char uuid[37], line[HS_UEVENT_LINE_MAX];

	memset(rnd, 0xff, sizeof(rnd));
	hs_format_uuid(rnd, uuid);
	ck_assert_str_eq(uuid, "ffffffff-ffff-4fff-bfff-ffffffffffff");
	memset(rnd, 0, sizeof(rnd));
	hs_format_uuid(rnd, uuid);
	ck_assert_str_eq(uuid, "00000000-0000-4000-8000-000000000000");
	/* What we generate, we also accept. */
	ck_assert_int_gt(hs_format_uevent("add", uuid, NULL, 0, line, sizeof(line)), 0);
}
END_TEST

START_TEST(outcome_slots)
{
	char buf[16];

	ck_assert_uint_eq(hs_outcome_slot(0), 0);
	ck_assert_uint_eq(hs_outcome_slot(12), 0);
	ck_assert_uint_eq(hs_outcome_slot(-ENODEV), ENODEV);
	ck_assert_uint_eq(hs_outcome_slot(-(4096 + 3)), HS_OUTCOME_EC_ERROR);
	ck_assert_uint_eq(hs_outcome_slot(-200), HS_OUTCOME_OTHER);
	ck_assert_str_eq(hs_outcome_name(0, buf), "ok");
	ck_assert_str_eq(hs_outcome_name(ENODEV, buf), "ENODEV");
	ck_assert_str_eq(hs_outcome_name(HS_OUTCOME_EC_ERROR, buf), "EC_ERROR");
	ck_assert_str_eq(hs_outcome_name(HS_OUTCOME_OTHER, buf), "OTHER");
	ck_assert_str_eq(hs_op_name(HS_OP_READMEM), "readmem");
	ck_assert_str_eq(hs_op_name(HS_OP_COUNT), "?");
}
END_TEST

/* Parse @text as a scenario file named "t.scn". */
static int parse_text(struct hs_config *cfg, const char *text, char *err)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int ret;

	ck_assert_ptr_nonnull(in);
	ret = hs_parse_scenario_file(cfg, in, "t.scn", err);
	fclose(in);
	return ret;
}

START_TEST(scenario_good)
{
	struct hs_config *cfg = new_config();
	char err[HS_ERR_MAX] = "";

	ck_assert_int_eq(parse_text(cfg,
		"# comment\n"
		"\n"
		"clients 6   # trailing comment\n"
		"mix xcmd=60 readmem=40\n"
		"readers 2\r\n"
		"pollers 1\n"
		"deadline 2s\n"
		"seed 99\n"
		"trigger control\n"
		"expect ok,ENODEV,EIO\n"
		"unplug\n"
		"sleep 200ms\n"
		"plug\n"
		"flap 100 period=20ms jitter=5ms\n"
		"inflight latency=80ms\n"
		"random 12 period=7ms\n"
		"fault cmd=0x0b,result=BUSY,times=2\n", err), 0);
	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(cfg->clients, 6);
	ck_assert_uint_eq(cfg->mix_xcmd, 60);
	ck_assert_uint_eq(cfg->readers, 2);
	ck_assert_uint_eq(cfg->pollers, 1);
	ck_assert_uint_eq(cfg->deadline_ns, 2000000000ull);
	ck_assert_uint_eq(cfg->seed, 99);
	ck_assert_int_eq(cfg->trigger, HS_TRIGGER_CONTROL);
	ck_assert(cfg->expect[EIO]);
	ck_assert_uint_eq(cfg->nsteps, 7);
	ck_assert_int_eq(cfg->steps[6].kind, HS_STEP_FAULT);
	ck_assert_str_eq(cfg->steps[6].fault, "cmd=0x0b,result=BUSY,times=2");
	ck_assert_str_eq(hs_step_name(HS_STEP_FAULT), "fault");
	ck_assert_int_eq(cfg->steps[0].kind, HS_STEP_UNPLUG);
	ck_assert_uint_eq(cfg->steps[0].line, 11);
	ck_assert_int_eq(cfg->steps[1].kind, HS_STEP_SLEEP);
	ck_assert_uint_eq(cfg->steps[1].duration_ns, 200000000ull);
	ck_assert_int_eq(cfg->steps[3].kind, HS_STEP_FLAP);
	ck_assert_uint_eq(cfg->steps[3].count, 100);
	ck_assert_uint_eq(cfg->steps[3].period_ns, 20000000ull);
	ck_assert_uint_eq(cfg->steps[3].jitter_ns, 5000000ull);
	ck_assert_int_eq(cfg->steps[4].kind, HS_STEP_INFLIGHT);
	ck_assert_uint_eq(cfg->steps[4].latency_ns, 80000000ull);
	ck_assert_int_eq(cfg->steps[5].kind, HS_STEP_RANDOM);
	ck_assert_uint_eq(cfg->steps[5].count, 12);
	ck_assert_uint_eq(cfg->steps[5].line, 16);
	free(cfg);
}
END_TEST

/* Each bad file: the error names the file, the line and the problem. */
START_TEST(scenario_bad)
{
	static const struct {
		const char *text;
		const char *want;
	} bad[] = {
		{ "bogus\n", "t.scn:1: unknown keyword 'bogus'" },
		{ "\nclients\n", "t.scn:2: 'clients' needs an argument" },
		{ "clients 4 5\n", "t.scn:1: too many arguments to 'clients'" },
		{ "clients 1000\n", "t.scn:1: invalid clients '1000': out of range 0..256" },
		{ "readers -1\n", "t.scn:1: invalid readers '-1': expected a whole number" },
		{ "pollers x\n", "t.scn:1: invalid pollers 'x': expected a whole number" },
		{ "mix xcmd=70 readmem=20\n", "t.scn:1: mix: percentages add up to 90" },
		{ "mix\n", "t.scn:1: 'mix' needs an argument" },
		{ "expect ok EWHAT\n", "t.scn:1: expect: unknown outcome 'EWHAT'" },
		{ "deadline 0\n", "t.scn:1: deadline must be above 0" },
		{ "deadline soon\n", "t.scn:1: invalid deadline 'soon': expected a number and a unit" },
		{ "seed\n", "t.scn:1: 'seed' needs an argument" },
		{ "trigger netlink\n", "t.scn:1: trigger: 'netlink' is not uevent or control" },
		{ "unplug now\n", "t.scn:1: too many arguments to 'unplug'" },
		{ "plug 1\n", "t.scn:1: too many arguments to 'plug'" },
		{ "sleep\n", "t.scn:1: 'sleep' needs an argument" },
		{ "sleep 5 parsecs\n", "t.scn:1: too many arguments to 'sleep'" },
		{ "sleep 5h\n", "t.scn:1: invalid sleep '5h': unknown unit 'h'" },
		{ "sleep 20\n", "t.scn:1: invalid sleep '20': needs a unit" },
		{ "flap\n", "t.scn:1: 'flap' needs an argument" },
		{ "flap 0\n", "t.scn:1: invalid cycles '0': out of range 1.." },
		{ "flap 10 period=0\n", "t.scn:1: period must be above 0" },
		{ "flap 10 period=10ms jitter=6ms\n", "t.scn:1: jitter must be at most half" },
		{ "flap 10 speed=3ms\n", "t.scn:1: unknown option 'speed'" },
		{ "flap 10 period\n", "t.scn:1: 'period' is not key=duration" },
		{ "flap 10 latency=3ms\n", "t.scn:1: unknown option 'latency'" },
		{ "inflight latency=0\n", "t.scn:1: latency must be above 0" },
		{ "inflight period=5ms\n", "t.scn:1: unknown option 'period'" },
		{ "random\n", "t.scn:1: 'random' needs an argument" },
		{ "random 5 jitter=1ms\n", "t.scn:1: unknown option 'jitter'" },
		{ "flap 5 duration=soon\n", "t.scn:1: invalid duration 'soon'" },
		{ "inflight duration=1s\n", "t.scn:1: unknown option 'duration'" },
		{ "clients 1\nclients 2\nunplug\x01\n", "t.scn:3: unprintable byte 0x01" },
		{ "sleep 1ms\nsleep \xc3\xa9\n", "t.scn:2: unprintable byte 0xc3" },
		{ "a b c d e f g h i j k l m n o p q\n", "t.scn:1: too many words" },
		{ "fault\n", "t.scn:1: 'fault' needs an argument" },
		{ "fault eio times=2\n", "t.scn:1: too many arguments to 'fault'" },
		{ "fault eio,cmd=all,times=always,p=0.5,xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
		  "t.scn:1: fault: rule longer than 95 characters" },
	};
	char err[HS_ERR_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hs_config *cfg = new_config();

		err[0] = '\0';
		ck_assert_msg(parse_text(cfg, bad[i].text, err) == -EINVAL, "accepted #%zu", i);
		ck_assert_msg(!strncmp(err, bad[i].want, strlen(bad[i].want)),
			      "#%zu: got '%s', want '%s...'", i, err, bad[i].want);
		free(cfg);
	}
}
END_TEST

START_TEST(scenario_long_line_and_too_many_steps)
{
	struct hs_config *cfg = new_config();
	char err[HS_ERR_MAX];
	size_t len = 600 + 8 * (HS_MAX_STEPS + 2);
	char *text = malloc(len);
	size_t used;

	ck_assert_ptr_nonnull(text);
	memset(text, 'x', 600);
	strcpy(text + 600, "\n");
	ck_assert_int_eq(parse_text(cfg, text, err), -EINVAL);
	ck_assert_str_eq(err, "t.scn:1: line too long (max 510 bytes)");

	hs_config_init(cfg);
	used = 0;
	for (unsigned int i = 0; i <= HS_MAX_STEPS; i++)
		used += (size_t)sprintf(text + used, "plug\n");
	ck_assert_int_eq(parse_text(cfg, text, err), -EINVAL);
	ck_assert_msg(strstr(err, "t.scn:1025: scenario: more than 1024 steps"), "got %s", err);
	free(text);
	free(cfg);
}
END_TEST

/* The shipped example scenarios must parse. */
START_TEST(scenario_examples)
{
	static const char *const files[] = { "flap.scn", "inflight.scn", "replug.scn" };
	char path[512], err[HS_ERR_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct hs_config *cfg = new_config();
		FILE *in;

		snprintf(path, sizeof(path), "%s/hotplug_sim/scenarios/%s", HS_TEST_SRCDIR, files[i]);
		in = fopen(path, "r");
		ck_assert_msg(in != NULL, "cannot open %s", path);
		ck_assert_msg(hs_parse_scenario_file(cfg, in, files[i], err) == 0, "%s", err);
		ck_assert_uint_gt(cfg->nsteps, 0);
		fclose(in);
		free(cfg);
	}
}
END_TEST

/* Run hs_parse_args() on a NULL-terminated list. */
static int parse_argv(struct hs_config *cfg, char *err, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;

	argv[argc++] = "hotplug_sim";
	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return hs_parse_args(cfg, argc, argv, err);
}

/*
 * Each built-in scenario is the scenario file docs/hotplug-scenarios.md
 * gives for it: the same steps, whatever values the options carry.
 */
START_TEST(scenario_builtin_as_file)
{
	static const struct {
		const char *args[6];
		const char *file;
	} rows[] = {
		{ { "--scenario=single" }, "sleep 100ms\nunplug\nsleep 100ms\n" },
		{ { "--scenario=replug" }, "sleep 100ms\nunplug\nsleep 100ms\nplug\nsleep 100ms\n" },
		{ { "--scenario=flap", "--cycles=7", "--period=30ms", "--jitter=4ms" },
		  "sleep 100ms\nflap 7 period=30ms jitter=4ms\nsleep 100ms\n" },
		{ { "--scenario=flap" }, "sleep 100ms\nflap 10 period=20ms jitter=0\nsleep 100ms\n" },
		{ { "--scenario=inflight", "--latency=70ms", "--control=/x" },
		  "sleep 100ms\ninflight latency=70ms\nsleep 100ms\n" },
		{ { "--scenario=random", "--cycles=9", "--period=3ms" },
		  "sleep 100ms\nrandom 9 period=3ms\nsleep 100ms\n" },
		{ { "--scenario=flap", "--duration=10s" },
		  "sleep 100ms\nflap 1000000 period=20ms duration=10s\nsleep 100ms\n" },
		{ { "--scenario=random", "--duration=2s", "--cycles=5" },
		  "sleep 100ms\nrandom 5 duration=2s\nsleep 100ms\n" },
	};
	char err[HS_ERR_MAX] = "";

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct hs_config *opt = new_config(), *file = new_config();
		const char *const *a = rows[i].args;

		ck_assert_msg(parse_argv(opt, err, a[0], a[1], a[2], a[3], a[4], NULL) == 0,
			      "row %zu: %s", i, err);
		ck_assert_msg(parse_text(file, rows[i].file, err) == 0, "row %zu: %s", i, err);
		ck_assert_uint_eq(opt->nsteps, file->nsteps);
		for (unsigned int j = 0; j < opt->nsteps; j++) {
			const struct hs_step *o = &opt->steps[j], *f = &file->steps[j];

			ck_assert_msg(o->kind == f->kind && o->count == f->count &&
				      o->duration_ns == f->duration_ns &&
				      o->period_ns == f->period_ns && o->jitter_ns == f->jitter_ns &&
				      o->latency_ns == f->latency_ns,
				      "row %zu step %u differs from the file's", i, j);
		}
		free(opt);
		free(file);
	}
}
END_TEST

START_TEST(args_defaults)
{
	struct hs_config *cfg = new_config();
	char err[HS_ERR_MAX];

	ck_assert_int_eq(parse_argv(cfg, err, NULL), 0);
	ck_assert_str_eq(cfg->device, "cros_ec");
	ck_assert_str_eq(cfg->sysfs_uevent, "/sys/class/cuse/cros_ec/uevent");
	ck_assert_int_eq(cfg->trigger, HS_TRIGGER_UEVENT);
	ck_assert(!cfg->processes && cfg->monitor && !cfg->quiet);
	ck_assert_uint_eq(cfg->clients, 4);
	ck_assert_uint_eq(cfg->mix_xcmd, 70);
	ck_assert(cfg->expect[0] && cfg->expect[ENODEV] && !cfg->expect[EIO]);
	/* "single": settle, unplug, settle */
	ck_assert_uint_eq(cfg->nsteps, 3);
	ck_assert_int_eq(cfg->steps[1].kind, HS_STEP_UNPLUG);
	free(cfg);
}
END_TEST

START_TEST(args_full)
{
	struct hs_config *cfg = new_config();
	char err[HS_ERR_MAX] = "";

	ck_assert_int_eq(parse_argv(cfg, err, "--name=ec2", "--sysfs=/tmp/dev", "--control",
				    "/run/x.sock", "--trigger=control", "-k", "8",
				    "--mix=xcmd=50,readmem=50", "--readers=2", "--pollers=3",
				    "--scenario=flap", "--cycles=20", "--period=10ms",
				    "--jitter=2ms", "--seed=7", "--deadline=3s", "--progress=2s",
				    "--json=r.json",
				    "--csv=r.csv", "--expect-errno=ok,ENODEV,ENOTCONN",
				    "--uevent-arg=A=1", "--uevent-arg=B=2", "--daemon-pid=123",
				    "--no-monitor", "-q", "--processes", NULL), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(cfg->device, "ec2");
	ck_assert_str_eq(cfg->sysfs_uevent, "/tmp/dev/uevent");
	ck_assert_str_eq(cfg->control, "/run/x.sock");
	ck_assert_int_eq(cfg->trigger, HS_TRIGGER_CONTROL);
	ck_assert_uint_eq(cfg->clients, 8);
	ck_assert_uint_eq(cfg->mix_xcmd, 50);
	ck_assert_uint_eq(cfg->readers, 2);
	ck_assert_uint_eq(cfg->pollers, 3);
	ck_assert_uint_eq(cfg->seed, 7);
	ck_assert_uint_eq(cfg->deadline_ns, 3000000000ull);
	ck_assert_uint_eq(cfg->progress_ns, 2000000000ull);
	ck_assert_str_eq(cfg->json_path, "r.json");
	ck_assert_str_eq(cfg->csv_path, "r.csv");
	ck_assert(cfg->expect[ENOTCONN]);
	ck_assert_uint_eq(cfg->nuevent_args, 2);
	ck_assert_str_eq(cfg->uevent_args[1].key, "B");
	ck_assert_int_eq(cfg->daemon_pid, 123);
	ck_assert(!cfg->monitor && cfg->quiet && cfg->processes);
	ck_assert_uint_eq(cfg->nsteps, 3);
	ck_assert_int_eq(cfg->steps[1].kind, HS_STEP_FLAP);
	ck_assert_uint_eq(cfg->steps[1].count, 20);
	ck_assert_uint_eq(cfg->steps[1].period_ns, 10000000ull);
	ck_assert_uint_eq(cfg->steps[1].jitter_ns, 2000000ull);
	free(cfg);
}
END_TEST

START_TEST(args_bad)
{
	static const struct {
		const char *args[4];
		const char *want;
	} bad[] = {
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "-z" }, "unknown option '-z'" },
		{ { "--clients" }, "option '--clients' needs an argument" },
		{ { "--clients=x" }, "invalid --clients 'x': expected a whole number" },
		{ { "--clients=257" }, "invalid --clients '257': out of range 0..256" },
		{ { "--readers=65" }, "invalid --readers '65': out of range 0..64" },
		{ { "--pollers=-1" }, "invalid --pollers '-1': expected a whole number" },
		{ { "--name=../x" }, "--name: '../x' must be" },
		{ { "--name=" }, "--name: '' must be" },
		{ { "--name=a/b" }, "--name: 'a/b' must be" },
		{ { "--sysfs=" }, "--sysfs: empty path" },
		{ { "--control=" }, "--control: empty path" },
		{ { "--trigger=netlink" }, "--trigger: 'netlink' is not" },
		{ { "--trigger=control" }, "--trigger=control needs --control=PATH" },
		{ { "--mix=xcmd=10" }, "mix: percentages add up to 10" },
		{ { "--scenario=crash" }, "scenario: unknown 'crash'" },
		{ { "--scenario=flap", "--jitter=15ms" }, "scenario flap: jitter must be" },
		{ { "--scenario=random", "--period=0" }, "scenario random: period must be" },
		{ { "--scenario=inflight" }, "the inflight scenario needs --control" },
		{ { "--cycles=0" }, "invalid --cycles '0': out of range 1.." },
		{ { "--period=fast" }, "invalid --period 'fast': expected a number and a unit" },
		{ { "--period=20" }, "invalid --period '20': needs a unit" },
		{ { "--jitter=1y" }, "invalid --jitter '1y': unknown unit 'y'" },
		{ { "--latency=0" }, "--latency must be above 0" },
		{ { "--duration=0" }, "--duration must be above 0" },
		{ { "--progress=often" }, "invalid --progress 'often'" },
		{ { "--progress=2h" }, "invalid --progress '2h'" },
		{ { "--duration=1h1s" }, "invalid --duration" },
		{ { "--duration=5s" }, "--duration needs --scenario=flap or random" },
		{ { "--scenario=replug", "--duration=5s" }, "--duration needs --scenario=flap" },
		{ { "--deadline=0s" }, "--deadline must be above 0" },
		{ { "--seed=abc" }, "invalid --seed 'abc': expected a whole number" },
		{ { "--expect-errno=ok,EFOO" }, "expect: unknown outcome 'EFOO'" },
		{ { "--uevent-arg=A-B=1" }, "uevent arg:" },
		{ { "--daemon-pid=0" }, "invalid --daemon-pid '0': out of range 1..4194304" },
		{ { "--json=" }, "--json: empty path" },
		{ { "--csv=" }, "--csv: empty path" },
		{ { "--scenario-file=/nonexistent/x.scn" }, "/nonexistent/x.scn: No such file" },
		{ { "stray" }, "unexpected argument 'stray'" },
		{ { "--processes=4" }, "option '--processes' takes no argument" },
		{ { "-k", "0" }, "nothing to run" },
	};
	char err[HS_ERR_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hs_config *cfg = new_config();

		err[0] = '\0';
		ck_assert_msg(parse_argv(cfg, err, bad[i].args[0], bad[i].args[1], bad[i].args[2],
					 bad[i].args[3], NULL) == -EINVAL, "accepted #%zu", i);
		ck_assert_msg(!strncmp(err, bad[i].want, strlen(bad[i].want)),
			      "#%zu: got '%s', want '%s...'", i, err, bad[i].want);
		free(cfg);
	}
}
END_TEST

START_TEST(args_too_many_uevent_args)
{
	struct hs_config *cfg = new_config();
	char err[HS_ERR_MAX];
	char *argv[HS_UEVENT_ARGS_MAX + 2];
	int i;

	argv[0] = "hotplug_sim";
	for (i = 1; i <= HS_UEVENT_ARGS_MAX + 1; i++)
		argv[i] = "--uevent-arg=K=v";
	ck_assert_int_eq(hs_parse_args(cfg, HS_UEVENT_ARGS_MAX + 2, argv, err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "at most 8"));
	free(cfg);
}
END_TEST

/* A scenario file read from the command line, with a later option overriding it. */
START_TEST(args_scenario_file)
{
	struct hs_config *cfg = new_config();
	char path[] = "/tmp/hs_test_XXXXXX", err[HS_ERR_MAX];
	int fd = mkstemp(path);
	FILE *out;

	ck_assert_int_ge(fd, 0);
	out = fdopen(fd, "w");
	ck_assert_ptr_nonnull(out);
	fputs("clients 3\nreaders 1\nunplug\nsleep 10ms\nplug\n", out);
	fclose(out);
	ck_assert_int_eq(parse_argv(cfg, err, "-f", path, "--readers=2", NULL), 0);
	ck_assert_uint_eq(cfg->clients, 3);
	ck_assert_uint_eq(cfg->readers, 2);
	/* no --scenario: only the file's steps */
	ck_assert_uint_eq(cfg->nsteps, 3);
	ck_assert_uint_eq(cfg->steps[2].line, 5);

	out = fopen(path, "w");
	ck_assert_ptr_nonnull(out);
	fputs("clients 3\nflap 5 period=1ms jitter=1ms\n", out);
	fclose(out);
	ck_assert_int_eq(parse_argv(cfg, err, "--scenario-file", path, NULL), -EINVAL);
	ck_assert_msg(strstr(err, ":2: jitter must be at most half"), "got %s", err);

	/* A fault step is the daemon's verb: it needs the control socket. */
	out = fopen(path, "w");
	ck_assert_ptr_nonnull(out);
	fputs("fault eio\nunplug\n", out);
	fclose(out);
	ck_assert_int_eq(parse_argv(cfg, err, "--scenario-file", path, NULL), -EINVAL);
	ck_assert_msg(strstr(err, "a fault step needs --control"), "got %s", err);
	ck_assert_int_eq(parse_argv(cfg, err, "--scenario-file", path, "--control=/x", NULL), 0);
	unlink(path);
	free(cfg);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hs_parse");
	TCase *tc = tcase_create("parsers");

	tcase_add_test(tc, mix_good_and_bad);
	tcase_add_test(tc, expect_good_and_bad);
	tcase_add_test(tc, uevent_arg_bad);
	tcase_add_test(tc, uevent_line);
	tcase_add_test(tc, uuid_format);
	tcase_add_test(tc, outcome_slots);
	tcase_add_test(tc, scenario_good);
	tcase_add_test(tc, scenario_bad);
	tcase_add_test(tc, scenario_long_line_and_too_many_steps);
	tcase_add_test(tc, scenario_examples);
	tcase_add_test(tc, scenario_builtin_as_file);
	tcase_add_test(tc, args_defaults);
	tcase_add_test(tc, args_full);
	tcase_add_test(tc, args_bad);
	tcase_add_test(tc, args_too_many_uevent_args);
	tcase_add_test(tc, args_scenario_file);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
