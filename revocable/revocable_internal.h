/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revocable_internal.h - what the library's source files share and nobody
 * else sees: the reader record, the process-wide context, and the calls
 * between the read side (reader.c), revocation (revoke.c) and references
 * with the deferred teardown (teardown.c).  Every name declared here is
 * hidden: revocable.sym exports only the API of revocable.h.
 */
#ifndef REVOCABLE_INTERNAL_H
#define REVOCABLE_INTERNAL_H

#ifndef REVOCABLE_NO_INLINE
#define REVOCABLE_NO_INLINE
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <urcu/list.h>

#include "revocable.h"

/*
 * The low bit of slot 0 is the slow path's mark (SLOT_NESTED below): a
 * provider's address must leave it clear.
 */
_Static_assert(_Alignof(struct revocable_provider) >= 2,
	       "slot 0's SLOT_NESTED bit needs even provider addresses");

/* Shared between the library's files, never exported from the .so. */
#define REVOCABLE__INTERNAL __attribute__((visibility("hidden")))

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
 * @slot_waiters: revokers waiting on each slot: a release wakes them only
 *	if a slot waited on is empty, not for every access's release.
 * @id: registration number, increasing: the list is newest first.
 *	64 bits on every ABI, and compared only by signed difference
 *	(revoke.c), so neither ILP32's 2^32 registrations nor a wrap of the
 *	counter itself skips a record.
 */
struct reader_record {
	struct revocable__reader pub;
	struct cds_list_head node;
	uint64_t id;
	long refs;
	uintptr_t *overflow;
	size_t overflow_cap;
	unsigned int wake_seq;
	unsigned int slot_waiters[REVOCABLE_READER_SLOTS];
};

/* A release callback still due for an embedded provider already gone. */
struct revocable__release_job {
	struct revocable__release_job *next;
	void (*release)(void *res, void *arg);
	void *res;
	void *arg;
};

/* An async revoke in flight, as revocable_barrier() sees it. */
struct revocable__async_link {
	struct cds_list_head node;	/* in revocable__ctx.async_jobs */
	uint64_t seq;			/* start order */
};

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
	uint64_t membarriers;		/* PRIVATE_EXPEDITED issued, for tests */
	bool have_key;
	pthread_key_t key;		/* destructor unregisters the reader */

	pthread_mutex_t readers_lock;	/* guards readers, nr_readers, next_id */
	struct cds_list_head readers;
	size_t nr_readers;
	uint64_t next_id;		/* of the next reader record */

	/*
	 * Guards the rest.  Both deferred queues are FIFO and the worker
	 * takes from them in turn, so "done >= what was queued when the
	 * barrier began" means exactly that every earlier item is done,
	 * and neither queue can starve the other.  64-bit counts: they
	 * never wrap, on ILP32 either.
	 */
	pthread_mutex_t work_lock;
	pthread_cond_t work_cond;	/* wakes revocable_barrier() */
	struct revocable_provider *defer_head;
	struct revocable_provider **defer_tail;
	struct revocable__release_job *release_jobs;
	struct revocable__release_job **release_jobs_tail;
	bool defer_worker_running;
	bool worker_took_job;		/* the worker's last item was a job */
	uint64_t defer_queued;		/* providers queued for teardown */
	uint64_t defer_done;
	uint64_t jobs_queued;		/* release jobs queued */
	uint64_t jobs_done;
	struct cds_list_head async_jobs; /* in flight, oldest (lowest seq) first */
	uint64_t async_seq;		/* of the next async revoke */
};

REVOCABLE__INTERNAL extern struct revocable_context revocable__ctx;

/* A permanently revoked provider that handles on no provider point to, so
 * the inline path needs no NULL test for it.  Never freed or revoked. */
REVOCABLE__INTERNAL extern struct revocable_provider revocable__null_provider;

/* Never written: its slot 0 holds SLOT_SLOW, which sends a thread's first
 * access to the slow path (which registers the thread) without a NULL
 * test inline. */
REVOCABLE__INTERNAL extern struct revocable__reader revocable__unregistered_reader;

/* Set on the library's own threads: revocable_barrier() must not wait on
 * the thread it is running on. */
REVOCABLE__INTERNAL extern __thread bool revocable__on_worker;

/* The calling thread's reader, NULL if it has none (yet). */
static inline struct revocable__reader *current_reader(void)
{
	struct revocable__reader *rd = revocable__tls_reader;

	return rd == &revocable__unregistered_reader ? NULL : rd;
}

static inline struct reader_record *to_record(struct revocable__reader *rd)
{
	return caa_container_of(rd, struct reader_record, pub);
}

/*
 * What a slot may hold besides NULL and a provider (docs/design.md, "Read
 * side").  The two markers are addresses of the library's own objects,
 * never a provider's, aligned so that bit 0 is clear:
 * - SLOT_HOLE: the access was released out of order (below the top, or in
 *   slot 0 while anything is held above it); not NULL, which below the
 *   top would mean an access whose provider is not stored yet;
 * - SLOT_SLOW: slot 0 for good, in the unregistered thread's sentinel and
 *   in every record without sys_membarrier(): both inline compares fail.
 * And in slot 0 only, SLOT_NESTED on a provider's pointer: that access is
 * held, but the slow path holds newer ones (slots above, overflow
 * entries, refused accesses), so a release of the provider must go out of
 * line to end the newest.
 */
REVOCABLE__INTERNAL extern const long revocable__slot_marks[2];
#define SLOT_HOLE ((struct revocable_provider *)(uintptr_t)&revocable__slot_marks[0])
#define SLOT_SLOW ((struct revocable_provider *)(uintptr_t)&revocable__slot_marks[1])
#define SLOT_NESTED ((uintptr_t)1)

/* The provider whose access a slot's value records, or NULL for none. */
static inline struct revocable_provider *
slot_provider(const struct revocable_provider *v)
{
	struct revocable_provider *rp = (struct revocable_provider *)
		((uintptr_t)v & ~SLOT_NESTED);

	return rp == SLOT_HOLE || rp == SLOT_SLOW ? NULL : rp;
}

/*
 * Allocation-failure injection, for the library's own unit tests only:
 * tests/revocable/ compiles these sources a second time into a test
 * program with REVOCABLE_TEST_ALLOC_HOOK defined and supplies the hook.
 * A library thread that cannot be created counts as an allocation here:
 * pthread_create()'s EAGAIN is the thread's resources running out.
 * The installed library has no hook: the test is a constant false.
 */
enum revocable__alloc_site {
	REVOCABLE__ALLOC_READER,	/* a thread's reader record */
	REVOCABLE__ALLOC_OVERFLOW,	/* growing the overflow stack */
	REVOCABLE__ALLOC_SCAN,		/* the revoke scan's wait list */
	REVOCABLE__ALLOC_ASYNC,		/* an async revoke job */
	REVOCABLE__ALLOC_THREAD,	/* a library thread: EAGAIN */
	REVOCABLE__ALLOC_PROVIDER,	/* revocable_provider_alloc() */
	REVOCABLE__ALLOC_SITES
};

#ifdef REVOCABLE_TEST_ALLOC_HOOK
bool revocable__test_alloc_fails(enum revocable__alloc_site site);
#define REVOCABLE__ALLOC_FAILS(site)	revocable__test_alloc_fails(site)
#else
#define REVOCABLE__ALLOC_FAILS(site)	false
#endif

/*
 * Test-only seams (REVOCABLE_TEST_HOOKS, same scheme as the allocation
 * hook: tests/revocable/ compiles the sources into the test): the count
 * of overflow increments per provider, so a test can show that an access
 * finding a provider revoked leaves its counter alone, of wake-ups of
 * parked revokers, of a revoker's futex waits (its parks), each sleep
 * of a revoker polling an overflow counter (its length in ns), and each
 * pass of a revoke's scan done, its waits not begun (a test holds the
 * revoker there while a reader it noted ends its access).  None in the
 * installed library; reader.c defines each one weak and empty, so a test
 * defines only those it watches.
 */
#ifdef REVOCABLE_TEST_HOOKS
void revocable__test_overflow_counted(const struct revocable_provider *rp);
void revocable__test_revokers_woken(void);
void revocable__test_revoker_parks(void);
void revocable__test_backoff_sleeps(long ns);
void revocable__test_scan_noted(const struct revocable_provider *rp);
#define REVOCABLE__OVERFLOW_COUNTED(rp)	revocable__test_overflow_counted(rp)
#define REVOCABLE__REVOKERS_WOKEN()	revocable__test_revokers_woken()
#define REVOCABLE__REVOKER_PARKS()	revocable__test_revoker_parks()
#define REVOCABLE__BACKOFF_SLEEPS(ns)	revocable__test_backoff_sleeps(ns)
#define REVOCABLE__SCAN_NOTED(rp)	revocable__test_scan_noted(rp)
#else
#define REVOCABLE__OVERFLOW_COUNTED(rp)	do { } while (0)
#define REVOCABLE__REVOKERS_WOKEN()	do { } while (0)
#define REVOCABLE__REVOKER_PARKS()	do { } while (0)
#define REVOCABLE__BACKOFF_SLEEPS(ns)	do { } while (0)
#define REVOCABLE__SCAN_NOTED(rp)	do { } while (0)
#endif

/* reader.c */
REVOCABLE__INTERNAL void revocable__context_ensure(void);
REVOCABLE__INTERNAL int revocable__membarrier(int cmd);
REVOCABLE__INTERNAL long revocable__futex(unsigned int *word, int op,
					  unsigned int val,
					  const struct timespec *timeout);
REVOCABLE__INTERNAL void revocable__record_put(struct reader_record *rec);
REVOCABLE__INTERNAL bool revocable__self_holds(struct revocable_provider *rp);
REVOCABLE__INTERNAL bool revocable__recorded_access(struct revocable__reader *rd,
						    struct revocable_provider *rp);

/* refused.c: accesses refused for lack of memory, counted per provider. */
REVOCABLE__INTERNAL void revocable__refused_add(struct revocable_provider *rp);
REVOCABLE__INTERNAL bool revocable__refused_end(struct revocable__reader *rd,
						struct revocable_provider *rp);
REVOCABLE__INTERNAL unsigned long revocable__refused_total(void);

/* One release callback running on this thread (a stack: callbacks may
 * revoke other providers, whose callbacks run nested). */
struct revocable__release_frame {
	const struct revocable_provider *rp;
	struct revocable__release_frame *prev;
	bool teardown;	/* run by the last put: no reference is left */
};

REVOCABLE__INTERNAL extern __thread struct revocable__release_frame *
	revocable__releasing;
REVOCABLE__INTERNAL bool
revocable__in_release(const struct revocable_provider *rp);
REVOCABLE__INTERNAL bool
revocable__in_teardown(const struct revocable_provider *rp);
REVOCABLE__INTERNAL bool
revocable__others_hold(const struct revocable_provider *rp);

/*
 * The teaching lab's library only (lab_v3_index_bug.c, built with
 * REVOCABLE_LAB_V3_INDEX_BUG; docs/design.md, "Teaching switch"): a
 * handle set up or finished forgets the access the lab remembers for it.
 * In every other build a no-op.
 */
#ifdef REVOCABLE_LAB_V3_INDEX_BUG
REVOCABLE__INTERNAL void revocable__lab_forget(const struct revocable *rev);
#else
static inline void revocable__lab_forget(const struct revocable *rev)
{
}
#endif

/* reader.c: the calling thread leaves now, not at its key's destructor. */
REVOCABLE__INTERNAL void revocable__reader_exit_now(void);

/* teardown.c */
/*
 * The name the library's worker threads give themselves, first thing: a
 * thread inherits its creator's name, and a program that finds its own
 * threads by name (or a person reading top) must not mistake ours for its.
 */
#define REVOCABLE__THREAD_NAME "revocable"

REVOCABLE__INTERNAL int revocable__start_detached(void *(*fn)(void *),
						  void *arg);

#endif /* REVOCABLE_INTERNAL_H */
