/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_util.h - small helpers shared by the librevocable tests: clocks,
 * sleeps and threads that must finish within a deadline (a hang becomes a
 * test failure, never a stuck `make check`).
 */
#ifndef REVOCABLE_TEST_UTIL_H
#define REVOCABLE_TEST_UTIL_H

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../check_run.h"

static inline int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline pthread_t start_thread(void *(*fn)(void *), void *arg)
{
	pthread_t tid;

	ck_assert_int_eq(pthread_create(&tid, NULL, fn, arg), 0);
	return tid;
}

/* Join @tid, failing the test if it is not done within @ms. */
static inline void join_within(pthread_t tid, long ms, const char *what)
{
	struct timespec deadline;
	int ret;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	ret = pthread_timedjoin_np(tid, NULL, &deadline);
	ck_assert_msg(ret == 0, "%s did not finish within %ld ms (hang)",
		      what, ms);
}

/* Run @fn with stderr captured; return what it wrote (a static buffer). */
static inline const char *stderr_of(void (*fn)(void *), void *arg)
{
	static char buf[4096];
	int fds[2], saved;
	ssize_t n;

	ck_assert_int_eq(pipe(fds), 0);
	fflush(stderr);
	saved = dup(2);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fds[1], 2), 0);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

#endif /* REVOCABLE_TEST_UTIL_H */
