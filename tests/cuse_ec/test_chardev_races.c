// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_races.c - parked reads and unplug failures through the
 * chardev seam: the order parked reads are served in, the lost wake-up when
 * a non-blocking read takes the event a parked read was handed, and an
 * unplug whose revoke cannot start (injected) leaving everything as it was.
 *
 * The injection replaces revocable_provider_revoke_async() for this program
 * only: the daemon's code is linked in statically and binds to the
 * definition below, which forwards to the library's unless told to fail.
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "chardev.h"
#include "chardev_testing.h"
#include "control.h"
#include "ec/ec.h"
#include "harness.h"
#include "revocable.h"
#include "../check_run.h"

#define DEADLINE_MS 20000

/* ---- revoke failure injection ---- */

static atomic_int revoke_async_error;

int revocable_provider_revoke_async(struct revocable_provider *rp,
				    void (*done)(struct revocable_provider *rp, void *arg),
				    void *arg)
{
	int (*real)(struct revocable_provider *, void (*)(struct revocable_provider *, void *),
		    void *);
	int err = atomic_load(&revoke_async_error);

	if (err)
		return err;
	*(void **)&real = dlsym(RTLD_NEXT, "revocable_provider_revoke_async");
	ck_assert_ptr_nonnull(real);
	return real(rp, done, arg);
}

/* ---- helpers ---- */

static int inject_cb(struct ec *ec, void *arg)
{
	return ec_inject_event(ec, *(const uint8_t *)arg, (const uint8_t[]){ 1, 2, 3, 4 }, 4);
}

static void inject(struct chardev_ctx *ctx, uint8_t type)
{
	ck_assert_int_eq(chardev_with_ec(ctx, inject_cb, &type), 0);
}

static struct chardev_file *open_events(struct chardev_ctx *ctx)
{
	struct chardev_file *file;

	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	ck_assert_int_eq(do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2,
				  (void *)(uintptr_t)(1u << EC_MKBP_EVENT_BUTTON), 0), 0);
	return file;
}

/* Start a blocking read that must park. */
static void park_read(struct chardev_file *file, struct fake_read *r)
{
	unsigned char buf[CHARDEV_READ_MAX];
	size_t outlen;

	fake_read_init(r);
	ck_assert_int_eq(chardev_read(file, sizeof(buf), false, r, buf, &outlen),
			 CHARDEV_READ_PARKED);
}

static int read_completions(struct fake_read *r)
{
	int n;

	pthread_mutex_lock(&r->lock);
	n = r->completions;
	pthread_mutex_unlock(&r->lock);
	return n;
}

static void count_done(void *arg, int result)
{
	atomic_fetch_add((atomic_int *)arg, 1);
}

/* ---- the order parked reads are served in ---- */

START_TEST(test_parked_order)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *a = open_events(ctx), *b = open_events(ctx);
	struct fake_read a1, a2, b1;

	/* Parked in this order: a1, b1, a2. */
	park_read(a, &a1);
	park_read(b, &b1);
	park_read(a, &a2);
	/* An event for both files: each file's oldest read gets it. */
	inject(ctx, EC_MKBP_EVENT_BUTTON);
	ck_assert_msg(fake_read_wait(&a1, DEADLINE_MS), "a1 (oldest on a) not served");
	ck_assert_msg(fake_read_wait(&b1, DEADLINE_MS), "b1 (only one on b) not served");
	ck_assert_int_eq(read_completions(&a2), 0);
	ck_assert_int_gt(a1.result, 0);
	/* The next event goes to the next read of a. */
	inject(ctx, EC_MKBP_EVENT_BUTTON);
	ck_assert_msg(fake_read_wait(&a2, DEADLINE_MS), "a2 not served by the second event");
	ck_assert_int_gt(a2.result, 0);
	/* b's copy of the second event is queued for its next read. */
	ck_assert_uint_eq(chardev_poll(b, NULL), CHARDEV_POLLIN | CHARDEV_POLLRDNORM);
	chardev_release(a);
	chardev_release(b);
	harness_ctx_free(ctx);
}
END_TEST

/* Each path that ends parked reads ends exactly its own, once. */
START_TEST(test_parked_ends)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *a = open_events(ctx), *b = open_events(ctx);
	struct fake_read a1, a2, b1;

	park_read(a, &a1);
	park_read(b, &b1);
	park_read(a, &a2);
	/* Interrupt: only the read with that token. */
	chardev_read_cancel(ctx, &a2);
	ck_assert(fake_read_wait(&a2, DEADLINE_MS));
	ck_assert_int_eq(a2.result, -EINTR);
	chardev_read_cancel(ctx, &a2);	/* already done: nothing happens */
	ck_assert_int_eq(read_completions(&a2), 1);
	ck_assert_int_eq(read_completions(&a1) + read_completions(&b1), 0);
	/* Release: the reads of that file. */
	chardev_release(b);
	ck_assert(fake_read_wait(&b1, DEADLINE_MS));
	ck_assert_int_eq(b1.result, -EBADF);
	ck_assert_int_eq(read_completions(&a1), 0);
	/* Unplug: the reads of the EC's files. */
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert(fake_read_wait(&a1, DEADLINE_MS));
	ck_assert_int_eq(a1.result, -ENODEV);
	ck_assert_int_eq(read_completions(&a1), 1);
	ck_assert_int_eq(read_completions(&b1), 1);
	ck_assert_int_eq(read_completions(&a2), 1);
	chardev_release(a);
	harness_ctx_free(ctx);
}
END_TEST

/* ---- a parked read handed an event a non-blocking read took ---- */

#define RACE_ROUNDS 5000

/**
 * struct race_round - threads that run one round of the race per barrier.
 * @ctx:    context
 * @file:   the file with the parked read
 * @start:  a round begins (the threads and the test)
 * @end:    a round is over
 * @stop:   no more rounds
 * @stolen: the non-blocking reader got an event this round
 * @injected: events injected this round
 * @seed:   per-round jitter source
 */
struct race_round {
	struct chardev_ctx *ctx;
	struct chardev_file *file;
	pthread_barrier_t start;
	pthread_barrier_t end;
	atomic_bool stop;
	atomic_int stolen;
	atomic_int injected;
	atomic_uint seed;
	struct fake_read parker_read;
	atomic_int parker_ret;
	atomic_size_t parker_len;
};

/* A few hundred iterations of nothing, varying per round and thread. */
static void race_jitter(struct race_round *rr, unsigned int salt)
{
	unsigned int n = (atomic_load(&rr->seed) * 2654435761u + salt * 40503u) >> 15;
	volatile unsigned int i;

	for (i = 0; i < n; i++)
		;
}

static void *race_injector(void *arg)
{
	struct race_round *rr = arg;
	static atomic_uint ids;
	unsigned int salt = atomic_fetch_add(&ids, 1);

	for (;;) {
		pthread_barrier_wait(&rr->start);
		if (atomic_load(&rr->stop))
			return NULL;
		race_jitter(rr, salt);
		inject(rr->ctx, EC_MKBP_EVENT_BUTTON);
		atomic_fetch_add(&rr->injected, 1);
		pthread_barrier_wait(&rr->end);
	}
}

static void *race_stealer(void *arg)
{
	struct race_round *rr = arg;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t outlen;

	for (;;) {
		pthread_barrier_wait(&rr->start);
		if (atomic_load(&rr->stop))
			return NULL;
		/* Until it took one event or both are in (then the round is settled). */
		while (atomic_load(&rr->injected) < 2) {
			if (!chardev_read(rr->file, sizeof(buf), true, NULL, buf, &outlen)) {
				atomic_store(&rr->stolen, 1);
				break;
			}
		}
		pthread_barrier_wait(&rr->end);
	}
}

/*
 * Start a race's threads: two injectors, a stealer and, with @parker, the
 * thread in charge of it (race_parker(), below). The caller is the round's
 * referee, the last party of both barriers.
 */
static void *race_parker(void *arg);

static int race_begin(struct race_round *rr, struct chardev_ctx *ctx, bool parker,
		      pthread_t *t)
{
	int n = 0;

	rr->ctx = ctx;
	rr->file = open_events(ctx);
	pthread_barrier_init(&rr->start, NULL, parker ? 5 : 4);
	pthread_barrier_init(&rr->end, NULL, parker ? 5 : 4);
	ck_assert_int_eq(pthread_create(&t[n++], NULL, race_injector, rr), 0);
	ck_assert_int_eq(pthread_create(&t[n++], NULL, race_injector, rr), 0);
	ck_assert_int_eq(pthread_create(&t[n++], NULL, race_stealer, rr), 0);
	if (parker)
		ck_assert_int_eq(pthread_create(&t[n++], NULL, race_parker, rr), 0);
	return n;
}

/* Run round @round to its end; return whether the stealer took an event. */
static int race_run_round(struct race_round *rr, int round)
{
	atomic_store(&rr->stolen, 0);
	atomic_store(&rr->injected, 0);
	atomic_store(&rr->seed, (unsigned int)round);
	pthread_barrier_wait(&rr->start);
	pthread_barrier_wait(&rr->end);
	return atomic_load(&rr->stolen);
}

/* Stop and join the @n threads of race_begin(). */
static void race_end(struct race_round *rr, pthread_t *t, int n)
{
	int i;

	atomic_store(&rr->stop, true);
	pthread_barrier_wait(&rr->start);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&rr->start);
	pthread_barrier_destroy(&rr->end);
}

/*
 * Two events raced by two threads against a non-blocking reader, with one
 * blocking read parked: the reader handed the first event often finds it
 * taken and parks again. Once a round is over, the parked read may still
 * be waiting only if no event is queued: a read left parked next to a
 * queued event has lost its wake-up for good (nobody notifies it again).
 * The jitter spreads the second event over the window in which the first
 * one's delivery parks the read again.
 */
START_TEST(test_deliver_vs_nonblocking_read)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct race_round rr = { 0 };
	unsigned char buf[CHARDEV_READ_MAX];
	int round, n, served = 0, stolen = 0;
	struct fake_read parked;
	pthread_t t[4];
	size_t outlen;

	n = race_begin(&rr, ctx, false, t);
	park_read(rr.file, &parked);
	for (round = 0; round < RACE_ROUNDS; round++) {
		stolen += race_run_round(&rr, round);

		/* Quiescent now: nothing can notify the parked read any more. */
		if (!read_completions(&parked)) {
			ck_assert_msg(!chardev_poll(rr.file, NULL),
				      "round %d: a read stays parked with an event queued "
				      "(lost wake-up)", round);
			continue;
		}
		ck_assert_int_gt(parked.result, 0);
		served++;
		/* Drain what is left and park a fresh read for the next round. */
		while (!chardev_read(rr.file, sizeof(buf), true, NULL, buf, &outlen))
			;
		park_read(rr.file, &parked);
	}
	race_end(&rr, t, n);
	/* Both sides of the race were exercised. */
	ck_assert_int_gt(served, 0);
	ck_assert_int_gt(stolen, 0);
	chardev_read_cancel(ctx, &parked);
	ck_assert(fake_read_wait(&parked, DEADLINE_MS));
	chardev_release(rr.file);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * The lost wake-up, made to happen: an event is handed to the one parked
 * read; at the point the read was taken but its queue not yet popped, a
 * non-blocking read takes the event (DELIVER_HANDED); at the point the
 * failed pop is about to park the read again, a second event is queued and
 * notified (DELIVER_REPARK), finding no read parked. Parking again must
 * look for it, so the parked read ends with the second event.
 */
struct window {
	bool stole, notified;
	int handed, reparked;
	int steal_ret;
	size_t steal_len;
	unsigned char stolen[CHARDEV_READ_MAX];
};

static void window_hook(void *arg, enum chardev_test_point point, struct chardev_file *file)
{
	static const struct ec_event second = {
		.type = EC_MKBP_EVENT_BUTTON, .len = 4, .data = { 0xb2, 2, 2, 2 },
	};
	struct window *w = arg;

	switch (point) {
	case CHARDEV_TEST_DELIVER_HANDED:
		w->handed++;
		if (!w->stole) {
			w->stole = true;
			w->steal_ret = chardev_read(file, sizeof(w->stolen), true, NULL,
						    w->stolen, &w->steal_len);
		}
		break;
	case CHARDEV_TEST_DELIVER_REPARK:
		w->reparked++;
		if (!w->notified) {
			w->notified = true;
			chardev_notify_file(file, &second);
		}
		break;
	default:
		break;	/* points of other tests */
	}
}

START_TEST(test_repark_looks_again)
{
	static const struct ec_event first = {
		.type = EC_MKBP_EVENT_BUTTON, .len = 4, .data = { 0xa1, 1, 1, 1 },
	};
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_events(ctx);
	struct window w = { 0 };
	struct fake_read r;

	park_read(file, &r);
	chardev_set_test_point(ctx, window_hook, &w);
	chardev_notify_file(file, &first);
	chardev_set_test_point(ctx, NULL, NULL);

	/* The non-blocking read took the first event inside the window... */
	ck_assert_int_eq(w.steal_ret, 0);
	ck_assert_uint_eq(w.steal_len, 1 + 4);
	ck_assert_uint_eq(w.stolen[1], 0xa1);
	ck_assert_int_eq(w.reparked, 1);
	/* ...and the parked read was not left beside the second one. */
	ck_assert_msg(read_completions(&r) == 1,
		      "the read stays parked with an event queued (lost wake-up; "
		      "handed %d, reparked %d)", w.handed, w.reparked);
	ck_assert_int_eq(r.result, 1 + 4);
	ck_assert_uint_eq(r.data[1], 0xb2);
	ck_assert_int_eq(w.handed, 2);
	ck_assert_uint_eq(chardev_poll(file, NULL), 0);
	ck_assert_uint_eq(STAT_NOW(ctx, parked_reads), 0);
	ck_assert_uint_eq(STAT_NOW(ctx, reads_parked), 1);
	chardev_release(file);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * The same window entered from the reader's side. A blocking read that
 * parks looks for an event queued meanwhile and, finding one, is handed it
 * in its own thread: that delivery runs beside the EC's notifier chain, not
 * inside it. If a non-blocking read takes the event first, the read parks
 * again; an event queued and notified between the failed pop and that
 * second park finds no read parked, so the second park must look again as
 * the first did. Each round: one thread parks a fresh blocking read, two
 * inject an event each, one steals with non-blocking reads. Once quiet, a
 * read still parked beside a queued event has lost its wake-up. That last
 * window is a few instructions wide, so real scheduling almost never enters
 * it: test_repark_looks_again enters it on purpose; this one runs every
 * path around it from real threads (TSan checks their locking).
 */
static void *race_parker(void *arg)
{
	struct race_round *rr = arg;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t outlen;

	for (;;) {
		pthread_barrier_wait(&rr->start);
		if (atomic_load(&rr->stop))
			return NULL;
		race_jitter(rr, 7);
		fake_read_init(&rr->parker_read);
		outlen = 0;
		atomic_store(&rr->parker_ret, chardev_read(rr->file, sizeof(buf), false,
							   &rr->parker_read, buf, &outlen));
		atomic_store(&rr->parker_len, outlen);
		pthread_barrier_wait(&rr->end);
	}
}

START_TEST(test_park_vs_nonblocking_read)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct race_round rr = { 0 };
	unsigned char buf[CHARDEV_READ_MAX];
	int round, n, parked = 0, handed = 0, stolen = 0;
	pthread_t t[4];
	size_t outlen;

	n = race_begin(&rr, ctx, true, t);
	for (round = 0; round < RACE_ROUNDS; round++) {
		stolen += race_run_round(&rr, round);

		if (atomic_load(&rr.parker_ret) == CHARDEV_READ_PARKED) {
			parked++;
			if (!read_completions(&rr.parker_read)) {
				/* Quiet: nothing can notify this read any more. */
				ck_assert_msg(!chardev_poll(rr.file, NULL),
					      "round %d: a read stays parked with an event "
					      "queued (lost wake-up)", round);
				chardev_read_cancel(ctx, &rr.parker_read);
			} else {
				handed++;
			}
			ck_assert(fake_read_wait(&rr.parker_read, DEADLINE_MS));
			ck_assert_int_eq(read_completions(&rr.parker_read), 1);
		} else {
			/* Not parked: it found an event at once. */
			ck_assert_int_eq(atomic_load(&rr.parker_ret), 0);
			ck_assert_uint_gt(atomic_load(&rr.parker_len), 0);
		}
		while (!chardev_read(rr.file, sizeof(buf), true, NULL, buf, &outlen))
			;
	}
	race_end(&rr, t, n);
	/* Every side of the race was exercised. */
	ck_assert_int_gt(parked, 0);
	ck_assert_int_gt(handed, 0);
	ck_assert_int_gt(stolen, 0);
	chardev_release(rr.file);
	harness_ctx_free(ctx);
}
END_TEST

/* ---- an unplug that cannot start ---- */

START_TEST(test_unplug_failure_undone)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file = open_events(ctx);
	uint32_t result = 0xffff;
	struct fake_poll fp = { 0 };
	struct chardev_stats st;
	struct control_cmd cmd;
	struct fake_read r;
	atomic_int done = 0;
	char reply[256];

	park_read(file, &r);
	ck_assert_uint_eq(chardev_poll(file, &fp), 0);

	atomic_store(&revoke_async_error, -EAGAIN);
	ck_assert_int_eq(chardev_unplug_async(ctx, count_done, &done), -EAGAIN);
	ck_assert_int_eq(chardev_unplug(ctx), -EAGAIN);
	/* Nothing happened: no callback, still plugged, nothing counted... */
	ck_assert_int_eq(atomic_load(&done), 0);
	ck_assert(chardev_is_plugged(ctx));
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.unplugs, 0);
	ck_assert_uint_eq(st.revocations, 0);
	/* ... the file is not dead, its read still parked, its poller not woken ... */
	ck_assert_int_eq(read_completions(&r), 0);
	ck_assert_uint_eq(chardev_poll(file, NULL), 0);
	ck_assert_int_eq(__atomic_load_n(&fp.notified, __ATOMIC_SEQ_CST), 0);
	ck_assert_int_eq(do_xcmd(file, EC_CMD_HELLO, 0, (const uint32_t[]){ 1 }, 4,
				 (uint32_t[]){ 0 }, 4, &result), 4);
	ck_assert_uint_eq(result, EC_RES_SUCCESS);
	/* ... and the control socket says so, keeping no operator hold. */
	ck_assert_int_eq(control_parse("unplug", &cmd, reply, sizeof(reply)), 0);
	ck_assert_int_eq(control_execute(ctx, &cmd, reply, sizeof(reply)), -EAGAIN);
	ck_assert_str_eq(reply, "error unplug failed: Resource temporarily unavailable errno=EAGAIN");
	ck_assert(!chardev_operator_hold(ctx));

	/* The EC still works: an event reaches the parked read. */
	inject(ctx, EC_MKBP_EVENT_BUTTON);
	ck_assert(fake_read_wait(&r, DEADLINE_MS));
	ck_assert_int_gt(r.result, 0);

	/* Once the revoke can start, the same unplug goes through. */
	atomic_store(&revoke_async_error, 0);
	park_read(file, &r);
	ck_assert_int_eq(chardev_unplug(ctx), 0);
	ck_assert(fake_read_wait(&r, DEADLINE_MS));
	ck_assert_int_eq(r.result, -ENODEV);
	ck_assert(!chardev_is_plugged(ctx));
	ck_assert_uint_eq(chardev_poll(file, NULL), CHARDEV_POLLERR);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.unplugs, 1);
	ck_assert_uint_eq(st.revocations, 1);
	chardev_release(file);
	ck_assert_int_eq(__atomic_load_n(&fp.destroyed, __ATOMIC_SEQ_CST), 1);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chardev_races");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_parked_order);
	tcase_add_test(tc, test_parked_ends);
	tcase_add_test(tc, test_deliver_vs_nonblocking_read);
	tcase_add_test(tc, test_park_vs_nonblocking_read);
	tcase_add_test(tc, test_repark_looks_again);
	tcase_add_test(tc, test_unplug_failure_undone);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
