// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_probe.c - end-to-end checks of a running cuse_ec through the real
 * device node (inside UML). Speaks the raw ABI itself, independent of the
 * project's client library, so that the ABI's corners (bad sizes, bad
 * pointers, v1 numbers) can be poked on purpose.
 *
 *   cuse_ec_probe abi DEV                 ABI corners on a live EC
 *   cuse_ec_probe ctl SOCK LINE           one control command; exit 0 on "ok"
 *   cuse_ec_probe events DEV SOCK         injected events through poll and read
 *   cuse_ec_probe load DEV SOCK CYCLES    unplug/replug under load (revocable)
 *   cuse_ec_probe zombie DEV SOCK         refcount mode: old fds keep working
 *   cuse_ec_probe hold DEV SECS [FRONT]   hold fds and a blocked read while the
 *                                         daemon is killed; expect what FRONT
 *                                         (cuse, the default, or socket) answers
 *                                         for a dead daemon, never a hang:
 *                                         ENOTCONN or ECONNABORTED through CUSE,
 *                                         ENODEV through the preload library
 *   cuse_ec_probe holdterm DEV            a blocked read while the daemon gets
 *                                         SIGTERM: expect ENODEV (woken)
 *   cuse_ec_probe openclose DEV N         N open/close cycles
 *   cuse_ec_probe openhold DEV N SECS     hold N open files for SECS seconds
 *                                         (prints "opened" once they are)
 *   cuse_ec_probe drive DEV [readmem] [paced]
 *                                         HELLO in a loop until stdin ends;
 *                                         prints "ok=N enodev=N other=N";
 *                                         with readmem every other call is a
 *                                         READMEM, counted in "readmem=N" too;
 *                                         paced: a 5 ms pause after each
 *                                         call (a guest's one CPU)
 *
 * Exit status: 0 pass, 1 a check failed, 2 usage.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"

#define WORKERS 8

static int failures;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			failures++;					\
		}							\
	} while (0)

/* XCMD; returns the ioctl result or -errno. */
static long xcmd(int fd, uint32_t command, uint32_t version, const void *req, uint32_t outsize,
		 void *resp, uint32_t insize, uint32_t *result)
{
	unsigned char buf[sizeof(struct cros_ec_command_v2) + 512];
	struct cros_ec_command_v2 *cmd = (void *)buf;
	long ret;

	if (outsize > 512 || insize > 512)
		return -E2BIG;
	memset(buf, 0, sizeof(buf));
	cmd->command = command;
	cmd->version = version;
	cmd->outsize = outsize;
	cmd->insize = insize;
	if (outsize)
		memcpy(cmd->data, req, outsize);
	ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
	if (ret < 0)
		return -errno;
	if (result)
		*result = cmd->result;
	if (resp)
		memcpy(resp, cmd->data, (size_t)ret < insize ? (size_t)ret : insize);
	return ret;
}

static long hello(int fd)
{
	uint32_t in = 0x01020304, out = 0, result = 0xff;
	long ret = xcmd(fd, EC_CMD_HELLO, 0, &in, 4, &out, 4, &result);

	if (ret == 4 && (result || out != in + EC_HELLO_MAGIC))
		return -EBADMSG;
	return ret == 4 ? 0 : ret < 0 ? ret : -EBADMSG;
}

static long readmem_ec(int fd)
{
	struct cros_ec_readmem_v2 mem = { .offset = 0x20, .bytes = 2 };
	long ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem);

	if (ret < 0)
		return -errno;
	return ret == 2 && !memcmp(mem.buffer, "EC", 2) ? 0 : -EBADMSG;
}

/* One control command; the reply is copied to @reply. Return 0 on "ok". */
static int ctl(const char *sock, const char *line, char *reply, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t off = 0;
	ssize_t n;
	int fd;

	if (strlen(sock) >= sizeof(addr.sun_path))
		return -EINVAL;
	strcpy(addr.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		snprintf(reply, len, "connect: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (write(fd, line, strlen(line)) < 0 || write(fd, "\n", 1) < 0) {
		close(fd);
		return -1;
	}
	while (off + 1 < len && (n = read(fd, reply + off, 1)) == 1 && reply[off] != '\n')
		off++;
	reply[off] = '\0';
	close(fd);
	return strncmp(reply, "ok", 2) ? -1 : 0;
}

static int ctl_ok(const char *sock, const char *line)
{
	char reply[512];
	int ret = ctl(sock, line, reply, sizeof(reply));

	CHECK(!ret, "control '%s' -> '%s'", line, reply);
	return ret;
}

static int open_dev(const char *dev, int flags)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC | flags);

	return fd < 0 ? -errno : fd;
}

/* ---- abi ---- */

static int cmd_abi(const char *dev)
{
	struct ec_response_get_protocol_info info = { 0 };
	struct cros_ec_readmem_v2 mem = { .offset = 0x20, .bytes = 2 };
	unsigned char *big, buf[600];
	struct cros_ec_command_v2 *cmd = (void *)buf;
	uint32_t result;
	char text[80];
	void *unmapped;
	ssize_t n;
	long ret;
	int fd;

	fd = open_dev(dev, 0);
	if (fd < 0) {
		fprintf(stderr, "open %s: %s\n", dev, strerror(-fd));
		return 1;
	}
	/* 1. the version text, first line exactly 1.0.0; then end of file */
	n = read(fd, text, 79);
	CHECK(n > 6 && !memcmp(text, "1.0.0\n", 6), "version text (%zd)", n);
	CHECK(read(fd, text, 79) == 0, "second read is not EOF");
	/* 2. v1 XCMD must be ENOTTY (real ectool selects v2 on exactly that) */
	memset(buf, 0, sizeof(buf));
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCXCMD_V1, buf) < 0 && errno == ENOTTY, "v1 XCMD: %m");
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCRDMEM_V1, buf) < 0 && errno == ENOTTY, "v1 READMEM: %m");
	errno = 0;
	CHECK(ioctl(fd, _IO(0xEC, 7), 0) < 0 && errno == ENOTTY, "unknown ioctl: %m");
	errno = 0;
	CHECK(ioctl(fd, 0x5401, buf) < 0 && errno == ENOTTY, "TCGETS: %m");
	/* 3. READMEM "EC" */
	CHECK(ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem) == 2 && !memcmp(mem.buffer, "EC", 2),
	      "READMEM EC");
	mem.bytes = 300;
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem) < 0 && errno == EINVAL, "READMEM 300: %m");
	/* 4. GET_PROTOCOL_INFO: exactly 12 */
	ret = xcmd(fd, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, &info, sizeof(info), &result);
	CHECK(ret == 12 && result == 0, "GET_PROTOCOL_INFO %ld/%u", ret, result);
	CHECK(hello(fd) == 0, "HELLO");
	/* READ_MEMMAP host command: the fallback path */
	{
		uint8_t p[2] = { 0x20, 2 };
		char ec[2] = { 0 };

		ret = xcmd(fd, EC_CMD_READ_MEMMAP, 0, p, 2, ec, 2, &result);
		CHECK(ret == 2 && !result && !memcmp(ec, "EC", 2), "READ_MEMMAP %ld", ret);
	}
	/* EC-level error: return >= 0, status in result */
	ret = xcmd(fd, 0x3ffe, 0, NULL, 0, buf + 300, 4, &result);
	CHECK(ret == 0 && result == EC_RES_INVALID_COMMAND, "unknown command %ld/%u", ret, result);
	/* sizes: > 64 KiB EINVAL; > max request EMSGSIZE; huge insize clamped */
	memset(buf, 0, sizeof(buf));
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	cmd->insize = 70000;
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd) < 0 && errno == EINVAL, "insize 70000: %m");
	big = calloc(1, 20 + 65536);
	if (big) {
		cmd = (void *)big;
		cmd->command = EC_CMD_HELLO;
		cmd->outsize = info.max_request_packet_size;	/* > max request (packet - 8) */
		cmd->insize = 4;
		errno = 0;
		CHECK(ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd) < 0 && errno == EMSGSIZE,
		      "outsize > max request: %m");
		cmd->outsize = 4;
		cmd->insize = 65536;
		ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
		CHECK(ret == 4 && cmd->insize == info.max_response_packet_size - 8u,
		      "insize clamp: %ld insize=%u", ret, cmd->insize);
		free(big);
	}
	/* bad user pointers: EFAULT from the kernel's copy, daemon unaffected */
	unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, unmapped) < 0 && errno == EFAULT, "XCMD EFAULT: %m");
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, unmapped) < 0 && errno == EFAULT,
	      "READMEM EFAULT: %m");
	errno = 0;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, (void *)8) < 0 && errno == EFAULT,
	      "XCMD at 8: %m");
	munmap(unmapped, 4096);
	CHECK(hello(fd) == 0, "HELLO after the bad calls");
	/* events: O_NONBLOCK read EAGAIN, poll says nothing */
	CHECK(ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 0x7fff) == 0, "EVENTMASK: %m");
	fcntl(fd, F_SETFL, O_NONBLOCK);
	errno = 0;
	CHECK(read(fd, text, sizeof(text)) < 0 && errno == EAGAIN, "nonblock read: %m");
	{
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		CHECK(poll(&pfd, 1, 100) == 0, "poll without an event");
	}
	close(fd);
	return failures ? 1 : 0;
}

/* ---- events through poll/read, blocking and not ---- */

static void on_alarm(int sig)
{
	(void)sig;	/* only here to interrupt a blocking read */
}

static int cmd_events(const char *dev, const char *sock)
{
	struct pollfd pfd;
	unsigned char buf[64];
	ssize_t n;
	int fd = open_dev(dev, O_NONBLOCK);

	if (fd < 0)
		return 1;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1u << EC_MKBP_EVENT_BUTTON) == 0, "mask");
	errno = 0;
	CHECK(read(fd, buf, sizeof(buf)) < 0 && errno == EAGAIN, "EAGAIN before: %m");
	if (ctl_ok(sock, "inject power-button"))
		return 1;
	pfd.fd = fd;
	pfd.events = POLLIN;
	CHECK(poll(&pfd, 1, 2000) == 1 && (pfd.revents & POLLIN), "poll: %#x", pfd.revents);
	n = read(fd, buf, sizeof(buf));
	CHECK(n > 1 && buf[0] == EC_MKBP_EVENT_BUTTON, "event read %zd type %u", n, buf[0]);
	/* press and release: a second button event, truncated to 1 byte */
	n = read(fd, buf, 1);
	CHECK(n == 1 && buf[0] == EC_MKBP_EVENT_BUTTON, "truncated read %zd", n);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	/* blocking, interrupted by a signal: EINTR, and the fd still works */
	fcntl(fd, F_SETFL, 0);
	{
		struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		errno = 0;
		CHECK(read(fd, buf, sizeof(buf)) < 0 && errno == EINTR, "interrupted read: %m");
		alarm(0);
		CHECK(hello(fd) == 0, "HELLO after an interrupted read");
	}
	/* blocking: the unplug wakes the reader with ENODEV, poll says POLLERR */
	if (fork() == 0) {
		usleep(300000);
		_exit(ctl(sock, "unplug", (char *)buf, sizeof(buf)) ? 1 : 0);
	}
	errno = 0;
	CHECK(read(fd, buf, sizeof(buf)) < 0 && errno == ENODEV, "blocked read: %m");
	pfd.revents = 0;
	CHECK(poll(&pfd, 1, 1000) == 1 && (pfd.revents & (POLLERR | POLLHUP)),
	      "poll after unplug: %#x", pfd.revents);
	/* The mask is the file's own: EVENTMASK still answers 0, as in 006. */
	CHECK(ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1) == 0, "mask after unplug: %m");
	CHECK(hello(fd) == -ENODEV, "HELLO after unplug");
	CHECK(readmem_ec(fd) == -ENODEV, "READMEM after unplug");
	CHECK(open_dev(dev, 0) == -ENODEV, "open while unplugged");
	CHECK(ctl_ok(sock, "plug") == 0, "plug");
	CHECK(hello(fd) == -ENODEV, "old fd after replug");
	close(fd);
	fd = open_dev(dev, 0);
	CHECK(fd >= 0 && hello(fd) == 0, "new fd after replug");
	if (fd >= 0)
		close(fd);
	return failures ? 1 : 0;
}

/* ---- load: unplug/replug while 8+8 threads work and a reader blocks ---- */

struct load {
	const char *dev;
	atomic_int shared_fd;
	atomic_bool stop;
	atomic_ulong ok, enodev, unexpected, woken, ops_after_revoke;
};

static void load_account(struct load *ld, long ret)
{
	if (!ret)
		atomic_fetch_add(&ld->ok, 1);
	else if (ret == -ENODEV)
		atomic_fetch_add(&ld->enodev, 1);
	else {
		atomic_fetch_add(&ld->unexpected, 1);
		fprintf(stderr, "unexpected result %ld (%s)\n", ret, strerror((int)-ret));
	}
}

static void *load_shared(void *p)
{
	struct load *ld = p;
	unsigned int i = 0;

	while (!atomic_load(&ld->stop)) {
		int fd = atomic_load(&ld->shared_fd);

		load_account(ld, (i++ & 1) ? readmem_ec(fd) : hello(fd));
	}
	return NULL;
}

static void *load_own(void *p)
{
	struct load *ld = p;
	unsigned int i = 0;
	bool dead = false;
	int fd = -1;
	long ret;

	while (!atomic_load(&ld->stop)) {
		if (fd < 0) {
			fd = open_dev(ld->dev, 0);
			if (fd < 0) {
				if (fd != -ENODEV)
					load_account(ld, fd);
				usleep(500);
				continue;
			}
			dead = false;
		}
		ret = (i++ & 1) ? readmem_ec(fd) : hello(fd);
		if (dead && ret != -ENODEV)
			atomic_fetch_add(&ld->ops_after_revoke, 1);
		load_account(ld, ret);
		if (ret == -ENODEV) {
			dead = true;
			if (i % 4 == 0) {
				close(fd);
				fd = -1;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void *load_reader(void *p)
{
	struct load *ld = p;
	unsigned char buf[64];
	ssize_t n;
	int fd;

	while (!atomic_load(&ld->stop)) {
		fd = open_dev(ld->dev, 0);
		if (fd < 0) {
			usleep(500);
			continue;
		}
		if (ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1u << EC_MKBP_EVENT_BUTTON) == 0) {
			n = read(fd, buf, sizeof(buf));	/* blocks until unplug */
			if (n < 0 && errno == ENODEV)
				atomic_fetch_add(&ld->woken, 1);
			else if (n < 0)
				load_account(ld, -errno);
		}
		close(fd);
	}
	return NULL;
}

static int cmd_load(const char *dev, const char *sock, int cycles)
{
	struct load ld = { .dev = dev };
	pthread_t shared[WORKERS], own[WORKERS], reader;
	struct timespec t0, t1;
	int i, c, fd, *retired;

	/* Replaced shared fds stay open until the end: workers may still use them. */
	retired = calloc((size_t)cycles + 1, sizeof(*retired));
	if (!retired)
		return 1;

	fd = open_dev(dev, 0);
	if (fd < 0 || ctl_ok(sock, "latency 200000"))
		return 1;
	atomic_store(&ld.shared_fd, fd);
	for (i = 0; i < WORKERS; i++) {
		pthread_create(&shared[i], NULL, load_shared, &ld);
		pthread_create(&own[i], NULL, load_own, &ld);
	}
	pthread_create(&reader, NULL, load_reader, &ld);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (c = 0; c < cycles && !failures; c++) {
		usleep(5000);
		if (ctl_ok(sock, (c & 1) ? "unplug" : "unplug wait"))
			break;
		usleep(2000);
		if (ctl_ok(sock, "plug"))
			break;
		/* The shared fd is dead now: swap in a fresh one (old closed later). */
		fd = open_dev(dev, 0);
		CHECK(fd >= 0, "open after replug: %s", strerror(-fd));
		if (fd < 0)
			break;
		retired[c] = atomic_exchange(&ld.shared_fd, fd);
	}
	atomic_store(&ld.stop, true);
	ctl_ok(sock, "unplug wait");	/* wakes the blocked reader */
	for (i = 0; i < WORKERS; i++) {
		pthread_join(shared[i], NULL);
		pthread_join(own[i], NULL);
	}
	pthread_join(reader, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ctl_ok(sock, "plug");
	close(atomic_load(&ld.shared_fd));
	while (c-- > 0) {
		if (retired[c] > 0)
			close(retired[c]);
	}
	free(retired);
	printf("load: %d cycles in %.1f s: ok=%lu enodev=%lu unexpected=%lu woken=%lu "
	       "alive_after_enodev=%lu\n", cycles,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       atomic_load(&ld.ok), atomic_load(&ld.enodev), atomic_load(&ld.unexpected),
	       atomic_load(&ld.woken), atomic_load(&ld.ops_after_revoke));
	CHECK(atomic_load(&ld.unexpected) == 0, "unexpected outcomes");
	CHECK(atomic_load(&ld.ops_after_revoke) == 0, "a dead fd came back to life");
	CHECK(atomic_load(&ld.ok) > 0 && atomic_load(&ld.enodev) > 0, "no mix of outcomes");
	CHECK(atomic_load(&ld.woken) > 0, "blocked reader never woken by an unplug");
	fd = open_dev(dev, 0);
	CHECK(fd >= 0 && hello(fd) == 0, "daemon usable after the load");
	if (fd >= 0)
		close(fd);
	return failures ? 1 : 0;
}

/* ---- lifecycle modes ---- */

static int cmd_zombie(const char *dev, const char *sock)
{
	char reply[512];
	int fd = open_dev(dev, 0);

	if (fd < 0)
		return 1;
	CHECK(hello(fd) == 0, "HELLO before unplug");
	if (ctl_ok(sock, "unplug wait"))
		return 1;
	/* refcount mode: the gone EC still "answers" */
	CHECK(hello(fd) == 0, "zombie HELLO did not succeed");
	CHECK(readmem_ec(fd) == 0, "zombie READMEM did not succeed");
	CHECK(open_dev(dev, 0) == -ENODEV, "open while unplugged");
	ctl(sock, "stats", reply, sizeof(reply));
	printf("%s\n", reply);
	CHECK(strstr(reply, "zombie_accesses=") && !strstr(reply, "zombie_accesses=0"),
	      "no zombie accesses counted");
	close(fd);
	return failures ? 1 : 0;
}

/* ---- the daemon dies under us ---- */

struct hold_reader {
	int fd;
	int err;
};

static void *hold_read(void *p)
{
	struct hold_reader *hr = p;
	char buf[64];

	hr->err = read(hr->fd, buf, sizeof(buf)) < 0 ? errno : 0;
	return NULL;
}

/* What a call on a file of a dead daemon fails with, per front end. */
static bool dead_daemon_errno(int err, bool via_socket)
{
	if (via_socket)
		return err == ENODEV;
	return err == ECONNABORTED || err == ENOTCONN;
}

static int cmd_hold(const char *dev, int secs, bool via_socket)
{
	struct hold_reader hr;
	struct pollfd pfd;
	pthread_t t;
	long ret;
	int fd;

	fd = open_dev(dev, 0);
	if (fd < 0)
		return 1;
	hr.fd = fd;
	hr.err = -1;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1u << EC_MKBP_EVENT_BUTTON) == 0, "mask");
	pthread_create(&t, NULL, hold_read, &hr);
	printf("holding\n");
	fflush(stdout);
	/* The test kills the daemon now; the blocked read must come back. */
	pthread_join(t, NULL);
	printf("blocked read ended: %s\n", strerror(hr.err));
	CHECK(dead_daemon_errno(hr.err, via_socket), "blocked read: %s", strerror(hr.err));
	ret = hello(fd);
	CHECK(ret < 0 && dead_daemon_errno((int)-ret, via_socket), "ioctl after daemon death: %ld", ret);
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	poll(&pfd, 1, secs * 1000);
	CHECK(pfd.revents & (POLLERR | POLLHUP), "poll after death: %#x", pfd.revents);
	close(fd);
	return failures ? 1 : 0;
}

static int cmd_holdterm(const char *dev)
{
	struct hold_reader hr;
	pthread_t t;
	int fd;

	fd = open_dev(dev, 0);
	if (fd < 0)
		return 1;
	hr.fd = fd;
	hr.err = -1;
	CHECK(ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1u << EC_MKBP_EVENT_BUTTON) == 0, "mask");
	pthread_create(&t, NULL, hold_read, &hr);
	printf("holding\n");
	fflush(stdout);
	pthread_join(t, NULL);
	printf("blocked read ended: %s\n", strerror(hr.err));
	CHECK(hr.err == ENODEV, "blocked read at SIGTERM: %s", strerror(hr.err));
	close(fd);
	return failures ? 1 : 0;
}

static int cmd_openclose(const char *dev, long n)
{
	long i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = open_dev(dev, 0);
		if (fd < 0) {
			CHECK(0, "open #%ld: %s", i, strerror(-fd));
			break;
		}
		close(fd);
	}
	return failures ? 1 : 0;
}

static int cmd_openhold(const char *dev, long n, long secs)
{
	int *fds = calloc((size_t)n + 1, sizeof(*fds));
	long i, opened = 0;

	if (!fds)
		return 1;
	for (i = 0; i < n; i++) {
		fds[i] = open_dev(dev, 0);
		if (fds[i] < 0) {
			CHECK(0, "open #%ld: %s", i, strerror(-fds[i]));
			break;
		}
		opened++;
	}
	printf("opened %ld\n", opened);
	fflush(stdout);
	sleep((unsigned int)secs);
	for (i = 0; i < opened; i++)
		close(fds[i]);
	free(fds);
	return failures ? 1 : 0;
}

/*
 * drive DEV [readmem]: a client using a device while another device of the
 * daemon is pulled: HELLO (with @readmem, HELLO and READMEM in turn: both
 * ways into the EC) on one open file, again and again, until stdin ends
 * (the test closes it). After an error the file is closed and opened
 * again, as a real client (biod, ectool in a loop) does, and the next try
 * waits for stdin up to 1 ms: a throttle against spinning on a device
 * that is gone, not a synchronization. Prints the counts; the test decides
 * what they must be. Exit 0, or 2 when stdin cannot be polled.
 */
static int cmd_drive(const char *dev, bool with_readmem, bool paced)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	unsigned long ok = 0, enodev = 0, other = 0, readmem_ok = 0, calls = 0;
	int fd = -1, wait_ms = 0, n;
	bool readmem;
	long ret;

	for (;;) {
		n = poll(&in, 1, wait_ms);
		if (n < 0 && errno != EINTR)
			return 2;
		/* Data or its end on stdin stops the loop. */
		if (n > 0)
			break;
		if (fd < 0)
			fd = open_dev(dev, 0);
		readmem = with_readmem && (calls++ & 1);
		ret = fd < 0 ? fd : readmem ? readmem_ec(fd) : hello(fd);
		wait_ms = ret ? 1 : paced ? 5 : 0;
		if (!ret) {
			ok++;
			readmem_ok += readmem;
			continue;
		}
		if (ret == -ENODEV)
			enodev++;
		else
			other++;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	printf("ok=%lu enodev=%lu other=%lu", ok, enodev, other);
	if (with_readmem)
		printf(" readmem=%lu", readmem_ok);
	printf("\n");
	return 0;
}

static long parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 10000000)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	char reply[512];
	long n;

	if (argc == 3 && !strcmp(argv[1], "abi"))
		return cmd_abi(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "ctl")) {
		n = ctl(argv[2], argv[3], reply, sizeof(reply));
		printf("%s\n", reply);
		return n ? 1 : 0;
	}
	if (argc == 4 && !strcmp(argv[1], "events"))
		return cmd_events(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "load") && (n = parse_count(argv[4])) >= 0)
		return cmd_load(argv[2], argv[3], (int)n);
	if (argc == 4 && !strcmp(argv[1], "zombie"))
		return cmd_zombie(argv[2], argv[3]);
	if ((argc == 4 || (argc == 5 && (!strcmp(argv[4], "cuse") || !strcmp(argv[4], "socket")))) &&
	    !strcmp(argv[1], "hold") && (n = parse_count(argv[3])) >= 0)
		return cmd_hold(argv[2], (int)n, argc == 5 && !strcmp(argv[4], "socket"));
	if (argc == 3 && !strcmp(argv[1], "holdterm"))
		return cmd_holdterm(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "openclose") && (n = parse_count(argv[3])) >= 0)
		return cmd_openclose(argv[2], n);
	if (argc == 5 && !strcmp(argv[1], "openhold") && (n = parse_count(argv[3])) >= 0 &&
	    parse_count(argv[4]) >= 0)
		return cmd_openhold(argv[2], n, parse_count(argv[4]));
	if (argc >= 3 && argc <= 5 && !strcmp(argv[1], "drive")) {
		bool with_readmem = false, paced = false;
		int i;

		for (i = 3; i < argc; i++) {
			if (!strcmp(argv[i], "readmem") && !with_readmem)
				with_readmem = true;
			else if (!strcmp(argv[i], "paced") && !paced)
				paced = true;
			else
				break;
		}
		if (i == argc)
			return cmd_drive(argv[2], with_readmem, paced);
	}
	fprintf(stderr, "usage: cuse_ec_probe abi DEV | ctl SOCK LINE | events DEV SOCK |\n"
		"       load DEV SOCK CYCLES |"
		" zombie DEV SOCK | hold DEV SECS [cuse|socket] |\n"
		"       holdterm DEV | openclose DEV N | openhold DEV N SECS |"
		" drive DEV [readmem] [paced]\n");
	return 2;
}
