// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_run.c - the live part of hotplug_sim: the scenario player that
 * triggers unplugs and plugs while the client workers (hs_worker.c) keep
 * files open on the device, the watchdog that spots hung calls, the
 * control-socket client, and a libudev monitor that sees our synthetic
 * uevents come back.
 *
 * Measurement model: every worker publishes the start time of the call it
 * is in (0 when between calls) and counts its finished calls. At an unplug
 * the player notes which workers were inside a call and waits until each
 * has finished that call: the last return is "last call out", the longest
 * of those calls is the longest in-flight call across the revoke.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <unistd.h>

#include <libudev.h>

#include "client/ec_client.h"
#include "ctl/ctl.h"
#include "ctl/ctl_stats.h"
#include "hs_internal.h"
#include "hs_run.h"

/* ---- control socket ---- */

static int ctl_connect(struct hs_runner *run)
{
	return ctl_open(&run->ctl, run->cfg->control);
}

/*
 * One command, one reply line, waited for at most the deadline so a stuck
 * daemon cannot hang the simulator. Return 0 for "ok ...", -EREMOTEIO for
 * any other reply; on a broken connection it is closed and @reply says why.
 * @reply is always filled, with non-printable bytes escaped.
 */
static int ctl_cmd(struct hs_runner *run, const char *cmd, char *reply, size_t len)
{
	uint64_t ms = run->cfg->deadline_ns / 1000000ull;
	char raw[CTL_REPLY_MAX], line[CTL_LINE_MAX + 1];
	int ret;

	if (run->ctl.fd < 0) {
		snprintf(reply, len, "control socket: not connected");
		return -ENOTCONN;
	}
	/*
	 * Addressed to our node: a daemon serving several (cuse_ec --device)
	 * answers for all of them on one socket, and one of a single node
	 * takes its own name too.
	 */
	snprintf(line, sizeof(line), "%c%s %s", CTL_DEVICE_PREFIX, run->cfg->device, cmd);
	ret = ctl_request(&run->ctl, line, raw, sizeof(raw), ms > INT_MAX ? INT_MAX : (int)ms);
	if (ret) {
		ctl_close(&run->ctl);
		snprintf(reply, len, "control socket: %s", strerror(-ret));
		return ret;
	}
	/* Printed on error, parsed otherwise: either way not raw socket bytes. */
	ctl_text_safe(raw, reply, len);
	return ctl_reply_is_ok(raw) ? 0 : -EREMOTEIO;
}

static int ctl_stats(struct hs_runner *run, struct chardev_stats *st)
{
	char reply[CHARDEV_STATS_TEXT_MAX + 16];

	if (ctl_cmd(run, "stats", reply, sizeof(reply)))
		return -EIO;
	/* The daemon's own definition of the counters parses its reply. */
	return chardev_stats_parse(reply, st) > 0 ? 0 : -EPROTO;
}

/* Is the daemon's EC in the @want state ("plugged" / "unplugged")? */
static int ctl_is(struct hs_runner *run, const char *want)
{
	char reply[256], prefix[32];

	if (ctl_cmd(run, "status", reply, sizeof(reply)))
		return -EIO;
	snprintf(prefix, sizeof(prefix), "ok %s ", want);
	return !strncmp(reply, prefix, strlen(prefix));
}

/* ---- the udev monitor ---- */

static void *monitor_main(void *arg)
{
	struct hs_runner *run = arg;
	struct pollfd pfd[2] = {
		{ .fd = udev_monitor_get_fd(run->mon), .events = POLLIN },
		{ .fd = run->stop_pipe[0], .events = POLLIN },
	};

	while (!atomic_load(&run->stop)) {
		struct udev_device *dev;
		const char *uuid;
		unsigned int i;

		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		if (!pfd[0].revents)
			continue;
		dev = udev_monitor_receive_device(run->mon);
		if (!dev)
			continue;
		uuid = udev_device_get_property_value(dev, "SYNTH_UUID");
		if (uuid) {
			pthread_mutex_lock(&run->uuid_lock);
			for (i = 0; i < run->nuuids; i++) {
				if (!strcmp(run->uuids[i], uuid)) {
					run->seen++;
					run->uuids[i][0] = '\0';	/* count it once */
					break;
				}
			}
			pthread_mutex_unlock(&run->uuid_lock);
		}
		udev_device_unref(dev);
	}
	return NULL;
}

static int monitor_start(struct hs_runner *run)
{
	int ret = -ENOMEM;

	run->udev = udev_new();
	if (!run->udev)
		goto fail;
	run->mon = udev_monitor_new_from_netlink(run->udev, "kernel");
	if (!run->mon)
		goto fail;
	ret = udev_monitor_filter_add_match_subsystem_devtype(run->mon, "cuse", NULL);
	if (!ret)
		ret = udev_monitor_enable_receiving(run->mon);
	if (ret)
		goto fail;
	ret = -pthread_create(&run->mon_thread, NULL, monitor_main, run);
	if (ret)
		goto fail;
	run->mon_started = true;
	return 0;
fail:
	if (run->mon)
		udev_monitor_unref(run->mon);
	if (run->udev)
		udev_unref(run->udev);
	run->mon = NULL;
	run->udev = NULL;
	return ret < 0 ? ret : -EIO;
}

/* ---- triggers ---- */

static int write_uevent(struct hs_runner *run, const char *action)
{
	const struct hs_config *cfg = run->cfg;
	char line[HS_UEVENT_LINE_MAX], uuid[37];
	uint8_t rnd[16];
	ssize_t n;
	int fd, len, ret;

	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		for (unsigned int i = 0; i < sizeof(rnd); i++)
			rnd[i] = (uint8_t)xorshift64s_next(&run->rng);
	hs_format_uuid(rnd, uuid);
	len = hs_format_uevent(action, uuid, cfg->uevent_args, cfg->nuevent_args, line,
			       sizeof(line));
	if (len < 0)
		return len;
	pthread_mutex_lock(&run->uuid_lock);
	if (run->nuuids < MAX_UUIDS)
		memcpy(run->uuids[run->nuuids++], uuid, sizeof(uuid));
	pthread_mutex_unlock(&run->uuid_lock);
	fd = open(cfg->sysfs_uevent, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, (size_t)len);
	ret = n == len ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	if (!ret)
		run->rep->uevents_sent++;
	return ret;
}

static int trigger(struct hs_runner *run, bool unplug)
{
	char reply[256];
	int ret;

	if (run->cfg->trigger == HS_TRIGGER_UEVENT) {
		ret = write_uevent(run, unplug ? "remove" : "add");
		if (ret)
			fprintf(stderr, "hotplug_sim: writing %s: %s\n", run->cfg->sysfs_uevent,
				strerror(-ret));
	} else {
		ret = ctl_cmd(run, unplug ? "unplug" : "plug", reply, sizeof(reply));
		if (ret)
			fprintf(stderr, "hotplug_sim: control '%s': %s\n",
				unplug ? "unplug" : "plug", reply);
	}
	if (ret)
		run->rep->trigger_errors++;
	return ret;
}

/* ---- watchdog ---- */

/*
 * Client calls must never take longer than the deadline. A reader or poller
 * may legitimately block forever while the EC is there; it is hung only when
 * an unplug triggered after its call began left it blocked past the deadline.
 */
static void check_hung(struct hs_runner *run)
{
	uint64_t trig = atomic_load(&run->revoke_trigger);
	uint64_t deadline = run->cfg->deadline_ns;
	unsigned int i;

	for (i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->workers[i];
		uint64_t start = atomic_load(&w->call_start);
		int op = atomic_load(&w->call_op);
		/* Read the clock after the start: a call may begin meanwhile. */
		uint64_t now = run_now(run);
		bool hung;

		if (!start || start == w->hung_start || start > now)
			continue;
		/* The op must belong to this start, not to a call begun since. */
		if (atomic_load(&w->call_start) != start)
			continue;
		if (op == HS_OP_EVENT || op == HS_OP_POLL)
			hung = trig && start <= trig && now - trig > deadline;
		else
			hung = now - start > deadline;
		if (!hung)
			continue;
		w->hung_start = start;
		run->rep->hung++;
		/* Named as the summary's per-client lines name it: "#4 (reader)". */
		fprintf(stderr, "hotplug_sim: #%u (%s) hung in %s for %.3f s\n", w->index,
			run->rep->roles[w->index], hs_op_name((enum hs_op)op), (now - start) / 1e9);
	}
}

/*
 * --progress: one line on stderr when it is due, from the main thread
 * (every wait of the scenario passes here), so a long run is never silent.
 */
static void progress(struct hs_runner *run)
{
	const struct hs_config *cfg = run->cfg;
	uint64_t now = run_now(run), calls = 0;
	unsigned int i, op, slot;
	char where[64];

	if (!cfg->progress_ns || now < run->next_progress_ns)
		return;
	run->next_progress_ns = now + cfg->progress_ns;
	for (i = 0; i < run->nworkers; i++)
		for (op = 0; op < HS_OP_COUNT; op++)
			for (slot = 0; slot < HS_OUTCOME_SLOTS; slot++)
				calls += __atomic_load_n(&run->counts[i].count[op][slot],
							 __ATOMIC_RELAXED);
	if (run->step < cfg->nsteps)
		snprintf(where, sizeof(where), "step %u of %u (%s)", run->step + 1, cfg->nsteps,
			 hs_step_name(cfg->steps[run->step].kind));
	else
		snprintf(where, sizeof(where), "stopping the workers");
	fprintf(stderr, "hotplug_sim: %.1f s: %s, %u unplug(s), %u plug(s), %" PRIu64 " calls\n",
		now / 1e9, where, run->rep->nrevocations, run->rep->plugs, calls);
}

/* A pause of a polling loop: progress stays due. */
static void poll_pause(struct hs_runner *run, uint64_t ns)
{
	mono_sleep_ns(ns);
	progress(run);
}

/* Sleep @ns in small slices, watching for hung calls meanwhile. */
static void watch_sleep(struct hs_runner *run, uint64_t ns)
{
	uint64_t end = run_now(run) + ns, now;

	while ((now = run_now(run)) < end) {
		uint64_t left = end - now;

		mono_sleep_ns(left < 5000000ull ? left : 5000000ull);
		check_hung(run);
		progress(run);
	}
}

/* ---- scenario steps ---- */

static struct hs_revocation *new_revocation(struct hs_runner *run)
{
	struct hs_report *rep = run->rep;

	if (rep->nrevocations == run->rev_cap) {
		unsigned int cap = run->rev_cap ? run->rev_cap * 2 : 64;
		struct hs_revocation *grown = realloc(rep->revocations, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		rep->revocations = grown;
		run->rev_cap = cap;
	}
	memset(&rep->revocations[rep->nrevocations], 0, sizeof(struct hs_revocation));
	return &rep->revocations[rep->nrevocations++];
}

static int do_unplug(struct hs_runner *run)
{
	uint64_t done_before[HS_MAX_CLIENTS + HS_MAX_READERS + HS_MAX_POLLERS];
	bool inside[HS_MAX_CLIENTS + HS_MAX_READERS + HS_MAX_POLLERS];
	uint64_t deadline = run->cfg->deadline_ns, trig, gen, limit, revoked_before = 0;
	struct hs_revocation *rev = new_revocation(run);
	struct chardev_stats st;
	unsigned int i, waiting;
	int ret;

	if (!rev)
		return -ENOMEM;
	/*
	 * "Revoked" means the daemon's revocation completed (its counter
	 * moved), not merely that the unplug started: ask before the trigger.
	 */
	if (run->ctl.fd < 0 || ctl_stats(run, &st))
		revoked_before = UINT64_MAX;
	else
		revoked_before = st.revocations;
	trig = run_now(run);
	atomic_store(&run->revoke_trigger, trig);
	gen = atomic_fetch_add(&run->revoke_gen, 1) + 1;
	for (i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->workers[i];
		uint64_t start = atomic_load(&w->call_start);

		done_before[i] = atomic_load(&w->calls_done);
		inside[i] = start && start <= trig;
		rev->inflight += inside[i];
	}
	rev->trigger_ns = trig;
	ret = trigger(run, true);
	if (ret) {
		run->rep->nrevocations--;	/* nothing was unplugged */
		return ret;
	}
	run->plugged = false;

	limit = trig + deadline;
	if (run->ctl.fd >= 0 && revoked_before != UINT64_MAX) {
		while (run_now(run) < limit) {
			if (ctl_stats(run, &st))
				break;
			if (st.revocations > revoked_before) {
				rev->revoked_ns = run_now(run);
				rev->daemon_waited = st.revoke_waited_accesses;
				rev->daemon_wait_ns = st.last_revoke_wait_ns;
				break;
			}
			poll_pause(run, STATUS_POLL_NS);
		}
		if (!rev->revoked_ns)
			fprintf(stderr, "hotplug_sim: daemon did not complete the revocation within the deadline%s\n",
				run->cfg->trigger == HS_TRIGGER_UEVENT ?
				" (does it follow uevents? else use --trigger=control)" : "");
	}

	/* Wait for every call that was inside the device at the trigger. */
	do {
		waiting = 0;
		for (i = 0; i < run->nworkers; i++) {
			struct worker *w = &run->workers[i];
			uint64_t start, end;

			if (!inside[i])
				continue;
			if (atomic_load(&w->calls_done) == done_before[i] &&
			    atomic_load(&w->call_start)) {
				waiting++;
				continue;
			}
			/*
			 * The worker captured the call it was in at the trigger;
			 * without a capture (it ended as the trigger was set)
			 * its latest end is the best we know.
			 */
			start = atomic_load(&w->cap_gen) == gen ? atomic_load(&w->cap_start) : 0;
			end = start ? atomic_load(&w->cap_end) : atomic_load(&w->last_done);

			if (end > rev->last_out_ns)
				rev->last_out_ns = end;
			if (start && end - start > rev->longest_inflight_ns)
				rev->longest_inflight_ns = end - start;
			inside[i] = false;
		}
		if (waiting) {
			mono_sleep_ns(100000ull);
			check_hung(run);
		}
	} while (waiting && run_now(run) < limit);
	return 0;
}

static int do_plug(struct hs_runner *run)
{
	uint64_t limit = run_now(run) + run->cfg->deadline_ns;
	struct hs_report *rep = run->rep;
	struct hs_plug *p;
	int ret;

	if (rep->plugs == run->plug_cap) {
		unsigned int cap = run->plug_cap ? run->plug_cap * 2 : 64;
		struct hs_plug *grown = realloc(rep->plug_events, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rep->plug_events = grown;
		run->plug_cap = cap;
	}
	p = &rep->plug_events[rep->plugs];
	p->trigger_ns = run_now(run);
	p->plugged_ns = 0;
	ret = trigger(run, false);
	if (ret)
		return ret;
	run->plugged = true;
	rep->plugs++;
	/* Let the daemon finish the plug before the next step races it. */
	if (run->ctl.fd >= 0) {
		while (run_now(run) < limit && (ret = ctl_is(run, "plugged")) == 0)
			poll_pause(run, STATUS_POLL_NS);
		if (ret == 1)
			p->plugged_ns = run_now(run);
	}
	return 0;
}

static uint64_t jittered(struct hs_runner *run, uint64_t base, uint64_t jitter)
{
	uint64_t span = jitter * 2 + 1;

	return base - jitter + xorshift64s_next(&run->rng) % span;
}

/* Unplug while an XCMD is sleeping inside the EC: the race, on purpose. */
/*
 * A scenario step's control command: a refusal is the step's error, said
 * on stderr with the daemon's reply and counted as a trigger error.
 */
static int ctl_step(struct hs_runner *run, const char *cmd)
{
	char reply[256];
	int ret = ctl_cmd(run, cmd, reply, sizeof(reply));

	if (ret) {
		fprintf(stderr, "hotplug_sim: control '%s': %s\n", cmd, reply);
		run->rep->trigger_errors++;
	}
	return ret;
}

static int do_inflight(struct hs_runner *run, uint64_t latency_ns)
{
	uint64_t limit = run_now(run) + latency_ns * 4 + run->cfg->deadline_ns;
	char cmd[64], reply[256];
	bool found = false;
	int ret;

	snprintf(cmd, sizeof(cmd), "latency %" PRIu64, latency_ns);
	ret = ctl_step(run, cmd);
	if (ret)
		return ret;
	/*
	 * Wait until the daemon reports a command inside the EC: its gauge,
	 * not the clients' clocks, says the race is on.
	 */
	while (!found && run_now(run) < limit) {
		struct chardev_stats st;

		if (!ctl_stats(run, &st) && st.inflight_accesses >= 1)
			found = true;
		else
			poll_pause(run, STATUS_POLL_NS);
	}
	if (!found)
		fprintf(stderr, "hotplug_sim: inflight: the daemon never reported inflight_accesses >= 1 "
			"(need --clients and an xcmd mix)\n");
	ret = do_unplug(run);
	if (ctl_cmd(run, "latency 0", reply, sizeof(reply)))
		run->rep->trigger_errors++;
	if (!ret)
		ret = do_plug(run);
	return ret;
}

/* The daemon's "fault RULE": a rule it refuses ends the run. */
static int do_fault(struct hs_runner *run, const char *rule)
{
	char cmd[16 + HS_FAULT_TEXT_MAX];

	snprintf(cmd, sizeof(cmd), "fault %s", rule);
	return ctl_step(run, cmd);
}

/* A flap or random step with a duration stops once it has passed. */
static bool step_over(struct hs_runner *run, const struct hs_step *s, uint64_t t0)
{
	return s->duration_ns && run_now(run) - t0 >= s->duration_ns;
}

/*
 * Each unplug waits for its revoke and each plug for the daemon, so a flap
 * takes longer than its cycles times its period; say so when it is late.
 */
static void warn_slip(struct hs_runner *run, const struct hs_step *s, unsigned int cycles,
		      uint64_t t0)
{
	uint64_t ran = run_now(run) - t0, planned = (uint64_t)cycles * s->period_ns;
	char text[HS_ERR_MAX];

	run->rep->planned_ns += planned;
	run->rep->scheduled_ran_ns += ran;
	if (hs_schedule_slip(cycles, s->period_ns, ran, text, sizeof(text)))
		fprintf(stderr, "hotplug_sim: warning: %s\n", text);
}

static int play_step(struct hs_runner *run, const struct hs_step *s)
{
	uint64_t t0 = run_now(run);
	unsigned int i;
	int ret = 0;

	switch (s->kind) {
	case HS_STEP_UNPLUG:
		return do_unplug(run);
	case HS_STEP_PLUG:
		return do_plug(run);
	case HS_STEP_SLEEP:
		watch_sleep(run, s->duration_ns);
		return 0;
	case HS_STEP_FLAP:
		for (i = 0; i < s->count && !ret && !step_over(run, s, t0); i++) {
			if (run->plugged)
				ret = do_unplug(run);
			if (!ret)
				watch_sleep(run, jittered(run, s->period_ns / 2, s->jitter_ns));
			if (!ret)
				ret = do_plug(run);
			if (!ret)
				watch_sleep(run, jittered(run, s->period_ns / 2, s->jitter_ns));
		}
		warn_slip(run, s, i, t0);
		return ret;
	case HS_STEP_INFLIGHT:
		if (!run->plugged)
			ret = do_plug(run);
		return ret ? ret : do_inflight(run, s->latency_ns);
	case HS_STEP_FAULT:
		return do_fault(run, s->fault);
	case HS_STEP_RANDOM:
		for (i = 0; i < s->count && !ret && !step_over(run, s, t0); i++) {
			/* Toggle half the time, otherwise just let the load run. */
			if (xorshift64s_next(&run->rng) & 1)
				ret = run->plugged ? do_unplug(run) : do_plug(run);
			watch_sleep(run, xorshift64s_next(&run->rng) % (s->period_ns + 1));
		}
		return ret;
	}
	return -EINVAL;
}

/* ---- the run ---- */

static void check_daemon(struct hs_runner *run)
{
	const struct hs_config *cfg = run->cfg;
	struct hs_report *rep = run->rep;
	char reply[256];

	rep->daemon_alive = true;
	if (rep->daemon_pid) {
		rep->daemon_checked = true;
		if (kill((pid_t)rep->daemon_pid, 0) && errno == ESRCH)
			rep->daemon_alive = false;
	}
	if (cfg->control[0]) {
		rep->daemon_checked = true;
		if (run->ctl.fd < 0)
			ctl_connect(run);
		if (ctl_cmd(run, "status", reply, sizeof(reply)))
			rep->daemon_alive = false;
	}
}

/* Wake blocked readers at the end: an injected event if the EC is there. */
static void release_workers(struct hs_runner *run)
{
	uint64_t limit = run_now(run) + run->cfg->deadline_ns;
	char reply[256];
	unsigned int i;
	bool all;

	atomic_store(&run->stop, true);
	if (write(run->stop_pipe[1], "x", 1) < 0)
		fprintf(stderr, "hotplug_sim: stop pipe: %s\n", strerror(errno));
	do {
		all = true;
		for (i = 0; i < run->nworkers; i++)
			if (!atomic_load(&run->workers[i].exited))
				all = false;
		if (all)
			break;
		if (run->ctl.fd >= 0 && run->plugged)
			ctl_cmd(run, "inject power-button", reply, sizeof(reply));
		watch_sleep(run, 5000000ull);
	} while (run_now(run) < limit);

	for (i = 0; i < run->nworkers; i++)
		reap_worker(run, &run->workers[i]);
}

/*
 * The node must be there before any worker starts: without it every call
 * fails ENOENT, which says nothing about hotplug. (An unplugged EC keeps
 * its node: that run is a valid experiment.) A device that only opens -
 * the preload library's, which has no node to stat - is there too.
 */
static int check_device(const struct hs_config *cfg)
{
	char path[HS_NAME_MAX + sizeof("/dev/")];
	struct stat st;
	int ret, fd;

	snprintf(path, sizeof(path), "/dev/%s", cfg->device);
	if (!stat(path, &st))
		return 0;
	ret = -errno;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 || errno == ENODEV) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	fprintf(stderr, "hotplug_sim: %s: %s (is cuse_ec --name=%s running?)\n", path,
		strerror(-ret), cfg->device);
	return ret;
}

int hs_run(const struct hs_config *cfg, struct hs_report *rep)
{
	/*
	 * Shared memory (so --processes children see the stop flag, the
	 * revocation generation and their counters), and leaked when a thread
	 * is left behind: it may still wake up and touch it.
	 */
	struct hs_runner *run = shared_alloc(sizeof(*run));
	uint64_t zombies_before = 0;
	struct chardev_stats st;
	pid_t peer;
	bool have_zombies = false;
	unsigned int i, n = cfg->clients + cfg->readers + cfg->pollers;
	int ret;

	memset(rep, 0, sizeof(*rep));
	if (!run)
		return -ENOMEM;
	rep->daemon_pid = cfg->daemon_pid;
	ret = check_device(cfg);
	if (ret) {
		munmap(run, sizeof(*run));
		return ret;
	}
	run->cfg = cfg;
	run->rep = rep;
	run->ctl.fd = -1;
	run->plugged = true;
	run->rng = cfg->seed;
	run->stop_pipe[0] = run->stop_pipe[1] = -1;
	run->t0_ns = mono_now_ns();
	pthread_mutex_init(&run->uuid_lock, NULL);
	signal(SIGPIPE, SIG_IGN);	/* a dead daemon must give EPIPE, not kill us */
	rep->clients = calloc(n, sizeof(*rep->clients));
	rep->roles = calloc(n, sizeof(*rep->roles));
	run->workers = shared_alloc(n * sizeof(*run->workers));
	run->counts = shared_alloc(n * sizeof(*run->counts));
	run->uuids = calloc(MAX_UUIDS, sizeof(*run->uuids));
	ret = -ENOMEM;
	if (!rep->clients || !rep->roles || !run->workers || !run->counts || !run->uuids)
		goto out;
	rep->nclients = n;
	if (pipe2(run->stop_pipe, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}

	if (cfg->control[0]) {
		ret = ctl_connect(run);
		if (ret) {
			fprintf(stderr, "hotplug_sim: control socket %s: %s\n", cfg->control,
				strerror(-ret));
			goto out;
		}
		/* Who serves the socket is the daemon: no need to be told. */
		if (!cfg->daemon_pid && !ctl_peer_pid(&run->ctl, &peer))
			rep->daemon_pid = peer;
		have_zombies = !ctl_stats(run, &st);
		zombies_before = st.zombie_accesses;
		run->plugged = ctl_is(run, "plugged") == 1;
	}
	if (cfg->monitor && cfg->trigger == HS_TRIGGER_UEVENT) {
		ret = monitor_start(run);
		if (ret)
			fprintf(stderr, "hotplug_sim: no uevent monitor (%s); going on without\n",
				strerror(-ret));
		rep->monitor_ok = !ret;
	}

	for (i = 0; i < n; i++) {
		struct worker *w = &run->workers[i];

		w->run = run;
		w->index = i;
		w->role = i < cfg->clients ? ROLE_CLIENT :
			  i < cfg->clients + cfg->readers ? ROLE_READER : ROLE_POLLER;
		rep->roles[i] = w->role == ROLE_CLIENT ? "client" :
				w->role == ROLE_READER ? "reader" : "poller";
		w->rng = cfg->seed * 0x9e3779b97f4a7c15ull + i + 1;
		ret = worker_start(w);
		if (ret) {
			fprintf(stderr, "hotplug_sim: starting client %u: %s\n", i, strerror(-ret));
			break;
		}
		w->started = true;
		run->nworkers = i + 1;
	}

	run->next_progress_ns = run_now(run) + cfg->progress_ns;
	for (i = 0; !ret && i < cfg->nsteps; i++) {
		run->step = i;
		ret = play_step(run, &cfg->steps[i]);
		if (ret)
			fprintf(stderr, "hotplug_sim: scenario step %u%s stopped: %s\n", i + 1,
				cfg->steps[i].line ? " (see its line number)" : "", strerror(-ret));
	}
	/* A failed step is a finding (trigger error), not a failure to run. */
	ret = 0;
	run->step = cfg->nsteps;
	release_workers(run);

	if (run->mon_started) {
		/* Give the last uevents a moment to come back. */
		uint64_t limit = run_now(run) + 500000000ull;

		while (run_now(run) < limit) {
			unsigned int seen;

			pthread_mutex_lock(&run->uuid_lock);
			seen = run->seen;
			pthread_mutex_unlock(&run->uuid_lock);
			if (seen >= rep->uevents_sent)
				break;
			mono_sleep_ns(1000000ull);
		}
		pthread_join(run->mon_thread, NULL);	/* the stop pipe woke it */
		rep->uevents_seen = run->seen;
	}
	memcpy(rep->clients, run->counts, n * sizeof(*run->counts));
	check_daemon(run);
	if (have_zombies) {
		if (!ctl_stats(run, &st)) {
			rep->have_zombies = true;
			rep->zombie_accesses = st.zombie_accesses - zombies_before;
		}
	}
	rep->elapsed_ns = run_now(run);
	if (cfg->csv_path[0]) {
		ret = write_csv(run);
		if (ret)
			fprintf(stderr, "hotplug_sim: %s: %s\n", cfg->csv_path, strerror(-ret));
		rep->output_failed = ret != 0;
		ret = 0;
	}
out:
	if (run->mon)
		udev_monitor_unref(run->mon);
	if (run->udev)
		udev_unref(run->udev);
	ctl_close(&run->ctl);
	/* Threads left behind may still touch the runner: keep it all. */
	if (run->rep->threads_left)
		return ret;
	for (i = 0; run->workers && i < run->nworkers; i++) {
		free(run->workers[i].recs);
		if (run->workers[i].csv_spill)
			fclose(run->workers[i].csv_spill);
	}
	if (run->stop_pipe[0] >= 0)
		close(run->stop_pipe[0]);
	if (run->stop_pipe[1] >= 0)
		close(run->stop_pipe[1]);
	if (run->workers)
		munmap(run->workers, n * sizeof(*run->workers));
	if (run->counts)
		munmap(run->counts, n * sizeof(*run->counts));
	free(run->uuids);
	pthread_mutex_destroy(&run->uuid_lock);
	munmap(run, sizeof(*run));
	return ret;
}

void hs_report_release(struct hs_report *rep)
{
	free(rep->clients);
	free(rep->roles);
	free(rep->revocations);
	free(rep->plug_events);
	memset(rep, 0, sizeof(*rep));
}
