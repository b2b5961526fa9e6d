/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * librevocable - revocable references to resources that can vanish.
 *
 * A provider publishes a resource; consumers reach it through handles and
 * get either the live resource or NULL once the provider revoked it.
 * Revocation waits until every reader that could still see the resource
 * has left its access.  See revocable(3) and docs/design.md.
 *
 * The structures are visible so that providers can be embedded and handles
 * can live on the stack.  Fields starting with "priv_" and everything named
 * revocable__* are private to the library.
 *
 * The read side (revocable_try_access(), revocable_release() and the
 * guards) is a call into the shared object by default.  A program that
 * defines REVOCABLE_INLINE before including this header gets it inline
 * instead, as liburcu's _LGPL_SOURCE does: a few stores and loads, no
 * call.  The inline code depends on the library's internals (the
 * per-thread reader below and three functions), which the shared object
 * exports under the symbol version REVOCABLE_INLINE_2, the inline
 * protocol's version: a library whose internals change renames that node,
 * so a program built with the old inline code fails to load against it
 * instead of corrupting its readers, while programs using the calls keep
 * working.  Licensing: the inline functions are LGPL-2.1-or-later code of
 * more than the ten lines that LGPL-2.1 section 5 lets a program
 * incorporate without conditions, so define REVOCABLE_INLINE only in code
 * whose licence allows incorporating LGPL-2.1-or-later code (COPYING).
 * REVOCABLE_NO_INLINE forces the calls even where REVOCABLE_INLINE is
 * defined (the library's own sources define it).
 */
/*
 * One API per translation unit: revocable_v11.h reads this header with
 * v11's names; included again after it, the seed's would be missing.
 */
#if defined(REVOCABLE_V11_H) && !defined(REVOCABLE__V11_READING)
#error "revocable.h after revocable_v11.h: a translation unit uses either the seed's names or v11's (revocable(3), \"The v11 API\")"
#endif

#ifndef REVOCABLE_H
#define REVOCABLE_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/arch.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * TSan models neither sys_membarrier() (which makes the read side's
 * compiler barrier a real fence) nor fences at all.  Under TSan the slot
 * store, the resource load and the revoker's matching store and loads are
 * all sequentially consistent __atomic operations instead, which orders
 * them the same way without any fence (docs/design.md, "TSan mode").
 */
#if defined(__SANITIZE_THREAD__)
#define REVOCABLE__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define REVOCABLE__TSAN 1
#endif
#endif

/* Per-thread reader slots before accesses fall back to the slow path. */
#define REVOCABLE_READER_SLOTS 8

struct revocable_provider;

/**
 * struct revocable_provider - the owner side of a revocable resource.
 *
 * Visible only so it can be embedded (revocable_provider_init()); treat
 * every field as private.
 */
struct revocable_provider {
	void *priv_res;			/* published resource, NULL once revoked */
	long priv_refcount;		/* owner + handles + get() */
	long priv_overflow_readers;	/* readers beyond the per-thread slots */
	int priv_state;			/* enum revocable__state */
	bool priv_allocated;		/* came from revocable_provider_alloc() */
	pthread_mutex_t priv_lock;	/* serialises revokers and callbacks */
	pthread_cond_t priv_revoked_cond; /* losers wait here for the winner */
	void *priv_saved_res;		/* what the release callback gets */
	void (*priv_release)(void *res, void *arg);
	void *priv_release_arg;
	void (*priv_free_fn)(struct revocable_provider *rp);
	struct revocable_provider *priv_defer_next; /* deferred-free queue */
};

/**
 * struct revocable - a consumer's handle on a provider.
 *
 * Holds only a reference to the provider: per-access state lives in the
 * accessing thread, so one handle may be used by many threads at once.
 */
struct revocable {
	struct revocable_provider *priv_rp;
};

/**
 * struct revocable_guard - one access, held on the caller's stack.
 */
struct revocable_guard {
	struct revocable *priv_rev;
	void *priv_res;
	bool priv_entered;
};

#define REVOCABLE_GUARD_INIT { NULL, NULL, false }

/* ---- library-private part of the read side (do not use directly) ---- */

struct revocable__slot {
	struct revocable_provider *rp;	/* provider accessed, NULL if free */
	unsigned long revoked_seen;	/* accesses here that got NULL */
};

/*
 * The inline protocol (REVOCABLE_INLINE_2) is slot 0 alone, with no other
 * per-thread word: an access takes slot 0 when its provider pointer is
 * NULL, and a release gives it back when it holds exactly the provider
 * released.  Every other case keeps slot 0 non-NULL and different from any
 * provider, so both compares fail and the slow path runs: a never-written
 * marker in the unregistered thread's sentinel and in every record without
 * sys_membarrier(), a hole after an out-of-order release, or the provider
 * with its low bit set while the slow path holds accesses newer than slot
 * 0's (docs/design.md, "Read side").  The rest is the slow path's own.
 */
struct revocable__reader {
	unsigned int waiters;		/* revokers asleep on our slots */
	struct revocable__slot slot[REVOCABLE_READER_SLOTS];
	/* Never read inline: the slow path's bookkeeping. */
	unsigned int depth;		/* slots in use above slot 0 */
	unsigned int overflow_depth;	/* accesses on the counted path */
};

/*
 * The library's internals that the inline read side calls or reads; they
 * are exported only for that, under the version node REVOCABLE_INLINE_2
 * (revocable.sym), and are not API.  The
 * thread's reader starts as a never-written sentinel whose slot 0 holds a
 * marker, which sends the first access to the slow path, which registers
 * the thread.
 */
#pragma GCC visibility push(default)
extern __thread struct revocable__reader *revocable__tls_reader;

void *revocable__try_access_slow(struct revocable_provider *rp);
void revocable__release_slow(struct revocable_provider *rp);
void revocable__wake_revokers(struct revocable__reader *rd);
#pragma GCC visibility pop

#ifdef REVOCABLE__TSAN
#define REVOCABLE__ORD_SLOT	__ATOMIC_SEQ_CST
#define REVOCABLE__ORD_RES	__ATOMIC_SEQ_CST
#define REVOCABLE__ORD_SCAN	__ATOMIC_SEQ_CST
#define REVOCABLE__ORD_END	__ATOMIC_SEQ_CST
#else
#define REVOCABLE__ORD_SLOT	__ATOMIC_RELAXED
#define REVOCABLE__ORD_RES	__ATOMIC_CONSUME
#define REVOCABLE__ORD_SCAN	__ATOMIC_ACQUIRE
#define REVOCABLE__ORD_END	__ATOMIC_RELEASE
#endif

static inline void revocable__read_fence(void)
{
	/*
	 * The revoker's sys_membarrier() turns this compiler barrier into a
	 * full fence exactly when it matters (docs/design.md).  Harmless in
	 * TSan mode, where the accesses around it are seq_cst.
	 */
	cmm_barrier();
}

/*
 * After a slot store and the resource load that returned NULL: count the
 * access in its slot.  Only accesses that began after a revocation can see
 * NULL, and a revoker stops waiting for a slot whose count moved, so a
 * thread looping on accesses of a revoked provider never holds it up.
 * Release: whatever this thread did before (the end of the access the
 * revoker was waiting for) happens before the revoker sees the count.
 */
static inline void revocable__count_revoked(struct revocable__slot *slot)
{
	__atomic_store_n(&slot->revoked_seen, slot->revoked_seen + 1,
			 REVOCABLE__ORD_END);
}

/*
 * The fast path is an access with slot 0 free, and its release: the
 * thread's outermost access, the same few instructions as liburcu's
 * outermost read lock.  It stores only the provider pointer and NULL, at a
 * fixed address; the slot store is the publication itself.  A signal
 * handler may run between any two instructions and make accesses of its
 * own: all of them are released before it returns and leave slot 0 as
 * they found it, so the interrupted step goes on as if nothing happened
 * (tests/revocable/test_defects.c single-steps both).  Nested accesses, a
 * thread's first, and every access without sys_membarrier() go out of line
 * (slot 0 not NULL); nested ones still use slots and write no shared
 * memory.
 */
static inline void *revocable__try_access_inline(struct revocable *rev)
{
	struct revocable__reader *rd = revocable__tls_reader;
	struct revocable_provider *rp;
	void *res;

	if (caa_unlikely(!rev))
		return NULL;
	rp = rev->priv_rp;
	if (caa_unlikely(__atomic_load_n(&rd->slot[0].rp, __ATOMIC_RELAXED)))
		return revocable__try_access_slow(rp);

	__atomic_store_n(&rd->slot[0].rp, rp, REVOCABLE__ORD_SLOT);
	revocable__read_fence();
	res = __atomic_load_n(&rp->priv_res, REVOCABLE__ORD_RES);
	if (caa_unlikely(!res))
		revocable__count_revoked(&rd->slot[0]);
	return res;
}

static inline void revocable__release_inline(struct revocable *rev)
{
	struct revocable__reader *rd = revocable__tls_reader;
	struct revocable_provider *rp;

	if (caa_unlikely(!rev))
		return;
	rp = rev->priv_rp;
	/*
	 * Slot 0 holds exactly @rp only while it is the thread's newest
	 * access; nested, overflow and out-of-order releases find a marked
	 * pointer or another one there and go out of line.
	 */
	if (caa_unlikely(__atomic_load_n(&rd->slot[0].rp, __ATOMIC_RELAXED) != rp)) {
		revocable__release_slow(rp);
		return;
	}
	/* Release: our reads of the resource happen before the revoker's
	 * acquire load sees the slot empty. */
	__atomic_store_n(&rd->slot[0].rp, NULL, REVOCABLE__ORD_END);
	/*
	 * A revoker that found this access still running may be asleep
	 * until told.  It announces itself in @waiters and then runs
	 * sys_membarrier(), which orders this load after the store above
	 * exactly when it matters: either we see @waiters, or the revoker
	 * sees the slot empty (docs/design.md, "Waking the revoker").
	 */
	revocable__read_fence();
	if (caa_unlikely(__atomic_load_n(&rd->waiters, REVOCABLE__ORD_SLOT)))
		revocable__wake_revokers(rd);
}

/* ---- public API ---- */

/*
 * The exported read side is called through the GOT, not the PLT (GCC's
 * noplt, what -fno-plt does for every call): the PLT's extra indirect
 * jump per call was a third of the calls' cost over the inline path
 * (docs/design.md, "ABI").  The symbols are then bound when the program
 * loads rather than at their first call.
 */
#if defined(__has_attribute)
#if __has_attribute(noplt)
#define REVOCABLE__READ_CALL __attribute__((noplt))
#endif
#endif
#ifndef REVOCABLE__READ_CALL
#define REVOCABLE__READ_CALL
#endif

/*
 * The shared object is built with -fvisibility=hidden and a version script
 * (revocable.sym: the API in node REVOCABLE_1, the internals above in
 * REVOCABLE_INLINE_2): exactly what is declared between the visibility
 * pragmas of this header is exported, and a make check test
 * (tests/revocable/abi_symbols.sh) holds the three lists equal.
 */
#pragma GCC visibility push(default)

struct revocable_provider *revocable_provider_alloc(void *res);
void revocable_provider_free(struct revocable_provider *rp);
void revocable_provider_init(struct revocable_provider *rp, void *res,
			     void (*free_fn)(struct revocable_provider *rp));
int revocable_provider_revoke(struct revocable_provider *rp);
int revocable_provider_revoke_async(struct revocable_provider *rp,
				    void (*done)(struct revocable_provider *rp,
						 void *arg),
				    void *arg);
int revocable_provider_set_release(struct revocable_provider *rp,
				   void (*release)(void *res, void *arg),
				   void *arg);
struct revocable_provider *revocable_provider_get(struct revocable_provider *rp);
void revocable_provider_put(struct revocable_provider *rp);
bool revocable_provider_is_revoked(struct revocable_provider *rp);

struct revocable *revocable_alloc(struct revocable_provider *rp);
void revocable_free(struct revocable *rev);
void revocable_init(struct revocable *rev, struct revocable_provider *rp);
void revocable_fini(struct revocable *rev);

REVOCABLE__READ_CALL void *revocable_try_access(struct revocable *rev);
REVOCABLE__READ_CALL void revocable_release(struct revocable *rev);

REVOCABLE__READ_CALL void *revocable_guard_enter(struct revocable_guard *guard,
						 struct revocable *rev);
REVOCABLE__READ_CALL void revocable_guard_exit(struct revocable_guard *guard);

void revocable_barrier(void);
#pragma GCC visibility pop

#if defined(REVOCABLE_INLINE) && !defined(REVOCABLE_NO_INLINE)
#define revocable_try_access(rev)	revocable__try_access_inline(rev)
#define revocable_release(rev)		revocable__release_inline(rev)

static inline void *revocable__guard_enter_inline(struct revocable_guard *g,
						  struct revocable *rev)
{
	g->priv_rev = rev;
	g->priv_entered = true;
	g->priv_res = revocable__try_access_inline(rev);
	return g->priv_res;
}

static inline void revocable__guard_exit_inline(struct revocable_guard *g)
{
	if (!g->priv_entered)
		return;
	g->priv_entered = false;
	revocable__release_inline(g->priv_rev);
}

#define revocable_guard_enter(g, rev)	revocable__guard_enter_inline(g, rev)
#define revocable_guard_exit(g)		revocable__guard_exit_inline(g)
#define REVOCABLE__GUARD_CLEANUP	revocable__guard_exit_inline
#else
#define REVOCABLE__GUARD_CLEANUP	revocable_guard_exit
#endif

/* ---- scoped forms ---- */

#define REVOCABLE__CAT2(a, b)	a##b
#define REVOCABLE__CAT(a, b)	REVOCABLE__CAT2(a, b)
#define REVOCABLE__UNIQ(p)	REVOCABLE__CAT(p, __COUNTER__)

/**
 * REVOCABLE_GUARD() - declare a guard released automatically at scope exit.
 * @name: variable name of the struct revocable_guard.
 *
 * Use with revocable_guard_enter(&name, rev); the matching release runs
 * when @name goes out of scope, whatever the exit path.
 */
#define REVOCABLE_GUARD(name)						\
	struct revocable_guard name					\
		__attribute__((cleanup(REVOCABLE__GUARD_CLEANUP))) =	\
		REVOCABLE_GUARD_INIT

#define REVOCABLE__LOOP(rev, res, g, need_res)				\
	for (REVOCABLE_GUARD(g);					\
	     !g.priv_entered &&						\
	     ((res) = revocable_guard_enter(&g, (rev)), !(need_res) || (res)); )

/**
 * REVOCABLE() - run the following statement once with an access held.
 * @rev: struct revocable *.
 * @res: pointer variable assigned the resource, NULL if revoked.
 *
 * The seed API's form: the body always runs and must check @res.  The
 * access is released however the body is left (break, return, goto).
 */
#define REVOCABLE(rev, res)						\
	REVOCABLE__LOOP(rev, res, REVOCABLE__UNIQ(revocable__guard_), 0)

/**
 * REVOCABLE_SCOPED() - like REVOCABLE() but the body is skipped when revoked.
 * @rev: struct revocable *.
 * @res: pointer variable assigned the live resource.
 */
#define REVOCABLE_SCOPED(rev, res)					\
	REVOCABLE__LOOP(rev, res, REVOCABLE__UNIQ(revocable__guard_), 1)

#define REVOCABLE__OR_RETURN(rev, res, retval, g)			\
	REVOCABLE_GUARD(g);						\
	void *res = revocable_guard_enter(&g, (rev));			\
	if (!res)							\
		return retval

/**
 * REVOCABLE_OR_RETURN() - declare @res in this scope or return @retval.
 * @rev: struct revocable *.
 * @res: name of the void * variable to declare.
 * @retval: value returned from the enclosing function when revoked.
 *
 * A statement: the access lasts until the enclosing scope ends.
 */
#define REVOCABLE_OR_RETURN(rev, res, retval)				\
	REVOCABLE__OR_RETURN(rev, res, retval,				\
			     REVOCABLE__UNIQ(revocable__guard_))

/**
 * REVOCABLE_OR_ENODEV() - REVOCABLE_OR_RETURN(@rev, @res, -ENODEV).
 * @rev: struct revocable *.
 * @res: name of the void * variable to declare.
 */
#define REVOCABLE_OR_ENODEV(rev, res)	REVOCABLE_OR_RETURN(rev, res, -ENODEV)

#ifdef __cplusplus
}
#endif

#endif /* REVOCABLE_H */
