// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_keyboard.c - the keyboard matrix and MKBP: MKBP_INFO (matrix size,
 * supported and current buttons and switches), MKBP_SIMULATE_KEY,
 * GET_KEYBOARD_ID, MKBP_GET/SET_CONFIG, MKBP_WAKE_MASK and the keyboard
 * backlight (PWM_GET/SET_KEYBOARD_BACKLIGHT).
 *
 * The matrix is state: a simulated key press sets its bit and queues an
 * MKBP KEY_MATRIX event carrying every column, as the firmware's scanner
 * does, so GET_NEXT_EVENT, the chardev's event read() and MKBP_INFO
 * CURRENT all see the same keys.
 */
#include <errno.h>
#include <string.h>

#include "ec_internal.h"

/* The firmware's scanner defaults, reported until a host changes them. */
static const struct ec_mkbp_config ec_kb_default_config = {
	.valid_mask = EC_MKBP_VALID_SCAN_PERIOD | EC_MKBP_VALID_POLL_TIMEOUT |
		      EC_MKBP_VALID_MIN_POST_SCAN_DELAY | EC_MKBP_VALID_OUTPUT_SETTLE |
		      EC_MKBP_VALID_DEBOUNCE_DOWN | EC_MKBP_VALID_DEBOUNCE_UP |
		      EC_MKBP_VALID_FIFO_MAX_DEPTH,
	.flags = EC_MKBP_FLAGS_ENABLE,
	.valid_flags = EC_MKBP_FLAGS_ENABLE,
	.scan_period_us = 3000,
	.poll_timeout_us = 100000,
	.min_post_scan_delay_us = 1000,
	.output_settle_us = 50,
	.debounce_down_us = 9000,
	.debounce_up_us = 30000,
	.fifo_max_depth = 16,
};

/**
 * ec_keyboard_init() - keyboard state at power-on: no key down, scanner
 * defaults, backlight off, no wake masks.
 * @ec: the EC being created or reset
 */
static void ec_keyboard_init(struct ec *ec)
{
	memset(&ec->kb, 0, sizeof(ec->kb));
	ec->kb.config = ec_kb_default_config;
}

int ec_kb_backlight_percent(struct ec *ec)
{
	int pct = -ENODEV;

	pthread_mutex_lock(&ec->lock);
	if (ec->prof.kb_backlight)
		pct = ec->kb.backlight;
	pthread_mutex_unlock(&ec->lock);
	return pct;
}

/** ec_cmd_pwm_get_keyboard_backlight() - PWM_GET_KEYBOARD_BACKLIGHT: percent, enabled. */
static int ec_cmd_pwm_get_keyboard_backlight(struct ec_cmd_args *args)
{
	struct ec_response_pwm_get_keyboard_backlight *r = (void *)args->resp;

	r->percent = args->ec->kb.backlight;
	r->enabled = args->ec->kb.backlight > 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_pwm_set_keyboard_backlight() - PWM_SET_KEYBOARD_BACKLIGHT: 0..100 %, else INVALID_PARAM. */
static int ec_cmd_pwm_set_keyboard_backlight(struct ec_cmd_args *args)
{
	const struct ec_params_pwm_set_keyboard_backlight *p = (const void *)args->req;

	if (p->percent > 100)
		return EC_RES_INVALID_PARAM;
	if (p->percent != args->ec->kb.backlight)
		ec_console_log(args->ec, "keyboard backlight %u%%", p->percent);
	args->ec->kb.backlight = p->percent;
	args->ec->kb.backlight_duty = (uint16_t)(p->percent * EC_PWM_MAX_DUTY / 100);
	return EC_RES_SUCCESS;
}

static int ec_put_u32_answer(struct ec_cmd_args *args, uint32_t v)
{
	memcpy(args->resp, &v, sizeof(v));
	args->resp_size = sizeof(v);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_mkbp_info() - MKBP_INFO: KBD (rows, cols: 9 bytes); SUPPORTED for
 * BUTTON or SWITCH (a u32 of what the board has); CURRENT for KEY_MATRIX
 * (one byte per column), HOST_EVENT (the main copy's low 32 bits), BUTTON
 * (the side buttons a BUTTON press holds now; the power button is pressed
 * and released at once) or SWITCH (lid open, tablet mode).
 * Any other info or event type is INVALID_PARAM.
 */
static int ec_cmd_mkbp_info(struct ec_cmd_args *args)
{
	const struct ec_params_mkbp_info *p = (const void *)args->req;
	struct ec *ec = args->ec;

	switch (p->info_type) {
	case EC_MKBP_INFO_KBD: {
		struct ec_response_mkbp_info *r = (void *)args->resp;

		r->rows = ec->prof.kb_rows;
		r->cols = ec->prof.kb_cols;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	}
	case EC_MKBP_INFO_SUPPORTED:
		if (p->event_type == EC_MKBP_EVENT_BUTTON)
			return ec_put_u32_answer(args, ec->prof.kb_buttons);
		if (p->event_type == EC_MKBP_EVENT_SWITCH)
			return ec_put_u32_answer(args, ec_mkbp_switches_supported(&ec->prof));
		return EC_RES_INVALID_PARAM;
	case EC_MKBP_INFO_CURRENT:
		switch (p->event_type) {
		case EC_MKBP_EVENT_KEY_MATRIX:
			memcpy(args->resp, ec->kb.matrix, ec->prof.kb_cols);
			args->resp_size = ec->prof.kb_cols;
			return EC_RES_SUCCESS;
		case EC_MKBP_EVENT_HOST_EVENT:
			return ec_put_u32_answer(args, (uint32_t)ec->host_events);
		case EC_MKBP_EVENT_BUTTON:
			return ec_put_u32_answer(args, ec->buttons.held);
		case EC_MKBP_EVENT_SWITCH:
			return ec_put_u32_answer(args, ec_mkbp_switches(ec));
		default:
			return EC_RES_INVALID_PARAM;
		}
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_cmd_mkbp_simulate_key() - MKBP_SIMULATE_KEY: press or release a key
 * and send the matrix as a KEY_MATRIX event. Only while the system is
 * unlocked (RO not protected now), as in the firmware: ACCESS_DENIED
 * otherwise. A row or column outside the matrix is INVALID_PARAM.
 */
static int ec_cmd_mkbp_simulate_key(struct ec_cmd_args *args)
{
	const struct ec_params_mkbp_simulate_key *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint8_t before;

	if (ec->flash_protect_flags & EC_FLASH_PROTECT_RO_NOW)
		return EC_RES_ACCESS_DENIED;
	if (p->col >= ec->prof.kb_cols || p->row >= ec->prof.kb_rows)
		return EC_RES_INVALID_PARAM;
	before = ec->kb.matrix[p->col];
	if (p->pressed)
		ec->kb.matrix[p->col] |= (uint8_t)(1u << p->row);
	else
		ec->kb.matrix[p->col] &= (uint8_t)~(1u << p->row);
	if (ec->kb.matrix[p->col] != before)
		ec_queue_event(ec, EC_MKBP_EVENT_KEY_MATRIX, ec->kb.matrix, ec->prof.kb_cols);
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_keyboard_id() - GET_KEYBOARD_ID: the profile's ID (0 = unsupported). */
static int ec_cmd_get_keyboard_id(struct ec_cmd_args *args)
{
	struct ec_response_keyboard_id *r = (void *)args->resp;

	r->keyboard_id = args->ec->prof.kb_id;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_mkbp_set_config() - MKBP_SET_CONFIG: take the fields named in
 * valid_mask and the flags named in valid_flags. A zero scan period or a
 * FIFO deeper than 16 events (the firmware's FIFO) is INVALID_PARAM, and
 * then nothing changes.
 */
static int ec_cmd_mkbp_set_config(struct ec_cmd_args *args)
{
	const struct ec_mkbp_config *p = (const void *)args->req;
	struct ec_mkbp_config *c = &args->ec->kb.config;
	uint32_t m = p->valid_mask;

	if (((m & EC_MKBP_VALID_SCAN_PERIOD) && !p->scan_period_us) ||
	    ((m & EC_MKBP_VALID_FIFO_MAX_DEPTH) &&
	     p->fifo_max_depth > ec_kb_default_config.fifo_max_depth))
		return EC_RES_INVALID_PARAM;
	if (m & EC_MKBP_VALID_SCAN_PERIOD)
		c->scan_period_us = p->scan_period_us;
	if (m & EC_MKBP_VALID_POLL_TIMEOUT)
		c->poll_timeout_us = p->poll_timeout_us;
	if (m & EC_MKBP_VALID_MIN_POST_SCAN_DELAY)
		c->min_post_scan_delay_us = p->min_post_scan_delay_us;
	if (m & EC_MKBP_VALID_OUTPUT_SETTLE)
		c->output_settle_us = p->output_settle_us;
	if (m & EC_MKBP_VALID_DEBOUNCE_DOWN)
		c->debounce_down_us = p->debounce_down_us;
	if (m & EC_MKBP_VALID_DEBOUNCE_UP)
		c->debounce_up_us = p->debounce_up_us;
	if (m & EC_MKBP_VALID_FIFO_MAX_DEPTH)
		c->fifo_max_depth = p->fifo_max_depth;
	c->flags = (uint8_t)((c->flags & ~p->valid_flags) | (p->flags & p->valid_flags));
	return EC_RES_SUCCESS;
}

/** ec_cmd_mkbp_get_config() - MKBP_GET_CONFIG: the scanner settings (21 bytes). */
static int ec_cmd_mkbp_get_config(struct ec_cmd_args *args)
{
	memcpy(args->resp, &args->ec->kb.config, sizeof(args->ec->kb.config));
	args->resp_size = sizeof(args->ec->kb.config);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_mkbp_wake_mask() - MKBP_WAKE_MASK: get (4 bytes) or set (no data)
 * the host-event or the MKBP-event wake mask. An unknown action or mask
 * type is INVALID_PARAM.
 */
static int ec_cmd_mkbp_wake_mask(struct ec_cmd_args *args)
{
	const struct ec_params_mkbp_event_wake_mask *p = (const void *)args->req;
	struct ec_keyboard_state *kb = &args->ec->kb;
	uint32_t *mask;

	if (p->mask_type == EC_MKBP_HOST_EVENT_WAKE_MASK)
		mask = &kb->host_wake_mask;
	else if (p->mask_type == EC_MKBP_EVENT_WAKE_MASK)
		mask = &kb->event_wake_mask;
	else
		return EC_RES_INVALID_PARAM;
	if (p->action == GET_WAKE_MASK)
		return ec_put_u32_answer(args, *mask);
	if (p->action != SET_WAKE_MASK)
		return EC_RES_INVALID_PARAM;
	*mask = p->new_wake_mask;
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_keyboard_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, EC_VER_MASK(0),
			ec_cmd_pwm_get_keyboard_backlight),
	EC_HOST_COMMAND(EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, EC_VER_MASK(0),
			ec_cmd_pwm_set_keyboard_backlight),
	EC_HOST_COMMAND(EC_CMD_MKBP_INFO, EC_VER_MASK(0), ec_cmd_mkbp_info),
	EC_HOST_COMMAND(EC_CMD_MKBP_SIMULATE_KEY, EC_VER_MASK(0), ec_cmd_mkbp_simulate_key),
	EC_HOST_COMMAND(EC_CMD_GET_KEYBOARD_ID, EC_VER_MASK(0), ec_cmd_get_keyboard_id),
	EC_HOST_COMMAND(EC_CMD_MKBP_SET_CONFIG, EC_VER_MASK(0), ec_cmd_mkbp_set_config),
	EC_HOST_COMMAND(EC_CMD_MKBP_GET_CONFIG, EC_VER_MASK(0), ec_cmd_mkbp_get_config),
	EC_HOST_COMMAND(EC_CMD_MKBP_WAKE_MASK, EC_VER_MASK(0), ec_cmd_mkbp_wake_mask),
};

const struct ec_subsystem ec_subsys_keyboard = {
	.name = "keyboard",
	EC_SUBSYSTEM_CMDS(ec_keyboard_cmds),
	.boot = ec_keyboard_init,
};
