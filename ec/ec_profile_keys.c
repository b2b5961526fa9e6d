// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_profile_keys.c - the keys of every profile section, one table per
 * section, and the names values are written with (cuse_ec-profile(5)).
 *
 * A new profile key is one line in its section's table here; the parser
 * (ec_profile.c) needs no change unless the key needs a new value type.
 */
#include <string.h>

#include "ec_profile.h"
#include "ec_profile_keys.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const image_names[] = { "unknown", "ro", "rw", "ro_b", "rw_b", NULL };
static const char *const temp_type_names[] = { "cpu", "board", "case", "battery", NULL };
static const char *const led_names[] = {
	"battery", "power", "adapter", "left", "right", "recovery_hw_reinit", "sysrq_debug", NULL
};
static const char *const kind_names[] = {
#define EC_KIND_NAME(id, name) [EC_KIND_##id] = name,
	EC_KINDS(EC_KIND_NAME)
#undef EC_KIND_NAME
	NULL
};
static const char *const partner_names[] = { "sink", "source", NULL };
static const char *const lid_names[] = { "closed", "open", NULL };
static const char *const motion_type_names[] = {
	[MOTIONSENSE_TYPE_ACCEL] = "accel", [MOTIONSENSE_TYPE_GYRO] = "gyro", NULL
};
static const char *const motion_location_names[] = {
	[MOTIONSENSE_LOC_BASE] = "base", [MOTIONSENSE_LOC_LID] = "lid", NULL
};
static const char *const adc_source_names[] = {
	[EC_ADC_FIXED] = "fixed",
	[EC_ADC_VBUS] = "vbus",
	[EC_ADC_BATTERY_VOLTAGE] = "battery_voltage",
	[EC_ADC_BATTERY_CURRENT] = "battery_current",
	NULL
};

/* Names for GET_FEATURES bits; a bit number works too. */
static const char *const feature_names[] = {
	[EC_FEATURE_LIMITED] = "limited",
	[EC_FEATURE_FLASH] = "flash",
	[EC_FEATURE_PWM_FAN] = "pwm_fan",
	[EC_FEATURE_PWM_KEYB] = "pwm_keyb",
	[EC_FEATURE_LIGHTBAR] = "lightbar",
	[EC_FEATURE_LED] = "led",
	[EC_FEATURE_MOTION_SENSE] = "motion_sense",
	[EC_FEATURE_KEYB] = "keyb",
	[EC_FEATURE_PSTORE] = "pstore",
	[EC_FEATURE_PORT80] = "port80",
	[EC_FEATURE_THERMAL] = "thermal",
	[EC_FEATURE_BKLIGHT_SWITCH] = "bklight_switch",
	[EC_FEATURE_WIFI_SWITCH] = "wifi_switch",
	[EC_FEATURE_HOST_EVENTS] = "host_events",
	[EC_FEATURE_GPIO] = "gpio",
	[EC_FEATURE_I2C] = "i2c",
	[EC_FEATURE_CHARGER] = "charger",
	[EC_FEATURE_BATTERY] = "battery",
	[EC_FEATURE_SMART_BATTERY] = "smart_battery",
	[EC_FEATURE_HANG_DETECT] = "hang_detect",
	[EC_FEATURE_PMU] = "pmu",
	[EC_FEATURE_SUB_MCU] = "sub_mcu",
	[EC_FEATURE_USB_PD] = "usb_pd",
	[EC_FEATURE_USB_MUX] = "usb_mux",
	[EC_FEATURE_MOTION_SENSE_FIFO] = "motion_sense_fifo",
	[EC_FEATURE_VSTORE] = "vstore",
	[EC_FEATURE_USBC_SS_MUX_VIRTUAL] = "usbc_ss_mux_virtual",
	[EC_FEATURE_RTC] = "rtc",
	[EC_FEATURE_FINGERPRINT] = "fingerprint",
	[EC_FEATURE_TOUCHPAD] = "touchpad",
	[EC_FEATURE_RWSIG] = "rwsig",
	[EC_FEATURE_DEVICE_EVENT] = "device_event",
	[EC_FEATURE_UNIFIED_WAKE_MASKS] = "unified_wake_masks",
	[EC_FEATURE_HOST_EVENT64] = "host_event64",
	[EC_FEATURE_EXEC_IN_RAM] = "exec_in_ram",
	[EC_FEATURE_CEC] = "cec",
	[EC_FEATURE_MOTION_SENSE_TIGHT_TIMESTAMPS] = "motion_sense_tight_timestamps",
	[EC_FEATURE_REFINED_TABLET_MODE_HYSTERESIS] = "refined_tablet_mode_hysteresis",
	[EC_FEATURE_EFS2] = "efs2",
	[EC_FEATURE_SCP] = "scp",
	[EC_FEATURE_ISH] = "ish",
	[EC_FEATURE_TYPEC_CMD] = "typec_cmd",
	[EC_FEATURE_TYPEC_REQUIRE_AP_MODE_ENTRY] = "typec_require_ap_mode_entry",
	[EC_FEATURE_TYPEC_MUX_REQUIRE_AP_ACK] = "typec_mux_require_ap_ack",
};

#define P(field) offsetof(struct ec_profile, field)
#define T(field) offsetof(struct ec_temp_profile, field)
#define PD(field) offsetof(struct ec_pd_port_profile, field)
#define STR(k, field) \
	{ k, KT_STR, P(field), sizeof(((struct ec_profile *)0)->field), 0, 0, NULL }
#define NUM(k, kt, off, lo, hi) { k, kt, off, 0, lo, hi, NULL }

static const struct key_desc ec_keys[] = {
	STR("board", board),
	STR("version_ro", version_ro),
	STR("version_rw", version_rw),
	STR("fwid_ro", fwid_ro),
	STR("fwid_rw", fwid_rw),
	{ "current_image", KT_ENUM, P(current_image), 4, 0, 0, image_names },
	STR("build_info", build_info),
	NUM("board_version", KT_U16, P(board_version), 0, 0xFFFF),
	NUM("memmap_direct", KT_BOOL, P(memmap_direct), 0, 1),
	{ "features", KT_FEATURES, P(features), 0, 0, 0, NULL },
	{ "disable_commands", KT_CMDLIST, P(disabled), 0, 0, 0, NULL },
	NUM("rand_num", KT_BOOL, P(rand_num), 0, 1),
	NUM("usb_a_ports", KT_U32, P(usb_a_ports), 0, EC_USB_A_PORTS_MAX),
	{ "kind", KT_ENUM, P(kind), 4, 0, 0, kind_names },
};

static const struct key_desc chip_keys[] = {
	STR("vendor", chip_vendor),
	STR("name", chip_name),
	STR("revision", chip_revision),
};

static const struct key_desc flash_keys[] = {
	NUM("size", KT_SIZE, P(flash_size), 0, UINT32_MAX),
	NUM("write_block", KT_SIZE, P(flash_write_block), 0, UINT32_MAX),
	NUM("erase_block", KT_SIZE, P(flash_erase_block), 0, UINT32_MAX),
	NUM("protect_block", KT_SIZE, P(flash_protect_block), 0, UINT32_MAX),
	NUM("write_ideal", KT_SIZE, P(flash_write_ideal), 0, UINT32_MAX),
	NUM("flags", KT_U32, P(flash_flags), 0, 3),
	NUM("protect_flags", KT_U32, P(flash_protect_flags), 0, 0xFFF),
	NUM("write_protect", KT_BOOL, P(write_protect), 0, 1),
	NUM("spi_jedec", KT_U32, P(flash_spi_jedec), 0, 0xFFFFFF),
	NUM("spi_mfr_dev", KT_U32, P(flash_spi_mfr_dev), 0, 0xFFFF),
};

static const struct key_desc protocol_keys[] = {
	NUM("max_request_packet", KT_U16, P(max_request_packet),
	    EC_PACKET_MIN, EC_PACKET_MAX),
	NUM("max_response_packet", KT_U16, P(max_response_packet),
	    EC_PACKET_MIN, EC_PACKET_MAX),
};

static const struct key_desc state_keys[] = {
	{ "lid", KT_ENUM, P(lid_open), 1, 0, 0, lid_names },
	NUM("ac", KT_BOOL, P(ac_present), 0, 1),
	NUM("load", KT_U32, P(load_percent), 0, 100),
	NUM("lid_angle", KT_U32, P(lid_angle), 0, 360),
};

static const struct key_desc battery_keys[] = {
	NUM("design_capacity", KT_U32, P(batt_design_mah), 1, 32767),
	/* Up to 30 V: the charge voltage (+8 %) must still fit an s16. */
	NUM("design_voltage", KT_U32, P(batt_design_mv), 1, 30000),
	NUM("full_capacity", KT_U32, P(batt_full_mah), 1, 32767),
	NUM("cycle_count", KT_U32, P(batt_cycle_count), 0, 100000),
	NUM("charge", KT_U32, P(batt_initial_percent), 0, 100),
	NUM("charge_current", KT_U32, P(batt_charge_ma), 0, 20000),
	NUM("idle_current", KT_U32, P(batt_idle_ma), 0, 20000),
	NUM("load_current", KT_U32, P(batt_load_ma), 0, 20000),
	NUM("low", KT_U32, P(batt_low_percent), 0, 100),
	NUM("critical", KT_U32, P(batt_critical_percent), 0, 100),
	STR("manufacturer", batt_manufacturer),
	STR("model", batt_model),
	STR("serial", batt_serial),
	STR("type", batt_type),
	NUM("adapter_watts", KT_U32, P(adapter_watts), 0, 1000),
	NUM("i2c_port", KT_U32, P(batt_i2c_port), 0, EC_I2C_PORTS_MAX - 1),
};

static const struct key_desc temp_keys[] = {
	{ "name", KT_STR, T(name), EC_NAME_LEN, 0, 0, NULL },
	{ "type", KT_ENUM, T(type), 1, 0, 0, temp_type_names },
	NUM("ambient", KT_KELVIN, T(ambient_k), 200, 453),
	NUM("load_rise", KT_U32, T(load_rise_k), 0, 200),
	NUM("fan_drop", KT_U32, T(fan_drop_k), 0, 200),
	NUM("warn", KT_KELVIN, T(thresh_k[EC_TEMP_THRESH_WARN]), 0, 453),
	NUM("high", KT_KELVIN, T(thresh_k[EC_TEMP_THRESH_HIGH]), 0, 453),
	NUM("halt", KT_KELVIN, T(thresh_k[EC_TEMP_THRESH_HALT]), 0, 453),
	NUM("fan_off", KT_KELVIN, T(fan_off_k), 0, 453),
	NUM("fan_max", KT_KELVIN, T(fan_max_k), 0, 453),
};

static const struct key_desc fan_keys[] = {
	NUM("max_rpm", KT_U32, 0, 1, 65000),
};

static const struct key_desc led_keys[] = {
	{ "id", KT_ENUM, offsetof(struct ec_led_profile, id), 1, 0, 0, led_names },
	{ "range", KT_LED_RANGE, offsetof(struct ec_led_profile, range), 0, 0, 0, NULL },
};

static const struct key_desc usbpd_port_keys[] = {
	NUM("connected", KT_BOOL, PD(connected), 0, 1),
	{ "partner", KT_ENUM, PD(partner_source), 1, 0, 0, partner_names },
	NUM("dp", KT_BOOL, PD(dp), 0, 1),
	NUM("polarity", KT_BOOL, PD(polarity), 0, 1),
	NUM("voltage", KT_U32, PD(voltage_mv), 0, 48000),
	NUM("current", KT_U32, PD(current_ma), 0, 5000),
	NUM("tcpc_i2c_port", KT_U32, PD(tcpc_i2c_port), 0, EC_I2C_PORTS_MAX - 1),
	NUM("tcpc_i2c_addr", KT_U32, PD(tcpc_i2c_addr), 0, 0x7F),
	NUM("tcpc_vid", KT_U32, PD(tcpc_vid), 0, 0xFFFF),
	NUM("tcpc_pid", KT_U32, PD(tcpc_pid), 0, 0xFFFF),
	NUM("tcpc_did", KT_U32, PD(tcpc_did), 0, 0xFFFF),
	NUM("tcpc_fw", KT_U64, PD(tcpc_fw), 0, UINT64_MAX),
	NUM("partner_vid", KT_U32, PD(partner_vid), 0, 0xFFFF),
	NUM("partner_pid", KT_U32, PD(partner_pid), 0, 0xFFFF),
};

static const struct key_desc keyboard_keys[] = {
	NUM("rows", KT_U32, P(kb_rows), 1, EC_KB_ROWS_MAX),
	NUM("cols", KT_U32, P(kb_cols), 1, EC_KB_COLS_MAX),
	NUM("id", KT_U32, P(kb_id), 0, UINT32_MAX),
	NUM("backlight", KT_BOOL, P(kb_backlight), 0, 1),
	NUM("buttons", KT_U32, P(kb_buttons), 0, 0xF),
};

/* CBI integers are stored in as few bytes as they need; see ec_cmd_adc_cbi.c. */
#define CBI(k, tag, hi) NUM(k, KT_U64, P(cbi_int[tag]), 0, hi)
static const struct key_desc cbi_keys[] = {
	CBI("board_version", CBI_TAG_BOARD_VERSION, UINT32_MAX),
	CBI("oem_id", CBI_TAG_OEM_ID, UINT32_MAX),
	CBI("sku_id", CBI_TAG_SKU_ID, UINT32_MAX),
	STR("dram_part_num", cbi_dram_part_num),
	STR("oem_name", cbi_oem_name),
	CBI("model_id", CBI_TAG_MODEL_ID, UINT32_MAX),
	CBI("fw_config", CBI_TAG_FW_CONFIG, UINT32_MAX),
	CBI("pcb_supplier", CBI_TAG_PCB_SUPPLIER, UINT32_MAX),
	CBI("ssfc", CBI_TAG_SSFC, UINT32_MAX),
	CBI("rework_id", CBI_TAG_REWORK_ID, UINT64_MAX - 1),
	CBI("factory_calibration_data", CBI_TAG_FACTORY_CALIBRATION_DATA, UINT32_MAX),
	NUM("i2c_port", KT_U32, P(cbi_i2c_port), 0, EC_I2C_PORTS_MAX - 1),
};

#define ADC(field) offsetof(struct ec_adc_profile, field)
static const struct key_desc adc_keys[] = {
	{ "name", KT_STR, ADC(name), EC_NAME_LEN, 0, 0, NULL },
	{ "source", KT_ENUM, ADC(source), 4, 0, 0, adc_source_names },
	NUM("value", KT_U32, ADC(value), 0, INT32_MAX),
};

static const struct key_desc fingerprint_keys[] = {
	NUM("vendor_id", KT_U32, P(fp_vendor_id), 0, UINT32_MAX),
	NUM("product_id", KT_U32, P(fp_product_id), 0, UINT32_MAX),
	NUM("model_id", KT_U32, P(fp_model_id), 0, UINT32_MAX),
	NUM("version", KT_U32, P(fp_version), 0, UINT32_MAX),
	NUM("frame_size", KT_SIZE, P(fp_frame_size), 1, EC_FP_FRAME_MAX),
	STR("pixel_format", fp_pixel_format),
	NUM("width", KT_U32, P(fp_width), 1, 0xFFFF),
	NUM("height", KT_U32, P(fp_height), 1, 0xFFFF),
	NUM("bpp", KT_U32, P(fp_bpp), 8, 8),
	NUM("template_size", KT_SIZE, P(fp_template_size), 1, EC_FP_TEMPLATE_MAX_SIZE),
	NUM("template_max", KT_U32, P(fp_template_max), 1, EC_FP_TEMPLATES_MAX),
	NUM("enroll_touches", KT_U32, P(fp_enroll_touches), 1, 100),
	NUM("capture_time", KT_DURATION, P(fp_capture_ns), 0, 60 * 1000000000ull),
	NUM("match_time", KT_DURATION, P(fp_match_ns), 0, 60 * 1000000000ull),
};

static const struct key_desc rwsig_keys[] = {
	NUM("task", KT_BOOL, P(rwsig_task), 0, 1),
	NUM("sig_alg", KT_U32, P(rwsig_sig_alg), 0, 0xFFFF),
	NUM("hash_alg", KT_U32, P(rwsig_hash_alg), 0, 0xFFFF),
	NUM("key_version", KT_U32, P(rwsig_key_version), 0, UINT32_MAX),
	NUM("rollback_min_version", KT_U32, P(rollback_min_version), 0, INT32_MAX),
	NUM("rw_rollback_version", KT_U32, P(rw_rollback_version), 0, INT32_MAX),
};

#define MS(field) offsetof(struct ec_motion_sensor_profile, field)
static const struct key_desc motion_sensor_keys[] = {
	{ "type", KT_ENUM, MS(type), 1, 0, 0, motion_type_names },
	{ "location", KT_ENUM, MS(location), 1, 0, 0, motion_location_names },
	NUM("chip", KT_U32, MS(chip), 0, MOTIONSENSE_CHIP_MAX - 1),
	NUM("range", KT_U32, MS(range), 0, 2000),
	NUM("min_frequency", KT_U32, MS(min_mhz), 1, 10000000),
	NUM("max_frequency", KT_U32, MS(max_mhz), 1, 10000000),
};

static const struct key_desc faults_keys[] = {
	NUM("busy", KT_PROB, P(fault_busy_ppm), 0, EC_PPM),
	NUM("in_progress", KT_PROB, P(fault_in_progress_ppm), 0, EC_PPM),
	NUM("timeout", KT_PROB, P(fault_timeout_ppm), 0, EC_PPM),
	NUM("timeout_delay", KT_DURATION, P(fault_timeout_ns), 0, 60 * 1000000000ull),
	NUM("seed", KT_U64, P(fault_seed), 0, UINT64_MAX),
};

#define SECTION(nm, tbl) { .name = nm, .keys = tbl, .n_keys = ARRAY_LEN(tbl) }
#define LINE_SECTION(nm) { .name = nm }
#define PRESENT(flag) .has_present = true, .present = P(flag)
#define REPEATS(array, n) \
	.max_items = ARRAY_LEN(((struct ec_profile *)0)->array), .items = P(array), \
	.item_size = sizeof(((struct ec_profile *)0)->array[0]), .count = P(n)
#define REPEATED(nm, tbl, array, n) \
	{ .name = nm, .keys = tbl, .n_keys = ARRAY_LEN(tbl), REPEATS(array, n) }

const struct section_desc ec_profile_sections[SEC_COUNT] = {
	[SEC_EC] = SECTION("ec", ec_keys),
	[SEC_CHIP] = SECTION("chip", chip_keys),
	[SEC_FLASH] = SECTION("flash", flash_keys),
	[SEC_PROTOCOL] = SECTION("protocol", protocol_keys),
	[SEC_STATE] = SECTION("state", state_keys),
	[SEC_BATTERY] = { .name = "battery", .keys = battery_keys,
			  .n_keys = ARRAY_LEN(battery_keys), PRESENT(has_battery) },
	[SEC_TEMP] = REPEATED("temp", temp_keys, temps, n_temps),
	[SEC_FAN] = REPEATED("fan", fan_keys, fan_max_rpm, n_fans),
	[SEC_LED] = REPEATED("led", led_keys, leds, n_leds),
	[SEC_GPIO] = LINE_SECTION("gpio"),
	[SEC_USBPD_PORT] = REPEATED("usbpd_port", usbpd_port_keys, pd_ports, n_pd_ports),
	[SEC_LATENCY] = LINE_SECTION("latency"),
	[SEC_FAULTS] = SECTION("faults", faults_keys),
	[SEC_PASSTHRU] = LINE_SECTION("passthru"),
	[SEC_KEYBOARD] = SECTION("keyboard", keyboard_keys),
	[SEC_CBI] = { .name = "cbi", .keys = cbi_keys, .n_keys = ARRAY_LEN(cbi_keys),
		      PRESENT(has_cbi) },
	[SEC_ADC] = REPEATED("adc", adc_keys, adcs, n_adcs),
	[SEC_FINGERPRINT] = { .name = "fingerprint", .keys = fingerprint_keys,
			      .n_keys = ARRAY_LEN(fingerprint_keys), PRESENT(has_fp) },
	[SEC_RWSIG] = { .name = "rwsig", .keys = rwsig_keys, .n_keys = ARRAY_LEN(rwsig_keys),
			PRESENT(has_rwsig) },
	[SEC_MOTION_SENSOR] = REPEATED("motion_sensor", motion_sensor_keys, motion, n_motion),
};

/**
 * ec_profile_keys_defaults() - the defaults of keys whose default is not
 * zero and that the parser's own defaults do not cover.
 * @profile: a zeroed profile being prepared for parsing
 */
void ec_profile_keys_defaults(struct ec_profile *profile)
{
	unsigned int i;

	for (i = 0; i < CBI_TAG_COUNT; i++)
		profile->cbi_int[i] = EC_CBI_ABSENT;
	profile->batt_i2c_port = 1;
	profile->fp_enroll_touches = 5;
	profile->lid_angle = 110;
}

/* The full-scale ranges each sensor type has: g, and degrees a second. */
static const uint32_t accel_ranges[] = { 2, 4, 8, 16 };
static const uint32_t gyro_ranges[] = { 125, 250, 500, 1000, 2000 };

uint32_t ec_motion_range_round(unsigned int type, uint32_t want, bool up)
{
	const uint32_t *r = type == MOTIONSENSE_TYPE_GYRO ? gyro_ranges : accel_ranges;
	size_t n = type == MOTIONSENSE_TYPE_GYRO ? ARRAY_LEN(gyro_ranges) : ARRAY_LEN(accel_ranges);
	size_t i;

	if (up) {
		for (i = 0; i < n; i++)
			if (r[i] >= want)
				return r[i];
		return r[n - 1];
	}
	for (i = n; i > 0; i--)
		if (r[i - 1] <= want)
			return r[i - 1];
	return r[0];
}

/**
 * ec_profile_find_key() - the description of @key in @section.
 * @section: the open section
 * @key:     the key as written
 *
 * Return: the key, or NULL when the section has no such key.
 */
const struct key_desc *ec_profile_find_key(enum section_id section, const char *key)
{
	const struct section_desc *sec;
	size_t i;

	if (section <= SEC_NONE || section >= SEC_COUNT)
		return NULL;
	sec = &ec_profile_sections[section];
	for (i = 0; i < sec->n_keys; i++)
		if (!strcmp(sec->keys[i].key, key))
			return &sec->keys[i];
	return NULL;
}

/**
 * ec_profile_feature_bit() - the GET_FEATURES bit a feature name stands for.
 * @name: e.g. "flash"
 *
 * Return: the bit number, or -1 for an unknown name.
 */
int ec_profile_feature_bit(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(feature_names); i++)
		if (feature_names[i] && !strcmp(feature_names[i], name))
			return (int)i;
	return -1;
}

/**
 * ec_profile_feature_name() - the name of GET_FEATURES bit @bit.
 * @bit: 0..63
 *
 * Return: the name, or "?" for a bit without one.
 */
const char *ec_profile_feature_name(unsigned int bit)
{
	if (bit < ARRAY_LEN(feature_names) && feature_names[bit])
		return feature_names[bit];
	return "?";
}
