// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_settings.c - what the host may set on the EC's power side and
 * its switches: PWM duty, thermal thresholds, hibernation delay, charge
 * and external power limits (the charger model obeys them), wireless
 * switches, a forced-open lid, the hang detector, battery cut-off, USB-A
 * charge modes and the SPI flash's identity.
 *
 * All of it is RAM state of the EC: ec_ctl_boot() sets it up at every EC
 * boot, so a reset drops what the host set.
 */
#include <string.h>

#include "ec_internal.h"

#define NS_PER_MS		1000000ull
#define HIBERNATE_DELAY_S	3600	/* the firmware's default */
#define WIRELESS_ALL		(EC_WIRELESS_SWITCH_WLAN | EC_WIRELESS_SWITCH_BLUETOOTH | \
				 EC_WIRELESS_SWITCH_WWAN | EC_WIRELESS_SWITCH_WLAN_POWER)

/**
 * ec_ctl_boot() - the settings of this file as the EC boots with them; the
 * thermal thresholds go back to the profile's.
 * @ec: the EC, locked (or being created)
 */
static void ec_ctl_boot(struct ec *ec)
{
	struct ec_ctl_state *c = &ec->ctl;
	unsigned int i;

	if (!ec->sys.resets)
		memcpy(c->temps_boot, ec->prof.temps, sizeof(c->temps_boot));
	else
		memcpy(ec->prof.temps, c->temps_boot, sizeof(c->temps_boot));
	c->charge_limit_ma = UINT32_MAX;
	c->ext_current_ma = EC_POWER_LIMIT_NONE;
	c->ext_voltage_mv = EC_POWER_LIMIT_NONE;
	c->hibernate_delay_s = HIBERNATE_DELAY_S;
	c->wireless_now = WIRELESS_ALL;
	c->wireless_suspend = 0;
	c->force_lid_open = false;
	c->hang_flags = 0;
	c->hang_host_ms = 0;
	c->hang_reboot_ms = 0;
	c->hang_running = false;
	c->cutoff_at_shutdown = false;
	for (i = 0; i < EC_USB_A_PORTS_MAX; i++) {
		c->usb_mode[i] = USB_CHARGE_MODE_DEFAULT;
		c->usb_inhibit[i] = false;
	}
}

/**
 * ec_ctl_settle() - the hang detector's timeouts on the EC clock: the host
 * event first, then the warm reboot of the AP (shown as its host event).
 * @ec: the EC, locked and advanced
 */
static void ec_ctl_settle(struct ec *ec)
{
	struct ec_ctl_state *c = &ec->ctl;
	uint64_t ran;

	if (!c->hang_running)
		return;
	ran = (ec->last_ns - c->hang_start_ns) / NS_PER_MS;
	if (c->hang_host_ms && !c->hang_event_sent && ran >= c->hang_host_ms) {
		c->hang_event_sent = true;
		ec_console_log(ec, "hang detect: host event");
		ec_raise_host_event(ec, EC_HOST_EVENT_HANG_DETECT);
	}
	if (c->hang_reboot_ms && ran >= c->hang_reboot_ms) {
		c->hang_running = false;
		ec_console_log(ec, "hang detect: warm reboot of the AP");
		ec_raise_host_event(ec, EC_HOST_EVENT_HANG_REBOOT);
	}
}

/**
 * ec_ctl_host_command() - a host command arrived: it stops the hang timer
 * when the host asked for that (before the command itself runs, so a
 * HANG_DETECT START_NOW starts it again).
 * @ec: the EC, locked
 */
static void ec_ctl_host_command(struct ec *ec)
{
	if (ec->ctl.hang_running && (ec->ctl.hang_flags & EC_HANG_STOP_ON_HOST_COMMAND))
		ec->ctl.hang_running = false;
}

/* A board PWM channel: the fans' PWMs, in fan order. */
static int ec_pwm_lookup(const struct ec *ec, uint8_t type, uint8_t index)
{
	switch (type) {
	case EC_PWM_TYPE_GENERIC:
		return index < ec->prof.n_fans ? 0 : -1;
	case EC_PWM_TYPE_KB_LIGHT:
		return ec->prof.kb_backlight && !index ? 0 : -1;
	default:
		return -1;	/* the EC drives no display backlight */
	}
}

/**
 * ec_cmd_pwm_set_duty() - PWM_SET_DUTY: a fan's PWM (GENERIC, index = fan;
 * the fan leaves automatic control) or the keyboard backlight (KB_LIGHT),
 * 0xffff = 100 %. The backlight keeps the 16-bit duty as set (its percent
 * rounds); a fan keeps a percent. A channel the board lacks is INVALID_PARAM.
 */
static int ec_cmd_pwm_set_duty(struct ec_cmd_args *args)
{
	const struct ec_params_pwm_set_duty *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint32_t pct = ((uint32_t)p->duty * 100 + EC_PWM_MAX_DUTY / 2) / EC_PWM_MAX_DUTY;

	if (args->req_len < sizeof(*p) || ec_pwm_lookup(ec, p->pwm_type, p->index))
		return EC_RES_INVALID_PARAM;
	if (p->pwm_type == EC_PWM_TYPE_KB_LIGHT) {
		ec->kb.backlight = (uint8_t)pct;
		ec->kb.backlight_duty = p->duty;
	} else {
		ec->fan_auto[p->index] = false;
		ec->fan_by_rpm[p->index] = false;
		ec->fan_duty[p->index] = pct;
	}
	ec_console_log(ec, "pwm type %u index %u: duty %u%%", p->pwm_type, p->index, pct);
	return EC_RES_SUCCESS;
}

/** ec_cmd_pwm_get_duty() - PWM_GET_DUTY: the duty a channel is driven at now. */
static int ec_cmd_pwm_get_duty(struct ec_cmd_args *args)
{
	const struct ec_params_pwm_get_duty *p = (const void *)args->req;
	struct ec_response_pwm_get_duty *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || ec_pwm_lookup(ec, p->pwm_type, p->index))
		return EC_RES_INVALID_PARAM;
	if (p->pwm_type == EC_PWM_TYPE_KB_LIGHT)
		r->duty = ec->kb.backlight_duty;
	else
		r->duty = (uint16_t)(ec_fan_duty_now(ec, p->index) * EC_PWM_MAX_DUTY / 100);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_thermal_set_threshold() - THERMAL_SET_THRESHOLD v1: one sensor's
 * host thresholds and fan range, in K (0 = none), as THERMAL_GET_THRESHOLD
 * reads them. The release levels are not kept: the model releases a
 * threshold 3 K below it. A sensor past the list is INVALID_PARAM.
 */
static int ec_cmd_thermal_set_threshold(struct ec_cmd_args *args)
{
	const struct ec_params_thermal_set_threshold_v1 *p = (const void *)args->req;
	struct ec_temp_profile *tp;
	unsigned int t;

	if (args->req_len < sizeof(*p) || p->sensor_num >= args->ec->prof.n_temps)
		return EC_RES_INVALID_PARAM;
	tp = &args->ec->prof.temps[p->sensor_num];
	for (t = 0; t < EC_TEMP_THRESH_COUNT; t++)
		tp->thresh_k[t] = p->cfg.temp_host[t];
	tp->fan_off_k = p->cfg.temp_fan_off;
	tp->fan_max_k = p->cfg.temp_fan_max;
	ec_console_log(args->ec, "thermal: sensor %s thresholds set", tp->name);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_hibernation_delay() - HIBERNATION_DELAY: set (seconds > 0) and
 * read the delay before the EC hibernates in G3. The simulated AP is
 * always on, so the time in G3 and the time remaining are 0.
 */
static int ec_cmd_hibernation_delay(struct ec_cmd_args *args)
{
	const struct ec_params_hibernation_delay *p = (const void *)args->req;
	struct ec_response_hibernation_delay *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->seconds)
		ec->ctl.hibernate_delay_s = p->seconds;
	r->time_g3 = 0;
	r->time_remaining = 0;
	r->hibernate_delay = ec->ctl.hibernate_delay_s;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_charge_current_limit() - CHARGE_CURRENT_LIMIT: the most the
 * charger may put into the battery, mA, until the EC resets.
 */
static int ec_cmd_charge_current_limit(struct ec_cmd_args *args)
{
	const struct ec_params_current_limit *p = (const void *)args->req;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	args->ec->ctl.charge_limit_ma = p->limit;
	ec_console_log(args->ec, "charge current limit %u mA", p->limit);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_external_power_limit() - EXTERNAL_POWER_LIMIT v1: cap the current
 * (mA) and voltage (mV) drawn from the adapter; 0xffff lifts a cap. The
 * charge current follows what the capped input power allows.
 */
static int ec_cmd_external_power_limit(struct ec_cmd_args *args)
{
	const struct ec_params_external_power_limit_v1 *p = (const void *)args->req;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	args->ec->ctl.ext_current_ma = p->current_lim;
	args->ec->ctl.ext_voltage_mv = p->voltage_lim;
	ec_console_log(args->ec, "external power limit %u mA, %u mV", p->current_lim,
		       p->voltage_lim);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_switch_enable_wireless() - SWITCH_ENABLE_WIRELESS. v0: the radios
 * on or off (no answer). v1: the flags in each mask are set now and for
 * suspend; the answer is both sets as they now are.
 */
static int ec_cmd_switch_enable_wireless(struct ec_cmd_args *args)
{
	const struct ec_params_switch_enable_wireless_v1 *p = (const void *)args->req;
	struct ec_response_switch_enable_wireless_v1 *r = (void *)args->resp;
	struct ec_ctl_state *c = &args->ec->ctl;

	if (args->version == 0) {
		if (args->req_len < 1)
			return EC_RES_INVALID_PARAM;
		c->wireless_now = p->now_flags & WIRELESS_ALL;
		return EC_RES_SUCCESS;
	}
	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	c->wireless_now = (uint8_t)(((c->wireless_now & ~p->now_mask) |
				     (p->now_flags & p->now_mask)) & WIRELESS_ALL);
	c->wireless_suspend = (uint8_t)(((c->wireless_suspend & ~p->suspend_mask) |
					 (p->suspend_flags & p->suspend_mask)) & WIRELESS_ALL);
	r->now_flags = c->wireless_now;
	r->suspend_flags = c->wireless_suspend;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_force_lid_open() - FORCE_LID_OPEN: while enabled the EC reports
 * the lid open (memory map, MKBP switches) and a closing lid raises no
 * event.
 */
static int ec_cmd_force_lid_open(struct ec_cmd_args *args)
{
	const struct ec_params_force_lid_open *p = (const void *)args->req;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	args->ec->ctl.force_lid_open = p->enabled != 0;
	ec_console_log(args->ec, "lid forced open: %s", p->enabled ? "on" : "off");
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_hang_detect() - HANG_DETECT: STOP_NOW and START_NOW act on the
 * timer alone; otherwise the flags and timeouts are stored (and a running
 * timer stops). Once started the timer raises HANG_DETECT after the host
 * event timeout and HANG_REBOOT after the warm reboot timeout, on the EC
 * clock. START_NOW without a timeout, or a reboot timeout not after the
 * host event one, is INVALID_PARAM. Of the start/stop conditions only
 * STOP_ON_HOST_COMMAND is modelled; the simulated AP neither suspends nor
 * presses buttons.
 */
static int ec_cmd_hang_detect(struct ec_cmd_args *args)
{
	const struct ec_params_hang_detect *p = (const void *)args->req;
	struct ec_ctl_state *c = &args->ec->ctl;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->flags & EC_HANG_STOP_NOW) {
		c->hang_running = false;
		return EC_RES_SUCCESS;
	}
	if (p->flags & EC_HANG_START_NOW) {
		if (!c->hang_host_ms && !c->hang_reboot_ms)
			return EC_RES_INVALID_PARAM;
		c->hang_running = true;
		c->hang_event_sent = false;
		c->hang_start_ns = args->ec->last_ns;
		return EC_RES_SUCCESS;
	}
	if (p->host_event_timeout_msec && p->warm_reboot_timeout_msec &&
	    p->warm_reboot_timeout_msec <= p->host_event_timeout_msec)
		return EC_RES_INVALID_PARAM;
	c->hang_running = false;
	c->hang_flags = p->flags;
	c->hang_host_ms = p->host_event_timeout_msec;
	c->hang_reboot_ms = p->warm_reboot_timeout_msec;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_battery_cut_off() - BATTERY_CUT_OFF: the pack goes into ship
 * mode: it neither charges nor discharges, reads as absent and stops
 * answering on its bus, until an AC adapter is plugged in after being
 * unplugged. v1 AT_SHUTDOWN waits for the AP to shut down, which the
 * simulated AP never does.
 */
static int ec_cmd_battery_cut_off(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;

	if (args->version == 1 && args->req_len >= 1 &&
	    (args->req[0] & EC_BATTERY_CUTOFF_FLAG_AT_SHUTDOWN)) {
		ec->ctl.cutoff_at_shutdown = true;
		return EC_RES_SUCCESS;
	}
	ec->sys.batt_cut_off = true;
	ec->ctl.cutoff_saw_unplug = !ec->ac_present;
	ec_console_log(ec, "battery cut off");
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_usb_charge_set_mode() - USB_CHARGE_SET_MODE: the charge mode of a
 * USB-A port (and whether it charges in suspend). A port past the board's
 * or an unknown mode is INVALID_PARAM.
 */
static int ec_cmd_usb_charge_set_mode(struct ec_cmd_args *args)
{
	const struct ec_params_usb_charge_set_mode *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint8_t mode = p->mode_inhibit & 0x7F;

	if (args->req_len < sizeof(*p) || p->usb_port_id >= ec->prof.usb_a_ports ||
	    mode >= USB_CHARGE_MODE_COUNT)
		return EC_RES_INVALID_PARAM;
	ec->ctl.usb_mode[p->usb_port_id] = mode;
	ec->ctl.usb_inhibit[p->usb_port_id] = p->mode_inhibit >> 7;
	ec_console_log(ec, "USB-A port %u: charge mode %u", p->usb_port_id, mode);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_flash_spi_info() - FLASH_SPI_INFO: the SPI flash's JEDEC and
 * manufacturer/device IDs from the profile; its status register 1 shows
 * the block protection (BP0-BP2) while RO is protected now and the status
 * register protect bit (SRP0) while the WP line is asserted.
 */
static int ec_cmd_flash_spi_info(struct ec_cmd_args *args)
{
	struct ec_response_flash_spi_info *r = (void *)args->resp;
	const struct ec *ec = args->ec;
	uint32_t id = ec->prof.flash_spi_jedec;

	r->jedec[0] = (uint8_t)(id >> 16);
	r->jedec[1] = (uint8_t)(id >> 8);
	r->jedec[2] = (uint8_t)id;
	r->mfr_dev_id[0] = (uint8_t)(ec->prof.flash_spi_mfr_dev >> 8);
	r->mfr_dev_id[1] = (uint8_t)ec->prof.flash_spi_mfr_dev;
	r->sr1 = (uint8_t)((ec->wp_asserted ? 0x80 : 0) |
			   (ec->flash_protect_flags & EC_FLASH_PROTECT_RO_NOW ? 0x1C : 0));
	r->sr2 = 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_settings_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_FLASH_SPI_INFO, EC_VER_MASK(0), ec_cmd_flash_spi_info),
	EC_HOST_COMMAND(EC_CMD_PWM_SET_DUTY, EC_VER_MASK(0), ec_cmd_pwm_set_duty),
	EC_HOST_COMMAND(EC_CMD_PWM_GET_DUTY, EC_VER_MASK(0), ec_cmd_pwm_get_duty),
	EC_HOST_COMMAND(EC_CMD_FORCE_LID_OPEN, EC_VER_MASK(0), ec_cmd_force_lid_open),
	EC_HOST_COMMAND(EC_CMD_USB_CHARGE_SET_MODE, EC_VER_MASK(0), ec_cmd_usb_charge_set_mode),
	EC_HOST_COMMAND(EC_CMD_THERMAL_SET_THRESHOLD, EC_VER_MASK(1),
			ec_cmd_thermal_set_threshold),
	EC_HOST_COMMAND(EC_CMD_SWITCH_ENABLE_WIRELESS, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_switch_enable_wireless),
	EC_HOST_COMMAND(EC_CMD_BATTERY_CUT_OFF, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_battery_cut_off),
	EC_HOST_COMMAND(EC_CMD_HANG_DETECT, EC_VER_MASK(0), ec_cmd_hang_detect),
	EC_HOST_COMMAND(EC_CMD_CHARGE_CURRENT_LIMIT, EC_VER_MASK(0), ec_cmd_charge_current_limit),
	EC_HOST_COMMAND(EC_CMD_EXTERNAL_POWER_LIMIT, EC_VER_MASK(1), ec_cmd_external_power_limit),
	EC_HOST_COMMAND(EC_CMD_HIBERNATION_DELAY, EC_VER_MASK(0), ec_cmd_hibernation_delay),
};

const struct ec_subsystem ec_subsys_settings = {
	.name = "settings",
	EC_SUBSYSTEM_CMDS(ec_settings_cmds),
	.boot = ec_ctl_boot,
	.advance = ec_ctl_settle,
	.host_command = ec_ctl_host_command,
};
