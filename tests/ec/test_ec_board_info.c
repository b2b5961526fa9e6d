// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_board_info.c - ADC_READ, the CBI EEPROM (GET/SET_CROS_BOARD_INFO
 * and its bytes over I2C), LOCATE_CHIP, RAND_NUM, I2C_PASSTHRU to the smart
 * battery and I2C_PASSTHRU_PROTECT, with their bad inputs.
 */
#include <check.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

static uint32_t run(uint32_t cmd, const void *req, size_t len, void *resp, size_t resp_max,
		    int *ret)
{
	return hc_status(ec, cmd, 0, req, len, resp, resp_max, ret);
}

/* ---- ADC ---- */

static int32_t adc(uint8_t ch)
{
	uint8_t resp[4];

	ck_assert_uint_eq(run(EC_CMD_ADC_READ, &ch, 1, resp, 4, NULL), EC_RES_SUCCESS);
	return (int32_t)le32(resp);
}

START_TEST(test_adc_read)
{
	uint8_t dyn[14], idx = 0, ch = 3;
	int16_t batt_ma;

	ck_assert_int_eq(adc(0), 20000);	/* VBUS of the charger on port 0 */
	ck_assert_int_eq(adc(2), 11500);
	ck_assert_uint_eq(run(EC_CMD_BATTERY_GET_DYNAMIC, &idx, 1, dyn, 14, NULL),
			  EC_RES_SUCCESS);
	batt_ma = (int16_t)le16(dyn + 2);
	ck_assert_int_le(adc(1) - batt_ma, 1);
	ck_assert_int_ge(adc(1) - batt_ma, -1);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	fake_clock_advance(&fc, NS_PER_S);
	ck_assert_int_eq(adc(0), 0);
	ck_assert_int_lt(adc(1), 0);		/* discharging */

	ck_assert_uint_eq(run(EC_CMD_ADC_READ, &ch, 1, dyn, 4, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_ADC_READ, NULL, 0, dyn, 4, NULL), EC_RES_INVALID_PARAM);
}
END_TEST

/* ---- CBI ---- */

static uint32_t cbi_get(uint32_t tag, uint8_t *out, size_t room, int *len)
{
	uint32_t p[2] = { tag, 0 };

	return run(EC_CMD_GET_CROS_BOARD_INFO, p, sizeof(p), out, room, len);
}

static uint32_t cbi_set(uint32_t tag, uint32_t flag, const void *data, uint32_t size)
{
	uint8_t req[12 + 256];

	memcpy(req, &tag, 4);
	memcpy(req + 4, &flag, 4);
	memcpy(req + 8, &size, 4);
	if (size)
		memcpy(req + 12, data, size);
	return run(EC_CMD_SET_CROS_BOARD_INFO, req, 12 + size, NULL, 0, NULL);
}

START_TEST(test_cbi_get)
{
	uint8_t out[64];
	int len;

	ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 1);
	ck_assert_uint_eq(out[0], 0x10);
	ck_assert_uint_eq(cbi_get(CBI_TAG_FW_CONFIG, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 2);			/* 0x131: two bytes */
	ck_assert_uint_eq(le16(out), 0x131);
	ck_assert_uint_eq(cbi_get(CBI_TAG_SSFC, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 1);			/* zero is still one byte */
	ck_assert_uint_eq(cbi_get(CBI_TAG_OEM_NAME, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 5);
	ck_assert_str_eq((char *)out, "CUSE");

	/* Bad inputs: a tag the EEPROM lacks, a tag past a byte, short room or request. */
	ck_assert_uint_eq(cbi_get(CBI_TAG_REWORK_ID, out, sizeof(out), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(cbi_get(0x100 + CBI_TAG_SKU_ID, out, sizeof(out), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(cbi_get(CBI_TAG_OEM_NAME, out, 4, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_GET_CROS_BOARD_INFO, out, 4, out, 8, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_cbi_set)
{
	uint8_t out[256], big[150];
	uint16_t oem = 0x1234;
	int len;

	ck_assert_uint_eq(cbi_set(CBI_TAG_OEM_ID, 0, &oem, 2), EC_RES_SUCCESS);
	ck_assert_uint_eq(cbi_get(CBI_TAG_OEM_ID, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 2);
	ck_assert_uint_eq(le16(out), 0x1234);
	ck_assert_uint_eq(cbi_set(CBI_TAG_REWORK_ID, CBI_SET_NO_SYNC, "\x01\x02\x03\x04\x05", 5),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(cbi_get(CBI_TAG_REWORK_ID, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_int_eq(len, 5);
	/* Size 0 removes the item. */
	ck_assert_uint_eq(cbi_set(CBI_TAG_OEM_ID, 0, NULL, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(cbi_get(CBI_TAG_OEM_ID, out, sizeof(out), NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, sizeof(out), NULL), EC_RES_SUCCESS);

	/* Bad inputs. */
	ck_assert_uint_eq(run(EC_CMD_SET_CROS_BOARD_INFO, out, 8, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);		/* no size field */
	memset(out, 0, 12);
	out[8] = 4;					/* claims 4 bytes, sends none */
	ck_assert_uint_eq(run(EC_CMD_SET_CROS_BOARD_INFO, out, 12, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(cbi_set(0x100, 0, "x", 1), EC_RES_INVALID_PARAM);
	memset(big, 'a', sizeof(big));
	ck_assert_uint_eq(cbi_set(20, 0, big, sizeof(big)), EC_RES_SUCCESS);
	ck_assert_uint_eq(cbi_set(21, 0, big, sizeof(big)), EC_RES_INVALID_PARAM);  /* full */
	ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, sizeof(out), NULL), EC_RES_SUCCESS);

	/* INIT starts from an empty image. */
	ck_assert_uint_eq(cbi_set(CBI_TAG_MODEL_ID, CBI_SET_INIT, "\x09", 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, sizeof(out), NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(cbi_get(CBI_TAG_MODEL_ID, out, sizeof(out), &len), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], 9);

	/* The hardware WP line write-protects the EEPROM. */
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_ASSERT), 0);
	ck_assert_uint_eq(cbi_set(CBI_TAG_SKU_ID, 0, "\x01", 1), EC_RES_ACCESS_DENIED);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_DEASSERT), 0);
	ck_assert_uint_eq(cbi_set(CBI_TAG_SKU_ID, 0, "\x01", 1), EC_RES_SUCCESS);
}
END_TEST

/* ---- I2C ---- */

/* Write @reg to @addr on @port, then read @len bytes: one passthru, two messages. */
static uint32_t i2c_read(uint8_t port, uint8_t addr, uint8_t reg, uint16_t len, uint8_t *out,
			 int *ret)
{
	uint8_t req[11] = { port, 2, addr, 0, 1, 0, addr, 0x80, (uint8_t)len,
			    (uint8_t)(len >> 8), reg };

	return run(EC_CMD_I2C_PASSTHRU, req, sizeof(req), out, 2 + len, ret);
}

static uint16_t sbs_word(uint8_t reg)
{
	uint8_t out[4];
	int ret;

	ck_assert_uint_eq(i2c_read(1, 0x0B, reg, 2, out, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 4);
	ck_assert_msg(out[0] == 0 && out[1] == 2, "SBS 0x%02x: status %u, %u msgs", reg, out[0],
		      out[1]);
	return le16(out + 2);
}

START_TEST(test_i2c_smart_battery)
{
	uint8_t dyn[14], idx = 0, out[16];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_BATTERY_GET_DYNAMIC, &idx, 1, dyn, 14, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(sbs_word(0x09), le16(dyn));		/* Voltage */
	ck_assert_uint_eq(sbs_word(0x0F), le16(dyn + 4));	/* RemainingCapacity */
	ck_assert_uint_eq(sbs_word(0x18), 4800);		/* DesignCapacity */
	ck_assert_uint_eq(sbs_word(0x19), 11550);		/* DesignVoltage */
	ck_assert_uint_eq(sbs_word(0x17), 42);			/* CycleCount */
	ck_assert_uint_eq(sbs_word(0x1C), 0x1a2b);		/* SerialNumber */
	ck_assert_uint_eq(sbs_word(0x0D), 80);			/* RelativeStateOfCharge */
	ck_assert(sbs_word(0x16) & 0x0080);			/* initialized */
	ck_assert(!(sbs_word(0x16) & 0x0040));			/* charging, not discharging */
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	fake_clock_advance(&fc, NS_PER_S);
	ck_assert(sbs_word(0x16) & 0x0040);
	ck_assert_int_lt((int16_t)sbs_word(0x0A), 0);		/* Current */

	/* ManufacturerName: an SMBus block, count first. */
	ck_assert_uint_eq(i2c_read(1, 0x0B, 0x20, 4, out, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 6);
	ck_assert_uint_eq(out[2], 3);
	ck_assert_mem_eq(out + 3, "SMP", 3);

	/* BatteryMode is writable: register, then the word. */
	{
		uint8_t w[9] = { 1, 1, 0x0B, 0, 3, 0, 0x03, 0x00, 0x60 };

		ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, w, sizeof(w), out, 2, &ret),
				  EC_RES_SUCCESS);
		ck_assert_uint_eq(out[0], 0);
		ck_assert_uint_eq(sbs_word(0x03), 0x6000);
		w[6] = 0x09;	/* Voltage is read-only: NAK */
		ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, w, sizeof(w), out, 2, &ret),
				  EC_RES_SUCCESS);
		ck_assert_uint_eq(out[0], EC_I2C_STATUS_NAK);
		ck_assert_uint_eq(out[1], 0);
	}
	/* A register the battery lacks: the write is acknowledged, the read not. */
	ck_assert_uint_eq(i2c_read(1, 0x0B, 0x55, 2, out, &ret), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], EC_I2C_STATUS_NAK);
	ck_assert_uint_eq(out[1], 1);
	ck_assert_int_eq(ret, 2);
}
END_TEST

START_TEST(test_i2c_bad_inputs)
{
	uint8_t out[300];
	uint8_t req[11] = { 1, 2, 0x0B, 0, 1, 0, 0x0B, 0x80, 2, 0, 0x09 };
	int ret;

	/* Nobody at 0x30: NAK on the first message, nothing read. */
	ck_assert_uint_eq(i2c_read(1, 0x30, 0, 2, out, &ret), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], EC_I2C_STATUS_NAK);
	ck_assert_uint_eq(out[1], 0);
	ck_assert_int_eq(ret, 2);
	/* The battery is not on port 0. */
	ck_assert_uint_eq(i2c_read(0, 0x0B, 0x09, 2, out, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], EC_I2C_STATUS_NAK);
	ck_assert_uint_eq(i2c_read(7, 0x0B, 0x09, 2, out, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, req, 1, out, 8, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, req, 9, out, 8, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, req, 10, out, 8, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, req, 11, out, 3, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, req, 11, out, 4, NULL), EC_RES_SUCCESS);
}
END_TEST

/* CRC-8, x^8 + x^2 + x + 1: the test's own reading of the CBI format. */
static uint8_t crc8(const uint8_t *p, size_t n)
{
	uint8_t crc = 0;
	int b;

	while (n--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (uint8_t)((crc << 1) ^ (crc & 0x80 ? 7 : 0));
	}
	return crc;
}

START_TEST(test_i2c_cbi_eeprom)
{
	uint8_t out[2 + 128], img[128];
	uint16_t total;
	int ret;

	ck_assert_uint_eq(i2c_read(0, 0x50, 0, 128, out, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 130);
	ck_assert_uint_eq(out[0], 0);
	memcpy(img, out + 2, sizeof(img));
	ck_assert_mem_eq(img, "CBI", 3);
	total = le16(img + 6);
	ck_assert_uint_ge(total, 8);
	ck_assert_uint_le(total, 128);
	ck_assert_uint_eq(img[3], crc8(img + 4, total - 4u));
	/* The first item is the board version: tag 0, 1 byte, 3. */
	ck_assert_uint_eq(img[8], CBI_TAG_BOARD_VERSION);
	ck_assert_uint_eq(img[9], 1);
	ck_assert_uint_eq(img[10], 3);

	/* Damage the magic over I2C: GET refuses, SET needs INIT. */
	{
		uint8_t w[8] = { 0, 1, 0x50, 0, 2, 0, 0x00, 'X' };

		ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, w, sizeof(w), out, 2, NULL),
				  EC_RES_SUCCESS);
		ck_assert_uint_eq(out[0], 0);
		ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, 8, NULL), EC_RES_INVALID_PARAM);
		ck_assert_uint_eq(cbi_set(CBI_TAG_SKU_ID, 0, "\x01", 1), EC_RES_ERROR);
		ck_assert_uint_eq(cbi_set(CBI_TAG_SKU_ID, CBI_SET_INIT, "\x01", 1),
				  EC_RES_SUCCESS);
		/* Write protected, the EEPROM refuses data (the address still sets). */
		ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_ASSERT), 0);
		ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU, w, sizeof(w), out, 2, NULL),
				  EC_RES_SUCCESS);
		ck_assert_uint_eq(out[0], EC_I2C_STATUS_NAK);
		ck_assert_uint_eq(cbi_get(CBI_TAG_SKU_ID, out, 8, NULL), EC_RES_SUCCESS);
	}
}
END_TEST

START_TEST(test_i2c_protect)
{
	uint8_t req[2] = { EC_CMD_I2C_PASSTHRU_PROTECT_STATUS, 0 }, out[8];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 1);
	ck_assert_uint_eq(out[0], 0);
	req[0] = EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE;
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, NULL, 0, NULL), EC_RES_SUCCESS);
	req[0] = EC_CMD_I2C_PASSTHRU_PROTECT_STATUS;
	run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, NULL);
	ck_assert_uint_eq(out[0], 1);
	ck_assert_uint_eq(i2c_read(0, 0x50, 0, 4, out, NULL), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(i2c_read(1, 0x0B, 0x09, 2, out, NULL), EC_RES_SUCCESS);

	/* ENABLE_TCPCS locks the TCPC buses (2 and 3), nothing else. */
	req[0] = EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE_TCPCS;
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, NULL, 0, NULL), EC_RES_SUCCESS);
	req[0] = EC_CMD_I2C_PASSTHRU_PROTECT_STATUS;
	req[1] = 3;
	run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, NULL);
	ck_assert_uint_eq(out[0], 1);
	req[1] = 1;
	run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, NULL);
	ck_assert_uint_eq(out[0], 0);

	req[1] = 4;	/* no such bus */
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, NULL),
			  EC_RES_INVALID_PARAM);
	req[0] = 9;
	req[1] = 0;
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 2, out, 1, NULL),
			  EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(run(EC_CMD_I2C_PASSTHRU_PROTECT, req, 1, out, 1, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

/* ---- LOCATE_CHIP, RAND_NUM ---- */

static uint32_t locate(struct ec *e, uint8_t type, uint8_t index, uint8_t *out)
{
	uint8_t req[4] = { type, index, 0, 0 };
	uint32_t status;

	hc(e, EC_CMD_LOCATE_CHIP, 0, req, 4, out, 6, &status);
	return status;
}

START_TEST(test_locate_chip)
{
	struct fake_clock fc2;
	struct ec *other;
	uint8_t out[6];

	ck_assert_uint_eq(locate(ec, EC_CHIP_TYPE_CBI_EEPROM, 0, out), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], EC_BUS_TYPE_I2C);
	ck_assert_uint_eq(le16(out + 2), 0);
	ck_assert_uint_eq(le16(out + 4), 0x50);
	ck_assert_uint_eq(locate(ec, EC_CHIP_TYPE_TCPC, 1, out), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(out + 2), 3);
	ck_assert_uint_eq(le16(out + 4), 0x0b);
	ck_assert_uint_eq(locate(ec, EC_CHIP_TYPE_CBI_EEPROM, 1, out), EC_RES_OVERFLOW);
	ck_assert_uint_eq(locate(ec, EC_CHIP_TYPE_TCPC, 2, out), EC_RES_OVERFLOW);
	ck_assert_uint_eq(locate(ec, 7, 0, out), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_LOCATE_CHIP, out, 1, out, 6, NULL), EC_RES_INVALID_PARAM);

	fake_clock_init(&fc2);
	other = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	ck_assert_uint_eq(locate(other, EC_CHIP_TYPE_TCPC, 0, out), EC_RES_SUCCESS);
	ck_assert_uint_eq(out[0], EC_BUS_TYPE_EMBEDDED);
	ck_assert_uint_eq(locate(other, EC_CHIP_TYPE_CBI_EEPROM, 0, out), EC_RES_SUCCESS);
	ck_assert_uint_eq(le16(out + 2), 2);
	ec_destroy(other);
	other = make_ec_file("ec/profiles/minimal.profile", &fc2);
	ck_assert_uint_eq(locate(other, EC_CHIP_TYPE_CBI_EEPROM, 0, out), EC_RES_UNAVAILABLE);
	ck_assert_uint_eq(locate(other, EC_CHIP_TYPE_TCPC, 0, out), EC_RES_UNAVAILABLE);
	ec_destroy(other);
}
END_TEST

START_TEST(test_rand_num)
{
	uint16_t n = 32;
	uint8_t a[32], b[32];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_RAND_NUM, &n, 2, a, 32, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 32);
	ck_assert_uint_eq(run(EC_CMD_RAND_NUM, &n, 2, b, 32, &ret), EC_RES_SUCCESS);
	/* 256 random bits twice the same: not a random source. */
	ck_assert(memcmp(a, b, sizeof(a)));
	n = 0;
	ck_assert_uint_eq(run(EC_CMD_RAND_NUM, &n, 2, a, 32, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 0);
	n = 33;
	ck_assert_uint_eq(run(EC_CMD_RAND_NUM, &n, 2, a, 32, &ret), EC_RES_OVERFLOW);

	/* A board without a TRNG does not have the command. */
	n = 4;
	ck_assert_uint_eq(status_on_board("ec/profiles/minimal.profile", EC_CMD_RAND_NUM, 0, &n, 2,
					  32), EC_RES_INVALID_COMMAND);
}
END_TEST

static Suite *board_info_suite(void)
{
	Suite *s = suite_create("board_info");
	TCase *tc = tcase_create("commands");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_adc_read);
	tcase_add_test(tc, test_cbi_get);
	tcase_add_test(tc, test_cbi_set);
	tcase_add_test(tc, test_i2c_smart_battery);
	tcase_add_test(tc, test_i2c_bad_inputs);
	tcase_add_test(tc, test_i2c_cbi_eeprom);
	tcase_add_test(tc, test_i2c_protect);
	tcase_add_test(tc, test_locate_chip);
	tcase_add_test(tc, test_rand_num);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(board_info_suite());
}
