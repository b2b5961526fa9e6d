// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seed's side of test_v11.c's cases that mix the two APIs: this
 * translation unit uses revocable.h's names only.
 */
#include "config.h"

#include <revocable.h>

#include "v11_seed_side.h"

void *seed_side_attach(struct revocable_provider *rp)
{
	return revocable_alloc(rp);
}

void *seed_side_begin(void *handle)
{
	return revocable_try_access(handle);
}

void seed_side_end(void *handle)
{
	revocable_release(handle);
}

void seed_side_detach(void *handle)
{
	revocable_free(handle);
}

struct revocable_provider *seed_side_provide(void *res)
{
	return revocable_provider_alloc(res);
}

void seed_side_unprovide(struct revocable_provider *rp)
{
	revocable_provider_free(rp);
}
