// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_evidence.c - what the daemon records about itself: the gauges
 * (inflight_accesses, parked_reads), the last revoke's figures and the trace
 * order of a revoke that waits for a command in flight and wakes a blocked
 * reader.
 *
 * The command in flight is held inside the EC by a gate (the EC clock's
 * sleep blocks until the test opens it), so "still inside" is a fact the
 * test controls, not a guess about timing. Every wait is for a condition
 * the daemon reports, with a deadline and a message naming the condition.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chardev_trace.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

#define EV_BUTTON 3
#define DEADLINE_MS HARNESS_DEADLINE_MS

/**
 * struct gate - an EC clock whose latency sleep waits for the test.
 * @lock:     protects the fields below
 * @cond:     signalled when @open changes
 * @open:     sleepers may leave
 * @sleeping: sleepers inside now
 * @clock:    the ec_clock handed to the context
 */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;
	int sleeping;
	struct ec_clock clock;
};

static uint64_t gate_now_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void gate_sleep_ns(void *ctx, uint64_t ns)
{
	struct gate *g = ctx;

	(void)ns;
	pthread_mutex_lock(&g->lock);
	g->sleeping++;
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	g->sleeping--;
	pthread_mutex_unlock(&g->lock);
}

static void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->open = false;
	g->sleeping = 0;
	g->clock = (struct ec_clock){ gate_now_ns, gate_sleep_ns, g };
}

static void gate_set(struct gate *g, bool open)
{
	pthread_mutex_lock(&g->lock);
	g->open = open;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static struct chardev_file *open_ok(struct chardev_ctx *ctx)
{
	struct chardev_file *file = NULL;

	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	return file;
}

struct hello_arg {
	struct chardev_file *file;
	long ret;
};

static void *hello_thread(void *p)
{
	struct hello_arg *ha = p;
	uint32_t in = 7, out = 0, result = 0;

	ha->ret = do_xcmd(ha->file, EC_CMD_HELLO, 0, &in, sizeof(in), &out, sizeof(out), &result);
	if (ha->ret == 4 && (result != EC_RES_SUCCESS || out != in + EC_HELLO_MAGIC))
		ha->ret = -EBADMSG;
	return NULL;
}

struct trace_view {
	struct chardev_trace_entry e[CHARDEV_TRACE_DEFAULT_EVENTS];
	size_t n;
};

static void trace_take(struct chardev_ctx *ctx, struct trace_view *v)
{
	uint64_t dropped;

	v->n = chardev_trace_snapshot(chardev_trace(ctx), v->e, CHARDEV_TRACE_DEFAULT_EVENTS,
				      &dropped);
	ck_assert_uint_eq(dropped, 0);
}

/* The first event of @ev (for @file unless 0) after @after, or NULL. */
static const struct chardev_trace_entry *trace_find(const struct trace_view *v,
						    enum chardev_trace_event ev, uint64_t file,
						    uint64_t after)
{
	for (size_t i = 0; i < v->n; i++) {
		if (v->e[i].event == ev && v->e[i].seq > after && (!file || v->e[i].file == file))
			return &v->e[i];
	}
	return NULL;
}

static atomic_int unplug_done;

static void count_done(void *arg, int result)
{
	(void)arg;
	(void)result;
	atomic_fetch_add(&unplug_done, 1);
}

/* The XCMD held in the EC: return its access-begin. */
static uint64_t start_held_hello(struct chardev_ctx *ctx, struct hello_arg *ha, pthread_t *t)
{
	struct trace_view *v = malloc(sizeof(*v));
	const struct chardev_trace_entry *begin;
	uint64_t seq;

	ck_assert_ptr_nonnull(v);
	ha->ret = -1;
	ck_assert_int_eq(pthread_create(t, NULL, hello_thread, ha), 0);
	WAIT_UNTIL(STAT_NOW(ctx, inflight_accesses) >= 1);
	trace_take(ctx, v);
	begin = trace_find(v, CHARDEV_TRACE_ACCESS_BEGIN, 0, 0);
	while (begin && begin->cmd != EC_CMD_HELLO)
		begin = trace_find(v, CHARDEV_TRACE_ACCESS_BEGIN, 0, begin->seq);
	ck_assert_msg(begin, "no access-begin of HELLO in the trace");
	seq = begin->seq;
	free(v);
	return seq;
}

/* After the revoke: it waited for the command, in the trace and the stats. */
static void check_revoke_waited(struct chardev_ctx *ctx, uint64_t begin_seq)
{
	struct trace_view *v = malloc(sizeof(*v));
	const struct chardev_trace_entry *start, *end = NULL, *done;

	ck_assert_ptr_nonnull(v);
	trace_take(ctx, v);
	start = trace_find(v, CHARDEV_TRACE_REVOKE_START, 0, begin_seq);
	ck_assert_msg(start, "no revoke-start after the in-flight access-begin");
	ck_assert_int_eq(start->a, 1);	/* one access inside when it began */
	for (size_t i = 0; i < v->n; i++) {
		if (v->e[i].event == CHARDEV_TRACE_ACCESS_END && v->e[i].a == (int64_t)begin_seq)
			end = &v->e[i];
	}
	ck_assert_msg(end, "no access-end for the in-flight access #%llu",
		      (unsigned long long)begin_seq);
	ck_assert_int_eq(end->b, 4);	/* the HELLO answered */
	done = trace_find(v, CHARDEV_TRACE_REVOKE_DONE, 0, start->seq);
	ck_assert_msg(done, "no revoke-done after revoke-start");
	ck_assert_msg(end->seq > start->seq && end->seq < done->seq,
		      "want revoke-start #%llu < access-end #%llu < revoke-done #%llu",
		      (unsigned long long)start->seq, (unsigned long long)end->seq,
		      (unsigned long long)done->seq);
	ck_assert_int_eq(done->a, 1);
	ck_assert_uint_eq(STAT_NOW(ctx, revoke_waited_accesses), 1);
	ck_assert_uint_gt(STAT_NOW(ctx, last_revoke_wait_ns), 0);
	ck_assert_uint_eq(STAT_NOW(ctx, inflight_accesses), 0);
	free(v);
}

/* The modes whose unplug waits for a command in flight. */
static const enum lifecycle_mode waiting_modes[] = { LIFECYCLE_REVOCABLE, LIFECYCLE_FENCED };

START_TEST(test_async_revoke_waits_for_held_command)
{
	struct gate g;
	struct chardev_ctx *ctx;
	struct hello_arg ha;
	uint64_t begin;
	pthread_t t;

	gate_init(&g);
	ctx = harness_ctx_clock(waiting_modes[_i], &g.clock);
	ck_assert_int_eq(chardev_set_latency(ctx, 1000), 0);
	ha.file = open_ok(ctx);
	begin = start_held_hello(ctx, &ha, &t);
	atomic_store(&unplug_done, 0);
	ck_assert_int_eq(chardev_unplug_async(ctx, count_done, NULL), 0);
	/* The command is held inside: the revoke cannot have completed. */
	ck_assert_msg(atomic_load(&unplug_done) == 0,
		      "the revoke completed while a command was still inside the EC");
	ck_assert_uint_eq(STAT_NOW(ctx, inflight_accesses), 1);
	gate_set(&g, true);
	pthread_join(t, NULL);
	ck_assert_int_eq(ha.ret, 4);
	WAIT_UNTIL(atomic_load(&unplug_done) == 1);
	check_revoke_waited(ctx, begin);
	/* Gone for the old file; a second unplug has nothing to do. */
	hello_thread(&ha);
	ck_assert_int_eq(ha.ret, -ENODEV);
	ck_assert_int_eq(chardev_unplug_async(ctx, count_done, NULL), -ENODEV);
	ck_assert_int_eq(atomic_load(&unplug_done), 1);
	chardev_release(ha.file);
	harness_ctx_free(ctx);
}
END_TEST

static void *sync_unplug_thread(void *p)
{
	chardev_unplug(p);
	atomic_fetch_add(&unplug_done, 1);
	return NULL;
}

START_TEST(test_sync_revoke_waits_for_held_command)
{
	struct gate g;
	struct chardev_ctx *ctx;
	struct hello_arg ha;
	uint64_t begin;
	pthread_t t, u;

	gate_init(&g);
	ctx = harness_ctx_clock(waiting_modes[_i], &g.clock);
	ck_assert_int_eq(chardev_set_latency(ctx, 1000), 0);
	ha.file = open_ok(ctx);
	begin = start_held_hello(ctx, &ha, &t);
	atomic_store(&unplug_done, 0);
	ck_assert_int_eq(pthread_create(&u, NULL, sync_unplug_thread, ctx), 0);
	WAIT_UNTIL(STAT_NOW(ctx, unplugs) == 1);
	ck_assert_msg(atomic_load(&unplug_done) == 0,
		      "the unplug returned while a command was still inside the EC");
	gate_set(&g, true);
	pthread_join(u, NULL);
	pthread_join(t, NULL);
	ck_assert_int_eq(ha.ret, 4);
	check_revoke_waited(ctx, begin);
	chardev_release(ha.file);
	harness_ctx_free(ctx);
}
END_TEST

/* refcount and unsafe: the unplug waits for nothing, and says so. */
START_TEST(test_teaching_modes_wait_for_nothing)
{
	struct gate g;
	struct chardev_ctx *ctx;
	struct hello_arg ha;
	pthread_t t;

	gate_init(&g);
	ctx = harness_ctx_clock(LIFECYCLE_REFCOUNT, &g.clock);
	ck_assert_int_eq(chardev_set_latency(ctx, 1000), 0);
	ha.file = open_ok(ctx);
	start_held_hello(ctx, &ha, &t);
	ck_assert_int_eq(chardev_unplug(ctx), 0);	/* returns with the command inside */
	ck_assert_uint_eq(STAT_NOW(ctx, inflight_accesses), 1);
	ck_assert_uint_eq(STAT_NOW(ctx, revoke_waited_accesses), 0);
	gate_set(&g, true);
	pthread_join(t, NULL);
	ck_assert_int_eq(ha.ret, 4);
	ck_assert_uint_eq(STAT_NOW(ctx, revoke_waited_accesses), 0);
	chardev_release(ha.file);
	harness_ctx_free(ctx);
}
END_TEST

struct reader_arg {
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	int ret;
};

static void *reader_thread(void *p)
{
	struct reader_arg *ra = p;
	unsigned char buf[64];

	ra->ret = do_read(ra->ctx, ra->file, buf, sizeof(buf), false, DEADLINE_MS);
	return NULL;
}

START_TEST(test_parked_reader_in_gauge_and_trace)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct reader_arg ra[2] = { { ctx, NULL, 1 }, { ctx, NULL, 1 } };
	struct trace_view *v = malloc(sizeof(*v));
	const struct chardev_trace_entry *parked, *start, *woken, *all;
	pthread_t t[2];
	int i;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < 2; i++) {
		ra[i].file = open_ok(ctx);
		ck_assert_int_eq(do_ioctl(ra[i].file, CROS_EC_DEV_IOCEVENTMASK_V2,
					  (void *)(uintptr_t)(1u << EV_BUTTON), 0), 0);
		ck_assert_int_eq(pthread_create(&t[i], NULL, reader_thread, &ra[i]), 0);
	}
	WAIT_UNTIL(STAT_NOW(ctx, parked_reads) >= 2);
	ck_assert_uint_eq(STAT_NOW(ctx, reads_parked), 2);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	for (i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		ck_assert_int_eq(ra[i].ret, -ENODEV);
	}
	ck_assert_uint_eq(STAT_NOW(ctx, parked_reads), 0);
	ck_assert_uint_eq(STAT_NOW(ctx, reads_parked), 2);
	trace_take(ctx, v);
	start = trace_find(v, CHARDEV_TRACE_REVOKE_START, 0, 0);
	ck_assert_ptr_nonnull(start);
	for (i = 0; i < 2; i++) {
		uint64_t id = 0;

		/* The file's id: its open is in the trace. */
		for (size_t k = 0, opens = 0; k < v->n; k++) {
			if (v->e[k].event == CHARDEV_TRACE_OPEN && opens++ == (size_t)i)
				id = v->e[k].file;
		}
		ck_assert_uint_ne(id, 0);
		parked = trace_find(v, CHARDEV_TRACE_READ_PARKED, id, 0);
		woken = trace_find(v, CHARDEV_TRACE_READ_WOKEN, id, 0);
		ck_assert_msg(parked && woken, "file %llu: no read-parked/read-woken",
			      (unsigned long long)id);
		ck_assert_msg(parked->seq < start->seq && start->seq < woken->seq,
			      "want read-parked #%llu < revoke-start #%llu < read-woken #%llu",
			      (unsigned long long)parked->seq, (unsigned long long)start->seq,
			      (unsigned long long)woken->seq);
		ck_assert_int_eq(woken->a, -ENODEV);
	}
	all = trace_find(v, CHARDEV_TRACE_READERS_WOKEN, 0, start->seq);
	ck_assert_ptr_nonnull(all);
	ck_assert_int_eq(all->a, 2);
	for (i = 0; i < 2; i++)
		chardev_release(ra[i].file);
	free(v);
	harness_ctx_free(ctx);
}
END_TEST

/* Open, release and a refused open are in the trace with their file ids. */
START_TEST(test_open_release_in_trace)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct trace_view *v = malloc(sizeof(*v));
	struct chardev_file *a, *b, *c;
	const struct chardev_trace_entry *e;

	ck_assert_ptr_nonnull(v);
	a = open_ok(ctx);
	b = open_ok(ctx);
	chardev_release(a);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert_int_eq(chardev_open(ctx, &c), -ENODEV);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	chardev_release(b);
	trace_take(ctx, v);
	e = trace_find(v, CHARDEV_TRACE_OPEN, 1, 0);
	ck_assert_msg(e && e->a == 0, "no open of file 1");
	e = trace_find(v, CHARDEV_TRACE_RELEASE, 1, e->seq);
	ck_assert_msg(e, "no release of file 1 after its open");
	e = trace_find(v, CHARDEV_TRACE_OPEN, 3, 0);
	ck_assert_msg(e && e->a == -ENODEV, "the refused open is not in the trace");
	ck_assert_ptr_nonnull(trace_find(v, CHARDEV_TRACE_PLUG, 0, e->seq));
	ck_assert_ptr_nonnull(trace_find(v, CHARDEV_TRACE_RELEASE, 2, e->seq));
	ck_assert_uint_eq(STAT_NOW(ctx, inflight_accesses), 0);
	free(v);
	harness_ctx_free(ctx);
}
END_TEST

/**
 * main() - run the evidence suite.
 *
 * Return: EXIT_SUCCESS when every test passed.
 */
int main(void)
{
	Suite *s = suite_create("chardev_evidence");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_async_revoke_waits_for_held_command, 0,
			    sizeof(waiting_modes) / sizeof(waiting_modes[0]));
	tcase_add_loop_test(tc, test_sync_revoke_waits_for_held_command, 0,
			    sizeof(waiting_modes) / sizeof(waiting_modes[0]));
	tcase_add_test(tc, test_teaching_modes_wait_for_nothing);
	tcase_add_test(tc, test_parked_reader_in_gauge_and_trace);
	tcase_add_test(tc, test_open_release_in_trace);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
