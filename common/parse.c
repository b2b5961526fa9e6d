// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * parse.c - one parser per kind of value, one set of rules (common.h), and
 * one wording for a refused option.
 *
 * Digits are read by hand rather than with strtoull(), which skips blanks,
 * accepts a sign (and negates it into a huge value), and reads "010" as
 * octal: each of those is a rule this file exists to not have.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/common.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

struct unit {
	const char *name;
	uint64_t scale;
};

static const struct unit duration_units[] = {
	{ "ns", 1ull },
	{ "us", 1000ull },
	{ "ms", 1000000ull },
	{ "s", PARSE_NSEC_PER_SEC },
	{ "m", 60ull * PARSE_NSEC_PER_SEC },
};

static const struct unit size_units[] = {
	{ "", 1ull },
	{ "K", 1ull << 10 }, { "KiB", 1ull << 10 },
	{ "M", 1ull << 20 }, { "MiB", 1ull << 20 },
	{ "G", 1ull << 30 }, { "GiB", 1ull << 30 },
};

/* How the unit names read in messages: the first spelling of each scale. */
#define DURATION_UNIT_LIST	"ns, us, ms, s or m"
#define SIZE_UNIT_LIST		"K, M or G"

static int fail(int ret, char *err, size_t errlen, const char *what, const char *text,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* "invalid WHAT 'TEXT': REASON", or "invalid WHAT: empty value". */
static int fail(int ret, char *err, size_t errlen, const char *what, const char *text,
		const char *fmt, ...)
{
	va_list ap;
	int used;

	if (!err || !errlen)
		return ret;
	if (!text || !*text) {
		snprintf(err, errlen, "invalid %s: empty value", what);
		return ret;
	}
	used = snprintf(err, errlen, "invalid %s '%.40s%s': ", what, text,
			strlen(text) > 40 ? "..." : "");
	if (used < 0 || (size_t)used >= errlen)
		return ret;
	va_start(ap, fmt);
	vsnprintf(err + used, errlen - (size_t)used, fmt, ap);
	va_end(ap);
	return ret;
}

static int digit_value(char c, unsigned int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)base ? v : -1;
}

/*
 * At least one digit of @base from @text; *@end is left after the last.
 * Return: 0, -EINVAL (no digit) or -ERANGE (does not fit 64 bits).
 */
static int scan_digits(const char *text, unsigned int base, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	bool overflow = false;
	const char *p = text;
	int d;

	for (; (d = digit_value(*p, base)) >= 0; p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			overflow = true;
		else
			v = v * base + (uint64_t)d;
	}
	*end = p;
	if (p == text)
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Decimal, or hexadecimal after 0x: the one notation for integers. */
static int scan_number(const char *text, uint64_t *out, const char **end, bool *hex)
{
	*hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	if (*hex)
		return scan_digits(text + 2, 16, out, end);
	return scan_digits(text, 10, out, end);
}

/* @v with the largest unit of @units that divides it exactly: "90s", "64K". */
static void format_scaled(char *buf, size_t len, uint64_t v, const struct unit *units,
			  size_t nunits)
{
	size_t i, best = 0;

	for (i = 0; i < nunits; i++)
		if (v && units[i].scale > units[best].scale && !(v % units[i].scale))
			best = i;
	snprintf(buf, len, "%llu%s", (unsigned long long)(v / units[best].scale),
		 units[best].name);
}

/*
 * A whole number, in the one notation (decimal or 0x hex) or, for @octal,
 * in octal digits (file modes, whose minimum is always 0).
 */
static int parse_whole(const char *text, const char *what, bool octal, uint64_t min,
		       uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	const unsigned long long lo = min, hi = max;
	const char *end;
	uint64_t v = 0;
	bool hex = false;
	int ret;

	if (!text || !*text)
		return fail(-EINVAL, err, errlen, what, text, "empty value");
	ret = octal ? scan_digits(text, 8, &v, &end) : scan_number(text, &v, &end, &hex);
	if (ret == -EINVAL)
		return fail(ret, err, errlen, what, text, "expected %s",
			    octal ? "octal digits" : "a whole number");
	if (*end)
		return fail(-EINVAL, err, errlen, what, text, "unexpected '%.20s' after the %s",
			    end, octal ? "octal digits" : "number");
	if (!ret && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	/* The range reads in the notation the value was written in. */
	if (octal)
		return fail(-ERANGE, err, errlen, what, text, "out of range 0..0%llo", hi);
	if (hex)
		return fail(-ERANGE, err, errlen, what, text, "out of range 0x%llx..0x%llx", lo, hi);
	return fail(-ERANGE, err, errlen, what, text, "out of range %llu..%llu", lo, hi);
}

int parse_uint(const char *text, const char *what, uint64_t min, uint64_t max,
	       uint64_t *out, char *err, size_t errlen)
{
	return parse_whole(text, what, false, min, max, out, err, errlen);
}

int parse_octal(const char *text, const char *what, uint64_t max, uint64_t *out,
		char *err, size_t errlen)
{
	return parse_whole(text, what, true, 0, max, out, err, errlen);
}

/* The number in @text times the scale of the unit that follows it. */
static int scan_scaled(const char *text, const char *what, const struct unit *units,
		       size_t nunits, const char *unit_list, const char *expected,
		       uint64_t *out, char *err, size_t errlen)
{
	const char *end;
	uint64_t v = 0;
	size_t i;
	bool hex;
	int ret;

	if (!text || !*text)
		return fail(-EINVAL, err, errlen, what, text, "empty value");
	ret = scan_number(text, &v, &end, &hex);
	if (ret == -EINVAL)
		return fail(ret, err, errlen, what, text, "expected %s (%s)", expected,
			    unit_list);
	if (hex && units == duration_units)
		return fail(-EINVAL, err, errlen, what, text,
			    "a time span is a decimal number and a unit (%s)", unit_list);
	if (*end == '.')
		return fail(-EINVAL, err, errlen, what, text,
			    "expected a whole number (use a smaller unit)");
	for (i = 0; i < nunits; i++)
		if (!strcmp(end, units[i].name))
			break;
	if (i == nunits && !*end && units == duration_units && !ret && !v)
		return *out = 0, 0;
	if (i == nunits && !*end)
		return fail(-EINVAL, err, errlen, what, text, "needs a unit (%s)", unit_list);
	if (i == nunits)
		return fail(-EINVAL, err, errlen, what, text, "unknown unit '%.20s' (use %s)",
			    end, unit_list);
	if (ret || v > UINT64_MAX / units[i].scale)
		return -ERANGE;
	*out = v * units[i].scale;
	return 0;
}

int parse_size(const char *text, const char *what, uint64_t min, uint64_t max,
	       uint64_t *out, char *err, size_t errlen)
{
	char lo[32], hi[32];
	uint64_t v = 0;
	int ret;

	ret = scan_scaled(text, what, size_units, ARRAY_LEN(size_units), SIZE_UNIT_LIST,
			  "a number and an optional unit", &v, err, errlen);
	if (ret == -EINVAL)
		return ret;
	if (ret || v < min || v > max) {
		format_scaled(lo, sizeof(lo), min, size_units, ARRAY_LEN(size_units));
		format_scaled(hi, sizeof(hi), max, size_units, ARRAY_LEN(size_units));
		return fail(-ERANGE, err, errlen, what, text, "out of range %s..%s", lo, hi);
	}
	*out = v;
	return 0;
}

int parse_duration(const char *text, const char *what, uint64_t max_ns, uint64_t *out_ns,
		   char *err, size_t errlen)
{
	char hi[32];
	uint64_t v = 0;
	int ret;

	ret = scan_scaled(text, what, duration_units, ARRAY_LEN(duration_units),
			  DURATION_UNIT_LIST, "a number and a unit", &v, err, errlen);
	if (ret == -EINVAL)
		return ret;
	if (ret || v > max_ns) {
		format_scaled(hi, sizeof(hi), max_ns, duration_units, ARRAY_LEN(duration_units));
		return fail(-ERANGE, err, errlen, what, text, "longer than %s", hi);
	}
	*out_ns = v;
	return 0;
}

size_t format_duration(uint64_t ns, char *buf, size_t len)
{
	char text[32];

	format_scaled(text, sizeof(text), ns, duration_units, ARRAY_LEN(duration_units));
	return (size_t)snprintf(buf, len, "%s", text);
}

int parse_probability(const char *text, const char *what, uint32_t *out_ppm,
		      char *err, size_t errlen)
{
	uint64_t whole = 0, frac = 0, scale = PARSE_PPM;
	const char *p = text;
	bool above_one = false;

	if (!text || !*text)
		return fail(-EINVAL, err, errlen, what, text, "empty value");
	if (digit_value(*p, 10) < 0)
		return fail(-EINVAL, err, errlen, what, text, "expected a probability 0..1");
	for (; digit_value(*p, 10) >= 0; p++) {
		whole = whole * 10 + (uint64_t)(*p - '0');
		if (whole > 1) {
			above_one = true;
			whole = 2;
		}
	}
	if (*p == '.') {
		if (digit_value(*++p, 10) < 0)
			return fail(-EINVAL, err, errlen, what, text,
				    "expected digits after the point");
		for (; digit_value(*p, 10) >= 0; p++) {
			scale /= 10;
			if (!scale && *p != '0')
				return fail(-EINVAL, err, errlen, what, text,
					    "finer than one in a million");
			frac += (uint64_t)(*p - '0') * scale;
		}
	}
	if (*p)
		return fail(-EINVAL, err, errlen, what, text, "unexpected '%.20s' after the number",
			    p);
	if (above_one || whole * PARSE_PPM + frac > PARSE_PPM)
		return fail(-ERANGE, err, errlen, what, text, "out of range 0..1");
	*out_ppm = (uint32_t)(whole * PARSE_PPM + frac);
	return 0;
}

int cli_option_error(int opt, char *const argv[], char *err, size_t errlen)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	int len = (int)strcspn(arg, "=");

	if (!err || !errlen)
		return -EINVAL;
	if (len > 40)
		len = 40;
	if (opt == ':')
		snprintf(err, errlen, "option '%.*s' needs an argument", len, arg);
	else if (strncmp(arg, "--", 2))
		/* A short option, maybe inside a cluster such as -fz. */
		snprintf(err, errlen, "unknown option '-%c' (try --help)", optopt);
	else if (optopt)
		/* A known long option, given "=VALUE" it does not take. */
		snprintf(err, errlen, "option '%.*s' takes no argument", len, arg);
	else
		snprintf(err, errlen, "unknown option '%.*s' (try --help)", len, arg);
	return -EINVAL;
}
