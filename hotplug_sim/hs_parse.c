// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_parse.c - hotplug_sim's parsers but the scenario's (hs_scenario.c):
 * command line, durations, op mixes, errno lists, synthetic uevent
 * arguments. Pure functions over struct hs_config so the tests can feed
 * them bad input.
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
#include "hs_parse_internal.h"

#define SEPARATORS ", \t"

int hs_fail(char *err, const char *fmt, ...)
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

int hs_parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out,
		   const char *what, char *err)
{
	return parse_uint(text, what, min, max, out, err, HS_ERR_MAX) ? -EINVAL : 0;
}

int hs_parse_span(const char *text, uint64_t *ns, const char *what, char *err)
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
		return hs_fail(err, "mix: empty (expected e.g. xcmd=70,readmem=30)");
	if (strlen(text) >= sizeof(copy))
		return hs_fail(err, "mix: too long");
	strcpy(copy, text);
	for (tok = strtok_r(copy, SEPARATORS, &save); tok; tok = strtok_r(NULL, SEPARATORS, &save)) {
		char *eq = strchr(tok, '=');
		bool *seen;

		if (!eq)
			return hs_fail(err, "mix: '%.40s' is not op=percent", tok);
		*eq = '\0';
		if (!strcmp(tok, "xcmd"))
			seen = &seen_xcmd;
		else if (!strcmp(tok, "readmem"))
			seen = &seen_readmem;
		else
			return hs_fail(err, "mix: unknown op '%.40s' (xcmd or readmem)", tok);
		if (*seen)
			return hs_fail(err, "mix: '%s' given twice", tok);
		*seen = true;
		ret = hs_parse_count(eq + 1, 0, 100, &pct, "mix percentage", err);
		if (ret)
			return ret;
		if (seen == &seen_xcmd)
			xcmd = pct;
		else
			readmem = pct;
	}
	if (!seen_xcmd && !seen_readmem)
		return hs_fail(err, "mix: empty (expected e.g. xcmd=70,readmem=30)");
	if (xcmd + readmem != 100)
		return hs_fail(err, "mix: percentages add up to %llu, not 100",
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
		return hs_fail(err, "expect: missing or too long");
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
				return hs_fail(err, "expect: unknown outcome '%.40s' (ok, EC_ERROR or an errno name such as ENODEV)",
					    tok);
			set[e] = true;
		}
		n++;
	}
	if (!n)
		return hs_fail(err, "expect: empty list");
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
		return hs_fail(err, "uevent arg: '%.40s' is not KEY=VAL", text ? text : "");
	klen = (size_t)(eq - text);
	vlen = strlen(eq + 1);
	if (!klen || !vlen)
		return hs_fail(err, "uevent arg: empty key or value in '%.40s'", text);
	if (klen > HS_UEVENT_KEY_MAX || vlen > HS_UEVENT_VAL_MAX)
		return hs_fail(err, "uevent arg: key (max %d) or value (max %d) too long",
			    HS_UEVENT_KEY_MAX, HS_UEVENT_VAL_MAX);
	/* The kernel rejects the whole uevent write otherwise: catch it here. */
	if (!all_alnum(text, klen) || !all_alnum(eq + 1, vlen))
		return hs_fail(err, "uevent arg: '%.40s' must be alphanumeric on both sides of '='",
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


/* ---- command line ---- */

enum {
	OPT_SYSFS = 256, OPT_CONTROL, OPT_TRIGGER, OPT_MIX, OPT_READERS, OPT_POLLERS,
	OPT_CYCLES, OPT_DURATION, OPT_PERIOD, OPT_JITTER, OPT_LATENCY, OPT_SEED, OPT_DEADLINE, OPT_PROGRESS, OPT_JSON,
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
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "latency", required_argument, NULL, OPT_LATENCY },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "deadline", required_argument, NULL, OPT_DEADLINE },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
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
	"      --duration=DUR       flap / random: stop after DUR (cycles unlimited\n"
	"                           unless --cycles is given too)\n"
	"      --period=DUR         flap period / longest random sleep (default 20ms)\n"
	"      --jitter=DUR         flap jitter (default 0)\n"
	"      --latency=DUR        inflight: time a command spends in the EC (default 50ms)\n"
	"      --seed=N             random seed (default 1)\n"
	"      --deadline=DUR       a call outstanding longer is hung (default 5s)\n"
	"      --progress=DUR       a progress line on stderr this often (default 0: none)\n"
	"      --json=FILE          write the report as JSON\n"
	"      --csv=FILE           write one row per call\n"
	"      --expect-errno=LIST  allowed outcomes (default ok,ENODEV)\n"
	"      --uevent-arg=KEY=VAL append to synthetic uevents (alphanumeric; repeatable)\n"
	"      --daemon-pid=PID     check that this daemon survives (default: the\n"
	"                           process serving --control)\n"
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
		return hs_fail(err, "%s: empty path", what);
	if (strlen(src) >= HS_PATH_MAX)
		return hs_fail(err, "%s: path too long", what);
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
	uint64_t num, cycles = 10, duration = 0;
	bool have_cycles = false;
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
				return hs_fail(err, "--name: '%.40s' must be 1..%d letters, digits, '_', '-' or '.'",
					    optarg, HS_NAME_MAX);
			strcpy(cfg->device, optarg);
			break;
		case OPT_SYSFS:
			sysfs = optarg;
			ret = *optarg ? 0 : hs_fail(err, "--sysfs: empty path");
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
				ret = hs_fail(err, "--trigger: '%.40s' is not uevent or control", optarg);
			break;
		case 'k':
			ret = hs_parse_count(optarg, 0, HS_MAX_CLIENTS, &num, "--clients", err);
			cfg->clients = ret ? cfg->clients : (unsigned int)num;
			break;
		case OPT_MIX:
			ret = hs_parse_mix(optarg, &cfg->mix_xcmd, err);
			break;
		case OPT_READERS:
			ret = hs_parse_count(optarg, 0, HS_MAX_READERS, &num, "--readers", err);
			cfg->readers = ret ? cfg->readers : (unsigned int)num;
			break;
		case OPT_POLLERS:
			ret = hs_parse_count(optarg, 0, HS_MAX_POLLERS, &num, "--pollers", err);
			cfg->pollers = ret ? cfg->pollers : (unsigned int)num;
			break;
		case 's':
			scenario = optarg;
			break;
		case 'f':
			in = fopen(optarg, "r");
			if (!in) {
				ret = hs_fail(err, "%s: %s", optarg, strerror(errno));
				break;
			}
			ret = hs_parse_scenario_file(cfg, in, optarg, err);
			fclose(in);
			have_file = true;
			break;
		case OPT_CYCLES:
			ret = hs_parse_count(optarg, 1, HS_MAX_CYCLES, &cycles, "--cycles", err);
			have_cycles = true;
			break;
		case OPT_DURATION:
			ret = hs_parse_span(optarg, &duration, "--duration", err);
			if (!ret && !duration)
				ret = hs_fail(err, "--duration must be above 0");
			break;
		case OPT_PERIOD:
			ret = hs_parse_span(optarg, &period, "--period", err);
			break;
		case OPT_JITTER:
			ret = hs_parse_span(optarg, &jitter, "--jitter", err);
			break;
		case OPT_LATENCY:
			ret = hs_parse_span(optarg, &latency, "--latency", err);
			if (!ret && !latency)
				ret = hs_fail(err, "--latency must be above 0");
			break;
		case OPT_SEED:
			ret = hs_parse_count(optarg, 0, UINT64_MAX, &num, "--seed", err);
			cfg->seed = ret ? cfg->seed : num;
			break;
		case OPT_PROGRESS:
			ret = hs_parse_span(optarg, &cfg->progress_ns, "--progress", err);
			break;
		case OPT_DEADLINE:
			ret = hs_parse_span(optarg, &cfg->deadline_ns, "--deadline", err);
			if (!ret && !cfg->deadline_ns)
				ret = hs_fail(err, "--deadline must be above 0");
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
				ret = hs_fail(err, "--uevent-arg: at most %d", HS_UEVENT_ARGS_MAX);
			else
				ret = hs_parse_uevent_arg(optarg,
							  &cfg->uevent_args[cfg->nuevent_args++], err);
			break;
		case OPT_DAEMON_PID:
			ret = hs_parse_count(optarg, 1, 4194304, &num, "--daemon-pid", err);
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
		return hs_fail(err, "unexpected argument '%.40s'", argv[optind]);

	if (sysfs) {
		if (strlen(sysfs) + sizeof("/uevent") > HS_PATH_MAX)
			return hs_fail(err, "--sysfs: path too long");
		snprintf(cfg->sysfs_uevent, HS_PATH_MAX, "%s/uevent", sysfs);
	} else {
		snprintf(cfg->sysfs_uevent, HS_PATH_MAX, "/sys/class/cuse/%s/uevent", cfg->device);
	}
	if (cfg->trigger == HS_TRIGGER_CONTROL && !cfg->control[0])
		return hs_fail(err, "--trigger=control needs --control=PATH");
	if (scenario || !have_file) {
		ret = hs_parse_scenario_name(cfg, scenario ? scenario : "single",
					     duration && !have_cycles ? HS_MAX_CYCLES :
					     (unsigned int)cycles, period, jitter, latency,
					     duration, err);
		if (ret)
			return ret;
	}
	if (duration && (!scenario || (strcmp(scenario, "flap") && strcmp(scenario, "random"))))
		return hs_fail(err, "--duration needs --scenario=flap or random");
	for (unsigned int i = 0; i < cfg->nsteps; i++) {
		if (cfg->steps[i].kind == HS_STEP_INFLIGHT && !cfg->control[0])
			return hs_fail(err, "the inflight scenario needs --control=PATH (latency injection)");
		if (cfg->steps[i].kind == HS_STEP_FAULT && !cfg->control[0])
			return hs_fail(err, "a fault step needs --control=PATH (the daemon's fault verb)");
	}
	if (!cfg->clients && !cfg->readers && !cfg->pollers)
		return hs_fail(err, "nothing to run: no clients, readers or pollers");
	return 0;
}
