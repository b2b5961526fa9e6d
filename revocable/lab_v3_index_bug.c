// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Teaching lab only (docs/teaching.md, exercise 1; docs/design.md,
 * "Teaching switch"): v3's shared-index bug put back on purpose.  Only
 * tests/revocable/librevocable_lab_v3bug.la compiles this file, in place
 * of access.c and with REVOCABLE_LAB_V3_INDEX_BUG defined (which turns
 * on revocable__lab_forget() in teardown.c); the installed library never
 * contains it.
 *
 * The v3 patch kept the SRCU index of "the" access in the shared struct
 * revocable; here a handle's "index" is the slot of the latest access
 * made through it, by whichever thread, and the next release through the
 * handle clears that slot.  The index lives in a table keyed by the
 * handle, so struct revocable keeps the installed layout and programs
 * built against the installed header run on the lab library.  Handles
 * beyond the table's size simply behave correctly.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "revocable_internal.h"

#ifndef REVOCABLE_LAB_V3_INDEX_BUG
#error "lab_v3_index_bug.c is the teaching lab's; build it with -DREVOCABLE_LAB_V3_INDEX_BUG"
#endif

#define REVOCABLE_LAB_HANDLES 256

/* The lab's per-handle "SRCU index": handle -> slot of its latest access. */
static struct {
	pthread_mutex_t lock;
	const struct revocable *rev[REVOCABLE_LAB_HANDLES];
	struct revocable__slot *slot[REVOCABLE_LAB_HANDLES];
} lab = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/*
 * fork(): the table's lock is held across it like the library's own
 * (reader.c).  Registered when the library is loaded, so before
 * reader.c's handlers: prepare handlers run in reverse order of
 * registration, the others in order, so the lock is taken after the
 * library's and released before them.  It is a leaf lock (nothing else
 * is taken while it is held), so any order would do.
 */
static void lab_atfork_prepare(void)
{
	pthread_mutex_lock(&lab.lock);
}

static void lab_atfork_parent(void)
{
	pthread_mutex_unlock(&lab.lock);
}

static void lab_atfork_child(void)
{
	pthread_mutex_init(&lab.lock, NULL);
}

__attribute__((constructor)) static void lab_load(void)
{
	if (pthread_atfork(lab_atfork_prepare, lab_atfork_parent,
			   lab_atfork_child))
		fprintf(stderr, "revocable: lab: no fork handlers\n");
}

static struct revocable__slot **lab_index_of(const struct revocable *rev,
					     bool add)
{
	size_t i, free_at = REVOCABLE_LAB_HANDLES;

	for (i = 0; i < REVOCABLE_LAB_HANDLES; i++) {
		if (lab.rev[i] == rev)
			return &lab.slot[i];
		if (!lab.rev[i] && free_at == REVOCABLE_LAB_HANDLES)
			free_at = i;
	}
	if (!add || free_at == REVOCABLE_LAB_HANDLES)
		return NULL;
	lab.rev[free_at] = rev;
	return &lab.slot[free_at];
}

void revocable__lab_forget(const struct revocable *rev)
{
	struct revocable__slot **index;

	pthread_mutex_lock(&lab.lock);
	index = lab_index_of(rev, false);
	if (index) {
		*index = NULL;
		lab.rev[index - lab.slot] = NULL;
	}
	pthread_mutex_unlock(&lab.lock);
}

/* Slots the calling thread uses, slot 0 included; 0 if its accesses are
 * counted (no slot to remember) or it has none. */
static uint32_t lab_depth(const struct revocable__reader *rd)
{
	struct revocable_provider *v0 = rd->slot[0].rp;

	if (!v0 || v0 == SLOT_SLOW || rd->overflow_depth)
		return 0;
	return rd->depth + 1;
}

static void *lab_try_access(struct revocable *rev)
{
	void *res = revocable__try_access_inline(rev);
	struct revocable__reader *rd = revocable__tls_reader;
	uint32_t depth = lab_depth(rd);
	struct revocable__slot **index;

	if (!rev || depth == 0 || depth > REVOCABLE_READER_SLOTS)
		return res;
	pthread_mutex_lock(&lab.lock);
	index = lab_index_of(rev, true);
	if (index)
		*index = &rd->slot[depth - 1];	/* the bug: shared */
	pthread_mutex_unlock(&lab.lock);
	return res;
}

static void lab_release(struct revocable *rev)
{
	struct revocable__reader *rd = revocable__tls_reader;
	uint32_t depth = lab_depth(rd);
	struct revocable__slot **index, *slot = NULL;

	if (rev) {
		pthread_mutex_lock(&lab.lock);
		index = lab_index_of(rev, false);
		if (index)
			slot = *index;
		pthread_mutex_unlock(&lab.lock);
	}
	/* The remembered slot is our own: the thread's own accesses release
	 * as in the installed library (slot 0's mark and holes are its
	 * bookkeeping); the bug is in sharing the handle between threads. */
	if (!slot || depth == 0 ||
	    (slot >= &rd->slot[0] && slot < &rd->slot[REVOCABLE_READER_SLOTS])) {
		revocable__release_inline(rev);
		return;
	}
	/* End the access the handle remembers - another thread's, leaving
	 * ours recorded and theirs unprotected. */
	__atomic_store_n(&slot->rp, NULL, __ATOMIC_RELEASE);
}

/*
 * The exported entry points are access.c's own, compiled here with the
 * inline steps they take replaced by the lab's: revocable_try_access(),
 * revocable_release() and the guard's enter and exit all go through the
 * shared index, and stay exactly the installed library's otherwise.
 */
#define revocable__try_access_inline(rev)	lab_try_access(rev)
#define revocable__release_inline(rev)		lab_release(rev)
#include "access.c"
