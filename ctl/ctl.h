/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctl.h - the control protocol of the cuse_ec daemon, in one place: the
 * line limits, the "trace" reply's header, and the one client (a
 * connection, one reply per request line, `--send`'s loop). The daemon's
 * server, hotplug_sim, the lab, the bench and the tests speak through it;
 * the counters' keys are in ctl_stats.h, the trace lines in ctl_trace.h.
 * The commands themselves are described in cuse_ec(8).
 */
#ifndef CUSE_EC_CTL_H
#define CUSE_EC_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdio.h>

/* Longest accepted command line, newline excluded. */
#define CTL_LINE_MAX 200

/*
 * The control protocol's version, as "info" states it: raised when a verb
 * changes its reply or goes away (new verbs and new keys in a reply do not
 * raise it; a client checks "info" for them).
 */
#define CTL_PROTOCOL_VERSION 1

/* The header of a "trace" reply, as a prefix: the event count follows. */
#define CTL_TRACE_HEADER "ok trace events="

/*
 * How long `--send` waits for one reply. "unplug wait" in revocable mode
 * answers only once the in-flight commands are done, which latency
 * injection can make slow on purpose, so this is generous; it exists so a
 * wedged daemon cannot hang a script forever.
 */
#define CTL_SEND_REPLY_TIMEOUT_MS 60000

/*
 * Devices: one daemon may serve several nodes (cuse_ec --device). A control
 * line addresses one by a first word "@NAME"; without it, the first. NAME
 * is a node's name directly under /dev: 1..CTL_DEVICE_NAME_MAX-1 bytes of
 * [A-Za-z0-9_.-], not starting with '.' or '-'.
 */
#define CTL_DEVICE_PREFIX '@'
#define CTL_DEVICE_NAME_MAX 64
/* Most devices one daemon serves. */
#define CTL_DEVICES_MAX 8

/**
 * ctl_device_name_valid() - is @name a device name (CTL_DEVICE_PREFIX's
 * rule)? The one check for --name, --device and "@NAME".
 * @name: the name, NUL-terminated
 *
 * Return: true when it may name a node directly under /dev.
 */
bool ctl_device_name_valid(const char *name);

/* Replies are one line; the server caps them well below this. */
#define CTL_REPLY_MAX 4096

/**
 * struct ctl_conn - one connection to a control socket.
 * @fd:   the socket, -1 when closed
 * @used: bytes of @buf received but not yet returned as a reply
 * @buf:  what arrived after the last newline
 */
struct ctl_conn {
	int fd;
	size_t used;
	char buf[CTL_REPLY_MAX];
};

/**
 * ctl_open() - connect to the control socket at @path.
 * @conn: the connection to set up (closed on failure)
 * @path: the socket's path
 *
 * Return: 0, -EINVAL for an empty or too long path, or what socket() or
 * connect() failed with.
 */
int ctl_open(struct ctl_conn *conn, const char *path);

/**
 * ctl_peer_pid() - the pid of the process that serves the connection: the
 * one that called listen() on the socket (SO_PEERCRED), which for cuse_ec
 * is the daemon itself (it listens after it has forked into the
 * background).
 * @conn: an open connection
 * @pid:  the pid
 *
 * Return: 0; -EBADF when @conn is closed; what getsockopt() failed with;
 * -ESRCH when the kernel knows no pid for the peer (0).
 */
int ctl_peer_pid(const struct ctl_conn *conn, pid_t *pid);

/**
 * ctl_request() - send one command line and wait for its one reply line.
 * @conn:       an open connection
 * @line:       the command, without a newline
 * @reply:      receives the reply, newline stripped, cut to @room - 1 bytes
 * @room:       size of @reply
 * @timeout_ms: the longest wait for the reply
 *
 * The line goes out in one send(): a server that answers and closes must
 * not see half a line. A reply is an answer whatever it says; the caller
 * decides what "ok" and "error" mean.
 *
 * Return: 0; -EINVAL for an empty line or one holding a newline (nothing is
 * sent); -ETIMEDOUT; -ECONNRESET when the server closed before replying;
 * -EPROTO for a reply longer than CTL_REPLY_MAX; or what send()/recv()
 * failed with.
 */
int ctl_request(struct ctl_conn *conn, const char *line, char *reply, size_t room,
		int timeout_ms);

/**
 * ctl_read_line() - wait for one more line from the server.
 * @conn:       an open connection
 * @line:       receives it, newline stripped, cut to @room - 1 bytes
 * @room:       size of @line
 * @timeout_ms: the longest wait
 *
 * For replies that announce more lines after their first (a trace).
 *
 * Return: 0, or -ETIMEDOUT, -ECONNRESET, -EPROTO or -errno as ctl_request().
 */
int ctl_read_line(struct ctl_conn *conn, char *line, size_t room, int timeout_ms);

/**
 * ctl_reply_is_ok() - does a reply say "ok" (alone or followed by a space)?
 * @reply: the reply line
 *
 * Return: true for "ok" and "ok ...".
 */
bool ctl_reply_is_ok(const char *reply);

/*
 * An error reply is "error REASON errno=NAME": REASON for people, NAME (the
 * errno name of what failed: ENODEV, EINVAL, ...) for programs, last, so
 * a client matching the reason's start is not disturbed by it.
 */
#define CTL_ERRNO_KEY "errno="

/**
 * ctl_error() - format an error reply (the daemon's one way to make one).
 * @reply: receives "error REASON errno=NAME"
 * @len:   room in @reply; a reason that does not fit is cut, its errno
 *         part kept whole (when @len leaves room for it)
 * @err:   the error, -errno or errno; an unknown number is named EIO
 * @fmt:   printf format of REASON
 *
 * Return: @err, for "return ctl_error(...)".
 */
int ctl_error(char *reply, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * ctl_reply_error() - take an error reply apart.
 * @reply:      a reply line
 * @reason_len: the length of REASON (after "error "), errno part excluded
 * @errno_name: the NAME of its "errno=NAME" word, or NULL when it has none
 *              (a reply from an older daemon)
 *
 * Return: true for an error reply ("error" alone or followed by a space).
 */
bool ctl_reply_error(const char *reply, size_t *reason_len, const char **errno_name);

/**
 * ctl_text_safe() - a reply made safe to print on a terminal: every byte
 * outside printable ASCII (escape sequences, C1 controls, tabs, bytes of
 * any other encoding) becomes "\xHH" and a backslash "\\", so a hostile
 * socket cannot set a title, clear the screen or hide text.
 * @in:   the reply line (NUL-terminated)
 * @out:  receives the text; 4 bytes per input byte and one more suffice
 * @room: size of @out (0: nothing written); a longer result is cut at a
 *        whole escape and ends in "..."
 *
 * Return: @out, for use as a printf argument.
 */
const char *ctl_text_safe(const char *in, char *out, size_t room);

/**
 * ctl_close() - close the connection; closing a closed one does nothing.
 * @conn: the connection
 */
void ctl_close(struct ctl_conn *conn);

/**
 * ctl_send_lines() - send each line, print each reply line (`--send`).
 * @path:       the control socket
 * @lines:      the command lines (validated by the option parser: no
 *              newline, not empty, at most CTL_LINE_MAX bytes)
 * @n_lines:    how many
 * @timeout_ms: the longest wait for one reply
 * @flags:      0, or CTL_SEND_JSON: each reply as one JSON object a line
 *              (ctl_reply_json())
 * @out:        where replies are printed, one per line, escaped by
 *              ctl_text_safe() (whatever listens at @path may not be the
 *              daemon)
 * @err:        where connection problems are reported
 *
 * The lines go over one connection, one at a time: the next line is sent
 * only after the previous reply arrived, so "unplug wait; stats" reports
 * the counters after the unplug completed. A "trace" reply's event lines
 * (its header says how many) are printed with it.
 *
 * Return: 0 if every reply began with "ok", 1 if one did not, or -errno:
 * -EINVAL for a line that is empty, too long or holds a newline (checked
 * before it is sent), -ETIMEDOUT, -ECONNRESET for a connection closed
 * before the reply, -EPROTO for a reply line longer than any reply can be,
 * or what connect() failed with.
 */
int ctl_send_lines(const char *path, const char *const *lines, size_t n_lines,
		   int timeout_ms, unsigned int flags, FILE *out, FILE *err);

/* ctl_send_lines() flags. */
#define CTL_SEND_JSON 0x1u

/**
 * ctl_reply_json() - print one reply as one JSON object on a line:
 * {"command":LINE,"ok":true|false, then for "ok" replies each KEY=VALUE
 * word as "KEY":VALUE (a number when it is a whole number) and the other
 * words in "words":[...], for "error" replies "error":REASON; for "trace"
 * also "trace":[{"seq":N,"t":"S.US","event":NAME, KEY:VALUE...}...]}.
 * Strings are escaped as JSON needs: nothing from the socket is trusted.
 * @out:      where to print
 * @line:     the command sent
 * @reply:    its reply line
 * @events:   for "trace", its event lines; else NULL
 * @n_events: how many
 *
 * Return: 0, -ENOMEM, or -EIO when @out failed.
 */
int ctl_reply_json(FILE *out, const char *line, const char *reply,
		   char *const *events, size_t n_events);

#endif /* CUSE_EC_CTL_H */
