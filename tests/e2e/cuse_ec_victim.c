// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_victim.c - a client that is using /dev/cros_ec when the daemon
 * dies or shuts down, and reports what it saw.
 *
 *   cuse_ec_victim read DEV      blocked in read() (an event mask is set)
 *   cuse_ec_victim poll DEV      blocked in poll(POLLIN), then one XCMD
 *   cuse_ec_victim inflight DEV  XCMD HELLO in a loop (with an EC latency
 *                                set, one is in flight) until one fails
 *   cuse_ec_victim idle DEV      holds the fd; on SIGUSR1, one XCMD
 *
 * Each prints "ready" once its file is open and set up, then one line
 * "MODE: WHAT" with what the call returned, and exits 0 when that is on
 * the documented list of what a client sees once the device is gone
 * (cuse_ec(8), DEVICE GONE): ENODEV, ECONNABORTED, ENOTCONN or EIO from a
 * call, POLLERR from poll(). Anything else - a success, another errno -
 * exits 1. Usage errors exit 2.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"

static const struct {
	int err;
	const char *name;
} victim_gone[] = {
	{ ENODEV, "ENODEV" },
	{ ECONNABORTED, "ECONNABORTED" },
	{ ENOTCONN, "ENOTCONN" },
	{ EIO, "EIO" },
};

/* Prints the outcome; returns 0 when @err is a documented "gone" errno. */
static int victim_judge(const char *mode, long ret, int err)
{
	size_t i;

	if (ret >= 0) {
		printf("%s: success (%ld), want a device-gone error\n", mode, ret);
		return 1;
	}
	for (i = 0; i < sizeof(victim_gone) / sizeof(victim_gone[0]); i++) {
		if (victim_gone[i].err == err) {
			printf("%s: %s\n", mode, victim_gone[i].name);
			return 0;
		}
	}
	printf("%s: %s, not a documented device-gone error\n", mode, strerror(err));
	return 1;
}

static long victim_hello(int fd)
{
	unsigned char buf[CROS_EC_XCMD_HEADER_SIZE + 4];
	struct cros_ec_command_v2 *cmd = (void *)buf;
	uint32_t in = 0x01020304;

	memset(buf, 0, sizeof(buf));
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	cmd->insize = 4;
	memcpy(cmd->data, &in, 4);
	return ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
}

static void victim_ready(void)
{
	printf("ready\n");
	fflush(stdout);
}

static int victim_read(int fd)
{
	unsigned char buf[64];
	long ret;

	if (ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1ul << EC_MKBP_EVENT_HOST_EVENT)) {
		printf("read: EVENTMASK failed: %s\n", strerror(errno));
		return 1;
	}
	victim_ready();
	do {
		ret = read(fd, buf, sizeof(buf));
	} while (ret < 0 && errno == EINTR);
	return victim_judge("read", ret, errno);
}

static int victim_poll(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long ret;
	int n;

	if (ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1ul << EC_MKBP_EVENT_HOST_EVENT)) {
		printf("poll: EVENTMASK failed: %s\n", strerror(errno));
		return 1;
	}
	victim_ready();
	do {
		n = poll(&pfd, 1, -1);
	} while (n < 0 && errno == EINTR);
	if (n != 1 || !(pfd.revents & POLLERR)) {
		printf("poll: returned %d revents 0x%x, want POLLERR\n", n, pfd.revents);
		return 1;
	}
	printf("poll: POLLERR%s\n", (pfd.revents & POLLHUP) ? "|POLLHUP" : "");
	/*
	 * A command, not a read: a read would first hand out what is still
	 * queued; a command says ENODEV whatever the queue holds.
	 */
	ret = victim_hello(fd);
	return victim_judge("command after poll", ret, errno);
}

static int victim_inflight(int fd)
{
	long ret;

	victim_ready();
	do {
		ret = victim_hello(fd);
	} while (ret >= 0 || errno == EINTR);
	return victim_judge("inflight", ret, errno);
}

static int victim_idle(int fd)
{
	sigset_t set;
	long ret;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	victim_ready();
	sigwait(&set, &sig);
	ret = victim_hello(fd);
	return victim_judge("idle", ret, errno);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int fd);
	} modes[] = {
		{ "read", victim_read },
		{ "poll", victim_poll },
		{ "inflight", victim_inflight },
		{ "idle", victim_idle },
	};
	size_t i;
	int fd, ret;

	/* Each line as it happens: the test reads them while we run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		fprintf(stderr, "usage: cuse_ec_victim read|poll|inflight|idle DEV\n");
		return 2;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			break;
	if (i == sizeof(modes) / sizeof(modes[0])) {
		fprintf(stderr, "cuse_ec_victim: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	fd = open(argv[2], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cuse_ec_victim: open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	ret = modes[i].run(fd);
	/* Closing a file of a gone device still succeeds. */
	if (close(fd)) {
		printf("close: %s\n", strerror(errno));
		ret = 1;
	}
	return ret;
}
