// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * control.c - the control socket's verbs: one table (control_verbs[]) from
 * which the parser, "help" and the dispatch are made; the verbs that reply
 * at once, and those that need the server: "trace" (many lines) and
 * "unplug wait" (a reply on completion). The server itself is
 * control_server.c.
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
#include "cros_ec/ec_commands.h"

static int control_parse_event(const char *value, struct control_cmd *cmd,
			       char *err, size_t errlen)
{
	if (ec_stimulus_parse(value, &cmd->stimulus)) {
		snprintf(err, errlen, "unknown event '%.40s' (try 'help inject')", value);
		return -EINVAL;
	}
	return 0;
}

static int control_parse_fault(const char *value, struct control_cmd *cmd,
			       char *err, size_t errlen)
{
	return ec_fault_parse(value, &cmd->fault, err, errlen);
}

static int control_parse_ns(const char *value, struct control_cmd *cmd,
			    char *err, size_t errlen)
{
	unsigned long long ns = 0;
	char *end = NULL;

	/* Digits only: strtoull would take a sign, blanks or "0x". */
	if (value[0] >= '0' && value[0] <= '9') {
		errno = 0;
		ns = strtoull(value, &end, 10);
	}
	/* Above 60 s a "latency" is a hang; refuse it. */
	if (!end || errno || *end || ns > 60000000000ULL) {
		snprintf(err, errlen, "latency must be 0..60000000000 ns");
		return -EINVAL;
	}
	cmd->latency_ns = ns;
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
		ctl_error(reply, len, ret, "not plugged");
	else
		ctl_error(reply, len, ret, "unplug failed: %s", strerror(-ret));
}

static int control_do_unplug(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len)
{
	int ret = control_start_unplug(ctx, NULL, NULL);

	(void)cmd;
	if (ret)
		control_unplug_error(ret, reply, len);
	else
		snprintf(reply, len, "ok unplug started");
	return ret;
}

static int control_do_plug(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len)
{
	int ret;

	(void)cmd;
	chardev_set_operator_hold(ctx, false);
	ret = chardev_plug(ctx);
	if (ret == -EBUSY)
		ctl_error(reply, len, ret, "already plugged");
	else if (ret)
		ctl_error(reply, len, ret, "plug failed: %s", strerror(-ret));
	else
		snprintf(reply, len, "ok plugged");
	return ret;
}

/*
 * "save" and "load" act on the daemon's --state file only: a path from the
 * socket would let any client write files as the daemon's user.
 */
static int control_do_save(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len)
{
	char err[320] = "";
	size_t bytes = 0;
	int ret;

	(void)cmd;
	ret = chardev_state_save(ctx, &bytes, err, sizeof(err));
	if (ret == -EDESTADDRREQ)
		ctl_error(reply, len, ret, "no --state file");
	else if (ret == -ENODEV)
		ctl_error(reply, len, ret, "not plugged");
	else if (ret)
		ctl_error(reply, len, ret, "save failed: %s", err);
	else
		snprintf(reply, len, "ok saved bytes=%zu", bytes);
	return ret;
}

static int control_do_load(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len)
{
	char err[320] = "";
	int ret;

	(void)cmd;
	ret = chardev_state_load(ctx, err, sizeof(err));
	if (ret == -EDESTADDRREQ)
		ctl_error(reply, len, ret, "no --state file");
	else if (ret == -ENODEV)
		ctl_error(reply, len, ret, "not plugged");
	else if (ret < 0)
		ctl_error(reply, len, ret, "load refused: %s", err);
	else
		snprintf(reply, len, "ok loaded fields=%d", ret);
	return ret < 0 ? ret : 0;
}

static int control_do_status(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len)
{
	char kb[32] = "";
	int ret;

	/* -ENODEV: no EC, or a board without a keyboard backlight. */
	ret = chardev_with_ec(ctx, control_kb_backlight, NULL);
	if (ret >= 0)
		snprintf(kb, sizeof(kb), " kb_backlight=%d", ret);
	snprintf(reply, len, "ok %s lifecycle=%s open_files=%" PRIu64 "%s%s%s",
		 chardev_is_plugged(ctx) ? "plugged" : "unplugged",
		 lifecycle_mode_name(chardev_mode(ctx)), chardev_open_files(ctx), kb,
		 cmd->device[0] ? " device=" : "", cmd->device);
	return 0;
}

/*
 * "info": what a client may rely on - the protocol's version and this
 * daemon's capabilities, each list from its one table.
 */
static int control_do_info(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len)
{
	enum ec_fault_kind kind;
	enum ec_stimulus stim;
	size_t used;

	used = (size_t)snprintf(reply, len, "ok info protocol=%d version=%s lifecycle=%s "
				"line_max=%d fault_rules_max=%d fault_kinds=",
				CTL_PROTOCOL_VERSION, PACKAGE_VERSION,
				lifecycle_mode_name(chardev_mode(ctx)), CTL_LINE_MAX,
				EC_FAULT_RULES_MAX);
	for (kind = EC_FAULT_NONE + 1; kind < EC_FAULT_KINDS && used < len; kind++)
		used += (size_t)snprintf(reply + used, len - used, "%s%s",
					 kind > EC_FAULT_NONE + 1 ? "," : "", ec_fault_kind_name(kind));
	for (stim = 0; stim < EC_STIM_COUNT && used < len; stim++)
		used += (size_t)snprintf(reply + used, len - used, "%s%s", stim ? "," : " events=",
					 ec_stimulus_name(stim));
	if (cmd->devices && cmd->devices[0] && used < len)
		used += (size_t)snprintf(reply + used, len - used, " devices=%s", cmd->devices);
	return used < len ? 0 : -EMSGSIZE;
}

static int control_do_stats(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			    char *reply, size_t len)
{
	struct chardev_stats st;

	(void)cmd;
	chardev_stats(ctx, &st);
	/* "ok " and the counters; a cut reply would mislead, so refuse. */
	if (len < 4 || chardev_stats_format(&st, reply + 3, len - 3) >= len - 3) {
		return ctl_error(reply, len, -EMSGSIZE, "stats do not fit");
	}
	memcpy(reply, "ok ", 3);
	return 0;
}

static int control_do_inject(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len)
{
	int ret = chardev_with_ec(ctx, control_inject, (void *)&cmd->stimulus);

	if (ret == -ENODEV)
		ctl_error(reply, len, ret, "not plugged");
	else if (ret)
		ctl_error(reply, len, ret, "inject failed: %s", strerror(-ret));
	else
		snprintf(reply, len, "ok injected");
	return ret;
}

static int control_do_fault(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			    char *reply, size_t len)
{
	char text[EC_FAULT_TEXT_MAX];
	int ret = ec_fault_plan_add(chardev_fault_plan(ctx), &cmd->fault);

	if (ret == -ENOSPC)
		return ctl_error(reply, len, ret,
				 "the fault plan is full (%d rules; 'fault clear' first)",
				 EC_FAULT_RULES_MAX);
	if (ret)
		return ctl_error(reply, len, ret, "fault refused: %s", strerror(-ret));
	ec_fault_format(&cmd->fault, text, sizeof(text));
	snprintf(reply, len, "ok fault %s", text);
	return 0;
}

static int control_do_fault_clear(struct chardev_ctx *ctx, const struct control_cmd *cmd,
				  char *reply, size_t len)
{
	(void)cmd;
	snprintf(reply, len, "ok faults cleared %zu",
		 ec_fault_plan_clear(chardev_fault_plan(ctx)));
	return 0;
}

/* "ok faults N injected=M: RULE; RULE" - every rule as "fault" takes it. */
static int control_do_faults(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			     char *reply, size_t len)
{
	struct ec_fault rules[EC_FAULT_RULES_MAX];
	char text[EC_FAULT_TEXT_MAX];
	uint64_t injected;
	size_t n, i, used;

	(void)cmd;
	n = ec_fault_plan_list(chardev_fault_plan(ctx), rules, EC_FAULT_RULES_MAX, &injected);
	used = (size_t)snprintf(reply, len, "ok faults %zu injected=%" PRIu64 "%s", n,
				injected, n ? ":" : "");
	for (i = 0; i < n && used < len; i++) {
		ec_fault_format(&rules[i], text, sizeof(text));
		used += (size_t)snprintf(reply + used, len - used, "%s %s", i ? ";" : "", text);
	}
	return 0;
}

static int control_do_latency(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			      char *reply, size_t len)
{
	int ret = chardev_set_latency(ctx, cmd->latency_ns);

	snprintf(reply, len, "ok latency %" PRIu64 " ns%s", cmd->latency_ns,
		 ret == -ENODEV ? " (from the next plug)" : "");
	return 0;
}

static int control_do_trace_clear(struct chardev_ctx *ctx, const struct control_cmd *cmd,
				  char *reply, size_t len)
{
	(void)cmd;
	chardev_trace_clear(chardev_trace(ctx));
	snprintf(reply, len, "ok trace cleared");
	return 0;
}

/*
 * "trace": the header, then one line per event. The events are copied
 * now; their lines are made as the client takes them (control_trace_fill()),
 * so a long trace never waits for a slow reader nor fills its buffer.
 */
static void control_serve_trace(struct control_server *srv, int idx,
				const struct control_cmd *cmd)
{
	struct chardev_trace *tr = chardev_trace(cmd->ctx);
	struct control_client *cl = &srv->clients[idx];
	size_t cap = chardev_trace_capacity(tr), n;
	struct chardev_trace_entry *events;
	char header[128];
	uint64_t dropped;

	events = calloc(cap, sizeof(*events));
	if (!events) {
		control_send_error(cl, -ENOMEM, "out of memory");
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

/* "unplug wait": the reply comes from control_unplug_done(). */
static void control_serve_unplug_wait(struct control_server *srv, int idx,
				      const struct control_cmd *cmd)
{
	struct control_client *cl = &srv->clients[idx];
	struct control_waiter *w;
	char reply[128];
	int ret;

	w = calloc(1, sizeof(*w));
	if (!w) {
		control_send_error(cl, -ENOMEM, "out of memory");
		return;
	}
	w->srv = srv;
	w->client = idx;
	/* Listed before starting: the completion may run at once. */
	w->next = srv->waiters;
	srv->waiters = w;
	ret = control_start_unplug(cmd->ctx, control_unplug_done, w);
	if (ret) {
		srv->waiters = w->next;
		free(w);
		control_unplug_error(ret, reply, sizeof(reply));
		control_send(cl, reply);
		return;
	}
	cl->waiting = true;
}

/* "help" and its topic read the table they are part of. */
static int control_parse_topic(const char *value, struct control_cmd *cmd,
			       char *err, size_t errlen);
static int control_do_help(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len);

/* The control verbs. "help" lists them in this order. */
static const struct control_verb control_verbs[] = {
	{ .name = "unplug", .now = control_do_unplug,
	  .help = "start an unplug (an asynchronous revoke); the reply comes at once" },
	{ .name = "unplug wait", .serve = control_serve_unplug_wait,
	  .help = "start an unplug; the reply comes once the EC is gone" },
	{ .name = "plug", .now = control_do_plug,
	  .help = "create a fresh EC" },
	{ .name = "status", .now = control_do_status,
	  .help = "plugged or unplugged, lifecycle mode, open files" },
	{ .name = "stats", .now = control_do_stats,
	  .help = "every counter as key=value" },
	{ .name = "trace", .serve = control_serve_trace,
	  .help = "the lifecycle event log: \"" CTL_TRACE_HEADER "N dropped=D capacity=C\", "
		  "then N lines" },
	{ .name = "trace clear", .now = control_do_trace_clear,
	  .help = "forget the events so far (numbers keep counting)" },
	{ .name = "inject", .value = "EVENT", .parse = control_parse_event,
	  .now = control_do_inject,
	  .help = "change the EC's state and raise the events a real EC would" },
	{ .name = "motion angle", .value = "DEGREES", .parse = control_parse_angle,
	  .now = control_do_motion_angle,
	  .help = "move the hinge to 0..360 degrees as a hand would; tablet mode follows "
		  "(a convertible's lid and base accelerometers)" },
	{ .name = "motion tablet on", .arg = 1, .now = control_do_motion_tablet,
	  .help = "fold the lid behind the base (360 degrees): tablet mode" },
	{ .name = "motion tablet off", .arg = 0, .now = control_do_motion_tablet,
	  .help = "unfold the lid to the profile's angle" },
	{ .name = "button vup", .value = "MS", .arg = EC_MKBP_VOL_UP,
	  .parse = control_parse_press, .now = control_do_button,
	  .help = "hold volume up for 1..60000 ms of the EC's clock (MKBP button events)" },
	{ .name = "button vdown", .value = "MS", .arg = EC_MKBP_VOL_DOWN,
	  .parse = control_parse_press, .now = control_do_button,
	  .help = "hold volume down for 1..60000 ms" },
	{ .name = "button rec", .value = "MS", .arg = EC_MKBP_RECOVERY,
	  .parse = control_parse_press, .now = control_do_button,
	  .help = "hold the recovery button for 1..60000 ms" },
	{ .name = "fault clear", .now = control_do_fault_clear,
	  .help = "remove every fault rule" },
	{ .name = "fault", .value = "RULE", .parse = control_parse_fault,
	  .now = control_do_fault,
	  .help = "add a fault rule: KIND[,cmd=N|all][,times=N|always][,p=P]" },
	{ .name = "faults", .now = control_do_faults,
	  .help = "the fault rules (injections left) and faults injected so far" },
	{ .name = "latency", .value = "NS", .parse = control_parse_ns,
	  .now = control_do_latency,
	  .help = "nanoseconds every host command spends in the EC, 0..60000000000" },
	{ .name = "save", .now = control_do_save,
	  .help = "save the EC's state to the --state file (atomically)" },
	{ .name = "load", .now = control_do_load,
	  .help = "load the --state file into the EC: all of it, or nothing if it is refused" },
	{ .name = "info", .now = control_do_info,
	  .help = "the control protocol's version and the daemon's capabilities, as key=value" },
	{ .name = "help", .now = control_do_help,
	  .help = "the verbs" },
	{ .name = "help", .value = "VERB", .parse = control_parse_topic,
	  .now = control_do_help,
	  .help = "what a verb does" },
};

#define CONTROL_VERB_COUNT (sizeof(control_verbs) / sizeof(control_verbs[0]))

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

/*
 * Whether @words[0..@n) select @verb: its name's words, then its value if
 * it takes one, and nothing more. Sets *@value to the value word.
 */
static bool control_verb_matches(const struct control_verb *verb, char *const *words,
				 size_t n, const char **value)
{
	const char *name = verb->name;
	size_t i = 0, wlen;

	while (*name) {
		wlen = strcspn(name, " ");
		if (i == n || strlen(words[i]) != wlen || strncmp(words[i], name, wlen))
			return false;
		name += wlen;
		name += *name == ' ';
		i++;
	}
	if (verb->value && i + 1 == n) {
		*value = words[i];
		return true;
	}
	return !verb->value && i == n;
}

/* "NAME" or "NAME VALUE", as "help" and the usage errors show a verb. */
static void control_verb_form(const struct control_verb *verb, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", verb->name, verb->value ? " " : "",
		 verb->value ? verb->value : "");
}

/* Whether @verb's first word is the @wlen bytes at @word ("trace clear": "trace"). */
static bool control_verb_starts(const struct control_verb *verb, const char *word, size_t wlen)
{
	return !strncmp(verb->name, word, wlen) && (!verb->name[wlen] || verb->name[wlen] == ' ');
}

/* The verb's own row for "help VERB": the first whose first word is @word. */
static const struct control_verb *control_verb_by_word(const char *word)
{
	size_t i;

	for (i = 0; i < CONTROL_VERB_COUNT; i++) {
		if (control_verb_starts(&control_verbs[i], word, strlen(word)))
			return &control_verbs[i];
	}
	return NULL;
}

/* "usage: trace | trace clear": every form of the verb that @word starts. */
static void control_usage(const char *word, char *err, size_t errlen)
{
	size_t i, wlen = strlen(word), used;
	char form[64];

	used = (size_t)snprintf(err, errlen, "usage:");
	for (i = 0; i < CONTROL_VERB_COUNT && used < errlen; i++) {
		if (!control_verb_starts(&control_verbs[i], word, wlen))
			continue;
		control_verb_form(&control_verbs[i], form, sizeof(form));
		used += (size_t)snprintf(err + used, errlen - used, "%s %s",
					 used > strlen("usage:") ? " |" : "", form);
	}
}

int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen)
{
	char buf[CTL_LINE_MAX + 1], *cursor = buf, *line_words[5], **words = line_words;
	const char *value = NULL;
	size_t len, i, n = 0;

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
	/*
	 * "@NAME", then the verb: no verb has more than three words, so a
	 * fourth matches none.
	 */
	while (n < 5 && (words[n] = control_next_word(&cursor)))
		n++;
	if (n && words[0][0] == CTL_DEVICE_PREFIX) {
		if (!ctl_device_name_valid(words[0] + 1)) {
			snprintf(err, errlen, "bad device name '%.40s' (%c and a node's name: "
				 "[A-Za-z0-9_.-], not starting with '.' or '-')", words[0],
				 CTL_DEVICE_PREFIX);
			return -EINVAL;
		}
		strcpy(cmd->device, words[0] + 1);
		words++;
		n--;
	}
	if (!n) {
		snprintf(err, errlen, "empty command (try 'help')");
		return -EINVAL;
	}
	for (i = 0; i < CONTROL_VERB_COUNT; i++) {
		if (!control_verb_matches(&control_verbs[i], words, n, &value))
			continue;
		cmd->verb = &control_verbs[i];
		if (!control_verbs[i].parse)
			return 0;
		return control_verbs[i].parse(value, cmd, err, errlen);
	}
	if (control_verb_by_word(words[0]))
		control_usage(words[0], err, errlen);
	else
		snprintf(err, errlen, "unknown command '%.40s' (try 'help')", words[0]);
	return -EINVAL;
}

const char *control_verb_name(const struct control_cmd *cmd)
{
	return cmd->verb ? cmd->verb->name : NULL;
}

static int control_parse_topic(const char *value, struct control_cmd *cmd,
			       char *err, size_t errlen)
{
	cmd->topic = control_verb_by_word(value);
	if (!cmd->topic) {
		snprintf(err, errlen, "unknown command '%.40s' (try 'help')", value);
		return -EINVAL;
	}
	return 0;
}

/*
 * "help": the verbs' forms, one line. "help VERB": each form of that verb
 * with what it does, and the events "inject" takes.
 */
static int control_do_help(struct chardev_ctx *ctx, const struct control_cmd *cmd,
			   char *reply, size_t len)
{
	const char *word = cmd->topic ? cmd->topic->name : NULL;
	size_t i, wlen = word ? strcspn(word, " ") : 0, used;
	char form[64];

	(void)ctx;
	used = (size_t)snprintf(reply, len, "ok %s", word ? "" : "commands:");
	for (i = 0; i < CONTROL_VERB_COUNT && used < len; i++) {
		const struct control_verb *verb = &control_verbs[i];

		if (word && !control_verb_starts(verb, word, wlen))
			continue;
		control_verb_form(verb, form, sizeof(form));
		if (word)
			used += (size_t)snprintf(reply + used, len - used, "%s%s: %s",
						 used > 3 ? "; " : "", form, verb->help);
		else
			used += (size_t)snprintf(reply + used, len - used, "%s %s",
						 i ? "," : "", form);
		if (word && verb->parse == control_parse_fault) {
			enum ec_fault_kind k;

			for (k = EC_FAULT_NONE + 1; k < EC_FAULT_KINDS && used < len; k++)
				used += (size_t)snprintf(reply + used, len - used, "%s%s: %s",
							 k == EC_FAULT_NONE + 1 ?
							 " (KIND: " : "; ",
							 ec_fault_kind_name(k),
							 ec_fault_kind_help(k));
			if (used < len)
				used += (size_t)snprintf(reply + used, len - used, ")");
		}
		if (word && verb->parse == control_parse_event) {
			enum ec_stimulus s;

			for (s = 0; s < EC_STIM_COUNT && used < len; s++)
				used += (size_t)snprintf(reply + used, len - used, "%s%s",
							 s ? "|" : " (EVENT: ",
							 ec_stimulus_name(s));
			if (used < len)
				used += (size_t)snprintf(reply + used, len - used, ")");
		}
	}
	return 0;
}

void control_print_verbs(FILE *out, int column, int width)
{
	char form[64];
	size_t i;

	for (i = 0; i < CONTROL_VERB_COUNT; i++) {
		const struct control_verb *verb = &control_verbs[i];
		const char *word = verb->help;
		int at;

		control_verb_form(verb, form, sizeof(form));
		at = fprintf(out, "  %s", form);
		if (at + 1 > column) {
			fputc('\n', out);
			at = 0;
		}
		at += fprintf(out, "%*s", column - at, "");
		/* The help, its words wrapped at @width. */
		while (*word) {
			int wlen = (int)strcspn(word, " ");

			if (at > column && at + 1 + wlen > width)
				at = fprintf(out, "\n%*s", column, "") - 1;
			else if (at > column)
				at += fprintf(out, " ");
			at += fprintf(out, "%.*s", wlen, word);
			word += wlen;
			word += *word == ' ';
		}
		fputc('\n', out);
	}
}

int control_execute(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		    char *reply, size_t len)
{
	if (!cmd->verb || !cmd->verb->now) {
		return ctl_error(reply, len, -EINVAL, "command needs the server");
	}
	return cmd->verb->now(ctx, cmd, reply, len);
}

/*
 * The device a command addresses: its "@NAME", else the first. An unknown
 * name is ENODEV, as opening a node that is not there would be.
 */
static int control_resolve_device(const struct control_server *srv, struct control_cmd *cmd,
				  char *reply, size_t len)
{
	size_t i;

	cmd->devices = srv->device_names;
	if (!cmd->device[0]) {
		cmd->ctx = srv->devices[0].ctx;
		if (srv->devices[0].name)
			snprintf(cmd->device, sizeof(cmd->device), "%s", srv->devices[0].name);
		return 0;
	}
	for (i = 0; i < srv->n_devices; i++) {
		if (srv->devices[i].name && !strcmp(srv->devices[i].name, cmd->device)) {
			cmd->ctx = srv->devices[i].ctx;
			return 0;
		}
	}
	return ctl_error(reply, len, -ENODEV, "no device '%s' (devices: %s)", cmd->device,
			 srv->device_names[0] ? srv->device_names : "none named");
}

void control_handle_line(struct control_server *srv, int idx, const char *line, size_t len)
{
	struct control_client *cl = &srv->clients[idx];
	struct control_cmd cmd;
	char reply[CHARDEV_STATS_TEXT_MAX + 8], err[160];	/* "ok " + stats fits */

	if (strlen(line) != len) {
		control_send_error(cl, -EINVAL, "NUL byte in command");
		return;
	}
	/* Blank lines, whitespace only or empty, are harmless: ignore them. */
	if (!line[strspn(line, " \t\r")])
		return;
	if (control_parse(line, &cmd, err, sizeof(err))) {
		ctl_error(reply, sizeof(reply), -EINVAL, "%s", err);
		control_send(cl, reply);
		return;
	}
	if (control_resolve_device(srv, &cmd, reply, sizeof(reply))) {
		control_send(cl, reply);
		return;
	}
	if (cmd.verb->serve) {
		cmd.verb->serve(srv, idx, &cmd);
		return;
	}
	control_execute(cmd.ctx, &cmd, reply, sizeof(reply));
	control_send(cl, reply);
}
