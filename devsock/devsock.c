// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devsock.c - framing of the device socket's messages (devsock.h).
 *
 * Both ends may have O_NONBLOCK on the socket (a client's fcntl() reaches
 * the socket itself, so that it survives dup() and exec()): a message is
 * still sent and received whole, waiting in poll() where the socket is
 * not ready.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "devsock.h"

static const char *const devsock_type_names[DEVSOCK_TYPE_COUNT] = {
	[DEVSOCK_OPENED] = "opened",
	[DEVSOCK_READ] = "read",
	[DEVSOCK_IOCTL] = "ioctl",
	[DEVSOCK_POLL] = "poll",
	[DEVSOCK_CANCEL] = "cancel",
	[DEVSOCK_REPLY] = "reply",
	[DEVSOCK_RETRY] = "retry",
	[DEVSOCK_NOTIFY] = "notify",
};

const char *devsock_type_name(unsigned int type)
{
	if (type >= DEVSOCK_TYPE_COUNT || !devsock_type_names[type])
		return "unknown";
	return devsock_type_names[type];
}

/*
 * Wait until @fd is ready for @events; EINTR is the caller's to judge.
 * The system call itself, not libc's poll(): inside the preload library
 * poll() is the library's own, which would ask the daemon about @fd.
 */
static int devsock_wait(int fd, short events)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return syscall(SYS_ppoll, &pfd, 1, NULL, NULL, 0) < 0 ? -errno : 0;
}

int devsock_send(int fd, const struct devsock_hdr *hdr, const void *data, size_t len)
{
	struct iovec iov[2] = {
		{ .iov_base = (void *)hdr, .iov_len = sizeof(*hdr) },
		{ .iov_base = (void *)data, .iov_len = len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };
	ssize_t n;
	int ret;

	if (len > DEVSOCK_DATA_MAX || hdr->len != len || (len && !data))
		return -EINVAL;
	while (msg.msg_iovlen) {
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -errno;
			ret = devsock_wait(fd, POLLOUT);
			if (ret && ret != -EINTR)
				return ret;
			continue;
		}
		/* Drop what went out; a message is never left half sent. */
		while (msg.msg_iovlen && (size_t)n >= msg.msg_iov->iov_len) {
			n -= (ssize_t)msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + n;
			msg.msg_iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

/*
 * Read exactly @len bytes. @started: some of the message arrived already,
 * so a signal cannot end the wait (the stream would lose its framing).
 * Return: 1, 0 at end of stream before any byte, -EPROTO at end of stream
 * within, -EINTR (only when !@started and !@nointr) or -errno.
 */
static int devsock_read_full(int fd, void *buf, size_t len, bool started, bool nointr)
{
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < len) {
		n = recv(fd, (char *)buf + got, len - got, 0);
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (!n)
			return started || got ? -EPROTO : 0;
		if (errno == EAGAIN) {
			ret = devsock_wait(fd, POLLIN);
			if (!ret)
				continue;
			errno = -ret;
		}
		if (errno != EINTR)
			return -errno;
		if (!started && !got && !nointr)
			return -EINTR;
	}
	return 1;
}

int devsock_recv(int fd, struct devsock_hdr *hdr, void *data, size_t size, int nointr)
{
	int ret;

	ret = devsock_read_full(fd, hdr, sizeof(*hdr), false, nointr);
	if (ret <= 0)
		return ret;
	if (!hdr->type || hdr->type >= DEVSOCK_TYPE_COUNT || hdr->len > DEVSOCK_DATA_MAX ||
	    hdr->len > size)
		return -EPROTO;
	if (!hdr->len)
		return 1;
	return devsock_read_full(fd, data, hdr->len, true, true);
}
