// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_fops.c - every row of docs/teaching.md's "Op by op" table against
 * a running cuse_ec: files are opened and set up while the EC is present,
 * the EC is unplugged, and each file operation is checked against what
 * the chosen mode promises.
 *
 *   cuse_ec_fops DEV SOCK MODE
 *
 * MODE is the daemon's lifecycle: unsafe, refcount, revocable, or v3
 * (revocable with --unplug-wakeups=v3). In unsafe mode the rows that
 * follow freed EC memory accept any answer: valgrind, run by the caller,
 * judges those (cuse-ec-fops-guest.sh). Prints "ok ROW: ..." or
 * "FAIL ROW: ...", one line a row. Exit status: 0 pass, 1 a row failed,
 * 2 usage, 99 setup failed.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ctl/ctl.h"

enum fops_mode { MODE_UNSAFE, MODE_REFCOUNT, MODE_REVOCABLE, MODE_V3 };

/* How long a wake-up or a reply may take on a slow, busy guest. */
#define WAIT_MS 30000

static const char *ctl_path;
static int failures;

static void row(const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void row(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s: ", ok ? "ok" : "FAIL", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failures++;
}

static const char *err_name(long ret)
{
	static char buf[32];

	switch (ret) {
	case -ENODEV: return "ENODEV";
	case -EAGAIN: return "EAGAIN";
	case -EINTR: return "EINTR";
	case -EINVAL: return "EINVAL";
	case -ENOTTY: return "ENOTTY";
	case -ENOENT: return "ENOENT";
	default:
		snprintf(buf, sizeof(buf), "%ld", ret);
		return buf;
	}
}

/* One control line; the reply (without "ok ") into @reply. 0 if it was ok. */
static int ctl(const char *line, char *reply, size_t len)
{
	const char *lines[] = { line };
	char *out = NULL;
	size_t out_len = 0;
	FILE *f = open_memstream(&out, &out_len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = ctl_send_lines(ctl_path, lines, 1, WAIT_MS, 0, f, stderr);
	fclose(f);
	if (reply && len) {
		snprintf(reply, len, "%s", out ? out : "");
		reply[strcspn(reply, "\n")] = '\0';
	}
	free(out);
	return ret;
}

/* A counter from "stats", or -1. */
static long long stat_of(const char *name)
{
	char reply[2048], key[64];
	const char *p;

	if (ctl("stats", reply, sizeof(reply)))
		return -1;
	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(reply, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static int open_dev(const char *dev, int flags)
{
	int fd = open(dev, O_RDWR | flags);

	return fd < 0 ? -errno : fd;
}

static long xcmd_hello(int fd)
{
	struct {
		struct cros_ec_command_v2 hdr;
		uint8_t data[4];
	} c = { .hdr = { .command = EC_CMD_HELLO, .outsize = 4, .insize = 4 } };

	return ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, &c) < 0 ? -errno : 0;
}

static long xcmd_oversized(int fd)
{
	struct cros_ec_command_v2 hdr = { .command = EC_CMD_HELLO, .outsize = 0x10001 };

	return ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, &hdr) < 0 ? -errno : 0;
}

static long readmem(int fd, uint32_t offset, uint32_t bytes)
{
	struct cros_ec_readmem_v2 m = { .offset = offset, .bytes = bytes };
	long ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &m);

	return ret < 0 ? -errno : ret;
}

static long eventmask(int fd, unsigned long mask)
{
	return ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, mask) < 0 ? -errno : 0;
}

static long read_fd(int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	return n < 0 ? -errno : n;
}

/* ---- a read or poll in its own thread, interrupted by a signal ---- */

struct waiter {
	pthread_t thread;
	int fd;
	bool is_poll;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool started;
	bool done;
	long result;		/* read: bytes or -errno; poll: revents or -errno */
};

static void on_sigusr1(int sig)
{
	(void)sig;
}

static void *waiter_main(void *arg)
{
	struct waiter *w = arg;
	unsigned char buf[64];
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
	long r;

	pthread_mutex_lock(&w->lock);
	w->started = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (w->is_poll)
		r = poll(&pfd, 1, -1) < 0 ? -errno : pfd.revents;
	else
		r = read_fd(w->fd, buf, sizeof(buf));
	pthread_mutex_lock(&w->lock);
	w->result = r;
	w->done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static int waiter_start(struct waiter *w, int fd, bool is_poll)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->is_poll = is_poll;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, waiter_main, w))
		return -1;
	pthread_mutex_lock(&w->lock);
	while (!w->started)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static bool waiter_done(struct waiter *w)
{
	bool done;

	pthread_mutex_lock(&w->lock);
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	return done;
}

/* Wait (bounded) until the call returned; true if it did. */
static bool waiter_wait(struct waiter *w, int ms)
{
	struct timespec until;
	bool done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->done && pthread_cond_timedwait(&w->cond, &w->lock, &until) == 0)
		;
	done = w->done;
	pthread_mutex_unlock(&w->lock);
	return done;
}

/* Interrupt a call still blocked: signal until it returns (bounded). */
static bool waiter_interrupt(struct waiter *w)
{
	int i;

	for (i = 0; i < WAIT_MS / 100 && !waiter_done(w); i++) {
		pthread_kill(w->thread, SIGUSR1);
		if (waiter_wait(w, 100))
			break;
	}
	return waiter_done(w);
}

static void waiter_join(struct waiter *w)
{
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

/* Wait (bounded) until the daemon parked one more read, or @w returned. */
static void wait_parked(struct waiter *w, long long parked_before)
{
	int i;

	for (i = 0; i < WAIT_MS / 20; i++) {
		if (waiter_done(w) || stat_of("parked_reads") > parked_before)
			return;
		usleep(20000);
	}
}

/* Wait until poll() on @fd reports POLLIN (the injected event arrived). */
static bool wait_pollin(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, WAIT_MS) == 1 && (pfd.revents & POLLIN);
}

/* Read every queued event of @fd (all four arrive); returns how many. */
static int drain(int fd)
{
	unsigned char ev[32];
	int n = 0;

	while (n < 4 && wait_pollin(fd) && read_fd(fd, ev, sizeof(ev)) > 0)
		n++;
	return n;
}

/* ---- the rows ---- */

struct files {
	int plain;	/* XCMD, READMEM, EVENTMASK, ENOTTY after the unplug */
	int queued;	/* events queued before the unplug */
	int empty;	/* mask set, queue empty, O_NONBLOCK */
	int version;	/* version text not read yet */
	int version_eof; /* version text read once */
	int blocked;	/* a read asleep across the unplug */
	int polled;	/* a poll asleep across the unplug */
	int late;	/* mask set, blocking read started after the unplug */
};

static int setup_files(const char *dev, struct files *f)
{
	char text[128];
	unsigned char ev[32];
	long n;

	f->plain = open_dev(dev, 0);
	f->queued = open_dev(dev, 0);
	f->empty = open_dev(dev, O_NONBLOCK);
	f->version = open_dev(dev, 0);
	f->version_eof = open_dev(dev, 0);
	f->blocked = open_dev(dev, 0);
	f->polled = open_dev(dev, 0);
	f->late = open_dev(dev, 0);
	row("open", f->plain >= 0 && f->queued >= 0 && f->empty >= 0 && f->version >= 0 &&
	    f->version_eof >= 0 && f->blocked >= 0 && f->polled >= 0 && f->late >= 0,
	    "eight files open on a present EC");
	if (f->plain < 0 || f->queued < 0 || f->empty < 0 || f->version < 0 ||
	    f->version_eof < 0 || f->blocked < 0 || f->polled < 0 || f->late < 0)
		return -1;

	row("xcmd-before", xcmd_hello(f->plain) == 0, "HELLO on a present EC");
	n = read_fd(f->version_eof, text, sizeof(text));
	row("version-before", n > 6 && !strncmp(text, "1.0.0\n", 6), "version text read (%ld bytes)",
	    n);
	if (eventmask(f->queued, 1u << EC_MKBP_EVENT_BUTTON) ||
	    eventmask(f->empty, 1u << EC_MKBP_EVENT_BUTTON) ||
	    eventmask(f->blocked, 1u << EC_MKBP_EVENT_BUTTON) ||
	    eventmask(f->polled, 1u << EC_MKBP_EVENT_BUTTON) ||
	    eventmask(f->late, 1u << EC_MKBP_EVENT_BUTTON))
		return -1;
	/* Power button twice: a press and a release each, four BUTTON events. */
	if (ctl("inject power-button", NULL, 0) || ctl("inject power-button", NULL, 0))
		return -1;
	row("notify", wait_pollin(f->queued), "the EC's events reached the file's queue");
	n = read_fd(f->queued, ev, sizeof(ev));
	row("notify-read", n == 5 && ev[0] == EC_MKBP_EVENT_BUTTON,
	    "first event read before the unplug (%ld bytes, type %u)", n, n > 0 ? ev[0] : 0);
	/* The other files drain theirs so their queues are empty. */
	if (drain(f->empty) != 4 || drain(f->blocked) != 4 || drain(f->polled) != 4 ||
	    drain(f->late) != 4)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	struct waiter blocked, polled, late;
	unsigned char ev[32];
	char text[128];
	struct files f;
	enum fops_mode mode;
	bool uaf_ok, wakes, zombie;
	long long enodev_before, enodev_after, parked;
	long n;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DEV SOCK unsafe|refcount|revocable|v3\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[3], "unsafe"))
		mode = MODE_UNSAFE;
	else if (!strcmp(argv[3], "refcount"))
		mode = MODE_REFCOUNT;
	else if (!strcmp(argv[3], "revocable"))
		mode = MODE_REVOCABLE;
	else if (!strcmp(argv[3], "v3"))
		mode = MODE_V3;
	else {
		fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], argv[3]);
		return 2;
	}
	ctl_path = argv[2];
	uaf_ok = mode == MODE_UNSAFE;	/* valgrind judges those rows */
	wakes = mode == MODE_REVOCABLE;
	zombie = mode == MODE_REFCOUNT;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	if (setup_files(argv[1], &f)) {
		fprintf(stderr, "setup failed\n");
		return 99;
	}
	parked = stat_of("parked_reads");
	if (waiter_start(&blocked, f.blocked, false) || waiter_start(&polled, f.polled, true))
		return 99;
	wait_parked(&blocked, parked);
	enodev_before = stat_of("read_enodev");
	if (ctl("unplug wait", text, sizeof(text))) {
		fprintf(stderr, "unplug failed: %s\n", text);
		return 99;
	}
	/* Reads the unplug itself completed with ENODEV (it wakes or it does not). */
	enodev_after = stat_of("read_enodev");

	/* Rows that touch only the file: the same in every mode. */
	n = read_fd(f.queued, ev, sizeof(ev));
	row("queued", n == 5 && ev[0] == EC_MKBP_EVENT_BUTTON,
	    "event queued before the unplug delivered after it (%s)", err_name(n));
	/* ... but where poll says POLLERR, an empty O_NONBLOCK read says ENODEV. */
	n = read_fd(f.empty, ev, sizeof(ev));
	row("nonblock", n == (wakes ? -ENODEV : -EAGAIN), "empty queue, O_NONBLOCK: %s",
	    err_name(n));
	n = read_fd(f.version_eof, text, sizeof(text));
	row("version-eof", n == 0, "version text at offset != 0: %s", err_name(n));
	n = eventmask(f.plain, 1u << EC_MKBP_EVENT_BUTTON);
	row("eventmask", n == 0, "EVENTMASK: %s", err_name(n));
	n = ioctl(f.plain, 0xC0283A00u, text) < 0 ? -errno : 0;
	row("enotty", n == -ENOTTY, "v1 XCMD number: %s", err_name(n));
	n = xcmd_oversized(f.plain);
	row("xcmd-einval", n == -EINVAL, "XCMD outsize 0x10001: %s", err_name(n));
	n = open_dev(argv[1], 0);
	row("open-gone", n == -ENODEV, "open with the EC gone: %s", err_name(n));
	if (n >= 0)
		close((int)n);

	/* poll: file only, except where the mode reports the EC's absence. */
	{
		struct pollfd p[2] = { { .fd = f.queued, .events = POLLIN },
				       { .fd = f.empty, .events = POLLIN } };

		n = poll(p, 2, 0);
		/* The kernel keeps only the asked-for bits plus POLLERR/POLLHUP. */
		if (wakes)
			row("poll", n == 2 && p[0].revents == (POLLERR | POLLIN) &&
			    p[1].revents == POLLERR,
			    "queued: %#x, empty: %#x (want POLLERR|POLLIN, POLLERR)",
			    p[0].revents, p[1].revents);
		else
			row("poll", n == 1 && p[0].revents == POLLIN && p[1].revents == 0,
			    "queued: %#x, empty: %#x (want POLLIN, 0)", p[0].revents, p[1].revents);
	}

	/* The rows that follow the EC pointer. */
	n = read_fd(f.version, text, sizeof(text));
	if (uaf_ok)
		row("version", true, "version text at offset 0: %s (valgrind judges)", err_name(n));
	else if (zombie)
		row("version", n > 6 && !strncmp(text, "1.0.0\n", 6),
		    "version text from the zombie: %s", err_name(n));
	else
		row("version", n == -ENODEV, "version text at offset 0: %s", err_name(n));
	n = xcmd_hello(f.plain);
	if (uaf_ok)
		row("xcmd", true, "HELLO: %s (valgrind judges)", err_name(n));
	else
		row("xcmd", n == (zombie ? 0 : -ENODEV), "HELLO: %s", err_name(n));
	n = readmem(f.plain, 0x20, 2);
	if (uaf_ok)
		row("readmem", true, "READMEM 2 at 0x20: %s (valgrind judges)", err_name(n));
	else
		row("readmem", n == (zombie ? 2 : -ENODEV), "READMEM 2 at 0x20: %s", err_name(n));
	n = readmem(f.plain, 0, 300);
	if (uaf_ok)
		row("readmem-einval", n == -EINVAL, "READMEM 300 bytes, after the freed EC: %s",
		    err_name(n));
	else
		row("readmem-einval", n == (zombie ? -EINVAL : -ENODEV),
		    "READMEM 300 bytes: %s (ENODEV comes before the argument check)",
		    err_name(n));

	/*
	 * Blocked across the unplug: woken (revocable) or asleep until a signal.
	 * A result is read only once its call returned (the wait first: the
	 * order of a call's arguments is the compiler's).
	 */
	if (wakes) {
		bool read_back = waiter_wait(&blocked, WAIT_MS);
		bool poll_back = waiter_wait(&polled, WAIT_MS);

		row("blocked-read", read_back && blocked.result == -ENODEV,
		    "reader asleep at the unplug: %s",
		    read_back ? err_name(blocked.result) : "still asleep");
		row("poll-wake", poll_back && (polled.result & POLLERR),
		    "poller asleep at the unplug: %#lx", poll_back ? polled.result : 0L);
	} else {
		/* The unplug completed no read with ENODEV: the reader still sleeps. */
		bool asleep = !waiter_done(&blocked), ended = waiter_interrupt(&blocked);

		row("blocked-read", enodev_after == enodev_before && asleep && ended &&
		    blocked.result == -EINTR,
		    "reader asleep at the unplug, then a signal: %s (read_enodev %lld -> %lld)",
		    err_name(blocked.result), enodev_before, enodev_after);
		asleep = !waiter_done(&polled);
		ended = waiter_interrupt(&polled);
		row("poll-wake", asleep && ended && polled.result == -EINTR,
		    "poller asleep at the unplug, then a signal: %s", err_name(polled.result));
	}
	waiter_join(&blocked);
	waiter_join(&polled);

	/* A blocking read started after the unplug. */
	enodev_before = stat_of("read_enodev");
	parked = stat_of("parked_reads");
	if (waiter_start(&late, f.late, false))
		return 99;
	wait_parked(&late, parked);
	if (wakes) {
		bool late_back = waiter_wait(&late, WAIT_MS);

		row("late-read", late_back && late.result == -ENODEV,
		    "blocking read after the unplug: %s",
		    late_back ? err_name(late.result) : "still asleep");
	} else {
		bool asleep = !waiter_done(&late), ended = waiter_interrupt(&late);

		row("late-read", asleep && ended && late.result == -EINTR &&
		    stat_of("read_enodev") == enodev_before,
		    "blocking read after the unplug, then a signal: %s", err_name(late.result));
	}
	waiter_join(&late);

	/* release: close always succeeds; in unsafe mode valgrind sees the site. */
	n = close(f.plain) | close(f.queued) | close(f.empty) | close(f.version) |
	    close(f.version_eof) | close(f.blocked) | close(f.polled) | close(f.late);
	row("release", n == 0, "eight files closed after the unplug");
	return failures ? 1 : 0;
}
