// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_features.c - which host commands back each GET_FEATURES bit.
 *
 * A client that sees a feature bit goes on to use that feature's commands
 * (ectool's "kbinfo" after EC_FEATURE_KEYB, powerd's keyboard backlight after
 * EC_FEATURE_PWM_KEYB). A board that advertises a bit whose commands answer
 * INVALID_COMMAND is therefore lying, and the profile parser rejects it.
 * Bits that describe a property rather than a command set (EFS2, LIMITED)
 * need no command; bits the model has no commands for at all cannot be
 * advertised.
 *
 * The table is board-profile data: the parser uses it (and nothing of the EC
 * core) to reject such a profile with its file and line. That each listed
 * command really is in the command table is checked by ec_create() and by
 * the unit test that walks both tables.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ec_profile.h"

#define EC_FEATURE_MAX_CMDS 12

struct ec_feature_backing {
	unsigned int bit;
	uint16_t cmds[EC_FEATURE_MAX_CMDS];	/* 0-terminated; HELLO (1) is never needed */
};

static const struct ec_feature_backing ec_feature_table[] = {
	{ EC_FEATURE_LIMITED, { 0 } },
	{ EC_FEATURE_FLASH, { EC_CMD_FLASH_INFO, EC_CMD_FLASH_READ, EC_CMD_FLASH_WRITE,
			      EC_CMD_FLASH_ERASE, EC_CMD_FLASH_PROTECT,
			      EC_CMD_FLASH_REGION_INFO, EC_CMD_VBOOT_HASH } },
	{ EC_FEATURE_PWM_FAN, { EC_CMD_PWM_SET_FAN_TARGET_RPM, EC_CMD_PWM_SET_FAN_DUTY,
				EC_CMD_THERMAL_AUTO_FAN_CTRL } },
	{ EC_FEATURE_PWM_KEYB, { EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT,
				 EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT } },
	{ EC_FEATURE_LED, { EC_CMD_LED_CONTROL } },
	{ EC_FEATURE_KEYB, { EC_CMD_MKBP_INFO, EC_CMD_MKBP_SIMULATE_KEY, EC_CMD_GET_KEYBOARD_ID,
			     EC_CMD_MKBP_SET_CONFIG, EC_CMD_MKBP_GET_CONFIG,
			     EC_CMD_MKBP_WAKE_MASK, EC_CMD_GET_NEXT_EVENT } },
	{ EC_FEATURE_PORT80, { EC_CMD_PORT80_READ } },
	{ EC_FEATURE_THERMAL, { EC_CMD_THERMAL_GET_THRESHOLD, EC_CMD_TEMP_SENSOR_GET_INFO } },
	{ EC_FEATURE_HOST_EVENTS, { EC_CMD_HOST_EVENT_GET_B, EC_CMD_HOST_EVENT_GET_SMI_MASK,
				    EC_CMD_HOST_EVENT_GET_SCI_MASK,
				    EC_CMD_HOST_EVENT_GET_WAKE_MASK,
				    EC_CMD_HOST_EVENT_SET_SMI_MASK,
				    EC_CMD_HOST_EVENT_SET_SCI_MASK,
				    EC_CMD_HOST_EVENT_SET_WAKE_MASK, EC_CMD_HOST_EVENT_CLEAR,
				    EC_CMD_HOST_EVENT_CLEAR_B, EC_CMD_HOST_SLEEP_EVENT } },
	{ EC_FEATURE_GPIO, { EC_CMD_GPIO_GET } },
	{ EC_FEATURE_I2C, { EC_CMD_I2C_PASSTHRU, EC_CMD_I2C_PASSTHRU_PROTECT } },
	{ EC_FEATURE_HANG_DETECT, { EC_CMD_HANG_DETECT } },
	{ EC_FEATURE_CHARGER, { EC_CMD_CHARGE_STATE, EC_CMD_CHARGE_CONTROL } },
	{ EC_FEATURE_BATTERY, { EC_CMD_BATTERY_GET_STATIC, EC_CMD_BATTERY_GET_DYNAMIC } },
	{ EC_FEATURE_USB_PD, { EC_CMD_USB_PD_CONTROL, EC_CMD_USB_PD_PORTS,
			       EC_CMD_USB_PD_POWER_INFO } },
	{ EC_FEATURE_USB_MUX, { EC_CMD_USB_PD_MUX_INFO, EC_CMD_USB_MUX } },
	{ EC_FEATURE_TYPEC_CMD, { EC_CMD_TYPEC_DISCOVERY, EC_CMD_TYPEC_CONTROL,
				  EC_CMD_TYPEC_STATUS } },
	{ EC_FEATURE_RTC, { EC_CMD_RTC_GET_VALUE, EC_CMD_RTC_GET_ALARM, EC_CMD_RTC_SET_VALUE,
			    EC_CMD_RTC_SET_ALARM } },
	{ EC_FEATURE_UNIFIED_WAKE_MASKS, { EC_CMD_HOST_EVENT } },
	{ EC_FEATURE_HOST_EVENT64, { EC_CMD_HOST_EVENT } },
	{ EC_FEATURE_EFS2, { 0 } },
	{ EC_FEATURE_FINGERPRINT, { EC_CMD_FP_MODE, EC_CMD_FP_INFO, EC_CMD_FP_FRAME,
				    EC_CMD_FP_TEMPLATE, EC_CMD_FP_CONTEXT, EC_CMD_FP_STATS,
				    EC_CMD_FP_SEED, EC_CMD_FP_ENC_STATUS } },
	{ EC_FEATURE_RWSIG, { EC_CMD_RWSIG_INFO, EC_CMD_RWSIG_ACTION } },
	{ EC_FEATURE_BKLIGHT_SWITCH, { EC_CMD_SWITCH_ENABLE_BKLIGHT } },
	{ EC_FEATURE_MOTION_SENSE, { EC_CMD_MOTION_SENSE_CMD } },
	{ EC_FEATURE_MOTION_SENSE_FIFO, { EC_CMD_MOTION_SENSE_CMD } },
};

static const struct ec_feature_backing *ec_feature_find(unsigned int bit)
{
	size_t i;

	for (i = 0; i < sizeof(ec_feature_table) / sizeof(ec_feature_table[0]); i++)
		if (ec_feature_table[i].bit == bit)
			return &ec_feature_table[i];
	return NULL;
}

/**
 * ec_feature_cmds() - the commands that back feature @bit.
 * @bit: GET_FEATURES bit number
 * @n:   set to the number of commands (0 for a property-only feature)
 *
 * Return: the commands, or NULL when the model cannot back @bit at all.
 */
const uint16_t *ec_feature_cmds(unsigned int bit, size_t *n)
{
	const struct ec_feature_backing *f = ec_feature_find(bit);

	*n = 0;
	if (!f)
		return NULL;
	while (*n < EC_FEATURE_MAX_CMDS && f->cmds[*n])
		(*n)++;
	return f->cmds;
}

/**
 * ec_feature_unbacked() - why @profile may not advertise feature @bit.
 * @profile:     the board (its disabled commands count as missing)
 * @bit:         GET_FEATURES bit number, 0..63
 * @missing_cmd: set to the first missing command when one is missing
 *
 * Return: NULL when the feature's commands all answer on this board;
 * otherwise a short reason ("the model has no commands for it" with
 * @missing_cmd untouched, or "needs command" with @missing_cmd set).
 */
const char *ec_feature_unbacked(const struct ec_profile *profile, unsigned int bit,
				uint32_t *missing_cmd)
{
	const struct ec_feature_backing *f = ec_feature_find(bit);
	unsigned int i;

	if (!f)
		return "the model has no commands for it";
	for (i = 0; i < EC_FEATURE_MAX_CMDS && f->cmds[i]; i++) {
		if (ec_profile_cmd_disabled(profile, f->cmds[i])) {
			*missing_cmd = f->cmds[i];
			return "needs command";
		}
	}
	return NULL;
}

/*
 * Commands of hardware a board may lack: without it they answer
 * INVALID_COMMAND, as on a real EC built without that driver.
 */
struct ec_hw_cmds {
	bool (*absent)(const struct ec_profile *profile);
	uint16_t cmds[4];		/* 0-terminated */
};

static bool ec_no_backlight(const struct ec_profile *p) { return !p->kb_backlight; }
static bool ec_no_cbi(const struct ec_profile *p) { return !p->has_cbi; }
static bool ec_no_adc(const struct ec_profile *p) { return !p->n_adcs; }
static bool ec_no_trng(const struct ec_profile *p) { return !p->rand_num; }
static bool ec_no_battery(const struct ec_profile *p) { return !p->has_battery; }
static bool ec_no_usb_a(const struct ec_profile *p) { return !p->usb_a_ports; }
static bool ec_no_spi_flash(const struct ec_profile *p) { return !p->flash_spi_jedec; }
static bool ec_no_motion(const struct ec_profile *p) { return !p->n_motion; }
static bool ec_no_bklight_switch(const struct ec_profile *p)
{
	return ec_profile_backlight_gpio(p) < 0;
}
/* EC_CMD_BUTTON simulates the side buttons: volume up and down, recovery. */
static bool ec_no_side_buttons(const struct ec_profile *p)
{
	return !(p->kb_buttons & ((1u << EC_MKBP_VOL_UP) | (1u << EC_MKBP_VOL_DOWN) |
				  (1u << EC_MKBP_RECOVERY)));
}
/*
 * The RWSIG task (in RO) takes RWSIG_ACTION; a firmware without it checks
 * the signature on request instead (RWSIG_CHECK_STATUS), never both.
 */
static bool ec_rwsig_task(const struct ec_profile *p)
{
	return p->kind == EC_KIND_FPMCU && p->rwsig_task;
}
static bool ec_no_rwsig_task(const struct ec_profile *p)
{
	return p->kind == EC_KIND_FPMCU && !p->rwsig_task;
}

static const struct ec_hw_cmds ec_hw_table[] = {
	{ ec_no_backlight, { EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT,
			     EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT } },
	{ ec_no_cbi, { EC_CMD_GET_CROS_BOARD_INFO, EC_CMD_SET_CROS_BOARD_INFO } },
	{ ec_no_adc, { EC_CMD_ADC_READ } },
	{ ec_no_trng, { EC_CMD_RAND_NUM } },
	{ ec_no_battery, { EC_CMD_BATTERY_CUT_OFF, EC_CMD_CHARGE_CURRENT_LIMIT,
			   EC_CMD_EXTERNAL_POWER_LIMIT } },
	{ ec_no_battery, { EC_CMD_BATTERY_VENDOR_PARAM, EC_CMD_SMART_DISCHARGE } },
	{ ec_no_usb_a, { EC_CMD_USB_CHARGE_SET_MODE } },
	{ ec_no_spi_flash, { EC_CMD_FLASH_SPI_INFO } },
	{ ec_no_motion, { EC_CMD_MOTION_SENSE_CMD } },
	{ ec_no_bklight_switch, { EC_CMD_SWITCH_ENABLE_BKLIGHT } },
	{ ec_no_side_buttons, { EC_CMD_BUTTON } },
	{ ec_rwsig_task, { EC_CMD_RWSIG_CHECK_STATUS } },
	{ ec_no_rwsig_task, { EC_CMD_RWSIG_ACTION } },
};

int ec_profile_backlight_gpio(const struct ec_profile *profile)
{
	unsigned int i;

	for (i = 0; i < profile->n_gpios; i++)
		if (!strcmp(profile->gpios[i].name, "ENABLE_BACKLIGHT") &&
		    profile->gpios[i].output)
			return (int)i;
	return -1;
}

/**
 * ec_profile_disable_absent() - switch off the commands of hardware the
 * board lacks (added to its disabled list once each).
 * @profile: the parsed profile
 *
 * Return: 0, or -ENOSPC when the disabled list would overflow.
 */
int ec_profile_disable_absent(struct ec_profile *profile)
{
	size_t i, c;

	for (i = 0; i < sizeof(ec_hw_table) / sizeof(ec_hw_table[0]); i++) {
		if (!ec_hw_table[i].absent(profile))
			continue;
		for (c = 0; c < 4 && ec_hw_table[i].cmds[c]; c++) {
			uint16_t cmd = ec_hw_table[i].cmds[c];

			if (ec_profile_cmd_disabled(profile, cmd))
				continue;
			if (profile->n_disabled >= EC_MAX_DISABLED_CMDS)
				return -ENOSPC;
			profile->disabled[profile->n_disabled++] = cmd;
		}
	}
	return 0;
}
