// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_abuse.c - the control socket against hostile and careless
 * peers, on the host: garbage, a 1 MiB line, 200 connections, idle peers
 * holding every slot (a new one evicts the longest-idle), the idle
 * timeout, half commands and "unplug wait" then close, a slow sender, a
 * whitespace-only line, a last command without a newline, a non-root peer
 * refused for every verb with the refusals' log rate-limited, a peer that
 * never reads its replies dropped while the others are served - and stats
 * still answered at the end.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chardev.h"
#include "control.h"
#include "ec/ec.h"
#include "harness.h"
#include "../check_run.h"

static atomic_uint warnings;
/* Written once per warning, when open: a test waits on it for a warning. */
static int warning_pipe[2] = { -1, -1 };

static void count_log(void *arg, int level, const char *msg)
{
	(void)arg;
	(void)msg;
	if (level != CHARDEV_LOG_WARNING)
		return;
	atomic_fetch_add(&warnings, 1);
	if (warning_pipe[1] >= 0 && write(warning_pipe[1], "w", 1) != 1)
		abort();
}

/* Wait (10 s at most) until the server logs a warning. */
static bool warning_logged(void)
{
	struct pollfd pfd = { .fd = warning_pipe[0], .events = POLLIN };

	return poll(&pfd, 1, 10000) == 1;
}

/* A plugged revocable context whose warnings are counted. */
static struct chardev_ctx *ctx_counting(void)
{
	struct chardev_config config = { 0 };
	struct ec_profile *profile;
	struct chardev_ctx *ctx;

	ck_assert_int_eq(ec_profile_default(&profile), 0);
	config.mode = LIFECYCLE_REVOCABLE;
	config.profile = profile;
	config.ops = harness_ops();
	config.ops.log = count_log;
	config.log_level = CHARDEV_LOG_WARNING;
	ck_assert_int_eq(chardev_ctx_create(&config, &ctx), 0);
	ck_assert_int_eq(chardev_plug(ctx), 0);
	return ctx;
}

struct server {
	char dir[32];
	char path[96];
	struct chardev_ctx *ctx;
	struct control_server *srv;
};

static void server_start(struct server *s)
{
	strcpy(s->dir, "/tmp/cuse_ec_abuseXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(s->dir));
	snprintf(s->path, sizeof(s->path), "%s/ctl", s->dir);
	s->ctx = ctx_counting();
	ck_assert_int_eq(control_server_start(s->ctx, s->path, &s->srv), 0);
}

static void server_stop(struct server *s)
{
	control_server_stop(s->srv);
	harness_ctx_free(s->ctx);
	rmdir(s->dir);
}

static int connect_to(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	strcpy(addr.sun_path, path);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	return fd;
}

/* One reply line within 5 s; "" at end of file. */
static void read_line(int fd, char *buf, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t off = 0;
	ssize_t n;

	while (off + 1 < len) {
		ck_assert_msg(poll(&pfd, 1, 5000) == 1, "no reply in 5 s");
		n = read(fd, buf + off, 1);
		ck_assert_int_ge(n, 0);
		if (!n || buf[off] == '\n')
			break;
		off++;
	}
	buf[off] = '\0';
}

static bool at_eof(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	return poll(&pfd, 1, 5000) == 1 && read(fd, &c, 1) == 0;
}

static void send_all(int fd, const void *buf, size_t len)
{
	ck_assert_int_eq(send(fd, buf, len, MSG_NOSIGNAL), (ssize_t)len);
}

static void expect(int fd, const char *line, const char *prefix)
{
	char reply[512];

	send_all(fd, line, strlen(line));
	read_line(fd, reply, sizeof(reply));
	ck_assert_msg(!strncmp(reply, prefix, strlen(prefix)), "'%s' -> '%s', want '%s...'",
		      line, reply, prefix);
}

START_TEST(test_garbage_and_big_lines)
{
	static const char garbage[] = "\x01\x02\xff\xfe garbage \x7f\n";
	struct server s;
	char reply[512], *big;
	int fd;

	server_start(&s);
	fd = connect_to(s.path);
	expect(fd, garbage, "error ");
	send_all(fd, "sta\0tus\n", 8);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "error NUL byte in command errno=EINVAL");
	/* 1 MiB without a newline: one error, the connection stays usable. */
	big = malloc(1 << 20);
	ck_assert_ptr_nonnull(big);
	memset(big, 'y', 1 << 20);
	send_all(fd, big, 1 << 20);
	free(big);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "error line too long errno=EMSGSIZE");
	expect(fd, "\nstatus\n", "ok plugged");
	/* Whitespace only is blank, as an empty line is: ignored. */
	expect(fd, "   \t \r\n\nstatus\n", "ok plugged");
	close(fd);
	fd = connect_to(s.path);
	expect(fd, "stats\n", "ok ");
	close(fd);
	server_stop(&s);
}
END_TEST

START_TEST(test_last_line_without_newline)
{
	struct server s;
	char reply[512];
	int fd;

	server_start(&s);
	fd = connect_to(s.path);
	send_all(fd, "status", 6);
	ck_assert_int_eq(shutdown(fd, SHUT_WR), 0);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok plugged lifecycle=revocable open_files=0 kb_backlight=0");
	ck_assert(at_eof(fd));
	close(fd);

	/* The same with "unplug wait": the reply comes once the revoke did. */
	fd = connect_to(s.path);
	send_all(fd, "unplug wait", 11);
	ck_assert_int_eq(shutdown(fd, SHUT_WR), 0);
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok unplugged");
	ck_assert(at_eof(fd));
	close(fd);
	server_stop(&s);
}
END_TEST

START_TEST(test_half_commands_and_careless_peers)
{
	struct server s;
	int fd, i;

	server_start(&s);
	/* Half a command, then gone. */
	fd = connect_to(s.path);
	send_all(fd, "unpl", 4);
	close(fd);
	/* "unplug wait", then gone before the reply. */
	fd = connect_to(s.path);
	send_all(fd, "unplug wait\n", 12);
	close(fd);
	WAIT_UNTIL(!chardev_is_plugged(s.ctx));
	/* A slow sender, a byte at a time. */
	fd = connect_to(s.path);
	for (i = 0; "plug\n"[i]; i++)
		send_all(fd, &"plug\n"[i], 1);
	{
		char reply[512];

		read_line(fd, reply, sizeof(reply));
		ck_assert_str_eq(reply, "ok plugged");
	}
	expect(fd, "stats\n", "ok ");
	close(fd);
	server_stop(&s);
}
END_TEST

START_TEST(test_full_evicts_longest_idle)
{
	int fds[16], fd, i, many[200];
	struct server s;
	char reply[512];

	server_start(&s);
	for (i = 0; i < 16; i++) {
		fds[i] = connect_to(s.path);
		/* Each one talked once, in order: fds[0] is idle the longest. */
		expect(fds[i], "status\n", "ok plugged");
	}
	fd = connect_to(s.path);
	expect(fd, "stats\n", "ok ");
	read_line(fds[0], reply, sizeof(reply));
	ck_assert_str_eq(reply, "error closed: idle longest, a new peer needed the slot errno=ECONNABORTED");
	ck_assert(at_eof(fds[0]));
	/* The others are still served. */
	expect(fds[1], "status\n", "ok plugged");
	for (i = 0; i < 16; i++)
		close(fds[i]);
	close(fd);

	/* 200 at once: each newcomer is served, the server stays whole. */
	for (i = 0; i < 200; i++)
		many[i] = connect_to(s.path);
	expect(many[199], "stats\n", "ok ");
	for (i = 0; i < 200; i++)
		close(many[i]);
	fd = connect_to(s.path);
	expect(fd, "stats\n", "ok ");
	close(fd);
	server_stop(&s);
}
END_TEST

START_TEST(test_idle_timeout)
{
	struct server s;
	char reply[512];
	int fd, busy;

	server_start(&s);
	control_server_set_idle_timeout(s.srv, 200);
	fd = connect_to(s.path);
	busy = connect_to(s.path);
	expect(busy, "status\n", "ok plugged");
	read_line(fd, reply, sizeof(reply));
	ck_assert_str_eq(reply, "error idle timeout errno=ETIMEDOUT");
	ck_assert(at_eof(fd));
	close(fd);
	close(busy);
	/* 0: never. */
	control_server_set_idle_timeout(s.srv, 0);
	fd = connect_to(s.path);
	expect(fd, "status\n", "ok plugged");
	close(fd);
	server_stop(&s);
}
END_TEST

/* In a child that is not root: every verb refused. Returns failures. */
static int refused_as_nobody(const char *path)
{
	static const char *const verbs[] = {
		"status\n", "stats\n", "help\n", "plug\n", "unplug\n", "unplug wait\n",
		"inject lid-open\n", "latency 0\n", "trace\n",
	};
	char reply[512];
	int failures = 0;
	size_t i;

	if (setgid(65534) || setuid(65534))
		return 100;
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		struct sockaddr_un addr = { .sun_family = AF_UNIX };
		size_t off = 0;
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		strcpy(addr.sun_path, path);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
			return 101;
		if (send(fd, verbs[i], strlen(verbs[i]), MSG_NOSIGNAL) < 0) {
			/* Refused and closed before the command: fine too. */
		}
		while (off + 1 < sizeof(reply) && read(fd, reply + off, 1) == 1 &&
		       reply[off] != '\n')
			off++;
		reply[off] = '\0';
		failures += strcmp(reply, "error permission denied errno=EACCES") != 0;
		close(fd);
	}
	return failures;
}

START_TEST(test_non_root_refused_log_limited)
{
	struct server s;
	unsigned int before;
	int status, round;
	pid_t pid;

	if (geteuid()) {
		fprintf(stderr, "not root: the non-root peer test is not tried\n");
		return;
	}
	server_start(&s);
	/* The socket's directory must let nobody in. */
	ck_assert_int_eq(chmod(s.dir, 0755), 0);
	before = atomic_load(&warnings);
	for (round = 0; round < 5; round++) {
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (!pid)
			_exit(refused_as_nobody(s.path));
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "child status 0x%x",
			      status);
	}
	/* 45 refusals within far less than a few seconds: a few warnings. */
	ck_assert_uint_le(atomic_load(&warnings) - before, 5);
	ck_assert_uint_ge(atomic_load(&warnings) - before, 1);
	{
		int fd = connect_to(s.path);

		expect(fd, "stats\n", "ok ");
		close(fd);
	}
	server_stop(&s);
}
END_TEST

/* Read and discard until end of file; true if it came within the bounds. */
static bool drained_to_eof(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t total = 0;
	char buf[65536];
	ssize_t n;

	while (total < ((size_t)64 << 20)) {
		if (poll(&pfd, 1, 10000) != 1)
			return false;
		n = read(fd, buf, sizeof(buf));
		if (n == 0)
			return true;
		if (n < 0)
			return errno == ECONNRESET;
		total += (size_t)n;
	}
	return false;
}

/*
 * A peer that pipelines requests and never reads the replies fills its
 * socket, then its bounded output buffer: it is dropped, with a warning,
 * and every other peer is answered meanwhile. (Before: the control thread
 * waited up to 5 s per reply for it, so 319 "help"s stalled everyone.)
 */
START_TEST(test_unread_replies_do_not_stall_others)
{
	enum { HELPS = 20000 };
	unsigned int before = atomic_load(&warnings);
	size_t len = HELPS * 5, i;
	struct server s;
	char *flood;
	ssize_t sent;
	int hog, fd;

	ck_assert_int_eq(pipe(warning_pipe), 0);
	server_start(&s);
	hog = connect_to(s.path);
	flood = malloc(len);
	ck_assert_ptr_nonnull(flood);
	for (i = 0; i < HELPS; i++)
		memcpy(flood + i * 5, "help\n", 5);
	/* Queued at once, never read: far more replies than any buffer holds. */
	sent = send(hog, flood, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	free(flood);
	ck_assert_msg(sent >= 20000, "only %zd bytes of requests queued", sent);

	fd = connect_to(s.path);
	expect(fd, "status\n", "ok plugged");
	close(fd);
	/* Not read before it is dropped: reading would let the server catch up. */
	ck_assert_msg(warning_logged(), "no warning: the peer that never reads was not dropped");
	ck_assert_msg(drained_to_eof(hog), "the dropped peer's socket was not closed");
	ck_assert_uint_eq(atomic_load(&warnings) - before, 1);
	close(hog);
	fd = connect_to(s.path);
	expect(fd, "stats\n", "ok ");
	close(fd);
	server_stop(&s);
	close(warning_pipe[0]);
	close(warning_pipe[1]);
	warning_pipe[0] = warning_pipe[1] = -1;
}
END_TEST

static Suite *control_abuse_suite(void)
{
	Suite *s = suite_create("control_abuse");
	TCase *tc = tcase_create("abuse");

	tcase_add_test(tc, test_garbage_and_big_lines);
	tcase_add_test(tc, test_last_line_without_newline);
	tcase_add_test(tc, test_half_commands_and_careless_peers);
	tcase_add_test(tc, test_full_evicts_longest_idle);
	tcase_add_test(tc, test_idle_timeout);
	tcase_add_test(tc, test_non_root_refused_log_limited);
	tcase_add_test(tc, test_unread_replies_do_not_stall_others);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(control_abuse_suite());
}
