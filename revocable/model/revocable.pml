/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revocable.pml - the librevocable protocol for the spin model checker.
 *
 * One provider P with one resource; NR reader threads sharing ONE handle
 * on P; one more thread inside an access to another provider Q the whole
 * time (per-provider wait); NV threads revoking P at once, each holding a
 * reference as the API asks; a late consumer that attaches to P after a
 * revoke returned (attach after revoke); the owner dropping its reference.
 * Every step is one load or store of the C code, in its order, and names
 * the C function it comes from.  docs/design.md maps the properties to
 * this model and the model to the code.  Each reader's accesses are its
 * outermost ones, so they take the inline path in slot 0: state 1, the
 * provider into the slot, the fence, the resource load, and a NULL result
 * counted in the slot's revoked_seen.
 *
 * Memory model: spin interleaves steps, so this is sequential consistency.
 * The C code gets it for the steps that matter from sys_membarrier() (or
 * seq_cst atomics in the TSan build) and from release/acquire pairs, as
 * argued in docs/design.md ("Weakly ordered CPUs").  BUG_LOAD_FIRST below
 * breaks the one ordering step the argument is about.
 *
 * Not modelled (tested in C instead): the overflow path beyond the slot
 * stack, registration and thread exit (readers are registered at start),
 * out-of-memory paths, fork.
 *
 * Planted bugs, each must give a counterexample (tests/revocable/spin-model.test):
 *   BUG_V3_SHARED_INDEX  the v3 patch's access index kept in the shared
 *                        handle: a release ends the latest access of any
 *                        thread (revocable.h, REVOCABLE_LAB_V3_INDEX_BUG).
 *   BUG_LOAD_FIRST       the reader loads the resource before its slot
 *                        store is visible (the missing fence/membarrier).
 *   BUG_NO_COUNT         revokers wait for "slot names P" without the
 *                        slot's revoked_seen count: endless readers that
 *                        see NULL keep a revoke waiting (liveness).
 */

#ifndef NR
#define NR	2		/* readers sharing the handle */
#endif
#ifndef NV
#define NV	2		/* concurrent revokers */
#endif
#ifndef MAXACC
#define MAXACC	2		/* accesses per reader (ENDLESS: unbounded) */
#endif

#define QREADER	NR		/* slot index of the thread inside Q */
#define NSLOT	(NR + 1)
#define P	1		/* slot values: the provider accessed */
#define Q	2

#define LIVE		0	/* enum revocable__state */
#define REVOKING	1
#define REVOKED		2

/* struct revocable_provider */
bit res_pub = 1;		/* priv_res != NULL */
byte state = LIVE;		/* priv_state, written under priv_lock */
bit plock;			/* priv_lock */
byte refs = 1 + 1 + NV;		/* owner + shared handle + revokers' */
bit rp_freed;			/* provider memory gone (teardown ran) */

/* the resource, from the owner's side */
bit res_freed;			/* handed back by the release callback */
byte releases;			/* release callback runs */

/* struct revocable__reader, slot 0 of each (nesting is not modelled) */
bit rstate[NSLOT];		/* reader.state: depth of the outermost access */
byte slot_rp[NSLOT];		/* slot[0].rp */
/* slot[0].revoked_seen, abstracted exactly: noted[s * NV + j] is "revoker
 * j recorded this slot's count and no access in the slot saw NULL since";
 * a reader's count increment clears it (no wrap: unsigned long in C). */
bit noted[NSLOT * NV];
byte waiters[NSLOT];		/* pub.waiters */
byte wake_seq[NSLOT];		/* reader_record.wake_seq (futex word) */
bit asleep[NSLOT * NV];		/* revoker j in FUTEX_WAIT on slot s's word */

#ifdef BUG_V3_SHARED_INDEX
byte lab_slot;			/* rev->priv_lab_slot, in the shared handle */
#endif

/* observation only (not in the C code) */
bit inside_seen[NSLOT];		/* in an access that saw the resource */
bit revoke_done[NV];		/* revocable_provider_revoke() returned */
byte readers_left = NR;		/* shared handle freed by the last one */
bit in_release[NV];		/* revocable__releasing: frame of P */

/* revocable_provider_put(): the last reference tears down */
inline put()
{
	atomic {
		assert(refs > 0);
		refs--;
		if
		:: refs == 0 -> rp_freed = 1
		:: else
		fi
	}
}

inline lock()
{
	assert(!rp_freed);
	atomic { plock == 0 -> plock = 1 }
}

inline unlock()
{
	plock = 0
}

/* revocable__try_access_inline() for the thread owning slot s */
inline try_access(s, rp, r)
{
	assert(rp != P || !rp_freed);	/* rev->priv_rp, then rp->priv_res */
#ifdef BUG_LOAD_FIRST
	r = (rp == P && res_pub);	/* the load hoisted above the store */
#endif
	rstate[s] = 1;			/* rd->state = 1 (owner-only) */
	slot_rp[s] = rp;		/* __atomic_store_n(&slot[0].rp, rp) */
#ifdef BUG_V3_SHARED_INDEX
	lab_slot = s;
#endif
#ifndef BUG_LOAD_FIRST
	r = (rp == P && res_pub);	/* revocable__read_fence(); load priv_res */
#endif
	if
	:: !r ->			/* revocable__count_revoked(): release store */
		atomic {
			for (k : 0 .. NV - 1) {
				noted[s * NV + k] = 0
			}
			k = 0
		}
	:: else
	fi
}

/* revocable__release_inline() */
inline release(s)
{
#ifdef BUG_V3_SHARED_INDEX
	slot_rp[lab_slot] = 0;		/* ends the handle's latest access */
#else
	slot_rp[s] = 0;			/* store NULL, REVOCABLE__ORD_END */
#endif
	rstate[s] = 0;			/* rd->state = 0; revocable__read_fence() */
	if				/* load pub.waiters */
	:: waiters[s] > 0 ->
		atomic {		/* revocable__wake_revokers(): bump, FUTEX_WAKE */
			wake_seq[s] = (wake_seq[s] + 1) % 4;
			for (k : 0 .. NV - 1) {
				asleep[s * NV + k] = 0
			}
			k = 0
		}
	:: else
	fi
}

inline use_resource(s)
{
	atomic {
		inside_seen[s] = 1;
		assert(!res_freed)	/* the reader's first use */
	};
	atomic {
		assert(!res_freed);	/* and a later one, revokes in between */
		inside_seen[s] = 0
	}
}

proctype reader(byte s)
{
	bit r, last;
	byte k;			/* loop index of the inlines */
	byte n;

	do
#ifdef ENDLESS
	:: true ->
#else
	:: n < MAXACC ->
#endif
		try_access(s, P, r);
		if
		:: r -> use_resource(s)
		:: else
		fi;
		release(s);
#ifndef ENDLESS
		n++
	:: else -> break
#endif
	od;
	/* revocable_free() of the shared handle by the last reader */
	atomic {
		readers_left--;
		last = (readers_left == 0)
	};
	if
	:: last -> put()
	:: else
	fi
}

/* Inside an access to another provider until every revoke of P is over:
 * a revoke of P must not wait for it (per-provider wait). */
proctype q_reader()
{
	bit r;
	byte j, k;

	try_access(QREADER, Q, r);
	for (j : 0 .. NV - 1) {
		revoke_done[j] == 1
	}
	release(QREADER)
}

/* slot_busy(): two acquire loads, the slot's provider then its count */
inline slot_busy(s, j, busy)
{
	busy = (slot_rp[s] == P);
#ifndef BUG_NO_COUNT
	busy = busy && noted[s * NV + j]
#endif
}

/* wait_slot(): spin, then park on the reader's futex until woken */
inline wait_slot(s, j)
{
	bit busy;
	byte seq;

	do
	:: slot_busy(s, j, busy);
		if
		:: !busy -> break
		:: else ->
			waiters[s]++;		/* announce, membarrier */
			seq = wake_seq[s];
			slot_busy(s, j, busy);
			if
			:: busy ->
				atomic {	/* FUTEX_WAIT: sleeps if still equal */
					if
					:: wake_seq[s] == seq -> asleep[s * NV + j] = 1
					:: else
					fi
				};
				!asleep[s * NV + j]	/* until a FUTEX_WAKE */
			:: else
			fi;
			waiters[s]--
		fi
	od
}

/* wait_for_readers(): scan_some() notes the slots naming P, each with its
 * revoked_seen count (acquire), then wait_slot() for each */
inline wait_for_readers(j)
{
	byte ws;

	for (ws : 0 .. NSLOT - 1) {
		if
		:: slot_rp[ws] == P -> noted[ws * NV + j] = 1
		:: else
		fi
	}
	for (ws : 0 .. NSLOT - 1) {
		if
		:: noted[ws * NV + j] -> wait_slot(ws, j)
		:: else
		fi
	}
}

proctype revoker(byte j)
{
	bit started;
	byte t;

	/* revocable_provider_revoke() -> revocable__revoke_begin() */
	lock();
	if
	:: state == LIVE -> state = REVOKING; started = 1
	:: else -> started = 0
	fi;
	unlock();
	if
	:: started ->
		res_pub = 0;		/* publish_revocation(): NULL, membarrier */
		/* revocable__revoke_finish() */
		atomic { assert(refs > 0); refs++ };
		wait_for_readers(j);
		lock();			/* read priv_release */
		unlock();
		in_release[j] = 1;	/* push the release frame */
		/* the release callback: hands the resource back */
		atomic { res_freed = 1; releases++; assert(releases == 1) };
		/* re-entered: revocable_provider_revoke() sees the frame
		 * (revocable__in_release()) and returns -EDEADLK at once */
		assert(in_release[j]);
		in_release[j] = 0;
		lock();
		state = REVOKED;	/* broadcast priv_revoked_cond */
		unlock();
		put()
	:: else ->
		/* revocable__revoke_wait() */
		lock();
		unlock();
		state == REVOKED	/* pthread_cond_wait until REVOKED */
	fi;
	/* Returned: for every caller, only once the release ran, and no
	 * access that saw the resource is still open. */
	assert(state == REVOKED && releases == 1);
	for (t : 0 .. NR - 1) {
		assert(!inside_seen[t])
	}
	revoke_done[j] = 1;
	put()				/* the caller's reference */
}

/* revocable_alloc() after a revoke returned, then an access: NULL, and
 * nothing freed is touched; then revocable_provider_free() by the owner. */
proctype late_consumer()
{
	bit r;
	byte k;
	byte s = QREADER;		/* reuses the Q thread's record later */

	revoke_done[0] == 1;
	atomic { assert(refs > 0); refs++ };	/* handle: ref from the owner's */
	(slot_rp[QREADER] == 0);
	try_access(s, P, r);
	assert(!r);
	release(s);
	put();				/* revocable_free() of the handle */
	put()				/* revocable_provider_free(): owner */
}

init
{
	byte i;

	atomic {
		for (i : 0 .. NR - 1) {
			run reader(i)
		}
		run q_reader();
		for (i : 0 .. NV - 1) {
			run revoker(i)
		}
#ifndef NO_LATE
		run late_consumer()
#endif
	}
}

/* Liveness under weak fairness: every revoke returns. */
ltl revokes_return { <> (revoke_done[0] && revoke_done[NV - 1]) }
