// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_bench.c - round-trip latency and throughput of XCMD HELLO and
 * READMEM through a /dev/cros_ec-style device, with 1 and 2 client threads.
 * Prints figures; asserts nothing (run-bench.sh compares servers).
 *
 *   cuse_ec_bench DEV [FLOOR_DEV [ITERATIONS]]
 *
 * With FLOOR_DEV (the null server), rounds alternate between the two devices
 * so that drift and noise on a shared machine hit both alike, and each line
 * gets the ratio DEV/FLOOR. Output, one line per measurement:
 *   <op> threads=<n> ns_per_op=<median of 7 rounds> ops_per_s=<median>
 *        [floor_ns_per_op=<...> floor_ops_per_s=<...> latency_ratio=<...>]
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
#include "bench_rounds.h"


struct bench_thread {
	const char *dev;
	bool readmem;
	long iterations;
	double seconds;
	int err;
};

static int one_op(int fd, bool readmem)
{
	if (readmem) {
		struct cros_ec_readmem_v2 mem = { .offset = 0x20, .bytes = 2 };

		return ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem) == 2 ? 0 : -1;
	} else {
		struct {
			struct cros_ec_command_v2 hdr;
			uint32_t data;
		} cmd = { .hdr = { .command = 1, .outsize = 4, .insize = 4 }, .data = 1 };

		return ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, &cmd) == 4 ? 0 : -1;
	}
}

static void *bench_worker(void *p)
{
	struct bench_thread *bt = p;
	double t0;
	long i;
	int fd;

	/* Each thread its own fd, as separate clients would. */
	fd = open(bt->dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		bt->err = errno;
		return NULL;
	}
	for (i = 0; i < bt->iterations / 10; i++)	/* warm up */
		one_op(fd, bt->readmem);
	t0 = bench_now_s();
	for (i = 0; i < bt->iterations; i++) {
		if (one_op(fd, bt->readmem)) {
			bt->err = errno ? errno : EIO;
			break;
		}
	}
	bt->seconds = bench_now_s() - t0;
	close(fd);
	return NULL;
}

/* One round: @threads clients on @dev; latency (ns) and throughput out. */
static int one_round(const char *dev, bool readmem, int threads, long iterations,
		     double *ns, double *ops)
{
	struct bench_thread bt[2];
	pthread_t tid[2];
	double slowest = 0;
	int t;

	for (t = 0; t < threads; t++) {
		bt[t] = (struct bench_thread){ .dev = dev, .readmem = readmem,
					       .iterations = iterations };
		pthread_create(&tid[t], NULL, bench_worker, &bt[t]);
	}
	for (t = 0; t < threads; t++)
		pthread_join(tid[t], NULL);
	for (t = 0; t < threads; t++) {
		if (bt[t].err) {
			fprintf(stderr, "%s: %s\n", dev, strerror(bt[t].err));
			return 1;
		}
		if (bt[t].seconds > slowest)
			slowest = bt[t].seconds;
	}
	/* Latency as one client sees it; throughput of all clients together. */
	*ns = bt[0].seconds * 1e9 / (double)iterations;
	*ops = (double)iterations * threads / slowest;
	return 0;
}

static int run(const char *dev, const char *floor_dev, bool readmem, int threads,
	       long iterations)
{
	double ns[ROUNDS], ops[ROUNDS], fns[ROUNDS], fops[ROUNDS], n, f;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		if (one_round(dev, readmem, threads, iterations, &ns[r], &ops[r]))
			return 1;
		if (floor_dev && one_round(floor_dev, readmem, threads, iterations,
					   &fns[r], &fops[r]))
			return 1;
	}
	n = bench_median(ns);
	printf("%s threads=%d ns_per_op=%.0f ops_per_s=%.0f", readmem ? "readmem" : "xcmd_hello",
	       threads, n, bench_median(ops));
	if (floor_dev) {
		f = bench_median(fns);
		printf(" floor_ns_per_op=%.0f floor_ops_per_s=%.0f latency_ratio=%.2f", f,
		       bench_median(fops), n / f);
	}
	printf("\n");
	fflush(stdout);
	return 0;
}

/**
 * main() - measure XCMD HELLO and READMEM with 1 and 2 threads.
 * @argc: 2 to 4
 * @argv: DEV [FLOOR_DEV|- [ITERATIONS]]
 *
 * Return: 0, 1 when the device fails, 2 on bad usage.
 */
int main(int argc, char **argv)
{
	const char *floor_dev = NULL;
	long iterations = 5000;
	char *end;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: %s DEV [FLOOR_DEV [ITERATIONS]]\n", argv[0]);
		return 2;
	}
	if (argc >= 3 && strcmp(argv[2], "-"))
		floor_dev = argv[2];
	if (argc == 4) {
		errno = 0;
		iterations = strtol(argv[3], &end, 10);
		if (errno || *end || iterations < 10 || iterations > 100000000) {
			fprintf(stderr, "%s: ITERATIONS must be 10..100000000\n", argv[0]);
			return 2;
		}
	}
	return run(argv[1], floor_dev, false, 1, iterations) ||
	       run(argv[1], floor_dev, false, 2, iterations) ||
	       run(argv[1], floor_dev, true, 1, iterations) ||
	       run(argv[1], floor_dev, true, 2, iterations);
}
