/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.h - the daemon's EC time source: real monotonic time, read without
 * a system call on the hot path.
 *
 * Every host command advances the EC's state by reading the clock. Where
 * the vDSO is missing (user-mode-linux has none) clock_gettime() is a full
 * system call costing about as much as a tenth of a CUSE round trip, so a
 * ticker thread publishes the time every millisecond while commands are
 * flowing, and parks itself once they stop (no idle wake-ups).
 */
#ifndef CUSE_EC_CLOCK_H
#define CUSE_EC_CLOCK_H

struct ec_clock;
struct cached_clock;

/**
 * cached_clock_create() - start a cached monotonic clock.
 * @out: the clock
 *
 * Readings lag real time by at most about two milliseconds, never go
 * backwards, and sleeping (injected latency) uses the real nanosleep().
 *
 * Return: 0 or -errno.
 */
int cached_clock_create(struct cached_clock **out);

/** cached_clock_destroy() - stop the ticker and free; NULL is ignored. */
void cached_clock_destroy(struct cached_clock *clock);

/** cached_clock_ops() - the struct ec_clock to hand to ec_create(). */
const struct ec_clock *cached_clock_ops(struct cached_clock *clock);

#endif /* CUSE_EC_CLOCK_H */
