// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control_client.c - a line-at-a-time client for the control socket.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "control_client.h"

/* Replies are one line; the server caps them well below this. */
#define CONTROL_CLIENT_REPLY_MAX 4096

static long long control_client_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int control_client_connect(const char *path, int *out)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, ret;

	if (!path || !path[0] || strlen(path) >= sizeof(addr.sun_path))
		return -EINVAL;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*out = fd;
	return 0;
}

static int control_client_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		/* MSG_NOSIGNAL: a daemon that went away is an error, not a SIGPIPE. */
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read one reply line into @line (newline stripped). Bytes after the
 * newline stay in @buf/@used for the next call, though the server sends
 * one line per request, so normally there are none.
 */
static int control_client_read_line(int fd, char *buf, size_t *used, char *line,
				    size_t room, int timeout_ms)
{
	long long deadline = control_client_now_ms() + timeout_ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char *nl;
	size_t len;
	ssize_t n;
	int left, ret;

	for (;;) {
		nl = memchr(buf, '\n', *used);
		if (nl) {
			len = (size_t)(nl - buf);
			if (len >= room)
				len = room - 1;
			memcpy(line, buf, len);
			line[len] = '\0';
			len = (size_t)(nl - buf) + 1;
			memmove(buf, buf + len, *used - len);
			*used -= len;
			return 0;
		}
		if (*used >= CONTROL_CLIENT_REPLY_MAX - 1)
			return -EPROTO;	/* a "line" longer than any reply can be */
		left = (int)(deadline - control_client_now_ms());
		if (left <= 0)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1, left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (!ret)
			return -ETIMEDOUT;
		n = recv(fd, buf + *used, CONTROL_CLIENT_REPLY_MAX - 1 - *used, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ECONNRESET;
		*used += (size_t)n;
	}
}

/* Copy @count more reply lines to @out (a trace's events). */
static int control_client_copy_lines(int fd, char *buf, size_t *used,
				     unsigned long long count, int timeout_ms, FILE *out)
{
	char line[CONTROL_CLIENT_REPLY_MAX];
	int ret;

	while (count--) {
		ret = control_client_read_line(fd, buf, used, line, sizeof(line), timeout_ms);
		if (ret)
			return ret;
		fprintf(out, "%s\n", line);
	}
	return 0;
}

/**
 * control_client_send() - send lines, print replies (see control_client.h).
 * @path:       control socket
 * @lines:      command lines
 * @n_lines:    their count
 * @timeout_ms: per-reply limit
 * @out:        replies
 * @err:        problems
 *
 * Return: 0 all "ok", 1 some reply was not "ok", or -errno.
 */
int control_client_send(const char *path, const char *const *lines, size_t n_lines,
			int timeout_ms, FILE *out, FILE *err)
{
	char buf[CONTROL_CLIENT_REPLY_MAX], reply[CONTROL_CLIENT_REPLY_MAX];
	char request[CONTROL_LINE_MAX + 1];
	size_t used = 0, len, i;
	bool all_ok = true;
	int fd = -1, ret;

	ret = control_client_connect(path, &fd);
	if (ret) {
		fprintf(err, "cuse_ec: cannot connect to %s: %s\n", path ? path : "(null)",
			strerror(-ret));
		return ret;
	}
	for (i = 0; i < n_lines; i++) {
		len = strlen(lines[i]);
		if (!len || len > CONTROL_LINE_MAX || strpbrk(lines[i], "\r\n")) {
			fprintf(err, "cuse_ec: not a control line: '%.40s'\n", lines[i]);
			ret = -EINVAL;
			goto out_close;
		}
		/* One write per line: a server that answers and closes must
		 * not see half a line, nor make our second write fail. */
		memcpy(request, lines[i], len);
		request[len++] = '\n';
		ret = control_client_write_all(fd, request, len);
		if (!ret)
			ret = control_client_read_line(fd, buf, &used, reply, sizeof(reply),
						       timeout_ms);
		if (ret) {
			fprintf(err, "cuse_ec: '%s' on %s: %s\n", lines[i], path,
				ret == -ECONNRESET ? "connection closed before the reply" :
				ret == -EPROTO ? "reply line too long" : strerror(-ret));
			goto out_close;
		}
		fprintf(out, "%s\n", reply);
		if (strncmp(reply, "ok", 2) || (reply[2] && reply[2] != ' '))
			all_ok = false;
		/* A trace: its header says how many event lines follow. */
		if (!strncmp(reply, CONTROL_TRACE_HEADER, strlen(CONTROL_TRACE_HEADER))) {
			ret = control_client_copy_lines(fd, buf, &used,
							strtoull(reply + strlen(CONTROL_TRACE_HEADER),
								 NULL, 10),
							timeout_ms, out);
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
	close(fd);
	return ret;
}
