// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable: revocation.  Publish NULL, order it against every reader,
 * wait for the slots (and overflow counts) that may have seen the
 * resource, run the release callback; synchronously or on a thread of
 * its own (revocable_provider_revoke_async()).
 */
#include "config.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "revocable_internal.h"

/* A revoker waiting for a slot spins this many rounds, then sleeps until
 * the reader's release wakes it (lengthy readers cost no CPU, and the
 * revocation completes as soon as the last reader is out). */
#define WAIT_SPIN_ROUNDS 100
/* The sleep is bounded all the same: a safety net, never the mechanism. */
#define WAIT_PARK_NS 20000000L

/* The release callbacks this thread is running, innermost first. */
__thread struct revocable__release_frame *revocable__releasing;

/* Spin briefly (readers are usually quick), then yield, then sleep with a
 * growing period capped at 1 ms so a long reader costs no CPU. */
static void backoff(unsigned int *round)
{
	unsigned int r = (*round)++;
	struct timespec ts = { 0, 0 };

	if (r < 100) {
		caa_cpu_relax();
		return;
	}
	if (r < 110) {
		sched_yield();
		return;
	}
	ts.tv_nsec = 1000L << (r - 110 < 10 ? r - 110 : 10);
	if (ts.tv_nsec > 1000000L)
		ts.tv_nsec = 1000000L;
	REVOCABLE__BACKOFF_SLEEPS(ts.tv_nsec);
	nanosleep(&ts, NULL);
}

struct slot_wait {
	struct reader_record *rec;
	unsigned int idx;
	unsigned long revoked_seen;
};

/*
 * The access recorded in this slot at scan time has ended once the slot no
 * longer holds @rp, or once its count of accesses that saw NULL moved: the
 * slot then holds a later access, which began after the revocation and
 * saw NULL.  So a reader looping on try_access cannot keep us here.  The
 * acquire loads pair with the reader's release stores of both.
 */
static bool slot_busy(struct reader_record *rec, unsigned int idx,
		      struct revocable_provider *rp, unsigned long revoked_seen)
{
	struct revocable__slot *slot = &rec->pub.slot[idx];

	if (slot_provider(__atomic_load_n(&slot->rp, REVOCABLE__ORD_SCAN)) != rp)
		return false;
	return __atomic_load_n(&slot->revoked_seen, REVOCABLE__ORD_SCAN) ==
	       revoked_seen;
}

/* Make our store to pub.waiters visible to, and ordered against, every
 * running reader before we look at its slot again (the Dekker pairing with
 * the inline release's store-then-load, docs/design.md). */
static void order_against_readers(void)
{
#ifndef REVOCABLE__TSAN
	cmm_smp_mb();
#endif
	/*
	 * Also in a TSan build, whose own readers need no fence: a program
	 * built without TSan may inline its read side against this library,
	 * and its release relies on this barrier. On failure a wake-up may be
	 * missed: the bounded sleep covers it.
	 */
	if (revocable__ctx.use_membarrier)
		revocable__membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

/*
 * Spin a little (readers are usually quick), then sleep on the reader's
 * futex until its release says it is out.  The old pure polling with a
 * sleep growing to 1 ms and sched_yield() rounds left a revocation waiting
 * tens of ms past the last reader on a loaded single CPU.
 *
 * The revoker stays counted in @waiters from its first park to its
 * return, so it orders itself against the readers once per slot it waits
 * for: after that one membarrier every release of the reader sees
 * @waiters, whatever wakes the revoker (the release, the bounded sleep
 * running out) and however often it parks again.  A revoke thus issues at
 * most 1 + (slots it parks on) membarriers, where re-parking with a fresh
 * membarrier after every wake-up and every 20 ms made a long wait cost one
 * IPI to every CPU each time (docs/design.md, "Waking the revoker").
 */
static void wait_slot(struct reader_record *rec, unsigned int idx,
		      struct revocable_provider *rp, unsigned long revoked_seen)
{
	const struct timespec park = { 0, WAIT_PARK_NS };
	unsigned int round, seq;

	for (round = 0; round < WAIT_SPIN_ROUNDS; round++) {
		if (!slot_busy(rec, idx, rp, revoked_seen))
			return;
		caa_cpu_relax();
	}
	/* The slot first: a reader that sees @waiters sees it too. */
	__atomic_fetch_add(&rec->slot_waiters[idx], 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&rec->pub.waiters, 1, __ATOMIC_SEQ_CST);
	order_against_readers();
	for (;;) {
		/* Before the check: a wake-up after it changes the word and
		 * the wait returns at once. */
		seq = __atomic_load_n(&rec->wake_seq, __ATOMIC_SEQ_CST);
		if (!slot_busy(rec, idx, rp, revoked_seen))
			break;
		REVOCABLE__REVOKER_PARKS();
		revocable__futex(&rec->wake_seq, FUTEX_WAIT_PRIVATE, seq, &park);
	}
	__atomic_fetch_sub(&rec->pub.waiters, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_sub(&rec->slot_waiters[idx], 1, __ATOMIC_SEQ_CST);
}

/* The stack part of the wait list: enough for any one reader record, so
 * a scan always makes progress without memory. */
#define SCAN_STACK_WAITS (4 * REVOCABLE_READER_SLOTS)

/* Where the scan is: records registered before @below are still to do. */
struct scan_pos {
	uint64_t below;
	bool done;
};

/* Registered before @id?  By signed difference, so a wrap of the 64-bit
 * counter (or a test starting it near the end) orders ids correctly. */
static bool id_before(uint64_t a, uint64_t id)
{
	return (int64_t)(a - id) < 0;
}

/*
 * One pass of the scan: note, under the registry lock, the slots naming
 * @rp in records older than @pos->below (registration ids), whole records
 * at a time, until @cap entries are used.  Each slot's count of
 * NULL-seeing accesses is recorded with it.  Returns the number noted and
 * lowers @pos->below to the oldest record noted; sets @pos->done once
 * the oldest record is passed.
 */
static size_t scan_some(struct revocable_provider *rp, struct slot_wait *waits,
			size_t cap, struct scan_pos *pos)
{
	struct reader_record *rec;
	size_t n = 0;
	unsigned int idx;

	pthread_mutex_lock(&revocable__ctx.readers_lock);
	/* Newest first: records are added at the head. */
	cds_list_for_each_entry(rec, &revocable__ctx.readers, node) {
		size_t start = n;

		if (!id_before(rec->id, pos->below))
			continue;
		if (cap - n < REVOCABLE_READER_SLOTS)
			break;
		for (idx = 0; idx < REVOCABLE_READER_SLOTS; idx++) {
			struct revocable__slot *slot = &rec->pub.slot[idx];

			if (slot_provider(__atomic_load_n(&slot->rp, REVOCABLE__ORD_SCAN)) != rp)
				continue;
			waits[n].rec = rec;
			waits[n].idx = idx;
			waits[n].revoked_seen =
				__atomic_load_n(&slot->revoked_seen,
						REVOCABLE__ORD_SCAN);
			n++;
		}
		if (n > start)
			__atomic_fetch_add(&rec->refs, n - start,
					   __ATOMIC_RELAXED);
		pos->below = rec->id;
	}
	if (&rec->node == &revocable__ctx.readers)
		pos->done = true;	/* reached the oldest record */
	pthread_mutex_unlock(&revocable__ctx.readers_lock);
	return n;
}

/*
 * Wait for every access of @rp that may have seen the resource.  Never
 * waits under the registry lock: a reader we wait for may itself need it
 * (revoking another provider, starting a thread that registers).  Records
 * registered after the revocation was published cannot hold such an
 * access (their thread took the lock after the NULL store), so walking the
 * records from newest to oldest by id, in passes that each end at a record
 * boundary, visits every record that matters once, whatever threads come
 * and go meanwhile.  The list is allocated for one pass when there is
 * memory, and the stack array does it in several passes when there is not.
 */
static void wait_for_readers(struct revocable_provider *rp)
{
	struct slot_wait stack_waits[SCAN_STACK_WAITS];
	struct slot_wait *waits = stack_waits;
	struct scan_pos pos = { 0 };
	size_t cap = SCAN_STACK_WAITS, n, i, want;
	unsigned int round = 0;

	pthread_mutex_lock(&revocable__ctx.readers_lock);
	/* Records from here on registered after the NULL store: skipped. */
	pos.below = revocable__ctx.next_id;
	want = revocable__ctx.nr_readers * REVOCABLE_READER_SLOTS;
	pthread_mutex_unlock(&revocable__ctx.readers_lock);
	if (want > cap && !REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_SCAN)) {
		/* Readers registering meanwhile need no room (see above)
		 * but the margin saves a pass in the common case. */
		size_t room = want + 8 * REVOCABLE_READER_SLOTS;
		struct slot_wait *heap = malloc(room * sizeof(*heap));

		if (heap) {
			waits = heap;
			cap = room;
		}
	}

	while (!pos.done) {
		n = scan_some(rp, waits, cap, &pos);
		REVOCABLE__SCAN_NOTED(rp);
		/* Unlocked: thread start/exit and other revokes go on. */
		for (i = 0; i < n; i++) {
			wait_slot(waits[i].rec, waits[i].idx, rp,
				  waits[i].revoked_seen);
			revocable__record_put(waits[i].rec);
		}
	}
	if (waits != stack_waits)
		free(waits);

	while (__atomic_load_n(&rp->priv_overflow_readers, __ATOMIC_SEQ_CST))
		backoff(&round);
}

/* Make the NULL store visible to, and ordered against, every reader. */
static void publish_revocation(struct revocable_provider *rp)
{
	__atomic_store_n(&rp->priv_res, NULL, __ATOMIC_SEQ_CST);
#ifndef REVOCABLE__TSAN
	cmm_smp_mb();
#endif
	/*
	 * A TSan build's own readers are ordered by seq_cst alone, but a
	 * program built without TSan may inline its read side against this
	 * library: its slot store is ordered only by this barrier.
	 */
	if (!revocable__ctx.use_membarrier ||
	    revocable__membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return;
	/* Registration is per process image; register again in case this
	 * one did not inherit it, then retry. */
	if (revocable__membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
	    revocable__membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return;
	/* Readers rely on this barrier; going on would be unsafe. */
	perror("revocable: membarrier");
	abort();
}

/* Start a revocation: LIVE -> REVOKING and publish NULL.  Never blocks
 * on readers.  Returns 1 if this call started it, 0 if another did. */
static int revoke_begin(struct revocable_provider *rp)
{
	pthread_mutex_lock(&rp->priv_lock);
	if (rp->priv_state != REVOCABLE_LIVE) {
		pthread_mutex_unlock(&rp->priv_lock);
		return 0;
	}
	__atomic_store_n(&rp->priv_state, REVOCABLE_REVOKING, __ATOMIC_RELAXED);
	rp->priv_saved_res = __atomic_load_n(&rp->priv_res, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&rp->priv_lock);

	publish_revocation(rp);
	return 1;
}

/* The starter's second half: wait for readers, run the release callback
 * (fixed once REVOKING: set_release refuses), then let everyone go. */
static void revoke_finish(struct revocable_provider *rp)
{
	struct revocable__release_frame frame = { .rp = rp };
	void (*release)(void *res, void *arg);
	void *release_arg;

	/* The callback may drop the caller's reference (the owner freeing
	 * from its release): ours keeps the provider until we are done. */
	revocable_provider_get(rp);
	wait_for_readers(rp);

	pthread_mutex_lock(&rp->priv_lock);
	release = rp->priv_release;
	release_arg = rp->priv_release_arg;
	pthread_mutex_unlock(&rp->priv_lock);
	if (release) {
		/* Calls back into the library for @rp from here would wait
		 * for this very call: the frame lets them tell. */
		frame.prev = revocable__releasing;
		revocable__releasing = &frame;
		release(rp->priv_saved_res, release_arg);
		revocable__releasing = frame.prev;
	}

	pthread_mutex_lock(&rp->priv_lock);
	__atomic_store_n(&rp->priv_state, REVOCABLE_REVOKED, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&rp->priv_revoked_cond);
	pthread_mutex_unlock(&rp->priv_lock);
	revocable_provider_put(rp);
}

/**
 * revocable__in_release() - is this thread inside @rp's release callback?
 * @rp: the provider, or NULL for "any provider's".
 *
 * Return: true if so (also when nested inside another callback).
 */
bool revocable__in_release(const struct revocable_provider *rp)
{
	const struct revocable__release_frame *f;

	for (f = revocable__releasing; f; f = f->prev)
		if (!rp || f->rp == rp)
			return true;
	return false;
}

/**
 * revocable__in_teardown() - is this thread in @rp's release callback run
 *	by its last put (never revoked)?
 * @rp: the provider.
 *
 * Return: true if so: @rp has no reference left, so nothing that needs
 * one (a revoke, an async revoke, a put) may be done to it there.
 */
bool revocable__in_teardown(const struct revocable_provider *rp)
{
	const struct revocable__release_frame *f;

	for (f = revocable__releasing; f; f = f->prev)
		if (f->rp == rp)
			return f->teardown;
	return false;
}

/*
 * Everyone else: return only once the starter has finished, so no caller of
 * revoke can free the resource while the winner is still waiting out readers.
 */
static void revoke_wait(struct revocable_provider *rp)
{
	pthread_mutex_lock(&rp->priv_lock);
	while (rp->priv_state != REVOCABLE_REVOKED)
		pthread_cond_wait(&rp->priv_revoked_cond, &rp->priv_lock);
	pthread_mutex_unlock(&rp->priv_lock);
}

/**
 * revocable_provider_revoke() - revoke the resource and wait for readers.
 * @rp: the provider.
 *
 * New accesses get NULL at once.  Returns only after every access that
 * may have seen the resource has been released and the release callback
 * (if any) has run - for every concurrent caller, not just the first.
 *
 * The caller must hold a reference to @rp for the whole call.
 *
 * Return: 1 if this call revoked, 0 if already revoked, -EDEADLK if the
 * calling thread is inside an access to @rp or inside @rp's own release
 * callback (both would wait for themselves; the second is reported on
 * stderr), -EINVAL if @rp is NULL.
 */
int revocable_provider_revoke(struct revocable_provider *rp)
{
	if (!rp)
		return -EINVAL;
	if (revocable__self_holds(rp))
		return -EDEADLK;
	if (revocable__in_release(rp)) {
		fprintf(stderr,
			"revocable: revocable_provider_revoke() inside the provider's own release callback; refused (-EDEADLK)\n");
		return -EDEADLK;
	}
	revocable__context_ensure();

	if (revoke_begin(rp)) {
		revoke_finish(rp);
		return 1;
	}
	revoke_wait(rp);
	return 0;
}

/**
 * struct async_revoke - one asynchronous revocation.
 * @rp: the provider, referenced until the job ends.
 * @done: completion callback, may be NULL.
 * @arg: passed to @done.
 * @started: this job's caller started the revocation (so finishes it).
 * @go: set once @started is known; the worker waits for it.
 * @link: in the context's list of async revokes in flight.
 */
struct async_revoke {
	struct revocable__async_link link;
	struct revocable_provider *rp;
	void (*done)(struct revocable_provider *rp, void *arg);
	void *arg;
	bool started;
	bool go;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* Drop a reference unless it is the last: true if dropped. */
static bool put_unless_last(struct revocable_provider *rp)
{
	long old = __atomic_load_n(&rp->priv_refcount, __ATOMIC_RELAXED);

	while (old > 1)
		if (__atomic_compare_exchange_n(&rp->priv_refcount, &old,
						old - 1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

/* The job is over for revocable_barrier(). */
static void async_unlink(struct async_revoke *job)
{
	pthread_mutex_lock(&revocable__ctx.work_lock);
	cds_list_del(&job->link.node);
	pthread_cond_broadcast(&revocable__ctx.work_cond);
	pthread_mutex_unlock(&revocable__ctx.work_lock);
}

static void *async_revoke_worker(void *data)
{
	struct async_revoke *job = data;

	revocable__on_worker = true;
	pthread_mutex_lock(&job->lock);
	while (!job->go)
		pthread_cond_wait(&job->cond, &job->lock);
	pthread_mutex_unlock(&job->lock);

	if (job->started)
		revoke_finish(job->rp);
	else
		revoke_wait(job->rp);
	/*
	 * done() is where an owner typically drops its reference and frees
	 * the memory (an embedded provider without free_fn is gone at once):
	 * nothing may touch the provider after it.  So our reference goes
	 * first - unless it is the last one, in which case nobody else can
	 * free the provider in done() and it is put afterwards.
	 */
	if (put_unless_last(job->rp)) {
		if (job->done)
			job->done(job->rp, job->arg);
	} else {
		if (job->done)
			job->done(job->rp, job->arg);
		revocable_provider_put(job->rp);
	}
	async_unlink(job);
	pthread_cond_destroy(&job->cond);
	pthread_mutex_destroy(&job->lock);
	free(job);
	return NULL;
}

/**
 * revocable_provider_revoke_async() - revoke without blocking the caller.
 * @rp: the provider; the caller must hold a reference until the call returns.
 * @done: optional, called once on a library thread after the last reader
 *	left and the release callback ran (also when already revoked).  The
 *	library touches @rp no more once @done is called, so @done may drop
 *	the owner's reference and free the memory; @rp is valid in @done
 *	while the caller holds a reference (the job's own is dropped before
 *	@done unless it is the last).
 * @arg: passed to @done.
 *
 * The revocation itself happens before this returns: new accesses get NULL
 * and a later revoke returns 0.  Only the wait for readers is handed to a
 * thread of its own, so one slow revoke never delays another.  Safe to call
 * from inside an access to @rp (the wait simply includes that access).
 *
 * Return: 0, or -EINVAL for a NULL @rp, -ENOMEM / -EAGAIN if the work could
 * not be started (then nothing was revoked and @done is not called),
 * -EDEADLK from the release callback that @rp's last put runs (no
 * reference is left to hold; reported on stderr).
 */
int revocable_provider_revoke_async(struct revocable_provider *rp,
				    void (*done)(struct revocable_provider *rp,
						 void *arg),
				    void *arg)
{
	struct async_revoke *job;
	int ret;

	if (!rp)
		return -EINVAL;
	/* Its job's reference would bring the provider back from zero and
	 * tear it down a second time. */
	if (revocable__in_teardown(rp)) {
		fprintf(stderr,
			"revocable: revocable_provider_revoke_async() inside the release callback of the provider's last put; refused (-EDEADLK)\n");
		return -EDEADLK;
	}
	revocable__context_ensure();
	job = REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_ASYNC) ? NULL :
		calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	job->rp = revocable_provider_get(rp);
	job->done = done;
	job->arg = arg;
	pthread_mutex_init(&job->lock, NULL);
	pthread_cond_init(&job->cond, NULL);

	pthread_mutex_lock(&revocable__ctx.work_lock);
	job->link.seq = revocable__ctx.async_seq++;
	cds_list_add_tail(&job->link.node, &revocable__ctx.async_jobs);
	pthread_mutex_unlock(&revocable__ctx.work_lock);

	/* The thread first, so that a failure leaves nothing half revoked. */
	ret = revocable__start_detached(async_revoke_worker, job);
	if (ret) {
		async_unlink(job);
		pthread_cond_destroy(&job->cond);
		pthread_mutex_destroy(&job->lock);
		revocable_provider_put(rp);
		free(job);
		return ret;
	}

	job->started = revoke_begin(rp);
	pthread_mutex_lock(&job->lock);
	job->go = true;
	pthread_cond_signal(&job->cond);
	pthread_mutex_unlock(&job->lock);
	return 0;
}

