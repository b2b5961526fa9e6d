// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lab_ctl.c - what the lab's clients share: commands on the device, the
 * daemon's control socket (one line a request), its counters and its
 * numbered trace (see lab_ctl.h).
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "lab_ctl.h"

/* errno as its name: the doc and the script match on "ENODEV", not text. */
const char *lab_errname(long ret)
{
	switch (-ret) {
	case 0: return "ok";
	case ENODEV: return "ENODEV";
	case ENOTCONN: return "ENOTCONN";
	case ECONNABORTED: return "ECONNABORTED";
	case EBADMSG: return "wrong-answer";
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return "other-error";
	}
}

/*
 * One XCMD: @out_len bytes of @out sent, exactly @in_len answered into @in
 * with EC_RES_SUCCESS; 0, or -errno from the device, or -EBADMSG.
 */
long lab_xcmd(int fd, uint32_t command, const void *out, uint32_t out_len, void *in,
		     uint32_t in_len)
{
	unsigned char buf[sizeof(struct cros_ec_command_v2) + 64] = { 0 };
	struct cros_ec_command_v2 *cmd = (void *)buf;
	long ret;

	if (out_len > 64 || in_len > 64)
		return -EINVAL;
	cmd->command = command;
	cmd->outsize = out_len;
	cmd->insize = in_len;
	memcpy(cmd->data, out, out_len);
	ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
	if (ret < 0)
		return -errno;
	if (ret != in_len || cmd->result != EC_RES_SUCCESS)
		return -EBADMSG;
	memcpy(in, cmd->data, in_len);
	return 0;
}

/* XCMD HELLO: 0 when the EC answered correctly, else -errno or -EBADMSG. */
long lab_hello(int fd)
{
	uint32_t in = 0x01020304, out;
	long ret = lab_xcmd(fd, EC_CMD_HELLO, &in, sizeof(in), &out, sizeof(out));

	if (ret)
		return ret;
	return out == in + EC_HELLO_MAGIC ? 0 : -EBADMSG;
}

/* See lab_ctl.h. */
FILE *lab_control_open(const char *sock, const char *line, char *reply, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	FILE *f;
	int fd;

	snprintf(reply, len, "cannot reach %s", sock);
	if (strlen(sock) >= sizeof(addr.sun_path))
		return NULL;
	strcpy(addr.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) || dprintf(fd, "%s\n", line) < 0) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return NULL;
	}
	if (!fgets(reply, (int)len, f)) {
		snprintf(reply, len, "no reply to '%s'", line);
		fclose(f);
		return NULL;
	}
	reply[strcspn(reply, "\n")] = '\0';
	return f;
}

/* One control command with a one-line reply: 0 on "ok ...", else -EIO. */
int lab_control(const char *sock, const char *line, char *reply, size_t len)
{
	FILE *f = lab_control_open(sock, line, reply, len);

	if (!f)
		return -EIO;
	fclose(f);
	return strncmp(reply, "ok", 2) ? -EIO : 0;
}

/* The daemon's counters now. */
int lab_stats(const char *sock, struct chardev_stats *st)
{
	char reply[CHARDEV_STATS_TEXT_MAX + 8];

	if (lab_control(sock, "stats", reply, sizeof(reply)))
		return -EIO;
	return chardev_stats_parse(reply, st) < 0 ? -EPROTO : 0;
}

/* Poll the counter at @offset until it is >= @bound (or <= it, @at_most). */
static bool lab_wait_stat_cmp(const char *sock, const char *name, uint64_t bound,
			      size_t offset, bool at_most)
{
	struct chardev_stats st;
	uint64_t value = 0;
	int waited;

	for (waited = 0; waited < LAB_CONDITION_WAIT_MS; waited += 2) {
		if (!lab_stats(sock, &st)) {
			memcpy(&value, (const char *)&st + offset, sizeof(value));
			if (at_most ? value <= bound : value >= bound)
				return true;
		}
		usleep(2000);
	}
	fprintf(stderr, "uaf_lab_client: the daemon did not report %s %s %llu within %d ms "
		"(last: %llu)\n", name, at_most ? "<=" : ">=", (unsigned long long)bound,
		LAB_CONDITION_WAIT_MS, (unsigned long long)value);
	return false;
}

bool lab_wait_stat(const char *sock, const char *name, uint64_t min, size_t offset)
{
	return lab_wait_stat_cmp(sock, name, min, offset, false);
}

bool lab_wait_stat_le(const char *sock, const char *name, uint64_t max, size_t offset)
{
	return lab_wait_stat_cmp(sock, name, max, offset, true);
}

/* Read the whole trace; 0, or -errno with a message. */
int lab_read_trace(const char *sock, struct lab_trace *tr)
{
	char reply[256], line[CHARDEV_TRACE_LINE_MAX + 2];
	unsigned long long events, i;
	int ret = -EPROTO;
	FILE *f;

	tr->n = 0;
	f = lab_control_open(sock, "trace", reply, sizeof(reply));
	if (!f)
		return -EIO;
	if (sscanf(reply, "ok trace events=%llu", &events) != 1 || events > LAB_TRACE_MAX) {
		fprintf(stderr, "uaf_lab_client: 'trace' -> '%s'\n", reply);
		goto out;
	}
	for (i = 0; i < events; i++) {
		if (!fgets(line, sizeof(line), f)) {
			fprintf(stderr, "uaf_lab_client: trace cut after %llu of %llu events\n",
				i, events);
			goto out;
		}
		line[strcspn(line, "\n")] = '\0';
		if (chardev_trace_parse(line, &tr->e[tr->n])) {
			fprintf(stderr, "uaf_lab_client: not a trace event: '%s'\n", line);
			goto out;
		}
		snprintf(tr->raw[tr->n], sizeof(tr->raw[0]), "%s", line);
		tr->n++;
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

/* Index of the last @ev (for @file unless 0) before @before, or -1. */
long lab_trace_last(const struct lab_trace *tr, enum chardev_trace_event ev,
			   uint64_t file, uint64_t before)
{
	long i;

	for (i = (long)tr->n - 1; i >= 0; i--) {
		if (tr->e[i].event == ev && tr->e[i].seq < before &&
		    (!file || tr->e[i].file == file))
			return i;
	}
	return -1;
}

/* Index of the first @ev (for @file unless 0) after @after, or -1. */
long lab_trace_first(const struct lab_trace *tr, enum chardev_trace_event ev,
			    uint64_t file, uint64_t after)
{
	size_t i;

	for (i = 0; i < tr->n; i++) {
		if (tr->e[i].event == ev && tr->e[i].seq > after &&
		    (!file || tr->e[i].file == file))
			return (long)i;
	}
	return -1;
}

/* The access-end of the access whose access-begin is @begin, or -1. */
long lab_trace_end_of(const struct lab_trace *tr, uint64_t begin)
{
	size_t i;

	for (i = 0; i < tr->n; i++) {
		if (tr->e[i].event == CHARDEV_TRACE_ACCESS_END && tr->e[i].a == (int64_t)begin)
			return (long)i;
	}
	return -1;
}

void lab_evidence(const struct lab_trace *tr, long i)
{
	if (i >= 0)
		printf("evidence: %s\n", tr->raw[i]);
}
