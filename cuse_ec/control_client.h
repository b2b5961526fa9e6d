/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control_client.h - `cuse_ec --control=PATH --send LINE`: the daemon's own
 * client for its control socket (see control.h for the commands).
 */
#ifndef CUSE_EC_CONTROL_CLIENT_H
#define CUSE_EC_CONTROL_CLIENT_H

#include <stddef.h>
#include <stdio.h>

/*
 * How long one reply may take. "unplug wait" in revocable mode answers only
 * once the in-flight commands are done, which latency injection can make
 * slow on purpose, so this is generous; it exists so a wedged daemon cannot
 * hang a script forever.
 */
#define CONTROL_CLIENT_REPLY_TIMEOUT_MS 60000

/**
 * control_client_send() - send each line, print each reply line.
 * @path:       the control socket
 * @lines:      the command lines (validated by the option parser: no
 *              newline, not empty, at most CONTROL_LINE_MAX bytes)
 * @n_lines:    how many
 * @timeout_ms: the longest wait for one reply
 * @out:        where replies are printed, one per line
 * @err:        where connection problems are reported
 *
 * The lines go over one connection, one at a time: the next line is sent
 * only after the previous reply arrived, so "unplug wait; stats" reports
 * the counters after the unplug completed.
 *
 * Return: 0 if every reply began with "ok", 1 if one did not, or -errno:
 * -EINVAL for a line that is empty, too long or holds a newline (checked
 * before it is sent), -ETIMEDOUT, -ECONNRESET for a connection closed
 * before the reply, -EPROTO for a reply line longer than any reply can be,
 * or what connect() failed with.
 */
int control_client_send(const char *path, const char *const *lines, size_t n_lines,
			int timeout_ms, FILE *out, FILE *err);

#endif /* CUSE_EC_CONTROL_CLIENT_H */
