/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl_stats.h - the daemon's counters, defined once, as the control
 * protocol's "stats" reply carries them.
 *
 * CHARDEV_STATS() is the only list of counters. It generates the snapshot
 * struct, the counter indices, the control socket's "stats" key=value text
 * and its parser, so a counter added to the list is counted, snapshotted,
 * reported and parsed with no other edit. The key on the wire is the field
 * name.
 *
 * Header-only and free of daemon internals, so clients of the control
 * socket (hotplug_sim) parse the reply with the same definition.
 */
#ifndef CUSE_EC_CTL_STATS_H
#define CUSE_EC_CTL_STATS_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* X(name, what it counts) - one line per counter, in reporting order. */
#define CHARDEV_STATS(X)							\
	X(opens, "open()s that attached to an EC")				\
	X(open_enodev, "open()s refused: no EC present")			\
	X(releases, "close()s")							\
	X(open_files, "files open now (a gauge)")				\
	X(ioctl_ok, "ioctls answered, EC result 0")				\
	X(ioctl_ec_error, "ioctls answered with a non-zero EC result")	\
	X(ioctl_enodev, "ioctls failed with ENODEV (EC gone)")		\
	X(ioctl_enotty, "ioctls with an unknown number")			\
	X(ioctl_other_error, "ioctls failed otherwise")			\
	X(ioctl_retries, "CUSE ioctl retry steps asked for")			\
	X(reads, "read()s")							\
	X(read_enodev, "read()s failed with ENODEV")				\
	X(events_delivered, "MKBP events handed to a read()")			\
	X(reads_parked, "blocking read()s that had to park for an event")	\
	X(parked_reads, "read()s parked now (a gauge)")			\
	X(inflight_accesses, "file accesses inside the EC now (a gauge)")	\
	X(plugs, "ECs plugged in")						\
	X(unplugs, "unplugs started")						\
	X(revocations, "unplugs completed (no access reaches the EC)")	\
	X(revoke_waited_accesses, "accesses the last revoke waited for")	\
	X(last_revoke_wait_ns, "how long the last revoke waited (ns)")	\
	X(zombie_accesses, "file accesses that reached an unplugged EC")	\
	X(live_ecs, "EC instances allocated now (a gauge)")			\
	X(live_ec_bytes, "heap bytes those ECs held when plugged (a gauge)")	\
	X(ec_cold_reboots, "cold EC resets replayed as an unplug and a plug")	\
	X(state_saves, "--state files saved (verb \"save\", every unplug)")	\
	X(state_loads, "--state files loaded (verb \"load\", every plug)")	\
	X(state_refused, "--state files a load refused")			\
	X(faults_injected, "host commands a fault rule shaped (see \"fault\")")	\
	X(replay_hits, "host commands and READMEMs a --replay record matched")	\
	X(replay_loose_hits, "host commands --replay-match=order answered")	\
	X(replay_misses, "requests the --replay recording lacked")		\
	X(records_written, "records --record wrote")				\
	X(record_write_errors, "records --record failed to write")		\
	X(uevents_seen, "distinct uevents (by SEQNUM) received")		\
	X(uevent_unplugs, "unplugs a uevent started")				\
	X(uevent_plugs, "plugs a uevent made")					\
	X(uevents_kernel, "uevent copies from the kernel's netlink group")	\
	X(uevents_udev, "uevent copies re-broadcast by udevd")		\
	X(uevent_adds_held, "uevent adds ignored: the operator unplugged")	\
	X(udevd_appeared, "times the monitor found udevd running")		\
	X(udevd_vanished, "times the monitor found udevd gone")

/** enum chardev_stat - index of one counter (CHARDEV_STAT_<name>). */
enum chardev_stat {
#define CHARDEV_STAT_ENUM(name, doc) CHARDEV_STAT_##name,
	CHARDEV_STATS(CHARDEV_STAT_ENUM)
#undef CHARDEV_STAT_ENUM
	CHARDEV_STAT_COUNT
};

/** struct chardev_stats - a snapshot of every counter, one field each. */
struct chardev_stats {
#define CHARDEV_STAT_FIELD(name, doc) uint64_t name;
	CHARDEV_STATS(CHARDEV_STAT_FIELD)
#undef CHARDEV_STAT_FIELD
};

/* Room for the key=value text with every counter at its widest, plus NUL. */
enum {
#define CHARDEV_STAT_WIDTH(name, doc) + sizeof(" " #name "=") + 20
	CHARDEV_STATS_TEXT_MAX = 1 CHARDEV_STATS(CHARDEV_STAT_WIDTH)
#undef CHARDEV_STAT_WIDTH
};

/**
 * chardev_stats_format() - "name=value name=value ..." for every counter.
 * @st:  the snapshot
 * @buf: receives the text (CHARDEV_STATS_TEXT_MAX bytes always suffice)
 * @len: room in @buf
 *
 * Return: the length of the full text (as snprintf: >= @len means cut).
 */
static inline size_t chardev_stats_format(const struct chardev_stats *st, char *buf,
					  size_t len)
{
	size_t used = 0;
	int n;

#define CHARDEV_STAT_PRINT(name, doc)						\
	n = snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,	\
		     "%s" #name "=%" PRIu64, used ? " " : "", st->name);		\
	used += n > 0 ? (size_t)n : 0;
	CHARDEV_STATS(CHARDEV_STAT_PRINT)
#undef CHARDEV_STAT_PRINT
	return used;
}

/**
 * chardev_stats_parse() - read the text of chardev_stats_format() back.
 * @text: "name=value ..." (a leading "ok " is skipped)
 * @out:  the snapshot; counters missing from @text are left 0
 *
 * Unknown keys are skipped, so an older client reads a newer daemon.
 *
 * Return: the number of known counters found, or -EINVAL for text that is
 * not a list of name=number words.
 */
static inline int chardev_stats_parse(const char *text, struct chardev_stats *out)
{
	const char *p = text, *eq;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (!strncmp(p, "ok ", 3))
		p += 3;
	while (*p) {
		unsigned long long val;
		size_t key_len;
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		eq = strchr(p, '=');
		if (!eq || eq == p || (size_t)(eq - p) != strcspn(p, " ="))
			return -EINVAL;
		key_len = (size_t)(eq - p);
		if (eq[1] < '0' || eq[1] > '9')
			return -EINVAL;
		errno = 0;
		val = strtoull(eq + 1, &end, 10);
		if (errno || (*end && *end != ' '))
			return -EINVAL;
#define CHARDEV_STAT_MATCH(name, doc)						\
		if (key_len == sizeof(#name) - 1 && !memcmp(p, #name, key_len)) {	\
			out->name = val;					\
			found++;						\
		} else
		CHARDEV_STATS(CHARDEV_STAT_MATCH)
#undef CHARDEV_STAT_MATCH
		{ /* unknown key: skipped */ }
		p = end;
	}
	return found;
}

#endif /* CUSE_EC_CTL_STATS_H */
