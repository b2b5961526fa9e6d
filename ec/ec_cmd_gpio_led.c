// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_gpio_led.c - GPIO read-back and setting, LED control host
 * commands.
 */
#include <string.h>

#include "ec_internal.h"

/* GPIO names on the wire are 32 bytes and need not be NUL-terminated. */
static int ec_gpio_find(const struct ec *ec, const char *name)
{
	unsigned int i;

	for (i = 0; i < ec->prof.n_gpios; i++)
		if (!strncmp(ec->prof.gpios[i].name, name, EC_NAME_LEN))
			return (int)i;
	return -1;
}

/**
 * ec_cmd_gpio_get() - GPIO_GET v0 (value by name, 1 byte) and v1 (by name,
 * count, or info by index with a 40-byte answer). Unknown names and
 * indexes are INVALID_PARAM.
 */
static int ec_cmd_gpio_get(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;
	struct ec_response_gpio_get_v1 *r = (void *)args->resp;
	const struct ec_params_gpio_get_v1 *p1 = (const void *)args->req;
	int idx;

	if (args->version == 0) {
		const struct ec_params_gpio_get *p0 = (const void *)args->req;

		idx = ec_gpio_find(ec, p0->name);
		if (idx < 0)
			return EC_RES_INVALID_PARAM;
		r->get_value_by_name.val = ec->gpio_value[idx];
		args->resp_size = sizeof(struct ec_response_gpio_get);
		return EC_RES_SUCCESS;
	}
	switch (p1->subcmd) {
	case EC_GPIO_GET_BY_NAME:
		idx = ec_gpio_find(ec, p1->get_value_by_name.name);
		if (idx < 0)
			return EC_RES_INVALID_PARAM;
		r->get_value_by_name.val = ec->gpio_value[idx];
		args->resp_size = sizeof(r->get_value_by_name);
		return EC_RES_SUCCESS;
	case EC_GPIO_GET_COUNT:
		r->get_count.val = (uint8_t)ec->prof.n_gpios;
		args->resp_size = sizeof(r->get_count);
		return EC_RES_SUCCESS;
	case EC_GPIO_GET_INFO:
		idx = p1->get_info.index;
		if ((unsigned int)idx >= ec->prof.n_gpios)
			return EC_RES_INVALID_PARAM;
		r->get_info.val = ec->gpio_value[idx];
		ec_copy_str(r->get_info.name, sizeof(r->get_info.name), ec->prof.gpios[idx].name);
		r->get_info.flags = ec->prof.gpios[idx].output ? GPIO_OUTPUT : GPIO_INPUT;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_cmd_led_control() - LED_CONTROL v1: query an LED's brightness ranges,
 * hand it back to automatic control, or set a brightness per colour (each
 * within its range). Always answers 6 bytes; only a query fills them.
 */
static int ec_cmd_led_control(struct ec_cmd_args *args)
{
	const struct ec_params_led_control *p = (const void *)args->req;
	struct ec_response_led_control *r = (void *)args->resp;
	struct ec *ec = args->ec;
	const struct ec_led_profile *led = NULL;
	unsigned int i, slot = 0;

	for (i = 0; i < ec->prof.n_leds; i++) {
		if (ec->prof.leds[i].id == p->led_id) {
			led = &ec->prof.leds[i];
			slot = i;
		}
	}
	if (!led)
		return EC_RES_INVALID_PARAM;
	args->resp_size = sizeof(*r);
	if (p->flags & EC_LED_FLAGS_QUERY) {
		memcpy(r->brightness_range, led->range, sizeof(r->brightness_range));
		return EC_RES_SUCCESS;
	}
	if (p->flags & EC_LED_FLAGS_AUTO) {
		ec->led_auto[slot] = true;
		return EC_RES_SUCCESS;
	}
	for (i = 0; i < EC_LED_COLOR_COUNT; i++)
		if (p->brightness[i] > led->range[i])
			return EC_RES_INVALID_PARAM;
	memcpy(ec->led_brightness[slot], p->brightness, EC_LED_COLOR_COUNT);
	ec->led_auto[slot] = false;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_gpio_set() - GPIO_SET v0: drive an output GPIO (GPIO_GET reads it
 * back; ENABLE_BACKLIGHT is the panel's, as SWITCH_ENABLE_BKLIGHT drives
 * it). As the firmware: ACCESS_DENIED while the system is locked, ERROR for
 * an unknown name or an input. A request shorter than 33 bytes is
 * INVALID_PARAM.
 */
static int ec_cmd_gpio_set(struct ec_cmd_args *args)
{
	const struct ec_params_gpio_set *p = (const void *)args->req;
	struct ec *ec = args->ec;
	int idx;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (ec_system_locked(ec))
		return EC_RES_ACCESS_DENIED;
	idx = ec_gpio_find(ec, p->name);
	if (idx < 0 || !ec->prof.gpios[idx].output)
		return EC_RES_ERROR;
	ec->gpio_value[idx] = p->val ? 1 : 0;
	ec_console_log(ec, "GPIO %.32s = %u", p->name, ec->gpio_value[idx]);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_gpio_led_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_LED_CONTROL, EC_VER_MASK(1), ec_cmd_led_control),
	EC_HOST_COMMAND(EC_CMD_GPIO_SET, EC_VER_MASK(0), ec_cmd_gpio_set),
	EC_HOST_COMMAND(EC_CMD_GPIO_GET, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_gpio_get),
};

const struct ec_subsystem ec_subsys_gpio_led = {
	.name = "gpio_led",
	EC_SUBSYSTEM_CMDS(ec_gpio_led_cmds),
};
