// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_rtc.c - the real-time clock's setters and its alarm:
 * RTC_SET_VALUE, RTC_GET_ALARM and RTC_SET_ALARM (RTC_GET_VALUE is with the
 * identity commands). The alarm counts down on the EC clock and, when it
 * fires, raises the RTC host event, as the firmware's alarm does.
 */
#include "ec_internal.h"

#define NS_PER_S 1000000000ull

/**
 * ec_rtc_settle() - fire the alarm whose time has come.
 * @ec: the EC, locked, its state advanced to ec->last_ns
 */
static void ec_rtc_settle(struct ec *ec)
{
	if (!ec->board.alarm_ns || ec->last_ns < ec->board.alarm_ns)
		return;
	ec->board.alarm_ns = 0;
	ec_console_log(ec, "RTC alarm");
	ec_raise_host_event(ec, EC_HOST_EVENT_RTC);
}

/** ec_cmd_rtc_set_value() - RTC_SET_VALUE: the wall clock, seconds since the epoch. */
static int ec_cmd_rtc_set_value(struct ec_cmd_args *args)
{
	const struct ec_params_rtc *p = (const void *)args->req;
	struct ec *ec = args->ec;

	ec->rtc_at_boot = p->time - (uint32_t)(ec_uptime_ms(ec) / 1000);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_rtc_get_alarm() - RTC_GET_ALARM: whole seconds until the alarm
 * (rounded up, so a pending alarm never reads 0), 0 when none is set.
 */
static int ec_cmd_rtc_get_alarm(struct ec_cmd_args *args)
{
	struct ec_response_rtc *r = (void *)args->resp;
	struct ec *ec = args->ec;

	ec_rtc_settle(ec);
	r->time = ec->board.alarm_ns ?
		  (uint32_t)((ec->board.alarm_ns - ec->last_ns + NS_PER_S - 1) / NS_PER_S) : 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_rtc_set_alarm() - RTC_SET_ALARM: fire in @time seconds; EC_RTC_ALARM_CLEAR cancels. */
static int ec_cmd_rtc_set_alarm(struct ec_cmd_args *args)
{
	const struct ec_params_rtc *p = (const void *)args->req;
	struct ec *ec = args->ec;

	ec->board.alarm_ns = p->time == EC_RTC_ALARM_CLEAR ? 0 :
			     ec->last_ns + (uint64_t)p->time * NS_PER_S;
	return EC_RES_SUCCESS;
}

/* At boot: no alarm set. */
static void ec_rtc_boot(struct ec *ec)
{
	ec->board.alarm_ns = 0;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_rtc_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_RTC_GET_ALARM, EC_VER_MASK(0), ec_cmd_rtc_get_alarm),
	EC_HOST_COMMAND(EC_CMD_RTC_SET_VALUE, EC_VER_MASK(0), ec_cmd_rtc_set_value),
	EC_HOST_COMMAND(EC_CMD_RTC_SET_ALARM, EC_VER_MASK(0), ec_cmd_rtc_set_alarm),
};

const struct ec_subsystem ec_subsys_rtc = {
	.name = "rtc",
	EC_SUBSYSTEM_CMDS(ec_rtc_cmds),
	.boot = ec_rtc_boot,
	.advance = ec_rtc_settle,
};
