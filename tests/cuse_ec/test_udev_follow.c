// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_udev_follow.c - the uevent matcher (pure), the --follow /
 * --follow-match / --no-udev options and their bad inputs, the uevent
 * counters, and starting/stopping the monitor thread.
 */
#include "config.h"

#include <check.h>
#include <stddef.h>
#include <sys/stat.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chardev.h"
#include "harness.h"
#include "options.h"
#include "udev_follow.h"
#include "../check_run.h"

#define PROPS(...) ((const struct udev_follow_prop[]){ __VA_ARGS__ })
#define NPROPS(...) (sizeof((const struct udev_follow_prop[]){ __VA_ARGS__ }) / \
		     sizeof(struct udev_follow_prop))
#define DECIDE(rules, ...) udev_follow_decide(rules, PROPS(__VA_ARGS__), NPROPS(__VA_ARGS__))

static struct udev_follow_rules own_rules(void)
{
	struct udev_follow_rules r;

	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, NULL, 0), 0);
	return r;
}

START_TEST(test_decide_own_device)
{
	struct udev_follow_rules r = own_rules();

	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }, { "SYNTH_UUID", "1234" }),
			 UDEV_FOLLOW_UNPLUG);
	ck_assert_int_eq(DECIDE(&r, { "SUBSYSTEM", "cuse" }, { "ACTION", "add" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" }),
			 UDEV_FOLLOW_PLUG);
	/* Other actions leave the EC alone. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "change" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "unbind" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);
	/* Another CUSE device, a prefix of our name, another subsystem. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/other" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec2" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/misc/cros_ec" },
				{ "SUBSYSTEM", "misc" }), UDEV_FOLLOW_IGNORE);
	/* Incomplete events. */
	ck_assert_int_eq(DECIDE(&r, { "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" }, { "SUBSYSTEM", "cuse" }),
			 UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" }),
			 UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(udev_follow_decide(&r, NULL, 0), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(udev_follow_decide(NULL, PROPS({ "ACTION", "add" }), 1),
			 UDEV_FOLLOW_IGNORE);
	/* NULL members inside the list are skipped, not dereferenced. */
	ck_assert_int_eq(DECIDE(&r, { NULL, "x" }, { "ACTION", NULL }, { "ACTION", "add" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_PLUG);
}
END_TEST

START_TEST(test_decide_syspath_and_match)
{
	const char *usb[] = { "ID_VENDOR_ID=0781", "SUBSYSTEM=usb" };
	const char *never[] = { "ID_VENDOR_ID=ffff" };
	struct udev_follow_rules r;

	/* --follow with /sys in front, trailing slash: the DEVPATH decides. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", "/sys/devices/pci0/usb1/1-1/",
						NULL, 0), 0);
	ck_assert_str_eq(r.devpath, "/devices/pci0/usb1/1-1");
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" }, { "DEVPATH", "/devices/pci0/usb1/1-1" },
				{ "SUBSYSTEM", "usb" }), UDEV_FOLLOW_UNPLUG);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/pci0/usb1/1-1" }),
			 UDEV_FOLLOW_PLUG);
	/* A child interface is another device. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/pci0/usb1/1-1/1-1:1.0" }),
			 UDEV_FOLLOW_IGNORE);
	/* Our own CUSE device is no longer followed. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);

	/* --follow-match: every rule must hold. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, usb, 2), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/x/1-2" },
				{ "SUBSYSTEM", "usb" }, { "ID_VENDOR_ID", "0781" }),
			 UDEV_FOLLOW_PLUG);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/x/1-2" },
				{ "SUBSYSTEM", "usb" }, { "ID_VENDOR_ID", "0782" }),
			 UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/x/1-2" },
				{ "ID_VENDOR_ID", "0781" }), UDEV_FOLLOW_IGNORE);
	/* Values compare whole, not as prefixes. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/x/1-2" },
				{ "SUBSYSTEM", "usb" }, { "ID_VENDOR_ID", "07811" }),
			 UDEV_FOLLOW_IGNORE);

	/* A rule that never matches hides our own device's events. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, never, 1), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/cros_ec" },
				{ "SUBSYSTEM", "cuse" }), UDEV_FOLLOW_IGNORE);

	/* Both given: both must hold. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", "/devices/x/1-2", usb, 2), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" }, { "DEVPATH", "/devices/x/1-3" },
				{ "SUBSYSTEM", "usb" }, { "ID_VENDOR_ID", "0781" }),
			 UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" }, { "DEVPATH", "/devices/x/1-2" },
				{ "SUBSYSTEM", "usb" }, { "ID_VENDOR_ID", "0781" }),
			 UDEV_FOLLOW_UNPLUG);
}
END_TEST

START_TEST(test_parse_match_bad)
{
	static const char *const bad[] = {
		"", "=", "KEY", "KEY=", "=VALUE", "KE Y=v", "KEY=a b", "KEY=a\tb",
		"KEY=a\nb", "K-EY=v", "K.EY=v", "KEY=\x7f", "KEY=\xc3\xa9",
	};
	struct udev_follow_match m;
	char long_key[UDEV_FOLLOW_KEY_MAX + 8], long_value[UDEV_FOLLOW_VALUE_MAX + 8];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(udev_follow_parse_match(bad[i], &m) == -EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_int_eq(udev_follow_parse_match(NULL, &m), -EINVAL);
	ck_assert_int_eq(udev_follow_parse_match("A=b", NULL), -EINVAL);

	memset(long_key, 'K', UDEV_FOLLOW_KEY_MAX);
	strcpy(long_key + UDEV_FOLLOW_KEY_MAX, "=v");
	ck_assert_int_eq(udev_follow_parse_match(long_key, &m), -ENAMETOOLONG);
	/* One shorter fits exactly. */
	memmove(long_key + 1, long_key + 2, strlen(long_key + 2) + 1);
	ck_assert_int_eq(udev_follow_parse_match(long_key, &m), 0);

	strcpy(long_value, "K=");
	memset(long_value + 2, 'v', UDEV_FOLLOW_VALUE_MAX);
	long_value[UDEV_FOLLOW_VALUE_MAX + 2] = '\0';
	ck_assert_int_eq(udev_follow_parse_match(long_value, &m), -ENAMETOOLONG);

	/* Good ones, including '=' inside the value. */
	ck_assert_int_eq(udev_follow_parse_match("ID_SERIAL=a=b", &m), 0);
	ck_assert_str_eq(m.key, "ID_SERIAL");
	ck_assert_str_eq(m.value, "a=b");
}
END_TEST

START_TEST(test_parse_syspath_bad)
{
	static const char *const bad[] = {
		"", "sys/devices/x", "devices/x", "/", "/sys", "/sys/", "///",
		"/sys/devices/a b", "/sys/devices/a\nb", "/sys/devices/../class/x",
		"/sys/devices/x/..", "/..",
	};
	char devpath[UDEV_FOLLOW_PATH_MAX], long_path[UDEV_FOLLOW_PATH_MAX + 16];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(udev_follow_parse_syspath(bad[i], devpath) == -EINVAL,
			      "'%s' accepted", bad[i]);
	ck_assert_int_eq(udev_follow_parse_syspath(NULL, devpath), -EINVAL);
	long_path[0] = '/';
	memset(long_path + 1, 'x', UDEV_FOLLOW_PATH_MAX + 4);
	long_path[UDEV_FOLLOW_PATH_MAX + 5] = '\0';
	ck_assert_int_eq(udev_follow_parse_syspath(long_path, devpath), -ENAMETOOLONG);

	/* Names that merely contain dots are fine. */
	ck_assert_int_eq(udev_follow_parse_syspath("/sys/devices/a/1-1:1.0", devpath), 0);
	ck_assert_str_eq(devpath, "/devices/a/1-1:1.0");
	ck_assert_int_eq(udev_follow_parse_syspath("/devices/a/..x", devpath), 0);
	ck_assert_int_eq(udev_follow_parse_syspath("/sysfoo/x", devpath), 0);
	ck_assert_str_eq(devpath, "/sysfoo/x");
}
END_TEST

START_TEST(test_rules_init_bad)
{
	const char *bad_match[] = { "A=b", "nope" };
	const char *many[UDEV_FOLLOW_MATCH_MAX + 1];
	struct udev_follow_rules r;
	unsigned int i;

	ck_assert_int_eq(udev_follow_rules_init(&r, "x", NULL, bad_match, 2), -EINVAL);
	ck_assert_int_eq(udev_follow_rules_init(&r, "x", "relative", NULL, 0), -EINVAL);
	ck_assert_int_eq(udev_follow_rules_init(&r, "", NULL, NULL, 0), -EINVAL);
	ck_assert_int_eq(udev_follow_rules_init(&r, NULL, NULL, NULL, 0), -EINVAL);
	ck_assert_int_eq(udev_follow_rules_init(NULL, "x", NULL, NULL, 0), -EINVAL);
	for (i = 0; i <= UDEV_FOLLOW_MATCH_MAX; i++)
		many[i] = "A=b";
	ck_assert_int_eq(udev_follow_rules_init(&r, "x", NULL, many,
						UDEV_FOLLOW_MATCH_MAX + 1), -EINVAL);
	ck_assert_int_eq(udev_follow_rules_init(&r, "x", NULL, many, UDEV_FOLLOW_MATCH_MAX), 0);
	ck_assert_uint_eq(r.n_match, UDEV_FOLLOW_MATCH_MAX);
}
END_TEST

START_TEST(test_seqnum)
{
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", "4711" }), 1), 4711);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "ACTION", "add" }, { "SEQNUM", "1" }), 2), 1);
	/* Absent or malformed: 0, which disables the duplicate check. */
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "ACTION", "add" }), 1), 0);
	ck_assert_uint_eq(udev_follow_seqnum(NULL, 0), 0);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", "" }), 1), 0);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", "-5" }), 1), 0);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", " 5" }), 1), 0);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", "5x" }), 1), 0);
	ck_assert_uint_eq(udev_follow_seqnum(PROPS({ "SEQNUM", "99999999999999999999999" }), 1),
			  0);
}
END_TEST

/* Parse @argv; 0/-EINVAL as returned, with stderr's text in @errtext. */
static int parse(int argc, char **argv, struct cuse_ec_options *o, char **errtext)
{
	size_t len;
	FILE *err = open_memstream(errtext, &len);
	FILE *out = fopen("/dev/null", "w");
	int ret;

	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(out);
	ret = cuse_ec_parse_options(argc, argv, o, out, err);
	fclose(err);
	fclose(out);
	return ret;
}

START_TEST(test_options_good)
{
	char *argv[] = { "cuse_ec", "--follow=/sys/devices/x/1-1",
			 "--follow-match=ID_VENDOR_ID=0781", "--follow-match=SUBSYSTEM=usb",
			 NULL };
	char *argv_none[] = { "cuse_ec", NULL };
	char *argv_off[] = { "cuse_ec", "--no-udev", NULL };
	struct cuse_ec_options o;
	char *errtext = NULL;

	ck_assert_int_eq(parse(4, argv, &o, &errtext), 0);
	ck_assert_str_eq(o.follow, "/sys/devices/x/1-1");
	ck_assert_uint_eq(o.n_follow_match, 2);
	ck_assert_str_eq(o.follow_match[1], "SUBSYSTEM=usb");
	ck_assert(!o.no_udev);
	free(errtext);

	ck_assert_int_eq(parse(1, argv_none, &o, &errtext), 0);
	ck_assert_ptr_null(o.follow);
	ck_assert_uint_eq(o.n_follow_match, 0);
	ck_assert(!o.no_udev);
	free(errtext);

	ck_assert_int_eq(parse(2, argv_off, &o, &errtext), 0);
	ck_assert(o.no_udev);
	free(errtext);
}
END_TEST

START_TEST(test_options_bad)
{
	static const struct {
		const char *args[4];
		const char *says;
	} cases[] = {
		{ { "--follow=devices/x" }, "invalid --follow" },
		{ { "--follow=" }, "invalid --follow" },
		{ { "--follow=/sys/a b" }, "invalid --follow" },
		{ { "--follow=/sys/devices/../x" }, "invalid --follow" },
		{ { "--follow" }, "needs an argument" },
		{ { "--follow=/sys/devices/a", "--follow=/sys/devices/b" }, "given twice" },
		{ { "--follow-match=KEY" }, "invalid --follow-match" },
		{ { "--follow-match==v" }, "invalid --follow-match" },
		{ { "--follow-match=KEY=" }, "invalid --follow-match" },
		{ { "--follow-match=K Y=v" }, "invalid --follow-match" },
		{ { "--follow-match" }, "needs an argument" },
		{ { "--no-udev", "--follow=/sys/devices/a" }, "contradicts" },
		{ { "--follow-match=A=b", "--no-udev" }, "contradicts" },
		{ { "--no-udev=yes" }, "" },
	};
	char long_value[UDEV_FOLLOW_VALUE_MAX + 32];
	char *argv[UDEV_FOLLOW_MATCH_MAX + 3];
	struct cuse_ec_options o;
	char *errtext = NULL;
	size_t i;
	int argc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		argc = 0;
		argv[argc++] = "cuse_ec";
		while (argc - 1 < 4 && cases[i].args[argc - 1])
			argv[argc] = (char *)cases[i].args[argc - 1], argc++;
		argv[argc] = NULL;
		ck_assert_msg(parse(argc, argv, &o, &errtext) == -EINVAL, "case %zu accepted", i);
		ck_assert_msg(strstr(errtext, cases[i].says), "case %zu said '%s'", i, errtext);
		free(errtext);
		errtext = NULL;
	}

	snprintf(long_value, sizeof(long_value), "--follow-match=K=");
	memset(long_value + strlen(long_value), 'v', UDEV_FOLLOW_VALUE_MAX);
	long_value[sizeof(long_value) - 1] = '\0';
	argv[1] = long_value;
	argv[2] = NULL;
	ck_assert_int_eq(parse(2, argv, &o, &errtext), -EINVAL);
	ck_assert_ptr_nonnull(strstr(errtext, "too long"));
	free(errtext);

	/* One rule more than the limit. */
	for (argc = 1; argc <= UDEV_FOLLOW_MATCH_MAX + 1; argc++)
		argv[argc] = "--follow-match=A=b";
	argv[argc] = NULL;
	ck_assert_int_eq(parse(argc, argv, &o, &errtext), -EINVAL);
	ck_assert_ptr_nonnull(strstr(errtext, "too many --follow-match"));
	free(errtext);
}
END_TEST

START_TEST(test_uevent_counters_and_monitor)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	struct udev_follow_rules r = own_rules();
	struct udev_follow *uf = NULL;
	struct chardev_stats st;
	int ret;

	chardev_stat_inc(ctx, CHARDEV_STAT_uevents_seen);
	chardev_stat_inc(ctx, CHARDEV_STAT_uevents_seen);
	chardev_stat_inc(ctx, CHARDEV_STAT_uevent_unplugs);
	chardev_stat_inc(ctx, CHARDEV_STAT_uevent_plugs);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.uevents_seen, 2);
	ck_assert_uint_eq(st.uevent_unplugs, 1);
	ck_assert_uint_eq(st.uevent_plugs, 1);

	ck_assert_int_eq(udev_follow_start(NULL, &r, &uf), -EINVAL);
	ck_assert_int_eq(udev_follow_start(ctx, NULL, &uf), -EINVAL);
	udev_follow_stop(NULL);
	/*
	 * The kernel's uevent socket may be closed to us (some containers):
	 * then a clean -errno, else a thread that stops promptly.
	 */
	ret = udev_follow_start(ctx, &r, &uf);
	if (ret) {
		ck_assert_int_lt(ret, 0);
	} else {
		ck_assert_ptr_nonnull(uf);
		udev_follow_stop(uf);
	}
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_devname_both_spellings)
{
	const char *bare[] = { "DEVNAME=ec2" }, *full[] = { "DEVNAME=/dev/ec2" };
	const char *sub[] = { "DEVNAME=input/event3" };
	struct udev_follow_rules r;

	/* The kernel's copy says "ec2", libudev's "/dev/ec2": one device. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, bare, 1), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec2" },
				{ "DEVNAME", "/dev/ec2" }), UDEV_FOLLOW_PLUG);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" },
				{ "DEVPATH", "/devices/virtual/cuse/ec2" }, { "DEVNAME", "ec2" }),
			 UDEV_FOLLOW_UNPLUG);
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, full, 1), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec2" },
				{ "DEVNAME", "ec2" }), UDEV_FOLLOW_PLUG);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec2" },
				{ "DEVNAME", "/dev/ec2" }), UDEV_FOLLOW_PLUG);
	/* Still whole names: neither a prefix nor another directory. */
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec" },
				{ "DEVNAME", "/dev/ec" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec2" },
				{ "DEVNAME", "/dev/x/ec2" }), UDEV_FOLLOW_IGNORE);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "add" }, { "DEVPATH", "/devices/virtual/cuse/ec2" },
				{ "DEVNAME", "/devec2" }), UDEV_FOLLOW_IGNORE);
	/* Names in subdirectories of /dev. */
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, sub, 1), 0);
	ck_assert_int_eq(DECIDE(&r, { "ACTION", "remove" }, { "DEVPATH", "/devices/i/event3" },
				{ "DEVNAME", "/dev/input/event3" }), UDEV_FOLLOW_UNPLUG);
	/* Other keys keep exact comparison. */
	ck_assert(!udev_follow_matches(&r, PROPS({ "DEVPATH", "/d" }, { "DEVNAME", "event3" }), 2));
	ck_assert(!udev_follow_matches(NULL, PROPS({ "DEVPATH", "/d" }), 1));
	ck_assert(!udev_follow_matches(&r, PROPS({ "DEVNAME", "input/event3" }), 1));
}
END_TEST

START_TEST(test_seen_counts_copies_once)
{
	static struct udev_follow_seen seen;
	unsigned long long i;

	memset(&seen, 0, sizeof(seen));
	/* Kernel copy, then udevd's copy of the same event. */
	ck_assert(udev_follow_seen_add(&seen, 41));
	ck_assert(!udev_follow_seen_add(&seen, 41));
	/* udevd's copy of 42 late, after the kernel's 43. */
	ck_assert(udev_follow_seen_add(&seen, 42));
	ck_assert(udev_follow_seen_add(&seen, 43));
	ck_assert(!udev_follow_seen_add(&seen, 42));
	ck_assert(!udev_follow_seen_add(&seen, 43));
	/* Unnumbered events are each their own. */
	ck_assert(udev_follow_seen_add(&seen, 0));
	ck_assert(udev_follow_seen_add(&seen, 0));
	/* The window is bounded: a number that old counts again. */
	for (i = 1000; i < 1000 + UDEV_FOLLOW_SEEN_MAX; i++)
		ck_assert(udev_follow_seen_add(&seen, i));
	ck_assert(udev_follow_seen_add(&seen, 41));
	ck_assert(!udev_follow_seen_add(&seen, 1000 + UDEV_FOLLOW_SEEN_MAX - 1));
}
END_TEST

/* A stand-in udevd: a child listening on @path until it is killed. */
/* Write @len bytes of @text to DIR/entry; the entry's path into @path. */
static void write_entry(const char *dir, const char *text, size_t len, char *path, size_t plen)
{
	FILE *f;

	snprintf(path, plen, "%s/entry", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

#define DB_ENTRY(dir, lit, path) write_entry(dir, lit, sizeof(lit) - 1, path, sizeof(path))

/* An entry's bytes, the record asked for, and what udev_follow_db_value() gives. */
struct db_case {
	const char *what;
	const char *text;
	size_t len;
	const char *prefix;
	int ret;
	const char *value;
};

#define DB_CASE(what, lit, prefix, ret, value) { what, lit, sizeof(lit) - 1, prefix, ret, value }

static const struct db_case db_cases[] = {
	DB_CASE("the empty entry of a device udevd records nothing about", "", "I:", -ENODATA,
		NULL),
	DB_CASE("last line without its newline, an empty value", "V:1\nE:CUSE_EC_INSTANCE=",
		"E:CUSE_EC_INSTANCE=", 0, ""),
	DB_CASE("last line without its newline", "V:1\nI:77", "I:", 0, "77"),
	DB_CASE("the first record counts", "I:1\nI:2\n", "I:", 0, "1"),
	DB_CASE("a line with a NUL byte is no record, whatever follows it",
		"I:5\0garbage\nI:6\n", "I:", 0, "6"),
};

START_TEST(test_db_value)
{
	char dir[] = "/tmp/cuse_ec_db.XXXXXX", path[64], buf[32], big[8192];
	size_t n, i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* What systemd-udevd 252 writes for a node our runtime rule matched. */
	DB_ENTRY(dir, "I:4111392\nE:CUSE_EC=1\nE:CUSE_EC_INSTANCE=812.4100000\nG:\nQ:\nV:1\n",
		 path);
	ck_assert_int_eq(udev_follow_db_value(path, "I:", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "4111392");
	ck_assert_int_eq(udev_follow_db_value(path, "E:CUSE_EC_INSTANCE=", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "812.4100000");
	ck_assert_int_eq(udev_follow_db_value(path, "E:CUSE_EC=", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "1");
	/* A key that only starts like another is not it. */
	ck_assert_int_eq(udev_follow_db_value(path, "E:CUSE_EC_INST=", buf, sizeof(buf)),
			 -ENODATA);
	ck_assert_int_eq(udev_follow_db_value(path, "S:", buf, sizeof(buf)), -ENODATA);
	/* The value must fit whole: never a truncated one. */
	ck_assert_int_eq(udev_follow_db_value(path, "E:CUSE_EC_INSTANCE=", buf, 11), -E2BIG);
	ck_assert_int_eq(udev_follow_db_value(path, "E:CUSE_EC_INSTANCE=", buf, 12), 0);
	ck_assert_str_eq(buf, "812.4100000");

	for (i = 0; i < sizeof(db_cases) / sizeof(db_cases[0]); i++) {
		const struct db_case *c = &db_cases[i];

		write_entry(dir, c->text, c->len, path, sizeof(path));
		ck_assert_msg(udev_follow_db_value(path, c->prefix, buf, sizeof(buf)) == c->ret,
			      "%s: not %d", c->what, c->ret);
		if (!c->ret)
			ck_assert_msg(!strcmp(buf, c->value), "%s: \"%s\", not \"%s\"", c->what,
				      buf, c->value);
	}

	/*
	 * A record longer than any buffer is read whole: the text where a
	 * reader with a 4 KiB line buffer would cut it (fgets() takes 4095
	 * bytes) does not pass for a record of its own.
	 */
	memset(big, 'x', sizeof(big));
	memcpy(big, "E:LONG=", 7);
	n = 4095;
	memcpy(big + n, "I:9", 3);
	big[sizeof(big) - 1] = '\n';
	write_entry(dir, big, sizeof(big), path, sizeof(path));
	ck_assert_int_eq(udev_follow_db_value(path, "I:", buf, sizeof(buf)), -ENODATA);
	ck_assert_int_eq(udev_follow_db_value(path, "E:LONG=", buf, sizeof(buf)), -E2BIG);

	/* Bad arguments and missing or unreadable entries. */
	ck_assert_int_eq(udev_follow_db_value(NULL, "I:", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(udev_follow_db_value(path, NULL, buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(udev_follow_db_value(path, "", buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(udev_follow_db_value(path, "I:", NULL, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(udev_follow_db_value(path, "I:", buf, 0), -EINVAL);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(udev_follow_db_value(path, "I:", buf, sizeof(buf)), -ENOENT);
	/* A directory opens but does not read. */
	ck_assert_int_eq(udev_follow_db_value(dir, "I:", buf, sizeof(buf)), -EISDIR);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static pid_t fake_udevd(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ready[2];
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		strcpy(sa.sun_path, path);
		unlink(path);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 64))
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

static void kill_fake_udevd(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

START_TEST(test_udevd_probe)
{
	char dir[] = "/tmp/udevd-probe-XXXXXX", path[64];
	pid_t pid, got;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/control", dir);
	ck_assert_int_eq(udev_follow_udevd_probe(NULL, &got), -EINVAL);
	ck_assert_int_eq(udev_follow_udevd_probe(path, NULL), -EINVAL);
	ck_assert_int_eq(udev_follow_udevd_probe(path, &got), -ENOENT);
	pid = fake_udevd(path);
	ck_assert_int_eq(udev_follow_udevd_probe(path, &got), 0);
	ck_assert_int_eq(got, pid);
	kill_fake_udevd(pid);
	/* The file outlives its udevd: the probe must not believe it. */
	ck_assert_int_eq(access(path, F_OK), 0);
	ck_assert_int_eq(udev_follow_udevd_probe(path, &got), -ECONNREFUSED);
	ck_assert_int_eq(got, 0);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Wait (bounded, 10 s) until stats field @field reaches @want. */
static bool wait_stat(struct chardev_ctx *ctx, size_t offset, uint64_t want)
{
	struct chardev_stats st;
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	int i;

	for (i = 0; i < 2000; i++) {
		chardev_stats(ctx, &st);
		if (*(uint64_t *)((char *)&st + offset) >= want)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

#define WAIT_STAT(ctx, field, want) \
	ck_assert_msg(wait_stat(ctx, offsetof(struct chardev_stats, field), want), \
		      "stats %s never reached %d", #field, (int)(want))

START_TEST(test_udevd_followed_at_run_time)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	char dir[] = "/tmp/udevd-follow-XXXXXX", sub[64], path[80];
	struct udev_follow_rules r = own_rules();
	struct udev_follow *uf = NULL;
	struct chardev_stats st;
	pid_t pid;
	int ret;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* The directory does not exist yet, as /run/udev before udevd. */
	snprintf(sub, sizeof(sub), "%s/udev", dir);
	snprintf(path, sizeof(path), "%s/control", sub);
	r.udevd_control = path;
	ret = udev_follow_start(ctx, &r, &uf);
	if (ret) {
		fprintf(stderr, "no uevent socket here (%s): run-time test skipped\n",
			strerror(-ret));
		goto out;
	}
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.udevd_appeared, 0);
	/* udevd starts after the daemon: seen without a restart. */
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	pid = fake_udevd(path);
	WAIT_STAT(ctx, udevd_appeared, 1);
	/* Killed: its socket file stays, the daemon still notices. */
	kill_fake_udevd(pid);
	WAIT_STAT(ctx, udevd_vanished, 1);
	/* Restarted: appears again. */
	pid = fake_udevd(path);
	WAIT_STAT(ctx, udevd_appeared, 2);
	kill_fake_udevd(pid);
	WAIT_STAT(ctx, udevd_vanished, 2);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.udevd_appeared, 2);
	ck_assert_uint_eq(st.udevd_vanished, 2);
	udev_follow_stop(uf);
	/* Started after udevd died, with its socket file left: not fooled. */
	ret = udev_follow_start(ctx, &r, &uf);
	ck_assert_int_eq(ret, 0);
	chardev_stats(ctx, &st);
	ck_assert_uint_eq(st.udevd_appeared, 2);
	udev_follow_stop(uf);
out:
	unlink(path);
	rmdir(sub);
	rmdir(dir);
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_follower_starts_unplugged)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);
	const char *never[] = { "ID_NO_SUCH_KEY=nothing" };
	struct udev_follow_rules r;
	struct udev_follow *uf = NULL;
	int ret;

	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", "/devices/no/such/device", NULL, 0),
			 0);
	ck_assert(chardev_is_plugged(ctx));
	ret = udev_follow_start(ctx, &r, &uf);
	if (ret) {
		fprintf(stderr, "no uevent socket here (%s): test skipped\n", strerror(-ret));
		goto out;
	}
	ck_assert_msg(!chardev_is_plugged(ctx), "--follow of an absent device left the EC plugged");
	udev_follow_stop(uf);

	ck_assert_int_eq(chardev_plug(ctx), 0);
	ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", NULL, never, 1), 0);
	ck_assert_int_eq(udev_follow_start(ctx, &r, &uf), 0);
	ck_assert_msg(!chardev_is_plugged(ctx), "--follow-match of no device left the EC plugged");
	udev_follow_stop(uf);

	/* A device that is there: the EC stays plugged (/sys/devices/virtual/mem/null). */
	ck_assert_int_eq(chardev_plug(ctx), 0);
	if (!access("/sys/devices/virtual/mem/null", F_OK)) {
		ck_assert_int_eq(udev_follow_rules_init(&r, "cros_ec", "/sys/devices/virtual/mem/null",
							NULL, 0), 0);
		ck_assert_int_eq(udev_follow_start(ctx, &r, &uf), 0);
		ck_assert(chardev_is_plugged(ctx));
		udev_follow_stop(uf);
	}
out:
	harness_ctx_free(ctx);
}
END_TEST

START_TEST(test_operator_hold_flag)
{
	struct chardev_ctx *ctx = harness_ctx(LIFECYCLE_REVOCABLE);

	ck_assert(!chardev_operator_hold(ctx));
	chardev_set_operator_hold(ctx, true);
	ck_assert(chardev_operator_hold(ctx));
	chardev_set_operator_hold(ctx, false);
	ck_assert(!chardev_operator_hold(ctx));
	harness_ctx_free(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("udev_follow");
	TCase *tc = tcase_create("all");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_decide_own_device);
	tcase_add_test(tc, test_decide_syspath_and_match);
	tcase_add_test(tc, test_parse_match_bad);
	tcase_add_test(tc, test_parse_syspath_bad);
	tcase_add_test(tc, test_rules_init_bad);
	tcase_add_test(tc, test_seqnum);
	tcase_add_test(tc, test_options_good);
	tcase_add_test(tc, test_options_bad);
	tcase_add_test(tc, test_uevent_counters_and_monitor);
	tcase_add_test(tc, test_devname_both_spellings);
	tcase_add_test(tc, test_seen_counts_copies_once);
	tcase_add_test(tc, test_db_value);
	tcase_add_test(tc, test_udevd_probe);
	tcase_add_test(tc, test_udevd_followed_at_run_time);
	tcase_add_test(tc, test_follower_starts_unplugged);
	tcase_add_test(tc, test_operator_hold_flag);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
