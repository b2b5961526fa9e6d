// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hs_report.c - hotplug_sim's report: totals add up, the verdict
 * follows the expected set / hangs / daemon death / trigger errors, and the
 * JSON and CSV outputs have the documented shape.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotplug_sim/hs.h"
#include "../check_run.h"

/*
 * A made-up run: client 0 did 10 ok XCMD and 3 ENODEV; client 1 (reader) 1
 * ok event and 1 ENODEV event; client 2 (client) 5 ok READMEM, 2 ENODEV opens.
 */
struct fixture {
	struct hs_config cfg;
	struct hs_report rep;
	struct hs_client_counts counts[3];
	const char *roles[3];
	struct hs_revocation revs[2];
	struct hs_plug plug_evs[1];
};

static struct fixture *make_fixture(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	ck_assert_ptr_nonnull(f);
	hs_config_init(&f->cfg);
	f->counts[0].count[HS_OP_XCMD][0] = 10;
	f->counts[0].count[HS_OP_XCMD][ENODEV] = 3;
	f->counts[1].count[HS_OP_EVENT][0] = 1;
	f->counts[1].count[HS_OP_EVENT][ENODEV] = 1;
	f->counts[2].count[HS_OP_READMEM][0] = 5;
	f->counts[2].count[HS_OP_OPEN][ENODEV] = 2;
	f->roles[0] = "client";
	f->roles[1] = "reader";
	f->roles[2] = "client";
	f->revs[0] = (struct hs_revocation){ .trigger_ns = 1000000, .revoked_ns = 1100000,
					     .last_out_ns = 1300000, .inflight = 2,
					     .longest_inflight_ns = 900000, .daemon_waited = 2,
					     .daemon_wait_ns = 250000 };
	f->revs[1] = (struct hs_revocation){ .trigger_ns = 5000000, .revoked_ns = 5300000,
					     .last_out_ns = 5400000, .inflight = 1,
					     .longest_inflight_ns = 400000, .daemon_waited = 1,
					     .daemon_wait_ns = 150000 };
	f->rep.nclients = 3;
	f->rep.clients = f->counts;
	f->rep.roles = f->roles;
	f->rep.revocations = f->revs;
	f->rep.nrevocations = 2;
	f->rep.plugs = 1;
	f->plug_evs[0] = (struct hs_plug){ .trigger_ns = 3000000, .plugged_ns = 3250000 };
	f->rep.plug_events = f->plug_evs;
	f->rep.daemon_checked = true;
	f->rep.daemon_alive = true;
	f->rep.elapsed_ns = 2000000000ull;
	return f;
}

/* Capture the JSON report into a NUL-terminated heap string. */
static char *capture_json(const struct fixture *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(hs_report_json(&f->rep, &f->cfg, out), 0);
	fclose(out);
	return buf;
}

START_TEST(totals_add_up)
{
	struct fixture *f = make_fixture();
	struct hs_totals tot;
	uint64_t sum = 0;

	hs_report_totals(&f->rep, f->cfg.expect, &tot);
	ck_assert_uint_eq(tot.calls, 22);
	ck_assert_uint_eq(tot.unexpected, 0);
	ck_assert_uint_eq(tot.count[HS_OP_XCMD][0], 10);
	ck_assert_uint_eq(tot.count[HS_OP_XCMD][ENODEV], 3);
	ck_assert_uint_eq(tot.count[HS_OP_OPEN][ENODEV], 2);
	for (int op = 0; op < HS_OP_COUNT; op++)
		for (int s = 0; s < HS_OUTCOME_SLOTS; s++)
			sum += tot.count[op][s];
	ck_assert_uint_eq(sum, tot.calls);
	free(f);
}
END_TEST

START_TEST(verdict_rules)
{
	struct fixture *f = make_fixture();
	char err[HS_ERR_MAX];
	struct hs_totals tot;

	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 0);

	/* ENODEV no longer expected: 3 + 1 + 2 unexpected calls. */
	ck_assert_int_eq(hs_parse_expect("ok", f->cfg.expect, err), 0);
	hs_report_totals(&f->rep, f->cfg.expect, &tot);
	ck_assert_uint_eq(tot.unexpected, 6);
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 1);
	ck_assert_int_eq(hs_parse_expect("ok,ENODEV", f->cfg.expect, err), 0);

	f->counts[2].count[HS_OP_READMEM][HS_OUTCOME_EC_ERROR] = 1;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 1);
	f->cfg.expect[HS_OUTCOME_EC_ERROR] = true;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 0);

	f->rep.hung = 1;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 1);
	f->rep.hung = 0;
	f->rep.daemon_alive = false;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 1);
	f->rep.daemon_checked = false;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 0);
	f->rep.trigger_errors = 1;
	ck_assert_int_eq(hs_report_verdict(&f->rep, &f->cfg), 1);
	free(f);
}
END_TEST

START_TEST(json_shape)
{
	struct fixture *f = make_fixture();
	char *json;
	int depth = 0;

	snprintf(f->cfg.device, sizeof(f->cfg.device), "cros_ec");
	json = capture_json(f);
	/* One object on one line, braces and brackets balanced. */
	ck_assert_int_eq(json[0], '{');
	ck_assert_int_eq(json[strlen(json) - 1], '\n');
	ck_assert(strchr(json, '\n') == json + strlen(json) - 1);
	for (const char *p = json; *p; p++) {
		if (*p == '{' || *p == '[')
			depth++;
		if (*p == '}' || *p == ']')
			depth--;
		ck_assert_int_ge(depth, 0);
	}
	ck_assert_int_eq(depth, 0);
	ck_assert_ptr_nonnull(strstr(json, "\"device\":\"cros_ec\""));
	ck_assert_ptr_nonnull(strstr(json, "\"calls\":22,\"unexpected\":0"));
	ck_assert_ptr_nonnull(strstr(json, "\"xcmd\":{\"ok\":10,\"ENODEV\":3}"));
	ck_assert_ptr_nonnull(strstr(json, "\"expect\":[\"ok\",\"ENODEV\"]"));
	ck_assert_ptr_nonnull(strstr(json, "\"role\":\"reader\""));
	ck_assert_ptr_nonnull(strstr(json,
		"\"trigger_to_revoked\":{\"n\":2,\"min_us\":100.0,\"mean_us\":200.0,\"max_us\":300.0}"));
	ck_assert_ptr_nonnull(strstr(json,
		"\"trigger_to_last_out\":{\"n\":2,\"min_us\":300.0,\"mean_us\":350.0,\"max_us\":400.0}"));
	ck_assert_ptr_nonnull(strstr(json, "\"longest_inflight_us\":900.0"));
	/* The daemon's own figures: its wait, the accesses it waited for. */
	ck_assert_ptr_nonnull(strstr(json,
		"\"daemon_wait\":{\"n\":2,\"min_us\":150.0,\"mean_us\":200.0,\"max_us\":250.0}"));
	ck_assert_ptr_nonnull(strstr(json, "\"daemon_waited_total\":3,\"daemon_waited_max\":2"));
	ck_assert_ptr_nonnull(strstr(json, "\"daemon_waited\":2,\"daemon_wait_us\":250.0"));
	ck_assert_ptr_nonnull(strstr(json, "\"daemon_pid\":null,\"daemon_alive\":true"));
	ck_assert_ptr_nonnull(strstr(json, "\"plugs\":1,\"trigger_errors\":0,"));
	ck_assert_ptr_nonnull(strstr(json, "]},\"plug_events\":[{\"plug_us\":3000.0,"
					   "\"plugged_us\":3250.0}],\"uevents_sent\""));
	ck_assert_ptr_nonnull(strstr(json, "\"zombie_accesses\":null"));
	ck_assert_ptr_nonnull(strstr(json, "\"verdict\":\"pass\""));
	ck_assert_ptr_nonnull(strstr(json, "\"flap_planned_ms\":0.000,\"flap_ran_ms\":0.000"));
	/* Every op has its latency entry, null figures where no call was made. */
	ck_assert_ptr_nonnull(strstr(json, "\"latency_us\":{\"open\":{\"n\":0,\"p50\":null,"
					   "\"p90\":null,\"p99\":null,\"max\":null},\"xcmd\":{"));
	ck_assert_ptr_nonnull(strstr(json, "\"poll\":{\"n\":0,"));
	free(json);
	hs_latency_record(&f->counts[1], HS_OP_XCMD, 1500000);
	hs_latency_record(&f->counts[0], HS_OP_XCMD, 2500);
	json = capture_json(f);
	ck_assert_msg(strstr(json, "\"xcmd\":{\"n\":2,\"p50\":2.6,\"p90\":1500.0,"
				   "\"p99\":1500.0,\"max\":1500.0}"), "%s", json);
	free(json);
	f->rep.planned_ns = 1000000000ull;
	f->rep.scheduled_ran_ns = 2021500000ull;
	json = capture_json(f);
	ck_assert_ptr_nonnull(strstr(json,
		"\"flap_planned_ms\":1000.000,\"flap_ran_ms\":2021.500"));
	free(json);

	/* Unknown figures are null, the verdict follows, odd names are escaped. */
	f->rep.nrevocations = 0;
	f->rep.daemon_checked = false;
	f->rep.have_zombies = true;
	f->rep.zombie_accesses = 17;
	f->rep.hung = 2;
	snprintf(f->cfg.device, sizeof(f->cfg.device), "a\"b\\c");
	json = capture_json(f);
	ck_assert_ptr_nonnull(strstr(json, "\"trigger_to_revoked\":null"));
	ck_assert_ptr_nonnull(strstr(json, "\"daemon_alive\":null"));
	f->rep.daemon_pid = 4242;
	free(json);
	json = capture_json(f);
	ck_assert_ptr_nonnull(strstr(json, "\"daemon_pid\":4242,"));
	ck_assert_ptr_nonnull(strstr(json, "\"zombie_accesses\":17"));
	ck_assert_ptr_nonnull(strstr(json, "\"hung\":2"));
	ck_assert_ptr_nonnull(strstr(json, "\"device\":\"a\\\"b\\\\c\""));
	ck_assert_ptr_nonnull(strstr(json, "\"verdict\":\"fail\""));
	free(json);
	free(f);
}
END_TEST

/* A flap that ran late is named with its figures; timer slack is not. */
START_TEST(schedule_slip)
{
	static const struct {
		unsigned int cycles;
		uint64_t period_ns, ran_ns;
		bool late;
	} rows[] = {
		{ 50, 200000000ull, 20200000000ull, true },	/* the run */
		{ 50, 200000000ull, 11000000000ull, false },	/* a tenth over: slack */
		{ 50, 200000000ull, 11000000001ull, true },
		{ 5, 1000000ull, 14000000ull, false },		/* 9 ms over: slack */
		{ 5, 1000000ull, 15000001ull, true },
		{ 10, 20000000ull, 150000000ull, false },	/* early */
		{ 0, 20000000ull, 50000000ull, true },		/* stopped at once */
	};
	char text[HS_ERR_MAX];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		text[0] = '\0';
		ck_assert_msg(hs_schedule_slip(rows[i].cycles, rows[i].period_ns, rows[i].ran_ns,
					       text, sizeof(text)) == rows[i].late, "row %zu", i);
		ck_assert(rows[i].late == !!text[0]);
	}
	ck_assert(hs_schedule_slip(50, 200000000ull, 20200000000ull, text, sizeof(text)));
	ck_assert_str_eq(text, "flap of 50 cycles planned 10.000 s (50 x 200.0 ms), ran 20.200 s "
			 "(404.0 ms a cycle): each unplug waits for its revoke, each plug for the daemon");
}
END_TEST

/* The histogram: every latency lands in a bucket whose top is within 1/8. */
START_TEST(latency_buckets)
{
	uint64_t ns, top, samples[] = { 0, 1, 7, 8, 9, 15, 16, 17, 1000, 1023, 1024, 1025,
					999999, 1000000, 123456789, 1ull << 40, UINT64_MAX - 1,
					UINT64_MAX };
	unsigned int b;

	for (b = 0; b < HS_LAT_BUCKETS; b++) {
		top = hs_latency_bucket_top(b);
		ck_assert_msg(hs_latency_bucket(top) == b, "bucket %u: top %" PRIu64, b, top);
		if (b + 1 < HS_LAT_BUCKETS)
			ck_assert_uint_eq(hs_latency_bucket(top + 1), b + 1);
	}
	ck_assert_uint_eq(hs_latency_bucket(UINT64_MAX), HS_LAT_BUCKETS - 1);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		ns = samples[i];
		top = hs_latency_bucket_top(hs_latency_bucket(ns));
		ck_assert_msg(top >= ns && top - ns <= ns / 8, "%" PRIu64 " -> %" PRIu64, ns, top);
	}
}
END_TEST

/* Nearest-rank percentiles from the histogram, capped by the exact max. */
START_TEST(latency_percentiles)
{
	struct hs_client_counts *c = calloc(1, sizeof(*c));
	struct hs_latency_summary l;
	int i;

	ck_assert_ptr_nonnull(c);
	hs_latency_summarize(c->latency[HS_OP_XCMD], 0, &l);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_uint_eq(l.p50 | l.p90 | l.p99 | l.max, 0);
	for (i = 0; i < 100; i++)
		hs_latency_record(c, HS_OP_XCMD, 1000);
	hs_latency_summarize(c->latency[HS_OP_XCMD], c->latency_max_ns[HS_OP_XCMD], &l);
	ck_assert_uint_eq(l.n, 100);
	ck_assert_uint_eq(l.p50, 1000);		/* the bucket's top, capped by the max */
	ck_assert_uint_eq(l.p99, 1000);
	ck_assert_uint_eq(l.max, 1000);
	/* 90 fast, 9 slow, 1 very slow: p90 is fast, p99 slow, max the slowest. */
	memset(c, 0, sizeof(*c));
	for (i = 0; i < 90; i++)
		hs_latency_record(c, HS_OP_READMEM, 100);
	for (i = 0; i < 9; i++)
		hs_latency_record(c, HS_OP_READMEM, 20000);
	hs_latency_record(c, HS_OP_READMEM, 5000000);
	hs_latency_summarize(c->latency[HS_OP_READMEM], c->latency_max_ns[HS_OP_READMEM], &l);
	ck_assert_uint_eq(l.n, 100);
	ck_assert_uint_eq(l.p50, hs_latency_bucket_top(hs_latency_bucket(100)));
	ck_assert_uint_eq(l.p90, hs_latency_bucket_top(hs_latency_bucket(100)));
	ck_assert_uint_eq(l.p99, hs_latency_bucket_top(hs_latency_bucket(20000)));
	ck_assert_uint_eq(l.max, 5000000);
	/* Other ops are untouched. */
	ck_assert_uint_eq(c->latency_max_ns[HS_OP_XCMD], 0);
	free(c);
}
END_TEST

START_TEST(csv_shape)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int rows = 0;

	ck_assert_ptr_nonnull(out);
	hs_csv_header(out);
	hs_csv_row(out, 1234, 0, HS_OP_XCMD, 0, 56);
	hs_csv_row(out, 1300, 3, HS_OP_EVENT, ENODEV, 7);
	hs_csv_row(out, 1400, 2, HS_OP_READMEM, HS_OUTCOME_EC_ERROR, 9);
	fclose(out);
	line = strtok_r(buf, "\n", &save);
	ck_assert_str_eq(line, "timestamp_us,client,op,outcome,latency_us");
	while ((line = strtok_r(NULL, "\n", &save))) {
		int commas = 0;

		for (const char *p = line; *p; p++)
			commas += *p == ',';
		ck_assert_int_eq(commas, 4);
		rows++;
	}
	ck_assert_int_eq(rows, 3);
	free(buf);

	buf = NULL;
	out = open_memstream(&buf, &len);
	hs_csv_row(out, 1300, 3, HS_OP_EVENT, ENODEV, 7);
	fclose(out);
	ck_assert_str_eq(buf, "1300,3,event,ENODEV,7\n");
	free(buf);
}
END_TEST

START_TEST(human_summary)
{
	struct fixture *f = make_fixture();
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	f->counts[0].count[HS_OP_XCMD][EIO] = 4;
	hs_report_human(&f->rep, &f->cfg, out);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "26 calls, 4 unexpected"));
	ck_assert_ptr_nonnull(strstr(buf, "EIO=4(!)"));
	ck_assert_ptr_nonnull(strstr(buf, "unplugs 2, plugs 1"));
	ck_assert_ptr_nonnull(strstr(buf, "accesses revokes waited for  3 in all, at most 2"));
	ck_assert_ptr_nonnull(strstr(buf, "verdict: FAIL"));
	ck_assert_ptr_nonnull(strstr(buf, "  #0   client  xcmd ok=10 EIO=4 ENODEV=3\n"));
	ck_assert_ptr_nonnull(strstr(buf, "  #2   client  open ENODEV=2 | readmem ok=5\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\ndaemon alive\n"));
	/* No latency recorded: the header, no row. */
	ck_assert_ptr_nonnull(strstr(buf, "call latency (us)"));
	ck_assert_ptr_null(strstr(buf, "  xcmd                 "));
	free(buf);
	/* With its pid known (--daemon-pid or the control socket's peer). */
	f->rep.daemon_pid = 4242;
	f->rep.daemon_alive = false;
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	hs_report_human(&f->rep, &f->cfg, out);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "\ndaemon (pid 4242) GONE\n"));
	free(buf);
	/* A row per op that made calls: count, p50, p90, p99, max in us. */
	hs_latency_record(&f->counts[0], HS_OP_XCMD, 1500000);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	hs_report_human(&f->rep, &f->cfg, out);
	fclose(out);
	ck_assert_msg(strstr(buf, "\n  xcmd                       1     1500.0     1500.0     1500.0"
			      "     1500.0\n"), "%s", buf);
	free(buf);
	free(f);
}
END_TEST

/* Write @f's JSON report to DIR/NAME.json. */
static void write_sample(const struct fixture *f, const char *dir, const char *name)
{
	char path[4096];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	out = fopen(path, "w");
	ck_assert_msg(out != NULL, "cannot write %s", path);
	ck_assert_int_eq(hs_report_json(&f->rep, &f->cfg, out), 0);
	ck_assert_int_eq(fclose(out), 0);
}

/*
 * With HS_REPORT_SAMPLES=DIR: the reports of three made-up runs, for
 * report-schema.test to hold against docs/hotplug_sim-report.schema.json:
 * pass.json (every figure known), crashed.json (the daemon gone, nothing
 * it counts known), idle.json (no client, no unplug).
 */
START_TEST(samples_for_the_schema)
{
	const char *dir = getenv("HS_REPORT_SAMPLES");
	struct fixture *f;

	if (!dir)
		return;
	f = make_fixture();
	hs_latency_record(&f->counts[0], HS_OP_XCMD, 250000);
	hs_latency_record(&f->counts[2], HS_OP_OPEN, 12000);
	f->rep.daemon_pid = 4242;
	f->rep.have_zombies = true;
	f->rep.planned_ns = 200000000ull;
	f->rep.scheduled_ran_ns = 260000000ull;
	write_sample(f, dir, "pass");
	f->rep.daemon_alive = false;
	f->rep.have_zombies = false;
	f->revs[1].revoked_ns = 0;
	f->revs[1].last_out_ns = 0;
	write_sample(f, dir, "crashed");
	f->rep.nclients = 0;
	f->rep.nrevocations = 0;
	f->rep.plugs = 0;
	f->rep.daemon_checked = false;
	f->rep.daemon_pid = 0;
	f->cfg.clients = 0;
	write_sample(f, dir, "idle");
	free(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hs_report");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, totals_add_up);
	tcase_add_test(tc, verdict_rules);
	tcase_add_test(tc, json_shape);
	tcase_add_test(tc, csv_shape);
	tcase_add_test(tc, latency_buckets);
	tcase_add_test(tc, latency_percentiles);
	tcase_add_test(tc, schedule_slip);
	tcase_add_test(tc, human_summary);
	tcase_add_test(tc, samples_for_the_schema);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
