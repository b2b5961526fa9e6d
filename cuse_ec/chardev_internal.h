/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chardev_internal.h - state shared by the chardev_*.c files; not for the
 * front end (which sees chardev.h only).
 *
 * Locking. One mutex per context, ctx->lock, protects the current EC, the
 * file list, every file's poll handle, busy count and dead/released flags,
 * the parked reads and the retired instances; ctx->cond (with ctx->lock)
 * signals unplug completions and idle poll handles. Lock order, outermost
 * first:
 *
 *   ctx->lock -> libfuse's session lock  (ops->read_interrupted(), which is
 *                                         fuse_req_interrupted(), asked while
 *                                         parking so that an interrupt cannot
 *                                         slip in between)
 *   ctx->lock -> a fresh EC's lock       (ec_set_latency_ns() in chardev_plug(),
 *                                         on an EC nobody else can reach yet)
 *
 * and nothing else is called with ctx->lock held: host commands and other EC
 * calls (an EC call may raise an event whose notification takes ctx->lock),
 * ops->read_complete() and ops->poll_notify() (a writev to /dev/cuse) all
 * run after dropping it. A poll handle being notified outside the lock is
 * pinned by its file's @poll_busy count; replacing or dropping a handle waits
 * for that count to reach zero, so ops->poll_destroy() never races a notify.
 * EC event notifications (chardev_event_notify()) come with no EC lock
 * held, and the front end calls in from request handlers only, holding none
 * of its locks.
 */
#ifndef CUSE_EC_CHARDEV_INTERNAL_H
#define CUSE_EC_CHARDEV_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "chardev.h"
#include "chardev_testing.h"
#include "chardev_trace.h"
#include "ec/ec.h"

/**
 * struct chardev_parked - a blocking read waiting for an event.
 * @next:  list link (ctx->parked)
 * @file:  the file it reads from
 * @token: the front end's request
 * @len:   caller's buffer size
 * @seq:   when it first parked (ctx->park_seq); the list is kept in this
 *         order, also when a read is parked again after losing an event
 * @file_id: @file's id, for the trace once @file may be gone
 */
struct chardev_parked {
	struct chardev_parked *next;
	struct chardev_file *file;
	void *token;
	size_t len;
	uint64_t seq;
	uint64_t file_id;
};

/**
 * struct chardev_retired - an unplugged EC instance whose unplug may still
 * be in progress.
 * @next:     list link (ctx->retired)
 * @lc:       the holder (the context's reference)
 * @ctx:      back pointer for the completion callback
 * @complete: set (under ctx->lock, ctx->cond signalled) once no access can
 *            reach the EC any more and @done has returned
 * @pinned:   a synchronous unplug waits on this record: not reaped yet
 * @result:   the unplug's result once @complete (0 or -errno)
 * @orphans:  files released before @complete, kept allocated because a
 *            command still in flight may raise an event and notify them
 * @done:     the unplug requester's callback and its argument
 * @start_ns: CLOCK_MONOTONIC when the unplug began (last_revoke_wait_ns)
 */
struct chardev_retired {
	struct chardev_retired *next;
	struct lifecycle *lc;
	struct chardev_ctx *ctx;
	bool complete;
	bool pinned;
	int result;
	struct chardev_file *orphans;
	void (*done)(void *arg, int result);
	void *done_arg;
	uint64_t start_ns;
};

/**
 * struct chardev_file - one open file: what the kernel keeps in its
 * per-file chardev_priv. Everything here belongs to the file and outlives
 * the EC; only @ref leads to the EC, through the lifecycle.
 * @ctx:          the daemon context
 * @id:           its number in the trace (files count from 1 as they open)
 * @lc:           the EC instance this file was opened on (the ref holds it)
 * @ref:          this file's handle on that instance (priv->ec_dev_rev)
 * @notifier:     its entry on the EC's event notifier chain (priv->notifier)
 * @events_lock:  protects @events (priv->wait_event.lock)
 * @events:       the MKBP events queued for this file (priv->events)
 * @event_mask:   last EVENTMASK value (0: read() returns the version text)
 * @version_done: the version text was read once ("offset" is non-zero now)
 * @dead:         waiters are to be told the EC is gone: set under ctx->lock
 *                by an unplug that wakes waiters, or by the daemon's exit,
 *                so a read cannot park after the wake-up went by
 * @released:     release ran; a late notify must not touch anything else
 * @poll_handle:  who to wake when an event arrives or the EC goes
 * @poll_busy:    notifications of @poll_handle running outside ctx->lock
 * @on_wake:      on a wake list (chardev_wake_files()); @next_wake links it
 * @next:         ctx->files link
 * @prev:         ctx->files link
 * @next_orphan:  chardev_retired.orphans link
 * @next_wake:    wake list link
 */
struct chardev_file {
	struct chardev_ctx *ctx;
	uint64_t id;
	struct lifecycle *lc;
	struct lifecycle_ref *ref;
	struct ec_notifier notifier;
	pthread_mutex_t events_lock;
	struct ec_event_queue events;
	atomic_uint event_mask;
	atomic_bool version_done;
	bool dead;
	bool released;
	void *poll_handle;
	unsigned int poll_busy;
	bool on_wake;
	struct chardev_file *next;
	struct chardev_file *prev;
	struct chardev_file *next_orphan;
	struct chardev_file *next_wake;
};

/**
 * struct chardev_ctx - the daemon's state.
 * @lock:    see "Locking" above
 * @cond:    unplug completions and idle poll handles (with @lock)
 * @config:  mode, profile, clock, callbacks
 * @current: the present EC instance, NULL while unplugged
 * @unplugging: @current while an unplug of it is being started (it counts
 *           as absent; the start may still fail and leave it current)
 * @files:   every open file
 * @parked:  every parked read, oldest first
 * @park_seq: the next parked read's sequence number
 * @retired: unplugged instances not yet reaped
 * @latency_ns: injected host-command latency for new ECs (0: profile's)
 * @latency_set: @latency_ns was set by chardev_set_latency()
 * @faults:  the fault plan every EC draws from (chardev_fault_plan())
 * @stats:   counters, indexed by enum chardev_stat (atomics: updated
 *           without @lock)
 * @operator_hold: the control socket unplugged; uevent adds do not plug
 * @trace:   the lifecycle event log (chardev_trace.h)
 * @next_file_id: the last file id handed out
 * @revoking: the instance of the last revoke still waiting, or NULL (a
 *           files-see-unplug mode only: the others wait for nothing)
 * @revoke_waited: accesses to @revoking that ended after its revoke began
 * @test_point: host tests' hook at the windows a race needs another thread
 *           to hit (chardev_testing.h); NULL in the daemon
 * @test_arg: passed to @test_point
 * @record_lock: orders the records of the session (chardev_record.c)
 * @record_t0: the clock's reading when the context was made
 * @record_failed: a record failed to write (logged once)
 */
struct chardev_ctx {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chardev_config config;
	struct lifecycle *current;
	struct lifecycle *unplugging;
	struct chardev_file *files;
	struct chardev_parked *parked;
	uint64_t park_seq;
	struct chardev_retired *retired;
	uint64_t latency_ns;
	bool latency_set;
	struct ec_fault_plan *faults;
	atomic_uint_fast64_t stats[CHARDEV_STAT_COUNT];
	atomic_bool operator_hold;
	struct chardev_trace *trace;
	atomic_uint_fast64_t next_file_id;
	_Atomic(struct lifecycle *) revoking;
	atomic_uint_fast64_t revoke_waited;
	void (*test_point)(void *arg, enum chardev_test_point point, struct chardev_file *file);
	void *test_arg;
	pthread_mutex_t record_lock;
	uint64_t record_t0;
	bool record_failed;
};

/**
 * chardev_record() - append @r to the session's recording (--record), its
 * time taken now; nothing without one. Records are ordered by a lock, not
 * by their times: several files write at once.
 * @ctx: context
 * @r:   the record (its @t_ns is set here)
 */
void chardev_record(struct chardev_ctx *ctx, struct ec_rec *r);

/**
 * chardev_record_flush() - push what --record buffered to its file.
 * @ctx: context
 */
void chardev_record_flush(struct chardev_ctx *ctx);

/* The clock records are timed by: the EC's, or real monotonic time. */
uint64_t chardev_record_now(struct chardev_ctx *ctx);

/* Call the host tests' hook at @point, if they set one. */
#define TEST_POINT(ctx, point, file)						\
	do {									\
		if (__builtin_expect((ctx)->test_point != NULL, 0))		\
			(ctx)->test_point((ctx)->test_arg, CHARDEV_TEST_##point, (file)); \
	} while (0)

/**
 * struct chardev_access - one file access to the EC, as the trace sees it.
 * @ec:        what lifecycle_access() gave (NULL: the EC is gone)
 * @op:        EC command number or CHARDEV_TRACE_OP_*
 * @begin_seq: the trace number of its access-begin
 */
struct chardev_access {
	struct ec *ec;
	uint32_t op;
	uint64_t begin_seq;
};

#define STAT_INC(ctx, name) atomic_fetch_add(&(ctx)->stats[CHARDEV_STAT_##name], 1)
#define STAT_DEC(ctx, name) atomic_fetch_sub(&(ctx)->stats[CHARDEV_STAT_##name], 1)
#define STAT_ADD(ctx, name, n) atomic_fetch_add(&(ctx)->stats[CHARDEV_STAT_##name], (n))
#define STAT_SUB(ctx, name, n) atomic_fetch_sub(&(ctx)->stats[CHARDEV_STAT_##name], (n))
#define STAT_GET(ctx, name) atomic_load(&(ctx)->stats[CHARDEV_STAT_##name])
#define STAT_SET(ctx, name, v) atomic_store(&(ctx)->stats[CHARDEV_STAT_##name], (v))

/* Record one event in the context's trace. */
#define TRACE(ctx, event, file, cmd, a, b)					\
	chardev_trace_record((ctx)->trace, CHARDEV_TRACE_##event, (file), (cmd),	\
			     (int64_t)(a), (int64_t)(b))

/*
 * chardev_access.c: every file access to the EC goes through this pair
 * (lifecycle_access()/lifecycle_release() plus its trace events and the
 * inflight_accesses gauge). @op: EC command or CHARDEV_TRACE_OP_*.
 */
struct ec *chardev_access_begin(struct chardev_file *file, uint32_t op,
				struct chardev_access *acc);
void chardev_access_end(struct chardev_file *file, struct chardev_access *acc, int ret);

/* chardev_access.c: complete a parked read (trace, gauge, callback, free). */
void chardev_parked_complete(struct chardev_ctx *ctx, struct chardev_parked *p, int ret,
			     const void *data, size_t len);

/* chardev.c: free every retired instance whose unplug finished. */
void chardev_reap(struct chardev_ctx *ctx);

/*
 * chardev.c: a command on @lc left the EC's cold-reset count changed;
 * retire @lc (if still current) and plug a fresh EC. No access held.
 */
void chardev_fault_unplug(struct chardev_ctx *ctx, struct lifecycle *lc);
void chardev_cold_reboot(struct chardev_ctx *ctx, struct lifecycle *lc, uint64_t file_id,
			 uint32_t resets);

/* chardev.c: the present EC instance, NULL when absent or going (lock held). */
struct lifecycle *chardev_present(struct chardev_ctx *ctx);

/* chardev_read.c: the EC's notifier call for a file (its chain entry). */
void chardev_event_notify(struct ec_notifier *nb, const struct ec_event *ev);

/* chardev_read.c: free what the file's event state holds. */
void chardev_file_events_free(struct chardev_file *file);

/*
 * chardev.c: whether an unplug of @lc wakes the files' blocked readers and
 * pollers (the mode's property, unless the seed's behaviour was asked for).
 */
bool chardev_wakes_on_unplug(const struct chardev_ctx *ctx, const struct lifecycle *lc);

/*
 * chardev.c: bring the current EC up to date through the daemon's own
 * handle, so that time-driven events are raised (never a file's pointer).
 */
void chardev_tick(struct chardev_ctx *ctx);

/*
 * chardev_read.c: take the parked reads @match accepts (all of them when
 * @max is 0, else at most @max), oldest first, off ctx->parked; lock held.
 */
struct chardev_parked *chardev_take_parked(struct chardev_ctx *ctx,
					   bool (*match)(const struct chardev_parked *p,
							 const void *key),
					   const void *key, unsigned int max);

/* chardev_read.c: complete and free every read of @list with @result; returns how many. */
unsigned int chardev_complete_parked(struct chardev_ctx *ctx, struct chardev_parked *list,
				     int result);

/* chardev_read.c: @p reads from the file @key / from an EC instance @key. */
bool chardev_parked_on_file(const struct chardev_parked *p, const void *key);
bool chardev_parked_on_lc(const struct chardev_parked *p, const void *key);
bool chardev_parked_any(const struct chardev_parked *p, const void *key);

/*
 * chardev_read.c: set a file's poll handle to @handle (NULL: drop it) once
 * no notification of the old one is running; lock held (may wait on
 * ctx->cond). Returns the old handle, for ops->poll_destroy() after
 * unlocking.
 */
void *chardev_poll_swap(struct chardev_file *file, void *handle);

/*
 * chardev_read.c: put every file that @match accepts with a poll handle on
 * a wake list, pinning its handle; lock held. chardev_wake_files() then
 * notifies them with the lock dropped.
 */
struct chardev_file *chardev_collect_pollers(struct chardev_ctx *ctx,
					     bool (*match)(const struct chardev_file *f,
							   const void *key),
					     const void *key);
void chardev_wake_files(struct chardev_ctx *ctx, struct chardev_file *list);

#endif /* CUSE_EC_CHARDEV_INTERNAL_H */
