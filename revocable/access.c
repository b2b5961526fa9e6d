// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable - the handle's read-side entry points: the exported
 * functions behind revocable_try_access() and friends, for callers built
 * without REVOCABLE_INLINE, the default (and for revocable_guard_exit() as
 * a cleanup attribute).  Each is the inline read side of revocable.h; the slow
 * paths they may take are in reader.c.
 *
 * The teaching lab's library (docs/design.md, "Teaching switch") does not
 * compile this file on its own: revocable/lab_v3_index_bug.c #includes it
 * with the inline steps replaced by the lab's broken ones.
 */
#include "config.h"

#include "revocable_internal.h"

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
	return revocable__try_access_inline(rev);
}

/**
 * revocable_release() - end an access begun by revocable_try_access().
 * @rev: the handle.
 */
void revocable_release(struct revocable *rev)
{
	revocable__release_inline(rev);
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
	guard->priv_res = revocable__try_access_inline(rev);
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
	revocable__release_inline(guard->priv_rev);
}
