// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lifecycle.c - the ways a file can hold an EC (see lifecycle.h).
 */
#include "config.h"

/*
 * Every file operation takes an access: the inline read side (the daemon
 * is GPL-2.0-or-later, which may incorporate librevocable's LGPL inline
 * code; revocable.h says why that matters) and the library it is built
 * with come from the same tree.
 */
#define REVOCABLE_INLINE

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ec/ec.h"
#include "lifecycle.h"
#include "lifecycle_testing.h"
#include "revocable.h"

/**
 * struct lifecycle_ops - what one teaching mode does at each step.
 * @name:             the mode's option spelling
 * @files_see_unplug: an unplug reaches the open files (they fail from then
 *                    on, blocked readers and pollers are woken); false in
 *                    the teaching modes, whose files never learn of it
 * @init:             take over @ec (also on failure: then it is freed)
 * @put:              the last holder reference went: free the mode's state
 *                    and, unless already gone, the EC
 * @attach:           set up a file handle
 * @detach:           undo @attach
 * @access:           start a file access (see lifecycle_access())
 * @release:          end it
 * @access_owner:     start the daemon's own access
 * @release_owner:    end it
 * @unplug:           unplug and wait (see lifecycle_unplug())
 * @unplug_async:     start an unplug (see lifecycle_unplug_async())
 */
struct lifecycle_ops {
	const char *name;
	bool files_see_unplug;
	int (*init)(struct lifecycle *lc, struct ec *ec);
	void (*put)(struct lifecycle *lc);
	int (*attach)(struct lifecycle *lc, struct lifecycle_ref *ref);
	void (*detach)(struct lifecycle_ref *ref);
	struct ec *(*access)(struct lifecycle_ref *ref);
	void (*release)(struct lifecycle_ref *ref);
	struct ec *(*access_owner)(struct lifecycle *lc);
	void (*release_owner)(struct lifecycle *lc);
	int (*unplug)(struct lifecycle *lc);
	int (*unplug_async)(struct lifecycle *lc, void (*done)(void *arg), void *arg);
};

/**
 * struct lifecycle_revocable - revocable mode's state.
 * @rp:        the provider whose resource is the EC
 * @owner_rev: the daemon's own consumer handle
 * @done:      async unplug completion callback
 * @done_arg:  its argument
 */
struct lifecycle_revocable {
	struct revocable_provider *rp;
	struct revocable *owner_rev;
	void (*done)(void *arg);
	void *done_arg;
};

/**
 * struct lifecycle_held - refcount and unsafe modes' state: the EC itself.
 * @ec:         the EC (unsafe mode: freed at unplug, the pointer kept)
 * @ec_refs:    refcount mode: the daemon's reference plus one per file
 * @owner_lock: lets unplug wait for the daemon's own accesses (files are
 *              deliberately NOT covered: that is the bug these modes teach)
 */
struct lifecycle_held {
	struct ec *ec;
	atomic_uint ec_refs;
	pthread_rwlock_t owner_lock;
};

/**
 * struct lifecycle_fenced - fenced mode's state: the driver's data of the
 * fix finally posted for cros_ec_chardev (May 2026), the device pointer and
 * the rw_semaphore around it. The data itself is refcounted: it is the
 * struct lifecycle, which every open file references.
 * @sem:      readers: each file access and the daemon's own; writer: unplug
 * @ec:       the EC, or NULL once unplug cleared it (under @sem for writing)
 * @done:     async unplug completion callback
 * @done_arg: its argument
 */
struct lifecycle_fenced {
	pthread_rwlock_t sem;
	struct ec *ec;
	void (*done)(void *arg);
	void *done_arg;
};

/**
 * struct lifecycle - one EC instance and how it is held.
 * @ops:        the mode's steps
 * @refs:       references on this struct (owner, each file handle, ...)
 * @unplugged:  set once by the first unplug
 * @hooks:      the creator's callbacks; set only once the mode took the EC
 *              over, so a failed create reports no destroy
 * @ec_bytes:   the EC's footprint when taken over (lifecycle_ec_bytes())
 * @rev:        revocable mode's state
 * @held:       refcount and unsafe modes' state
 * @fenced:     fenced mode's state
 */
struct lifecycle {
	const struct lifecycle_ops *ops;
	atomic_uint refs;
	atomic_bool unplugged;
	struct lifecycle_hooks hooks;
	size_t ec_bytes;
	union {
		struct lifecycle_revocable rev;
		struct lifecycle_held held;
		struct lifecycle_fenced fenced;
	};
};

/**
 * struct lifecycle_ref - one open file's handle on an EC instance.
 * @lc:  the holder (referenced)
 * @rev: revocable mode: this file's consumer
 * @ec:  unsafe mode: a raw copy of the EC pointer, never cleared - exactly
 *       the stale copy the original driver kept in its private data
 */
struct lifecycle_ref {
	struct lifecycle *lc;
	union {
		struct revocable *rev;
		struct ec *ec;
	};
};

/*
 * Every path that frees an EC the mode took over comes here, so the
 * creator's count of live ECs misses none of them (a mode's own failure to
 * take it over frees it with ec_destroy() directly: it was never counted).
 */
static void lifecycle_ec_free(struct lifecycle *lc, struct ec *ec)
{
	if (!ec)
		return;
	ec_destroy(ec);
	if (lc->hooks.on_ec_destroyed)
		lc->hooks.on_ec_destroyed(lc->hooks.arg, lc->ec_bytes);
}

/* ---- revocable: the EC is a provider, each file a consumer ---- */

/*
 * Runs once, after revoke and after the last reader left: inside the
 * revoke (a synchronous one, the async one's library thread, or the one
 * rev_mode_put() makes), while @lc is still referenced.
 */
static void lifecycle_destroy_revoked_ec(void *res, void *arg)
{
	lifecycle_ec_free(arg, res);
}

static int rev_mode_init(struct lifecycle *lc, struct ec *ec)
{
	struct lifecycle_revocable *st = &lc->rev;
	int ret;

	st->rp = revocable_provider_alloc(ec);
	if (!st->rp) {
		ec_destroy(ec);
		return -ENOMEM;
	}
	/* From here on the provider owns the EC: its release frees it. */
	ret = revocable_provider_set_release(st->rp, lifecycle_destroy_revoked_ec, lc);
	if (ret)
		goto err_rp;
	st->owner_rev = revocable_alloc(st->rp);
	if (!st->owner_rev) {
		ret = -ENOMEM;
		goto err_rp;
	}
	return 0;

err_rp:
	/* Revoking runs the release callback, which destroys the EC. */
	revocable_provider_free(st->rp);
	return ret;
}

static void rev_mode_put(struct lifecycle *lc)
{
	revocable_free(lc->rev.owner_rev);
	/* Revokes if nobody did; the release callback frees the EC. */
	revocable_provider_free(lc->rev.rp);
}

static int rev_mode_attach(struct lifecycle *lc, struct lifecycle_ref *ref)
{
	/* Safe on a revoked provider: accesses then return NULL. */
	ref->rev = revocable_alloc(lc->rev.rp);
	return ref->rev ? 0 : -ENOMEM;
}

static void rev_mode_detach(struct lifecycle_ref *ref)
{
	revocable_free(ref->rev);
}

static struct ec *rev_mode_access(struct lifecycle_ref *ref)
{
	return revocable_try_access(ref->rev);
}

static void rev_mode_release_ref(struct lifecycle_ref *ref)
{
	revocable_release(ref->rev);
}

static struct ec *rev_mode_access_owner(struct lifecycle *lc)
{
	return revocable_try_access(lc->rev.owner_rev);
}

static void rev_mode_release_owner(struct lifecycle *lc)
{
	revocable_release(lc->rev.owner_rev);
}

static int rev_mode_unplug(struct lifecycle *lc)
{
	int ret = revocable_provider_revoke(lc->rev.rp);

	/* -EDEADLK (called inside an access) changed nothing. */
	if (ret >= 0)
		atomic_store(&lc->unplugged, true);
	return ret;
}

static void lifecycle_revoke_done(struct revocable_provider *rp, void *arg)
{
	struct lifecycle *lc = arg;
	void (*done)(void *) = lc->rev.done;
	void *done_arg = lc->rev.done_arg;

	/* Last use of @lc here: the reference taken for the async unplug. */
	lifecycle_put(lc);
	if (done)
		done(done_arg);
}

static int rev_mode_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg)
{
	int ret;

	if (atomic_exchange(&lc->unplugged, true))
		return 0;
	lc->rev.done = done;
	lc->rev.done_arg = arg;
	/* Keep the holder alive until the completion has run. */
	lifecycle_get(lc);
	ret = revocable_provider_revoke_async(lc->rev.rp, lifecycle_revoke_done, lc);
	if (ret < 0) {
		/* Nothing was revoked and no callback will come. */
		atomic_store(&lc->unplugged, false);
		lifecycle_put(lc);
		return ret;
	}
	/* The library calls back exactly once, even if already revoked. */
	return 1;
}

static const struct lifecycle_ops lifecycle_revocable_ops = {
	.name = "revocable",
	.files_see_unplug = true,
	.init = rev_mode_init,
	.put = rev_mode_put,
	.attach = rev_mode_attach,
	.detach = rev_mode_detach,
	.access = rev_mode_access,
	.release = rev_mode_release_ref,
	.access_owner = rev_mode_access_owner,
	.release_owner = rev_mode_release_owner,
	.unplug = rev_mode_unplug,
	.unplug_async = rev_mode_unplug_async,
};

/* ---- refcount and unsafe: the files hold the EC itself ---- */

static int held_init(struct lifecycle *lc, struct ec *ec)
{
	if (pthread_rwlock_init(&lc->held.owner_lock, NULL)) {
		ec_destroy(ec);
		return -ENOMEM;
	}
	lc->held.ec = ec;
	atomic_init(&lc->held.ec_refs, 1);
	return 0;
}

static void held_ec_put(struct lifecycle *lc)
{
	if (atomic_fetch_sub(&lc->held.ec_refs, 1) == 1) {
		lifecycle_ec_free(lc, lc->held.ec);
		lc->held.ec = NULL;
	}
}

/* What "the EC goes away" means in these modes. */
static void refcount_gone(struct lifecycle *lc)
{
	held_ec_put(lc);
}

static void unsafe_gone(struct lifecycle *lc)
{
	lifecycle_ec_free(lc, lc->held.ec);	/* files' raw copies now dangle */
}

static void held_put(struct lifecycle *lc, void (*gone)(struct lifecycle *lc))
{
	/* Every file reference is gone; drop the daemon's if still held. */
	if (!atomic_exchange(&lc->unplugged, true))
		gone(lc);
	pthread_rwlock_destroy(&lc->held.owner_lock);
}

static void refcount_put(struct lifecycle *lc)
{
	held_put(lc, refcount_gone);
}

static void unsafe_put(struct lifecycle *lc)
{
	held_put(lc, unsafe_gone);
}

static int refcount_attach(struct lifecycle *lc, struct lifecycle_ref *ref)
{
	atomic_fetch_add(&lc->held.ec_refs, 1);
	return 0;
}

static void refcount_detach(struct lifecycle_ref *ref)
{
	held_ec_put(ref->lc);
}

static struct ec *refcount_access(struct lifecycle_ref *ref)
{
	struct lifecycle *lc = ref->lc;

	/* The file's reference keeps the EC allocated: it "works". */
	if (atomic_load(&lc->unplugged) && lc->hooks.on_zombie)
		lc->hooks.on_zombie(lc->hooks.arg);
	return lc->held.ec;
}

static int unsafe_attach(struct lifecycle *lc, struct lifecycle_ref *ref)
{
	ref->ec = lc->held.ec;
	return 0;
}

static void unsafe_detach(struct lifecycle_ref *ref)
{
}

static struct ec *unsafe_access(struct lifecycle_ref *ref)
{
	/* Deliberately unguarded: after unplug this pointer is stale. */
	return ref->ec;
}

static void held_release(struct lifecycle_ref *ref)
{
}

static struct ec *held_access_owner(struct lifecycle *lc)
{
	pthread_rwlock_rdlock(&lc->held.owner_lock);
	if (atomic_load(&lc->unplugged))
		return NULL;
	return lc->held.ec;
}

static void held_release_owner(struct lifecycle *lc)
{
	pthread_rwlock_unlock(&lc->held.owner_lock);
}

static int lifecycle_unplug_unguarded(struct lifecycle *lc, void (*gone)(struct lifecycle *lc))
{
	int ret = 0;

	pthread_rwlock_wrlock(&lc->held.owner_lock);
	if (!atomic_exchange(&lc->unplugged, true)) {
		gone(lc);
		ret = 1;
	}
	pthread_rwlock_unlock(&lc->held.owner_lock);
	return ret;
}

static int refcount_unplug(struct lifecycle *lc)
{
	return lifecycle_unplug_unguarded(lc, refcount_gone);
}

static int unsafe_unplug(struct lifecycle *lc)
{
	return lifecycle_unplug_unguarded(lc, unsafe_gone);
}

/* Nothing to wait for in these modes: complete synchronously. */
static int held_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg)
{
	int ret = lc->ops->unplug(lc);

	if (ret == 1 && done)
		done(arg);
	return ret;
}

static const struct lifecycle_ops lifecycle_refcount_ops = {
	.name = "refcount",
	.files_see_unplug = false,
	.init = held_init,
	.put = refcount_put,
	.attach = refcount_attach,
	.detach = refcount_detach,
	.access = refcount_access,
	.release = held_release,
	.access_owner = held_access_owner,
	.release_owner = held_release_owner,
	.unplug = refcount_unplug,
	.unplug_async = held_unplug_async,
};

static const struct lifecycle_ops lifecycle_unsafe_ops = {
	.name = "unsafe",
	.files_see_unplug = false,
	.init = held_init,
	.put = unsafe_put,
	.attach = unsafe_attach,
	.detach = unsafe_detach,
	.access = unsafe_access,
	.release = held_release,
	.access_owner = held_access_owner,
	.release_owner = held_release_owner,
	.unplug = unsafe_unplug,
	.unplug_async = held_unplug_async,
};

/* ---- fenced: every file operation holds the device pointer's lock ---- */

static int fenced_init(struct lifecycle *lc, struct ec *ec)
{
	struct lifecycle_fenced *st = &lc->fenced;
	pthread_rwlockattr_t attr;
	int ret;

	/*
	 * A kernel rw_semaphore makes new readers queue behind a waiting
	 * writer, so a stream of file operations cannot starve remove. glibc's
	 * default lets readers in; this kind does not.
	 */
	ret = pthread_rwlockattr_init(&attr);
	if (!ret) {
		pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		ret = pthread_rwlock_init(&st->sem, &attr);
		pthread_rwlockattr_destroy(&attr);
	}
	if (ret) {
		ec_destroy(ec);
		return -ret;
	}
	st->ec = ec;
	return 0;
}

static void fenced_put(struct lifecycle *lc)
{
	/* No file and no access is left: nobody can be inside. */
	lifecycle_ec_free(lc, lc->fenced.ec);
	pthread_rwlock_destroy(&lc->fenced.sem);
}

static int fenced_attach(struct lifecycle *lc, struct lifecycle_ref *ref)
{
	return 0;	/* the file's reference is on the struct lifecycle itself */
}

static void fenced_detach(struct lifecycle_ref *ref)
{
}

/* Held for reading until the matching release, even when the EC is gone. */
static struct ec *fenced_access_owner(struct lifecycle *lc)
{
	pthread_rwlock_rdlock(&lc->fenced.sem);
	return lc->fenced.ec;
}

static void fenced_release_owner(struct lifecycle *lc)
{
	pthread_rwlock_unlock(&lc->fenced.sem);
}

static struct ec *fenced_access(struct lifecycle_ref *ref)
{
	return fenced_access_owner(ref->lc);
}

static void fenced_release(struct lifecycle_ref *ref)
{
	fenced_release_owner(ref->lc);
}

/*
 * remove(): take the lock for writing (waiting for every access inside,
 * a command in flight included), clear the pointer, and only then free
 * the EC, which no access can reach any more.
 */
static void fenced_remove(struct lifecycle *lc)
{
	struct ec *ec;

	pthread_rwlock_wrlock(&lc->fenced.sem);
	ec = lc->fenced.ec;
	lc->fenced.ec = NULL;
	pthread_rwlock_unlock(&lc->fenced.sem);
	lifecycle_ec_free(lc, ec);
}

static int fenced_unplug(struct lifecycle *lc)
{
	if (atomic_exchange(&lc->unplugged, true))
		return 0;
	fenced_remove(lc);
	return 1;
}

static void *fenced_unplug_thread(void *arg)
{
	struct lifecycle *lc = arg;
	void (*done)(void *) = lc->fenced.done;
	void *done_arg = lc->fenced.done_arg;

	fenced_remove(lc);
	/* Last use of @lc here: the reference taken for the async unplug. */
	lifecycle_put(lc);
	if (done)
		done(done_arg);
	return NULL;
}

/*
 * The write lock waits for commands in flight: not in the caller's thread
 * (the daemon's control and uevent threads never wait), but in one of its
 * own, which completes the unplug.
 */
static int fenced_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t thread;
	int ret;

	if (atomic_exchange(&lc->unplugged, true))
		return 0;
	lc->fenced.done = done;
	lc->fenced.done_arg = arg;
	lifecycle_get(lc);
	ret = pthread_attr_init(&attr);
	if (ret)
		goto err;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Signals stay with the threads that handle them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&thread, &attr, fenced_unplug_thread, lc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret)
		goto err;
	return 1;

err:
	/* Nothing was removed and no callback will come. */
	atomic_store(&lc->unplugged, false);
	lifecycle_put(lc);
	return -ret;
}

static const struct lifecycle_ops lifecycle_fenced_ops = {
	.name = "fenced",
	.files_see_unplug = true,
	.init = fenced_init,
	.put = fenced_put,
	.attach = fenced_attach,
	.detach = fenced_detach,
	.access = fenced_access,
	.release = fenced_release,
	.access_owner = fenced_access_owner,
	.release_owner = fenced_release_owner,
	.unplug = fenced_unplug,
	.unplug_async = fenced_unplug_async,
};

static const struct lifecycle_ops *const lifecycle_modes[] = {
	[LIFECYCLE_REVOCABLE] = &lifecycle_revocable_ops,
	[LIFECYCLE_REFCOUNT] = &lifecycle_refcount_ops,
	[LIFECYCLE_UNSAFE] = &lifecycle_unsafe_ops,
	[LIFECYCLE_FENCED] = &lifecycle_fenced_ops,
};

#define LIFECYCLE_NMODES (sizeof(lifecycle_modes) / sizeof(lifecycle_modes[0]))

/* ---- the mode-independent half ---- */

int lifecycle_mode_parse(const char *name, enum lifecycle_mode *out)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < LIFECYCLE_NMODES; i++) {
		if (!strcmp(name, lifecycle_modes[i]->name)) {
			*out = (enum lifecycle_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *lifecycle_mode_name(enum lifecycle_mode mode)
{
	if ((unsigned int)mode >= LIFECYCLE_NMODES)
		return "?";
	return lifecycle_modes[mode]->name;
}

unsigned int lifecycle_mode_count(void)
{
	return LIFECYCLE_NMODES;
}

const char *lifecycle_mode_list(char *buf, size_t len)
{
	size_t i, used = 0;
	int n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < LIFECYCLE_NMODES && used < len; i++) {
		n = snprintf(buf + used, len - used, "%s%s",
			     !i ? "" : i + 1 < LIFECYCLE_NMODES ? ", " : " or ",
			     lifecycle_modes[i]->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

int lifecycle_create(enum lifecycle_mode mode, struct ec *ec,
		     const struct lifecycle_hooks *hooks, struct lifecycle **out)
{
	struct lifecycle *lc;
	int ret;

	if ((unsigned int)mode >= LIFECYCLE_NMODES || !ec) {
		ec_destroy(ec);
		return -EINVAL;
	}
	lc = calloc(1, sizeof(*lc));
	if (!lc) {
		ec_destroy(ec);
		return -ENOMEM;
	}
	lc->ops = lifecycle_modes[mode];
	atomic_init(&lc->refs, 1);
	atomic_init(&lc->unplugged, false);
	/* A fresh EC: nobody else reaches it, its figure is the profile's. */
	lc->ec_bytes = ec_memory_footprint(ec);
	ret = lc->ops->init(lc, ec);
	if (ret) {
		free(lc);
		return ret;
	}
	if (hooks)
		lc->hooks = *hooks;
	*out = lc;
	return 0;
}

size_t lifecycle_ec_bytes(const struct lifecycle *lc)
{
	return lc->ec_bytes;
}

void lifecycle_get(struct lifecycle *lc)
{
	atomic_fetch_add(&lc->refs, 1);
}

void lifecycle_put(struct lifecycle *lc)
{
	if (!lc || atomic_fetch_sub(&lc->refs, 1) != 1)
		return;
	lc->ops->put(lc);
	free(lc);
}

bool lifecycle_files_see_unplug(const struct lifecycle *lc)
{
	return lc->ops->files_see_unplug;
}

enum lifecycle_mode lifecycle_mode_of(const struct lifecycle *lc)
{
	size_t i;

	for (i = 0; i < LIFECYCLE_NMODES; i++) {
		if (lifecycle_modes[i] == lc->ops)
			break;
	}
	return (enum lifecycle_mode)i;
}

int lifecycle_attach(struct lifecycle *lc, struct lifecycle_ref **out)
{
	struct lifecycle_ref *ref;
	int ret;

	ref = calloc(1, sizeof(*ref));
	if (!ref)
		return -ENOMEM;
	ref->lc = lc;
	ret = lc->ops->attach(lc, ref);
	if (ret) {
		free(ref);
		return ret;
	}
	lifecycle_get(lc);
	*out = ref;
	return 0;
}

void lifecycle_detach(struct lifecycle_ref *ref)
{
	if (!ref)
		return;
	ref->lc->ops->detach(ref);
	lifecycle_put(ref->lc);
	free(ref);
}

struct ec *lifecycle_access(struct lifecycle_ref *ref)
{
	return ref->lc->ops->access(ref);
}

void lifecycle_release(struct lifecycle_ref *ref)
{
	ref->lc->ops->release(ref);
}

struct ec *lifecycle_access_owner(struct lifecycle *lc)
{
	return lc->ops->access_owner(lc);
}

void lifecycle_release_owner(struct lifecycle *lc)
{
	lc->ops->release_owner(lc);
}

int lifecycle_unplug(struct lifecycle *lc)
{
	return lc->ops->unplug(lc);
}

int lifecycle_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg)
{
	return lc->ops->unplug_async(lc, done, arg);
}

bool lifecycle_is_unplugged(const struct lifecycle *lc)
{
	return atomic_load(&lc->unplugged);
}
