// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_adc_cbi.c - board facts the EC hands out: ADC channels, the CrOS
 * board info (CBI) EEPROM, where peripheral chips sit, and random bytes.
 *
 * CBI lives in an EEPROM image laid out as the firmware lays it out (a
 * "CBI" header with a CRC-8, then tag/size/value items), so what
 * GET_CROS_BOARD_INFO answers and what an I2C read of the EEPROM returns
 * are the same bytes. The image survives EC resets, as an EEPROM does.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "ec_internal.h"

#define CBI_ITEM_HEADER	2	/* tag, size */

/* CRC-8 with polynomial x^8 + x^2 + x + 1, MSB first, as CBI uses. */
static uint8_t cbi_crc8(const uint8_t *data, size_t len)
{
	uint8_t crc = 0;
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= data[i];
		for (bit = 0; bit < 8; bit++)
			crc = (uint8_t)(crc & 0x80 ? (crc << 1) ^ 0x07 : crc << 1);
	}
	return crc;
}

static uint16_t cbi_total(const struct ec *ec)
{
	return (uint16_t)(ec->sys.cbi[6] | ec->sys.cbi[7] << 8);
}

static void cbi_set_total(struct ec *ec, uint16_t total)
{
	ec->sys.cbi[6] = (uint8_t)total;
	ec->sys.cbi[7] = (uint8_t)(total >> 8);
}

/* Header fields as the firmware writes them, CRC last. */
static void cbi_seal(struct ec *ec)
{
	uint8_t *img = ec->sys.cbi;

	img[4] = CBI_VERSION_MINOR;
	img[5] = CBI_VERSION_MAJOR;
	img[3] = cbi_crc8(img + 4, cbi_total(ec) - 4);
}

static void cbi_format(struct ec *ec)
{
	memset(ec->sys.cbi, 0xFF, sizeof(ec->sys.cbi));
	memcpy(ec->sys.cbi, "CBI", 3);
	cbi_set_total(ec, sizeof(struct cbi_header));
	cbi_seal(ec);
}

/* The EEPROM holds a CBI image whose header, size and CRC all check out. */
static bool cbi_valid(const struct ec *ec)
{
	const uint8_t *img = ec->sys.cbi;
	uint16_t total = cbi_total(ec);

	if (memcmp(img, "CBI", 3) || img[5] != CBI_VERSION_MAJOR ||
	    total < sizeof(struct cbi_header) || total > CBI_IMAGE_SIZE)
		return false;
	return img[3] == cbi_crc8(img + 4, total - 4);
}

/* Offset of @tag's item, or 0 when the image has none (or is malformed). */
static size_t cbi_find(const struct ec *ec, uint32_t tag)
{
	size_t off = sizeof(struct cbi_header), total = cbi_total(ec);

	while (off + CBI_ITEM_HEADER <= total) {
		size_t size = ec->sys.cbi[off + 1];

		if (off + CBI_ITEM_HEADER + size > total)
			return 0;
		if (ec->sys.cbi[off] == tag)
			return off;
		off += CBI_ITEM_HEADER + size;
	}
	return 0;
}

/* Replace @tag's item by @size bytes (0 removes it). Return 0 or -ENOSPC. */
static int cbi_store(struct ec *ec, uint8_t tag, const void *data, uint8_t size)
{
	size_t off = cbi_find(ec, tag), total = cbi_total(ec);
	uint8_t *img = ec->sys.cbi;

	if (off) {
		size_t len = CBI_ITEM_HEADER + img[off + 1];

		memmove(img + off, img + off + len, total - off - len);
		total -= len;
		memset(img + total, 0xFF, len);
	}
	if (size) {
		if (total + CBI_ITEM_HEADER + size > CBI_IMAGE_SIZE) {
			cbi_set_total(ec, (uint16_t)total);
			return -ENOSPC;
		}
		img[total] = tag;
		img[total + 1] = size;
		memcpy(img + total + CBI_ITEM_HEADER, data, size);
		total += CBI_ITEM_HEADER + size;
	}
	cbi_set_total(ec, (uint16_t)total);
	return 0;
}

static void cbi_store_int(struct ec *ec, uint8_t tag, uint64_t v)
{
	uint8_t bytes[8];
	uint8_t n = 0;

	/* As few little-endian bytes as the value needs, at least one. */
	do {
		bytes[n++] = (uint8_t)v;
		v >>= 8;
	} while (v && n < sizeof(bytes));
	cbi_store(ec, tag, bytes, n);
}

/**
 * ec_cbi_init() - write the profile's [cbi] fields into a fresh EEPROM
 * image, in tag order (called once, at ec_create(); an EC reset keeps it).
 * @ec: the EC being created
 *
 * Return: 0 (it allocates nothing).
 */
static int ec_cbi_init(struct ec *ec)
{
	const struct ec_profile *prof = &ec->prof;
	unsigned int tag;

	if (!prof->has_cbi) {
		memset(ec->sys.cbi, 0xFF, sizeof(ec->sys.cbi));
		return 0;
	}
	cbi_format(ec);
	for (tag = 0; tag < CBI_TAG_COUNT; tag++) {
		const char *str = tag == CBI_TAG_DRAM_PART_NUM ? prof->cbi_dram_part_num :
				  tag == CBI_TAG_OEM_NAME ? prof->cbi_oem_name : NULL;

		if (str) {
			if (*str)
				cbi_store(ec, (uint8_t)tag, str, (uint8_t)(strlen(str) + 1));
		} else if (prof->cbi_int[tag] != EC_CBI_ABSENT) {
			cbi_store_int(ec, (uint8_t)tag, prof->cbi_int[tag]);
		}
	}
	cbi_seal(ec);
	return 0;
}

/**
 * ec_cmd_get_cros_board_info() - GET_CROS_BOARD_INFO: the item's bytes as
 * stored (integers in as few bytes as they were written with). A missing
 * tag, a damaged image or an item larger than the host's room is
 * INVALID_PARAM, as in the firmware. RELOAD is accepted; there is no cache
 * to drop, every read goes to the EEPROM image.
 */
static int ec_cmd_get_cros_board_info(struct ec_cmd_args *args)
{
	const struct ec_params_get_cbi *p = (const void *)args->req;
	struct ec *ec = args->ec;
	size_t off, size;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (!cbi_valid(ec) || p->tag > 0xFF)
		return EC_RES_INVALID_PARAM;
	off = cbi_find(ec, p->tag);
	if (!off)
		return EC_RES_INVALID_PARAM;
	size = ec->sys.cbi[off + 1];
	if (size > args->resp_max)
		return EC_RES_INVALID_PARAM;
	memcpy(args->resp, ec->sys.cbi + off + CBI_ITEM_HEADER, size);
	args->resp_size = size;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_set_cros_board_info() - SET_CROS_BOARD_INFO: write, replace or
 * (size 0) remove an item. INIT starts from an empty image; NO_SYNC makes
 * no difference here, the image is the EEPROM. The EEPROM's write-protect
 * pin follows the EC's hardware WP line: asserted, the write is
 * ACCESS_DENIED. Data the request does not carry, a tag over 255 or an
 * item over 255 bytes is INVALID_PARAM; a full EEPROM INVALID_PARAM too; a
 * damaged image without INIT is ERROR.
 */
static int ec_cmd_set_cros_board_info(struct ec_cmd_args *args)
{
	const struct ec_params_set_cbi *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || p->size > args->req_len - sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (ec->wp_asserted)
		return EC_RES_ACCESS_DENIED;
	if (p->tag > 0xFF || p->size > 0xFF)
		return EC_RES_INVALID_PARAM;
	if (p->flag & CBI_SET_INIT)
		cbi_format(ec);
	else if (!cbi_valid(ec))
		return EC_RES_ERROR;
	if (cbi_store(ec, (uint8_t)p->tag, p->data, (uint8_t)p->size)) {
		cbi_seal(ec);
		return EC_RES_INVALID_PARAM;
	}
	cbi_seal(ec);
	return EC_RES_SUCCESS;
}

/**
 * ec_cbi_eeprom_read() - an I2C read of the EEPROM: bytes from its address
 * pointer on, wrapping at the end as a 256-byte EEPROM does.
 * @ec:  the EC, locked
 * @buf: filled with @len bytes
 * @len: bytes to read
 */
void ec_cbi_eeprom_read(struct ec *ec, uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = ec->sys.cbi[ec->sys.eeprom_ptr++];
}

/**
 * ec_cbi_eeprom_write() - an I2C write to the EEPROM: the first byte sets
 * the address pointer, the rest are written from there on.
 * @ec:   the EC, locked
 * @data: the bytes written
 * @len:  at least 1
 *
 * Return: false when the EEPROM rejects the data (write protected).
 */
bool ec_cbi_eeprom_write(struct ec *ec, const uint8_t *data, size_t len)
{
	size_t i;

	if (len > 1 && ec->wp_asserted)
		return false;
	ec->sys.eeprom_ptr = data[0];
	for (i = 1; i < len; i++)
		ec->sys.cbi[ec->sys.eeprom_ptr++] = data[i];
	return true;
}

static int32_t ec_adc_value(const struct ec *ec, const struct ec_adc_profile *adc)
{
	unsigned int i;

	switch (adc->source) {
	case EC_ADC_VBUS:
		for (i = 0; i < ec->prof.n_pd_ports; i++)
			if (ec->pd[i].connected && ec->pd[i].partner_source)
				return (int32_t)ec->pd[i].voltage_mv;
		return 0;
	case EC_ADC_BATTERY_VOLTAGE:
		return ec->prof.has_battery ? (int32_t)ec_battery_voltage_mv(ec) : 0;
	case EC_ADC_BATTERY_CURRENT:
		return ec->prof.has_battery ? (int32_t)ec->batt_ma : 0;
	default:
		return (int32_t)adc->value;
	}
}

/**
 * ec_cmd_adc_read() - ADC_READ: one channel of the profile's [adc] list;
 * a channel past it is INVALID_PARAM.
 */
static int ec_cmd_adc_read(struct ec_cmd_args *args)
{
	const struct ec_params_adc_read *p = (const void *)args->req;
	struct ec_response_adc_read *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p) || p->adc_channel >= ec->prof.n_adcs)
		return EC_RES_INVALID_PARAM;
	r->adc_value = ec_adc_value(ec, &ec->prof.adcs[p->adc_channel]);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_locate_chip() - LOCATE_CHIP: the CBI EEPROM (index 0) and the
 * TCPC of each USB-C port. A type the board has none of is UNAVAILABLE, an
 * index past the chips OVERFLOW, an unknown type INVALID_PARAM.
 */
static int ec_cmd_locate_chip(struct ec_cmd_args *args)
{
	const struct ec_params_locate_chip *p = (const void *)args->req;
	struct ec_response_locate_chip *r = (void *)args->resp;
	const struct ec_profile *prof = &args->ec->prof;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	switch (p->type) {
	case EC_CHIP_TYPE_CBI_EEPROM:
		if (!prof->has_cbi)
			return EC_RES_UNAVAILABLE;
		if (p->index)
			return EC_RES_OVERFLOW;
		r->bus_type = EC_BUS_TYPE_I2C;
		r->i2c_port = (uint16_t)prof->cbi_i2c_port;
		r->i2c_addr_flags = EC_I2C_ADDR_CBI_EEPROM;
		break;
	case EC_CHIP_TYPE_TCPC:
		if (!prof->n_pd_ports)
			return EC_RES_UNAVAILABLE;
		if (p->index >= prof->n_pd_ports)
			return EC_RES_OVERFLOW;
		if (prof->pd_ports[p->index].tcpc_i2c_addr) {
			r->bus_type = EC_BUS_TYPE_I2C;
			r->i2c_port = (uint16_t)prof->pd_ports[p->index].tcpc_i2c_port;
			r->i2c_addr_flags = (uint16_t)prof->pd_ports[p->index].tcpc_i2c_addr;
		} else {
			r->bus_type = EC_BUS_TYPE_EMBEDDED;
		}
		break;
	default:
		return EC_RES_INVALID_PARAM;
	}
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_rand_num() - RAND_NUM: bytes from the host's random source (the
 * EC's TRNG stands in for it); more than the host can take is OVERFLOW.
 */
static int ec_cmd_rand_num(struct ec_cmd_args *args)
{
	const struct ec_params_rand_num *p = (const void *)args->req;
	size_t n = p->num_rand_bytes, got = 0;

	if (n > args->resp_max)
		return EC_RES_OVERFLOW;
	while (got < n) {
		ssize_t r = getrandom(args->resp + got, n - got, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return EC_RES_ERROR;
		}
		got += (size_t)r;
	}
	args->resp_size = n;
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_adc_cbi_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_RAND_NUM, EC_VER_MASK(0), ec_cmd_rand_num),
	EC_HOST_COMMAND(EC_CMD_GET_CROS_BOARD_INFO, EC_VER_MASK(0), ec_cmd_get_cros_board_info),
	EC_HOST_COMMAND(EC_CMD_SET_CROS_BOARD_INFO, EC_VER_MASK(0), ec_cmd_set_cros_board_info),
	EC_HOST_COMMAND(EC_CMD_ADC_READ, EC_VER_MASK(0), ec_cmd_adc_read),
	EC_HOST_COMMAND(EC_CMD_LOCATE_CHIP, EC_VER_MASK(0), ec_cmd_locate_chip),
};

const struct ec_subsystem ec_subsys_adc_cbi = {
	.name = "adc_cbi",
	EC_SUBSYSTEM_CMDS(ec_adc_cbi_cmds),
	.create = ec_cbi_init,
};
