// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - cuse_ec command-line parsing (see options.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chardev.h"
#include "options.h"

enum {
	OPT_NAME = 0x100,
	OPT_PROFILE,
	OPT_MODE,
	OPT_OWNER,
	OPT_GROUP,
	OPT_LOG_LEVEL,
	OPT_LIFECYCLE,
	OPT_CONTROL,
	OPT_SYSLOG,
	OPT_VERSION,
};

static const struct option cuse_ec_long_options[] = {
	{ "name", required_argument, NULL, OPT_NAME },
	{ "profile", required_argument, NULL, OPT_PROFILE },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "owner", required_argument, NULL, OPT_OWNER },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "foreground", no_argument, NULL, 'f' },
	{ "debug", no_argument, NULL, 'd' },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "lifecycle", required_argument, NULL, OPT_LIFECYCLE },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "syslog", no_argument, NULL, OPT_SYSLOG },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void cuse_ec_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [OPTION]...\n"
		"Serve an emulated ChromiumOS EC as the character device /dev/NAME (CUSE).\n"
		"\n"
		"  --name=NAME          device name, node /dev/NAME (default cros_ec)\n"
		"  --profile=FILE       board profile (default: built-in laptop)\n"
		"  --mode=OCTAL         permissions of the node once it appears (e.g. 0666)\n"
		"  --owner=USER         owner of the node (name or uid)\n"
		"  --group=GROUP        group of the node (name or gid)\n"
		"  -f, --foreground     stay in the foreground\n"
		"  -d, --debug          libfuse debug output (implies -f)\n"
		"  --log-level=LEVEL    err, warning, notice, info or debug (default notice)\n"
		"  --lifecycle=MODE     revocable (default), refcount or unsafe\n"
		"  --control=PATH       control socket (unix stream), see cuse_ec(8)\n"
		"  --syslog             log to syslog instead of stderr\n"
		"  -h, --help           this text\n"
		"  --version            version\n"
		"\n"
		"Exit status: 0 on success and on SIGTERM/SIGINT, 1 on a runtime error,\n"
		"2 on bad usage.\n", prog);
}

/**
 * cuse_ec_parse_log_level() - a level name or number.
 * @s:   the text
 * @out: the level
 *
 * Return: 0 or -EINVAL.
 */
int cuse_ec_parse_log_level(const char *s, int *out)
{
	static const char *const names[] = { "err", "warning", "notice", "info", "debug" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(s, names[i])) {
			*out = CHARDEV_LOG_ERR + (int)i;
			return 0;
		}
	}
	if (s[0] >= '3' && s[0] <= '7' && !s[1]) {
		*out = s[0] - '0';
		return 0;
	}
	return -EINVAL;
}

/* A device name must make a node directly under /dev/. */
static int cuse_ec_check_name(const char *name)
{
	size_t len = strlen(name);
	size_t i;

	if (!len || len >= CUSE_EC_NAME_MAX || name[0] == '.' || name[0] == '-')
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return -EINVAL;
	}
	return 0;
}

/* Parse a whole decimal number that fits below @max; reject anything else. */
static int cuse_ec_parse_ulong(const char *s, int base, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!s[0] || s[0] == '-' || s[0] == '+' || s[0] == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int cuse_ec_parse_owner(const char *s, uid_t *out)
{
	struct passwd *pw;
	unsigned long v;

	if (!cuse_ec_parse_ulong(s, 10, (unsigned long)UINT_MAX - 1, &v)) {
		*out = (uid_t)v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -EINVAL;
	*out = pw->pw_uid;
	return 0;
}

static int cuse_ec_parse_group(const char *s, gid_t *out)
{
	struct group *gr;
	unsigned long v;

	if (!cuse_ec_parse_ulong(s, 10, (unsigned long)UINT_MAX - 1, &v)) {
		*out = (gid_t)v;
		return 0;
	}
	gr = getgrnam(s);
	if (!gr)
		return -EINVAL;
	*out = gr->gr_gid;
	return 0;
}

/**
 * cuse_ec_parse_options() - parse the command line.
 * @argc: argument count
 * @argv: arguments
 * @opts: result
 * @out:  stream for --help/--version
 * @err:  stream for errors
 *
 * Return: 0, CUSE_EC_OPTIONS_EXIT or -EINVAL.
 */
int cuse_ec_parse_options(int argc, char **argv, struct cuse_ec_options *opts,
			  FILE *out, FILE *err)
{
	const char *prog = argc > 0 && argv[0] ? argv[0] : "cuse_ec";
	unsigned long v;
	int c;

	memset(opts, 0, sizeof(*opts));
	strcpy(opts->name, "cros_ec");
	opts->node_mode = -1;
	opts->owner = (uid_t)-1;
	opts->group = (gid_t)-1;
	opts->log_level = CHARDEV_LOG_NOTICE;
	opts->lifecycle = LIFECYCLE_REVOCABLE;

	/* 0 (not 1) makes glibc reinitialise getopt, so tests may call us again. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":fdh", cuse_ec_long_options, NULL)) != -1) {
		switch (c) {
		case OPT_NAME:
			if (cuse_ec_check_name(optarg)) {
				fprintf(err, "%s: invalid --name '%s': use 1-%d characters of "
					"[A-Za-z0-9_.-], not starting with '.' or '-'\n",
					prog, optarg, CUSE_EC_NAME_MAX - 1);
				return -EINVAL;
			}
			strcpy(opts->name, optarg);
			break;
		case OPT_PROFILE:
			if (!optarg[0]) {
				fprintf(err, "%s: --profile needs a file name\n", prog);
				return -EINVAL;
			}
			opts->profile = optarg;
			break;
		case OPT_MODE:
			if (cuse_ec_parse_ulong(optarg, 8, 07777, &v)) {
				fprintf(err, "%s: invalid --mode '%s': expected octal 0..7777\n",
					prog, optarg);
				return -EINVAL;
			}
			opts->node_mode = (int)v;
			break;
		case OPT_OWNER:
			if (cuse_ec_parse_owner(optarg, &opts->owner)) {
				fprintf(err, "%s: invalid --owner '%s': no such user\n", prog, optarg);
				return -EINVAL;
			}
			break;
		case OPT_GROUP:
			if (cuse_ec_parse_group(optarg, &opts->group)) {
				fprintf(err, "%s: invalid --group '%s': no such group\n", prog, optarg);
				return -EINVAL;
			}
			break;
		case 'f':
			opts->foreground = true;
			break;
		case 'd':
			opts->debug = true;
			opts->foreground = true;
			break;
		case OPT_LOG_LEVEL:
			if (cuse_ec_parse_log_level(optarg, &opts->log_level)) {
				fprintf(err, "%s: invalid --log-level '%s': use err, warning, "
					"notice, info or debug\n", prog, optarg);
				return -EINVAL;
			}
			break;
		case OPT_LIFECYCLE:
			if (lifecycle_mode_parse(optarg, &opts->lifecycle)) {
				fprintf(err, "%s: invalid --lifecycle '%s': use revocable, "
					"refcount or unsafe\n", prog, optarg);
				return -EINVAL;
			}
			break;
		case OPT_CONTROL:
			if (!optarg[0] || strlen(optarg) >= 108) {
				fprintf(err, "%s: invalid --control path: must be 1-107 bytes\n",
					prog);
				return -EINVAL;
			}
			opts->control = optarg;
			break;
		case OPT_SYSLOG:
			opts->syslog = true;
			break;
		case 'h':
			cuse_ec_usage(out, prog);
			return CUSE_EC_OPTIONS_EXIT;
		case OPT_VERSION:
			fprintf(out, "cuse_ec %s\n", PACKAGE_VERSION);
			return CUSE_EC_OPTIONS_EXIT;
		case ':':
			fprintf(err, "%s: option '%s' needs an argument\n", prog, argv[optind - 1]);
			return -EINVAL;
		default:
			if (optopt && optopt < 0x100)
				fprintf(err, "%s: unknown option '-%c'\n", prog, optopt);
			else
				fprintf(err, "%s: unknown option '%s'\n", prog, argv[optind - 1]);
			fprintf(err, "Try '%s --help'.\n", prog);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(err, "%s: unexpected argument '%s'\nTry '%s --help'.\n",
			prog, argv[optind], prog);
		return -EINVAL;
	}
	return 0;
}
