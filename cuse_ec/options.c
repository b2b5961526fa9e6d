// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * options.c - cuse_ec command-line parsing (see options.h).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chardev.h"
#include "common/common.h"
#include "control.h"
#include "options.h"
#include "udev_follow.h"

enum {
	OPT_NAME = 0x100,
	OPT_PROFILE,
	OPT_MODE,
	OPT_OWNER,
	OPT_GROUP,
	OPT_LOG_LEVEL,
	OPT_LIFECYCLE,
	OPT_UNPLUG_WAKEUPS,
	OPT_CONTROL,
	OPT_SYSLOG,
	OPT_SEND,
	OPT_JSON,
	OPT_NO_UDEV,
	OPT_FOLLOW,
	OPT_FOLLOW_MATCH,
	OPT_LIST_PROFILES,
	OPT_CHECK_PROFILE,
	OPT_USER,
	OPT_SHUTDOWN_TIMEOUT,
	OPT_CONTROL_IDLE_TIMEOUT,
	OPT_SOCKET_DIR,
	OPT_CHECK,
	OPT_FAULT,
	OPT_FAULT_SEED,
	OPT_RECORD,
	OPT_RECORD_FORMAT,
	OPT_REPLAY,
	OPT_REPLAY_MISS,
	OPT_REPLAY_MATCH,
	OPT_STATE,
	OPT_DEVICE,
};

/**
 * struct cuse_ec_option_desc - one option, declared once: getopt's table,
 * the short-option string and --help are made from cuse_ec_option_descs[].
 * @id:      the short letter, or an OPT_* value
 * @name:    the long name
 * @has_arg: no_argument or required_argument
 * @arg:     the value's placeholder in --help, NULL without a value
 * @help:    the text; '\n' starts a continuation line
 * @list:    NULL, or what the text starts with: a list of values made at
 *           run time from its own table (the lifecycle modes)
 */
struct cuse_ec_option_desc {
	int id;
	const char *name;
	int has_arg;
	const char *arg;
	const char *help;
	const char *(*list)(char *buf, size_t len);
};

#define OPTION(id_, name_, has_arg_, arg_, help_) \
	{ .id = (id_), .name = (name_), .has_arg = (has_arg_), .arg = (arg_), .help = (help_) }
#define OPTION_LISTED(id_, name_, has_arg_, arg_, help_, list_) \
	{ .id = (id_), .name = (name_), .has_arg = (has_arg_), .arg = (arg_), .help = (help_), \
	  .list = (list_) }

/* A number macro's digits, for --help's texts. */
#define CUSE_EC_STRINGIFY_(x) #x
#define CUSE_EC_STRINGIFY(x) CUSE_EC_STRINGIFY_(x)

/* In --help's order. cuse_ec(8) has an item for each (cuse-ec-args.test). */
static const struct cuse_ec_option_desc cuse_ec_option_descs[] = {
	OPTION(OPT_NAME, "name", required_argument, "NAME",
	       "device name, node /dev/NAME (default cros_ec)"),
	OPTION(OPT_PROFILE, "profile", required_argument, "NAME|FILE",
	       "board profile: a NAME without a slash is searched in\n"
	       "$CUSE_EC_PROFILE_PATH, then " CUSE_EC_PROFILES_DIR "\n"
	       "(default: built-in laptop; format: cuse_ec-profile(5))"),
	OPTION(OPT_DEVICE, "device", required_argument, "NAME[:PROFILE]",
	       "serve /dev/NAME with its own EC of PROFILE (default\n"
	       "the built-in laptop); repeatable, up to "
	       CUSE_EC_STRINGIFY(CUSE_EC_DEVICES_MAX) " nodes,\n"
	       "the first is the control socket's default; not with\n"
	       "--name or --profile; through CUSE each is a session\n"
	       "of its own; several refuse --record, --replay,\n"
	       "--state and --follow"),
	OPTION(OPT_CHECK, "check", no_argument, NULL,
	       "check the options and load the profile, say what\n"
	       "would be served, serve nothing (exit 0, or 1/2)"),
	OPTION(OPT_LIST_PROFILES, "list-profiles", no_argument, NULL,
	       "list the profiles found by name, one a line"),
	OPTION(OPT_CHECK_PROFILE, "check-profile", required_argument, "NAME|FILE",
	       "validate a profile and print the board it describes"),
	OPTION(OPT_SOCKET_DIR, "socket-dir", required_argument, "DIR",
	       "serve the device as the UNIX socket DIR/NAME instead of\n"
	       "through CUSE: no root, no /dev/cuse; clients reach it\n"
	       "through libcuse_ec_preload.so (cuse_ec_preload(7))"),
	OPTION(OPT_MODE, "mode", required_argument, "OCTAL",
	       "permissions of the node once it appears (e.g. 0666)"),
	OPTION(OPT_OWNER, "owner", required_argument, "USER", "owner of the node (name or uid)"),
	OPTION(OPT_GROUP, "group", required_argument, "GROUP", "group of the node (name or gid)"),
	OPTION(OPT_USER, "user", required_argument, "USER[:GROUP]",
	       "once serving, drop root and run as USER (with its\n"
	       "groups, or just GROUP)"),
	OPTION(OPT_SHUTDOWN_TIMEOUT, "shutdown-timeout", required_argument, "SECONDS",
	       "on SIGTERM/SIGINT, how long commands in flight may\n"
	       "finish after every waiter is woken (default 10)"),
	OPTION('f', "foreground", no_argument, NULL, "stay in the foreground"),
	OPTION('d', "debug", no_argument, NULL, "libfuse debug output (implies -f)"),
	OPTION(OPT_LOG_LEVEL, "log-level", required_argument, "LEVEL",
	       "err, warning, notice, info or debug (default notice)"),
	OPTION_LISTED(OPT_LIFECYCLE, "lifecycle", required_argument, "MODE", " (default revocable)",
		      lifecycle_mode_list),
	OPTION(OPT_UNPLUG_WAKEUPS, "unplug-wakeups", required_argument, "HOW",
	       "upstream or v3 (default upstream): in revocable\n"
	       "mode an unplug wakes blocked readers (ENODEV) and\n"
	       "pollers (POLLERR), or leaves them asleep as seed\n"
	       "v3 does"),
	OPTION(OPT_CONTROL, "control", required_argument, "PATH",
	       "control socket (unix stream), see cuse_ec(8)"),
	OPTION(OPT_CONTROL_IDLE_TIMEOUT, "control-idle-timeout", required_argument, "SECONDS",
	       "close control connections silent this long\n"
	       "(default 60, 0 never)"),
	OPTION(OPT_SYSLOG, "syslog", no_argument, NULL, "log to syslog instead of stderr"),
	OPTION(OPT_SEND, "send", required_argument, "LINE",
	       "client mode: send LINE to the --control socket of a\n"
	       "running daemon and print the reply (repeatable);\n"
	       "exit 0 if every reply is \"ok ...\", else 1"),
	OPTION(OPT_JSON, "json", no_argument, NULL,
	       "with --send: each reply as one JSON object a line"),
	OPTION(OPT_FOLLOW, "follow", required_argument, "SYSPATH",
	       "unplug/plug the EC on remove/add uevents of the\n"
	       "device at SYSPATH (default: our own CUSE device)"),
	OPTION(OPT_FOLLOW_MATCH, "follow-match", required_argument, "KEY=VALUE",
	       "... of the device whose uevents carry this udev\n"
	       "property (repeatable: all must match)"),
	OPTION(OPT_NO_UDEV, "no-udev", no_argument, NULL,
	       "ignore uevents (control socket only)"),
	OPTION(OPT_FAULT, "fault", required_argument, "RULE",
	       "inject faults into host commands from the start, as\n"
	       "the control verb \"fault RULE\" does (repeatable;\n"
	       "e.g. cmd=0x0b,result=BUSY,times=2), see cuse_ec(8)"),
	OPTION(OPT_FAULT_SEED, "fault-seed", required_argument, "N",
	       "seed of the draws of rules with p < 1 (default:\n"
	       "a fixed one, so runs repeat)"),
	OPTION(OPT_RECORD, "record", required_argument, "FILE",
	       "record the session (commands, answers, events,\n"
	       "unplug/plug, times): see cuse_ec-recording(5)"),
	OPTION(OPT_RECORD_FORMAT, "record-format", required_argument, "FMT",
	       "native or umockdev (default: umockdev for a\n"
	       "FILE ending in .ioctl, else native)"),
	OPTION(OPT_REPLAY, "replay", required_argument, "FILE",
	       "answer from a recording (either format) first"),
	OPTION(OPT_REPLAY_MISS, "replay-miss", required_argument, "POLICY",
	       "what answers a request the recording lacks:\n"
	       "model (the profile's EC, default) or invalid\n"
	       "(INVALID_COMMAND)"),
	OPTION(OPT_REPLAY_MATCH, "replay-match", required_argument, "HOW",
	       "bytes (default: command, version and request\n"
	       "bytes) or order (failing bytes, the next unused\n"
	       "record of the command, version and length: for\n"
	       "clients such as ectool that send stray bytes)"),
	OPTION(OPT_STATE, "state", required_argument, "FILE",
	       "the EC's state file: loaded at start (if it exists)\n"
	       "and at every plug, saved at every unplug and at exit;\n"
	       "control verbs save and load, see cuse_ec-state(5)"),
	OPTION('h', "help", no_argument, NULL, "this text"),
	OPTION('V', "version", no_argument, NULL, "version"),
};

#define CUSE_EC_N_OPTIONS (sizeof(cuse_ec_option_descs) / sizeof(cuse_ec_option_descs[0]))

/* Where --help's texts start: after "  --name=VALUE" and a blank or two. */
#define USAGE_HELP_COLUMN 23

static void cuse_ec_usage(FILE *out, const char *prog)
{
	size_t i;

	fprintf(out,
		"Usage: %s [OPTION]...\n"
		"Serve an emulated ChromiumOS EC as the character device /dev/NAME (CUSE),\n"
		"or as the socket DIR/NAME for the preload library (--socket-dir).\n"
		"\n", prog);
	for (i = 0; i < CUSE_EC_N_OPTIONS; i++) {
		const struct cuse_ec_option_desc *o = &cuse_ec_option_descs[i];
		char label[64], text[512], list[128];
		char *line, *save = NULL;
		int used;

		if (o->id < 0x100)
			used = snprintf(label, sizeof(label), "  -%c, --%s", o->id, o->name);
		else
			used = snprintf(label, sizeof(label), "  --%s%s%s", o->name,
					o->arg ? "=" : "", o->arg ? o->arg : "");
		snprintf(text, sizeof(text), "%s%s", o->list ? o->list(list, sizeof(list)) : "",
			 o->help);
		/* A label too long for its column gets a line of its own. */
		if (used + 1 > USAGE_HELP_COLUMN)
			fprintf(out, "%s\n%*s", label, USAGE_HELP_COLUMN, "");
		else
			fprintf(out, "%-*s", USAGE_HELP_COLUMN, label);
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(out, "%*s%s\n", line == text ? 0 : USAGE_HELP_COLUMN, "", line);
	}
	fprintf(out, "\nControl verbs (--send=LINE, or a line on the --control socket):\n");
	control_print_verbs(out, USAGE_HELP_COLUMN, 79);
	fprintf(out,
		"\n"
		"Exit status: 0 on success and on SIGTERM/SIGINT, 1 on a runtime error,\n"
		"2 on bad usage.\n");
}

/* getopt_long()'s table and short-option string, from the one declaration. */
static void cuse_ec_getopt_tables(struct option *longopts, char *shortopts)
{
	size_t i, n_short = 0;

	shortopts[n_short++] = ':';
	for (i = 0; i < CUSE_EC_N_OPTIONS; i++) {
		const struct cuse_ec_option_desc *o = &cuse_ec_option_descs[i];

		longopts[i] = (struct option){ o->name, o->has_arg, NULL, o->id };
		if (o->id < 0x100) {
			shortopts[n_short++] = (char)o->id;
			if (o->has_arg == required_argument)
				shortopts[n_short++] = ':';
		}
	}
	longopts[i] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[n_short] = '\0';
}

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

/*
 * --device=NAME[:PROFILE]: the name up to the first colon (a name has
 * none), the profile after it, as --profile takes it (a file's path may
 * hold colons).
 */
static int cuse_ec_add_device(struct cuse_ec_options *opts, const char *arg, const char *prog,
			      FILE *err)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	struct cuse_ec_device_opt *dev;
	char name[CUSE_EC_NAME_MAX];
	unsigned int i;

	if (opts->n_devices == CUSE_EC_DEVICES_MAX) {
		fprintf(err, "%s: --device %s: at most %d devices\n", prog, arg,
			CUSE_EC_DEVICES_MAX);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, arg);
	if (len >= sizeof(name) || !ctl_device_name_valid(name)) {
		fprintf(err, "%s: invalid --device '%s': NAME is 1-%d characters of "
			"[A-Za-z0-9_.-], not starting with '.' or '-'\n", prog, arg,
			CUSE_EC_NAME_MAX - 1);
		return -EINVAL;
	}
	if (colon && !colon[1]) {
		fprintf(err, "%s: --device %s: a profile name or file after the colon\n", prog,
			arg);
		return -EINVAL;
	}
	for (i = 0; i < opts->n_devices; i++) {
		if (!strcmp(opts->devices[i].name, name)) {
			fprintf(err, "%s: --device %s: %s is served once (named twice)\n", prog,
				arg, name);
			return -EINVAL;
		}
	}
	dev = &opts->devices[opts->n_devices++];
	strcpy(dev->name, name);
	dev->profile = colon ? colon + 1 : NULL;
	return 0;
}

/*
 * With --device: what conflicts with it (the one-node options) and what
 * one daemon cannot do for several nodes. Without: the one node of
 * --name and --profile.
 */
static int cuse_ec_check_devices(struct cuse_ec_options *opts, bool name_set, const char *prog,
				 FILE *err)
{
	unsigned int i;

	if (!opts->n_devices) {
		strcpy(opts->devices[0].name, opts->name);
		opts->devices[0].profile = opts->profile;
		opts->n_devices = 1;
		return 0;
	}
	if (name_set || opts->profile) {
		fprintf(err, "%s: --name and --profile describe the one node; with --device "
			"give each node as NAME[:PROFILE]\n", prog);
		return -EINVAL;
	}
	/* --name's value is what --send, --check and the logs call the first node. */
	strcpy(opts->name, opts->devices[0].name);
	if (opts->n_devices == 1)
		return 0;
	if (opts->record || opts->replay || opts->state || opts->follow ||
	    opts->n_follow_match) {
		fprintf(err, "%s: --record, --replay, --state, --follow and --follow-match are "
			"one node's; with several --device run one daemon per node for them\n",
			prog);
		return -EINVAL;
	}
	for (i = 0; opts->socket_dir && i < opts->n_devices; i++) {
		if (strlen(opts->socket_dir) + 1 + strlen(opts->devices[i].name) >= 108) {
			fprintf(err, "%s: --socket-dir: %s/%s is longer than a socket path may "
				"be (107 bytes)\n", prog, opts->socket_dir,
				opts->devices[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * A --send line becomes exactly one control line: a newline inside it
 * would smuggle in a second command whose reply the client never reads.
 */
static int cuse_ec_check_send_line(const char *line, const struct cuse_ec_options *opts,
				   const char *prog, FILE *err)
{
	size_t len = strlen(line);

	if (opts->n_send >= CUSE_EC_SEND_MAX) {
		fprintf(err, "%s: too many --send lines (at most %d)\n", prog, CUSE_EC_SEND_MAX);
		return -EINVAL;
	}
	if (!len || strspn(line, " \t") == len) {
		fprintf(err, "%s: --send needs a command (try --send=help)\n", prog);
		return -EINVAL;
	}
	if (len > CTL_LINE_MAX) {
		fprintf(err, "%s: --send line too long (%zu bytes, at most %d)\n", prog, len,
			CTL_LINE_MAX);
		return -EINVAL;
	}
	if (strpbrk(line, "\r\n")) {
		fprintf(err, "%s: --send line must not contain a newline; repeat --send "
			"for several commands\n", prog);
		return -EINVAL;
	}
	return 0;
}

static int cuse_ec_check_follow(const char *arg, const struct cuse_ec_options *opts,
				const char *prog, FILE *err)
{
	char devpath[UDEV_FOLLOW_PATH_MAX];
	int ret;

	if (opts->follow) {
		fprintf(err, "%s: --follow given twice (one device is followed)\n", prog);
		return -EINVAL;
	}
	ret = udev_follow_parse_syspath(arg, devpath);
	if (ret == -ENAMETOOLONG)
		fprintf(err, "%s: --follow path too long (at most %d bytes)\n", prog,
			UDEV_FOLLOW_PATH_MAX - 1);
	else if (ret)
		fprintf(err, "%s: invalid --follow '%s': expected a sysfs device path such "
			"as /sys/devices/... (no spaces, no '..')\n", prog, arg);
	return ret;
}

static int cuse_ec_check_follow_match(const char *arg, const struct cuse_ec_options *opts,
				      const char *prog, FILE *err)
{
	struct udev_follow_match match;
	int ret;

	if (opts->n_follow_match >= UDEV_FOLLOW_MATCH_MAX) {
		fprintf(err, "%s: too many --follow-match rules (at most %d)\n", prog,
			UDEV_FOLLOW_MATCH_MAX);
		return -EINVAL;
	}
	ret = udev_follow_parse_match(arg, &match);
	if (ret == -ENAMETOOLONG)
		fprintf(err, "%s: --follow-match '%.40s...' too long (key < %d, value < %d "
			"bytes)\n", prog, arg, UDEV_FOLLOW_KEY_MAX, UDEV_FOLLOW_VALUE_MAX);
	else if (ret)
		fprintf(err, "%s: invalid --follow-match '%s': expected KEY=VALUE, KEY of "
			"[A-Za-z0-9_], VALUE non-empty without spaces\n", prog, arg);
	return ret;
}

static int cuse_ec_parse_owner(const char *s, uid_t *out)
{
	struct passwd *pw;
	uint64_t v;

	/* A number is an id; (uid_t)-1 would mean "leave unchanged" to chown. */
	if (!parse_uint(s, "--owner", 0, (uid_t)-1 - 1, &v, NULL, 0)) {
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
	uint64_t v;

	if (!parse_uint(s, "--group", 0, (gid_t)-1 - 1, &v, NULL, 0)) {
		*out = (gid_t)v;
		return 0;
	}
	gr = getgrnam(s);
	if (!gr)
		return -EINVAL;
	*out = gr->gr_gid;
	return 0;
}

int cuse_ec_parse_options(int argc, char **argv, struct cuse_ec_options *opts,
			  FILE *out, FILE *err)
{
	/*
	 * Not argv[0]: run from a build tree that is libtool's
	 * ".../.libs/cuse_ec", a name the user never typed.
	 */
	const char *prog = "cuse_ec";
	struct option longopts[CUSE_EC_N_OPTIONS + 1];
	char shortopts[2 * CUSE_EC_N_OPTIONS + 2];
	char why[PARSE_ERR_MAX];
	bool record_format_set = false, replay_miss_set = false, replay_match_set = false;
	bool name_set = false;
	uint64_t v;
	int c;

	cuse_ec_getopt_tables(longopts, shortopts);
	memset(opts, 0, sizeof(*opts));
	strcpy(opts->name, "cros_ec");
	opts->node_mode = -1;
	opts->owner = (uid_t)-1;
	opts->group = (gid_t)-1;
	opts->log_level = CHARDEV_LOG_NOTICE;
	opts->lifecycle = LIFECYCLE_REVOCABLE;
	opts->unplug_wakeups = CHARDEV_WAKEUPS_UPSTREAM;
	opts->shutdown_timeout_ms = SHUTDOWN_TIMEOUT_DEFAULT_S * 1000;
	opts->control_idle_timeout_ms = CONTROL_IDLE_TIMEOUT_DEFAULT_S * 1000;

	/* 0 (not 1) makes glibc reinitialise getopt, so tests may call us again. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_NAME:
			if (!ctl_device_name_valid(optarg)) {
				fprintf(err, "%s: invalid --name '%s': use 1-%d characters of "
					"[A-Za-z0-9_.-], not starting with '.' or '-'\n",
					prog, optarg, CUSE_EC_NAME_MAX - 1);
				return -EINVAL;
			}
			strcpy(opts->name, optarg);
			name_set = true;
			break;
		case OPT_DEVICE:
			if (cuse_ec_add_device(opts, optarg, prog, err))
				return -EINVAL;
			break;
		case OPT_PROFILE:
			if (!optarg[0]) {
				fprintf(err, "%s: --profile needs a profile name or file\n", prog);
				return -EINVAL;
			}
			opts->profile = optarg;
			break;
		case OPT_MODE:
			if (parse_octal(optarg, "--mode", 07777, &v, why, sizeof(why))) {
				fprintf(err, "%s: %s\n", prog, why);
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
		case OPT_CONTROL_IDLE_TIMEOUT:
			if (parse_uint(optarg, "--control-idle-timeout", 0, 86400, &v, why,
				       sizeof(why))) {
				fprintf(err, "%s: %s\n", prog, why);
				return -EINVAL;
			}
			opts->control_idle_timeout_ms = (unsigned int)v * 1000;
			break;
		case OPT_FAULT:
			if (opts->n_faults >= EC_FAULT_RULES_MAX) {
				fprintf(err, "%s: too many --fault rules (at most %d)\n", prog,
					EC_FAULT_RULES_MAX);
				return -EINVAL;
			}
			if (ec_fault_parse(optarg, &opts->faults[opts->n_faults], why,
					   sizeof(why))) {
				fprintf(err, "%s: invalid --fault '%.40s': %s\n", prog, optarg, why);
				return -EINVAL;
			}
			opts->n_faults++;
			break;
		case OPT_STATE:
			if (!optarg[0]) {
				fprintf(err, "%s: --state needs a file\n", prog);
				return -EINVAL;
			}
			opts->state = optarg;
			break;
		case OPT_FAULT_SEED:
			if (parse_uint(optarg, "--fault-seed", 1, UINT64_MAX, &v, why, sizeof(why))) {
				fprintf(err, "%s: %s\n", prog, why);
				return -EINVAL;
			}
			opts->fault_seed = v;
			break;
		case OPT_RECORD:
			opts->record = optarg;
			break;
		case OPT_RECORD_FORMAT:
			if (ec_rec_format_parse(optarg, &opts->record_format)) {
				fprintf(err, "%s: invalid --record-format '%.40s': native or umockdev\n",
					prog, optarg);
				return -EINVAL;
			}
			record_format_set = true;
			break;
		case OPT_REPLAY:
			opts->replay = optarg;
			break;
		case OPT_REPLAY_MISS:
			if (ec_replay_miss_parse(optarg, &opts->replay_miss)) {
				fprintf(err, "%s: invalid --replay-miss '%.40s': model or invalid\n",
					prog, optarg);
				return -EINVAL;
			}
			replay_miss_set = true;
			break;
		case OPT_REPLAY_MATCH:
			if (ec_replay_match_parse(optarg, &opts->replay_match)) {
				fprintf(err, "%s: invalid --replay-match '%.40s': bytes or order\n",
					prog, optarg);
				return -EINVAL;
			}
			replay_match_set = true;
			break;
		case OPT_SHUTDOWN_TIMEOUT:
			if (parse_uint(optarg, "--shutdown-timeout", 0, 3600, &v, why, sizeof(why))) {
				fprintf(err, "%s: %s\n", prog, why);
				return -EINVAL;
			}
			opts->shutdown_timeout_ms = (unsigned int)v * 1000;
			break;
		case OPT_USER:
			if (privdrop_parse(optarg, &opts->user, why, sizeof(why))) {
				fprintf(err, "%s: invalid --user '%s': %s\n", prog, optarg, why);
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
				char modes[96];

				fprintf(err, "%s: invalid --lifecycle '%s': use %s\n", prog, optarg,
					lifecycle_mode_list(modes, sizeof(modes)));
				return -EINVAL;
			}
			break;
		case OPT_UNPLUG_WAKEUPS:
			if (chardev_unplug_wakeups_parse(optarg, &opts->unplug_wakeups)) {
				fprintf(err, "%s: invalid --unplug-wakeups '%s': use upstream "
					"or v3\n", prog, optarg);
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
		case OPT_SOCKET_DIR:
			if (!optarg[0]) {
				fprintf(err, "%s: --socket-dir needs a directory\n", prog);
				return -EINVAL;
			}
			opts->socket_dir = optarg;
			break;
		case OPT_SYSLOG:
			opts->syslog = true;
			break;
		case OPT_SEND:
			if (cuse_ec_check_send_line(optarg, opts, prog, err))
				return -EINVAL;
			opts->send[opts->n_send++] = optarg;
			break;
		case OPT_NO_UDEV:
			opts->no_udev = true;
			break;
		case OPT_FOLLOW:
			if (cuse_ec_check_follow(optarg, opts, prog, err))
				return -EINVAL;
			opts->follow = optarg;
			break;
		case OPT_FOLLOW_MATCH:
			if (cuse_ec_check_follow_match(optarg, opts, prog, err))
				return -EINVAL;
			opts->follow_match[opts->n_follow_match++] = optarg;
			break;
		case OPT_JSON:
			opts->send_json = true;
			break;
		case OPT_LIST_PROFILES:
			opts->list_profiles = true;
			break;
		case OPT_CHECK:
			opts->check = true;
			break;
		case OPT_CHECK_PROFILE:
			if (!optarg[0]) {
				fprintf(err, "%s: --check-profile needs a profile name or file\n",
					prog);
				return -EINVAL;
			}
			opts->check_profile = optarg;
			break;
		case 'h':
			cuse_ec_usage(out, prog);
			return CUSE_EC_OPTIONS_EXIT;
		case 'V':
			fprintf(out, "cuse_ec (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return CUSE_EC_OPTIONS_EXIT;
		default:
			cli_option_error(c, argv, why, sizeof(why));
			fprintf(err, "%s: %s\n", prog, why);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(err, "%s: unexpected argument '%s'\nTry '%s --help'.\n",
			prog, argv[optind], prog);
		return -EINVAL;
	}
	if (opts->no_udev && (opts->follow || opts->n_follow_match)) {
		fprintf(err, "%s: --no-udev contradicts --follow/--follow-match\n", prog);
		return -EINVAL;
	}
	if (opts->check && (opts->n_send || opts->list_profiles || opts->check_profile)) {
		fprintf(err, "%s: --check checks a daemon's options; not with --send, "
			"--list-profiles or --check-profile\n", prog);
		return -EINVAL;
	}
	if (opts->list_profiles && opts->check_profile) {
		fprintf(err, "%s: --list-profiles and --check-profile are separate commands\n",
			prog);
		return -EINVAL;
	}
	if (cuse_ec_check_devices(opts, name_set, prog, err))
		return -EINVAL;
	if (opts->socket_dir && strlen(opts->socket_dir) + 1 + strlen(opts->name) >= 108) {
		fprintf(err, "%s: --socket-dir: %s/%s is longer than a socket path may be "
			"(107 bytes)\n", prog, opts->socket_dir, opts->name);
		return -EINVAL;
	}
	if (opts->socket_dir && (opts->node_mode >= 0 || opts->owner != (uid_t)-1 ||
				 opts->group != (gid_t)-1 || opts->debug)) {
		fprintf(err, "%s: --mode, --owner, --group and --debug are for the CUSE node; "
			"with --socket-dir the directory's permissions decide who connects\n",
			prog);
		return -EINVAL;
	}
	if (record_format_set && !opts->record) {
		fprintf(err, "%s: --record-format is for --record's file\n", prog);
		return -EINVAL;
	}
	if (!record_format_set && opts->record)
		opts->record_format = ec_rec_format_for_path(opts->record);
	if (replay_miss_set && !opts->replay) {
		fprintf(err, "%s: --replay-miss is for --replay's recording\n", prog);
		return -EINVAL;
	}
	if (replay_match_set && !opts->replay) {
		fprintf(err, "%s: --replay-match is for --replay's recording\n", prog);
		return -EINVAL;
	}
	if (opts->record && opts->replay && !strcmp(opts->record, opts->replay)) {
		fprintf(err, "%s: --record and --replay name the same file\n", prog);
		return -EINVAL;
	}
	if (opts->send_json && !opts->n_send) {
		fprintf(err, "%s: --json is for --send's replies\n", prog);
		return -EINVAL;
	}
	if (opts->n_send && !opts->control) {
		fprintf(err, "%s: --send needs --control=PATH (the daemon's control socket)\n",
			prog);
		return -EINVAL;
	}
	return 0;
}
