/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revocable.pml - the librevocable protocol for the spin model checker.
 *
 * One provider P whose resource is revoked and one provider Q that stays
 * live.  Reader threads make accesses through handles, nested up to NEST
 * deep and released in any order, in a slot stack of SLOTS slots (1 or 2
 * here, 8 in C: what matters is reaching the counted path beyond it);
 * thread 0 may also run a signal handler that interrupts it between any
 * two steps and makes an access and release of its own (SIGNAL), or two
 * accesses released in either order (HANDLER2).  Around
 * them: NV threads revoking P, a thread inside Q all along (QREADER), a
 * consumer attaching after a revoke (LATE), the async revoke jobs with
 * done() and revocable_barrier() (ASYNC), and a provider torn down by its
 * last put without a revoke, whose release callback calls back into the
 * library (TEARDOWN); those two are in lifetime.pml.  Every step is one
 * load, store or atomic operation of the C code, in its order, and names
 * the C function it comes from; two kinds of step are grouped: work that
 * touches only the reader's own record, which no other thread reads
 * (marked "owner"), and a critical section under priv_lock (LOCKED).
 * Steps marked (model) observe, for the assertions.  docs/design.md ("The
 * model: properties, model, code") maps the properties to the runs of
 * tests/revocable/spin-model.test that check them, and lists what the
 * model leaves out.
 *
 * Memory model: spin interleaves steps, so this is sequential consistency;
 * docs/design.md ("Weakly ordered CPUs") argues why the C code gets it for
 * the steps that matter.  BUG_LOAD_FIRST breaks the step that argument is
 * about.
 *
 * Planted bugs, each must give a counterexample (spin-model.test):
 *   BUG_V3_SHARED_INDEX   the v3 patch's access index in the shared handle:
 *                         a release ends the latest access of any thread.
 *   BUG_LOAD_FIRST        the resource loaded before the slot store shows.
 *   BUG_NO_COUNT          revokers wait for "slot names P" without the
 *                         slot's revoked_seen count (liveness).
 *   BUG_SIGNAL_WINDOW     issue 26 #1 (a handler between two steps of the
 *                         read side drops the access it interrupted), as
 *                         inline protocol 2 could have it: the slow path
 *                         marks slot 0 before it counts a nested access,
 *                         so a handler's refused access and release in
 *                         between settle slot 0 unmarked under it, and a
 *                         fast release then ends the older access.
 *   BUG_TEARDOWN_NO_GUARD #2: teardown runs the release callback with P
 *                         still LIVE and no release frame.
 *   BUG_COUNT_ALWAYS      #4: a counted access that finds P revoked still
 *                         increments and decrements (liveness).
 *   BUG_WAKE_PER_THREAD   #5: every release with a revoker parked on the
 *                         thread wakes it, whatever slot it waits on.
 *   BUG_BARRIER_LATER     #7: revocable_barrier() waits for async revokes
 *                         started after it (liveness).
 *   BUG_DONE_THEN_PUT     #8: the async job puts its reference after done().
 *   BUG_NO_SLOTS_DONE     a slow path that may leave slot 0 free as its last
 *                         store does not say so (revocable_slow_slots_done):
 *                         a handler then takes slot 0 inline, its next
 *                         access is refused, and its out-of-order release
 *                         of slot 0's provider ends the refusal instead,
 *                         leaving slot 0 held (HANDLER2).
 */

#ifndef NT
#define NT	2		/* reader threads */
#endif
#ifndef SLOTS
#define SLOTS	1		/* REVOCABLE_READER_SLOTS */
#endif
#ifndef NEST
#define NEST	1		/* a reader's accesses open at once */
#endif
#ifndef MAXACC
#define MAXACC	2		/* accesses per reader (ENDLESS: unbounded) */
#endif
#ifndef NV
#define NV	2		/* threads calling revocable_provider_revoke() */
#endif
#ifndef MAXOVF
#define MAXOVF	2		/* overflow stack entries of a thread */
#endif
#ifndef HACC
#define HACC	1		/* the signal handler's accesses */
#endif
#ifndef MAX_REPARK
#define MAX_REPARK 1		/* wake-ups of a revoker into its awaited access */
#endif

#ifdef ASYNC
#define NJOB	2		/* async revoke threads */
#else
#define NJOB	0
#endif
#ifdef TEARDOWN
#define TW	(NV + NJOB)	/* a revoke from the teardown callback */
#define NW	(NV + NJOB + 1)
#else
#define NW	(NV + NJOB)	/* revokers: sync ones, then the jobs */
#endif
#if defined(QREADER) || defined(LATE)
#define QT	NT		/* the Q reader's (then late consumer's) thread */
#define NTH	(NT + 1)
#else
#define NTH	NT
#endif

/* slot and overflow values: the provider, or */
#define P	1
#define Q	2
#define HOLE	3		/* SLOT_HOLE */
#define RPMASK	3
#define UNC	4		/* OVERFLOW_UNCOUNTED */
#define SAW	4		/* (model) an open access that saw the resource */
#define NESTED	8		/* SLOT_NESTED, on slot 0's provider */
/* slot_provider(): the provider a slot value records, 0 for none */
#define SP(v)	((((v) & RPMASK) == HOLE) -> 0 : ((v) & RPMASK))

#define LIVE		0	/* enum revocable__state */
#define REVOKING	1
#define REVOKED		2

/* struct revocable_provider P (Q is never revoked: its fields stay put) */
bit res_pub = 1;		/* priv_res != NULL */
byte state = LIVE;		/* priv_state, under priv_lock */
byte refs;			/* priv_refcount, set by init */
byte ocount;			/* priv_overflow_readers */
bit rp_freed;			/* (model) provider memory gone */

/* the resource, from the owner's side */
bit res_freed;			/* handed back by the release callback */
byte releases;			/* release callback runs */

/* struct reader_record of each thread */
byte slot_rp[NTH * SLOTS];	/* pub.slot[i].rp */
/* pub.slot[i].revoked_seen, abstracted exactly: noted[(s) * NW + j] is
 * "revoker j holds this slot's count in its wait list and no access in
 * the slot saw NULL since"; revocable__count_revoked() clears it. */
bit noted[NTH * SLOTS * NW];
byte waiters[NTH];		/* pub.waiters */
byte slot_waiters[NTH * SLOTS];	/* slot_waiters[i] */
byte wake_seq[NTH];		/* wake_seq, the futex word */
/* The futex word counts modulo WAKE_SEQS here (2^32 in C): as many
 * wake-ups between a revoker's read of it and its wait would look like
 * none (ABA), so a run needs more values than it has releases in that
 * window; a handler's two accesses (HANDLER2) make four. */
#ifndef WAKE_SEQS
#define WAKE_SEQS	4
#endif
bit asleep[NTH * NW];		/* revoker j in FUTEX_WAIT on the word */
/*
 * The reader record's owner-only part (no other thread reads it) and
 * reader.c's thread-locals: shared with the handler where there is one,
 * else local to the reader's process, which lets spin's partial-order
 * reduction interleave them with nothing.
 */
#ifdef SIGNAL
byte rdepth[NTH];		/* pub.depth: slots in use above slot 0 */
byte ovf[NTH * MAXOVF];		/* overflow[]: provider | UNC */
byte odepth[NTH];		/* pub.overflow_depth */
bit in_slow[NTH];		/* revocable_in_slow */
bit sdone[NTH];			/* revocable_slow_slots_done */
byte href[NTH];			/* revocable_handler_refused */
byte handler_on;		/* (model) pid of the thread interrupted */
bit handle_gone;		/* (model) thread 0 freed the handler's handle */
#define RDEPTH		rdepth[t]
#define OVFE(x)		ovf[(t) * MAXOVF + (x)]
#define ODEPTH		odepth[t]
#define INSLOW		in_slow[t]
#define SDONE		sdone[t]
#define HREF		href[t]
#define OWNER_LOCALS
#else
#define RDEPTH		l_rdepth
#define OVFE(x)		l_ovf[x]
#define ODEPTH		l_odepth
#define INSLOW		l_in_slow
#define SDONE		l_sdone
#define HREF		l_href
#define OWNER_LOCALS	; byte l_rdepth, l_ovf[MAXOVF], l_odepth, l_href; \
			bit l_in_slow, l_sdone
#endif

#ifdef BUG_V3_SHARED_INDEX
byte lab_slot;			/* the handle's remembered access (lab) */
#endif

/* observation only */
byte inside[NTH];		/* open accesses that saw the resource */
bit revoke_done[NV + 1];	/* revocable_provider_revoke() returned */
bit in_release[NW];		/* revocable__releasing names P */
byte reparks[NW];		/* wake-ups into the awaited access, this wait_slot() */
/* the access revoker j noted in slot s is still open: awaited[(s) * NW + j] */
bit awaited[NTH * SLOTS * NW];
bit q_out;			/* the Q reader is done */

#ifdef ASYNC
/* struct async_revoke and revocable__ctx.async_jobs */
bit inflight[NJOB];		/* linked in async_jobs */
bit older[NJOB];		/* seq < the barrier's async_target */
bit jgo[NJOB];			/* job->go */
bit jstarted[NJOB];		/* job->started */
bit owner_ref = 1;		/* the owner still holds its reference */
byte urefs;			/* references the program holds */
bit barrier_done;
byte nolder;			/* (model) jobs older than the barrier */
byte older_ended;		/* ... of them finished */
#endif
#ifdef TEARDOWN
byte defer_queued;		/* revocable__ctx.defer_queued/done */
byte defer_done;
bit torn_down;
bit barrier_done;
#endif

#define READER_LOCALS	bit r, found, busy, oin, odone; byte i, d, e, v, k, rrp OWNER_LOCALS

/* held_above_slot0() (reader.c): accesses held besides slot 0's */
#define HELD_ABOVE	(RDEPTH + ODEPTH + HREF)
#define SLOT0		slot_rp[(t) * SLOTS]

/* The last put (revocable_provider_put()): */
#if defined(ASYNC)
/* provider_last_put_embedded(): revoked, so no release job is left */
inline last_put()
{
	assert(state == REVOKED)
}
#elif defined(TEARDOWN)
inline last_put()
{
	defer_queued++			/* defer_free(): the worker's */
}
#else
inline last_put()
{
	rp_freed = 1			/* defer_free(): torn down later */
}
#endif

/* revocable_provider_put() (teardown.c) */
inline put()
{
	atomic {
		assert(refs > 0 && !rp_freed);
		refs--;
		if
		:: refs == 0 -> last_put()
		:: else
		fi
	}
}

/* revocable_free() of a reader's handle: its reference */
inline handle_free()
{
#ifdef ASYNC
	atomic { urefs--; put() }
#else
	put()
#endif
}

/*
 * priv_lock: every critical section under it is one atomic step here.
 * Nothing in them blocks and every access of priv_state that matters is
 * inside them, so that is exact; and it keeps the unfairness of a lock
 * modelled as a busy-wait out of the liveness runs.
 */
#define LOCKED(x)	atomic { assert(!rp_freed); x }

/* The resource load: P's priv_res, Q's never NULL. */
#define RES(rp)	((rp) == Q || res_pub)

/* The load an access returns; (model) one that sees P's resource opens a
 * use of it, checked again at its end (end_access()). */
inline load_res(t, rp, r)
{
	atomic {
		r = RES(rp);
		if
		:: r && (rp) == P -> inside[t]++; assert(!res_freed)
		:: else
		fi
	}
}

/* revocable__count_revoked(): a NULL-seeing access counts itself in its
 * slot (release store).  Only P is ever NULL: a live access never counts. */
inline count_revoked(s, rp)
{
	atomic {
		assert((rp) == P && !res_pub);
		for (k : 0 .. NW - 1) {
			noted[(s) * NW + k] = 0
		}
		k = 0
	}
}

/*
 * slot0_mark_nested() (reader.c), once the access above slot 0 is counted:
 * a load and a store, between which the handler may run.
 */
inline mark_nested(t)
{
	v = SLOT0;
	if
	:: SP(v) != 0 && !(v & NESTED) -> SLOT0 = v | NESTED
	:: else
	fi
}

/*
 * slot0_mark_done() (reader.c), as a prefix of the slow path's last slot
 * store: from there a handler's slow steps run in full.  Only a handler
 * reads it: without one (no SIGNAL) it, and the caller's saved state in
 * slow_enter()/slow_leave(), are left out, as steps no other process sees.
 */
#if defined(SIGNAL) && !defined(BUG_NO_SLOTS_DONE)
#define MARK_DONE	SDONE = 1;
#else
#define MARK_DONE
#endif

/* Entering a slow path: the caller's state kept (a handler's slow path
 * may run inside another's finished one).  One step: a handler between
 * these stores finds the thread's own state, as before them (a handler
 * inside a handler is not modelled). */
inline slow_enter(t)
{
#ifdef SIGNAL
	atomic {
		oin = INSLOW;
		odone = SDONE;
		INSLOW = 1;
		SDONE = 0
	}
#else
	INSLOW = 1
#endif
}

/* slow_path_leave() (reader.c): "in a slow path" first, then "done";
 * (model) the saved copies cleared with the second, to keep states few. */
inline slow_leave(t)
{
#ifdef SIGNAL
	INSLOW = oin;
	atomic {
		SDONE = odone;
		oin = 0;
		odone = 0
	}
#else
	INSLOW = 0
#endif
}

/* slot0_settle() (reader.c), after an access above slot 0 is uncounted:
 * the count, then slot 0's load and store (the last step). */
inline settle(t)
{
	if
	:: HELD_ABOVE == 0 ->
		v = SLOT0;
		if
		:: v == HOLE -> SLOT0 = 0
		:: v & NESTED -> SLOT0 = v & ~NESTED
		:: else
		fi
	:: else
	fi
}

/* overflow_access() (reader.c): the counted path. */
inline overflow_access(t, rp, r)
{
	e = ODEPTH;
	assert(ODEPTH < MAXOVF);	/* the model's bound, not C's */
	atomic {			/* (owner) entry first, uncounted */
		OVFE(e) = (rp) | UNC;
		ODEPTH++
	};
	mark_nested(t);
#ifndef BUG_COUNT_ALWAYS
	r = RES(rp);			/* seq_cst load: revoked, no count */
	if
	:: !r
	:: else ->
#endif
		OVFE(e) = (rp);		/* (owner) counted */
		if			/* seq_cst fetch_add */
		:: (rp) == P -> ocount++
		:: else			/* Q: no revoker reads its count */
		fi;
		load_res(t, rp, r);	/* seq_cst load */
		if
		:: !r ->
			ocount--;	/* fetch_sub, release */
			OVFE(e) = (rp) | UNC
		:: else
		fi
#ifndef BUG_COUNT_ALWAYS
	fi
#endif
}

/* slot_access() (reader.c): the inline steps in slot d */
inline slot_access(t, d, rp, r)
{
	slot_rp[(t) * SLOTS + (d)] = rp;	/* ORD_SLOT */
	load_res(t, rp, r);		/* read fence; load */
	if
	:: !r -> count_revoked((t) * SLOTS + (d), rp)
	:: else
	fi
}

/* revocable__try_access_slow() and try_access_slow() (reader.c) */
inline try_access_slow(t, rp, r)
{
	if
	:: INSLOW && !SDONE ->	/* a handler inside a slow path: refused */
		HREF++;
		mark_nested(t);
		r = 0
	:: else ->
		slow_enter(t);
		if
		:: SLOT0 == 0 ->	/* slot 0 free: the inline steps */
			slot_access(t, 0, rp, r)
		:: SLOT0 != 0 && (ODEPTH > 0 || RDEPTH + 1 >= SLOTS) ->
			overflow_access(t, rp, r)
		:: SLOT0 != 0 && ODEPTH == 0 && RDEPTH + 1 < SLOTS ->
#ifdef BUG_SIGNAL_WINDOW
			mark_nested(t);	/* marked before counted */
			RDEPTH++;	/* (owner) */
#else
			RDEPTH++;	/* (owner) counted first */
			mark_nested(t);
#endif
			d = RDEPTH;
			slot_access(t, d, rp, r)
		fi;
		slow_leave(t)
	fi
}

/* revocable__try_access_inline() (revocable.h): slot 0's load, then its
 * store - a handler may run between the two */
inline try_access(t, rp, r)
{
	assert((rp) != P || !rp_freed);	/* rev->priv_rp, then rp->priv_* */
	if
	:: SLOT0 != 0 -> try_access_slow(t, rp, r)
	:: else ->
#ifdef BUG_LOAD_FIRST
		load_res(t, rp, r);	/* hoisted above the store */
#endif
		SLOT0 = rp;		/* __atomic_store_n(&slot[0].rp) */
#ifdef BUG_V3_SHARED_INDEX
		lab_slot = t;
#endif
#ifndef BUG_LOAD_FIRST
		load_res(t, rp, r);	/* revocable__read_fence(); load */
#endif
		if
		:: !r -> count_revoked((t) * SLOTS, rp)
		:: else
		fi
	fi
}

/* wake_all_revokers(): bump wake_seq, FUTEX_WAKE */
/* (model) the access in slot x ended: no revoker awaits it any more */
inline ended(x)
{
	atomic {
		for (k : 0 .. NW - 1) {
			awaited[(x) * NW + k] = 0
		}
		k = 0
	}
}

inline wake_all(t)
{
	atomic {
		wake_seq[t] = (wake_seq[t] + 1) % WAKE_SEQS;
		for (k : 0 .. NW - 1) {
			asleep[(t) * NW + k] = 0
		}
		k = 0
	}
}

/* revocable__wake_revokers() (reader.c): only if a slot that a revoker
 * waits on is empty or a hole; seq_cst load of slot_waiters, then the
 * slot. */
inline wake_revokers(t)
{
#ifdef BUG_WAKE_PER_THREAD
	wake_all(t)
#else
	i = 0;
	do
	:: i < SLOTS ->
		found = (slot_waiters[(t) * SLOTS + i] > 0);
		if
		:: found && (slot_rp[(t) * SLOTS + i] == 0 ||
			     slot_rp[(t) * SLOTS + i] == HOLE) ->
			wake_all(t);
			break
		:: else -> i++
		fi
	:: else -> break
	od
#endif
}

/* revocable__release_slow() and release_slow() (reader.c) */
inline release_slow(t, rp)
{
	if
	:: INSLOW && !SDONE ->	/* a handler's refused access ends */
		if
		:: HREF > 0 ->
			HREF--;
			settle(t)
		:: else
		fi
	:: else ->
		slow_enter(t);
		/* release_overflow(): (owner) the newest entry naming rp */
		atomic {
			i = ODEPTH;
			found = 0;
			do
			:: i > 0 && (OVFE(i - 1) & RPMASK) != rp -> i--
			:: i > 0 && (OVFE(i - 1) & RPMASK) == rp ->
				found = 1;
				break
			:: i == 0 -> break
			od
		};
		if
		:: found ->
			atomic {	/* (owner) memmove, depth */
				e = OVFE(i - 1);
				do
				:: i < ODEPTH ->
					OVFE(i - 1) = OVFE(i);
					i++
				:: else -> break
				od;
				OVFE(i - 1) = 0;
				ODEPTH--
			};
			if
			:: !(e & UNC) && rp == P -> ocount--	/* fetch_sub */
			:: else
			fi;
			MARK_DONE
			settle(t)
		:: else ->
			/* release_slot(): (owner) the newest slot naming rp,
			 * from the top down to slot 0 */
			atomic {
				d = RDEPTH;
				i = d + 1;
				do
				:: i > 0 && SP(slot_rp[(t) * SLOTS + i - 1]) != rp -> i--
				:: i > 0 && SP(slot_rp[(t) * SLOTS + i - 1]) == rp ->
					found = 1;
					i--;
					break
				:: i == 0 -> break
				od
			};
			if
			:: !found	/* no matching access: reported, ignored */
			:: found && i == 0 ->	/* the oldest: a hole under others */
				MARK_DONE
				if
				:: HELD_ABOVE > 0 -> SLOT0 = HOLE
				:: else -> SLOT0 = 0
				fi;
				ended((t) * SLOTS)
			:: found && i > 0 && i < d ->
				slot_rp[(t) * SLOTS + i] = HOLE; /* release store */
				ended((t) * SLOTS + i)
			:: found && i > 0 && i == d ->
				slot_rp[(t) * SLOTS + i] = 0;	/* release store */
				ended((t) * SLOTS + i);
				atomic {	/* (owner) pop the holes under it */
					RDEPTH--;
					do
					:: RDEPTH > 0 && slot_rp[(t) * SLOTS + RDEPTH] == HOLE ->
						slot_rp[(t) * SLOTS + RDEPTH] = 0;
						RDEPTH--
					:: else -> break
					od
				};
				MARK_DONE
				settle(t)
			fi;
			if		/* read fence; load waiters */
			:: found && waiters[t] > 0 -> wake_revokers(t)
			:: else
			fi
		fi;
		slow_leave(t)
	fi
}

/* revocable__release_inline() (revocable.h): slot 0 holds exactly rp
 * (one load and compare), or out of line */
inline release(t, rp)
{
#ifdef BUG_V3_SHARED_INDEX
	slot_rp[lab_slot * SLOTS] = 0;	/* ends the handle's latest access */
	ended(lab_slot * SLOTS);
	if
	:: waiters[t] > 0 -> wake_revokers(t)
	:: else
	fi
#else
	if
	:: SLOT0 != rp -> release_slow(t, rp)
	:: else ->
		SLOT0 = 0;		/* store NULL, ORD_END */
		ended((t) * SLOTS);
		if			/* read fence; load pub.waiters */
		:: waiters[t] > 0 -> wake_revokers(t)
		:: else
		fi
	fi
#endif
}

/* (model) the program: an access, its uses, its release */
inline access(t, rp, r, h)
{
	try_access(t, rp, r);
	if
	:: r && (rp) == P -> h = P | SAW
	:: else -> h = rp
	fi
}

inline end_access(t, h)
{
	if
	:: (h) & SAW ->
		atomic { assert(!res_freed); inside[t]-- }	/* last use */
	:: else
	fi;
	rrp = (h) & RPMASK;
	release(t, rrp)
}

/* The thread waits while its handler runs: handler_on holds the pid of
 * the reader it interrupted, which init runs first (reader t is pid t+1). */
#ifdef SIGNAL
#define PROVIDED	provided (handler_on != _pid)
#else
#define PROVIDED
#endif

/*
 * A reader thread's own code: up to MAXACC accesses in all, at most NEST
 * open at once, released in any order (WITH_Q: each of P or Q).
 */
proctype reader(byte t) PROVIDED
{
	READER_LOCALS;
	byte n, nheld, rp, x;
	byte held[NEST];

	do
#ifdef ENDLESS
	:: nheld < NEST ->
#else
	:: nheld < NEST && n < MAXACC ->
		n++;
#endif
		rp = P;
#ifdef WITH_Q
		if
		:: rp = Q
		:: skip
		fi;
#endif
#ifdef OUTER_Q
		if			/* outer accesses of Q, nested of P */
		:: nheld == 0 -> rp = Q
		:: else
		fi;
#endif
		access(t, rp, r, held[nheld]);
		nheld++
	:: nheld > 0 ->
#ifdef ENDLESS
		x = nheld - 1;		/* LIFO: none is held forever */
#else
		x = 0;
		do			/* (model) which access ends */
		:: x + 1 < nheld -> x++
		:: break
		od;
#endif
		end_access(t, held[x]);
		atomic {
			do
			:: x + 1 < nheld -> held[x] = held[x + 1]; x++
			:: else -> break
			od;
			nheld--;
			held[nheld] = 0
		}
#ifndef ENDLESS
	:: nheld == 0 && n == MAXACC -> break
#endif
	od;
#ifdef HANDLER2
	/* (model) every access released: none is recorded any more (only
	 * where a handler can break it: a step of its own costs the other
	 * runs a sixth more states) */
	assert(SLOT0 == 0 && RDEPTH == 0 && ODEPTH == 0 && HREF == 0);
#endif
#ifdef SIGNAL
	handle_gone = 1;
#endif
	handle_free()
}

#ifdef SIGNAL
/* A signal handler on thread t: runs between any two of the thread's
 * steps (the thread waits meanwhile, PROVIDED), an access of its own. */
proctype handler(byte t)
{
	READER_LOCALS;
	byte n, h, h2;

	do
	:: atomic {		/* the signal arrives, while the handle lives */
		n < HACC && !handle_gone -> handler_on = t + 1
	   };
#ifdef HANDLER2
		/* Two accesses, P's then Q's, released in either order: the
		 * first may take slot 0 inline, the second then goes out of
		 * line (refused, or in full once the slow path is done). */
		access(t, P, r, h);
		access(t, Q, r, h2);
		if
		:: skip; end_access(t, h); end_access(t, h2)
		:: skip; end_access(t, h2); end_access(t, h)
		fi;
#else
		access(t, P, r, h);
		end_access(t, h);
#endif
		handler_on = 0;
		n++
	:: else -> break
	od
}
#endif

#ifdef QREADER
/* Inside Q until every revoke of P returned: a revoke of P must not wait
 * for it (per-provider wait). */
proctype q_reader()
{
	READER_LOCALS;
	byte h;

	access(QT, Q, r, h);
	for (i : 0 .. NV - 1) {
		revoke_done[i] == 1
	}
	end_access(QT, h);
	q_out = 1
}
#endif

/* slot_busy() (revoke.c): acquire loads, the provider then the count */
inline slot_busy(s, j, busy)
{
	busy = (SP(slot_rp[(s)]) == P);
#ifndef BUG_NO_COUNT
	busy = busy && noted[(s) * NW + j]
#endif
}

/* wait_slot() (revoke.c): spin (not modelled: re-checks), then park.  The
 * revoker is counted in waiters from its first park to its return, so it
 * orders itself against the readers (membarrier) once per slot; a wake-up
 * that finds the slot still busy parks again without one. */
inline wait_slot(t, s, j)
{
	slot_busy(s, j, busy);
	if
	:: busy ->
		slot_waiters[(s)]++;	/* seq_cst, the slot first */
		waiters[t]++;		/* seq_cst */
		/* order_against_readers(): cmm_smp_mb, membarrier - the
		 * wait's only one */
		do
		:: seq = wake_seq[t];
			slot_busy(s, j, busy);
			if
			:: !busy -> break
			:: else ->
				atomic {	/* FUTEX_WAIT: sleeps if equal */
					if
					:: wake_seq[t] == seq -> asleep[(t) * NW + j] = 1
					:: else
					fi
				};
				!asleep[(t) * NW + j];	/* until a FUTEX_WAKE */
				/* (model) woken while the access it waits for
				 * is still open: an unrelated release woke it.
				 * A new access of P in the slot, between its
				 * slot store and its count, may find it busy
				 * too: that one saw NULL and is not counted. */
				if
				:: awaited[(s) * NW + j] ->
					reparks[j]++;
					assert(reparks[j] <= MAX_REPARK)
				:: else
				fi
			fi
		od;
		waiters[t]--;
		slot_waiters[(s)]--
	:: else
	fi;
	reparks[j] = 0
}

/* wait_for_readers() (revoke.c): scan_some() notes the slots naming P
 * with their counts, then wait_slot() for each, then the overflow count */
inline wait_for_readers(j)
{
	ws = 0;
	do
	:: ws < NTH * SLOTS ->
		busy = (SP(slot_rp[ws]) == P);	/* acquire load of slot->rp */
		if			/* acquire load of revoked_seen */
		:: busy -> noted[ws * NW + j] = 1; awaited[ws * NW + j] = 1
		:: else
		fi;
		ws++
	:: else -> break
	od;
	ws = 0;
	do
	:: ws < NTH * SLOTS ->
		if
		:: noted[ws * NW + j] -> wait_slot(ws / SLOTS, ws, j)
		:: else
		fi;
		atomic { noted[ws * NW + j] = 0; awaited[ws * NW + j] = 0; ws++ }	/* list entry gone */
	:: else -> break
	od;
	ocount == 0			/* backoff() until no counted reader */
}

/* The release callback: hands the resource back.  Called back from it,
 * revocable_provider_revoke() sees the frame (revocable__in_release())
 * and returns -EDEADLK. */
inline release_callback(j)
{
	atomic { res_freed = 1; releases++; assert(releases == 1) };
	assert(in_release[j])
}

/* revoke_begin() (revoke.c), then publish_revocation() if it started */
inline revoke_begin(started)
{
	LOCKED(
		if
		:: state == LIVE -> state = REVOKING; started = 1
		:: else -> started = 0
		fi
	);
	if
	:: started -> res_pub = 0	/* seq_cst NULL store, membarrier */
	:: else
	fi
}

/* revoke_finish() (revoke.c) */
inline revoke_finish(j)
{
	atomic { assert(refs > 0 && !rp_freed); refs++ };	/* get */
	wait_for_readers(j);
	LOCKED(skip);			/* read priv_release */
	in_release[j] = 1;		/* push the frame */
	release_callback(j);
	in_release[j] = 0;
	LOCKED(state = REVOKED);	/* broadcast priv_revoked_cond */
	put()
}

/* revoke_wait() (revoke.c) */
inline revoke_wait()
{
	LOCKED(state == REVOKED)	/* pthread_cond_wait until */
}

#define REVOKER_LOCALS	bit busy, started; byte ws, seq, k, t

/* revocable_provider_revoke(), by a thread holding a reference */
proctype revoker(byte j)
{
	REVOKER_LOCALS;

	revoke_begin(started);
	if
	:: started -> revoke_finish(j)
	:: else -> revoke_wait()
	fi;
	/* Returned: the callback ran once, no access that saw it is open */
	assert(state == REVOKED && releases == 1);
	for (t : 0 .. NTH - 1) {
		assert(inside[t] == 0)
	}
	revoke_done[j] = 1;
	put()				/* the caller's reference */
}

#ifdef LATE
/* revocable_alloc() after a revoke returned, an access (NULL, nothing
 * freed touched), revocable_free(), then revocable_provider_free(). */
proctype late_consumer()
{
	READER_LOCALS;
	byte h;

	revoke_done[0] == 1;
	atomic { assert(refs > 0 && !rp_freed); refs++ };
#ifdef QREADER
	q_out == 1;			/* the Q thread's record, reused */
#endif
	access(QT, P, r, h);
	assert(!r);
	end_access(QT, h);
	put();
	put()
}
#endif

#if defined(ASYNC) || defined(TEARDOWN)
#include "lifetime.pml"
#endif


init
{
	byte i;

	atomic {
#if defined(ASYNC) || defined(TEARDOWN)
		refs = 1 + NT;		/* owner + the readers' handles */
#else
		refs = 1 + NT + NV;	/* owner + handles + revokers' */
#endif
#ifdef ASYNC
		urefs = 1 + NT;
#endif
		for (i : 0 .. NT - 1) {
			run reader(i)
		}
#ifdef SIGNAL
		run handler(0);
#endif
#ifdef QREADER
		run q_reader();
#endif
#if NV > 0
		for (i : 0 .. NV - 1) {
			run revoker(i)
		}
#endif
#ifdef LATE
		run late_consumer();
#endif
#ifdef ASYNC
		run job(0);
		run job(1);
		run owner();
		run barrier();
#endif
#ifdef TEARDOWN
		run worker();
		run dropper();
		run barrier();
#endif
	}
}

#if NV > 0
/* Liveness under weak fairness: every revoke returns. */
ltl revokes_return { <> (revoke_done[0] && revoke_done[NV - 1]) }
#endif
