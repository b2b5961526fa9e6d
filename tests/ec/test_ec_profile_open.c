// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_profile_open.c - what a profile path may name: a regular file (or
 * a symlink to one) is read; a FIFO, a directory, a device or a socket is
 * refused at once with one line that names the file and says what it is.
 * A FIFO is the case that matters: reading one would block the daemon
 * before it serves anything (this test's timeout catches that).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ec_test_util.h"
#include "../check_run.h"

/* A fresh directory for one test; removed by rm_dir(). */
static char *make_dir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/ec_profile_open.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void expect_refused(const char *path, int want_ret, const char *what)
{
	struct ec_profile *prof = NULL;
	char err[512], want[512];

	ck_assert_int_eq(ec_profile_load(path, &prof, err, sizeof(err)), want_ret);
	ck_assert_ptr_null(prof);
	snprintf(want, sizeof(want), "%s: is %s, not a regular file", path, what);
	ck_assert_str_eq(err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(test_fifo_without_writer)
{
	char *dir = make_dir(), path[128];

	snprintf(path, sizeof(path), "%s/p.profile", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	expect_refused(path, -EINVAL, "a FIFO");
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_fifo_with_writer)
{
	char *dir = make_dir(), path[128];
	int rd, wr;

	/* A writer that never closes: a read would wait for it for ever. */
	snprintf(path, sizeof(path), "%s/p.profile", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	rd = open(path, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	wr = open(path, O_WRONLY);
	ck_assert_int_ge(wr, 0);
	ck_assert_int_eq(write(wr, "[ec]\n", 5), 5);
	expect_refused(path, -EINVAL, "a FIFO");
	close(wr);
	close(rd);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_directory_and_devices)
{
	char *dir = make_dir();

	expect_refused(dir, -EISDIR, "a directory");
	expect_refused("/dev/null", -EINVAL, "a character device");
	rmdir(dir);
}
END_TEST

START_TEST(test_socket)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct ec_profile *prof = NULL;
	char *dir = make_dir(), err[512];
	int fd;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/s.profile", dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	/* open() itself refuses a socket (ENXIO): named, on one line. */
	ck_assert_int_eq(ec_profile_load(addr.sun_path, &prof, err, sizeof(err)), -ENXIO);
	ck_assert_ptr_null(prof);
	ck_assert_ptr_nonnull(strstr(err, addr.sun_path));
	ck_assert_ptr_null(strchr(err, '\n'));
	close(fd);
	unlink(addr.sun_path);
	rmdir(dir);
}
END_TEST

START_TEST(test_symlink_to_regular_file)
{
	char *dir = make_dir(), link[128], err[512];
	struct ec_profile *prof = NULL;

	snprintf(link, sizeof(link), "%s/l.profile", dir);
	ck_assert_int_eq(symlink(test_path("ec/profiles/minimal.profile"), link), 0);
	ck_assert_msg(ec_profile_load(link, &prof, err, sizeof(err)) == 0, "%s", err);
	ck_assert(!prof->memmap_direct);
	ec_profile_free(prof);
	unlink(link);

	/* A symlink to a directory is judged by what it points at. */
	ck_assert_int_eq(symlink("/tmp", link), 0);
	expect_refused(link, -EISDIR, "a directory");
	unlink(link);
	rmdir(dir);
}
END_TEST

static Suite *ec_profile_open_suite(void)
{
	Suite *s = suite_create("ec_profile_open");
	TCase *tc = tcase_create("open");

	/* A blocking open or read of a FIFO shows up as this timeout. */
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_fifo_without_writer);
	tcase_add_test(tc, test_fifo_with_writer);
	tcase_add_test(tc, test_directory_and_devices);
	tcase_add_test(tc, test_socket);
	tcase_add_test(tc, test_symlink_to_regular_file);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_profile_open_suite());
}
