// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control_hw.c - the control verbs that move a convertible's hardware as a
 * hand would: the hinge ("motion angle"), folding the lid behind the base
 * ("motion tablet on|off") and the side buttons ("button vup|vdown|rec",
 * ectool's names for them). Their rows are in control.c's table. The EC
 * model does the moving (ec.h), so what the EC answers afterwards -
 * MOTION_SENSE's lid angle, the MKBP switches and button events, the
 * memory map's tablet bit - follows from the EC's own rules, not from
 * values set beside them.
 *
 * ec.h answers ENODEV for a board without the hardware, which a control
 * reply cannot pass on: ENODEV means "not plugged" there. It becomes
 * EOPNOTSUPP, "this board has none".
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chardev.h"
#include "control.h"
#include "control_internal.h"
#include "ec/ec.h"

int control_parse_angle(const char *value, struct control_cmd *cmd, char *err, size_t errlen)
{
	uint64_t degrees;

	if (parse_uint(value, "DEGREES", 0, 360, &degrees, err, errlen))
		return -EINVAL;
	cmd->lid_angle = (unsigned int)degrees;
	return 0;
}

/* The button is the row's; the value is how long it is held. */
int control_parse_press(const char *value, struct control_cmd *cmd, char *err, size_t errlen)
{
	uint64_t ms;

	if (parse_uint(value, "MS", 1, CONTROL_PRESS_MS_MAX, &ms, err, errlen))
		return -EINVAL;
	cmd->button = cmd->verb->arg;
	cmd->press_ms = (uint32_t)ms;
	return 0;
}

/**
 * struct control_hinge - a hinge move and what the EC reads afterwards.
 * @cmd:         the command ("motion angle" or "motion tablet on|off")
 * @lid_angle:   the lid angle the EC read last (ec_motion_lid_angle())
 * @tablet_mode: whether the EC has the board in tablet mode
 */
struct control_hinge {
	const struct control_cmd *cmd;
	int lid_angle;
	int tablet_mode;
};

/* The hardware's own ENODEV: this board has none (the file's comment). */
static int control_hw_errno(int ret)
{
	return ret == -ENODEV ? -EOPNOTSUPP : ret;
}

static int control_hinge_move(struct ec *ec, void *arg)
{
	struct control_hinge *h = arg;
	int ret;

	if (h->cmd->verb->parse == control_parse_angle)
		ret = ec_motion_set_lid_angle(ec, h->cmd->lid_angle);
	else
		ret = ec_set_tablet_mode(ec, h->cmd->verb->arg);
	if (ret)
		return control_hw_errno(ret);
	h->lid_angle = ec_motion_lid_angle(ec);
	h->tablet_mode = ec_tablet_mode(ec);
	return 0;
}

/* Either hinge verb: the move, then the EC's reading of it. */
static int control_hinge_reply(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			       char *reply, size_t len)
{
	struct control_hinge h = { .cmd = cmd };
	int ret = chardev_with_ec(ctx, control_hinge_move, &h);

	if (ret == -ENODEV)
		return ctl_error(reply, len, ret, "not plugged");
	if (ret == -EOPNOTSUPP)
		return ctl_error(reply, len, ret, "this board has no lid angle (no lid and base "
				 "accelerometers in its profile)");
	if (ret)
		return ctl_error(reply, len, ret, "the hinge did not move: %s", strerror(-ret));
	snprintf(reply, len, "ok lid_angle=%d tablet_mode=%d", h.lid_angle, h.tablet_mode);
	return 0;
}

int control_do_motion_angle(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			    char *reply, size_t len)
{
	return control_hinge_reply(ctx, cmd, reply, len);
}

int control_do_motion_tablet(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len)
{
	return control_hinge_reply(ctx, cmd, reply, len);
}

static int control_button_press(struct ec *ec, void *arg)
{
	const struct control_cmd *cmd = arg;

	return control_hw_errno(ec_press_button(ec, cmd->button, cmd->press_ms));
}

int control_do_button(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		      char *reply, size_t len)
{
	int ret = chardev_with_ec(ctx, control_button_press, (void *)cmd);

	if (ret == -ENODEV)
		return ctl_error(reply, len, ret, "not plugged");
	if (ret == -EOPNOTSUPP)
		return ctl_error(reply, len, ret, "this board has no such button (its profile's "
				 "[keyboard] buttons)");
	if (ret)
		return ctl_error(reply, len, ret, "the button was not pressed: %s",
				 strerror(-ret));
	snprintf(reply, len, "ok %s held %u ms", cmd->verb->name, (unsigned int)cmd->press_ms);
	return 0;
}
