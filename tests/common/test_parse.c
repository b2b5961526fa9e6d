// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_parse.c - the shared parsers: every bad input (empty, blank, sign,
 * overflow, junk suffix, out of range) for every kind of value, and the
 * exact message for each, so the programs using them need not test the
 * rules again; text fields made valid UTF-8; the wording of a refused
 * option.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "common/common.h"
#include "ctl/ctl.h"
#include "../check_run.h"

struct bad_case {
	const char *text;
	int ret;
	const char *msg;
};

START_TEST(uint_good)
{
	char err[PARSE_ERR_MAX];
	uint64_t v;

	ck_assert_int_eq(parse_uint("0", "n", 0, 10, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse_uint("10", "n", 0, 10, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 10);
	/* A leading zero is decimal, never octal. */
	ck_assert_int_eq(parse_uint("010", "n", 0, 100, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(parse_uint("0x1F", "n", 0, 100, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 31);
	ck_assert_int_eq(parse_uint("0XfF", "n", 0, 0xff, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 255);
	ck_assert_int_eq(parse_uint("18446744073709551615", "n", 0, UINT64_MAX, &v, err,
				    sizeof(err)), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

START_TEST(uint_bad)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "invalid --clients: empty value" },
		{ " 5", -EINVAL, "invalid --clients ' 5': expected a whole number" },
		{ "-1", -EINVAL, "invalid --clients '-1': expected a whole number" },
		{ "+4", -EINVAL, "invalid --clients '+4': expected a whole number" },
		{ "4x", -EINVAL, "invalid --clients '4x': unexpected 'x' after the number" },
		{ "4 ", -EINVAL, "invalid --clients '4 ': unexpected ' ' after the number" },
		{ "1.5", -EINVAL, "invalid --clients '1.5': unexpected '.5' after the number" },
		{ "0x", -EINVAL, "invalid --clients '0x': expected a whole number" },
		{ "0xg", -EINVAL, "invalid --clients '0xg': expected a whole number" },
		{ "11", -ERANGE, "invalid --clients '11': out of range 1..10" },
		{ "0", -ERANGE, "invalid --clients '0': out of range 1..10" },
		{ "0x20", -ERANGE, "invalid --clients '0x20': out of range 0x1..0xa" },
		{ "18446744073709551616", -ERANGE,
		  "invalid --clients '18446744073709551616': out of range 1..10" },
		{ "99999999999999999999999x", -EINVAL,
		  "invalid --clients '99999999999999999999999x': unexpected 'x' after the number" },
	};
	char err[PARSE_ERR_MAX];
	uint64_t v = 77;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(parse_uint(cases[i].text, "--clients", 1, 10, &v, err,
					 sizeof(err)) == cases[i].ret,
			      "'%s': wrong return", cases[i].text);
		ck_assert_str_eq(err, cases[i].msg);
		ck_assert_uint_eq(v, 77);
	}
	ck_assert_int_eq(parse_uint(NULL, "n", 0, 1, &v, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "invalid n: empty value");
	/* Without room for a message the result is the same. */
	ck_assert_int_eq(parse_uint("x", "n", 0, 1, &v, NULL, 0), -EINVAL);
}
END_TEST

START_TEST(uint_long_text_is_cut)
{
	char err[PARSE_ERR_MAX], text[300];

	memset(text, '7', sizeof(text) - 2);
	text[sizeof(text) - 2] = 'z';
	text[sizeof(text) - 1] = '\0';
	ck_assert_int_eq(parse_uint(text, "n", 0, 1, NULL, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "...'"), "not cut: %s", err);
	ck_assert_uint_lt(strlen(err), sizeof(err) - 1);
}
END_TEST

START_TEST(octal)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "invalid --mode: empty value" },
		{ "-644", -EINVAL, "invalid --mode '-644': expected octal digits" },
		{ "0x1ff", -EINVAL, "invalid --mode '0x1ff': unexpected 'x1ff' after the octal digits" },
		{ "648", -EINVAL, "invalid --mode '648': unexpected '8' after the octal digits" },
		{ "17777", -ERANGE, "invalid --mode '17777': out of range 0..07777" },
		{ "7777777777777777777777777", -ERANGE,
		  "invalid --mode '7777777777777777777777777': out of range 0..07777" },
	};
	char err[PARSE_ERR_MAX];
	uint64_t v;
	size_t i;

	ck_assert_int_eq(parse_octal("0660", "--mode", 07777, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 0660);
	ck_assert_int_eq(parse_octal("644", "--mode", 07777, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 0644);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(parse_octal(cases[i].text, "--mode", 07777, &v, err,
					  sizeof(err)) == cases[i].ret,
			      "'%s': wrong return", cases[i].text);
		ck_assert_str_eq(err, cases[i].msg);
	}
}
END_TEST

START_TEST(size)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "invalid size: empty value" },
		{ "-1K", -EINVAL, "invalid size '-1K': expected a number and an optional unit (K, M or G)" },
		{ "K", -EINVAL, "invalid size 'K': expected a number and an optional unit (K, M or G)" },
		{ "4k", -EINVAL, "invalid size '4k': unknown unit 'k' (use K, M or G)" },
		{ "4 K", -EINVAL, "invalid size '4 K': unknown unit ' K' (use K, M or G)" },
		{ "4KB", -EINVAL, "invalid size '4KB': unknown unit 'KB' (use K, M or G)" },
		{ "1.5M", -EINVAL,
		  "invalid size '1.5M': expected a whole number (use a smaller unit)" },
		{ "17M", -ERANGE, "invalid size '17M': out of range 1K..16M" },
		{ "1023", -ERANGE, "invalid size '1023': out of range 1K..16M" },
		{ "17179869184G", -ERANGE, "invalid size '17179869184G': out of range 1K..16M" },
		{ "99999999999999999999", -ERANGE,
		  "invalid size '99999999999999999999': out of range 1K..16M" },
	};
	char err[PARSE_ERR_MAX];
	uint64_t v;
	size_t i;

	ck_assert_int_eq(parse_size("4096", "size", 1024, 16 << 20, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_size("0x1000", "size", 1024, 16 << 20, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_size("64K", "size", 1024, 16 << 20, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 65536);
	ck_assert_int_eq(parse_size("2MiB", "size", 1024, 16 << 20, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 2 << 20);
	ck_assert_int_eq(parse_size("1G", "size", 0, UINT64_MAX, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(v, 1ull << 30);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(parse_size(cases[i].text, "size", 1024, 16 << 20, &v, err,
					 sizeof(err)) == cases[i].ret,
			      "'%s': wrong return", cases[i].text);
		ck_assert_str_eq(err, cases[i].msg);
	}
}
END_TEST

START_TEST(duration)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "invalid --period: empty value" },
		{ "ms", -EINVAL,
		  "invalid --period 'ms': expected a number and a unit (ns, us, ms, s or m)" },
		{ "-1ms", -EINVAL,
		  "invalid --period '-1ms': expected a number and a unit (ns, us, ms, s or m)" },
		{ " 5ms", -EINVAL,
		  "invalid --period ' 5ms': expected a number and a unit (ns, us, ms, s or m)" },
		{ "15", -EINVAL, "invalid --period '15': needs a unit (ns, us, ms, s or m)" },
		{ "5 ms", -EINVAL,
		  "invalid --period '5 ms': unknown unit ' ms' (use ns, us, ms, s or m)" },
		{ "5msx", -EINVAL,
		  "invalid --period '5msx': unknown unit 'msx' (use ns, us, ms, s or m)" },
		{ "5h", -EINVAL, "invalid --period '5h': unknown unit 'h' (use ns, us, ms, s or m)" },
		{ "1.5s", -EINVAL,
		  "invalid --period '1.5s': expected a whole number (use a smaller unit)" },
		{ "0x10ms", -EINVAL,
		  "invalid --period '0x10ms': a time span is a decimal number and a unit "
		  "(ns, us, ms, s or m)" },
		{ "61m", -ERANGE, "invalid --period '61m': longer than 60m" },
		{ "3601s", -ERANGE, "invalid --period '3601s': longer than 60m" },
		{ "18446744073709551615s", -ERANGE,
		  "invalid --period '18446744073709551615s': longer than 60m" },
		{ "99999999999999999999999ns", -ERANGE,
		  "invalid --period '99999999999999999999999ns': longer than 60m" },
	};
	const uint64_t hour = 3600ull * PARSE_NSEC_PER_SEC;
	char err[PARSE_ERR_MAX];
	uint64_t ns;
	size_t i;

	ck_assert_int_eq(parse_duration("20ms", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, 20000000ull);
	ck_assert_int_eq(parse_duration("1s", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, PARSE_NSEC_PER_SEC);
	ck_assert_int_eq(parse_duration("500us", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, 500000ull);
	ck_assert_int_eq(parse_duration("7ns", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, 7);
	ck_assert_int_eq(parse_duration("60m", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, hour);
	ck_assert_int_eq(parse_duration("0", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, 0);
	ck_assert_int_eq(parse_duration("0ms", "--period", hour, &ns, err, sizeof(err)), 0);
	ck_assert_uint_eq(ns, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(parse_duration(cases[i].text, "--period", hour, &ns, err,
					     sizeof(err)) == cases[i].ret,
			      "'%s': wrong return", cases[i].text);
		ck_assert_str_eq(err, cases[i].msg);
	}
	/* The limit reads in the largest unit that states it exactly. */
	ck_assert_int_eq(parse_duration("2s", "t", 1500000000ull, &ns, err, sizeof(err)),
			 -ERANGE);
	ck_assert_str_eq(err, "invalid t '2s': longer than 1500ms");
}
END_TEST

/* format_duration() writes what parse_duration() reads back, in the largest whole unit. */
START_TEST(duration_format)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0ns" }, { 7, "7ns" }, { 1500, "1500ns" }, { 5000000, "5ms" },
		{ 1500000, "1500us" }, { 2000000000ull, "2s" }, { 180000000000ull, "3m" },
		{ 61000000000ull, "61s" }, { UINT64_MAX, "18446744073709551615ns" },
	};
	char buf[32], err[PARSE_ERR_MAX];
	uint64_t back;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_uint_eq(format_duration(cases[i].ns, buf, sizeof(buf)),
				  strlen(cases[i].text));
		ck_assert_str_eq(buf, cases[i].text);
		ck_assert_int_eq(parse_duration(buf, "x", UINT64_MAX, &back, err, sizeof(err)), 0);
		ck_assert_uint_eq(back, cases[i].ns);
	}
	/* Cut as snprintf cuts, never past the room. */
	ck_assert_uint_eq(format_duration(2000000000ull, buf, 2), 2);
	ck_assert_str_eq(buf, "2");
}
END_TEST

START_TEST(probability)
{
	static const struct bad_case cases[] = {
		{ "", -EINVAL, "invalid busy: empty value" },
		{ "-0.5", -EINVAL, "invalid busy '-0.5': expected a probability 0..1" },
		{ ".5", -EINVAL, "invalid busy '.5': expected a probability 0..1" },
		{ "0.", -EINVAL, "invalid busy '0.': expected digits after the point" },
		{ "0.5x", -EINVAL, "invalid busy '0.5x': unexpected 'x' after the number" },
		{ "50%", -EINVAL, "invalid busy '50%': unexpected '%' after the number" },
		{ "0.0000001", -EINVAL, "invalid busy '0.0000001': finer than one in a million" },
		{ "1.000001", -ERANGE, "invalid busy '1.000001': out of range 0..1" },
		{ "2", -ERANGE, "invalid busy '2': out of range 0..1" },
		{ "99999999999999999999999", -ERANGE,
		  "invalid busy '99999999999999999999999': out of range 0..1" },
	};
	char err[PARSE_ERR_MAX];
	uint32_t ppm;
	size_t i;

	ck_assert_int_eq(parse_probability("0", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, 0);
	ck_assert_int_eq(parse_probability("1", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, PARSE_PPM);
	ck_assert_int_eq(parse_probability("1.000", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, PARSE_PPM);
	ck_assert_int_eq(parse_probability("0.25", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, 250000);
	ck_assert_int_eq(parse_probability("0.000001", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, 1);
	ck_assert_int_eq(parse_probability("0.50000000", "busy", &ppm, err, sizeof(err)), 0);
	ck_assert_uint_eq(ppm, 500000);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(parse_probability(cases[i].text, "busy", &ppm, err,
						sizeof(err)) == cases[i].ret,
			      "'%s': wrong return", cases[i].text);
		ck_assert_str_eq(err, cases[i].msg);
	}
}
END_TEST

START_TEST(text_utf8)
{
	static const struct {
		const char *in;
		size_t size;
		const char *out;
	} cases[] = {
		{ "caf\xc3\xa9", 6, "caf\xc3\xa9" },
		{ "\xe2\x82\xac \xf0\x9f\x98\x80", 8, "\xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "a\tb\x01", 4, "a\tb\x01" },			/* controls: the JSON writer's */
		{ "ab\0cd", 5, "ab" },				/* ends at the NUL */
		{ "abcdef", 3, "abc" },				/* or at the field's size */
		{ "x\xffy", 3, "x\xef\xbf\xbdy" },		/* never valid */
		{ "\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong '/' */
		{ "\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* surrogate */
		{ "\xf4\x90\x80\x80", 4,				/* above U+10FFFF */
		  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xc3", 1, "\xef\xbf\xbd" },			/* cut by the field's end */
		{ "\xe2\x82", 2, "\xef\xbf\xbd\xef\xbf\xbd" },
	};
	char out[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_uint_eq(text_to_utf8(cases[i].in, cases[i].size, out, sizeof(out)),
				  strlen(cases[i].out));
		ck_assert_msg(!strcmp(out, cases[i].out), "case %zu", i);
	}
	/* Too little room: whole characters only, always terminated. */
	ck_assert_uint_eq(text_to_utf8("caf\xc3\xa9", 6, out, 5), 3);
	ck_assert_str_eq(out, "caf");
	ck_assert_uint_eq(text_to_utf8(NULL, 4, out, sizeof(out)), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

/* What getopt_long() refuses, worded once for every program. */
static const char *option_error(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	static char err[PARSE_ERR_MAX];
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:q", longs, NULL)) != -1) {
		if (c != 'n' && c != 'q') {
			ck_assert_int_eq(cli_option_error(c, argv, err, sizeof(err)), -EINVAL);
			return err;
		}
	}
	return "";
}

/* Reply text made safe for a terminal: escapes, and cuts at a whole escape. */
START_TEST(text_terminal_safe)
{
	static const struct {
		const char *in;
		size_t room;
		const char *want;
	} cases[] = {
		{ "ok plugged", 64, "ok plugged" },
		{ "", 8, "" },
		{ "a\x1b[2Jb", 64, "a\\x1b[2Jb" },
		{ "\x07\x7f\x80\xff\t\r", 64, "\\x07\\x7f\\x80\\xff\\x09\\x0d" },
		{ "back\\slash", 64, "back\\\\slash" },
		{ "abcdef", 7, "abcdef" },		/* exactly fits */
		{ "abcdefg", 7, "abc..." },		/* cut, marked */
		{ "ab\x1b", 7, "ab\\x1b" },		/* an escape fits whole */
		{ "ab\x1b" "cd", 7, "ab..." },		/* never half an escape */
		{ "abcd", 2, "a" },			/* no room for "..." */
		{ "abcd", 1, "" },
	};
	char out[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(out, 'Z', sizeof(out));
		ck_assert_ptr_eq(ctl_text_safe(cases[i].in, out, cases[i].room), out);
		ck_assert_msg(!strcmp(out, cases[i].want), "case %zu: \"%s\", want \"%s\"",
			      i, out, cases[i].want);
		ck_assert_uint_lt(strlen(out), cases[i].room);
	}
	out[0] = 'Z';
	ctl_text_safe("abc", out, 0);
	ck_assert_int_eq(out[0], 'Z');
}
END_TEST

START_TEST(option_errors)
{
	char p[] = "prog", a[16], b[16];
	char *argv[] = { p, a, b, NULL };

	strcpy(a, "--name");
	ck_assert_str_eq(option_error(2, argv), "option '--name' needs an argument");
	strcpy(a, "-n");
	ck_assert_str_eq(option_error(2, argv), "option '-n' needs an argument");
	strcpy(a, "--bogus=1");
	ck_assert_str_eq(option_error(2, argv), "unknown option '--bogus' (try --help)");
	strcpy(a, "-qz");
	ck_assert_str_eq(option_error(2, argv), "unknown option '-z' (try --help)");
	strcpy(a, "--quiet=yes");
	ck_assert_str_eq(option_error(2, argv), "option '--quiet' takes no argument");
	strcpy(a, "-q");
	strcpy(b, "--name=x");
	ck_assert_str_eq(option_error(3, argv), "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("parse");
	TCase *tc = tcase_create("parsers");

	tcase_add_test(tc, uint_good);
	tcase_add_test(tc, uint_bad);
	tcase_add_test(tc, uint_long_text_is_cut);
	tcase_add_test(tc, octal);
	tcase_add_test(tc, size);
	tcase_add_test(tc, duration);
	tcase_add_test(tc, duration_format);
	tcase_add_test(tc, probability);
	tcase_add_test(tc, text_utf8);
	tcase_add_test(tc, text_terminal_safe);
	tcase_add_test(tc, option_errors);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
