// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_chipset.c - what the host sets about the AP's power sequencing and
 * the panel: GSV_PAUSE_IN_S5 (stay in S5 on the way down),
 * REBOOT_AP_ON_G3 (boot the AP again once the system reaches G3, after a
 * delay), SWITCH_ENABLE_BKLIGHT (the ENABLE_BACKLIGHT GPIO), AP_RESET
 * (the EC resets the AP) and CHARGESPLASH (power the AP on to show the
 * charging screen, and its lockout).
 *
 * The model's AP never powers down on its own, so the two power settings
 * are kept, logged on the console and saved with the state, and act on
 * nothing else: a documented simplification (docs/ec-commands.md). An AP
 * reset is over at once: it is logged where the firmware logs it (the AP
 * reset log of GET_UPTIME_INFO, a new boot in the port-80 history).
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

/*
 * CHARGESPLASH's rate limit: the firmware's CONFIG_CHARGESPLASH_* per board;
 * the model's choice is EC_CHARGESPLASH_REQUESTS requests in this period.
 */
#define EC_CHARGESPLASH_PERIOD_S	900

/* A logged splash request older than the period no longer counts. */
static bool ec_splash_expired(const struct ec_chipset_state *c, unsigned int slot,
			      uint64_t now_s)
{
	return !(c->splash_log_used & (1u << slot)) ||
	       now_s - c->splash_log_s[slot] >= EC_CHARGESPLASH_PERIOD_S;
}

/*
 * A request to power on for the splash, as the firmware's log_request():
 * a lockout ends only at a request once every logged one has expired; a
 * request while the slot it overwrites is still inside the period (the
 * requests of one period used up) locks out. Returns whether it may boot.
 */
static bool ec_splash_log_request(struct ec *ec)
{
	struct ec_chipset_state *c = &ec->chipset;
	uint64_t now_s = ec_uptime_ms(ec) / 1000;
	bool inhibit = false;
	unsigned int i;

	if (c->splash_locked) {
		for (i = 0; i < EC_CHARGESPLASH_REQUESTS; i++)
			if (!ec_splash_expired(c, i, now_s))
				inhibit = true;
		if (!inhibit)
			c->splash_locked = false;
	}
	if (!ec_splash_expired(c, c->splash_next, now_s)) {
		c->splash_locked = true;
		inhibit = true;
	}
	c->splash_log_s[c->splash_next] = now_s;
	c->splash_log_used |= 1u << c->splash_next;
	c->splash_next = (c->splash_next + 1) % EC_CHARGESPLASH_REQUESTS;
	return !inhibit;
}

/**
 * ec_cmd_chargesplash() - CHARGESPLASH v0: GET_STATE; DISPLAY_READY (the
 * display is up, if the AP was powered on for the splash); REQUEST (power
 * the AP on for it, unless locked out: see ec_splash_log_request()); RESET
 * (everything cleared); LOCKOUT. Every sub-command answers the state (3
 * bytes). An unknown one or an empty request is INVALID_PARAM.
 */
static int ec_cmd_chargesplash(struct ec_cmd_args *args)
{
	const struct ec_params_chargesplash *p = (const void *)args->req;
	struct ec_response_chargesplash *r = (void *)args->resp;
	struct ec_chipset_state *c = &args->ec->chipset;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	switch (p->cmd) {
	case EC_CHARGESPLASH_GET_STATE:
		break;
	case EC_CHARGESPLASH_DISPLAY_READY:
		if (c->splash_requested)
			c->splash_display = true;
		break;
	case EC_CHARGESPLASH_REQUEST:
		if (!ec_splash_log_request(args->ec)) {
			ec_console_log(args->ec, "chargesplash: locked out, request inhibited");
			break;
		}
		/* The model's AP is already on: powering it on changes nothing else. */
		c->splash_requested = true;
		c->splash_display = false;
		ec_console_log(args->ec, "chargesplash: power on for charge display");
		break;
	case EC_CHARGESPLASH_RESET:
		c->splash_requested = false;
		c->splash_display = false;
		c->splash_locked = false;
		c->splash_log_used = 0;
		break;
	case EC_CHARGESPLASH_LOCKOUT:
		c->splash_locked = true;
		break;
	default:
		return EC_RES_INVALID_PARAM;
	}
	r->requested = c->splash_requested;
	r->display_initialized = c->splash_display;
	r->locked_out = c->splash_locked;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_ap_reset() - AP_RESET v0: the EC resets the AP (cause
 * CHIPSET_RESET_HOST_CMD): counted and logged for GET_UPTIME_INFO, a new
 * boot in the port-80 history, a console line. The model's AP is back at
 * once; what the host had set on the EC stays (EC RAM).
 */
static int ec_cmd_ap_reset(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;
	struct ec_chipset_state *c = &ec->chipset;
	unsigned int slot = c->ap_resets % EC_AP_RESET_LOG_LEN;

	c->ap_reset_cause[slot] = CHIPSET_RESET_HOST_CMD;
	c->ap_reset_ms[slot] = (uint32_t)ec_uptime_ms(ec);
	c->ap_resets++;
	ec_port80_ap_boot(ec);
	ec_console_log(ec, "AP reset (host command)");
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_chipset_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_GSV_PAUSE_IN_S5, EC_VER_MASK(0), ec_cmd_gsv_pause_in_s5),
	EC_HOST_COMMAND(EC_CMD_SWITCH_ENABLE_BKLIGHT, EC_VER_MASK(0),
			ec_cmd_switch_enable_bklight),
	EC_HOST_COMMAND(EC_CMD_CHARGESPLASH, EC_VER_MASK(0), ec_cmd_chargesplash),
	EC_HOST_COMMAND(EC_CMD_AP_RESET, EC_VER_MASK(0), ec_cmd_ap_reset),
	EC_HOST_COMMAND(EC_CMD_REBOOT_AP_ON_G3, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_reboot_ap_on_g3),
};

const struct ec_subsystem ec_subsys_chipset = {
	.name = "chipset",
	EC_SUBSYSTEM_CMDS(ec_chipset_cmds),
	.boot = ec_chipset_boot,
};
