// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_trace.c - the lifecycle event log (see chardev_trace.h).
 *
 * Each slot is a small seqlock. A writer takes the next sequence number with
 * one fetch-add, claims its slot by swinging the slot's number to BUSY, fills
 * the fields with release stores and publishes the number with another. A
 * reader copies a slot with acquire loads and keeps the copy only if the
 * slot held the number it wanted both before and after: a slot rewritten
 * meanwhile (the ring wrapped) is simply not in the snapshot, and counts as
 * dropped. Every field is an atomic, so concurrent copying is well defined
 * (and TSan-clean, with no fences TSan cannot follow) without a lock on the
 * recording path; on x86 these are plain moves.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chardev_trace.h"

/* A slot a writer is filling. */
#define TRACE_SLOT_BUSY UINT64_MAX
/* Largest ring: 2^24 events of 56 bytes is already ~1 GB. */
#define TRACE_CAPACITY_MAX ((size_t)1 << 24)

struct trace_slot {
	atomic_uint_fast64_t seq;	/* 0 empty, BUSY being written, else the event's */
	atomic_uint_fast64_t t_ns;
	atomic_uint_fast64_t file;
	atomic_int_fast64_t a;
	atomic_int_fast64_t b;
	atomic_uint event;
	atomic_uint cmd;
};

/**
 * struct chardev_trace - the ring.
 * @mask:     capacity - 1
 * @next_seq: the last sequence number handed out
 * @base_seq: numbers up to this one were cleared
 * @epoch:    CLOCK_MONOTONIC when the log was made
 * @now_ns:   the clock, if not CLOCK_MONOTONIC (chardev_trace_set_clock())
 * @now_ctx:  its argument
 * @epoch_ns: @now_ns at chardev_trace_set_clock()
 * @slots:    the ring
 */
struct chardev_trace {
	size_t mask;
	atomic_uint_fast64_t next_seq;
	atomic_uint_fast64_t base_seq;
	struct timespec epoch;
	uint64_t (*now_ns)(void *ctx);
	void *now_ctx;
	uint64_t epoch_ns;
	struct trace_slot slots[];
};

int chardev_trace_create(size_t capacity, struct chardev_trace **out)
{
	struct chardev_trace *tr;
	size_t cap = 2, i;

	if (!capacity || capacity > TRACE_CAPACITY_MAX)
		return -EINVAL;
	while (cap < capacity)
		cap <<= 1;
	tr = malloc(sizeof(*tr) + cap * sizeof(tr->slots[0]));
	if (!tr)
		return -ENOMEM;
	tr->mask = cap - 1;
	tr->now_ns = NULL;
	tr->now_ctx = NULL;
	tr->epoch_ns = 0;
	atomic_init(&tr->next_seq, 0);
	atomic_init(&tr->base_seq, 0);
	clock_gettime(CLOCK_MONOTONIC, &tr->epoch);
	for (i = 0; i < cap; i++) {
		atomic_init(&tr->slots[i].seq, 0);
		atomic_init(&tr->slots[i].t_ns, 0);
		atomic_init(&tr->slots[i].file, 0);
		atomic_init(&tr->slots[i].a, 0);
		atomic_init(&tr->slots[i].b, 0);
		atomic_init(&tr->slots[i].event, 0);
		atomic_init(&tr->slots[i].cmd, 0);
	}
	*out = tr;
	return 0;
}

void chardev_trace_destroy(struct chardev_trace *tr)
{
	free(tr);
}

size_t chardev_trace_capacity(const struct chardev_trace *tr)
{
	return tr->mask + 1;
}

void chardev_trace_set_clock(struct chardev_trace *tr, uint64_t (*now_ns)(void *ctx), void *ctx)
{
	tr->now_ns = now_ns;
	tr->now_ctx = ctx;
	tr->epoch_ns = now_ns ? now_ns(ctx) : 0;
}

static uint64_t trace_now_ns(const struct chardev_trace *tr)
{
	struct timespec now;
	uint64_t t;
	int64_t ns;

	if (tr->now_ns) {
		t = tr->now_ns(tr->now_ctx);
		return t > tr->epoch_ns ? t - tr->epoch_ns : 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)(now.tv_sec - tr->epoch.tv_sec) * 1000000000 +
	     (now.tv_nsec - tr->epoch.tv_nsec);
	return ns > 0 ? (uint64_t)ns : 0;
}

uint64_t chardev_trace_record(struct chardev_trace *tr, enum chardev_trace_event event,
			      uint64_t file, uint32_t cmd, int64_t a, int64_t b)
{
	struct trace_slot *slot;
	uint_fast64_t seq, old;

	if (!tr)
		return 0;
	seq = atomic_fetch_add_explicit(&tr->next_seq, 1, memory_order_relaxed) + 1;
	slot = &tr->slots[seq & tr->mask];
	old = atomic_load_explicit(&slot->seq, memory_order_relaxed);
	do {
		/*
		 * A writer a whole lap behind still fills this slot, or one a
		 * lap ahead already did: give up rather than wait. The
		 * snapshot counts the missing number as dropped.
		 */
		if (old == TRACE_SLOT_BUSY || old > seq)
			return seq;
	} while (!atomic_compare_exchange_weak_explicit(&slot->seq, &old, TRACE_SLOT_BUSY,
							memory_order_relaxed,
							memory_order_relaxed));
	/*
	 * Release stores: a reader that sees any new field value also sees
	 * BUSY (or later) when it checks the number again, and drops the copy.
	 */
	atomic_store_explicit(&slot->t_ns, trace_now_ns(tr), memory_order_release);
	atomic_store_explicit(&slot->file, file, memory_order_release);
	atomic_store_explicit(&slot->a, a, memory_order_release);
	atomic_store_explicit(&slot->b, b, memory_order_release);
	atomic_store_explicit(&slot->event, (unsigned int)event, memory_order_release);
	atomic_store_explicit(&slot->cmd, cmd, memory_order_release);
	atomic_store_explicit(&slot->seq, seq, memory_order_release);
	return seq;
}

/* Copy the slot of @seq; false when it holds another event (or none) now. */
static bool trace_copy(struct chardev_trace *tr, uint64_t seq, struct chardev_trace_entry *e)
{
	struct trace_slot *slot = &tr->slots[seq & tr->mask];

	if (atomic_load_explicit(&slot->seq, memory_order_acquire) != seq)
		return false;
	e->seq = seq;
	/* Acquire loads: none moves below the second look at the number. */
	e->t_ns = atomic_load_explicit(&slot->t_ns, memory_order_acquire);
	e->file = atomic_load_explicit(&slot->file, memory_order_acquire);
	e->a = atomic_load_explicit(&slot->a, memory_order_acquire);
	e->b = atomic_load_explicit(&slot->b, memory_order_acquire);
	e->event = (enum chardev_trace_event)atomic_load_explicit(&slot->event,
								  memory_order_acquire);
	e->cmd = atomic_load_explicit(&slot->cmd, memory_order_acquire);
	return atomic_load_explicit(&slot->seq, memory_order_relaxed) == seq &&
	       e->event < CHARDEV_TRACE_EVENT_COUNT;
}

size_t chardev_trace_snapshot(struct chardev_trace *tr, struct chardev_trace_entry *out,
			      size_t max, uint64_t *dropped)
{
	uint64_t head, base, first, seq;
	size_t n = 0;

	head = atomic_load_explicit(&tr->next_seq, memory_order_acquire);
	base = atomic_load_explicit(&tr->base_seq, memory_order_relaxed);
	if (base > head)
		base = head;
	first = base + 1;
	/* Only the last lap can still be in the ring; only @max fit in @out. */
	if (head - base > tr->mask + 1)
		first = head - tr->mask;
	if (head >= first && head - first + 1 > max)
		first = head - max + 1;
	for (seq = first; seq && seq <= head; seq++) {
		if (trace_copy(tr, seq, &out[n]))
			n++;
	}
	if (dropped)
		*dropped = head - base - n;
	return n;
}

void chardev_trace_clear(struct chardev_trace *tr)
{
	atomic_store_explicit(&tr->base_seq,
			      atomic_load_explicit(&tr->next_seq, memory_order_relaxed),
			      memory_order_relaxed);
}
