// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_state.c - the simulated EC's physical state: battery charge and cycles,
 * temperatures and fans relaxing towards their targets, advanced lazily to
 * the clock's "now", and the memory map rewritten from that state.
 */
#include <string.h>

#include "ec_internal.h"

#define NS_PER_SEC	1000000000ull

/* Physics steps: at most this many per advance, each at least one second. */
#define EC_MAX_STEPS	4096
#define FAN_TAU_S	2.0
#define TEMP_TAU_S	20.0
#define THRESH_HYSTERESIS_K 3.0
/* Summing many small steps loses a little; a cycle is not missed for it. */
#define CYCLE_EPSILON_MAH 1e-6

/* ---- battery and thermal physics ---- */

/**
 * ec_batt_full() - the battery's last full charge in mAh, never zero.
 * @ec: the EC, locked
 *
 * Return: mAh as a double (1.0 for a profile without a capacity).
 */
double ec_batt_full(const struct ec *ec)
{
	return ec->prof.batt_full_mah ? (double)ec->prof.batt_full_mah : 1.0;
}

/**
 * ec_battery_percent() - state of charge, 0..100.
 * @ec: the EC, locked
 *
 * Return: percent, 0 without a battery.
 */
uint32_t ec_battery_percent(const struct ec *ec)
{
	double pct;

	if (!ec->prof.has_battery)
		return 0;
	pct = ec->batt_mah * 100.0 / ec_batt_full(ec) + 0.5;
	return pct > 100.0 ? 100 : (uint32_t)pct;
}

/**
 * ec_battery_flags() - EC_BATT_FLAG_* as the memory map shows them.
 * @ec: the EC, locked
 *
 * Return: the flags byte.
 */
uint32_t ec_battery_flags(const struct ec *ec)
{
	uint32_t flags = ec->ac_present ? EC_BATT_FLAG_AC_PRESENT : 0;

	if (!ec->prof.has_battery || ec->sys.batt_cut_off)
		return flags;
	flags |= EC_BATT_FLAG_BATT_PRESENT;
	if (ec->batt_ma > 0.0)
		flags |= EC_BATT_FLAG_CHARGING;
	else if (ec->batt_ma < 0.0)
		flags |= EC_BATT_FLAG_DISCHARGING;
	if (ec_battery_percent(ec) <= ec->prof.batt_critical_percent)
		flags |= EC_BATT_FLAG_LEVEL_CRITICAL;
	return flags;
}

/**
 * ec_battery_voltage_mv() - present voltage: rises with the state of charge
 * around the design voltage, as a Li-ion pack does.
 * @ec: the EC, locked
 *
 * Return: millivolts, 0 without a battery.
 */
uint32_t ec_battery_voltage_mv(const struct ec *ec)
{
	double soc;

	if (!ec->prof.has_battery)
		return 0;
	soc = ec->batt_mah / ec_batt_full(ec);
	return (uint32_t)(ec->prof.batt_design_mv * (0.92 + 0.16 * soc));
}

static double ec_temp_fan_percent(const struct ec *ec, unsigned int sensor)
{
	const struct ec_temp_profile *tp = &ec->prof.temps[sensor];
	double t = ec->temp_k[sensor];

	if (!tp->fan_max_k || tp->fan_max_k <= tp->fan_off_k)
		return 0.0;
	if (t <= tp->fan_off_k)
		return 0.0;
	if (t >= tp->fan_max_k)
		return 100.0;
	return (t - tp->fan_off_k) * 100.0 / (tp->fan_max_k - tp->fan_off_k);
}

/**
 * ec_fan_duty_now() - the duty a fan is driven at right now (auto control
 * included), in percent.
 * @ec:  the EC, locked
 * @fan: fan index
 *
 * Return: 0..100.
 */
uint32_t ec_fan_duty_now(const struct ec *ec, unsigned int fan)
{
	double pct = 0.0;
	unsigned int i;

	if (ec->fan_auto[fan]) {
		for (i = 0; i < ec->prof.n_temps; i++) {
			double p = ec_temp_fan_percent(ec, i);

			if (p > pct)
				pct = p;
		}
		return (uint32_t)(pct + 0.5);
	}
	if (ec->fan_by_rpm[fan])
		return ec->prof.fan_max_rpm[fan] ?
			(uint32_t)((uint64_t)ec->fan_target_rpm[fan] * 100 /
				   ec->prof.fan_max_rpm[fan]) : 0;
	return ec->fan_duty[fan];
}

static double ec_fan_target(const struct ec *ec, unsigned int fan)
{
	double max = ec->prof.fan_max_rpm[fan];

	if (!ec->fan_auto[fan] && ec->fan_by_rpm[fan])
		return ec->fan_target_rpm[fan] < max ? ec->fan_target_rpm[fan] : max;
	return max * ec_fan_duty_now(ec, fan) / 100.0;
}

static double ec_relax(double now, double target, double dt, double tau)
{
	double k = dt / tau;

	return now + (target - now) * (k > 1.0 ? 1.0 : k);
}

static void ec_step_thermal(struct ec *ec, double dt)
{
	double fan_frac = 0.0;
	unsigned int i, t;

	for (i = 0; i < ec->prof.n_fans; i++) {
		ec->fan_rpm[i] = ec_relax(ec->fan_rpm[i], ec_fan_target(ec, i), dt, FAN_TAU_S);
		if (ec->prof.fan_max_rpm[i])
			fan_frac += ec->fan_rpm[i] / ec->prof.fan_max_rpm[i];
	}
	if (ec->prof.n_fans)
		fan_frac /= ec->prof.n_fans;

	for (i = 0; i < ec->prof.n_temps; i++) {
		const struct ec_temp_profile *tp = &ec->prof.temps[i];
		double target = tp->ambient_k + tp->load_rise_k * ec->load_percent / 100.0 -
				tp->fan_drop_k * fan_frac;
		uint8_t level = 0;

		if (target < tp->ambient_k - (double)tp->fan_drop_k)
			target = tp->ambient_k - (double)tp->fan_drop_k;
		ec->temp_k[i] = ec_relax(ec->temp_k[i], target, dt, TEMP_TAU_S);
		/* Count the thresholds exceeded, with hysteresis on the way down. */
		for (t = 0; t < EC_TEMP_THRESH_COUNT; t++) {
			double limit = tp->thresh_k[t];

			if (!tp->thresh_k[t])
				continue;
			if (t < ec->temp_level[i])
				limit -= THRESH_HYSTERESIS_K;
			if (ec->temp_k[i] >= limit)
				level = (uint8_t)(t + 1);
		}
		if (level != ec->temp_level[i]) {
			ec_console_log(ec, "thermal: sensor %s level %u -> %u", tp->name,
				       ec->temp_level[i], level);
			ec->temp_level[i] = level;
			ec_raise_host_event(ec, EC_HOST_EVENT_THERMAL_THRESHOLD);
		}
	}
}

/**
 * ec_lid_reported() - the lid as the EC reports it: open, or forced open.
 * @ec: the EC, locked
 *
 * Return: true when the EC says the lid is open.
 */
bool ec_lid_reported(const struct ec *ec)
{
	return ec->lid_open || ec->ctl.force_lid_open;
}

/**
 * ec_charge_current_max() - the most the charger may push into the
 * battery: the profile's charge current, under CHARGE_CURRENT_LIMIT and
 * under what EXTERNAL_POWER_LIMIT leaves of the adapter's power.
 * @ec: the EC, locked
 *
 * Return: mA, 0 when the limits allow no charging.
 */
double ec_charge_current_max(const struct ec *ec)
{
	const struct ec_ctl_state *c = &ec->ctl;
	double ma = ec->prof.batt_charge_ma;

	if (c->charge_limit_ma < ma)
		ma = c->charge_limit_ma;
	if (c->ext_current_ma != EC_POWER_LIMIT_NONE || c->ext_voltage_mv != EC_POWER_LIMIT_NONE) {
		/* The input's power, turned into battery current at its voltage. */
		double in_ma = c->ext_current_ma != EC_POWER_LIMIT_NONE ? c->ext_current_ma :
			       ec->prof.adapter_watts * 1000.0 / 20.0;
		double in_mv = c->ext_voltage_mv != EC_POWER_LIMIT_NONE ? c->ext_voltage_mv : 20000;
		double batt_mv = ec_battery_voltage_mv(ec);
		double cap = batt_mv > 0 ? in_ma * in_mv / batt_mv : 0;

		if (cap < ma)
			ma = cap;
	}
	return ma;
}

/**
 * ec_battery_cutoff_settle() - a cut-off pack wakes when AC comes back.
 * @ec: the EC, locked, before the battery steps
 *
 * Return: true while the battery stays cut off.
 */
bool ec_battery_cutoff_settle(struct ec *ec)
{
	if (!ec->sys.batt_cut_off)
		return false;
	if (!ec->ac_present) {
		ec->ctl.cutoff_saw_unplug = true;
		return true;
	}
	if (!ec->ctl.cutoff_saw_unplug)
		return true;
	ec->sys.batt_cut_off = false;
	ec_console_log(ec, "battery woken by AC");
	return false;
}

/**
 * ec_pd_charge_allowed() - may the charger draw from the adapter? Not
 * after PD_CHARGE_PORT_OVERRIDE DONT_CHARGE: the board then runs from its
 * battery with the adapter attached.
 * @ec: the EC, locked
 *
 * Return: false while charging is overridden off.
 */
bool ec_pd_charge_allowed(const struct ec *ec)
{
	return ec->pdc.override_port != OVERRIDE_DONT_CHARGE;
}

static void ec_step_battery(struct ec *ec, double dt)
{
	const struct ec_profile *p = &ec->prof;
	double full = ec_batt_full(ec);
	double soc = ec->batt_mah / full * 100.0;
	double limit = ec->sustain_upper >= 0 ? ec->sustain_upper : 100.0;
	double ma, before;
	uint32_t pct;
	uint8_t level;

	if (!p->has_battery)
		return;
	if (ec_battery_cutoff_settle(ec)) {
		ec->batt_ma = 0.0;	/* in ship mode: no current either way */
		return;
	}
	if (ec->ac_present && ec_pd_charge_allowed(ec) && ec->chg_mode == CHARGE_CONTROL_NORMAL) {
		if (soc < limit) {
			double cap = ec_charge_current_max(ec);

			ma = cap;
			/* Constant-voltage phase: the current tapers near full. */
			if (soc > 90.0)
				ma *= (100.0 - soc) / 10.0;
			if (ma < 50.0)
				ma = cap < 50.0 ? cap : 50.0;
		} else {
			ma = 0.0;
		}
	} else if (ec->ac_present && ec_pd_charge_allowed(ec) &&
		   ec->chg_mode == CHARGE_CONTROL_IDLE) {
		ma = 0.0;
	} else {
		ma = -(double)(p->batt_idle_ma + (uint64_t)p->batt_load_ma * ec->load_percent / 100);
	}

	before = ec->batt_mah;
	ec->batt_mah += ma * dt / 3600.0;
	if (ec->batt_mah >= full) {
		ec->batt_mah = full;
		if (ma > 0.0)
			ma = 0.0;
	}
	if (ec->batt_mah <= 0.0) {
		ec->batt_mah = 0.0;
		if (ma < 0.0)
			ma = 0.0;
	}
	ec->batt_ma = ma;

	/* One cycle per design capacity's worth of charge actually drawn. */
	if (ec->batt_mah < before)
		ec->batt_discharged_mah += before - ec->batt_mah;
	while (p->batt_design_mah &&
	       ec->batt_discharged_mah >= p->batt_design_mah - CYCLE_EPSILON_MAH) {
		ec->batt_discharged_mah -= p->batt_design_mah;
		ec->batt_cycles++;
	}

	pct = ec_battery_percent(ec);
	level = pct <= p->batt_critical_percent ? 2 : pct <= p->batt_low_percent ? 1 : 0;
	if (level > ec->batt_level) {
		ec_console_log(ec, "battery: %u%% %s", pct, level == 2 ? "critical" : "low");
		ec_raise_host_event(ec, level == 2 ? EC_HOST_EVENT_BATTERY_CRITICAL :
				    EC_HOST_EVENT_BATTERY_LOW);
	}
	ec->batt_level = level;
	if (pct == 100 && !ec->batt_full_reported) {
		ec->batt_full_reported = true;
		ec_console_log(ec, "battery: full");
		ec_raise_host_event(ec, EC_HOST_EVENT_BATTERY);
	} else if (pct < 95) {
		ec->batt_full_reported = false;
	}
}

/*
 * Bring the state up to the clock's now, in steps of at least a second so a
 * long idle period costs at most EC_MAX_STEPS iterations.
 */
void ec_advance(struct ec *ec)
{
	uint64_t now = ec_now(ec);
	uint64_t dt, step;

	if (now <= ec->last_ns)
		return;
	dt = now - ec->last_ns;
	step = dt / EC_MAX_STEPS;
	if (step < NS_PER_SEC)
		step = NS_PER_SEC;
	while (dt) {
		uint64_t this_step = dt < step ? dt : step;

		ec->last_ns += this_step;
		ec_step_battery(ec, (double)this_step / NS_PER_SEC);
		ec_step_thermal(ec, (double)this_step / NS_PER_SEC);
		dt -= this_step;
	}
	ec_subsystems_advance(ec);
}

/* ---- memory map ---- */

static void ec_memmap_put32(struct ec *ec, unsigned int off, uint32_t v)
{
	ec_put_le32(&ec->memmap[off], v);
}

static uint8_t ec_temp_byte(const struct ec *ec, unsigned int i)
{
	long k;

	if (i >= ec->prof.n_temps)
		return EC_TEMP_SENSOR_NOT_PRESENT;
	k = (long)(ec->temp_k[i] + 0.5) - EC_TEMP_SENSOR_OFFSET;
	if (k < 0)
		k = 0;
	if (k > EC_TEMP_SENSOR_NOT_CALIBRATED - 1)
		k = EC_TEMP_SENSOR_NOT_CALIBRATED - 1;
	return (uint8_t)k;
}

/**
 * ec_memmap_refresh() - rewrite the whole memory map from the state, so a
 * READMEM and the host commands can never disagree.
 * @ec: the EC, locked
 */
void ec_memmap_refresh(struct ec *ec)
{
	const struct ec_profile *p = &ec->prof;
	uint8_t *m = ec->memmap;
	unsigned int i;

	memset(m, 0, EC_MEMMAP_SIZE);
	m[EC_MEMMAP_ID] = 'E';
	m[EC_MEMMAP_ID + 1] = 'C';
	m[EC_MEMMAP_ID_VERSION] = 1;
	m[EC_MEMMAP_HOST_CMD_FLAGS] = EC_HOST_CMD_FLAG_VERSION_3;
	/*
	 * The rest is the main EC's: a fingerprint MCU has no sensors, fans,
	 * switches or battery to show, and READ_MEMMAP reads zeros there.
	 */
	if (p->kind != EC_KIND_EC)
		return;
	for (i = 0; i < EC_TEMP_SENSOR_ENTRIES; i++)
		m[EC_MEMMAP_TEMP_SENSOR + i] = ec_temp_byte(ec, i);
	for (i = 0; i < EC_TEMP_SENSOR_B_ENTRIES; i++)
		m[EC_MEMMAP_TEMP_SENSOR_B + i] = ec_temp_byte(ec, EC_TEMP_SENSOR_ENTRIES + i);
	for (i = 0; i < EC_FAN_SPEED_ENTRIES; i++) {
		uint32_t rpm = EC_FAN_SPEED_NOT_PRESENT;

		if (i < p->n_fans) {
			rpm = (uint32_t)(ec->fan_rpm[i] + 0.5);
			if (rpm >= EC_FAN_SPEED_STALLED_DEPRECATED)
				rpm = EC_FAN_SPEED_STALLED_DEPRECATED - 1;
		}
		m[EC_MEMMAP_FAN + 2 * i] = (uint8_t)rpm;
		m[EC_MEMMAP_FAN + 2 * i + 1] = (uint8_t)(rpm >> 8);
	}
	m[EC_MEMMAP_THERMAL_VERSION] = 2;
	m[EC_MEMMAP_BATTERY_VERSION] = 1;
	m[EC_MEMMAP_SWITCHES_VERSION] = 1;
	m[EC_MEMMAP_EVENTS_VERSION] = 2;
	m[EC_MEMMAP_SWITCHES] = (ec_lid_reported(ec) ? EC_SWITCH_LID_OPEN : 0) |
				(ec->wp_asserted ? 0 : EC_SWITCH_WRITE_PROTECT_DISABLED);
	ec_memmap_put32(ec, EC_MEMMAP_HOST_EVENTS, (uint32_t)ec->host_events);
	ec_memmap_put32(ec, EC_MEMMAP_HOST_EVENTS + 4, (uint32_t)(ec->host_events >> 32));
	ec_subsystems_memmap(ec, m);

	m[EC_MEMMAP_BATT_FLAG] = (uint8_t)ec_battery_flags(ec);
	if (!p->has_battery)
		return;
	ec_memmap_put32(ec, EC_MEMMAP_BATT_VOLT, ec_battery_voltage_mv(ec));
	ec_memmap_put32(ec, EC_MEMMAP_BATT_RATE,
			(uint32_t)(ec->batt_ma < 0 ? -ec->batt_ma + 0.5 : ec->batt_ma + 0.5));
	ec_memmap_put32(ec, EC_MEMMAP_BATT_CAP, (uint32_t)(ec->batt_mah + 0.5));
	m[EC_MEMMAP_BATT_COUNT] = 1;
	m[EC_MEMMAP_BATT_INDEX] = 0;
	ec_memmap_put32(ec, EC_MEMMAP_BATT_DCAP, p->batt_design_mah);
	ec_memmap_put32(ec, EC_MEMMAP_BATT_DVLT, p->batt_design_mv);
	ec_memmap_put32(ec, EC_MEMMAP_BATT_LFCC, p->batt_full_mah);
	ec_memmap_put32(ec, EC_MEMMAP_BATT_CCNT, ec->batt_cycles);
	ec_copy_str((char *)&m[EC_MEMMAP_BATT_MFGR], EC_MEMMAP_TEXT_MAX, p->batt_manufacturer);
	ec_copy_str((char *)&m[EC_MEMMAP_BATT_MODEL], EC_MEMMAP_TEXT_MAX, p->batt_model);
	ec_copy_str((char *)&m[EC_MEMMAP_BATT_SERIAL], EC_MEMMAP_TEXT_MAX, p->batt_serial);
	ec_copy_str((char *)&m[EC_MEMMAP_BATT_TYPE], EC_MEMMAP_TEXT_MAX, p->batt_type);
}

/* Lock and bring everything up to date: the prologue of every entry point. */
void ec_lock_advance(struct ec *ec)
{
	pthread_mutex_lock(&ec->lock);
	ec_advance(ec);
	ec_memmap_refresh(ec);
}

/* ---- the write-protect line and the boot ---- */

/* With WP asserted the at-boot protection takes hold at once. */
void ec_flash_protect_follow(struct ec *ec)
{
	uint32_t *f = &ec->flash_protect_flags;

	if (!ec->wp_asserted)
		return;
	if (*f & EC_FLASH_PROTECT_RO_AT_BOOT)
		*f |= EC_FLASH_PROTECT_RO_NOW;
	if (*f & EC_FLASH_PROTECT_RW_AT_BOOT)
		*f |= EC_FLASH_PROTECT_RW_NOW;
	if ((*f & EC_FLASH_PROTECT_ALL_NOW) && !(*f & EC_FLASH_PROTECT_RO_AT_BOOT))
		*f &= ~EC_FLASH_PROTECT_ALL_NOW;
}

/**
 * ec_wp_apply() - set the hardware write-protect line and everything that
 * shows it: FLASH_PROTECT's GPIO_ASSERTED, the EC_WP_L GPIO (active low)
 * and, through ec_memmap_refresh(), the switches byte. Deasserting drops the
 * "now" protection, as the reboot that follows a WP change on a real
 * Chromebook would; asserting applies the at-boot flags.
 * @ec:       the EC, locked
 * @asserted: the new state of the line
 */
void ec_wp_apply(struct ec *ec, bool asserted)
{
	unsigned int i;

	ec->wp_asserted = asserted;
	if (asserted) {
		ec->flash_protect_flags |= EC_FLASH_PROTECT_GPIO_ASSERTED;
	} else {
		ec->flash_protect_flags &= ~(EC_FLASH_PROTECT_GPIO_ASSERTED |
					     EC_FLASH_PROTECT_RO_NOW | EC_FLASH_PROTECT_RW_NOW |
					     EC_FLASH_PROTECT_ALL_NOW);
	}
	ec_flash_protect_follow(ec);
	for (i = 0; i < ec->prof.n_gpios; i++)
		if (!strcmp(ec->prof.gpios[i].name, "EC_WP_L"))
			ec->gpio_value[i] = asserted ? 0 : 1;
}

/**
 * ec_boot() - what the EC sets up at every boot: charge and fan control,
 * LEDs, events, keyboard, alarm, port-80 history, I2C protection, the
 * background RW hash, and the reset flags that say why it booted.
 * @ec:          the EC, locked (or being created)
 * @reset_flags: EC_RESET_FLAG_* of this boot
 */
void ec_boot(struct ec *ec, uint32_t reset_flags)
{
	const struct ec_profile *prof = &ec->prof;
	unsigned int i;

	ec->boot_ns = ec->last_ns;
	if (!ec->sys.resets)
		ec->sys.boot_image = prof->current_image;
	ec->chg_mode = CHARGE_CONTROL_NORMAL;
	ec->sustain_lower = -1;
	ec->sustain_upper = -1;
	for (i = 0; i < prof->n_fans; i++) {
		ec->fan_auto[i] = true;
		ec->fan_by_rpm[i] = false;
		ec->fan_duty[i] = 0;
		ec->fan_target_rpm[i] = 0;
	}
	for (i = 0; i < prof->n_leds; i++) {
		ec->led_auto[i] = true;
		memset(ec->led_brightness[i], 0, sizeof(ec->led_brightness[i]));
	}
	for (i = 0; i < prof->n_gpios; i++)
		if (prof->gpios[i].output)
			ec->gpio_value[i] = prof->gpios[i].value;
	for (i = 0; i < prof->n_pd_ports; i++) {
		ec->pd[i].frozen = false;
		ec->pd[i].mux_mode = 0;
	}
	/* The "now" protection is RAM; at-boot flags in flash apply again. */
	ec->flash_protect_flags &= ~(EC_FLASH_PROTECT_RO_NOW | EC_FLASH_PROTECT_RW_NOW |
				     EC_FLASH_PROTECT_ALL_NOW);
	ec_wp_apply(ec, ec->wp_asserted);

	ec->host_events = 0;
	ec->hq_head = 0;
	ec->hq_count = 0;
	ec->saved_valid = false;
	ec->sys.jump_disabled = false;
	ec->sys.pending_reboot = 0;
	ec->sys.pending_flags = 0;
	ec->sys.reset_flags = reset_flags;
	/* Each subsystem sets up its own part (struct ec_subsystem.boot). */
	ec_subsystems_boot(ec);

	ec_console_log(ec, "--- UART initialized after reboot ---");
	ec_console_log(ec, "Board: %s, image %s, reset flags 0x%x", prof->board,
		       prof->current_image == EC_IMAGE_RO ? prof->version_ro : prof->version_rw,
		       reset_flags);
	/* A fingerprint MCU has no lid switch and no charger to report. */
	if (prof->kind == EC_KIND_EC)
		ec_console_log(ec, "lid %s, AC %s", ec->lid_open ? "open" : "closed",
			       ec->ac_present ? "on" : "off");
}

/**
 * ec_system_locked() - the system is locked: RO is protected now (what
 * SYSINFO reports, and what keeps a fingerprint MCU's raw frames in).
 * @ec: the EC, locked
 *
 * Return: true when locked.
 */
bool ec_system_locked(const struct ec *ec)
{
	return ec->flash_protect_flags & EC_FLASH_PROTECT_RO_NOW;
}
