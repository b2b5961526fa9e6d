// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_latency.c - call latencies as a log-scale histogram (see hs.h): the
 * bucket of a latency, the top of a bucket, recording a call from any
 * worker, and the percentiles the report prints.
 */
#include "config.h"

#include <string.h>

#include "hs.h"

unsigned int hs_latency_bucket(uint64_t ns)
{
	unsigned int e;

	if (ns < HS_LAT_SUB)
		return (unsigned int)ns;
	e = 63u - (unsigned int)__builtin_clzll(ns);	/* 2^e <= ns, e >= 3 */
	return HS_LAT_SUB + (e - 3) * HS_LAT_SUB +
	       (unsigned int)((ns >> (e - 3)) & (HS_LAT_SUB - 1));
}

uint64_t hs_latency_bucket_top(unsigned int bucket)
{
	unsigned int e, sub;
	uint64_t low;

	if (bucket < HS_LAT_SUB)
		return bucket;
	if (bucket >= HS_LAT_BUCKETS)
		return UINT64_MAX;
	e = (bucket - HS_LAT_SUB) / HS_LAT_SUB + 3;
	sub = (bucket - HS_LAT_SUB) % HS_LAT_SUB;
	low = (uint64_t)(HS_LAT_SUB + sub) << (e - 3);
	return low + ((1ull << (e - 3)) - 1);
}

void hs_latency_record(struct hs_client_counts *counts, enum hs_op op, uint64_t ns)
{
	uint64_t *max = &counts->latency_max_ns[op];
	uint64_t seen = __atomic_load_n(max, __ATOMIC_RELAXED);

	__atomic_fetch_add(&counts->latency[op][hs_latency_bucket(ns)], 1, __ATOMIC_RELAXED);
	while (ns > seen &&
	       !__atomic_compare_exchange_n(max, &seen, ns, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

/* The value of nearest rank @rank (1-based) of @n: a bucket's top. */
static uint64_t rank_value(const uint64_t *hist, uint64_t rank, uint64_t max_ns)
{
	uint64_t seen = 0, top;
	unsigned int b;

	for (b = 0; b < HS_LAT_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= rank)
			break;
	}
	top = hs_latency_bucket_top(b < HS_LAT_BUCKETS ? b : HS_LAT_BUCKETS - 1);
	return top < max_ns ? top : max_ns;
}

void hs_latency_summarize(const uint64_t *hist, uint64_t max_ns, struct hs_latency_summary *sum)
{
	unsigned int b;

	memset(sum, 0, sizeof(*sum));
	for (b = 0; b < HS_LAT_BUCKETS; b++)
		sum->n += hist[b];
	if (!sum->n)
		return;
	/* Nearest rank: the smallest value with at least p% of calls at or below. */
	sum->p50 = rank_value(hist, (sum->n * 50 + 99) / 100, max_ns);
	sum->p90 = rank_value(hist, (sum->n * 90 + 99) / 100, max_ns);
	sum->p99 = rank_value(hist, (sum->n * 99 + 99) / 100, max_ns);
	sum->max = max_ns;
}
