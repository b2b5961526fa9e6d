/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab_ctl.h - what the teaching lab's clients (uaf_lab_client,
 * uaf_lab_v3_client) share: an XCMD on the device, the daemon's control
 * socket, its counters (control "stats") and its numbered trace (control
 * "trace"). Every order the lab reports is read from that trace, never
 * from the client's clocks.
 */
#ifndef CUSE_EC_LAB_CTL_H
#define CUSE_EC_LAB_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctl/ctl_stats.h"
#include "ctl/ctl_trace.h"

/*
 * How long the lab waits for the daemon to report a condition (a command
 * inside the EC, a parked read): generous, valgrind in user-mode-linux on a
 * loaded machine is slow, but a daemon that never reports it has a bug.
 */
#define LAB_CONDITION_WAIT_MS 60000
/* The trace holds at most this many events (the daemon's default). */
#define LAB_TRACE_MAX CHARDEV_TRACE_DEFAULT_EVENTS

/**
 * struct lab_trace - the daemon's trace, as read by "trace".
 * @e:   the events, oldest first
 * @n:   how many
 * @raw: their text, for the evidence lines
 */
struct lab_trace {
	struct chardev_trace_entry e[LAB_TRACE_MAX];
	size_t n;
	char raw[LAB_TRACE_MAX][CHARDEV_TRACE_LINE_MAX + 2];
};

/**
 * lab_errname() - an outcome as the doc and the lab script name it.
 * @ret: 0 or -errno (-EBADMSG: a wrong answer)
 *
 * Return: "ok", "ENODEV", ... (the script matches names, not texts).
 */
const char *lab_errname(long ret);

/**
 * lab_xcmd() - one XCMD on @fd.
 * @fd:      the file
 * @command: the EC command
 * @out:     @out_len bytes sent (at most 64)
 * @out_len: their length
 * @in:      the answer, exactly @in_len bytes (at most 64)
 * @in_len:  its length
 *
 * Return: 0 when the EC answered @in_len bytes with EC_RES_SUCCESS, -errno
 * from the device, or -EBADMSG.
 */
long lab_xcmd(int fd, uint32_t command, const void *out, uint32_t out_len, void *in,
	      uint32_t in_len);

/**
 * lab_hello() - XCMD HELLO on @fd.
 * @fd: the file
 *
 * Return: 0 when the EC answered correctly, else -errno or -EBADMSG.
 */
long lab_hello(int fd);

/**
 * lab_control_open() - send one control line, return the reply stream.
 * @sock:  the daemon's control socket
 * @line:  the command
 * @reply: the first reply line (newline stripped)
 * @len:   room in @reply
 *
 * Return: the connection (read further lines from it; fclose() it), or NULL
 * with @reply describing the failure.
 */
FILE *lab_control_open(const char *sock, const char *line, char *reply, size_t len);

/**
 * lab_control() - one control command with a one-line reply.
 * @sock:  the daemon's control socket
 * @line:  the command
 * @reply: the reply line
 * @len:   room in @reply
 *
 * Return: 0 when the reply is "ok ...", else -EIO.
 */
int lab_control(const char *sock, const char *line, char *reply, size_t len);

/**
 * lab_stats() - the daemon's counters now.
 * @sock: the daemon's control socket
 * @st:   filled in
 *
 * Return: 0, -EIO (no reply) or -EPROTO (a reply that is not the counters).
 */
int lab_stats(const char *sock, struct chardev_stats *st);

/**
 * lab_wait_stat() - wait until the daemon reports a counter >= @min.
 * @sock:   the daemon's control socket
 * @name:   the counter's name, for the message
 * @min:    the value awaited
 * @offset: the counter's offset in struct chardev_stats
 *
 * Polled over the control socket: the daemon, not a sleep, says when. Use
 * LAB_WAIT_STAT().
 *
 * Return: true, or false after saying which condition failed when it did
 * not hold within LAB_CONDITION_WAIT_MS.
 */
bool lab_wait_stat(const char *sock, const char *name, uint64_t min, size_t offset);

/**
 * lab_wait_stat_le() - the same, for a gauge coming back down to @max.
 * @sock:   the daemon's control socket
 * @name:   the counter's name, for the message
 * @max:    the value awaited
 * @offset: the counter's offset in struct chardev_stats
 *
 * Return: true, or false after a message when it did not hold in time.
 */
bool lab_wait_stat_le(const char *sock, const char *name, uint64_t max, size_t offset);

#define LAB_WAIT_STAT(sock, name, min)						\
	lab_wait_stat((sock), #name, (min), offsetof(struct chardev_stats, name))
#define LAB_WAIT_STAT_LE(sock, name, max)					\
	lab_wait_stat_le((sock), #name, (max), offsetof(struct chardev_stats, name))

/**
 * lab_read_trace() - read the daemon's whole trace.
 * @sock: the daemon's control socket
 * @tr:   filled in
 *
 * Return: 0, or -errno after a message.
 */
int lab_read_trace(const char *sock, struct lab_trace *tr);

/**
 * lab_trace_last() - the last @ev (for @file unless 0) before seq @before.
 * @tr:     the trace
 * @ev:     the event
 * @file:   the file, or 0 for any
 * @before: a sequence number
 *
 * Return: its index in @tr, or -1.
 */
long lab_trace_last(const struct lab_trace *tr, enum chardev_trace_event ev, uint64_t file,
		    uint64_t before);

/**
 * lab_trace_first() - the first @ev (for @file unless 0) after seq @after.
 * @tr:    the trace
 * @ev:    the event
 * @file:  the file, or 0 for any
 * @after: a sequence number
 *
 * Return: its index in @tr, or -1.
 */
long lab_trace_first(const struct lab_trace *tr, enum chardev_trace_event ev, uint64_t file,
		     uint64_t after);

/**
 * lab_trace_end_of() - the access-end of the access that began at @begin.
 * @tr:    the trace
 * @begin: the access-begin's sequence number
 *
 * Return: its index in @tr, or -1.
 */
long lab_trace_end_of(const struct lab_trace *tr, uint64_t begin);

/**
 * lab_evidence() - print event @i of @tr as an "evidence:" line.
 * @tr: the trace
 * @i:  an index, or -1 for nothing
 */
void lab_evidence(const struct lab_trace *tr, long i);

#endif
