// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctl_send.c - `cuse_ec --send`: lines to the control socket, replies
 * printed, through the one control-socket client (ctl.h).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"

/*
 * Print one line the socket sent: whatever listens at the path may not be
 * the daemon, so nothing it sends reaches the terminal unescaped.
 */
static void print_reply(FILE *out, const char *line)
{
	char safe[4 * CTL_REPLY_MAX + 1];

	fprintf(out, "%s\n", ctl_text_safe(line, safe, sizeof(safe)));
}

/* Copy @count more reply lines to @out (a trace's events). */
static int copy_lines(struct ctl_conn *conn, unsigned long long count, int timeout_ms,
		      FILE *out)
{
	char line[CTL_REPLY_MAX];
	int ret;

	while (count--) {
		ret = ctl_read_line(conn, line, sizeof(line), timeout_ms);
		if (ret)
			return ret;
		print_reply(out, line);
	}
	return 0;
}

int ctl_send_lines(const char *path, const char *const *lines, size_t n_lines,
			int timeout_ms, FILE *out, FILE *err)
{
	char reply[CTL_REPLY_MAX];
	struct ctl_conn *conn;
	bool all_ok = true;
	size_t len, i;
	int ret;

	/* The connection carries a reply-sized buffer: off the stack. */
	conn = malloc(sizeof(*conn));
	if (!conn)
		return -ENOMEM;
	ret = ctl_open(conn, path);
	if (ret) {
		fprintf(err, "cuse_ec: cannot connect to %s: %s\n", path ? path : "(null)",
			strerror(-ret));
		goto out_free;
	}
	for (i = 0; i < n_lines; i++) {
		len = strlen(lines[i]);
		if (!len || len > CTL_LINE_MAX || strpbrk(lines[i], "\r\n")) {
			fprintf(err, "cuse_ec: not a control line: '%.40s'\n", lines[i]);
			ret = -EINVAL;
			goto out_close;
		}
		ret = ctl_request(conn, lines[i], reply, sizeof(reply), timeout_ms);
		if (ret) {
			fprintf(err, "cuse_ec: '%s' on %s: %s\n", lines[i], path,
				ret == -ECONNRESET ? "connection closed before the reply" :
				ret == -EPROTO ? "reply line too long" : strerror(-ret));
			goto out_close;
		}
		print_reply(out, reply);
		if (!ctl_reply_is_ok(reply))
			all_ok = false;
		/* A trace: its header says how many event lines follow. */
		if (!strncmp(reply, CTL_TRACE_HEADER, strlen(CTL_TRACE_HEADER))) {
			ret = copy_lines(conn, strtoull(reply + strlen(CTL_TRACE_HEADER),
							NULL, 10), timeout_ms, out);
			if (ret) {
				fprintf(err, "cuse_ec: '%s' on %s: trace cut short: %s\n",
					lines[i], path, strerror(-ret));
				goto out_close;
			}
		}
	}
	fflush(out);
	ret = all_ok ? 0 : 1;
out_close:
	ctl_close(conn);
out_free:
	free(conn);
	return ret;
}
