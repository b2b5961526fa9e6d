// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sock_frontend.c - the socket front end against raw clients: the
 * answers it gives, every malformed or hostile message (a clear answer or
 * a dropped connection, the daemon serving on and the file released), and
 * a stop with files open, parked reads and poll handles (no leak, no
 * hang). The listening socket's rules (common/unix_socket.c) too.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chardev.h"
#include "chardev_testing.h"
#include "common/common.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "devsock/devsock.h"
#include "ec/ec.h"
#include "harness.h"
#include "sock_frontend.h"
#include "tests/check_run.h"

/**
 * struct served - a context served by a running front end.
 * @ctx:     the chardev context
 * @profile: its profile
 * @fe:      the front end
 * @loop:    runs sock_frontend_run()
 * @dir:     the socket's directory
 * @path:    the socket
 */
struct served {
	struct chardev_ctx *ctx;
	struct ec_profile *profile;
	struct sock_frontend *fe;
	pthread_t loop;
	char dir[64];
	char path[96];
};

static struct served srv;

static void *loop_main(void *arg)
{
	return (void *)(intptr_t)sock_frontend_run(arg);
}

static void serve(enum lifecycle_mode mode)
{
	struct chardev_config config = { .mode = mode };

	strcpy(srv.dir, "/tmp/test_sock_frontend.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(srv.dir));
	snprintf(srv.path, sizeof(srv.path), "%s/cros_ec", srv.dir);
	ck_assert_int_eq(ec_profile_default(&srv.profile), 0);
	config.profile = srv.profile;
	sock_frontend_chardev_ops(&config.ops);
	ck_assert_int_eq(chardev_ctx_create(&config, &srv.ctx), 0);
	ck_assert_int_eq(chardev_plug(srv.ctx), 0);
	ck_assert_int_eq(sock_frontend_catch_signals(), 0);
	ck_assert_int_eq(sock_frontend_start(srv.ctx, srv.path, &srv.fe), 0);
	ck_assert_int_eq(pthread_create(&srv.loop, NULL, loop_main, srv.fe), 0);
}

/* The daemon's teardown order: the signal, the loop out, shutdown, stop. */
static void unserve(void)
{
	void *ret;

	kill(getpid(), SIGTERM);
	pthread_join(srv.loop, &ret);
	ck_assert_int_eq((int)(intptr_t)ret, SIGTERM);
	chardev_shutdown(srv.ctx);
	sock_frontend_stop(srv.fe);
	ck_assert_uint_eq(chardev_open_files(srv.ctx), 0);
	chardev_ctx_destroy(srv.ctx);
	ec_profile_free(srv.profile);
	ck_assert_int_eq(access(srv.path, F_OK), -1);	/* the socket went with it */
	unlink(srv.path);
	{
		char lock[128];

		snprintf(lock, sizeof(lock), "%s/cros_ec.lock", srv.dir);
		unlink(lock);
	}
	rmdir(srv.dir);
}

/* A connection and its open's answer. */
static int connect_file(int *status)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct devsock_hdr h;
	int fd;

	strcpy(addr.sun_path, srv.path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	ck_assert_int_eq(devsock_recv(fd, &h, NULL, 0, 1), 1);
	ck_assert_uint_eq(h.type, DEVSOCK_OPENED);
	*status = h.status;
	return fd;
}

static int open_file(void)
{
	int status, fd = connect_file(&status);

	ck_assert_int_eq(status, 0);
	return fd;
}

static void send_msg(int fd, struct devsock_hdr *h, const void *data, size_t len)
{
	h->len = (uint32_t)len;
	ck_assert_int_eq(devsock_send(fd, h, data, len), 0);
}

/* The next message, which must be an answer (NOTIFYs skipped). */
static void recv_answer(int fd, struct devsock_hdr *h, void *data, size_t size)
{
	do
		ck_assert_int_eq(devsock_recv(fd, h, data, size, 1), 1);
	while (h->type == DEVSOCK_NOTIFY);
}

/* HELLO through XCMD with the whole argument sent ahead: one round trip. */
static void hello_prefetched(int fd)
{
	struct {
		struct cros_ec_command_v2 hdr;
		struct ec_params_hello p;
	} arg = { .hdr = { .command = EC_CMD_HELLO, .outsize = sizeof(arg.p),
			   .insize = sizeof(struct ec_response_hello) },
		  .p = { .in_data = 0x10203040 } };
	struct devsock_hdr h = { .type = DEVSOCK_IOCTL, .flags = DEVSOCK_F_PREFETCH, .seq = 9,
				 .arg = { CROS_EC_DEV_IOCXCMD_V2, 0x1000 } };
	char out[64];
	struct ec_response_hello r;

	send_msg(fd, &h, &arg, sizeof(arg));
	recv_answer(fd, &h, out, sizeof(out));
	ck_assert_uint_eq(h.type, DEVSOCK_REPLY);
	ck_assert_uint_eq(h.seq, 9);
	ck_assert_int_eq(h.status, (int)sizeof(r));
	ck_assert_uint_eq(h.arg[2], 0x1000);	/* where the reply goes: the argument */
	ck_assert_uint_eq(h.len, sizeof(struct cros_ec_command_v2) + sizeof(r));
	memcpy(&r, out + sizeof(struct cros_ec_command_v2), sizeof(r));
	ck_assert_uint_eq(r.out_data, 0x10203040 + 0x01020304);
}

START_TEST(test_serves_ioctl_read_poll)
{
	struct devsock_hdr h = { .type = DEVSOCK_READ, .seq = 3, .arg = { 4096 } };
	char buf[DEVSOCK_READ_MAX];
	int fd;

	serve(LIFECYCLE_REVOCABLE);
	fd = open_file();
	hello_prefetched(fd);
	/* The version text, capped at the daemon's read size. */
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, buf, sizeof(buf));
	ck_assert_uint_eq(h.seq, 3);
	ck_assert_int_gt(h.status, 0);
	ck_assert_int_le(h.status, CHARDEV_READ_MAX);
	ck_assert_uint_eq(h.len, (uint32_t)h.status);
	/* Nothing queued: not ready. */
	h = (struct devsock_hdr){ .type = DEVSOCK_POLL, .seq = 4 };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_uint_eq(h.seq, 4);
	ck_assert_int_eq(h.status, 0);
	close(fd);
	unserve();
}
END_TEST

/* XCMD without the argument sent ahead: CUSE's retries, stated to the client. */
START_TEST(test_retry_protocol)
{
	struct devsock_hdr h = { .type = DEVSOCK_IOCTL, .seq = 1,
				 .arg = { CROS_EC_DEV_IOCXCMD_V2, 0x2000 } };
	int fd;

	serve(LIFECYCLE_REVOCABLE);
	fd = open_file();
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_uint_eq(h.type, DEVSOCK_RETRY);
	ck_assert_uint_eq(h.arg[0], 0x2000);
	ck_assert_uint_eq(h.arg[1], sizeof(struct cros_ec_command_v2));
	/* A prefetch too short for the header: the same retry. */
	h = (struct devsock_hdr){ .type = DEVSOCK_IOCTL, .flags = DEVSOCK_F_PREFETCH, .seq = 2,
				  .arg = { CROS_EC_DEV_IOCXCMD_V2, 0x2000 } };
	send_msg(fd, &h, "abc", 3);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_uint_eq(h.type, DEVSOCK_RETRY);
	ck_assert_uint_eq(h.seq, 2);
	ck_assert_uint_eq(h.arg[1], sizeof(struct cros_ec_command_v2));
	/* An unknown number: ENOTTY, the connection goes on. */
	h = (struct devsock_hdr){ .type = DEVSOCK_IOCTL, .seq = 5, .arg = { 0x1234 } };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_int_eq(h.status, -ENOTTY);
	hello_prefetched(fd);
	close(fd);
	unserve();
}
END_TEST

/* What the daemon never sends, sent to it: answered EINVAL, nothing else. */
START_TEST(test_daemon_types_refused)
{
	static const uint16_t types[] = { DEVSOCK_OPENED, DEVSOCK_REPLY, DEVSOCK_RETRY,
					  DEVSOCK_NOTIFY };
	struct devsock_hdr h;
	size_t i;
	int fd;

	serve(LIFECYCLE_REVOCABLE);
	fd = open_file();
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		h = (struct devsock_hdr){ .type = types[i], .seq = 100 + (uint32_t)i };
		send_msg(fd, &h, NULL, 0);
		recv_answer(fd, &h, NULL, 0);
		ck_assert_uint_eq(h.seq, 100 + i);
		ck_assert_int_eq(h.status, -EINVAL);
	}
	/* A cancel of nothing: no answer; the next request is answered. */
	h = (struct devsock_hdr){ .type = DEVSOCK_CANCEL, .arg = { 77 } };
	send_msg(fd, &h, NULL, 0);
	hello_prefetched(fd);
	close(fd);
	unserve();
}
END_TEST

/* A stream that breaks the framing: the connection is dropped, the file released. */
START_TEST(test_malformed_stream_dropped)
{
	struct devsock_hdr bad[] = {
		{ .type = 0 },
		{ .type = DEVSOCK_TYPE_COUNT },
		{ .type = DEVSOCK_IOCTL, .len = DEVSOCK_DATA_MAX + 1 },
	};
	struct devsock_hdr h;
	size_t i;
	int fd;

	serve(LIFECYCLE_REVOCABLE);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fd = open_file();
		ck_assert_int_eq(write(fd, &bad[i], sizeof(bad[i])), (ssize_t)sizeof(bad[i]));
		/* The daemon ends the connection: end of stream here. */
		ck_assert_int_eq(devsock_recv(fd, &h, NULL, 0, 1), 0);
		close(fd);
	}
	/* Half a header, then gone. */
	fd = open_file();
	ck_assert_int_eq(write(fd, &bad[0], 5), 5);
	close(fd);
	WAIT_UNTIL(chardev_open_files(srv.ctx) == 0);
	fd = open_file();
	hello_prefetched(fd);
	close(fd);
	unserve();
}
END_TEST

/* The EC gone: the open's answer is the chardev's ENODEV. */
START_TEST(test_open_enodev)
{
	int status, fd;

	serve(LIFECYCLE_REVOCABLE);
	ck_assert_int_eq(chardev_unplug(srv.ctx), 0);
	fd = connect_file(&status);
	ck_assert_int_eq(status, -ENODEV);
	close(fd);
	ck_assert_int_eq(chardev_plug(srv.ctx), 0);
	unserve();
}
END_TEST

/*
 * A parked read, answered from another thread: a queued event wakes it; a
 * cancel (the client's signal) ends the next one with EINTR; an unplug
 * ends a third with ENODEV, and a poll handle sends its NOTIFY.
 */
START_TEST(test_parked_read_cancel_unplug)
{
	struct devsock_hdr h;
	int fd;

	serve(LIFECYCLE_REVOCABLE);
	fd = open_file();
	h = (struct devsock_hdr){ .type = DEVSOCK_IOCTL, .seq = 1,
				  .arg = { CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu } };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_int_eq(h.status, 0);

	h = (struct devsock_hdr){ .type = DEVSOCK_READ, .seq = 2, .arg = { 64 } };
	send_msg(fd, &h, NULL, 0);
	h = (struct devsock_hdr){ .type = DEVSOCK_CANCEL, .arg = { 2 } };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_uint_eq(h.seq, 2);
	ck_assert_int_eq(h.status, -EINTR);

	h = (struct devsock_hdr){ .type = DEVSOCK_POLL, .seq = 3 };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	ck_assert_int_eq(h.status, 0);
	h = (struct devsock_hdr){ .type = DEVSOCK_READ, .seq = 4, .arg = { 64 } };
	send_msg(fd, &h, NULL, 0);
	WAIT_UNTIL(STAT_NOW(srv.ctx, parked_reads) == 1);
	ck_assert_int_eq(chardev_unplug(srv.ctx), 0);
	/* The poll handle's NOTIFY and the read's ENODEV, in either order. */
	{
		bool notified = false, answered = false;

		while (!notified || !answered) {
			ck_assert_int_eq(devsock_recv(fd, &h, NULL, 0, 1), 1);
			if (h.type == DEVSOCK_NOTIFY) {
				notified = true;
				continue;
			}
			ck_assert_uint_eq(h.seq, 4);
			ck_assert_int_eq(h.status, -ENODEV);
			answered = true;
		}
	}
	close(fd);
	ck_assert_int_eq(chardev_plug(srv.ctx), 0);
	unserve();
}
END_TEST

/* Stopping with a file open, a read parked and a poll handle held. */
START_TEST(test_stop_with_files_open)
{
	struct devsock_hdr h;
	int fd, fd2;

	serve(LIFECYCLE_REVOCABLE);
	fd = open_file();
	fd2 = open_file();
	h = (struct devsock_hdr){ .type = DEVSOCK_IOCTL, .seq = 1,
				  .arg = { CROS_EC_DEV_IOCEVENTMASK_V2, 0xffffffffu } };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	h = (struct devsock_hdr){ .type = DEVSOCK_POLL, .seq = 2 };
	send_msg(fd, &h, NULL, 0);
	recv_answer(fd, &h, NULL, 0);
	h = (struct devsock_hdr){ .type = DEVSOCK_READ, .seq = 3, .arg = { 64 } };
	send_msg(fd, &h, NULL, 0);
	WAIT_UNTIL(STAT_NOW(srv.ctx, parked_reads) == 1);
	unserve();		/* asserts every file was released */
	close(fd);
	close(fd2);
}
END_TEST

/*
 * Each XCMD waits at the EC's entry for the other: only two workers
 * serving one file at once can both get there (a front end that served
 * them one after the other lets the first go after the harness's
 * deadline, and the gate reports it never opened).
 */
static void meeting_hook(void *arg, enum chardev_test_point point,
			 struct chardev_file *file)
{
	(void)file;
	if (point == CHARDEV_TEST_XCMD_ENTER)
		harness_gate_pass(arg);
}

/* Two threads' ioctls on one file at once: a second worker serves the second. */
START_TEST(test_concurrent_ioctls_one_file)
{
	struct harness_gate meeting = HARNESS_GATE_INIT(2);
	struct devsock_hdr h;
	int fd, i, replies = 0;

	serve(LIFECYCLE_REVOCABLE);
	chardev_set_test_point(srv.ctx, meeting_hook, &meeting);
	fd = open_file();
	for (i = 0; i < 2; i++) {
		struct {
			struct cros_ec_command_v2 hdr;
			struct ec_params_hello p;
		} arg = { .hdr = { .command = EC_CMD_HELLO, .outsize = sizeof(arg.p),
				   .insize = sizeof(struct ec_response_hello) } };

		h = (struct devsock_hdr){ .type = DEVSOCK_IOCTL, .flags = DEVSOCK_F_PREFETCH,
					  .seq = 10 + (uint32_t)i,
					  .arg = { CROS_EC_DEV_IOCXCMD_V2, 0x1000 } };
		send_msg(fd, &h, &arg, sizeof(arg));
	}
	while (replies < 2) {
		char out[64];

		recv_answer(fd, &h, out, sizeof(out));
		ck_assert_uint_eq(h.type, DEVSOCK_REPLY);
		replies++;
	}
	close(fd);
	unserve();
	/* Both were inside the EC at once: the second met the first waiting. */
	ck_assert_msg(meeting.opened, "the two XCMDs were not inside the EC together");
}
END_TEST

/*
 * Another account's client: refused with EACCES in the open's answer (the
 * socket file is 0666; who is served is the daemon's decision). As root
 * only: the client becomes nobody.
 */
START_TEST(test_other_user_refused)
{
	int status = -1, wst;
	pid_t pid;

	if (geteuid() != 0)
		return;
	serve(LIFECYCLE_REVOCABLE);
	ck_assert_int_eq(chmod(srv.dir, 0755), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(90);
		fd = connect_file(&status);
		close(fd);
		_exit(status == -EACCES ? 0 : 91);
	}
	ck_assert_int_eq(waitpid(pid, &wst, 0), pid);
	ck_assert_msg(WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
		      "another user's open was not refused with EACCES (status %d)", wst);
	/* Our own user's socket pair is trusted. */
	{
		int sv[2];

		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		ck_assert(unix_peer_trusted(sv[0]));
		close(sv[0]);
		close(sv[1]);
	}
	unserve();
	(void)status;
}
END_TEST

/* ---- the listening socket's rules ---- */

START_TEST(test_unix_listen_rules)
{
	char dir[] = "/tmp/test_unix_listen.XXXXXX", path[96], lng[200];
	struct unix_sock_id id, id2;
	int fd, fd2, stale;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s", dir);
	ck_assert_int_eq(unix_listen(path, SOCK_STREAM, 4, &fd, &id), 0);
	/* A live server is never replaced. */
	ck_assert_int_eq(unix_listen(path, SOCK_STREAM, 4, &fd2, &id2), -EADDRINUSE);
	/* A stale one (nobody listens) is. */
	close(fd);
	ck_assert_int_eq(unix_listen(path, SOCK_STREAM, 4, &fd, &id2), 0);
	/* Only our own file is unlinked. */
	id = id2;
	id.ino++;
	unix_unlink_own(path, &id);
	ck_assert_int_eq(access(path, F_OK), 0);
	unix_unlink_own(path, &id2);
	ck_assert_int_eq(access(path, F_OK), -1);
	close(fd);
	/* Something that is not a socket stays, and is refused. */
	stale = open(path, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(stale, 0);
	close(stale);
	ck_assert_int_eq(unix_listen(path, SOCK_STREAM, 4, &fd, &id), -EADDRINUSE);
	ck_assert_int_eq(access(path, F_OK), 0);
	unlink(path);
	/* Paths a socket address cannot hold. */
	memset(lng, 'a', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = 0;
	ck_assert_int_eq(unix_listen(lng, SOCK_STREAM, 4, &fd, &id), -EINVAL);
	ck_assert_int_eq(unix_listen("", SOCK_STREAM, 4, &fd, &id), -EINVAL);
	rmdir(dir);
}
END_TEST

static Suite *sock_frontend_suite(void)
{
	Suite *s = suite_create("sock_frontend");
	TCase *tc = tcase_create("frontend");

	tcase_add_test(tc, test_serves_ioctl_read_poll);
	tcase_add_test(tc, test_retry_protocol);
	tcase_add_test(tc, test_daemon_types_refused);
	tcase_add_test(tc, test_malformed_stream_dropped);
	tcase_add_test(tc, test_open_enodev);
	tcase_add_test(tc, test_parked_read_cancel_unplug);
	tcase_add_test(tc, test_stop_with_files_open);
	tcase_add_test(tc, test_concurrent_ioctls_one_file);
	tcase_add_test(tc, test_other_user_refused);
	tcase_add_test(tc, test_unix_listen_rules);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(sock_frontend_suite());
}
