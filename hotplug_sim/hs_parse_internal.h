/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hs_parse_internal.h - what hotplug_sim's two parser files share: the
 * error buffer (HS_ERR_MAX bytes) and the shared parsers with hotplug_sim's
 * limits. Every one reports bad input as -EINVAL, out of range included.
 */
#ifndef HOTPLUG_SIM_HS_PARSE_INTERNAL_H
#define HOTPLUG_SIM_HS_PARSE_INTERNAL_H

#include <stdint.h>

/**
 * hs_fail() - write a reason into @err.
 * @err: HS_ERR_MAX bytes
 * @fmt: printf format of the reason
 *
 * Return: -EINVAL.
 */
int hs_fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * hs_parse_count() - a whole number in @min..@max.
 * @text: the number
 * @min:  smallest allowed
 * @max:  largest allowed
 * @out:  the value
 * @what: its name in the reason
 * @err:  the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out,
		   const char *what, char *err);

/**
 * hs_parse_span() - a duration of at most one hour ("20ms").
 * @text: the duration
 * @ns:   the value in nanoseconds
 * @what: its name in the reason
 * @err:  the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_span(const char *text, uint64_t *ns, const char *what, char *err);

#endif /* HOTPLUG_SIM_HS_PARSE_INTERNAL_H */
