// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable: provider and handle lifetimes.  References, the release
 * callback's setting, and the teardown that the last reference schedules
 * on a library thread (never in the caller's context).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "revocable_internal.h"

/* Final teardown, always on a library thread (see defer_free()). */
static void provider_teardown(struct revocable_provider *rp)
{
	void (*free_fn)(struct revocable_provider *rp) = rp->priv_free_fn;
	struct revocable__release_frame frame = { .rp = rp, .teardown = true };

	/*
	 * Never revoked: no handle is left, so no reader can exist; the
	 * release callback still runs exactly once.  It runs as revoked and
	 * inside the same frame a revoke pushes, so a revoke of @rp from it
	 * is refused rather than running it a second time.
	 */
	if (rp->priv_state == REVOCABLE_LIVE && rp->priv_release) {
		pthread_mutex_lock(&rp->priv_lock);
		__atomic_store_n(&rp->priv_state, REVOCABLE_REVOKED,
				 __ATOMIC_RELAXED);
		pthread_mutex_unlock(&rp->priv_lock);
		frame.prev = revocable__releasing;
		revocable__releasing = &frame;
		rp->priv_release(rp->priv_res, rp->priv_release_arg);
		revocable__releasing = frame.prev;
	}
	pthread_cond_destroy(&rp->priv_revoked_cond);
	pthread_mutex_destroy(&rp->priv_lock);
	if (rp->priv_allocated)
		free(rp);
	else if (free_fn)
		free_fn(rp);
}

/* Take the next piece of deferred work, from the two queues in turn;
 * work_lock held. */
static bool defer_pop(struct revocable_provider **rp,
		      struct revocable__release_job **job)
{
	bool job_first = !revocable__ctx.worker_took_job;

	*rp = NULL;
	*job = NULL;
	if (job_first || !revocable__ctx.defer_head)
		*job = revocable__ctx.release_jobs;
	if (*job) {
		revocable__ctx.release_jobs = (*job)->next;
		if (!revocable__ctx.release_jobs)
			revocable__ctx.release_jobs_tail =
				&revocable__ctx.release_jobs;
		revocable__ctx.worker_took_job = true;
		return true;
	}
	*rp = revocable__ctx.defer_head;
	if (*rp) {
		revocable__ctx.defer_head = (*rp)->priv_defer_next;
		if (!revocable__ctx.defer_head)
			revocable__ctx.defer_tail = &revocable__ctx.defer_head;
		revocable__ctx.worker_took_job = false;
	}
	return *rp != NULL;
}

static void *defer_worker(void *unused)
{
	struct revocable__release_job *job;
	struct revocable_provider *rp;

	revocable__on_worker = true;
	pthread_mutex_lock(&revocable__ctx.work_lock);
	while (defer_pop(&rp, &job)) {
		pthread_mutex_unlock(&revocable__ctx.work_lock);

		if (rp) {
			provider_teardown(rp);
		} else {
			job->release(job->res, job->arg);
			free(job);
		}

		pthread_mutex_lock(&revocable__ctx.work_lock);
		if (rp)
			revocable__ctx.defer_done++;
		else
			revocable__ctx.jobs_done++;
		pthread_cond_broadcast(&revocable__ctx.work_cond);
	}
	/* Exit when idle rather than linger: nothing left running at exit. */
	revocable__ctx.defer_worker_running = false;
	pthread_mutex_unlock(&revocable__ctx.work_lock);
	return NULL;
}

/*
 * The C++ ABI's thread_local destructor registration (glibc exports it
 * for libstdc++).  Besides running @dtor when the thread exits, after its
 * start routine has returned, it keeps the shared object that holds
 * @dso_symbol loaded until @dtor has run: a dlclose() meanwhile leaves the
 * library mapped.
 */
extern int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj,
				    void *dso_symbol);
extern void *__dso_handle;

struct library_thread {
	void *(*fn)(void *);
	void *arg;
};

/* Runs at the thread's exit, the library still pinned (see below). */
static void library_thread_exit(void *unused)
{
	revocable__reader_exit_now();
}

/*
 * A library thread whose work is over is still in the library's code on
 * its way out (returning through here; its reader record's destructor if
 * its callbacks made accesses), and revocable_barrier() may already have
 * returned: dlclose() must not unmap that code under it.  So each thread
 * pins the library for its lifetime, and leaves its reader record in the
 * pinned destructor rather than in the key's, which runs later.
 */
static void *library_thread_main(void *data)
{
	struct library_thread t = *(struct library_thread *)data;

	free(data);
	pthread_setname_np(pthread_self(), REVOCABLE__THREAD_NAME);
	/* Without the pin (no memory) only a racing dlclose() could hurt. */
	__cxa_thread_atexit_impl(library_thread_exit, NULL, &__dso_handle);
	return t.fn(t.arg);
}

/**
 * revocable__start_detached() - run @fn(@arg) on a new, detached library
 * thread.
 *
 * Return: 0, or -ENOMEM / -EAGAIN (no thread; @fn is not called).
 */
int revocable__start_detached(void *(*fn)(void *), void *arg)
{
	struct library_thread *t;
	pthread_attr_t attr;
	pthread_t tid;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret;
	t = malloc(sizeof(*t));
	if (!t) {
		pthread_attr_destroy(&attr);
		return -ENOMEM;
	}
	t->fn = fn;
	t->arg = arg;
	ret = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (!ret) {
		sigset_t all, old;

		/*
		 * A library's own threads must never take the process's signals:
		 * a program that waits for SIGTERM in its main loop (libfuse's
		 * loop threads, say) would see its handler run here instead and
		 * never wake. The thread starts with every signal blocked.
		 */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		/* The test hook stands for pthread_create()'s EAGAIN. */
		ret = REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_THREAD) ? EAGAIN :
			pthread_create(&tid, &attr, library_thread_main, t);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	pthread_attr_destroy(&attr);
	if (ret)
		free(t);
	return -ret;
}

/* Start the worker unless it runs; work_lock held.  True: caller starts. */
static bool worker_needed_locked(void)
{
	if (revocable__ctx.defer_worker_running ||
	    (!revocable__ctx.defer_head && !revocable__ctx.release_jobs))
		return false;
	revocable__ctx.defer_worker_running = true;
	return true;
}

static void worker_start(void)
{
	if (revocable__start_detached(defer_worker, NULL)) {
		/* No thread: the caller's context is the only one left. */
		bool on_worker = revocable__on_worker;

		fprintf(stderr, "revocable: cannot start worker, freeing inline\n");
		defer_worker(NULL);
		/* The caller's thread (a library thread, maybe) goes on. */
		revocable__on_worker = on_worker;
	}
}

/*
 * The last reference may be dropped by a reader, inside other locks of the
 * caller, or inside a release callback; tearing down there could deadlock
 * on the caller's own locks, so teardown runs on a worker.
 */
static void defer_free(struct revocable_provider *rp)
{
	bool start;

	revocable__context_ensure();
	pthread_mutex_lock(&revocable__ctx.work_lock);
	rp->priv_defer_next = NULL;
	*revocable__ctx.defer_tail = rp;
	revocable__ctx.defer_tail = &rp->priv_defer_next;
	revocable__ctx.defer_queued++;
	start = worker_needed_locked();
	pthread_mutex_unlock(&revocable__ctx.work_lock);
	if (start)
		worker_start();
}

/*
 * The last reference of an embedded provider without free_fn: its memory
 * is the caller's again the moment this returns (kref users free it at
 * once), so nothing of it may be left for later.  The provider is taken
 * apart here - nothing in that can block - and only a release callback
 * still due (never revoked) is deferred, as a job holding copies.
 */
static void provider_last_put_embedded(struct revocable_provider *rp)
{
	struct revocable__release_job *job;
	void (*release)(void *res, void *arg) = NULL;
	void *res = rp->priv_res, *arg = rp->priv_release_arg;
	bool start;

	if (rp->priv_state == REVOCABLE_LIVE)
		release = rp->priv_release;
	pthread_cond_destroy(&rp->priv_revoked_cond);
	pthread_mutex_destroy(&rp->priv_lock);
	if (!release)
		return;

	job = malloc(sizeof(*job));
	if (!job) {
		/* Out of memory: late is impossible, so run it now. */
		release(res, arg);
		return;
	}
	job->release = release;
	job->res = res;
	job->arg = arg;
	job->next = NULL;
	revocable__context_ensure();
	pthread_mutex_lock(&revocable__ctx.work_lock);
	*revocable__ctx.release_jobs_tail = job;
	revocable__ctx.release_jobs_tail = &job->next;
	revocable__ctx.jobs_queued++;
	start = worker_needed_locked();
	pthread_mutex_unlock(&revocable__ctx.work_lock);
	if (start)
		worker_start();
}

/* Has every async revoke started before @seq finished?  work_lock held. */
static bool async_done_below(uint64_t seq)
{
	struct revocable__async_link *oldest;

	if (cds_list_empty(&revocable__ctx.async_jobs))
		return true;
	oldest = cds_list_first_entry(&revocable__ctx.async_jobs,
				      struct revocable__async_link, node);
	return oldest->seq >= seq;
}

/**
 * revocable_barrier() - wait for deferred frees and async revokes to finish.
 *
 * For tests and for shutdown paths that must know every free_fn and every
 * async completion callback has run.  Like rcu_barrier(), it waits only
 * for what was queued before the call: work queued meanwhile (a done()
 * that starts the next async revoke, say) cannot keep it waiting.
 * Returns at once when called from a
 * library thread or inside a release callback, where waiting could wait
 * for the caller itself (an async revoke of the provider being released
 * finishes only after its callback).  Must not be called inside an
 * access: a pending async revoke may be waiting for it.
 */
void revocable_barrier(void)
{
	uint64_t defer_target, jobs_target, async_target;
	bool start;

	if (revocable__on_worker || revocable__in_release(NULL))
		return;
	revocable__context_ensure();
	pthread_mutex_lock(&revocable__ctx.work_lock);
	/* Work queued but no worker: only after fork() in the child. */
	start = worker_needed_locked();
	pthread_mutex_unlock(&revocable__ctx.work_lock);
	if (start)
		worker_start();
	pthread_mutex_lock(&revocable__ctx.work_lock);
	/*
	 * An async revoke's done() may queue deferred frees, so its work is
	 * counted first; the deferred queues' targets are taken once the
	 * async revokes before us are over.
	 */
	async_target = revocable__ctx.async_seq;
	while (!async_done_below(async_target))
		pthread_cond_wait(&revocable__ctx.work_cond,
				  &revocable__ctx.work_lock);
	defer_target = revocable__ctx.defer_queued;
	jobs_target = revocable__ctx.jobs_queued;
	while (revocable__ctx.defer_done < defer_target ||
	       revocable__ctx.jobs_done < jobs_target)
		pthread_cond_wait(&revocable__ctx.work_cond,
				  &revocable__ctx.work_lock);
	pthread_mutex_unlock(&revocable__ctx.work_lock);
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
	struct revocable_provider *rp;

	rp = REVOCABLE__ALLOC_FAILS(REVOCABLE__ALLOC_PROVIDER) ? NULL :
		malloc(sizeof(*rp));
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
 * reports the misuse on stderr and leaves the provider untouched.  Called
 * from @rp's own release callback it only drops the owner reference: the
 * revocation is complete but for that callback, and the provider goes
 * once the revoke that runs the callback is over.
 */
void revocable_provider_free(struct revocable_provider *rp)
{
	if (!rp)
		return;
	if (revocable__in_teardown(rp))
		return;		/* its last reference is already gone */
	if (revocable__in_release(rp)) {
		revocable_provider_put(rp);
		return;
	}
	if (revocable_provider_revoke(rp) == -EDEADLK) {
		fprintf(stderr,
			"revocable: revocable_provider_free() inside an access to the same provider; not freed\n");
		return;
	}
	revocable_provider_put(rp);
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
 * The last put schedules the teardown on a library thread - except for an
 * embedded provider without free_fn, which is done with before this
 * returns (its memory may be freed at once); only its release callback,
 * if it was never revoked, still runs on a library thread.
 */
void revocable_provider_put(struct revocable_provider *rp)
{
	long old;

	if (!rp || rp == &revocable__null_provider)
		return;
	old = __atomic_fetch_sub(&rp->priv_refcount, 1, __ATOMIC_ACQ_REL);
	if (old == 1 && !rp->priv_allocated && !rp->priv_free_fn)
		provider_last_put_embedded(rp);
	else if (old == 1)
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
	revocable__lab_forget(rev);
}

/**
 * revocable_fini() - drop the handle's provider reference.
 * @rev: the handle; it must not be inside an access.
 */
void revocable_fini(struct revocable *rev)
{
	struct revocable_provider *rp;

	if (!rev)
		return;
	rp = rev->priv_rp;
	/*
	 * With the provider's last reference, any open access to it is
	 * through this handle (or one already gone): its release would
	 * read the handle after it is freed.  Cheap to see, so reported.
	 * With more references the access may be another handle's: no
	 * report rather than a false one.
	 */
	if (rp != &revocable__null_provider &&
	    __atomic_load_n(&rp->priv_refcount, __ATOMIC_ACQUIRE) == 1 &&
	    (revocable__self_holds(rp) || revocable__others_hold(rp)))
		fprintf(stderr,
			"revocable: revocable_free()/revocable_fini() of a handle while an access through it is open; its release will use freed memory\n");
	revocable_provider_put(rp);
	revocable__lab_forget(rev);
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

