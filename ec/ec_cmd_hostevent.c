// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_hostevent.c - host events and the host's sleep notifications:
 * the legacy 32-bit HOST_EVENT_* commands, the 64-bit HOST_EVENT command
 * and HOST_SLEEP_EVENT.
 *
 * Two copies of the events exist, as in the firmware: the main copy (what
 * the memory map shows at EC_MEMMAP_HOST_EVENTS and the ACPI/LPC driver
 * clears) and copy B (for a second consumer, cleared separately). Raising
 * an event sets both (ec_raise_host_event()). The masks are plain state
 * the host reads back; nothing on this simulated board drives SCI, SMI or
 * wake lines from them.
 */
#include <string.h>

#include "ec_internal.h"

static int ec_hostev_get32(struct ec_cmd_args *args, uint64_t value)
{
	struct ec_response_host_event_mask *r = (void *)args->resp;

	r->mask = (uint32_t)value;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

static uint32_t ec_hostev_param32(const struct ec_cmd_args *args)
{
	return ((const struct ec_params_host_event_mask *)args->req)->mask;
}

/** ec_cmd_host_event_get_b() - HOST_EVENT_GET_B: copy B, low 32 bits. */
static int ec_cmd_host_event_get_b(struct ec_cmd_args *args)
{
	return ec_hostev_get32(args, args->ec->hostev.events_b);
}

/** ec_cmd_host_event_get_smi_mask() - HOST_EVENT_GET_SMI_MASK (32 bits). */
static int ec_cmd_host_event_get_smi_mask(struct ec_cmd_args *args)
{
	return ec_hostev_get32(args, args->ec->hostev.mask[EC_HOST_EVENT_SMI_MASK]);
}

/** ec_cmd_host_event_get_sci_mask() - HOST_EVENT_GET_SCI_MASK (32 bits). */
static int ec_cmd_host_event_get_sci_mask(struct ec_cmd_args *args)
{
	return ec_hostev_get32(args, args->ec->hostev.mask[EC_HOST_EVENT_SCI_MASK]);
}

/** ec_cmd_host_event_get_wake_mask() - HOST_EVENT_GET_WAKE_MASK: the active wake mask. */
static int ec_cmd_host_event_get_wake_mask(struct ec_cmd_args *args)
{
	return ec_hostev_get32(args, args->ec->hostev.mask[EC_HOST_EVENT_ACTIVE_WAKE_MASK]);
}

/** ec_cmd_host_event_set_smi_mask() - HOST_EVENT_SET_SMI_MASK: replaces the whole mask. */
static int ec_cmd_host_event_set_smi_mask(struct ec_cmd_args *args)
{
	args->ec->hostev.mask[EC_HOST_EVENT_SMI_MASK] = ec_hostev_param32(args);
	return EC_RES_SUCCESS;
}

/** ec_cmd_host_event_set_sci_mask() - HOST_EVENT_SET_SCI_MASK: replaces the whole mask. */
static int ec_cmd_host_event_set_sci_mask(struct ec_cmd_args *args)
{
	args->ec->hostev.mask[EC_HOST_EVENT_SCI_MASK] = ec_hostev_param32(args);
	return EC_RES_SUCCESS;
}

/** ec_cmd_host_event_set_wake_mask() - HOST_EVENT_SET_WAKE_MASK: the active wake mask. */
static int ec_cmd_host_event_set_wake_mask(struct ec_cmd_args *args)
{
	args->ec->hostev.mask[EC_HOST_EVENT_ACTIVE_WAKE_MASK] = ec_hostev_param32(args);
	return EC_RES_SUCCESS;
}

/** ec_cmd_host_event_clear() - HOST_EVENT_CLEAR: clear bits of the main copy. */
static int ec_cmd_host_event_clear(struct ec_cmd_args *args)
{
	args->ec->host_events &= ~(uint64_t)ec_hostev_param32(args);
	return EC_RES_SUCCESS;
}

/** ec_cmd_host_event_clear_b() - HOST_EVENT_CLEAR_B: clear bits of copy B. */
static int ec_cmd_host_event_clear_b(struct ec_cmd_args *args)
{
	args->ec->hostev.events_b &= ~(uint64_t)ec_hostev_param32(args);
	return EC_RES_SUCCESS;
}

/* The 64-bit value a mask type names; NULL for an unknown type. */
static uint64_t *ec_hostev_slot(struct ec *ec, uint32_t type)
{
	switch (type) {
	case EC_HOST_EVENT_MAIN:
		return &ec->host_events;
	case EC_HOST_EVENT_B:
		return &ec->hostev.events_b;
	case EC_HOST_EVENT_SCI_MASK:
	case EC_HOST_EVENT_SMI_MASK:
	case EC_HOST_EVENT_ALWAYS_REPORT_MASK:
	case EC_HOST_EVENT_ACTIVE_WAKE_MASK:
	case EC_HOST_EVENT_LAZY_WAKE_MASK_S0IX:
	case EC_HOST_EVENT_LAZY_WAKE_MASK_S3:
	case EC_HOST_EVENT_LAZY_WAKE_MASK_S5:
		return &ec->hostev.mask[type];
	default:
		return NULL;
	}
}

/**
 * ec_cmd_host_event() - HOST_EVENT: GET any copy or mask (8-byte answer);
 * SET a mask (replacing it); CLEAR bits of either event copy. Setting an
 * event copy or clearing a mask is ACCESS_DENIED (events are raised by the
 * EC, masks are written whole); an unknown action or mask type is
 * INVALID_PARAM. SET and CLEAR answer with no data.
 */
static int ec_cmd_host_event(struct ec_cmd_args *args)
{
	const struct ec_params_host_event *p = (const void *)args->req;
	struct ec_response_host_event *r = (void *)args->resp;
	bool is_events = p->mask_type == EC_HOST_EVENT_MAIN || p->mask_type == EC_HOST_EVENT_B;
	uint64_t *slot = ec_hostev_slot(args->ec, p->mask_type);

	if (!slot)
		return EC_RES_INVALID_PARAM;
	switch (p->action) {
	case EC_HOST_EVENT_GET:
		r->value = *slot;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	case EC_HOST_EVENT_SET:
		if (is_events)
			return EC_RES_ACCESS_DENIED;
		*slot = p->value;
		return EC_RES_SUCCESS;
	case EC_HOST_EVENT_CLEAR:
		if (!is_events)
			return EC_RES_ACCESS_DENIED;
		*slot &= ~p->value;
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

static bool ec_sleep_is_suspend(uint8_t ev)
{
	return ev == HOST_SLEEP_EVENT_S3_SUSPEND || ev == HOST_SLEEP_EVENT_S0IX_SUSPEND ||
	       ev == HOST_SLEEP_EVENT_S3_WAKEABLE_SUSPEND;
}

/**
 * ec_cmd_host_sleep_event() - HOST_SLEEP_EVENT v0 and v1: the host says it
 * suspends (S3, S0ix, wakeable S3) or resumes. v1 carries a suspend timeout
 * and answers 4 bytes: on a resume, the sleep transitions seen since the
 * matching suspend (1: the host really slept; 0: no matching suspend). The
 * simulated AP never hangs in suspend, so the timeout bit stays clear. An
 * unknown event is INVALID_PARAM.
 */
static int ec_cmd_host_sleep_event(struct ec_cmd_args *args)
{
	const struct ec_params_host_sleep_event_v1 *p = (const void *)args->req;
	struct ec_response_host_sleep_event_v1 *r = (void *)args->resp;
	struct ec_host_event_state *hs = &args->ec->hostev;
	uint8_t ev = p->sleep_event;

	if (ev < HOST_SLEEP_EVENT_S3_SUSPEND || ev > HOST_SLEEP_EVENT_S3_WAKEABLE_SUSPEND)
		return EC_RES_INVALID_PARAM;
	if (ec_sleep_is_suspend(ev)) {
		hs->sleep_timeout_ms = args->version >= 1 ? p->sleep_timeout_ms :
				       EC_HOST_SLEEP_TIMEOUT_DEFAULT;
		hs->sleep_transitions = 0;
		ec_console_log(args->ec, "host sleep event %u (suspend)", ev);
	} else {
		bool matched = (ev == HOST_SLEEP_EVENT_S0IX_RESUME &&
				hs->sleep_event == HOST_SLEEP_EVENT_S0IX_SUSPEND) ||
			       (ev == HOST_SLEEP_EVENT_S3_RESUME &&
				(hs->sleep_event == HOST_SLEEP_EVENT_S3_SUSPEND ||
				 hs->sleep_event == HOST_SLEEP_EVENT_S3_WAKEABLE_SUSPEND));

		hs->sleep_transitions = matched ? 1 : 0;
		/* Back from S3, the AP's firmware ran its resume path. */
		if (matched && ev == HOST_SLEEP_EVENT_S3_RESUME)
			ec_port80_resume(args->ec);
		ec_console_log(args->ec, "host sleep event %u (resume)", ev);
	}
	hs->sleep_event = ev;
	if (args->version >= 1) {
		r->sleep_transitions = ec_sleep_is_suspend(ev) ? 0 : hs->sleep_transitions;
		args->resp_size = sizeof(*r);
	}
	return EC_RES_SUCCESS;
}

/* At boot: copy B clear, every mask clear, no sleep event. */
static void ec_hostevent_boot(struct ec *ec)
{
	memset(&ec->hostev, 0, sizeof(ec->hostev));
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_hostevent_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_GET_B, EC_VER_MASK(0), ec_cmd_host_event_get_b),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_GET_SMI_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_get_smi_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_GET_SCI_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_get_sci_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_SET_SMI_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_set_smi_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_SET_SCI_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_set_sci_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_CLEAR, EC_VER_MASK(0), ec_cmd_host_event_clear),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_GET_WAKE_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_get_wake_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_SET_WAKE_MASK, EC_VER_MASK(0),
			ec_cmd_host_event_set_wake_mask),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT_CLEAR_B, EC_VER_MASK(0), ec_cmd_host_event_clear_b),
	EC_HOST_COMMAND(EC_CMD_HOST_EVENT, EC_VER_MASK(0), ec_cmd_host_event),
	EC_HOST_COMMAND(EC_CMD_HOST_SLEEP_EVENT, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_host_sleep_event),
};

const struct ec_subsystem ec_subsys_hostevent = {
	.name = "hostevent",
	EC_SUBSYSTEM_CMDS(ec_hostevent_cmds),
	.boot = ec_hostevent_boot,
};
