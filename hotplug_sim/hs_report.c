// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_report.c - turn what a run measured into a verdict and into text:
 * a human summary, one JSON object, CSV rows. Knows nothing of threads or
 * devices, so the tests can hand it made-up reports.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "common/common.h"
#include "hs.h"

static const char *trigger_name(enum hs_trigger t)
{
	return t == HS_TRIGGER_CONTROL ? "control" : "uevent";
}

void hs_report_totals(const struct hs_report *rep, const bool *expect, struct hs_totals *tot)
{
	unsigned int c, op, slot;

	memset(tot, 0, sizeof(*tot));
	for (c = 0; c < rep->nclients; c++) {
		for (op = 0; op < HS_OP_COUNT; op++) {
			for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++) {
				uint64_t n = rep->clients[c].count[op][slot];

				tot->count[op][slot] += n;
				tot->calls += n;
				if (!expect[slot])
					tot->unexpected += n;
			}
			for (slot = 0; slot < HS_LAT_BUCKETS; slot++)
				tot->latency[op][slot] += rep->clients[c].latency[op][slot];
			if (rep->clients[c].latency_max_ns[op] > tot->latency_max_ns[op])
				tot->latency_max_ns[op] = rep->clients[c].latency_max_ns[op];
		}
	}
}

int hs_report_verdict(const struct hs_report *rep, const struct hs_config *cfg)
{
	struct hs_totals tot;

	hs_report_totals(rep, cfg->expect, &tot);
	if (tot.unexpected || rep->hung || rep->trigger_errors || rep->workers_died)
		return 1;
	if (rep->daemon_checked && !rep->daemon_alive)
		return 1;
	return 0;
}

/* Revocation figures summarised: count, min / mean / max of a field. */
struct span_stats {
	unsigned int n;
	uint64_t min, max, sum;
};

static void span_add(struct span_stats *s, uint64_t v)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->sum += v;
	s->n++;
}

static void revocation_stats(const struct hs_report *rep, struct span_stats *to_revoked,
			     struct span_stats *to_last_out, uint64_t *longest)
{
	unsigned int i;

	memset(to_revoked, 0, sizeof(*to_revoked));
	memset(to_last_out, 0, sizeof(*to_last_out));
	*longest = 0;
	for (i = 0; i < rep->nrevocations; i++) {
		const struct hs_revocation *r = &rep->revocations[i];

		if (r->revoked_ns >= r->trigger_ns && r->revoked_ns)
			span_add(to_revoked, r->revoked_ns - r->trigger_ns);
		if (r->last_out_ns >= r->trigger_ns && r->last_out_ns)
			span_add(to_last_out, r->last_out_ns - r->trigger_ns);
		if (r->longest_inflight_ns > *longest)
			*longest = r->longest_inflight_ns;
	}
}

static void print_span(FILE *out, const char *what, const struct span_stats *s)
{
	if (!s->n) {
		fprintf(out, "  %-28s n/a\n", what);
		return;
	}
	fprintf(out, "  %-28s min %.1f us, mean %.1f us, max %.1f us (%u unplugs)\n", what,
		s->min / 1e3, (double)s->sum / s->n / 1e3, s->max / 1e3, s->n);
}

/*
 * What the daemon itself recorded about its revokes: how many accesses each
 * waited for and how long it took, both measured inside the daemon.
 */
static void daemon_revocation_stats(const struct hs_report *rep, struct span_stats *wait,
				    uint64_t *waited_total, uint64_t *waited_max)
{
	unsigned int i;

	memset(wait, 0, sizeof(*wait));
	*waited_total = 0;
	*waited_max = 0;
	for (i = 0; i < rep->nrevocations; i++) {
		const struct hs_revocation *r = &rep->revocations[i];

		if (!r->revoked_ns)
			continue;
		span_add(wait, r->daemon_wait_ns);
		*waited_total += r->daemon_waited;
		if (r->daemon_waited > *waited_max)
			*waited_max = r->daemon_waited;
	}
}

/* One line per client; only for small runs, where a person reads them. */
#define HUMAN_PER_CLIENT_MAX 16

static void print_per_client(const struct hs_report *rep, FILE *out)
{
	unsigned int c, op, slot;
	char name[16];

	if (rep->nclients > HUMAN_PER_CLIENT_MAX) {
		fprintf(out, "per client: see --json (%u clients)\n", rep->nclients);
		return;
	}
	fprintf(out, "per client:\n");
	for (c = 0; c < rep->nclients; c++) {
		bool first_op = true;

		fprintf(out, "  #%-3u %-7s", c, rep->roles ? rep->roles[c] : "client");
		for (op = 0; op < HS_OP_COUNT; op++) {
			bool first_slot = true;

			for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++) {
				uint64_t n = rep->clients[c].count[op][slot];

				if (!n)
					continue;
				if (first_slot)
					fprintf(out, "%s%s", first_op ? " " : " | ", hs_op_name(op));
				fprintf(out, " %s=%" PRIu64, hs_outcome_name(slot, name), n);
				first_slot = false;
				first_op = false;
			}
		}
		fputc('\n', out);
	}
}

bool hs_schedule_slip(unsigned int cycles, uint64_t period_ns, uint64_t ran_ns, char *text,
		      size_t len)
{
	uint64_t planned = (uint64_t)cycles * period_ns;

	if (ran_ns <= planned + planned / 10 || ran_ns - planned <= 10000000ull)
		return false;
	snprintf(text, len,
		 "flap of %u cycles planned %.3f s (%u x %.1f ms), ran %.3f s (%.1f ms a cycle): "
		 "each unplug waits for its revoke, each plug for the daemon",
		 cycles, planned / 1e9, cycles, period_ns / 1e6, ran_ns / 1e9,
		 cycles ? ran_ns / 1e6 / cycles : 0.0);
	return true;
}

void hs_report_human(const struct hs_report *rep, const struct hs_config *cfg, FILE *out)
{
	struct span_stats to_revoked, to_last_out, daemon_wait;
	uint64_t waited_total, waited_max;
	struct hs_totals tot;
	uint64_t longest;
	unsigned int op, slot;
	char name[16];

	hs_report_totals(rep, cfg->expect, &tot);
	revocation_stats(rep, &to_revoked, &to_last_out, &longest);
	fprintf(out, "hotplug_sim: /dev/%s, trigger %s, %u clients (xcmd %u%%), %u readers, %u pollers (%s), %.3f s\n",
		cfg->device, trigger_name(cfg->trigger), cfg->clients, cfg->mix_xcmd,
		cfg->readers, cfg->pollers, cfg->processes ? "processes" : "threads",
		rep->elapsed_ns / 1e9);
	fprintf(out, "outcomes (%" PRIu64 " calls, %" PRIu64 " unexpected):\n", tot.calls,
		tot.unexpected);
	for (op = 0; op < HS_OP_COUNT; op++) {
		bool any = false;

		for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++) {
			if (!tot.count[op][slot])
				continue;
			if (!any)
				fprintf(out, "  %-8s", hs_op_name(op));
			fprintf(out, " %s=%" PRIu64 "%s", hs_outcome_name(slot, name),
				tot.count[op][slot], cfg->expect[slot] ? "" : "(!)");
			any = true;
		}
		if (any)
			fputc('\n', out);
	}
	fprintf(out, "call latency (us)   %10s %10s %10s %10s %10s\n", "calls", "p50", "p90",
		"p99", "max");
	for (op = 0; op < HS_OP_COUNT; op++) {
		struct hs_latency_summary l;

		hs_latency_summarize(tot.latency[op], tot.latency_max_ns[op], &l);
		if (l.n)
			fprintf(out, "  %-17s %10" PRIu64 " %10.1f %10.1f %10.1f %10.1f\n",
				hs_op_name(op), l.n, l.p50 / 1e3, l.p90 / 1e3, l.p99 / 1e3,
				l.max / 1e3);
	}
	print_per_client(rep, out);
	fprintf(out, "unplugs %u, plugs %u, trigger errors %u\n", rep->nrevocations, rep->plugs,
		rep->trigger_errors);
	print_span(out, "trigger -> daemon revoked", &to_revoked);
	print_span(out, "trigger -> last call out", &to_last_out);
	fprintf(out, "  %-28s %.1f us\n", "longest in-flight call", longest / 1e3);
	daemon_revocation_stats(rep, &daemon_wait, &waited_total, &waited_max);
	print_span(out, "revoke, as the daemon timed it", &daemon_wait);
	fprintf(out, "  %-28s %" PRIu64 " in all, at most %" PRIu64 " in one revoke\n",
		"accesses revokes waited for", waited_total, waited_max);
	if (rep->uevents_sent)
		fprintf(out, "uevents written %u, seen on the monitor %u%s\n", rep->uevents_sent,
			rep->uevents_seen, rep->monitor_ok ? "" : " (monitor not running)");
	fprintf(out, "hung calls %u (deadline %.3f s)\n", rep->hung, cfg->deadline_ns / 1e9);
	if (rep->workers_died)
		fprintf(out, "worker processes died %u\n", rep->workers_died);
	if (rep->daemon_checked && rep->daemon_pid)
		fprintf(out, "daemon (pid %ld) %s\n", rep->daemon_pid,
			rep->daemon_alive ? "alive" : "GONE");
	else if (rep->daemon_checked)
		fprintf(out, "daemon %s\n", rep->daemon_alive ? "alive" : "GONE");
	else
		fprintf(out, "daemon not checked (no --daemon-pid or --control)\n");
	if (rep->have_zombies)
		fprintf(out, "zombie accesses %" PRIu64 "\n", rep->zombie_accesses);
	fprintf(out, "verdict: %s\n", hs_report_verdict(rep, cfg) ? "FAIL" : "PASS");
}

/* A number printed with @decimals digits after the point, as the report always was. */
static json_object *jfixed(double v, int decimals)
{
	char text[40];

	snprintf(text, sizeof(text), "%.*f", decimals, v);
	return json_object_new_double_s(v, text);
}

/*
 * A text field as a JSON string: the device name and the roles may come
 * from anywhere, so they go through text_to_utf8() like all of ecctl's.
 */
static void add_text(json_object *obj, const char *key, const char *field, size_t size)
{
	char text[TEXT_UTF8_ROOM(HS_NAME_MAX + 1)];

	text_to_utf8(field, size, text, sizeof(text));
	json_object_object_add(obj, key, json_object_new_string(text));
}

static json_object *json_counts(const uint64_t (*count)[HS_OUTCOME_SLOTS])
{
	json_object *all = json_object_new_object();
	unsigned int op, slot;
	char name[16];

	for (op = 0; op < HS_OP_COUNT; op++) {
		json_object *per_op = json_object_new_object();

		for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++)
			if (count[op][slot])
				json_object_object_add(per_op, hs_outcome_name(slot, name),
						       json_object_new_uint64(count[op][slot]));
		json_object_object_add(all, hs_op_name(op), per_op);
	}
	return all;
}

static json_object *json_span(const struct span_stats *s)
{
	json_object *span;

	if (!s->n)
		return NULL;	/* JSON null */
	span = json_object_new_object();
	json_object_object_add(span, "n", json_object_new_uint64(s->n));
	json_object_object_add(span, "min_us", jfixed(s->min / 1e3, 1));
	json_object_object_add(span, "mean_us", jfixed((double)s->sum / s->n / 1e3, 1));
	json_object_object_add(span, "max_us", jfixed(s->max / 1e3, 1));
	return span;
}

static json_object *json_revocation(const struct hs_report *rep)
{
	json_object *rev = json_object_new_object(), *events = json_object_new_array();
	struct span_stats to_revoked, to_last_out, daemon_wait;
	uint64_t longest, waited_total, waited_max;
	unsigned int i;

	revocation_stats(rep, &to_revoked, &to_last_out, &longest);
	daemon_revocation_stats(rep, &daemon_wait, &waited_total, &waited_max);
	json_object_object_add(rev, "daemon_wait", json_span(&daemon_wait));
	json_object_object_add(rev, "daemon_waited_total", json_object_new_uint64(waited_total));
	json_object_object_add(rev, "daemon_waited_max", json_object_new_uint64(waited_max));
	json_object_object_add(rev, "trigger_to_revoked", json_span(&to_revoked));
	json_object_object_add(rev, "trigger_to_last_out", json_span(&to_last_out));
	json_object_object_add(rev, "longest_inflight_us", jfixed(longest / 1e3, 1));
	for (i = 0; i < rep->nrevocations; i++) {
		const struct hs_revocation *r = &rep->revocations[i];
		json_object *ev = json_object_new_object();

		json_object_object_add(ev, "trigger_us", jfixed(r->trigger_ns / 1e3, 1));
		json_object_object_add(ev, "revoked_us", jfixed(r->revoked_ns / 1e3, 1));
		json_object_object_add(ev, "last_out_us", jfixed(r->last_out_ns / 1e3, 1));
		json_object_object_add(ev, "inflight", json_object_new_uint64(r->inflight));
		json_object_object_add(ev, "daemon_waited", json_object_new_uint64(r->daemon_waited));
		json_object_object_add(ev, "daemon_wait_us", jfixed(r->daemon_wait_ns / 1e3, 1));
		json_object_object_add(ev, "longest_inflight_us",
				       jfixed(r->longest_inflight_ns / 1e3, 1));
		json_object_array_add(events, ev);
	}
	json_object_object_add(rev, "events", events);
	return rev;
}

/*
 * Per op, always every op: {"n":N,"p50":..,"p90":..,"p99":..,"max":..} in
 * microseconds, null figures for an op no call made.
 */
static json_object *json_latency(const struct hs_totals *tot)
{
	json_object *all = json_object_new_object(), *one;
	struct hs_latency_summary l;
	unsigned int op;

	for (op = 0; op < HS_OP_COUNT; op++) {
		hs_latency_summarize(tot->latency[op], tot->latency_max_ns[op], &l);
		one = json_object_new_object();
		json_object_object_add(one, "n", json_object_new_uint64(l.n));
		json_object_object_add(one, "p50", l.n ? jfixed(l.p50 / 1e3, 1) : NULL);
		json_object_object_add(one, "p90", l.n ? jfixed(l.p90 / 1e3, 1) : NULL);
		json_object_object_add(one, "p99", l.n ? jfixed(l.p99 / 1e3, 1) : NULL);
		json_object_object_add(one, "max", l.n ? jfixed(l.max / 1e3, 1) : NULL);
		json_object_object_add(all, hs_op_name(op), one);
	}
	return all;
}

/* [{"plug_us":T,"plugged_us":T|null}...]: each plug, on the run clock. */
static json_object *json_plugs(const struct hs_report *rep)
{
	json_object *all = json_object_new_array(), *one;
	unsigned int i;

	for (i = 0; rep->plug_events && i < rep->plugs; i++) {
		const struct hs_plug *p = &rep->plug_events[i];

		one = json_object_new_object();
		json_object_object_add(one, "plug_us", jfixed(p->trigger_ns / 1e3, 1));
		json_object_object_add(one, "plugged_us", p->plugged_ns ?
				       jfixed(p->plugged_ns / 1e3, 1) : NULL);
		json_object_array_add(all, one);
	}
	return all;
}

int hs_report_json(const struct hs_report *rep, const struct hs_config *cfg, FILE *out)
{
	json_object *j = json_object_new_object(), *mix, *expect, *clients;
	struct hs_totals tot;
	unsigned int c, slot;
	const char *text;
	char name[16];
	int ret = 0;

	if (!j)
		return -ENOMEM;
	hs_report_totals(rep, cfg->expect, &tot);
	add_text(j, "device", cfg->device, sizeof(cfg->device));
	json_object_object_add(j, "trigger", json_object_new_string(trigger_name(cfg->trigger)));
	json_object_object_add(j, "clients", json_object_new_uint64(cfg->clients));
	json_object_object_add(j, "readers", json_object_new_uint64(cfg->readers));
	json_object_object_add(j, "pollers", json_object_new_uint64(cfg->pollers));
	json_object_object_add(j, "processes", json_object_new_boolean(cfg->processes));
	mix = json_object_new_object();
	json_object_object_add(mix, "xcmd", json_object_new_uint64(cfg->mix_xcmd));
	json_object_object_add(mix, "readmem", json_object_new_uint64(100 - cfg->mix_xcmd));
	json_object_object_add(j, "mix", mix);
	json_object_object_add(j, "seed", json_object_new_uint64(cfg->seed));
	json_object_object_add(j, "deadline_ms", jfixed(cfg->deadline_ns / 1e6, 3));
	json_object_object_add(j, "elapsed_ms", jfixed(rep->elapsed_ns / 1e6, 3));
	json_object_object_add(j, "flap_planned_ms", jfixed(rep->planned_ns / 1e6, 3));
	json_object_object_add(j, "flap_ran_ms", jfixed(rep->scheduled_ran_ns / 1e6, 3));
	expect = json_object_new_array();
	for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++)
		if (cfg->expect[slot])
			json_object_array_add(expect,
					      json_object_new_string(hs_outcome_name(slot, name)));
	json_object_object_add(j, "expect", expect);
	json_object_object_add(j, "calls", json_object_new_uint64(tot.calls));
	json_object_object_add(j, "unexpected", json_object_new_uint64(tot.unexpected));
	json_object_object_add(j, "totals",
			       json_counts((const uint64_t (*)[HS_OUTCOME_SLOTS])tot.count));
	clients = json_object_new_array();
	for (c = 0; c < rep->nclients; c++) {
		const char *role = rep->roles ? rep->roles[c] : "client";
		json_object *one = json_object_new_object();

		json_object_object_add(one, "client", json_object_new_uint64(c));
		add_text(one, "role", role, strlen(role));
		json_object_object_add(one, "counts",
				       json_counts((const uint64_t (*)[HS_OUTCOME_SLOTS])
						   rep->clients[c].count));
		json_object_array_add(clients, one);
	}
	json_object_object_add(j, "per_client", clients);
	/* After per_client: scripts cut "totals" out up to it (hl_json_outcomes). */
	json_object_object_add(j, "latency_us", json_latency(&tot));
	json_object_object_add(j, "unplugs", json_object_new_uint64(rep->nrevocations));
	json_object_object_add(j, "plugs", json_object_new_uint64(rep->plugs));
	json_object_object_add(j, "trigger_errors", json_object_new_uint64(rep->trigger_errors));
	json_object_object_add(j, "revocation", json_revocation(rep));
	json_object_object_add(j, "plug_events", json_plugs(rep));
	json_object_object_add(j, "uevents_sent", json_object_new_uint64(rep->uevents_sent));
	json_object_object_add(j, "uevents_seen", json_object_new_uint64(rep->uevents_seen));
	json_object_object_add(j, "monitor", json_object_new_boolean(rep->monitor_ok));
	json_object_object_add(j, "hung", json_object_new_uint64(rep->hung));
	json_object_object_add(j, "workers_died", json_object_new_uint64(rep->workers_died));
	json_object_object_add(j, "daemon_pid", rep->daemon_pid ?
			       json_object_new_int64(rep->daemon_pid) : NULL);
	json_object_object_add(j, "daemon_alive", rep->daemon_checked ?
			       json_object_new_boolean(rep->daemon_alive) : NULL);
	json_object_object_add(j, "zombie_accesses", rep->have_zombies ?
			       json_object_new_uint64(rep->zombie_accesses) : NULL);
	json_object_object_add(j, "verdict", json_object_new_string(
				       hs_report_verdict(rep, cfg) ? "fail" : "pass"));
	text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		ret = -ENOMEM;
	else
		fprintf(out, "%s\n", text);
	json_object_put(j);
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}

void hs_csv_header(FILE *out)
{
	fputs("timestamp_us,client,op,outcome,latency_us\n", out);
}

void hs_csv_row(FILE *out, uint64_t ts_us, unsigned int client, enum hs_op op,
		unsigned int slot, uint64_t latency_us)
{
	char name[16];

	fprintf(out, "%" PRIu64 ",%u,%s,%s,%" PRIu64 "\n", ts_us, client, hs_op_name(op),
		hs_outcome_name(slot, name), latency_us);
}
