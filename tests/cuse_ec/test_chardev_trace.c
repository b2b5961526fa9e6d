// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_trace.c - the lifecycle event log: order, wrap-around, the
 * dropped count, clear, the text form and its parser, and many writers at
 * once (also run under TSan by scripts/check).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chardev_trace.h"
#include "../check_run.h"

#define WRITERS 4
#define EVENTS_PER_WRITER 20000

static struct chardev_trace *trace_new(size_t capacity)
{
	struct chardev_trace *tr = NULL;

	ck_assert_int_eq(chardev_trace_create(capacity, &tr), 0);
	ck_assert_ptr_nonnull(tr);
	return tr;
}

START_TEST(test_trace_create_bad)
{
	struct chardev_trace *tr = NULL;

	ck_assert_int_eq(chardev_trace_create(0, &tr), -EINVAL);
	ck_assert_int_eq(chardev_trace_create(((size_t)1 << 24) + 1, &tr), -EINVAL);
	ck_assert_ptr_null(tr);
	tr = trace_new(5);
	ck_assert_uint_eq(chardev_trace_capacity(tr), 8);
	chardev_trace_destroy(tr);
	tr = trace_new(1);
	ck_assert_uint_eq(chardev_trace_capacity(tr), 2);
	chardev_trace_destroy(tr);
	chardev_trace_destroy(NULL);
	ck_assert_uint_eq(chardev_trace_record(NULL, CHARDEV_TRACE_PLUG, 0, 0, 0, 0), 0);
}
END_TEST

START_TEST(test_trace_order_and_fields)
{
	struct chardev_trace *tr = trace_new(16);
	struct chardev_trace_entry e[16];
	uint64_t dropped = 99, begin;
	size_t n;

	ck_assert_uint_eq(chardev_trace_snapshot(tr, e, 16, &dropped), 0);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_eq(chardev_trace_record(tr, CHARDEV_TRACE_OPEN, 1, 0, 0, 0), 1);
	begin = chardev_trace_record(tr, CHARDEV_TRACE_ACCESS_BEGIN, 1, 0x0001, 0, 0);
	ck_assert_uint_eq(begin, 2);
	chardev_trace_record(tr, CHARDEV_TRACE_REVOKE_START, 0, 0, 1, 0);
	chardev_trace_record(tr, CHARDEV_TRACE_ACCESS_END, 1, 0x0001, (int64_t)begin, 4);
	chardev_trace_record(tr, CHARDEV_TRACE_REVOKE_DONE, 0, 0, 1, 123456);
	n = chardev_trace_snapshot(tr, e, 16, &dropped);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_eq(e[0].seq, 1);
	ck_assert_int_eq(e[0].event, CHARDEV_TRACE_OPEN);
	ck_assert_uint_eq(e[1].cmd, 0x0001);
	ck_assert_uint_eq(e[1].file, 1);
	ck_assert_int_eq(e[3].event, CHARDEV_TRACE_ACCESS_END);
	ck_assert_int_eq(e[3].a, (int64_t)begin);
	ck_assert_int_eq(e[3].b, 4);
	ck_assert_int_eq(e[4].b, 123456);
	for (size_t i = 1; i < n; i++) {
		ck_assert_uint_eq(e[i].seq, e[i - 1].seq + 1);
		ck_assert_uint_ge(e[i].t_ns, e[i - 1].t_ns);
	}
	chardev_trace_destroy(tr);
}
END_TEST

static uint64_t fake_now(void *ctx)
{
	return *(uint64_t *)ctx;
}

/* A clock of the daemon's (its cached EC clock) gives the t= column. */
START_TEST(test_trace_own_clock)
{
	struct chardev_trace *tr = trace_new(4);
	struct chardev_trace_entry e[4];
	uint64_t now = 5000000000u;
	char line[CHARDEV_TRACE_LINE_MAX];

	chardev_trace_set_clock(tr, fake_now, &now);
	chardev_trace_record(tr, CHARDEV_TRACE_PLUG, 0, 0, 0, 0);
	now += 1500000;
	chardev_trace_record(tr, CHARDEV_TRACE_REVOKE_START, 0, 0, 1, 0);
	ck_assert_uint_eq(chardev_trace_snapshot(tr, e, 4, NULL), 2);
	ck_assert_uint_eq(e[0].t_ns, 0);
	ck_assert_uint_eq(e[1].t_ns, 1500000);
	chardev_trace_format(&e[1], line, sizeof(line));
	ck_assert_str_eq(line, "2 t=0.001500 revoke-start inflight=1");
	chardev_trace_destroy(tr);
}
END_TEST

START_TEST(test_trace_wrap_and_dropped)
{
	struct chardev_trace *tr = trace_new(8);
	struct chardev_trace_entry e[8];
	uint64_t dropped, i;
	size_t n;

	for (i = 1; i <= 21; i++)
		chardev_trace_record(tr, CHARDEV_TRACE_UEVENT, 0, CHARDEV_TRACE_UEVENT_ADD,
				     (int64_t)i, 0);
	n = chardev_trace_snapshot(tr, e, 8, &dropped);
	/* The last lap survives, oldest first; the 13 before it are dropped. */
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(dropped, 13);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(e[i].seq, 14 + i);
		ck_assert_int_eq(e[i].a, (int64_t)(14 + i));
	}
	/* A smaller buffer gets the newest events; the rest count as dropped. */
	n = chardev_trace_snapshot(tr, e, 3, &dropped);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(dropped, 18);
	ck_assert_uint_eq(e[0].seq, 19);
	ck_assert_uint_eq(chardev_trace_snapshot(tr, e, 0, NULL), 0);
	chardev_trace_destroy(tr);
}
END_TEST

START_TEST(test_trace_clear)
{
	struct chardev_trace *tr = trace_new(8);
	struct chardev_trace_entry e[8];
	uint64_t dropped;
	size_t n;

	for (int i = 0; i < 20; i++)
		chardev_trace_record(tr, CHARDEV_TRACE_PLUG, 0, 0, 0, 0);
	chardev_trace_clear(tr);
	n = chardev_trace_snapshot(tr, e, 8, &dropped);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(dropped, 0);
	/* Numbers go on after a clear: evidence from before stays comparable. */
	ck_assert_uint_eq(chardev_trace_record(tr, CHARDEV_TRACE_RELEASE, 3, 0, 0, 0), 21);
	n = chardev_trace_snapshot(tr, e, 8, &dropped);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_eq(e[0].seq, 21);
	ck_assert_uint_eq(e[0].file, 3);
	chardev_trace_destroy(tr);
}
END_TEST

START_TEST(test_trace_text_round_trip)
{
	static const struct chardev_trace_entry cases[] = {
		{ 1, 0, CHARDEV_TRACE_OPEN, 0, 1, 0, 0 },
		{ 2, 1000, CHARDEV_TRACE_OPEN, 0, 0, -19, 0 },
		{ 3, 1234567000, CHARDEV_TRACE_ACCESS_BEGIN, 0x0001, 7, 0, 0 },
		{ 4, 2000000000, CHARDEV_TRACE_ACCESS_END, 0x0001, 7, 3, -19 },
		{ 5, 1, CHARDEV_TRACE_ACCESS_BEGIN, CHARDEV_TRACE_OP_READMEM, 2, 0, 0 },
		{ 6, 1, CHARDEV_TRACE_ACCESS_END, CHARDEV_TRACE_OP_READ, 2, 5, 0 },
		{ 7, 1, CHARDEV_TRACE_READ_PARKED, 0, 2, 0, 0 },
		{ 8, 1, CHARDEV_TRACE_READ_WOKEN, 0, 2, -19, 0 },
		{ 9, 1, CHARDEV_TRACE_REVOKE_START, 0, 0, 2, 0 },
		{ 10, 1, CHARDEV_TRACE_READERS_WOKEN, 0, 0, 1, 0 },
		{ 11, 1, CHARDEV_TRACE_REVOKE_DONE, 0, 0, 1, 350000000 },
		{ 12, 1, CHARDEV_TRACE_PLUG, 0, 0, 0, 0 },
		{ 13, 1, CHARDEV_TRACE_UEVENT, CHARDEV_TRACE_UEVENT_REMOVE, 0, 4711, 0 },
		{ 14, 1, CHARDEV_TRACE_UEVENT, 9, 0, 1, 0 },
		{ 15, 1, CHARDEV_TRACE_RELEASE, 0, 2, 0, 0 },
	};
	struct chardev_trace_entry back;
	char line[CHARDEV_TRACE_LINE_MAX];
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		len = chardev_trace_format(&cases[i], line, sizeof(line));
		ck_assert_uint_lt(len, sizeof(line));
		ck_assert_msg(!chardev_trace_parse(line, &back), "cannot parse '%s'", line);
		ck_assert_uint_eq(back.seq, cases[i].seq);
		/* Text keeps microseconds. */
		ck_assert_uint_eq(back.t_ns, cases[i].t_ns / 1000 * 1000);
		ck_assert_int_eq(back.event, cases[i].event);
		ck_assert_uint_eq(back.cmd, cases[i].cmd);
		ck_assert_uint_eq(back.file, cases[i].file);
		ck_assert_int_eq(back.a, cases[i].a);
		ck_assert_int_eq(back.b, cases[i].b);
	}
	len = chardev_trace_format(&cases[3], line, sizeof(line));
	ck_assert_str_eq(line, "4 t=2.000000 access-end file=7 cmd=0x0001 begin=3 ret=-19");
	chardev_trace_format(&cases[12], line, sizeof(line));
	ck_assert_str_eq(line, "13 t=0.000000 uevent action=remove seqnum=4711");
	chardev_trace_format(&cases[4], line, sizeof(line));
	ck_assert_str_eq(line, "5 t=0.000000 access-begin file=2 cmd=readmem");
	/* A cut buffer still reports the full length, and is terminated. */
	ck_assert_uint_eq(chardev_trace_format(&cases[3], line, 5), len);
	ck_assert_str_eq(line, "4 t=");
	ck_assert_str_eq(chardev_trace_event_name(CHARDEV_TRACE_EVENT_COUNT), "?");
}
END_TEST

START_TEST(test_trace_parse_bad)
{
	static const char *const bad[] = {
		"",
		"1",
		"1 t=0.000000",
		"0 t=0.000000 plug ret=0",
		"x t=0.000000 plug ret=0",
		"1 t=0.00000 plug ret=0",
		"1 t=-1.000000 plug ret=0",
		"1 s=0.000000 plug ret=0",
		"1 t=0.000000 unplug",
		"1 t=0.000000 plug file=1",
		"1 t=0.000000 plug ret=x",
		"1 t=0.000000 plug ret=",
		"1 t=0.000000 plug ret",
		"1 t=0.000000 access-begin file=1 cmd=1",
		"1 t=0.000000 access-begin file=1 cmd=0xg",
		"1 t=0.000000 access-begin file=-1 cmd=0x1",
		"1 t=0.000000 uevent action=readmem seqnum=1",
		"1 t=0.000000 open file=99999999999999999999999 ret=0",
		"1 t=0.000000 plug ret=0\nextra",
	};
	struct chardev_trace_entry e;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(chardev_trace_parse(bad[i], &e) == -EINVAL, "accepted '%s'", bad[i]);
	ck_assert_int_eq(chardev_trace_parse("3 t=1.500000 plug ret=0\n", &e), 0);
	ck_assert_uint_eq(e.t_ns, 1500000000);
}
END_TEST

/* ---- many writers, one reader ---- */

struct writer_arg {
	struct chardev_trace *tr;
	unsigned int id;
};

static void *writer_thread(void *p)
{
	struct writer_arg *w = p;
	int64_t i;

	for (i = 0; i < EVENTS_PER_WRITER; i++)
		chardev_trace_record(w->tr, CHARDEV_TRACE_ACCESS_BEGIN, w->id, 0x0002, i, 0);
	return NULL;
}

/* Every copied entry must be one writer's whole record, in its own order. */
static void check_snapshot(const struct chardev_trace_entry *e, size_t n)
{
	int64_t last[WRITERS + 1];
	size_t i;

	for (i = 0; i <= WRITERS; i++)
		last[i] = -1;
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(e[i].event, CHARDEV_TRACE_ACCESS_BEGIN);
		ck_assert_uint_eq(e[i].cmd, 0x0002);
		ck_assert_uint_ge(e[i].file, 1);
		ck_assert_uint_le(e[i].file, WRITERS);
		if (i)
			ck_assert_uint_gt(e[i].seq, e[i - 1].seq);
		ck_assert_int_gt(e[i].a, last[e[i].file]);
		last[e[i].file] = e[i].a;
	}
}

START_TEST(test_trace_concurrent_writers)
{
	struct chardev_trace *tr = trace_new(1024);
	struct chardev_trace_entry *e = calloc(1024, sizeof(*e));
	struct writer_arg args[WRITERS];
	pthread_t threads[WRITERS];
	uint64_t dropped;
	size_t n;
	int i;

	ck_assert_ptr_nonnull(e);
	for (i = 0; i < WRITERS; i++) {
		args[i] = (struct writer_arg){ tr, (unsigned int)i + 1 };
		ck_assert_int_eq(pthread_create(&threads[i], NULL, writer_thread, &args[i]), 0);
	}
	/* Snapshots taken while the writers run are whole entries, in order. */
	for (i = 0; i < 50; i++) {
		n = chardev_trace_snapshot(tr, e, 1024, &dropped);
		check_snapshot(e, n);
	}
	for (i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	n = chardev_trace_snapshot(tr, e, 1024, &dropped);
	check_snapshot(e, n);
	/* Every number was handed out once; all of them are held or dropped. */
	ck_assert_uint_eq(n + dropped, (uint64_t)WRITERS * EVENTS_PER_WRITER);
	ck_assert_uint_eq(e[n - 1].seq, (uint64_t)WRITERS * EVENTS_PER_WRITER);
	/* Quiescent: the full last lap is there, unless a lapped writer lost a slot. */
	ck_assert_uint_ge(n, 1000);
	free(e);
	chardev_trace_destroy(tr);
}
END_TEST

/**
 * main() - run the trace suite.
 *
 * Return: EXIT_SUCCESS when every test passed.
 */
int main(void)
{
	Suite *s = suite_create("chardev_trace");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_trace_create_bad);
	tcase_add_test(tc, test_trace_order_and_fields);
	tcase_add_test(tc, test_trace_own_clock);
	tcase_add_test(tc, test_trace_wrap_and_dropped);
	tcase_add_test(tc, test_trace_clear);
	tcase_add_test(tc, test_trace_text_round_trip);
	tcase_add_test(tc, test_trace_parse_bad);
	tcase_add_test(tc, test_trace_concurrent_writers);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
