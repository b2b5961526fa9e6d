// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - the monotonic clock, a sleep and the random generator
 * (common.h): one of each for every program and the EC model.
 */
#include "config.h"

#include <errno.h>
#include <time.h>

#include "common/common.h"

uint64_t mono_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * PARSE_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

void mono_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / PARSE_NSEC_PER_SEC),
		.tv_nsec = (long)(ns % PARSE_NSEC_PER_SEC),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

uint64_t xorshift64s_next(uint64_t *state)
{
	/* Zero is xorshift's one fixed point: start such a seed elsewhere. */
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}
