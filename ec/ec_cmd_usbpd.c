// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_usbpd.c - USB Power Delivery and Type-C host commands.
 *
 * Each port is a small state record seeded from the profile: a partner is
 * either a charger (we sink) or a device (we source); roles, mux and swaps
 * requested through USB_PD_CONTROL change that record, and every read-back
 * command reports from it.
 */
#include <string.h>

#include "ec_internal.h"

/* PD revision 3.0 as TYPEC_STATUS encodes it: major, then minor, in the top nibbles. */
#define PD_REV_30	0x3000
#define DP_PIN_D	0x08

static const char *ec_pd_state_name(const struct ec_pd_port_state *ps)
{
	if (!ps->connected)
		return ps->power_source ? "SRC_DISCONNECTED" : "SNK_DISCONNECTED";
	return ps->power_source ? "SRC_READY" : "SNK_READY";
}

static uint8_t ec_pd_mux_flags(const struct ec_pd_port_state *ps)
{
	uint8_t flags = 0;
	uint8_t mode = ps->mux_mode;

	if (!ps->connected)
		return 0;
	if (mode == USB_PD_CTRL_MUX_NO_CHANGE || mode == USB_PD_CTRL_MUX_AUTO)
		mode = ps->dp ? USB_PD_CTRL_MUX_DOCK : USB_PD_CTRL_MUX_USB;
	if (mode == USB_PD_CTRL_MUX_USB || mode == USB_PD_CTRL_MUX_DOCK)
		flags |= USB_PD_MUX_USB_ENABLED;
	if (mode == USB_PD_CTRL_MUX_DP || mode == USB_PD_CTRL_MUX_DOCK)
		flags |= USB_PD_MUX_DP_ENABLED | USB_PD_MUX_HPD_LVL;
	if (ps->polarity)
		flags |= USB_PD_MUX_POLARITY_INVERTED;
	return flags;
}

static struct ec_pd_port_state *ec_pd_port(struct ec *ec, uint8_t port)
{
	return port < ec->prof.n_pd_ports ? &ec->pd[port] : NULL;
}

static void ec_pd_apply_role(struct ec_pd_port_state *ps, uint8_t role)
{
	switch (role) {
	case USB_PD_CTRL_ROLE_FORCE_SINK:
		ps->power_source = false;
		ps->frozen = false;
		break;
	case USB_PD_CTRL_ROLE_FORCE_SOURCE:
		ps->power_source = true;
		ps->frozen = false;
		break;
	case USB_PD_CTRL_ROLE_FREEZE:
		ps->frozen = true;
		break;
	case USB_PD_CTRL_ROLE_TOGGLE_ON:
	case USB_PD_CTRL_ROLE_TOGGLE_OFF:
		ps->frozen = false;
		break;
	default:
		break;
	}
}

static void ec_pd_apply_swap(struct ec_pd_port_state *ps, uint8_t swap)
{
	/* Swaps need a PD contract, i.e. a connected partner. */
	if (!ps->connected)
		return;
	if (swap == USB_PD_CTRL_SWAP_DATA)
		ps->data_dfp = !ps->data_dfp;
	else if (swap == USB_PD_CTRL_SWAP_POWER)
		ps->power_source = !ps->power_source;
	else if (swap == USB_PD_CTRL_SWAP_VCONN)
		ps->vconn = !ps->vconn;
}

/**
 * ec_cmd_usb_pd_control() - USB_PD_CONTROL v0/v1/v2 (4/35/41 bytes): apply a
 * role, mux and swap request to one port, then report its state.
 */
static int ec_cmd_usb_pd_control(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_control *p = (const void *)args->req;
	struct ec_response_usb_pd_control_v2 *r = (void *)args->resp;
	struct ec_pd_port_state *ps = ec_pd_port(args->ec, p->port);
	uint8_t enabled, role;
	bool was_source;

	if (!ps || p->role >= USB_PD_CTRL_ROLE_COUNT || p->mux >= USB_PD_CTRL_MUX_COUNT ||
	    p->swap >= USB_PD_CTRL_SWAP_COUNT)
		return EC_RES_INVALID_PARAM;
	was_source = ps->power_source;
	ec_pd_apply_role(ps, p->role);
	if (p->mux != USB_PD_CTRL_MUX_NO_CHANGE)
		ps->mux_mode = p->mux;
	ec_pd_apply_swap(ps, p->swap);
	if (ps->power_source != was_source)
		ec_pd_log_power(args->ec, p->port);

	enabled = ec_pd_suspended(args->ec, p->port) ? 0 : PD_CTRL_RESP_ENABLED_COMMS;
	if (ps->connected)
		enabled |= PD_CTRL_RESP_ENABLED_CONNECTED | PD_CTRL_RESP_ENABLED_PD_CAPABLE;
	role = (ps->power_source ? PD_CTRL_RESP_ROLE_POWER : 0) |
	       (ps->data_dfp ? PD_CTRL_RESP_ROLE_DATA : 0) |
	       (ps->vconn ? PD_CTRL_RESP_ROLE_VCONN : 0);
	if (ps->connected)
		role |= PD_CTRL_RESP_ROLE_DR_DATA | PD_CTRL_RESP_ROLE_USB_COMM |
			(ps->partner_source ? PD_CTRL_RESP_ROLE_UNCONSTRAINED : 0);

	r->enabled = enabled;
	r->role = role;
	r->polarity = ps->polarity;
	if (args->version == 0) {
		struct ec_response_usb_pd_control *r0 = (void *)args->resp;

		/* v0 carries a state number: 0 disconnected, 1 ready. */
		r0->state = ps->connected;
		args->resp_size = sizeof(*r0);
		return EC_RES_SUCCESS;
	}
	ec_copy_str(r->state, sizeof(r->state), ec_pd_state_name(ps));
	if (args->version == 1) {
		args->resp_size = sizeof(struct ec_response_usb_pd_control_v1);
		return EC_RES_SUCCESS;
	}
	r->cc_state = !ps->connected ? PD_CC_NONE :
		      ps->data_dfp ? PD_CC_UFP_ATTACHED : PD_CC_DFP_ATTACHED;
	r->dp_mode = ps->connected && ps->dp ? DP_PIN_D : 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_usb_pd_ports() - USB_PD_PORTS: the number of ports (1 byte). */
static int ec_cmd_usb_pd_ports(struct ec_cmd_args *args)
{
	struct ec_response_usb_pd_ports *r = (void *)args->resp;

	r->num_ports = (uint8_t)args->ec->prof.n_pd_ports;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_usb_pd_power_info() - USB_PD_POWER_INFO: one port's power role and
 * measurements (16 bytes); port 0xFF means "the port we charge from".
 */
static int ec_cmd_usb_pd_power_info(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_power_info *p = (const void *)args->req;
	struct ec_response_usb_pd_power_info *r = (void *)args->resp;
	struct ec *ec = args->ec;
	struct ec_pd_port_state *ps = NULL;
	unsigned int i;

	if (p->port == PD_POWER_CHARGING_PORT) {
		for (i = 0; i < ec->prof.n_pd_ports && !ps; i++)
			if (ec->pd[i].connected && !ec->pd[i].power_source)
				ps = &ec->pd[i];
		if (!ps && !ec->prof.n_pd_ports)
			return EC_RES_INVALID_PARAM;
	} else {
		ps = ec_pd_port(ec, p->port);
		if (!ps)
			return EC_RES_INVALID_PARAM;
	}
	args->resp_size = sizeof(*r);
	if (!ps || !ps->connected) {
		r->role = USB_PD_PORT_POWER_DISCONNECTED;
		r->type = USB_CHG_TYPE_NONE;
		return EC_RES_SUCCESS;
	}
	r->dualrole = 1;
	r->type = USB_CHG_TYPE_PD;
	if (ps->power_source) {
		r->role = USB_PD_PORT_POWER_SOURCE;
		r->meas.voltage_max = 5000;
		r->meas.voltage_now = 5000;
		r->meas.current_max = 1500;
		r->meas.current_lim = 1500;
	} else {
		r->role = ps->partner_source ? USB_PD_PORT_POWER_SINK :
			  USB_PD_PORT_POWER_SINK_NOT_CHARGING;
		r->meas.voltage_max = (uint16_t)ps->voltage_mv;
		r->meas.voltage_now = (uint16_t)ps->voltage_mv;
		r->meas.current_max = (uint16_t)ps->current_ma;
		r->meas.current_lim = (uint16_t)ps->current_ma;
	}
	r->max_power = (uint32_t)r->meas.voltage_max * r->meas.current_max;
	return EC_RES_SUCCESS;
}

/** ec_cmd_usb_pd_mux_info() - USB_PD_MUX_INFO: one port's mux flags (1 byte). */
static int ec_cmd_usb_pd_mux_info(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_mux_info *p = (const void *)args->req;
	struct ec_response_usb_pd_mux_info *r = (void *)args->resp;
	struct ec_pd_port_state *ps = ec_pd_port(args->ec, p->port);

	if (!ps)
		return EC_RES_INVALID_PARAM;
	r->flags = ec_pd_mux_flags(ps);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_typec_status() - TYPEC_STATUS: one port's full Type-C state (108 bytes). */
static int ec_cmd_typec_status(struct ec_cmd_args *args)
{
	const struct ec_params_typec_status *p = (const void *)args->req;
	struct ec_response_typec_status *r = (void *)args->resp;
	struct ec_pd_port_state *ps = ec_pd_port(args->ec, p->port);

	if (!ps)
		return EC_RES_INVALID_PARAM;
	r->pd_enabled = 1;
	r->dev_connected = ps->connected;
	r->sop_connected = ps->connected;
	r->power_role = ps->power_source ? PD_ROLE_SOURCE : PD_ROLE_SINK;
	r->data_role = !ps->connected ? PD_ROLE_DISCONNECTED :
		       ps->data_dfp ? PD_ROLE_DFP : PD_ROLE_UFP;
	r->vconn_role = ps->vconn ? PD_ROLE_VCONN_SRC : PD_ROLE_VCONN_OFF;
	r->polarity = ps->polarity;
	r->cc_state = !ps->connected ? PD_CC_NONE :
		      ps->data_dfp ? PD_CC_UFP_ATTACHED : PD_CC_DFP_ATTACHED;
	r->dp_pin = ps->connected && ps->dp ? DP_PIN_D : 0;
	r->mux_state = ec_pd_mux_flags(ps);
	ec_copy_str(r->tc_state, sizeof(r->tc_state),
		    !ps->connected ? "Unattached.SNK" :
		    ps->power_source ? "Attached.SRC" : "Attached.SNK");
	if (ps->connected) {
		r->sop_revision = PD_REV_30;
		if (ps->partner_source) {
			/* Fixed-supply PDO: 50 mV units at bit 10, 10 mA units at bit 0. */
			r->source_cap_count = 1;
			r->source_cap_pdos[0] = ((ps->voltage_mv / 50) << 10) |
						(ps->current_ma / 10);
		} else {
			r->sink_cap_count = 1;
			r->sink_cap_pdos[0] = (100u << 10) | 150u;
		}
	}
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_usbpd_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_USB_PD_CONTROL, EC_VER_MASK(0) | EC_VER_MASK(1) | EC_VER_MASK(2),
			ec_cmd_usb_pd_control),
	EC_HOST_COMMAND(EC_CMD_USB_PD_PORTS, EC_VER_MASK(0), ec_cmd_usb_pd_ports),
	EC_HOST_COMMAND(EC_CMD_USB_PD_POWER_INFO, EC_VER_MASK(0), ec_cmd_usb_pd_power_info),
	EC_HOST_COMMAND(EC_CMD_USB_PD_MUX_INFO, EC_VER_MASK(0), ec_cmd_usb_pd_mux_info),
	EC_HOST_COMMAND(EC_CMD_TYPEC_STATUS, EC_VER_MASK(0), ec_cmd_typec_status),
};

const struct ec_subsystem ec_subsys_usbpd = {
	.name = "usbpd",
	EC_SUBSYSTEM_CMDS(ec_usbpd_cmds),
};
