// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctl_trace.c - the lifecycle events' names and their text form, written
 * and parsed (see ctl_trace.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl_trace.h"

/*
 * What each event's fields mean, and their keys in the text form: an event
 * prints file= and cmd= only if it has them, then a and b under their key.
 */
static const struct {
	const char *name;
	bool has_file;
	bool has_cmd;
	const char *a_key;
	const char *b_key;
} trace_events[CHARDEV_TRACE_EVENT_COUNT] = {
	[CHARDEV_TRACE_OPEN] = { "open", true, false, "ret", NULL },
	[CHARDEV_TRACE_RELEASE] = { "release", true, false, NULL, NULL },
	[CHARDEV_TRACE_ACCESS_BEGIN] = { "access-begin", true, true, NULL, NULL },
	[CHARDEV_TRACE_ACCESS_END] = { "access-end", true, true, "begin", "ret" },
	[CHARDEV_TRACE_READ_PARKED] = { "read-parked", true, false, NULL, NULL },
	[CHARDEV_TRACE_READ_WOKEN] = { "read-woken", true, false, "ret", NULL },
	[CHARDEV_TRACE_REVOKE_START] = { "revoke-start", false, false, "inflight", NULL },
	[CHARDEV_TRACE_READERS_WOKEN] = { "readers-woken", false, false, "readers", NULL },
	[CHARDEV_TRACE_REVOKE_DONE] = { "revoke-done", false, false, "waited", "wait_ns" },
	[CHARDEV_TRACE_PLUG] = { "plug", false, false, "ret", NULL },
	[CHARDEV_TRACE_UEVENT] = { "uevent", false, true, "seqnum", NULL },
	[CHARDEV_TRACE_EC_COLD_REBOOT] = { "cold-reboot", true, false, "resets", NULL },
	[CHARDEV_TRACE_EC_FAULT] = { "fault", true, true, "kind", "ret" },
};

/* Names of the @cmd values that are not EC command numbers. */
static const struct {
	bool uevent;
	uint32_t value;
	const char *name;
} trace_cmd_names[] = {
	{ false, CHARDEV_TRACE_OP_READMEM, "readmem" },
	{ false, CHARDEV_TRACE_OP_EVENTMASK, "eventmask" },
	{ false, CHARDEV_TRACE_OP_READ, "read" },
	{ false, CHARDEV_TRACE_OP_POLL, "poll" },
	{ false, CHARDEV_TRACE_OP_RELEASE, "release" },
	{ false, CHARDEV_TRACE_OP_OPEN, "open" },
	{ false, CHARDEV_TRACE_OP_NOTIFY, "notify" },
	{ true, CHARDEV_TRACE_UEVENT_OTHER, "other" },
	{ true, CHARDEV_TRACE_UEVENT_ADD, "add" },
	{ true, CHARDEV_TRACE_UEVENT_REMOVE, "remove" },
};

const char *chardev_trace_event_name(enum chardev_trace_event event)
{
	if ((unsigned int)event >= CHARDEV_TRACE_EVENT_COUNT)
		return "?";
	return trace_events[event].name;
}

static const char *trace_cmd_name(bool uevent, uint32_t cmd)
{
	size_t i;

	for (i = 0; i < sizeof(trace_cmd_names) / sizeof(trace_cmd_names[0]); i++) {
		if (trace_cmd_names[i].uevent == uevent && trace_cmd_names[i].value == cmd)
			return trace_cmd_names[i].name;
	}
	return NULL;
}

size_t chardev_trace_format(const struct chardev_trace_entry *e, char *buf, size_t len)
{
	bool uevent = e->event == CHARDEV_TRACE_UEVENT;
	const char *cmd_name;
	size_t used = 0;
	int n;

/* Append to @buf, keeping @used the length the full text would have. */
#define TRACE_PUT(...)								\
	do {									\
		n = snprintf(buf + (used < len ? used : len),			\
			     used < len ? len - used : 0, __VA_ARGS__);		\
		used += n > 0 ? (size_t)n : 0;					\
	} while (0)

	TRACE_PUT("%" PRIu64 " t=%" PRIu64 ".%06" PRIu64 " %s", e->seq,
		  e->t_ns / 1000000000, e->t_ns % 1000000000 / 1000,
		  chardev_trace_event_name(e->event));
	if ((unsigned int)e->event < CHARDEV_TRACE_EVENT_COUNT) {
		if (trace_events[e->event].has_file)
			TRACE_PUT(" file=%" PRIu64, e->file);
		if (trace_events[e->event].has_cmd) {
			cmd_name = trace_cmd_name(uevent, e->cmd);
			if (cmd_name)
				TRACE_PUT(" %s=%s", uevent ? "action" : "cmd", cmd_name);
			else
				TRACE_PUT(" %s=0x%04" PRIx32, uevent ? "action" : "cmd", e->cmd);
		}
		if (trace_events[e->event].a_key)
			TRACE_PUT(" %s=%" PRId64, trace_events[e->event].a_key, e->a);
		if (trace_events[e->event].b_key)
			TRACE_PUT(" %s=%" PRId64, trace_events[e->event].b_key, e->b);
	}
#undef TRACE_PUT
	return used;
}

static int trace_parse_u64(const char *s, size_t len, int base, uint64_t *out)
{
	char tmp[24], *end;

	if (!len || len >= sizeof(tmp) || s[0] == '-' || s[0] == '+')
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	*out = strtoull(tmp, &end, base);
	return errno || *end ? -EINVAL : 0;
}

static int trace_parse_i64(const char *s, size_t len, int64_t *out)
{
	char tmp[24], *end;

	if (!len || len >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	*out = strtoll(tmp, &end, 10);
	return errno || *end || end == tmp ? -EINVAL : 0;
}

/* "S.UUUUUU" seconds to nanoseconds (microsecond resolution). */
static int trace_parse_time(const char *s, size_t len, uint64_t *out)
{
	const char *dot = memchr(s, '.', len);
	uint64_t sec, usec;

	if (!dot || s + len - dot != 7 || trace_parse_u64(s, (size_t)(dot - s), 10, &sec) ||
	    trace_parse_u64(dot + 1, 6, 10, &usec) || sec > UINT64_MAX / 1000000000 - 1)
		return -EINVAL;
	*out = sec * 1000000000 + usec * 1000;
	return 0;
}

static int trace_parse_cmd(const char *s, size_t len, bool uevent, uint32_t *out)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(trace_cmd_names) / sizeof(trace_cmd_names[0]); i++) {
		if (trace_cmd_names[i].uevent == uevent &&
		    strlen(trace_cmd_names[i].name) == len &&
		    !memcmp(trace_cmd_names[i].name, s, len)) {
			*out = trace_cmd_names[i].value;
			return 0;
		}
	}
	if (len < 3 || s[0] != '0' || s[1] != 'x' ||
	    trace_parse_u64(s + 2, len - 2, 16, &v) || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static bool trace_key_is(const char *key, size_t len, const char *want)
{
	return want && strlen(want) == len && !memcmp(key, want, len);
}

/* One "key=value" word of event @ev into @e. */
static int trace_parse_field(const char *word, size_t len, enum chardev_trace_event ev,
			     struct chardev_trace_entry *e)
{
	const char *eq = memchr(word, '=', len), *val;
	size_t key_len, val_len;

	if (!eq)
		return -EINVAL;
	key_len = (size_t)(eq - word);
	val = eq + 1;
	val_len = len - key_len - 1;
	if (trace_events[ev].has_file && trace_key_is(word, key_len, "file"))
		return trace_parse_u64(val, val_len, 10, &e->file);
	if (trace_events[ev].has_cmd &&
	    trace_key_is(word, key_len, ev == CHARDEV_TRACE_UEVENT ? "action" : "cmd"))
		return trace_parse_cmd(val, val_len, ev == CHARDEV_TRACE_UEVENT, &e->cmd);
	if (trace_key_is(word, key_len, trace_events[ev].a_key))
		return trace_parse_i64(val, val_len, &e->a);
	if (trace_key_is(word, key_len, trace_events[ev].b_key))
		return trace_parse_i64(val, val_len, &e->b);
	return -EINVAL;
}

int chardev_trace_parse(const char *line, struct chardev_trace_entry *out)
{
	struct chardev_trace_entry e = { 0 };
	const char *p = line, *word;
	size_t len, field = 0;
	int ev, ret;

	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p || (*p == '\n' && !p[1]))
			break;
		word = p;
		len = strcspn(p, " \n");
		p += len;
		if (*p == '\n' && p[1])
			return -EINVAL;
		switch (field++) {
		case 0:
			ret = trace_parse_u64(word, len, 10, &e.seq);
			if (!ret && !e.seq)
				ret = -EINVAL;
			break;
		case 1:
			ret = len > 2 && !memcmp(word, "t=", 2) ?
			      trace_parse_time(word + 2, len - 2, &e.t_ns) : -EINVAL;
			break;
		case 2:
			ret = -EINVAL;
			for (ev = 0; ev < CHARDEV_TRACE_EVENT_COUNT; ev++) {
				if (strlen(trace_events[ev].name) == len &&
				    !memcmp(trace_events[ev].name, word, len)) {
					e.event = (enum chardev_trace_event)ev;
					ret = 0;
					break;
				}
			}
			break;
		default:
			ret = trace_parse_field(word, len, e.event, &e);
			break;
		}
		if (ret)
			return ret;
	}
	if (field < 3)
		return -EINVAL;
	*out = e;
	return 0;
}
