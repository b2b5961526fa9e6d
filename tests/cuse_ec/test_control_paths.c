// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_control_paths.c - the control socket's file: created with its mode
 * by bind() (whatever the umask), nothing done by path afterwards even when
 * an account that can write the directory swaps the path for a symlink
 * right after bind, and a live socket of another server never replaced.
 *
 * bind() is wrapped (-Wl,--wrap=bind): armed, the wrapper swaps the fresh
 * socket's path for a symlink to a victim file the moment bind returns,
 * the window an attacker would aim for.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "chardev.h"
#include "control.h"
#include "harness.h"
#include "../check_run.h"

int __real_bind(int fd, const struct sockaddr *addr, socklen_t len);
int __wrap_bind(int fd, const struct sockaddr *addr, socklen_t len);

/* Armed: the symlink target that replaces the next bound socket's path. */
static const char *swap_to;

int __wrap_bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
	int ret = __real_bind(fd, addr, len);

	if (!ret && swap_to && addr->sa_family == AF_UNIX) {
		char moved[sizeof(un->sun_path) + 8];

		snprintf(moved, sizeof(moved), "%s.old", un->sun_path);
		if (rename(un->sun_path, moved) || symlink(swap_to, un->sun_path))
			abort();
		swap_to = NULL;
	}
	return ret;
}

struct dir {
	char path[40];
	char sock[64];
	char victim[64];
};

static void dir_make(struct dir *d)
{
	strcpy(d->path, "/tmp/cuse_ec_pathsXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d->path));
	snprintf(d->sock, sizeof(d->sock), "%s/ctl", d->path);
	snprintf(d->victim, sizeof(d->victim), "%s/victim", d->path);
}

static void dir_remove(struct dir *d)
{
	char old[80];

	snprintf(old, sizeof(old), "%s.old", d->sock);
	unlink(old);
	unlink(d->sock);
	unlink(d->victim);
	ck_assert_int_eq(rmdir(d->path), 0);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	ck_assert_int_eq(lstat(path, &st), 0);
	return st.st_mode;
}

/* Mode 0666 from bind itself under the daemon's umask (0077 in its unit). */
START_TEST(test_socket_mode_set_at_bind)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_server *srv;
	mode_t old = umask(0077);
	struct dir d;

	dir_make(&d);
	ck_assert_int_eq(control_server_start(ctx, d.sock, &srv), 0);
	ck_assert_uint_eq(mode_of(d.sock), S_IFSOCK | 0666);
	/* The process's umask was never changed, not even for a moment. */
	ck_assert_uint_eq(umask(old), 0077);
	control_server_stop(srv);
	dir_remove(&d);
	harness_ctx_free(ctx);
}
END_TEST

/* The path swapped for a symlink right after bind: the target stays as it was. */
START_TEST(test_swapped_path_changes_nothing)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_server *srv = NULL;
	struct dir d;
	FILE *f;
	int ret;

	dir_make(&d);
	f = fopen(d.victim, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(chmod(d.victim, 0600), 0);
	swap_to = d.victim;
	ret = control_server_start(ctx, d.sock, &srv);
	ck_assert_ptr_null(swap_to);	/* the swap did happen */
	ck_assert_msg(mode_of(d.victim) == (S_IFREG | 0600),
		      "the symlink's target became mode %o", mode_of(d.victim) & 07777);
	ck_assert_int_eq(ret, -EEXIST);
	/* Not ours, so not removed either. */
	ck_assert(S_ISLNK(mode_of(d.sock)));
	dir_remove(&d);
	harness_ctx_free(ctx);
}
END_TEST

/* A second server on a live socket's path fails; the first keeps its socket. */
START_TEST(test_live_socket_never_replaced)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct control_server *first, *second = NULL;
	struct stat before, after;
	struct dir d;
	int fd;

	dir_make(&d);
	ck_assert_int_eq(control_server_start(ctx, d.sock, &first), 0);
	ck_assert_int_eq(lstat(d.sock, &before), 0);
	ck_assert_int_eq(control_server_start(ctx, d.sock, &second), -EADDRINUSE);
	ck_assert_int_eq(lstat(d.sock, &after), 0);
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	control_server_stop(first);
	ck_assert_int_ne(access(d.sock, F_OK), 0);

	/* A stale socket (nobody listening) is replaced as before. */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	{
		struct sockaddr_un addr = { .sun_family = AF_UNIX };

		strcpy(addr.sun_path, d.sock);
		ck_assert_int_eq(__real_bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	}
	close(fd);
	ck_assert_int_eq(control_server_start(ctx, d.sock, &first), 0);
	control_server_stop(first);
	/* A regular file at the path is nobody's socket: refused, kept. */
	fd = open(d.sock, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(control_server_start(ctx, d.sock, &second), -EADDRINUSE);
	ck_assert(S_ISREG(mode_of(d.sock)));
	dir_remove(&d);
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("control_paths");
	TCase *tc = tcase_create("paths");

	tcase_add_test(tc, test_socket_mode_set_at_bind);
	tcase_add_test(tc, test_swapped_path_changes_nothing);
	tcase_add_test(tc, test_live_socket_never_replaced);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
