// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * preload_client.c - what cuse_ec_preload(7) promises a client, checked
 * from inside one: run under LD_PRELOAD=libcuse_ec_preload.so with
 * CUSE_EC_SOCKET_DIR set, against a `cuse_ec --socket-dir` daemon whose
 * control socket is argv[1]. One "ok"/"not ok" line per promise (TAP).
 *
 *   preload_client CONTROL          every check
 *   preload_client --exec-child FD  (internal) HELLO on an inherited fd
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ctl/ctl.h"

#define WAIT_MS 20000

static const char *ctl_path;
static int failures;
static int checks;

static void report(bool ok, const char *what, const char *detail)
{
	checks++;
	if (!ok)
		failures++;
	printf("%sok %d - %s%s%s\n", ok ? "" : "not ", checks, what, detail ? ": " : "",
	       detail ? detail : "");
	fflush(stdout);
}

/* HELLO through XCMD: 0, or -errno. */
static int hello(int fd)
{
	struct {
		struct cros_ec_command_v2 hdr;
		union {
			struct ec_params_hello p;
			struct ec_response_hello r;
		};
	} c = { .hdr = { .command = EC_CMD_HELLO, .outsize = sizeof(c.p),
			 .insize = sizeof(c.r) },
		.p = { .in_data = 0xa0b0c0d0 } };

	if (ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, &c) < 0)
		return -errno;
	return c.r.out_data == 0xa0b0c0d0 + 0x01020304 ? 0 : -EPROTO;
}

/* One control line; its reply into @reply (NULL: dropped). 0 if "ok". */
static int ctl_reply(const char *line, char *reply, size_t room)
{
	const char *lines[] = { line };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = ctl_send_lines(ctl_path, lines, 1, WAIT_MS, 0, f, stderr);
	fclose(f);
	if (reply)
		snprintf(reply, room, "%s", out ? out : "");
	free(out);
	return ret;
}

static int ctl(const char *line)
{
	return ctl_reply(line, NULL, 0);
}

/* The daemon's parked_reads counter. */
static long parked_reads(void)
{
	char reply[4096], *p;

	if (ctl_reply("stats", reply, sizeof(reply)))
		return -1;
	p = strstr(reply, " parked_reads=");
	return p ? strtol(p + strlen(" parked_reads="), NULL, 10) : -1;
}

static int open_dev(int flags)
{
	return open("/dev/cros_ec", O_RDWR | flags);
}

/* Other files and names are libc's: a name nobody serves, a regular file. */
static void check_passthrough(void)
{
	char buf[8];
	int fd;

	fd = open("/dev/cros_nosuch", O_RDWR);
	report(fd < 0 && errno == ENOENT, "a name no daemon serves: libc's ENOENT", NULL);
	fd = open("/proc/self/stat", O_RDONLY);
	report(fd >= 0 && read(fd, buf, sizeof(buf)) > 0, "a regular file reads as ever", NULL);
	if (fd >= 0)
		close(fd);
}

/*
 * An address nothing is mapped at. Handed through an empty asm so that the
 * compiler, which would see a constant, does not warn about the very
 * misuse the checks make on purpose.
 */
static void *bad_address(void)
{
	void *p = (void *)8;

	__asm__("" : "+r"(p));
	return p;
}

static void check_basic(void)
{
	char buf[600];
	ssize_t n;
	int fd = open_dev(0);

	struct stat st;

	report(fd >= 0, "open(/dev/cros_ec)", fd < 0 ? strerror(errno) : NULL);
	if (fd < 0)
		return;
	report(!fstat(fd, &st) && S_ISSOCK(st.st_mode),
	       "fstat(): a socket, not a character device (a documented difference)", NULL);
	report(hello(fd) == 0, "XCMD HELLO answers", NULL);
	n = read(fd, buf, sizeof(buf));
	report(n > 0 && !memcmp(buf, "1.0.0\n", 6), "read() gives the version text", NULL);
	errno = 0;
	report(write(fd, "x", 1) < 0 && errno == ENOSYS,
	       "write(): ENOSYS (no write operation, as through CUSE)", NULL);
	errno = 0;
	report(read(fd, bad_address(), 16) < 0 && errno == EFAULT,
	       "read() into a bad buffer: EFAULT before the daemon is asked", NULL);
	errno = 0;
	report(ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, bad_address()) < 0 && errno == EFAULT,
	       "XCMD at a bad address: EFAULT, no crash", NULL);
	close(fd);
}

static void check_dup(void)
{
	int fd = open_dev(0), d1, d2, d3;

	if (fd < 0) {
		report(false, "open for dup", strerror(errno));
		return;
	}
	d1 = dup(fd);
	d2 = dup2(fd, 200);
	d3 = fcntl(fd, F_DUPFD_CLOEXEC, 300);
	report(d1 >= 0 && hello(d1) == 0, "dup(): the copy is the same file", NULL);
	report(d2 == 200 && hello(d2) == 0, "dup2(): the copy is the same file", NULL);
	report(d3 >= 300 && hello(d3) == 0, "fcntl(F_DUPFD_CLOEXEC): the copy is the same file",
	       NULL);
	close(fd);
	report(hello(d1) == 0, "the original closed: a copy still works", NULL);
	close(d1);
	close(d2);
	close(d3);
	/* The number reused by a regular file: that file is libc's again. */
	fd = open("/proc/self/stat", O_RDONLY);
	if (fd >= 0) {
		char buf[8];

		report(read(fd, buf, sizeof(buf)) > 0, "a reused number is not taken for ours", NULL);
		close(fd);
	}
}

static void check_nonblock_and_poll(void)
{
	struct pollfd p[2];
	int fd = open_dev(0), pipefd[2];
	char buf[64];

	if (fd < 0 || pipe(pipefd)) {
		report(false, "open for poll", strerror(errno));
		return;
	}
	ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	errno = 0;
	report(read(fd, buf, sizeof(buf)) < 0 && errno == EAGAIN,
	       "O_NONBLOCK set by fcntl: an empty queue reads EAGAIN", NULL);
	{
		int nb = open_dev(O_NONBLOCK);

		ioctl(nb, CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu);
		errno = 0;
		report(nb >= 0 && read(nb, buf, sizeof(buf)) < 0 && errno == EAGAIN,
		       "O_NONBLOCK given to open(): an empty queue reads EAGAIN", NULL);
		if (nb >= 0)
			close(nb);
	}
	p[0] = (struct pollfd){ .fd = fd, .events = POLLIN };
	report(poll(p, 1, 0) == 0 && !p[0].revents, "poll(0 ms), empty queue: not ready", NULL);
	/* Another descriptor ready, ours not: exactly that one reported. */
	if (write(pipefd[1], "x", 1) != 1)
		report(false, "pipe write", strerror(errno));
	p[1] = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	report(poll(p, 2, WAIT_MS) == 1 && !p[0].revents && (p[1].revents & POLLIN),
	       "poll() over ours and a pipe: the pipe alone ready", NULL);
	/* An event: POLLIN, then the event itself. */
	report(ctl("inject lid-close") == 0, "inject an event", NULL);
	p[0].revents = 0;
	report(poll(p, 1, WAIT_MS) == 1 && (p[0].revents & POLLIN), "the event wakes poll()",
	       NULL);
	report(read(fd, buf, sizeof(buf)) > 0, "... and reads", NULL);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

/*
 * select() and pselect() answer from the device's readiness, as poll():
 * never from the socket's (which is writable, and readable only while a
 * notification waits in it).
 */
static void check_select(void)
{
	int fd = open_dev(O_NONBLOCK), pipefd[2], top;
	struct timespec ts = { 0, 0 };
	struct timeval tv = { 0, 0 };
	fd_set rd, wr, ex;
	char buf[64];

	if (fd < 0 || pipe(pipefd)) {
		report(false, "open for select", strerror(errno));
		return;
	}
	top = (fd > pipefd[0] ? fd : pipefd[0]) + 1;
	ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu);
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	report(select(fd + 1, &rd, NULL, NULL, &tv) == 0 && !FD_ISSET(fd, &rd),
	       "select(0 s), empty queue: not ready", NULL);
	FD_ZERO(&wr);
	FD_SET(fd, &wr);
	FD_ZERO(&ex);
	FD_SET(fd, &ex);
	report(select(fd + 1, NULL, &wr, &ex, &tv) == 0 && !FD_ISSET(fd, &wr) && !FD_ISSET(fd, &ex),
	       "select(): never writable, no exceptional condition (the device's poll has neither)",
	       NULL);
	if (write(pipefd[1], "x", 1) != 1)
		report(false, "pipe write", strerror(errno));
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	FD_SET(pipefd[0], &rd);
	tv = (struct timeval){ WAIT_MS / 1000, 0 };
	report(select(top, &rd, NULL, NULL, &tv) == 1 && !FD_ISSET(fd, &rd) &&
	       FD_ISSET(pipefd[0], &rd), "select() over ours and a pipe: the pipe alone ready", NULL);
	if (read(pipefd[0], buf, 1) != 1)
		report(false, "pipe read", strerror(errno));
	/*
	 * The event's notification is taken by the XCMD's receive: the socket
	 * is quiet. A press of the power button is an event whatever the EC's
	 * state (the lid's events depend on it, and later checks use them).
	 * The file does not block, so a lost event fails the read below
	 * instead of hanging it.
	 */
	report(ctl("inject power-button") == 0 && hello(fd) == 0, "inject an event, then an XCMD",
	       NULL);
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	tv = (struct timeval){ WAIT_MS / 1000, 0 };
	report(select(fd + 1, &rd, NULL, NULL, &tv) == 1 && FD_ISSET(fd, &rd),
	       "an event queued: select() reports the device readable", NULL);
	report(tv.tv_sec >= 0 && tv.tv_usec >= 0 && tv.tv_sec * 1000000L + tv.tv_usec <= WAIT_MS * 1000L &&
	       tv.tv_sec * 1000000L + tv.tv_usec > 0,
	       "select() leaves the time it did not sleep in its timeout, as Linux's", NULL);
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	report(pselect(fd + 1, &rd, NULL, NULL, &ts, NULL) == 1 && FD_ISSET(fd, &rd),
	       "pselect(): the same answer", NULL);
	report(read(fd, buf, sizeof(buf)) > 0, "... and the event reads", NULL);
	/* Bad input: the kernel's answers. */
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	tv = (struct timeval){ -1, 0 };
	errno = 0;
	report(select(fd + 1, &rd, NULL, NULL, &tv) < 0 && errno == EINVAL,
	       "select() with a negative timeout: EINVAL", NULL);
	ts = (struct timespec){ 0, 1000000000L };
	errno = 0;
	report(pselect(fd + 1, &rd, NULL, NULL, &ts, NULL) < 0 && errno == EINVAL,
	       "pselect() with tv_nsec of a whole second: EINVAL", NULL);
	close(pipefd[1]);
	close(pipefd[0]);
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	FD_SET(pipefd[0], &rd);
	tv = (struct timeval){ 0, 0 };
	errno = 0;
	report(select(top, &rd, NULL, NULL, &tv) < 0 && errno == EBADF,
	       "select() naming a closed descriptor beside ours: EBADF", NULL);
	close(fd);
}

struct reader_arg {
	int fd;
	ssize_t n;
	int err;
};

static void *reader_main(void *arg)
{
	struct reader_arg *r = arg;
	char buf[64];

	r->n = read(r->fd, buf, sizeof(buf));
	r->err = errno;
	return NULL;
}

/* One thread asleep in read(), another's ioctls on the same file go on. */
static void check_threads_share_a_file(void)
{
	struct reader_arg r = { .n = -2 };
	pthread_t t;
	int fd = open_dev(0), i, ok = 1;

	if (fd < 0) {
		report(false, "open for threads", strerror(errno));
		return;
	}
	ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu);
	r.fd = fd;
	pthread_create(&t, NULL, reader_main, &r);
	for (i = 0; i < 50; i++)
		ok &= hello(fd) == 0;
	report(ok, "50 XCMDs beside a read asleep on the same file", NULL);
	ctl("inject lid-open");
	pthread_join(t, NULL);
	report(r.n > 0, "the sleeping read gets the event", NULL);
	close(fd);
}

static void on_signal(int sig)
{
	(void)sig;
}

/*
 * Join @t within WAIT_MS: a read that a signal failed to end would hold the
 * test for good, so it is reported and the program ends.
 */
static void join_reader(pthread_t t, const char *what)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += WAIT_MS / 1000;
	if (pthread_timedjoin_np(t, NULL, &until)) {
		report(false, what, "the read still sleeps 20 s after the signal");
		printf("%d of %d checks passed\n", checks - failures, checks);
		exit(1);
	}
}

/* Poll the daemon until @n reads are parked; false after WAIT_MS. */
static bool wait_parked(long n)
{
	int i;

	for (i = 0; i < WAIT_MS / 10; i++) {
		if (parked_reads() == n)
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * A signal to a thread asleep in read() ends the read with EINTR, with or
 * without SA_RESTART (as through CUSE: the kernel gets the daemon's EINTR).
 * Also a read that waits while another thread of the process receives the
 * file's answers: each read is woken by its own signal alone.
 */
static void check_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct reader_arg r, r2;
	pthread_t t, t2;
	int fd = open_dev(0), restart;

	if (fd < 0) {
		report(false, "open for signals", strerror(errno));
		return;
	}
	ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu);
	for (restart = 0; restart < 2; restart++) {
		sa.sa_flags = restart ? SA_RESTART : 0;
		sigaction(SIGUSR1, &sa, NULL);
		r = (struct reader_arg){ .fd = fd, .n = -2 };
		pthread_create(&t, NULL, reader_main, &r);
		wait_parked(1);
		pthread_kill(t, SIGUSR1);
		join_reader(t, "a signal ends the read");
		report(r.n == -1 && r.err == EINTR,
		       restart ? "a signal with SA_RESTART: the read fails with EINTR too" :
				 "a signal without SA_RESTART: the read fails with EINTR", NULL);
	}
	/* The first read receives for both; the second waits behind it. */
	r = (struct reader_arg){ .fd = fd, .n = -2 };
	r2 = (struct reader_arg){ .fd = fd, .n = -2 };
	pthread_create(&t, NULL, reader_main, &r);
	wait_parked(1);
	pthread_create(&t2, NULL, reader_main, &r2);
	report(wait_parked(2), "two reads parked on one file", NULL);
	pthread_kill(t2, SIGUSR1);
	join_reader(t2, "a signal ends the read that waits behind another");
	report(r2.n == -1 && r2.err == EINTR,
	       "a read waiting behind another thread's receive: EINTR on its signal", NULL);
	report(wait_parked(1), "... while the other read sleeps on (one read parked)", NULL);
	pthread_kill(t, SIGUSR1);
	join_reader(t, "a signal ends the remaining read");
	report(r.n == -1 && r.err == EINTR, "... until its own signal: EINTR", NULL);
	close(fd);
}

/* A fork's child and an exec'd program use the file they inherited. */
static void check_fork_exec(const char *self)
{
	int fd = open_dev(0), status;
	char arg[16];
	pid_t pid;

	if (fd < 0) {
		report(false, "open for fork", strerror(errno));
		return;
	}
	pid = fork();
	if (!pid)
		_exit(hello(fd) == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	report(WIFEXITED(status) && !WEXITSTATUS(status), "a fork's child uses the inherited file",
	       NULL);
	report(hello(fd) == 0, "... and the parent still does", NULL);
	snprintf(arg, sizeof(arg), "%d", fd);
	pid = fork();
	if (!pid) {
		execl(self, self, "--exec-child", arg, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	report(WIFEXITED(status) && !WEXITSTATUS(status),
	       "an exec'd program uses the file it inherited", NULL);
	close(fd);
}

/* The EC unplugged: the mode's answers, through the socket. */
static void check_unplug(void)
{
	int fd = open_dev(0);

	if (fd < 0) {
		report(false, "open for unplug", strerror(errno));
		return;
	}
	report(ctl("unplug wait") == 0, "unplug", NULL);
	report(hello(fd) == -ENODEV, "XCMD after the unplug: ENODEV", NULL);
	{
		struct timeval tv = { 0, 0 };
		fd_set rd;

		FD_ZERO(&rd);
		FD_SET(fd, &rd);
		report(select(fd + 1, &rd, NULL, NULL, &tv) == 1 && FD_ISSET(fd, &rd),
		       "select() after the unplug: readable (POLLERR is in select's read set)",
		       NULL);
	}
	report(open_dev(0) < 0 && errno == ENODEV, "open after the unplug: ENODEV", NULL);
	report(ctl("plug") == 0, "plug", NULL);
	report(hello(fd) == -ENODEV, "the old file stays on the old EC: ENODEV", NULL);
	close(fd);
	fd = open_dev(0);
	report(fd >= 0 && hello(fd) == 0, "a new file reaches the new EC", NULL);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--exec-child"))
		return hello(atoi(argv[2])) == 0 ? 0 : 1;
	if (argc != 2) {
		fprintf(stderr, "usage: preload_client CONTROL-SOCKET (under LD_PRELOAD)\n");
		return 2;
	}
	ctl_path = argv[1];
	check_passthrough();
	check_basic();
	check_dup();
	check_nonblock_and_poll();
	check_select();
	check_threads_share_a_file();
	check_signals();
	check_fork_exec(argv[0]);
	check_unplug();
	printf("%d of %d checks passed\n", checks - failures, checks);
	return failures ? 1 : 0;
}
