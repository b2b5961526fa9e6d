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

void hs_report_human(const struct hs_report *rep, const struct hs_config *cfg, FILE *out)
{
	struct span_stats to_revoked, to_last_out;
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
	print_per_client(rep, out);
	fprintf(out, "unplugs %u, plugs %u, trigger errors %u\n", rep->nrevocations, rep->plugs,
		rep->trigger_errors);
	print_span(out, "trigger -> daemon revoked", &to_revoked);
	print_span(out, "trigger -> last call out", &to_last_out);
	fprintf(out, "  %-28s %.1f us\n", "longest in-flight call", longest / 1e3);
	if (rep->uevents_sent)
		fprintf(out, "uevents written %u, seen on the monitor %u%s\n", rep->uevents_sent,
			rep->uevents_seen, rep->monitor_ok ? "" : " (monitor not running)");
	fprintf(out, "hung calls %u (deadline %.3f s)\n", rep->hung, cfg->deadline_ns / 1e9);
	if (rep->workers_died)
		fprintf(out, "worker processes died %u\n", rep->workers_died);
	if (rep->daemon_checked)
		fprintf(out, "daemon %s\n", rep->daemon_alive ? "alive" : "GONE");
	else
		fprintf(out, "daemon not checked (no --daemon-pid or --control)\n");
	if (rep->have_zombies)
		fprintf(out, "zombie accesses %" PRIu64 "\n", rep->zombie_accesses);
	fprintf(out, "verdict: %s\n", hs_report_verdict(rep, cfg) ? "FAIL" : "PASS");
}

/* JSON string: paths may hold anything, so escape what JSON requires. */
static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void json_counts(FILE *out, const uint64_t (*count)[HS_OUTCOME_SLOTS])
{
	unsigned int op, slot;
	char name[16];

	fputc('{', out);
	for (op = 0; op < HS_OP_COUNT; op++) {
		bool first = true;

		fprintf(out, "%s\"%s\":{", op ? "," : "", hs_op_name(op));
		for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++) {
			if (!count[op][slot])
				continue;
			fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",",
				hs_outcome_name(slot, name), count[op][slot]);
			first = false;
		}
		fputc('}', out);
	}
	fputc('}', out);
}

static void json_span(FILE *out, const char *key, const struct span_stats *s)
{
	if (!s->n) {
		fprintf(out, "\"%s\":null", key);
		return;
	}
	fprintf(out, "\"%s\":{\"n\":%u,\"min_us\":%.1f,\"mean_us\":%.1f,\"max_us\":%.1f}", key,
		s->n, s->min / 1e3, (double)s->sum / s->n / 1e3, s->max / 1e3);
}

int hs_report_json(const struct hs_report *rep, const struct hs_config *cfg, FILE *out)
{
	struct span_stats to_revoked, to_last_out;
	struct hs_totals tot;
	uint64_t longest;
	unsigned int c, slot, i;
	char name[16];
	bool first = true;

	hs_report_totals(rep, cfg->expect, &tot);
	revocation_stats(rep, &to_revoked, &to_last_out, &longest);
	fputs("{\"device\":", out);
	json_string(out, cfg->device);
	fprintf(out, ",\"trigger\":\"%s\",\"clients\":%u,\"readers\":%u,\"pollers\":%u"
		",\"processes\":%s", trigger_name(cfg->trigger), cfg->clients, cfg->readers,
		cfg->pollers, cfg->processes ? "true" : "false");
	fprintf(out, ",\"mix\":{\"xcmd\":%u,\"readmem\":%u},\"seed\":%" PRIu64
		",\"deadline_ms\":%.3f,\"elapsed_ms\":%.3f,\"expect\":[",
		cfg->mix_xcmd, 100 - cfg->mix_xcmd, cfg->seed, cfg->deadline_ns / 1e6,
		rep->elapsed_ns / 1e6);
	for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++) {
		if (!cfg->expect[slot])
			continue;
		fprintf(out, "%s\"%s\"", first ? "" : ",", hs_outcome_name(slot, name));
		first = false;
	}
	fprintf(out, "],\"calls\":%" PRIu64 ",\"unexpected\":%" PRIu64 ",\"totals\":",
		tot.calls, tot.unexpected);
	json_counts(out, (const uint64_t (*)[HS_OUTCOME_SLOTS])tot.count);
	fputs(",\"per_client\":[", out);
	for (c = 0; c < rep->nclients; c++) {
		fprintf(out, "%s{\"client\":%u,\"role\":", c ? "," : "", c);
		json_string(out, rep->roles ? rep->roles[c] : "client");
		fputs(",\"counts\":", out);
		json_counts(out, (const uint64_t (*)[HS_OUTCOME_SLOTS])rep->clients[c].count);
		fputc('}', out);
	}
	fprintf(out, "],\"unplugs\":%u,\"plugs\":%u,\"trigger_errors\":%u,\"revocation\":{",
		rep->nrevocations, rep->plugs, rep->trigger_errors);
	json_span(out, "trigger_to_revoked", &to_revoked);
	fputc(',', out);
	json_span(out, "trigger_to_last_out", &to_last_out);
	fprintf(out, ",\"longest_inflight_us\":%.1f,\"events\":[", longest / 1e3);
	for (i = 0; i < rep->nrevocations; i++) {
		const struct hs_revocation *r = &rep->revocations[i];

		fprintf(out, "%s{\"trigger_us\":%.1f,\"revoked_us\":%.1f,\"last_out_us\":%.1f,"
			"\"inflight\":%u,\"longest_inflight_us\":%.1f}", i ? "," : "",
			r->trigger_ns / 1e3, r->revoked_ns / 1e3, r->last_out_ns / 1e3,
			r->inflight, r->longest_inflight_ns / 1e3);
	}
	fprintf(out, "]},\"uevents_sent\":%u,\"uevents_seen\":%u,\"monitor\":%s,\"hung\":%u"
		",\"workers_died\":%u", rep->uevents_sent, rep->uevents_seen,
		rep->monitor_ok ? "true" : "false", rep->hung, rep->workers_died);
	fprintf(out, ",\"daemon_alive\":%s", !rep->daemon_checked ? "null" :
		rep->daemon_alive ? "true" : "false");
	if (rep->have_zombies)
		fprintf(out, ",\"zombie_accesses\":%" PRIu64, rep->zombie_accesses);
	else
		fputs(",\"zombie_accesses\":null", out);
	fprintf(out, ",\"verdict\":\"%s\"}\n", hs_report_verdict(rep, cfg) ? "fail" : "pass");
	return ferror(out) ? -EIO : 0;
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
