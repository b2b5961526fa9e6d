/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lifetime.pml - the part of the librevocable model about lifetimes, for
 * revocable.pml, which includes it (read that first): the async revoke
 * jobs with done() and revocable_barrier() (ASYNC, STREAM), and the
 * teardown of a provider never revoked, whose release callback calls back
 * into the library (TEARDOWN).  Each step names the C function it models.
 */

#ifdef ASYNC
/*
 * Embedded provider without free_fn: done() is where the owner drops its
 * reference and, its users gone, frees the memory (rp_freed).  From then
 * on nothing may touch P.  Two job threads, reused (each run is one
 * async_revoke_worker()); STREAM: a thread that keeps starting them.
 */
inline done_cb()
{
#ifdef STREAM
	skip			/* STREAM: done() keeps its reference */
#else
	if
	:: owner_ref ->
		owner_ref = 0;
		put();
		atomic {
			urefs--;
			if
			:: urefs == 0 -> rp_freed = 1	/* free(container) */
			:: else
			fi
		}
	:: else
	fi
#endif
}

/* revocable_provider_revoke_async() */
inline revoke_async(jb)
{
	atomic { assert(refs > 0 && !rp_freed); refs++ };	/* job->rp */
	atomic { !inflight[jb] && !jgo[jb] -> inflight[jb] = 1 }	/* link */
	revoke_begin(started);		/* after the thread starts */
	jstarted[jb] = started;
	jgo[jb] = 1			/* go = true, signal */
}

/* async_revoke_worker() */
proctype job(byte jb)
{
	REVOKER_LOCALS;
	bit last;

end_idle:			/* a job thread waiting for its next job */
	do
	:: jgo[jb] ->
		if
		:: jstarted[jb] -> revoke_finish(NV + jb)
		:: else -> revoke_wait()
		fi;
#ifdef BUG_DONE_THEN_PUT
		done_cb();
		put();
#else
		atomic {		/* put_unless_last() */
			assert(!rp_freed);
			if
			:: refs > 1 -> refs--; last = 0
			:: else -> last = 1
			fi
		};
		if
		:: !last -> done_cb()
		:: else -> done_cb(); put()
		fi;
#endif
		atomic {		/* async_unlink() */
			if
			:: older[jb] -> older_ended++
			:: else
			fi;
			inflight[jb] = 0;
			older[jb] = 0
		};
		jgo[jb] = 0
	od
}

/* The owner: revoke_async(P, done) while holding its reference. */
proctype owner()
{
	REVOKER_LOCALS;

	revoke_async(0)
#ifdef STREAM
	;
	do			/* STREAM: keep starting revokes */
	:: revoke_async(0)
	:: revoke_async(1)
	od
#endif
}

/* revocable_barrier(): the async revokes started before it, then the
 * deferred work (none here: no provider is queued). */
proctype barrier()
{
	atomic {		/* async_target = async_seq, under work_lock */
		older[0] = inflight[0];
		older[1] = inflight[1];
		nolder = older[0] + older[1]
	};
#ifdef BUG_BARRIER_LATER
	atomic { !inflight[0] && !inflight[1] };
#else
	atomic { !older[0] && !older[1] };	/* async_done_below() */
#endif
	assert(older_ended == nolder);	/* every earlier one is over */
	barrier_done = 1
}

ltl barrier_returns { <> barrier_done }
#endif /* ASYNC */

#ifdef TEARDOWN
/*
 * An allocated provider dropped by its last put, never revoked: the
 * deferred teardown on the worker runs the release callback, which calls
 * back into the library for P.  revocable_barrier() on another thread.
 */
/* the callback's revocable_provider_revoke(P) when no frame refuses it
 * (BUG_TEARDOWN_NO_GUARD): no handle is left, so nothing to wait for */
inline callback_revoke()
{
	if
	:: in_release[TW] -> skip	/* -EDEADLK */
	:: else ->
		revoke_begin(started);
		if
		:: started ->
			atomic { refs++ };
			atomic { res_freed = 1; releases++; assert(releases == 1) };
			state = REVOKED;
			put()
		:: else -> revoke_wait()
		fi
	fi
}

/* defer_worker() -> provider_teardown() */
proctype worker()
{
	REVOKER_LOCALS;

	defer_queued > 0;
	assert(!rp_freed);
	if
	:: state == LIVE ->
#ifndef BUG_TEARDOWN_NO_GUARD
		LOCKED(state = REVOKED);
		in_release[TW] = 1;	/* push the frame (teardown) */
#endif
		atomic { res_freed = 1; releases++; assert(releases == 1) };
		if		/* what the callback does with P */
		:: callback_revoke()
		:: skip		/* revoke_async, free: refused by in_teardown */
		fi;
		in_release[TW] = 0
	:: else
	fi;
	rp_freed = 1;
	atomic { defer_done++; torn_down = 1 }
}

/* The owner drops its reference without a revoke: revocable_provider_put() */
proctype dropper()
{
	REVOKER_LOCALS;

	put()
}

/* revocable_barrier() from another thread */
proctype barrier()
{
	byte target;

	target = defer_queued;		/* defer_target, under work_lock */
	defer_done >= target;		/* pthread_cond_wait */
	assert(target == 0 || torn_down);
	barrier_done = 1
}

ltl barrier_returns { <> barrier_done }
#endif /* TEARDOWN */
