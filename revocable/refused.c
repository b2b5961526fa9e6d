// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * librevocable - the accesses of a thread refused for lack of memory
 * (reader.c's slow path refuses them): which provider each named, so that
 * their releases end the right ones.
 */

#include "config.h"

#include <stdio.h>

#include "revocable_internal.h"

/*
 * Accesses of this thread refused for lack of memory: they returned NULL
 * and hold nothing, but each still gets a release, and that release must
 * end an access of the provider it names - ending a refused access of
 * another provider would leave a slot set with nothing held.  So refused
 * accesses are counted per provider, in a table that needs no allocation.
 * Only when more distinct providers than it holds are refused at once is
 * the provider of a refused access forgotten (@unattributed).
 */
#define REFUSED_PROVIDERS 16

struct refused_accesses {
	struct {
		struct revocable_provider *rp;
		unsigned long count;
	} by_rp[REFUSED_PROVIDERS];
	unsigned long unattributed;
	unsigned long total;
};

static __thread struct refused_accesses revocable_refused;

void revocable__refused_add(struct revocable_provider *rp)
{
	struct refused_accesses *ra = &revocable_refused;
	unsigned int i, free_i = REFUSED_PROVIDERS;

	ra->total++;
	for (i = 0; i < REFUSED_PROVIDERS; i++) {
		if (ra->by_rp[i].rp == rp) {
			ra->by_rp[i].count++;
			return;
		}
		if (!ra->by_rp[i].rp && free_i == REFUSED_PROVIDERS)
			free_i = i;
	}
	if (free_i < REFUSED_PROVIDERS) {
		ra->by_rp[free_i].rp = rp;
		ra->by_rp[free_i].count = 1;
		return;
	}
	ra->unattributed++;
}

/*
 * End a refused access of @rp if this thread has one.  Ending a refused
 * access rather than a recorded one of the same provider is always safe:
 * it saw NULL, so the recorded ones stay held a little longer at worst.
 */
bool revocable__refused_end(struct revocable__reader *rd,
			    struct revocable_provider *rp)
{
	struct refused_accesses *ra = &revocable_refused;
	unsigned int i;

	for (i = 0; i < REFUSED_PROVIDERS; i++) {
		if (ra->by_rp[i].rp != rp)
			continue;
		if (--ra->by_rp[i].count == 0)
			ra->by_rp[i].rp = NULL;
		ra->total--;
		return true;
	}
	if (!ra->unattributed)
		return false;
	/* The table overflowed: with no recorded access of @rp this must be
	 * a forgotten refused one.  Otherwise it is ambiguous; ending the
	 * refused one keeps the recorded access held (safe, but it stays
	 * held until the thread exits) - say so. */
	if (rd && revocable__recorded_access(rd, rp))
		fprintf(stderr,
			"revocable: out of memory with %u providers refused at once; an access may stay held\n",
			REFUSED_PROVIDERS + 1);
	ra->unattributed--;
	ra->total--;
	return true;
}

unsigned long revocable__refused_total(void)
{
	return revocable_refused.total;
}
