/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hs_internal.h - the run's private state, shared by the scenario player
 * (hs_run.c) and the client workers (hs_worker.c).
 */
#ifndef HOTPLUG_SIM_HS_INTERNAL_H
#define HOTPLUG_SIM_HS_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/common.h"
#include "ctl/ctl.h"
#include "hs.h"

#define OPEN_BACKOFF_NS		1000000ull	/* between failed opens: no busy loop */
#define STATUS_POLL_NS		1000000ull	/* daemon state polls: often, not hogging one CPU */
#define POLL_SLICE_MS		50		/* pollers look at the stop flag this often */
#define MAX_UUIDS		4096		/* sent UUIDs remembered for the monitor */
#define HELLO_VALUE		0x12345678u

enum worker_role { ROLE_CLIENT, ROLE_READER, ROLE_POLLER };

struct csv_rec {
	uint64_t start_ns;
	uint64_t latency_ns;
	uint16_t op;
	uint16_t slot;
	uint32_t client;
};

struct hs_runner;

/**
 * struct worker - one thread holding a file on the device.
 * @run:          the run
 * @index:        client number in the report
 * @role:         client, reader or poller
 * @thread:       the thread
 * @started:      the thread (or process) was created
 * @exited:       the worker loop returned (safe to join / reap)
 * @pid:          --processes: the worker's process
 * @csv_spill:    --processes: where the child leaves its CSV records
 * @call_start:   run-clock start of the current call, 0 between calls
 * @call_op:      the current call's op
 * @calls_done:   finished calls
 * @last_done:    run-clock end of the latest finished call
 * @cap_gen:      revocation generation of the capture below
 * @cap_start:    start of the call in flight at that revocation's trigger
 * @cap_end:      ... and its end
 * @hung_start:   @call_start of a call already counted as hung
 * @rng:          xorshift state for the op mix
 * @recs:         CSV records (only with --csv)
 * @nrecs:        used
 * @cap_recs:     allocated
 */
struct worker {
	struct hs_runner *run;
	unsigned int index;
	enum worker_role role;
	pthread_t thread;
	bool started;
	atomic_bool exited;
	pid_t pid;
	FILE *csv_spill;
	atomic_uint_fast64_t call_start;
	atomic_int call_op;
	atomic_uint_fast64_t calls_done;
	atomic_uint_fast64_t last_done;
	atomic_uint_fast64_t cap_gen;
	atomic_uint_fast64_t cap_start;
	atomic_uint_fast64_t cap_end;
	uint64_t hung_start;
	uint64_t rng;
	struct csv_rec *recs;
	size_t nrecs;
	size_t cap_recs;
};

/**
 * struct hs_runner - the whole run's state (no globals).
 * @cfg:          the configuration
 * @rep:          the report being filled
 * @t0_ns:        mono_now_ns() at start; the run clock counts from it (+1 ns
 *                so that 0 can mean "not in a call")
 * @stop:         workers should finish
 * @stop_pipe:    readable once @stop is set: wakes the monitor
 * @workers:      every worker
 * @counts:       what the workers count into (copied to the report at
 *                the end, so a worker left behind never writes the report)
 * @nworkers:     how many started
 * @revoke_gen:   bumped at every unplug trigger
 * @revoke_trigger: run-clock time of the latest unplug trigger
 * @ctl:          control-socket connection (fd -1: none)
 * @plugged:      the player's idea of the EC state
 * @rng:          the player's random state (from --seed)
 * @udev:         libudev context (monitor)
 * @mon:          the monitor
 * @mon_thread:   its thread
 * @mon_started:  the thread runs
 * @uuid_lock:    protects the UUID list
 * @uuids:        UUIDs written so far
 * @nuuids:       how many
 * @seen:         how many came back on the monitor
 * @rev_cap:      room in rep->revocations
 * @plug_cap:     room in rep->plug_events
 * @step:         the scenario step being played (index into cfg->steps)
 * @next_progress_ns: when the next --progress line is due (run clock)
 */
struct hs_runner {
	const struct hs_config *cfg;
	struct hs_report *rep;
	uint64_t t0_ns;
	atomic_bool stop;
	int stop_pipe[2];
	struct worker *workers;
	struct hs_client_counts *counts;
	unsigned int nworkers;
	atomic_uint_fast64_t revoke_gen;
	atomic_uint_fast64_t revoke_trigger;
	struct ctl_conn ctl;
	bool plugged;
	uint64_t rng;
	struct udev *udev;
	struct udev_monitor *mon;
	pthread_t mon_thread;
	bool mon_started;
	pthread_mutex_t uuid_lock;
	char (*uuids)[37];
	unsigned int nuuids;
	unsigned int seen;
	unsigned int rev_cap;
	unsigned int plug_cap;
	unsigned int step;
	uint64_t next_progress_ns;
};

static inline uint64_t run_now(const struct hs_runner *run)
{
	return mono_now_ns() - run->t0_ns + 1;
}

/* hs_worker.c: start, collect and reap the client workers. */
int worker_start(struct worker *w);
void *shared_alloc(size_t size);
int write_csv(struct hs_runner *run);
void reap_worker(struct hs_runner *run, struct worker *w);

#endif /* HOTPLUG_SIM_HS_INTERNAL_H */
