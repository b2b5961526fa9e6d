// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_recording_umockdev.c - umockdev's ".ioctl" recording format for
 * cros_ec, both ways, so a session recorded here replays under umockdev
 * and one umockdev recorded (from a real /dev/cros_fp, say) replays here.
 *
 * The facts of the format, as umockdev (0.18.4 and later) writes it:
 *  - lines starting with '@' are metadata ("@DEV /dev/cros_fp"), '#'
 *    lines and empty lines are skipped;
 *  - a record is "NAME RET HEX": the ioctl's name, its return value as a
 *    decimal integer (-1 on failure; errno is not kept), and the ioctl's
 *    buffer as it stood after the call, two upper-case hex digits a byte;
 *  - for CROS_EC_DEV_IOCXCMD_V2 the buffer is struct cros_ec_command_v2
 *    (version, command, outsize, insize, result: five little-endian
 *    32-bit words) and then exactly insize bytes of data, the answer
 *    where the request was: the request's bytes are not kept;
 *  - umockdev never finds two cros_ec records equal, so each call is its
 *    own top-level line, in order, never indented (nested).
 * Events, unplug and plug, READMEM and time have no line in it: the writer
 * leaves them out and says how many (ec_recording_write()).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"

#define UMOCKDEV_XCMD		"CROS_EC_DEV_IOCXCMD_V2"
#define UMOCKDEV_XCMD_HEADER	20	/* struct cros_ec_command_v2 */

bool ec_umockdev_first_line(const char *line)
{
	return line[0] == '@' || line[0] == '#' || !strncmp(line, "CROS_EC_DEV_", 12);
}

static uint32_t ec_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ec_umockdev_parse_line(char *line, unsigned int lineno, struct ec_recording *rec,
			   uint8_t *buf, char *err, size_t errlen)
{
	char *name, *ret_text, *hex, *save = NULL;
	struct ec_rec r = { .kind = EC_REC_XCMD };
	size_t n;
	int ret;

	if (!line[0] || line[0] == '#')
		return 0;
	if (line[0] == '@') {
		/* Only the device is kept; umockdev itself skips all of them. */
		if (strncmp(line, "@DEV ", 5))
			return 0;
		if (ec_recording_device(rec)) {
			ec_rec_err(err, errlen, lineno, "a second @DEV line");
			return -EINVAL;
		}
		ret = ec_recording_set_device(rec, line + 5);
		if (ret == -EINVAL)
			ec_rec_err(err, errlen, lineno, "@DEV: not an absolute path without blanks");
		return ret;
	}
	if (line[0] == ' ') {
		ec_rec_err(err, errlen, lineno, "an indented (nested) record: cros_ec records never nest");
		return -EINVAL;
	}
	name = strtok_r(line, " ", &save);
	ret_text = strtok_r(NULL, " ", &save);
	hex = strtok_r(NULL, " ", &save);
	if (!name || !ret_text || !hex || strtok_r(NULL, " ", &save)) {
		ec_rec_err(err, errlen, lineno, "expected 'NAME RET HEX'");
		return -EINVAL;
	}
	if (strcmp(name, UMOCKDEV_XCMD)) {
		ec_rec_err(err, errlen, lineno, "ioctl '%.40s': a cros_ec file holds %s only",
			   name, UMOCKDEV_XCMD);
		return -EINVAL;
	}
	/* umockdev writes -1 for any failure: the errno is lost, EIO stands in. */
	if (!strcmp(ret_text, "-1")) {
		r.ret = -EIO;
	} else if (ret_text[0] == '-') {
		ec_rec_err(err, errlen, lineno, "return value '%.40s': a failure is -1", ret_text);
		return -EINVAL;
	} else if (ec_rec_parse_ret(ret_text, &r.ret, lineno, err, errlen)) {
		return -EINVAL;
	}
	ret = ec_rec_hex_decode(hex, strlen(hex), buf, UMOCKDEV_XCMD_HEADER + EC_REC_DATA_MAX, &n);
	if (ret) {
		ec_rec_err(err, errlen, lineno, ret == -EMSGSIZE ? "data longer than %d bytes" :
			   "data is not an even count of hex digits%.0d", EC_REC_DATA_MAX);
		return -EINVAL;
	}
	if (n < UMOCKDEV_XCMD_HEADER) {
		ec_rec_err(err, errlen, lineno, "%zu bytes: shorter than the %d-byte command header",
			   n, UMOCKDEV_XCMD_HEADER);
		return -EINVAL;
	}
	r.version = ec_le32(buf);
	r.command = ec_le32(buf + 4);
	r.out_size = ec_le32(buf + 8);
	r.in_size = ec_le32(buf + 12);
	r.result = ec_le32(buf + 16);
	/* umockdev's own reader checks the same: header plus insize, exactly. */
	if (r.in_size != n - UMOCKDEV_XCMD_HEADER) {
		ec_rec_err(err, errlen, lineno, "insize %" PRIu32 " but %zu data bytes",
			   r.in_size, n - UMOCKDEV_XCMD_HEADER);
		return -EINVAL;
	}
	if (r.out_size > EC_REC_DATA_MAX || r.command > 0xFFFF || r.version > 31) {
		ec_rec_err(err, errlen, lineno, "command 0x%" PRIx32 " version %" PRIu32
			   " outsize %" PRIu32 ": out of range", r.command, r.version, r.out_size);
		return -EINVAL;
	}
	if (r.ret > 0 && (uint32_t)r.ret > r.in_size) {
		ec_rec_err(err, errlen, lineno, "return value %" PRId32 " above insize %" PRIu32,
			   r.ret, r.in_size);
		return -EINVAL;
	}
	r.data = buf + UMOCKDEV_XCMD_HEADER;
	r.data_len = r.in_size;
	return ec_recording_add(rec, &r);
}

int ec_umockdev_write(const struct ec_rec *r, FILE *out)
{
	uint8_t header[UMOCKDEV_XCMD_HEADER];
	static const uint8_t zeros[64];
	uint32_t left;

	if (r->kind != EC_REC_XCMD)
		return 0;
	ec_put_le32(header, r->version);
	ec_put_le32(header + 4, r->command);
	ec_put_le32(header + 8, r->out_size);
	ec_put_le32(header + 12, r->in_size);
	ec_put_le32(header + 16, r->result);
	if (fprintf(out, "%s %d ", UMOCKDEV_XCMD, r->ret < 0 ? -1 : (int)r->ret) < 0 ||
	    ec_rec_hex_write(out, header, sizeof(header), true) ||
	    ec_rec_hex_write(out, r->data, r->data_len < r->in_size ? r->data_len : r->in_size,
			     true))
		return -EIO;
	/* The rest of the buffer: what a native record did not keep reads 0. */
	for (left = r->data_len < r->in_size ? r->in_size - r->data_len : 0; left;) {
		uint32_t n = left < sizeof(zeros) ? left : (uint32_t)sizeof(zeros);

		if (ec_rec_hex_write(out, zeros, n, true))
			return -EIO;
		left -= n;
	}
	return putc('\n', out) == EOF ? -EIO : 1;
}
