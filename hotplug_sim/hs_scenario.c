// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_scenario.c - hotplug_sim's scenarios: one table of actions
 * (hs_step_defs[]), the scenario-file parser, and the built-in scenarios
 * read as the action lines a file would have.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs.h"
#include "hs_parse_internal.h"

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
	enum { HS_ARG_NONE, HS_ARG_DURATION, HS_ARG_CYCLES, HS_ARG_RULE } arg;
	const char *const *opts;
};

static const char *const hs_flap_opts[] = { "period", "jitter", "duration", NULL };
static const char *const hs_inflight_opts[] = { "latency", NULL };
static const char *const hs_random_opts[] = { "period", "duration", NULL };

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
	{ .keyword = "fault", .base = { .kind = HS_STEP_FAULT }, .arg = HS_ARG_RULE },
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

const char *hs_step_name(enum hs_step_kind kind)
{
	size_t i;

	for (i = 0; i < HS_STEP_DEF_COUNT; i++)
		if (hs_step_defs[i].base.kind == kind)
			return hs_step_defs[i].keyword;
	return "?";
}

/* The field each key=DURATION option of a step line sets. */
static const struct {
	const char *key;
	size_t offset;
} hs_step_options[] = {
	{ "period", offsetof(struct hs_step, period_ns) },
	{ "jitter", offsetof(struct hs_step, jitter_ns) },
	{ "duration", offsetof(struct hs_step, duration_ns) },
	{ "latency", offsetof(struct hs_step, latency_ns) },
};

/* The value option @key sets in @step; NULL for a key that is none. */
static uint64_t *step_option(struct hs_step *step, const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(hs_step_options) / sizeof(hs_step_options[0]); i++)
		if (!strcmp(key, hs_step_options[i].key))
			return (uint64_t *)((char *)step + hs_step_options[i].offset);
	return NULL;
}

static int add_step(struct hs_config *cfg, const struct hs_step *step, char *err)
{
	if (cfg->nsteps >= HS_MAX_STEPS)
		return hs_fail(err, "scenario: more than %d steps", HS_MAX_STEPS);
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
		return hs_fail(err, "'%.40s' is not key=duration", tok);
	klen = (size_t)(eq - tok);
	for (i = 0; def->opts && def->opts[i] && !key; i++)
		if (strlen(def->opts[i]) == klen && !strncmp(tok, def->opts[i], klen))
			key = def->opts[i];
	if (!key)
		return hs_fail(err, "unknown option '%.*s'", (int)klen, tok);
	return hs_parse_span(eq + 1, step_option(step, key), key, err);
}

/* What no step may be, however it was written. */
static int check_step(const struct hs_step_def *def, const struct hs_step *step, char *err)
{
	if (def->arg == HS_ARG_CYCLES && !step->period_ns)
		return hs_fail(err, "period must be above 0");
	if (step->jitter_ns * 2 > step->period_ns)
		return hs_fail(err, "jitter must be at most half the period");
	if (step->kind == HS_STEP_INFLIGHT && !step->latency_ns)
		return hs_fail(err, "latency must be above 0");
	return 0;
}

/*
 * A fault rule: one printable word that fits the control line; what it
 * says is the daemon's to judge (its reply, at the step).
 */
static int parse_fault_rule(const char *word, struct hs_step *step, char *err)
{
	size_t i, len = strlen(word);

	if (len >= sizeof(step->fault))
		return hs_fail(err, "fault: rule longer than %zu characters",
			       sizeof(step->fault) - 1);
	for (i = 0; i < len; i++)
		if (!isgraph((unsigned char)word[i]))
			return hs_fail(err, "fault: the rule is one printable word");
	memcpy(step->fault, word, len + 1);
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
		return hs_fail(err, "'%s' needs an argument", def->keyword);
	if (!def->opts && argc > 1 + (def->arg != HS_ARG_NONE))
		return hs_fail(err, "too many arguments to '%s'", def->keyword);
	if (def->arg == HS_ARG_DURATION)
		ret = hs_parse_span(argv[i++], &step.duration_ns, def->keyword, err);
	else if (def->arg == HS_ARG_RULE)
		ret = parse_fault_rule(argv[i++], &step, err);
	else if (def->arg == HS_ARG_CYCLES)
		ret = hs_parse_count(argv[i++], 1, HS_MAX_CYCLES, &num, "cycles", err);
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

/* ---- scenario files ---- */

static int need_args(const char *verb, unsigned int got, unsigned int min, unsigned int max,
		     char *err)
{
	if (got < min)
		return hs_fail(err, "'%s' needs an argument", verb);
	if (got > max)
		return hs_fail(err, "too many arguments to '%s'", verb);
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
			return hs_fail(err, "too many words");
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
			ret = hs_parse_count(argv[1], 0, max, &num, verb, err);
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
			ret = hs_parse_span(argv[1], &cfg->deadline_ns, "deadline", err);
		if (!ret && !cfg->deadline_ns)
			ret = hs_fail(err, "deadline must be above 0");
		return ret;
	}
	if (!strcmp(verb, "seed")) {
		ret = need_args(verb, argc - 1, 1, 1, err);
		if (!ret)
			ret = hs_parse_count(argv[1], 0, UINT64_MAX, &num, "seed", err);
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
			return hs_fail(err, "trigger: '%.40s' is not uevent or control", argv[1]);
		return 0;
	}
	return hs_fail(err, "unknown keyword '%.40s'", verb);
}

/* ---- built-in scenarios ---- */

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
	struct hs_step values = *given;
	const struct hs_step_def *def;
	char line[256], keyword[16];
	size_t used, k;

	snprintf(keyword, sizeof(keyword), "%.*s", (int)strcspn(text, " "), text);
	def = step_def(keyword);
	used = (size_t)snprintf(line, sizeof(line), "%s", text);
	if (def->arg == HS_ARG_CYCLES)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %u", values.count);
	for (k = 0; def->opts && def->opts[k]; k++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, " %s=%" PRIu64 "ns",
					 def->opts[k], *step_option(&values, def->opts[k]));
	/* Read as a scenario file's line is: one parser for both. */
	return parse_scenario_line(cfg, line, err);
}

int hs_parse_scenario_name(struct hs_config *cfg, const char *name, unsigned int cycles,
			   uint64_t period_ns, uint64_t jitter_ns, uint64_t latency_ns,
			   uint64_t duration_ns, char *err)
{
	const struct hs_step given = { .count = cycles, .period_ns = period_ns,
				       .jitter_ns = jitter_ns, .latency_ns = latency_ns,
				       .duration_ns = duration_ns };
	size_t i, j, used, n = sizeof(hs_builtin_scenarios) / sizeof(hs_builtin_scenarios[0]);
	char why[HS_ERR_MAX], names[128] = "";
	int ret = 0;

	for (i = 0; name && i < n; i++)
		if (!strcmp(name, hs_builtin_scenarios[i].name))
			break;
	if (!name)
		return hs_fail(err, "scenario: missing name");
	if (i == n) {
		for (j = 0, used = 0; j < n; j++)
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 j ? ", " : "", hs_builtin_scenarios[j].name);
		return hs_fail(err, "scenario: unknown '%.40s' (%s)", name, names);
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
