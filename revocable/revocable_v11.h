/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * revocable_v11.h - librevocable under the names of the kernel series' v11
 * (May 2026), for a translation unit that includes this header instead of
 * revocable.h.
 *
 * The two APIs name the same things differently: struct revocable is the
 * consumer's handle in the seed (v3) and the provider from v8 on, and
 * revocable_alloc() and revocable_init() change sides with it.  So a
 * translation unit chooses one.  Including both, in either order, stops the
 * build with #error; the seed's names that v11 dropped are poisoned here
 * (any use is an error); the names v11 reuses check their arguments' types
 * at compile time, so a seed call left behind does not compile.  Other
 * translation units of the same program may use the seed's names: both run
 * the same protocol on the same objects (revocable(3), "The v11 API"; the
 * table of names in revocable/README.md).
 *
 * Nothing here is exported: the v11 names are static inline functions and
 * macros over revocable.h's functions.  This header reads revocable.h with
 * the seed handle's tag, revocable, renamed to revocable_handle: v11's
 * handle is the seed's handle (one member, the provider pointer), so
 * revocable_try_access() is the same function under either API, inline
 * with REVOCABLE_INLINE or a call, and every declaration stays in
 * revocable.h, once.  v11's provider, struct revocable, wraps the seed's
 * struct revocable_provider.
 */
#ifndef REVOCABLE_V11_H
#define REVOCABLE_V11_H

#ifdef REVOCABLE_H
#error "revocable_v11.h after revocable.h: a translation unit uses either the seed's names or v11's (revocable(3), \"The v11 API\")"
#endif

#define REVOCABLE__V11_READING 1
#define revocable revocable_handle
#include "revocable.h"
#undef revocable
#undef REVOCABLE__V11_READING

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct revocable - v11's provider of a resource that can be revoked.
 *
 * The seed's struct revocable_provider, under v11's name; visible so that
 * it can be embedded (revocable_init()).  Treat the member as private.
 */
struct revocable {
	struct revocable_provider priv_provider;
};

/* A struct revocable is its provider, at the same address. */
_Static_assert(offsetof(struct revocable, priv_provider) == 0 &&
	       sizeof(struct revocable) == sizeof(struct revocable_provider),
	       "struct revocable must be exactly its provider");

/**
 * revocable_to_provider() - the seed's view of a v11 provider.
 * @rev: the provider (NULL gives NULL).
 *
 * For the library's calls that v11 has no name for
 * (revocable_provider_set_release(), revocable_provider_revoke_async(),
 * revocable_provider_is_revoked()) and for code written with the seed's
 * names in another translation unit.
 *
 * Return: the provider as a struct revocable_provider *.
 */
static inline struct revocable_provider *
revocable_to_provider(struct revocable *rev)
{
	return rev ? &rev->priv_provider : NULL;
}

/**
 * revocable_from_provider() - the v11 view of a seed provider.
 * @rp: a provider from revocable_provider_alloc() or _init() (NULL gives
 *	NULL).
 *
 * Return: the same provider as a struct revocable *.
 */
static inline struct revocable *
revocable_from_provider(struct revocable_provider *rp)
{
	return (struct revocable *)rp;
}

/*
 * The functions behind the names that v11 reuses (revocable_alloc(),
 * revocable_init(), revocable_try_access()): those names are the macros
 * below, which check their arguments' types first.
 */
static inline struct revocable *revocable__v11_alloc(void *res)
{
	struct revocable_provider *rp = revocable_provider_alloc(res);

	if (!rp)
		return NULL;
	/* v11 hands out two references: the provider's, which
	 * revocable_revoke() drops, and the caller's, for revocable_put(). */
	return revocable_from_provider(revocable_provider_get(rp));
}

static inline int revocable__v11_init(struct revocable *rev, void *res)
{
	if (!rev)
		return -EINVAL;
	revocable_provider_init(&rev->priv_provider, res, NULL);
	revocable_provider_get(&rev->priv_provider);
	return 0;
}

static inline void *revocable__v11_try_access(struct revocable_handle *rh)
{
	return revocable_try_access(rh);	/* revocable.h's: inline or call */
}

/**
 * revocable_revoke() - revoke, wait for readers, drop the provider's reference.
 * @rev: the provider.
 *
 * The seed's revocable_provider_free(): new accesses get NULL at once;
 * returns once every access that may have seen the resource is over (and
 * the release callback, if one was set, has run).  Called inside an access
 * to @rev it cannot wait for itself: it reports that on stderr and leaves
 * the provider untouched.
 */
static inline void revocable_revoke(struct revocable *rev)
{
	revocable_provider_free(revocable_to_provider(rev));
}

/**
 * revocable_get() - take a reference on a provider.
 * @rev: the provider.
 */
static inline void revocable_get(struct revocable *rev)
{
	revocable_provider_get(revocable_to_provider(rev));
}

/**
 * revocable_put() - drop a reference on a provider.
 * @rev: the provider.
 *
 * The last one frees an allocated provider (on a library thread) and is
 * done with an embedded one before it returns.
 */
static inline void revocable_put(struct revocable *rev)
{
	revocable_provider_put(revocable_to_provider(rev));
}

/**
 * revocable_handle_init() - set up a consumer's handle on a provider.
 * @rev: the provider (revoked or not); the caller holds a reference.
 * @rh: the handle, in caller memory; it takes a reference on @rev.
 *
 * The seed's revocable_init(@rh, @rev).  One handle may serve any number
 * of threads and nested accesses at once.
 */
static inline void revocable_handle_init(struct revocable *rev,
					 struct revocable_handle *rh)
{
	revocable_init(rh, revocable_to_provider(rev));
}

/**
 * revocable_handle_deinit() - drop the handle's reference.
 * @rh: the handle; no access through it may be open.
 */
static inline void revocable_handle_deinit(struct revocable_handle *rh)
{
	revocable_fini(rh);
}

/**
 * revocable_withdraw_access() - end an access begun by revocable_try_access().
 * @rh: the handle.
 *
 * On the thread (and in the signal handler, if any) that began it.
 */
static inline void revocable_withdraw_access(struct revocable_handle *rh)
{
	revocable_release(rh);		/* revocable.h's: inline or call */
}

/* One access of the scoped macros: a handle of its own, and whether the
 * handle is set up and the access begun (cleanup undoes both). */
struct revocable__v11_scope {
	struct revocable_handle handle;
	bool entered;
};

static inline void *revocable__v11_scope_enter(struct revocable__v11_scope *s,
					       struct revocable *rev)
{
	revocable_handle_init(rev, &s->handle);
	s->entered = true;
	return revocable__v11_try_access(&s->handle);
}

static inline void revocable__v11_scope_exit(struct revocable__v11_scope *s)
{
	if (!s->entered)
		return;
	s->entered = false;
	revocable_withdraw_access(&s->handle);
	revocable_handle_deinit(&s->handle);
}

/*
 * Compile-time checks of the names v11 reuses: @expr's type must (or must
 * not) be @type, else the build stops with @msg.  A seed call left in a v11
 * translation unit passes the seed's types and stops here.
 */
#define REVOCABLE__V11_IS(expr, type, msg)				\
	__extension__({							\
		_Static_assert(__builtin_types_compatible_p(		\
				__typeof__(expr), type), msg);		\
		(expr);							\
	})
#define REVOCABLE__V11_NOT(expr, type, msg)				\
	__extension__({							\
		_Static_assert(!__builtin_types_compatible_p(		\
				__typeof__(expr), type), msg);		\
		(expr);							\
	})

/*
 * v11's revocable_alloc(): allocate a provider for a resource.  (Plain
 * comments for the three reused names: their kernel-doc is the seed
 * functions', in teardown.c and access.c - tests/docs/kernel-doc.test.)
 * @res: the resource (void *; a struct revocable_provider * here is the
 *	seed's revocable_alloc() call and does not compile).
 *
 * Return: (struct revocable *) the provider with two references, one that
 * revocable_revoke() drops and one for revocable_put(); NULL if out of
 * memory.
 */
#define revocable_alloc(res)						\
	revocable__v11_alloc(REVOCABLE__V11_NOT(res,			\
		struct revocable_provider *,				\
		"v11 revocable_alloc() takes the resource, not a provider (revocable_v11.h)"))

/*
 * v11's revocable_init(): set up a provider embedded in a caller struct.
 * @rev: (struct revocable *) the provider.
 * @res: the resource (void *; not a struct revocable_provider *).
 *
 * Two references, as revocable_alloc(); the last revocable_put() is done
 * with @rev before it returns, so its memory may be freed at once.
 *
 * Return: (int) 0, or -EINVAL if @rev is NULL.
 */
#define revocable_init(rev, res)					\
	revocable__v11_init(						\
		REVOCABLE__V11_IS(rev, struct revocable *,		\
			"v11 revocable_init() sets up a provider, a struct revocable * (revocable_v11.h)"), \
		REVOCABLE__V11_NOT(res, struct revocable_provider *,	\
			"v11 revocable_init() takes the resource, not a provider (revocable_v11.h)"))

/*
 * v11's revocable_try_access(): begin an access.
 * @rh: (struct revocable_handle *) the handle.
 *
 * Pair with revocable_withdraw_access(), also when this returns NULL.
 *
 * Return: (void *) the resource, or NULL once revoked.
 */
#undef revocable_try_access
#define revocable_try_access(rh)					\
	revocable__v11_try_access(REVOCABLE__V11_IS(rh,			\
		struct revocable_handle *,				\
		"v11 revocable_try_access() takes a struct revocable_handle * (revocable_v11.h)"))

/* ---- v11's scoped forms: each takes the provider and uses a handle of
 * its own for the one access, set up and dropped around it ---- */

#define REVOCABLE__V11_WITH(rev, res, scope)				\
	struct revocable__v11_scope scope				\
		__attribute__((cleanup(revocable__v11_scope_exit))) =	\
		{ .entered = false };					\
	(res) = revocable__v11_scope_enter(&scope, (rev))

#define REVOCABLE__V11_SCOPED(rev, res, scope)				\
	for (struct revocable__v11_scope scope				\
		__attribute__((cleanup(revocable__v11_scope_exit))) =	\
		{ .entered = false };					\
	     !scope.entered &&						\
	     ((res) = revocable__v11_scope_enter(&scope, (rev)), true); )

/**
 * revocable_try_access_with() - an access until the end of the scope.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource or NULL.
 *
 * A statement; the caller checks @res.  The access ends however the scope
 * is left.
 */
#define revocable_try_access_with(rev, res)				\
	REVOCABLE__V11_WITH(rev, res, REVOCABLE__UNIQ(revocable__v11_scope_))

/**
 * revocable_try_access_or_return_err() - revocable_try_access_with(), or
 * return.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 * @err: returned from the enclosing function if revoked.
 */
#define revocable_try_access_or_return_err(rev, res, err)		\
	revocable_try_access_with(rev, res);				\
	if (!(res))							\
		return err

/**
 * revocable_try_access_or_return() - ..._or_return_err() with -ENODEV.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 */
#define revocable_try_access_or_return(rev, res)			\
	revocable_try_access_or_return_err(rev, res, -ENODEV)

/**
 * revocable_try_access_or_return_void() - ..._or_return_err() in a void
 * function.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 */
#define revocable_try_access_or_return_void(rev, res)			\
	revocable_try_access_or_return_err(rev, res, )

/**
 * revocable_try_access_with_scoped() - run the next statement once with an
 * access held.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource or NULL.
 *
 * The statement always runs and checks @res.
 */
#define revocable_try_access_with_scoped(rev, res)			\
	REVOCABLE__V11_SCOPED(rev, res, REVOCABLE__UNIQ(revocable__v11_scope_))

/**
 * revocable_try_access_or_return_err_scoped() - the scoped form, or return.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 * @err: returned from the enclosing function if revoked.
 */
#define revocable_try_access_or_return_err_scoped(rev, res, err)	\
	revocable_try_access_with_scoped(rev, res)			\
		if (!(res))						\
			return err;					\
		else

/**
 * revocable_try_access_or_return_scoped() - ..._or_return_err_scoped() with
 * -ENODEV.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 */
#define revocable_try_access_or_return_scoped(rev, res)		\
	revocable_try_access_or_return_err_scoped(rev, res, -ENODEV)

/**
 * revocable_try_access_or_return_void_scoped() - the scoped form, or return
 * from a void function.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the resource.
 */
#define revocable_try_access_or_return_void_scoped(rev, res)		\
	revocable_try_access_or_return_err_scoped(rev, res, )

/**
 * revocable_try_access_or_skip_scoped() - the scoped form, skipped if
 * revoked.
 * @rev: (struct revocable *) the provider.
 * @res: a pointer variable, assigned the live resource.
 */
#define revocable_try_access_or_skip_scoped(rev, res)			\
	revocable_try_access_with_scoped(rev, res)			\
		if (!(res))						\
			break;						\
		else

/*
 * The seed's names that v11 dropped or replaced: an error from here on, so
 * that seed code is not half-converted by accident.  revocable.h's
 * extensions without a v11 name (revocable_provider_set_release(),
 * revocable_provider_revoke_async(), revocable_provider_is_revoked(),
 * revocable_barrier(), REVOCABLE_READER_SLOTS) stay usable.
 * tests/revocable/api_select.sh derives revocable.h's public names and
 * checks each one against this list.
 */
#undef REVOCABLE
#undef REVOCABLE_SCOPED
#undef REVOCABLE_GUARD
#undef REVOCABLE_GUARD_INIT
#undef REVOCABLE_OR_RETURN
#undef REVOCABLE_OR_ENODEV
#undef revocable_release
#undef revocable_guard_enter
#undef revocable_guard_exit
#pragma GCC poison REVOCABLE REVOCABLE_SCOPED REVOCABLE_GUARD
#pragma GCC poison REVOCABLE_GUARD_INIT REVOCABLE_OR_RETURN REVOCABLE_OR_ENODEV
#pragma GCC poison revocable_free revocable_fini revocable_release
#pragma GCC poison revocable_guard revocable_guard_enter revocable_guard_exit
#pragma GCC poison revocable_provider_alloc revocable_provider_free
#pragma GCC poison revocable_provider_init revocable_provider_get
#pragma GCC poison revocable_provider_put revocable_provider_revoke

#ifdef __cplusplus
}
#endif

#endif /* REVOCABLE_V11_H */
