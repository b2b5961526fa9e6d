/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench_rounds.h - what the daemon's benchmark programs measure alike:
 * the clock, ROUNDS rounds and their median, and the one output line
 * run-bench.sh and run-frontends.sh read:
 *   <op> threads=<n> ns_per_op=<median> ops_per_s=<median>
 */
#ifndef CUSE_EC_BENCH_ROUNDS_H
#define CUSE_EC_BENCH_ROUNDS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Rounds per figure: the median of 7 shrugs off a round a neighbour slowed. */
#define ROUNDS 7

static inline double bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of ROUNDS values (sorts @v). */
static inline double bench_median(double *v)
{
	qsort(v, ROUNDS, sizeof(v[0]), bench_cmp_double);
	return v[ROUNDS / 2];
}

/* The output line of a one-thread figure of @ns per op. */
static inline void bench_print(const char *op, double ns)
{
	printf("%s threads=1 ns_per_op=%.0f ops_per_s=%.0f\n", op, ns, 1e9 / ns);
}

#endif /* CUSE_EC_BENCH_ROUNDS_H */
