// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_chipset.c - what the host sets about the AP's power sequencing and
 * the panel: GSV_PAUSE_IN_S5 (stay in S5 on the way down),
 * REBOOT_AP_ON_G3 (boot the AP again once the system reaches G3, after a
 * delay) and SWITCH_ENABLE_BKLIGHT (the ENABLE_BACKLIGHT GPIO).
 *
 * The model's AP never powers down on its own, so the two power settings
 * are kept, logged on the console and saved with the state, and act on
 * nothing else: a documented simplification (docs/ec-commands.md).
 */
#include <string.h>

#include "ec_internal.h"

/* RAM of the EC: nothing asked at boot. */
static void ec_chipset_boot(struct ec *ec)
{
	memset(&ec->chipset, 0, sizeof(ec->chipset));
}

/**
 * ec_cmd_gsv_pause_in_s5() - GSV_PAUSE_IN_S5 v0: with EC_GSV_SET in flags
 * take value (any non-zero is on); answer the setting (8 bytes). A request
 * shorter than 8 bytes is INVALID_PARAM.
 */
static int ec_cmd_gsv_pause_in_s5(struct ec_cmd_args *args)
{
	const struct ec_params_get_set_value *p = (const void *)args->req;
	struct ec_params_get_set_value *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->flags & EC_GSV_SET) {
		ec->chipset.pause_in_s5 = p->value != 0;
		ec_console_log(ec, "pause in S5 %s", ec->chipset.pause_in_s5 ? "on" : "off");
	}
	r->flags = p->flags;
	r->value = ec->chipset.pause_in_s5;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_switch_enable_bklight() - SWITCH_ENABLE_BKLIGHT v0: drive the
 * ENABLE_BACKLIGHT GPIO (GPIO_GET shows it). An empty request is
 * INVALID_PARAM.
 */
static int ec_cmd_switch_enable_bklight(struct ec_cmd_args *args)
{
	const struct ec_params_switch_enable_backlight *p = (const void *)args->req;
	struct ec *ec = args->ec;
	int gpio = ec_profile_backlight_gpio(&ec->prof);

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (gpio >= 0)
		ec->gpio_value[gpio] = p->enabled ? 1 : 0;
	ec_console_log(ec, "panel backlight %s", p->enabled ? "on" : "off");
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_reboot_ap_on_g3() - REBOOT_AP_ON_G3 v0, v1: boot the AP again
 * once the system reaches G3; v1 carries the seconds to wait there (a
 * request shorter than 4 bytes is INVALID_PARAM).
 */
static int ec_cmd_reboot_ap_on_g3(struct ec_cmd_args *args)
{
	const struct ec_params_reboot_ap_on_g3_v1 *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->version == 1) {
		if (args->req_len < sizeof(*p))
			return EC_RES_INVALID_PARAM;
		ec->chipset.g3_delay_s = p->reboot_ap_at_g3_delay;
	}
	ec->chipset.reboot_at_g3 = true;
	ec_console_log(ec, "AP reboot at G3 requested (delay %u s)", ec->chipset.g3_delay_s);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_chipset_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_GSV_PAUSE_IN_S5, EC_VER_MASK(0), ec_cmd_gsv_pause_in_s5),
	EC_HOST_COMMAND(EC_CMD_SWITCH_ENABLE_BKLIGHT, EC_VER_MASK(0),
			ec_cmd_switch_enable_bklight),
	EC_HOST_COMMAND(EC_CMD_REBOOT_AP_ON_G3, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_reboot_ap_on_g3),
};

const struct ec_subsystem ec_subsys_chipset = {
	.name = "chipset",
	EC_SUBSYSTEM_CMDS(ec_chipset_cmds),
	.boot = ec_chipset_boot,
};
