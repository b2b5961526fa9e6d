// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_thermal.c - temperature sensor and fan host commands.
 *
 * Setting a duty or RPM target takes that fan out of automatic control
 * until THERMAL_AUTO_FAN_CTRL hands it back, as on a real EC.
 */
#include "ec_internal.h"

/* Resolve a v1 fan index, or all fans for v0; -1 when the index is bad. */
static int ec_fan_range(const struct ec_cmd_args *args, uint8_t fan_idx,
			unsigned int *first, unsigned int *last)
{
	unsigned int n = args->ec->prof.n_fans;

	if (!n)
		return -1;
	if (args->version == 0) {
		*first = 0;
		*last = n - 1;
		return 0;
	}
	if (fan_idx >= n)
		return -1;
	*first = *last = fan_idx;
	return 0;
}

/** ec_cmd_pwm_set_fan_target_rpm() - v0 (all fans) and v1 (one fan). */
static int ec_cmd_pwm_set_fan_target_rpm(struct ec_cmd_args *args)
{
	const struct ec_params_pwm_set_fan_target_rpm_v1 *p = (const void *)args->req;
	struct ec *ec = args->ec;
	unsigned int i, first, last;

	if (ec_fan_range(args, p->fan_idx, &first, &last))
		return EC_RES_INVALID_PARAM;
	for (i = first; i <= last; i++) {
		ec->fan_auto[i] = false;
		ec->fan_by_rpm[i] = true;
		ec->fan_target_rpm[i] = p->rpm;
	}
	ec_console_log(ec, "fan: target %u rpm", p->rpm);
	return EC_RES_SUCCESS;
}

/** ec_cmd_pwm_set_fan_duty() - v0 (all fans) and v1 (one fan); 0..100 %. */
static int ec_cmd_pwm_set_fan_duty(struct ec_cmd_args *args)
{
	const struct ec_params_pwm_set_fan_duty_v1 *p = (const void *)args->req;
	struct ec *ec = args->ec;
	unsigned int i, first, last;

	if (p->percent > 100 || ec_fan_range(args, p->fan_idx, &first, &last))
		return EC_RES_INVALID_PARAM;
	for (i = first; i <= last; i++) {
		ec->fan_auto[i] = false;
		ec->fan_by_rpm[i] = false;
		ec->fan_duty[i] = p->percent;
	}
	ec_console_log(ec, "fan: duty %u%%", p->percent);
	return EC_RES_SUCCESS;
}

/** ec_cmd_thermal_auto_fan_ctrl() - v0 (all fans) and v1 (one fan). */
static int ec_cmd_thermal_auto_fan_ctrl(struct ec_cmd_args *args)
{
	const struct ec_params_auto_fan_ctrl_v1 *p = (const void *)args->req;
	unsigned int i, first, last;

	if (ec_fan_range(args, p->fan_idx, &first, &last))
		return EC_RES_INVALID_PARAM;
	for (i = first; i <= last; i++)
		args->ec->fan_auto[i] = true;
	ec_console_log(args->ec, "fan: automatic control");
	return EC_RES_SUCCESS;
}

/** ec_cmd_thermal_get_threshold() - v1: one sensor's thresholds in K (32 bytes). */
static int ec_cmd_thermal_get_threshold(struct ec_cmd_args *args)
{
	const struct ec_params_thermal_get_threshold_v1 *p = (const void *)args->req;
	struct ec_thermal_config *r = (void *)args->resp;
	const struct ec_temp_profile *tp;
	unsigned int t;

	if (p->sensor_num >= args->ec->prof.n_temps)
		return EC_RES_INVALID_PARAM;
	tp = &args->ec->prof.temps[p->sensor_num];
	for (t = 0; t < EC_TEMP_THRESH_COUNT; t++) {
		r->temp_host[t] = tp->thresh_k[t];
		r->temp_host_release[t] = tp->thresh_k[t] ? tp->thresh_k[t] - 3 : 0;
	}
	r->temp_fan_off = tp->fan_off_k;
	r->temp_fan_max = tp->fan_max_k;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_temp_sensor_get_info() - name and type of one sensor (33 bytes). */
static int ec_cmd_temp_sensor_get_info(struct ec_cmd_args *args)
{
	const struct ec_params_temp_sensor_get_info *p = (const void *)args->req;
	struct ec_response_temp_sensor_get_info *r = (void *)args->resp;
	const struct ec_temp_profile *tp;

	if (p->id >= args->ec->prof.n_temps)
		return EC_RES_INVALID_PARAM;
	tp = &args->ec->prof.temps[p->id];
	ec_copy_str(r->sensor_name, sizeof(r->sensor_name), tp->name);
	r->sensor_type = tp->type;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_thermal_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_PWM_SET_FAN_TARGET_RPM, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_pwm_set_fan_target_rpm),
	EC_HOST_COMMAND(EC_CMD_PWM_SET_FAN_DUTY, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_pwm_set_fan_duty),
	EC_HOST_COMMAND(EC_CMD_THERMAL_GET_THRESHOLD, EC_VER_MASK(1),
			ec_cmd_thermal_get_threshold),
	EC_HOST_COMMAND(EC_CMD_THERMAL_AUTO_FAN_CTRL, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_thermal_auto_fan_ctrl),
	EC_HOST_COMMAND(EC_CMD_TEMP_SENSOR_GET_INFO, EC_VER_MASK(0), ec_cmd_temp_sensor_get_info),
};

const struct ec_subsystem ec_subsys_thermal = {
	.name = "thermal",
	EC_SUBSYSTEM_CMDS(ec_thermal_cmds),
};
