// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_events.c - what the simulated EC tells the host on its own: the console
 * ring, host events, and the stimuli (lid, power button, AC) that raise
 * them. Delivery to listeners is ec_notifier.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/cros_ec_dev.h"
#include "ec_internal.h"

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

/**
 * ec_raise_host_event() - set a host event bit and tell MKBP listeners.
 * @ec:    the EC, locked
 * @event: enum ec_host_event (1-based)
 */
void ec_raise_host_event(struct ec *ec, enum ec_host_event event)
{
	uint8_t payload[4];
	uint64_t mask = EC_HOST_EVENT_MASK(event);

	ec->host_events |= mask;
	ec->hostev.events_b |= mask;
	ec_put_le32(payload, (uint32_t)mask);
	ec_queue_event(ec, EC_MKBP_EVENT_HOST_EVENT, payload, sizeof(payload));
}

/* The tablet-mode switch exists where motion sensors give a lid angle. */
uint32_t ec_mkbp_switches_supported(const struct ec_profile *prof)
{
	uint32_t sw = 1u << EC_MKBP_LID_OPEN;

	if (prof->n_motion)
		sw |= 1u << EC_MKBP_TABLET_MODE;
	return sw;
}

/* What the EC reports: the lid switch, and tablet mode as ec_cmd_motion.c decided it. */
uint32_t ec_mkbp_switches(const struct ec *ec)
{
	return (ec_lid_reported(ec) ? 1u << EC_MKBP_LID_OPEN : 0) |
	       (ec->motion.tablet ? 1u << EC_MKBP_TABLET_MODE : 0);
}

static void ec_raise_switches(struct ec *ec)
{
	uint8_t payload[4];

	ec_put_le32(payload, ec_mkbp_switches(ec));
	ec_queue_event(ec, EC_MKBP_EVENT_SWITCH, payload, sizeof(payload));
}

static void ec_raise_buttons(struct ec *ec, uint32_t buttons)
{
	uint8_t payload[4];

	ec_put_le32(payload, buttons);
	ec_queue_event(ec, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
}

/* ---- stimuli ---- */

/**
 * ec_pd_log_add() - append one record to the PD event log, dropping the
 * oldest when the ring is full.
 * @ec:      the EC, locked
 * @type:    PD_EVENT_*
 * @port:    the port it concerns
 * @data:    the record's 16-bit data
 * @payload: @size bytes of payload, or NULL
 * @size:    payload bytes (at most 8)
 */
void ec_pd_log_add(struct ec *ec, uint8_t type, unsigned int port, uint16_t data,
		   const void *payload, uint8_t size)
{
	struct ec_pd_ctl_state *pc = &ec->pdc;
	struct ec_pd_log_entry *e;

	if (pc->log_count == EC_PD_LOG_LEN) {	/* full: the oldest goes */
		pc->log_head = (pc->log_head + 1) % EC_PD_LOG_LEN;
		pc->log_count--;
	}
	e = &pc->log[(pc->log_head + pc->log_count) % EC_PD_LOG_LEN];
	pc->log_count++;
	memset(e, 0, sizeof(*e));
	e->ns = ec->last_ns;
	e->type = type;
	e->port = (uint8_t)port;
	e->data = data;
	e->size = size;
	if (size)
		memcpy(e->payload, payload, size);
}

/**
 * ec_pd_log_power() - log a port's power state (PD_EVENT_MCU_CHARGE): its
 * role, charger type and the measures, as the firmware's charge manager.
 * @ec:   the EC, locked
 * @port: the port
 */
void ec_pd_log_power(struct ec *ec, unsigned int port)
{
	const struct ec_pd_port_state *ps = &ec->pd[port];
	struct usb_chg_measures m = { 0 };
	uint16_t role = USB_PD_PORT_POWER_DISCONNECTED, type = USB_CHG_TYPE_NONE;

	if (ps->connected) {
		type = USB_CHG_TYPE_PD;
		if (ps->power_source) {
			role = USB_PD_PORT_POWER_SOURCE;
			m.voltage_max = m.voltage_now = 5000;
			m.current_max = m.current_lim = 1500;
		} else {
			role = ps->partner_source ? USB_PD_PORT_POWER_SINK :
			       USB_PD_PORT_POWER_SINK_NOT_CHARGING;
			m.voltage_max = m.voltage_now = (uint16_t)ps->voltage_mv;
			m.current_max = m.current_lim = (uint16_t)ps->current_ma;
		}
	}
	ec_pd_log_add(ec, PD_EVENT_MCU_CHARGE, port,
		      (uint16_t)(role | type << CHARGE_FLAGS_TYPE_SHIFT |
				 (ps->connected ? CHARGE_FLAGS_DUAL_ROLE : 0) |
				 (ec->pdc.override_port == (int16_t)port ? CHARGE_FLAGS_OVERRIDE :
				  0)),
		      &m, sizeof(m));
}

/**
 * ec_pd_log_attach() - a partner came or went on @port: a new connection
 * is logged, then the port's power state.
 * @ec:   the EC, locked
 * @port: the port
 */
void ec_pd_log_attach(struct ec *ec, unsigned int port)
{
	if (ec->pd[port].connected)
		ec_pd_log_add(ec, PD_EVENT_MCU_CONNECT, port, 0, NULL, 0);
	ec_pd_log_power(ec, port);
}

/*
 * AC arrives through the USB-C ports whose partner is a charger: plugging
 * or unplugging AC connects or disconnects those partners, so USB_PD_*,
 * TYPEC_STATUS, POWER_INFO and the battery flags tell one story.
 */
void ec_pd_follow_ac(struct ec *ec)
{
	unsigned int i;

	for (i = 0; i < ec->prof.n_pd_ports; i++) {
		struct ec_pd_port_state *ps = &ec->pd[i];

		if (!ec->prof.pd_ports[i].partner_source || ps->connected == ec->ac_present)
			continue;
		ps->connected = ec->ac_present;
		ps->power_source = false;
		ps->data_dfp = false;
		ps->vconn = false;
		ec_pd_log_attach(ec, i);
	}
}

static const char *const ec_stimulus_names[EC_STIM_COUNT] = {
#define EC_STIM_NAME(id, name) [EC_STIM_##id] = name,
	EC_STIMULI(EC_STIM_NAME)
#undef EC_STIM_NAME
};

const char *ec_stimulus_name(enum ec_stimulus stim)
{
	return (unsigned int)stim < EC_STIM_COUNT ? ec_stimulus_names[stim] : NULL;
}

int ec_stimulus_parse(const char *name, enum ec_stimulus *out)
{
	unsigned int i;

	for (i = 0; name && i < EC_STIM_COUNT; i++) {
		if (!strcmp(name, ec_stimulus_names[i])) {
			*out = (enum ec_stimulus)i;
			return 0;
		}
	}
	return -EINVAL;
}

int ec_apply_stimulus(struct ec *ec, enum ec_stimulus stim)
{
	if (!ec)
		return -EINVAL;
	if ((unsigned int)stim >= EC_STIM_COUNT)
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
		if (ec->ctl.force_lid_open)
			break;	/* FORCE_LID_OPEN: the EC reports no change */
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
	case EC_STIM_WP_ASSERT:
	case EC_STIM_WP_DEASSERT:
		ec_wp_apply(ec, stim == EC_STIM_WP_ASSERT);
		ec_console_log(ec, "write protect %s", ec->wp_asserted ? "asserted" : "deasserted");
		break;
	default:		/* a subsystem's own (below) */
		break;
	}
	ec_subsystems_stimulus(ec, stim);
	ec_memmap_refresh(ec);
	ec_unlock_notify(ec);
	return 0;
}

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

void ec_set_latency_ns(struct ec *ec, uint64_t ns)
{
	if (!ec)
		return;
	pthread_mutex_lock(&ec->lock);
	ec->latency_ns = ns;
	ec->latency_overridden = true;
	pthread_mutex_unlock(&ec->lock);
}

int ec_set_load(struct ec *ec, uint32_t percent)
{
	if (!ec || percent > 100)
		return -EINVAL;
	ec_lock_advance(ec);
	ec->load_percent = percent;
	ec_unlock_notify(ec);
	return 0;
}
