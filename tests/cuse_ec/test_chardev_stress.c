// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_chardev_stress.c - unplug/replug while 8 threads issue ioctls on one
 * shared file and 8 more on their own files, with latency inside the EC and
 * a reader blocked on events. Every call must return success or ENODEV,
 * once a file saw ENODEV it must keep seeing it, nothing may hang. Meant to
 * run under ASan+UBSan and TSan as well.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

#define WORKERS 8
#define CYCLES 40

struct stress {
	struct chardev_ctx *ctx;
	enum lifecycle_mode mode;
	pthread_rwlock_t shared_lock;	/* readers use @shared, the writer replaces it */
	struct chardev_file *shared;
	atomic_bool stop;
	atomic_uint_fast64_t ok, enodev, unexpected, reads_woken;
};

/* One operation: an XCMD HELLO or a READMEM, alternately. */
static long one_op(struct chardev_file *file, unsigned int i)
{
	struct cros_ec_readmem_v2 mem = { .offset = 0x20, .bytes = 2 };
	uint32_t in = i, out = 0, result = 0;
	long ret;

	if (i & 1) {
		ret = do_ioctl(file, CROS_EC_DEV_IOCRDMEM_V2, &mem, 0);
		if (ret == 2 && memcmp(mem.buffer, "EC", 2))
			return -EBADMSG;
		return ret == 2 ? 0 : ret;
	}
	ret = do_xcmd(file, EC_CMD_HELLO, 0, &in, 4, &out, 4, &result);
	if (ret == 4 && (result || out != in + EC_HELLO_MAGIC))
		return -EBADMSG;
	return ret == 4 ? 0 : ret;
}

static void account(struct stress *st, long ret)
{
	if (ret == 0)
		atomic_fetch_add(&st->ok, 1);
	else if (ret == -ENODEV)
		atomic_fetch_add(&st->enodev, 1);
	else
		atomic_fetch_add(&st->unexpected, 1);
}

/* Workers on the shared file: it is replaced by the main thread on replug. */
static void *shared_worker(void *p)
{
	struct stress *st = p;
	unsigned int i = 0;

	while (!atomic_load(&st->stop)) {
		struct chardev_file *file;

		/* A read lock: all workers use the one file at the same time. */
		pthread_rwlock_rdlock(&st->shared_lock);
		file = st->shared;
		if (file)
			account(st, one_op(file, i++));
		pthread_rwlock_unlock(&st->shared_lock);
		if (!file)
			usleep(100);
	}
	return NULL;
}

/* Workers with their own file: reopen after ENODEV; ENODEV must stick. */
static void *own_worker(void *p)
{
	struct stress *st = p;
	struct chardev_file *file = NULL;
	bool dead = false;
	unsigned int i = 0;
	long ret;

	while (!atomic_load(&st->stop)) {
		if (!file) {
			if (chardev_open(st->ctx, &file)) {
				file = NULL;
				usleep(100);
				continue;
			}
			dead = false;
		}
		ret = one_op(file, i++);
		if (dead && ret != -ENODEV)
			atomic_fetch_add(&st->unexpected, 1);	/* came back to life */
		account(st, ret);
		if (ret == -ENODEV) {
			dead = true;
			if (i % 3 == 0) {
				chardev_release(file);
				file = NULL;
			}
		}
	}
	if (file)
		chardev_release(file);
	return NULL;
}

/* A reader blocked on events; each unplug must wake it with ENODEV. */
static void *event_reader(void *p)
{
	struct stress *st = p;
	unsigned char buf[64];
	struct chardev_file *file;
	int ret;

	while (!atomic_load(&st->stop)) {
		if (chardev_open(st->ctx, &file)) {
			usleep(100);
			continue;
		}
		if (do_ioctl(file, CROS_EC_DEV_IOCEVENTMASK_V2, (void *)(uintptr_t)0x8, 0)) {
			chardev_release(file);
			continue;
		}
		ret = do_read(st->ctx, file, buf, sizeof(buf), false, 5000);
		if (ret == -ENODEV)
			atomic_fetch_add(&st->reads_woken, 1);
		else if (ret < 0 && !(st->mode != LIFECYCLE_REVOCABLE && ret == -ETIMEDOUT))
			atomic_fetch_add(&st->unexpected, 1);
		chardev_release(file);
	}
	return NULL;
}

static void run_stress(enum lifecycle_mode mode)
{
	struct stress st = { .mode = mode };
	pthread_t shared[WORKERS], own[WORKERS], reader;
	struct chardev_file *old;
	int cycle, i;

	st.ctx = harness_ctx(mode);
	pthread_rwlockattr_t attr;

	/* Writer preference, or 8 busy readers would starve the replug. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&st.shared_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	ck_assert_int_eq(chardev_open(st.ctx, &st.shared), 0);
	ck_assert_int_eq(chardev_set_latency(st.ctx, 200000), 0);	/* 200 us */

	for (i = 0; i < WORKERS; i++) {
		ck_assert_int_eq(pthread_create(&shared[i], NULL, shared_worker, &st), 0);
		ck_assert_int_eq(pthread_create(&own[i], NULL, own_worker, &st), 0);
	}
	if (mode == LIFECYCLE_REVOCABLE)
		ck_assert_int_eq(pthread_create(&reader, NULL, event_reader, &st), 0);

	for (cycle = 0; cycle < CYCLES; cycle++) {
		uint64_t refused, zombies;

		/*
		 * Each unplug races accesses really inside the EC, and the
		 * first one a reader really parked: the daemon says when.
		 */
		if (mode == LIFECYCLE_REVOCABLE && cycle == 0)
			WAIT_UNTIL(STAT_NOW(st.ctx, parked_reads) >= 1);
		WAIT_UNTIL(STAT_NOW(st.ctx, inflight_accesses) >= 1);
		refused = STAT_NOW(st.ctx, ioctl_enodev) + STAT_NOW(st.ctx, read_enodev);
		zombies = STAT_NOW(st.ctx, zombie_accesses);
		if (cycle & 1)
			ck_assert_int_eq(chardev_unplug(st.ctx), 0);
		else
			ck_assert_int_eq(chardev_unplug_async(st.ctx, NULL, NULL), 0);
		/* Old files were used while unplugged: refused, or zombies. */
		if (mode == LIFECYCLE_REVOCABLE)
			WAIT_UNTIL(STAT_NOW(st.ctx, ioctl_enodev) +
				   STAT_NOW(st.ctx, read_enodev) > refused);
		else
			WAIT_UNTIL(STAT_NOW(st.ctx, zombie_accesses) > zombies);
		ck_assert_int_eq(chardev_plug(st.ctx), 0);
		/* Replace the shared file: old one released, new one on the new EC. */
		pthread_rwlock_wrlock(&st.shared_lock);
		old = st.shared;
		ck_assert_int_eq(chardev_open(st.ctx, &st.shared), 0);
		pthread_rwlock_unlock(&st.shared_lock);
		chardev_release(old);
	}
	atomic_store(&st.stop, true);
	/* The blocked reader may wait for an event that never comes: unplug. */
	chardev_unplug(st.ctx);
	for (i = 0; i < WORKERS; i++) {
		pthread_join(shared[i], NULL);
		pthread_join(own[i], NULL);
	}
	if (mode == LIFECYCLE_REVOCABLE)
		pthread_join(reader, NULL);
	chardev_release(st.shared);

	ck_assert_uint_eq(atomic_load(&st.unexpected), 0);
	ck_assert_uint_gt(atomic_load(&st.ok), 0);
	if (mode == LIFECYCLE_REVOCABLE) {
		ck_assert_uint_gt(atomic_load(&st.enodev), 0);
		ck_assert_uint_gt(atomic_load(&st.reads_woken), 0);
	} else {
		struct chardev_stats cs;

		/* Refcount: nothing ever fails, the zombies answer instead. */
		ck_assert_uint_eq(atomic_load(&st.enodev), 0);
		chardev_stats(st.ctx, &cs);
		ck_assert_uint_gt(cs.zombie_accesses, 0);
	}
	pthread_rwlock_destroy(&st.shared_lock);
	harness_ctx_free(st.ctx);
}

START_TEST(test_stress_revocable)
{
	run_stress(LIFECYCLE_REVOCABLE);
}
END_TEST

START_TEST(test_stress_refcount)
{
	run_stress(LIFECYCLE_REFCOUNT);
}
END_TEST

/* 10,000 open/close cycles: every file's memory comes back (ASan/LSan check). */
START_TEST(test_open_close_cycles)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct chardev_file *file;
	struct chardev_stats cs;
	int i;

	for (i = 0; i < 10000; i++) {
		ck_assert_int_eq(chardev_open(ctx, &file), 0);
		chardev_release(file);
	}
	chardev_stats(ctx, &cs);
	ck_assert_uint_eq(cs.opens, 10000);
	ck_assert_uint_eq(cs.releases, 10000);
	ck_assert_uint_eq(cs.open_files, 0);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("chardev_stress");
	TCase *tc = tcase_create("stress");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_stress_revocable);
	tcase_add_test(tc, test_stress_refcount);
	tcase_add_test(tc, test_open_close_cycles);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
