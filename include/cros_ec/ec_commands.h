/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_commands.h - ChromiumOS EC host commands as this project uses them:
 * command numbers, status codes, memory-map offsets and the wire layouts of
 * each request and response.
 *
 * Written for this project from the publicly documented interface facts
 * (numbers and byte layouts). All multi-byte fields are little-endian on
 * the wire; every struct is packed and its size pinned by _Static_assert so
 * a layout slip breaks the build rather than a client.
 */
#ifndef CROS_EC_EC_COMMANDS_H
#define CROS_EC_EC_COMMANDS_H

#include <stdint.h>

#define EC_PACKED __attribute__((packed))
#define EC_VER_MASK(v) (1u << (v))

/* ---- EC status codes (the XCMD "result" field) ---- */
enum ec_status {
	EC_RES_SUCCESS = 0,
	EC_RES_INVALID_COMMAND = 1,
	EC_RES_ERROR = 2,
	EC_RES_INVALID_PARAM = 3,
	EC_RES_ACCESS_DENIED = 4,
	EC_RES_INVALID_RESPONSE = 5,
	EC_RES_INVALID_VERSION = 6,
	EC_RES_INVALID_CHECKSUM = 7,
	EC_RES_IN_PROGRESS = 8,
	EC_RES_UNAVAILABLE = 9,
	EC_RES_TIMEOUT = 10,
	EC_RES_OVERFLOW = 11,
	EC_RES_INVALID_HEADER = 12,
	EC_RES_REQUEST_TRUNCATED = 13,
	EC_RES_RESPONSE_TOO_BIG = 14,
	EC_RES_BUS_ERROR = 15,
	EC_RES_BUSY = 16,
};

/* ---- Host command numbers ---- */
#define EC_CMD_HELLO			0x0001
#define EC_CMD_GET_VERSION		0x0002
#define EC_CMD_GET_BUILD_INFO		0x0004
#define EC_CMD_GET_CHIP_INFO		0x0005
#define EC_CMD_GET_BOARD_VERSION	0x0006
#define EC_CMD_READ_MEMMAP		0x0007
#define EC_CMD_GET_CMD_VERSIONS		0x0008
#define EC_CMD_GET_COMMS_STATUS		0x0009
#define EC_CMD_GET_PROTOCOL_INFO	0x000B
#define EC_CMD_GET_FEATURES		0x000D
#define EC_CMD_FLASH_INFO		0x0010
#define EC_CMD_FLASH_READ		0x0011
#define EC_CMD_FLASH_WRITE		0x0012
#define EC_CMD_FLASH_ERASE		0x0013
#define EC_CMD_FLASH_PROTECT		0x0015
#define EC_CMD_FLASH_REGION_INFO	0x0016
#define EC_CMD_SYSINFO			0x001C
#define EC_CMD_PWM_SET_FAN_TARGET_RPM	0x0021
#define EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT 0x0022
#define EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT 0x0023
#define EC_CMD_PWM_SET_FAN_DUTY		0x0024
#define EC_CMD_LED_CONTROL		0x0029
#define EC_CMD_VBOOT_HASH		0x002A
#define EC_CMD_RTC_GET_VALUE		0x0044
#define EC_CMD_RTC_GET_ALARM		0x0045
#define EC_CMD_RTC_SET_VALUE		0x0046
#define EC_CMD_RTC_SET_ALARM		0x0047
#define EC_CMD_PORT80_READ		0x0048	/* v0: the last boot's code */
#define EC_CMD_THERMAL_GET_THRESHOLD	0x0051
#define EC_CMD_THERMAL_AUTO_FAN_CTRL	0x0052
#define EC_CMD_MKBP_INFO		0x0061
#define EC_CMD_MKBP_SIMULATE_KEY	0x0062
#define EC_CMD_GET_KEYBOARD_ID		0x0063
#define EC_CMD_MKBP_SET_CONFIG		0x0064
#define EC_CMD_MKBP_GET_CONFIG		0x0065
#define EC_CMD_GET_NEXT_EVENT		0x0067
#define EC_CMD_MKBP_WAKE_MASK		0x0069
#define EC_CMD_HOST_EVENT_GET_B		0x0087
#define EC_CMD_HOST_EVENT_GET_SMI_MASK	0x0088
#define EC_CMD_HOST_EVENT_GET_SCI_MASK	0x0089
#define EC_CMD_HOST_EVENT_SET_SMI_MASK	0x008A
#define EC_CMD_HOST_EVENT_SET_SCI_MASK	0x008B
#define EC_CMD_HOST_EVENT_CLEAR		0x008C
#define EC_CMD_HOST_EVENT_GET_WAKE_MASK	0x008D
#define EC_CMD_HOST_EVENT_SET_WAKE_MASK	0x008E
#define EC_CMD_HOST_EVENT_CLEAR_B	0x008F
#define EC_CMD_TEMP_SENSOR_GET_INFO	0x0070
#define EC_CMD_GPIO_GET			0x0093
#define EC_CMD_CHARGE_CONTROL		0x0096
#define EC_CMD_CONSOLE_SNAPSHOT		0x0097
#define EC_CMD_CONSOLE_READ		0x0098
#define EC_CMD_POWER_INFO		0x009D
#define EC_CMD_CHARGE_STATE		0x00A0
#define EC_CMD_HOST_EVENT		0x00A4
#define EC_CMD_HOST_SLEEP_EVENT		0x00A9
#define EC_CMD_GET_PANIC_INFO		0x00D3
#define EC_CMD_RESEND_RESPONSE		0x00DB
#define EC_CMD_USB_PD_CONTROL		0x0101
#define EC_CMD_USB_PD_PORTS		0x0102
#define EC_CMD_USB_PD_POWER_INFO	0x0103
#define EC_CMD_USB_PD_MUX_INFO		0x011A
#define EC_CMD_GET_UPTIME_INFO		0x0121
#define EC_CMD_TYPEC_STATUS		0x0133
#define EC_CMD_BATTERY_GET_STATIC	0x0600
#define EC_CMD_BATTERY_GET_DYNAMIC	0x0601

/* Commands addressed to a device behind the EC: cmd + EC_CMD_PASSTHRU_OFFSET(n). */
#define EC_CMD_PASSTHRU_OFFSET(n)	(0x4000 * (n))
#define EC_CMD_PASSTHRU_MAX(n)		(EC_CMD_PASSTHRU_OFFSET(n) + 0x3FFF)
#define EC_PASSTHRU_DEVICES_MAX		3

/* ---- Memory map (256 bytes, read by READMEM or EC_CMD_READ_MEMMAP) ---- */
#define EC_MEMMAP_SIZE			256
#define EC_MEMMAP_TEXT_MAX		8
#define EC_MEMMAP_TEMP_SENSOR		0x00	/* 16 x u8, K - 200 */
#define EC_MEMMAP_FAN			0x10	/* 4 x u16 RPM */
#define EC_MEMMAP_TEMP_SENSOR_B		0x18	/* 8 x u8, thermal version >= 2 */
#define EC_MEMMAP_ID			0x20	/* 'E' 'C' */
#define EC_MEMMAP_ID_VERSION		0x22
#define EC_MEMMAP_THERMAL_VERSION	0x23
#define EC_MEMMAP_BATTERY_VERSION	0x24
#define EC_MEMMAP_SWITCHES_VERSION	0x25
#define EC_MEMMAP_EVENTS_VERSION	0x26
#define EC_MEMMAP_HOST_CMD_FLAGS	0x27
#define EC_MEMMAP_SWITCHES		0x30
#define EC_MEMMAP_HOST_EVENTS		0x34	/* u64 */
#define EC_MEMMAP_BATT_VOLT		0x40	/* u32, mV */
#define EC_MEMMAP_BATT_RATE		0x44	/* u32, mA */
#define EC_MEMMAP_BATT_CAP		0x48	/* u32, mAh */
#define EC_MEMMAP_BATT_FLAG		0x4C	/* u8 */
#define EC_MEMMAP_BATT_COUNT		0x4D	/* u8 */
#define EC_MEMMAP_BATT_INDEX		0x4E	/* u8 */
#define EC_MEMMAP_BATT_DCAP		0x50	/* u32, mAh */
#define EC_MEMMAP_BATT_DVLT		0x54	/* u32, mV */
#define EC_MEMMAP_BATT_LFCC		0x58	/* u32, mAh */
#define EC_MEMMAP_BATT_CCNT		0x5C	/* u32 */
#define EC_MEMMAP_BATT_MFGR		0x60	/* 8-byte strings from here */
#define EC_MEMMAP_BATT_MODEL		0x68
#define EC_MEMMAP_BATT_SERIAL		0x70
#define EC_MEMMAP_BATT_TYPE		0x78

#define EC_TEMP_SENSOR_ENTRIES		16
#define EC_TEMP_SENSOR_B_ENTRIES	8
#define EC_MAX_TEMP_SENSOR_ENTRIES	(EC_TEMP_SENSOR_ENTRIES + EC_TEMP_SENSOR_B_ENTRIES)
#define EC_TEMP_SENSOR_NOT_PRESENT	0xFF
#define EC_TEMP_SENSOR_ERROR		0xFE
#define EC_TEMP_SENSOR_NOT_POWERED	0xFD
#define EC_TEMP_SENSOR_NOT_CALIBRATED	0xFC
#define EC_TEMP_SENSOR_OFFSET		200

#define EC_FAN_SPEED_ENTRIES		4
#define EC_FAN_SPEED_NOT_PRESENT	0xFFFF
#define EC_FAN_SPEED_STALLED_DEPRECATED	0xFFFE

#define EC_BATT_FLAG_AC_PRESENT		0x01
#define EC_BATT_FLAG_BATT_PRESENT	0x02
#define EC_BATT_FLAG_DISCHARGING	0x04
#define EC_BATT_FLAG_CHARGING		0x08
#define EC_BATT_FLAG_LEVEL_CRITICAL	0x10
#define EC_BATT_FLAG_INVALID_DATA	0x20

#define EC_SWITCH_LID_OPEN		0x01
#define EC_SWITCH_POWER_BUTTON_PRESSED	0x02
#define EC_SWITCH_WRITE_PROTECT_DISABLED	0x04
#define EC_SWITCH_DEDICATED_RECOVERY	0x10

#define EC_HOST_CMD_FLAG_LPC_ARGS_SUPPORTED	0x01
#define EC_HOST_CMD_FLAG_VERSION_3		0x02

/* ---- Host events (bit = event - 1) ---- */
enum ec_host_event {
	EC_HOST_EVENT_NONE = 0,
	EC_HOST_EVENT_LID_CLOSED = 1,
	EC_HOST_EVENT_LID_OPEN = 2,
	EC_HOST_EVENT_POWER_BUTTON = 3,
	EC_HOST_EVENT_AC_CONNECTED = 4,
	EC_HOST_EVENT_AC_DISCONNECTED = 5,
	EC_HOST_EVENT_BATTERY_LOW = 6,
	EC_HOST_EVENT_BATTERY_CRITICAL = 7,
	EC_HOST_EVENT_BATTERY = 8,
	EC_HOST_EVENT_THERMAL_THRESHOLD = 9,
	EC_HOST_EVENT_DEVICE = 10,
	EC_HOST_EVENT_THERMAL = 11,
	EC_HOST_EVENT_USB_CHARGER = 12,
	EC_HOST_EVENT_KEY_PRESSED = 13,
	EC_HOST_EVENT_INTERFACE_READY = 14,
	EC_HOST_EVENT_KEYBOARD_RECOVERY = 15,
	EC_HOST_EVENT_THERMAL_SHUTDOWN = 16,
	EC_HOST_EVENT_BATTERY_SHUTDOWN = 17,
	EC_HOST_EVENT_THROTTLE_START = 18,
	EC_HOST_EVENT_THROTTLE_STOP = 19,
	EC_HOST_EVENT_HANG_DETECT = 20,
	EC_HOST_EVENT_HANG_REBOOT = 21,
	EC_HOST_EVENT_PD_MCU = 22,
	EC_HOST_EVENT_BATTERY_STATUS = 23,
	EC_HOST_EVENT_PANIC = 24,
	EC_HOST_EVENT_KEYBOARD_FASTBOOT = 25,
	EC_HOST_EVENT_RTC = 26,
	EC_HOST_EVENT_MKBP = 27,
	EC_HOST_EVENT_USB_MUX = 28,
	EC_HOST_EVENT_MODE_CHANGE = 29,
	EC_HOST_EVENT_KEYBOARD_RECOVERY_HW_REINIT = 30,
	EC_HOST_EVENT_WOV = 31,
	EC_HOST_EVENT_INVALID = 32,
};
#define EC_HOST_EVENT_MASK(e) (1ull << ((e) - 1))

/* ---- Features (EC_CMD_GET_FEATURES bit numbers) ---- */
enum ec_feature_code {
	EC_FEATURE_LIMITED = 0,
	EC_FEATURE_FLASH = 1,
	EC_FEATURE_PWM_FAN = 2,
	EC_FEATURE_PWM_KEYB = 3,
	EC_FEATURE_LIGHTBAR = 4,
	EC_FEATURE_LED = 5,
	EC_FEATURE_MOTION_SENSE = 6,
	EC_FEATURE_KEYB = 7,
	EC_FEATURE_PSTORE = 8,
	EC_FEATURE_PORT80 = 9,
	EC_FEATURE_THERMAL = 10,
	EC_FEATURE_BKLIGHT_SWITCH = 11,
	EC_FEATURE_WIFI_SWITCH = 12,
	EC_FEATURE_HOST_EVENTS = 13,
	EC_FEATURE_GPIO = 14,
	EC_FEATURE_I2C = 15,
	EC_FEATURE_CHARGER = 16,
	EC_FEATURE_BATTERY = 17,
	EC_FEATURE_SMART_BATTERY = 18,
	EC_FEATURE_HANG_DETECT = 19,
	EC_FEATURE_PMU = 20,
	EC_FEATURE_SUB_MCU = 21,
	EC_FEATURE_USB_PD = 22,
	EC_FEATURE_USB_MUX = 23,
	EC_FEATURE_MOTION_SENSE_FIFO = 24,
	EC_FEATURE_VSTORE = 25,
	EC_FEATURE_USBC_SS_MUX_VIRTUAL = 26,
	EC_FEATURE_RTC = 27,
	EC_FEATURE_FINGERPRINT = 28,
	EC_FEATURE_TOUCHPAD = 29,
	EC_FEATURE_RWSIG = 30,
	EC_FEATURE_DEVICE_EVENT = 31,
	EC_FEATURE_UNIFIED_WAKE_MASKS = 32,
	EC_FEATURE_HOST_EVENT64 = 33,
	EC_FEATURE_EXEC_IN_RAM = 34,
	EC_FEATURE_CEC = 35,
	EC_FEATURE_MOTION_SENSE_TIGHT_TIMESTAMPS = 36,
	EC_FEATURE_REFINED_TABLET_MODE_HYSTERESIS = 37,
	EC_FEATURE_EFS2 = 38,
	EC_FEATURE_SCP = 39,
	EC_FEATURE_ISH = 40,
	EC_FEATURE_TYPEC_CMD = 41,
	EC_FEATURE_TYPEC_REQUIRE_AP_MODE_ENTRY = 42,
	EC_FEATURE_TYPEC_MUX_REQUIRE_AP_ACK = 43,
	EC_FEATURE_COUNT = 64,
};

/* ---- 0x01 HELLO ---- */
struct ec_params_hello {
	uint32_t in_data;
} EC_PACKED;
struct ec_response_hello {
	uint32_t out_data;	/* in_data + EC_HELLO_MAGIC */
} EC_PACKED;
#define EC_HELLO_MAGIC 0x01020304u

/* ---- 0x02 GET_VERSION ---- */
enum ec_image {
	EC_IMAGE_UNKNOWN = 0,
	EC_IMAGE_RO = 1,
	EC_IMAGE_RW = 2,
	EC_IMAGE_RO_B = 3,
	EC_IMAGE_RW_B = 4,
};
#define EC_VERSION_STRING_LEN 32
struct ec_response_get_version {
	char version_string_ro[32];
	char version_string_rw[32];
	char reserved[32];
	uint32_t current_image;
} EC_PACKED;
struct ec_response_get_version_v1 {
	char version_string_ro[32];
	char version_string_rw[32];
	char cros_fwid_ro[32];
	uint32_t current_image;
	char cros_fwid_rw[32];
} EC_PACKED;

/* ---- 0x05 GET_CHIP_INFO ---- */
struct ec_response_get_chip_info {
	char vendor[32];
	char name[32];
	char revision[32];
} EC_PACKED;

/* ---- 0x06 GET_BOARD_VERSION ---- */
struct ec_response_board_version {
	uint16_t board_version;
} EC_PACKED;

/* ---- 0x07 READ_MEMMAP ---- */
struct ec_params_read_memmap {
	uint8_t offset;
	uint8_t size;
} EC_PACKED;

/* ---- 0x08 GET_CMD_VERSIONS ---- */
struct ec_params_get_cmd_versions {
	uint8_t cmd;
} EC_PACKED;
struct ec_params_get_cmd_versions_v1 {
	uint16_t cmd;
} EC_PACKED;
struct ec_response_get_cmd_versions {
	uint32_t version_mask;
} EC_PACKED;

/* ---- 0x09 GET_COMMS_STATUS ---- */
#define EC_COMMS_STATUS_PROCESSING 0x01
struct ec_response_get_comms_status {
	uint32_t flags;
} EC_PACKED;

/* ---- 0x0B GET_PROTOCOL_INFO ---- */
#define EC_PROTOCOL_INFO_IN_PROGRESS_SUPPORTED 0x01
struct ec_response_get_protocol_info {
	uint32_t protocol_versions;	/* bit n = protocol version n */
	uint16_t max_request_packet_size;
	uint16_t max_response_packet_size;
	uint32_t flags;
} EC_PACKED;
/* A protocol v3 packet header (request and response alike) is 8 bytes. */
#define EC_HOST_PACKET_HEADER_SIZE 8

/* ---- 0x0D GET_FEATURES ---- */
struct ec_response_get_features {
	uint32_t flags[2];
} EC_PACKED;

/* ---- 0x10 FLASH_INFO ---- */
#define EC_FLASH_INFO_ERASE_TO_0	0x01
#define EC_FLASH_INFO_SELECT_REQUIRED	0x02
struct ec_response_flash_info {
	uint32_t flash_size;
	uint32_t write_block_size;
	uint32_t erase_block_size;
	uint32_t protect_block_size;
} EC_PACKED;
struct ec_response_flash_info_1 {
	uint32_t flash_size;
	uint32_t write_block_size;
	uint32_t erase_block_size;
	uint32_t protect_block_size;
	uint32_t write_ideal_size;
	uint32_t flags;
} EC_PACKED;

/* ---- 0x15 FLASH_PROTECT (v1) ---- */
#define EC_FLASH_PROTECT_RO_AT_BOOT		0x0001
#define EC_FLASH_PROTECT_RO_NOW			0x0002
#define EC_FLASH_PROTECT_ALL_NOW		0x0004
#define EC_FLASH_PROTECT_GPIO_ASSERTED		0x0008
#define EC_FLASH_PROTECT_ERROR_STUCK		0x0010
#define EC_FLASH_PROTECT_ERROR_INCONSISTENT	0x0020
#define EC_FLASH_PROTECT_ALL_AT_BOOT		0x0040
#define EC_FLASH_PROTECT_RW_AT_BOOT		0x0080
#define EC_FLASH_PROTECT_RW_NOW			0x0100
struct ec_params_flash_protect {
	uint32_t mask;
	uint32_t flags;
} EC_PACKED;
struct ec_response_flash_protect {
	uint32_t flags;
	uint32_t valid_flags;
	uint32_t writable_flags;
} EC_PACKED;

/* ---- 0x11 FLASH_READ / 0x12 FLASH_WRITE / 0x13 FLASH_ERASE ---- */
struct ec_params_flash_read {
	uint32_t offset;
	uint32_t size;	/* the response is this many bytes */
} EC_PACKED;
/* Version 0 of FLASH_WRITE carries at most this much data. */
#define EC_FLASH_WRITE_VER0_SIZE	64
struct ec_params_flash_write {
	uint32_t offset;
	uint32_t size;
	/* followed by @size bytes of data */
} EC_PACKED;
struct ec_params_flash_erase {
	uint32_t offset;
	uint32_t size;
} EC_PACKED;
enum ec_flash_erase_cmd {
	FLASH_ERASE_SECTOR = 0,		/* erase, answer when done */
	FLASH_ERASE_SECTOR_ASYNC,	/* queue the erase, answer at once */
	FLASH_ERASE_GET_RESULT,		/* BUSY while the queued erase runs */
};
struct ec_params_flash_erase_v1 {
	uint8_t cmd;
	uint8_t reserved;
	uint16_t flag;
	struct ec_params_flash_erase params;
} EC_PACKED;

/* ---- 0x16 FLASH_REGION_INFO (v1) ---- */
enum ec_flash_region {
	EC_FLASH_REGION_RO = 0,
	EC_FLASH_REGION_ACTIVE,
	EC_FLASH_REGION_WP_RO,
	EC_FLASH_REGION_UPDATE,
	EC_FLASH_REGION_COUNT,
};
struct ec_params_flash_region_info {
	uint32_t region;
} EC_PACKED;
struct ec_response_flash_region_info {
	uint32_t offset;
	uint32_t size;
} EC_PACKED;

/* ---- 0x2A VBOOT_HASH ---- */
enum ec_vboot_hash_cmd {
	EC_VBOOT_HASH_GET = 0,
	EC_VBOOT_HASH_ABORT = 1,
	EC_VBOOT_HASH_START = 2,
	EC_VBOOT_HASH_RECALC = 3,
};
#define EC_VBOOT_HASH_TYPE_SHA256	0
enum ec_vboot_hash_status {
	EC_VBOOT_HASH_STATUS_NONE = 0,
	EC_VBOOT_HASH_STATUS_DONE = 1,
	EC_VBOOT_HASH_STATUS_BUSY = 2,
};
/* Offsets START and RECALC resolve to an image's region. */
#define EC_VBOOT_HASH_OFFSET_RO		0xfffffffeu
#define EC_VBOOT_HASH_OFFSET_ACTIVE	0xfffffffdu
#define EC_VBOOT_HASH_OFFSET_UPDATE	0xfffffffcu
struct ec_params_vboot_hash {
	uint8_t cmd;
	uint8_t hash_type;
	uint8_t nonce_size;
	uint8_t reserved0;
	uint32_t offset;
	uint32_t size;
	uint8_t nonce_data[64];
} EC_PACKED;
struct ec_response_vboot_hash {
	uint8_t status;
	uint8_t hash_type;
	uint8_t digest_size;
	uint8_t reserved0;
	uint32_t offset;
	uint32_t size;
	uint8_t hash_digest[64];
} EC_PACKED;

/* ---- 0x1C SYSINFO ---- */
#define SYSTEM_IS_LOCKED	0x01
#define SYSTEM_IS_FORCE_LOCKED	0x02
#define SYSTEM_JUMP_ENABLED	0x04
struct ec_response_sysinfo {
	uint32_t reset_flags;
	uint32_t current_image;
	uint32_t flags;
} EC_PACKED;
#define EC_RESET_FLAG_OTHER	(1u << 0)
#define EC_RESET_FLAG_RESET_PIN	(1u << 1)
#define EC_RESET_FLAG_POWER_ON	(1u << 3)
#define EC_RESET_FLAG_SOFT	(1u << 5)
#define EC_RESET_FLAG_HIBERNATE	(1u << 6)
#define EC_RESET_FLAG_SYSJUMP	(1u << 10)
#define EC_RESET_FLAG_HARD	(1u << 11)
#define EC_RESET_FLAG_AP_OFF	(1u << 12)

/* ---- 0x21 / 0x24 fan control ---- */
struct ec_params_pwm_set_fan_target_rpm_v0 {
	uint32_t rpm;
} EC_PACKED;
struct ec_params_pwm_set_fan_target_rpm_v1 {
	uint32_t rpm;
	uint8_t fan_idx;
} EC_PACKED;
struct ec_params_pwm_set_fan_duty_v0 {
	uint32_t percent;
} EC_PACKED;
struct ec_params_pwm_set_fan_duty_v1 {
	uint32_t percent;
	uint8_t fan_idx;
} EC_PACKED;

/* ---- 0x29 LED_CONTROL (v1) ---- */
enum ec_led_id {
	EC_LED_ID_BATTERY_LED = 0,
	EC_LED_ID_POWER_LED,
	EC_LED_ID_ADAPTER_LED,
	EC_LED_ID_LEFT_LED,
	EC_LED_ID_RIGHT_LED,
	EC_LED_ID_RECOVERY_HW_REINIT_LED,
	EC_LED_ID_SYSRQ_DEBUG_LED,
	EC_LED_ID_COUNT,
};
enum ec_led_colors {
	EC_LED_COLOR_RED = 0,
	EC_LED_COLOR_GREEN,
	EC_LED_COLOR_BLUE,
	EC_LED_COLOR_YELLOW,
	EC_LED_COLOR_WHITE,
	EC_LED_COLOR_AMBER,
	EC_LED_COLOR_COUNT,
};
#define EC_LED_FLAGS_QUERY	0x01
#define EC_LED_FLAGS_AUTO	0x02
struct ec_params_led_control {
	uint8_t led_id;
	uint8_t flags;
	uint8_t brightness[EC_LED_COLOR_COUNT];
} EC_PACKED;
struct ec_response_led_control {
	uint8_t brightness_range[EC_LED_COLOR_COUNT];
} EC_PACKED;

/* ---- 0x44 RTC_GET_VALUE ---- */
struct ec_response_rtc {
	uint32_t time;	/* seconds since the epoch */
} EC_PACKED;

/* RTC_SET_VALUE, RTC_SET_ALARM (seconds from now) take one u32. */
struct ec_params_rtc {
	uint32_t time;
} EC_PACKED;
#define EC_RTC_ALARM_CLEAR	0

/* ---- 0x48 PORT80_READ ---- */
#define EC_PORT80_SIZE_MAX	32
enum ec_port80_subcmd {
	EC_PORT80_GET_INFO = 0,
	EC_PORT80_READ_BUFFER,
};
/* Codes above 0xff in the history mark host transitions, not POST codes. */
#define PORT_80_EVENT_RESUME	0x1001
#define PORT_80_EVENT_RESET	0x1002
struct ec_params_port80_read {
	uint16_t subcmd;
	uint32_t offset;	/* READ_BUFFER: first entry */
	uint32_t num_entries;	/* READ_BUFFER: at most EC_PORT80_SIZE_MAX */
} EC_PACKED;
struct ec_response_port80_info {
	uint32_t writes;
	uint32_t history_size;
	uint32_t last_boot;
} EC_PACKED;
struct ec_response_port80_last_boot {
	uint16_t code;
} EC_PACKED;

/* ---- 0x51 THERMAL_GET_THRESHOLD (v1) / 0x52 THERMAL_AUTO_FAN_CTRL ---- */
enum ec_temp_thresholds {
	EC_TEMP_THRESH_WARN = 0,
	EC_TEMP_THRESH_HIGH,
	EC_TEMP_THRESH_HALT,
	EC_TEMP_THRESH_COUNT,
};
struct ec_params_thermal_get_threshold_v1 {
	uint32_t sensor_num;
} EC_PACKED;
/* All temperatures in kelvin; 0 = threshold unused. */
struct ec_thermal_config {
	uint32_t temp_host[EC_TEMP_THRESH_COUNT];
	uint32_t temp_host_release[EC_TEMP_THRESH_COUNT];
	uint32_t temp_fan_off;
	uint32_t temp_fan_max;
} EC_PACKED;
struct ec_params_auto_fan_ctrl_v1 {
	uint8_t fan_idx;
} EC_PACKED;

/* ---- 0x67 GET_NEXT_EVENT / MKBP ---- */
enum ec_mkbp_event {
	EC_MKBP_EVENT_KEY_MATRIX = 0,
	EC_MKBP_EVENT_HOST_EVENT = 1,
	EC_MKBP_EVENT_SENSOR_FIFO = 2,
	EC_MKBP_EVENT_BUTTON = 3,
	EC_MKBP_EVENT_SWITCH = 4,
	EC_MKBP_EVENT_FINGERPRINT = 5,
	EC_MKBP_EVENT_SYSRQ = 6,
	EC_MKBP_EVENT_HOST_EVENT64 = 7,
	EC_MKBP_EVENT_CEC_EVENT = 8,
	EC_MKBP_EVENT_CEC_MESSAGE = 9,
	EC_MKBP_EVENT_DP_ALT_MODE_ENTERED = 10,
	EC_MKBP_EVENT_ONLINE_CALIBRATION = 11,
	EC_MKBP_EVENT_PCHG = 12,
	EC_MKBP_EVENT_COUNT,
};
#define EC_MKBP_HAS_MORE_EVENTS		0x80
#define EC_MKBP_EVENT_TYPE_MASK		0x7F
/*
 * Payload room after the type byte: v0 13 bytes, v1 and v2 16 bytes, v3
 * 18 (a key matrix of up to 18 columns; other events are no larger in v3).
 */
#define EC_MKBP_DATA_SIZE_V0		13
#define EC_MKBP_DATA_SIZE_V1		16
#define EC_MKBP_DATA_SIZE_V3		18
/* Bits in the BUTTON and SWITCH payloads. */
#define EC_MKBP_POWER_BUTTON		0
#define EC_MKBP_VOL_UP			1
#define EC_MKBP_VOL_DOWN		2
#define EC_MKBP_RECOVERY		3
#define EC_MKBP_LID_OPEN		0
#define EC_MKBP_TABLET_MODE		1
struct ec_response_get_next_event_v1 {
	uint8_t event_type;
	uint8_t data[EC_MKBP_DATA_SIZE_V1];
} EC_PACKED;

/* ---- 0x22 / 0x23 keyboard backlight ---- */
struct ec_response_pwm_get_keyboard_backlight {
	uint8_t percent;
	uint8_t enabled;
} EC_PACKED;
struct ec_params_pwm_set_keyboard_backlight {
	uint8_t percent;
} EC_PACKED;

/* ---- 0x61 MKBP_INFO ---- */
enum ec_mkbp_info_type {
	EC_MKBP_INFO_KBD = 0,		/* matrix rows and columns */
	EC_MKBP_INFO_SUPPORTED = 1,	/* which buttons / switches exist (u32) */
	EC_MKBP_INFO_CURRENT = 2,	/* their state now, or the key matrix */
};
struct ec_params_mkbp_info {
	uint8_t info_type;
	uint8_t event_type;
} EC_PACKED;
struct ec_response_mkbp_info {
	uint32_t rows;
	uint32_t cols;
	uint8_t reserved;
} EC_PACKED;

/* ---- 0x62 MKBP_SIMULATE_KEY / 0x63 GET_KEYBOARD_ID ---- */
struct ec_params_mkbp_simulate_key {
	uint8_t col;
	uint8_t row;
	uint8_t pressed;
} EC_PACKED;
#define KEYBOARD_ID_UNSUPPORTED		0
#define KEYBOARD_ID_UNREADABLE		0xffffffffu
struct ec_response_keyboard_id {
	uint32_t keyboard_id;
} EC_PACKED;

/* ---- 0x64 MKBP_SET_CONFIG / 0x65 MKBP_GET_CONFIG ---- */
#define EC_MKBP_FLAGS_ENABLE			0x01
#define EC_MKBP_VALID_SCAN_PERIOD		(1u << 0)
#define EC_MKBP_VALID_POLL_TIMEOUT		(1u << 1)
#define EC_MKBP_VALID_MIN_POST_SCAN_DELAY	(1u << 3)
#define EC_MKBP_VALID_OUTPUT_SETTLE		(1u << 4)
#define EC_MKBP_VALID_DEBOUNCE_DOWN		(1u << 5)
#define EC_MKBP_VALID_DEBOUNCE_UP		(1u << 6)
#define EC_MKBP_VALID_FIFO_MAX_DEPTH		(1u << 7)
struct ec_mkbp_config {
	uint32_t valid_mask;
	uint8_t flags;
	uint8_t valid_flags;
	uint16_t scan_period_us;
	uint32_t poll_timeout_us;
	uint16_t min_post_scan_delay_us;
	uint16_t output_settle_us;
	uint16_t debounce_down_us;
	uint16_t debounce_up_us;
	uint8_t fifo_max_depth;
} EC_PACKED;

/* ---- 0x69 MKBP_WAKE_MASK ---- */
enum ec_mkbp_event_mask_action {
	GET_WAKE_MASK = 0,
	SET_WAKE_MASK,
};
enum ec_mkbp_mask_type {
	EC_MKBP_HOST_EVENT_WAKE_MASK = 0,
	EC_MKBP_EVENT_WAKE_MASK,
};
/* Not packed in the firmware's header: the mask sits at offset 4. */
struct ec_params_mkbp_event_wake_mask {
	uint8_t action;
	uint8_t mask_type;
	uint8_t reserved[2];
	uint32_t new_wake_mask;
} EC_PACKED;
struct ec_response_mkbp_event_wake_mask {
	uint32_t wake_mask;
} EC_PACKED;

/* ---- 0x70 TEMP_SENSOR_GET_INFO ---- */
enum ec_temp_sensor_type {
	TEMP_SENSOR_TYPE_CPU = 0,
	TEMP_SENSOR_TYPE_BOARD,
	TEMP_SENSOR_TYPE_CASE,
	TEMP_SENSOR_TYPE_BATTERY,
	TEMP_SENSOR_TYPE_COUNT,
};
struct ec_params_temp_sensor_get_info {
	uint8_t id;
} EC_PACKED;
struct ec_response_temp_sensor_get_info {
	char sensor_name[32];
	uint8_t sensor_type;
} EC_PACKED;

/* ---- 0x93 GPIO_GET ---- */
enum gpio_get_subcmd {
	EC_GPIO_GET_BY_NAME = 0,
	EC_GPIO_GET_COUNT = 1,
	EC_GPIO_GET_INFO = 2,
};
struct ec_params_gpio_get {
	char name[32];
} EC_PACKED;
struct ec_response_gpio_get {
	uint8_t val;
} EC_PACKED;
struct ec_params_gpio_get_v1 {
	uint8_t subcmd;
	union {
		struct {
			char name[32];
		} EC_PACKED get_value_by_name;
		struct {
			uint8_t index;
		} EC_PACKED get_info;
	};
} EC_PACKED;
/* The v1 response is the union of its forms: always 40 bytes on the wire. */
struct ec_response_gpio_get_v1 {
	union {
		struct {
			uint8_t val;
		} get_value_by_name, get_count;
		struct {
			uint8_t val;
			char name[32];
			uint8_t pad[3];
			uint32_t flags;
		} get_info;
	};
} EC_PACKED;
#define GPIO_INPUT	0x0100
#define GPIO_OUTPUT	0x0200

/* ---- 0x96 CHARGE_CONTROL (v2) ---- */
enum ec_charge_control_mode {
	CHARGE_CONTROL_NORMAL = 0,
	CHARGE_CONTROL_IDLE,
	CHARGE_CONTROL_DISCHARGE,
	CHARGE_CONTROL_COUNT,
};
enum ec_charge_control_cmd {
	EC_CHARGE_CONTROL_CMD_SET = 0,
	EC_CHARGE_CONTROL_CMD_GET,
};
struct ec_params_charge_control {
	uint32_t mode;
	uint8_t cmd;
	uint8_t reserved;
	int8_t sustain_soc_lower;	/* -1 = sustainer off */
	int8_t sustain_soc_upper;
} EC_PACKED;
struct ec_response_charge_control {
	uint32_t mode;
	int8_t sustain_soc_lower;
	int8_t sustain_soc_upper;
	uint8_t flags;
	uint8_t reserved;
} EC_PACKED;

/* ---- 0x98 CONSOLE_READ (v1 adds a sub-command) ---- */
enum ec_console_read_subcmd {
	CONSOLE_READ_NEXT = 0,
	CONSOLE_READ_RECENT,
};
struct ec_params_console_read_v1 {
	uint8_t subcmd;
} EC_PACKED;

/* ---- 0x9D POWER_INFO (v1) ---- */
enum system_power_source {
	POWER_SOURCE_UNKNOWN = 0,
	POWER_SOURCE_BATTERY = 1,
	POWER_SOURCE_AC = 2,
	POWER_SOURCE_AC_BATTERY = 3,
};
struct ec_response_power_info_v1 {
	uint8_t system_power_source;
	uint8_t battery_soc;
	uint8_t ac_adapter_100pct;	/* W */
	uint8_t ac_adapter_10ms;	/* W */
	uint8_t battery_1cd;		/* W */
	uint8_t rop_avg;		/* W */
	uint8_t rop_peak;		/* W */
	uint8_t nominal_charger_eff;	/* % */
	uint8_t rop_avg_eff;		/* % */
	uint8_t rop_peak_eff;		/* % */
	uint8_t soc_avg_eff;		/* % */
	uint8_t soc_peak_eff;		/* % */
	uint8_t batt_dbpt_support_level;
	uint8_t batt_dbpt_max_peak_power;
	uint8_t batt_dbpt_sus_peak_power;
} EC_PACKED;

/* ---- 0xA0 CHARGE_STATE ---- */
enum charge_state_command {
	CHARGE_STATE_CMD_GET_STATE = 0,
	CHARGE_STATE_CMD_GET_PARAM,
	CHARGE_STATE_CMD_SET_PARAM,
	CHARGE_STATE_NUM_CMDS,
};
enum charge_state_params {
	CS_PARAM_CHG_VOLTAGE = 0,
	CS_PARAM_CHG_CURRENT,
	CS_PARAM_CHG_INPUT_CURRENT,
	CS_PARAM_CHG_STATUS,
	CS_PARAM_CHG_OPTION,
	CS_PARAM_LIMIT_POWER,
	CS_NUM_BASE_PARAMS,
};
struct ec_params_charge_state {
	uint8_t cmd;
	uint8_t reserved[3];
	uint32_t param;
	uint32_t value;
} EC_PACKED;
struct ec_response_charge_state {
	int32_t ac;
	int32_t chg_voltage;		/* mV */
	int32_t chg_current;		/* mA */
	int32_t chg_input_current;	/* mA */
	int32_t batt_state_of_charge;	/* % */
} EC_PACKED;

/* ---- 0x87..0x8F legacy host event commands (32-bit masks) ---- */
struct ec_params_host_event_mask {
	uint32_t mask;
} EC_PACKED;
struct ec_response_host_event_mask {
	uint32_t mask;
} EC_PACKED;

/* ---- 0xA4 HOST_EVENT (64-bit) ---- */
enum ec_host_event_action {
	EC_HOST_EVENT_GET = 0,
	EC_HOST_EVENT_SET,
	EC_HOST_EVENT_CLEAR,
};
enum ec_host_event_mask_type {
	EC_HOST_EVENT_MAIN = 0,
	EC_HOST_EVENT_B,
	EC_HOST_EVENT_SCI_MASK,
	EC_HOST_EVENT_SMI_MASK,
	EC_HOST_EVENT_ALWAYS_REPORT_MASK,
	EC_HOST_EVENT_ACTIVE_WAKE_MASK,
	EC_HOST_EVENT_LAZY_WAKE_MASK_S0IX,
	EC_HOST_EVENT_LAZY_WAKE_MASK_S3,
	EC_HOST_EVENT_LAZY_WAKE_MASK_S5,
	EC_HOST_EVENT_MASK_TYPE_COUNT,
};
struct ec_params_host_event {
	uint8_t action;
	uint8_t mask_type;
	uint16_t reserved;
	uint64_t value;
} EC_PACKED;
struct ec_response_host_event {
	uint64_t value;
} EC_PACKED;

/* ---- 0xA9 HOST_SLEEP_EVENT ---- */
enum host_sleep_event {
	HOST_SLEEP_EVENT_S3_SUSPEND = 1,
	HOST_SLEEP_EVENT_S3_RESUME = 2,
	HOST_SLEEP_EVENT_S0IX_SUSPEND = 3,
	HOST_SLEEP_EVENT_S0IX_RESUME = 4,
	HOST_SLEEP_EVENT_S3_WAKEABLE_SUSPEND = 5,
};
#define EC_HOST_SLEEP_TIMEOUT_DEFAULT	0
#define EC_HOST_SLEEP_TIMEOUT_INFINITE	0xFFFF
struct ec_params_host_sleep_event {
	uint8_t sleep_event;
} EC_PACKED;
struct ec_params_host_sleep_event_v1 {
	uint8_t sleep_event;
	uint8_t reserved;
	uint16_t sleep_timeout_ms;	/* suspend events only */
} EC_PACKED;
/* Resume answer: transitions seen while suspended, bit 31 = timed out. */
#define EC_HOST_RESUME_SLEEP_TIMEOUT		0x80000000u
#define EC_HOST_RESUME_SLEEP_TRANSITIONS_MASK	0x7FFFFFFFu
struct ec_response_host_sleep_event_v1 {
	uint32_t sleep_transitions;
} EC_PACKED;

/* ---- 0x101 USB_PD_CONTROL ---- */
enum usb_pd_control_role {
	USB_PD_CTRL_ROLE_NO_CHANGE = 0,
	USB_PD_CTRL_ROLE_TOGGLE_ON,
	USB_PD_CTRL_ROLE_TOGGLE_OFF,
	USB_PD_CTRL_ROLE_FORCE_SINK,
	USB_PD_CTRL_ROLE_FORCE_SOURCE,
	USB_PD_CTRL_ROLE_FREEZE,
	USB_PD_CTRL_ROLE_COUNT,
};
enum usb_pd_control_mux {
	USB_PD_CTRL_MUX_NO_CHANGE = 0,
	USB_PD_CTRL_MUX_NONE,
	USB_PD_CTRL_MUX_USB,
	USB_PD_CTRL_MUX_DP,
	USB_PD_CTRL_MUX_DOCK,
	USB_PD_CTRL_MUX_AUTO,
	USB_PD_CTRL_MUX_COUNT,
};
enum usb_pd_control_swap {
	USB_PD_CTRL_SWAP_NONE = 0,
	USB_PD_CTRL_SWAP_DATA,
	USB_PD_CTRL_SWAP_POWER,
	USB_PD_CTRL_SWAP_VCONN,
	USB_PD_CTRL_SWAP_COUNT,
};
#define PD_CTRL_RESP_ENABLED_COMMS		0x01
#define PD_CTRL_RESP_ENABLED_CONNECTED		0x02
#define PD_CTRL_RESP_ENABLED_PD_CAPABLE		0x04
#define PD_CTRL_RESP_ROLE_POWER			0x01	/* 1 = source */
#define PD_CTRL_RESP_ROLE_DATA			0x02	/* 1 = DFP */
#define PD_CTRL_RESP_ROLE_VCONN			0x04
#define PD_CTRL_RESP_ROLE_DR_POWER		0x08
#define PD_CTRL_RESP_ROLE_DR_DATA		0x10
#define PD_CTRL_RESP_ROLE_USB_COMM		0x20
#define PD_CTRL_RESP_ROLE_UNCONSTRAINED		0x40
struct ec_params_usb_pd_control {
	uint8_t port;
	uint8_t role;
	uint8_t mux;
	uint8_t swap;
} EC_PACKED;
struct ec_response_usb_pd_control {
	uint8_t enabled;
	uint8_t role;
	uint8_t polarity;
	uint8_t state;
} EC_PACKED;
struct ec_response_usb_pd_control_v1 {
	uint8_t enabled;
	uint8_t role;
	uint8_t polarity;
	char state[32];
} EC_PACKED;
struct ec_response_usb_pd_control_v2 {
	uint8_t enabled;
	uint8_t role;
	uint8_t polarity;
	char state[32];
	uint8_t cc_state;
	uint8_t dp_mode;
	uint8_t reserved;
	uint8_t control_flags;
	uint8_t cable_speed;
	uint8_t cable_gen;
} EC_PACKED;

/* ---- 0x102 USB_PD_PORTS ---- */
struct ec_response_usb_pd_ports {
	uint8_t num_ports;
} EC_PACKED;

/* ---- 0x103 USB_PD_POWER_INFO ---- */
#define PD_POWER_CHARGING_PORT 0xFF
enum usb_power_roles {
	USB_PD_PORT_POWER_DISCONNECTED = 0,
	USB_PD_PORT_POWER_SOURCE,
	USB_PD_PORT_POWER_SINK,
	USB_PD_PORT_POWER_SINK_NOT_CHARGING,
};
enum usb_chg_type {
	USB_CHG_TYPE_NONE = 0,
	USB_CHG_TYPE_PD,
	USB_CHG_TYPE_C,
	USB_CHG_TYPE_PROPRIETARY,
	USB_CHG_TYPE_BC12_DCP,
	USB_CHG_TYPE_BC12_CDP,
	USB_CHG_TYPE_BC12_SDP,
	USB_CHG_TYPE_OTHER,
	USB_CHG_TYPE_VBUS,
	USB_CHG_TYPE_UNKNOWN,
};
struct ec_params_usb_pd_power_info {
	uint8_t port;
} EC_PACKED;
struct usb_chg_measures {
	uint16_t voltage_max;	/* mV */
	uint16_t voltage_now;	/* mV */
	uint16_t current_max;	/* mA */
	uint16_t current_lim;	/* mA */
} EC_PACKED;
struct ec_response_usb_pd_power_info {
	uint8_t role;
	uint8_t type;
	uint8_t dualrole;
	uint8_t reserved1;
	struct usb_chg_measures meas;
	uint32_t max_power;	/* uW */
} EC_PACKED;

/* ---- 0x11A USB_PD_MUX_INFO ---- */
#define USB_PD_MUX_USB_ENABLED		0x01
#define USB_PD_MUX_DP_ENABLED		0x02
#define USB_PD_MUX_POLARITY_INVERTED	0x04
#define USB_PD_MUX_HPD_IRQ		0x08
#define USB_PD_MUX_HPD_LVL		0x10
#define USB_PD_MUX_SAFE_MODE		0x20
#define USB_PD_MUX_DOCK			(USB_PD_MUX_USB_ENABLED | USB_PD_MUX_DP_ENABLED)
struct ec_params_usb_pd_mux_info {
	uint8_t port;
} EC_PACKED;
struct ec_response_usb_pd_mux_info {
	uint8_t flags;
} EC_PACKED;

/* ---- 0x121 GET_UPTIME_INFO ---- */
struct ap_reset_log_entry {
	uint16_t reset_cause;
	uint16_t reserved;
	uint32_t reset_time_ms;
} EC_PACKED;
struct ec_response_uptime_info {
	uint32_t time_since_ec_boot_ms;
	uint32_t ap_resets_since_ec_boot;
	uint32_t ec_reset_flags;
	struct ap_reset_log_entry recent_ap_reset[4];
} EC_PACKED;

/* ---- 0x133 TYPEC_STATUS ---- */
enum pd_power_role { PD_ROLE_SINK = 0, PD_ROLE_SOURCE = 1 };
enum pd_data_role { PD_ROLE_UFP = 0, PD_ROLE_DFP = 1, PD_ROLE_DISCONNECTED = 2 };
enum pd_vconn_role { PD_ROLE_VCONN_OFF = 0, PD_ROLE_VCONN_SRC = 1 };
enum pd_cc_states {
	PD_CC_NONE = 0,
	PD_CC_UFP_AUDIO_ACC,
	PD_CC_UFP_DEBUG_ACC,
	PD_CC_UFP_ATTACHED,
	PD_CC_DFP_ATTACHED,
	PD_CC_DFP_DEBUG_ACC,
};
struct ec_params_typec_status {
	uint8_t port;
} EC_PACKED;
struct ec_response_typec_status {
	uint8_t pd_enabled;
	uint8_t dev_connected;
	uint8_t sop_connected;
	uint8_t source_cap_count;
	uint8_t power_role;
	uint8_t data_role;
	uint8_t vconn_role;
	uint8_t sink_cap_count;
	uint8_t polarity;
	uint8_t cc_state;
	uint8_t dp_pin;
	uint8_t mux_state;
	char tc_state[32];
	uint32_t events;
	uint16_t sop_revision;
	uint16_t sop_prime_revision;
	uint32_t source_cap_pdos[7];
	uint32_t sink_cap_pdos[7];
} EC_PACKED;

/* ---- 0x600 / 0x601 battery ---- */
struct ec_params_battery_static_info {
	uint8_t index;
} EC_PACKED;
struct ec_response_battery_static_info {
	uint16_t design_capacity;	/* mAh */
	uint16_t design_voltage;	/* mV */
	char manufacturer[EC_MEMMAP_TEXT_MAX];
	char model[EC_MEMMAP_TEXT_MAX];
	char serial[EC_MEMMAP_TEXT_MAX];
	char type[EC_MEMMAP_TEXT_MAX];
	uint32_t cycle_count;
} EC_PACKED;
#define EC_BATTERY_STATIC_EXT_LEN 12
struct ec_response_battery_static_info_v1 {
	uint16_t design_capacity;
	uint16_t design_voltage;
	uint32_t cycle_count;
	char manufacturer_ext[EC_BATTERY_STATIC_EXT_LEN];
	char model_ext[EC_BATTERY_STATIC_EXT_LEN];
	char serial_ext[EC_BATTERY_STATIC_EXT_LEN];
	char type_ext[EC_BATTERY_STATIC_EXT_LEN];
} EC_PACKED;
struct ec_params_battery_dynamic_info {
	uint8_t index;
} EC_PACKED;
struct ec_response_battery_dynamic_info {
	int16_t actual_voltage;		/* mV */
	int16_t actual_current;		/* mA, negative = discharging */
	int16_t remaining_capacity;	/* mAh */
	int16_t full_capacity;		/* mAh */
	int16_t flags;			/* EC_BATT_FLAG_* */
	int16_t desired_voltage;	/* mV */
	int16_t desired_current;	/* mA */
} EC_PACKED;

/* ---- 0x18 FLASH_SPI_INFO ---- */
#define EC_CMD_FLASH_SPI_INFO		0x0018
struct ec_response_flash_spi_info {
	uint8_t jedec[3];		/* JEDEC ID (SPI command 0x9F) */
	uint8_t reserved0;
	uint8_t mfr_dev_id[2];		/* SPI command 0x90 */
	uint8_t sr1, sr2;		/* status registers (0x05, 0x35) */
} EC_PACKED;

/* ---- 0x25 / 0x26 PWM_SET_DUTY / PWM_GET_DUTY ---- */
#define EC_CMD_PWM_SET_DUTY		0x0025
#define EC_CMD_PWM_GET_DUTY		0x0026
#define EC_PWM_MAX_DUTY			0xffff
enum ec_pwm_type {
	EC_PWM_TYPE_GENERIC = 0,	/* indexed by the board's PWM channel */
	EC_PWM_TYPE_KB_LIGHT,
	EC_PWM_TYPE_DISPLAY_LIGHT,
	EC_PWM_TYPE_COUNT,
};
struct ec_params_pwm_set_duty {
	uint16_t duty;
	uint8_t pwm_type;
	uint8_t index;
} EC_PACKED;
struct ec_params_pwm_get_duty {
	uint8_t pwm_type;
	uint8_t index;
} EC_PACKED;
struct ec_response_pwm_get_duty {
	uint16_t duty;
} EC_PACKED;

/* ---- 0x2C FORCE_LID_OPEN ---- */
#define EC_CMD_FORCE_LID_OPEN		0x002C
struct ec_params_force_lid_open {
	uint8_t enabled;
} EC_PACKED;

/* ---- 0x30 USB_CHARGE_SET_MODE ---- */
#define EC_CMD_USB_CHARGE_SET_MODE	0x0030
enum usb_charge_mode {
	USB_CHARGE_MODE_DISABLED,
	USB_CHARGE_MODE_SDP2,
	USB_CHARGE_MODE_CDP,
	USB_CHARGE_MODE_DCP_SHORT,
	USB_CHARGE_MODE_ENABLED,
	USB_CHARGE_MODE_DEFAULT,
	USB_CHARGE_MODE_COUNT,
};
struct ec_params_usb_charge_set_mode {
	uint8_t usb_port_id;
	uint8_t mode_inhibit;		/* bits 0-6 mode, bit 7 inhibit charge in suspend */
} EC_PACKED;

/* ---- 0x50 THERMAL_SET_THRESHOLD v1 (its config: see THERMAL_GET_THRESHOLD) ---- */
#define EC_CMD_THERMAL_SET_THRESHOLD	0x0050
struct ec_params_thermal_set_threshold_v1 {
	uint32_t sensor_num;
	struct ec_thermal_config cfg;
} EC_PACKED;

/* ---- 0x91 SWITCH_ENABLE_WIRELESS ---- */
#define EC_CMD_SWITCH_ENABLE_WIRELESS	0x0091
#define EC_WIRELESS_SWITCH_WLAN		0x01
#define EC_WIRELESS_SWITCH_BLUETOOTH	0x02
#define EC_WIRELESS_SWITCH_WWAN		0x04
#define EC_WIRELESS_SWITCH_WLAN_POWER	0x08
struct ec_params_switch_enable_wireless_v1 {
	uint8_t now_flags;
	uint8_t now_mask;
	uint8_t suspend_flags;
	uint8_t suspend_mask;
} EC_PACKED;
struct ec_response_switch_enable_wireless_v1 {
	uint8_t now_flags;
	uint8_t suspend_flags;
} EC_PACKED;

/* ---- 0x99 BATTERY_CUT_OFF ---- */
#define EC_CMD_BATTERY_CUT_OFF		0x0099
#define EC_BATTERY_CUTOFF_FLAG_AT_SHUTDOWN	(1u << 0)

/* ---- 0x9F HANG_DETECT ---- */
#define EC_CMD_HANG_DETECT		0x009F
#define EC_HANG_START_ON_POWER_PRESS	(1u << 0)
#define EC_HANG_START_ON_LID_CLOSE	(1u << 1)
#define EC_HANG_START_ON_LID_OPEN	(1u << 2)
#define EC_HANG_START_ON_RESUME		(1u << 3)
#define EC_HANG_STOP_ON_POWER_RELEASE	(1u << 8)
#define EC_HANG_STOP_ON_HOST_COMMAND	(1u << 9)
#define EC_HANG_STOP_ON_SUSPEND		(1u << 10)
#define EC_HANG_START_NOW		(1u << 30)
#define EC_HANG_STOP_NOW		(1u << 31)
struct ec_params_hang_detect {
	uint32_t flags;
	uint16_t host_event_timeout_msec;
	uint16_t warm_reboot_timeout_msec;
} EC_PACKED;

/* ---- 0xA1 CHARGE_CURRENT_LIMIT, 0xA2 EXTERNAL_POWER_LIMIT ---- */
#define EC_CMD_CHARGE_CURRENT_LIMIT	0x00A1
struct ec_params_current_limit {
	uint32_t limit;			/* mA */
} EC_PACKED;
#define EC_CMD_EXTERNAL_POWER_LIMIT	0x00A2
#define EC_POWER_LIMIT_NONE		0xffff
struct ec_params_external_power_limit_v1 {
	uint16_t current_lim;		/* mA, or EC_POWER_LIMIT_NONE */
	uint16_t voltage_lim;		/* mV, or EC_POWER_LIMIT_NONE */
} EC_PACKED;

/* ---- 0xA8 HIBERNATION_DELAY ---- */
#define EC_CMD_HIBERNATION_DELAY	0x00A8
struct ec_params_hibernation_delay {
	uint32_t seconds;		/* 0: only read */
} EC_PACKED;
struct ec_response_hibernation_delay {
	uint32_t time_g3;
	uint32_t time_remaining;
	uint32_t hibernate_delay;
} EC_PACKED;

/* ---- 0x9A USB_MUX ---- */
#define EC_CMD_USB_MUX			0x009A
struct ec_params_usb_mux {
	uint8_t mux;			/* USB_PD_MUX_USB_ENABLED | USB_PD_MUX_DP_ENABLED */
} EC_PACKED;

/* ---- 0x112..0x11B the PD MCU's commands ---- */
#define EC_CMD_USB_PD_DEV_INFO		0x0112
struct ec_params_usb_pd_info_request {
	uint8_t port;
} EC_PACKED;
#define PD_RW_HASH_SIZE			20
struct ec_params_usb_pd_rw_hash_entry {	/* also USB_PD_DEV_INFO's answer */
	uint16_t dev_id;
	uint8_t dev_rw_hash[PD_RW_HASH_SIZE];
	uint8_t reserved;
	uint32_t current_image;
} EC_PACKED;
#define EC_CMD_PD_CHARGE_PORT_OVERRIDE	0x0114
enum usb_pd_override_ports {
	OVERRIDE_DONT_CHARGE = -2,
	OVERRIDE_OFF = -1,
};
struct ec_params_charge_port_override {
	int16_t override_port;
} EC_PACKED;
#define EC_CMD_PD_GET_LOG_ENTRY		0x0115
struct ec_response_pd_log {
	uint32_t timestamp;		/* age in 1024 us units */
	uint8_t type;			/* PD_EVENT_* */
	uint8_t size_port;		/* port << 5 | payload size */
	uint16_t data;
	uint8_t payload[];
} EC_PACKED;
#define PD_LOG_TIMESTAMP_SHIFT		10
#define PD_LOG_PORT_SHIFT		5
#define PD_LOG_SIZE_MASK		0x1f
#define PD_LOG_PORT_SIZE(port, size)	(((port) << PD_LOG_PORT_SHIFT) | ((size) & PD_LOG_SIZE_MASK))
#define PD_EVENT_MCU_CHARGE		0x00
#define PD_EVENT_MCU_CONNECT		0x01
#define PD_EVENT_MCU_BOARD_CUSTOM	0x02
#define PD_EVENT_ACC_BASE		0x20	/* the EC's own types end here */
#define PD_EVENT_VIDEO_DP_MODE		0x60
#define PD_EVENT_NO_ENTRY		0xff
#define CHARGE_FLAGS_DUAL_ROLE		(1u << 15)
#define CHARGE_FLAGS_OVERRIDE		(1u << 13)
#define CHARGE_FLAGS_TYPE_SHIFT		3
#define EC_CMD_USB_PD_GET_AMODE		0x0116
struct ec_params_usb_pd_get_mode_request {
	uint16_t svid_idx;
	uint8_t port;
} EC_PACKED;
struct ec_params_usb_pd_get_mode_response {
	uint16_t svid;
	uint16_t opos;			/* the mode entered, 0 = none */
	uint32_t vdo[6];
} EC_PACKED;
#define EC_CMD_USB_PD_SET_AMODE		0x0117
enum pd_mode_cmd {
	PD_EXIT_MODE = 0,
	PD_ENTER_MODE = 1,
	PD_MODE_CMD_COUNT,
};
struct ec_params_usb_pd_set_mode_request {
	uint32_t cmd;			/* enum pd_mode_cmd */
	uint16_t svid;
	uint8_t opos;
	uint8_t port;
} EC_PACKED;
#define EC_CMD_PD_CONTROL		0x0119
enum ec_pd_control_cmd {
	PD_SUSPEND = 0,
	PD_RESUME,
	PD_RESET,
	PD_CONTROL_DISABLE,
	PD_CHIP_ON,
};
struct ec_params_pd_control {
	uint8_t chip;
	uint8_t subcmd;
} EC_PACKED;
#define EC_CMD_PD_CHIP_INFO		0x011B
struct ec_params_pd_chip_info {
	uint8_t port;
	uint8_t live;
} EC_PACKED;
struct ec_response_pd_chip_info_v1 {	/* v0 stops after fw_version */
	uint16_t vendor_id;
	uint16_t product_id;
	uint16_t device_id;
	uint8_t fw_version[8];
	uint8_t min_req_fw_version[8];
} EC_PACKED;
#define USB_SID_DISPLAYPORT		0xff01

/* ---- 0x131 TYPEC_DISCOVERY, 0x132 TYPEC_CONTROL ---- */
#define EC_CMD_TYPEC_DISCOVERY		0x0131
enum typec_partner_type {
	TYPEC_PARTNER_SOP = 0,
	TYPEC_PARTNER_SOP_PRIME = 1,
};
struct ec_params_typec_discovery {
	uint8_t port;
	uint8_t partner_type;
} EC_PACKED;
struct svid_mode_info {
	uint16_t svid;
	uint16_t mode_count;
	uint32_t mode_vdo[6];
} EC_PACKED;
struct ec_response_typec_discovery {
	uint8_t identity_count;
	uint8_t svid_count;
	uint16_t reserved;
	uint32_t discovery_vdo[6];
	struct svid_mode_info svids[];
} EC_PACKED;
#define EC_CMD_TYPEC_CONTROL		0x0132
enum typec_control_command {
	TYPEC_CONTROL_COMMAND_EXIT_MODES,
	TYPEC_CONTROL_COMMAND_CLEAR_EVENTS,
	TYPEC_CONTROL_COMMAND_ENTER_MODE,
	TYPEC_CONTROL_COMMAND_TBT_UFP_REPLY,
	TYPEC_CONTROL_COMMAND_USB_MUX_SET,
	TYPEC_CONTROL_COMMAND_BIST_SHARE_MODE,
};
enum typec_mode {
	TYPEC_MODE_DP,
	TYPEC_MODE_TBT,
	TYPEC_MODE_USB4,
};
#define TYPEC_USB_MUX_SET_ALL_CHIPS	0xFF
struct ec_params_typec_control {
	uint8_t port;
	uint8_t command;		/* enum typec_control_command */
	uint16_t reserved;
	union {
		uint32_t clear_events_mask;
		uint8_t mode_to_enter;	/* enum typec_mode */
		uint8_t tbt_ufp_reply;
		struct {
			uint8_t mux_index;
			uint8_t mux_flags;	/* USB_PD_MUX_* */
		} mux_params;
		uint8_t bist_share_mode;
		uint8_t placeholder[128];
	};
} EC_PACKED;

/* ---- 0x1A RAND_NUM ---- */
#define EC_CMD_RAND_NUM			0x001A
struct ec_params_rand_num {
	uint16_t num_rand_bytes;
} EC_PACKED;

/* ---- 0x9E I2C_PASSTHRU, 0xB7 I2C_PASSTHRU_PROTECT ---- */
#define EC_CMD_I2C_PASSTHRU		0x009E
#define EC_I2C_FLAG_READ		(1u << 15)
#define EC_I2C_ADDR_MASK		0x3ff
#define EC_I2C_STATUS_NAK		(1u << 0)
#define EC_I2C_STATUS_TIMEOUT		(1u << 1)
struct ec_params_i2c_passthru_msg {
	uint16_t addr_flags;		/* 7-bit address | EC_I2C_FLAG_READ */
	uint16_t len;
} EC_PACKED;
struct ec_params_i2c_passthru {
	uint8_t port;
	uint8_t num_msgs;
	struct ec_params_i2c_passthru_msg msg[];	/* then the write data */
} EC_PACKED;
struct ec_response_i2c_passthru {
	uint8_t i2c_status;		/* EC_I2C_STATUS_* */
	uint8_t num_msgs;		/* messages processed */
	uint8_t data[];			/* what the reads returned */
} EC_PACKED;
#define EC_CMD_I2C_PASSTHRU_PROTECT	0x00B7
enum ec_i2c_passthru_protect_subcmd {
	EC_CMD_I2C_PASSTHRU_PROTECT_STATUS = 0,
	EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE = 1,
	EC_CMD_I2C_PASSTHRU_PROTECT_ENABLE_TCPCS = 2,
};
struct ec_params_i2c_passthru_protect {
	uint8_t subcmd;
	uint8_t port;
} EC_PACKED;
struct ec_response_i2c_passthru_protect {
	uint8_t status;			/* 0 unlocked, 1 locked */
} EC_PACKED;

/* ---- 0xD2 REBOOT_EC ---- */
#define EC_CMD_REBOOT_EC		0x00D2
enum ec_reboot_cmd {
	EC_REBOOT_CANCEL = 0,
	EC_REBOOT_JUMP_RO = 1,
	EC_REBOOT_JUMP_RW = 2,
	EC_REBOOT_COLD = 4,
	EC_REBOOT_DISABLE_JUMP = 5,
	EC_REBOOT_HIBERNATE = 6,
	EC_REBOOT_HIBERNATE_CLEAR_AP_OFF = 7,
	EC_REBOOT_COLD_AP_OFF = 8,
};
#define EC_REBOOT_FLAG_ON_AP_SHUTDOWN	(1u << 1)
#define EC_REBOOT_FLAG_SWITCH_RW_SLOT	(1u << 2)
struct ec_params_reboot_ec {
	uint8_t cmd;			/* enum ec_reboot_cmd */
	uint8_t flags;			/* EC_REBOOT_FLAG_* */
} EC_PACKED;

/* ---- 0x11F / 0x120 GET / SET_CROS_BOARD_INFO ---- */
#define EC_CMD_GET_CROS_BOARD_INFO	0x011F
#define EC_CMD_SET_CROS_BOARD_INFO	0x0120
enum cbi_data_tag {
	CBI_TAG_BOARD_VERSION = 0,	/* integers: u32 or smaller */
	CBI_TAG_OEM_ID = 1,
	CBI_TAG_SKU_ID = 2,
	CBI_TAG_DRAM_PART_NUM = 3,	/* strings: NUL-terminated */
	CBI_TAG_OEM_NAME = 4,
	CBI_TAG_MODEL_ID = 5,
	CBI_TAG_FW_CONFIG = 6,
	CBI_TAG_PCB_SUPPLIER = 7,
	CBI_TAG_SSFC = 8,
	CBI_TAG_REWORK_ID = 9,		/* u64 or smaller */
	CBI_TAG_FACTORY_CALIBRATION_DATA = 10,
	CBI_TAG_COUNT,
};
#define CBI_GET_RELOAD			(1u << 0)
#define CBI_SET_NO_SYNC			(1u << 0)
#define CBI_SET_INIT			(1u << 1)
struct ec_params_get_cbi {
	uint32_t tag;
	uint32_t flag;
} EC_PACKED;
struct ec_params_set_cbi {
	uint32_t tag;
	uint32_t flag;
	uint32_t size;
	uint8_t data[];
} EC_PACKED;
/* The EEPROM image: "CBI", a CRC-8 of what follows it, version, size, items. */
#define CBI_VERSION_MAJOR		0
#define CBI_VERSION_MINOR		0
#define CBI_IMAGE_SIZE			256
struct cbi_header {
	uint8_t magic[3];
	uint8_t crc;			/* CRC-8 (x^8+x^2+x+1) from minor_version on */
	uint8_t minor_version;
	uint8_t major_version;
	uint16_t total_size;
	uint8_t data[];			/* items: tag, size, value */
} EC_PACKED;

/* ---- 0x123 ADC_READ ---- */
#define EC_CMD_ADC_READ			0x0123
struct ec_params_adc_read {
	uint8_t adc_channel;
} EC_PACKED;
struct ec_response_adc_read {
	int32_t adc_value;
} EC_PACKED;

/* ---- 0x126 LOCATE_CHIP ---- */
#define EC_CMD_LOCATE_CHIP		0x0126
enum ec_chip_type {
	EC_CHIP_TYPE_CBI_EEPROM = 0,
	EC_CHIP_TYPE_TCPC = 1,
	EC_CHIP_TYPE_COUNT,
};
enum ec_bus_type {
	EC_BUS_TYPE_I2C = 0,
	EC_BUS_TYPE_EMBEDDED = 1,
};
struct ec_params_locate_chip {
	uint8_t type;			/* enum ec_chip_type */
	uint8_t index;
	uint16_t reserved;
} EC_PACKED;
struct ec_response_locate_chip {
	uint8_t bus_type;		/* enum ec_bus_type */
	uint8_t reserved;
	uint16_t i2c_port;
	uint16_t i2c_addr_flags;
} EC_PACKED;

/* Sizes every client depends on (see docs/device-abi.md). */
_Static_assert(sizeof(struct ec_response_get_version) == 100, "GET_VERSION v0");
_Static_assert(sizeof(struct ec_response_get_version_v1) == 132, "GET_VERSION v1");
_Static_assert(sizeof(struct ec_response_get_chip_info) == 96, "GET_CHIP_INFO");
_Static_assert(sizeof(struct ec_response_board_version) == 2, "GET_BOARD_VERSION");
_Static_assert(sizeof(struct ec_params_read_memmap) == 2, "READ_MEMMAP");
_Static_assert(sizeof(struct ec_params_get_cmd_versions) == 1, "GET_CMD_VERSIONS v0");
_Static_assert(sizeof(struct ec_params_get_cmd_versions_v1) == 2, "GET_CMD_VERSIONS v1");
_Static_assert(sizeof(struct ec_response_get_cmd_versions) == 4, "GET_CMD_VERSIONS resp");
_Static_assert(sizeof(struct ec_response_get_protocol_info) == 12, "GET_PROTOCOL_INFO");
_Static_assert(sizeof(struct ec_response_get_features) == 8, "GET_FEATURES");
_Static_assert(sizeof(struct ec_response_flash_info) == 16, "FLASH_INFO v0");
_Static_assert(sizeof(struct ec_response_flash_info_1) == 24, "FLASH_INFO v1");
_Static_assert(sizeof(struct ec_params_flash_protect) == 8, "FLASH_PROTECT params");
_Static_assert(sizeof(struct ec_response_flash_protect) == 12, "FLASH_PROTECT resp");
_Static_assert(sizeof(struct ec_params_flash_read) == 8, "FLASH_READ");
_Static_assert(sizeof(struct ec_params_flash_write) == 8, "FLASH_WRITE header");
_Static_assert(sizeof(struct ec_params_flash_erase_v1) == 12, "FLASH_ERASE v1");
_Static_assert(sizeof(struct ec_response_flash_region_info) == 8, "FLASH_REGION_INFO");
_Static_assert(sizeof(struct ec_params_vboot_hash) == 76, "VBOOT_HASH params");
_Static_assert(sizeof(struct ec_response_vboot_hash) == 76, "VBOOT_HASH resp");
_Static_assert(sizeof(struct ec_params_host_event) == 12, "HOST_EVENT params");
_Static_assert(sizeof(struct ec_response_host_event) == 8, "HOST_EVENT resp");
_Static_assert(sizeof(struct ec_params_host_sleep_event_v1) == 4, "HOST_SLEEP_EVENT v1");
_Static_assert(sizeof(struct ec_response_host_sleep_event_v1) == 4, "HOST_SLEEP_EVENT v1 resp");
_Static_assert(sizeof(struct ec_response_sysinfo) == 12, "SYSINFO");
_Static_assert(sizeof(struct ec_response_mkbp_info) == 9, "MKBP_INFO");
_Static_assert(sizeof(struct ec_params_port80_read) == 10, "PORT80_READ params");
_Static_assert(sizeof(struct ec_response_port80_info) == 12, "PORT80_READ info");
_Static_assert(sizeof(struct ec_mkbp_config) == 21, "MKBP config");
_Static_assert(sizeof(struct ec_params_mkbp_event_wake_mask) == 8, "MKBP_WAKE_MASK");
_Static_assert(sizeof(struct ec_params_pwm_set_fan_target_rpm_v1) == 5, "FAN_TARGET_RPM v1");
_Static_assert(sizeof(struct ec_params_pwm_set_fan_duty_v1) == 5, "FAN_DUTY v1");
_Static_assert(sizeof(struct ec_params_led_control) == 8, "LED_CONTROL params");
_Static_assert(sizeof(struct ec_response_led_control) == 6, "LED_CONTROL resp");
_Static_assert(sizeof(struct ec_response_rtc) == 4, "RTC");
_Static_assert(sizeof(struct ec_thermal_config) == 32, "THERMAL_GET_THRESHOLD v1");
_Static_assert(sizeof(struct ec_response_get_next_event_v1) == 17, "GET_NEXT_EVENT v1");
_Static_assert(sizeof(struct ec_response_temp_sensor_get_info) == 33, "TEMP_SENSOR_GET_INFO");
_Static_assert(sizeof(struct ec_params_gpio_get) == 32, "GPIO_GET v0 params");
_Static_assert(sizeof(struct ec_params_gpio_get_v1) == 33, "GPIO_GET v1 params");
_Static_assert(sizeof(struct ec_response_gpio_get_v1) == 40, "GPIO_GET v1 resp");
_Static_assert(sizeof(struct ec_params_charge_control) == 8, "CHARGE_CONTROL v2 params");
_Static_assert(sizeof(struct ec_response_charge_control) == 8, "CHARGE_CONTROL v2 resp");
_Static_assert(sizeof(struct ec_response_power_info_v1) == 15, "POWER_INFO v1");
_Static_assert(sizeof(struct ec_params_charge_state) == 12, "CHARGE_STATE params");
_Static_assert(sizeof(struct ec_response_charge_state) == 20, "CHARGE_STATE resp");
_Static_assert(sizeof(struct ec_params_usb_pd_control) == 4, "USB_PD_CONTROL params");
_Static_assert(sizeof(struct ec_response_usb_pd_control) == 4, "USB_PD_CONTROL v0");
_Static_assert(sizeof(struct ec_response_usb_pd_control_v1) == 35, "USB_PD_CONTROL v1");
_Static_assert(sizeof(struct ec_response_usb_pd_control_v2) == 41, "USB_PD_CONTROL v2");
_Static_assert(sizeof(struct ec_response_usb_pd_power_info) == 16, "USB_PD_POWER_INFO");
_Static_assert(sizeof(struct ec_response_uptime_info) == 44, "GET_UPTIME_INFO");
_Static_assert(sizeof(struct ec_response_typec_status) == 108, "TYPEC_STATUS");
_Static_assert(sizeof(struct ec_response_battery_static_info) == 40, "BATTERY_GET_STATIC v0");
_Static_assert(sizeof(struct ec_response_battery_static_info_v1) == 56, "BATTERY_GET_STATIC v1");
_Static_assert(sizeof(struct ec_response_battery_dynamic_info) == 14, "BATTERY_GET_DYNAMIC");
_Static_assert(sizeof(struct ec_params_rand_num) == 2, "RAND_NUM");
_Static_assert(sizeof(struct ec_params_usb_pd_rw_hash_entry) == 27, "USB_PD_DEV_INFO");
_Static_assert(sizeof(struct ec_response_pd_log) == 8, "PD_GET_LOG_ENTRY");
_Static_assert(sizeof(struct ec_params_usb_pd_get_mode_request) == 3, "USB_PD_GET_AMODE");
_Static_assert(sizeof(struct ec_params_usb_pd_get_mode_response) == 28, "USB_PD_GET_AMODE r");
_Static_assert(sizeof(struct ec_params_usb_pd_set_mode_request) == 8, "USB_PD_SET_AMODE");
_Static_assert(sizeof(struct ec_response_pd_chip_info_v1) == 22, "PD_CHIP_INFO v1");
_Static_assert(sizeof(struct ec_response_typec_discovery) == 28, "TYPEC_DISCOVERY");
_Static_assert(sizeof(struct svid_mode_info) == 28, "TYPEC_DISCOVERY svid");
_Static_assert(sizeof(struct ec_params_typec_control) == 132, "TYPEC_CONTROL");
_Static_assert(sizeof(struct ec_response_flash_spi_info) == 8, "FLASH_SPI_INFO");
_Static_assert(sizeof(struct ec_params_pwm_set_duty) == 4, "PWM_SET_DUTY");
_Static_assert(sizeof(struct ec_params_pwm_get_duty) == 2, "PWM_GET_DUTY");
_Static_assert(sizeof(struct ec_params_usb_charge_set_mode) == 2, "USB_CHARGE_SET_MODE");
_Static_assert(sizeof(struct ec_params_switch_enable_wireless_v1) == 4, "WIRELESS v1");
_Static_assert(sizeof(struct ec_response_switch_enable_wireless_v1) == 2, "WIRELESS v1 resp");
_Static_assert(sizeof(struct ec_params_hang_detect) == 8, "HANG_DETECT");
_Static_assert(sizeof(struct ec_params_thermal_set_threshold_v1) == 36, "THERMAL_SET v1");
_Static_assert(sizeof(struct ec_params_external_power_limit_v1) == 4, "EXTERNAL_POWER_LIMIT");
_Static_assert(sizeof(struct ec_response_hibernation_delay) == 12, "HIBERNATION_DELAY");
_Static_assert(sizeof(struct ec_params_i2c_passthru) == 2, "I2C_PASSTHRU header");
_Static_assert(sizeof(struct ec_params_i2c_passthru_msg) == 4, "I2C_PASSTHRU msg");
_Static_assert(sizeof(struct ec_response_i2c_passthru) == 2, "I2C_PASSTHRU resp");
_Static_assert(sizeof(struct ec_params_i2c_passthru_protect) == 2, "I2C_PASSTHRU_PROTECT");
_Static_assert(sizeof(struct ec_params_reboot_ec) == 2, "REBOOT_EC");
_Static_assert(sizeof(struct ec_params_get_cbi) == 8, "GET_CROS_BOARD_INFO");
_Static_assert(sizeof(struct ec_params_set_cbi) == 12, "SET_CROS_BOARD_INFO");
_Static_assert(sizeof(struct cbi_header) == 8, "CBI header");
_Static_assert(sizeof(struct ec_response_adc_read) == 4, "ADC_READ");
_Static_assert(sizeof(struct ec_params_locate_chip) == 4, "LOCATE_CHIP params");
_Static_assert(sizeof(struct ec_response_locate_chip) == 6, "LOCATE_CHIP resp");

/* ---- The fingerprint MCU (cros_fp): RW signature, rollback, FP_* ---- */

/* RWSIG_INFO: the key the RW image is signed with (struct vb21_packed_key). */
#define EC_CMD_RWSIG_INFO		0x001B
#define VBOOT2_KEY_ID_BYTES		20
/* enum vb2_signature_algorithm / vb2_hash_algorithm values the FPMCU uses */
#define VB2_SIG_RSA3072_EXP3		6
#define VB2_HASH_SHA256			2

struct ec_response_rwsig_info {
	uint16_t sig_alg;
	uint16_t hash_alg;
	uint32_t key_version;
	uint8_t key_id[VBOOT2_KEY_ID_BYTES];
	uint8_t key_is_valid;
	uint8_t reserved[3];
} EC_PACKED;

/* RWSIG_CHECK_STATUS: verify RW now (ECs without the RWSIG task only). */
#define EC_CMD_RWSIG_CHECK_STATUS	0x011C
struct ec_response_rwsig_check_status {
	uint32_t status;		/* 1: the RW signature is good */
} EC_PACKED;

/* RWSIG_ACTION: tell the RO's RWSIG task to stay in RO or jump now. */
#define EC_CMD_RWSIG_ACTION		0x011D
enum rwsig_action {
	RWSIG_ACTION_ABORT = 0,
	RWSIG_ACTION_CONTINUE = 1,
};
struct ec_params_rwsig_action {
	uint32_t action;
} EC_PACKED;

/* ADD_ENTROPY: stir the rollback region's secret, asynchronously. */
#define EC_CMD_ADD_ENTROPY		0x0122
enum add_entropy_action {
	ADD_ENTROPY_ASYNC = 0,
	ADD_ENTROPY_RESET_ASYNC = 1,	/* ... and overwrite every older copy */
	ADD_ENTROPY_GET_RESULT = 2,
};
struct ec_params_rollback_add_entropy {
	uint8_t action;
} EC_PACKED;

/* ROLLBACK_INFO: which rollback block is current and its versions. */
#define EC_CMD_ROLLBACK_INFO		0x0124
struct ec_response_rollback_info {
	int32_t id;
	int32_t rollback_min_version;
	int32_t rw_rollback_version;
} EC_PACKED;

#define EC_CMD_FP_MODE			0x0402
#define FP_MODE_DEEPSLEEP		(1u << 0)
#define FP_MODE_FINGER_DOWN		(1u << 1)
#define FP_MODE_FINGER_UP		(1u << 2)
#define FP_MODE_CAPTURE			(1u << 3)
#define FP_MODE_ENROLL_SESSION		(1u << 4)
#define FP_MODE_ENROLL_IMAGE		(1u << 5)
#define FP_MODE_MATCH			(1u << 6)
#define FP_MODE_RESET_SENSOR		(1u << 7)
#define FP_MODE_SENSOR_MAINTENANCE	(1u << 8)
#define FP_MODE_DONT_CHANGE		(1u << 31)
#define FP_VALID_MODES	(FP_MODE_DEEPSLEEP | FP_MODE_FINGER_DOWN | FP_MODE_FINGER_UP | \
			 FP_MODE_CAPTURE | FP_MODE_ENROLL_SESSION | FP_MODE_ENROLL_IMAGE | \
			 FP_MODE_MATCH | FP_MODE_RESET_SENSOR | FP_MODE_SENSOR_MAINTENANCE | \
			 FP_MODE_DONT_CHANGE)
/* The capture type lives in bits 28..30 of the mode. */
#define FP_MODE_CAPTURE_TYPE_SHIFT	28
#define FP_MODE_CAPTURE_TYPE_MASK	(0x7u << FP_MODE_CAPTURE_TYPE_SHIFT)
#define FP_CAPTURE_TYPE(mode) (((mode) & FP_MODE_CAPTURE_TYPE_MASK) >> FP_MODE_CAPTURE_TYPE_SHIFT)
enum fp_capture_type {
	FP_CAPTURE_VENDOR_FORMAT = 0,
	FP_CAPTURE_SIMPLE_IMAGE = 1,
	FP_CAPTURE_PATTERN0 = 2,
	FP_CAPTURE_PATTERN1 = 3,
	FP_CAPTURE_QUALITY_TEST = 4,
	FP_CAPTURE_RESET_TEST = 5,
	FP_CAPTURE_TYPE_MAX,
};
struct ec_params_fp_mode {
	uint32_t mode;
} EC_PACKED;
struct ec_response_fp_mode {
	uint32_t mode;
} EC_PACKED;

#define EC_CMD_FP_INFO			0x0403
#define FP_ERROR_DEAD_PIXELS(errors)	((errors) & 0x3FF)
#define FP_ERROR_DEAD_PIXELS_UNKNOWN	0x3FF
#define FP_ERROR_NO_IRQ			(1u << 12)
#define FP_ERROR_SPI_COMM		(1u << 13)
#define FP_ERROR_BAD_HWID		(1u << 14)
#define FP_ERROR_INIT_FAIL		(1u << 15)
struct ec_response_fp_info_v0 {
	uint32_t vendor_id;
	uint32_t product_id;
	uint32_t model_id;
	uint32_t version;
	uint32_t frame_size;
	uint32_t pixel_format;		/* a V4L2 fourcc */
	uint16_t width;
	uint16_t height;
	uint16_t bpp;
	uint16_t errors;		/* FP_ERROR_* */
} EC_PACKED;
struct ec_response_fp_info {
	uint32_t vendor_id;
	uint32_t product_id;
	uint32_t model_id;
	uint32_t version;
	uint32_t frame_size;
	uint32_t pixel_format;
	uint16_t width;
	uint16_t height;
	uint16_t bpp;
	uint16_t errors;
	uint32_t template_size;		/* an encrypted template, bytes */
	uint16_t template_max;
	uint16_t template_valid;
	uint32_t template_dirty;	/* bit n: template n changed on the MCU */
	uint32_t template_version;
} EC_PACKED;

#define EC_CMD_FP_FRAME			0x0404
/* The offset's high nibble picks the buffer: 0 the image, n template n - 1. */
#define FP_FRAME_INDEX_SHIFT		28
#define FP_FRAME_INDEX_RAW_IMAGE	0
#define FP_FRAME_INDEX_TEMPLATE		1
#define FP_FRAME_GET_BUFFER_INDEX(offset) ((offset) >> FP_FRAME_INDEX_SHIFT)
#define FP_FRAME_OFFSET_MASK		0x0FFFFFFF
#define FP_TEMPLATE_FORMAT_VERSION	4
#define FP_CONTEXT_NONCE_BYTES		12
#define FP_CONTEXT_USERID_WORDS		(32 / sizeof(uint32_t))
#define FP_CONTEXT_TAG_BYTES		16
#define FP_CONTEXT_ENCRYPTION_SALT_BYTES 16
#define FP_CONTEXT_TPM_BYTES		32
#define FP_POSITIVE_MATCH_SALT_BYTES	16
/* What precedes every template the MCU hands out or takes back. */
struct ec_fp_template_encryption_metadata {
	uint16_t struct_version;
	uint16_t reserved;
	uint8_t nonce[FP_CONTEXT_NONCE_BYTES];
	uint8_t encryption_salt[FP_CONTEXT_ENCRYPTION_SALT_BYTES];
	uint8_t tag[FP_CONTEXT_TAG_BYTES];
} EC_PACKED;
struct ec_params_fp_frame {
	uint32_t offset;
	uint32_t size;
} EC_PACKED;

#define EC_CMD_FP_TEMPLATE		0x0405
#define FP_TEMPLATE_COMMIT		0x80000000u
struct ec_params_fp_template {
	uint32_t offset;
	uint32_t size;			/* | FP_TEMPLATE_COMMIT on the last chunk */
	uint8_t data[];
} EC_PACKED;

#define EC_CMD_FP_CONTEXT		0x0406
enum fp_context_action {
	FP_CONTEXT_ASYNC = 0,
	FP_CONTEXT_GET_RESULT = 1,
};
struct ec_params_fp_context_v1 {
	uint8_t action;
	uint8_t reserved[3];
	uint32_t userid[FP_CONTEXT_USERID_WORDS];
} EC_PACKED;

#define EC_CMD_FP_STATS			0x0407
#define FPSTATS_CAPTURE_INV		(1u << 0)
#define FPSTATS_MATCHING_INV		(1u << 1)
struct ec_response_fp_stats {
	uint32_t capture_time_us;
	uint32_t matching_time_us;
	uint32_t overall_time_us;
	uint32_t overall_t0_lo;
	uint32_t overall_t0_hi;
	uint8_t timestamps_invalid;
	int8_t template_matched;
} EC_PACKED;

#define EC_CMD_FP_SEED			0x0408
struct ec_params_fp_seed {
	uint16_t struct_version;
	uint16_t reserved;
	uint8_t seed[FP_CONTEXT_TPM_BYTES];
} EC_PACKED;

#define EC_CMD_FP_ENC_STATUS		0x0409
#define FP_ENC_STATUS_SEED_SET		(1u << 0)
struct ec_response_fp_encryption_status {
	uint32_t valid_flags;
	uint32_t status;
} EC_PACKED;

/* The fp_events word of an EC_MKBP_EVENT_FINGERPRINT event. */
#define EC_MKBP_FP_ERRCODE(fp_events)	((fp_events) & 0x0000000F)
#define EC_MKBP_FP_ENROLL_PROGRESS_OFFSET 4
#define EC_MKBP_FP_ENROLL_PROGRESS(fpe)	(((fpe) & 0x00000FF0) >> EC_MKBP_FP_ENROLL_PROGRESS_OFFSET)
#define EC_MKBP_FP_MATCH_IDX_OFFSET	12
#define EC_MKBP_FP_MATCH_IDX_MASK	0x0000F000
#define EC_MKBP_FP_MATCH_IDX(fpe) (((fpe) & EC_MKBP_FP_MATCH_IDX_MASK) >> EC_MKBP_FP_MATCH_IDX_OFFSET)
#define EC_MKBP_FP_ENROLL		(1u << 27)
#define EC_MKBP_FP_MATCH		(1u << 28)
#define EC_MKBP_FP_FINGER_DOWN		(1u << 29)
#define EC_MKBP_FP_FINGER_UP		(1u << 30)
#define EC_MKBP_FP_IMAGE_READY		(1u << 31)
#define EC_MKBP_FP_ERR_ENROLL_OK	0
#define EC_MKBP_FP_ERR_ENROLL_INTERNAL	5
#define EC_MKBP_FP_ERR_MATCH_NO		0
#define EC_MKBP_FP_ERR_MATCH_YES	1
#define EC_MKBP_FP_ERR_MATCH_NO_INTERNAL 6
#define EC_MKBP_FP_ERR_MATCH_NO_TEMPLATES 7

_Static_assert(sizeof(struct ec_response_rwsig_info) == 32, "RWSIG_INFO");
_Static_assert(sizeof(struct ec_response_rollback_info) == 12, "ROLLBACK_INFO");
_Static_assert(sizeof(struct ec_response_fp_info_v0) == 32, "FP_INFO v0");
_Static_assert(sizeof(struct ec_response_fp_info) == 48, "FP_INFO v1");
_Static_assert(sizeof(struct ec_fp_template_encryption_metadata) == 48, "FP template metadata");
_Static_assert(sizeof(struct ec_params_fp_template) == 8, "FP_TEMPLATE header");
_Static_assert(sizeof(struct ec_params_fp_context_v1) == 36, "FP_CONTEXT v1");
_Static_assert(sizeof(struct ec_response_fp_stats) == 22, "FP_STATS");
_Static_assert(sizeof(struct ec_params_fp_seed) == 36, "FP_SEED");
_Static_assert(sizeof(struct ec_response_fp_encryption_status) == 8, "FP_ENC_STATUS");

/* ---- Motion sensors: accelerometers, gyroscopes, the lid angle ---- */
#define EC_CMD_MOTION_SENSE_CMD		0x002B

/* EC_CMD_MOTION_SENSE_CMD's first request byte. */
enum motionsense_command {
	MOTIONSENSE_CMD_DUMP = 0,
	MOTIONSENSE_CMD_INFO = 1,
	MOTIONSENSE_CMD_EC_RATE = 2,
	MOTIONSENSE_CMD_SENSOR_ODR = 3,
	MOTIONSENSE_CMD_SENSOR_RANGE = 4,
	MOTIONSENSE_CMD_KB_WAKE_ANGLE = 5,
	MOTIONSENSE_CMD_DATA = 6,
	MOTIONSENSE_CMD_FIFO_INFO = 7,
	MOTIONSENSE_CMD_FIFO_FLUSH = 8,
	MOTIONSENSE_CMD_FIFO_READ = 9,
	MOTIONSENSE_CMD_PERFORM_CALIB = 10,
	MOTIONSENSE_CMD_SENSOR_OFFSET = 11,
	MOTIONSENSE_CMD_LIST_ACTIVITIES = 12,
	MOTIONSENSE_CMD_SET_ACTIVITY = 13,
	MOTIONSENSE_CMD_LID_ANGLE = 14,
	MOTIONSENSE_CMD_FIFO_INT_ENABLE = 15,
	MOTIONSENSE_CMD_SPOOF = 16,
	MOTIONSENSE_CMD_TABLET_MODE_LID_ANGLE = 17,
	MOTIONSENSE_CMD_SENSOR_SCALE = 18,
	MOTIONSENSE_CMD_ONLINE_CALIB_READ = 19,
	MOTIONSENSE_CMD_GET_ACTIVITY = 20,
	MOTIONSENSE_NUM_CMDS
};

enum motionsensor_type {
	MOTIONSENSE_TYPE_ACCEL = 0,
	MOTIONSENSE_TYPE_GYRO = 1,
};

enum motionsensor_location {
	MOTIONSENSE_LOC_BASE = 0,
	MOTIONSENSE_LOC_LID = 1,
};

#define MOTIONSENSE_CHIP_MAX			31	/* enum motionsensor_chip's end */
#define MOTIONSENSE_MODULE_FLAG_ACTIVE		(1u << 0)
#define MOTIONSENSE_SENSOR_FLAG_PRESENT		(1u << 0)
#define MOTIONSENSE_SENSOR_FLAG_FLUSH		(1u << 0)
#define MOTIONSENSE_SENSOR_FLAG_TIMESTAMP	(1u << 1)
#define MOTIONSENSE_SENSOR_FLAG_ODR		(1u << 4)
#define EC_MOTION_SENSE_NO_VALUE		(-1)
#define EC_MOTION_SENSE_INVALID_CALIB_TEMP	0x8000
#define MOTION_SENSE_SET_OFFSET			(1u << 0)
#define MOTION_SENSE_DEFAULT_SCALE		(1u << 15)
#define LID_ANGLE_UNRELIABLE			500

/* One sensor's sample (DUMP, DATA, FIFO_READ) or a FIFO timestamp entry. */
struct ec_response_motion_sensor_data {
	uint8_t flags;
	uint8_t sensor_num;
	union {
		int16_t data[3];
		struct {
			uint16_t reserved;
			uint32_t timestamp;
		} EC_PACKED;
	};
} EC_PACKED;

/* Requests: the command byte, then each sub-command's fields. */
struct ec_params_motion_sense_sensor {	/* DUMP (max_sensor_count), INFO, DATA, FIFO_FLUSH */
	uint8_t cmd;
	uint8_t sensor_num;
} EC_PACKED;

struct ec_params_motion_sense_rate {	/* EC_RATE, SENSOR_ODR, SENSOR_RANGE */
	uint8_t cmd;
	uint8_t sensor_num;
	uint8_t roundup;
	uint16_t reserved;
	int32_t data;
} EC_PACKED;

struct ec_params_motion_sense_offset {	/* SENSOR_OFFSET, SENSOR_SCALE (scale: uint16) */
	uint8_t cmd;
	uint8_t sensor_num;
	uint16_t flags;
	int16_t temp;
	int16_t offset[3];
} EC_PACKED;

struct ec_params_motion_sense_angle {	/* KB_WAKE_ANGLE */
	uint8_t cmd;
	int16_t data;
} EC_PACKED;

struct ec_params_motion_sense_fifo_read {
	uint8_t cmd;
	uint32_t max_data_vector;
} EC_PACKED;

struct ec_params_motion_sense_fifo_int {
	uint8_t cmd;
	int8_t enable;
} EC_PACKED;

struct ec_params_motion_sense_tablet {	/* TABLET_MODE_LID_ANGLE */
	uint8_t cmd;
	int16_t lid_angle;
	int16_t hys_degree;
} EC_PACKED;

/* Responses. */
struct ec_response_motion_sense_dump {
	uint8_t module_flags;
	uint8_t sensor_count;
	struct ec_response_motion_sensor_data sensor[];
} EC_PACKED;

struct ec_response_motion_sense_info {	/* versions 1, 2 */
	uint8_t type;
	uint8_t location;
	uint8_t chip;
} EC_PACKED;

/* Version 3: not packed in the public header, so one byte of padding. */
struct ec_response_motion_sense_info_3 {
	uint8_t type;
	uint8_t location;
	uint8_t chip;
	uint8_t reserved;
	uint32_t min_frequency;		/* mHz */
	uint32_t max_frequency;
	uint32_t fifo_max_event_count;
} EC_PACKED;

/*
 * Version 4: packed, so min_frequency would be at byte 3, not 4 as in v3;
 * the firmware fills v4 answers as v3 and ORs flags into bytes 15..18, so
 * only its size (19) is used (ec_cmd_motion.c).
 */
struct ec_response_motion_sense_info_4 {
	uint8_t type;
	uint8_t location;
	uint8_t chip;
	uint32_t min_frequency;
	uint32_t max_frequency;
	uint32_t fifo_max_event_count;
	uint32_t flags;
} EC_PACKED;

struct ec_response_motion_sense_calib {	/* SENSOR_OFFSET, SENSOR_SCALE */
	int16_t temp;
	int16_t v[3];
} EC_PACKED;

struct ec_response_motion_sense_fifo_info {
	uint16_t size;
	uint16_t count;
	uint32_t timestamp;
	uint16_t total_lost;
	uint16_t lost[];
} EC_PACKED;

struct ec_response_motion_sense_tablet {
	uint16_t lid_angle;
	uint16_t hys_degree;
} EC_PACKED;

/* The memory map's accelerometer area (EC_MEMMAP_ACC_*). */
#define EC_MEMMAP_ACC_STATUS			0x90
#define EC_MEMMAP_ACC_DATA			0x92	/* u16 lid angle, 2 x 3 x s16 */
#define EC_MEMMAP_GYRO_DATA			0xA0	/* 3 x s16 */
#define EC_MEMMAP_ACC_STATUS_SAMPLE_ID_MASK	0x0F
#define EC_MEMMAP_ACC_STATUS_BUSY_BIT		(1u << 4)
#define EC_MEMMAP_ACC_STATUS_PRESENCE_BIT	(1u << 7)

/* ---- Buttons ---- */
#define EC_CMD_BUTTON			0x0129
struct ec_params_button {
	uint32_t btn_mask;		/* bit enum keyboard_button_type */
	uint32_t press_ms;
} EC_PACKED;

enum keyboard_button_type {
	KEYBOARD_BUTTON_POWER = 0,
	KEYBOARD_BUTTON_VOLUME_DOWN = 1,
	KEYBOARD_BUTTON_VOLUME_UP = 2,
	KEYBOARD_BUTTON_RECOVERY = 3,
	KEYBOARD_BUTTON_COUNT = 12,
};

_Static_assert(sizeof(struct ec_response_motion_sensor_data) == 8, "MOTIONSENSE sample");
_Static_assert(sizeof(struct ec_params_motion_sense_rate) == 9, "MOTIONSENSE ec_rate/odr/range");
_Static_assert(sizeof(struct ec_params_motion_sense_offset) == 12, "MOTIONSENSE offset");
_Static_assert(sizeof(struct ec_params_motion_sense_tablet) == 5, "MOTIONSENSE tablet angle");
_Static_assert(sizeof(struct ec_response_motion_sense_info_3) == 16, "MOTIONSENSE info v3");
_Static_assert(sizeof(struct ec_response_motion_sense_info_4) == 19, "MOTIONSENSE info v4");
_Static_assert(sizeof(struct ec_response_motion_sense_fifo_info) == 10, "MOTIONSENSE fifo_info");
_Static_assert(sizeof(struct ec_params_button) == 8, "BUTTON");

/* ---- The AP's power sequencing and the panel backlight ---- */
#define EC_CMD_GSV_PAUSE_IN_S5		0x000C
#define EC_GSV_SET			0x80000000u
struct ec_params_get_set_value {	/* also the answer */
	uint32_t flags;			/* EC_GSV_SET: take @value */
	uint32_t value;
} EC_PACKED;

#define EC_CMD_SWITCH_ENABLE_BKLIGHT	0x0090
struct ec_params_switch_enable_backlight {
	uint8_t enabled;
} EC_PACKED;

#define EC_CMD_REBOOT_AP_ON_G3		0x0127
struct ec_params_reboot_ap_on_g3_v1 {
	uint32_t reboot_ap_at_g3_delay;	/* seconds in G3 before the AP boots */
} EC_PACKED;

/* ---- I2C bus speed ---- */
#define EC_CMD_I2C_CONTROL		0x0139
enum ec_i2c_control_command {
	EC_I2C_CONTROL_GET_SPEED = 0,
	EC_I2C_CONTROL_SET_SPEED = 1,
};
#define EC_I2C_CONTROL_SPEED_UNKNOWN	0
struct ec_params_i2c_control {
	uint8_t port;
	uint8_t cmd;			/* enum ec_i2c_control_command */
	uint16_t speed_khz;		/* SET_SPEED */
} EC_PACKED;

/* ---- PD_WRITE_LOG_ENTRY ---- */
#define EC_CMD_PD_WRITE_LOG_ENTRY	0x0118
struct ec_params_pd_write_log_entry {
	uint8_t type;			/* PD_EVENT_MCU_* */
	uint8_t port;
} EC_PACKED;

_Static_assert(sizeof(struct ec_params_get_set_value) == 8, "GSV_PAUSE_IN_S5");
_Static_assert(sizeof(struct ec_params_i2c_control) == 4, "I2C_CONTROL");

/* ---- The protocol test, every EC ---- */
#define EC_CMD_TEST_PROTOCOL		0x000A
struct ec_params_test_protocol {
	uint32_t ec_result;		/* the status to answer with */
	uint32_t ret_len;		/* bytes of @buf to send back */
	uint8_t buf[32];
} EC_PACKED;
struct ec_response_test_protocol {
	uint8_t buf[32];
} EC_PACKED;

/* ---- AP reset and the charge splash ---- */
#define EC_CMD_AP_RESET			0x0125
#define CHIPSET_RESET_HOST_CMD		4	/* enum chipset_shutdown_reason */
#define EC_CMD_CHARGESPLASH		0x00A5
enum ec_chargesplash_cmd {
	EC_CHARGESPLASH_GET_STATE = 0,
	EC_CHARGESPLASH_DISPLAY_READY = 1,
	EC_CHARGESPLASH_REQUEST = 2,
	EC_CHARGESPLASH_RESET = 3,
	EC_CHARGESPLASH_LOCKOUT = 4,
};
struct ec_params_chargesplash {
	uint8_t cmd;			/* enum ec_chargesplash_cmd */
} EC_PACKED;
struct ec_response_chargesplash {
	uint8_t requested;
	uint8_t display_initialized;
	uint8_t locked_out;
} EC_PACKED;

/* ---- Battery vendor parameters and smart discharge ---- */
#define EC_CMD_BATTERY_VENDOR_PARAM	0x00B4
enum ec_battery_vendor_param_mode {
	BATTERY_VENDOR_PARAM_MODE_GET = 0,
	BATTERY_VENDOR_PARAM_MODE_SET = 1,
};
struct ec_params_battery_vendor_param {
	uint32_t param;
	uint32_t value;
	uint8_t mode;			/* enum ec_battery_vendor_param_mode */
} EC_PACKED;
struct ec_response_battery_vendor_param {
	uint32_t value;
} EC_PACKED;

/*
 * The public header declares these two without packing: natural alignment
 * puts a pad byte after @flags and two before @dzone, spelled out here.
 */
#define EC_CMD_SMART_DISCHARGE		0x012B
#define EC_SMART_DISCHARGE_FLAGS_SET	0x01
struct ec_smart_discharge_rate {
	uint16_t cutoff;		/* uA drawn in cutoff */
	uint16_t hibern;		/* uA drawn in hibernation */
} EC_PACKED;
struct ec_params_smart_discharge {
	uint8_t flags;			/* EC_SMART_DISCHARGE_FLAGS_* */
	uint8_t reserved;
	uint16_t hours_to_zero;
	struct ec_smart_discharge_rate drate;	/* both 0: keep the rates */
} EC_PACKED;
struct ec_response_smart_discharge {
	uint16_t hours_to_zero;
	struct ec_smart_discharge_rate drate;
	uint16_t reserved;
	int32_t dzone_cutoff;		/* mAh: below it the EC cuts the battery off */
	int32_t dzone_stayup;		/* mAh: below it the EC stays up */
} EC_PACKED;

/* ---- GPIO_SET (ectool gpioset) ---- */
#define EC_CMD_GPIO_SET			0x0092
struct ec_params_gpio_set {
	char name[32];			/* need not be NUL-terminated */
	uint8_t val;
} EC_PACKED;

/* ---- USB-PD discovery (ectool infopddev) ---- */
#define EC_CMD_USB_PD_DISCOVERY		0x0113
struct ec_params_usb_pd_discovery_entry {	/* the answer */
	uint16_t vid;
	uint16_t pid;
	uint8_t ptype;			/* product type of the ID header */
} EC_PACKED;

_Static_assert(sizeof(struct ec_params_test_protocol) == 40, "TEST_PROTOCOL");
_Static_assert(sizeof(struct ec_response_chargesplash) == 3, "CHARGESPLASH");
_Static_assert(sizeof(struct ec_params_battery_vendor_param) == 9, "BATTERY_VENDOR_PARAM");
_Static_assert(sizeof(struct ec_params_smart_discharge) == 8, "SMART_DISCHARGE");
_Static_assert(sizeof(struct ec_response_smart_discharge) == 16, "SMART_DISCHARGE");
_Static_assert(sizeof(struct ec_params_usb_pd_discovery_entry) == 5, "USB_PD_DISCOVERY");
_Static_assert(sizeof(struct ec_params_gpio_set) == 33, "GPIO_SET");

#endif /* CROS_EC_EC_COMMANDS_H */
