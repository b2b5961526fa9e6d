/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl_trace.h - the daemon's lifecycle events as the control protocol
 * carries them: the entries, what each event's fields mean, and one line
 * of text per event, written by the daemon's "trace" reply and read back
 * by every client that proves an order with it (the lab, the tests).
 *
 * Text form, one line per event (chardev_trace_format()):
 *
 *   SEQ t=SECONDS EVENT [file=F] [cmd=C] [key=value ...]
 *
 * SEQ orders the events; t= (CLOCK_MONOTONIC since the log was made) is for
 * people and plots, never for proving an order.
 */
#ifndef CUSE_EC_CTL_TRACE_H
#define CUSE_EC_CTL_TRACE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Events the daemon keeps, so the most event lines a "trace" reply holds:
 * a lab run or an e2e scenario fits many times.
 */
#define CHARDEV_TRACE_DEFAULT_EVENTS 4096

/* Longest line chardev_trace_format() writes, NUL included. */
#define CHARDEV_TRACE_LINE_MAX 160

/*
 * Access kinds in an entry's @cmd above the 16-bit EC command space, for
 * accesses that are not a host command.
 */
#define CHARDEV_TRACE_OP_READMEM 0x10000u
#define CHARDEV_TRACE_OP_EVENTMASK 0x10001u
#define CHARDEV_TRACE_OP_READ 0x10002u
#define CHARDEV_TRACE_OP_POLL 0x10003u
#define CHARDEV_TRACE_OP_RELEASE 0x10004u
#define CHARDEV_TRACE_OP_OPEN 0x10005u
#define CHARDEV_TRACE_OP_NOTIFY 0x10006u

/* uevent actions in an entry's @cmd. */
#define CHARDEV_TRACE_UEVENT_OTHER 0u
#define CHARDEV_TRACE_UEVENT_ADD 1u
#define CHARDEV_TRACE_UEVENT_REMOVE 2u

/*
 * enum chardev_trace_event - what happened. The meaning of an entry's @file,
 * @cmd, @a and @b per event is in ctl_trace.c's table and cuse_ec(8).
 */
enum chardev_trace_event {
	CHARDEV_TRACE_OPEN,		/* file, a: 0 or -errno */
	CHARDEV_TRACE_RELEASE,		/* file */
	CHARDEV_TRACE_ACCESS_BEGIN,	/* file, cmd */
	CHARDEV_TRACE_ACCESS_END,	/* file, cmd, a: begin's seq, b: result */
	CHARDEV_TRACE_READ_PARKED,	/* file */
	CHARDEV_TRACE_READ_WOKEN,	/* file, a: bytes or -errno */
	CHARDEV_TRACE_REVOKE_START,	/* a: accesses inside the EC */
	CHARDEV_TRACE_READERS_WOKEN,	/* a: parked reads woken */
	CHARDEV_TRACE_REVOKE_DONE,	/* a: accesses waited for, b: wait ns */
	CHARDEV_TRACE_PLUG,		/* a: 0 or -errno */
	CHARDEV_TRACE_UEVENT,		/* cmd: action, a: SEQNUM */
	CHARDEV_TRACE_EC_COLD_REBOOT,	/* file, a: the EC's cold resets */
	CHARDEV_TRACE_EC_FAULT,		/* file, cmd, a: enum ec_fault_kind, b: ret */
	CHARDEV_TRACE_EVENT_COUNT
};

/**
 * struct chardev_trace_entry - one recorded event, as a snapshot returns it.
 * @seq:   its number; later events have larger numbers (from 1, never reused)
 * @t_ns:  nanoseconds since the log was made (CLOCK_MONOTONIC, or the
 *         clock given to chardev_trace_set_clock())
 * @event: what happened
 * @cmd:   EC command number or CHARDEV_TRACE_OP_* (access events), uevent
 *         action (CHARDEV_TRACE_UEVENT_*), else 0
 * @file:  the file's id (files are numbered from 1 as they open), else 0
 * @a:     first event-specific value
 * @b:     second event-specific value
 */
struct chardev_trace_entry {
	uint64_t seq;
	uint64_t t_ns;
	enum chardev_trace_event event;
	uint32_t cmd;
	uint64_t file;
	int64_t a;
	int64_t b;
};

/**
 * chardev_trace_event_name() - the event's name in the text form.
 * @event: the event
 *
 * Return: e.g. "access-begin", or "?" for a value out of range.
 */
const char *chardev_trace_event_name(enum chardev_trace_event event);

/**
 * chardev_trace_format() - one entry as a line of text (no newline).
 * @e:   the entry
 * @buf: receives the text; CHARDEV_TRACE_LINE_MAX bytes always suffice
 * @len: room in @buf
 *
 * Return: the length of the full text (as snprintf: >= @len means cut).
 */
size_t chardev_trace_format(const struct chardev_trace_entry *e, char *buf, size_t len);

/**
 * chardev_trace_parse() - read a line of chardev_trace_format() back.
 * @line: the text (a trailing newline is allowed)
 * @out:  the entry
 *
 * Return: 0, or -EINVAL for a line that is not a trace event (unknown event
 * name, a key the event does not have, a malformed number).
 */
int chardev_trace_parse(const char *line, struct chardev_trace_entry *out);

#endif /* CUSE_EC_CTL_TRACE_H */
