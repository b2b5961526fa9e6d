// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_flash.c - flash geometry and write-protect host commands.
 */
#include "ec_internal.h"

/* Flags a host may change with FLASH_PROTECT; the rest are read-only state. */
#define EC_FLASH_WRITABLE (EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_ALL_NOW | \
			   EC_FLASH_PROTECT_ALL_AT_BOOT | EC_FLASH_PROTECT_RW_AT_BOOT)
#define EC_FLASH_VALID (EC_FLASH_WRITABLE | EC_FLASH_PROTECT_RO_NOW | \
			EC_FLASH_PROTECT_GPIO_ASSERTED | EC_FLASH_PROTECT_ERROR_STUCK | \
			EC_FLASH_PROTECT_ERROR_INCONSISTENT | EC_FLASH_PROTECT_RW_NOW)

/** ec_cmd_flash_info() - FLASH_INFO v0 (16 bytes) and v1 (24 bytes). */
int ec_cmd_flash_info(struct ec_cmd_args *args)
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

/**
 * ec_cmd_flash_protect() - FLASH_PROTECT v1: change the writable flags in
 * @mask to @flags and report the result. "Now" protection follows the
 * at-boot flags only while the write-protect GPIO is asserted, so with it
 * deasserted (the profile's default) a host can set and clear them freely.
 * Asking to change a read-only flag is ACCESS_DENIED.
 */
int ec_cmd_flash_protect(struct ec_cmd_args *args)
{
	const struct ec_params_flash_protect *p = (const void *)args->req;
	struct ec_response_flash_protect *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (p->mask & ~EC_FLASH_WRITABLE)
		return EC_RES_ACCESS_DENIED;
	ec->flash_protect_flags = (ec->flash_protect_flags & ~p->mask) | (p->flags & p->mask);
	if (ec->flash_protect_flags & EC_FLASH_PROTECT_GPIO_ASSERTED) {
		if (ec->flash_protect_flags & EC_FLASH_PROTECT_RO_AT_BOOT)
			ec->flash_protect_flags |= EC_FLASH_PROTECT_RO_NOW;
		if (ec->flash_protect_flags & EC_FLASH_PROTECT_RW_AT_BOOT)
			ec->flash_protect_flags |= EC_FLASH_PROTECT_RW_NOW;
	}
	r->flags = ec->flash_protect_flags;
	r->valid_flags = EC_FLASH_VALID;
	r->writable_flags = EC_FLASH_WRITABLE;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}
