// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctl_send.c - `cuse_ec --send`: lines to the control socket, replies
 * printed, through the one control-socket client (ctl.h).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ctl/ctl.h"

/*
 * Print one line the socket sent: whatever listens at the path may not be
 * the daemon, so nothing it sends reaches the terminal unescaped.
 */
static void print_reply(FILE *out, const char *line)
{
	char safe[4 * CTL_REPLY_MAX + 1];

	fprintf(out, "%s\n", ctl_text_safe(line, safe, sizeof(safe)));
}

/* A word's value: a JSON number when it is a whole number, else a string. */
static json_object *json_word(const char *v)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (*v && (*v == '-' || (*v >= '0' && *v <= '9')) && !*end && !errno)
		return json_object_new_int64(n);
	return json_object_new_string(v);
}

/*
 * The words of @text, from @skip on: KEY=VALUE into @obj, the others into
 * an array "words" (added only when there are some).
 */
static int json_words(json_object *obj, const char *text, size_t skip)
{
	json_object *words = json_object_new_array();
	char *copy = strdup(text), *tok, *save = NULL, *eq;
	size_t i = 0;

	if (!copy || !words) {
		free(copy);
		json_object_put(words);
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++) {
		if (i < skip)
			continue;
		eq = strchr(tok, '=');
		if (eq && eq != tok) {
			*eq = '\0';
			json_object_object_add(obj, tok, json_word(eq + 1));
		} else {
			json_object_array_add(words, json_object_new_string(tok));
		}
	}
	free(copy);
	if (json_object_array_length(words))
		json_object_object_add(obj, "words", words);
	else
		json_object_put(words);
	return 0;
}

/* A trace event line, "SEQ t=S.US EVENT KEY=VALUE...", as an object. */
static json_object *json_trace_event(const char *line)
{
	json_object *e = json_object_new_object();
	char seq[24] = "", t[32] = "", event[32] = "";

	if (!e)
		return NULL;
	if (sscanf(line, "%23s t=%31s %31s", seq, t, event) == 3) {
		json_object_object_add(e, "seq", json_word(seq));
		json_object_object_add(e, "t", json_object_new_string(t));
		json_object_object_add(e, "event", json_object_new_string(event));
		json_words(e, line, 3);
	} else {
		/* Not a trace line: say what came, do not guess. */
		json_object_object_add(e, "line", json_object_new_string(line));
	}
	return e;
}

int ctl_reply_json(FILE *out, const char *line, const char *reply,
		   char *const *events, size_t n_events)
{
	char safe[4 * CTL_REPLY_MAX + 1];
	const char *text, *errno_name;
	json_object *j, *list;
	size_t i, reason_len;
	bool ok;
	int ret = 0;

	/*
	 * What listens at the path may not be the daemon: its bytes are made
	 * safe first (control and non-ASCII bytes as \xNN), as for text.
	 */
	reply = ctl_text_safe(reply, safe, sizeof(safe));
	ok = ctl_reply_is_ok(reply);
	j = json_object_new_object();
	if (!j)
		return -ENOMEM;
	json_object_object_add(j, "command", json_object_new_string(line));
	json_object_object_add(j, "ok", json_object_new_boolean(ok));
	if (ok) {
		ret = json_words(j, reply, 1);
	} else if (ctl_reply_error(reply, &reason_len, &errno_name)) {
		json_object_object_add(j, "error", json_object_new_string_len(
			reply + (reply[5] ? 6 : 5), (int)reason_len));
		if (errno_name)
			json_object_object_add(j, "errno", json_object_new_string(errno_name));
	} else {
		json_object_object_add(j, "error", json_object_new_string(reply));
	}
	if (!ret && events) {
		list = json_object_new_array();
		for (i = 0; i < n_events; i++)
			json_object_array_add(list, json_trace_event(
				ctl_text_safe(events[i], safe, sizeof(safe))));
		json_object_object_add(j, "trace", list);
	}
	text = ret ? NULL : json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
							      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!ret && !text)
		ret = -ENOMEM;
	if (!ret && fprintf(out, "%s\n", text) < 0)
		ret = -EIO;
	json_object_put(j);
	return ret;
}

/*
 * Read @count more reply lines (a trace's events): printed to @out as they
 * come, or, with @keep, kept in *@keep for ctl_reply_json().
 */
static int more_lines(struct ctl_conn *conn, unsigned long long count, int timeout_ms,
		      FILE *out, char ***keep, size_t *n_kept)
{
	char line[CTL_REPLY_MAX], **grown;
	int ret;

	while (count--) {
		ret = ctl_read_line(conn, line, sizeof(line), timeout_ms);
		if (ret)
			return ret;
		if (!keep) {
			print_reply(out, line);
			continue;
		}
		grown = realloc(*keep, (*n_kept + 1) * sizeof(**keep));
		if (!grown)
			return -ENOMEM;
		*keep = grown;
		grown[*n_kept] = strdup(line);
		if (!grown[*n_kept])
			return -ENOMEM;
		(*n_kept)++;
	}
	return 0;
}

static void free_lines(char **lines, size_t n)
{
	while (n--)
		free(lines[n]);
	free(lines);
}

int ctl_send_lines(const char *path, const char *const *lines, size_t n_lines,
		   int timeout_ms, unsigned int flags, FILE *out, FILE *err)
{
	bool json = flags & CTL_SEND_JSON, trace, all_ok = true;
	char reply[CTL_REPLY_MAX], **events = NULL;
	struct ctl_conn *conn;
	size_t len, i, n_events = 0;
	int ret;

	/* The connection carries a reply-sized buffer: off the stack. */
	conn = malloc(sizeof(*conn));
	if (!conn)
		return -ENOMEM;
	ret = ctl_open(conn, path);
	if (ret) {
		fprintf(err, "cuse_ec: cannot connect to %s: %s\n", path ? path : "(null)",
			strerror(-ret));
		goto out_free;
	}
	for (i = 0; i < n_lines; i++) {
		len = strlen(lines[i]);
		if (!len || len > CTL_LINE_MAX || strpbrk(lines[i], "\r\n")) {
			fprintf(err, "cuse_ec: not a control line: '%.40s'\n", lines[i]);
			ret = -EINVAL;
			goto out_close;
		}
		ret = ctl_request(conn, lines[i], reply, sizeof(reply), timeout_ms);
		if (ret) {
			fprintf(err, "cuse_ec: '%s' on %s: %s\n", lines[i], path,
				ret == -ECONNRESET ? "connection closed before the reply" :
				ret == -EPROTO ? "reply line too long" : strerror(-ret));
			goto out_close;
		}
		if (!json)
			print_reply(out, reply);
		if (!ctl_reply_is_ok(reply))
			all_ok = false;
		/* A trace: its header says how many event lines follow. */
		trace = !strncmp(reply, CTL_TRACE_HEADER, strlen(CTL_TRACE_HEADER));
		if (trace) {
			ret = more_lines(conn, strtoull(reply + strlen(CTL_TRACE_HEADER), NULL, 10),
					 timeout_ms, out, json ? &events : NULL, &n_events);
			if (ret) {
				fprintf(err, "cuse_ec: '%s' on %s: trace cut short: %s\n",
					lines[i], path, strerror(-ret));
				goto out_close;
			}
		}
		if (json) {
			static char *const no_events[1];

			/* A trace has its list even when it is empty. */
			ret = ctl_reply_json(out, lines[i], reply,
					     !trace ? NULL : events ? events : no_events, n_events);
			free_lines(events, n_events);
			events = NULL;
			n_events = 0;
			if (ret) {
				fprintf(err, "cuse_ec: '%s': %s\n", lines[i], strerror(-ret));
				goto out_close;
			}
		}
	}
	fflush(out);
	ret = all_ok ? 0 : 1;
out_close:
	free_lines(events, n_events);
	ctl_close(conn);
out_free:
	free(conn);
	return ret;
}
