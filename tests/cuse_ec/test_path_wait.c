// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_path_wait.c - path_wait(), the daemon's event-driven wait for its
 * /dev node and udevd's database entry, on a temporary directory: an entry
 * made, renamed in, or chmod'ed only after the first check (so only an
 * inotify wake-up can end the wait in time); a directory that appears
 * later; the deadline; and every bad argument.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "path_wait.h"
#include "../check_run.h"

/* Far longer than any wake-up takes; reached only when the wake-up is lost. */
#define WAIT_GENEROUS_MS 10000

enum change {
	CHANGE_CREATE,		/* create the entry */
	CHANGE_RENAME_IN,	/* rename it in from outside the directory */
	CHANGE_CHMOD,		/* chmod the existing entry to 0600 */
	CHANGE_MKDIR_CREATE,	/* make the directory, then the entry */
};

/**
 * struct trigger - one change, made by another thread once the waiter's
 * first check has found the entry not ready.
 * @lock:   protects @fired
 * @cond:   signalled when @fired is set
 * @fired:  the first check is done: make the change now
 * @calls:  readiness checks so far (only the waiting thread counts them)
 * @change: what to do
 * @root:   the temporary directory
 * @dir:    the watched directory, @root/d
 * @want_mode: CHANGE_CHMOD: the mode that makes the entry ready
 */
struct trigger {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool fired;
	int calls;
	enum change change;
	char root[64];
	char dir[80];
	mode_t want_mode;
};

static bool entry_ready(const char *path, const struct trigger *t)
{
	struct stat st;

	if (stat(path, &st))
		return false;
	return t->change != CHANGE_CHMOD || (st.st_mode & 07777) == t->want_mode;
}

/* Check first, then fire: the change can only come after a failed check. */
static bool ready_then_fire(const char *path, void *arg)
{
	struct trigger *t = arg;
	bool ready = entry_ready(path, t);

	if (++t->calls == 1) {
		ck_assert_msg(!ready, "%s ready before the change was made", path);
		pthread_mutex_lock(&t->lock);
		t->fired = true;
		pthread_cond_broadcast(&t->cond);
		pthread_mutex_unlock(&t->lock);
	}
	return ready;
}

static void touch(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	ck_assert_msg(fd >= 0, "create %s: %s", path, strerror(errno));
	close(fd);
}

static void *make_change(void *arg)
{
	struct trigger *t = arg;
	char path[128], tmp[128];

	pthread_mutex_lock(&t->lock);
	while (!t->fired)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);

	snprintf(path, sizeof(path), "%s/entry", t->dir);
	switch (t->change) {
	case CHANGE_CREATE:
		touch(path, 0644);
		break;
	case CHANGE_RENAME_IN:
		snprintf(tmp, sizeof(tmp), "%s/entry.tmp", t->root);
		touch(tmp, 0644);
		ck_assert_int_eq(rename(tmp, path), 0);
		break;
	case CHANGE_CHMOD:
		ck_assert_int_eq(chmod(path, t->want_mode), 0);
		break;
	case CHANGE_MKDIR_CREATE:
		ck_assert_int_eq(mkdir(t->dir, 0755), 0);
		touch(path, 0644);
		break;
	}
	return NULL;
}

static void trigger_init(struct trigger *t, enum change change)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	t->change = change;
	t->want_mode = 0600;
	snprintf(t->root, sizeof(t->root), "/tmp/test_path_wait.XXXXXX");
	ck_assert_msg(mkdtemp(t->root), "mkdtemp: %s", strerror(errno));
	snprintf(t->dir, sizeof(t->dir), "%s/d", t->root);
	if (change != CHANGE_MKDIR_CREATE)
		ck_assert_int_eq(mkdir(t->dir, 0755), 0);
}

static void trigger_cleanup(struct trigger *t)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/entry", t->dir);
	unlink(path);
	rmdir(t->dir);
	rmdir(t->root);
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
}

/* Wait for @t's change; the wait must end because of it, not the deadline. */
static void expect_woken_by(enum change change)
{
	struct trigger t;
	pthread_t thread;
	char path[128];
	int ret;

	trigger_init(&t, change);
	if (change == CHANGE_CHMOD) {
		snprintf(path, sizeof(path), "%s/entry", t.dir);
		touch(path, 0644);
	}
	ck_assert_int_eq(pthread_create(&thread, NULL, make_change, &t), 0);
	ret = path_wait(t.dir, "entry", ready_then_fire, &t, WAIT_GENEROUS_MS);
	if (ret) {
		/* Unblock the thread so that the failure below is reported. */
		pthread_mutex_lock(&t.lock);
		t.fired = true;
		pthread_cond_broadcast(&t.cond);
		pthread_mutex_unlock(&t.lock);
	}
	pthread_join(thread, NULL);
	ck_assert_msg(!ret, "change %d: the wait was not woken by it: %s", change,
		      strerror(-ret));
	ck_assert_msg(t.calls >= 2, "change %d: ready after %d checks", change, t.calls);
	trigger_cleanup(&t);
}

START_TEST(test_created_later)
{
	expect_woken_by(CHANGE_CREATE);
}
END_TEST

START_TEST(test_renamed_in)
{
	expect_woken_by(CHANGE_RENAME_IN);
}
END_TEST

START_TEST(test_chmod_later)
{
	expect_woken_by(CHANGE_CHMOD);
}
END_TEST

START_TEST(test_dir_later)
{
	expect_woken_by(CHANGE_MKDIR_CREATE);
}
END_TEST

START_TEST(test_already_there)
{
	struct trigger t;
	char path[128];

	trigger_init(&t, CHANGE_CREATE);
	snprintf(path, sizeof(path), "%s/entry", t.dir);
	touch(path, 0644);
	/* NULL: "exists"; and a zero timeout still checks once. */
	ck_assert_int_eq(path_wait(t.dir, "entry", NULL, NULL, 0), 0);
	ck_assert_int_eq(path_wait(t.dir, "entry", NULL, NULL, WAIT_GENEROUS_MS), 0);
	trigger_cleanup(&t);
}
END_TEST

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

START_TEST(test_never_created)
{
	struct trigger t;
	int64_t start, took;

	trigger_init(&t, CHANGE_CREATE);
	ck_assert_int_eq(path_wait(t.dir, "entry", NULL, NULL, 0), -ETIMEDOUT);
	start = now_ms();
	ck_assert_int_eq(path_wait(t.dir, "entry", NULL, NULL, 100), -ETIMEDOUT);
	took = now_ms() - start;
	/* Measured on this one thread's monotonic clock: not before the deadline. */
	ck_assert_msg(took >= 100, "gave up after %lld ms, deadline 100 ms", (long long)took);
	trigger_cleanup(&t);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct trigger t;
	char longname[PATH_MAX + 2], path[128];

	trigger_init(&t, CHANGE_CREATE);
	ck_assert_int_eq(path_wait(t.dir, "a/b", NULL, NULL, 10), -EINVAL);
	ck_assert_int_eq(path_wait(t.dir, "", NULL, NULL, 10), -EINVAL);
	ck_assert_int_eq(path_wait(t.dir, NULL, NULL, NULL, 10), -EINVAL);
	ck_assert_int_eq(path_wait("", "entry", NULL, NULL, 10), -EINVAL);
	ck_assert_int_eq(path_wait(NULL, "entry", NULL, NULL, 10), -EINVAL);
	ck_assert_int_eq(path_wait(t.dir, "entry", NULL, NULL, -1), -EINVAL);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(path_wait(t.dir, longname, NULL, NULL, 10), -ENAMETOOLONG);
	/* Neither the directory nor its parent: nothing to watch. */
	snprintf(path, sizeof(path), "%s/no/such", t.dir);
	ck_assert_int_eq(path_wait(path, "entry", NULL, NULL, 10), -ENOENT);
	/* A regular file is no directory to wait in. */
	snprintf(path, sizeof(path), "%s/entry", t.dir);
	touch(path, 0644);
	ck_assert_int_eq(path_wait(path, "entry", NULL, NULL, 10), -ENOTDIR);
	trigger_cleanup(&t);
}
END_TEST

static Suite *path_wait_suite(void)
{
	Suite *s = suite_create("path_wait");
	TCase *tc = tcase_create("path_wait");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_created_later);
	tcase_add_test(tc, test_renamed_in);
	tcase_add_test(tc, test_chmod_later);
	tcase_add_test(tc, test_dir_later);
	tcase_add_test(tc, test_already_there);
	tcase_add_test(tc, test_never_created);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(path_wait_suite());
}
