// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_node.c - the daemon's claim on its name and node (node.h), in a
 * scratch tree: one instance per name, a lock directory nobody else can
 * write, /dev/NAME free before our device exists, the device number read
 * from sysfs, and only our character device ever opened for a change.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "node.h"
#include "../check_run.h"

static char top[] = "/tmp/cuse_ec_nodeXXXXXX";

static void scratch_make(void)
{
	strcpy(top, "/tmp/cuse_ec_nodeXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
}

static void scratch_remove(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_lock_one_instance_per_name)
{
	char dir[64], err[256];
	int first, second, other;

	scratch_make();
	snprintf(dir, sizeof(dir), "%s/run", top);	/* created on first use */
	ck_assert_int_eq(node_lock_instance(dir, "cros_ec", &first, err, sizeof(err)), 0);
	ck_assert_int_ge(first, 0);
	ck_assert_int_eq(node_lock_instance(dir, "cros_ec", &second, err, sizeof(err)), -EBUSY);
	ck_assert_int_eq(second, -1);
	ck_assert_msg(strstr(err, "another cuse_ec already serves /dev/cros_ec"), "%s", err);
	/* Another name is another lock. */
	ck_assert_int_eq(node_lock_instance(dir, "cros_fp", &other, err, sizeof(err)), 0);
	/* Let go (the process ended): the next one takes it. */
	close(first);
	ck_assert_int_eq(node_lock_instance(dir, "cros_ec", &second, err, sizeof(err)), 0);
	close(second);
	close(other);
	scratch_remove();
}
END_TEST

START_TEST(test_lock_bad_dirs_and_names)
{
	char dir[64], link[64], err[256];
	int fd;

	scratch_make();
	snprintf(dir, sizeof(dir), "%s/run", top);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(node_lock_instance(dir, "", &fd, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(node_lock_instance(dir, NULL, &fd, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(node_lock_instance(dir, "a/b", &fd, err, sizeof(err)), -EINVAL);
	/* Writable by others: they could hold or fake the lock. */
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(node_lock_instance(dir, "cros_ec", &fd, err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "mode 0777"), "%s", err);
	ck_assert_int_eq(chmod(dir, 0775), 0);
	ck_assert_int_eq(node_lock_instance(dir, "cros_ec", &fd, err, sizeof(err)), -EPERM);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	/* A symlink where the directory should be is not followed. */
	snprintf(link, sizeof(link), "%s/link", top);
	ck_assert_int_eq(symlink(dir, link), 0);
	ck_assert_int_lt(node_lock_instance(link, "cros_ec", &fd, err, sizeof(err)), 0);
	ck_assert_int_eq(fd, -1);
	/* A file in the way. */
	snprintf(link, sizeof(link), "%s/file", top);
	write_file(link, "x");
	ck_assert_int_lt(node_lock_instance(link, "cros_ec", &fd, err, sizeof(err)), 0);
	scratch_remove();
}
END_TEST

START_TEST(test_node_must_be_free)
{
	char dev[64], path[96], err[256];

	scratch_make();
	snprintf(dev, sizeof(dev), "%s/dev", top);
	ck_assert_int_eq(mkdir(dev, 0755), 0);
	ck_assert_int_eq(node_check_free(dev, "cros_ec", err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/cros_ec", dev);
	write_file(path, "");
	ck_assert_int_eq(node_check_free(dev, "cros_ec", err, sizeof(err)), -EEXIST);
	ck_assert_msg(strstr(err, "already exists (a file of type") &&
		      strstr(err, "choose another --name"), "%s", err);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink("/dev/null", path), 0);
	ck_assert_int_eq(node_check_free(dev, "cros_ec", err, sizeof(err)), -EEXIST);
	ck_assert_msg(strstr(err, "(a symlink)"), "%s", err);
	/* A real device that is not ours: /dev/null itself. */
	ck_assert_int_eq(node_check_free("/dev", "null", err, sizeof(err)), -EEXIST);
	ck_assert_msg(strstr(err, "/dev/null already exists (a character device 1:3)"), "%s", err);
	scratch_remove();
}
END_TEST

START_TEST(test_cuse_devnum_from_sysfs)
{
	static const struct {
		const char *text;
		int ret;
	} bad[] = {
		{ "", -EPROTO }, { "\n", -EPROTO }, { "10", -EPROTO }, { "10:", -EPROTO },
		{ ":5", -EPROTO }, { "a:b\n", -EPROTO }, { "10:5:1\n", -EPROTO },
		{ "-1:5\n", -EPROTO }, { "4096:0\n", -EPROTO }, { "10:1048576\n", -EPROTO },
	};
	char dir[96], file[128];
	dev_t num;
	size_t i;

	scratch_make();
	snprintf(dir, sizeof(dir), "%s/cros_ec", top);
	ck_assert_int_eq(node_cuse_devnum(top, "cros_ec", &num), -ENOENT);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	snprintf(file, sizeof(file), "%s/dev", dir);
	write_file(file, "10:123\n");
	ck_assert_int_eq(node_cuse_devnum(top, "cros_ec", &num), 0);
	ck_assert_uint_eq(num, makedev(10, 123));
	write_file(file, "511:0");
	ck_assert_int_eq(node_cuse_devnum(top, "cros_ec", &num), 0);
	ck_assert_uint_eq(num, makedev(511, 0));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(file, bad[i].text);
		ck_assert_msg(node_cuse_devnum(top, "cros_ec", &num) == bad[i].ret,
			      "\"%s\" accepted", bad[i].text);
	}
	scratch_remove();
}
END_TEST

START_TEST(test_open_only_our_device)
{
	char path[96], err[256];
	int fd;

	/* /dev/null is 1:3 on Linux: ours if that is the number we were given. */
	fd = node_open_own("/dev/null", makedev(1, 3), err, sizeof(err));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(node_open_own("/dev/null", makedev(10, 200), err, sizeof(err)), -ENODEV);
	ck_assert_msg(strstr(err, "/dev/null is a character device 1:3, not this daemon's "
			      "device 10:200"), "%s", err);
	scratch_make();
	snprintf(path, sizeof(path), "%s/cros_ec", top);
	ck_assert_int_eq(node_open_own(path, makedev(1, 3), err, sizeof(err)), -ENOENT);
	ck_assert_int_eq(symlink("/dev/null", path), 0);
	ck_assert_int_eq(node_open_own(path, makedev(1, 3), err, sizeof(err)), -ENODEV);
	ck_assert_msg(strstr(err, "is a symlink"), "%s", err);
	ck_assert_int_eq(unlink(path), 0);
	write_file(path, "");
	ck_assert_int_eq(node_open_own(path, makedev(1, 3), err, sizeof(err)), -ENODEV);
	scratch_remove();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("node");
	TCase *tc = tcase_create("node");

	tcase_add_test(tc, test_lock_one_instance_per_name);
	tcase_add_test(tc, test_lock_bad_dirs_and_names);
	tcase_add_test(tc, test_node_must_be_free);
	tcase_add_test(tc, test_cuse_devnum_from_sysfs);
	tcase_add_test(tc, test_open_only_our_device);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
