// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_flash.c - flash geometry and write-protect host commands.
 *
 * Write protect has one source of truth, ec->wp_asserted (the hardware WP
 * line, EC_WP_L active low). FLASH_PROTECT's GPIO_ASSERTED flag, the
 * EC_WP_L GPIO and the memory map's "write protect disabled" switch are all
 * derived from it (ec_wp_apply(), ec_memmap_refresh()).
 */
#include <string.h>

#include "ec_internal.h"

#define EC_FLASH_AT_BOOT (EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_ALL_AT_BOOT | \
			  EC_FLASH_PROTECT_RW_AT_BOOT)
#define EC_FLASH_VALID (EC_FLASH_AT_BOOT | EC_FLASH_PROTECT_ALL_NOW | EC_FLASH_PROTECT_RO_NOW | \
			EC_FLASH_PROTECT_GPIO_ASSERTED | EC_FLASH_PROTECT_ERROR_STUCK | \
			EC_FLASH_PROTECT_ERROR_INCONSISTENT | EC_FLASH_PROTECT_RW_NOW)

/** ec_cmd_flash_info() - FLASH_INFO v0 (16 bytes) and v1 (24 bytes). */
static int ec_cmd_flash_info(struct ec_cmd_args *args)
{
	const struct ec_profile *p = &args->ec->prof;
	struct ec_response_flash_info_1 *r = (void *)args->resp;

	r->flash_size = p->flash_size;
	r->write_block_size = p->flash_write_block;
	r->erase_block_size = p->flash_erase_block;
	r->protect_block_size = p->flash_protect_block;
	if (args->version == 0) {
		args->resp_size = sizeof(struct ec_response_flash_info);
		return EC_RES_SUCCESS;
	}
	r->write_ideal_size = p->flash_write_ideal;
	r->flags = p->flash_flags;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/*
 * What a host may change right now, as the firmware reports it: once RO is
 * protected now, the at-boot flags are frozen until the next boot; ALL_NOW
 * can be set (never cleared) only while the WP line is asserted.
 */
static uint32_t ec_flash_writable(const struct ec *ec)
{
	uint32_t f = ec->flash_protect_flags;
	uint32_t w = 0;

	if (!(f & EC_FLASH_PROTECT_RO_NOW))
		w |= EC_FLASH_AT_BOOT;
	if (ec->wp_asserted && !(f & EC_FLASH_PROTECT_ALL_NOW))
		w |= EC_FLASH_PROTECT_ALL_NOW;
	return w;
}

/**
 * ec_cmd_flash_protect() - FLASH_PROTECT v1: change the flags in @mask that
 * are writable now to @flags and report the result. As in the firmware,
 * bits that cannot be changed are ignored rather than rejected: the answer
 * is always SUCCESS with the flags as they now are, and the host compares.
 */
static int ec_cmd_flash_protect(struct ec_cmd_args *args)
{
	const struct ec_params_flash_protect *p = (const void *)args->req;
	struct ec_response_flash_protect *r = (void *)args->resp;
	struct ec *ec = args->ec;
	uint32_t mask = p->mask & ec_flash_writable(ec);

	/* ALL_NOW is one-way until reboot: a clear request is ignored. */
	if (!(p->flags & EC_FLASH_PROTECT_ALL_NOW))
		mask &= ~EC_FLASH_PROTECT_ALL_NOW;
	ec->flash_protect_flags = (ec->flash_protect_flags & ~mask) | (p->flags & mask);
	ec_flash_protect_follow(ec);
	r->flags = ec->flash_protect_flags;
	r->valid_flags = EC_FLASH_VALID;
	r->writable_flags = ec_flash_writable(ec);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_flash_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_FLASH_INFO, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_flash_info),
	EC_HOST_COMMAND(EC_CMD_FLASH_PROTECT, EC_VER_MASK(1), ec_cmd_flash_protect),
};

const struct ec_subsystem ec_subsys_flash = {
	.name = "flash",
	EC_SUBSYSTEM_CMDS(ec_flash_cmds),
	.kinds = EC_KINDS_CORE,
};
