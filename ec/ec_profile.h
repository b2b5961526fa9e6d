/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_profile.h - the board profile: the EC model's limits and the plain
 * description a profile file is parsed into.
 *
 * The parser (ec_profile.c) needs only this header; the EC core and the
 * command handlers include it through ec_internal.h. Dependencies point one
 * way (core -> profile), so the limits live here and nowhere else.
 *
 * Everything is fixed-size so that a profile can be copied with one
 * assignment and one EC costs a predictable, small amount of memory.
 */
#ifndef EC_EC_PROFILE_H
#define EC_EC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cros_ec/ec_commands.h"
#include "ec.h"

#define EC_NAME_LEN		32
#define EC_BUILD_INFO_LEN	128
#define EC_MAX_TEMPS		EC_MAX_TEMP_SENSOR_ENTRIES
#define EC_MAX_FANS		EC_FAN_SPEED_ENTRIES
#define EC_MAX_LEDS		EC_LED_ID_COUNT
#define EC_MAX_GPIOS		32
#define EC_MAX_PD_PORTS		4
#define EC_MAX_LATENCY_RULES	16
#define EC_MAX_DISABLED_CMDS	64
#define EC_CONSOLE_SIZE		2048
#define EC_PANIC_MAX		256
#define EC_HOST_QUEUE_LEN	32
/* Protocol packet sizes a profile may declare (header included). */
#define EC_PACKET_MIN		64
#define EC_PACKET_MAX		4096
/* Fault probabilities are parts per million. */
#define EC_PPM			1000000u
/* The simulated flash lives in memory: 16 MiB is the largest EC flash. */
#define EC_FLASH_SIZE_MAX	(16u << 20)
/* A key matrix: one byte a column (rows <= 8) in one MKBP event. */
#define EC_KB_COLS_MAX		EC_MKBP_DATA_SIZE_V1
#define EC_KB_ROWS_MAX		8
#define EC_MAX_ADCS		8
/* A [cbi] integer the profile does not set: the EEPROM has no such item. */
#define EC_CBI_ABSENT		UINT64_MAX
#define EC_CBI_STR_LEN		32
/* Fixed I2C addresses: the smart battery (SBS) and the CBI EEPROM. */
#define EC_I2C_ADDR_BATTERY	0x0B
#define EC_I2C_ADDR_CBI_EEPROM	0x50
#define EC_I2C_PORTS_MAX	8
#define EC_USB_A_PORTS_MAX	4

struct ec_temp_profile {
	char name[EC_NAME_LEN];
	uint8_t type;			/* enum ec_temp_sensor_type */
	uint32_t ambient_k;		/* resting temperature */
	uint32_t load_rise_k;		/* rise at 100 % load, fans off */
	uint32_t fan_drop_k;		/* fall with all fans at full speed */
	uint32_t thresh_k[EC_TEMP_THRESH_COUNT];	/* warn, high, halt; 0 = none */
	uint32_t fan_off_k;
	uint32_t fan_max_k;
};

struct ec_led_profile {
	uint8_t id;			/* enum ec_led_id */
	uint8_t range[EC_LED_COLOR_COUNT];
};

struct ec_gpio_profile {
	char name[EC_NAME_LEN];
	uint8_t value;
	bool output;
};

struct ec_pd_port_profile {
	bool connected;			/* a partner is attached at boot */
	bool partner_source;		/* partner is a charger (we sink) */
	bool dp;			/* DisplayPort alt mode entered */
	bool polarity;
	uint32_t voltage_mv;
	uint32_t current_ma;
	uint32_t tcpc_i2c_port;
	uint32_t tcpc_i2c_addr;		/* 0: a TCPC embedded in the EC */
	uint32_t tcpc_vid, tcpc_pid, tcpc_did;	/* PD_CHIP_INFO */
	uint64_t tcpc_fw;
	uint32_t partner_vid, partner_pid;	/* the partner's Discover Identity */
};

/* What an ADC channel reads: a fixed value, or a live quantity of the model. */
enum ec_adc_source {
	EC_ADC_FIXED,
	EC_ADC_VBUS,		/* mV on the first port with a partner supplying it */
	EC_ADC_BATTERY_VOLTAGE,	/* mV */
	EC_ADC_BATTERY_CURRENT,	/* mA, negative while discharging */
};

struct ec_adc_profile {
	char name[EC_NAME_LEN];
	uint32_t source;		/* enum ec_adc_source */
	uint32_t value;			/* EC_ADC_FIXED */
};

/*
 * EC_KINDS(X) - the firmware an EC runs, once: X(ID, name). The main EC of
 * a laptop and the fingerprint MCU answer different command sets: each
 * subsystem says which kinds are built with it (struct ec_subsystem's
 * kinds), and a command of a subsystem the board's kind lacks answers
 * INVALID_COMMAND there. The profile's [ec] kind names one. A PD MCU
 * (pd) is what sits behind a laptop EC on its passthrough offset: only the
 * core every firmware has (system, flash geometry, reboot).
 */
#define EC_KINDS(X)		\
	X(EC, "ec")		\
	X(FPMCU, "fpmcu")	\
	X(PD, "pd")

enum ec_kind {
#define EC_KIND_ENUM(id, name) EC_KIND_##id,
	EC_KINDS(EC_KIND_ENUM)
#undef EC_KIND_ENUM
	EC_KIND_COUNT
};

#define EC_KIND_MASK(kind)	(1u << (kind))

/* The fingerprint sensor: FP_FRAME's index nibble leaves 15 templates. */
#define EC_FP_TEMPLATES_MAX	15
#define EC_FP_FRAME_MAX		(1u << 20)
#define EC_FP_TEMPLATE_MAX_SIZE	(64u << 10)

/* Motion sensors: base and lid accelerometers, a gyroscope (EC_CMD_MOTION_SENSE_CMD). */
#define EC_MOTION_SENSORS_MAX	4

struct ec_motion_sensor_profile {
	uint8_t type;			/* enum motionsensor_type */
	uint8_t location;		/* enum motionsensor_location */
	uint32_t chip;			/* enum motionsensor_chip */
	uint32_t range;			/* g or deg/s at boot; 0: the type's default */
	uint32_t min_mhz, max_mhz;	/* sampling rates the chip takes */
};

struct ec_latency_rule {
	uint16_t command;
	uint64_t ns;
};

/**
 * struct ec_profile - one board description, as parsed from a profile file.
 *
 * Plain data without pointers: ec_create() copies it by assignment.
 */
struct ec_profile {
	char board[EC_NAME_LEN];
	char version_ro[EC_VERSION_STRING_LEN];
	char version_rw[EC_VERSION_STRING_LEN];
	char fwid_ro[EC_VERSION_STRING_LEN];
	char fwid_rw[EC_VERSION_STRING_LEN];
	uint32_t current_image;
	char build_info[EC_BUILD_INFO_LEN];
	uint16_t board_version;

	char chip_vendor[EC_NAME_LEN];
	char chip_name[EC_NAME_LEN];
	char chip_revision[EC_NAME_LEN];

	uint32_t flash_size;
	uint32_t flash_write_block;
	uint32_t flash_erase_block;
	uint32_t flash_protect_block;
	uint32_t flash_write_ideal;
	uint32_t flash_flags;
	uint32_t flash_protect_flags;
	bool write_protect;		/* hardware WP asserted at power-on */

	uint16_t max_request_packet;
	uint16_t max_response_packet;
	bool memmap_direct;
	uint32_t features[2];
	/* Commands this board does not implement (answer INVALID_COMMAND). */
	unsigned int n_disabled;
	uint16_t disabled[EC_MAX_DISABLED_CMDS];

	bool lid_open;
	bool ac_present;
	uint32_t load_percent;		/* CPU load the temperatures see */

	bool has_battery;
	uint32_t batt_design_mah;
	uint32_t batt_design_mv;
	uint32_t batt_full_mah;		/* last full charge */
	uint32_t batt_cycle_count;
	uint32_t batt_initial_percent;
	uint32_t batt_charge_ma;
	uint32_t batt_idle_ma;		/* drain at 0 % load */
	uint32_t batt_load_ma;		/* extra drain at 100 % load */
	uint32_t batt_low_percent;
	uint32_t batt_critical_percent;
	char batt_manufacturer[EC_BATTERY_STATIC_EXT_LEN];
	char batt_model[EC_BATTERY_STATIC_EXT_LEN];
	char batt_serial[EC_BATTERY_STATIC_EXT_LEN];
	char batt_type[EC_BATTERY_STATIC_EXT_LEN];
	uint32_t adapter_watts;

	unsigned int n_temps;
	struct ec_temp_profile temps[EC_MAX_TEMPS];
	unsigned int n_fans;
	uint32_t fan_max_rpm[EC_MAX_FANS];
	unsigned int n_leds;
	struct ec_led_profile leds[EC_MAX_LEDS];
	unsigned int n_gpios;
	struct ec_gpio_profile gpios[EC_MAX_GPIOS];
	unsigned int n_pd_ports;
	struct ec_pd_port_profile pd_ports[EC_MAX_PD_PORTS];

	uint64_t latency_ns;
	unsigned int n_latency_rules;
	struct ec_latency_rule latency_rules[EC_MAX_LATENCY_RULES];

	uint32_t fault_busy_ppm;
	uint32_t fault_in_progress_ppm;
	uint32_t fault_timeout_ppm;
	uint64_t fault_timeout_ns;
	uint64_t fault_seed;

	/* [keyboard]: the matrix, its ID, its buttons and the backlight */
	uint32_t kb_rows, kb_cols;
	uint32_t kb_id;
	bool kb_backlight;
	uint32_t kb_buttons;		/* MKBP buttons present (bit EC_MKBP_*) */

	/* passthru_version[n][0] != 0: device n (1..3) sits behind the EC. */
	char passthru_version[EC_PASSTHRU_DEVICES_MAX + 1][EC_VERSION_STRING_LEN];

	/* [cbi]: the board-info EEPROM; integers EC_CBI_ABSENT, strings "" when unset */
	bool has_cbi;
	uint64_t cbi_int[CBI_TAG_COUNT];
	char cbi_dram_part_num[EC_CBI_STR_LEN];
	char cbi_oem_name[EC_CBI_STR_LEN];
	uint32_t cbi_i2c_port;

	unsigned int n_adcs;
	struct ec_adc_profile adcs[EC_MAX_ADCS];

	uint32_t batt_i2c_port;		/* the smart battery's bus */
	uint32_t usb_a_ports;		/* USB-A ports with charge modes */
	uint32_t flash_spi_jedec;	/* SPI flash JEDEC ID; 0 = no SPI flash */
	uint32_t flash_spi_mfr_dev;
	bool rand_num;			/* [ec] rand_num: the EC has a TRNG */
	uint32_t kind;			/* [ec] kind: enum ec_kind */

	/* [fingerprint]: the FPMCU's sensor as FP_INFO reports it */
	bool has_fp;
	uint32_t fp_vendor_id, fp_product_id, fp_model_id, fp_version;
	uint32_t fp_frame_size;		/* a vendor-format capture, bytes */
	char fp_pixel_format[5];	/* V4L2 fourcc, e.g. GREY */
	uint32_t fp_width, fp_height, fp_bpp;
	uint32_t fp_template_size;	/* an encrypted template, metadata included */
	uint32_t fp_template_max;
	uint32_t fp_enroll_touches;	/* finger touches an enrollment takes */
	uint64_t fp_capture_ns, fp_match_ns;	/* what FP_STATS reports */

	/* [motion_sensor] sections and [state] lid_angle: a convertible's sensors */
	unsigned int n_motion;
	struct ec_motion_sensor_profile motion[EC_MOTION_SENSORS_MAX];
	uint32_t lid_angle;		/* degrees while the lid is open */

	/* [rwsig]: the RW image's signature and the rollback region */
	bool has_rwsig;
	bool rwsig_task;		/* RO's RWSIG task verifies RW and jumps */
	uint32_t rwsig_sig_alg, rwsig_hash_alg, rwsig_key_version;
	uint32_t rollback_min_version, rw_rollback_version;
};

/**
 * ec_copy_str() - copy a string into a fixed field, zero-padding the rest and
 * always NUL-terminating (fields on the wire must never carry stale bytes).
 * @dst:  destination field
 * @room: its size
 * @src:  source string
 */
void ec_copy_str(char *dst, size_t room, const char *src);

extern const char ec_builtin_laptop_profile[];

/**
 * ec_profile_passthru() - the profile of the PD MCU behind @parent on
 * passthrough device @dev: the model's PD chip (kind pd) with the version
 * string the parent's [passthru] line gives and the parent's packet limits.
 * @parent: the EC's profile
 * @dev:    1..EC_PASSTHRU_DEVICES_MAX, declared in @parent
 * @out:    filled on success
 *
 * Return: 0, or -EINVAL when @parent declares no device @dev.
 */
int ec_profile_passthru(const struct ec_profile *parent, unsigned int dev,
			struct ec_profile *out);
int ec_profile_parse_text(const char *text, const char *name, struct ec_profile *out,
			  char *err, size_t errlen);
bool ec_profile_cmd_disabled(const struct ec_profile *profile, uint32_t command);

/* ec_profile_keys.c: defaults of the keys that have one beyond zero. */
void ec_profile_keys_defaults(struct ec_profile *profile);

/**
 * ec_motion_range_round() - the full-scale range a sensor takes for a
 * request, as the drivers round it (ec_profile_keys.c holds the tables).
 * @type: enum motionsensor_type
 * @want: g for an accelerometer, degrees a second for a gyroscope
 * @up:   the smallest range at least @want; else the largest at most @want
 *
 * Return: the range; past either end, the end.
 */
uint32_t ec_motion_range_round(unsigned int type, uint32_t want, bool up);

/**
 * ec_profile_backlight_gpio() - the board's panel backlight enable line,
 * the [gpio] output named ENABLE_BACKLIGHT (SWITCH_ENABLE_BKLIGHT drives
 * it; without one the command does not exist).
 * @profile: the board
 *
 * Return: its index in @profile->gpios, or -1.
 */
int ec_profile_backlight_gpio(const struct ec_profile *profile);

/* ec_features.c: which commands back each GET_FEATURES bit. */
int ec_profile_disable_absent(struct ec_profile *profile);
const uint16_t *ec_feature_cmds(unsigned int bit, size_t *n);
const char *ec_feature_unbacked(const struct ec_profile *profile, unsigned int bit,
				uint32_t *missing_cmd);

#endif /* EC_EC_PROFILE_H */
