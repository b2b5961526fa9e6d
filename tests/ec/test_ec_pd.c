// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_pd.c - the USB-PD/Type-C commands against the ports' live state:
 * alternate modes, the PD log fed by attach/detach and role changes, chip
 * and device info, discovery, TYPEC_CONTROL, USB_MUX, PD_CONTROL and the
 * charge port override, with their bad inputs. The two-port board has a
 * charger on port 0 and a DisplayPort dock on port 1, and a PD MCU behind
 * the EC (passthrough device 1): its answers, its state apart from the EC's,
 * what it refuses and GET_CMD_VERSIONS through the offset.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"
#include "../check_run.h"

static struct fake_clock fc;
static struct ec *ec;

static void setup(void)
{
	fake_clock_init(&fc);
	ec = make_ec_file("ec/profiles/usbc-dual.profile", &fc);
}

static void teardown(void)
{
	ec_destroy(ec);
	ec = NULL;
}

static uint32_t run(uint32_t cmd, uint32_t ver, const void *req, size_t len, void *resp,
		    size_t resp_max, int *ret)
{
	return hc_status(ec, cmd, ver, req, len, resp, resp_max, ret);
}

static uint8_t mux_flags(uint8_t port)
{
	uint8_t r;

	ck_assert_uint_eq(run(EC_CMD_USB_PD_MUX_INFO, 0, &port, 1, &r, 1, NULL), EC_RES_SUCCESS);
	return r;
}

static uint32_t set_amode(uint32_t cmd, uint16_t svid, uint8_t opos, uint8_t port)
{
	struct ec_params_usb_pd_set_mode_request p = { cmd, svid, opos, port };

	return run(EC_CMD_USB_PD_SET_AMODE, 0, &p, sizeof(p), NULL, 0, NULL);
}

/* Read the whole PD log: the entries' types in order, and ports. */
static unsigned int read_log(uint8_t *types, uint8_t *ports, uint16_t *data, unsigned int max)
{
	uint8_t r[64];
	unsigned int n = 0;

	for (;;) {
		ck_assert_uint_eq(run(EC_CMD_PD_GET_LOG_ENTRY, 0, NULL, 0, r, sizeof(r), NULL),
				  EC_RES_SUCCESS);
		if (r[4] == PD_EVENT_NO_ENTRY)
			return n;
		ck_assert_uint_lt(n, max);
		types[n] = r[4];
		ports[n] = r[5] >> PD_LOG_PORT_SHIFT;
		data[n] = le16(r + 6);
		n++;
	}
}

START_TEST(test_amode)
{
	struct ec_params_usb_pd_get_mode_request q = { 0, 1 };
	uint8_t r[28];
	int ret;

	/* The dock offers DP and is in DP mode at power-on. */
	ck_assert_uint_eq(run(EC_CMD_USB_PD_GET_AMODE, 0, &q, sizeof(q), r, 28, &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 28);
	ck_assert_uint_eq(le16(r), USB_SID_DISPLAYPORT);
	ck_assert_uint_eq(le16(r + 2), 1);
	ck_assert_uint_ne(le32(r + 4), 0);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DP_ENABLED, USB_PD_MUX_DP_ENABLED);

	ck_assert_uint_eq(set_amode(PD_EXIT_MODE, USB_SID_DISPLAYPORT, 1, 1), EC_RES_SUCCESS);
	run(EC_CMD_USB_PD_GET_AMODE, 0, &q, sizeof(q), r, 28, NULL);
	ck_assert_uint_eq(le16(r + 2), 0);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DP_ENABLED, 0);
	ck_assert_uint_eq(set_amode(PD_ENTER_MODE, USB_SID_DISPLAYPORT, 1, 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DP_ENABLED, USB_PD_MUX_DP_ENABLED);

	/* Past the last SVID, and on the charger: a bare zero SVID. */
	q.svid_idx = 1;
	run(EC_CMD_USB_PD_GET_AMODE, 0, &q, sizeof(q), r, 28, &ret);
	ck_assert_int_eq(ret, 2);
	ck_assert_uint_eq(le16(r), 0);
	q.svid_idx = 0;
	q.port = 0;
	run(EC_CMD_USB_PD_GET_AMODE, 0, &q, sizeof(q), r, 28, &ret);
	ck_assert_int_eq(ret, 2);

	/* Bad inputs. */
	q.port = 2;
	ck_assert_uint_eq(run(EC_CMD_USB_PD_GET_AMODE, 0, &q, sizeof(q), r, 28, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_amode(PD_ENTER_MODE, USB_SID_DISPLAYPORT, 1, 0),
			  EC_RES_INVALID_PARAM);			/* charger: no DP */
	ck_assert_uint_eq(set_amode(PD_ENTER_MODE, 0x8087, 1, 1), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_amode(PD_ENTER_MODE, USB_SID_DISPLAYPORT, 2, 1),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_amode(PD_MODE_CMD_COUNT, USB_SID_DISPLAYPORT, 1, 1),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(set_amode(PD_ENTER_MODE, USB_SID_DISPLAYPORT, 1, 2),
			  EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_pd_log)
{
	uint8_t types[EC_PD_LOG_LEN], ports[EC_PD_LOG_LEN], r[64];
	uint16_t data[EC_PD_LOG_LEN];
	unsigned int n;
	int ret;

	/* Boot: each attached partner, connect then power state. */
	n = read_log(types, ports, data, EC_PD_LOG_LEN);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(types[0], PD_EVENT_MCU_CONNECT);
	ck_assert_uint_eq(ports[0], 0);
	ck_assert_uint_eq(types[1], PD_EVENT_MCU_CHARGE);
	ck_assert_uint_eq(data[1] & 7, USB_PD_PORT_POWER_SINK);
	ck_assert_uint_eq(ports[3], 1);
	ck_assert_uint_eq(data[3] & 7, USB_PD_PORT_POWER_SOURCE);

	/* Unplugging the charger detaches port 0; plugging attaches it again. */
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	fake_clock_advance(&fc, 2 * NS_PER_S);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_PLUG), 0);
	ck_assert_uint_eq(run(EC_CMD_PD_GET_LOG_ENTRY, 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 16);			/* CHARGE: 8 + measures */
	ck_assert_uint_eq(r[4], PD_EVENT_MCU_CHARGE);
	ck_assert_uint_eq(le16(r + 6) & 7, USB_PD_PORT_POWER_DISCONNECTED);
	/* Two seconds ago, in 1024 us units. */
	ck_assert_uint_eq(le32(r), 2000000 / 1024);
	n = read_log(types, ports, data, EC_PD_LOG_LEN);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(types[0], PD_EVENT_MCU_CONNECT);
	ck_assert_uint_eq(data[1] & 7, USB_PD_PORT_POWER_SINK);

	/* A power-role swap and a DP mode change are logged too. */
	{
		struct ec_params_usb_pd_control p = { .port = 1, .swap = USB_PD_CTRL_SWAP_POWER };

		ck_assert_uint_eq(run(EC_CMD_USB_PD_CONTROL, 0, &p, sizeof(p), r, 4, NULL),
				  EC_RES_SUCCESS);
	}
	set_amode(PD_EXIT_MODE, USB_SID_DISPLAYPORT, 1, 1);
	n = read_log(types, ports, data, EC_PD_LOG_LEN);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(types[0], PD_EVENT_MCU_CHARGE);
	ck_assert_uint_eq(data[0] & 7, USB_PD_PORT_POWER_SINK_NOT_CHARGING);
	ck_assert_uint_eq(types[1], PD_EVENT_VIDEO_DP_MODE);
	ck_assert_uint_eq(data[1], 0);

	/* Too little room for an entry keeps it. */
	set_amode(PD_ENTER_MODE, USB_SID_DISPLAYPORT, 1, 1);
	ck_assert_uint_eq(run(EC_CMD_PD_GET_LOG_ENTRY, 0, NULL, 0, r, 7, NULL),
			  EC_RES_RESPONSE_TOO_BIG);
	ck_assert_uint_eq(read_log(types, ports, data, EC_PD_LOG_LEN), 1);
}
END_TEST

START_TEST(test_chip_and_dev_info)
{
	uint8_t port[2] = { 1, 0 }, r[32];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_PD_CHIP_INFO, 0, port, 2, r, 32, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 14);
	ck_assert_uint_eq(le16(r), 0x048d);
	ck_assert_uint_eq(le16(r + 2), 0x8320);
	ck_assert_uint_eq(le16(r + 6), 0x0105);
	ck_assert_uint_eq(run(EC_CMD_PD_CHIP_INFO, 1, port, 2, r, 32, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 22);
	ck_assert_uint_eq(run(EC_CMD_USB_PD_DEV_INFO, 0, port, 1, r, 32, &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 27);
	ck_assert_uint_eq(le16(r), 0);

	port[0] = 2;
	ck_assert_uint_eq(run(EC_CMD_PD_CHIP_INFO, 0, port, 2, r, 32, NULL), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_USB_PD_DEV_INFO, 0, port, 1, r, 32, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_PD_CHIP_INFO, 0, NULL, 0, r, 32, NULL), EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_discovery)
{
	uint8_t q[2] = { 1, TYPEC_PARTNER_SOP }, r[128];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 28 + 28);
	ck_assert_uint_eq(r[0], 3);
	ck_assert_uint_eq(r[1], 1);
	ck_assert_uint_eq(le32(r + 4) & 0xFFFF, 0x2109);	/* the dock's VID */
	ck_assert(le32(r + 4) & (1u << 26));			/* modal */
	ck_assert_uint_eq(le32(r + 12) >> 16, 0x0102);		/* its PID */
	ck_assert_uint_eq(le16(r + 28), USB_SID_DISPLAYPORT);
	ck_assert_uint_eq(le16(r + 30), 1);

	q[0] = 0;						/* the charger */
	run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), &ret);
	ck_assert_int_eq(ret, 28);
	ck_assert_uint_eq(r[0], 3);
	ck_assert_uint_eq(r[1], 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), &ret);
	ck_assert_uint_eq(r[0], 0);				/* nothing attached */
	q[1] = TYPEC_PARTNER_SOP_PRIME;
	run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), &ret);
	ck_assert_uint_eq(r[0], 0);

	/* TYPEC_STATUS: PD 3.0 in BCD, major in the top nibble (as ectool reads it). */
	{
		struct ec_response_typec_status st;
		uint8_t port = 1;

		ck_assert_uint_eq(run(EC_CMD_TYPEC_STATUS, 0, &port, 1, &st, sizeof(st), NULL),
				  EC_RES_SUCCESS);
		ck_assert_uint_eq(st.sop_revision, 0x3000);
	}
	q[1] = 2;
	ck_assert_uint_eq(run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	q[0] = 5;
	q[1] = 0;
	ck_assert_uint_eq(run(EC_CMD_TYPEC_DISCOVERY, 0, q, 2, r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

static uint32_t typec_control(uint8_t port, uint8_t command, uint8_t a, uint8_t b)
{
	struct ec_params_typec_control p = { .port = port, .command = command };

	p.placeholder[0] = a;
	p.placeholder[1] = b;
	return run(EC_CMD_TYPEC_CONTROL, 0, &p, sizeof(p), NULL, 0, NULL);
}

START_TEST(test_typec_control_and_mux)
{
	uint8_t mux;

	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_EXIT_MODES, 0, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DP_ENABLED, 0);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_ENTER_MODE, TYPEC_MODE_DP, 0),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DP_ENABLED, USB_PD_MUX_DP_ENABLED);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_ENTER_MODE, TYPEC_MODE_TBT, 0),
			  EC_RES_ERROR);
	ck_assert_uint_eq(typec_control(0, TYPEC_CONTROL_COMMAND_ENTER_MODE, TYPEC_MODE_DP, 0),
			  EC_RES_ERROR);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_ENTER_MODE, 9, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_USB_MUX_SET, 0,
					USB_PD_MUX_USB_ENABLED), EC_RES_SUCCESS);
	ck_assert_uint_eq(mux_flags(1) & USB_PD_MUX_DOCK, USB_PD_MUX_USB_ENABLED);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_USB_MUX_SET, 1, 0),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(typec_control(1, TYPEC_CONTROL_COMMAND_TBT_UFP_REPLY, 0, 0),
			  EC_RES_UNAVAILABLE);
	ck_assert_uint_eq(typec_control(1, 40, 0, 0), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(typec_control(2, TYPEC_CONTROL_COMMAND_EXIT_MODES, 0, 0),
			  EC_RES_INVALID_PARAM);

	/* USB_MUX sets port 0's mux. */
	mux = USB_PD_MUX_DOCK;
	ck_assert_uint_eq(run(EC_CMD_USB_MUX, 0, &mux, 1, NULL, 0, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(mux_flags(0) & USB_PD_MUX_DOCK, USB_PD_MUX_DOCK);
	mux = 0;
	run(EC_CMD_USB_MUX, 0, &mux, 1, NULL, 0, NULL);
	ck_assert_uint_eq(mux_flags(0) & USB_PD_MUX_DOCK, 0);
	mux = 4;
	ck_assert_uint_eq(run(EC_CMD_USB_MUX, 0, &mux, 1, NULL, 0, NULL), EC_RES_INVALID_PARAM);
}
END_TEST

static uint32_t pd_control(uint8_t chip, uint8_t sub)
{
	uint8_t p[2] = { chip, sub };

	return run(EC_CMD_PD_CONTROL, 0, p, 2, NULL, 0, NULL);
}

START_TEST(test_pd_control)
{
	struct ec_params_usb_pd_control q = { .port = 0 };
	uint8_t r[4], types[EC_PD_LOG_LEN], ports[EC_PD_LOG_LEN];
	uint16_t data[EC_PD_LOG_LEN];

	read_log(types, ports, data, EC_PD_LOG_LEN);
	ck_assert_uint_eq(pd_control(0, PD_SUSPEND), EC_RES_SUCCESS);
	run(EC_CMD_USB_PD_CONTROL, 0, &q, sizeof(q), r, 4, NULL);
	ck_assert_uint_eq(r[0] & PD_CTRL_RESP_ENABLED_COMMS, 0);
	ck_assert_uint_eq(pd_control(0, PD_RESUME), EC_RES_SUCCESS);
	run(EC_CMD_USB_PD_CONTROL, 0, &q, sizeof(q), r, 4, NULL);
	ck_assert_uint_eq(r[0] & PD_CTRL_RESP_ENABLED_COMMS, PD_CTRL_RESP_ENABLED_COMMS);
	ck_assert_uint_eq(pd_control(0, PD_RESET), EC_RES_SUCCESS);
	ck_assert_uint_eq(read_log(types, ports, data, EC_PD_LOG_LEN), 2);	/* found again */
	ck_assert_uint_eq(pd_control(0, PD_CHIP_ON), EC_RES_SUCCESS);
	ck_assert_uint_eq(pd_control(0, 9), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(pd_control(2, PD_RESUME), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(pd_control(0, PD_CONTROL_DISABLE), EC_RES_SUCCESS);
	ck_assert_uint_eq(pd_control(0, PD_RESUME), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(run(EC_CMD_REBOOT_EC, 0, (uint8_t[2]){ EC_REBOOT_COLD }, 2, NULL, 0,
			      NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(pd_control(0, PD_RESUME), EC_RES_SUCCESS);
}
END_TEST

static int battery_ma(void)
{
	uint8_t idx = 0, r[14];

	fake_clock_advance(&fc, NS_PER_S);
	ck_assert_uint_eq(run(EC_CMD_BATTERY_GET_DYNAMIC, 0, &idx, 1, r, 14, NULL),
			  EC_RES_SUCCESS);
	return (int16_t)le16(r + 2);
}

static uint32_t override(int16_t port)
{
	return run(EC_CMD_PD_CHARGE_PORT_OVERRIDE, 0, &port, 2, NULL, 0, NULL);
}

START_TEST(test_charge_port_override)
{
	ck_assert_int_gt(battery_ma(), 0);
	ck_assert_uint_eq(override(OVERRIDE_DONT_CHARGE), EC_RES_SUCCESS);
	ck_assert_int_lt(battery_ma(), 0);	/* runs from the battery, adapter attached */
	ck_assert_uint_eq(override(0), EC_RES_SUCCESS);
	ck_assert_int_gt(battery_ma(), 0);
	ck_assert_uint_eq(override(OVERRIDE_OFF), EC_RES_SUCCESS);
	ck_assert_uint_eq(override(1), EC_RES_ERROR);		/* the dock is no charger */
	ck_assert_uint_eq(override(2), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(override(-3), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(EC_CMD_PD_CHARGE_PORT_OVERRIDE, 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

/* ---- the PD MCU behind the EC (passthrough device 1) ---- */

#define PD1(cmd)	(EC_CMD_PASSTHRU_OFFSET(1) + (cmd))

/* GET_CMD_VERSIONS v1 of @cmd through the offset: the mask, 0 = refused. */
static uint32_t pd_versions(uint32_t cmd)
{
	uint8_t req[2] = { (uint8_t)cmd, (uint8_t)(cmd >> 8) }, r[4];
	uint32_t st = run(PD1(EC_CMD_GET_CMD_VERSIONS), 1, req, 2, r, 4, NULL);

	if (st == EC_RES_INVALID_PARAM)
		return 0;
	ck_assert_msg(st == EC_RES_SUCCESS, "GET_CMD_VERSIONS 0x%x: status %u", cmd, st);
	return le32(r);
}

/* GET_UPTIME_INFO of the EC (dev 0) or the PD MCU (dev 1): uptime, reset flags. */
static uint32_t uptime_ms(uint32_t dev, uint32_t *reset_flags)
{
	uint8_t r[44];
	int ret;

	ck_assert_uint_eq(run(EC_CMD_PASSTHRU_OFFSET(dev) + EC_CMD_GET_UPTIME_INFO, 0, NULL, 0,
			      r, sizeof(r), &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 44);
	*reset_flags = le32(r + 8);
	return le32(r);
}

START_TEST(test_pd_mcu_identity)
{
	uint8_t req[4] = { 1, 0, 0, 0 }, r[256];
	int ret;

	ck_assert_uint_eq(run(PD1(EC_CMD_HELLO), 0, req, 4, r, 4, &ret), EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(r), 1 + 0x01020304u);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_VERSION), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 100);
	ck_assert_str_eq((char *)r, "dual_pd_v1.0.5");
	ck_assert_str_eq((char *)r + 32, "dual_pd_v1.0.5");
	ck_assert_uint_eq(le32(r + 96), EC_IMAGE_RW);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_VERSION), 1, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 132);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_BUILD_INFO), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_str_eq((char *)r, "dual_pd_v1.0.5 2026-02-01 08:30:00 builder@cuse-ec");
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_CHIP_INFO), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 96);
	ck_assert_str_eq((char *)r, "st");
	ck_assert_str_eq((char *)r + 32, "stm32f07x");
	/* The EC's own chip is another. */
	run(EC_CMD_GET_CHIP_INFO, 0, NULL, 0, r, sizeof(r), NULL);
	ck_assert_str_eq((char *)r + 32, "it81202");
	ck_assert_uint_eq(run(PD1(EC_CMD_FLASH_INFO), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 16);
	ck_assert_uint_eq(run(PD1(EC_CMD_FLASH_INFO), 1, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 24);
	ck_assert_uint_eq(le32(r), 128 * 1024);
	ck_assert_uint_eq(le32(r + 4), 2);
	ck_assert_uint_eq(le32(r + 8), 2048);
	ck_assert_uint_eq(le32(r + 12), 4096);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_PROTOCOL_INFO), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 12);
	ck_assert_uint_eq(le16(r + 4), 544);
	ck_assert_uint_eq(le16(r + 6), 544);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_FEATURES), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(r) | le32(r + 4), 0);
	ck_assert_uint_eq(run(PD1(EC_CMD_SYSINFO), 0, NULL, 0, r, sizeof(r), &ret),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(r), EC_RESET_FLAG_POWER_ON);
}
END_TEST

/* Each side's uptime and reset cause restart with its own reboot only. */
START_TEST(test_pd_mcu_own_state)
{
	struct ec_params_reboot_ec cold = { .cmd = EC_REBOOT_COLD };
	uint32_t flags;

	fake_clock_advance(&fc, 5 * NS_PER_S);
	ck_assert_uint_eq(uptime_ms(1, &flags), 5000);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_POWER_ON);
	ck_assert_uint_eq(run(PD1(EC_CMD_REBOOT_EC), 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	fake_clock_advance(&fc, 2 * NS_PER_S);
	ck_assert_uint_eq(uptime_ms(1, &flags), 2000);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD);
	ck_assert_uint_eq(uptime_ms(0, &flags), 7000);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_POWER_ON);
	ck_assert_uint_eq(ec_cold_resets(ec), 0);		/* the device stays */

	/* The reverse: the EC reboots, the PD MCU runs on. */
	ck_assert_uint_eq(run(EC_CMD_REBOOT_EC, 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_cold_resets(ec), 1);
	fake_clock_advance(&fc, 1 * NS_PER_S);
	ck_assert_uint_eq(uptime_ms(0, &flags), 1000);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD);
	ck_assert_uint_eq(uptime_ms(1, &flags), 3000);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD);
}
END_TEST

/*
 * Through the offset, what GET_CMD_VERSIONS lists is docs/ec-commands.md's
 * list for the PD MCU; each listed command answers at every version it lists
 * and at no other, everything else is INVALID_COMMAND; the EC's own
 * GET_CMD_VERSIONS v1 of the offset number says the same.
 */
START_TEST(test_pd_mcu_cmd_versions)
{
	uint8_t r[256];
	uint32_t cmd, mask, listed = 0;

	check_doc_answered_list(ec->passthru[1], "pd-mcu");
	for (cmd = 0; cmd < EC_CMD_PASSTHRU_OFFSET(1); cmd++) {
		uint8_t req[2] = { (uint8_t)(cmd + 0x4000), (uint8_t)((cmd + 0x4000) >> 8) };
		uint32_t st, ec_st, ver;

		mask = pd_versions(cmd);
		ec_st = run(EC_CMD_GET_CMD_VERSIONS, 1, req, 2, r, 4, NULL);
		ck_assert_uint_eq(ec_st, mask ? EC_RES_SUCCESS : EC_RES_INVALID_PARAM);
		if (mask)
			ck_assert_uint_eq(le32(r), mask);
		/* A refused command is refused whatever it carries. */
		if (!mask) {
			st = run(PD1(cmd), 0, NULL, 0, r, sizeof(r), NULL);
			ck_assert_msg(st == EC_RES_INVALID_COMMAND, "0x%x: status %u", cmd, st);
			continue;
		}
		listed++;
		for (ver = 0; ver < 32; ver++) {
			st = run(PD1(cmd), ver, NULL, 0, r, sizeof(r), NULL);
			if (mask & (1u << ver))
				ck_assert_msg(st != EC_RES_INVALID_COMMAND &&
					      st != EC_RES_INVALID_VERSION,
					      "0x%x v%u: status %u", cmd, ver, st);
			else
				ck_assert_msg(st == EC_RES_INVALID_VERSION, "0x%x v%u: status %u",
					      cmd, ver, st);
		}
	}
	ck_assert_uint_eq(listed, 16);	/* the list's length, that it is not empty */
}
END_TEST

START_TEST(test_pd_mcu_bad_inputs)
{
	static const uint16_t laptop_only[] = {
		EC_CMD_READ_MEMMAP, EC_CMD_RTC_GET_VALUE, EC_CMD_CHARGE_STATE,
		EC_CMD_BATTERY_GET_STATIC, EC_CMD_USB_PD_PORTS, EC_CMD_CONSOLE_SNAPSHOT,
		EC_CMD_GET_NEXT_EVENT, EC_CMD_FLASH_READ, EC_CMD_FP_INFO, EC_CMD_PD_CHIP_INFO,
	};
	struct ec_params_reboot_ec bad = { .cmd = 0x55 };
	static const uint8_t big[600];
	uint8_t req[4] = { 1, 0, 0, 0 }, r[256];
	uint32_t flags, ec_flags;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(laptop_only) / sizeof(laptop_only[0]); i++)
		ck_assert_msg(run(PD1(laptop_only[i]), 0, NULL, 0, r, sizeof(r), NULL) ==
			      EC_RES_INVALID_COMMAND, "0x%x answered", laptop_only[i]);
	/* Devices the profile does not declare. */
	ck_assert_uint_eq(run(EC_CMD_PASSTHRU_OFFSET(2) + EC_CMD_HELLO, 0, req, 4, r, 4, NULL),
			  EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(run(EC_CMD_PASSTHRU_OFFSET(3) + EC_CMD_GET_VERSION, 0, NULL, 0, r,
			      sizeof(r), NULL), EC_RES_INVALID_COMMAND);
	/* Bad versions. */
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_VERSION), 2, NULL, 0, r, sizeof(r), NULL),
			  EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(run(PD1(EC_CMD_HELLO), 1, req, 4, r, 4, NULL), EC_RES_INVALID_VERSION);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_UPTIME_INFO), 255, NULL, 0, r, sizeof(r), NULL),
			  EC_RES_INVALID_VERSION);
	/* Short requests and bad parameters. */
	ck_assert_uint_eq(run(PD1(EC_CMD_REBOOT_EC), 0, NULL, 0, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(PD1(EC_CMD_REBOOT_EC), 0, &bad, sizeof(bad), NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_CMD_VERSIONS), 1, NULL, 0, r, 4, NULL),
			  EC_RES_INVALID_PARAM);		/* command 0: none */
	ck_assert_uint_eq(run(PD1(EC_CMD_TEST_PROTOCOL), 0, req, 4, r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	/* Too little room for the answer. */
	ck_assert_uint_eq(run(PD1(EC_CMD_GET_CHIP_INFO), 0, NULL, 0, r, 95, NULL),
			  EC_RES_RESPONSE_TOO_BIG);
	/* A request past the EC's own limit never reaches the chip. */
	ck_assert_uint_eq(run(PD1(EC_CMD_HELLO), 0, big, 544 - 8 + 1, r, 4, &ret), EC_RES_ERROR);
	ck_assert_int_eq(ret, -EMSGSIZE);
	/* None of it reset the chip: booted with the EC, never since. */
	ck_assert_uint_eq(uptime_ms(1, &flags), uptime_ms(0, &ec_flags));
	ck_assert_uint_eq(flags, EC_RESET_FLAG_POWER_ON);
}
END_TEST

/* A saved state is the EC's only: a load leaves the chip as it is. */
START_TEST(test_pd_mcu_not_in_state)
{
	struct ec_params_reboot_ec cold = { .cmd = EC_REBOOT_COLD };
	struct fake_clock fc2;
	struct ec *other;
	uint8_t r[44];
	uint32_t flags;
	size_t len;
	void *blob;
	char err[128];

	ck_assert_int_eq(ec_state_save(ec, &blob, &len), 0);
	ck_assert_uint_eq(run(PD1(EC_CMD_REBOOT_EC), 0, &cold, sizeof(cold), NULL, 0, NULL),
			  EC_RES_SUCCESS);
	ck_assert_int_gt(ec_state_load(ec, blob, len, err, sizeof(err)), 0);
	free(blob);
	uptime_ms(1, &flags);
	ck_assert_uint_eq(flags, EC_RESET_FLAG_HARD);		/* still the rebooted chip */
	ck_assert_int_eq(ec_state_save(ec, &blob, &len), 0);

	fake_clock_init(&fc2);
	other = make_ec_file("ec/profiles/usbc-dual.profile", &fc2);
	ck_assert_int_gt(ec_state_load(other, blob, len, err, sizeof(err)), 0);
	free(blob);
	ck_assert_uint_eq(hc_status(other, PD1(EC_CMD_GET_UPTIME_INFO), 0, NULL, 0, r, sizeof(r),
				    NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(r + 8), EC_RESET_FLAG_POWER_ON);	/* a fresh chip */
	ec_destroy(other);
}
END_TEST

/* The pd kind on its own (a cros_pd node): the core, nothing of a laptop. */
START_TEST(test_pd_kind_profile)
{
	struct fake_clock fc2;
	struct ec *pd;
	struct ec_profile prof;
	uint8_t req[4] = { 1, 0, 0, 0 }, r[64];

	fake_clock_init(&fc2);
	pd = make_ec_text("[ec]\nkind = pd\n", &fc2);
	ck_assert_uint_eq(hc_status(pd, EC_CMD_HELLO, 0, req, 4, r, 4, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(pd, EC_CMD_CHARGE_STATE, 0, NULL, 0, r, sizeof(r), NULL),
			  EC_RES_INVALID_COMMAND);
	ck_assert_uint_eq(hc_status(pd, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, r, sizeof(r), NULL),
			  EC_RES_INVALID_COMMAND);
	ec_destroy(pd);
	/* The parent must declare the device. */
	ck_assert_int_eq(ec_profile_passthru(&ec->prof, 1, &prof), 0);
	ck_assert_uint_eq(prof.kind, EC_KIND_PD);
	ck_assert_int_eq(ec_profile_passthru(&ec->prof, 2, &prof), -EINVAL);
	ck_assert_int_eq(ec_profile_passthru(&ec->prof, 0, &prof), -EINVAL);
	ck_assert_int_eq(ec_profile_passthru(&ec->prof, 4, &prof), -EINVAL);
}
END_TEST

static Suite *pd_suite(void)
{
	Suite *s = suite_create("pd");
	TCase *tc = tcase_create("pd");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_amode);
	tcase_add_test(tc, test_pd_log);
	tcase_add_test(tc, test_chip_and_dev_info);
	tcase_add_test(tc, test_discovery);
	tcase_add_test(tc, test_typec_control_and_mux);
	tcase_add_test(tc, test_pd_control);
	tcase_add_test(tc, test_charge_port_override);
	suite_add_tcase(s, tc);
	tc = tcase_create("pd_mcu");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pd_mcu_identity);
	tcase_add_test(tc, test_pd_mcu_own_state);
	tcase_add_test(tc, test_pd_mcu_cmd_versions);
	tcase_add_test(tc, test_pd_mcu_bad_inputs);
	tcase_add_test(tc, test_pd_mcu_not_in_state);
	tcase_add_test(tc, test_pd_kind_profile);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(pd_suite());
}
