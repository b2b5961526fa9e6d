// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable - revocable references to resources that can vanish.
 *
 * Read side: every thread owns a reader record (registered automatically on
 * its first access, freed when it exits) holding a small stack of slots.
 * An access writes the provider pointer into the next slot, then loads the
 * resource pointer.  Revoke publishes NULL, forces a full barrier on every
 * thread with sys_membarrier(), then waits only for the slots that still
 * name this provider - so a reader sleeping in provider A never delays a
 * revoke of provider B.  The ordering argument is in docs/design.md.
 */
#define REVOCABLE_NO_INLINE
#include "config.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <urcu/list.h>

#include "revocable.h"

enum revocable__state {
	REVOCABLE_LIVE = 0,
	REVOCABLE_REVOKING,	/* a revoker is waiting for readers */
	REVOCABLE_REVOKED,	/* readers gone, release callback has run */
};

/* Overflow entries whose access saw NULL are not counted on the provider. */
#define OVERFLOW_UNCOUNTED	((uintptr_t)1)

/**
 * struct reader_record - a thread's reader state plus library bookkeeping.
 * @pub: the part the inline read side uses; must stay first for alignment.
 * @node: entry in the context's list of live readers.
 * @refs: list membership + revokers currently polling our slots.
 * @overflow: owner-only stack of accesses beyond the slots (tagged).
 * @overflow_cap: allocated entries of @overflow.
 * @wake_seq: futex word; bumped by every wake-up of revokers asleep on
 *	our slots (pub.waiters says whether there are any).
 */
struct reader_record {
	struct revocable__reader pub;
	struct cds_list_head node;
	long refs;
	uintptr_t *overflow;
	size_t overflow_cap;
	unsigned int wake_seq;
};

#ifdef REVOCABLE_LAB_V3_INDEX_BUG
#define REVOCABLE_LAB_HANDLES 256

/* The lab's per-handle "SRCU index": handle -> slot of its latest access. */
struct revocable_lab_index {
	pthread_mutex_t lock;
	const struct revocable *rev[REVOCABLE_LAB_HANDLES];
	struct revocable__slot *slot[REVOCABLE_LAB_HANDLES];
};
#endif

/**
 * struct revocable_context - the library's only shared state.
 *
 * Readers must be discoverable by revokers without the user registering
 * threads, so one process-wide registry is unavoidable; it is kept in this
 * single structure rather than in scattered globals.
 */
struct revocable_context {
	pthread_once_t once;
	bool use_membarrier;
	bool have_key;
	pthread_key_t key;		/* destructor unregisters the reader */

	pthread_mutex_t readers_lock;	/* guards readers, nr_readers */
	struct cds_list_head readers;
	size_t nr_readers;

	pthread_mutex_t work_lock;	/* guards the rest */
	pthread_cond_t work_cond;	/* wakes revocable_barrier() */
	struct revocable_provider *defer_head;
	struct revocable_provider **defer_tail;
	bool defer_worker_running;
	unsigned long defer_queued;
	unsigned long defer_done;
	unsigned long async_inflight;
#ifdef REVOCABLE_LAB_V3_INDEX_BUG
	struct revocable_lab_index lab;	/* teaching lab only, see below */
#endif
};

static struct revocable_context revocable_ctx = {
	.once = PTHREAD_ONCE_INIT,
	.readers_lock = PTHREAD_MUTEX_INITIALIZER,
	.readers = CDS_LIST_HEAD_INIT(revocable_ctx.readers),
	.work_lock = PTHREAD_MUTEX_INITIALIZER,
	.work_cond = PTHREAD_COND_INITIALIZER,
	.defer_tail = &revocable_ctx.defer_head,
#ifdef REVOCABLE_LAB_V3_INDEX_BUG
	.lab.lock = PTHREAD_MUTEX_INITIALIZER,
#endif
};

/* A permanently revoked provider that handles on no provider point to, so
 * the inline path needs no NULL test for it.  Never freed or revoked. */
static struct revocable_provider revocable__null_provider = {
	.priv_res = NULL,
	.priv_refcount = 1,
	.priv_state = REVOCABLE_REVOKED,
	.priv_lock = PTHREAD_MUTEX_INITIALIZER,
	.priv_revoked_cond = PTHREAD_COND_INITIALIZER,
};

/* Never written: its SLOW_ONLY state sends a thread's first access to the
 * slow path (which registers the thread) without a NULL test inline. */
static struct revocable__reader revocable__unregistered_reader = {
	.state = REVOCABLE__DEPTH_SLOW_ONLY,
};
__thread struct revocable__reader *revocable__tls_reader =
	&revocable__unregistered_reader;

/* The calling thread's reader, NULL if it has none (yet). */
static struct revocable__reader *current_reader(void)
{
	struct revocable__reader *rd = revocable__tls_reader;

	return rd == &revocable__unregistered_reader ? NULL : rd;
}

/* Set on the library's own threads: revocable_barrier() must not wait on
 * the thread it is running on. */
static __thread bool revocable_on_worker;

/* Accesses of this thread refused for lack of memory (they returned NULL
 * and hold nothing); their releases must not look like stray ones. */
static __thread unsigned long revocable_nomem_accesses;

static struct reader_record *to_record(struct revocable__reader *rd)
{
	return caa_container_of(rd, struct reader_record, pub);
}

static uint32_t reader_depth(const struct revocable__reader *rd)
{
	return rd->state & REVOCABLE__DEPTH_MASK;
}

static uint32_t reader_flags(const struct revocable__reader *rd)
{
	return rd->state & ~REVOCABLE__DEPTH_MASK;
}

static int membarrier_call(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* A revoker waiting for a slot spins this many rounds, then sleeps until
 * the reader's release wakes it (lengthy readers cost no CPU, and the
 * revocation completes as soon as the last reader is out). */
#define WAIT_SPIN_ROUNDS 100
/* The sleep is bounded all the same: a safety net, never the mechanism. */
#define WAIT_PARK_NS 20000000L

static long futex_call(unsigned int *word, int op, unsigned int val,
		       const struct timespec *timeout)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

/**
 * revocable__wake_revokers() - a reader's release found revokers asleep.
 * @rd: the releasing thread's reader state.
 *
 * Out of line and rare: only releases that a revoker is waiting for get here.
 */
void revocable__wake_revokers(struct revocable__reader *rd)
{
	struct reader_record *rec = to_record(rd);

	__atomic_fetch_add(&rec->wake_seq, 1, __ATOMIC_SEQ_CST);
	futex_call(&rec->wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

static void reader_record_put(struct reader_record *rec)
{
	if (__atomic_fetch_sub(&rec->refs, 1, __ATOMIC_ACQ_REL) == 1) {
		free(rec->overflow);
		free(rec);
	}
}

/* Thread exit: the thread can no longer be inside an access (if it was,
 * that was a bug and the accesses are dropped so revokers do not hang). */
static void reader_thread_exit(void *arg)
{
	struct reader_record *rec = arg;
	unsigned int i, dropped = 0;

	pthread_mutex_lock(&revocable_ctx.readers_lock);
	cds_list_del(&rec->node);
	revocable_ctx.nr_readers--;
	pthread_mutex_unlock(&revocable_ctx.readers_lock);

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++) {
		if (!rec->pub.slot[i].rp)
			continue;
		__atomic_store_n(&rec->pub.slot[i].rp, NULL, __ATOMIC_SEQ_CST);
		dropped++;
	}
	if (dropped && __atomic_load_n(&rec->pub.waiters, __ATOMIC_SEQ_CST))
		revocable__wake_revokers(&rec->pub);
	for (i = 0; i < rec->pub.overflow_depth; i++) {
		uintptr_t e = rec->overflow[i];
		struct revocable_provider *rp;

		dropped++;
		if (e & OVERFLOW_UNCOUNTED)
			continue;
		rp = (struct revocable_provider *)e;
		__atomic_fetch_sub(&rp->priv_overflow_readers, 1,
				   __ATOMIC_RELEASE);
	}
	if (dropped)
		fprintf(stderr,
			"revocable: thread exited inside %u access(es); dropped\n",
			dropped);
	if (revocable__tls_reader == &rec->pub)
		revocable__tls_reader = &revocable__unregistered_reader;
	reader_record_put(rec);
}

static void context_init(void)
{
	/* REVOCABLE_NO_MEMBARRIER=1 forces the fallback, to test it. */
	const char *no_membarrier = secure_getenv("REVOCABLE_NO_MEMBARRIER");
	int cmds = membarrier_call(MEMBARRIER_CMD_QUERY);

	if (!(no_membarrier && *no_membarrier == '1') && cmds >= 0 &&
	    (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    membarrier_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
		revocable_ctx.use_membarrier = true;
	revocable_ctx.have_key =
		pthread_key_create(&revocable_ctx.key, reader_thread_exit) == 0;
}

static void context_ensure(void)
{
	pthread_once(&revocable_ctx.once, context_init);
}

/* Returns NULL only when out of memory: the access then fails safe. */
static struct revocable__reader *reader_register(void)
{
	struct reader_record *rec;
	void *mem;

	context_ensure();
	/* A cache line of its own: no false sharing between readers. */
	if (posix_memalign(&mem, 64, sizeof(*rec)))
		return NULL;
	rec = mem;
	memset(rec, 0, sizeof(*rec));
	/* Without membarrier the slot store cannot be ordered cheaply:
	 * every access takes the counted, fenced path instead. */
	if (!revocable_ctx.use_membarrier)
		rec->pub.state = REVOCABLE__DEPTH_SLOW_ONLY;
	rec->refs = 1;

	pthread_mutex_lock(&revocable_ctx.readers_lock);
	cds_list_add(&rec->node, &revocable_ctx.readers);
	revocable_ctx.nr_readers++;
	pthread_mutex_unlock(&revocable_ctx.readers_lock);

	if (revocable_ctx.have_key)
		pthread_setspecific(revocable_ctx.key, rec);
	else
		fprintf(stderr, "revocable: no thread-exit hook; reader record will leak\n");
	revocable__tls_reader = &rec->pub;
	return &rec->pub;
}

static bool overflow_reserve(struct reader_record *rec)
{
	size_t cap;
	uintptr_t *grown;

	if (rec->pub.overflow_depth < rec->overflow_cap)
		return true;
	cap = rec->overflow_cap ? rec->overflow_cap * 2 : 16;
	grown = realloc(rec->overflow, cap * sizeof(*grown));
	if (!grown)
		return false;
	rec->overflow = grown;
	rec->overflow_cap = cap;
	return true;
}

/*
 * Accesses that do not fit a slot count themselves on the provider.  The
 * RMW and the load are both sequentially consistent, so either the revoker
 * sees the count or this load sees NULL.  An access that saw NULL uncounts
 * itself at once, so a stream of late readers cannot keep a revoker
 * waiting.
 */
static void *overflow_access(struct revocable__reader *rd,
			     struct revocable_provider *rp)
{
	struct reader_record *rec = rd ? to_record(rd) : NULL;
	void *res;

	if (!rec || !overflow_reserve(rec)) {
		/* Out of memory: nowhere to record the access, so it must
		 * not see the resource.  Failing safe looks like a revoke.
		 * The flag keeps releases off the inline path until the
		 * refused accesses are released first. */
		revocable_nomem_accesses++;
		if (rd)
			rd->state |= REVOCABLE__DEPTH_OVERFLOW;
		return NULL;
	}
	if (rp == &revocable__null_provider) {
		res = NULL;	/* keep the shared sentinel never written */
	} else {
		__atomic_fetch_add(&rp->priv_overflow_readers, 1,
				   __ATOMIC_SEQ_CST);
		res = __atomic_load_n(&rp->priv_res, __ATOMIC_SEQ_CST);
		if (!res)
			__atomic_fetch_sub(&rp->priv_overflow_readers, 1,
					   __ATOMIC_RELEASE);
	}
	rec->overflow[rd->overflow_depth++] =
		(uintptr_t)rp | (res ? 0 : OVERFLOW_UNCOUNTED);
	rd->state |= REVOCABLE__DEPTH_OVERFLOW;
	return res;
}

/**
 * revocable__try_access_slow() - out-of-line part of revocable_try_access().
 * @rp: provider being accessed.
 *
 * First access of a thread (registers it), nested accesses (the next
 * slot) and accesses nested deeper than the slot stack (overflow).
 *
 * Return: the resource, or NULL if revoked.
 */
void *revocable__try_access_slow(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();
	uint32_t depth;
	void *res;

	if (!rd)
		rd = reader_register();
	/*
	 * While overflow entries exist, new accesses go there too even if a
	 * slot was freed meanwhile: every overflow entry must stay newer than
	 * every slot, so that release always ends the most recent access.
	 * That matters: of two accesses to one provider the older may have
	 * seen the resource and the newer NULL, so they are not
	 * interchangeable.
	 */
	if (!rd || reader_flags(rd) || reader_depth(rd) >= REVOCABLE_READER_SLOTS)
		return overflow_access(rd, rp);

	/* A nested access, or a thread's first: the inline path's steps in
	 * the next free slot (docs/design.md, "Read side"). */
	depth = reader_depth(rd);
	rd->state = depth + 1;
	__atomic_store_n(&rd->slot[depth].rp, rp, REVOCABLE__ORD_SLOT);
	revocable__read_fence();
	res = __atomic_load_n(&rp->priv_res, REVOCABLE__ORD_RES);
	if (!res)
		revocable__count_revoked(&rd->slot[depth]);
	return res;
}

/**
 * revocable__release_slow() - out-of-line part of revocable_release().
 * @rp: provider whose access ends.
 *
 * Handles overflow accesses and releases out of LIFO order.  The most
 * recent access matching @rp is the one ended: accesses of one provider by
 * one thread see the resource first and NULL after, never the other way
 * round, so ending the newest never leaves a resource-seeing access
 * unaccounted.  Overflow entries are always newer than slot entries, and
 * slot order is time order (holes are never refilled, only popped).
 */
void revocable__release_slow(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();
	unsigned int i;

	/* Refused accesses never saw the resource: ending one of them first
	 * is always safe, whichever access the caller means. */
	if (revocable_nomem_accesses) {
		if (--revocable_nomem_accesses == 0 && rd && !rd->overflow_depth)
			rd->state &= ~REVOCABLE__DEPTH_OVERFLOW;
		return;
	}
	if (rd) {
		struct reader_record *rec = to_record(rd);

		for (i = rd->overflow_depth; i-- > 0;) {
			uintptr_t e = rec->overflow[i];

			if ((e & ~OVERFLOW_UNCOUNTED) != (uintptr_t)rp)
				continue;
			memmove(&rec->overflow[i], &rec->overflow[i + 1],
				(rd->overflow_depth - i - 1) * sizeof(e));
			/* nomem accesses are all released by now (above). */
			if (--rd->overflow_depth == 0)
				rd->state &= ~REVOCABLE__DEPTH_OVERFLOW;
			if (!(e & OVERFLOW_UNCOUNTED))
				__atomic_fetch_sub(&rp->priv_overflow_readers,
						   1, __ATOMIC_RELEASE);
			return;
		}
		uint32_t depth = reader_depth(rd);
		uint32_t flags = reader_flags(rd);

		for (i = depth; i-- > 0;) {
			if (rd->slot[i].rp != rp)
				continue;
			__atomic_store_n(&rd->slot[i].rp, NULL,
					 __ATOMIC_RELEASE);
			/* Compact holes left by out-of-order releases. */
			while (depth && !rd->slot[depth - 1].rp)
				depth--;
			rd->state = depth | flags;
			/* Without membarrier nobody fences for us: do it
			 * here, as the waiter check needs (see the inline). */
			cmm_smp_mb();
			if (__atomic_load_n(&rd->waiters, __ATOMIC_SEQ_CST))
				revocable__wake_revokers(rd);
			return;
		}
	}
	fprintf(stderr,
		"revocable: revocable_release() without a matching access (ignored)\n");
}

/* Is the calling thread inside an access to @rp?  Revoking would wait for
 * ourselves forever. */
static bool self_holds(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();
	struct reader_record *rec;
	unsigned int i;

	if (!rd)
		return false;
	for (i = 0; i < reader_depth(rd); i++)
		if (rd->slot[i].rp == rp)
			return true;
	rec = to_record(rd);
	for (i = 0; i < rd->overflow_depth; i++)
		if ((rec->overflow[i] & ~OVERFLOW_UNCOUNTED) == (uintptr_t)rp)
			return true;
	return false;
}

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

	if (__atomic_load_n(&slot->rp, REVOCABLE__ORD_SCAN) != rp)
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
	/* On failure a wake-up may be missed: the bounded sleep covers it. */
	if (revocable_ctx.use_membarrier)
		membarrier_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
#endif
}

/*
 * Spin a little (readers are usually quick), then sleep on the reader's
 * futex until its release says it is out.  The old pure polling with a
 * sleep growing to 1 ms and sched_yield() rounds left a revocation waiting
 * tens of ms past the last reader on a loaded single CPU.
 */
static void wait_slot(struct reader_record *rec, unsigned int idx,
		      struct revocable_provider *rp, unsigned long revoked_seen)
{
	const struct timespec park = { 0, WAIT_PARK_NS };
	unsigned int round = 0, seq;

	while (slot_busy(rec, idx, rp, revoked_seen)) {
		if (round++ < WAIT_SPIN_ROUNDS) {
			caa_cpu_relax();
			continue;
		}
		__atomic_fetch_add(&rec->pub.waiters, 1, __ATOMIC_SEQ_CST);
		order_against_readers();
		seq = __atomic_load_n(&rec->wake_seq, __ATOMIC_SEQ_CST);
		if (slot_busy(rec, idx, rp, revoked_seen))
			futex_call(&rec->wake_seq, FUTEX_WAIT_PRIVATE, seq, &park);
		__atomic_fetch_sub(&rec->pub.waiters, 1, __ATOMIC_SEQ_CST);
	}
}

/* Wait for every access of @rp that may have seen the resource. */
static void wait_for_readers(struct revocable_provider *rp)
{
	struct reader_record *rec;
	struct slot_wait *waits;
	size_t n = 0, i;
	unsigned int idx, round = 0;

	pthread_mutex_lock(&revocable_ctx.readers_lock);
	waits = malloc((revocable_ctx.nr_readers * REVOCABLE_READER_SLOTS + 1) *
		       sizeof(*waits));
	cds_list_for_each_entry(rec, &revocable_ctx.readers, node) {
		for (idx = 0; idx < REVOCABLE_READER_SLOTS; idx++) {
			struct revocable__slot *slot = &rec->pub.slot[idx];
			unsigned long seen;

			if (__atomic_load_n(&slot->rp, REVOCABLE__ORD_SCAN) != rp)
				continue;
			seen = __atomic_load_n(&slot->revoked_seen,
					       REVOCABLE__ORD_SCAN);
			if (!waits) {
				/* Out of memory: wait holding the lock.
				 * Slower for others, still correct. */
				wait_slot(rec, idx, rp, seen);
				continue;
			}
			__atomic_fetch_add(&rec->refs, 1, __ATOMIC_RELAXED);
			waits[n].rec = rec;
			waits[n].idx = idx;
			waits[n].revoked_seen = seen;
			n++;
		}
	}
	pthread_mutex_unlock(&revocable_ctx.readers_lock);

	/* Unlocked: thread start/exit and other revokes go on meanwhile. */
	for (i = 0; i < n; i++) {
		wait_slot(waits[i].rec, waits[i].idx, rp, waits[i].revoked_seen);
		reader_record_put(waits[i].rec);
	}
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
	if (!revocable_ctx.use_membarrier ||
	    membarrier_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return;
	/* Registration is per process image; register again in case this
	 * one did not inherit it, then retry. */
	if (membarrier_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
	    membarrier_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return;
	/* Readers rely on this barrier; going on would be unsafe. */
	perror("revocable: membarrier");
	abort();
#endif
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
	void (*release)(void *res, void *arg);
	void *release_arg;

	wait_for_readers(rp);

	pthread_mutex_lock(&rp->priv_lock);
	release = rp->priv_release;
	release_arg = rp->priv_release_arg;
	pthread_mutex_unlock(&rp->priv_lock);
	if (release)
		release(rp->priv_saved_res, release_arg);

	pthread_mutex_lock(&rp->priv_lock);
	__atomic_store_n(&rp->priv_state, REVOCABLE_REVOKED, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&rp->priv_revoked_cond);
	pthread_mutex_unlock(&rp->priv_lock);
}

/* Everyone else: return only once the starter has finished (lesson 5). */
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
 * calling thread is inside an access to @rp, -EINVAL if @rp is NULL.
 */
int revocable_provider_revoke(struct revocable_provider *rp)
{
	if (!rp)
		return -EINVAL;
	if (self_holds(rp))
		return -EDEADLK;
	context_ensure();

	if (revoke_begin(rp)) {
		revoke_finish(rp);
		return 1;
	}
	revoke_wait(rp);
	return 0;
}

/* Final teardown, always on a library thread (see defer_free()). */
static void provider_teardown(struct revocable_provider *rp)
{
	void (*free_fn)(struct revocable_provider *rp) = rp->priv_free_fn;

	/* Never revoked: no handle is left, so no reader can exist; the
	 * release callback still runs exactly once. */
	if (rp->priv_state == REVOCABLE_LIVE && rp->priv_release)
		rp->priv_release(rp->priv_res, rp->priv_release_arg);
	pthread_cond_destroy(&rp->priv_revoked_cond);
	pthread_mutex_destroy(&rp->priv_lock);
	if (rp->priv_allocated)
		free(rp);
	else if (free_fn)
		free_fn(rp);
}

static void *defer_worker(void *unused)
{
	struct revocable_provider *rp;

	revocable_on_worker = true;
	pthread_mutex_lock(&revocable_ctx.work_lock);
	while ((rp = revocable_ctx.defer_head)) {
		revocable_ctx.defer_head = rp->priv_defer_next;
		if (!revocable_ctx.defer_head)
			revocable_ctx.defer_tail = &revocable_ctx.defer_head;
		pthread_mutex_unlock(&revocable_ctx.work_lock);

		provider_teardown(rp);

		pthread_mutex_lock(&revocable_ctx.work_lock);
		revocable_ctx.defer_done++;
		pthread_cond_broadcast(&revocable_ctx.work_cond);
	}
	/* Exit when idle rather than linger: nothing left running at exit. */
	revocable_ctx.defer_worker_running = false;
	pthread_mutex_unlock(&revocable_ctx.work_lock);
	return NULL;
}

static int start_detached(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret;
	ret = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (!ret) {
		sigset_t all, old;

		/*
		 * A library's own threads must never take the process's signals:
		 * a program that waits for SIGTERM in its main loop (libfuse's
		 * loop threads, say) would see its handler run here instead and
		 * never wake. The worker starts with every signal blocked.
		 */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		ret = pthread_create(&tid, &attr, fn, arg);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_attr_destroy(&attr);
	return -ret;
}

/*
 * The last reference may be dropped by a reader, inside other locks of the
 * caller, or inside a release callback; tearing down there could deadlock
 * on the caller's own locks (lesson 6), so teardown runs on a worker.
 */
static void defer_free(struct revocable_provider *rp)
{
	bool start = false;

	pthread_mutex_lock(&revocable_ctx.work_lock);
	rp->priv_defer_next = NULL;
	*revocable_ctx.defer_tail = rp;
	revocable_ctx.defer_tail = &rp->priv_defer_next;
	revocable_ctx.defer_queued++;
	if (!revocable_ctx.defer_worker_running) {
		revocable_ctx.defer_worker_running = true;
		start = true;
	}
	pthread_mutex_unlock(&revocable_ctx.work_lock);

	if (start && start_detached(defer_worker, NULL)) {
		/* No thread: the caller's context is the only one left. */
		fprintf(stderr, "revocable: cannot start worker, freeing inline\n");
		defer_worker(NULL);
		revocable_on_worker = false;
	}
}

/**
 * revocable_barrier() - wait for deferred frees and async revokes to finish.
 *
 * For tests and for shutdown paths that must know every free_fn and every
 * async completion callback has run.  Returns at once when called from a
 * library thread (a callback), where waiting would deadlock.  Must not be
 * called inside an access: a pending async revoke may be waiting for it.
 */
void revocable_barrier(void)
{
	unsigned long target;

	if (revocable_on_worker)
		return;
	pthread_mutex_lock(&revocable_ctx.work_lock);
	for (;;) {
		target = revocable_ctx.defer_queued;
		if (revocable_ctx.async_inflight == 0 &&
		    revocable_ctx.defer_done >= target &&
		    !revocable_ctx.defer_worker_running)
			break;
		pthread_cond_wait(&revocable_ctx.work_cond,
				  &revocable_ctx.work_lock);
	}
	pthread_mutex_unlock(&revocable_ctx.work_lock);
}

/**
 * revocable_provider_init() - set up a provider embedded in a caller struct.
 * @rp: the provider to initialise.
 * @res: the resource (may be NULL).
 * @free_fn: called once the last reference is gone, on a library thread;
 *	may be NULL if the caller's memory outlives every reference.
 *
 * The caller holds the owner reference, dropped by revocable_provider_free()
 * (or revocable_provider_put()).
 */
void revocable_provider_init(struct revocable_provider *rp, void *res,
			     void (*free_fn)(struct revocable_provider *rp))
{
	if (!rp)
		return;
	memset(rp, 0, sizeof(*rp));
	rp->priv_res = res;
	rp->priv_refcount = 1;
	rp->priv_state = REVOCABLE_LIVE;
	rp->priv_free_fn = free_fn;
	pthread_mutex_init(&rp->priv_lock, NULL);
	pthread_cond_init(&rp->priv_revoked_cond, NULL);
}

/**
 * revocable_provider_alloc() - allocate a provider for @res.
 * @res: the resource (may be NULL).
 *
 * Never waits for readers or grace periods.
 *
 * Return: the provider holding the owner reference, NULL if out of memory.
 */
struct revocable_provider *revocable_provider_alloc(void *res)
{
	struct revocable_provider *rp = malloc(sizeof(*rp));

	if (!rp)
		return NULL;
	revocable_provider_init(rp, res, NULL);
	rp->priv_allocated = true;
	return rp;
}

/**
 * revocable_provider_free() - revoke, wait for readers, drop the owner ref.
 * @rp: the provider (NULL is ignored).
 *
 * Called from inside an access to @rp this cannot wait for itself: it
 * reports the misuse on stderr and leaves the provider untouched.
 */
void revocable_provider_free(struct revocable_provider *rp)
{
	if (!rp)
		return;
	if (revocable_provider_revoke(rp) == -EDEADLK) {
		fprintf(stderr,
			"revocable: revocable_provider_free() inside an access to the same provider; not freed\n");
		return;
	}
	revocable_provider_put(rp);
}

/**
 * struct async_revoke - one asynchronous revocation.
 * @rp: the provider, referenced until the job ends.
 * @done: completion callback, may be NULL.
 * @arg: passed to @done.
 * @started: this job's caller started the revocation (so finishes it).
 * @go: set once @started is known; the worker waits for it.
 */
struct async_revoke {
	struct revocable_provider *rp;
	void (*done)(struct revocable_provider *rp, void *arg);
	void *arg;
	bool started;
	bool go;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *async_revoke_worker(void *data)
{
	struct async_revoke *job = data;

	revocable_on_worker = true;
	pthread_mutex_lock(&job->lock);
	while (!job->go)
		pthread_cond_wait(&job->cond, &job->lock);
	pthread_mutex_unlock(&job->lock);

	if (job->started)
		revoke_finish(job->rp);
	else
		revoke_wait(job->rp);
	if (job->done)
		job->done(job->rp, job->arg);
	revocable_provider_put(job->rp);
	pthread_cond_destroy(&job->cond);
	pthread_mutex_destroy(&job->lock);
	free(job);

	pthread_mutex_lock(&revocable_ctx.work_lock);
	revocable_ctx.async_inflight--;
	pthread_cond_broadcast(&revocable_ctx.work_cond);
	pthread_mutex_unlock(&revocable_ctx.work_lock);
	return NULL;
}

/**
 * revocable_provider_revoke_async() - revoke without blocking the caller.
 * @rp: the provider; the caller must hold a reference until the call returns.
 * @done: optional, called once on a library thread after the last reader
 *	left and the release callback ran (also when already revoked).
 * @arg: passed to @done.
 *
 * The revocation itself happens before this returns: new accesses get NULL
 * and a later revoke returns 0.  Only the wait for readers is handed to a
 * thread of its own, so one slow revoke never delays another.  Safe to call
 * from inside an access to @rp (the wait simply includes that access).
 *
 * Return: 0, or -EINVAL for a NULL @rp, -ENOMEM / -EAGAIN if the work could
 * not be started (then nothing was revoked and @done is not called).
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
	context_ensure();
	job = calloc(1, sizeof(*job));
	if (!job)
		return -ENOMEM;
	job->rp = revocable_provider_get(rp);
	job->done = done;
	job->arg = arg;
	pthread_mutex_init(&job->lock, NULL);
	pthread_cond_init(&job->cond, NULL);

	pthread_mutex_lock(&revocable_ctx.work_lock);
	revocable_ctx.async_inflight++;
	pthread_mutex_unlock(&revocable_ctx.work_lock);

	/* The thread first, so that a failure leaves nothing half revoked. */
	ret = start_detached(async_revoke_worker, job);
	if (ret) {
		pthread_mutex_lock(&revocable_ctx.work_lock);
		revocable_ctx.async_inflight--;
		pthread_cond_broadcast(&revocable_ctx.work_cond);
		pthread_mutex_unlock(&revocable_ctx.work_lock);
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

/**
 * revocable_provider_set_release() - set the callback run after revocation.
 * @rp: the provider.
 * @release: called once with the resource after revocation and after the
 *	last reader left (before a sync revoke returns and before async done);
 *	if the provider is never revoked, when its last reference goes.
 * @arg: passed to @release.
 *
 * Return: 0, -EBUSY if already revoked, -EINVAL if @rp is NULL.
 */
int revocable_provider_set_release(struct revocable_provider *rp,
				   void (*release)(void *res, void *arg),
				   void *arg)
{
	int ret = 0;

	if (!rp)
		return -EINVAL;
	pthread_mutex_lock(&rp->priv_lock);
	if (rp->priv_state != REVOCABLE_LIVE) {
		ret = -EBUSY;
		goto out;
	}
	rp->priv_release = release;
	rp->priv_release_arg = arg;
out:
	pthread_mutex_unlock(&rp->priv_lock);
	return ret;
}

/**
 * revocable_provider_get() - take a reference on a provider.
 * @rp: the provider (NULL is passed through).
 *
 * A reference keeps the provider's memory valid, revoked or not.
 *
 * Return: @rp.
 */
struct revocable_provider *revocable_provider_get(struct revocable_provider *rp)
{
	if (rp && rp != &revocable__null_provider)
		__atomic_fetch_add(&rp->priv_refcount, 1, __ATOMIC_RELAXED);
	return rp;
}

/**
 * revocable_provider_put() - drop a reference on a provider.
 * @rp: the provider (NULL is ignored).
 *
 * The last put schedules the teardown on a library thread.
 */
void revocable_provider_put(struct revocable_provider *rp)
{
	long old;

	if (!rp || rp == &revocable__null_provider)
		return;
	old = __atomic_fetch_sub(&rp->priv_refcount, 1, __ATOMIC_ACQ_REL);
	if (old == 1)
		defer_free(rp);
	else if (old <= 0)
		fprintf(stderr, "revocable: provider %p reference underflow\n",
			(void *)rp);
}

/**
 * revocable_provider_is_revoked() - has revocation started?
 * @rp: the provider.
 *
 * A racy hint: the answer may be stale as soon as it is returned.  Only
 * revocable_try_access() decides whether the resource may be used.
 *
 * Return: true once a revoke has begun (and for a NULL @rp).
 */
bool revocable_provider_is_revoked(struct revocable_provider *rp)
{
	if (!rp)
		return true;
	return __atomic_load_n(&rp->priv_state, __ATOMIC_RELAXED) !=
	       REVOCABLE_LIVE;
}

#ifdef REVOCABLE_LAB_V3_INDEX_BUG
/*
 * Teaching lab only (docs/teaching.md, exercise 1; docs/design.md): with
 * this switch the file builds the lab's library, never the installed one.
 * The v3 patch kept the SRCU index of "the" access in the shared struct
 * revocable; here a handle's "index" is the slot of the latest access
 * made through it, by whichever thread, and the next release through the
 * handle clears that slot.  The index lives in a table of the context
 * keyed by the handle, so struct revocable keeps the installed layout and
 * programs built against the installed header run on the lab library.
 * Handles beyond the table's size simply behave correctly.
 */
static struct revocable__slot **lab_index_of(const struct revocable *rev,
					     bool add)
{
	struct revocable_lab_index *lab = &revocable_ctx.lab;
	size_t i, free_at = REVOCABLE_LAB_HANDLES;

	for (i = 0; i < REVOCABLE_LAB_HANDLES; i++) {
		if (lab->rev[i] == rev)
			return &lab->slot[i];
		if (!lab->rev[i] && free_at == REVOCABLE_LAB_HANDLES)
			free_at = i;
	}
	if (!add || free_at == REVOCABLE_LAB_HANDLES)
		return NULL;
	lab->rev[free_at] = rev;
	return &lab->slot[free_at];
}

static void lab_forget(const struct revocable *rev)
{
	struct revocable__slot **index;

	pthread_mutex_lock(&revocable_ctx.lab.lock);
	index = lab_index_of(rev, false);
	if (index) {
		*index = NULL;
		revocable_ctx.lab.rev[index - revocable_ctx.lab.slot] = NULL;
	}
	pthread_mutex_unlock(&revocable_ctx.lab.lock);
}

static void *lab_try_access(struct revocable *rev)
{
	void *res = revocable__try_access_inline(rev);
	struct revocable__reader *rd = revocable__tls_reader;
	uint32_t depth = (uint32_t)rd->state;	/* any flag: no slot used */
	struct revocable__slot **index;

	if (!rev || depth == 0 || depth > REVOCABLE_READER_SLOTS)
		return res;
	pthread_mutex_lock(&revocable_ctx.lab.lock);
	index = lab_index_of(rev, true);
	if (index)
		*index = &rd->slot[depth - 1];	/* the bug: shared */
	pthread_mutex_unlock(&revocable_ctx.lab.lock);
	return res;
}

static void lab_release(struct revocable *rev)
{
	struct revocable__reader *rd = revocable__tls_reader;
	uint32_t depth = (uint32_t)rd->state;
	struct revocable__slot **index, *slot = NULL;

	if (rev) {
		pthread_mutex_lock(&revocable_ctx.lab.lock);
		index = lab_index_of(rev, false);
		if (index)
			slot = *index;
		pthread_mutex_unlock(&revocable_ctx.lab.lock);
	}
	if (!slot || depth == 0 || depth > REVOCABLE_READER_SLOTS) {
		revocable__release_inline(rev);
		return;
	}
	/* End the access the handle remembers - maybe another thread's,
	 * leaving ours recorded and theirs unprotected. */
	__atomic_store_n(&slot->rp, NULL, __ATOMIC_RELEASE);
	rd->state -= 1;
}

#define read_side_enter(rev)	lab_try_access(rev)
#define read_side_exit(rev)	lab_release(rev)
#else
static void lab_forget(const struct revocable *rev)
{
}

#define read_side_enter(rev)	revocable__try_access_inline(rev)
#define read_side_exit(rev)	revocable__release_inline(rev)
#endif /* REVOCABLE_LAB_V3_INDEX_BUG */

/**
 * revocable_init() - set up a consumer handle in caller memory.
 * @rev: the handle.
 * @rp: the provider (a revoked one is fine; NULL makes every access NULL).
 */
void revocable_init(struct revocable *rev, struct revocable_provider *rp)
{
	if (!rev)
		return;
	rev->priv_rp = rp ? revocable_provider_get(rp) : &revocable__null_provider;
	lab_forget(rev);
}

/**
 * revocable_fini() - drop the handle's provider reference.
 * @rev: the handle; it must not be inside an access.
 */
void revocable_fini(struct revocable *rev)
{
	if (!rev)
		return;
	revocable_provider_put(rev->priv_rp);
	lab_forget(rev);
	/* Accesses after fini fail safe instead of touching freed memory. */
	rev->priv_rp = &revocable__null_provider;
}

/**
 * revocable_alloc() - allocate a consumer handle.
 * @rp: the provider; the caller must hold a reference to it.  Attaching to
 *	an already revoked provider is safe: accesses yield NULL.
 *
 * Return: the handle, or NULL for a NULL @rp or out of memory.
 */
struct revocable *revocable_alloc(struct revocable_provider *rp)
{
	struct revocable *rev;

	if (!rp)
		return NULL;
	rev = malloc(sizeof(*rev));
	if (!rev)
		return NULL;
	revocable_init(rev, rp);
	return rev;
}

/**
 * revocable_free() - free a consumer handle.
 * @rev: the handle (NULL is ignored).
 */
void revocable_free(struct revocable *rev)
{
	if (!rev)
		return;
	revocable_fini(rev);
	free(rev);
}

/**
 * revocable_try_access() - begin an access.
 * @rev: the handle.
 *
 * Always pair with revocable_release() in the same thread, even when this
 * returns NULL.  The reader may block while holding the access.
 *
 * Return: the resource, or NULL if revoked.
 */
void *revocable_try_access(struct revocable *rev)
{
	return read_side_enter(rev);
}

/**
 * revocable_release() - end an access begun by revocable_try_access().
 * @rev: the handle.
 */
void revocable_release(struct revocable *rev)
{
	read_side_exit(rev);
}

/**
 * revocable_guard_enter() - begin an access tracked by a stack guard.
 * @guard: the guard (REVOCABLE_GUARD() releases it at scope exit).
 * @rev: the handle.
 *
 * Return: the resource, or NULL if revoked.
 */
void *revocable_guard_enter(struct revocable_guard *guard,
			    struct revocable *rev)
{
	guard->priv_rev = rev;
	guard->priv_entered = true;
	guard->priv_res = read_side_enter(rev);
	return guard->priv_res;
}

/**
 * revocable_guard_exit() - end the guard's access; idempotent.
 * @guard: the guard.
 */
void revocable_guard_exit(struct revocable_guard *guard)
{
	if (!guard->priv_entered)
		return;
	guard->priv_entered = false;
	read_side_exit(guard->priv_rev);
}
