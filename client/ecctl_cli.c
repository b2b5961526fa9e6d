// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ecctl_cli.c - ecctl's command line: options, commands and their
 * arguments, and the usage text (the commands run in ecctl_run.c).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cros_ec/ec_commands.h>

#include "client/ecctl_cli.h"
#include "common/common.h"

#define DEFAULT_DEVICE "cros_ec"
#define DEFAULT_EVENT_TIMEOUT_MS 10000

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = (char)tolower((unsigned char)ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int ecctl_parse_hex(const char *s, uint8_t *buf, size_t max, size_t *len)
{
	size_t n = 0;

	if (!s || !len)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (*s) {
		int hi, lo;

		if (*s == ' ' || *s == ':' || *s == ',') {
			s++;
			continue;
		}
		hi = hex_digit(s[0]);
		lo = hi < 0 ? -1 : hex_digit(s[1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		buf[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	*len = n;
	return 0;
}

static const struct {
	const char *name;
	enum ecctl_command command;
	int min_args;
	int max_args;
} command_table[] = {
	{ "hello", ECCTL_CMD_HELLO, 0, 0 },
	{ "version", ECCTL_CMD_VERSION, 0, 0 },
	{ "chipinfo", ECCTL_CMD_CHIPINFO, 0, 0 },
	{ "protoinfo", ECCTL_CMD_PROTOINFO, 0, 0 },
	{ "cmdversions", ECCTL_CMD_CMDVERSIONS, 1, 1 },
	{ "battery", ECCTL_CMD_BATTERY, 0, 0 },
	{ "temps", ECCTL_CMD_TEMPS, 0, 0 },
	{ "fans", ECCTL_CMD_FANS, 0, 0 },
	{ "console", ECCTL_CMD_CONSOLE, 0, 0 },
	{ "events", ECCTL_CMD_EVENTS, 0, 3 },
	{ "uptime", ECCTL_CMD_UPTIME, 0, 0 },
	{ "panicinfo", ECCTL_CMD_PANICINFO, 0, 0 },
	{ "usbpd", ECCTL_CMD_USBPD_PORTS, 1, 2 },
	{ "raw", ECCTL_CMD_RAW, 2, 3 },
	{ "kblight", ECCTL_CMD_KBLIGHT, 0, 1 },
};

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * Options come before the command ('+': getopt stops at the first word that
 * is not one), so a command argument such as the events timeout -1 is never
 * taken for an option.
 */
static const char short_options[] = "+:hVjn:d:";

static const struct option long_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "json", no_argument, NULL, 'j' },
	{ "name", required_argument, NULL, 'n' },
	{ "device", required_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

/* A command argument in [@min, @max], by the shared rules and message. */
static int arg_uint(const char *text, const char *what, uint32_t min, uint32_t max,
		    uint32_t *out, char *err, size_t errlen)
{
	uint64_t v;

	if (parse_uint(text, what, min, max, &v, err, errlen))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_command_args(const char *name, int nargs, char *const args[],
			      struct ecctl_opts *opts, char *err, size_t errlen)
{
	uint32_t v;
	int ret;

	switch (opts->command) {
	case ECCTL_CMD_CMDVERSIONS:
		return arg_uint(args[0], "command number", 0, 0xffff, &opts->host_cmd, err,
				errlen);
	case ECCTL_CMD_EVENTS:
		if (nargs > 0 && arg_uint(args[0], "event mask", 1, UINT32_MAX, &opts->event_mask,
					  err, errlen))
			return -EINVAL;
		if (nargs > 1) {
			if (arg_uint(args[1], "event count", 1, 100000, &v, err, errlen))
				return -EINVAL;
			opts->event_count = v;
		}
		if (nargs > 2) {
			if (!strcmp(args[2], "-1")) {
				opts->timeout_ms = -1;
			} else {
				/* Milliseconds, as ectool's waitevent takes them; -1 waits forever. */
				if (arg_uint(args[2], "timeout (ms, or -1)", 0, 86400000, &v, err,
					     errlen))
					return -EINVAL;
				opts->timeout_ms = (int)v;
			}
		}
		return 0;
	case ECCTL_CMD_USBPD_PORTS:
		if (!strcmp(args[0], "ports")) {
			if (nargs != 1)
				return bad(err, errlen, "usbpd ports takes no argument");
			return 0;
		}
		if (strcmp(args[0], "power"))
			return bad(err, errlen, "usbpd: unknown sub-command '%s' (ports, power)",
				   args[0]);
		opts->command = ECCTL_CMD_USBPD_POWER;
		if (nargs > 1) {
			if (arg_uint(args[1], "port", 0, 254, &v, err, errlen))
				return -EINVAL;
			opts->port = (int)v;
		}
		return 0;
	case ECCTL_CMD_KBLIGHT:
		opts->kblight = -1;
		if (nargs > 0) {
			if (arg_uint(args[0], "backlight percent", 0, 100, &v, err, errlen))
				return -EINVAL;
			opts->kblight = (int)v;
		}
		return 0;
	case ECCTL_CMD_RAW:
		if (arg_uint(args[0], "command number", 0, 0xffff, &opts->host_cmd, err, errlen) ||
		    arg_uint(args[1], "command version", 0, 31, &opts->host_ver, err, errlen))
			return -EINVAL;
		if (nargs > 2) {
			ret = ecctl_parse_hex(args[2], opts->raw_req, sizeof(opts->raw_req),
					      &opts->raw_len);
			if (ret == -E2BIG)
				return bad(err, errlen, "raw: more than %d request bytes",
					   ECCTL_RAW_MAX);
			if (ret)
				return bad(err, errlen,
					   "raw: bad hex bytes '%s' (pairs of hex digits)", args[2]);
		}
		return 0;
	default:
		(void)name;
		return 0;
	}
}

int ecctl_parse_args(int argc, char *const argv[], struct ecctl_opts *opts,
		     char *err, size_t errlen)
{
	size_t k;
	int i, c;

	memset(opts, 0, sizeof(*opts));
	opts->device = DEFAULT_DEVICE;
	opts->event_mask = (1u << EC_MKBP_EVENT_COUNT) - 1;
	opts->event_count = 1;
	opts->timeout_ms = DEFAULT_EVENT_TIMEOUT_MS;
	opts->port = -1;

	/* 0 (not 1) makes glibc start over, so tests may parse many times. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			opts->help = true;
			return 0;
		case 'V':
			opts->version = true;
			return 0;
		case 'j':
			opts->json = true;
			break;
		case 'n':
		case 'd':
			if (!*optarg)
				return bad(err, errlen, "option '%s' needs a non-empty value",
					   argv[optind - 1]);
			/* A name must be a bare name: the node lives directly under /dev. */
			if (c == 'n' && strchr(optarg, '/'))
				return bad(err, errlen, "--name '%s' must not contain '/' (use --device)",
					   optarg);
			opts->device = optarg;
			opts->device_is_path = c == 'd';
			break;
		default:
			return cli_option_error(c, argv, err, errlen);
		}
	}
	i = optind;

	if (i >= argc)
		return bad(err, errlen, "no command given (try --help)");
	for (k = 0; k < sizeof(command_table) / sizeof(command_table[0]); k++)
		if (!strcmp(argv[i], command_table[k].name))
			break;
	if (k == sizeof(command_table) / sizeof(command_table[0]))
		return bad(err, errlen, "unknown command '%s' (try --help)", argv[i]);

	opts->command = command_table[k].command;
	if (argc - i - 1 < command_table[k].min_args || argc - i - 1 > command_table[k].max_args)
		return bad(err, errlen, "%s: wrong number of arguments (try --help)", argv[i]);
	return parse_command_args(argv[i], argc - i - 1, argv + i + 1, opts, err, errlen);
}

void ecctl_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [--name NAME | --device PATH] [--json] COMMAND [ARGS]\n"
		"\n"
		"Talk to a ChromiumOS EC through its /dev/cros_ec character device.\n"
		"\n"
		"Options:\n"
		"  -n, --name NAME     device /dev/NAME (default cros_ec)\n"
		"  -d, --device PATH   device node path\n"
		"  -j, --json          JSON output\n"
		"  -h, --help          this text\n"
		"  -V, --version       program version\n"
		"\n"
		"Commands:\n"
		"  hello                       check the EC answers\n"
		"  version                     firmware versions and build info\n"
		"  chipinfo                    chip vendor, name, revision\n"
		"  protoinfo                   host protocol information\n"
		"  cmdversions CMD             supported versions of host command CMD\n"
		"  battery                     battery state\n"
		"  temps                       temperature sensors\n"
		"  fans                        fan speeds\n"
		"  console                     EC console log\n"
		"  events [MASK [N [MS]]]      read N MKBP events (MS per event; -1 = forever)\n"
		"  uptime                      EC uptime and AP resets\n"
		"  panicinfo                   saved panic record\n"
		"  usbpd ports                 number of USB-PD ports\n"
		"  usbpd power [PORT]          USB-PD power info\n"
		"  raw CMD VER [HEXBYTES]      send any host command\n"
		"  kblight [PERCENT]           keyboard backlight (set it to PERCENT)\n"
		"\n"
		"Exit status: 0 success, 1 device or EC error, 2 usage error.\n",
		prog);
}
