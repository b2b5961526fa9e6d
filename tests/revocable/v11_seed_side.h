/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * v11_seed_side.h - a consumer and a provider written with the seed's
 * names (v11_seed_side.c), for test_v11.c, which uses v11's: the two
 * cannot share a translation unit, so the seed's handle crosses as void *.
 */
#ifndef V11_SEED_SIDE_H
#define V11_SEED_SIDE_H

struct revocable_provider;

/* A seed handle (revocable_alloc()) on @rp; NULL if out of memory. */
void *seed_side_attach(struct revocable_provider *rp);
/* revocable_try_access() and revocable_release() through it. */
void *seed_side_begin(void *handle);
void seed_side_end(void *handle);
/* revocable_free(). */
void seed_side_detach(void *handle);
/* revocable_provider_alloc() and revocable_provider_free(). */
struct revocable_provider *seed_side_provide(void *res);
void seed_side_unprovide(struct revocable_provider *rp);

#endif /* V11_SEED_SIDE_H */
