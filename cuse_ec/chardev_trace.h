/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chardev_trace.h - the daemon's lifecycle event log.
 *
 * Claims such as "the revoke waited for the command in flight" are about the
 * order of events inside the daemon. Clients cannot observe that order: an
 * ioctl reply and a control-socket reply travel on different channels, and
 * nothing orders their arrival. So the daemon records the events itself, each
 * numbered by one atomic sequence counter, and tests read the numbers.
 *
 * The log is a bounded ring: recording never blocks and never allocates, the
 * oldest events are overwritten once it is full, and a snapshot says how many
 * events it no longer holds. It is cheap enough to stay on by default (one
 * atomic increment, one clock read and a few stores per event; the daemon
 * hands it its cached clock, because under user-mode-linux every
 * clock_gettime() is a trapped system call of several microseconds).
 *
 * The entries, their events and their text form, which clients of the
 * control socket parse too, are the control protocol's: ctl/ctl_trace.h.
 */
#ifndef CUSE_EC_CHARDEV_TRACE_H
#define CUSE_EC_CHARDEV_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ctl/ctl_trace.h"

struct chardev_trace;

/**
 * chardev_trace_create() - make an empty log.
 * @capacity: events kept; rounded up to a power of two, at least 2
 * @out:      the log
 *
 * Return: 0, -EINVAL for a capacity of 0 or above 2^24, or -ENOMEM.
 */
int chardev_trace_create(size_t capacity, struct chardev_trace **out);

/**
 * chardev_trace_set_clock() - read time from @now_ns instead of
 * CLOCK_MONOTONIC; t= counts from this call. Call before anything records.
 * @tr:     the log
 * @now_ns: monotonic nanoseconds (e.g. struct ec_clock's now_ns), cheap to call
 *          from any thread
 * @ctx:    passed to @now_ns
 */
void chardev_trace_set_clock(struct chardev_trace *tr, uint64_t (*now_ns)(void *ctx), void *ctx);

/**
 * chardev_trace_destroy() - free a log; NULL is ignored. Nothing may record
 * into it any more.
 * @tr: the log
 */
void chardev_trace_destroy(struct chardev_trace *tr);

/**
 * chardev_trace_capacity() - events the ring holds.
 * @tr: the log
 *
 * Return: the capacity (a power of two).
 */
size_t chardev_trace_capacity(const struct chardev_trace *tr);

/**
 * chardev_trace_record() - append one event; safe from any thread at once.
 * @tr:    the log; NULL records nothing and returns 0
 * @event: what happened
 * @file:  the file's id, or 0
 * @cmd:   see struct chardev_trace_entry
 * @a:     first event-specific value
 * @b:     second event-specific value
 *
 * Never blocks. If a writer that was overtaken by a whole lap of the ring is
 * still writing the slot, this event is dropped (and counted as such).
 *
 * Return: the event's sequence number (also when dropped), or 0 for a NULL log.
 */
uint64_t chardev_trace_record(struct chardev_trace *tr, enum chardev_trace_event event,
			      uint64_t file, uint32_t cmd, int64_t a, int64_t b);

/**
 * chardev_trace_snapshot() - copy the events held now, oldest first.
 * @tr:      the log
 * @out:     room for @max entries
 * @max:     entries @out holds; chardev_trace_capacity() always suffices
 * @dropped: events recorded since the last clear that are not in @out
 *           (overwritten, dropped, or still being written right now); may be
 *           NULL
 *
 * Safe while other threads record: each copied entry is whole.
 *
 * Return: the number of entries placed in @out.
 */
size_t chardev_trace_snapshot(struct chardev_trace *tr, struct chardev_trace_entry *out,
			      size_t max, uint64_t *dropped);

/**
 * chardev_trace_clear() - forget the events recorded so far. Sequence
 * numbers continue where they were, so numbers stay comparable across a
 * clear.
 * @tr: the log
 */
void chardev_trace_clear(struct chardev_trace *tr);

#endif /* CUSE_EC_CHARDEV_TRACE_H */
