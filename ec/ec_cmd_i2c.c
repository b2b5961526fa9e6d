// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_i2c.c - the EC's I2C buses as the host reaches them through
 * I2C_PASSTHRU, and the per-port protection of I2C_PASSTHRU_PROTECT.
 *
 * Two simulated devices answer: the smart battery at 0x0B on the battery's
 * bus, with the Smart Battery Data registers read from the battery model,
 * and the CBI EEPROM at 0x50 (ec_cmd_adc_cbi.c holds its bytes). Any other
 * address does not acknowledge (NAK), as an empty bus does.
 *
 * The buses are ports 0 up to the highest port a device sits on.
 */
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"

/* Smart Battery Data Specification 1.1 registers the model answers. */
enum sbs_reg {
	SBS_MANUFACTURER_ACCESS = 0x00,
	SBS_REMAINING_CAPACITY_ALARM = 0x01,
	SBS_REMAINING_TIME_ALARM = 0x02,
	SBS_BATTERY_MODE = 0x03,
	SBS_AT_RATE = 0x04,
	SBS_TEMPERATURE = 0x08,		/* 0.1 K */
	SBS_VOLTAGE = 0x09,		/* mV */
	SBS_CURRENT = 0x0A,		/* mA, signed */
	SBS_AVERAGE_CURRENT = 0x0B,
	SBS_RELATIVE_SOC = 0x0D,	/* % */
	SBS_ABSOLUTE_SOC = 0x0E,
	SBS_REMAINING_CAPACITY = 0x0F,	/* mAh */
	SBS_FULL_CHARGE_CAPACITY = 0x10,
	SBS_RUN_TIME_TO_EMPTY = 0x11,	/* minutes, 65535 = not discharging */
	SBS_AVERAGE_TIME_TO_EMPTY = 0x12,
	SBS_AVERAGE_TIME_TO_FULL = 0x13,
	SBS_CHARGING_CURRENT = 0x14,
	SBS_CHARGING_VOLTAGE = 0x15,
	SBS_BATTERY_STATUS = 0x16,
	SBS_CYCLE_COUNT = 0x17,
	SBS_DESIGN_CAPACITY = 0x18,
	SBS_DESIGN_VOLTAGE = 0x19,
	SBS_SPECIFICATION_INFO = 0x1A,
	SBS_MANUFACTURE_DATE = 0x1B,
	SBS_SERIAL_NUMBER = 0x1C,
	SBS_MANUFACTURER_NAME = 0x20,	/* blocks: a length byte, then text */
	SBS_DEVICE_NAME = 0x21,
	SBS_DEVICE_CHEMISTRY = 0x22,
};

#define SBS_STATUS_INITIALIZED		0x0080
#define SBS_STATUS_DISCHARGING		0x0040
#define SBS_STATUS_FULLY_CHARGED	0x0020
#define SBS_STATUS_FULLY_DISCHARGED	0x0010
#define SBS_SPEC_1_1_PEC		0x0031
#define SBS_NO_TIME			65535
/* ManufactureDate: (year - 1980) * 512 + month * 32 + day; the model's is 2025-01-15. */
#define SBS_DATE			((2025 - 1980) * 512 + 1 * 32 + 15)
#define TEMP_TYPE_BATTERY		3	/* [temp] type = battery */

static bool ec_i2c_device(const struct ec *ec, uint32_t port, uint32_t addr)
{
	const struct ec_profile *prof = &ec->prof;

	if (addr == EC_I2C_ADDR_BATTERY)
		return prof->has_battery && port == prof->batt_i2c_port;
	if (addr == EC_I2C_ADDR_CBI_EEPROM)
		return prof->has_cbi && port == prof->cbi_i2c_port;
	return false;
}

/**
 * ec_i2c_port_exists() - is @port one of the EC's I2C buses?
 * @ec:   the EC
 * @port: I2C port number
 *
 * Return: true for ports 0 up to the highest one a device (battery, CBI
 * EEPROM, TCPC) sits on.
 */
bool ec_i2c_port_exists(const struct ec *ec, uint32_t port)
{
	const struct ec_profile *prof = &ec->prof;
	uint32_t top = 0;
	unsigned int i;

	if (prof->has_battery && prof->batt_i2c_port > top)
		top = prof->batt_i2c_port;
	if (prof->has_cbi && prof->cbi_i2c_port > top)
		top = prof->cbi_i2c_port;
	for (i = 0; i < prof->n_pd_ports; i++)
		if (prof->pd_ports[i].tcpc_i2c_addr && prof->pd_ports[i].tcpc_i2c_port > top)
			top = prof->pd_ports[i].tcpc_i2c_port;
	return port <= top;
}

static double ec_battery_temp_k(const struct ec *ec)
{
	unsigned int i;

	for (i = 0; i < ec->prof.n_temps; i++)
		if (ec->prof.temps[i].type == TEMP_TYPE_BATTERY)
			return ec->temp_k[i];
	return 298.15;
}

static uint16_t sbs_minutes(double mah, double ma)
{
	double min = ma > 0 ? mah / ma * 60.0 : SBS_NO_TIME;

	return min >= SBS_NO_TIME ? SBS_NO_TIME : (uint16_t)min;
}

/* A word register's value; false for a register the battery does not have. */
static bool sbs_word(const struct ec *ec, uint8_t reg, uint16_t *v)
{
	const struct ec_profile *prof = &ec->prof;
	double full = ec_batt_full(ec);
	uint16_t status = SBS_STATUS_INITIALIZED;

	switch (reg) {
	case SBS_MANUFACTURER_ACCESS:
	case SBS_REMAINING_CAPACITY_ALARM:
	case SBS_REMAINING_TIME_ALARM:
	case SBS_BATTERY_MODE:
	case SBS_AT_RATE:
		*v = ec->sys.sbs_rw[reg];
		return true;
	case SBS_TEMPERATURE:
		*v = (uint16_t)(ec_battery_temp_k(ec) * 10.0 + 0.5);
		return true;
	case SBS_VOLTAGE:
		*v = (uint16_t)ec_battery_voltage_mv(ec);
		return true;
	case SBS_CURRENT:
	case SBS_AVERAGE_CURRENT:
		*v = (uint16_t)(int16_t)(ec->batt_ma < 0 ? ec->batt_ma - 0.5 : ec->batt_ma + 0.5);
		return true;
	case SBS_RELATIVE_SOC:
		*v = (uint16_t)ec_battery_percent(ec);
		return true;
	case SBS_ABSOLUTE_SOC:
		*v = (uint16_t)(ec->batt_mah * 100.0 / prof->batt_design_mah + 0.5);
		return true;
	case SBS_REMAINING_CAPACITY:
		*v = (uint16_t)(ec->batt_mah + 0.5);
		return true;
	case SBS_FULL_CHARGE_CAPACITY:
		*v = (uint16_t)(full + 0.5);
		return true;
	case SBS_RUN_TIME_TO_EMPTY:
	case SBS_AVERAGE_TIME_TO_EMPTY:
		*v = sbs_minutes(ec->batt_mah, -ec->batt_ma);
		return true;
	case SBS_AVERAGE_TIME_TO_FULL:
		*v = sbs_minutes(full - ec->batt_mah, ec->batt_ma);
		return true;
	case SBS_CHARGING_CURRENT:
		*v = (uint16_t)(ec->batt_ma > 0 ? prof->batt_charge_ma : 0);
		return true;
	case SBS_CHARGING_VOLTAGE:
		*v = (uint16_t)(ec->batt_ma > 0 ? prof->batt_design_mv * 108 / 100 : 0);
		return true;
	case SBS_BATTERY_STATUS:
		if (ec->batt_ma < 0)
			status |= SBS_STATUS_DISCHARGING;
		if (ec_battery_percent(ec) >= 100)
			status |= SBS_STATUS_FULLY_CHARGED;
		if (ec_battery_percent(ec) == 0)
			status |= SBS_STATUS_FULLY_DISCHARGED;
		*v = status;
		return true;
	case SBS_CYCLE_COUNT:
		*v = (uint16_t)ec->batt_cycles;
		return true;
	case SBS_DESIGN_CAPACITY:
		*v = (uint16_t)prof->batt_design_mah;
		return true;
	case SBS_DESIGN_VOLTAGE:
		*v = (uint16_t)prof->batt_design_mv;
		return true;
	case SBS_SPECIFICATION_INFO:
		*v = SBS_SPEC_1_1_PEC;
		return true;
	case SBS_MANUFACTURE_DATE:
		*v = SBS_DATE;
		return true;
	case SBS_SERIAL_NUMBER:
		*v = (uint16_t)strtoul(prof->batt_serial, NULL, 0);
		return true;
	default:
		return false;
	}
}

static const char *sbs_block(const struct ec *ec, uint8_t reg)
{
	switch (reg) {
	case SBS_MANUFACTURER_NAME:
		return ec->prof.batt_manufacturer;
	case SBS_DEVICE_NAME:
		return ec->prof.batt_model;
	case SBS_DEVICE_CHEMISTRY:
		return ec->prof.batt_type;
	default:
		return NULL;
	}
}

/* A read from the battery of the register the last write selected. */
static bool sbs_read(struct ec *ec, uint8_t *buf, size_t len)
{
	const char *text = sbs_block(ec, ec->sys.sbs_cmd);
	uint16_t word;
	size_t i;

	if (ec->sys.batt_cut_off)
		return false;
	memset(buf, 0xFF, len);
	if (text) {
		size_t n = strlen(text);

		/* SMBus block read: the byte count, then the bytes. */
		for (i = 0; i < len && i <= n; i++)
			buf[i] = i ? (uint8_t)text[i - 1] : (uint8_t)n;
		return true;
	}
	if (!sbs_word(ec, ec->sys.sbs_cmd, &word))
		return false;
	for (i = 0; i < len && i < 2; i++)
		buf[i] = (uint8_t)(word >> (8 * i));
	return true;
}

/* A write to the battery: a register number, then (for writable ones) a word. */
static bool sbs_write(struct ec *ec, const uint8_t *data, size_t len)
{
	uint8_t reg = data[0];

	if (ec->sys.batt_cut_off)
		return false;
	ec->sys.sbs_cmd = reg;
	if (len == 1)
		return true;
	if (reg > SBS_AT_RATE || len != 3)
		return false;
	ec->sys.sbs_rw[reg] = (uint16_t)(data[1] | data[2] << 8);
	return true;
}

/* One message; false when the device does not acknowledge it. */
static bool ec_i2c_xfer(struct ec *ec, uint32_t port, uint16_t addr_flags, const uint8_t *wr,
			uint8_t *rd, size_t len)
{
	uint32_t addr = addr_flags & EC_I2C_ADDR_MASK;

	if (!ec_i2c_device(ec, port, addr))
		return false;
	if (addr_flags & EC_I2C_FLAG_READ) {
		if (addr == EC_I2C_ADDR_CBI_EEPROM) {
			ec_cbi_eeprom_read(ec, rd, len);
			return true;
		}
		return sbs_read(ec, rd, len);
	}
	if (!len)
		return true;	/* an address-only probe */
	if (addr == EC_I2C_ADDR_CBI_EEPROM)
		return ec_cbi_eeprom_write(ec, wr, len);
	return sbs_write(ec, wr, len);
}

/**
 * ec_cmd_i2c_passthru() - I2C_PASSTHRU: run the messages in order on one
 * bus. A request shorter than its message list or its write data, a
 * response room smaller than the reads, or an unknown port is
 * INVALID_PARAM; on a protected port only the smart battery may be
 * addressed (ACCESS_DENIED otherwise). A device that does not acknowledge
 * stops the transfer: the answer is SUCCESS with the NAK status and the
 * messages done so far, as in the firmware.
 */
static int ec_cmd_i2c_passthru(struct ec_cmd_args *args)
{
	const struct ec_params_i2c_passthru *p = (const void *)args->req;
	struct ec_response_i2c_passthru *r = (void *)args->resp;
	struct ec *ec = args->ec;
	size_t head, read_len = 0, write_len = 0, wr_off, rd_off = 0;
	unsigned int i;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	head = sizeof(*p) + (size_t)p->num_msgs * sizeof(p->msg[0]);
	if (args->req_len < head)
		return EC_RES_INVALID_PARAM;
	for (i = 0; i < p->num_msgs; i++) {
		if (p->msg[i].addr_flags & EC_I2C_FLAG_READ)
			read_len += p->msg[i].len;
		else
			write_len += p->msg[i].len;
	}
	if (args->resp_max < sizeof(*r) + read_len || args->req_len < head + write_len)
		return EC_RES_INVALID_PARAM;
	if (!ec_i2c_port_exists(ec, p->port))
		return EC_RES_INVALID_PARAM;
	if (p->port < EC_I2C_PORTS_MAX && ec->sys.i2c_protected[p->port])
		for (i = 0; i < p->num_msgs; i++)
			if ((p->msg[i].addr_flags & EC_I2C_ADDR_MASK) != EC_I2C_ADDR_BATTERY)
				return EC_RES_ACCESS_DENIED;

	wr_off = head;
	for (i = 0; i < p->num_msgs; i++) {
		const struct ec_params_i2c_passthru_msg *m = &p->msg[i];
		bool is_read = m->addr_flags & EC_I2C_FLAG_READ;

		if (!ec_i2c_xfer(ec, p->port, m->addr_flags, args->req + wr_off,
				 r->data + rd_off, m->len)) {
			r->i2c_status = EC_I2C_STATUS_NAK;
			break;
		}
		if (is_read)
			rd_off += m->len;
		else
			wr_off += m->len;
	}
	r->num_msgs = (uint8_t)i;
	args->resp_size = sizeof(*r) + rd_off;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_i2c_passthru_protect() - I2C_PASSTHRU_PROTECT: STATUS and ENABLE
 * of one port (unknown port INVALID_PARAM), ENABLE_TCPCS for the ports of
 * the TCPCs; an unknown sub-command is INVALID_COMMAND, as in the
 * firmware. Protection lasts until the EC resets.
 */
static int ec_cmd_i2c_passthru_protect(struct ec_cmd_args *args)
{
	const struct ec_params_i2c_passthru_protect *p = (const void *)args->req;
	struct ec_response_i2c_passthru_protect *r = (void *)args->resp;
	struct ec *ec = args->ec;
	unsigned int i;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->subcmd == EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE_TCPCS) {
		for (i = 0; i < ec->prof.n_pd_ports; i++)
			if (ec->prof.pd_ports[i].tcpc_i2c_addr)
				ec->sys.i2c_protected[ec->prof.pd_ports[i].tcpc_i2c_port] = true;
		return EC_RES_SUCCESS;
	}
	if (!ec_i2c_port_exists(ec, p->port))
		return EC_RES_INVALID_PARAM;
	switch (p->subcmd) {
	case EC_CMD_I2C_PASSTHRU_PROTECT_STATUS:
		r->status = ec->sys.i2c_protected[p->port];
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	case EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE:
		ec->sys.i2c_protected[p->port] = true;
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_COMMAND;
	}
}

/*
 * I2C_CONTROL's speeds: the ones the firmware's i2c_khz_to_freq() knows.
 * The model's buses all take each of them.
 */
static bool ec_i2c_speed_valid(uint16_t khz)
{
	return khz == 100 || khz == 400 || khz == 1000;
}

/**
 * ec_cmd_i2c_control() - I2C_CONTROL v0: GET_SPEED answers the port's bus
 * speed in kHz; SET_SPEED sets 100, 400 or 1000 kHz (else INVALID_PARAM)
 * and answers the old one. A port the EC lacks is INVALID_PARAM, another
 * sub-command INVALID_COMMAND (as the firmware), a request shorter than
 * 4 bytes INVALID_PARAM.
 */
static int ec_cmd_i2c_control(struct ec_cmd_args *args)
{
	const struct ec_params_i2c_control *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint16_t old;

	if (args->req_len < sizeof(*p) || !ec_i2c_port_exists(ec, p->port) ||
	    p->port >= EC_I2C_PORTS_MAX)
		return EC_RES_INVALID_PARAM;
	old = ec->sys.i2c_khz[p->port];
	switch (p->cmd) {
	case EC_I2C_CONTROL_GET_SPEED:
		break;
	case EC_I2C_CONTROL_SET_SPEED:
		if (!ec_i2c_speed_valid(p->speed_khz))
			return EC_RES_INVALID_PARAM;
		ec->sys.i2c_khz[p->port] = p->speed_khz;
		ec_console_log(ec, "I2C%u speed changed from %u kHz to %u kHz", p->port, old,
			       p->speed_khz);
		break;
	default:
		return EC_RES_INVALID_COMMAND;
	}
	memcpy(args->resp, &old, sizeof(old));
	args->resp_size = sizeof(old);
	return EC_RES_SUCCESS;
}

/* At boot: no port protected, every bus at 100 kHz. */
static void ec_i2c_boot(struct ec *ec)
{
	unsigned int i;

	memset(ec->sys.i2c_protected, 0, sizeof(ec->sys.i2c_protected));
	for (i = 0; i < EC_I2C_PORTS_MAX; i++)
		ec->sys.i2c_khz[i] = 100;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_i2c_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_I2C_PASSTHRU, EC_VER_MASK(0), ec_cmd_i2c_passthru),
	EC_HOST_COMMAND(EC_CMD_I2C_PASSTHRU_PROTECT, EC_VER_MASK(0), ec_cmd_i2c_passthru_protect),
	EC_HOST_COMMAND(EC_CMD_I2C_CONTROL, EC_VER_MASK(0), ec_cmd_i2c_control),
};

const struct ec_subsystem ec_subsys_i2c = {
	.name = "i2c",
	EC_SUBSYSTEM_CMDS(ec_i2c_cmds),
	.boot = ec_i2c_boot,
};
