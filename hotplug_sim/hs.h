/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hs.h - hotplug_sim's testable core: the configuration, the parsers that
 * fill it (command line, scenario files, op mixes, durations, errno lists,
 * synthetic uevent lines) and the report (outcome counts, revocation
 * measurements, human / JSON / CSV output, the exit verdict).
 *
 * Nothing here touches a device, a socket or a thread: the runner
 * (hs_run.c) does that and only fills struct hs_report.
 */
#ifndef HOTPLUG_SIM_HS_H
#define HOTPLUG_SIM_HS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Hard limits: a typo must not make the simulator fork-bomb the host. */
#define HS_MAX_CLIENTS		256
#define HS_MAX_READERS		64
#define HS_MAX_POLLERS		64
#define HS_MAX_STEPS		1024
#define HS_MAX_CYCLES		1000000u
#define HS_MAX_DURATION_NS	(3600ull * 1000000000ull)	/* one hour */
#define HS_NAME_MAX		64
#define HS_PATH_MAX		512
#define HS_UEVENT_ARGS_MAX	8
#define HS_UEVENT_KEY_MAX	32
#define HS_UEVENT_VAL_MAX	64
#define HS_UEVENT_LINE_MAX	512
#define HS_ERR_MAX		256

/*
 * Outcomes are counted in slots: 0 = ok, 1..HS_ERRNO_SLOTS-1 = that errno,
 * then one slot for "the EC answered with a non-success status" and one for
 * anything else (an errno beyond the table).
 */
#define HS_ERRNO_SLOTS		134
#define HS_OUTCOME_EC_ERROR	HS_ERRNO_SLOTS
#define HS_OUTCOME_OTHER	(HS_ERRNO_SLOTS + 1)
#define HS_OUTCOME_SLOTS	(HS_ERRNO_SLOTS + 2)

/**
 * enum hs_op - what a client thread does in one call.
 * @HS_OP_OPEN:    open the node and run the 4-step start-up
 * @HS_OP_XCMD:    host command HELLO through XCMD
 * @HS_OP_READMEM: READMEM of the "EC" id bytes
 * @HS_OP_EVENT:   a blocked MKBP reader's poll + read
 * @HS_OP_POLL:    a poller's poll()
 */
enum hs_op {
	HS_OP_OPEN,
	HS_OP_XCMD,
	HS_OP_READMEM,
	HS_OP_EVENT,
	HS_OP_POLL,
	HS_OP_COUNT,
};

/** enum hs_trigger - how an unplug / plug reaches the daemon. */
enum hs_trigger {
	HS_TRIGGER_UEVENT,	/* synthetic uevent written to sysfs */
	HS_TRIGGER_CONTROL,	/* "unplug" / "plug" on the control socket */
};

/** enum hs_step_kind - one action of a scenario. */
enum hs_step_kind {
	HS_STEP_UNPLUG,
	HS_STEP_PLUG,
	HS_STEP_SLEEP,		/* @duration_ns */
	HS_STEP_FLAP,		/* @count cycles, @period_ns, @jitter_ns, @duration_ns */
	HS_STEP_INFLIGHT,	/* unplug while an XCMD sleeps @latency_ns in the EC */
	HS_STEP_RANDOM,		/* @count random actions, @period_ns, @duration_ns */
	HS_STEP_FAULT,		/* the daemon's "fault @fault" (cuse_ec(8)) */
};

/* Room for a fault rule's text, as cuse_ec's "fault" verb takes it. */
#define HS_FAULT_TEXT_MAX 96

/**
 * struct hs_step - one scenario action.
 * @kind:        what to do
 * @count:       cycles (flap) or actions (random)
 * @duration_ns: sleep: its length; flap, random: stop once this long has
 *               passed, even before @count (0: no limit)
 * @period_ns:   flap: time per cycle (half unplugged, half plugged);
 *               random: the longest random sleep
 * @jitter_ns:   flap: each half-period varies by up to +/- this
 * @latency_ns:  inflight: latency injected for the race
 * @fault:       fault: the rule, one word, checked by the daemon
 * @line:        scenario-file line it came from (0: from options)
 */
struct hs_step {
	enum hs_step_kind kind;
	unsigned int count;
	uint64_t duration_ns;
	uint64_t period_ns;
	uint64_t jitter_ns;
	uint64_t latency_ns;
	char fault[HS_FAULT_TEXT_MAX];
	unsigned int line;
};

/** struct hs_uevent_arg - one KEY=VAL appended to synthetic uevents. */
struct hs_uevent_arg {
	char key[HS_UEVENT_KEY_MAX + 1];
	char val[HS_UEVENT_VAL_MAX + 1];
};

/**
 * struct hs_config - everything one run needs.
 * @device:        device name (node /dev/@device)
 * @sysfs_uevent:  the uevent file written by the uevent trigger
 * @control:       daemon control socket ("" = none)
 * @trigger:       uevent or control
 * @clients:       XCMD/READMEM client threads
 * @readers:       blocked MKBP reader threads
 * @pollers:       poller threads
 * @mix_xcmd:      percentage of client calls that are XCMD (rest READMEM)
 * @steps:         the scenario
 * @nsteps:        entries used in @steps
 * @seed:          random seed (random scenario, flap jitter)
 * @deadline_ns:   a call outstanding longer than this is hung
 * @progress_ns:   print a progress line this often (0: never)
 * @expect:        expect[slot] = outcome slot allowed
 * @daemon_pid:    daemon pid to check for survival (0 = unknown)
 * @uevent_args:   KEY=VAL pairs appended to every synthetic uevent
 * @nuevent_args:  entries used in @uevent_args
 * @json_path:     write the JSON report here ("" = no)
 * @csv_path:      write one CSV row per call here ("" = no)
 * @monitor:       watch uevents with libudev and correlate SYNTH_UUIDs
 * @processes:     run each worker as a process instead of a thread
 * @quiet:         no human summary
 */
struct hs_config {
	char device[HS_NAME_MAX + 1];
	char sysfs_uevent[HS_PATH_MAX];
	char control[HS_PATH_MAX];
	enum hs_trigger trigger;
	unsigned int clients;
	unsigned int readers;
	unsigned int pollers;
	unsigned int mix_xcmd;
	struct hs_step steps[HS_MAX_STEPS];
	unsigned int nsteps;
	uint64_t seed;
	uint64_t deadline_ns;
	uint64_t progress_ns;
	bool expect[HS_OUTCOME_SLOTS];
	long daemon_pid;
	struct hs_uevent_arg uevent_args[HS_UEVENT_ARGS_MAX];
	unsigned int nuevent_args;
	char json_path[HS_PATH_MAX];
	char csv_path[HS_PATH_MAX];
	bool monitor;
	bool processes;
	bool quiet;
};

/*
 * ---- parsers: each returns 0 or -EINVAL with a one-line reason in @err;
 * numbers and durations follow common/common.h's rules ----
 */

/**
 * hs_config_init() - the defaults: device cros_ec, uevent trigger, 4 clients,
 * mix xcmd=70 readmem=30, no readers/pollers, scenario "single", deadline 5s,
 * expect ok,ENODEV.
 * @cfg: the configuration to fill
 */
void hs_config_init(struct hs_config *cfg);

/**
 * hs_parse_mix() - "xcmd=70,readmem=30" (commas or spaces); the
 * percentages must add up to 100; an op left out counts 0.
 * @text:     the text
 * @xcmd_pct: the XCMD share
 * @err:      the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_mix(const char *text, unsigned int *xcmd_pct, char *err);

/**
 * hs_parse_expect() - "ok,ENODEV,EIO" (commas or spaces) into a slot set;
 * "EC_ERROR" allows non-success EC statuses. Replaces @expect.
 * @text:   the text
 * @expect: HS_OUTCOME_SLOTS flags
 * @err:    the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_expect(const char *text, bool *expect, char *err);

/**
 * hs_parse_uevent_arg() - one "KEY=VAL" for synthetic uevents: both
 * non-empty and alphanumeric only (the kernel's rule for synthetic args).
 * @text: the text
 * @arg:  the parsed pair
 * @err:  the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_uevent_arg(const char *text, struct hs_uevent_arg *arg, char *err);

/**
 * hs_format_uevent() - build "ACTION UUID KEY=VAL ..." for a sysfs uevent file.
 * @action: "add" or "remove"
 * @uuid:   36-character UUID text
 * @args:   the pairs (already validated)
 * @nargs:  how many
 * @buf:    receives the line (no newline)
 * @len:    room in @buf
 *
 * Return: the line length, or -EINVAL for another action or a malformed
 * UUID, -ENAMETOOLONG when @buf is too small.
 */
int hs_format_uevent(const char *action, const char *uuid, const struct hs_uevent_arg *args,
		     unsigned int nargs, char *buf, size_t len);

/**
 * hs_format_uuid() - a version-4 UUID text from 128 random bits.
 * @rnd: 16 random bytes
 * @buf: at least 37 bytes
 */
void hs_format_uuid(const uint8_t rnd[16], char *buf);

/**
 * hs_outcome_slot() - the counting slot of a call's return value.
 * @ret: >= 0 for success, -errno, or an EC_CLIENT_EC_ERR() value
 *
 * Return: 0..HS_OUTCOME_SLOTS-1.
 */
unsigned int hs_outcome_slot(int ret);

/**
 * hs_outcome_name() - "ok", "ENODEV", "EC_ERROR", "OTHER" or "E<n>".
 * @slot: an outcome slot
 * @buf:  room for an "E<n>" name (16 bytes)
 *
 * Return: the name (@buf or a constant).
 */
const char *hs_outcome_name(unsigned int slot, char *buf);

/**
 * hs_op_name() - "open", "xcmd", "readmem", "event", "poll".
 * @op: the op
 *
 * Return: the name.
 */
const char *hs_op_name(enum hs_op op);

/**
 * hs_step_name() - the scenario-file keyword of a step kind ("flap").
 * @kind: the kind
 *
 * Return: the keyword, or "?" for a kind that is not one.
 */
const char *hs_step_name(enum hs_step_kind kind);

/**
 * hs_parse_scenario_name() - a built-in scenario by name, appended to the
 * steps: single, replug, flap (uses @cycles, @period_ns, @jitter_ns),
 * inflight (uses @latency_ns), random (uses @cycles, @period_ns).
 * @cfg:       the configuration
 * @name:      the scenario
 * @cycles:    flap cycles / random actions
 * @period_ns: flap period / random longest sleep
 * @jitter_ns: flap jitter
 * @latency_ns: inflight latency
 * @duration_ns: flap/random: stop after this long (0: after the cycles)
 * @err:       the reason on failure
 *
 * Return: 0 or -EINVAL.
 */
int hs_parse_scenario_name(struct hs_config *cfg, const char *name, unsigned int cycles,
			   uint64_t period_ns, uint64_t jitter_ns, uint64_t latency_ns,
			   uint64_t duration_ns, char *err);

/**
 * hs_parse_scenario_file() - read a scenario file (see docs/hotplug-scenarios.md).
 * @cfg:  the configuration; settings lines change it, actions are appended
 * @in:   the open file
 * @name: the file name, for messages
 * @err:  on failure "<name>:<line>: <problem>"
 *
 * Return: 0, -EINVAL for a bad file, -EIO for a read error.
 */
int hs_parse_scenario_file(struct hs_config *cfg, FILE *in, const char *name, char *err);

/**
 * hs_parse_args() - the command line (see hotplug_sim(1)).
 * @cfg:  filled with defaults, then the options
 * @argc: argument count
 * @argv: arguments
 * @err:  the reason on failure
 *
 * Return: 0 to run, 1 when --help / --version printed and nothing should
 * run, -EINVAL for bad usage (message in @err).
 */
int hs_parse_args(struct hs_config *cfg, int argc, char **argv, char *err);

/* ---- the report ---- */

/*
 * Call latencies are counted in a log-scale histogram: eight buckets per
 * power of two (exact below 8 ns), so a percentile read from it is at most
 * one eighth of its value too high, and a client's counts stay a fixed size
 * (they live in shared memory with --processes).
 */
#define HS_LAT_SUB		8
#define HS_LAT_BUCKETS		(HS_LAT_SUB + (64 - 3) * HS_LAT_SUB)

/**
 * struct hs_client_counts - one client's outcomes and call latencies.
 * @count:          calls per op and outcome
 * @latency:        calls per op and latency bucket (hs_latency_bucket())
 * @latency_max_ns: the longest call per op, exact
 */
struct hs_client_counts {
	uint64_t count[HS_OP_COUNT][HS_OUTCOME_SLOTS];
	uint64_t latency[HS_OP_COUNT][HS_LAT_BUCKETS];
	uint64_t latency_max_ns[HS_OP_COUNT];
};

/**
 * hs_latency_bucket() - the histogram bucket of a latency.
 * @ns: the latency
 *
 * Return: 0..HS_LAT_BUCKETS - 1.
 */
unsigned int hs_latency_bucket(uint64_t ns);

/**
 * hs_latency_bucket_top() - the largest latency a bucket holds.
 * @bucket: 0..HS_LAT_BUCKETS - 1
 *
 * Return: the latency in ns.
 */
uint64_t hs_latency_bucket_top(unsigned int bucket);

/**
 * hs_latency_record() - count one call's latency (safe from many threads
 * and processes at once).
 * @counts: the client's counts
 * @op:     the call's op
 * @ns:     its latency
 */
void hs_latency_record(struct hs_client_counts *counts, enum hs_op op, uint64_t ns);

/**
 * struct hs_latency_summary - one op's latencies over a run.
 * @n:   calls
 * @p50: median, ns (the top of the bucket that holds it: at most 1/8 high)
 * @p90: 90th percentile, ns (likewise)
 * @p99: 99th percentile, ns (likewise)
 * @max: the longest, ns, exact
 */
struct hs_latency_summary {
	uint64_t n, p50, p90, p99, max;
};

/**
 * hs_latency_summarize() - percentiles from a histogram (nearest rank).
 * @hist:   HS_LAT_BUCKETS counts
 * @max_ns: the exact maximum (caps the percentiles)
 * @sum:    the summary; all zero when the histogram is empty
 */
void hs_latency_summarize(const uint64_t *hist, uint64_t max_ns, struct hs_latency_summary *sum);

/**
 * struct hs_revocation - one unplug, measured.
 * @trigger_ns:   when the uevent / control line was written (run clock)
 * @revoked_ns:   when the daemon's "revocations" counter (control socket
 *                stats) showed this revocation complete (0 = never seen)
 * @last_out_ns:  when the last call in flight at the trigger returned (0: none)
 * @longest_inflight_ns: longest of those calls, start to return
 * @inflight:     calls the clients had started and not seen return when
 *                the trigger was written (their own view: a rough count)
 * @daemon_waited: accesses the daemon's revoke waited for, as the daemon
 *                counted them (stats revoke_waited_accesses: the order is
 *                the daemon's, not inferred from client clocks)
 * @daemon_wait_ns: the revoke's duration as the daemon measured it
 *                (stats last_revoke_wait_ns); both 0 when not seen
 */
struct hs_revocation {
	uint64_t trigger_ns;
	uint64_t revoked_ns;
	uint64_t last_out_ns;
	uint64_t longest_inflight_ns;
	unsigned int inflight;
	uint64_t daemon_waited;
	uint64_t daemon_wait_ns;
};

/**
 * struct hs_plug - one plug, measured.
 * @trigger_ns: when the uevent / control line was written (run clock)
 * @plugged_ns: when the daemon's status first said "plugged" (0: not
 *              seen, or no control socket to ask)
 */
struct hs_plug {
	uint64_t trigger_ns;
	uint64_t plugged_ns;
};

/**
 * struct hs_report - what a run measured.
 * @nclients:       entries in @clients (clients + readers + pollers)
 * @clients:        per-client counts (the runner allocates)
 * @roles:          per-client role name ("client", "reader", "poller")
 * @revocations:    measured unplugs (the runner allocates)
 * @nrevocations:   entries used
 * @plugs:          plugs triggered
 * @plug_events:    each of them (the runner allocates; @plugs entries)
 * @trigger_errors: trigger writes that failed
 * @hung:           calls outstanding past the deadline
 * @daemon_pid:     the daemon's pid: --daemon-pid, else the control
 *                  socket's peer (0: unknown)
 * @daemon_checked: daemon survival was checked
 * @daemon_alive:   ... and the daemon was alive and answering
 * @zombie_accesses: the daemon's zombie_accesses counter grew by this
 * @have_zombies:   @zombie_accesses is known (control socket stats)
 * @uevents_sent:   synthetic uevents written
 * @uevents_seen:   of those, seen back on the libudev monitor by SYNTH_UUID
 * @monitor_ok:     the monitor ran
 * @threads_left:   some thread never stopped (hung or blocked for good) and
 *                  may still write into @clients: do not free the report
 * @workers_died:   --processes: worker processes that crashed
 * @output_failed:  the CSV file could not be written
 * @elapsed_ns:     run length
 * @planned_ns:     flap steps: their cycles times their periods
 * @scheduled_ran_ns: how long those steps took
 */
struct hs_report {
	unsigned int nclients;
	struct hs_client_counts *clients;
	const char **roles;
	struct hs_revocation *revocations;
	unsigned int nrevocations;
	unsigned int plugs;
	struct hs_plug *plug_events;
	unsigned int trigger_errors;
	unsigned int hung;
	long daemon_pid;
	bool daemon_checked;
	bool daemon_alive;
	uint64_t zombie_accesses;
	bool have_zombies;
	unsigned int uevents_sent;
	unsigned int uevents_seen;
	bool monitor_ok;
	bool threads_left;
	unsigned int workers_died;
	bool output_failed;
	uint64_t elapsed_ns;
	uint64_t planned_ns;
	uint64_t scheduled_ran_ns;
};

/**
 * hs_schedule_slip() - whether a flap ran late, and the warning saying so.
 * @cycles:    cycles it ran
 * @period_ns: its period
 * @ran_ns:    how long they took
 * @text:      the warning (no "warning: " prefix, no newline)
 * @len:       room in @text
 *
 * Late is more than a tenth over the plan, and more than 10 ms: each
 * unplug waits for its revoke, each plug for the daemon, and timer slack
 * alone must not warn.
 *
 * Return: true when late (@text filled), else false.
 */
bool hs_schedule_slip(unsigned int cycles, uint64_t period_ns, uint64_t ran_ns, char *text,
		      size_t len);

/**
 * struct hs_totals - the report summed over clients.
 * @count:      per op and outcome
 * @latency:    per op and latency bucket
 * @latency_max_ns: per op, the longest call
 * @calls:      every call
 * @unexpected: calls whose outcome is outside the expected set
 */
struct hs_totals {
	uint64_t count[HS_OP_COUNT][HS_OUTCOME_SLOTS];
	uint64_t latency[HS_OP_COUNT][HS_LAT_BUCKETS];
	uint64_t latency_max_ns[HS_OP_COUNT];
	uint64_t calls;
	uint64_t unexpected;
};

/**
 * hs_report_totals() - sum the per-client counts.
 * @rep:    the report
 * @expect: the expected outcome set
 * @tot:    the sums
 */
void hs_report_totals(const struct hs_report *rep, const bool *expect, struct hs_totals *tot);

/**
 * hs_report_verdict() - the exit status: 0 when every outcome was expected,
 * nothing hung, no worker process died, no trigger failed and the daemon
 * (when checked) survived; else 1.
 * @rep: the report
 * @cfg: the run's configuration
 *
 * Return: 0 or 1.
 */
int hs_report_verdict(const struct hs_report *rep, const struct hs_config *cfg);

/**
 * hs_report_human() - the summary for a person.
 * @rep: the report
 * @cfg: the configuration
 * @out: where to print
 */
void hs_report_human(const struct hs_report *rep, const struct hs_config *cfg, FILE *out);

/**
 * hs_report_json() - the report as one JSON object.
 * @rep: the report
 * @cfg: the configuration
 * @out: where to write
 *
 * Return: 0 or -EIO.
 */
int hs_report_json(const struct hs_report *rep, const struct hs_config *cfg, FILE *out);

/**
 * hs_csv_header() - the CSV header line.
 * @out: where to write
 */
void hs_csv_header(FILE *out);

/**
 * hs_csv_row() - one call as a CSV row.
 * @out:        where to write
 * @ts_us:      when the call started, microseconds on the run clock
 * @client:     client index
 * @op:         the op
 * @slot:       the outcome slot
 * @latency_us: how long it took
 */
void hs_csv_row(FILE *out, uint64_t ts_us, unsigned int client, enum hs_op op,
		unsigned int slot, uint64_t latency_us);

#endif /* HOTPLUG_SIM_HS_H */
