// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lifecycle.c - the three ways a file can hold an EC (see lifecycle.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ec/ec.h"
#include "lifecycle.h"
#include "revocable.h"

/**
 * struct lifecycle - one EC instance and how it is held.
 * @mode:       the teaching mode
 * @refs:       references on this struct (owner, each file handle, ...)
 * @unplugged:  set once by the first unplug
 * @on_zombie:  refcount mode: called per access after unplug
 * @zombie_arg: passed to @on_zombie
 * @rp:         revocable mode: the provider whose resource is the EC
 * @owner_rev:  revocable mode: the daemon's own consumer handle
 * @ec:         refcount/unsafe modes: the EC (NULL in unsafe mode once freed)
 * @ec_refs:    refcount mode: the daemon's reference plus one per file
 * @owner_lock: refcount/unsafe modes: lets unplug wait for the daemon's own
 *              accesses (files are deliberately NOT covered: that is the bug
 *              these modes teach)
 * @done:       async unplug completion callback and its argument
 */
struct lifecycle {
	enum lifecycle_mode mode;
	atomic_uint refs;
	atomic_bool unplugged;
	void (*on_zombie)(void *arg);
	void *zombie_arg;
	struct revocable_provider *rp;
	struct revocable *owner_rev;
	struct ec *ec;
	atomic_uint ec_refs;
	pthread_rwlock_t owner_lock;
	void (*done)(void *arg);
	void *done_arg;
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
	struct revocable *rev;
	struct ec *ec;
};

static const char *const lifecycle_mode_names[] = {
	[LIFECYCLE_REVOCABLE] = "revocable",
	[LIFECYCLE_REFCOUNT] = "refcount",
	[LIFECYCLE_UNSAFE] = "unsafe",
};

/**
 * lifecycle_mode_parse() - map a mode name to its value.
 * @name: "revocable", "refcount" or "unsafe"
 * @out:  the mode
 *
 * Return: 0 or -EINVAL.
 */
int lifecycle_mode_parse(const char *name, enum lifecycle_mode *out)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < sizeof(lifecycle_mode_names) / sizeof(lifecycle_mode_names[0]); i++) {
		if (!strcmp(name, lifecycle_mode_names[i])) {
			*out = (enum lifecycle_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * lifecycle_mode_name() - the spelling of a mode.
 * @mode: the mode
 *
 * Return: its name, or "?" for an out-of-range value.
 */
const char *lifecycle_mode_name(enum lifecycle_mode mode)
{
	if ((unsigned int)mode >= sizeof(lifecycle_mode_names) / sizeof(lifecycle_mode_names[0]))
		return "?";
	return lifecycle_mode_names[mode];
}

/* Revocable mode: runs once, after revoke and after the last reader left. */
static void lifecycle_destroy_revoked_ec(void *res, void *arg)
{
	ec_destroy(res);
}

static void lifecycle_ec_put(struct lifecycle *lc)
{
	if (atomic_fetch_sub(&lc->ec_refs, 1) == 1) {
		ec_destroy(lc->ec);
		lc->ec = NULL;
	}
}

/**
 * lifecycle_create() - wrap a fresh EC in a holder.
 * @mode:       how files hold the EC
 * @ec:         the EC, owned by the holder from now on (also on failure)
 * @on_zombie:  called per file access after unplug that still reached the EC
 * @zombie_arg: passed to @on_zombie
 * @out:        the holder with one reference for the caller
 *
 * Return: 0, -EINVAL for a bad mode, or -ENOMEM.
 */
int lifecycle_create(enum lifecycle_mode mode, struct ec *ec,
		     void (*on_zombie)(void *arg), void *zombie_arg,
		     struct lifecycle **out)
{
	struct lifecycle *lc;
	int ret = -ENOMEM;

	if ((unsigned int)mode > LIFECYCLE_UNSAFE || !ec) {
		ret = -EINVAL;
		goto err_ec;
	}
	lc = calloc(1, sizeof(*lc));
	if (!lc)
		goto err_ec;
	lc->mode = mode;
	atomic_init(&lc->refs, 1);
	atomic_init(&lc->unplugged, false);
	lc->on_zombie = on_zombie;
	lc->zombie_arg = zombie_arg;
	if (pthread_rwlock_init(&lc->owner_lock, NULL))
		goto err_lc;

	if (mode == LIFECYCLE_REVOCABLE) {
		lc->rp = revocable_provider_alloc(ec);
		if (!lc->rp)
			goto err_lock;
		/* From here on the provider owns the EC: its release frees it. */
		ret = revocable_provider_set_release(lc->rp, lifecycle_destroy_revoked_ec, NULL);
		if (ret)
			goto err_rp;
		lc->owner_rev = revocable_alloc(lc->rp);
		if (!lc->owner_rev) {
			ret = -ENOMEM;
			goto err_rp;
		}
	} else {
		lc->ec = ec;
		atomic_init(&lc->ec_refs, 1);
	}
	*out = lc;
	return 0;

err_rp:
	/* Revoking runs the release callback, which destroys the EC. */
	revocable_provider_free(lc->rp);
	pthread_rwlock_destroy(&lc->owner_lock);
	free(lc);
	return ret;
err_lock:
	pthread_rwlock_destroy(&lc->owner_lock);
err_lc:
	free(lc);
err_ec:
	ec_destroy(ec);
	return ret;
}

/**
 * lifecycle_get() - take a reference on the holder.
 * @lc: holder
 */
void lifecycle_get(struct lifecycle *lc)
{
	atomic_fetch_add(&lc->refs, 1);
}

/**
 * lifecycle_put() - drop a holder reference; the last one frees it.
 * @lc: holder, NULL is ignored
 */
void lifecycle_put(struct lifecycle *lc)
{
	if (!lc || atomic_fetch_sub(&lc->refs, 1) != 1)
		return;

	switch (lc->mode) {
	case LIFECYCLE_REVOCABLE:
		revocable_free(lc->owner_rev);
		/* Revokes if nobody did; the release callback frees the EC. */
		revocable_provider_free(lc->rp);
		break;
	case LIFECYCLE_REFCOUNT:
		/* Every file reference is gone; drop the daemon's if still held. */
		if (!atomic_exchange(&lc->unplugged, true))
			lifecycle_ec_put(lc);
		break;
	case LIFECYCLE_UNSAFE:
		if (!atomic_exchange(&lc->unplugged, true))
			ec_destroy(lc->ec);
		break;
	}
	pthread_rwlock_destroy(&lc->owner_lock);
	free(lc);
}

/**
 * lifecycle_mode_of() - the holder's mode.
 * @lc: holder
 *
 * Return: the mode.
 */
enum lifecycle_mode lifecycle_mode_of(const struct lifecycle *lc)
{
	return lc->mode;
}

/**
 * lifecycle_attach() - make a file handle on the holder.
 * @lc:  holder
 * @out: the handle
 *
 * Return: 0 or -ENOMEM.
 */
int lifecycle_attach(struct lifecycle *lc, struct lifecycle_ref **out)
{
	struct lifecycle_ref *ref;

	ref = calloc(1, sizeof(*ref));
	if (!ref)
		return -ENOMEM;
	ref->lc = lc;

	switch (lc->mode) {
	case LIFECYCLE_REVOCABLE:
		/* Safe on a revoked provider: accesses then return NULL. */
		ref->rev = revocable_alloc(lc->rp);
		if (!ref->rev) {
			free(ref);
			return -ENOMEM;
		}
		break;
	case LIFECYCLE_REFCOUNT:
		atomic_fetch_add(&lc->ec_refs, 1);
		break;
	case LIFECYCLE_UNSAFE:
		ref->ec = lc->ec;
		break;
	}
	lifecycle_get(lc);
	*out = ref;
	return 0;
}

/**
 * lifecycle_detach() - free a file handle.
 * @ref: the handle, NULL is ignored
 */
void lifecycle_detach(struct lifecycle_ref *ref)
{
	if (!ref)
		return;
	switch (ref->lc->mode) {
	case LIFECYCLE_REVOCABLE:
		revocable_free(ref->rev);
		break;
	case LIFECYCLE_REFCOUNT:
		lifecycle_ec_put(ref->lc);
		break;
	case LIFECYCLE_UNSAFE:
		break;
	}
	lifecycle_put(ref->lc);
	free(ref);
}

/**
 * lifecycle_access() - start an access through a file handle.
 * @ref: the handle
 *
 * Return: the EC or NULL (revocable mode, after unplug). Always pair with
 * lifecycle_release().
 */
struct ec *lifecycle_access(struct lifecycle_ref *ref)
{
	struct lifecycle *lc = ref->lc;

	switch (lc->mode) {
	case LIFECYCLE_REVOCABLE:
		return revocable_try_access(ref->rev);
	case LIFECYCLE_REFCOUNT:
		/* The file's reference keeps the EC allocated: it "works". */
		if (atomic_load(&lc->unplugged) && lc->on_zombie)
			lc->on_zombie(lc->zombie_arg);
		return lc->ec;
	case LIFECYCLE_UNSAFE:
		/* Deliberately unguarded: after unplug this pointer is stale. */
		return ref->ec;
	}
	return NULL;
}

/**
 * lifecycle_release() - end an access started by lifecycle_access().
 * @ref: the handle
 */
void lifecycle_release(struct lifecycle_ref *ref)
{
	if (ref->lc->mode == LIFECYCLE_REVOCABLE)
		revocable_release(ref->rev);
}

/**
 * lifecycle_access_owner() - the daemon's own access to the EC.
 * @lc: holder
 *
 * Return: the EC, or NULL once unplugged. Always pair with
 * lifecycle_release_owner().
 */
struct ec *lifecycle_access_owner(struct lifecycle *lc)
{
	if (lc->mode == LIFECYCLE_REVOCABLE)
		return revocable_try_access(lc->owner_rev);

	pthread_rwlock_rdlock(&lc->owner_lock);
	if (atomic_load(&lc->unplugged))
		return NULL;
	return lc->ec;
}

/**
 * lifecycle_release_owner() - end an access from lifecycle_access_owner().
 * @lc: holder
 */
void lifecycle_release_owner(struct lifecycle *lc)
{
	if (lc->mode == LIFECYCLE_REVOCABLE)
		revocable_release(lc->owner_rev);
	else
		pthread_rwlock_unlock(&lc->owner_lock);
}

/* Refcount/unsafe: what "the EC goes away" means in those modes. */
static int lifecycle_unplug_unguarded(struct lifecycle *lc)
{
	int ret = 0;

	pthread_rwlock_wrlock(&lc->owner_lock);
	if (!atomic_exchange(&lc->unplugged, true)) {
		if (lc->mode == LIFECYCLE_REFCOUNT)
			lifecycle_ec_put(lc);
		else
			ec_destroy(lc->ec);	/* files' raw copies now dangle */
		ret = 1;
	}
	pthread_rwlock_unlock(&lc->owner_lock);
	return ret;
}

/**
 * lifecycle_unplug() - make the EC go away (see lifecycle.h per mode).
 * @lc: holder
 *
 * Return: 1 if this call unplugged, 0 if already done, -EDEADLK from inside
 * an access of the same EC (revocable mode).
 */
int lifecycle_unplug(struct lifecycle *lc)
{
	int ret;

	if (lc->mode != LIFECYCLE_REVOCABLE)
		return lifecycle_unplug_unguarded(lc);

	ret = revocable_provider_revoke(lc->rp);
	/* -EDEADLK (called inside an access) changed nothing. */
	if (ret >= 0)
		atomic_store(&lc->unplugged, true);
	return ret;
}

static void lifecycle_revoke_done(struct revocable_provider *rp, void *arg)
{
	struct lifecycle *lc = arg;
	void (*done)(void *) = lc->done;
	void *done_arg = lc->done_arg;

	/* Last use of @lc here: the reference taken for the async unplug. */
	lifecycle_put(lc);
	if (done)
		done(done_arg);
}

/**
 * lifecycle_unplug_async() - start an unplug, report completion by callback.
 * @lc:   holder
 * @done: completion callback, may be NULL
 * @arg:  passed to @done
 *
 * Return: 1 if started by this call, 0 if already unplugged, or -errno.
 */
int lifecycle_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg)
{
	int ret;

	if (lc->mode != LIFECYCLE_REVOCABLE) {
		/* Nothing to wait for in these modes: complete synchronously. */
		ret = lifecycle_unplug_unguarded(lc);
		if (ret == 1 && done)
			done(arg);
		return ret;
	}

	if (atomic_exchange(&lc->unplugged, true))
		return 0;
	lc->done = done;
	lc->done_arg = arg;
	/* Keep the holder alive until the completion has run. */
	lifecycle_get(lc);
	ret = revocable_provider_revoke_async(lc->rp, lifecycle_revoke_done, lc);
	if (ret < 0) {
		/* Nothing was revoked and no callback will come. */
		atomic_store(&lc->unplugged, false);
		lifecycle_put(lc);
		return ret;
	}
	/* The library calls back exactly once, even if already revoked. */
	return 1;
}

/**
 * lifecycle_is_unplugged() - whether an unplug was started.
 * @lc: holder
 *
 * Return: true after lifecycle_unplug*().
 */
bool lifecycle_is_unplugged(const struct lifecycle *lc)
{
	return atomic_load(&lc->unplugged);
}
