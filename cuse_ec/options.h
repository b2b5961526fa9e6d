/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.h - cuse_ec's command line, parsed apart from main() so that every
 * bad input can be tested.
 */
#ifndef CUSE_EC_OPTIONS_H
#define CUSE_EC_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "chardev.h"
#include "control.h"
#include "lifecycle.h"
#include "privdrop.h"
#include "shutdown.h"
#include "udev_follow.h"

#define CUSE_EC_NAME_MAX CTL_DEVICE_NAME_MAX
/* Most nodes one daemon serves (--device, repeated). */
#define CUSE_EC_DEVICES_MAX CTL_DEVICES_MAX
/* Most --send lines one invocation takes (a script, not a batch tool). */
#define CUSE_EC_SEND_MAX 32

/**
 * struct cuse_ec_device_opt - one node the daemon serves.
 * @name:    the node is /dev/@name (or the socket DIR/@name)
 * @profile: its board profile, name or file; NULL for the built-in laptop
 */
struct cuse_ec_device_opt {
	char name[CUSE_EC_NAME_MAX];
	const char *profile;
};

/**
 * struct cuse_ec_options - what the command line asked for.
 * @name:       --name: the one node's name, /dev/@name (without --device)
 * @profile:    --profile: the one node's profile, NULL for the built-in default
 * @devices:    the nodes served, in order: each --device, or without any
 *              the one of --name and --profile; the first is the control
 *              socket's default
 * @n_devices:  how many, 1..CUSE_EC_DEVICES_MAX
 * @node_mode:  permissions for the node, or -1 to leave them
 * @owner:      uid for the node, or (uid_t)-1
 * @group:      gid for the node, or (gid_t)-1
 * @user:       --user: who the daemon becomes once serving
 * @shutdown_timeout_ms: on an exit signal, how long commands in flight may
 *              go on after the waiters are woken
 * @control_idle_timeout_ms: control connections silent this long are closed
 * @foreground: do not daemonize
 * @debug:      libfuse debug output (implies @foreground)
 * @log_level:  syslog-style level, messages above are dropped
 * @lifecycle:  lifecycle mode
 * @unplug_wakeups: what an unplug does to blocked readers and pollers
 * @control:    control socket path, NULL for none
 * @syslog:     log to syslog instead of stderr
 * @send:       client mode: control lines to send to @control, in order
 * @n_send:     how many; 0 runs the daemon
 * @send_json:  --json: print each --send reply as a JSON object
 * @no_udev:    do not follow uevents at all
 * @follow:     --follow: sysfs path of the device to follow, NULL for ours
 * @follow_match: --follow-match KEY=VALUE rules (checked when parsed)
 * @n_follow_match: how many
 * @list_profiles: --list-profiles: print the profiles found and exit
 * @check_profile: --check-profile: validate this profile, print it, exit
 * @check:      --check: parse, load the profile, print what would be served, exit
 * @socket_dir: --socket-dir: serve the device as the socket @socket_dir/@name
 *              (sock_frontend.h) instead of through CUSE; NULL for CUSE
 * @faults:     --fault rules (checked when parsed), for the fault plan
 * @n_faults:   how many
 * @fault_seed: --fault-seed: seeds the draws of rules with p < 1 (0: default)
 * @record:     --record: the file the session is recorded to, NULL for none
 * @record_format: its format (--record-format, else from its name)
 * @replay:     --replay: the recording the EC answers from first, NULL for none
 * @replay_miss: --replay-miss: what answers a request the recording lacks
 * @replay_match: --replay-match: how host commands find their records
 * @state:      --state: the EC's state file (cuse_ec-state(5)), NULL for none
 */
struct cuse_ec_options {
	char name[CUSE_EC_NAME_MAX];
	const char *profile;
	struct cuse_ec_device_opt devices[CUSE_EC_DEVICES_MAX];
	unsigned int n_devices;
	int node_mode;
	uid_t owner;
	gid_t group;
	struct privdrop user;
	unsigned int shutdown_timeout_ms;
	unsigned int control_idle_timeout_ms;
	bool foreground;
	bool debug;
	int log_level;
	enum lifecycle_mode lifecycle;
	enum chardev_unplug_wakeups unplug_wakeups;
	const char *control;
	bool syslog;
	const char *send[CUSE_EC_SEND_MAX];
	unsigned int n_send;
	bool send_json;
	bool no_udev;
	const char *follow;
	const char *follow_match[UDEV_FOLLOW_MATCH_MAX];
	unsigned int n_follow_match;
	bool list_profiles;
	const char *check_profile;
	bool check;
	const char *socket_dir;
	struct ec_fault faults[EC_FAULT_RULES_MAX];
	unsigned int n_faults;
	uint64_t fault_seed;
	const char *record;
	enum ec_rec_format record_format;
	const char *replay;
	enum ec_replay_miss replay_miss;
	enum ec_replay_match replay_match;
	const char *state;
};

/* cuse_ec_parse_options() results besides 0. */
#define CUSE_EC_OPTIONS_EXIT 1	/* --help / --version printed: exit 0 */

/**
 * cuse_ec_parse_options() - parse argv into @opts.
 * @argc: argument count
 * @argv: arguments (argv[0] is the program)
 * @opts: filled with defaults, then the options given
 * @out:  where --help and --version print
 * @err:  where problems are reported, one clear line each
 *
 * Return: 0 to run, CUSE_EC_OPTIONS_EXIT after --help/--version, or -EINVAL
 * for bad usage (the caller exits with status 2).
 */
int cuse_ec_parse_options(int argc, char **argv, struct cuse_ec_options *opts,
			  FILE *out, FILE *err);

/**
 * cuse_ec_parse_log_level() - a level name or number.
 * @s:   "err", "warning", "notice", "info", "debug" or 3..7
 * @out: the level
 *
 * Return: 0 or -EINVAL.
 */
int cuse_ec_parse_log_level(const char *s, int *out);

#endif /* CUSE_EC_OPTIONS_H */
