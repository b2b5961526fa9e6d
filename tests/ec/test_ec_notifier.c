// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_notifier.c - MKBP events leaving the EC: the notifier chain that
 * listeners register on, the listener-owned queue, bad inputs, unregister
 * racing a delivery, and an EC destroyed with listeners still registered.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cros_ec/cros_ec_dev.h"
#include "ec_test_util.h"
#include "../check_run.h"

EC_TEST_FIXTURE(NULL);

/* The EC lock is free during a call, and the callee may call back in. */
static void hook_check_unlocked(struct test_listener *l, const struct ec_event *ev)
{
	int *free_calls = l->arg;
	uint8_t map[2];

	(void)ev;
	if (pthread_mutex_trylock(&ec->lock) == 0) {
		(*free_calls)++;
		pthread_mutex_unlock(&ec->lock);
	}
	ck_assert_int_eq(ec_read_memmap(ec, 0x20, 2, map), 2);
}

START_TEST(test_events_from_stimuli)
{
	struct test_listener l;
	uint8_t ev[32];
	int free_calls = 0;

	test_listener_init(&l, 0);
	l.hook = hook_check_unlocked;
	l.arg = &free_calls;
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	/* No mask: the listener is called but keeps nothing. */
	ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
	ck_assert_uint_eq(test_listener_calls(&l), 2);	/* switch + host event */
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), -EAGAIN);
	pthread_mutex_lock(&l.lock);
	l.mask = (1u << EC_MKBP_EVENT_SWITCH) | (1u << EC_MKBP_EVENT_BUTTON) |
		 (1u << EC_MKBP_EVENT_HOST_EVENT);
	pthread_mutex_unlock(&l.lock);
	ec_apply_stimulus(ec, EC_STIM_LID_OPEN);
	ck_assert_int_eq(free_calls, 4);
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), 5);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_SWITCH);
	ck_assert_uint_eq(le32(ev + 1), 1u << EC_MKBP_LID_OPEN);
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), 5);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_HOST_EVENT);
	ck_assert_uint_eq(le32(ev + 1), EC_HOST_EVENT_MASK(EC_HOST_EVENT_LID_OPEN));
	ck_assert_int_eq(test_listener_pop(&l, ev, sizeof(ev)), -EAGAIN);

	/* Same state again: no change, no event. */
	ec_apply_stimulus(ec, EC_STIM_LID_OPEN);
	ck_assert_uint_eq(test_listener_calls(&l), 4);

	ec_apply_stimulus(ec, EC_STIM_POWER_BUTTON);
	test_listener_pop(&l, ev, sizeof(ev));
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_BUTTON);
	ck_assert_uint_eq(le32(ev + 1), 1u << EC_MKBP_POWER_BUTTON);
	test_listener_pop(&l, ev, sizeof(ev));
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_HOST_EVENT);
	test_listener_pop(&l, ev, sizeof(ev));
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_BUTTON);
	ck_assert_uint_eq(le32(ev + 1), 0);
	ck_assert_int_eq(ec_apply_stimulus(ec, (enum ec_stimulus)99), -EINVAL);

	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
	ck_assert_uint_eq(test_listener_calls(&l), 7);
	test_listener_fini(&l);
}
END_TEST

/*
 * What cuse_ec(8) says each "inject EVENT" raises: one row per stimulus
 * (a new stimulus without a row fails here), the host event it raises
 * from the boot state, and whether doing it twice raises it again.
 */
START_TEST(test_every_stimulus_host_event)
{
	static const struct {
		enum ec_stimulus stim;
		int host_event;		/* 0: none */
		bool again;		/* a second time raises it again */
	} rows[] = {
		{ EC_STIM_LID_CLOSE, EC_HOST_EVENT_LID_CLOSED, false },
		{ EC_STIM_LID_OPEN, EC_HOST_EVENT_LID_OPEN, false },
		{ EC_STIM_POWER_BUTTON, EC_HOST_EVENT_POWER_BUTTON, true },
		{ EC_STIM_AC_UNPLUG, EC_HOST_EVENT_AC_DISCONNECTED, false },
		{ EC_STIM_AC_PLUG, EC_HOST_EVENT_AC_CONNECTED, false },
		{ EC_STIM_WP_ASSERT, 0, false },
		{ EC_STIM_WP_DEASSERT, 0, false },
		/* A laptop has no fingerprint sensor: test_ec_fp.c. */
		{ EC_STIM_FINGER_DOWN, 0, false },
		{ EC_STIM_FINGER_UP, 0, false },
	};
	struct test_listener l;
	uint8_t ev[32];
	size_t i;
	int round, n;

	ck_assert_uint_eq(sizeof(rows) / sizeof(rows[0]), EC_STIM_COUNT);
	test_listener_init(&l, 1u << EC_MKBP_EVENT_HOST_EVENT);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	for (i = 0; i < EC_STIM_COUNT; i++) {
		for (round = 0; round < 2; round++) {
			ck_assert_int_eq(ec_apply_stimulus(ec, rows[i].stim), 0);
			n = 0;
			while (test_listener_pop(&l, ev, sizeof(ev)) == 5) {
				ck_assert_uint_eq(le32(ev + 1),
						  EC_HOST_EVENT_MASK(rows[i].host_event));
				n++;
			}
			ck_assert_msg(n == (rows[i].host_event && (!round || rows[i].again)),
				      "%s, time %d: %d host events",
				      ec_stimulus_name(rows[i].stim), round + 1, n);
		}
	}
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_COUNT), -EINVAL);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	test_listener_fini(&l);
}
END_TEST

START_TEST(test_queue_cap_order_and_truncation)
{
	struct ec_event_queue q;
	struct ec_event e = { .type = EC_MKBP_EVENT_FINGERPRINT, .len = 16 };
	uint8_t ev[32];
	int i, n, popped = 0;

	ec_event_queue_init(&q);
	/* 17 bytes an event: 240 fit in 4096 bytes, the newer rest is dropped. */
	for (i = 0; i < 400; i++) {
		e.data[0] = (uint8_t)i;
		e.data[1] = (uint8_t)(i >> 8);
		n = ec_event_queue_push(&q, &e);
		ck_assert_int_eq(n, i < CROS_EC_MAX_EVENT_QUEUE_BYTES / 17 ? 0 : -ENOSPC);
	}
	ck_assert_uint_le(q.bytes, CROS_EC_MAX_EVENT_QUEUE_BYTES);
	while ((n = ec_event_queue_pop(&q, ev, sizeof(ev))) > 0) {
		ck_assert_int_eq(n, 17);
		ck_assert_int_eq(ev[1] | ev[2] << 8, popped);
		popped++;
	}
	ck_assert_int_eq(n, -EAGAIN);
	ck_assert_int_eq(popped, CROS_EC_MAX_EVENT_QUEUE_BYTES / 17);
	ck_assert_uint_eq(q.bytes, 0);
	/* Truncation keeps the type byte; a zero-length pop only peeks. */
	ck_assert_int_eq(ec_event_queue_push(&q, &e), 0);
	ck_assert_int_eq(ec_event_queue_pop(&q, ev, 3), 3);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_FINGERPRINT);
	e.len = 0;
	ck_assert_int_eq(ec_event_queue_push(&q, &e), 0);
	ck_assert_int_eq(ec_event_queue_pop(&q, NULL, 0), 0);
	ck_assert(ec_event_queue_pending(&q));
	ck_assert_int_eq(ec_event_queue_pop(&q, ev, sizeof(ev)), 1);
	ck_assert(!ec_event_queue_pending(&q));
	/* Clear frees what is left (ASan/valgrind check the leak). */
	ck_assert_int_eq(ec_event_queue_push(&q, &e), 0);
	ec_event_queue_clear(&q);
	ck_assert(!ec_event_queue_pending(&q));
}
END_TEST

START_TEST(test_bad_inputs)
{
	struct ec_event_queue q;
	struct ec_event e = { .type = 1, .len = EC_EVENT_PAYLOAD_MAX + 1 };
	struct test_listener l;
	struct ec_notifier no_call = { 0 };
	uint8_t payload[17] = { 0 };

	ec_event_queue_init(&q);
	ck_assert_int_eq(ec_event_queue_push(&q, &e), -EINVAL);
	ck_assert_int_eq(ec_event_queue_push(NULL, &e), -EINVAL);
	ck_assert_int_eq(ec_event_queue_push(&q, NULL), -EINVAL);
	ck_assert_int_eq(ec_event_queue_pop(&q, NULL, 0), -EAGAIN);
	ck_assert_int_eq(ec_event_queue_pop(&q, NULL, 4), -EINVAL);
	ck_assert_int_eq(ec_event_queue_pop(NULL, payload, 4), -EINVAL);
	ck_assert(!ec_event_queue_pending(NULL));
	ec_event_queue_clear(NULL);

	test_listener_init(&l, ~0u);
	ck_assert_int_eq(ec_notifier_register(NULL, &l.nb), -EINVAL);
	ck_assert_int_eq(ec_notifier_register(ec, NULL), -EINVAL);
	ck_assert_int_eq(ec_notifier_register(ec, &no_call), -EINVAL);
	ck_assert_int_eq(ec_notifier_unregister(NULL, &l.nb), -EINVAL);
	ck_assert_int_eq(ec_notifier_unregister(ec, NULL), -EINVAL);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), -ENOENT);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), -EEXIST);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), -ENOENT);
	ck_assert_int_eq(ec_tick(NULL), -EINVAL);

	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_COUNT, payload, 1), -EINVAL);
	ck_assert_int_eq(ec_inject_event(ec, 0, payload, 17), -EINVAL);
	ck_assert_int_eq(ec_inject_event(ec, 0, NULL, 1), -EINVAL);
	test_listener_fini(&l);
}
END_TEST

/* From inside a call: chain changes refuse, EC calls work, order holds. */
static void hook_reenter(struct test_listener *l, const struct ec_event *ev)
{
	uint8_t one = 1;

	ck_assert_int_eq(ec_notifier_unregister(ec, &l->nb), -EDEADLK);
	ck_assert_int_eq(ec_notifier_register(ec, (struct ec_notifier *)l->arg), -EDEADLK);
	/* The first event raises a second one from inside its own delivery. */
	if (ev->type == EC_MKBP_EVENT_SYSRQ)
		ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_BUTTON, &one, 1), 0);
}

START_TEST(test_reentry_from_a_call)
{
	struct test_listener a, b;
	uint8_t ev[8], zero = 0;

	test_listener_init(&a, ~0u);
	test_listener_init(&b, ~0u);
	a.hook = hook_reenter;
	a.arg = &b.nb;
	ck_assert_int_eq(ec_notifier_register(ec, &a.nb), 0);
	ck_assert_int_eq(ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, &zero, 1), 0);
	/* Both events arrived, in the order raised, each once. */
	ck_assert_uint_eq(test_listener_calls(&a), 2);
	ck_assert_int_eq(test_listener_pop(&a, ev, sizeof(ev)), 2);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_SYSRQ);
	ck_assert_int_eq(test_listener_pop(&a, ev, sizeof(ev)), 2);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_BUTTON);
	ck_assert_uint_eq(test_listener_calls(&b), 0);
	ck_assert_int_eq(ec_notifier_unregister(ec, &a.nb), 0);
	test_listener_fini(&a);
	test_listener_fini(&b);
}
END_TEST

/*
 * Unregister while a call is running in another thread. The call parks
 * until the unregistering thread has announced itself, then finishes; the
 * component records the order (a sequence counter), the test reads it.
 */
struct unreg_race {
	struct test_listener l;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool in_call;
	bool unregistering;
	bool unreg_returned;
	atomic_uint seq;
	unsigned int call_end_seq;
	unsigned int unreg_return_seq;
	int unreg_ret;
};

static void hook_slow(struct test_listener *l, const struct ec_event *ev)
{
	struct unreg_race *r = l->arg;
	struct timespec until;

	(void)ev;
	pthread_mutex_lock(&r->lock);
	r->in_call = true;
	pthread_cond_broadcast(&r->cond);
	while (!r->unregistering)
		pthread_cond_wait(&r->cond, &r->lock);
	/*
	 * Give a wrong unregister (one that does not wait for us) the chance
	 * to return first, so the order check below catches it every time. A
	 * right one cannot return before we do, so this bound only costs time.
	 */
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 100 * 1000 * 1000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	while (!r->unreg_returned &&
	       pthread_cond_timedwait(&r->cond, &r->lock, &until) == 0)
		;
	r->call_end_seq = atomic_fetch_add(&r->seq, 1) + 1;
	pthread_mutex_unlock(&r->lock);
}

static void *raise_one(void *arg)
{
	uint8_t zero = 0;

	(void)arg;
	ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, &zero, 1);
	return NULL;
}

START_TEST(test_unregister_during_a_call)
{
	struct unreg_race *r = calloc(1, sizeof(*r));
	pthread_t t;

	ck_assert_ptr_nonnull(r);
	test_listener_init(&r->l, ~0u);
	r->l.hook = hook_slow;
	r->l.arg = r;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	ck_assert_int_eq(ec_notifier_register(ec, &r->l.nb), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, raise_one, NULL), 0);
	pthread_mutex_lock(&r->lock);
	while (!r->in_call)
		pthread_cond_wait(&r->cond, &r->lock);
	r->unregistering = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	r->unreg_ret = ec_notifier_unregister(ec, &r->l.nb);
	r->unreg_return_seq = atomic_fetch_add(&r->seq, 1) + 1;
	pthread_mutex_lock(&r->lock);
	r->unreg_returned = true;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	pthread_join(t, NULL);

	ck_assert_int_eq(r->unreg_ret, 0);
	ck_assert_msg(r->call_end_seq < r->unreg_return_seq,
		      "unregister returned (seq %u) before the call in flight ended (seq %u)",
		      r->unreg_return_seq, r->call_end_seq);
	/* Gone from the chain: later events do not reach it. */
	ec_inject_event(ec, EC_MKBP_EVENT_SYSRQ, (uint8_t[1]){ 0 }, 1);
	ck_assert_uint_eq(test_listener_calls(&r->l), 1);
	test_listener_fini(&r->l);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->lock);
	/* Freed right after unregister, as a file's release frees its state. */
	free(r);
}
END_TEST

START_TEST(test_destroy_with_listeners_registered)
{
	struct test_listener *l = malloc(sizeof(*l));
	struct ec *e;
	uint8_t ev[8];

	ck_assert_ptr_nonnull(l);
	e = make_ec_file(NULL, &fc);
	test_listener_init(l, 1u << EC_MKBP_EVENT_SWITCH);
	ck_assert_int_eq(ec_notifier_register(e, &l->nb), 0);
	ec_apply_stimulus(e, EC_STIM_LID_CLOSE);
	ec_destroy(e);
	/* The EC is gone; the listener's queue is its own and still works. */
	ck_assert_int_eq(test_listener_pop(l, ev, sizeof(ev)), 5);
	ck_assert_uint_eq(ev[0], EC_MKBP_EVENT_SWITCH);
	ck_assert_int_eq(test_listener_pop(l, ev, sizeof(ev)), -EAGAIN);
	test_listener_fini(l);
	free(l);
}
END_TEST

struct race {
	struct ec *ec;
	int rounds;
};

static void *hammer(void *arg)
{
	struct race *r = arg;
	uint8_t resp[64], req[4] = { 1 };
	uint32_t status;
	int i;

	for (i = 0; i < r->rounds; i++) {
		ec_host_command(r->ec, EC_CMD_HELLO, 0, req, 4, resp, sizeof(resp), &status);
		ec_apply_stimulus(r->ec, i & 1 ? EC_STIM_LID_OPEN : EC_STIM_LID_CLOSE);
		ec_host_command(r->ec, EC_CMD_GET_NEXT_EVENT, 1, NULL, 0, resp, sizeof(resp),
				&status);
	}
	return NULL;
}

START_TEST(test_concurrent_raise_keeps_order_per_listener)
{
	struct race r = { .ec = ec, .rounds = 2000 };
	struct test_listener l, churn;
	uint8_t ev[32], last = 0xff;
	pthread_t t[2];
	int i, n, pops = 0;

	test_listener_init(&l, 1u << EC_MKBP_EVENT_SWITCH);
	test_listener_init(&churn, ~0u);
	ck_assert_int_eq(ec_notifier_register(ec, &l.nb), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer, &r), 0);
	/* Register and unregister while events flow. */
	for (i = 0; i < 200; i++) {
		ck_assert_int_eq(ec_notifier_register(ec, &churn.nb), 0);
		ck_assert_int_eq(ec_notifier_unregister(ec, &churn.nb), 0);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(ec_notifier_unregister(ec, &l.nb), 0);
	/* Switch events alternate open/closed: order survived the threads. */
	while ((n = test_listener_pop(&l, ev, sizeof(ev))) > 0) {
		if (pops++)
			ck_assert_uint_ne(ev[1], last);
		last = ev[1];
	}
	ck_assert_int_gt(pops, 0);
	test_listener_fini(&l);
	test_listener_fini(&churn);
}
END_TEST

static Suite *ec_notifier_suite(void)
{
	Suite *s = suite_create("ec_notifier");
	TCase *tc = tcase_create("notifier");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_events_from_stimuli);
	tcase_add_test(tc, test_every_stimulus_host_event);
	tcase_add_test(tc, test_queue_cap_order_and_truncation);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_reentry_from_a_call);
	tcase_add_test(tc, test_unregister_during_a_call);
	tcase_add_test(tc, test_destroy_with_listeners_registered);
	tcase_add_test(tc, test_concurrent_raise_keeps_order_per_listener);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_notifier_suite());
}
