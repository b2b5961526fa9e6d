// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_races.c - the control server against its own completions:
 * "unplug wait" finishing in another thread while the server stops, lines
 * pipelined behind a waiting command, a failed unplug, and a socket path
 * taken over by another server. Meant for TSan as much as for the plain
 * build: the stop race is a data race on freed memory that TSan reports
 * whatever the timing.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "chardev.h"
#include "control.h"
#include "harness.h"
#include "../check_run.h"

/* Generous: the machine is shared and TSan is slow. */
#define DEADLINE_MS 20000

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/**
 * struct ec_holder - a daemon-side EC access that stays open until told,
 * so an unplug's completion runs when the test says, in the holder's thread.
 */
struct ec_holder {
	struct chardev_ctx *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool inside;
	bool go;
};

static int holder_fn(struct ec *ec, void *arg)
{
	struct ec_holder *h = arg;

	pthread_mutex_lock(&h->lock);
	h->inside = true;
	pthread_cond_broadcast(&h->cond);
	while (!h->go)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	return 0;
}

static void *holder_main(void *arg)
{
	struct ec_holder *h = arg;

	ck_assert_int_eq(chardev_with_ec(h->ctx, holder_fn, h), 0);
	return NULL;
}

static void holder_start(struct ec_holder *h, struct chardev_ctx *ctx)
{
	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	ck_assert_int_eq(pthread_create(&h->thread, NULL, holder_main, h), 0);
	pthread_mutex_lock(&h->lock);
	while (!h->inside)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

/* Leave the access: the pending unplug completes in the holder's thread. */
static void holder_finish(struct ec_holder *h)
{
	pthread_mutex_lock(&h->lock);
	h->go = true;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->thread, NULL);
	pthread_cond_destroy(&h->cond);
	pthread_mutex_destroy(&h->lock);
}

static int connect_to(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	strcpy(addr.sun_path, path);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	return fd;
}

/* Read one reply line; fail naming @what if none comes in time. */
static void read_line(int fd, char *buf, size_t len, const char *what)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t off = 0;

	while (off + 1 < len) {
		ck_assert_msg(poll(&pfd, 1, DEADLINE_MS) == 1, "no reply to %s", what);
		ck_assert_msg(read(fd, buf + off, 1) == 1, "connection closed before %s", what);
		if (buf[off] == '\n')
			break;
		off++;
	}
	buf[off] = '\0';
}

static void send_all(int fd, const char *s)
{
	size_t len = strlen(s);

	ck_assert_int_eq(write(fd, s, len), (ssize_t)len);
}

/* Wait until the daemon counted @want unplugs started. */
static void wait_unplugs(struct chardev_ctx *ctx, uint64_t want)
{
	uint64_t deadline = now_ms() + DEADLINE_MS;
	struct chardev_stats st;

	for (;;) {
		chardev_stats(ctx, &st);
		if (st.unplugs >= want)
			return;
		ck_assert_msg(now_ms() < deadline, "unplug #%llu never started",
			      (unsigned long long)want);
		sched_yield();
	}
}

/*
 * Threads named @name (the kernel's task list says), into @tids (room for
 * @max); returns how many. Threads a named thread creates inherit its name
 * (liburcu's call_rcu worker, for one), so callers compare before and after.
 */
static size_t threads_named(const char *name, pid_t *tids, size_t max)
{
	char path[300], comm[32];
	struct dirent *de;
	size_t n = 0;
	DIR *dir;
	FILE *f;

	dir = opendir("/proc/self/task");
	ck_assert_ptr_nonnull(dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* exited meanwhile */
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (!strcmp(comm, name)) {
				ck_assert_uint_lt(n, max);
				tids[n++] = (pid_t)atoi(de->d_name);
			}
		}
		fclose(f);
	}
	closedir(dir);
	return n;
}

/*
 * Start a server and find its thread: the new thread with that name. A thread
 * the control thread starts inherits the name until it renames itself; the
 * control thread was created first, so among new ones it has the lowest tid.
 */
static pid_t server_start_find_thread(struct chardev_ctx *ctx, const char *path,
				      struct control_server **srv)
{
	pid_t before[16], after[16], tid = 0;
	size_t nb, na, i, j;

	nb = threads_named(CONTROL_THREAD_NAME, before, 16);
	ck_assert_int_eq(control_server_start(ctx, path, srv), 0);
	na = threads_named(CONTROL_THREAD_NAME, after, 16);
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && before[j] != after[i]; j++)
			;
		if (j == nb && (!tid || after[i] < tid))
			tid = after[i];
	}
	ck_assert_msg(tid, "the server's thread is not named " CONTROL_THREAD_NAME);
	return tid;
}

static bool thread_exists(pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	return access(path, F_OK) == 0;
}

static void *stop_main(void *arg)
{
	control_server_stop(arg);
	return NULL;
}

/*
 * "unplug wait" is pending (a reader is in the EC) when the server stops:
 * the completion then runs after the control thread is gone, while stop is
 * waiting for it, and must not touch the waiter or the server once stop
 * may free them. Repeated, each round with the completion landing after
 * the control thread exited (the kernel's task list says when).
 */
START_TEST(test_unplug_wait_vs_stop)
{
	char dir[] = "/tmp/cuse_ec_raceXXXXXX", path[128];
	int round;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	for (round = 0; round < 20; round++) {
		struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
		uint64_t deadline = now_ms() + DEADLINE_MS;
		struct control_server *srv;
		struct ec_holder holder;
		pthread_t stopper;
		pid_t control_tid;
		int fd;

		control_tid = server_start_find_thread(ctx, path, &srv);
		holder_start(&holder, ctx);
		fd = connect_to(path);
		send_all(fd, "unplug wait\n");
		wait_unplugs(ctx, 1);
		ck_assert_int_eq(pthread_create(&stopper, NULL, stop_main, srv), 0);
		while (thread_exists(control_tid)) {
			ck_assert_msg(now_ms() < deadline, "control thread did not exit on stop");
			sched_yield();
		}
		/* Stop is now waiting for the completion this triggers. */
		holder_finish(&holder);
		pthread_join(stopper, NULL);
		ck_assert_int_ne(access(path, F_OK), 0);
		close(fd);
		harness_ctx_free(ctx);
	}
	rmdir(dir);
}
END_TEST

/*
 * Lines sent behind "unplug wait" in the same write are answered, in order,
 * once it completes - also when together they are longer than one line may
 * be.
 */
START_TEST(test_unplug_wait_pipelined)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char dir[] = "/tmp/cuse_ec_raceXXXXXX", path[128], batch[1024], reply[256];
	struct control_server *srv;
	struct ec_holder holder;
	size_t used;
	int fd, i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ck_assert_int_eq(control_server_start(ctx, path, &srv), 0);
	holder_start(&holder, ctx);
	fd = connect_to(path);

	used = (size_t)snprintf(batch, sizeof(batch), "unplug wait\n");
	for (i = 0; i < 80; i++)
		used += (size_t)snprintf(batch + used, sizeof(batch) - used, "status\n");
	ck_assert_uint_gt(used, 2 * CTL_LINE_MAX);
	send_all(fd, batch);
	wait_unplugs(ctx, 1);
	holder_finish(&holder);

	read_line(fd, reply, sizeof(reply), "unplug wait");
	ck_assert_str_eq(reply, "ok unplugged");
	for (i = 0; i < 80; i++) {
		read_line(fd, reply, sizeof(reply), "a pipelined status");
		ck_assert_msg(!strcmp(reply, "ok unplugged lifecycle=revocable open_files=0"),
			      "status #%d: '%s'", i, reply);
	}
	close(fd);
	control_server_stop(srv);
	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

/*
 * A server whose socket path now names a newer server's socket (its own was
 * removed by hand, and a second daemon started there) leaves that path
 * alone when it stops. A live socket is never taken over: that start fails.
 */
START_TEST(test_stop_keeps_replaced_socket)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char dir[] = "/tmp/cuse_ec_raceXXXXXX", path[128], reply[256];
	struct control_server *old, *new;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ck_assert_int_eq(control_server_start(ctx, path, &old), 0);
	ck_assert_int_eq(control_server_start(ctx, path, &new), -EADDRINUSE);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(control_server_start(ctx, path, &new), 0);
	control_server_stop(old);
	ck_assert_msg(access(path, F_OK) == 0, "the newer server's socket was unlinked");
	fd = connect_to(path);
	send_all(fd, "status\n");
	read_line(fd, reply, sizeof(reply), "status to the newer server");
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");
	close(fd);
	control_server_stop(new);
	ck_assert_int_ne(access(path, F_OK), 0);
	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("control_races");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_unplug_wait_vs_stop);
	tcase_add_test(tc, test_unplug_wait_pipelined);
	tcase_add_test(tc, test_stop_keeps_replaced_socket);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
