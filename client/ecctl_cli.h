/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ecctl_cli.h - ecctl's argument parsing and command runner, kept out of
 * main() so that tests can drive both against a fake device.
 */
#ifndef ECCTL_CLI_H
#define ECCTL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "client/ec_client.h"

/* Exit statuses, as the man page documents them. */
#define ECCTL_EXIT_OK		0
#define ECCTL_EXIT_DEVICE	1	/* the device or the EC failed */
#define ECCTL_EXIT_USAGE	2	/* bad option, command or argument */

#define ECCTL_RAW_MAX 1024	/* request bytes `ecctl raw` accepts */

enum ecctl_command {
	ECCTL_CMD_NONE = 0,
	ECCTL_CMD_HELLO,
	ECCTL_CMD_VERSION,
	ECCTL_CMD_CHIPINFO,
	ECCTL_CMD_PROTOINFO,
	ECCTL_CMD_CMDVERSIONS,
	ECCTL_CMD_BATTERY,
	ECCTL_CMD_TEMPS,
	ECCTL_CMD_FANS,
	ECCTL_CMD_CONSOLE,
	ECCTL_CMD_EVENTS,
	ECCTL_CMD_UPTIME,
	ECCTL_CMD_PANICINFO,
	ECCTL_CMD_USBPD_PORTS,
	ECCTL_CMD_USBPD_POWER,
	ECCTL_CMD_RAW,
	ECCTL_CMD_KBLIGHT,
};

/**
 * struct ecctl_opts - a parsed command line.
 * @device:      device name or path (default "cros_ec")
 * @device_is_path: @device came from --device (a path even without a '/')
 * @json:        print JSON instead of ectool-like text
 * @help:        --help was given
 * @version:     --version was given
 * @command:     what to run
 * @host_cmd:    cmdversions / raw: host command number
 * @host_ver:    raw: command version
 * @raw_req:     raw: request bytes
 * @raw_len:     raw: number of request bytes
 * @event_mask:  events: EVENTMASK value
 * @event_count: events: how many to read
 * @timeout_ms:  events: wait per event (negative = forever)
 * @port:        usbpd power: port, or -1 for every port
 * @kblight:     kblight: the percent to set, or -1 to read
 */
struct ecctl_opts {
	const char *device;
	bool device_is_path;
	bool json;
	bool help;
	bool version;
	enum ecctl_command command;
	uint32_t host_cmd;
	uint32_t host_ver;
	uint8_t raw_req[ECCTL_RAW_MAX];
	size_t raw_len;
	uint32_t event_mask;
	unsigned int event_count;
	int timeout_ms;
	int port;
	int kblight;
};

/**
 * ecctl_parse_hex() - parse hex bytes ("0a0B ff", optional "0x", spaces,
 * colons or commas between byte pairs).
 * @s:   the text
 * @buf: receives the bytes
 * @max: room in @buf
 * @len: bytes parsed
 *
 * Return: 0, -EINVAL (odd digit count or non-hex) or -E2BIG (more than @max).
 */
int ecctl_parse_hex(const char *s, uint8_t *buf, size_t max, size_t *len);

/**
 * ecctl_parse_args() - parse ecctl's command line.
 * @argc:   argument count
 * @argv:   arguments (argv[0] is the program)
 * @opts:   filled in
 * @err:    on failure, one line saying what is wrong
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL for a bad option, command or argument.
 */
int ecctl_parse_args(int argc, char *const argv[], struct ecctl_opts *opts,
		     char *err, size_t errlen);

/**
 * ecctl_error() - report a failure: one line on @err, and under --json
 * also one JSON object on @out, so a script reading stdout gets an answer
 * either way: {"error":{"command":C,"message":M,"errno":E,"ec_result":R}}
 * (command null before one was known; errno the symbolic name, or null for
 * an EC refusal, which names its EC_RES_* in ec_result, null otherwise).
 * @opts:    the command line as far as it was parsed (@opts->json decides;
 *           NULL: the text line only)
 * @out:     standard output
 * @err:     standard error
 * @command: what failed ("chipinfo", "open /dev/cros_ec"), or NULL
 * @message: the text; NULL to describe @ret
 * @ret:     the -errno or EC error (ec_client_err_is_ec()); 0 for a usage
 *           error
 */
void ecctl_error(const struct ecctl_opts *opts, FILE *out, FILE *err, const char *command,
		 const char *message, int ret);

/**
 * ecctl_usage() - print --help text.
 * @out:  where
 * @prog: program name
 */
void ecctl_usage(FILE *out, const char *prog);

/**
 * ecctl_run() - run the parsed command on an opened client.
 * @c:    the client
 * @opts: the command line
 * @out:  normal output
 * @err:  error messages
 *
 * Return: ECCTL_EXIT_OK or ECCTL_EXIT_DEVICE.
 */
int ecctl_run(struct ec_client *c, const struct ecctl_opts *opts, FILE *out, FILE *err);

#endif /* ECCTL_CLI_H */
