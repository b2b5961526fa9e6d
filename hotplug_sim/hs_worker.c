// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hs_worker.c - hotplug_sim's client workers: threads (or, with
 * --processes, child processes) holding open files on the device. Clients
 * issue XCMD / READMEM, readers block in read() for MKBP events, pollers
 * block in poll(). Each publishes the start of the call it is in and counts
 * its finished calls, which is all the scenario player (hs_run.c) reads.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/ec_client.h"
#include "hs_internal.h"

/* ---- workers ---- */

static void call_begin(struct worker *w, enum hs_op op)
{
	atomic_store(&w->call_op, (int)op);
	atomic_store(&w->call_start, run_now(w->run));
}

static void call_end(struct worker *w, enum hs_op op, int ret)
{
	struct hs_runner *run = w->run;
	uint64_t start = atomic_load(&w->call_start);
	uint64_t end = run_now(run);
	uint64_t gen = atomic_load(&run->revoke_gen);
	unsigned int slot = hs_outcome_slot(ret);

	/* A call that was inside the device when the unplug was triggered. */
	if (gen && start <= atomic_load(&run->revoke_trigger) &&
	    atomic_load(&w->cap_gen) != gen) {
		atomic_store(&w->cap_start, start);
		atomic_store(&w->cap_end, end);
		atomic_store(&w->cap_gen, gen);
	}
	__atomic_fetch_add(&run->counts[w->index].count[op][slot], 1, __ATOMIC_RELAXED);
	hs_latency_record(&run->counts[w->index], op, end - start);
	if (run->cfg->csv_path[0]) {
		if (w->nrecs == w->cap_recs) {
			size_t cap = w->cap_recs ? w->cap_recs * 2 : 1024;
			struct csv_rec *grown = realloc(w->recs, cap * sizeof(*grown));

			if (grown) {
				w->recs = grown;
				w->cap_recs = cap;
			}
		}
		if (w->nrecs < w->cap_recs)
			w->recs[w->nrecs++] = (struct csv_rec){
				.start_ns = start, .latency_ns = end - start, .op = (uint16_t)op,
				.slot = (uint16_t)slot, .client = w->index,
			};
	}
	atomic_store(&w->last_done, end);
	atomic_store(&w->call_start, 0);
	atomic_fetch_add(&w->calls_done, 1);
}

/* Open (with the real client start-up); readers and pollers also set a mask. */
static struct ec_client *worker_open(struct worker *w)
{
	struct ec_client *c = NULL;
	int ret;

	call_begin(w, HS_OP_OPEN);
	ret = ec_client_open(w->run->cfg->device, 0, &c);
	if (!ret && w->role != ROLE_CLIENT) {
		ret = ec_client_set_event_mask(c, ~0u);
		if (ret) {
			ec_client_close(c);
			c = NULL;
		}
	}
	call_end(w, HS_OP_OPEN, ret);
	if (ret)
		mono_sleep_ns(OPEN_BACKOFF_NS);
	return ret ? NULL : c;
}

static int client_call(struct worker *w, struct ec_client *c)
{
	uint8_t id[2];
	enum hs_op op;
	int ret;

	op = xorshift64s_next(&w->rng) % 100 < w->run->cfg->mix_xcmd ? HS_OP_XCMD :
								       HS_OP_READMEM;
	call_begin(w, op);
	if (op == HS_OP_XCMD)
		ret = ec_client_hello(c, HELLO_VALUE, NULL);
	else
		ret = ec_client_readmem(c, 0x20, sizeof(id), id);
	call_end(w, op, ret);
	return ret;
}

/* A blocked MKBP reader: read() sleeps in the daemon until an event or a revoke. */
static int reader_call(struct worker *w, struct ec_client *c)
{
	uint8_t buf[64];
	int ret;

	call_begin(w, HS_OP_EVENT);
	ret = ec_client_read_event(c, buf, sizeof(buf), -1);
	call_end(w, HS_OP_EVENT, ret < 0 ? ret : 0);
	return ret < 0 ? ret : 0;
}

/*
 * A poller: poll() on the device, in slices so that the end of the run is
 * noticed; POLLERR/POLLHUP are resolved to an errno by reading.
 */
static int poller_call(struct worker *w, struct ec_client *c)
{
	uint8_t buf[64];
	int ret, revents;

	call_begin(w, HS_OP_POLL);
	do {
		revents = ec_client_poll(c, POLL_SLICE_MS);
	} while ((!revents || revents == -EINTR) && !atomic_load(&w->run->stop));
	if (!revents || revents == -EINTR) {
		/* Our own stop, not the device: do not count it. */
		atomic_store(&w->call_start, 0);
		return -ECANCELED;
	}
	if (revents < 0) {
		ret = revents;
	} else {
		/*
		 * POLLIN: take the event so the next poll blocks again. After
		 * POLLERR/POLLHUP the read reports the errno the device gives.
		 */
		ret = ec_client_read_event(c, buf, sizeof(buf), 0);
		if (revents & (POLLERR | POLLHUP | POLLNVAL))
			ret = ret >= 0 || ret == -ETIMEDOUT ? -EIO : ret;
		else if (ret > 0)
			ret = 0;
	}
	call_end(w, HS_OP_POLL, ret);
	return ret;
}

static void worker_main(struct worker *w)
{
	struct hs_runner *run = w->run;
	struct ec_client *c = NULL;
	int ret;

	while (!atomic_load(&run->stop)) {
		if (!c) {
			c = worker_open(w);
			continue;
		}
		if (w->role == ROLE_CLIENT)
			ret = client_call(w, c);
		else if (w->role == ROLE_READER)
			ret = reader_call(w, c);
		else
			ret = poller_call(w, c);
		if (ret == -ECANCELED)
			break;
		/* EC status errors are answers; anything else means a dead file. */
		if (ret < 0 && !ec_client_err_is_ec(ret, NULL)) {
			ec_client_close(c);
			c = NULL;
		}
	}
	ec_client_close(c);
}

static void *worker_thread(void *arg)
{
	struct worker *w = arg;

	worker_main(w);
	atomic_store(&w->exited, true);
	return NULL;
}

/*
 * --processes: the child runs one worker. Counters and call state live in
 * shared memory; CSV records go to a file the parent made, read after exit.
 */
static void __attribute__((noreturn)) worker_process(struct worker *w)
{
	int status = 0;

	worker_main(w);
	if (w->csv_spill && w->nrecs &&
	    (fwrite(w->recs, sizeof(*w->recs), w->nrecs, w->csv_spill) != w->nrecs ||
	     fflush(w->csv_spill)))
		status = 1;
	atomic_store(&w->exited, true);
	_exit(status);
}

int worker_start(struct worker *w)
{
	pid_t pid;

	if (!w->run->cfg->processes)
		return -pthread_create(&w->thread, NULL, worker_thread, w);
	if (w->run->cfg->csv_path[0]) {
		w->csv_spill = tmpfile();
		if (!w->csv_spill)
			return -errno;
	}
	fflush(NULL);	/* the child must not replay our buffered output */
	/*
	 * @w lives in memory shared with the child: only the parent stores the
	 * pid. (Both storing fork()'s answer raced: the child's 0 could land
	 * last, and the parent's waitpid(0) then reaped another worker.)
	 */
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		worker_process(w);
	w->pid = pid;
	return 0;
}

void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int csv_compare(const void *a, const void *b)
{
	const struct csv_rec *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* A child's CSV records, back from its spill file. */
static int read_spill(struct worker *w)
{
	long size;

	if (fseek(w->csv_spill, 0, SEEK_END) || (size = ftell(w->csv_spill)) < 0 ||
	    fseek(w->csv_spill, 0, SEEK_SET))
		return -errno;
	free(w->recs);
	w->nrecs = (size_t)size / sizeof(*w->recs);
	w->recs = malloc((w->nrecs ? w->nrecs : 1) * sizeof(*w->recs));
	if (!w->recs) {
		w->nrecs = 0;
		return -ENOMEM;
	}
	if (fread(w->recs, sizeof(*w->recs), w->nrecs, w->csv_spill) != w->nrecs)
		return -EIO;
	return 0;
}

int write_csv(struct hs_runner *run)
{
	struct csv_rec *all;
	size_t n = 0, i;
	FILE *out;
	int ret = 0;

	for (i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->workers[i];

		if (w->csv_spill && atomic_load(&w->exited)) {
			ret = read_spill(w);
			if (ret)
				return ret;
		}
		n += w->nrecs;
	}
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	n = 0;
	for (i = 0; i < run->nworkers; i++) {
		struct worker *w = &run->workers[i];

		/* A worker left behind may still append: its records are left out. */
		if (!atomic_load(&w->exited))
			continue;
		memcpy(all + n, w->recs, w->nrecs * sizeof(*all));
		n += w->nrecs;
	}
	qsort(all, n, sizeof(*all), csv_compare);
	out = fopen(run->cfg->csv_path, "w");
	if (!out) {
		ret = -errno;
		goto out;
	}
	hs_csv_header(out);
	for (i = 0; i < n; i++)
		hs_csv_row(out, all[i].start_ns / 1000, all[i].client, (enum hs_op)all[i].op,
			   all[i].slot, all[i].latency_ns / 1000);
	if (fclose(out))
		ret = -EIO;
out:
	free(all);
	return ret;
}

/*
 * Join a thread or reap a process. A worker still blocked (a hang already
 * counted, or a reader no unplug woke) is left behind as a thread, or
 * killed as a process; a process that died by itself is a crash.
 */
void reap_worker(struct hs_runner *run, struct worker *w)
{
	bool done = atomic_load(&w->exited);
	pid_t reaped = 0;
	int status = 0;

	if (!w->started)
		return;
	if (!run->cfg->processes) {
		if (done) {
			pthread_join(w->thread, NULL);
			return;
		}
		fprintf(stderr, "hotplug_sim: #%u (%s) did not stop; leaving it\n", w->index,
			run->rep->roles[w->index]);
		pthread_detach(w->thread);
		run->rep->threads_left = true;
		return;
	}
	/* The child's record pointer means nothing here: records come from the spill. */
	w->recs = NULL;
	w->nrecs = 0;
	w->cap_recs = 0;
	if (!done) {
		reaped = waitpid(w->pid, &status, WNOHANG);
		if (reaped == 0) {
			fprintf(stderr, "hotplug_sim: #%u (%s, pid %d) did not stop; killing it\n",
				w->index, run->rep->roles[w->index], (int)w->pid);
			kill(w->pid, SIGKILL);
			waitpid(w->pid, &status, 0);
			return;
		}
		/* It may have finished between the two looks: its flag says. */
		done = atomic_load(&w->exited);
	}
	if (reaped == 0 && waitpid(w->pid, &status, 0) > 0)
		reaped = w->pid;
	if (!done || reaped != w->pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		/* How, for whoever reads the report: the cause is not the same bug. */
		fprintf(stderr, "hotplug_sim: #%u (%s, pid %d) died (%s %d)\n", w->index,
			run->rep->roles[w->index], (int)w->pid,
			reaped != w->pid ? "not reaped, errno" :
			WIFSIGNALED(status) ? "signal" :
			!done ? "exited unfinished, status" : "exit status",
			reaped != w->pid ? errno : WIFSIGNALED(status) ? WTERMSIG(status) :
			WEXITSTATUS(status));
		run->rep->workers_died++;
		atomic_store(&w->exited, false);	/* its records are not complete */
	}
}
