// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_state.c - the EC's live state under a fake clock (battery, fans,
 * temperatures), memory-map consistency with the host commands, READMEM
 * bounds, time-driven events and the memory budget (MKBP delivery:
 * test_ec_notifier.c).
 */
#include <check.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/cros_ec_dev.h"
#include "ec_test_util.h"
#include "../check_run.h"

#define MINUTE (60 * NS_PER_S)
#define HOUR (60 * MINUTE)

EC_TEST_FIXTURE(NULL);

static void memmap(struct ec *e, uint8_t *map)
{
	ck_assert_int_eq(ec_read_memmap(e, 0, 255, map), 255);
	ck_assert_int_eq(ec_read_memmap(e, 255, 1, map + 255), 1);
}

static void dynamic(struct ec *e, struct ec_response_battery_dynamic_info *d)
{
	uint8_t req = 0;
	uint32_t status;

	ck_assert_int_eq(hc(e, EC_CMD_BATTERY_GET_DYNAMIC, 0, &req, 1, d, sizeof(*d), &status),
			 14);
}

/* Every battery, switch and event byte of the map against the commands. */
static void check_consistent(struct ec *e)
{
	struct ec_response_battery_dynamic_info d;
	struct ec_response_battery_static_info s;
	uint8_t map[256], via_cmd[256], req[2];
	uint32_t status;
	unsigned int off;

	memmap(e, map);
	dynamic(e, &d);
	req[0] = 0;
	hc(e, EC_CMD_BATTERY_GET_STATIC, 0, req, 1, &s, sizeof(s), &status);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_VOLT), (uint16_t)d.actual_voltage);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_RATE), (uint32_t)abs(d.actual_current));
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_CAP), (uint16_t)d.remaining_capacity);
	ck_assert_uint_eq(map[EC_MEMMAP_BATT_FLAG], (uint16_t)d.flags);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_LFCC), (uint16_t)d.full_capacity);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_DCAP), s.design_capacity);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_DVLT), s.design_voltage);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_CCNT), s.cycle_count);
	ck_assert_mem_eq(map + EC_MEMMAP_BATT_MFGR, s.manufacturer, 8);
	ck_assert_mem_eq(map + EC_MEMMAP_BATT_MODEL, s.model, 8);
	ck_assert_mem_eq(map + EC_MEMMAP_BATT_SERIAL, s.serial, 8);
	ck_assert_mem_eq(map + EC_MEMMAP_BATT_TYPE, s.type, 8);
	ck_assert_uint_eq(map[EC_MEMMAP_SWITCHES] & EC_SWITCH_LID_OPEN, e->lid_open);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_HOST_EVENTS), e->host_events);
	/* READ_MEMMAP (the fallback path) returns the very same bytes. */
	for (off = 0; off < 256; off += 128) {
		req[0] = (uint8_t)off;
		req[1] = 128;
		ck_assert_int_eq(hc(e, EC_CMD_READ_MEMMAP, 0, req, 2, via_cmd + off, 128, &status),
				 128);
	}
	ck_assert_mem_eq(map, via_cmd, 256);
}

START_TEST(test_memmap_layout)
{
	uint8_t map[256];
	unsigned int i;

	memmap(ec, map);
	ck_assert_mem_eq(map + EC_MEMMAP_ID, "EC", 2);
	ck_assert_uint_eq(map[EC_MEMMAP_ID_VERSION], 1);
	ck_assert_uint_eq(map[EC_MEMMAP_THERMAL_VERSION], 2);
	ck_assert_uint_eq(map[EC_MEMMAP_BATTERY_VERSION], 1);
	ck_assert_uint_eq(map[EC_MEMMAP_SWITCHES_VERSION], 1);
	ck_assert_uint_eq(map[EC_MEMMAP_EVENTS_VERSION], 2);
	ck_assert_uint_eq(map[EC_MEMMAP_HOST_CMD_FLAGS], EC_HOST_CMD_FLAG_VERSION_3);
	/* Three sensors at their ambient temperatures, the rest absent. */
	ck_assert_uint_eq(map[0], 318 - 200);
	ck_assert_uint_eq(map[1], 310 - 200);
	ck_assert_uint_eq(map[2], 303 - 200);
	for (i = 3; i < 16; i++)
		ck_assert_uint_eq(map[i], EC_TEMP_SENSOR_NOT_PRESENT);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(map[EC_MEMMAP_TEMP_SENSOR_B + i], EC_TEMP_SENSOR_NOT_PRESENT);
	/* One fan, then the 0xFFFF terminator. */
	ck_assert_uint_ne(le16(map + EC_MEMMAP_FAN), 0xFFFF);
	for (i = 1; i < 4; i++)
		ck_assert_uint_eq(le16(map + EC_MEMMAP_FAN + 2 * i), EC_FAN_SPEED_NOT_PRESENT);
	ck_assert_uint_eq(map[EC_MEMMAP_SWITCHES],
			  EC_SWITCH_LID_OPEN | EC_SWITCH_WRITE_PROTECT_DISABLED);
	ck_assert_uint_eq(map[EC_MEMMAP_BATT_FLAG],
			  EC_BATT_FLAG_AC_PRESENT | EC_BATT_FLAG_BATT_PRESENT);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_DCAP), 4800);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_CCNT), 42);
	ck_assert_uint_eq(map[EC_MEMMAP_BATT_COUNT], 1);
	ck_assert_str_eq((char *)map + EC_MEMMAP_BATT_MFGR, "SMP");
	ck_assert_str_eq((char *)map + EC_MEMMAP_BATT_TYPE, "LION");
	check_consistent(ec);
}
END_TEST

START_TEST(test_memmap_bounds)
{
	uint8_t buf[300];

	memset(buf, 0xEE, sizeof(buf));
	ck_assert_int_eq(ec_read_memmap(ec, 256, 1, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 0, 256, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 250, 7, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 0xFFFFFFFFu, 1, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 1, 0xFFFFFFFFu, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 0, 1, NULL), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(NULL, 0, 1, buf), -EINVAL);
	ck_assert_int_eq(ec_read_memmap(ec, 249, 7, buf), 7);
	ck_assert_uint_eq(buf[7], 0xEE);
	/* Strings: the count includes the NUL. */
	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_BATT_MFGR, 0, buf), 4);
	ck_assert_str_eq((char *)buf, "SMP");
	/* A string running to the end of the map stops there. */
	ck_assert_int_eq(ec_read_memmap(ec, 255, 0, buf), 1);
	/* Zero bytes everywhere after 0x80: a 1-byte empty string. */
	ck_assert_int_eq(ec_read_memmap(ec, 0xF0, 0, buf), 1);
}
END_TEST

START_TEST(test_battery_discharges_and_charges)
{
	struct ec_response_battery_dynamic_info d0, d1;
	uint8_t map[256];

	dynamic(ec, &d0);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_AC_UNPLUG), 0);
	fake_clock_advance(&fc, 30 * MINUTE);
	dynamic(ec, &d1);
	/* 450 mA idle + 20 % of 2600 mA load = 970 mA for half an hour. */
	ck_assert_int_lt(d1.remaining_capacity, d0.remaining_capacity - 470);
	ck_assert_int_gt(d1.remaining_capacity, d0.remaining_capacity - 500);
	ck_assert_int_eq(d1.actual_current, -970);
	ck_assert(d1.flags & EC_BATT_FLAG_DISCHARGING);
	ck_assert(!(d1.flags & EC_BATT_FLAG_AC_PRESENT));
	ck_assert_int_lt(d1.actual_voltage, d0.actual_voltage);
	memmap(ec, map);
	ck_assert_uint_eq(map[EC_MEMMAP_BATT_FLAG],
			  EC_BATT_FLAG_BATT_PRESENT | EC_BATT_FLAG_DISCHARGING);
	check_consistent(ec);

	ec_apply_stimulus(ec, EC_STIM_AC_PLUG);
	fake_clock_advance(&fc, 10 * MINUTE);
	dynamic(ec, &d0);
	ck_assert(d0.flags & EC_BATT_FLAG_CHARGING);
	ck_assert_int_eq(d0.actual_current, 2400);
	ck_assert_int_gt(d0.remaining_capacity, d1.remaining_capacity + 390);
	check_consistent(ec);

	/* Hours later it is full and the current has stopped. */
	fake_clock_advance(&fc, 5 * HOUR);
	dynamic(ec, &d0);
	ck_assert_int_eq(d0.remaining_capacity, 4650);
	ck_assert_int_eq(d0.actual_current, 0);
	ck_assert(!(d0.flags & (EC_BATT_FLAG_CHARGING | EC_BATT_FLAG_DISCHARGING)));
	ck_assert(ec->host_events & EC_HOST_EVENT_MASK(EC_HOST_EVENT_BATTERY));
	check_consistent(ec);
}
END_TEST

static const char small_battery[] =
	"[battery]\ndesign_capacity = 100\ndesign_voltage = 7600\ncharge = 100\n"
	"charge_current = 3000\nidle_current = 1000\nload_current = 0\ncycle_count = 3\n"
	"low = 20\ncritical = 5\n";

START_TEST(test_cycle_count_and_thresholds)
{
	struct fake_clock fc2;
	struct ec *e;
	struct test_listener l;
	uint8_t ev[32], map[256];
	uint32_t seen = 0;
	int i, n;

	fake_clock_init(&fc2);
	e = make_ec_text(small_battery, &fc2);
	test_listener_init(&l, 1u << EC_MKBP_EVENT_HOST_EVENT);
	ck_assert_int_eq(ec_notifier_register(e, &l.nb), 0);
	for (i = 0; i < 3; i++) {
		ec_apply_stimulus(e, EC_STIM_AC_UNPLUG);
		fake_clock_advance(&fc2, 7 * MINUTE);
		ec_apply_stimulus(e, EC_STIM_AC_PLUG);
		fake_clock_advance(&fc2, 10 * MINUTE);
	}
	memmap(e, map);
	ck_assert_uint_eq(le32(map + EC_MEMMAP_BATT_CCNT), 6);
	check_consistent(e);
	while ((n = test_listener_pop(&l, ev, sizeof(ev))) > 0) {
		ck_assert_int_eq(n, 5);
		ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_HOST_EVENT);
		seen |= le32(ev + 1);
	}
	ck_assert_int_eq(n, -EAGAIN);
	ck_assert(seen & EC_HOST_EVENT_MASK(EC_HOST_EVENT_BATTERY_LOW));
	ck_assert(seen & EC_HOST_EVENT_MASK(EC_HOST_EVENT_BATTERY_CRITICAL));
	ck_assert(seen & EC_HOST_EVENT_MASK(EC_HOST_EVENT_AC_CONNECTED));
	ck_assert(seen & EC_HOST_EVENT_MASK(EC_HOST_EVENT_AC_DISCONNECTED));
	ck_assert(seen & EC_HOST_EVENT_MASK(EC_HOST_EVENT_BATTERY));
	ec_destroy(e);
	test_listener_fini(&l);
}
END_TEST

START_TEST(test_charge_control_modes)
{
	struct ec_params_charge_control p = { .mode = CHARGE_CONTROL_DISCHARGE };
	struct ec_response_battery_dynamic_info d;
	uint8_t resp[8];
	uint32_t status;

	p.sustain_soc_lower = -1;
	p.sustain_soc_upper = -1;
	hc(ec, EC_CMD_CHARGE_CONTROL, 2, &p, sizeof(p), resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	fake_clock_advance(&fc, MINUTE);
	dynamic(ec, &d);
	ck_assert_int_lt(d.actual_current, 0);	/* on AC, yet discharging */
	p.mode = CHARGE_CONTROL_IDLE;
	hc(ec, EC_CMD_CHARGE_CONTROL, 2, &p, sizeof(p), resp, sizeof(resp), &status);
	fake_clock_advance(&fc, MINUTE);
	dynamic(ec, &d);
	ck_assert_int_eq(d.actual_current, 0);
	/* Sustainer: charging stops at the upper bound. */
	p.mode = CHARGE_CONTROL_NORMAL;
	p.sustain_soc_lower = 70;
	p.sustain_soc_upper = 82;
	hc(ec, EC_CMD_CHARGE_CONTROL, 2, &p, sizeof(p), resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	fake_clock_advance(&fc, 2 * HOUR);
	dynamic(ec, &d);
	ck_assert_int_eq(d.actual_current, 0);
	ck_assert_int_le(d.remaining_capacity, 4650 * 83 / 100);
}
END_TEST

static uint16_t fan_rpm(struct ec *e)
{
	uint8_t map[2];

	ck_assert_int_eq(ec_read_memmap(e, EC_MEMMAP_FAN, 2, map), 2);
	return le16(map);
}

static uint8_t cpu_temp(struct ec *e)
{
	uint8_t t;

	ck_assert_int_eq(ec_read_memmap(e, EC_MEMMAP_TEMP_SENSOR, 1, &t), 1);
	return t;
}

START_TEST(test_fans_follow_duty_and_rpm)
{
	uint8_t req[5] = { 50, 0, 0, 0, 0 };
	uint32_t status;

	hc(ec, EC_CMD_PWM_SET_FAN_DUTY, 0, req, 4, NULL, 0, &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	fake_clock_advance(&fc, 30 * NS_PER_S);
	ck_assert_int_ge(fan_rpm(ec), 2990);
	ck_assert_int_le(fan_rpm(ec), 3010);

	/* Target RPM through v1 for fan 0; clamped to the fan's maximum. */
	req[0] = 0xA0;
	req[1] = 0x0F;	/* 4000 */
	hc(ec, EC_CMD_PWM_SET_FAN_TARGET_RPM, 1, req, 5, NULL, 0, &status);
	ck_assert_uint_eq(status, EC_RES_SUCCESS);
	fake_clock_advance(&fc, 30 * NS_PER_S);
	ck_assert_int_eq(fan_rpm(ec), 4000);
	req[0] = 0x70;
	req[1] = 0x17;	/* 6000 */
	req[2] = 0x01;	/* 71536 */
	hc(ec, EC_CMD_PWM_SET_FAN_TARGET_RPM, 0, req, 4, NULL, 0, &status);
	fake_clock_advance(&fc, 30 * NS_PER_S);
	ck_assert_int_eq(fan_rpm(ec), 6000);

	/* Back to automatic: at 20 % load the CPU is cool, the fan slows. */
	hc(ec, EC_CMD_THERMAL_AUTO_FAN_CTRL, 0, NULL, 0, NULL, 0, &status);
	fake_clock_advance(&fc, 5 * MINUTE);
	ck_assert_int_lt(fan_rpm(ec), 1500);
}
END_TEST

START_TEST(test_temperature_follows_load_and_fan)
{
	uint8_t duty[4] = { 0 };
	uint32_t status;
	uint8_t idle, hot_no_fan, hot_fan;

	idle = cpu_temp(ec);
	hc(ec, EC_CMD_PWM_SET_FAN_DUTY, 0, duty, 4, NULL, 0, &status);
	ck_assert_int_eq(ec_set_load(ec, 100), 0);
	fake_clock_advance(&fc, 10 * MINUTE);
	hot_no_fan = cpu_temp(ec);
	ck_assert_int_gt(hot_no_fan, idle + 25);
	duty[0] = 100;
	hc(ec, EC_CMD_PWM_SET_FAN_DUTY, 0, duty, 4, NULL, 0, &status);
	fake_clock_advance(&fc, 10 * MINUTE);
	hot_fan = cpu_temp(ec);
	ck_assert_int_lt(hot_fan, hot_no_fan - 15);
	ck_assert_int_eq(ec_set_load(ec, 101), -EINVAL);

	/* Automatic control under full load spins the fan up. */
	hc(ec, EC_CMD_THERMAL_AUTO_FAN_CTRL, 0, NULL, 0, NULL, 0, &status);
	fake_clock_advance(&fc, 10 * MINUTE);
	ck_assert_int_gt(fan_rpm(ec), 2000);
}
END_TEST

static const char hot_board[] =
	"[temp]\nname = Hot\nambient = 330\nload_rise = 60\nwarn = 350\nhigh = 380\n"
	"halt = 420\n";

START_TEST(test_thermal_threshold_events)
{
	struct fake_clock fc2;
	struct ec *e;
	struct test_listener l;
	uint8_t ev[32];

	fake_clock_init(&fc2);
	e = make_ec_text(hot_board, &fc2);
	test_listener_init(&l, 1u << EC_MKBP_EVENT_HOST_EVENT);
	ck_assert_int_eq(ec_notifier_register(e, &l.nb), 0);
	ec_set_load(e, 100);
	fake_clock_advance(&fc2, 10 * MINUTE);
	/* State advances lazily: nothing is raised until the EC is asked. */
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), -EAGAIN);
	ck_assert_int_eq(ec_tick(e), 0);
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), 5);
	ck_assert(e->host_events & EC_HOST_EVENT_MASK(EC_HOST_EVENT_THERMAL_THRESHOLD));
	ck_assert_uint_eq(le32(ev + 1), EC_HOST_EVENT_MASK(EC_HOST_EVENT_THERMAL_THRESHOLD));
	ck_assert_uint_eq(e->temp_level[0], 2);
	ec_destroy(e);
	test_listener_fini(&l);
}
END_TEST

START_TEST(test_uptime_advances_lazily)
{
	uint8_t resp[44];
	uint32_t status;

	fake_clock_advance(&fc, 1234 * 1000000ull);
	hc(ec, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1234);
	/* A clock going backwards does not move the EC backwards. */
	fc.now -= NS_PER_S;
	hc(ec, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(le32(resp), 1234);
	/* A year of idle time is handled in bounded steps. */
	fake_clock_advance(&fc, 365ull * 24 * HOUR);
	check_consistent(ec);
}
END_TEST

START_TEST(test_get_next_event)
{
	uint8_t payload[16], resp[32];
	uint32_t status;
	int i;

	ck_assert_int_eq(hc(ec, EC_CMD_GET_NEXT_EVENT, 0, NULL, 0, resp, sizeof(resp), &status), 0);
	ck_assert_uint_eq(status, EC_RES_UNAVAILABLE);
	for (i = 0; i < 16; i++)
		payload[i] = (uint8_t)(i + 1);
	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_KEY_MATRIX, payload, 16), 0);
	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_KEY_MATRIX, payload, 16), 0);
	/* v0 carries 13 bytes of payload, v1 16; a short buffer keeps the event. */
	hc(ec, EC_CMD_GET_NEXT_EVENT, 0, NULL, 0, resp, 5, &status);
	ck_assert_uint_eq(status, EC_RES_RESPONSE_TOO_BIG);
	ck_assert_int_eq(hc(ec, EC_CMD_GET_NEXT_EVENT, 0, NULL, 0, resp, sizeof(resp), &status), 14);
	ck_assert_uint_eq(resp[13], 13);
	ck_assert_int_eq(hc(ec, EC_CMD_GET_NEXT_EVENT, 1, NULL, 0, resp, sizeof(resp), &status), 17);
	ck_assert_uint_eq(resp[16], 16);
	/* Overflow of the EC's queue drops the newest. */
	for (i = 0; i < EC_HOST_QUEUE_LEN + 5; i++) {
		payload[0] = (uint8_t)i;
		ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, payload, 4);
	}
	for (i = 0; i < EC_HOST_QUEUE_LEN; i++) {
		hc(ec, EC_CMD_GET_NEXT_EVENT, 2, NULL, 0, resp, sizeof(resp), &status);
		ck_assert_uint_eq(resp[1], i);
		ck_assert_uint_eq(resp[0] & EC_MKBP_HAS_MORE_EVENTS,
				  i + 1 < EC_HOST_QUEUE_LEN ? EC_MKBP_HAS_MORE_EVENTS : 0);
	}
	hc(ec, EC_CMD_GET_NEXT_EVENT, 2, NULL, 0, resp, sizeof(resp), &status);
	ck_assert_uint_eq(status, EC_RES_UNAVAILABLE);
}
END_TEST

/* ---- memory ---- */

START_TEST(test_memory_under_64k)
{
	struct ec_profile *prof;
	struct ec *e;
	struct mallinfo2 before, after;
	size_t heap;

	ck_assert_int_eq(ec_profile_default(&prof), 0);
	before = mallinfo2();
	ck_assert_int_eq(ec_create(prof, &fc.clock, &e), 0);
	after = mallinfo2();
	heap = (after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd);
	ck_assert_uint_lt(ec_memory_footprint(e), 64 * 1024);
	/*
	 * glibc's own count cross-checks the EC's claim; under a sanitizer's
	 * allocator mallinfo2() sees nothing and only the claim is checked.
	 */
	if (heap) {
		ck_assert_msg(heap < 64 * 1024, "ec_create took %zu heap bytes", heap);
		ck_assert_uint_ge(heap + 256, ec_memory_footprint(e));
		ck_assert_uint_le(heap, ec_memory_footprint(e) + 1024);
	}
	ec_destroy(e);
	ec_profile_free(prof);
}
END_TEST

START_TEST(test_create_bad_args)
{
	struct ec_profile *prof;
	struct ec_clock no_now = { 0 };
	struct ec *e = NULL;

	ck_assert_int_eq(ec_profile_default(&prof), 0);
	ck_assert_int_eq(ec_create(NULL, NULL, &e), -EINVAL);
	ck_assert_int_eq(ec_create(prof, NULL, NULL), -EINVAL);
	ck_assert_int_eq(ec_create(prof, &no_now, &e), -EINVAL);
	prof->max_request_packet = 8;
	ck_assert_int_eq(ec_create(prof, NULL, &e), -EINVAL);
	ec_profile_free(prof);
	ec_destroy(NULL);
	ec_profile_free(NULL);
	/* Real clock: just works. */
	ck_assert_int_eq(ec_profile_default(&prof), 0);
	ck_assert_int_eq(ec_create(prof, NULL, &e), 0);
	ec_set_latency_ns(e, 1000);
	ck_assert_int_eq(ec_read_memmap(e, 0x20, 2, (uint8_t[2]){ 0 }), 2);
	ec_destroy(e);
	ec_profile_free(prof);
}
END_TEST

static Suite *ec_state_suite(void)
{
	Suite *s = suite_create("ec_state");
	TCase *tc = tcase_create("state");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_memmap_layout);
	tcase_add_test(tc, test_memmap_bounds);
	tcase_add_test(tc, test_battery_discharges_and_charges);
	tcase_add_test(tc, test_cycle_count_and_thresholds);
	tcase_add_test(tc, test_charge_control_modes);
	tcase_add_test(tc, test_fans_follow_duty_and_rpm);
	tcase_add_test(tc, test_temperature_follows_load_and_fan);
	tcase_add_test(tc, test_thermal_threshold_events);
	tcase_add_test(tc, test_uptime_advances_lazily);
	tcase_add_test(tc, test_get_next_event);
	tcase_add_test(tc, test_memory_under_64k);
	tcase_add_test(tc, test_create_bad_args);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_state_suite());
}
