// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_pd.c - the USB-PD and Type-C commands beyond the port state of
 * ec_cmd_usbpd.c: alternate modes, the PD event log, the TCPCs' identity,
 * discovery, AP-driven Type-C control, the mux, PD chip control and the
 * charge port override.
 *
 * Everything answers from the ports' live state (struct ec_pd_port_state):
 * a partner's discovery identity follows what is attached, entering or
 * leaving DisplayPort mode changes the mux that USB_PD_MUX_INFO and
 * TYPEC_STATUS report, and every attach, detach, power-role change and DP
 * mode change lands in the log PD_GET_LOG_ENTRY reads.
 */
#include <string.h>

#include "ec_internal.h"

#define NS_PER_US		1000ull
/* Discover Identity: ID header fields (USB PD 3.0). */
#define IDH_USB_DEVICE		(1u << 30)
#define IDH_MODAL		(1u << 26)
#define IDH_PTYPE_SHIFT		27
#define IDH_PTYPE_PERIPH	2
#define IDH_PTYPE_PSD		3
#define PRODUCT_BCD_DEVICE	0x0100
/* DP mode VDO: UFP_D capable, DP 1.3 signalling, receptacle, pins C and D. */
#define DP_MODE_VDO		(0x1u | 0x1u << 2 | 0x1u << 6 | 0x0Cu << 16)

static struct ec_pd_port_state *ec_pd_port_get(struct ec *ec, uint8_t port)
{
	return port < ec->prof.n_pd_ports ? &ec->pd[port] : NULL;
}

/* The partner offers DisplayPort: a DP sink (the profile's dp key). */
static bool ec_pd_partner_has_dp(const struct ec *ec, unsigned int port)
{
	return ec->pd[port].connected && ec->prof.pd_ports[port].dp &&
	       !ec->pd[port].partner_source;
}

/**
 * ec_pd_boot() - the PD side of an EC boot: no override, chips resumed, an
 * empty log that then records the partners found attached.
 * @ec: the EC, locked (or being created)
 */
static void ec_pd_boot(struct ec *ec)
{
	unsigned int i;

	memset(&ec->pdc, 0, sizeof(ec->pdc));
	ec->pdc.override_port = OVERRIDE_OFF;
	for (i = 0; i < ec->prof.n_pd_ports; i++)
		if (ec->pd[i].connected)
			ec_pd_log_attach(ec, i);
}

static void ec_pd_set_dp(struct ec *ec, unsigned int port, bool on)
{
	struct ec_pd_port_state *ps = &ec->pd[port];

	if (ps->dp == on)
		return;
	ps->dp = on;
	ps->mux_mode = USB_PD_CTRL_MUX_AUTO;
	ec_pd_log_add(ec, PD_EVENT_VIDEO_DP_MODE, port, on ? 1 : 0, NULL, 0);
	ec_console_log(ec, "C%u: DP mode %s", port, on ? "entered" : "exited");
}

/* The product type of the partner's ID header: a DP sink is a peripheral. */
static uint32_t ec_pd_partner_ptype(const struct ec *ec, unsigned int port)
{
	return ec_pd_partner_has_dp(ec, port) ? IDH_PTYPE_PERIPH : IDH_PTYPE_PSD;
}

/**
 * ec_cmd_usb_pd_discovery() - USB_PD_DISCOVERY: the partner's VID, its
 * product type and (with a VID) its PID, from the same identity
 * TYPEC_DISCOVERY shows; zeros with nothing attached (ectool infopddev:
 * "has no discovered device"). A port past the board's or an empty
 * request is INVALID_PARAM.
 */
static int ec_cmd_usb_pd_discovery(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_info_request *p = (const void *)args->req;
	struct ec_params_usb_pd_discovery_entry *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(ec, p->port))
		return EC_RES_INVALID_PARAM;
	args->resp_size = sizeof(*r);
	if (!ec->pd[p->port].connected)
		return EC_RES_SUCCESS;
	r->vid = (uint16_t)ec->prof.pd_ports[p->port].partner_vid;
	r->ptype = (uint8_t)ec_pd_partner_ptype(ec, p->port);
	if (r->vid)
		r->pid = (uint16_t)ec->prof.pd_ports[p->port].partner_pid;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_usb_pd_get_amode() - USB_PD_GET_AMODE: the partner's SVID number
 * @svid_idx with its mode VDOs and the mode entered (opos, 0 = none). Past
 * the last SVID the answer is just a zero SVID (2 bytes), as in the
 * firmware; a port past the board's is INVALID_PARAM.
 */
static int ec_cmd_usb_pd_get_amode(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_get_mode_request *p = (const void *)args->req;
	struct ec_params_usb_pd_get_mode_response *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(ec, p->port))
		return EC_RES_INVALID_PARAM;
	if (p->svid_idx || !ec_pd_partner_has_dp(ec, p->port)) {
		r->svid = 0;
		args->resp_size = sizeof(r->svid);
		return EC_RES_SUCCESS;
	}
	r->svid = USB_SID_DISPLAYPORT;
	r->opos = ec->pd[p->port].dp ? 1 : 0;
	r->vdo[0] = DP_MODE_VDO;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_usb_pd_set_amode() - USB_PD_SET_AMODE: enter or exit the
 * partner's DisplayPort mode (SVID 0xff01, object position 1). An SVID or
 * position the partner does not offer, an unknown command or port is
 * INVALID_PARAM.
 */
static int ec_cmd_usb_pd_set_amode(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_set_mode_request *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(ec, p->port) ||
	    p->cmd >= PD_MODE_CMD_COUNT)
		return EC_RES_INVALID_PARAM;
	if (p->svid != USB_SID_DISPLAYPORT || p->opos != 1 ||
	    !ec_pd_partner_has_dp(ec, p->port))
		return EC_RES_INVALID_PARAM;
	ec_pd_set_dp(ec, p->port, p->cmd == PD_ENTER_MODE);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_pd_write_log_entry() - PD_WRITE_LOG_ENTRY v0: the host adds a
 * record: MCU_CHARGE logs the port's power as the charge manager does, the
 * other MCU types just type and port. A type from PD_EVENT_ACC_BASE up, a
 * port past the board's (port 0 is always taken: events of no port), or
 * a request shorter than 2 bytes is INVALID_PARAM.
 */
static int ec_cmd_pd_write_log_entry(struct ec_cmd_args *args)
{
	const struct ec_params_pd_write_log_entry *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || p->type >= PD_EVENT_ACC_BASE ||
	    (p->port > 0 && p->port >= ec->prof.n_pd_ports))
		return EC_RES_INVALID_PARAM;
	if (p->type == PD_EVENT_MCU_CHARGE)
		ec_pd_log_power(ec, p->port);
	else
		ec_pd_log_add(ec, p->type, p->port, 0, NULL, 0);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_pd_get_log_entry() - PD_GET_LOG_ENTRY: read and delete the oldest
 * entry (its age in 1024 us units, type, port, data, payload); an empty log
 * answers one NO_ENTRY record.
 */
static int ec_cmd_pd_get_log_entry(struct ec_cmd_args *args)
{
	struct ec_response_pd_log *r = (void *)args->resp;
	struct ec_pd_ctl_state *pc = &args->ec->pdc;
	const struct ec_pd_log_entry *e;

	if (!pc->log_count) {
		r->type = PD_EVENT_NO_ENTRY;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	}
	e = &pc->log[pc->log_head];
	if (sizeof(*r) + e->size > args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;	/* kept for a bigger buffer */
	r->timestamp = (uint32_t)(((args->ec->last_ns - e->ns) / NS_PER_US) >>
				  PD_LOG_TIMESTAMP_SHIFT);
	r->type = e->type;
	r->size_port = (uint8_t)PD_LOG_PORT_SIZE(e->port, e->size);
	r->data = e->data;
	memcpy(r->payload, e->payload, e->size);
	args->resp_size = sizeof(*r) + e->size;
	pc->log_head = (pc->log_head + 1) % EC_PD_LOG_LEN;
	pc->log_count--;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_pd_chip_info() - PD_CHIP_INFO v0/v1 (14/22 bytes): the port's
 * TCPC: vendor, product and device IDs and firmware version from the
 * profile (live and cached agree). A port past the board's is
 * INVALID_PARAM.
 */
static int ec_cmd_pd_chip_info(struct ec_cmd_args *args)
{
	const struct ec_params_pd_chip_info *p = (const void *)args->req;
	struct ec_response_pd_chip_info_v1 *r = (void *)args->resp;
	const struct ec_pd_port_profile *pp;
	unsigned int i;

	if (args->req_len < 1 || !ec_pd_port_get(args->ec, p->port))
		return EC_RES_INVALID_PARAM;
	pp = &args->ec->prof.pd_ports[p->port];
	r->vendor_id = (uint16_t)pp->tcpc_vid;
	r->product_id = (uint16_t)pp->tcpc_pid;
	r->device_id = (uint16_t)pp->tcpc_did;
	for (i = 0; i < 8; i++)
		r->fw_version[i] = (uint8_t)(pp->tcpc_fw >> (8 * i));
	args->resp_size = args->version ? sizeof(*r) : offsetof(typeof(*r), min_req_fw_version);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_usb_pd_dev_info() - USB_PD_DEV_INFO: the attached accessory's
 * device ID and RW hash. The simulated partners are not Google accessories:
 * device ID 0, no hash, image unknown. A port past the board's is
 * INVALID_PARAM.
 */
static int ec_cmd_usb_pd_dev_info(struct ec_cmd_args *args)
{
	const struct ec_params_usb_pd_info_request *p = (const void *)args->req;
	struct ec_params_usb_pd_rw_hash_entry *r = (void *)args->resp;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(args->ec, p->port))
		return EC_RES_INVALID_PARAM;
	r->dev_id = 0;
	r->current_image = EC_IMAGE_UNKNOWN;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_typec_discovery() - TYPEC_DISCOVERY: what Discover Identity and
 * Discover SVIDs/Modes found on the port's partner (SOP): an ID header,
 * cert stat and product VDO, and the DP SVID with its mode for a DP sink.
 * Nothing attached, or the cable (SOP'), answers empty. A port past the
 * board's or an unknown partner type is INVALID_PARAM.
 */
static int ec_cmd_typec_discovery(struct ec_cmd_args *args)
{
	const struct ec_params_typec_discovery *p = (const void *)args->req;
	struct ec_response_typec_discovery *r = (void *)args->resp;
	struct ec *ec = args->ec;
	const struct ec_pd_port_profile *pp;
	bool dp;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(ec, p->port) ||
	    p->partner_type > TYPEC_PARTNER_SOP_PRIME)
		return EC_RES_INVALID_PARAM;
	args->resp_size = sizeof(*r);
	if (p->partner_type != TYPEC_PARTNER_SOP || !ec->pd[p->port].connected)
		return EC_RES_SUCCESS;
	pp = &ec->prof.pd_ports[p->port];
	dp = ec_pd_partner_has_dp(ec, p->port);
	r->identity_count = 3;
	r->discovery_vdo[0] = IDH_USB_DEVICE | (dp ? IDH_MODAL : 0) |
			      ec_pd_partner_ptype(ec, p->port) << IDH_PTYPE_SHIFT |
			      (pp->partner_vid & 0xFFFF);
	r->discovery_vdo[1] = 0;		/* cert stat: no XID */
	r->discovery_vdo[2] = (pp->partner_pid & 0xFFFF) << 16 | PRODUCT_BCD_DEVICE;
	if (dp) {
		if (args->resp_max < sizeof(*r) + sizeof(r->svids[0]))
			return EC_RES_RESPONSE_TOO_BIG;
		r->svid_count = 1;
		r->svids[0].svid = USB_SID_DISPLAYPORT;
		r->svids[0].mode_count = 1;
		r->svids[0].mode_vdo[0] = DP_MODE_VDO;
		args->resp_size += sizeof(r->svids[0]);
	}
	return EC_RES_SUCCESS;
}

/* USB_PD_MUX_* flags to the mux mode ec_cmd_usbpd.c reports. */
static uint8_t ec_pd_mux_mode(uint8_t flags)
{
	static const uint8_t modes[4] = {
		USB_PD_CTRL_MUX_NONE, USB_PD_CTRL_MUX_USB, USB_PD_CTRL_MUX_DP,
		USB_PD_CTRL_MUX_DOCK,
	};

	return modes[flags & USB_PD_MUX_DOCK];
}

/**
 * ec_cmd_typec_control() - TYPEC_CONTROL: EXIT_MODES, ENTER_MODE (DP only:
 * a partner without it is ERROR, an unknown mode INVALID_PARAM),
 * CLEAR_EVENTS, USB_MUX_SET (mux 0 or all: one mux in the chain), and
 * BIST_SHARE_MODE. TBT_UFP_REPLY is UNAVAILABLE: the ports are never a
 * Thunderbolt UFP. A port past the board's or an unknown command is
 * INVALID_PARAM.
 */
static int ec_cmd_typec_control(struct ec_cmd_args *args)
{
	const struct ec_params_typec_control *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < 4 || !ec_pd_port_get(ec, p->port))
		return EC_RES_INVALID_PARAM;
	switch (p->command) {
	case TYPEC_CONTROL_COMMAND_EXIT_MODES:
		ec_pd_set_dp(ec, p->port, false);
		return EC_RES_SUCCESS;
	case TYPEC_CONTROL_COMMAND_CLEAR_EVENTS:
		return EC_RES_SUCCESS;	/* the model queues no Type-C events */
	case TYPEC_CONTROL_COMMAND_ENTER_MODE:
		if (p->mode_to_enter > TYPEC_MODE_USB4)
			return EC_RES_INVALID_PARAM;
		if (p->mode_to_enter != TYPEC_MODE_DP || !ec_pd_partner_has_dp(ec, p->port))
			return EC_RES_ERROR;
		ec_pd_set_dp(ec, p->port, true);
		return EC_RES_SUCCESS;
	case TYPEC_CONTROL_COMMAND_TBT_UFP_REPLY:
		return EC_RES_UNAVAILABLE;
	case TYPEC_CONTROL_COMMAND_USB_MUX_SET:
		if (p->mux_params.mux_index && p->mux_params.mux_index != TYPEC_USB_MUX_SET_ALL_CHIPS)
			return EC_RES_INVALID_PARAM;
		ec->pd[p->port].mux_mode = ec_pd_mux_mode(p->mux_params.mux_flags);
		return EC_RES_SUCCESS;
	case TYPEC_CONTROL_COMMAND_BIST_SHARE_MODE:
		ec->pdc.bist_share = p->bist_share_mode;
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_cmd_usb_mux() - USB_MUX: set port 0's mux (USB_PD_MUX_USB_ENABLED,
 * _DP_ENABLED or both; 0 opens it). Values past those, or a board without
 * USB-C ports, are INVALID_PARAM.
 */
static int ec_cmd_usb_mux(struct ec_cmd_args *args)
{
	const struct ec_params_usb_mux *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || p->mux > USB_PD_MUX_DOCK || !ec->prof.n_pd_ports)
		return EC_RES_INVALID_PARAM;
	ec->pd[0].mux_mode = ec_pd_mux_mode(p->mux);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_pd_control() - PD_CONTROL: suspend or resume the port's PD chip
 * (suspended, USB_PD_CONTROL reports no PD communication), reset it (the
 * partner is found again and logged), power it on; CONTROL_DISABLE makes
 * every later call ACCESS_DENIED until the EC resets. An unknown chip or
 * sub-command is INVALID_PARAM.
 */
static int ec_cmd_pd_control(struct ec_cmd_args *args)
{
	const struct ec_params_pd_control *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || !ec_pd_port_get(ec, p->chip))
		return EC_RES_INVALID_PARAM;
	if (ec->pdc.control_disabled)
		return EC_RES_ACCESS_DENIED;
	switch (p->subcmd) {
	case PD_SUSPEND:
		ec->pdc.suspended[p->chip] = true;
		return EC_RES_SUCCESS;
	case PD_RESUME:
	case PD_CHIP_ON:
		ec->pdc.suspended[p->chip] = false;
		return EC_RES_SUCCESS;
	case PD_RESET:
		ec->pdc.suspended[p->chip] = false;
		if (ec->pd[p->chip].connected)
			ec_pd_log_attach(ec, p->chip);
		return EC_RES_SUCCESS;
	case PD_CONTROL_DISABLE:
		ec->pdc.control_disabled = true;
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_pd_suspended() - is the PD chip of @port suspended (PD_CONTROL)?
 * @ec:   the EC, locked
 * @port: a valid port
 *
 * Return: true while suspended.
 */
bool ec_pd_suspended(const struct ec *ec, unsigned int port)
{
	return ec->pdc.suspended[port];
}

/**
 * ec_cmd_pd_charge_port_override() - PD_CHARGE_PORT_OVERRIDE: charge from
 * this port, OFF (the EC chooses again) or DONT_CHARGE (run from the
 * battery, adapter attached). A port without a charger attached is ERROR,
 * any other value INVALID_PARAM.
 */
static int ec_cmd_pd_charge_port_override(struct ec_cmd_args *args)
{
	const struct ec_params_charge_port_override *p = (const void *)args->req;
	struct ec *ec = args->ec;
	int16_t port = p->override_port;

	if (args->req_len < sizeof(*p) || port < OVERRIDE_DONT_CHARGE ||
	    port >= (int16_t)ec->prof.n_pd_ports)
		return EC_RES_INVALID_PARAM;
	if (port >= 0 && !(ec->pd[port].connected && ec->pd[port].partner_source))
		return EC_RES_ERROR;
	ec->pdc.override_port = port;
	ec_console_log(ec, "charge port override %d", port);
	if (port >= 0)
		ec_pd_log_power(ec, (unsigned int)port);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_pd_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_USB_MUX, EC_VER_MASK(0), ec_cmd_usb_mux),
	EC_HOST_COMMAND(EC_CMD_USB_PD_DEV_INFO, EC_VER_MASK(0), ec_cmd_usb_pd_dev_info),
	EC_HOST_COMMAND(EC_CMD_USB_PD_DISCOVERY, EC_VER_MASK(0), ec_cmd_usb_pd_discovery),
	EC_HOST_COMMAND(EC_CMD_PD_CHARGE_PORT_OVERRIDE, EC_VER_MASK(0),
			ec_cmd_pd_charge_port_override),
	EC_HOST_COMMAND(EC_CMD_PD_GET_LOG_ENTRY, EC_VER_MASK(0), ec_cmd_pd_get_log_entry),
	EC_HOST_COMMAND(EC_CMD_USB_PD_GET_AMODE, EC_VER_MASK(0), ec_cmd_usb_pd_get_amode),
	EC_HOST_COMMAND(EC_CMD_USB_PD_SET_AMODE, EC_VER_MASK(0), ec_cmd_usb_pd_set_amode),
	EC_HOST_COMMAND(EC_CMD_PD_WRITE_LOG_ENTRY, EC_VER_MASK(0), ec_cmd_pd_write_log_entry),
	EC_HOST_COMMAND(EC_CMD_PD_CONTROL, EC_VER_MASK(0), ec_cmd_pd_control),
	EC_HOST_COMMAND(EC_CMD_PD_CHIP_INFO, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_pd_chip_info),
	EC_HOST_COMMAND(EC_CMD_TYPEC_DISCOVERY, EC_VER_MASK(0), ec_cmd_typec_discovery),
	EC_HOST_COMMAND(EC_CMD_TYPEC_CONTROL, EC_VER_MASK(0), ec_cmd_typec_control),
};

const struct ec_subsystem ec_subsys_pd = {
	.name = "pd",
	EC_SUBSYSTEM_CMDS(ec_pd_cmds),
	.boot = ec_pd_boot,
};
