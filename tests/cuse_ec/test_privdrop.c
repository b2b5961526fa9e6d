// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_privdrop.c - --user=USER[:GROUP]: every bad spelling refused with a
 * message; and a real drop, in a child process (when the test runs as
 * root): all of its threads end as the user with no capability left and
 * no way back to root.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "privdrop.h"
#include "../check_run.h"

/* Debian's unprivileged user and group (base-passwd). */
#define NOBODY_UID 65534
#define NOGROUP_GID 65534

static void expect_bad(const char *spec, const char *why)
{
	struct privdrop p;
	char err[256] = "";

	ck_assert_int_eq(privdrop_parse(spec, &p, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, why), "'%s': got '%s', want '%s'", spec, err, why);
	ck_assert(!p.wanted);
}

START_TEST(test_parse)
{
	struct privdrop p;
	char err[256];

	ck_assert_int_eq(privdrop_parse("nobody", &p, err, sizeof(err)), 0);
	ck_assert(p.wanted && !p.group_given);
	ck_assert_uint_eq(p.uid, NOBODY_UID);
	ck_assert_uint_eq(p.gid, NOGROUP_GID);
	ck_assert_str_eq(p.user, "nobody");

	ck_assert_int_eq(privdrop_parse("65534:daemon", &p, err, sizeof(err)), 0);
	ck_assert(p.group_given);
	ck_assert_str_eq(p.user, "nobody");
	ck_assert_uint_eq(p.gid, 1);	/* daemon */
	ck_assert_int_eq(privdrop_parse("nobody:0", &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.gid, 0);

	expect_bad("", "want USER or USER:GROUP");
	expect_bad(":daemon", "want USER or USER:GROUP");
	expect_bad("no-such-user-cuse-ec", "no such user 'no-such-user-cuse-ec'");
	expect_bad("4000000000", "no such user");
	expect_bad("root", "'root' is root");
	expect_bad("0", "is root");
	expect_bad("nobody:no-such-group-cuse-ec", "no such group 'no-such-group-cuse-ec'");
	expect_bad("nobody:", "no such group ''");
}
END_TEST

static long status_hex(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 16);
	fclose(f);
	return v;
}

static pthread_barrier_t barrier;

/* A thread that was running before the drop: it must change too. */
static void *bystander(void *arg)
{
	int *uid_seen = arg;

	pthread_barrier_wait(&barrier);	/* before the drop */
	pthread_barrier_wait(&barrier);	/* after it */
	*uid_seen = (int)syscall(SYS_getuid);
	return NULL;
}

/* The child's checks; its exit status is the number of failures. */
static int drop_in_child(void)
{
	struct privdrop p;
	pthread_t thread;
	char err[256];
	int failures = 0, uid_seen = -1;

	if (privdrop_parse("nobody", &p, err, sizeof(err)))
		return 100;
	pthread_barrier_init(&barrier, NULL, 2);
	if (pthread_create(&thread, NULL, bystander, &uid_seen))
		return 101;
	pthread_barrier_wait(&barrier);
	if (privdrop_apply(&p, err, sizeof(err))) {
		fprintf(stderr, "privdrop_apply: %s\n", err);
		return 102;
	}
	pthread_barrier_wait(&barrier);
	pthread_join(thread, NULL);
	failures += uid_seen != NOBODY_UID;
	failures += getuid() != NOBODY_UID || geteuid() != NOBODY_UID;
	failures += getgid() != NOGROUP_GID || getegid() != NOGROUP_GID;
	failures += status_hex("/proc/self/status", "CapEff:") != 0;
	failures += status_hex("/proc/self/status", "CapPrm:") != 0;
	failures += status_hex("/proc/self/status", "CapAmb:") != 0;
	failures += !setuid(0);
	failures += getgroups(0, NULL) > 1;	/* nobody is in no other group */
	return failures;
}

START_TEST(test_apply)
{
	struct privdrop none = { 0 };
	char err[256];
	int status;
	pid_t pid;

	/* Without --user nothing happens. */
	ck_assert_int_eq(privdrop_apply(&none, err, sizeof(err)), 0);
	if (geteuid()) {
		fprintf(stderr, "test_apply: not root, the real drop is not tried\n");
		return;
	}
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(drop_in_child());
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "child: status 0x%x", status);
	/* The parent stayed root. */
	ck_assert_uint_eq(geteuid(), 0);
}
END_TEST

static Suite *privdrop_suite(void)
{
	Suite *s = suite_create("privdrop");
	TCase *tc = tcase_create("privdrop");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_apply);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(privdrop_suite());
}
