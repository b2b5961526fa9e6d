// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_system.c - identity and housekeeping host commands: hello, version,
 * build and chip info, board version, memory map, command versions,
 * protocol info, features, sysinfo, uptime, RTC and RESEND_RESPONSE.
 *
 * Handlers run with the EC locked, read a zero-filled request and fill a
 * zeroed response scratch; they return an EC_RES_* status.
 */
#include <string.h>

#include "ec_internal.h"

/** ec_cmd_hello() - HELLO: answer in_data + 0x01020304. */
static int ec_cmd_hello(struct ec_cmd_args *args)
{
	const struct ec_params_hello *p = (const void *)args->req;
	struct ec_response_hello *r = (void *)args->resp;

	r->out_data = p->in_data + EC_HELLO_MAGIC;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_version() - GET_VERSION v0 (100 bytes) and v1 (132 bytes). */
static int ec_cmd_get_version(struct ec_cmd_args *args)
{
	const struct ec_profile *prof = &args->ec->prof;

	if (args->version == 0) {
		struct ec_response_get_version *r = (void *)args->resp;

		ec_copy_str(r->version_string_ro, sizeof(r->version_string_ro), prof->version_ro);
		ec_copy_str(r->version_string_rw, sizeof(r->version_string_rw), prof->version_rw);
		r->current_image = prof->current_image;
		args->resp_size = sizeof(*r);
	} else {
		struct ec_response_get_version_v1 *r = (void *)args->resp;

		ec_copy_str(r->version_string_ro, sizeof(r->version_string_ro), prof->version_ro);
		ec_copy_str(r->version_string_rw, sizeof(r->version_string_rw), prof->version_rw);
		ec_copy_str(r->cros_fwid_ro, sizeof(r->cros_fwid_ro), prof->fwid_ro);
		ec_copy_str(r->cros_fwid_rw, sizeof(r->cros_fwid_rw), prof->fwid_rw);
		r->current_image = prof->current_image;
		args->resp_size = sizeof(*r);
	}
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_get_build_info() - GET_BUILD_INFO: a NUL-terminated string, cut to
 * what the host can take (a string answer has no fixed size to reject).
 */
static int ec_cmd_get_build_info(struct ec_cmd_args *args)
{
	size_t len = strlen(args->ec->prof.build_info) + 1;

	if (!args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	if (len > args->resp_max)
		len = args->resp_max;
	ec_copy_str((char *)args->resp, len, args->ec->prof.build_info);
	args->resp_size = len;
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_chip_info() - GET_CHIP_INFO: vendor, name, revision (96 bytes). */
static int ec_cmd_get_chip_info(struct ec_cmd_args *args)
{
	const struct ec_profile *prof = &args->ec->prof;
	struct ec_response_get_chip_info *r = (void *)args->resp;

	ec_copy_str(r->vendor, sizeof(r->vendor), prof->chip_vendor);
	ec_copy_str(r->name, sizeof(r->name), prof->chip_name);
	ec_copy_str(r->revision, sizeof(r->revision), prof->chip_revision);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_board_version() - GET_BOARD_VERSION: a u16. */
static int ec_cmd_get_board_version(struct ec_cmd_args *args)
{
	struct ec_response_board_version *r = (void *)args->resp;

	r->board_version = args->ec->prof.board_version;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_read_memmap() - READ_MEMMAP: the same bytes READMEM would return,
 * for ECs without direct access; a range past the map is INVALID_PARAM.
 */
static int ec_cmd_read_memmap(struct ec_cmd_args *args)
{
	const struct ec_params_read_memmap *p = (const void *)args->req;

	if ((unsigned int)p->offset + p->size > EC_MEMMAP_SIZE)
		return EC_RES_INVALID_PARAM;
	memcpy(args->resp, &args->ec->memmap[p->offset], p->size);
	args->resp_size = p->size;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_get_cmd_versions() - GET_CMD_VERSIONS v0 (u8 command) and v1 (u16
 * command): the version mask straight from the command table. A command the
 * board lacks answers INVALID_PARAM, as a real EC does; clients read that as
 * "not supported".
 */
static int ec_cmd_get_cmd_versions(struct ec_cmd_args *args)
{
	struct ec_response_get_cmd_versions *r = (void *)args->resp;
	uint32_t cmd, mask;

	if (args->version == 0) {
		cmd = ((const struct ec_params_get_cmd_versions *)args->req)->cmd;
	} else {
		cmd = ((const struct ec_params_get_cmd_versions_v1 *)args->req)->cmd;
	}
	mask = ec_cmd_versions(args->ec, cmd);
	if (!mask)
		return EC_RES_INVALID_PARAM;
	r->version_mask = mask;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_get_comms_status() - GET_COMMS_STATUS: never "processing", since
 * every command finishes before the dispatcher returns.
 */
static int ec_cmd_get_comms_status(struct ec_cmd_args *args)
{
	struct ec_response_get_comms_status *r = (void *)args->resp;

	r->flags = 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_protocol_info() - GET_PROTOCOL_INFO: exactly 12 bytes. */
static int ec_cmd_get_protocol_info(struct ec_cmd_args *args)
{
	struct ec_response_get_protocol_info *r = (void *)args->resp;

	r->protocol_versions = 1u << 3;
	r->max_request_packet_size = args->ec->prof.max_request_packet;
	r->max_response_packet_size = args->ec->prof.max_response_packet;
	r->flags = EC_PROTOCOL_INFO_IN_PROGRESS_SUPPORTED;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_get_features() - GET_FEATURES: the profile's 64 feature bits. */
static int ec_cmd_get_features(struct ec_cmd_args *args)
{
	struct ec_response_get_features *r = (void *)args->resp;

	r->flags[0] = args->ec->prof.features[0];
	r->flags[1] = args->ec->prof.features[1];
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_sysinfo() - SYSINFO: reset flags, running image, lock and jump flags. */
static int ec_cmd_sysinfo(struct ec_cmd_args *args)
{
	struct ec_response_sysinfo *r = (void *)args->resp;
	struct ec *ec = args->ec;

	r->reset_flags = ec->sys.reset_flags;
	r->current_image = ec->prof.current_image;
	r->flags = ec_system_locked(ec) ? SYSTEM_IS_LOCKED :
		   ec->sys.jump_disabled ? 0 : SYSTEM_JUMP_ENABLED;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** ec_cmd_rtc_get_value() - RTC_GET_VALUE: wall time at boot plus uptime. */
static int ec_cmd_rtc_get_value(struct ec_cmd_args *args)
{
	struct ec_response_rtc *r = (void *)args->resp;

	r->time = args->ec->rtc_at_boot + (uint32_t)(ec_uptime_ms(args->ec) / 1000);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_get_uptime_info() - GET_UPTIME_INFO: 44 bytes; uptime since the
 * last EC reset and why it reset; the AP resets since then (AP_RESET) and
 * the last four, read from the ring's oldest slot on as the firmware does
 * (unused slots, all zero, come first).
 */
static int ec_cmd_get_uptime_info(struct ec_cmd_args *args)
{
	struct ec_response_uptime_info *r = (void *)args->resp;
	const struct ec_chipset_state *c = &args->ec->chipset;
	unsigned int i;

	r->time_since_ec_boot_ms = (uint32_t)ec_uptime_ms(args->ec);
	r->ap_resets_since_ec_boot = c->ap_resets;
	r->ec_reset_flags = args->ec->sys.reset_flags;
	for (i = 0; i < EC_AP_RESET_LOG_LEN; i++) {
		unsigned int slot = (c->ap_resets + i) % EC_AP_RESET_LOG_LEN;

		r->recent_ap_reset[i].reset_cause = c->ap_reset_cause[slot];
		r->recent_ap_reset[i].reset_time_ms = c->ap_reset_ms[slot];
	}
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_resend_response() - RESEND_RESPONSE: hand out the answer an
 * injected IN_PROGRESS held back, once; UNAVAILABLE when there is none.
 * @args: the command
 *
 * Return: the held-back EC status.
 */
static int ec_cmd_resend_response(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;

	if (!ec->saved_valid)
		return EC_RES_UNAVAILABLE;
	/* Too little room: keep the answer for a retry with a bigger buffer. */
	if (ec->saved_len > args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	ec->saved_valid = false;
	memcpy(args->resp, ec->saved_resp, ec->saved_len);
	args->resp_size = ec->saved_len;
	return (int)ec->saved_status;
}

/**
 * ec_cmd_test_protocol() - TEST_PROTOCOL: answer with the status the host
 * names and the first ret_len bytes (at most 32) of what it sent, as every
 * firmware does. A status the host protocol gives a meaning of its own
 * (IN_PROGRESS: the host would poll for a result that never comes) or no
 * status at all (past BUSY) is INVALID_PARAM, as is a request shorter than
 * the 40-byte parameters: a choice, the firmware answers whatever it is told.
 */
static int ec_cmd_test_protocol(struct ec_cmd_args *args)
{
	const struct ec_params_test_protocol *p = (const void *)args->req;
	struct ec_response_test_protocol *r = (void *)args->resp;
	size_t len;

	if (args->req_len < sizeof(*p) || p->ec_result == EC_RES_IN_PROGRESS ||
	    p->ec_result > EC_RES_BUSY)
		return EC_RES_INVALID_PARAM;
	len = p->ret_len < sizeof(r->buf) ? p->ret_len : sizeof(r->buf);
	memcpy(r->buf, p->buf, len);
	args->resp_size = len;
	return (int)p->ec_result;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_system_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_HELLO, EC_VER_MASK(0), ec_cmd_hello),
	EC_HOST_COMMAND(EC_CMD_GET_VERSION, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_get_version),
	EC_HOST_COMMAND(EC_CMD_GET_BUILD_INFO, EC_VER_MASK(0), ec_cmd_get_build_info),
	EC_HOST_COMMAND(EC_CMD_GET_CHIP_INFO, EC_VER_MASK(0), ec_cmd_get_chip_info),
	EC_HOST_COMMAND(EC_CMD_GET_BOARD_VERSION, EC_VER_MASK(0), ec_cmd_get_board_version),
	EC_HOST_COMMAND(EC_CMD_READ_MEMMAP, EC_VER_MASK(0), ec_cmd_read_memmap),
	EC_HOST_COMMAND(EC_CMD_GET_CMD_VERSIONS, EC_VER_MASK(0) | EC_VER_MASK(1),
			ec_cmd_get_cmd_versions),
	EC_HOST_COMMAND(EC_CMD_GET_COMMS_STATUS, EC_VER_MASK(0), ec_cmd_get_comms_status),
	EC_HOST_COMMAND(EC_CMD_TEST_PROTOCOL, EC_VER_MASK(0), ec_cmd_test_protocol),
	EC_HOST_COMMAND(EC_CMD_GET_PROTOCOL_INFO, EC_VER_MASK(0), ec_cmd_get_protocol_info),
	EC_HOST_COMMAND(EC_CMD_GET_FEATURES, EC_VER_MASK(0), ec_cmd_get_features),
	EC_HOST_COMMAND(EC_CMD_SYSINFO, EC_VER_MASK(0), ec_cmd_sysinfo),
	EC_HOST_COMMAND(EC_CMD_RTC_GET_VALUE, EC_VER_MASK(0), ec_cmd_rtc_get_value),
	EC_HOST_COMMAND(EC_CMD_RESEND_RESPONSE, EC_VER_MASK(0), ec_cmd_resend_response),
	EC_HOST_COMMAND(EC_CMD_GET_UPTIME_INFO, EC_VER_MASK(0), ec_cmd_get_uptime_info),
};

const struct ec_subsystem ec_subsys_system = {
	.name = "system",
	EC_SUBSYSTEM_CMDS(ec_system_cmds),
	.kinds = EC_KINDS_CORE,
};
