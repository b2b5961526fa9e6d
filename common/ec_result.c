// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_result.c - the EC_RES_* status codes by name, both ways: what clients
 * print and what a user types (a fault's "result=BUSY").  common/ is libc
 * only, so the table is indexed by the codes' values (the host-command
 * ABI's, include/cros_ec/ec_commands.h); tests/client/test_client.c checks
 * each name against the header's EC_RES_ constant.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/common.h"

static const char *const ec_result_names[] = {
	[0] = "SUCCESS",
	[1] = "INVALID_COMMAND",
	[2] = "ERROR",
	[3] = "INVALID_PARAM",
	[4] = "ACCESS_DENIED",
	[5] = "INVALID_RESPONSE",
	[6] = "INVALID_VERSION",
	[7] = "INVALID_CHECKSUM",
	[8] = "IN_PROGRESS",
	[9] = "UNAVAILABLE",
	[10] = "TIMEOUT",
	[11] = "OVERFLOW",
	[12] = "INVALID_HEADER",
	[13] = "REQUEST_TRUNCATED",
	[14] = "RESPONSE_TOO_BIG",
	[15] = "BUS_ERROR",
	[16] = "BUSY",
};

#define EC_RESULT_NAMES (sizeof(ec_result_names) / sizeof(ec_result_names[0]))

const char *ec_result_name(uint32_t result)
{
	if (result >= EC_RESULT_NAMES || !ec_result_names[result])
		return "UNKNOWN";
	return ec_result_names[result];
}

int ec_result_parse(const char *text, uint32_t *out, char *err, size_t errlen)
{
	uint64_t code;
	size_t i;

	for (i = 0; i < EC_RESULT_NAMES; i++) {
		if (ec_result_names[i] && !strcasecmp(text, ec_result_names[i])) {
			*out = (uint32_t)i;
			return 0;
		}
	}
	/* A number too: firmware has codes beyond the ABI's names. */
	if (!parse_uint(text, "EC result", 0, 255, &code, NULL, 0)) {
		*out = (uint32_t)code;
		return 0;
	}
	snprintf(err, errlen, "unknown EC result '%.32s' (a name such as BUSY, or 0..255)",
		 text);
	return -EINVAL;
}
