// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable - revocable references to resources that can vanish.
 *
 * Read side: every thread owns a reader record (registered automatically on
 * its first access, freed when it exits) holding a small stack of slots.
 * An access writes the provider pointer into the next slot, then loads the
 * resource pointer.  Revoke (revoke.c) publishes NULL, forces a full
 * barrier on every thread with sys_membarrier(), then waits only for the
 * slots that still name this provider - so a reader sleeping in provider A
 * never delays a revoke of provider B.  The ordering argument is in
 * docs/design.md.  This file: the registry of reader threads and the slow
 * path of access and release (the handle's exported entry points are in
 * access.c, the accesses refused for lack of memory in refused.c).
 */
#include "config.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "revocable_internal.h"

struct revocable_context revocable__ctx = {
	.once = PTHREAD_ONCE_INIT,
	.readers_lock = PTHREAD_MUTEX_INITIALIZER,
	.readers = CDS_LIST_HEAD_INIT(revocable__ctx.readers),
	.next_id = 1,	/* any start works: ids compare by difference */
	.work_lock = PTHREAD_MUTEX_INITIALIZER,
	.work_cond = PTHREAD_COND_INITIALIZER,
	.defer_tail = &revocable__ctx.defer_head,
	.release_jobs_tail = &revocable__ctx.release_jobs,
	.async_jobs = CDS_LIST_HEAD_INIT(revocable__ctx.async_jobs),
};

struct revocable_provider revocable__null_provider = {
	.priv_res = NULL,
	.priv_refcount = 1,
	.priv_state = REVOCABLE_REVOKED,
	.priv_lock = PTHREAD_MUTEX_INITIALIZER,
	.priv_revoked_cond = PTHREAD_COND_INITIALIZER,
};

const long revocable__slot_marks[2];

struct revocable__reader revocable__unregistered_reader = {
	.slot = { [0] = { .rp = SLOT_SLOW } },
};
__thread struct revocable__reader *revocable__tls_reader =
	&revocable__unregistered_reader;

__thread bool revocable__on_worker;

/*
 * The slow paths may allocate and lock (registration, growing the overflow
 * stack).  A signal handler that accesses while its thread is inside one
 * of them would deadlock or corrupt it, so such accesses are refused
 * instead (NULL, as if revoked) and counted apart: a handler pairs its
 * accesses and releases before the interrupted code resumes.
 */
static __thread bool revocable_in_slow;
static __thread unsigned int revocable_handler_refused;
/*
 * Set by a slow path just before its last slot store, the one that may
 * leave slot 0 free (slot0_mark_done()): from there on it only reads and
 * wakes.  A handler that arrives then may find slot 0 free and take it
 * inline; its further accesses must then be real ones, not refusals,
 * because a refusal is counted without its provider and a release during
 * the slow path would end a refusal even when it names slot 0's provider
 * (out of order), leaving slot 0 held.  So once this is set a handler's
 * slow steps run in full, as between two slow paths.
 */
static __thread bool revocable_slow_slots_done;


int revocable__membarrier(int cmd)
{
	if (cmd == MEMBARRIER_CMD_PRIVATE_EXPEDITED)
		__atomic_fetch_add(&revocable__ctx.membarriers, 1, __ATOMIC_RELAXED);
	return syscall(__NR_membarrier, cmd, 0, 0);
}

long revocable__futex(unsigned int *word, int op, unsigned int val,
		       const struct timespec *timeout)
{
	return syscall(SYS_futex, word, op, val, timeout, NULL, 0);
}

static void wake_all_revokers(struct reader_record *rec)
{
	REVOCABLE__REVOKERS_WOKEN();
	__atomic_fetch_add(&rec->wake_seq, 1, __ATOMIC_SEQ_CST);
	revocable__futex(&rec->wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL);
}

/**
 * revocable__wake_revokers() - a reader's release found revokers asleep.
 * @rd: the releasing thread's reader state.
 *
 * Out of line and rare: only releases while a revoker waits get here.  It
 * wakes them only when a slot that a revoker waits on is empty (or a
 * hole): the release that called us left its own slot so, and a release of an
 * unrelated access nested above costs neither a wake-up nor the revoker's
 * re-park.  A revoker counts itself in @slot_waiters before @waiters, so
 * seeing its @waiters we see its slot too; a revoker whose count we miss
 * counted itself after our load of @waiters and re-checks the slot after
 * its membarrier, seeing it empty (the argument of docs/design.md,
 * "Waking the revoker", for @waiters alone).
 */
void revocable__wake_revokers(struct revocable__reader *rd)
{
	struct reader_record *rec = to_record(rd);
	unsigned int i;

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++) {
		struct revocable_provider *held;

		if (!__atomic_load_n(&rec->slot_waiters[i], __ATOMIC_SEQ_CST))
			continue;
		held = __atomic_load_n(&rd->slot[i].rp, __ATOMIC_RELAXED);
		if (!held || held == SLOT_HOLE) {
			wake_all_revokers(rec);
			return;
		}
	}
}

void revocable__record_put(struct reader_record *rec)
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

	pthread_mutex_lock(&revocable__ctx.readers_lock);
	cds_list_del(&rec->node);
	revocable__ctx.nr_readers--;
	pthread_mutex_unlock(&revocable__ctx.readers_lock);

	for (i = 0; i < REVOCABLE_READER_SLOTS; i++) {
		struct revocable_provider *held = rec->pub.slot[i].rp;

		if (!held || held == SLOT_SLOW)
			continue;
		__atomic_store_n(&rec->pub.slot[i].rp, NULL, __ATOMIC_SEQ_CST);
		if (slot_provider(held))
			dropped++;
	}
	if (dropped && __atomic_load_n(&rec->pub.waiters, __ATOMIC_SEQ_CST))
		wake_all_revokers(rec);
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
	revocable__record_put(rec);
}

/*
 * fork() from a multi-threaded process copies one thread.  The library's
 * locks are held across it so the child gets them in a known state, and
 * the child then forgets what only the other threads knew: their reader
 * records (they are not inside anything in the child; a revoke there must
 * not wait for them), the worker (it does not exist; what it was doing
 * counts as done, what was queued is started again), the async revokes in
 * flight (their threads are gone too).
 */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&revocable__ctx.readers_lock);
	pthread_mutex_lock(&revocable__ctx.work_lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&revocable__ctx.work_lock);
	pthread_mutex_unlock(&revocable__ctx.readers_lock);
}

/* Counted accesses to @rp on the thread of @self: the count @rp must
 * have in a fork() child, where no other thread exists. */
static long own_overflow_count(const struct revocable__reader *self,
			       const struct revocable_provider *rp)
{
	const struct reader_record *rec;
	long n = 0;
	uint32_t i;

	if (!self)
		return 0;
	rec = caa_container_of(self, const struct reader_record, pub);
	for (i = 0; i < self->overflow_depth; i++)
		n += rec->overflow[i] == (uintptr_t)rp;
	return n;
}

/*
 * In a fork() child: @rec's thread is gone, so are its counted accesses.
 * It may have been anywhere in one at the fork - between its entry and
 * the increment, or the decrement and the entry's removal - so its count
 * is not subtracted but every provider its entries name is recounted from
 * the forking thread's own entries (an entry is written before the
 * counter moves: overflow_access()).
 */
static void forget_overflow_counts(struct reader_record *rec,
				   const struct revocable__reader *self)
{
	uint32_t i;

	for (i = 0; i < rec->pub.overflow_depth && i < rec->overflow_cap; i++) {
		struct revocable_provider *rp = (struct revocable_provider *)
			(rec->overflow[i] & ~OVERFLOW_UNCOUNTED);

		if (rp == &revocable__null_provider)
			continue;
		__atomic_store_n(&rp->priv_overflow_readers,
				 own_overflow_count(self, rp), __ATOMIC_RELAXED);
	}
}

static void atfork_child(void)
{
	struct revocable__reader *self = current_reader();
	struct reader_record *rec, *tmp;
	struct revocable__release_job *job;
	struct revocable_provider *rp;
	uint64_t queued = 0;

	/* The records are left allocated: freeing in a fork handler is not
	 * safe everywhere, and this is a one-time leak in the child. */
	cds_list_for_each_entry_safe(rec, tmp, &revocable__ctx.readers, node) {
		if (&rec->pub == self)
			continue;
		forget_overflow_counts(rec, self);
		cds_list_del(&rec->node);
		revocable__ctx.nr_readers--;
	}
	if (self)
		self->waiters = 0;

	for (rp = revocable__ctx.defer_head; rp; rp = rp->priv_defer_next)
		queued++;
	revocable__ctx.defer_done = revocable__ctx.defer_queued - queued;
	queued = 0;
	for (job = revocable__ctx.release_jobs; job; job = job->next)
		queued++;
	revocable__ctx.jobs_done = revocable__ctx.jobs_queued - queued;
	revocable__ctx.defer_worker_running = false;
	/* The jobs' memory is left behind, as the records above. */
	CDS_INIT_LIST_HEAD(&revocable__ctx.async_jobs);
	revocable__on_worker = false;

	pthread_mutex_init(&revocable__ctx.readers_lock, NULL);
	pthread_mutex_init(&revocable__ctx.work_lock, NULL);
	pthread_cond_init(&revocable__ctx.work_cond, NULL);
}

static void context_init(void)
{
	/* REVOCABLE_NO_MEMBARRIER=1 forces the fallback, to test it. */
	const char *no_membarrier = secure_getenv("REVOCABLE_NO_MEMBARRIER");
	int cmds = revocable__membarrier(MEMBARRIER_CMD_QUERY);

	if (!(no_membarrier && *no_membarrier == '1') && cmds >= 0 &&
	    (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    revocable__membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
		revocable__ctx.use_membarrier = true;
	__atomic_store_n(&revocable__ctx.have_key,
			 pthread_key_create(&revocable__ctx.key,
					    reader_thread_exit) == 0,
			 __ATOMIC_RELEASE);
	if (pthread_atfork(atfork_prepare, atfork_parent, atfork_child))
		fprintf(stderr, "revocable: no fork handlers; a child of a threaded parent may hang\n");
}

/*
 * dlclose() unmaps the library while threads it registered may live on:
 * a key destructor left installed would be called at their exit into
 * unmapped code.  Deleting the key drops the destructor (their records
 * are leaked: nothing may run for them any more).  The fork handlers need
 * nothing: glibc removes a library's atfork handlers when it is unloaded.
 * (The library's own threads pin it while they live: teardown.c.)
 */
__attribute__((destructor)) static void context_unload(void)
{
	/* Threads may be exiting meanwhile (at exit(), say): they read it. */
	if (!__atomic_exchange_n(&revocable__ctx.have_key, false,
				 __ATOMIC_ACQ_REL))
		return;
	pthread_key_delete(revocable__ctx.key);
}

void revocable__reader_exit_now(void)
{
	void *rec;

	if (!__atomic_load_n(&revocable__ctx.have_key, __ATOMIC_ACQUIRE))
		return;
	rec = pthread_getspecific(revocable__ctx.key);
	if (!rec)
		return;
	pthread_setspecific(revocable__ctx.key, NULL);
	reader_thread_exit(rec);
}

void revocable__context_ensure(void)
{
	pthread_once(&revocable__ctx.once, context_init);
}

/* Returns NULL only when out of memory: the access then fails safe. */
static struct revocable__reader *reader_register(void)
{
	struct reader_record *rec;
	void *mem;

	revocable__context_ensure();
	/* A cache line of its own: no false sharing between readers. */
	if (REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_READER) ||
	    posix_memalign(&mem, 64, sizeof(*rec)))
		return NULL;
	rec = mem;
	memset(rec, 0, sizeof(*rec));
	/* Without membarrier the slot store cannot be ordered cheaply:
	 * every access takes the counted, fenced path instead, sent there
	 * by slot 0's marker.  With it, slot 0 starts as a hole, which
	 * try_access_slow() takes as free: once the record is published a
	 * signal handler's access must not find slot 0 free and take it
	 * inline under the registering access, which would then nest above
	 * the handler's and leave its provider in slot 0 after the handler's
	 * releases (they are refusals' releases while a slow path runs). */
	rec->pub.slot[0].rp = revocable__ctx.use_membarrier ? SLOT_HOLE : SLOT_SLOW;
	rec->refs = 1;

	pthread_mutex_lock(&revocable__ctx.readers_lock);
	rec->id = revocable__ctx.next_id++;
	cds_list_add(&rec->node, &revocable__ctx.readers);
	revocable__ctx.nr_readers++;
	pthread_mutex_unlock(&revocable__ctx.readers_lock);

	if (__atomic_load_n(&revocable__ctx.have_key, __ATOMIC_ACQUIRE))
		pthread_setspecific(revocable__ctx.key, rec);
	else
		fprintf(stderr, "revocable: no thread-exit hook; reader record will leak\n");
	revocable__tls_reader = &rec->pub;
	return &rec->pub;
}

/* The calling slow path's next store is its last to the slots. */
static void slot0_mark_done(void)
{
	revocable_slow_slots_done = true;
	cmm_barrier();
}

/* Accesses this thread holds besides slot 0's: all newer than it. */
static unsigned long held_above_slot0(const struct revocable__reader *rd)
{
	return rd->depth + rd->overflow_depth + revocable__refused_total() +
	       revocable_handler_refused;
}

/*
 * Once an access above slot 0 is counted in held_above_slot0(), and before
 * it is recorded: mark slot 0's provider, so that its release comes out of
 * line, where the newest access of the provider is found.  Counting first
 * matters: a signal handler's access and release between the two steps
 * settles slot 0 as it finds the count (slot0_settle()), so it must find
 * it raised.
 */
static void slot0_mark_nested(struct revocable__reader *rd)
{
	struct revocable_provider *v = rd->slot[0].rp;

	if (!slot_provider(v) || ((uintptr_t)v & SLOT_NESTED))
		return;
	__atomic_store_n(&rd->slot[0].rp,
			 (struct revocable_provider *)((uintptr_t)v | SLOT_NESTED),
			 __ATOMIC_RELAXED);
}

/*
 * After the slow path removed an access above slot 0 and uncounted it:
 * with nothing held above, slot 0's access is the newest again (unmarked)
 * or, a hole, the slot is free.  Always the last store: until then slot 0
 * keeps the inline steps out of line, so a signal handler arriving in
 * between finds the slow path and its refusal, never a free slot 0 under
 * bookkeeping that still says otherwise.
 */
static void slot0_settle(struct revocable__reader *rd)
{
	struct revocable_provider *v = rd->slot[0].rp;

	if (held_above_slot0(rd))
		return;
	if (v == SLOT_HOLE)
		__atomic_store_n(&rd->slot[0].rp, NULL, __ATOMIC_RELAXED);
	else if ((uintptr_t)v & SLOT_NESTED)
		__atomic_store_n(&rd->slot[0].rp, slot_provider(v),
				 __ATOMIC_RELAXED);
}

static bool overflow_reserve(struct reader_record *rec)
{
	size_t cap;
	uintptr_t *grown;

	if (rec->pub.overflow_depth < rec->overflow_cap)
		return true;
	cap = rec->overflow_cap ? rec->overflow_cap * 2 : 16;
	grown = REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_OVERFLOW) ? NULL :
		realloc(rec->overflow, cap * sizeof(*grown));
	if (!grown)
		return false;
	rec->overflow = grown;
	rec->overflow_cap = cap;
	return true;
}

/*
 * Accesses that do not fit a slot count themselves on the provider.  The
 * RMW and the load after it are both sequentially consistent, and so are
 * the revoker's NULL store and its load of the count: either the revoker
 * sees the count or the load after the increment sees NULL (then the
 * access uncounts itself and sees nothing).  Before all that, a load
 * that already sees NULL ends the access with the counter untouched: the
 * resource never comes back once NULL, so such an access needs no count
 * at all, and the safety argument rests only on the load after the
 * increment.  That first check is what keeps a revoke live: once the
 * NULL store is visible, new accesses never raise the counter, so only
 * the accesses already past the check can hold it above zero - a bounded
 * set, where a stream of increment-then-decrement held it for seconds.
 */
static void *overflow_access(struct revocable__reader *rd,
			     struct revocable_provider *rp)
{
	struct reader_record *rec = rd ? to_record(rd) : NULL;
	uintptr_t *e;
	void *res;

	if (!rec || !overflow_reserve(rec)) {
		/* Out of memory: nowhere to record the access, so it must
		 * not see the resource.  Failing safe looks like a revoke.
		 * Slot 0's mark keeps releases off the inline path while
		 * refused accesses are open. */
		revocable__refused_add(rp);
		cmm_barrier();
		if (rd)
			slot0_mark_nested(rd);
		return NULL;
	}
	/*
	 * The entry names @rp before the counter can move: a fork() child
	 * recomputes the counts of every provider that another thread's
	 * entries name (atfork_child()), which covers the increment only if
	 * the entry is there first.
	 */
	e = &rec->overflow[rd->overflow_depth];
	*e = (uintptr_t)rp | OVERFLOW_UNCOUNTED;
	rd->overflow_depth++;
	cmm_barrier();
	slot0_mark_nested(rd);
	cmm_barrier();
	if (rp == &revocable__null_provider ||
	    !__atomic_load_n(&rp->priv_res, __ATOMIC_SEQ_CST))
		return NULL;	/* revoked (or the never written sentinel) */
	*e = (uintptr_t)rp;
	cmm_barrier();
	__atomic_fetch_add(&rp->priv_overflow_readers, 1, __ATOMIC_SEQ_CST);
	REVOCABLE__OVERFLOW_COUNTED(rp);
	res = __atomic_load_n(&rp->priv_res, __ATOMIC_SEQ_CST);
	if (!res) {
		__atomic_fetch_sub(&rp->priv_overflow_readers, 1,
				   __ATOMIC_RELEASE);
		*e |= OVERFLOW_UNCOUNTED;
	}
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
static void *try_access_slow(struct revocable_provider *rp);

/*
 * Back to the caller's state: not in a slow path, or, for a handler's
 * slow path run inside another's finished one, that one's.  The flag
 * first: a handler arriving between the two stores must not find "in a
 * slow path, slots not done" over a slot 0 this path may have freed.
 */
static void slow_path_leave(bool outer_in_slow, bool outer_slots_done)
{
	revocable_in_slow = outer_in_slow;
	cmm_barrier();
	revocable_slow_slots_done = outer_slots_done;
}

void *revocable__try_access_slow(struct revocable_provider *rp)
{
	void *res;

	bool outer_in_slow = revocable_in_slow;
	bool outer_slots_done = revocable_slow_slots_done;

	if (outer_in_slow && !outer_slots_done) {
		struct revocable__reader *rd = current_reader();

		revocable_handler_refused++;
		cmm_barrier();
		if (rd)
			slot0_mark_nested(rd);
		return NULL;
	}
	revocable_in_slow = true;
	revocable_slow_slots_done = false;
	cmm_barrier();
	res = try_access_slow(rp);
	cmm_barrier();
	slow_path_leave(outer_in_slow, outer_slots_done);
	return res;
}

/* The inline path's steps, in slot @i of the calling thread's reader. */
static void *slot_access(struct revocable__reader *rd, unsigned int i,
			 struct revocable_provider *rp)
{
	void *res;

	__atomic_store_n(&rd->slot[i].rp, rp, REVOCABLE__ORD_SLOT);
	revocable__read_fence();
	res = __atomic_load_n(&rp->priv_res, REVOCABLE__ORD_RES);
	if (!res)
		revocable__count_revoked(&rd->slot[i]);
	return res;
}

static void *try_access_slow(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();
	struct revocable_provider *held0;
	unsigned int i;

	if (!rd)
		rd = reader_register();
	if (!rd)
		return overflow_access(NULL, rp);
	held0 = rd->slot[0].rp;
	if (!held0 || held0 == SLOT_HOLE) {
		/* A thread's first access (slot 0 a hole since registration),
		 * or one a signal handler made while a slow path freed slot 0:
		 * slot 0 as inline.  Unless it holds accesses refused before
		 * it had a record: a hole keeps the inline path off slot 0
		 * until they are released. */
		if (!held_above_slot0(rd))
			return slot_access(rd, 0, rp);
		if (!held0) {
			__atomic_store_n(&rd->slot[0].rp, SLOT_HOLE, __ATOMIC_RELAXED);
			held0 = SLOT_HOLE;
		}
	}
	/*
	 * While overflow entries exist, new accesses go there too even if a
	 * slot was freed meanwhile: every overflow entry must stay newer than
	 * every slot, so that release always ends the most recent access.
	 * That matters: of two accesses to one provider the older may have
	 * seen the resource and the newer NULL, so they are not
	 * interchangeable.
	 */
	if (held0 == SLOT_SLOW || rd->overflow_depth || revocable__refused_total() ||
	    rd->depth + 1 >= REVOCABLE_READER_SLOTS)
		return overflow_access(rd, rp);

	/* A nested access: the inline path's steps in the next free slot
	 * (docs/design.md, "Read side"), counted before slot 0 is marked. */
	i = ++rd->depth;
	cmm_barrier();
	slot0_mark_nested(rd);
	cmm_barrier();
	return slot_access(rd, i, rp);
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
static void release_slow(struct revocable_provider *rp);

void revocable__release_slow(struct revocable_provider *rp)
{
	bool outer_in_slow = revocable_in_slow;
	bool outer_slots_done = revocable_slow_slots_done;

	if (outer_in_slow && !outer_slots_done) {
		/* A signal handler's release while we were in a slow path:
		 * its own accesses here were refused (see above). */
		struct revocable__reader *rd = current_reader();

		if (revocable_handler_refused) {
			revocable_handler_refused--;
			cmm_barrier();
			if (rd)
				slot0_settle(rd);
		}
		return;
	}
	revocable_in_slow = true;
	revocable_slow_slots_done = false;
	cmm_barrier();
	release_slow(rp);
	cmm_barrier();
	slow_path_leave(outer_in_slow, outer_slots_done);
}

/* End the newest overflow entry of @rp, if there is one. */
static bool release_overflow(struct revocable__reader *rd,
			     struct revocable_provider *rp)
{
	struct reader_record *rec = to_record(rd);
	unsigned int i;

	for (i = rd->overflow_depth; i-- > 0;) {
		uintptr_t e = rec->overflow[i];

		if ((e & ~OVERFLOW_UNCOUNTED) != (uintptr_t)rp)
			continue;
		memmove(&rec->overflow[i], &rec->overflow[i + 1],
			(rd->overflow_depth - i - 1) * sizeof(e));
		rd->overflow_depth--;
		if (!(e & OVERFLOW_UNCOUNTED))
			__atomic_fetch_sub(&rp->priv_overflow_readers, 1,
					   __ATOMIC_RELEASE);
		cmm_barrier();
		slot0_mark_done();
		slot0_settle(rd);
		return true;
	}
	return false;
}

/*
 * End the newest slot access of @rp, if there is one.  Below the top the
 * slot becomes a hole; the top is emptied and the holes under it popped.
 * Only holes: a NULL below the top would be an access that took its depth
 * and has not stored its provider yet - popping it would end an access in
 * progress.
 * Slot 0 holds the oldest access: while anything newer is held it becomes
 * a hole too, freed by slot0_settle() with the last of them, so that the
 * inline path never takes slot 0 below newer accesses.
 */
static bool release_slot(struct revocable__reader *rd,
			 struct revocable_provider *rp)
{
	unsigned int i;

	for (i = rd->depth + 1; i-- > 0;) {
		if (slot_provider(rd->slot[i].rp) != rp)
			continue;
		if (i == 0) {
			slot0_mark_done();
			__atomic_store_n(&rd->slot[0].rp,
					 held_above_slot0(rd) ? SLOT_HOLE : NULL,
					 REVOCABLE__ORD_END);
		} else if (i < rd->depth) {
			__atomic_store_n(&rd->slot[i].rp, SLOT_HOLE,
					 REVOCABLE__ORD_END);
		} else {
			__atomic_store_n(&rd->slot[i].rp, NULL,
					 REVOCABLE__ORD_END);
			rd->depth--;
			while (rd->depth && rd->slot[rd->depth].rp == SLOT_HOLE) {
				__atomic_store_n(&rd->slot[rd->depth].rp, NULL,
						 __ATOMIC_RELAXED);
				rd->depth--;
			}
			cmm_barrier();
			slot0_mark_done();
			slot0_settle(rd);
		}
		/*
		 * The inline release's check, with its argument: the
		 * revoker's sys_membarrier() makes this compiler barrier a
		 * full fence exactly when it matters.  No cmm_smp_mb(): slots
		 * are used only where sys_membarrier() is (without it slot 0
		 * holds SLOT_SLOW for good and every access is counted), and
		 * in TSan mode the store and the load are seq_cst.
		 */
		revocable__read_fence();
		if (__atomic_load_n(&rd->waiters, REVOCABLE__ORD_SLOT))
			revocable__wake_revokers(rd);
		return true;
	}
	return false;
}

static void release_slow(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();

	if (revocable__refused_total() && revocable__refused_end(rd, rp)) {
		cmm_barrier();
		slot0_mark_done();
		if (rd)
			slot0_settle(rd);
		return;
	}
	if (rd && (release_overflow(rd, rp) || release_slot(rd, rp)))
		return;
	fprintf(stderr,
		"revocable: revocable_release() without a matching access (ignored)\n");
}

/* Does @rd record an access to @rp (in a slot or the overflow stack)? */
bool revocable__recorded_access(struct revocable__reader *rd,
			    struct revocable_provider *rp)
{
	struct reader_record *rec = to_record(rd);
	unsigned int i;

	for (i = 0; i <= rd->depth; i++)
		if (slot_provider(rd->slot[i].rp) == rp)
			return true;
	for (i = 0; i < rd->overflow_depth; i++)
		if ((rec->overflow[i] & ~OVERFLOW_UNCOUNTED) == (uintptr_t)rp)
			return true;
	return false;
}

/**
 * revocable__others_hold() - does another thread's slot name @rp now?
 * @rp: the provider.
 *
 * A snapshot for misuse reports only, never for correctness; overflow
 * stacks (private to their threads) are not looked at.
 *
 * Return: true if a slot of another registered thread names @rp.
 */
bool revocable__others_hold(const struct revocable_provider *rp)
{
	struct revocable__reader *self = current_reader();
	struct reader_record *rec;
	bool found = false;
	unsigned int i;

	revocable__context_ensure();
	pthread_mutex_lock(&revocable__ctx.readers_lock);
	cds_list_for_each_entry(rec, &revocable__ctx.readers, node) {
		if (&rec->pub == self)
			continue;
		for (i = 0; i < REVOCABLE_READER_SLOTS && !found; i++)
			found = slot_provider(__atomic_load_n(&rec->pub.slot[i].rp,
							      __ATOMIC_RELAXED)) == rp;
		if (found)
			break;
	}
	pthread_mutex_unlock(&revocable__ctx.readers_lock);
	return found;
}

/* Is the calling thread inside an access to @rp?  Revoking would wait for
 * ourselves forever. */
bool revocable__self_holds(struct revocable_provider *rp)
{
	struct revocable__reader *rd = current_reader();

	return rd && revocable__recorded_access(rd, rp);
}

#ifdef REVOCABLE_TEST_HOOKS
/*
 * The test-only seams' defaults (revocable_internal.h): a test program
 * built with the hooks defines the ones it watches, and these weak ones
 * stand for the rest.
 */
__attribute__((weak)) void revocable__test_overflow_counted(const struct revocable_provider *rp)
{
	(void)rp;
}

__attribute__((weak)) void revocable__test_revokers_woken(void)
{
}

__attribute__((weak)) void revocable__test_revoker_parks(void)
{
}

__attribute__((weak)) void revocable__test_backoff_sleeps(long ns)
{
	(void)ns;
}

__attribute__((weak)) void revocable__test_scan_noted(const struct revocable_provider *rp)
{
	(void)rp;
}
#endif
