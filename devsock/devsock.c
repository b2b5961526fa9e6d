// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devsock.c - framing of the device socket's messages (devsock.h).
 *
 * The socket is SOCK_SEQPACKET: a message is one record, sent and received
 * whole by one call, so several threads may wait in recv() on one
 * connection and each gets whole messages. Either end may have O_NONBLOCK
 * on the socket (a client's fcntl() reaches the socket itself, so that it
 * survives dup() and exec()): a message is still sent and received whole,
 * waiting in poll() where the socket is not ready.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
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
 * Wait until @fd is ready for @events, with @mask (if not NULL) as the
 * signal mask for the wait alone; EINTR is the caller's to judge. The
 * system call itself, not libc's poll(): inside the preload library poll()
 * is the library's own, which would ask the daemon about @fd.
 */
static int devsock_wait(int fd, short events, const sigset_t *mask)
{
	struct pollfd pfd = { .fd = fd, .events = events };

	return syscall(SYS_ppoll, &pfd, 1, NULL, mask, _NSIG / 8) < 0 ? -errno : 0;
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
	for (;;) {
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n >= 0)
			/* A record goes whole or not at all. */
			return (size_t)n == sizeof(*hdr) + len ? 0 : -EPROTO;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return -errno;
		ret = devsock_wait(fd, POLLOUT, NULL);
		if (ret && ret != -EINTR)
			return ret;
	}
}

/*
 * With @mask the wait comes first, in ppoll() with @mask in place, and the
 * record is then taken without blocking: a signal the caller blocked before
 * it sent its request, and that came before the wait, still ends the wait.
 */
static int devsock_recv_how(int fd, struct devsock_hdr *hdr, void *data, size_t size,
			    int nointr, const sigset_t *mask, bool nowait)
{
	struct iovec iov[2] = {
		{ .iov_base = hdr, .iov_len = sizeof(*hdr) },
		{ .iov_base = data, .iov_len = size },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = size && data ? 2 : 1 };
	ssize_t n;
	int ret;

	for (;;) {
		if (mask) {
			ret = devsock_wait(fd, POLLIN, mask);
			if (ret)
				return ret;
		}
		n = recvmsg(fd, &msg, mask || nowait ? MSG_DONTWAIT : 0);
		if (n >= 0)
			break;
		if (errno == EAGAIN) {
			if (nowait)
				return -EAGAIN;
			if (mask)
				continue;
			ret = devsock_wait(fd, POLLIN, NULL);
			if (!ret || (ret == -EINTR && nointr))
				continue;
			return ret;
		}
		if (errno != EINTR)
			return -errno;
		/* Nothing was taken: a record is received whole or not at all. */
		if (!nointr)
			return -EINTR;
	}
	if (!n)
		return 0;
	/* Cut off (more than @size), shorter than a header, or not its own length. */
	if ((msg.msg_flags & MSG_TRUNC) || (size_t)n < sizeof(*hdr) ||
	    hdr->len != (size_t)n - sizeof(*hdr))
		return -EPROTO;
	if (!hdr->type || hdr->type >= DEVSOCK_TYPE_COUNT || hdr->len > DEVSOCK_DATA_MAX)
		return -EPROTO;
	return 1;
}

int devsock_recv(int fd, struct devsock_hdr *hdr, void *data, size_t size, int nointr)
{
	return devsock_recv_how(fd, hdr, data, size, nointr, NULL, false);
}

int devsock_recv_nowait(int fd, struct devsock_hdr *hdr, void *data, size_t size)
{
	return devsock_recv_how(fd, hdr, data, size, 1, NULL, true);
}

int devsock_recv_sigmask(int fd, struct devsock_hdr *hdr, void *data, size_t size,
			 const sigset_t *mask)
{
	return devsock_recv_how(fd, hdr, data, size, 0, mask, false);
}
