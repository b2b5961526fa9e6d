/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * udev_follow.h - the daemon follows a device's uevents: "remove" unplugs
 * the EC (asynchronously), "add" plugs a fresh one.
 *
 * Two halves. The matcher is pure - rules plus one uevent's properties give
 * a decision - so every rule is unit-tested without netlink. The monitor is
 * a thread around libudev that feeds the matcher and acts on its decision.
 */
#ifndef CUSE_EC_UDEV_FOLLOW_H
#define CUSE_EC_UDEV_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct chardev_ctx;

/* Limits of the matcher's inputs (options beyond them are refused). */
#define UDEV_FOLLOW_MATCH_MAX 16
#define UDEV_FOLLOW_KEY_MAX 64
#define UDEV_FOLLOW_VALUE_MAX 256
#define UDEV_FOLLOW_PATH_MAX 512
#define UDEV_FOLLOW_NAME_MAX 64

/**
 * struct udev_follow_match - one --follow-match=KEY=VALUE rule.
 * @key:   udev property name, e.g. ID_VENDOR_ID
 * @value: its exact value
 */
struct udev_follow_match {
	char key[UDEV_FOLLOW_KEY_MAX];
	char value[UDEV_FOLLOW_VALUE_MAX];
};

/**
 * struct udev_follow_rules - which device's uevents drive the EC.
 * @name:    the daemon's own CUSE device (subsystem cuse, this sysname);
 *           used only when neither @devpath nor @match is given
 * @devpath: --follow: the device's DEVPATH (syspath without "/sys"), or ""
 * @match:   --follow-match rules; all of them must hold
 * @n_match: how many
 * @udevd_control: udevd's control socket; NULL (what udev_follow_rules_init()
 *           leaves) means /run/udev/control, tests point it elsewhere
 *
 * With both @devpath and @match, an event must satisfy both. A DEVNAME
 * match compares the name below /dev, so "ec2" and "/dev/ec2" are one.
 */
struct udev_follow_rules {
	char name[UDEV_FOLLOW_NAME_MAX];
	char devpath[UDEV_FOLLOW_PATH_MAX];
	struct udev_follow_match match[UDEV_FOLLOW_MATCH_MAX];
	unsigned int n_match;
	const char *udevd_control;
};

/**
 * struct udev_follow_prop - one property of a uevent (ACTION, DEVPATH,
 * SUBSYSTEM, SYNTH_UUID, ID_VENDOR_ID, ...).
 * @key:   name
 * @value: value
 */
struct udev_follow_prop {
	const char *key;
	const char *value;
};

/* What a uevent means for the EC. */
enum udev_follow_decision {
	UDEV_FOLLOW_IGNORE,	/* not our device, or an action we do not act on */
	UDEV_FOLLOW_UNPLUG,	/* our device was removed */
	UDEV_FOLLOW_PLUG,	/* our device was added */
};

/**
 * udev_follow_parse_match() - check and split one --follow-match argument.
 * @text: "KEY=VALUE": KEY of [A-Za-z0-9_] (1..63 bytes), VALUE of 1..255
 *        printable bytes other than whitespace
 * @out:  the rule
 *
 * Return: 0, -EINVAL for a malformed argument, -ENAMETOOLONG when a part is
 * too long.
 */
int udev_follow_parse_match(const char *text, struct udev_follow_match *out);

/**
 * udev_follow_parse_syspath() - check a --follow argument and turn it into
 * the DEVPATH that uevents carry.
 * @text:    "/sys/devices/..." or the DEVPATH itself ("/devices/...");
 *           trailing slashes are dropped
 * @devpath: at least UDEV_FOLLOW_PATH_MAX bytes; the DEVPATH
 *
 * Return: 0, -EINVAL (not absolute, empty, "/sys" alone, whitespace, control
 * characters or a ".." component), -ENAMETOOLONG.
 */
int udev_follow_parse_syspath(const char *text, char *devpath);

/**
 * udev_follow_rules_init() - build the rules from the command line.
 * @rules:   filled
 * @name:    the daemon's device name (--name)
 * @syspath: --follow argument or NULL
 * @matches: --follow-match arguments
 * @n:       their count (at most UDEV_FOLLOW_MATCH_MAX)
 *
 * Return: 0 or the error of the first bad argument (-EINVAL, -ENAMETOOLONG).
 */
int udev_follow_rules_init(struct udev_follow_rules *rules, const char *name,
			   const char *syspath, const char *const *matches, unsigned int n);

/**
 * udev_follow_prop_get() - a property's value.
 * @props: the uevent's properties
 * @n:     their count
 * @key:   the name wanted
 *
 * Return: the first value of @key, or NULL.
 */
const char *udev_follow_prop_get(const struct udev_follow_prop *props, size_t n,
				 const char *key);

/**
 * udev_follow_matches() - whether a device is the followed one (pure).
 * @rules: which device is followed
 * @props: the device's (or one uevent's) properties, DEVPATH among them
 * @n:     their count
 *
 * Return: true when DEVPATH is @rules' device (or, without --follow and
 * --follow-match, the daemon's own cuse/NAME) and every match holds.
 */
bool udev_follow_matches(const struct udev_follow_rules *rules,
			 const struct udev_follow_prop *props, size_t n);

/**
 * udev_follow_decide() - what one uevent means for the EC (pure).
 * @rules: which device is followed
 * @props: the uevent's properties, ACTION and DEVPATH among them
 * @n:     their count
 *
 * Return: UDEV_FOLLOW_UNPLUG for "remove" and UDEV_FOLLOW_PLUG for "add" of
 * the followed device; UDEV_FOLLOW_IGNORE for anything else, including an
 * event without ACTION or DEVPATH.
 */
enum udev_follow_decision udev_follow_decide(const struct udev_follow_rules *rules,
					     const struct udev_follow_prop *props, size_t n);

/**
 * udev_follow_seqnum() - a uevent's kernel sequence number.
 * @props: the uevent's properties
 * @n:     their count
 *
 * The kernel numbers every uevent; udevd passes the number on. The same
 * event heard from both sources therefore has one number, and a late copy
 * from udevd can be told from a newer event.
 *
 * Return: SEQNUM, or 0 when absent or not a plain decimal number.
 */
unsigned long long udev_follow_seqnum(const struct udev_follow_prop *props, size_t n);

/* How many recent SEQNUMs udev_follow_seen_add() remembers. */
#define UDEV_FOLLOW_SEEN_MAX 256

/**
 * struct udev_follow_seen - a window of recently heard SEQNUMs, so that
 * the kernel's and udevd's copies of one event are counted once.
 * @seqnum: the numbers (0: free slot)
 * @next:   slot to overwrite next
 */
struct udev_follow_seen {
	unsigned long long seqnum[UDEV_FOLLOW_SEEN_MAX];
	unsigned int next;
};

/**
 * udev_follow_seen_add() - note one copy of an event.
 * @seen:   the window (zero-initialised to start)
 * @seqnum: the event's SEQNUM; 0 for an unnumbered event
 *
 * Return: true if @seqnum is not among the last UDEV_FOLLOW_SEEN_MAX
 * numbers noted (a first copy), false for a repeat. Always true for 0.
 */
bool udev_follow_seen_add(struct udev_follow_seen *seen, unsigned long long seqnum);

/**
 * udev_follow_udevd_probe() - is a udevd accepting on its control socket?
 * @path: the socket, normally /run/udev/control
 * @pid:  set to the listening process's pid, 0 when unknown; after
 *        `systemd-udevd --daemon` it is the parent that has exited, under
 *        systemd's socket activation it is 1
 *
 * The file alone proves nothing: it stays after udevd is killed or exits.
 * The connection is closed at once without a message, which udevd drops
 * without a word.
 *
 * Return: 0 when a listener accepted, else connect()'s -errno (-ENOENT no
 * file, -ECONNREFUSED nobody listening), -EINVAL, -ENAMETOOLONG.
 */
int udev_follow_udevd_probe(const char *path, pid_t *pid);

/**
 * udev_follow_db_value() - one record of udevd's database entry for a device.
 * @path:   the entry, e.g. /run/udev/data/c252:0
 * @prefix: what the record's line starts with: "I:" (when udevd set the
 *          device up, microseconds of CLOCK_MONOTONIC) or "E:KEY=" (a
 *          property udevd recorded)
 * @buf:    the rest of the first such line, without its newline
 * @len:    size of @buf
 *
 * Lines of any length are read whole, so a long record cannot pass part of
 * itself off as another.
 *
 * Return: 0, -ENODATA when no line starts with @prefix, -E2BIG when the
 * value does not fit in @buf, -EINVAL for a bad argument, -ENOMEM, or
 * fopen()'s -errno (-ENOENT: no entry).
 */
int udev_follow_db_value(const char *path, const char *prefix, char *buf, size_t len);

struct udev_follow;

/**
 * udev_follow_start() - start the monitor thread.
 * @ctx:   the daemon's chardev context (unplugged/plugged by uevents)
 * @rules: copied
 * @out:   the monitor, for udev_follow_stop()
 *
 * Listens to the kernel's uevents always, and to udevd's while a udevd
 * runs: udevd is probed at start and whenever its control socket is
 * created (inotify), its exit is seen through a pidfd (or, when its pid is
 * unknown, by probing once a second), and udevd's monitor is opened when it
 * appears and dropped when it goes (stats udevd_appeared/udevd_vanished).
 * With --follow/--follow-match, the devices present now are scanned and the
 * EC is unplugged (chardev_unplug()) when the followed one is absent; its
 * "add" plugs it. A uevent "add" does not plug while
 * chardev_operator_hold() is set. Must be called with the signals that the
 * caller's main loop handles blocked.
 *
 * Return: 0, -ENOMEM, or -errno when no monitor could be opened.
 */
int udev_follow_start(struct chardev_ctx *ctx, const struct udev_follow_rules *rules,
		      struct udev_follow **out);

/**
 * udev_follow_stop() - stop the thread and free the monitor.
 * @uf: the monitor; NULL is ignored
 */
void udev_follow_stop(struct udev_follow *uf);

#endif /* CUSE_EC_UDEV_FOLLOW_H */
