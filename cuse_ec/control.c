// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control.c - the control socket's verbs (see control.h): a parser that is
 * tested on its own, the commands that reply at once, and the two that need
 * the server: "trace" (many lines) and "unplug wait" (a reply on
 * completion). The server itself is control_server.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chardev.h"
#include "chardev_trace.h"
#include "control.h"
#include "control_internal.h"

static const struct {
	const char *name;
	enum ec_stimulus stimulus;
} control_stimuli[] = {
	{ "lid-open", EC_STIM_LID_OPEN },
	{ "lid-close", EC_STIM_LID_CLOSE },
	{ "power-button", EC_STIM_POWER_BUTTON },
	{ "ac-plug", EC_STIM_AC_PLUG },
	{ "ac-unplug", EC_STIM_AC_UNPLUG },
	{ "wp-assert", EC_STIM_WP_ASSERT },
	{ "wp-deassert", EC_STIM_WP_DEASSERT },
};

static const char control_help[] =
	"ok commands: unplug [wait], plug, status, stats, "
	"inject lid-open|lid-close|power-button|ac-plug|ac-unplug|wp-assert|wp-deassert, latency <ns>, "
	"trace [clear], help";

/* Split off the next space-separated word; returns NULL at the end. */
static char *control_next_word(char **cursor)
{
	char *s = *cursor, *word;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s) {
		*cursor = s;
		return NULL;
	}
	word = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*cursor = s;
	return word;
}

int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen)
{
	char buf[CTL_LINE_MAX + 1], *cursor = buf, *verb, *arg, *extra, *end;
	unsigned long long ns;
	size_t len, i;

	memset(cmd, 0, sizeof(*cmd));
	len = strlen(line);
	if (len > CTL_LINE_MAX) {
		snprintf(err, errlen, "line too long (max %d bytes)", CTL_LINE_MAX);
		return -EINVAL;
	}
	/* Tolerate the CR of clients that send CRLF. */
	memcpy(buf, line, len + 1);
	if (len && buf[len - 1] == '\r')
		buf[--len] = '\0';
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c < 0x20 && c != '\t') {
			snprintf(err, errlen, "control character in command");
			return -EINVAL;
		}
		if (c >= 0x7f) {
			snprintf(err, errlen, "non-ASCII byte in command");
			return -EINVAL;
		}
	}

	verb = control_next_word(&cursor);
	if (!verb) {
		snprintf(err, errlen, "empty command (try 'help')");
		return -EINVAL;
	}
	arg = control_next_word(&cursor);
	extra = arg ? control_next_word(&cursor) : NULL;

	if (!strcmp(verb, "unplug")) {
		if (arg && strcmp(arg, "wait")) {
			snprintf(err, errlen, "usage: unplug [wait]");
			return -EINVAL;
		}
		cmd->verb = arg ? CONTROL_UNPLUG_WAIT : CONTROL_UNPLUG;
	} else if (!strcmp(verb, "trace")) {
		if (arg && strcmp(arg, "clear")) {
			snprintf(err, errlen, "usage: trace [clear]");
			return -EINVAL;
		}
		cmd->verb = arg ? CONTROL_TRACE_CLEAR : CONTROL_TRACE;
	} else if (!strcmp(verb, "plug") || !strcmp(verb, "status") ||
		   !strcmp(verb, "stats") || !strcmp(verb, "help")) {
		if (arg) {
			snprintf(err, errlen, "'%s' takes no argument", verb);
			return -EINVAL;
		}
		cmd->verb = !strcmp(verb, "plug") ? CONTROL_PLUG :
			    !strcmp(verb, "status") ? CONTROL_STATUS :
			    !strcmp(verb, "stats") ? CONTROL_STATS : CONTROL_HELP;
		return 0;
	} else if (!strcmp(verb, "inject")) {
		if (!arg) {
			snprintf(err, errlen, "usage: inject lid-open|lid-close|power-button|"
				 "ac-plug|ac-unplug");
			return -EINVAL;
		}
		for (i = 0; i < sizeof(control_stimuli) / sizeof(control_stimuli[0]); i++) {
			if (!strcmp(arg, control_stimuli[i].name))
				break;
		}
		if (i == sizeof(control_stimuli) / sizeof(control_stimuli[0])) {
			snprintf(err, errlen, "unknown event '%.40s'", arg);
			return -EINVAL;
		}
		cmd->verb = CONTROL_INJECT;
		cmd->stimulus = control_stimuli[i].stimulus;
	} else if (!strcmp(verb, "latency")) {
		if (!arg || arg[0] < '0' || arg[0] > '9') {
			snprintf(err, errlen, "usage: latency <nanoseconds>");
			return -EINVAL;
		}
		errno = 0;
		ns = strtoull(arg, &end, 10);
		/* Above 60 s a "latency" is a hang; refuse it. */
		if (errno || *end || ns > 60000000000ULL) {
			snprintf(err, errlen, "latency must be 0..60000000000 ns");
			return -EINVAL;
		}
		cmd->verb = CONTROL_LATENCY;
		cmd->latency_ns = ns;
	} else {
		snprintf(err, errlen, "unknown command '%.40s' (try 'help')", verb);
		return -EINVAL;
	}
	if (extra) {
		snprintf(err, errlen, "unexpected argument '%.40s'", extra);
		return -EINVAL;
	}
	return 0;
}

static int control_inject(struct ec *ec, void *arg)
{
	return ec_apply_stimulus(ec, *(const enum ec_stimulus *)arg);
}

static int control_kb_backlight(struct ec *ec, void *arg)
{
	(void)arg;
	return ec_kb_backlight_percent(ec);
}

/*
 * The operator's unplug, for "unplug" and "unplug wait": the hold is set
 * before the unplug starts, so no uevent "add" may slip in after it. A
 * start that fails leaves the EC, and with it whatever held it before;
 * -ENODEV (nothing plugged) keeps the operator's hold, as asked.
 */
static int control_start_unplug(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
				void *arg)
{
	bool held = chardev_operator_hold(ctx);
	int ret;

	chardev_set_operator_hold(ctx, true);
	ret = chardev_unplug_async(ctx, done, arg);
	if (ret && ret != -ENODEV)
		chardev_set_operator_hold(ctx, held);
	return ret;
}

/* The reply to an unplug that did not start. */
static void control_unplug_error(int ret, char *reply, size_t len)
{
	if (ret == -ENODEV)
		snprintf(reply, len, "error not plugged");
	else
		snprintf(reply, len, "error unplug failed: %s", strerror(-ret));
}

int control_execute(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		    char *reply, size_t len)
{
	struct chardev_stats st;
	char kb[32] = "";
	int ret = 0;

	switch (cmd->verb) {
	case CONTROL_UNPLUG:
		ret = control_start_unplug(ctx, NULL, NULL);
		if (ret)
			control_unplug_error(ret, reply, len);
		else
			snprintf(reply, len, "ok unplug started");
		return ret;
	case CONTROL_PLUG:
		chardev_set_operator_hold(ctx, false);
		ret = chardev_plug(ctx);
		if (ret == -EBUSY)
			snprintf(reply, len, "error already plugged");
		else if (ret)
			snprintf(reply, len, "error plug failed: %s", strerror(-ret));
		else
			snprintf(reply, len, "ok plugged");
		return ret;
	case CONTROL_STATUS:
		/* -ENODEV: no EC, or a board without a keyboard backlight. */
		ret = chardev_with_ec(ctx, control_kb_backlight, NULL);
		if (ret >= 0)
			snprintf(kb, sizeof(kb), " kb_backlight=%d", ret);
		snprintf(reply, len, "ok %s lifecycle=%s open_files=%" PRIu64 "%s",
			 chardev_is_plugged(ctx) ? "plugged" : "unplugged",
			 lifecycle_mode_name(chardev_mode(ctx)), chardev_open_files(ctx), kb);
		return 0;
	case CONTROL_STATS:
		chardev_stats(ctx, &st);
		/* "ok " and the counters; a cut reply would mislead, so refuse. */
		if (len < 4 || chardev_stats_format(&st, reply + 3, len - 3) >= len - 3) {
			snprintf(reply, len, "error stats do not fit");
			return -EMSGSIZE;
		}
		memcpy(reply, "ok ", 3);
		return 0;
	case CONTROL_INJECT:
		ret = chardev_with_ec(ctx, control_inject, (void *)&cmd->stimulus);
		if (ret == -ENODEV)
			snprintf(reply, len, "error not plugged");
		else if (ret)
			snprintf(reply, len, "error inject failed: %s", strerror(-ret));
		else
			snprintf(reply, len, "ok injected");
		return ret;
	case CONTROL_LATENCY:
		ret = chardev_set_latency(ctx, cmd->latency_ns);
		snprintf(reply, len, "ok latency %" PRIu64 " ns%s", cmd->latency_ns,
			 ret == -ENODEV ? " (from the next plug)" : "");
		return 0;
	case CONTROL_HELP:
		snprintf(reply, len, "%s", control_help);
		return 0;
	case CONTROL_TRACE_CLEAR:
		chardev_trace_clear(chardev_trace(ctx));
		snprintf(reply, len, "ok trace cleared");
		return 0;
	case CONTROL_UNPLUG_WAIT:
	case CONTROL_TRACE:
		break;
	}
	snprintf(reply, len, "error command needs the server");
	return -EINVAL;
}

/*
 * "trace": the header, then one line per event. The events are copied
 * now; their lines are made as the client takes them (control_trace_fill()),
 * so a long trace never waits for a slow reader nor fills its buffer.
 */
static void control_send_trace(struct control_client *cl, struct chardev_trace *tr)
{
	size_t cap = chardev_trace_capacity(tr), n;
	struct chardev_trace_entry *events;
	char header[128];
	uint64_t dropped;

	events = calloc(cap, sizeof(*events));
	if (!events) {
		control_send(cl, "error out of memory");
		return;
	}
	n = chardev_trace_snapshot(tr, events, cap, &dropped);
	snprintf(header, sizeof(header),
		 CTL_TRACE_HEADER "%zu dropped=%" PRIu64 " capacity=%zu", n, dropped, cap);
	control_send(cl, header);
	cl->trace = events;
	cl->trace_n = n;
	cl->trace_i = 0;
	if (control_trace_fill(cl)) {
		/* Gone: its next poll closes it, and frees the events. */
	}
}

/*
 * An "unplug wait" completed, in whatever thread finished the unplug. All of
 * it runs under srv->lock: the control thread frees @w, and stop frees the
 * server and closes the pipe, only after seeing @done under that lock, so
 * nothing here can touch freed memory or a reused descriptor.
 */
static void control_unplug_done(void *arg, int result)
{
	struct control_waiter *w = arg;
	struct control_server *srv = w->srv;
	char byte = 'w';
	ssize_t n;

	pthread_mutex_lock(&srv->lock);
	w->done = true;
	w->result = result;
	do {
		n = write(srv->wake[1], &byte, 1);
	} while (n < 0 && errno == EINTR);
	pthread_cond_broadcast(&srv->waiter_done);
	pthread_mutex_unlock(&srv->lock);
}

void control_handle_line(struct control_server *srv, int idx, const char *line, size_t len)
{
	struct control_client *cl = &srv->clients[idx];
	struct control_waiter *w;
	struct control_cmd cmd;
	char reply[CHARDEV_STATS_TEXT_MAX + 8], err[160];	/* "ok " + stats fits */
	int ret;

	if (strlen(line) != len) {
		control_send(cl, "error NUL byte in command");
		return;
	}
	/* Blank lines, whitespace only or empty, are harmless: ignore them. */
	if (!line[strspn(line, " \t\r")])
		return;
	if (control_parse(line, &cmd, err, sizeof(err))) {
		snprintf(reply, sizeof(reply), "error %s", err);
		control_send(cl, reply);
		return;
	}
	if (cmd.verb == CONTROL_TRACE) {
		control_send_trace(cl, chardev_trace(srv->ctx));
		return;
	}
	if (cmd.verb != CONTROL_UNPLUG_WAIT) {
		control_execute(srv->ctx, &cmd, reply, sizeof(reply));
		control_send(cl, reply);
		return;
	}

	w = calloc(1, sizeof(*w));
	if (!w) {
		control_send(cl, "error out of memory");
		return;
	}
	w->srv = srv;
	w->client = idx;
	/* Listed before starting: the completion may run at once. */
	w->next = srv->waiters;
	srv->waiters = w;
	ret = control_start_unplug(srv->ctx, control_unplug_done, w);
	if (ret) {
		srv->waiters = w->next;
		free(w);
		control_unplug_error(ret, reply, sizeof(reply));
		control_send(cl, reply);
		return;
	}
	cl->waiting = true;
}
