// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctl_client.c - the one client of the daemon's control socket (ctl.h):
 * `cuse_ec --send`, hotplug_sim, the lab, the soak and the tests speak
 * through it.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/common.h"
#include "ctl/ctl.h"

int ctl_open(struct ctl_conn *conn, const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int ret;

	conn->fd = -1;
	conn->used = 0;
	if (!path || !path[0] || strlen(path) >= sizeof(addr.sun_path))
		return -EINVAL;
	strcpy(addr.sun_path, path);
	conn->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (conn->fd < 0)
		return -errno;
	if (connect(conn->fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		ctl_close(conn);
		return ret;
	}
	return 0;
}

int ctl_peer_pid(const struct ctl_conn *conn, pid_t *pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (conn->fd < 0)
		return -EBADF;
	if (getsockopt(conn->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return -errno;
	if (cred.pid <= 0)
		return -ESRCH;
	*pid = cred.pid;
	return 0;
}

void ctl_close(struct ctl_conn *conn)
{
	if (conn->fd >= 0)
		close(conn->fd);
	conn->fd = -1;
	conn->used = 0;
}

const char *ctl_text_safe(const char *in, char *out, size_t room)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)in;
	size_t used = 0, cut = 0, n;
	char one[4];

	if (!room)
		return out;
	for (; *p; p++) {
		if (*p == '\\') {
			memcpy(one, "\\\\", 2);
			n = 2;
		} else if (*p >= 0x20 && *p < 0x7f) {
			one[0] = (char)*p;
			n = 1;
		} else {
			one[0] = '\\';
			one[1] = 'x';
			one[2] = hex[*p >> 4];
			one[3] = hex[*p & 0xf];
			n = 4;
		}
		/* The last place where "..." would still fit, should we cut. */
		if (used + 3 < room)
			cut = used;
		if (used + n >= room) {
			if (cut + 3 < room) {
				memcpy(out + cut, "...", 3);
				used = cut + 3;
			}
			break;
		}
		memcpy(out + used, one, n);
		used += n;
	}
	out[used] = '\0';
	return out;
}

bool ctl_reply_is_ok(const char *reply)
{
	return !strncmp(reply, "ok", 2) && (!reply[2] || reply[2] == ' ');
}

bool ctl_device_name_valid(const char *name)
{
	size_t len = strlen(name), i;

	if (!len || len >= CTL_DEVICE_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

int ctl_error(char *reply, size_t len, int err, const char *fmt, ...)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);
	char errno_part[32];
	size_t used, tail;
	va_list ap;

	if (!len)
		return err;
	snprintf(errno_part, sizeof(errno_part), " " CTL_ERRNO_KEY "%s", name ? name : "EIO");
	tail = strlen(errno_part);
	used = (size_t)snprintf(reply, len, "error ");
	va_start(ap, fmt);
	if (used < len)
		used += (size_t)vsnprintf(reply + used, len - used, fmt, ap);
	va_end(ap);
	/* A reason cut short still ends in its errno: that part is for programs. */
	if (used + tail >= len)
		used = len > tail + 7 ? len - 1 - tail : used;
	if (used + tail < len)
		memcpy(reply + used, errno_part, tail + 1);
	return err;
}

bool ctl_reply_error(const char *reply, size_t *reason_len, const char **errno_name)
{
	const char *key;
	size_t i, len;

	if (strncmp(reply, "error", 5) || (reply[5] && reply[5] != ' '))
		return false;
	len = strlen(reply);
	*errno_name = NULL;
	*reason_len = len > 6 ? len - 6 : 0;
	key = strrchr(reply, ' ');
	if (!key || key < reply + 6 || strncmp(key + 1, CTL_ERRNO_KEY, strlen(CTL_ERRNO_KEY)))
		return true;
	key += 1 + strlen(CTL_ERRNO_KEY);
	if (key[0] != 'E' || !key[1])
		return true;
	for (i = 1; key[i]; i++)
		if (!((key[i] >= 'A' && key[i] <= 'Z') || (key[i] >= '0' && key[i] <= '9')))
			return true;
	*errno_name = key;
	*reason_len = (size_t)(key - strlen(CTL_ERRNO_KEY) - 1 - (reply + 6));
	return true;
}

static int send_all(int fd, const char *buf, size_t len)
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

/* Move the first line of @conn->buf into @reply; false if none has arrived. */
static bool take_line(struct ctl_conn *conn, char *reply, size_t room)
{
	char *nl = memchr(conn->buf, '\n', conn->used);
	size_t len, whole;

	if (!nl)
		return false;
	len = whole = (size_t)(nl - conn->buf);
	if (len >= room)
		len = room - 1;
	memcpy(reply, conn->buf, len);
	reply[len] = '\0';
	whole++;
	memmove(conn->buf, conn->buf + whole, conn->used - whole);
	conn->used -= whole;
	return true;
}

int ctl_read_line(struct ctl_conn *conn, char *reply, size_t room, int timeout_ms)
{
	uint64_t deadline = mono_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct pollfd pfd = { .fd = conn->fd, .events = POLLIN };
	uint64_t now;
	ssize_t n;
	int ret;

	while (!take_line(conn, reply, room)) {
		if (conn->used >= sizeof(conn->buf) - 1)
			return -EPROTO;	/* a "line" longer than any reply can be */
		now = mono_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1, (int)((deadline - now + 999999) / 1000000));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (!ret)
			return -ETIMEDOUT;
		n = recv(conn->fd, conn->buf + conn->used, sizeof(conn->buf) - 1 - conn->used, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ECONNRESET;
		conn->used += (size_t)n;
	}
	return 0;
}

int ctl_request(struct ctl_conn *conn, const char *line, char *reply, size_t room,
		int timeout_ms)
{
	char request[CTL_REPLY_MAX + 1];
	size_t len = line ? strlen(line) : 0;
	int ret;

	if (!room || !reply)
		return -EINVAL;
	reply[0] = '\0';
	if (!len || len >= sizeof(request) - 1 || strpbrk(line, "\r\n"))
		return -EINVAL;
	if (conn->fd < 0)
		return -ENOTCONN;
	memcpy(request, line, len);
	request[len++] = '\n';
	ret = send_all(conn->fd, request, len);
	if (ret)
		return ret;
	return ctl_read_line(conn, reply, room, timeout_ms);
}
