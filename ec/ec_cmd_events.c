// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_events.c - GET_NEXT_EVENT: pops the EC's own MKBP queue (the one
 * the host driver drains), independent of the listeners' own queues.
 */
#include <string.h>

#include "ec_internal.h"

/**
 * ec_cmd_get_next_event() - GET_NEXT_EVENT v0..v3: one event as a type
 * byte and its payload (cut to 13 bytes for v0, 16 for v1 and v2, 18 for
 * v3; no event the model queues is longer than 16). From v2 on the
 * type byte carries EC_MKBP_HAS_MORE_EVENTS when more are queued. An empty
 * queue answers UNAVAILABLE.
 */
static int ec_cmd_get_next_event(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;
	const struct ec_event *ev;
	size_t room = args->version == 0 ? EC_MKBP_DATA_SIZE_V0 :
		      args->version < 3 ? EC_MKBP_DATA_SIZE_V1 : EC_MKBP_DATA_SIZE_V3;
	size_t len;

	if (!ec->hq_count)
		return EC_RES_UNAVAILABLE;
	ev = &ec->host_queue[ec->hq_head];
	len = ev->len < room ? ev->len : room;
	/* Reject before popping: an event the host cannot take is not lost. */
	if (1 + len > args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	args->resp[0] = ev->type;
	memcpy(args->resp + 1, ev->data, len);
	args->resp_size = 1 + len;
	ec->hq_head = (ec->hq_head + 1) % EC_HOST_QUEUE_LEN;
	ec->hq_count--;
	if (args->version >= 2 && ec->hq_count)
		args->resp[0] |= EC_MKBP_HAS_MORE_EVENTS;
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_events_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_GET_NEXT_EVENT, EC_VER_MASK(0) | EC_VER_MASK(1) | EC_VER_MASK(2) | EC_VER_MASK(3),
			ec_cmd_get_next_event),
};

const struct ec_subsystem ec_subsys_events = {
	.name = "events",
	EC_SUBSYSTEM_CMDS(ec_events_cmds),
	.kinds = EC_KINDS_ALL,
};
