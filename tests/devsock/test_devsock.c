// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_devsock.c - the device socket's framing: whole messages both ways
 * (blocking or not), and every malformed record a peer can produce.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/check_run.h"
#include "devsock/devsock.h"

static int sv[2];

static void pair_setup(void)
{
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
}

static void pair_teardown(void)
{
	close(sv[0]);
	close(sv[1]);
}

START_TEST(test_roundtrip)
{
	struct devsock_hdr h = { .type = DEVSOCK_IOCTL, .flags = DEVSOCK_F_PREFETCH, .seq = 7,
				 .status = -5, .len = 3, .arg = { 1, 2, 3, 4 } }, got;
	char data[8] = { 0 };

	ck_assert_int_eq(devsock_send(sv[0], &h, "abc", 3), 0);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), 1);
	ck_assert(!memcmp(&h, &got, sizeof(h)));
	ck_assert_str_eq(data, "abc");
	/* No data: the header alone. */
	h.len = 0;
	ck_assert_int_eq(devsock_send(sv[0], &h, NULL, 0), 0);
	ck_assert_int_eq(devsock_recv(sv[1], &got, NULL, 0, 1), 1);
	ck_assert_uint_eq(got.len, 0);
}
END_TEST

START_TEST(test_send_refuses_bad_lengths)
{
	struct devsock_hdr h = { .type = DEVSOCK_READ, .len = 4 };
	static char big[DEVSOCK_DATA_MAX + 1];

	ck_assert_int_eq(devsock_send(sv[0], &h, "abc", 3), -EINVAL);	/* len disagrees */
	h.len = sizeof(big);
	ck_assert_int_eq(devsock_send(sv[0], &h, big, sizeof(big)), -EINVAL);
	h.len = 2;
	ck_assert_int_eq(devsock_send(sv[0], &h, NULL, 2), -EINVAL);	/* no data */
}
END_TEST

/* Write raw bytes as a hostile peer would, then close. */
static void raw(const void *buf, size_t len, bool close_after)
{
	ck_assert_int_eq(write(sv[0], buf, len), (ssize_t)len);
	if (close_after) {
		close(sv[0]);
		sv[0] = open("/dev/null", O_RDONLY);
	}
}

START_TEST(test_recv_rejects_malformed)
{
	struct devsock_hdr h = { .type = DEVSOCK_REPLY }, got;
	char data[16];

	/* Every type outside the enum. */
	h.type = 0;
	raw(&h, sizeof(h), false);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
	h.type = DEVSOCK_TYPE_COUNT;
	raw(&h, sizeof(h), false);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
	/* More data than the receiver has room for, or than any message has. */
	h.type = DEVSOCK_REPLY;
	h.len = sizeof(data) + 1;
	raw(&h, sizeof(h), false);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
	h.len = DEVSOCK_DATA_MAX + 1;
	raw(&h, sizeof(h), false);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, DEVSOCK_DATA_MAX + 2, 1), -EPROTO);
}
END_TEST

/* A record shorter than a header. */
START_TEST(test_recv_short_record)
{
	struct devsock_hdr h = { .type = DEVSOCK_REPLY }, got;
	char data[16];

	raw(&h, sizeof(h) / 2, false);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
	/* ... and the next record is read as its own. */
	ck_assert_int_eq(devsock_send(sv[0], &h, NULL, 0), 0);
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), 1);
}
END_TEST

/* A header whose @len is not what follows it in the record. */
START_TEST(test_recv_length_disagrees)
{
	struct {
		struct devsock_hdr h;
		char data[3];
	} rec = { .h = { .type = DEVSOCK_REPLY, .len = 8 }, .data = "ab" };
	struct devsock_hdr got;
	char data[16];

	raw(&rec.h, sizeof(rec.h), false);	/* says 8, carries none */
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
	raw(&rec, sizeof(rec.h) + 3, true);	/* says 8, carries 3 */
	ck_assert_int_eq(devsock_recv(sv[1], &got, data, sizeof(data), 1), -EPROTO);
}
END_TEST

START_TEST(test_recv_clean_end)
{
	struct devsock_hdr got;

	close(sv[0]);
	sv[0] = open("/dev/null", O_RDONLY);
	ck_assert_int_eq(devsock_recv(sv[1], &got, NULL, 0, 1), 0);
}
END_TEST

/* Nothing waiting: -EAGAIN at once, on a blocking socket; then the message whole. */
START_TEST(test_recv_nowait)
{
	struct devsock_hdr h = { .type = DEVSOCK_READ, .seq = 3, .len = 2 }, got;
	char data[4] = { 0 };

	ck_assert_int_eq(devsock_recv_nowait(sv[1], &got, data, sizeof(data)), -EAGAIN);
	ck_assert_int_eq(devsock_send(sv[0], &h, "ok", 2), 0);
	ck_assert_int_eq(devsock_recv_nowait(sv[1], &got, data, sizeof(data)), 1);
	ck_assert_uint_eq(got.seq, 3);
	ck_assert(!memcmp(data, "ok", 2));
	ck_assert_int_eq(devsock_recv_nowait(sv[1], &got, data, sizeof(data)), -EAGAIN);
	close(sv[0]);
	sv[0] = open("/dev/null", O_RDONLY);
	ck_assert_int_eq(devsock_recv_nowait(sv[1], &got, data, sizeof(data)), 0);
}
END_TEST

struct reader {
	int fd;
	int nointr;
	struct devsock_hdr hdr;
	char *data;
	int ret;
	atomic_int tid;
	atomic_bool done;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	atomic_store(&r->tid, gettid());
	r->ret = devsock_recv(r->fd, &r->hdr, r->data, DEVSOCK_DATA_MAX, r->nointr);
	atomic_store(&r->done, true);
	return NULL;
}

/* Whether thread @tid sleeps in the kernel (its state in /proc is 'S'). */
static bool thread_sleeping(int tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/* The largest message, both ends non-blocking: sent and received whole. */
START_TEST(test_nonblocking_whole_messages)
{
	struct devsock_hdr h = { .type = DEVSOCK_IOCTL, .len = DEVSOCK_DATA_MAX };
	struct reader r = { .fd = sv[1] };
	char *out = malloc(DEVSOCK_DATA_MAX);
	pthread_t t;
	size_t i;

	r.data = malloc(DEVSOCK_DATA_MAX);
	ck_assert(out && r.data);
	for (i = 0; i < DEVSOCK_DATA_MAX; i++)
		out[i] = (char)(i * 7);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	ck_assert_int_eq(pthread_create(&t, NULL, reader_main, &r), 0);
	ck_assert_int_eq(devsock_send(sv[0], &h, out, DEVSOCK_DATA_MAX), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(r.ret, 1);
	ck_assert_uint_eq(r.hdr.len, DEVSOCK_DATA_MAX);
	ck_assert(!memcmp(out, r.data, DEVSOCK_DATA_MAX));
	free(out);
	free(r.data);
}
END_TEST

static atomic_int signals_seen;

static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&signals_seen, 1);
}

/* Signal @r's thread once while it sleeps in its receive; false at the deadline. */
static bool signal_sleeping(struct reader *r, pthread_t t)
{
	int before = atomic_load(&signals_seen), i;

	for (i = 0; i < 20000; i++) {
		if (atomic_load(&r->done))
			return true;
		if (atomic_load(&r->tid) && thread_sleeping(atomic_load(&r->tid))) {
			pthread_kill(t, SIGUSR1);
			while (atomic_load(&signals_seen) == before)
				usleep(100);
			return true;
		}
		usleep(1000);
	}
	return false;
}

/*
 * A signal before any byte: -EINTR when the caller asked for it (a read
 * the client may cancel); with @nointr the wait goes on to the message.
 */
START_TEST(test_recv_interrupted)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	struct devsock_hdr h = { .type = DEVSOCK_NOTIFY };
	struct reader r = { .fd = sv[1] }, q = { .fd = sv[1], .nointr = 1 };
	pthread_t t;
	int i;

	sigaction(SIGUSR1, &sa, NULL);
	r.data = malloc(DEVSOCK_DATA_MAX);
	q.data = malloc(DEVSOCK_DATA_MAX);
	ck_assert_int_eq(pthread_create(&t, NULL, reader_main, &r), 0);
	ck_assert_msg(signal_sleeping(&r, t), "the reader never slept in its receive");
	pthread_join(t, NULL);
	ck_assert_int_eq(r.ret, -EINTR);

	ck_assert_int_eq(pthread_create(&t, NULL, reader_main, &q), 0);
	for (i = 0; i < 3; i++)
		ck_assert_msg(signal_sleeping(&q, t), "the reader never slept in its receive");
	ck_assert_msg(!atomic_load(&q.done), "a signal ended a receive that must not end");
	ck_assert_int_eq(devsock_send(sv[0], &h, NULL, 0), 0);
	pthread_join(t, NULL);
	ck_assert_int_eq(q.ret, 1);
	ck_assert_uint_eq(q.hdr.type, DEVSOCK_NOTIFY);
	free(r.data);
	free(q.data);
}
END_TEST

/*
 * The mask form: a signal that came while the caller had it blocked (after
 * its send, before its wait) ends the wait once the wait puts the mask
 * back; a message already there is taken first; SA_RESTART changes nothing.
 */
START_TEST(test_recv_sigmask_pending_signal)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct devsock_hdr h = { .type = DEVSOCK_NOTIFY }, got;
	sigset_t block, old;
	char *data = malloc(DEVSOCK_DATA_MAX);
	unsigned int before;

	ck_assert_ptr_nonnull(data);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	before = atomic_load(&signals_seen);
	pthread_kill(pthread_self(), SIGUSR1);
	ck_assert_uint_eq(atomic_load(&signals_seen), before);	/* pending */
	ck_assert_int_eq(devsock_recv_sigmask(sv[1], &got, data, DEVSOCK_DATA_MAX, &old), -EINTR);
	ck_assert_uint_eq(atomic_load(&signals_seen), before + 1);

	ck_assert_int_eq(devsock_send(sv[0], &h, NULL, 0), 0);
	ck_assert_int_eq(devsock_recv_sigmask(sv[1], &got, data, DEVSOCK_DATA_MAX, &old), 1);
	ck_assert_uint_eq(got.type, DEVSOCK_NOTIFY);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(data);
}
END_TEST

START_TEST(test_type_names)
{
	unsigned int t;

	for (t = 1; t < DEVSOCK_TYPE_COUNT; t++)
		ck_assert_str_ne(devsock_type_name(t), "unknown");
	ck_assert_str_eq(devsock_type_name(0), "unknown");
	ck_assert_str_eq(devsock_type_name(DEVSOCK_TYPE_COUNT), "unknown");
	ck_assert_str_eq(devsock_type_name(0xffff), "unknown");
}
END_TEST

static Suite *devsock_suite(void)
{
	Suite *s = suite_create("devsock");
	TCase *tc = tcase_create("framing");

	tcase_add_checked_fixture(tc, pair_setup, pair_teardown);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_send_refuses_bad_lengths);
	tcase_add_test(tc, test_recv_rejects_malformed);
	tcase_add_test(tc, test_recv_short_record);
	tcase_add_test(tc, test_recv_length_disagrees);
	tcase_add_test(tc, test_recv_clean_end);
	tcase_add_test(tc, test_recv_nowait);
	tcase_add_test(tc, test_nonblocking_whole_messages);
	tcase_add_test(tc, test_recv_interrupted);
	tcase_add_test(tc, test_recv_sigmask_pending_signal);
	tcase_add_test(tc, test_type_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(devsock_suite());
}
