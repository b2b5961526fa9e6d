// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_power.c - battery, charger and power-source host commands. All
 * numbers come from the same state the memory map is built from.
 */
#include "ec_internal.h"

static int ec_battery_index_ok(const struct ec *ec, uint8_t index)
{
	return ec->prof.has_battery && index == 0;
}

/**
 * ec_cmd_battery_get_static() - BATTERY_GET_STATIC v0 (40 bytes, 8-byte
 * strings) and v1 (56 bytes, 12-byte strings).
 */
static int ec_cmd_battery_get_static(struct ec_cmd_args *args)
{
	const struct ec_params_battery_static_info *p = (const void *)args->req;
	const struct ec_profile *prof = &args->ec->prof;

	if (!ec_battery_index_ok(args->ec, p->index))
		return EC_RES_INVALID_PARAM;
	if (args->version == 0) {
		struct ec_response_battery_static_info *r = (void *)args->resp;

		r->design_capacity = (uint16_t)prof->batt_design_mah;
		r->design_voltage = (uint16_t)prof->batt_design_mv;
		ec_copy_str(r->manufacturer, sizeof(r->manufacturer), prof->batt_manufacturer);
		ec_copy_str(r->model, sizeof(r->model), prof->batt_model);
		ec_copy_str(r->serial, sizeof(r->serial), prof->batt_serial);
		ec_copy_str(r->type, sizeof(r->type), prof->batt_type);
		r->cycle_count = args->ec->batt_cycles;
		args->resp_size = sizeof(*r);
	} else {
		struct ec_response_battery_static_info_v1 *r = (void *)args->resp;

		r->design_capacity = (uint16_t)prof->batt_design_mah;
		r->design_voltage = (uint16_t)prof->batt_design_mv;
		r->cycle_count = args->ec->batt_cycles;
		ec_copy_str(r->manufacturer_ext, sizeof(r->manufacturer_ext),
			    prof->batt_manufacturer);
		ec_copy_str(r->model_ext, sizeof(r->model_ext), prof->batt_model);
		ec_copy_str(r->serial_ext, sizeof(r->serial_ext), prof->batt_serial);
		ec_copy_str(r->type_ext, sizeof(r->type_ext), prof->batt_type);
		args->resp_size = sizeof(*r);
	}
	return EC_RES_SUCCESS;
}

/** ec_cmd_battery_get_dynamic() - BATTERY_GET_DYNAMIC: live values (14 bytes). */
static int ec_cmd_battery_get_dynamic(struct ec_cmd_args *args)
{
	const struct ec_params_battery_dynamic_info *p = (const void *)args->req;
	struct ec_response_battery_dynamic_info *r = (void *)args->resp;
	struct ec *ec = args->ec;

	if (!ec_battery_index_ok(ec, p->index))
		return EC_RES_INVALID_PARAM;
	r->actual_voltage = (int16_t)ec_battery_voltage_mv(ec);
	r->actual_current = (int16_t)(ec->batt_ma < 0 ? ec->batt_ma - 0.5 : ec->batt_ma + 0.5);
	r->remaining_capacity = (int16_t)(ec->batt_mah + 0.5);
	r->full_capacity = (int16_t)ec->prof.batt_full_mah;
	r->flags = (int16_t)ec_battery_flags(ec);
	r->desired_voltage = (int16_t)(ec->prof.batt_design_mv * 108 / 100);
	r->desired_current = (int16_t)(ec->batt_ma > 0 ? ec->prof.batt_charge_ma : 0);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

static int ec_charge_param(const struct ec *ec, uint32_t param, uint32_t *value)
{
	switch (param) {
	case CS_PARAM_CHG_VOLTAGE:
		*value = ec->batt_ma > 0 ? ec->prof.batt_design_mv * 108 / 100 : 0;
		return 0;
	case CS_PARAM_CHG_CURRENT:
		*value = (uint32_t)ec_charge_current_max(ec);
		return 0;
	case CS_PARAM_CHG_INPUT_CURRENT:
		*value = ec->ac_present ? ec->prof.adapter_watts * 1000 / 20 : 0;
		return 0;
	case CS_PARAM_CHG_STATUS:
		*value = ec_battery_flags(ec);
		return 0;
	case CS_PARAM_CHG_OPTION:
		*value = 0;
		return 0;
	case CS_PARAM_LIMIT_POWER:
		*value = 0;
		return 0;
	default:
		return -1;
	}
}

/**
 * ec_cmd_charge_state() - CHARGE_STATE: GET_STATE (20 bytes), GET_PARAM
 * (4 bytes) and SET_PARAM (only the charge current may be set).
 */
static int ec_cmd_charge_state(struct ec_cmd_args *args)
{
	const struct ec_params_charge_state *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (!ec->prof.has_battery)
		return EC_RES_INVALID_PARAM;
	switch (p->cmd) {
	case CHARGE_STATE_CMD_GET_STATE: {
		struct ec_response_charge_state *r = (void *)args->resp;
		uint32_t v;

		r->ac = ec->ac_present;
		ec_charge_param(ec, CS_PARAM_CHG_VOLTAGE, &v);
		r->chg_voltage = (int32_t)v;
		r->chg_current = ec->batt_ma > 0 ? (int32_t)(ec->batt_ma + 0.5) : 0;
		ec_charge_param(ec, CS_PARAM_CHG_INPUT_CURRENT, &v);
		r->chg_input_current = (int32_t)v;
		r->batt_state_of_charge = (int32_t)ec_battery_percent(ec);
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	}
	case CHARGE_STATE_CMD_GET_PARAM: {
		uint32_t v;

		if (ec_charge_param(ec, p->param, &v))
			return EC_RES_INVALID_PARAM;
		*(uint32_t *)(void *)args->resp = v;
		args->resp_size = sizeof(v);
		return EC_RES_SUCCESS;
	}
	case CHARGE_STATE_CMD_SET_PARAM:
		if (p->param != CS_PARAM_CHG_CURRENT || p->value > 20000)
			return EC_RES_INVALID_PARAM;
		ec->prof.batt_charge_ma = p->value;
		ec_console_log(ec, "charger: current limit %u mA", p->value);
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_cmd_charge_control() - CHARGE_CONTROL v2: set or get the charge mode and
 * the battery sustainer window (-1/-1 = off; else 0 <= lower <= upper <= 100).
 */
static int ec_cmd_charge_control(struct ec_cmd_args *args)
{
	const struct ec_params_charge_control *p = (const void *)args->req;
	struct ec_response_charge_control *r = (void *)args->resp;
	struct ec *ec = args->ec;
	int lo = p->sustain_soc_lower, hi = p->sustain_soc_upper;

	if (!ec->prof.has_battery)
		return EC_RES_INVALID_PARAM;
	switch (p->cmd) {
	case EC_CHARGE_CONTROL_CMD_SET:
		if (p->mode >= CHARGE_CONTROL_COUNT)
			return EC_RES_INVALID_PARAM;
		if (!(lo == -1 && hi == -1) && !(lo >= 0 && lo <= hi && hi <= 100))
			return EC_RES_INVALID_PARAM;
		ec->chg_mode = p->mode;
		ec->sustain_lower = (int8_t)lo;
		ec->sustain_upper = (int8_t)hi;
		ec_console_log(ec, "charger: mode %u sustain %d..%d", p->mode, lo, hi);
		return EC_RES_SUCCESS;
	case EC_CHARGE_CONTROL_CMD_GET:
		r->mode = ec->chg_mode;
		r->sustain_soc_lower = ec->sustain_lower;
		r->sustain_soc_upper = ec->sustain_upper;
		r->flags = 0;
		args->resp_size = sizeof(*r);
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/** ec_cmd_power_info() - POWER_INFO v1: power source and ratings (15 bytes). */
static int ec_cmd_power_info(struct ec_cmd_args *args)
{
	struct ec_response_power_info_v1 *r = (void *)args->resp;
	struct ec *ec = args->ec;
	bool batt = ec->prof.has_battery;

	if (ec->ac_present)
		r->system_power_source = batt ? POWER_SOURCE_AC_BATTERY : POWER_SOURCE_AC;
	else
		r->system_power_source = batt ? POWER_SOURCE_BATTERY : POWER_SOURCE_UNKNOWN;
	r->battery_soc = (uint8_t)ec_battery_percent(ec);
	r->ac_adapter_100pct = (uint8_t)(ec->prof.adapter_watts > 255 ? 255 :
					 ec->prof.adapter_watts);
	r->ac_adapter_10ms = r->ac_adapter_100pct;
	r->battery_1cd = batt ? (uint8_t)((uint64_t)ec->prof.batt_design_mah *
					  ec->prof.batt_design_mv / 1000000) : 0;
	r->rop_avg = 10;
	r->rop_peak = 20;
	r->nominal_charger_eff = 90;
	r->rop_avg_eff = 85;
	r->rop_peak_eff = 80;
	r->soc_avg_eff = 90;
	r->soc_peak_eff = 85;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_power_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_CHARGE_CONTROL, EC_VER_MASK(2), ec_cmd_charge_control),
	EC_HOST_COMMAND(EC_CMD_POWER_INFO, EC_VER_MASK(1), ec_cmd_power_info),
	EC_HOST_COMMAND(EC_CMD_CHARGE_STATE, EC_VER_MASK(0), ec_cmd_charge_state),
	EC_HOST_COMMAND(EC_CMD_BATTERY_GET_STATIC, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_battery_get_static),
	EC_HOST_COMMAND(EC_CMD_BATTERY_GET_DYNAMIC, EC_VER_MASK(0), ec_cmd_battery_get_dynamic),
};

const struct ec_subsystem ec_subsys_power = {
	.name = "power",
	EC_SUBSYSTEM_CMDS(ec_power_cmds),
};
