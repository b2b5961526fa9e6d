// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_node_setup.c - the node's permissions (node_setup.h) in a scratch
 * tree: the runtime rule's text, the options applied to the kernel's node
 * only when it is our device, and applied again once udevd's entry for the
 * node is this daemon's (a fake udevd: a listening control socket and
 * database files the test writes when the code says it waits for them).
 *
 * Needs root (mknod of a character device in the scratch tree), as the
 * daemon does.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "common/common.h"
#include "node_setup.h"
#include "../check_run.h"

#define NODE_MAJOR 240
#define NODE_MINOR 7

/**
 * struct scratch - a tree standing for /dev, /sys/class/cuse and /run/udev.
 * @top:       the tree's root
 * @log:       every message node_setup gave, one per line
 * @foreign:   how many said udevd's entry is another device's
 * @on_foreign: what the fake udevd does when told it waits for it: the
 *             entry's text to write, or NULL
 * @clobber_mode: the mode udevd "sets" before it writes its entry
 * @ns:        the setup under test
 */
struct scratch {
	char top[64];
	char log[4096];
	int foreign;
	const char *on_foreign;
	mode_t clobber_mode;
	struct node_setup ns;
};

static void path_of(const struct scratch *t, const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", t->top, rel);
}

static void write_file(const char *path, const char *text)
{
	char tmp[256];
	FILE *f;

	/* Renamed into place, as udevd does: the reader sees all or nothing. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(rename(tmp, path), 0);
}

static void scratch_udevd_entry(struct scratch *t, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/udev/data/c%d:%d", t->top, NODE_MAJOR, NODE_MINOR);
	write_file(path, text);
}

static void scratch_log(void *arg, int level, const char *msg)
{
	struct scratch *t = arg;
	char node[128];

	snprintf(t->log + strlen(t->log), sizeof(t->log) - strlen(t->log), "%d %s\n", level,
		 msg);
	if (!strstr(msg, "another device had its number"))
		return;
	t->foreign++;
	if (!t->on_foreign)
		return;
	/* udevd sets the node up its way, then records it. */
	path_of(t, "dev/cros_ec", node, sizeof(node));
	ck_assert_int_eq(chmod(node, t->clobber_mode), 0);
	scratch_udevd_entry(t, t->on_foreign);
}

static void scratch_make(struct scratch *t, const char *sysfs_devnum)
{
	static const char *const dirs[] = { "dev", "sys", "sys/cros_ec", "udev", "udev/data" };
	char path[128];
	size_t i;

	memset(t, 0, sizeof(*t));
	strcpy(t->top, "/tmp/cuse_ec_nodesetupXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->top));
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		path_of(t, dirs[i], path, sizeof(path));
		ck_assert_int_eq(mkdir(path, 0755), 0);
	}
	path_of(t, "sys/cros_ec/dev", path, sizeof(path));
	write_file(path, sysfs_devnum);
	node_setup_init(&t->ns, "cros_ec", scratch_log, t);
	path_of(t, "dev", path, sizeof(path));
	t->ns.dev_dir = strdup(path);
	path_of(t, "sys", path, sizeof(path));
	t->ns.sysfs_dir = strdup(path);
	path_of(t, "udev", path, sizeof(path));
	t->ns.udev_dir = strdup(path);
	t->ns.udevadm = NULL;
	t->ns.mode = 0640;
	t->ns.wait_ms = 30000;	/* generous: only the timeout cases shorten it */
}

static void scratch_node(struct scratch *t, mode_t mode)
{
	char path[128];

	path_of(t, "dev/cros_ec", path, sizeof(path));
	ck_assert_msg(!mknod(path, S_IFCHR | mode, makedev(NODE_MAJOR, NODE_MINOR)),
		      "mknod %s: %s (the test needs root, as the daemon does)", path,
		      strerror(errno));
	ck_assert_int_eq(chmod(path, mode), 0);
}

static mode_t scratch_node_mode(struct scratch *t)
{
	char path[128];
	struct stat st;

	path_of(t, "dev/cros_ec", path, sizeof(path));
	ck_assert_int_eq(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

/* A fake udevd: something listens on its control socket. */
static int scratch_udevd(struct scratch *t)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	path_of(t, "udev/control", sa.sun_path, sizeof(sa.sun_path));
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ck_assert_int_eq(listen(fd, 8), 0);
	return fd;
}

static void scratch_remove(struct scratch *t)
{
	char cmd[96];

	free((void *)t->ns.dev_dir);
	free((void *)t->ns.sysfs_dir);
	free((void *)t->ns.udev_dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	ck_assert_int_eq(system(cmd), 0);
}

static void read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

START_TEST(test_rule_text)
{
	static const struct {
		int mode;
		uid_t owner;
		gid_t group;
		const char *settings;
	} cases[] = {
		{ 0640, (uid_t)-1, (gid_t)-1, ", MODE:=\"0640\"\n" },
		{ -1, 0, 44, ", OWNER:=\"0\", GROUP:=\"44\"\n" },
		{ 0600, 1000, 1000, ", MODE:=\"0600\", OWNER:=\"1000\", GROUP:=\"1000\"\n" },
		{ -1, (uid_t)-1, (gid_t)-1, "\n" },
	};
	char want[512], text[1024], path[128];
	struct scratch t;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scratch_make(&t, "240:7\n");
		t.ns.mode = cases[i].mode;
		t.ns.owner = cases[i].owner;
		t.ns.group = cases[i].group;
		t.ns.started_usec = 12345;
		ck_assert_int_eq(node_rule_install(&t.ns), 0);
		path_of(&t, "udev/rules.d/70-cuse_ec-cros_ec.rules", path, sizeof(path));
		ck_assert_str_eq(t.ns.rule, path);
		snprintf(want, sizeof(want), "%d.12345", (int)getpid());
		ck_assert_str_eq(t.ns.instance, want);
		read_file(path, text, sizeof(text));
		snprintf(want, sizeof(want), "SUBSYSTEM==\"cuse\", KERNEL==\"cros_ec\", "
			 "ENV{CUSE_EC}=\"1\", ENV{CUSE_EC_INSTANCE}=\"%d.12345\"%s",
			 (int)getpid(), cases[i].settings);
		ck_assert_msg(strstr(text, want), "case %zu: rule is\n%s\nwanted the line\n%s", i,
			      text, want);
		strcat(path, ".tmp");
		ck_assert_msg(access(path, F_OK), "case %zu: the temporary file stayed", i);
		node_rule_remove(&t.ns);
		ck_assert_msg(access(t.ns.rule, F_OK), "case %zu: the rule stayed", i);
		ck_assert_str_eq(t.log, "");
		scratch_remove(&t);
	}
}
END_TEST

START_TEST(test_rule_cannot_be_written)
{
	char path[128];
	struct scratch t;

	scratch_make(&t, "240:7\n");
	/* rules.d is a file: no rule, a warning, and nothing to remove later. */
	path_of(&t, "udev/rules.d", path, sizeof(path));
	write_file(path, "");
	ck_assert_int_eq(node_rule_install(&t.ns), -ENOTDIR);
	ck_assert_str_eq(t.ns.rule, "");
	ck_assert_str_eq(t.ns.instance, "");
	ck_assert_msg(strstr(t.log, "4 ") == t.log && strstr(t.log, "cannot write ") &&
		      strstr(t.log, "/udev/rules.d/70-cuse_ec-cros_ec.rules: Not a directory"),
		      "%s", t.log);
	node_rule_remove(&t.ns);
	scratch_remove(&t);
}
END_TEST

START_TEST(test_reload_failure_is_a_warning)
{
	struct scratch t;
	int udevd;

	scratch_make(&t, "240:7\n");
	udevd = scratch_udevd(&t);
	t.ns.udevadm = "false";	/* exits 1, as udevadm does when udevd does not answer */
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	ck_assert_msg(strstr(t.log, "4 false control --reload failed: udevd may apply old "
				    "rules to cros_ec"), "%s", t.log);
	t.ns.udevadm = "/nonexistent/udevadm";
	t.log[0] = '\0';
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	ck_assert_msg(strstr(t.log, "4 /nonexistent/udevadm control --reload: No such file"),
		      "%s", t.log);
	close(udevd);
	scratch_remove(&t);
}
END_TEST

START_TEST(test_applied_without_udevd)
{
	struct scratch t;

	scratch_make(&t, "240:7\n");
	scratch_node(&t, 0600);
	ck_assert_int_eq(node_setup_run(&t.ns), 0);
	ck_assert_uint_eq(scratch_node_mode(&t), 0640);
	ck_assert_msg(strstr(t.log, "6 ") && strstr(t.log, "/dev/cros_ec ready"), "%s", t.log);
	scratch_remove(&t);
}
END_TEST

START_TEST(test_not_our_device_untouched)
{
	struct scratch t;

	/* The kernel numbered our device 240:8; /dev/cros_ec is 240:7. */
	scratch_make(&t, "240:8\n");
	scratch_node(&t, 0600);
	ck_assert_int_eq(node_setup_run(&t.ns), -ENODEV);
	ck_assert_uint_eq(scratch_node_mode(&t), 0600);
	ck_assert_msg(strstr(t.log, "mode/owner not applied; exiting"), "%s", t.log);
	scratch_remove(&t);
}
END_TEST

START_TEST(test_node_never_appears)
{
	struct scratch t;

	scratch_make(&t, "240:7\n");
	t.ns.wait_ms = 50;	/* the timeout's own branch */
	ck_assert_int_eq(node_setup_run(&t.ns), -ETIMEDOUT);
	ck_assert_msg(strstr(t.log, "3 ") && strstr(t.log, "/dev/cros_ec did not appear; "
				"mode/owner not applied"), "%s", t.log);
	scratch_remove(&t);
}
END_TEST

/*
 * udevd's entry for the node's number is an earlier device's: the options
 * are applied again only once udevd has set up ours (it changes the mode
 * first, then records the entry), so the last word is ours.
 */
START_TEST(test_applied_again_after_udevd)
{
	char entry[128];
	struct scratch t;
	int udevd;

	scratch_make(&t, "240:7\n");
	udevd = scratch_udevd(&t);
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	scratch_node(&t, 0600);
	scratch_udevd_entry(&t, "I:1\nE:CUSE_EC_INSTANCE=1.1\n");
	snprintf(entry, sizeof(entry), "I:99\nE:CUSE_EC_INSTANCE=%s\n", t.ns.instance);
	t.on_foreign = entry;
	t.clobber_mode = 0666;
	ck_assert_int_eq(node_setup_run(&t.ns), 0);
	ck_assert_int_eq(t.foreign, 1);
	ck_assert_uint_eq(scratch_node_mode(&t), 0640);
	ck_assert_msg(strstr(t.log, "(CUSE_EC_INSTANCE 1.1)"), "%s", t.log);
	ck_assert_msg(!strstr(t.log, "has not set up"), "%s", t.log);
	node_rule_remove(&t.ns);
	close(udevd);
	scratch_remove(&t);
}
END_TEST

/*
 * Without a rule (none could be written), udevd cannot name our daemon:
 * its entry counts if udevd set the node up after the daemon started, or
 * records no time at all.
 */
START_TEST(test_entry_without_rule)
{
	static const struct {
		const char *entry;
		bool ours;
	} cases[] = {
		{ "I:2000\n", true },
		{ "E:FOO=1\n", true },
		{ "I:999\n", false },
		{ "I:junk\n", false },
	};
	struct scratch t;
	size_t i;
	int udevd;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scratch_make(&t, "240:7\n");
		udevd = scratch_udevd(&t);
		t.ns.started_usec = 1000;
		t.ns.wait_ms = cases[i].ours ? 30000 : 50;
		scratch_node(&t, 0600);
		scratch_udevd_entry(&t, cases[i].entry);
		ck_assert_int_eq(node_setup_run(&t.ns), 0);
		ck_assert_uint_eq(scratch_node_mode(&t), 0640);
		ck_assert_msg(!strstr(t.log, "has not set up") == cases[i].ours,
			      "case %zu (%s): %s", i, cases[i].entry, t.log);
		close(udevd);
		scratch_remove(&t);
	}
}
END_TEST

/*
 * udevd set our node up with rules read before ours (its reload request was
 * lost): the entry is new but lacks our instance. The daemon asks udevd to
 * look again (a "change" uevent) and applies its options once udevd has
 * used our rule; a udevd that never does gets three tries, then a warning.
 */
static void scratch_answer_change(void *arg, int level, const char *msg)
{
	struct scratch *t = arg;
	char entry[128];

	scratch_log(arg, level, msg);
	if (!t->on_foreign || !strstr(msg, "asking it to read them and look again"))
		return;
	snprintf(entry, sizeof(entry), "I:99\nE:CUSE_EC_INSTANCE=%s\n", t->ns.instance);
	scratch_udevd_entry(t, entry);
}

START_TEST(test_entry_set_up_without_our_rule)
{
	static const char *const stale_entries[] = { "", "I:5000\nE:FOO=1\n" };
	char path[128], text[64];
	struct scratch t;
	int udevd, answers;

	for (answers = 0; answers < 2; answers++) {
		scratch_make(&t, "240:7\n");
		udevd = scratch_udevd(&t);
		t.ns.log = scratch_answer_change;
		t.ns.started_usec = 1000;
		t.ns.recheck_ms = 10;
		t.ns.wait_ms = answers ? 30000 : 200;
		t.on_foreign = answers ? "" : NULL;
		ck_assert_int_eq(node_rule_install(&t.ns), 0);
		scratch_node(&t, 0600);
		scratch_udevd_entry(&t, stale_entries[answers]);
		ck_assert_int_eq(node_setup_run(&t.ns), 0);
		ck_assert_uint_eq(scratch_node_mode(&t), 0640);
		path_of(&t, "sys/cros_ec/uevent", path, sizeof(path));
		read_file(path, text, sizeof(text));
		ck_assert_str_eq(text, "change\n");
		if (answers) {
			ck_assert_msg(strstr(t.log, "(1 of 3)") && !strstr(t.log, "(2 of 3)") &&
				      !strstr(t.log, "without the runtime rule"), "%s", t.log);
		} else {
			ck_assert_msg(strstr(t.log, "(3 of 3)") &&
				      strstr(t.log, "set up") && strstr(t.log, "without the runtime rule; "
				      "options applied again without it"), "%s", t.log);
		}
		node_rule_remove(&t.ns);
		close(udevd);
		scratch_remove(&t);
	}
}
END_TEST

/*
 * Without options the node is udevd's alone, through the runtime rule (the
 * shipped rule's defaults): a lost reload request is still found and
 * udevd asked again, and nothing of the node is changed by the daemon.
 * (cuse-ec-udevd.test timed out now and then waiting for 0660 plugdev on
 * a node without options, whose daemon never asked again.)
 */
START_TEST(test_no_options_lost_reload_asked_again)
{
	char path[128], text[64];
	struct scratch t;
	int udevd;

	scratch_make(&t, "240:7\n");
	udevd = scratch_udevd(&t);
	t.ns.mode = -1;
	t.ns.log = scratch_answer_change;
	t.ns.started_usec = 1000;
	t.ns.recheck_ms = 10;
	t.on_foreign = "";
	ck_assert(!node_setup_wanted(&t.ns));
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	ck_assert(node_setup_wanted(&t.ns));
	scratch_node(&t, 0600);
	scratch_udevd_entry(&t, "I:5000\nE:FOO=1\n");
	ck_assert_int_eq(node_setup_run(&t.ns), 0);
	ck_assert_uint_eq(scratch_node_mode(&t), 0600);
	path_of(&t, "sys/cros_ec/uevent", path, sizeof(path));
	read_file(path, text, sizeof(text));
	ck_assert_str_eq(text, "change\n");
	ck_assert_msg(strstr(t.log, "(1 of 3)") && strstr(t.log, "ready"), "%s", t.log);
	node_rule_remove(&t.ns);
	close(udevd);
	scratch_remove(&t);
}
END_TEST

static void *node_setup_thread(void *arg)
{
	return (void *)(intptr_t)node_setup_run(arg);
}

/*
 * A stopping daemon cancels the run, which returns -ECANCELED whatever it
 * waits for: before it starts, while the node has not appeared, and while
 * udevd has not set the node up (each wait is 30 s otherwise).
 */
START_TEST(test_cancel_ends_every_wait)
{
	struct scratch t;
	pthread_t thread;
	void *ret;
	int udevd, stage;

	for (stage = 0; stage < 3; stage++) {
		scratch_make(&t, "240:7\n");
		udevd = scratch_udevd(&t);
		ck_assert_int_eq(node_rule_install(&t.ns), 0);
		if (stage == 2)
			scratch_node(&t, 0600);	/* no udevd entry comes */
		if (stage == 0) {
			node_setup_cancel(&t.ns);
			ck_assert_int_eq(node_setup_run(&t.ns), -ECANCELED);
		} else {
			ck_assert_int_eq(pthread_create(&thread, NULL, node_setup_thread, &t.ns), 0);
			node_setup_cancel(&t.ns);
			ck_assert_int_eq(pthread_join(thread, &ret), 0);
			ck_assert_int_eq((int)(intptr_t)ret, -ECANCELED);
		}
		ck_assert_msg(!strstr(t.log, "did not appear") && !strstr(t.log, "has not set up"),
			      "%s", t.log);
		node_rule_remove(&t.ns);
		close(udevd);
		scratch_remove(&t);
	}
}
END_TEST

/*
 * While udevd has events queued, a new entry without any instance may be the
 * previous device's, rewritten by its late event: it is waited out, not
 * taken for ours set up without our rule. And the wait goes on past
 * wait_ms, up to six times it, as long as udevd stays busy (its queue file
 * exists): ours may be behind a previous device's slow events. Only the
 * lower bound of the wait is asserted.
 */
START_TEST(test_entry_without_instance_while_udevd_busy)
{
	char path[128];
	struct scratch t;
	uint64_t start;
	int udevd;

	scratch_make(&t, "240:7\n");
	udevd = scratch_udevd(&t);
	t.ns.wait_ms = 200;
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	scratch_node(&t, 0600);
	path_of(&t, "udev/queue", path, sizeof(path));
	write_file(path, "");
	scratch_udevd_entry(&t, "");
	start = mono_now_ns();
	ck_assert_int_eq(node_setup_run(&t.ns), 0);
	ck_assert_msg(mono_now_ns() - start >= 1000000000ull,
		      "gave up %llu ms after the start while udevd was busy",
		      (unsigned long long)((mono_now_ns() - start) / 1000000));
	ck_assert_msg(!strstr(t.log, "look again") && strstr(t.log, "has not set up"), "%s",
		      t.log);
	node_rule_remove(&t.ns);
	close(udevd);
	scratch_remove(&t);
}
END_TEST

/* An entry older than our rule, without our instance, is another device's. */
START_TEST(test_old_entry_without_instance_waited_out)
{
	struct timespec old[2] = { { .tv_sec = 1000 }, { .tv_sec = 1000 } };
	char path[128];
	struct scratch t;
	int udevd;

	scratch_make(&t, "240:7\n");
	udevd = scratch_udevd(&t);
	t.ns.wait_ms = 100;
	ck_assert_int_eq(node_rule_install(&t.ns), 0);
	scratch_node(&t, 0600);
	scratch_udevd_entry(&t, "");
	snprintf(path, sizeof(path), "%s/udev/data/c%d:%d", t.top, NODE_MAJOR, NODE_MINOR);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);
	ck_assert_int_eq(node_setup_run(&t.ns), 0);
	ck_assert_msg(!strstr(t.log, "look again") && strstr(t.log, "has not set up"), "%s",
		      t.log);
	node_rule_remove(&t.ns);
	close(udevd);
	scratch_remove(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("node_setup");
	TCase *tc = tcase_create("node_setup");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rule_text);
	tcase_add_test(tc, test_rule_cannot_be_written);
	tcase_add_test(tc, test_reload_failure_is_a_warning);
	tcase_add_test(tc, test_applied_without_udevd);
	tcase_add_test(tc, test_not_our_device_untouched);
	tcase_add_test(tc, test_node_never_appears);
	tcase_add_test(tc, test_applied_again_after_udevd);
	tcase_add_test(tc, test_entry_without_rule);
	tcase_add_test(tc, test_entry_set_up_without_our_rule);
	tcase_add_test(tc, test_old_entry_without_instance_waited_out);
	tcase_add_test(tc, test_entry_without_instance_while_udevd_busy);
	tcase_add_test(tc, test_no_options_lost_reload_asked_again);
	tcase_add_test(tc, test_cancel_ends_every_wait);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
