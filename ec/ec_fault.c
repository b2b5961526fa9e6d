// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_fault.c - faults on demand.  A plan is a short list of rules, each
 * naming the host commands it hits, what happens instead of a plain answer
 * (an EC result, a short or oversized answer, a delay, a transport error,
 * the IN_PROGRESS protocol, an unplug), how many times and with what
 * chance.  The plan belongs to its caller (the daemon keeps one per
 * device, so its rules outlive a replug); each EC it is given to draws
 * from it at every host command (ec.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cros_ec/ec_commands.h>

#include "common/common.h"
#include "ec_internal.h"

/* What a kind's "=VALUE" is. */
enum ec_fault_arg {
	EC_FAULT_ARG_NONE,
	EC_FAULT_ARG_RESULT,	/* an EC result, by name or number */
	EC_FAULT_ARG_BYTES,	/* a byte count */
	EC_FAULT_ARG_DURATION,	/* "50ms", "2s" */
};

/* The kinds: the one place each is named and described. */
static const struct {
	const char *name;
	enum ec_fault_arg arg;
	const char *help;
} ec_fault_kinds[EC_FAULT_KINDS] = {
	[EC_FAULT_RESULT] = { "result", EC_FAULT_ARG_RESULT,
		"answer this EC result; the command does not run" },
	[EC_FAULT_SHORT] = { "short", EC_FAULT_ARG_BYTES,
		"run it; a successful answer keeps only its first N bytes" },
	[EC_FAULT_OVERSIZE] = { "oversize", EC_FAULT_ARG_NONE,
		"run it; the answer is longer than asked, which the transport refuses (EMSGSIZE)" },
	[EC_FAULT_DELAY] = { "delay", EC_FAULT_ARG_DURATION,
		"spend this long more in the EC (its lock held), then run it" },
	[EC_FAULT_EIO] = { "eio", EC_FAULT_ARG_NONE,
		"transport error EIO; the command does not run" },
	[EC_FAULT_TIMEOUT] = { "timeout", EC_FAULT_ARG_NONE,
		"no answer: the profile's timeout_delay, then ETIMEDOUT" },
	[EC_FAULT_IN_PROGRESS] = { "in_progress", EC_FAULT_ARG_NONE,
		"run it; answer IN_PROGRESS, the result waits for GET_COMMS_STATUS / RESEND_RESPONSE" },
	[EC_FAULT_UNPLUG] = { "unplug", EC_FAULT_ARG_NONE,
		"run it; the device goes away as it answers" },
};

/* A delay above this is a hang; refused as "latency" is. */
#define EC_FAULT_DELAY_MAX_NS	60000000000ull
#define EC_FAULT_TIMES_MAX	1000000u

struct ec_fault_plan {
	pthread_mutex_t lock;		/* a leaf: taken inside an EC's lock */
	struct ec_fault rules[EC_FAULT_RULES_MAX];
	size_t n_rules;
	uint64_t rng;
	uint64_t injected;
};

const char *ec_fault_kind_name(enum ec_fault_kind kind)
{
	if (kind <= EC_FAULT_NONE || kind >= EC_FAULT_KINDS)
		return "none";
	return ec_fault_kinds[kind].name;
}

const char *ec_fault_kind_help(enum ec_fault_kind kind)
{
	if (kind <= EC_FAULT_NONE || kind >= EC_FAULT_KINDS)
		return "";
	return ec_fault_kinds[kind].help;
}

/* The kind named by the @len bytes at @word; EC_FAULT_NONE if none. */
static enum ec_fault_kind ec_fault_kind_lookup(const char *word, size_t len)
{
	int k;

	for (k = EC_FAULT_NONE + 1; k < EC_FAULT_KINDS; k++)
		if (strlen(ec_fault_kinds[k].name) == len &&
		    !strncmp(word, ec_fault_kinds[k].name, len))
			return (enum ec_fault_kind)k;
	return EC_FAULT_NONE;
}

static int ec_fault_parse_arg(enum ec_fault_kind kind, const char *value,
			      struct ec_fault *out, char *err, size_t errlen)
{
	const char *name = ec_fault_kinds[kind].name;
	uint32_t code;
	int ret;

	switch (ec_fault_kinds[kind].arg) {
	case EC_FAULT_ARG_NONE:
		if (value) {
			snprintf(err, errlen, "fault '%s' takes no value", name);
			return -EINVAL;
		}
		return 0;
	case EC_FAULT_ARG_RESULT:
		if (!value) {
			snprintf(err, errlen, "fault 'result' needs a value: result=BUSY");
			return -EINVAL;
		}
		ret = ec_result_parse(value, &code, err, errlen);
		if (!ret)
			out->arg = code;
		return ret;
	case EC_FAULT_ARG_BYTES:
		if (!value) {
			snprintf(err, errlen, "fault '%s' needs a byte count: %s=4", name, name);
			return -EINVAL;
		}
		return parse_uint(value, "short", 0, 0xFFFF, &out->arg, err, errlen);
	case EC_FAULT_ARG_DURATION:
		if (!value) {
			snprintf(err, errlen, "fault '%s' needs a duration: %s=50ms", name, name);
			return -EINVAL;
		}
		return parse_duration(value, "delay", EC_FAULT_DELAY_MAX_NS, &out->arg,
				      err, errlen);
	}
	return -EINVAL;
}

/* One "key=value" or "word" item of a spec. */
static int ec_fault_parse_item(const char *item, struct ec_fault *out, bool *seen_cmd,
			       bool *seen_times, bool *seen_p, char *err, size_t errlen)
{
	const char *eq = strchr(item, '=');
	size_t klen = eq ? (size_t)(eq - item) : strlen(item);
	const char *value = eq ? eq + 1 : NULL;
	enum ec_fault_kind kind;
	uint64_t n;
	int ret;

	if (klen == 3 && !strncmp(item, "cmd", 3)) {
		if (*seen_cmd || !value) {
			snprintf(err, errlen, *seen_cmd ? "cmd given twice" :
				 "cmd needs a value: cmd=0x0b or cmd=all");
			return -EINVAL;
		}
		*seen_cmd = true;
		if (!strcmp(value, "all")) {
			out->command = EC_FAULT_ANY_COMMAND;
			return 0;
		}
		ret = parse_uint(value, "cmd", 0, 0xFFFF, &n, err, errlen);
		if (!ret)
			out->command = (uint32_t)n;
		return ret;
	}
	if (klen == 5 && !strncmp(item, "times", 5)) {
		if (*seen_times || !value) {
			snprintf(err, errlen, *seen_times ? "times given twice" :
				 "times needs a value: times=3 or times=always");
			return -EINVAL;
		}
		*seen_times = true;
		if (!strcmp(value, "always")) {
			out->times = 0;
			return 0;
		}
		ret = parse_uint(value, "times", 1, EC_FAULT_TIMES_MAX, &n, err, errlen);
		if (!ret)
			out->times = (uint32_t)n;
		return ret;
	}
	if (klen == 1 && item[0] == 'p') {
		if (*seen_p || !value) {
			snprintf(err, errlen, *seen_p ? "p given twice" :
				 "p needs a value: p=0.25");
			return -EINVAL;
		}
		*seen_p = true;
		ret = parse_probability(value, "p", &out->ppm, err, errlen);
		if (!ret && !out->ppm) {
			snprintf(err, errlen, "p=0 is a fault that never happens");
			return -EINVAL;
		}
		return ret;
	}
	kind = ec_fault_kind_lookup(item, klen);
	if (kind == EC_FAULT_NONE) {
		snprintf(err, errlen, "unknown fault item '%.*s' (kinds: result= short= oversize "
			 "delay= eio timeout in_progress unplug; cmd= times= p=)",
			 (int)(klen > 24 ? 24 : klen), item);
		return -EINVAL;
	}
	if (out->kind != EC_FAULT_NONE) {
		snprintf(err, errlen, "two fault kinds ('%s' and '%s'): one per rule",
			 ec_fault_kinds[out->kind].name, ec_fault_kinds[kind].name);
		return -EINVAL;
	}
	out->kind = kind;
	return ec_fault_parse_arg(kind, value, out, err, errlen);
}

int ec_fault_parse(const char *spec, struct ec_fault *out, char *err, size_t errlen)
{
	struct ec_fault f = {
		.command = EC_FAULT_ANY_COMMAND, .kind = EC_FAULT_NONE,
		.times = 1, .ppm = PARSE_PPM,
	};
	bool seen_cmd = false, seen_times = false, seen_p = false;
	char buf[EC_FAULT_TEXT_MAX];
	char *item, *save = NULL;
	int ret;

	if (!spec || !*spec) {
		snprintf(err, errlen, "empty fault (e.g. result=BUSY or cmd=0x0b,eio,times=2)");
		return -EINVAL;
	}
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "fault longer than %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	memcpy(buf, spec, strlen(spec) + 1);
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		snprintf(err, errlen, "empty item in fault '%.40s'", spec);
		return -EINVAL;
	}
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		ret = ec_fault_parse_item(item, &f, &seen_cmd, &seen_times, &seen_p, err, errlen);
		if (ret)
			return ret;
	}
	if (f.kind == EC_FAULT_NONE) {
		snprintf(err, errlen, "no fault kind in '%.40s' (result= short= oversize delay= "
			 "eio timeout in_progress unplug)", spec);
		return -EINVAL;
	}
	*out = f;
	return 0;
}

/* ppm as the shortest decimal that parses back: 250000 -> "0.25". */
static void ec_fault_format_ppm(uint32_t ppm, char *buf, size_t len)
{
	char frac[8];
	int i;

	if (ppm >= PARSE_PPM) {
		snprintf(buf, len, "1");
		return;
	}
	snprintf(frac, sizeof(frac), "%06" PRIu32, ppm);
	for (i = 5; i > 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	snprintf(buf, len, "0.%s", frac);
}

size_t ec_fault_format(const struct ec_fault *f, char *buf, size_t len)
{
	char cmd[16], arg[32] = "", times[24], p[16];

	if (f->command == EC_FAULT_ANY_COMMAND)
		snprintf(cmd, sizeof(cmd), "all");
	else
		snprintf(cmd, sizeof(cmd), "0x%04" PRIx32, f->command);
	if (f->kind > EC_FAULT_NONE && f->kind < EC_FAULT_KINDS) {
		switch (ec_fault_kinds[f->kind].arg) {
		case EC_FAULT_ARG_NONE:
			break;
		case EC_FAULT_ARG_RESULT:
			if (strcmp(ec_result_name((uint32_t)f->arg), "UNKNOWN"))
				snprintf(arg, sizeof(arg), "=%s", ec_result_name((uint32_t)f->arg));
			else
				snprintf(arg, sizeof(arg), "=%" PRIu64, f->arg);
			break;
		case EC_FAULT_ARG_BYTES:
			snprintf(arg, sizeof(arg), "=%" PRIu64, f->arg);
			break;
		case EC_FAULT_ARG_DURATION:
			arg[0] = '=';
			format_duration(f->arg, arg + 1, sizeof(arg) - 1);
			break;
		}
	}
	if (f->times)
		snprintf(times, sizeof(times), "%" PRIu32, f->times);
	else
		snprintf(times, sizeof(times), "always");
	ec_fault_format_ppm(f->ppm, p, sizeof(p));
	return (size_t)snprintf(buf, len, "cmd=%s,%s%s,times=%s,p=%s", cmd,
				ec_fault_kind_name(f->kind), arg, times, p);
}

int ec_fault_plan_create(uint64_t seed, struct ec_fault_plan **out)
{
	struct ec_fault_plan *plan = calloc(1, sizeof(*plan));

	if (!plan)
		return -ENOMEM;
	pthread_mutex_init(&plan->lock, NULL);
	/* xorshift must not start at 0. */
	plan->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
	*out = plan;
	return 0;
}

void ec_fault_plan_destroy(struct ec_fault_plan *plan)
{
	if (!plan)
		return;
	pthread_mutex_destroy(&plan->lock);
	free(plan);
}

int ec_fault_plan_add(struct ec_fault_plan *plan, const struct ec_fault *f)
{
	int ret = 0;

	if (!plan || !f || f->kind <= EC_FAULT_NONE || f->kind >= EC_FAULT_KINDS ||
	    !f->ppm || f->ppm > PARSE_PPM)
		return -EINVAL;
	pthread_mutex_lock(&plan->lock);
	if (plan->n_rules == EC_FAULT_RULES_MAX)
		ret = -ENOSPC;
	else
		plan->rules[plan->n_rules++] = *f;
	pthread_mutex_unlock(&plan->lock);
	return ret;
}

size_t ec_fault_plan_clear(struct ec_fault_plan *plan)
{
	size_t n;

	pthread_mutex_lock(&plan->lock);
	n = plan->n_rules;
	plan->n_rules = 0;
	pthread_mutex_unlock(&plan->lock);
	return n;
}

size_t ec_fault_plan_list(struct ec_fault_plan *plan, struct ec_fault *out, size_t room,
			  uint64_t *injected)
{
	size_t n;

	pthread_mutex_lock(&plan->lock);
	n = plan->n_rules < room ? plan->n_rules : room;
	memcpy(out, plan->rules, n * sizeof(*out));
	if (injected)
		*injected = plan->injected;
	n = plan->n_rules;
	pthread_mutex_unlock(&plan->lock);
	return n;
}

/*
 * The first rule that hits @command now: its kind (EC_FAULT_NONE: none)
 * and value.  A rule hits a command it names (cmd=all: any but the two
 * the IN_PROGRESS protocol recovers with, so a client can always
 * recover), has injections left and wins its draw; its last injection
 * removes it.  Rules are tried in the order they were added.
 */
enum ec_fault_kind ec_fault_plan_draw(struct ec_fault_plan *plan, uint32_t command,
				      uint64_t *arg)
{
	enum ec_fault_kind kind = EC_FAULT_NONE;
	bool recovery = command == EC_CMD_RESEND_RESPONSE ||
			command == EC_CMD_GET_COMMS_STATUS;
	size_t i;

	pthread_mutex_lock(&plan->lock);
	for (i = 0; i < plan->n_rules; i++) {
		struct ec_fault *r = &plan->rules[i];

		if (r->command == EC_FAULT_ANY_COMMAND ? recovery : r->command != command)
			continue;
		if (r->ppm < PARSE_PPM &&
		    (xorshift64s_next(&plan->rng) >> 11) % PARSE_PPM >= r->ppm)
			continue;
		kind = r->kind;
		*arg = r->arg;
		plan->injected++;
		if (r->times && !--r->times) {
			memmove(r, r + 1, (plan->n_rules - i - 1) * sizeof(*r));
			plan->n_rules--;
		}
		break;
	}
	pthread_mutex_unlock(&plan->lock);
	return kind;
}
