// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_options.c - the control-socket parser and server, and the
 * command-line parser: good input works, bad input gets a clear error.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cros_ec/ec_commands.h"
#include "ec/ec_profile.h"
#include "chardev.h"
#include "chardev_trace.h"
#include "control.h"
#include "ctl/ctl.h"
#include "harness.h"
#include "options.h"
#include "../check_run.h"

/* ---- control_parse ---- */

START_TEST(test_control_parse_good)
{
	struct control_cmd cmd;
	char err[128];

	ck_assert_int_eq(control_parse("unplug", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "unplug");
	ck_assert_int_eq(control_parse("  unplug   wait  ", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "unplug wait");
	ck_assert_int_eq(control_parse("plug\r", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "plug");
	ck_assert_int_eq(control_parse("status", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "status");
	ck_assert_int_eq(control_parse("stats", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "stats");
	ck_assert_int_eq(control_parse("help", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "help");
	ck_assert_int_eq(control_parse("inject lid-open", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "inject");
	ck_assert_int_eq(cmd.stimulus, EC_STIM_LID_OPEN);
	ck_assert_int_eq(control_parse("inject\tac-unplug", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(cmd.stimulus, EC_STIM_AC_UNPLUG);
	ck_assert_int_eq(control_parse("latency 1500000", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "latency");
	ck_assert_uint_eq(cmd.latency_ns, 1500000);
	ck_assert_int_eq(control_parse("latency 0", &cmd, err, sizeof(err)), 0);
	ck_assert_uint_eq(cmd.latency_ns, 0);
	ck_assert_int_eq(control_parse("latency 60000000000", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_parse("inject wp-deassert", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(cmd.stimulus, EC_STIM_WP_DEASSERT);
	ck_assert_int_eq(control_parse("help trace", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "help");
	ck_assert_int_eq(control_parse("trace clear", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "trace clear");
	ck_assert_int_eq(control_parse("fault clear", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "fault clear");
	ck_assert_int_eq(control_parse("faults", &cmd, err, sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "faults");
	ck_assert_int_eq(control_parse("fault cmd=2,short=3,times=always", &cmd, err,
				       sizeof(err)), 0);
	ck_assert_str_eq(control_verb_name(&cmd), "fault");
	ck_assert_int_eq(cmd.fault.kind, EC_FAULT_SHORT);
	ck_assert_uint_eq(cmd.fault.arg, 3);
	ck_assert_uint_eq(cmd.fault.command, 2);
	ck_assert_uint_eq(cmd.fault.times, 0);
	memset(&cmd, 0, sizeof(cmd));
	ck_assert_ptr_null(control_verb_name(&cmd));
}
END_TEST

START_TEST(test_control_parse_bad)
{
	static const char *const bad[] = {
		"", "   ", "UNPLUG", "unplug now", "unplug wait extra", "plug 1",
		"status x", "stats please", "help me", "inject", "inject lid",
		"inject lid-open lid-close", "latency", "latency -1", "latency 1x",
		"latency 0x10", "latency 99999999999999999999999", "latency 60000000001",
		"latency abc", "frobnicate", "unplug\x01", "st\x7f" "atus", "plug\xff",
		"\x1b[2J", "unplug\nplug", "trace all", "trace clear now", "TRACE",
		"help nope", "help plug extra", "help help help help", "a b c d e",
		"inject LID-OPEN", "inject lid-open extra", "unplug wait wait",
		"fault", "fault bogus", "fault eio extra", "fault clear now", "faults all",
		"fault eio,p=0", "fault result=", "FAULT eio", "fault eio,,times=2",
	};
	struct control_cmd cmd;
	char err[128], longline[CTL_LINE_MAX + 10];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(control_parse(bad[i], &cmd, err, sizeof(err)) == -EINVAL,
			      "accepted bad line #%zu", i);
		ck_assert_msg(err[0], "no reason for bad line #%zu", i);
	}
	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	ck_assert_int_eq(control_parse(longline, &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
	/* A tiny error buffer truncates, never overflows. */
	ck_assert_int_eq(control_parse("nope", &cmd, err, 4), -EINVAL);
	ck_assert_uint_le(strlen(err), 3);
}
END_TEST

START_TEST(test_control_execute)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_stats st;
	struct control_cmd cmd;
	char err[128], reply[CHARDEV_STATS_TEXT_MAX + 8];

	ck_assert_int_eq(control_parse("status", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");
	ck_assert_int_eq(control_parse("inject power-button", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok injected");
	ck_assert_int_eq(control_parse("plug", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), -EBUSY);
	ck_assert_str_eq(reply, "error already plugged errno=EBUSY");
	ck_assert_int_eq(control_parse("unplug", &cmd, err, sizeof(err)), 0);
	ck_assert(!chardev_operator_hold(ctx));
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	/* The operator's unplug holds the EC out: no uevent "add" plugs it. */
	ck_assert(chardev_operator_hold(ctx));
	chardev_set_operator_hold(ctx, false);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	/* Nothing was plugged: the hold is the operator's all the same. */
	ck_assert(chardev_operator_hold(ctx));
	ck_assert_int_eq(control_parse("inject lid-close", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), -ENODEV);
	ck_assert_int_eq(control_parse("latency 1000", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok latency 1000 ns (from the next plug)");
	ck_assert_int_eq(control_parse("stats", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_ptr_nonnull(strstr(reply, " unplugs=1 "));
	ck_assert_ptr_nonnull(strstr(reply, " zombie_accesses=0"));
	/* Every counter is in the reply, under its own name. */
	ck_assert_int_eq(chardev_stats_parse(reply, &st), CHARDEV_STAT_COUNT);
	ck_assert_uint_eq(st.unplugs, 1);
	/* A reply buffer too small for the counters: refused, not cut. */
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, 8), -EMSGSIZE);
	ck_assert_uint_eq(strlen(reply), 7);
	harness_ctx_free(ctx);
}
END_TEST

/* info: the protocol version and every capability list, from their tables. */
START_TEST(test_control_info)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_FENCED);
	char err[160], reply[CHARDEV_STATS_TEXT_MAX + 8], want[512];
	enum ec_fault_kind kind;
	enum ec_stimulus stim;
	struct control_cmd cmd;
	size_t used;

	ck_assert_int_eq(control_parse("info", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	used = (size_t)snprintf(want, sizeof(want), "ok info protocol=1 version=%s lifecycle=fenced "
				"line_max=%d fault_rules_max=%d fault_kinds=", PACKAGE_VERSION,
				CTL_LINE_MAX, EC_FAULT_RULES_MAX);
	for (kind = EC_FAULT_NONE + 1; kind < EC_FAULT_KINDS; kind++)
		used += (size_t)snprintf(want + used, sizeof(want) - used, "%s%s",
					 kind > EC_FAULT_NONE + 1 ? "," : "", ec_fault_kind_name(kind));
	for (stim = 0; stim < EC_STIM_COUNT; stim++)
		used += (size_t)snprintf(want + used, sizeof(want) - used, "%s%s",
					 stim ? "," : " events=", ec_stimulus_name(stim));
	ck_assert_str_eq(reply, want);
	ck_assert_ptr_nonnull(strstr(reply, "fault_kinds=result,short,oversize,delay,eio,"
				 "timeout,in_progress,unplug events=lid-open,"));
	/* Too small a buffer: refused, never cut silently. */
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, 40), -EMSGSIZE);
	ck_assert_int_eq(control_parse("info now", &cmd, err, sizeof(err)), -EINVAL);
	harness_ctx_free(ctx);
}
END_TEST

/* fault, faults, fault clear: the plan as the control socket shows it. */
START_TEST(test_control_faults)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = harness_open(ctx);
	char err[160], reply[CHARDEV_STATS_TEXT_MAX + 8];
	struct control_cmd cmd;
	int i;

	ck_assert_int_eq(control_parse("faults", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok faults 0 injected=0");
	ck_assert_int_eq(control_parse("fault cmd=1,result=busy,times=2", &cmd, err,
				       sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok fault cmd=0x0001,result=BUSY,times=2,p=1");
	ck_assert_int_eq(harness_hello(file), 0);	/* BUSY: no answer bytes */
	ck_assert_int_eq(control_parse("faults", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok faults 1 injected=1: cmd=0x0001,result=BUSY,times=1,p=1");
	/* Eight rules at most; the ninth gets the reason. */
	ck_assert_int_eq(control_parse("fault eio,cmd=0x7777", &cmd, err, sizeof(err)), 0);
	for (i = 1; i < EC_FAULT_RULES_MAX; i++)
		ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), -ENOSPC);
	ck_assert_str_eq(reply, "error the fault plan is full (8 rules; 'fault clear' first) errno=ENOSPC");
	ck_assert_int_eq(control_parse("faults", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_ptr_nonnull(strstr(reply, "ok faults 8 injected=1: "));
	ck_assert_int_eq(control_parse("fault clear", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok faults cleared 8");
	ck_assert_int_eq(harness_hello(file), 4);
	/* "help fault" names every kind. */
	ck_assert_int_eq(control_parse("help fault", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	for (i = EC_FAULT_NONE + 1; i < EC_FAULT_KINDS; i++) {
		char kind[32];

		snprintf(kind, sizeof(kind), "%s: ", ec_fault_kind_name(i));
		ck_assert_msg(strstr(reply, kind), "help fault lacks %s: %s", kind, reply);
	}
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/* The one list of counters: formatted and parsed back, field by field. */
/* status shows the keyboard backlight where the board has one, as set. */
START_TEST(test_control_status_kb_backlight)
{
	struct chardev_config config = {
		.mode = LIFECYCLE_REVOCABLE,
		.ops = harness_ops(),
		.log_level = CHARDEV_LOG_WARNING,
	};
	struct ec_params_pwm_set_keyboard_backlight kb = { .percent = 30 };
	struct ec_params_pwm_set_duty duty = {
		.duty = EC_PWM_MAX_DUTY, .pwm_type = EC_PWM_TYPE_KB_LIGHT,
	};
	char err[128], reply[256];
	struct ec_profile *profile;
	struct chardev_file *file;
	struct chardev_ctx *ctx;
	struct control_cmd cmd;
	uint32_t result = 0;

	ck_assert_int_eq(ec_profile_default(&profile), 0);
	ck_assert(profile->kb_backlight);
	config.profile = profile;
	ck_assert_int_eq(chardev_ctx_create(&config, &ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(control_parse("status", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");

	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &kb, sizeof(kb),
				 NULL, 0, &result), 0);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=1 kb_backlight=30");
	ck_assert_int_eq(do_xcmd(file, EC_CMD_PWM_SET_DUTY, 0, &duty, sizeof(duty), NULL, 0,
				 &result), 0);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=1 kb_backlight=100");

	/* No EC, no backlight to report. */
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok unplugged lifecycle=revocable open_files=1");
	chardev_release(file);
	chardev_ctx_destroy(ctx);

	/* A board without a backlight: no key at all. */
	profile->kb_backlight = false;
	ck_assert_int_eq(chardev_ctx_create(&config, &ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0");
	chardev_ctx_destroy(ctx);
	ec_profile_free(profile);
}
END_TEST

/* The stats keys cuse_ec(8)'s example shows are keys the daemon reports. */
START_TEST(test_man_page_stats_keys)
{
	const char *top = getenv("top_srcdir");
	char path[512], line[512], *end;
	struct chardev_stats st;
	int words = 0, found = 0;
	FILE *man;

	snprintf(path, sizeof(path), "%s/cuse_ec/cuse_ec.8", top ? top : "../..");
	man = fopen(path, "r");
	ck_assert_msg(man != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), man)) {
		if (strncmp(line, "ok opens=", 9))
			continue;
		found++;
		line[strcspn(line, "\n")] = '\0';
		end = strstr(line, " ...");
		if (end)
			*end = '\0';
		for (end = line + 3; end; end = strchr(end + 1, ' '))
			words++;
		ck_assert_msg(chardev_stats_parse(line, &st) == words,
			      "cuse_ec(8) shows a stats key the daemon does not report: %s", line);
	}
	fclose(man);
	ck_assert_int_eq(found, 1);
}
END_TEST

/* The verbs "help" lists, in its order: "unplug", ..., "latency NS". */
static size_t help_forms(char forms[][32], size_t max)
{
	struct control_cmd cmd;
	char err[128], reply[1024], *form, *save = NULL;
	size_t n = 0;

	ck_assert_int_eq(control_parse("help", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(NULL, &cmd, reply, sizeof(reply)), 0);
	ck_assert_msg(!strncmp(reply, "ok commands: ", 13), "help said: %s", reply);
	for (form = strtok_r(reply + 13, ",", &save); form; form = strtok_r(NULL, ",", &save)) {
		ck_assert_uint_lt(n, max);
		snprintf(forms[n++], sizeof(forms[0]), "%s", form + (form[0] == ' '));
	}
	return n;
}

/*
 * Every verb "help" lists is one the parser takes (a value filled in),
 * "help VERB" says what each form does, and "help inject" names every
 * stimulus the EC knows: all three come from the one table.
 */
START_TEST(test_control_help)
{
	char forms[32][32], line[64], err[128], reply[1024], *sp;
	struct control_cmd cmd;
	enum ec_stimulus stim;
	size_t n, i;

	n = help_forms(forms, 32);
	ck_assert_uint_ge(n, 11);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "%s", forms[i]);
		/* A value placeholder is upper case: put a good value there. */
		sp = strrchr(line, ' ');
		if (sp && sp[1] >= 'A' && sp[1] <= 'Z')
			snprintf(sp + 1, sizeof(line) - (size_t)(sp + 1 - line), "%s",
				 !strncmp(line, "inject", 6) ? "lid-open" :
				 !strncmp(line, "latency", 7) ? "5" :
				 !strncmp(line, "motion angle", 12) ? "90" :
				 !strncmp(line, "button", 6) ? "100" :
				 !strncmp(line, "fault", 5) ? "eio" : "plug");
		ck_assert_msg(control_parse(line, &cmd, err, sizeof(err)) == 0,
			      "help lists '%s', the parser refuses '%s': %s", forms[i], line, err);
		snprintf(line, sizeof(line), "help %.*s", (int)strcspn(forms[i], " "), forms[i]);
		ck_assert_int_eq(control_parse(line, &cmd, err, sizeof(err)), 0);
		ck_assert_int_eq(control_execute(NULL, &cmd, reply, sizeof(reply)), 0);
		ck_assert_msg(strstr(reply, forms[i]) && strstr(reply, ": "),
			      "'%s' does not describe '%s': %s", line, forms[i], reply);
	}
	ck_assert_int_eq(control_parse("help inject", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(NULL, &cmd, reply, sizeof(reply)), 0);
	for (stim = 0; stim < EC_STIM_COUNT; stim++) {
		ck_assert_ptr_nonnull(ec_stimulus_name(stim));
		ck_assert_msg(strstr(reply, ec_stimulus_name(stim)),
			      "help inject omits %s: %s", ec_stimulus_name(stim), reply);
		snprintf(line, sizeof(line), "inject %s", ec_stimulus_name(stim));
		ck_assert_int_eq(control_parse(line, &cmd, err, sizeof(err)), 0);
		ck_assert_int_eq(cmd.stimulus, stim);
	}
	ck_assert_ptr_null(ec_stimulus_name(EC_STIM_COUNT));
	/* A wrong verb's error names its forms, from the same table. */
	ck_assert_int_eq(control_parse("unplug now", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "usage: unplug | unplug wait");
	ck_assert_int_eq(control_parse("latency", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "usage: latency NS");
	ck_assert_int_eq(control_parse("inject nope", &cmd, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "unknown event 'nope' (try 'help inject')");
	/* Small reply buffers cut "help", never overflow. */
	ck_assert_int_eq(control_parse("help inject", &cmd, err, sizeof(err)), 0);
	ck_assert_int_eq(control_execute(NULL, &cmd, reply, 8), 0);
	ck_assert_uint_eq(strlen(reply), 7);
}
END_TEST

/*
 * cuse_ec --help's list of control verbs is "help"'s, in its order: each
 * item starts with the form at the line's start, and every line fits 79
 * columns unless one word alone does not.
 */
/*
 * ctl_error() makes "error REASON errno=NAME", keeps the errno part whole
 * when the reason is cut, and ctl_reply_error() takes it apart again.
 */
START_TEST(test_error_replies)
{
	const char *name;
	char reply[64];
	size_t rlen;

	ck_assert_int_eq(ctl_error(reply, sizeof(reply), -ENODEV, "not %s", "plugged"), -ENODEV);
	ck_assert_str_eq(reply, "error not plugged errno=ENODEV");
	ck_assert(ctl_reply_error(reply, &rlen, &name));
	ck_assert_uint_eq(rlen, strlen("not plugged"));
	ck_assert_str_eq(name, "ENODEV");
	/* A positive errno is the same error; an unknown one is EIO. */
	ctl_error(reply, sizeof(reply), EACCES, "no");
	ck_assert_str_eq(reply, "error no errno=EACCES");
	ctl_error(reply, sizeof(reply), -100000, "odd");
	ck_assert_str_eq(reply, "error odd errno=EIO");
	/* Cut: the reason loses its end, the errno part stays. */
	ctl_error(reply, 32, -EINVAL, "%s", "a reason far too long for the room it has");
	ck_assert_uint_eq(strlen(reply), 31);
	ck_assert_str_eq(reply, "error a reason far errno=EINVAL");
	/* Not errors, or errors without an errno word. */
	ck_assert(!ctl_reply_error("ok plugged", &rlen, &name));
	ck_assert(!ctl_reply_error("errors", &rlen, &name));
	ck_assert(ctl_reply_error("error old style", &rlen, &name));
	ck_assert_ptr_null(name);
	ck_assert_uint_eq(rlen, strlen("old style"));
	ck_assert(ctl_reply_error("error x errno=", &rlen, &name));
	ck_assert_ptr_null(name);
	ck_assert(ctl_reply_error("error x errno=E1x", &rlen, &name));
	ck_assert_ptr_null(name);
}
END_TEST

START_TEST(test_usage_lists_control_verbs)
{
	char forms[32][32], *text = NULL, *line, *save = NULL;
	size_t n, i = 0, size = 0;
	FILE *f = open_memstream(&text, &size);

	ck_assert_ptr_nonnull(f);
	n = help_forms(forms, 32);
	control_print_verbs(f, 23, 79);
	ck_assert_int_eq(fclose(f), 0);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t flen;

		ck_assert_msg(strlen(line) <= 79 || !strchr(line + 23, ' '),
			      "--help line longer than 79 columns: '%s'", line);
		if (line[0] == ' ' && line[1] == ' ' && line[2] != ' ') {
			ck_assert_msg(i < n, "--help lists a verb help does not: '%s'", line);
			flen = strlen(forms[i]);
			ck_assert_msg(!strncmp(line + 2, forms[i], flen) &&
				      (line[2 + flen] == ' ' || !line[2 + flen]),
				      "--help's item %zu is '%s', help lists '%s' there", i, line,
				      forms[i]);
			i++;
		}
	}
	ck_assert_msg(i == n, "--help lacks the control verb '%s'", i < n ? forms[i] : "");
	free(text);
}
END_TEST

/*
 * cuse_ec(8) CONTROL SOCKET has one item per verb form, the same as
 * "help" lists and in its order, and its "inject" item names every event.
 */
START_TEST(test_man_page_control_verbs)
{
	const char *top = getenv("top_srcdir");
	char forms[32][32], path[512], line[512], item[512], *in, *out, section[32768] = "";
	bool in_section = false, want_item = false;
	size_t n, i = 0, used = 0;
	enum ec_fault_kind kind;
	enum ec_stimulus stim;
	FILE *man;

	n = help_forms(forms, 32);
	snprintf(path, sizeof(path), "%s/cuse_ec/cuse_ec.8", top ? top : "../..");
	man = fopen(path, "r");
	ck_assert_msg(man != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), man)) {
		if (!strncmp(line, ".SH ", 4)) {
			in_section = !strcmp(line, ".SH CONTROL SOCKET\n");
			continue;
		}
		if (!in_section)
			continue;
		if (used < sizeof(section))
			used += (size_t)snprintf(section + used, sizeof(section) - used, "%s", line);
		if (!strcmp(line, ".TP\n")) {
			want_item = true;
			continue;
		}
		if (!want_item)
			continue;
		want_item = false;
		/* ".BI latency \" NS\"" -> "latency NS" */
		in = line + strcspn(line, " ");
		in += *in == ' ';
		for (out = item; *in && *in != '\n'; in++) {
			if (*in == '"' || (*in == ' ' && (out == item || out[-1] == ' ')))
				continue;
			*out++ = *in;
		}
		*out = '\0';
		ck_assert_msg(i < n, "cuse_ec(8) has a control verb help does not list: %s", item);
		ck_assert_msg(!strcmp(item, forms[i]),
			      "cuse_ec(8) item %zu is '%s', help lists '%s' there", i, item, forms[i]);
		i++;
	}
	fclose(man);
	ck_assert_msg(i == n, "cuse_ec(8) lacks the control verb '%s'", i < n ? forms[i] : "");
	for (stim = 0; stim < EC_STIM_COUNT; stim++) {
		snprintf(line, sizeof(line), "\\fB%s\\fR", ec_stimulus_name(stim));
		ck_assert_msg(strstr(section, line), "cuse_ec(8) does not name the event %s",
			      ec_stimulus_name(stim));
	}
	/*
	 * Every fault kind has its item, and the trace's "fault" event numbers
	 * the kinds as the code does: "kind: 1 result, 2 short, ...".
	 */
	for (kind = EC_FAULT_NONE + 1, used = 0; kind < EC_FAULT_KINDS; kind++) {
		snprintf(line, sizeof(line), ".IP \\fB%s", ec_fault_kind_name(kind));
		ck_assert_msg(strstr(section, line), "cuse_ec(8) does not describe the fault %s",
			      ec_fault_kind_name(kind));
		used += (size_t)snprintf(item + used, sizeof(item) - used, "%s%d %s",
					 used ? ", " : "kind: ", (int)kind,
					 ec_fault_kind_name(kind));
	}
	for (in = out = section; *in; in++)
		*out++ = *in == '\n' ? ' ' : *in;
	*out = '\0';
	ck_assert_msg(strstr(section, item), "cuse_ec(8) does not number the kinds as '%s'", item);
}
END_TEST

START_TEST(test_stats_format_parse)
{
	char text[CHARDEV_STATS_TEXT_MAX], small[32];
	struct chardev_stats st, back;
	uint64_t *field = (uint64_t *)&st;
	size_t i, len;

	ck_assert_uint_eq(sizeof(st), CHARDEV_STAT_COUNT * sizeof(uint64_t));
	/* Distinct values, the widest included, so a swapped key shows. */
	for (i = 0; i < CHARDEV_STAT_COUNT; i++)
		field[i] = i ? i * 1000003 : UINT64_MAX;
	len = chardev_stats_format(&st, text, sizeof(text));
	ck_assert_uint_lt(len, sizeof(text));
	ck_assert_uint_eq(strlen(text), len);
	ck_assert_int_eq(chardev_stats_parse(text, &back), CHARDEV_STAT_COUNT);
	ck_assert_mem_eq(&st, &back, sizeof(st));
	snprintf(small, sizeof(small), " revocations=%u ", CHARDEV_STAT_revocations * 1000003);
	ck_assert_ptr_nonnull(strstr(text, small));
	/* Every counter at its widest still fits the advertised room. */
	memset(&st, 0xff, sizeof(st));
	ck_assert_uint_lt(chardev_stats_format(&st, text, sizeof(text)), sizeof(text));
	/* Too small a buffer: the full length is reported, the text is cut safely. */
	ck_assert_uint_eq(chardev_stats_format(&st, small, 16), strlen(text));
	ck_assert_uint_eq(strlen(small), 15);

	/* "ok " is skipped, unknown keys are skipped, missing ones stay 0. */
	ck_assert_int_eq(chardev_stats_parse("ok opens=3 future_counter=9 reads=4", &back), 2);
	ck_assert_uint_eq(back.opens, 3);
	ck_assert_uint_eq(back.reads, 4);
	ck_assert_uint_eq(back.plugs, 0);
	ck_assert_int_eq(chardev_stats_parse("", &back), 0);
	/* Anything but name=number words is refused. */
	ck_assert_int_eq(chardev_stats_parse("opens", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("opens=", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("=3", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("opens=-1", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("opens=3x", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("opens=99999999999999999999", &back), -EINVAL);
	ck_assert_int_eq(chardev_stats_parse("error not plugged errno=ENODEV", &back), -EINVAL);
}
END_TEST

/* ---- the server, over a real socket ---- */

static int connect_to(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	strcpy(addr.sun_path, path);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	return fd;
}

/* Read one reply line (up to 5 s). */
static void read_line(int fd, char *buf, size_t len)
{
	size_t off = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	while (off + 1 < len) {
		ck_assert_msg(poll(&pfd, 1, 5000) == 1, "no reply in 5 s");
		ck_assert_int_eq(read(fd, buf + off, 1), 1);
		if (buf[off] == '\n')
			break;
		off++;
	}
	buf[off] = '\0';
}

static void send_str(int fd, const char *s, size_t len)
{
	ck_assert_int_eq(write(fd, s, len), (ssize_t)len);
}

static void talk(int fd, const char *line, const char *expect_prefix)
{
	char reply[512];

	send_str(fd, line, strlen(line));
	read_line(fd, reply, sizeof(reply));
	ck_assert_msg(!strncmp(reply, expect_prefix, strlen(expect_prefix)),
		      "'%s' -> '%s', expected '%s...'", line, reply, expect_prefix);
}

START_TEST(test_control_server)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_server *srv;
	char dir[] = "/tmp/cuse_ec_ctlXXXXXX", path[128], big[4096], reply[512];
	struct chardev_file *file;
	int fd, fd2;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ck_assert_int_eq(control_server_start(ctx, path, &srv), 0);
	/* Who serves the socket: this process (hotplug_sim's daemon pid). */
	{
		struct ctl_conn conn;
		pid_t peer = 0;

		ck_assert_int_eq(ctl_open(&conn, path), 0);
		ck_assert_int_eq(ctl_peer_pid(&conn, &peer), 0);
		ck_assert_int_eq(peer, getpid());
		ctl_close(&conn);
		ck_assert_int_eq(ctl_peer_pid(&conn, &peer), -EBADF);
	}
	fd = connect_to(path);
	talk(fd, "help\n", "ok commands:");
	talk(fd, "status\n", "ok plugged lifecycle=revocable");
	talk(fd, "bogus\n", "error unknown command");
	talk(fd, "\n\nstatus\r\n", "ok plugged");
	talk(fd, "inject lid-open\n", "ok injected");
	/* NUL inside a line. */
	send_str(fd, "sta\0tus\n", 8);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "error NUL byte in command errno=EINVAL");
	/* An overlong line: one error, then the connection still works. */
	memset(big, 'x', sizeof(big));
	send_str(fd, big, sizeof(big));
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "error line too long errno=EMSGSIZE");
	talk(fd, "\nstatus\n", "ok plugged");

	/* Two lines in one write, answered in order. */
	send_str(fd, "latency 0\nstatus\n", 17);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok latency 0 ns");
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");

	/* "unplug wait" replies after completion; a second client is served meanwhile. */
	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	fd2 = connect_to(path);
	talk(fd, "unplug wait\n", "ok unplugged");
	talk(fd2, "status\n", "ok unplugged lifecycle=revocable open_files=1");
	talk(fd2, "unplug wait\n", "error not plugged errno=ENODEV");
	talk(fd2, "plug\n", "ok plugged");
	talk(fd, "unplug\n", "ok unplug started");
	chardev_release(file);
	close(fd2);
	/* A client vanishing mid-line does not hurt the server. */
	send_str(fd, "stat", 4);
	close(fd);
	fd = connect_to(path);
	talk(fd, "plug\n", "ok plugged");
	close(fd);

	control_server_stop(srv);
	ck_assert_int_ne(access(path, F_OK), 0);
	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_control_server_bad_paths)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_server *srv = NULL;
	char longpath[200];

	ck_assert_int_eq(control_server_start(ctx, "", &srv), -EINVAL);
	ck_assert_int_eq(control_server_start(ctx, NULL, &srv), -EINVAL);
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	ck_assert_int_eq(control_server_start(ctx, longpath, &srv), -EINVAL);
	ck_assert_int_eq(control_server_start(ctx, "/nonexistent-dir/ctl", &srv), -ENOENT);
	control_server_stop(NULL);
	harness_ctx_free(ctx);
}
END_TEST

/* ---- options ---- */

static int parse(struct cuse_ec_options *opts, char **out_text, int argc, ...)
{
	char *argv[32], *text = NULL;
	size_t text_len = 0;
	FILE *out, *err;
	va_list ap;
	int i, ret;

	va_start(ap, argc);
	argv[0] = "cuse_ec";
	for (i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	argv[argc] = NULL;
	va_end(ap);
	out = open_memstream(&text, &text_len);
	err = out;
	ret = cuse_ec_parse_options(argc, argv, opts, out, err);
	fclose(out);
	if (out_text)
		*out_text = text;
	else
		free(text);
	return ret;
}

START_TEST(test_options_defaults_and_good)
{
	struct cuse_ec_options o;
	char *text;

	ck_assert_int_eq(parse(&o, NULL, 1), 0);
	ck_assert_str_eq(o.name, "cros_ec");
	ck_assert_int_eq(o.lifecycle, LIFECYCLE_REVOCABLE);
	ck_assert_int_eq(o.node_mode, -1);
	ck_assert(!o.foreground && !o.debug && !o.syslog);
	ck_assert_ptr_null(o.control);

	ck_assert_int_eq(parse(&o, NULL, 12, "--name=cros_fp", "--profile", "p.txt",
			       "--mode=0666", "--owner=0", "--group=root", "-d",
			       "--log-level=debug", "--lifecycle=unsafe", "--control=/run/x",
			       "--syslog"), 0);
	ck_assert_str_eq(o.name, "cros_fp");
	ck_assert_str_eq(o.profile, "p.txt");
	ck_assert_int_eq(o.node_mode, 0666);
	ck_assert_uint_eq(o.owner, 0);
	ck_assert_uint_eq(o.group, 0);
	ck_assert(o.debug && o.foreground && o.syslog);
	ck_assert_int_eq(o.log_level, CHARDEV_LOG_DEBUG);
	ck_assert_int_eq(o.lifecycle, LIFECYCLE_UNSAFE);
	ck_assert_str_eq(o.control, "/run/x");

	ck_assert_int_eq(parse(&o, NULL, 3, "-f", "--lifecycle=refcount"), 0);
	ck_assert(o.foreground && !o.debug);
	ck_assert_int_eq(o.lifecycle, LIFECYCLE_REFCOUNT);
	ck_assert_int_eq(o.unplug_wakeups, CHARDEV_WAKEUPS_UPSTREAM);
	ck_assert_int_eq(parse(&o, NULL, 2, "--unplug-wakeups=v3"), 0);
	ck_assert_int_eq(o.unplug_wakeups, CHARDEV_WAKEUPS_V3);
	ck_assert_int_eq(parse(&o, NULL, 3, "--unplug-wakeups", "upstream"), 0);
	ck_assert_int_eq(o.unplug_wakeups, CHARDEV_WAKEUPS_UPSTREAM);

	ck_assert_int_eq(parse(&o, NULL, 1), 0);
	ck_assert_uint_eq(o.n_faults, 0);
	ck_assert_uint_eq(o.fault_seed, 0);
	ck_assert_int_eq(parse(&o, NULL, 5, "--fault=eio", "--fault", "cmd=0x0b,result=BUSY,times=2",
			       "--fault-seed=77"), 0);
	ck_assert_uint_eq(o.n_faults, 2);
	ck_assert_int_eq(o.faults[0].kind, EC_FAULT_EIO);
	ck_assert_uint_eq(o.faults[1].command, 0x0b);
	ck_assert_uint_eq(o.faults[1].times, 2);
	ck_assert_uint_eq(o.fault_seed, 77);
	ck_assert_ptr_null(o.state);
	ck_assert_int_eq(parse(&o, NULL, 2, "--state=ec.state"), 0);
	ck_assert_str_eq(o.state, "ec.state");

	/* --record's format follows the file's name unless it is given. */
	ck_assert_int_eq(parse(&o, NULL, 1), 0);
	ck_assert_ptr_null(o.record);
	ck_assert_ptr_null(o.replay);
	ck_assert_int_eq(parse(&o, NULL, 2, "--record=s.ioctl"), 0);
	ck_assert_str_eq(o.record, "s.ioctl");
	ck_assert_int_eq(o.record_format, EC_REC_FORMAT_UMOCKDEV);
	ck_assert_int_eq(parse(&o, NULL, 2, "--record=s.rec"), 0);
	ck_assert_int_eq(o.record_format, EC_REC_FORMAT_NATIVE);
	ck_assert_int_eq(parse(&o, NULL, 3, "--record=s.rec", "--record-format=umockdev"), 0);
	ck_assert_int_eq(o.record_format, EC_REC_FORMAT_UMOCKDEV);
	ck_assert_int_eq(parse(&o, NULL, 2, "--replay=s.rec"), 0);
	ck_assert_str_eq(o.replay, "s.rec");
	ck_assert_int_eq(o.replay_miss, EC_REPLAY_MISS_MODEL);
	ck_assert_int_eq(parse(&o, NULL, 3, "--replay=s.rec", "--replay-miss=invalid"), 0);
	ck_assert_int_eq(o.replay_miss, EC_REPLAY_MISS_INVALID);
	ck_assert_int_eq(o.replay_match, EC_REPLAY_MATCH_BYTES);
	ck_assert_int_eq(parse(&o, NULL, 3, "--replay=s.rec", "--replay-match=order"), 0);
	ck_assert_int_eq(o.replay_match, EC_REPLAY_MATCH_ORDER);
	ck_assert_int_eq(parse(&o, NULL, 3, "--replay=s.rec", "--replay-match=bytes"), 0);
	ck_assert_int_eq(o.replay_match, EC_REPLAY_MATCH_BYTES);

	ck_assert_int_eq(parse(&o, &text, 2, "--help"), CUSE_EC_OPTIONS_EXIT);
	ck_assert_ptr_nonnull(strstr(text, "--lifecycle"));
	ck_assert_ptr_nonnull(strstr(text, "--fault=RULE"));
	free(text);
	ck_assert_int_eq(parse(&o, &text, 2, "--version"), CUSE_EC_OPTIONS_EXIT);
	ck_assert_ptr_nonnull(strstr(text, PACKAGE_VERSION));
	free(text);
}
END_TEST

START_TEST(test_options_bad)
{
	static const char *const bad[][2] = {
		{ "--name=", NULL }, { "--name=../evil", NULL }, { "--name=a/b", NULL },
		{ "--name=.hidden", NULL }, { "--name=-x", NULL }, { "--name=sp ace", NULL },
		{ "--name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL },
		{ "--mode=888", NULL }, { "--mode=", NULL }, { "--mode=-1", NULL },
		{ "--mode=17777", NULL }, { "--mode=0x1ff", NULL },
		{ "--owner=no-such-user-xyz", NULL }, { "--owner=", NULL }, { "--owner=-5", NULL },
		{ "--group=no-such-group-xyz", NULL }, { "--group=4294967295", NULL },
		{ "--log-level=loud", NULL }, { "--log-level=9", NULL }, { "--log-level=", NULL },
		{ "--lifecycle=leaky", NULL }, { "--lifecycle=", NULL }, { "--lifecycle=REVOCABLE", NULL },
		{ "--unplug-wakeups=v4", NULL }, { "--unplug-wakeups=", NULL },
		{ "--unplug-wakeups", NULL },
		{ "--control=", NULL }, { "--profile=", NULL }, { "--bogus", NULL }, { "-x", NULL },
		{ "--name", NULL }, { "--profile", NULL }, { "--foreground=1", NULL },
		{ "stray", NULL }, { "-f", "extra" },
		{ "--fault=", NULL }, { "--fault=bogus", NULL }, { "--fault=eio,times=0", NULL },
		{ "--fault=result=NOPE", NULL }, { "--fault", NULL }, { "--fault-seed=0", NULL },
		{ "--fault-seed=x", NULL }, { "--fault-seed=", NULL },
		{ "--fault-seed=18446744073709551616", NULL },
		{ "--record", NULL }, { "--replay", NULL },
		{ "--record-format=ioctl", "--record=x" }, { "--record-format=", "--record=x" },
		{ "--record-format=native", NULL },
		{ "--replay-miss=skip", "--replay=x" }, { "--replay-miss=", "--replay=x" },
		{ "--replay-miss=model", NULL }, { "--record=x", "--replay=x" },
		{ "--replay-match=loose", "--replay=x" }, { "--replay-match=", "--replay=x" },
		{ "--replay-match=Order", "--replay=x" }, { "--replay-match", "--replay=x" },
		{ "--replay-match=order", NULL },
		{ "--state=", NULL }, { "--state", NULL },
	};
	struct cuse_ec_options o;
	char *text;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int argc = bad[i][1] ? 3 : 2;

		ck_assert_msg(parse(&o, &text, argc, bad[i][0], bad[i][1]) == -EINVAL,
			      "accepted '%s'", bad[i][0]);
		ck_assert_msg(strlen(text) > 10, "no message for '%s'", bad[i][0]);
		free(text);
	}
}
END_TEST

START_TEST(test_log_level_and_mode_names)
{
	enum lifecycle_mode m;
	int level;

	ck_assert_int_eq(cuse_ec_parse_log_level("err", &level), 0);
	ck_assert_int_eq(level, 3);
	ck_assert_int_eq(cuse_ec_parse_log_level("WARNING", &level), 0);
	ck_assert_int_eq(level, 4);
	ck_assert_int_eq(cuse_ec_parse_log_level("7", &level), 0);
	ck_assert_int_eq(level, 7);
	ck_assert_int_eq(cuse_ec_parse_log_level("2", &level), -EINVAL);
	ck_assert_int_eq(cuse_ec_parse_log_level("77", &level), -EINVAL);
	ck_assert_int_eq(lifecycle_mode_parse(NULL, &m), -EINVAL);
	ck_assert_int_eq(lifecycle_mode_parse("refcount", &m), 0);
	ck_assert_str_eq(lifecycle_mode_name(m), "refcount");
	ck_assert_str_eq(lifecycle_mode_name((enum lifecycle_mode)42), "?");
	/* Every mode the table counts has a name that parses back to it; none past it. */
	ck_assert_uint_ge(lifecycle_mode_count(), 3);
	for (unsigned int i = 0; i < lifecycle_mode_count(); i++) {
		ck_assert_str_ne(lifecycle_mode_name((enum lifecycle_mode)i), "?");
		ck_assert_int_eq(lifecycle_mode_parse(lifecycle_mode_name((enum lifecycle_mode)i),
						      &m), 0);
		ck_assert_uint_eq(m, i);
	}
	ck_assert_str_eq(lifecycle_mode_name((enum lifecycle_mode)lifecycle_mode_count()), "?");
	{
		char list[96], small[12];

		ck_assert_str_eq(lifecycle_mode_list(list, sizeof(list)),
				 "revocable, refcount, unsafe or fenced");
		ck_assert_str_eq(lifecycle_mode_list(small, sizeof(small)), "revocable, ");
		ck_assert_int_eq(lifecycle_mode_parse("fenced", &m), 0);
		ck_assert_uint_eq(m, LIFECYCLE_FENCED);
	}
}
END_TEST

/* ---- --send: the control client ---- */

/* Print ctl_reply_json() into a string. */
static char *reply_json(const char *line, const char *reply, char *const *events, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ctl_reply_json(out, line, reply, events, n), 0);
	fclose(out);
	return text;
}

/* --send --json: each reply one object, its words typed, hostile bytes tamed. */
START_TEST(test_reply_json)
{
	char *events[] = {
		(char *)"7 t=0.000120 access-begin file=2 cmd=0x0001",
		(char *)"8 t=0.000131 revoke-done waited=1 wait_ns=3500",
		(char *)"garbage",
	};
	char *text;

	text = reply_json("stats", "ok opens=3 releases=2 zombie_accesses=0", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"stats\",\"ok\":true,\"opens\":3,\"releases\":2,"
			 "\"zombie_accesses\":0}\n");
	free(text);
	text = reply_json("status", "ok plugged lifecycle=revocable open_files=0 kb_backlight=40",
			  NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"status\",\"ok\":true,\"lifecycle\":\"revocable\","
			 "\"open_files\":0,\"kb_backlight\":40,\"words\":[\"plugged\"]}\n");
	free(text);
	/* An error's reason and its errno name apart; a reply without one as it came. */
	text = reply_json("plug", "error already plugged errno=EBUSY", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"plug\",\"ok\":false,\"error\":\"already plugged\","
			 "\"errno\":\"EBUSY\"}\n");
	free(text);
	text = reply_json("plug", "error already plugged", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"plug\",\"ok\":false,\"error\":\"already plugged\"}\n");
	free(text);
	text = reply_json("x", "error", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"x\",\"ok\":false,\"error\":\"\"}\n");
	free(text);
	text = reply_json("x", "error a errno=ebusy", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"x\",\"ok\":false,\"error\":\"a errno=ebusy\"}\n");
	free(text);
	text = reply_json("trace", "ok trace events=3 dropped=0 capacity=4096", events, 3);
	ck_assert_str_eq(text, "{\"command\":\"trace\",\"ok\":true,\"events\":3,\"dropped\":0,"
			 "\"capacity\":4096,\"words\":[\"trace\"],\"trace\":["
			 "{\"seq\":7,\"t\":\"0.000120\",\"event\":\"access-begin\",\"file\":2,"
			 "\"cmd\":\"0x0001\"},{\"seq\":8,\"t\":\"0.000131\",\"event\":\"revoke-done\","
			 "\"waited\":1,\"wait_ns\":3500},{\"line\":\"garbage\"}]}\n");
	free(text);
	/* Bytes a hostile socket sends: escaped before they are JSON. */
	text = reply_json("status", "ok \x1b]0;owned\x07 x=\x9b", NULL, 0);
	ck_assert_str_eq(text, "{\"command\":\"status\",\"ok\":true,\"x\":\"\\\\x9b\","
			 "\"words\":[\"\\\\x1b]0;owned\\\\x07\"]}\n");
	free(text);
}
END_TEST

START_TEST(test_options_send)
{
	char longline[CTL_LINE_MAX + 2], maxline[CTL_LINE_MAX + 1];
	char arg_long[CTL_LINE_MAX + 16], arg_max[CTL_LINE_MAX + 16];
	static const char *const bad[][3] = {
		{ "--send=status", NULL, "--control" },		/* no socket */
		{ "--control=/run/c", "--send=", "needs a command" },
		{ "--control=/run/c", "--send=  \t ", "needs a command" },
		{ "--control=/run/c", "--send=status\nunplug", "newline" },
		{ "--control=/run/c", "--send=status\r", "newline" },
		{ "--control=/run/c", "--send", "needs an argument" },
		{ "--control=/run/c", "--json", "--json is for --send" },
	};
	struct cuse_ec_options o;
	char *text, *argv[CUSE_EC_SEND_MAX + 4];
	FILE *sink;
	size_t len = 0;
	size_t i;
	int argc;

	ck_assert_int_eq(parse(&o, NULL, 3, "--control=/run/c", "--send=status"), 0);
	ck_assert_uint_eq(o.n_send, 1);
	ck_assert_str_eq(o.send[0], "status");
	ck_assert_int_eq(parse(&o, NULL, 5, "--send", "unplug wait", "--control=/run/c",
			       "--send=stats"), 0);
	ck_assert_uint_eq(o.n_send, 2);
	ck_assert_str_eq(o.send[0], "unplug wait");
	ck_assert_str_eq(o.send[1], "stats");
	ck_assert(!o.send_json);
	ck_assert_int_eq(parse(&o, NULL, 4, "--json", "--control=/run/c", "--send=stats"), 0);
	ck_assert(o.send_json);
	ck_assert_int_eq(parse(&o, NULL, 2, "-f"), 0);
	ck_assert_uint_eq(o.n_send, 0);

	/* Exactly the control server's limit passes; one more byte does not. */
	memset(maxline, 'x', sizeof(maxline) - 1);
	maxline[sizeof(maxline) - 1] = '\0';
	snprintf(arg_max, sizeof(arg_max), "--send=%s", maxline);
	ck_assert_int_eq(parse(&o, NULL, 3, "--control=/run/c", arg_max), 0);
	memset(longline, 'x', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	snprintf(arg_long, sizeof(arg_long), "--send=%s", longline);
	ck_assert_int_eq(parse(&o, &text, 3, "--control=/run/c", arg_long), -EINVAL);
	ck_assert_ptr_nonnull(strstr(text, "too long"));
	free(text);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		argc = bad[i][1] ? 3 : 2;
		ck_assert_msg(parse(&o, &text, argc, bad[i][0], bad[i][1]) == -EINVAL,
			      "accepted '%s' '%s'", bad[i][0], bad[i][1] ? bad[i][1] : "");
		ck_assert_msg(strstr(text, bad[i][2]) != NULL, "message for case %zu: '%s'",
			      i, text);
		free(text);
	}

	/* One line too many. */
	argv[0] = "cuse_ec";
	argv[1] = "--control=/run/c";
	for (argc = 2; argc < CUSE_EC_SEND_MAX + 3; argc++)
		argv[argc] = "--send=stats";
	argv[argc] = NULL;
	text = NULL;
	sink = open_memstream(&text, &len);
	ck_assert_int_eq(cuse_ec_parse_options(argc, argv, &o, sink, sink), -EINVAL);
	fclose(sink);
	ck_assert_ptr_nonnull(strstr(text, "too many --send"));
	free(text);
	argc--;
	argv[argc] = NULL;
	sink = open_memstream(&text, &len);
	ck_assert_int_eq(cuse_ec_parse_options(argc, argv, &o, sink, sink), 0);
	fclose(sink);
	free(text);
	ck_assert_uint_eq(o.n_send, CUSE_EC_SEND_MAX);
}
END_TEST

/* Run the client against @path; its replies land in *@out_text. */
static int run_client(const char *path, char **out_text, int timeout_ms, size_t n, ...)
{
	const char *lines[8];
	char *errtext = NULL;
	size_t len = 0, elen = 0, i;
	FILE *out, *err;
	va_list ap;
	int ret;

	ck_assert_uint_le(n, 8);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		lines[i] = va_arg(ap, const char *);
	va_end(ap);
	*out_text = NULL;
	out = open_memstream(out_text, &len);
	err = open_memstream(&errtext, &elen);
	ret = ctl_send_lines(path, lines, n, timeout_ms, 0, out, err);
	fclose(out);
	fclose(err);
	/* Every failure to talk must say why; every success must not. */
	if (ret < 0)
		ck_assert_msg(strlen(errtext) > 10, "no message for %d", ret);
	else
		ck_assert_str_eq(errtext, "");
	free(errtext);
	return ret;
}

/* A server that accepts, reads, and answers according to @mode. */
struct fake_server {
	int listen_fd;
	int mode;	/* 0: close at once, 1: never answer, 2: endless line,
			 * 3: a reply full of terminal escapes */
	pthread_t thread;
};

static void *fake_server_thread(void *arg)
{
	struct fake_server *fs = arg;
	char junk[2048];
	int fd = accept(fs->listen_fd, NULL, NULL);

	if (fd < 0)
		return NULL;
	/* Take the request first, so the client's send cannot race the close. */
	if (read(fd, junk, sizeof(junk)) < 0)
		junk[0] = 0;
	if (fs->mode == 0) {
		close(fd);
		return NULL;
	}
	if (fs->mode == 3) {
		static const char hostile[] = "ok \x1b]0;owned\x07\x1b[2J\x9b\\\tend\n";

		if (send(fd, hostile, sizeof(hostile) - 1, MSG_NOSIGNAL) < 0)
			junk[0] = 0;
	} else if (fs->mode == 2) {
		memset(junk, 'o', sizeof(junk));
		while (send(fd, junk, sizeof(junk), MSG_NOSIGNAL) > 0)
			;
	} else {
		/* Hold the connection until the client gives up. */
		while (read(fd, junk, sizeof(junk)) > 0)
			;
	}
	close(fd);
	return NULL;
}

static void fake_server_start(struct fake_server *fs, const char *path, int mode)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	strcpy(addr.sun_path, path);
	unlink(path);
	fs->mode = mode;
	fs->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fs->listen_fd, 0);
	ck_assert_int_eq(bind(fs->listen_fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	ck_assert_int_eq(listen(fs->listen_fd, 1), 0);
	ck_assert_int_eq(pthread_create(&fs->thread, NULL, fake_server_thread, fs), 0);
}

static void fake_server_stop(struct fake_server *fs, const char *path)
{
	pthread_join(fs->thread, NULL);
	close(fs->listen_fd);
	unlink(path);
}

/* Count the lines of @text that parse as trace events named @event. */
static int count_events(const char *text, const char *event)
{
	char *copy = strdup(text), *line, *save = NULL;
	struct chardev_trace_entry e;
	int n = 0;

	ck_assert_ptr_nonnull(copy);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!chardev_trace_parse(line, &e) &&
		    !strcmp(chardev_trace_event_name(e.event), event))
			n++;
	}
	free(copy);
	return n;
}

/* "trace": a header with the count, then that many parseable events. */
static void check_trace_replies(const char *path)
{
	unsigned long long events, dropped, cap;
	const char *nl;
	char *text;
	int lines = 0;

	ck_assert_int_eq(run_client(path, &text, 5000, 1, "trace"), 0);
	ck_assert_msg(sscanf(text, "ok trace events=%llu dropped=%llu capacity=%llu",
			     &events, &dropped, &cap) == 3, "%s", text);
	for (nl = strchr(text, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n'))
		lines++;
	ck_assert_uint_eq(lines, events);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_ge(cap, 1000);
	/* What the commands above did: two plugs, an unplug, its revoke done. */
	ck_assert_int_eq(count_events(text, "plug"), 2);
	ck_assert_int_eq(count_events(text, "revoke-start"), 1);
	ck_assert_int_eq(count_events(text, "revoke-done"), 1);
	free(text);
	/* Cleared: an empty trace; numbers go on. */
	ck_assert_int_eq(run_client(path, &text, 5000, 2, "trace clear", "trace"), 0);
	ck_assert_str_eq(text, "ok trace cleared\nok trace events=0 dropped=0 capacity=4096\n");
	free(text);
	ck_assert_int_eq(run_client(path, &text, 5000, 1, "trace please"), 1);
	ck_assert_str_eq(text, "error usage: trace | trace clear errno=EINVAL\n");
	free(text);
	/* --json: a JSON object per command, the trace's events inside its own. */
	{
		const char *jlines[] = { "status", "trace clear", "inject lid-close", "trace", "nope" };
		char *jtext = NULL;
		size_t jlen = 0;
		FILE *jout = open_memstream(&jtext, &jlen), *jerr = fopen("/dev/null", "w");

		ck_assert(jout && jerr);
		ck_assert_int_eq(ctl_send_lines(path, jlines, 5, 5000, CTL_SEND_JSON, jout, jerr), 1);
		fclose(jout);
		fclose(jerr);
		ck_assert_msg(!strncmp(jtext, "{\"command\":\"status\",\"ok\":true,\"lifecycle\":"
				       "\"revocable\",\"open_files\":0,\"kb_backlight\":0,\"words\":"
				       "[\"plugged\"]}\n{\"command\":\"trace clear\",\"ok\":true,"
				       "\"words\":[\"trace\",\"cleared\"]}\n{\"command\":\"inject lid-close\"",
				       200), "%s", jtext);
		ck_assert_msg(strstr(jtext, "\n{\"command\":\"trace\",\"ok\":true,\"events\":0,"
				 "\"dropped\":0,\"capacity\":4096,\"words\":[\"trace\"],\"trace\":[]}\n"),
			      "%s", jtext);
		ck_assert_msg(strstr(jtext, "\n{\"command\":\"nope\",\"ok\":false,\"error\":"
				 "\"unknown command 'nope' (try 'help')\",\"errno\":\"EINVAL\"}\n"), "%s", jtext);
		free(jtext);
	}
}

START_TEST(test_control_client)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char dir[] = "/tmp/cuse_ec_cliXXXXXX", path[128], fake[128];
	struct control_server *srv;
	struct fake_server fs;
	char *text;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	snprintf(fake, sizeof(fake), "%s/fake", dir);

	/* No daemon there yet. */
	ck_assert_int_eq(run_client(path, &text, 1000, 1, "status"), -ENOENT);
	free(text);
	ck_assert_int_eq(run_client(NULL, &text, 1000, 1, "status"), -EINVAL);
	free(text);

	ck_assert_int_eq(control_server_start(ctx, path, &srv), 0);
	ck_assert_int_eq(run_client(path, &text, 5000, 1, "status"), 0);
	ck_assert_str_eq(text, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0\n");
	free(text);
	/* In order, one reply each, and "stats" after "unplug wait" sees it done. */
	ck_assert_int_eq(run_client(path, &text, 5000, 3, "latency 0", "unplug wait", "stats"), 0);
	ck_assert_msg(!strncmp(text, "ok latency 0 ns\nok unplugged\nok ", 32), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "revocations=1"));
	free(text);
	/* One bad reply among good ones: status 1, and every reply printed. */
	ck_assert_int_eq(run_client(path, &text, 5000, 3, "plug", "bogus", "status"), 1);
	ck_assert_msg(!strncmp(text, "ok plugged\nerror unknown command", 32), "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\nok plugged lifecycle=revocable"));
	free(text);
	ck_assert_int_eq(run_client(path, &text, 5000, 1, "plug"), 1);	/* already plugged */
	ck_assert_str_eq(text, "error already plugged errno=EBUSY\n");
	free(text);
	/* Lines the option parser would have refused are refused here too. */
	ck_assert_int_eq(run_client(path, &text, 5000, 2, "status", "a\nb"), -EINVAL);
	ck_assert_str_eq(text, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0\n");
	free(text);
	ck_assert_int_eq(run_client(path, &text, 5000, 1, ""), -EINVAL);
	free(text);
	check_trace_replies(path);
	control_server_stop(srv);

	/* Servers that misbehave: closed early, silent, a line without end. */
	fake_server_start(&fs, fake, 0);
	ck_assert_int_eq(run_client(fake, &text, 2000, 1, "status"), -ECONNRESET);
	free(text);
	fake_server_stop(&fs, fake);
	fake_server_start(&fs, fake, 1);
	ck_assert_int_eq(run_client(fake, &text, 300, 1, "status"), -ETIMEDOUT);
	free(text);
	fake_server_stop(&fs, fake);
	fake_server_start(&fs, fake, 2);
	ck_assert_int_eq(run_client(fake, &text, 2000, 1, "status"), -EPROTO);
	free(text);
	fake_server_stop(&fs, fake);
	/* What a hostile socket sends reaches the terminal escaped. */
	fake_server_start(&fs, fake, 3);
	ck_assert_int_eq(run_client(fake, &text, 2000, 1, "status"), 0);
	ck_assert_str_eq(text, "ok \\x1b]0;owned\\x07\\x1b[2J\\x9b\\\\\\x09end\n");
	free(text);
	fake_server_stop(&fs, fake);

	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("control_options");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_control_parse_good);
	tcase_add_test(tc, test_control_parse_bad);
	tcase_add_test(tc, test_control_execute);
	tcase_add_test(tc, test_control_faults);
	tcase_add_test(tc, test_control_info);
	tcase_add_test(tc, test_control_status_kb_backlight);
	tcase_add_test(tc, test_stats_format_parse);
	tcase_add_test(tc, test_man_page_stats_keys);
	tcase_add_test(tc, test_control_help);
	tcase_add_test(tc, test_man_page_control_verbs);
	tcase_add_test(tc, test_control_server);
	tcase_add_test(tc, test_control_server_bad_paths);
	tcase_add_test(tc, test_options_defaults_and_good);
	tcase_add_test(tc, test_options_bad);
	tcase_add_test(tc, test_log_level_and_mode_names);
	tcase_add_test(tc, test_reply_json);
	tcase_add_test(tc, test_usage_lists_control_verbs);
	tcase_add_test(tc, test_error_replies);
	tcase_add_test(tc, test_options_send);
	tcase_add_test(tc, test_control_client);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
