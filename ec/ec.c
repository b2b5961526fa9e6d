// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec.c - the simulated EC's core: lifecycle, the command table and
 * dispatcher, lazily advanced physical state, the memory map and MKBP events.
 *
 * Locking: one mutex per EC guards everything. Public entry points take it,
 * bring the state up to the clock's "now", do their work, refresh the memory
 * map from the state (so both views always agree) and then drop the lock
 * before calling any subscriber's notify callback.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cros_ec/cros_ec_dev.h"
#include "ec_internal.h"

#define NS_PER_SEC	1000000000ull
#define NS_PER_MS	1000000ull
/* Physics steps: at most this many per advance, each at least one second. */
#define EC_MAX_STEPS	4096
#define FAN_TAU_S	2.0
#define TEMP_TAU_S	20.0
#define THRESH_HYSTERESIS_K 3.0
/* Summing many small steps loses a little; a cycle is not missed for it. */
#define CYCLE_EPSILON_MAH 1e-6

/*
 * The one command table: {command, supported versions, handler}, sorted by
 * command number. GET_CMD_VERSIONS answers from here, so it cannot lie.
 */
static const struct ec_cmd_entry ec_cmd_table[] = {
	{ EC_CMD_HELLO, EC_VER_MASK(0), ec_cmd_hello },
	{ EC_CMD_GET_VERSION, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_get_version },
	{ EC_CMD_GET_BUILD_INFO, EC_VER_MASK(0), ec_cmd_get_build_info },
	{ EC_CMD_GET_CHIP_INFO, EC_VER_MASK(0), ec_cmd_get_chip_info },
	{ EC_CMD_GET_BOARD_VERSION, EC_VER_MASK(0), ec_cmd_get_board_version },
	{ EC_CMD_READ_MEMMAP, EC_VER_MASK(0), ec_cmd_read_memmap },
	{ EC_CMD_GET_CMD_VERSIONS, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_get_cmd_versions },
	{ EC_CMD_GET_COMMS_STATUS, EC_VER_MASK(0), ec_cmd_get_comms_status },
	{ EC_CMD_GET_PROTOCOL_INFO, EC_VER_MASK(0), ec_cmd_get_protocol_info },
	{ EC_CMD_GET_FEATURES, EC_VER_MASK(0), ec_cmd_get_features },
	{ EC_CMD_FLASH_INFO, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_flash_info },
	{ EC_CMD_FLASH_PROTECT, EC_VER_MASK(1), ec_cmd_flash_protect },
	{ EC_CMD_SYSINFO, EC_VER_MASK(0), ec_cmd_sysinfo },
	{ EC_CMD_PWM_SET_FAN_TARGET_RPM, EC_VER_MASK(0) | EC_VER_MASK(1),
	  ec_cmd_pwm_set_fan_target_rpm },
	{ EC_CMD_PWM_SET_FAN_DUTY, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_pwm_set_fan_duty },
	{ EC_CMD_LED_CONTROL, EC_VER_MASK(1), ec_cmd_led_control },
	{ EC_CMD_RTC_GET_VALUE, EC_VER_MASK(0), ec_cmd_rtc_get_value },
	{ EC_CMD_THERMAL_GET_THRESHOLD, EC_VER_MASK(1), ec_cmd_thermal_get_threshold },
	{ EC_CMD_THERMAL_AUTO_FAN_CTRL, EC_VER_MASK(0) | EC_VER_MASK(1),
	  ec_cmd_thermal_auto_fan_ctrl },
	{ EC_CMD_GET_NEXT_EVENT, EC_VER_MASK(0) | EC_VER_MASK(1) | EC_VER_MASK(2),
	  ec_cmd_get_next_event },
	{ EC_CMD_TEMP_SENSOR_GET_INFO, EC_VER_MASK(0), ec_cmd_temp_sensor_get_info },
	{ EC_CMD_GPIO_GET, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_gpio_get },
	{ EC_CMD_CHARGE_CONTROL, EC_VER_MASK(2), ec_cmd_charge_control },
	{ EC_CMD_CONSOLE_SNAPSHOT, EC_VER_MASK(0), ec_cmd_console_snapshot },
	{ EC_CMD_CONSOLE_READ, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_console_read },
	{ EC_CMD_POWER_INFO, EC_VER_MASK(1), ec_cmd_power_info },
	{ EC_CMD_CHARGE_STATE, EC_VER_MASK(0), ec_cmd_charge_state },
	{ EC_CMD_GET_PANIC_INFO, EC_VER_MASK(0), ec_cmd_get_panic_info },
	{ EC_CMD_RESEND_RESPONSE, EC_VER_MASK(0), ec_cmd_resend_response },
	{ EC_CMD_USB_PD_CONTROL, EC_VER_MASK(0) | EC_VER_MASK(1) | EC_VER_MASK(2),
	  ec_cmd_usb_pd_control },
	{ EC_CMD_USB_PD_PORTS, EC_VER_MASK(0), ec_cmd_usb_pd_ports },
	{ EC_CMD_USB_PD_POWER_INFO, EC_VER_MASK(0), ec_cmd_usb_pd_power_info },
	{ EC_CMD_USB_PD_MUX_INFO, EC_VER_MASK(0), ec_cmd_usb_pd_mux_info },
	{ EC_CMD_GET_UPTIME_INFO, EC_VER_MASK(0), ec_cmd_get_uptime_info },
	{ EC_CMD_TYPEC_STATUS, EC_VER_MASK(0), ec_cmd_typec_status },
	{ EC_CMD_BATTERY_GET_STATIC, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_battery_get_static },
	{ EC_CMD_BATTERY_GET_DYNAMIC, EC_VER_MASK(0), ec_cmd_battery_get_dynamic },
};

/* Commands a passthrough device (a PD MCU behind the EC) answers. */
static const uint16_t ec_passthru_cmds[] = {
	EC_CMD_HELLO, EC_CMD_GET_VERSION, EC_CMD_GET_CMD_VERSIONS, EC_CMD_GET_PROTOCOL_INFO,
};

/**
 * ec_cmd_table_entries() - the static command table, for tests and tools.
 * @count: set to the number of entries
 *
 * Return: the table (sorted by command number).
 */
const struct ec_cmd_entry *ec_cmd_table_entries(size_t *count)
{
	*count = sizeof(ec_cmd_table) / sizeof(ec_cmd_table[0]);
	return ec_cmd_table;
}

/**
 * ec_cmd_lookup() - the table entry serving @command on this board.
 * @ec:      the EC (its profile may disable commands)
 * @command: host command number without passthrough offset
 *
 * Return: the entry, or NULL when the board does not implement @command.
 */
const struct ec_cmd_entry *ec_cmd_lookup(const struct ec *ec, uint32_t command)
{
	size_t lo = 0, hi = sizeof(ec_cmd_table) / sizeof(ec_cmd_table[0]);

	if (ec_profile_cmd_disabled(&ec->prof, command))
		return NULL;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ec_cmd_table[mid].command == command)
			return &ec_cmd_table[mid];
		if (ec_cmd_table[mid].command < command)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * ec_cmd_versions() - supported-versions mask of @command (0 = unsupported),
 * passthrough offsets included.
 * @ec:      the EC
 * @command: host command number
 *
 * Return: bit n set when version n is supported.
 */
uint32_t ec_cmd_versions(const struct ec *ec, uint32_t command)
{
	const struct ec_cmd_entry *entry;
	uint32_t dev = command / EC_CMD_PASSTHRU_OFFSET(1);
	uint32_t base = command % EC_CMD_PASSTHRU_OFFSET(1);
	size_t i;

	if (command > 0xFFFF)
		return 0;
	if (dev) {
		if (!ec->prof.passthru_version[dev][0])
			return 0;
		for (i = 0; i < sizeof(ec_passthru_cmds) / sizeof(ec_passthru_cmds[0]); i++)
			if (ec_passthru_cmds[i] == base)
				return ec_cmd_table_versions(base);
		return 0;
	}
	entry = ec_cmd_lookup(ec, command);
	return entry ? entry->versions : 0;
}

/**
 * ec_cmd_table_versions() - supported-versions mask of @command in the static
 * table, ignoring any board profile.
 * @command: host command number
 *
 * Return: the mask, 0 when the table has no such command.
 */
uint32_t ec_cmd_table_versions(uint32_t command)
{
	size_t i;

	for (i = 0; i < sizeof(ec_cmd_table) / sizeof(ec_cmd_table[0]); i++)
		if (ec_cmd_table[i].command == command)
			return ec_cmd_table[i].versions;
	return 0;
}

/**
 * ec_copy_str() - copy a string into a fixed field, zero-padding the rest and
 * always NUL-terminating (fields on the wire must never carry stale bytes).
 * @dst:  destination field
 * @room: its size
 * @src:  source string
 */
void ec_copy_str(char *dst, size_t room, const char *src)
{
	size_t n;

	if (!room)
		return;
	n = strnlen(src, room - 1);
	memcpy(dst, src, n);
	memset(dst + n, 0, room - n);
}

static uint64_t ec_real_now_ns(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void ec_real_sleep_ns(void *ctx, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NS_PER_SEC),
		.tv_nsec = (long)(ns % NS_PER_SEC),
	};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static uint64_t ec_now(const struct ec *ec)
{
	return ec->clock.now_ns(ec->clock.ctx);
}

/**
 * ec_uptime_ms() - milliseconds since the EC booted, as of the last advance.
 * @ec: the EC, locked
 *
 * Return: uptime in ms.
 */
uint64_t ec_uptime_ms(const struct ec *ec)
{
	return (ec->last_ns - ec->boot_ns) / NS_PER_MS;
}

/* ---- console ---- */

static void ec_console_put(struct ec *ec, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		ec->console[ec->con_head % EC_CONSOLE_SIZE] = text[i];
		ec->con_head++;
	}
}

/**
 * ec_console_log() - append one timestamped line to the EC console, in the
 * "[seconds.micros text]" form a real EC prints.
 * @ec:  the EC, locked
 * @fmt: printf format of the text
 */
void ec_console_log(struct ec *ec, const char *fmt, ...)
{
	char line[160];
	uint64_t us = (ec->last_ns - ec->boot_ns) / 1000;
	va_list ap;
	int head, body;

	head = snprintf(line, sizeof(line), "[%llu.%06llu ",
			(unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
	va_start(ap, fmt);
	body = vsnprintf(line + head, sizeof(line) - (size_t)head - 2, fmt, ap);
	va_end(ap);
	if (body < 0)
		body = 0;
	if ((size_t)(head + body) > sizeof(line) - 3)
		body = (int)(sizeof(line) - 3) - head;
	line[head + body] = ']';
	line[head + body + 1] = '\n';
	ec_console_put(ec, line, (size_t)(head + body + 2));
}

/* ---- events ---- */

static void ec_subscriber_enqueue(struct ec_subscriber *sub, const struct ec_event *ev)
{
	struct ec_queued_event *node;
	size_t cost = 1 + ev->len;

	if (!(sub->mask & (1u << ev->type)))
		return;
	/* Like the kernel: a full queue drops the newer event, keeps the old. */
	if (sub->queued_bytes + cost > CROS_EC_MAX_EVENT_QUEUE_BYTES)
		return;
	node = malloc(sizeof(*node));
	if (!node)
		return;
	node->next = NULL;
	node->ev = *ev;
	if (sub->tail)
		sub->tail->next = node;
	else
		sub->head = node;
	sub->tail = node;
	sub->queued_bytes += cost;
	sub->notify_due = true;
}

/**
 * ec_queue_event() - queue an MKBP event for GET_NEXT_EVENT and for every
 * subscriber whose mask selects its type.
 * @ec:      the EC, locked
 * @type:    enum ec_mkbp_event
 * @payload: event data
 * @len:     bytes of @payload (at most EC_EVENT_PAYLOAD_MAX)
 */
void ec_queue_event(struct ec *ec, uint8_t type, const void *payload, size_t len)
{
	struct ec_subscriber *sub;
	struct ec_event ev = { .type = type };

	if (len > EC_EVENT_PAYLOAD_MAX)
		len = EC_EVENT_PAYLOAD_MAX;
	ev.len = (uint8_t)len;
	if (len)
		memcpy(ev.data, payload, len);

	if (ec->hq_count < EC_HOST_QUEUE_LEN) {
		ec->host_queue[(ec->hq_head + ec->hq_count) % EC_HOST_QUEUE_LEN] = ev;
		ec->hq_count++;
	}
	for (sub = ec->subs; sub; sub = sub->next)
		ec_subscriber_enqueue(sub, &ev);
}

static void ec_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/**
 * ec_raise_host_event() - set a host event bit and tell MKBP listeners.
 * @ec:    the EC, locked
 * @event: enum ec_host_event (1-based)
 */
void ec_raise_host_event(struct ec *ec, enum ec_host_event event)
{
	uint8_t payload[4];
	uint32_t mask = EC_HOST_EVENT_MASK(event);

	ec->host_events |= mask;
	ec_put_le32(payload, mask);
	ec_queue_event(ec, EC_MKBP_EVENT_HOST_EVENT, payload, sizeof(payload));
}

static void ec_raise_switches(struct ec *ec)
{
	uint8_t payload[4];

	ec_put_le32(payload, ec->lid_open ? 1u << EC_MKBP_LID_OPEN : 0);
	ec_queue_event(ec, EC_MKBP_EVENT_SWITCH, payload, sizeof(payload));
}

static void ec_raise_buttons(struct ec *ec, uint32_t buttons)
{
	uint8_t payload[4];

	ec_put_le32(payload, buttons);
	ec_queue_event(ec, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
}

/*
 * Drop the lock and call every due notify callback without it. A subscriber
 * is pinned by its "notifying" count so ec_unsubscribe() can wait for calls
 * in flight; batches keep the stack bounded without allocating.
 */
static void ec_unlock_notify(struct ec *ec)
{
	struct ec_subscriber *batch[8];
	struct ec_subscriber *sub;
	size_t n, i;

	for (;;) {
		n = 0;
		for (sub = ec->subs; sub && n < 8; sub = sub->next) {
			if (!sub->notify_due)
				continue;
			sub->notify_due = false;
			if (!sub->notify)
				continue;
			sub->notifying++;
			batch[n++] = sub;
		}
		if (!n)
			break;
		pthread_mutex_unlock(&ec->lock);
		for (i = 0; i < n; i++)
			batch[i]->notify(batch[i]->ctx);
		pthread_mutex_lock(&ec->lock);
		for (i = 0; i < n; i++)
			batch[i]->notifying--;
		pthread_cond_broadcast(&ec->notify_done);
	}
	pthread_mutex_unlock(&ec->lock);
}

/* ---- battery and thermal physics ---- */

static double ec_batt_full(const struct ec *ec)
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

	if (!ec->prof.has_battery)
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
	if (ec->ac_present && ec->chg_mode == CHARGE_CONTROL_NORMAL) {
		if (soc < limit) {
			ma = p->batt_charge_ma;
			/* Constant-voltage phase: the current tapers near full. */
			if (soc > 90.0)
				ma *= (100.0 - soc) / 10.0;
			if (ma < 50.0)
				ma = 50.0;
		} else {
			ma = 0.0;
		}
	} else if (ec->ac_present && ec->chg_mode == CHARGE_CONTROL_IDLE) {
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
static void ec_advance(struct ec *ec)
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
	m[EC_MEMMAP_ID] = 'E';
	m[EC_MEMMAP_ID + 1] = 'C';
	m[EC_MEMMAP_ID_VERSION] = 1;
	m[EC_MEMMAP_THERMAL_VERSION] = 2;
	m[EC_MEMMAP_BATTERY_VERSION] = 1;
	m[EC_MEMMAP_SWITCHES_VERSION] = 1;
	m[EC_MEMMAP_EVENTS_VERSION] = 2;
	m[EC_MEMMAP_HOST_CMD_FLAGS] = EC_HOST_CMD_FLAG_VERSION_3;
	m[EC_MEMMAP_SWITCHES] = ec->lid_open ? EC_SWITCH_LID_OPEN : 0;
	ec_memmap_put32(ec, EC_MEMMAP_HOST_EVENTS, ec->host_events);

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
static void ec_lock_advance(struct ec *ec)
{
	pthread_mutex_lock(&ec->lock);
	ec_advance(ec);
	ec_memmap_refresh(ec);
}

/* ---- lifecycle ---- */

static void ec_pd_follow_ac(struct ec *ec);

static size_t ec_room(uint16_t packet)
{
	size_t room = packet > EC_HOST_PACKET_HEADER_SIZE ?
		      (size_t)packet - EC_HOST_PACKET_HEADER_SIZE : 0;

	return room < 256 ? 256 : room;
}

/**
 * ec_create() - build a powered-on EC from a profile.
 * @profile: board description; copied
 * @clock:   time source, or NULL for real time
 * @out:     the new EC
 *
 * Return: 0, -EINVAL for a NULL argument or an unusable profile, -ENOMEM.
 */
int ec_create(const struct ec_profile *profile, const struct ec_clock *clock, struct ec **out)
{
	struct ec *ec;
	unsigned int i;

	if (!profile || !out)
		return -EINVAL;
	if (clock && !clock->now_ns)
		return -EINVAL;
	if (profile->max_request_packet < EC_PACKET_MIN ||
	    profile->max_response_packet < EC_PACKET_MIN)
		return -EINVAL;
	ec = calloc(1, sizeof(*ec));
	if (!ec)
		return -ENOMEM;
	ec->prof = *profile;
	ec->req_room = ec_room(profile->max_request_packet);
	ec->resp_room = ec_room(profile->max_response_packet);
	ec->req_buf = malloc(ec->req_room);
	ec->resp_buf = malloc(ec->resp_room);
	ec->saved_resp = malloc(ec->resp_room);
	if (!ec->req_buf || !ec->resp_buf || !ec->saved_resp)
		goto err_free;
	if (pthread_mutex_init(&ec->lock, NULL))
		goto err_free;
	if (pthread_cond_init(&ec->notify_done, NULL)) {
		pthread_mutex_destroy(&ec->lock);
		goto err_free;
	}

	if (clock) {
		ec->clock = *clock;
	} else {
		ec->clock.now_ns = ec_real_now_ns;
		ec->clock.sleep_ns = ec_real_sleep_ns;
	}
	ec->boot_ns = ec_now(ec);
	ec->last_ns = ec->boot_ns;
	ec->rtc_at_boot = (uint32_t)time(NULL);
	ec->latency_ns = profile->latency_ns;
	ec->rng = profile->fault_seed ? profile->fault_seed : 0x9E3779B97F4A7C15ull;

	ec->lid_open = profile->lid_open;
	ec->ac_present = profile->ac_present;
	ec->load_percent = profile->load_percent;
	ec->batt_mah = ec_batt_full(ec) * profile->batt_initial_percent / 100.0;
	ec->batt_cycles = profile->batt_cycle_count;
	ec->batt_level = 0;
	ec->batt_full_reported = profile->batt_initial_percent >= 100;
	ec->chg_mode = CHARGE_CONTROL_NORMAL;
	ec->sustain_lower = -1;
	ec->sustain_upper = -1;
	for (i = 0; i < profile->n_temps; i++)
		ec->temp_k[i] = profile->temps[i].ambient_k;
	for (i = 0; i < profile->n_fans; i++)
		ec->fan_auto[i] = true;
	for (i = 0; i < profile->n_leds; i++)
		ec->led_auto[i] = true;
	for (i = 0; i < profile->n_gpios; i++)
		ec->gpio_value[i] = profile->gpios[i].value;
	for (i = 0; i < profile->n_pd_ports; i++) {
		const struct ec_pd_port_profile *pp = &profile->pd_ports[i];
		struct ec_pd_port_state *ps = &ec->pd[i];

		ps->connected = pp->connected;
		ps->partner_source = pp->partner_source;
		ps->power_source = pp->connected && !pp->partner_source;
		ps->data_dfp = pp->connected && !pp->partner_source;
		ps->vconn = ps->power_source;
		ps->polarity = pp->polarity;
		ps->dp = pp->dp;
		ps->voltage_mv = pp->voltage_mv;
		ps->current_ma = pp->current_ma;
	}
	if (!ec->ac_present)
		ec_pd_follow_ac(ec);
	ec->flash_protect_flags = profile->flash_protect_flags;

	ec_console_log(ec, "--- UART initialized after reboot ---");
	ec_console_log(ec, "Board: %s, image %s", profile->board,
		       profile->current_image == EC_IMAGE_RO ? profile->version_ro :
		       profile->version_rw);
	ec_console_log(ec, "lid %s, AC %s", ec->lid_open ? "open" : "closed",
		       ec->ac_present ? "on" : "off");
	ec_memmap_refresh(ec);
	*out = ec;
	return 0;

err_free:
	free(ec->req_buf);
	free(ec->resp_buf);
	free(ec->saved_resp);
	free(ec);
	return -ENOMEM;
}

static void ec_subscriber_free(struct ec_subscriber *sub)
{
	struct ec_queued_event *node, *next;

	for (node = sub->head; node; node = next) {
		next = node->next;
		free(node);
	}
	free(sub);
}

/**
 * ec_destroy() - free an EC and every subscriber still attached.
 * @ec: the EC, or NULL
 *
 * The caller guarantees no other thread still uses @ec.
 */
void ec_destroy(struct ec *ec)
{
	struct ec_subscriber *sub, *next;

	if (!ec)
		return;
	for (sub = ec->subs; sub; sub = next) {
		next = sub->next;
		ec_subscriber_free(sub);
	}
	pthread_cond_destroy(&ec->notify_done);
	pthread_mutex_destroy(&ec->lock);
	free(ec->req_buf);
	free(ec->resp_buf);
	free(ec->saved_resp);
	free(ec);
}

/**
 * ec_memory_footprint() - heap bytes this EC owns right now (the EC itself,
 * its scratch buffers and any queued events).
 * @ec: the EC
 *
 * Return: bytes.
 */
size_t ec_memory_footprint(struct ec *ec)
{
	struct ec_subscriber *sub;
	struct ec_queued_event *node;
	size_t bytes = sizeof(*ec) + ec->req_room + 2 * ec->resp_room;

	pthread_mutex_lock(&ec->lock);
	for (sub = ec->subs; sub; sub = sub->next) {
		bytes += sizeof(*sub);
		for (node = sub->head; node; node = node->next)
			bytes += sizeof(*node);
	}
	pthread_mutex_unlock(&ec->lock);
	return bytes;
}

/**
 * ec_max_request() - largest request payload.
 * @ec: the EC
 *
 * Return: protocol max request packet minus the 8-byte header.
 */
size_t ec_max_request(const struct ec *ec)
{
	return (size_t)ec->prof.max_request_packet - EC_HOST_PACKET_HEADER_SIZE;
}

/**
 * ec_max_response() - largest response payload.
 * @ec: the EC
 *
 * Return: protocol max response packet minus the 8-byte header.
 */
size_t ec_max_response(const struct ec *ec)
{
	return (size_t)ec->prof.max_response_packet - EC_HOST_PACKET_HEADER_SIZE;
}

/* ---- host commands ---- */

static uint64_t ec_rand(struct ec *ec)
{
	/* xorshift64*: tiny, seedable, good enough to draw fault decisions. */
	ec->rng ^= ec->rng >> 12;
	ec->rng ^= ec->rng << 25;
	ec->rng ^= ec->rng >> 27;
	return ec->rng * 0x2545F4914F6CDD1Dull;
}

static bool ec_draw(struct ec *ec, uint32_t ppm)
{
	if (!ppm)
		return false;
	return (ec_rand(ec) >> 11) % EC_PPM < ppm;
}

static uint64_t ec_latency_for(const struct ec *ec, uint32_t command)
{
	unsigned int i;

	if (ec->latency_overridden)
		return ec->latency_ns;
	for (i = 0; i < ec->prof.n_latency_rules; i++)
		if (ec->prof.latency_rules[i].command == command)
			return ec->prof.latency_rules[i].ns;
	return ec->latency_ns;
}

static void ec_spend(struct ec *ec, uint64_t ns)
{
	if (ns && ec->clock.sleep_ns)
		ec->clock.sleep_ns(ec->clock.ctx, ns);
}

/*
 * What a device behind the EC (passthrough n) answers: a small EC of its
 * own with a version string from the profile and nothing else.
 */
static int ec_passthru(struct ec_cmd_args *args, uint32_t dev, uint32_t base)
{
	struct ec *ec = args->ec;
	struct ec_response_get_version *ver = (void *)args->resp;
	uint32_t mask = ec_cmd_versions(ec, base + EC_CMD_PASSTHRU_OFFSET(dev));

	if (!mask)
		return EC_RES_INVALID_COMMAND;
	if (args->version > 31 || !(mask & EC_VER_MASK(args->version)))
		return EC_RES_INVALID_VERSION;
	switch (base) {
	case EC_CMD_GET_VERSION:
		if (args->version == 0) {
			memset(ver, 0, sizeof(*ver));
			ec_copy_str(ver->version_string_ro, sizeof(ver->version_string_ro),
				    ec->prof.passthru_version[dev]);
			ec_copy_str(ver->version_string_rw, sizeof(ver->version_string_rw),
				    ec->prof.passthru_version[dev]);
			ver->current_image = EC_IMAGE_RW;
			args->resp_size = sizeof(*ver);
		} else {
			struct ec_response_get_version_v1 *v1 = (void *)args->resp;

			memset(v1, 0, sizeof(*v1));
			ec_copy_str(v1->version_string_ro, sizeof(v1->version_string_ro),
				    ec->prof.passthru_version[dev]);
			ec_copy_str(v1->version_string_rw, sizeof(v1->version_string_rw),
				    ec->prof.passthru_version[dev]);
			v1->current_image = EC_IMAGE_RW;
			args->resp_size = sizeof(*v1);
		}
		return EC_RES_SUCCESS;
	case EC_CMD_GET_CMD_VERSIONS: {
		uint32_t cmd = args->version == 0 ? args->req[0] :
			       (uint32_t)(args->req[0] | (args->req[1] << 8));
		uint32_t v = 0;
		size_t i;

		for (i = 0; i < sizeof(ec_passthru_cmds) / sizeof(ec_passthru_cmds[0]); i++)
			if (ec_passthru_cmds[i] == cmd)
				v = ec_cmd_table_versions(cmd);
		if (!v)
			return EC_RES_INVALID_PARAM;
		ec_put_le32(args->resp, v);
		args->resp_size = 4;
		return EC_RES_SUCCESS;
	}
	default:
		/* HELLO and GET_PROTOCOL_INFO behave as on the EC itself. */
		return (base == EC_CMD_HELLO ? ec_cmd_hello : ec_cmd_get_protocol_info)(args);
	}
}

static int ec_dispatch(struct ec_cmd_args *args, uint32_t command)
{
	const struct ec_cmd_entry *entry;
	uint32_t dev;

	if (command > 0xFFFF)
		return EC_RES_INVALID_COMMAND;
	dev = command / EC_CMD_PASSTHRU_OFFSET(1);
	if (dev)
		return ec_passthru(args, dev, command % EC_CMD_PASSTHRU_OFFSET(1));
	entry = ec_cmd_lookup(args->ec, command);
	if (!entry)
		return EC_RES_INVALID_COMMAND;
	if (args->version > 31 || !(entry->versions & EC_VER_MASK(args->version)))
		return EC_RES_INVALID_VERSION;
	return entry->handler(args);
}

/**
 * ec_host_command() - execute one host command, exactly as a real EC would.
 * @ec:        the EC
 * @command:   host command number (passthrough offsets included)
 * @version:   command version
 * @req:       request parameters; missing bytes read as zero
 * @req_len:   bytes in @req
 * @resp:      response buffer
 * @resp_max:  room in @resp
 * @ec_status: EC status code, always written
 *
 * A response larger than @resp_max is not truncated but refused with
 * EC_RES_RESPONSE_TOO_BIG (as the EC's host-command layer does when the
 * host's buffer is too small), except for answers that are strings by
 * nature (build info, console), which are cut to fit and NUL-terminated.
 *
 * Return: response bytes (0 when @ec_status is an error), -EMSGSIZE when
 * @req_len exceeds ec_max_request(), -EINVAL for NULL buffers with non-zero
 * sizes, -ETIMEDOUT when the profile injects a transport timeout.
 */
int ec_host_command(struct ec *ec, uint32_t command, uint32_t version,
		    const void *req, size_t req_len, void *resp, size_t resp_max,
		    uint32_t *ec_status)
{
	struct ec_cmd_args args;
	uint32_t status;
	bool fault_ok;
	int ret = 0;

	if (ec_status)
		*ec_status = EC_RES_ERROR;
	if (!ec || !ec_status || (!req && req_len) || (!resp && resp_max))
		return -EINVAL;
	if (req_len > ec_max_request(ec))
		return -EMSGSIZE;

	pthread_mutex_lock(&ec->lock);
	ec_spend(ec, ec_latency_for(ec, command));
	ec_advance(ec);
	ec_memmap_refresh(ec);

	memset(ec->req_buf, 0, ec->req_room);
	if (req_len)
		memcpy(ec->req_buf, req, req_len);
	memset(ec->resp_buf, 0, ec->resp_room);
	args = (struct ec_cmd_args){
		.ec = ec,
		.version = version,
		.req = ec->req_buf,
		.req_len = req_len,
		.resp = ec->resp_buf,
		.resp_max = resp_max < ec->resp_room ? resp_max : ec->resp_room,
	};

	/* The recovery commands stay reliable so a client can always recover. */
	fault_ok = command != EC_CMD_RESEND_RESPONSE && command != EC_CMD_GET_COMMS_STATUS;
	if (fault_ok && ec_draw(ec, ec->prof.fault_busy_ppm)) {
		status = EC_RES_BUSY;
		goto out;
	}
	if (fault_ok && ec_draw(ec, ec->prof.fault_timeout_ppm)) {
		ec_spend(ec, ec->prof.fault_timeout_ns);
		status = EC_RES_TIMEOUT;
		ret = -ETIMEDOUT;
		goto out;
	}

	status = (uint32_t)ec_dispatch(&args, command);
	if (status == EC_RES_SUCCESS && args.resp_size > args.resp_max)
		status = EC_RES_RESPONSE_TOO_BIG;

	if (fault_ok && ec_draw(ec, ec->prof.fault_in_progress_ppm)) {
		/* The work is done, but the answer waits for RESEND_RESPONSE. */
		ec->saved_valid = true;
		ec->saved_status = status;
		ec->saved_len = status == EC_RES_SUCCESS ? args.resp_size : 0;
		memcpy(ec->saved_resp, ec->resp_buf, ec->saved_len);
		status = EC_RES_IN_PROGRESS;
	}
	if (status == EC_RES_SUCCESS) {
		if (args.resp_size)
			memcpy(resp, ec->resp_buf, args.resp_size);
		ret = (int)args.resp_size;
	}
out:
	ec_memmap_refresh(ec);
	*ec_status = status;
	ec_unlock_notify(ec);
	return ret;
}

/**
 * ec_read_memmap() - READMEM: read from the 256-byte memory map.
 * @ec:     the EC
 * @offset: first byte
 * @bytes:  count (<= 255), or 0 for a NUL-terminated string
 * @buf:    at least 255 bytes
 *
 * Return: bytes read, -EINVAL for a range outside the map, -ENOTTY without
 * direct memory-map access.
 */
int ec_read_memmap(struct ec *ec, uint32_t offset, uint32_t bytes, void *buf)
{
	uint8_t *out = buf;
	int count = 0;

	if (!ec || !buf)
		return -EINVAL;
	if (!ec->prof.memmap_direct)
		return -ENOTTY;
	if (offset >= EC_MEMMAP_SIZE || bytes > 255 || bytes > EC_MEMMAP_SIZE - offset)
		return -EINVAL;

	ec_lock_advance(ec);
	if (bytes) {
		memcpy(out, &ec->memmap[offset], bytes);
		count = (int)bytes;
	} else {
		/* A string: up to and including its NUL, within map and buffer. */
		while (offset < EC_MEMMAP_SIZE && count < 255) {
			out[count] = ec->memmap[offset++];
			if (!out[count++])
				break;
		}
	}
	ec_unlock_notify(ec);
	return count;
}

static const char *ec_image_name(uint32_t image)
{
	static const char *const names[] = { "unknown", "read-only", "read-write" };

	return image < 3 ? names[image] : "invalid";
}

/**
 * ec_get_version_text() - the chardev's read() text.
 * @ec:  the EC
 * @buf: output, NUL-terminated (truncated like snprintf when short)
 * @len: size of @buf
 *
 * Return: bytes written without the NUL, or -EINVAL.
 */
int ec_get_version_text(struct ec *ec, char *buf, size_t len)
{
	int n;

	if (!ec || !buf || !len)
		return -EINVAL;
	pthread_mutex_lock(&ec->lock);
	n = snprintf(buf, len, "%s\n%s\n%s\n%s\n", CROS_EC_DEV_VERSION, ec->prof.version_ro,
		     ec->prof.version_rw, ec_image_name(ec->prof.current_image));
	pthread_mutex_unlock(&ec->lock);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= len ? (int)len - 1 : n;
}

/* ---- subscribers ---- */

/**
 * ec_subscribe() - attach an event queue.
 * @ec:     the EC
 * @notify: called (without EC lock) when an event is queued; may be NULL
 * @ctx:    passed to @notify
 * @out:    the subscriber
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int ec_subscribe(struct ec *ec, void (*notify)(void *ctx), void *ctx, struct ec_subscriber **out)
{
	struct ec_subscriber *sub;

	if (!ec || !out)
		return -EINVAL;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return -ENOMEM;
	sub->notify = notify;
	sub->ctx = ctx;
	pthread_mutex_lock(&ec->lock);
	sub->next = ec->subs;
	ec->subs = sub;
	pthread_mutex_unlock(&ec->lock);
	*out = sub;
	return 0;
}

/**
 * ec_unsubscribe() - detach and free a subscriber and its queued events.
 * @ec:  the EC
 * @sub: the subscriber (NULL is ignored)
 *
 * Waits for a notify call in flight on @sub to return, so the caller may
 * free its context afterwards. Must not be called from @sub's own notify.
 */
void ec_unsubscribe(struct ec *ec, struct ec_subscriber *sub)
{
	struct ec_subscriber **pp;

	if (!ec || !sub)
		return;
	pthread_mutex_lock(&ec->lock);
	for (pp = &ec->subs; *pp; pp = &(*pp)->next) {
		if (*pp == sub) {
			*pp = sub->next;
			break;
		}
	}
	while (sub->notifying)
		pthread_cond_wait(&ec->notify_done, &ec->lock);
	pthread_mutex_unlock(&ec->lock);
	ec_subscriber_free(sub);
}

/**
 * ec_subscriber_set_mask() - choose the MKBP event types delivered to @sub.
 * @ec:   the EC
 * @sub:  the subscriber
 * @mask: bit n = event type n; 0 = none
 */
void ec_subscriber_set_mask(struct ec *ec, struct ec_subscriber *sub, uint32_t mask)
{
	if (!ec || !sub)
		return;
	pthread_mutex_lock(&ec->lock);
	sub->mask = mask;
	pthread_mutex_unlock(&ec->lock);
}

/**
 * ec_subscriber_pop() - take the oldest queued event as "type + payload".
 * @ec:  the EC
 * @sub: the subscriber
 * @buf: output
 * @len: room in @buf; the event is truncated to it (and consumed). 0 only
 *       checks: the event stays queued, as with a zero-length read()
 *
 * Return: bytes written, -EAGAIN when the queue is empty, -EINVAL.
 */
int ec_subscriber_pop(struct ec *ec, struct ec_subscriber *sub, void *buf, size_t len)
{
	struct ec_queued_event *node;
	uint8_t *out = buf;
	size_t n = 0;

	if (!ec || !sub || (!buf && len))
		return -EINVAL;
	ec_lock_advance(ec);
	node = sub->head;
	if (!node) {
		ec_unlock_notify(ec);
		return -EAGAIN;
	}
	/* Like a zero-length read(): report availability, consume nothing. */
	if (!len) {
		ec_unlock_notify(ec);
		return 0;
	}
	sub->head = node->next;
	if (!sub->head)
		sub->tail = NULL;
	sub->queued_bytes -= 1 + node->ev.len;
	ec_unlock_notify(ec);

	out[0] = node->ev.type;
	n = (size_t)node->ev.len + 1;
	if (n > len)
		n = len;
	memcpy(out + 1, node->ev.data, n - 1);
	free(node);
	return (int)n;
}

/**
 * ec_subscriber_pending() - is an event queued for @sub?
 * @ec:  the EC
 * @sub: the subscriber
 *
 * Return: true when ec_subscriber_pop() would return an event.
 */
bool ec_subscriber_pending(struct ec *ec, struct ec_subscriber *sub)
{
	bool pending;

	if (!ec || !sub)
		return false;
	ec_lock_advance(ec);
	pending = sub->head != NULL;
	ec_unlock_notify(ec);
	return pending;
}

/* ---- stimuli ---- */

/*
 * AC arrives through the USB-C ports whose partner is a charger: plugging
 * or unplugging AC connects or disconnects those partners, so USB_PD_*,
 * TYPEC_STATUS, POWER_INFO and the battery flags tell one story.
 */
static void ec_pd_follow_ac(struct ec *ec)
{
	unsigned int i;

	for (i = 0; i < ec->prof.n_pd_ports; i++) {
		struct ec_pd_port_state *ps = &ec->pd[i];

		if (!ec->prof.pd_ports[i].partner_source)
			continue;
		ps->connected = ec->ac_present;
		ps->power_source = false;
		ps->data_dfp = false;
		ps->vconn = false;
	}
}

/**
 * ec_apply_stimulus() - change state and raise the events a real EC would.
 * @ec:   the EC
 * @stim: what happened
 *
 * Return: 0, or -EINVAL for an unknown stimulus.
 */
int ec_apply_stimulus(struct ec *ec, enum ec_stimulus stim)
{
	if (!ec)
		return -EINVAL;
	if (stim != EC_STIM_LID_OPEN && stim != EC_STIM_LID_CLOSE &&
	    stim != EC_STIM_POWER_BUTTON && stim != EC_STIM_AC_PLUG &&
	    stim != EC_STIM_AC_UNPLUG)
		return -EINVAL;

	ec_lock_advance(ec);
	switch (stim) {
	case EC_STIM_LID_OPEN:
	case EC_STIM_LID_CLOSE: {
		bool open = stim == EC_STIM_LID_OPEN;

		if (ec->lid_open == open)
			break;
		ec->lid_open = open;
		ec_console_log(ec, "lid %s", open ? "open" : "closed");
		ec_raise_switches(ec);
		ec_raise_host_event(ec, open ? EC_HOST_EVENT_LID_OPEN : EC_HOST_EVENT_LID_CLOSED);
		break;
	}
	case EC_STIM_POWER_BUTTON:
		ec_console_log(ec, "power button pressed");
		ec_raise_buttons(ec, 1u << EC_MKBP_POWER_BUTTON);
		ec_raise_host_event(ec, EC_HOST_EVENT_POWER_BUTTON);
		ec_console_log(ec, "power button released");
		ec_raise_buttons(ec, 0);
		break;
	case EC_STIM_AC_PLUG:
	case EC_STIM_AC_UNPLUG: {
		bool plug = stim == EC_STIM_AC_PLUG;

		if (ec->ac_present == plug)
			break;
		ec->ac_present = plug;
		ec_pd_follow_ac(ec);
		ec_console_log(ec, "AC %s", plug ? "on" : "off");
		ec_raise_host_event(ec, plug ? EC_HOST_EVENT_AC_CONNECTED :
				    EC_HOST_EVENT_AC_DISCONNECTED);
		break;
	}
	}
	ec_memmap_refresh(ec);
	ec_unlock_notify(ec);
	return 0;
}

/**
 * ec_inject_event() - queue a raw MKBP event.
 * @ec:      the EC
 * @type:    event type (< EC_MKBP_EVENT_COUNT)
 * @payload: up to 16 bytes
 * @len:     bytes of @payload
 *
 * Return: 0 or -EINVAL.
 */
int ec_inject_event(struct ec *ec, uint8_t type, const void *payload, size_t len)
{
	if (!ec || type >= EC_MKBP_EVENT_COUNT || len > EC_EVENT_PAYLOAD_MAX ||
	    (!payload && len))
		return -EINVAL;
	ec_lock_advance(ec);
	ec_queue_event(ec, type, payload, len);
	ec_unlock_notify(ec);
	return 0;
}

/**
 * ec_inject_panic() - record a panic-info blob for GET_PANIC_INFO.
 * @ec:   the EC
 * @blob: the bytes (NULL with @len 0 clears the record)
 * @len:  at most EC_PANIC_MAX
 *
 * Return: 0 or -EINVAL.
 */
int ec_inject_panic(struct ec *ec, const void *blob, size_t len)
{
	if (!ec || len > EC_PANIC_MAX || (!blob && len))
		return -EINVAL;
	ec_lock_advance(ec);
	if (len)
		memcpy(ec->panic, blob, len);
	ec->panic_len = len;
	if (len)
		ec_console_log(ec, "panic info recorded (%zu bytes)", len);
	ec_unlock_notify(ec);
	return 0;
}

/**
 * ec_set_latency_ns() - one latency for every host command, overriding the
 * profile's default and per-command rules.
 * @ec: the EC
 * @ns: nanoseconds spent inside each command
 */
void ec_set_latency_ns(struct ec *ec, uint64_t ns)
{
	if (!ec)
		return;
	pthread_mutex_lock(&ec->lock);
	ec->latency_ns = ns;
	ec->latency_overridden = true;
	pthread_mutex_unlock(&ec->lock);
}

/**
 * ec_set_load() - set the CPU load the temperatures and battery drain follow.
 * @ec:      the EC
 * @percent: 0..100
 *
 * Return: 0 or -EINVAL.
 */
int ec_set_load(struct ec *ec, uint32_t percent)
{
	if (!ec || percent > 100)
		return -EINVAL;
	ec_lock_advance(ec);
	ec->load_percent = percent;
	ec_unlock_notify(ec);
	return 0;
}
