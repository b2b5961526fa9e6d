// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_parse.c - every parser hotplug_sim has: command line, scenario files,
 * durations, op mixes, errno lists, synthetic uevent arguments. Pure
 * functions over struct hs_config so the tests can feed them bad input.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/ec_client.h"
#include "common/common.h"
#include "hs.h"

#define SEPARATORS ", \t"

static int fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, HS_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void set_default_expect(bool *expect)
{
	memset(expect, 0, sizeof(bool) * HS_OUTCOME_SLOTS);
	expect[0] = true;
	expect[ENODEV] = true;
}

void hs_config_init(struct hs_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->device, sizeof(cfg->device), "cros_ec");
	cfg->trigger = HS_TRIGGER_UEVENT;
	cfg->clients = 4;
	cfg->mix_xcmd = 70;
	cfg->deadline_ns = 5000000000ull;
	cfg->seed = 1;
	cfg->monitor = true;
	set_default_expect(cfg->expect);
}

/*
 * The shared parsers with this file's message buffer and one-hour limit;
 * every parser here reports bad input as -EINVAL, out of range included.
 */
static int parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out,
		       const char *what, char *err)
{
	return parse_uint(text, what, min, max, out, err, HS_ERR_MAX) ? -EINVAL : 0;
}

static int parse_span(const char *text, uint64_t *ns, const char *what, char *err)
{
	return parse_duration(text, what, HS_MAX_DURATION_NS, ns, err, HS_ERR_MAX) ? -EINVAL : 0;
}

int hs_parse_mix(const char *text, unsigned int *xcmd_pct, char *err)
{
	uint64_t pct, xcmd = 0, readmem = 0;
	bool seen_xcmd = false, seen_readmem = false;
	char copy[256], *tok, *save = NULL;
	int ret;

	if (!text || !*text)
		return fail(err, "mix: empty (expected e.g. xcmd=70,readmem=30)");
	if (strlen(text) >= sizeof(copy))
		return fail(err, "mix: too long");
	strcpy(copy, text);
	for (tok = strtok_r(copy, SEPARATORS, &save); tok; tok = strtok_r(NULL, SEPARATORS, &save)) {
		char *eq = strchr(tok, '=');
		bool *seen;

		if (!eq)
			return fail(err, "mix: '%.40s' is not op=percent", tok);
		*eq = '\0';
		if (!strcmp(tok, "xcmd"))
			seen = &seen_xcmd;
		else if (!strcmp(tok, "readmem"))
			seen = &seen_readmem;
		else
			return fail(err, "mix: unknown op '%.40s' (xcmd or readmem)", tok);
		if (*seen)
			return fail(err, "mix: '%s' given twice", tok);
		*seen = true;
		ret = parse_count(eq + 1, 0, 100, &pct, "mix percentage", err);
		if (ret)
			return ret;
		if (seen == &seen_xcmd)
			xcmd = pct;
		else
			readmem = pct;
	}
	if (!seen_xcmd && !seen_readmem)
		return fail(err, "mix: empty (expected e.g. xcmd=70,readmem=30)");
	if (xcmd + readmem != 100)
		return fail(err, "mix: percentages add up to %llu, not 100",
			    (unsigned long long)(xcmd + readmem));
	*xcmd_pct = (unsigned int)xcmd;
	return 0;
}

/* The errno whose symbolic name is @name, by asking the client library's table. */
static int errno_by_name(const char *name)
{
	int e;

	for (e = 1; e < HS_ERRNO_SLOTS; e++) {
		const char *known = ec_errno_name(e);

		if (strcmp(known, "E?") && !strcmp(known, name))
			return e;
	}
	return -1;
}

int hs_parse_expect(const char *text, bool *expect, char *err)
{
	bool set[HS_OUTCOME_SLOTS] = { false };
	char copy[512], *tok, *save = NULL;
	unsigned int n = 0;

	if (!text || strlen(text) >= sizeof(copy))
		return fail(err, "expect: missing or too long");
	strcpy(copy, text);
	for (tok = strtok_r(copy, SEPARATORS, &save); tok; tok = strtok_r(NULL, SEPARATORS, &save)) {
		int e;

		if (!strcmp(tok, "ok")) {
			set[0] = true;
		} else if (!strcmp(tok, "EC_ERROR")) {
			set[HS_OUTCOME_EC_ERROR] = true;
		} else {
			e = errno_by_name(tok);
			if (e < 0)
				return fail(err, "expect: unknown outcome '%.40s' (ok, EC_ERROR or an errno name such as ENODEV)",
					    tok);
			set[e] = true;
		}
		n++;
	}
	if (!n)
		return fail(err, "expect: empty list");
	memcpy(expect, set, sizeof(set));
	return 0;
}

static bool all_alnum(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]))
			return false;
	return true;
}

int hs_parse_uevent_arg(const char *text, struct hs_uevent_arg *arg, char *err)
{
	const char *eq;
	size_t klen, vlen;

	if (!text || !(eq = strchr(text, '=')))
		return fail(err, "uevent arg: '%.40s' is not KEY=VAL", text ? text : "");
	klen = (size_t)(eq - text);
	vlen = strlen(eq + 1);
	if (!klen || !vlen)
		return fail(err, "uevent arg: empty key or value in '%.40s'", text);
	if (klen > HS_UEVENT_KEY_MAX || vlen > HS_UEVENT_VAL_MAX)
		return fail(err, "uevent arg: key (max %d) or value (max %d) too long",
			    HS_UEVENT_KEY_MAX, HS_UEVENT_VAL_MAX);
	/* The kernel rejects the whole uevent write otherwise: catch it here. */
	if (!all_alnum(text, klen) || !all_alnum(eq + 1, vlen))
		return fail(err, "uevent arg: '%.40s' must be alphanumeric on both sides of '='",
			    text);
	memcpy(arg->key, text, klen);
	arg->key[klen] = '\0';
	memcpy(arg->val, eq + 1, vlen + 1);
	return 0;
}

static bool uuid_well_formed(const char *uuid)
{
	size_t i;

	if (strlen(uuid) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? uuid[i] != '-' : !isxdigit((unsigned char)uuid[i]))
			return false;
	}
	return true;
}

int hs_format_uevent(const char *action, const char *uuid, const struct hs_uevent_arg *args,
		     unsigned int nargs, char *buf, size_t len)
{
	size_t used;
	unsigned int i;
	int n;

	if (!action || (strcmp(action, "add") && strcmp(action, "remove")) ||
	    !uuid || !uuid_well_formed(uuid) || !buf)
		return -EINVAL;
	n = snprintf(buf, len, "%s %s", action, uuid);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	used = (size_t)n;
	for (i = 0; i < nargs; i++) {
		n = snprintf(buf + used, len - used, " %s=%s", args[i].key, args[i].val);
		if (n < 0 || (size_t)n >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)n;
	}
	return (int)used;
}

void hs_format_uuid(const uint8_t rnd[16], char *buf)
{
	uint8_t b[16];
	int i, pos = 0;

	memcpy(b, rnd, sizeof(b));
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			buf[pos++] = '-';
		pos += sprintf(buf + pos, "%02x", b[i]);
	}
	buf[pos] = '\0';
}

unsigned int hs_outcome_slot(int ret)
{
	if (ret >= 0)
		return 0;
	if (ec_client_err_is_ec(ret, NULL))
		return HS_OUTCOME_EC_ERROR;
	if (-ret < HS_ERRNO_SLOTS)
		return (unsigned int)-ret;
	return HS_OUTCOME_OTHER;
}

const char *hs_outcome_name(unsigned int slot, char *buf)
{
	const char *name;

	if (slot == 0)
		return "ok";
	if (slot == HS_OUTCOME_EC_ERROR)
		return "EC_ERROR";
	if (slot >= HS_ERRNO_SLOTS)
		return "OTHER";
	name = ec_errno_name((int)slot);
	if (strcmp(name, "E?"))
		return name;
	snprintf(buf, 16, "E%u", slot);
	return buf;
}

const char *hs_op_name(enum hs_op op)
{
	static const char *const names[HS_OP_COUNT] = {
		[HS_OP_OPEN] = "open", [HS_OP_XCMD] = "xcmd", [HS_OP_READMEM] = "readmem",
		[HS_OP_EVENT] = "event", [HS_OP_POLL] = "poll",
	};

	return (unsigned int)op < HS_OP_COUNT ? names[op] : "?";
}

/* ---- scenario steps ---- */

/**
 * struct hs_step_def - one kind of scenario step: the only place it is
 * declared. Scenario files and the built-in scenarios are both read through
 * it (parse_step_line()).
 * @keyword:  the line's first word
 * @base:     the step's kind and the defaults of its options
 * @arg:      what the one positional argument is, if any
 * @opts:     the key=DURATION options it takes (NULL-terminated), each also
 *            the name of the command-line option that sets it for a
 *            built-in scenario (--period, --jitter, --latency)
 */
struct hs_step_def {
	const char *keyword;
	struct hs_step base;
	enum { HS_ARG_NONE, HS_ARG_DURATION, HS_ARG_CYCLES } arg;
	const char *const *opts;
};

static const char *const hs_flap_opts[] = { "period", "jitter", NULL };
static const char *const hs_inflight_opts[] = { "latency", NULL };
static const char *const hs_random_opts[] = { "period", NULL };

static const struct hs_step_def hs_step_defs[] = {
	{ .keyword = "unplug", .base = { .kind = HS_STEP_UNPLUG } },
	{ .keyword = "plug", .base = { .kind = HS_STEP_PLUG } },
	{ .keyword = "sleep", .base = { .kind = HS_STEP_SLEEP }, .arg = HS_ARG_DURATION },
	{ .keyword = "flap", .base = { .kind = HS_STEP_FLAP, .period_ns = 20000000ull },
	  .arg = HS_ARG_CYCLES, .opts = hs_flap_opts },
	{ .keyword = "inflight", .base = { .kind = HS_STEP_INFLIGHT, .latency_ns = 50000000ull },
	  .opts = hs_inflight_opts },
	{ .keyword = "random", .base = { .kind = HS_STEP_RANDOM, .period_ns = 20000000ull },
	  .arg = HS_ARG_CYCLES, .opts = hs_random_opts },
};

#define HS_STEP_DEF_COUNT (sizeof(hs_step_defs) / sizeof(hs_step_defs[0]))

static const struct hs_step_def *step_def(const char *keyword)
{
	size_t i;

	for (i = 0; i < HS_STEP_DEF_COUNT; i++)
		if (!strcmp(keyword, hs_step_defs[i].keyword))
			return &hs_step_defs[i];
	return NULL;
}

/* The value a step option sets. */
static uint64_t *step_option(struct hs_step *step, const char *key)
{
	if (!strcmp(key, "period"))
		return &step->period_ns;
	if (!strcmp(key, "jitter"))
		return &step->jitter_ns;
	return &step->latency_ns;
}

static int add_step(struct hs_config *cfg, const struct hs_step *step, char *err)
{
	if (cfg->nsteps >= HS_MAX_STEPS)
		return fail(err, "scenario: more than %d steps", HS_MAX_STEPS);
	cfg->steps[cfg->nsteps++] = *step;
	return 0;
}

/* "key=DURATION", one of @def's options. */
static int parse_step_option(const struct hs_step_def *def, const char *tok,
			     struct hs_step *step, char *err)
{
	const char *eq = strchr(tok, '=');
	const char *key = NULL;
	size_t klen;
	unsigned int i;

	if (!eq)
		return fail(err, "'%.40s' is not key=duration", tok);
	klen = (size_t)(eq - tok);
	for (i = 0; def->opts && def->opts[i] && !key; i++)
		if (strlen(def->opts[i]) == klen && !strncmp(tok, def->opts[i], klen))
			key = def->opts[i];
	if (!key)
		return fail(err, "unknown option '%.*s'", (int)klen, tok);
	return parse_span(eq + 1, step_option(step, key), key, err);
}

/* What no step may be, however it was written. */
static int check_step(const struct hs_step_def *def, const struct hs_step *step, char *err)
{
	if (def->arg == HS_ARG_CYCLES && !step->period_ns)
		return fail(err, "period must be above 0");
	if (step->jitter_ns * 2 > step->period_ns)
		return fail(err, "jitter must be at most half the period");
	if (step->kind == HS_STEP_INFLIGHT && !step->latency_ns)
		return fail(err, "latency must be above 0");
	return 0;
}

/* A step line, split in words: KEYWORD [ARG] [key=DURATION ...]. */
static int parse_step_line(struct hs_config *cfg, const struct hs_step_def *def,
			   char **argv, unsigned int argc, char *err)
{
	struct hs_step step = def->base;
	unsigned int i = 1;
	uint64_t num;
	int ret = 0;

	if (def->arg != HS_ARG_NONE && argc < 2)
		return fail(err, "'%s' needs an argument", def->keyword);
	if (!def->opts && argc > 1 + (def->arg != HS_ARG_NONE))
		return fail(err, "too many arguments to '%s'", def->keyword);
	if (def->arg == HS_ARG_DURATION)
		ret = parse_span(argv[i++], &step.duration_ns, def->keyword, err);
	else if (def->arg == HS_ARG_CYCLES)
		ret = parse_count(argv[i++], 1, HS_MAX_CYCLES, &num, "cycles", err);
	if (ret)
		return ret;
	if (def->arg == HS_ARG_CYCLES)
		step.count = (unsigned int)num;
	for (; i < argc; i++) {
		ret = parse_step_option(def, argv[i], &step, err);
		if (ret)
			return ret;
	}
	ret = check_step(def, &step, err);
	return ret ? ret : add_step(cfg, &step, err);
}

/*
 * The built-in scenarios, as the step lines a scenario file would have.
 * Between the two settle sleeps (which let clients get busy before the
 * first unplug, and see the last change): a step that takes cycles gets
 * --cycles, and each of its options the command-line value of that name.
 */
static const struct {
	const char *name;
	const char *const steps[4];
} hs_builtin_scenarios[] = {
	{ "single", { "unplug" } },
	{ "replug", { "unplug", "sleep 100ms", "plug" } },
	{ "flap", { "flap" } },
	{ "inflight", { "inflight" } },
	{ "random", { "random" } },
};

#define HS_SETTLE "sleep 100ms"

/*
 * One step of a built-in scenario: @text, then what its kind takes from
 * @given (the command line's values): cycles, and each option by its name.
 */
static int add_builtin_step(struct hs_config *cfg, const char *text, const struct hs_step *given,
			    char *err)
{
	char line[256], keyword[16], *argv[8], *tok, *save = NULL;
	struct hs_step values = *given;
	const struct hs_step_def *def;
	unsigned int argc = 0;
	size_t used, k;

	snprintf(keyword, sizeof(keyword), "%.*s", (int)strcspn(text, " "), text);
	def = step_def(keyword);
	used = (size_t)snprintf(line, sizeof(line), "%s", text);
	if (def->arg == HS_ARG_CYCLES)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %u", values.count);
	for (k = 0; def->opts && def->opts[k]; k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s=%" PRIu64 "ns",
					 def->opts[k], *step_option(&values, def->opts[k]));
	for (tok = strtok_r(line, " ", &save); tok && argc < 8; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return parse_step_line(cfg, def, argv, argc, err);
}

int hs_parse_scenario_name(struct hs_config *cfg, const char *name, unsigned int cycles,
			   uint64_t period_ns, uint64_t jitter_ns, uint64_t latency_ns,
			   char *err)
{
	const struct hs_step given = { .count = cycles, .period_ns = period_ns,
				       .jitter_ns = jitter_ns, .latency_ns = latency_ns };
	size_t i, j, used, n = sizeof(hs_builtin_scenarios) / sizeof(hs_builtin_scenarios[0]);
	char why[HS_ERR_MAX], names[128] = "";
	int ret = 0;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, hs_builtin_scenarios[i].name))
			break;
	if (!name)
		return fail(err, "scenario: missing name");
	if (i == n) {
		for (j = 0, used = 0; j < n; j++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 j ? ", " : "", hs_builtin_scenarios[j].name);
		return fail(err, "scenario: unknown '%.40s' (%s)", name, names);
	}
	ret = add_builtin_step(cfg, HS_SETTLE, &given, why);
	for (j = 0; !ret && j < 4 && hs_builtin_scenarios[i].steps[j]; j++)
		ret = add_builtin_step(cfg, hs_builtin_scenarios[i].steps[j], &given, why);
	if (!ret)
		ret = add_builtin_step(cfg, HS_SETTLE, &given, why);
	if (ret)
		snprintf(err, HS_ERR_MAX, "scenario %.40s: %.*s", name, HS_ERR_MAX - 60, why);
	return ret;
}

/* ---- scenario files ---- */

static int need_args(const char *verb, unsigned int got, unsigned int min, unsigned int max,
		     char *err)
{
	if (got < min)
		return fail(err, "'%s' needs an argument", verb);
	if (got > max)
		return fail(err, "too many arguments to '%s'", verb);
	return 0;
}

/* Join argv[1..] back with commas for the list parsers. */
static void join_args(char **argv, unsigned int argc, char *buf, size_t len)
{
	unsigned int i;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 1; i < argc && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i > 1 ? "," : "", argv[i]);
}

static int parse_scenario_line(struct hs_config *cfg, char *line, char *err)
{
	char *argv[16], *tok, *save = NULL, list[512];
	const struct hs_step_def *def;
	unsigned int argc = 0;
	const char *verb;
	uint64_t num;
	int ret;

	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (argc == sizeof(argv) / sizeof(argv[0]))
			return fail(err, "too many words");
		argv[argc++] = tok;
	}
	if (!argc)
		return 0;
	verb = argv[0];
	def = step_def(verb);
	if (def)
		return parse_step_line(cfg, def, argv, argc, err);

	if (!strcmp(verb, "clients") || !strcmp(verb, "readers") || !strcmp(verb, "pollers")) {
		unsigned int max = !strcmp(verb, "clients") ? HS_MAX_CLIENTS :
				   !strcmp(verb, "readers") ? HS_MAX_READERS : HS_MAX_POLLERS;

		ret = need_args(verb, argc - 1, 1, 1, err);
		if (!ret)
			ret = parse_count(argv[1], 0, max, &num, verb, err);
		if (ret)
			return ret;
		if (!strcmp(verb, "clients"))
			cfg->clients = (unsigned int)num;
		else if (!strcmp(verb, "readers"))
			cfg->readers = (unsigned int)num;
		else
			cfg->pollers = (unsigned int)num;
		return 0;
	}
	if (!strcmp(verb, "mix") || !strcmp(verb, "expect")) {
		ret = need_args(verb, argc - 1, 1, 15, err);
		if (ret)
			return ret;
		join_args(argv, argc, list, sizeof(list));
		return !strcmp(verb, "mix") ? hs_parse_mix(list, &cfg->mix_xcmd, err) :
					      hs_parse_expect(list, cfg->expect, err);
	}
	if (!strcmp(verb, "deadline")) {
		ret = need_args(verb, argc - 1, 1, 1, err);
		if (!ret)
			ret = parse_span(argv[1], &cfg->deadline_ns, "deadline", err);
		if (!ret && !cfg->deadline_ns)
			ret = fail(err, "deadline must be above 0");
		return ret;
	}
	if (!strcmp(verb, "seed")) {
		ret = need_args(verb, argc - 1, 1, 1, err);
		if (!ret)
			ret = parse_count(argv[1], 0, UINT64_MAX, &num, "seed", err);
		if (!ret)
			cfg->seed = num;
		return ret;
	}
	if (!strcmp(verb, "trigger")) {
		ret = need_args(verb, argc - 1, 1, 1, err);
		if (ret)
			return ret;
		if (!strcmp(argv[1], "uevent"))
			cfg->trigger = HS_TRIGGER_UEVENT;
		else if (!strcmp(argv[1], "control"))
			cfg->trigger = HS_TRIGGER_CONTROL;
		else
			return fail(err, "trigger: '%.40s' is not uevent or control", argv[1]);
		return 0;
	}
	return fail(err, "unknown keyword '%.40s'", verb);
}

int hs_parse_scenario_file(struct hs_config *cfg, FILE *in, const char *name, char *err)
{
	char line[512], why[HS_ERR_MAX];
	unsigned int lineno = 0, first_step;
	int ret;

	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);
		char *hash;
		size_t i;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' && !feof(in)) {
			snprintf(err, HS_ERR_MAX, "%s:%u: line too long (max %zu bytes)", name,
				 lineno, sizeof(line) - 2);
			return -EINVAL;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		len = strlen(line);
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		for (i = 0; i < len; i++) {
			if (!isprint((unsigned char)line[i]) && line[i] != '\t') {
				snprintf(err, HS_ERR_MAX, "%s:%u: unprintable byte 0x%02x", name,
					 lineno, (unsigned char)line[i]);
				return -EINVAL;
			}
		}
		first_step = cfg->nsteps;
		ret = parse_scenario_line(cfg, line, why);
		if (ret) {
			snprintf(err, HS_ERR_MAX, "%.100s:%u: %.140s", name, lineno, why);
			return ret;
		}
		for (; first_step < cfg->nsteps; first_step++)
			cfg->steps[first_step].line = lineno;
	}
	if (ferror(in)) {
		snprintf(err, HS_ERR_MAX, "%s: read error", name);
		return -EIO;
	}
	return 0;
}

/* ---- command line ---- */

enum {
	OPT_SYSFS = 256, OPT_CONTROL, OPT_TRIGGER, OPT_MIX, OPT_READERS, OPT_POLLERS,
	OPT_CYCLES, OPT_PERIOD, OPT_JITTER, OPT_LATENCY, OPT_SEED, OPT_DEADLINE, OPT_JSON,
	OPT_CSV, OPT_EXPECT, OPT_UEVENT_ARG, OPT_DAEMON_PID, OPT_NO_MONITOR, OPT_PROCESSES,
};

static const struct option long_options[] = {
	{ "name", required_argument, NULL, 'n' },
	{ "sysfs", required_argument, NULL, OPT_SYSFS },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "clients", required_argument, NULL, 'k' },
	{ "mix", required_argument, NULL, OPT_MIX },
	{ "readers", required_argument, NULL, OPT_READERS },
	{ "pollers", required_argument, NULL, OPT_POLLERS },
	{ "scenario", required_argument, NULL, 's' },
	{ "scenario-file", required_argument, NULL, 'f' },
	{ "cycles", required_argument, NULL, OPT_CYCLES },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "deadline", required_argument, NULL, OPT_DEADLINE },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "expect-errno", required_argument, NULL, OPT_EXPECT },
	{ "uevent-arg", required_argument, NULL, OPT_UEVENT_ARG },
	{ "daemon-pid", required_argument, NULL, OPT_DAEMON_PID },
	{ "no-monitor", no_argument, NULL, OPT_NO_MONITOR },
	{ "processes", no_argument, NULL, OPT_PROCESSES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char usage_text[] =
	"Usage: hotplug_sim [OPTION]...\n"
	"Unplug and replug an emulated EC under client load and report what clients saw.\n"
	"\n"
	"  -n, --name=NAME          device name (default cros_ec, node /dev/NAME)\n"
	"      --sysfs=DIR          sysfs device whose uevent file is written\n"
	"                           (default /sys/class/cuse/NAME)\n"
	"      --control=PATH       daemon control socket (status, stats, latency)\n"
	"      --trigger=uevent|control  how unplug/plug reach the daemon (default uevent)\n"
	"  -k, --clients=N          XCMD/READMEM client threads (default 4)\n"
	"      --mix=SPEC           op mix, e.g. xcmd=70,readmem=30 (the default)\n"
	"      --readers=N          threads blocked reading MKBP events\n"
	"      --pollers=N          threads blocked in poll()\n"
	"      --processes          run clients, readers and pollers as processes\n"
	"  -s, --scenario=NAME      single, replug, flap, inflight or random\n"
	"  -f, --scenario-file=FILE read a scenario file (later options override it)\n"
	"      --cycles=N           flap cycles / random actions (default 10)\n"
	"      --period=DUR         flap period / longest random sleep (default 20ms)\n"
	"      --jitter=DUR         flap jitter (default 0)\n"
	"      --latency=DUR        inflight: time a command spends in the EC (default 50ms)\n"
	"      --seed=N             random seed (default 1)\n"
	"      --deadline=DUR       a call outstanding longer is hung (default 5s)\n"
	"      --json=FILE          write the report as JSON\n"
	"      --csv=FILE           write one row per call\n"
	"      --expect-errno=LIST  allowed outcomes (default ok,ENODEV)\n"
	"      --uevent-arg=KEY=VAL append to synthetic uevents (alphanumeric; repeatable)\n"
	"      --daemon-pid=PID     check that this daemon survives\n"
	"      --no-monitor         do not watch uevents with libudev\n"
	"  -q, --quiet              no summary on stdout\n"
	"  -h, --help               this text\n"
	"  -V, --version            the version\n"
	"\n"
	"Durations: N{ns|us|ms|s|m}, e.g. 20ms; only 0 needs no unit.\n"
	"Exit status: 0 all outcomes expected, 1 unexpected outcome / hang / crash, 2 usage.\n";

static int set_path(char *dst, const char *src, const char *what, char *err)
{
	if (!*src)
		return fail(err, "%s: empty path", what);
	if (strlen(src) >= HS_PATH_MAX)
		return fail(err, "%s: path too long", what);
	strcpy(dst, src);
	return 0;
}

static int valid_device_name(const char *name)
{
	size_t i, len = strlen(name);

	if (!len || len > HS_NAME_MAX || name[0] == '.')
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
			return 0;
	return 1;
}

int hs_parse_args(struct hs_config *cfg, int argc, char **argv, char *err)
{
	uint64_t num, cycles = 10;
	uint64_t period = 20000000ull, jitter = 0, latency = 50000000ull;
	const char *scenario = NULL, *sysfs = NULL;
	bool have_file = false;
	FILE *in;
	int opt, ret;

	hs_config_init(cfg);
	optind = 0;	/* getopt_long must restart: the tests call this many times */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":n:k:s:f:qhV", long_options, NULL)) != -1) {
		ret = 0;
		switch (opt) {
		case 'n':
			if (!valid_device_name(optarg))
				return fail(err, "--name: '%.40s' must be 1..%d letters, digits, '_', '-' or '.'",
					    optarg, HS_NAME_MAX);
			strcpy(cfg->device, optarg);
			break;
		case OPT_SYSFS:
			sysfs = optarg;
			ret = *optarg ? 0 : fail(err, "--sysfs: empty path");
			break;
		case OPT_CONTROL:
			ret = set_path(cfg->control, optarg, "--control", err);
			break;
		case OPT_TRIGGER:
			if (!strcmp(optarg, "uevent"))
				cfg->trigger = HS_TRIGGER_UEVENT;
			else if (!strcmp(optarg, "control"))
				cfg->trigger = HS_TRIGGER_CONTROL;
			else
				ret = fail(err, "--trigger: '%.40s' is not uevent or control", optarg);
			break;
		case 'k':
			ret = parse_count(optarg, 0, HS_MAX_CLIENTS, &num, "--clients", err);
			cfg->clients = ret ? cfg->clients : (unsigned int)num;
			break;
		case OPT_MIX:
			ret = hs_parse_mix(optarg, &cfg->mix_xcmd, err);
			break;
		case OPT_READERS:
			ret = parse_count(optarg, 0, HS_MAX_READERS, &num, "--readers", err);
			cfg->readers = ret ? cfg->readers : (unsigned int)num;
			break;
		case OPT_POLLERS:
			ret = parse_count(optarg, 0, HS_MAX_POLLERS, &num, "--pollers", err);
			cfg->pollers = ret ? cfg->pollers : (unsigned int)num;
			break;
		case 's':
			scenario = optarg;
			break;
		case 'f':
			in = fopen(optarg, "r");
			if (!in) {
				ret = fail(err, "%s: %s", optarg, strerror(errno));
				break;
			}
			ret = hs_parse_scenario_file(cfg, in, optarg, err);
			fclose(in);
			have_file = true;
			break;
		case OPT_CYCLES:
			ret = parse_count(optarg, 1, HS_MAX_CYCLES, &cycles, "--cycles", err);
			break;
		case OPT_PERIOD:
			ret = parse_span(optarg, &period, "--period", err);
			break;
		case OPT_JITTER:
			ret = parse_span(optarg, &jitter, "--jitter", err);
			break;
		case OPT_LATENCY:
			ret = parse_span(optarg, &latency, "--latency", err);
			if (!ret && !latency)
				ret = fail(err, "--latency must be above 0");
			break;
		case OPT_SEED:
			ret = parse_count(optarg, 0, UINT64_MAX, &num, "--seed", err);
			cfg->seed = ret ? cfg->seed : num;
			break;
		case OPT_DEADLINE:
			ret = parse_span(optarg, &cfg->deadline_ns, "--deadline", err);
			if (!ret && !cfg->deadline_ns)
				ret = fail(err, "--deadline must be above 0");
			break;
		case OPT_JSON:
			ret = set_path(cfg->json_path, optarg, "--json", err);
			break;
		case OPT_CSV:
			ret = set_path(cfg->csv_path, optarg, "--csv", err);
			break;
		case OPT_EXPECT:
			ret = hs_parse_expect(optarg, cfg->expect, err);
			break;
		case OPT_UEVENT_ARG:
			if (cfg->nuevent_args == HS_UEVENT_ARGS_MAX)
				ret = fail(err, "--uevent-arg: at most %d", HS_UEVENT_ARGS_MAX);
			else
				ret = hs_parse_uevent_arg(optarg,
							  &cfg->uevent_args[cfg->nuevent_args++], err);
			break;
		case OPT_DAEMON_PID:
			ret = parse_count(optarg, 1, 4194304, &num, "--daemon-pid", err);
			cfg->daemon_pid = ret ? 0 : (long)num;
			break;
		case OPT_NO_MONITOR:
			cfg->monitor = false;
			break;
		case OPT_PROCESSES:
			cfg->processes = true;
			break;
		case 'q':
			cfg->quiet = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case 'V':
			printf("hotplug_sim (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 1;
		default:
			return cli_option_error(opt, argv, err, HS_ERR_MAX);
		}
		if (ret)
			return ret;
	}
	if (optind < argc)
		return fail(err, "unexpected argument '%.40s'", argv[optind]);

	if (sysfs) {
		if (strlen(sysfs) + sizeof("/uevent") > HS_PATH_MAX)
			return fail(err, "--sysfs: path too long");
		snprintf(cfg->sysfs_uevent, HS_PATH_MAX, "%s/uevent", sysfs);
	} else {
		snprintf(cfg->sysfs_uevent, HS_PATH_MAX, "/sys/class/cuse/%s/uevent", cfg->device);
	}
	if (cfg->trigger == HS_TRIGGER_CONTROL && !cfg->control[0])
		return fail(err, "--trigger=control needs --control=PATH");
	if (scenario || !have_file) {
		ret = hs_parse_scenario_name(cfg, scenario ? scenario : "single",
					     (unsigned int)cycles, period, jitter, latency, err);
		if (ret)
			return ret;
	}
	for (unsigned int i = 0; i < cfg->nsteps; i++)
		if (cfg->steps[i].kind == HS_STEP_INFLIGHT && !cfg->control[0])
			return fail(err, "the inflight scenario needs --control=PATH (latency injection)");
	if (!cfg->clients && !cfg->readers && !cfg->pollers)
		return fail(err, "nothing to run: no clients, readers or pollers");
	return 0;
}
