// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_buttons.c - the side buttons (volume up and down, recovery) a
 * board's [keyboard] buttons names: EC_CMD_BUTTON presses them for a
 * time on the EC clock, as the firmware's simulate_button() does, and so
 * does ec_press_button(); each press and release is an MKBP button event,
 * and MKBP_INFO CURRENT shows them held.
 */
#include <errno.h>
#include <string.h>

#include "ec_internal.h"

#define NS_PER_MS		1000000ull

/* The side buttons EC_CMD_BUTTON's mask names, as MKBP button bits. */
static const struct {
	uint8_t btn;		/* enum keyboard_button_type */
	uint8_t mkbp;		/* EC_MKBP_* */
} ec_side_buttons[] = {
	{ KEYBOARD_BUTTON_VOLUME_DOWN, EC_MKBP_VOL_DOWN },
	{ KEYBOARD_BUTTON_VOLUME_UP, EC_MKBP_VOL_UP },
	{ KEYBOARD_BUTTON_RECOVERY, EC_MKBP_RECOVERY },
};

/* A BUTTON press ends when the EC clock reaches its end. */
static void ec_buttons_advance(struct ec *ec)
{
	uint8_t payload[4] = { 0 };

	if (!ec->buttons.release_ns || ec->last_ns < ec->buttons.release_ns)
		return;
	ec->buttons.release_ns = 0;
	ec->buttons.held = 0;
	ec_console_log(ec, "buttons released");
	ec_queue_event(ec, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
}

/* Press the side buttons @mkbp (EC_MKBP_* bits) for @press_ms. */
static void ec_buttons_press(struct ec *ec, uint32_t mkbp, uint32_t press_ms)
{
	uint8_t payload[4];

	if (!mkbp)
		return;
	ec->buttons.held |= mkbp;
	ec->buttons.release_ns = ec->last_ns + (uint64_t)press_ms * NS_PER_MS;
	ec_console_log(ec, "buttons 0x%x pressed for %u ms", mkbp, press_ms);
	ec_put_le32(payload, ec->buttons.held);
	ec_queue_event(ec, EC_MKBP_EVENT_BUTTON, payload, sizeof(payload));
}

/**
 * ec_cmd_button() - BUTTON v0: press the board's side buttons named in
 * btn_mask (enum keyboard_button_type) for press_ms; buttons the board
 * lacks are ignored. Only while the system is unlocked (ACCESS_DENIED);
 * a request shorter than 8 bytes is INVALID_PARAM.
 */
static int ec_cmd_button(struct ec_cmd_args *args)
{
	const struct ec_params_button *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint32_t mkbp = 0;
	size_t i;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (ec_system_locked(ec))
		return EC_RES_ACCESS_DENIED;
	for (i = 0; i < sizeof(ec_side_buttons) / sizeof(ec_side_buttons[0]); i++)
		if (p->btn_mask & (1u << ec_side_buttons[i].btn))
			mkbp |= 1u << ec_side_buttons[i].mkbp;
	ec_buttons_press(ec, mkbp & ec->prof.kb_buttons, p->press_ms);
	return EC_RES_SUCCESS;
}

int ec_press_button(struct ec *ec, unsigned int button, uint32_t press_ms)
{
	int ret = -EINVAL;
	size_t i;

	if (!ec)
		return -EINVAL;
	for (i = 0; i < sizeof(ec_side_buttons) / sizeof(ec_side_buttons[0]); i++)
		if (ec_side_buttons[i].mkbp == button)
			ret = 0;
	if (ret)
		return ret;
	ec_lock_advance(ec);
	if (!(ec->prof.kb_buttons & (1u << button)))
		ret = -ENODEV;
	else
		ec_buttons_press(ec, 1u << button, press_ms);
	ec_unlock_notify(ec);
	return ret;
}

/* Nothing held at boot. */
static void ec_buttons_boot(struct ec *ec)
{
	memset(&ec->buttons, 0, sizeof(ec->buttons));
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_buttons_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_BUTTON, EC_VER_MASK(0), ec_cmd_button),
};

const struct ec_subsystem ec_subsys_buttons = {
	.name = "buttons",
	EC_SUBSYSTEM_CMDS(ec_buttons_cmds),
	.boot = ec_buttons_boot,
	.advance = ec_buttons_advance,
};
