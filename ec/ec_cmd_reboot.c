// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_reboot.c - the EC's own boot and REBOOT_EC.
 *
 * The model splits its state the way a real board does. The world and the
 * non-volatile parts stay as they are over an EC reset: the lid, AC, the
 * battery's charge, temperatures, attached USB-C partners, the wall clock,
 * the flash and the CBI EEPROM, the protection flags stored in flash, the
 * panic record. What the EC's firmware sets up in RAM starts over: uptime,
 * fan and LED control, charge control, host events and their masks, the
 * keyboard and MKBP settings, the RTC alarm, the port-80 history (a new AP
 * boot), I2C protection, the background flash hash and the reset flags.
 *
 * A cold reboot is one the host sees as the device going away and coming
 * back; the EC itself only counts it (ec_cold_resets()), the daemon that
 * serves the device decides how its clients see that.
 */
#include <string.h>

#include "ec_internal.h"

/* A reset of the EC: what its firmware does from the reset vector on. */
static void ec_reset(struct ec *ec, uint32_t reset_flags, bool cold)
{
	uint32_t wall = ec->rtc_at_boot + (uint32_t)(ec_uptime_ms(ec) / 1000);

	ec->sys.resets++;
	if (cold)
		ec->sys.cold_resets++;
	/* The wall clock keeps running through the reset. */
	ec->boot_ns = ec->last_ns;
	ec->rtc_at_boot = wall;
	ec->prof.current_image = ec->sys.boot_image;
	ec_boot(ec, reset_flags);
}

/* Jump to the other image without a reset: RAM state stays, the flags say so. */
static int ec_sysjump(struct ec *ec, uint32_t image)
{
	if (ec->sys.jump_disabled)
		return EC_RES_ACCESS_DENIED;
	if (ec->prof.current_image == image)
		return EC_RES_SUCCESS;
	ec->prof.current_image = image;
	ec->sys.reset_flags |= EC_RESET_FLAG_SYSJUMP;
	ec_console_log(ec, "sysjump to %s", image == EC_IMAGE_RO ? "RO" : "RW");
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_reboot_ec() - REBOOT_EC. The command answers SUCCESS first, as
 * the firmware does, and the reset follows:
 * - COLD, COLD_AP_OFF: a full reset (reset flags HARD, with AP_OFF);
 * - HIBERNATE, HIBERNATE_CLEAR_AP_OFF: the EC hibernates and a wake source
 *   wakes it at once (reset flags HIBERNATE);
 * - JUMP_RO, JUMP_RW: run the other image without a reset (SYSJUMP added;
 *   ACCESS_DENIED after DISABLE_JUMP);
 * - DISABLE_JUMP: until the next reset; CANCEL: drop a pending reboot.
 * With ON_AP_SHUTDOWN a reboot waits for the AP to shut down, which the
 * simulated AP never does, so it stays pending until CANCEL. An unknown
 * command is INVALID_PARAM.
 */
static int ec_cmd_reboot_ec(struct ec_cmd_args *args)
{
	const struct ec_params_reboot_ec *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < 1)
		return EC_RES_INVALID_PARAM;
	switch (p->cmd) {
	case EC_REBOOT_CANCEL:
		ec->sys.pending_reboot = 0;
		ec->sys.pending_flags = 0;
		return EC_RES_SUCCESS;
	case EC_REBOOT_DISABLE_JUMP:
		ec->sys.jump_disabled = true;
		return EC_RES_SUCCESS;
	case EC_REBOOT_JUMP_RO:
	case EC_REBOOT_JUMP_RW:
	case EC_REBOOT_COLD:
	case EC_REBOOT_COLD_AP_OFF:
	case EC_REBOOT_HIBERNATE:
	case EC_REBOOT_HIBERNATE_CLEAR_AP_OFF:
		break;
	default:
		return EC_RES_INVALID_PARAM;
	}
	if (args->req_len >= sizeof(*p) && (p->flags & EC_REBOOT_FLAG_ON_AP_SHUTDOWN)) {
		ec->sys.pending_reboot = p->cmd;
		ec->sys.pending_flags = p->flags;
		return EC_RES_SUCCESS;
	}
	switch (p->cmd) {
	case EC_REBOOT_JUMP_RO:
		return ec_sysjump(ec, EC_IMAGE_RO);
	case EC_REBOOT_JUMP_RW:
		return ec_sysjump(ec, EC_IMAGE_RW);
	case EC_REBOOT_COLD:
		ec_reset(ec, EC_RESET_FLAG_HARD, true);
		return EC_RES_SUCCESS;
	case EC_REBOOT_COLD_AP_OFF:
		ec_reset(ec, EC_RESET_FLAG_HARD | EC_RESET_FLAG_AP_OFF, true);
		return EC_RES_SUCCESS;
	default:
		ec_reset(ec, EC_RESET_FLAG_HIBERNATE, true);
		return EC_RES_SUCCESS;
	}
}

uint32_t ec_cold_resets(struct ec *ec)
{
	uint32_t n;

	pthread_mutex_lock(&ec->lock);
	n = ec->sys.cold_resets;
	pthread_mutex_unlock(&ec->lock);
	return n;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_reboot_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_REBOOT_EC, EC_VER_MASK(0), ec_cmd_reboot_ec),
};

const struct ec_subsystem ec_subsys_reboot = {
	.name = "reboot",
	EC_SUBSYSTEM_CMDS(ec_reboot_cmds),
	.kinds = EC_KINDS_CORE,
};
