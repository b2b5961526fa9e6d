// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_battery.c - what the host sets about the battery beyond charging:
 * BATTERY_VENDOR_PARAM (a board's battery-specific parameters) and
 * SMART_DISCHARGE (how long the pack must last once the system is off).
 *
 * Vendor parameters differ per board. The model's battery has the one
 * several boards' packs have: parameter 0, the pack's first-use date, which
 * the pack keeps in three slots of its data flash and which a SET writes
 * into the first empty one. Being in the pack, it survives EC resets.
 * Smart discharge is EC RAM, as in the firmware: cleared at every boot.
 */
#include <string.h>

#include "ec_internal.h"

/* The battery's only vendor parameter: the first-use date (slots of it). */
#define EC_BATT_PARAM_FIRST_USE	0

/* RAM of the EC: no smart discharge configured at boot. */
static void ec_battery_host_boot(struct ec *ec)
{
	struct ec_battery_host_state *b = &ec->batt_host;

	b->hours_to_zero = 0;
	b->rate_cutoff_ua = 0;
	b->rate_hibern_ua = 0;
	b->zone_cutoff_mah = 0;
	b->zone_stayup_mah = 0;
}

/**
 * ec_cmd_battery_vendor_param() - BATTERY_VENDOR_PARAM v0: SET of
 * parameter 0 writes the first empty first-use slot (every slot written:
 * ERROR), then both modes answer the last slot written (0: none). Another
 * parameter, another mode or a request shorter than 9 bytes is
 * INVALID_PARAM; a cut-off pack does not answer: ERROR.
 */
static int ec_cmd_battery_vendor_param(struct ec_cmd_args *args)
{
	const struct ec_params_battery_vendor_param *p = (const void *)args->req;
	struct ec_response_battery_vendor_param *r = (void *)args->resp;
	struct ec_battery_host_state *b = &args->ec->batt_host;
	unsigned int i;

	if (args->req_len < sizeof(*p) || p->param != EC_BATT_PARAM_FIRST_USE ||
	    (p->mode != BATTERY_VENDOR_PARAM_MODE_GET && p->mode != BATTERY_VENDOR_PARAM_MODE_SET))
		return EC_RES_INVALID_PARAM;
	if (args->ec->sys.batt_cut_off)
		return EC_RES_ERROR;
	if (p->mode == BATTERY_VENDOR_PARAM_MODE_SET) {
		if (b->first_use_slots >= EC_BATT_FIRST_USE_SLOTS)
			return EC_RES_ERROR;
		b->first_use[b->first_use_slots++] = p->value;
		ec_console_log(args->ec, "battery first-use date 0x%08x (slot %u)", p->value,
			       b->first_use_slots - 1);
	}
	i = b->first_use_slots;
	r->value = i ? b->first_use[i - 1] : 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_smart_discharge() - SMART_DISCHARGE v0: with FLAGS_SET, take the
 * hours to zero and (both non-zero, hibernation's not below cutoff's) the
 * discharge rates, or keep the rates (both zero); the zones follow:
 * stay-up = hours x hibernation rate, cutoff = hours x cutoff rate (uA h /
 * 1000 = mAh), each capped by the one above it (the pack's full charge,
 * then stay-up). Rates in another combination are INVALID_PARAM, a pack
 * that does not answer (cut off) UNAVAILABLE, as in the firmware. Every
 * call answers the values in effect (16 bytes). A request shorter than 8
 * bytes is INVALID_PARAM (the firmware reads what is there).
 */
static int ec_cmd_smart_discharge(struct ec_cmd_args *args)
{
	const struct ec_params_smart_discharge *p = (const void *)args->req;
	struct ec_response_smart_discharge *r = (void *)args->resp;
	struct ec_battery_host_state *b = &args->ec->batt_host;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->flags & EC_SMART_DISCHARGE_FLAGS_SET) {
		int32_t cap = (int32_t)ec_batt_full(args->ec);
		int32_t stayup, cutoff;

		if (args->ec->sys.batt_cut_off)
			return EC_RES_UNAVAILABLE;
		if (p->drate.hibern < p->drate.cutoff)
			return EC_RES_INVALID_PARAM;
		if (p->drate.cutoff && p->drate.hibern) {
			b->rate_cutoff_ua = p->drate.cutoff;
			b->rate_hibern_ua = p->drate.hibern;
		} else if (p->drate.cutoff || p->drate.hibern) {
			return EC_RES_INVALID_PARAM;
		}
		b->hours_to_zero = p->hours_to_zero;
		stayup = (int32_t)((uint32_t)b->hours_to_zero * b->rate_hibern_ua / 1000);
		cutoff = (int32_t)((uint32_t)b->hours_to_zero * b->rate_cutoff_ua / 1000);
		b->zone_stayup_mah = stayup < cap ? stayup : cap;
		b->zone_cutoff_mah = cutoff < b->zone_stayup_mah ? cutoff : b->zone_stayup_mah;
		ec_console_log(args->ec, "smart discharge: %u h, stay-up %d mAh, cutoff %d mAh",
			       b->hours_to_zero, b->zone_stayup_mah, b->zone_cutoff_mah);
	}
	r->hours_to_zero = b->hours_to_zero;
	r->drate.cutoff = b->rate_cutoff_ua;
	r->drate.hibern = b->rate_hibern_ua;
	r->dzone_cutoff = b->zone_cutoff_mah;
	r->dzone_stayup = b->zone_stayup_mah;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_battery_host_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_BATTERY_VENDOR_PARAM, EC_VER_MASK(0), ec_cmd_battery_vendor_param),
	EC_HOST_COMMAND(EC_CMD_SMART_DISCHARGE, EC_VER_MASK(0), ec_cmd_smart_discharge),
};

const struct ec_subsystem ec_subsys_battery = {
	.name = "battery",
	EC_SUBSYSTEM_CMDS(ec_battery_host_cmds),
	.boot = ec_battery_host_boot,
};
