// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * multi_bench.c - what pulling one device costs another device of the same
 * daemon: XCMD HELLO on DEV (one client thread) in rounds that alternate
 * between NAME sitting still and NAME unplugged and plugged again in a loop
 * by a second thread over one control connection. Quiet and flapping
 * rounds are paired (ABBA order), so that a neighbour's load on a shared
 * machine hits both alike; the figure is the median of the pairs' ratios.
 * Prints one line per pair and a summary line:
 *   multi quiet_ops_per_s=<median> flapping_ops_per_s=<median>
 *         ratio=<median of pair ratios> cycles=<unplug/plug cycles in all>
 *
 *   multi_bench DEV SOCK NAME PAUSE_MS PAIRS OPS
 *
 * PAUSE_MS (0..1000) is the loop's pace between cycles. Run it with the
 * preload library for a device socket. Exit 0, 1 when an operation or a
 * control reply fails, 2 on bad usage.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "ctl/ctl.h"
#include "bench_rounds.h"

#define PAIRS_MAX 99
#define FLAP_REPLY_MS 60000

/**
 * struct flapper - the thread that unplugs and plugs NAME while @on.
 * @conn:     its control connection
 * @unplug:   "@NAME unplug wait"
 * @plug:     "@NAME plug"
 * @pause_ns: between cycles
 * @lock:     guards the rest
 * @cond:     @on, @stop or @parked changed
 * @on:       flap now
 * @stop:     end the thread
 * @parked:   the thread waits for @on: no cycle is under way
 * @cycles:   cycles completed
 * @failed:   a reply was not "ok" (the reason went to stderr)
 */
struct flapper {
	struct ctl_conn conn;
	char unplug[CTL_LINE_MAX + 1];
	char plug[CTL_LINE_MAX + 1];
	long pause_ns;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool on;
	bool stop;
	bool parked;
	unsigned long cycles;
	bool failed;
};

static bool flap_request(struct flapper *f, const char *line)
{
	char reply[CTL_REPLY_MAX], safe[4 * CTL_REPLY_MAX + 1];
	int ret = ctl_request(&f->conn, line, reply, sizeof(reply), FLAP_REPLY_MS);

	if (!ret && ctl_reply_is_ok(reply))
		return true;
	fprintf(stderr, "multi_bench: %s: %s\n", line,
		ret ? strerror(-ret) : ctl_text_safe(reply, safe, sizeof(safe)));
	return false;
}

static void *flapper_main(void *arg)
{
	struct flapper *f = arg;
	struct timespec pause = { .tv_sec = f->pause_ns / 1000000000L,
				  .tv_nsec = f->pause_ns % 1000000000L };
	bool ok;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		f->parked = true;
		pthread_cond_broadcast(&f->cond);
		while ((!f->on || f->failed) && !f->stop)
			pthread_cond_wait(&f->cond, &f->lock);
		if (f->stop)
			break;
		f->parked = false;
		pthread_mutex_unlock(&f->lock);
		ok = flap_request(f, f->unplug) && flap_request(f, f->plug);
		/* A pace between cycles, nothing waits on it. */
		if (ok && f->pause_ns)
			nanosleep(&pause, NULL);
		pthread_mutex_lock(&f->lock);
		if (ok)
			f->cycles++;
		else
			f->failed = true;
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

/*
 * Start or stop the loop; a stop returns once the cycle under way ended, so
 * that no cycle spills into a quiet round.
 */
static void flapper_set(struct flapper *f, bool on)
{
	pthread_mutex_lock(&f->lock);
	f->on = on;
	pthread_cond_broadcast(&f->cond);
	while (!on && !f->parked)
		pthread_cond_wait(&f->cond, &f->lock);
	pthread_mutex_unlock(&f->lock);
}

static void flapper_stop(struct flapper *f)
{
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* @ops HELLOs on @fd; their rate, or -1 when one failed. */
static double hello_rate(int fd, long ops)
{
	struct {
		struct cros_ec_command_v2 hdr;
		uint32_t data;
	} cmd;
	double t0 = bench_now_s();
	long i;

	for (i = 0; i < ops; i++) {
		memset(&cmd, 0, sizeof(cmd));
		cmd.hdr.command = 1;	/* HELLO */
		cmd.hdr.outsize = 4;
		cmd.hdr.insize = 4;
		cmd.data = 1;
		if (ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, &cmd) != 4)
			return -1;
	}
	return (double)ops / (bench_now_s() - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && *out >= lo && *out <= hi;
}

int main(int argc, char **argv)
{
	double quiet[PAIRS_MAX], flapping[PAIRS_MAX], ratio[PAIRS_MAX], q, fl, r;
	long pause_ms, pairs, ops, p;
	struct flapper f = { 0 };
	int fd, ret, status = 0;
	pthread_t thread;
	bool flap_first;

	if (argc != 7 || !ctl_device_name_valid(argv[3]) ||
	    !parse_long(argv[4], 0, 1000, &pause_ms) || !parse_long(argv[5], 1, PAIRS_MAX, &pairs) ||
	    !parse_long(argv[6], 1, 100000000, &ops)) {
		fprintf(stderr, "usage: multi_bench DEV SOCK NAME PAUSE_MS(0..1000) PAIRS(1..%d) "
			"OPS\n", PAIRS_MAX);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "multi_bench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	ret = ctl_open(&f.conn, argv[2]);
	if (ret) {
		fprintf(stderr, "multi_bench: %s: %s\n", argv[2], strerror(-ret));
		close(fd);
		return 1;
	}
	snprintf(f.unplug, sizeof(f.unplug), "%c%s unplug wait", CTL_DEVICE_PREFIX, argv[3]);
	snprintf(f.plug, sizeof(f.plug), "%c%s plug", CTL_DEVICE_PREFIX, argv[3]);
	f.pause_ns = pause_ms * 1000000L;
	pthread_mutex_init(&f.lock, NULL);
	pthread_cond_init(&f.cond, NULL);
	pthread_create(&thread, NULL, flapper_main, &f);

	hello_rate(fd, ops / 10 + 1);	/* warm up */
	for (p = 0; p < pairs && !status; p++) {
		/* ABBA: quiet first in even pairs, flapping first in odd ones. */
		flap_first = p % 2;
		flapper_set(&f, flap_first);
		r = hello_rate(fd, ops);
		*(flap_first ? &flapping[p] : &quiet[p]) = r;
		flapper_set(&f, !flap_first);
		r = r < 0 ? r : hello_rate(fd, ops);
		*(flap_first ? &quiet[p] : &flapping[p]) = r;
		flapper_set(&f, false);
		if (quiet[p] < 0 || flapping[p] < 0) {
			fprintf(stderr, "multi_bench: %s: an XCMD failed: %s\n", argv[1],
				strerror(errno));
			status = 1;
			break;
		}
		ratio[p] = flapping[p] / quiet[p];
		printf("pair %ld: quiet_ops_per_s=%.0f flapping_ops_per_s=%.0f ratio=%.3f\n", p + 1,
		       quiet[p], flapping[p], ratio[p]);
		fflush(stdout);
	}
	flapper_stop(&f);
	pthread_join(thread, NULL);
	if (f.failed)
		status = 1;
	if (!status) {
		q = median(quiet, (int)pairs);
		fl = median(flapping, (int)pairs);
		printf("multi quiet_ops_per_s=%.0f flapping_ops_per_s=%.0f ratio=%.3f cycles=%lu\n",
		       q, fl, median(ratio, (int)pairs), f.cycles);
	}
	ctl_close(&f.conn);
	close(fd);
	pthread_cond_destroy(&f.cond);
	pthread_mutex_destroy(&f.lock);
	return status;
}
