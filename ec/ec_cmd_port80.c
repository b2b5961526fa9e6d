// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_port80.c - the port-80 history: the POST codes the AP's firmware
 * wrote to I/O port 0x80, as the EC records them. PORT80_READ v0 answers
 * the previous boot's last code, v1 the history (GET_INFO, READ_BUFFER).
 *
 * The simulated AP booted once before the EC was plugged: the history
 * starts with a reset marker and a coreboot-style POST sequence, and every
 * S3 resume the host reports (HOST_SLEEP_EVENT) adds a resume marker and
 * the resume path's codes, so the history tells the host's story.
 */
#include <string.h>

#include "ec_internal.h"

/* A coreboot boot: bootblock, romstage, ramstage, payload. */
static const uint16_t ec_post_boot[] = {
	0x01, 0x10, 0x11, 0x20, 0x22, 0x30, 0x34, 0x38, 0x39, 0x40, 0x50,
	0x60, 0x70, 0x71, 0x72, 0x73, 0x75, 0x7a, 0x80, 0x88, 0x89, 0x8a,
	0x90, 0x92, 0x95, 0x98, 0x9a, 0xa0, 0xa1, 0xe1, 0xf1, 0xf8,
};
/* An S3 resume: bootblock, romstage, then straight to the OS waking vector. */
static const uint16_t ec_post_resume[] = { 0x01, 0x10, 0x20, 0x30, 0x40, 0xfd };

/**
 * ec_port80_write() - record one port-80 write.
 * @ec:   the EC, locked
 * @code: POST code (0..0xff) or a PORT_80_EVENT_* marker
 */
void ec_port80_write(struct ec *ec, uint16_t code)
{
	struct ec_board_state *b = &ec->board;

	b->p80[b->p80_writes % EC_PORT80_HISTORY] = code;
	b->p80_writes++;
}

static void ec_port80_sequence(struct ec *ec, uint16_t marker, const uint16_t *codes, size_t n)
{
	size_t i;

	ec_port80_write(ec, marker);
	for (i = 0; i < n; i++)
		ec_port80_write(ec, codes[i]);
}

/**
 * ec_port80_init() - the history at power-on: one boot of the AP.
 * @ec: the EC being created
 */
static void ec_port80_init(struct ec *ec)
{
	memset(ec->board.p80, 0, sizeof(ec->board.p80));
	ec->board.p80_writes = 0;
	ec->board.p80_last_boot = ec_post_boot[sizeof(ec_post_boot) / sizeof(ec_post_boot[0]) - 1];
	ec_port80_sequence(ec, PORT_80_EVENT_RESET, ec_post_boot,
			   sizeof(ec_post_boot) / sizeof(ec_post_boot[0]));
}

/**
 * ec_port80_ap_boot() - the AP was reset: the code it wrote last becomes the
 * previous boot's, then a reset marker and a fresh boot's codes.
 * @ec: the EC, locked
 */
void ec_port80_ap_boot(struct ec *ec)
{
	struct ec_board_state *b = &ec->board;

	if (b->p80_writes)
		b->p80_last_boot = b->p80[(b->p80_writes - 1) % EC_PORT80_HISTORY];
	ec_port80_sequence(ec, PORT_80_EVENT_RESET, ec_post_boot,
			   sizeof(ec_post_boot) / sizeof(ec_post_boot[0]));
}

/**
 * ec_port80_resume() - the AP came back from S3: its resume path's codes.
 * @ec: the EC, locked
 */
void ec_port80_resume(struct ec *ec)
{
	ec_port80_sequence(ec, PORT_80_EVENT_RESUME, ec_post_resume,
			   sizeof(ec_post_resume) / sizeof(ec_post_resume[0]));
}

/**
 * ec_cmd_port80_read() - PORT80_READ v0: the last boot's last code (2
 * bytes). v1 GET_INFO: writes so far, history size, last boot's code;
 * READ_BUFFER: up to 32 entries from @offset of the ring (2 bytes each).
 * A read past the ring, more than 32 entries or an unknown sub-command is
 * INVALID_PARAM.
 */
static int ec_cmd_port80_read(struct ec_cmd_args *args)
{
	const struct ec_params_port80_read *p = (const void *)args->req;
	struct ec_board_state *b = &args->ec->board;

	if (args->version == 0) {
		struct ec_response_port80_last_boot *r = (void *)args->resp;

		r->code = b->p80_last_boot;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	}
	switch (p->subcmd) {
	case EC_PORT80_GET_INFO: {
		struct ec_response_port80_info *r = (void *)args->resp;

		r->writes = b->p80_writes;
		r->history_size = EC_PORT80_HISTORY;
		r->last_boot = b->p80_last_boot;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	}
	case EC_PORT80_READ_BUFFER:
		if (p->offset >= EC_PORT80_HISTORY || p->num_entries > EC_PORT80_SIZE_MAX ||
		    p->num_entries > EC_PORT80_HISTORY - p->offset)
			return EC_RES_INVALID_PARAM;
		memcpy(args->resp, &b->p80[p->offset], p->num_entries * sizeof(uint16_t));
		args->resp_size = p->num_entries * sizeof(uint16_t);
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_port80_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_PORT80_READ, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_port80_read),
};

const struct ec_subsystem ec_subsys_port80 = {
	.name = "port80",
	EC_SUBSYSTEM_CMDS(ec_port80_cmds),
	.boot = ec_port80_init,
};
