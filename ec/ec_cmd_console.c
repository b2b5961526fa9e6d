// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_console.c - EC console and panic-info host commands.
 *
 * The console is a ring of EC_CONSOLE_SIZE bytes addressed by absolute byte
 * counts, so "how far has the host read" survives wrap-around: anything
 * older than head - EC_CONSOLE_SIZE has been overwritten and is skipped.
 */
#include <string.h>

#include "ec_internal.h"

static uint64_t ec_console_oldest(const struct ec *ec)
{
	return ec->con_head > EC_CONSOLE_SIZE ? ec->con_head - EC_CONSOLE_SIZE : 0;
}

/**
 * ec_cmd_console_snapshot() - CONSOLE_SNAPSHOT: freeze what CONSOLE_READ
 * will return: everything still buffered (NEXT) and what arrived since the
 * previous snapshot (RECENT).
 */
static int ec_cmd_console_snapshot(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;
	uint64_t oldest = ec_console_oldest(ec);

	ec->con_recent_pos = ec->con_last_snap > oldest ? ec->con_last_snap : oldest;
	ec->con_last_snap = ec->con_head;
	ec->con_snap_end = ec->con_head;
	ec->con_read_pos = oldest;
	return EC_RES_SUCCESS;
}

/* Copy from *pos up to the snapshot end as a NUL-terminated string. */
static int ec_console_copy(struct ec_cmd_args *args, uint64_t *pos)
{
	struct ec *ec = args->ec;
	uint64_t oldest = ec_console_oldest(ec);
	size_t n = 0;

	if (!args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	if (*pos < oldest)
		*pos = oldest;
	while (*pos < ec->con_snap_end && n + 1 < args->resp_max) {
		args->resp[n++] = (uint8_t)ec->console[*pos % EC_CONSOLE_SIZE];
		(*pos)++;
	}
	args->resp[n++] = 0;
	args->resp_size = n;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_console_read() - CONSOLE_READ v0 (next chunk of the snapshot) and
 * v1 (sub-command NEXT or RECENT). An exhausted snapshot answers an empty
 * string, which is how clients know to stop.
 */
static int ec_cmd_console_read(struct ec_cmd_args *args)
{
	const struct ec_params_console_read_v1 *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->version == 0 || p->subcmd == CONSOLE_READ_NEXT)
		return ec_console_copy(args, &ec->con_read_pos);
	if (p->subcmd == CONSOLE_READ_RECENT)
		return ec_console_copy(args, &ec->con_recent_pos);
	return EC_RES_INVALID_PARAM;
}

/**
 * ec_cmd_get_panic_info() - GET_PANIC_INFO: the injected panic record, or
 * zero bytes when the EC has not panicked.
 */
static int ec_cmd_get_panic_info(struct ec_cmd_args *args)
{
	memcpy(args->resp, args->ec->panic, args->ec->panic_len);
	args->resp_size = args->ec->panic_len;
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_console_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_CONSOLE_SNAPSHOT, EC_VER_MASK(0), ec_cmd_console_snapshot),
	EC_HOST_COMMAND(EC_CMD_CONSOLE_READ, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_console_read),
	EC_HOST_COMMAND(EC_CMD_GET_PANIC_INFO, EC_VER_MASK(0), ec_cmd_get_panic_info),
};

const struct ec_subsystem ec_subsys_console = {
	.name = "console",
	EC_SUBSYSTEM_CMDS(ec_console_cmds),
	.kinds = EC_KINDS_ALL,
};
