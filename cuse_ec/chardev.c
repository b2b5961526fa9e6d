// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev.c - the daemon context: EC plug and unplug, shutdown, counters and
 * the daemon's own EC accesses (see chardev.h; locking in chardev_internal.h).
 * The file operations live in chardev_file.c (open/release), chardev_read.c
 * (read/poll/events) and chardev_ioctl.c.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chardev_internal.h"
#include "chardev_testing.h"
#include "ec/ec.h"

void chardev_log(struct chardev_ctx *ctx, int level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!ctx->config.ops.log || level > ctx->config.log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->config.ops.log(ctx->config.ops.ctx, level, msg);
}

static void chardev_on_zombie(void *arg)
{
	struct chardev_ctx *ctx = arg;
	uint64_t n = STAT_INC(ctx, zombie_accesses) + 1;

	/* Every access is counted; the log shows the first few, then a sample. */
	if (n > 10 && n % 1000)
		return;
	chardev_log(ctx, CHARDEV_LOG_NOTICE,
		    "zombie access #%llu: a file still talks to an unplugged EC",
		    (unsigned long long)n);
}

/* Every path that frees an EC the chardev plugged ends here (lifecycle.c). */
static void chardev_on_ec_destroyed(void *arg, size_t ec_bytes)
{
	struct chardev_ctx *ctx = arg;

	STAT_SUB(ctx, live_ec_bytes, ec_bytes);
	STAT_DEC(ctx, live_ecs);
}

int chardev_unplug_wakeups_parse(const char *name, enum chardev_unplug_wakeups *out)
{
	if (!name)
		return -EINVAL;
	if (!strcmp(name, "upstream"))
		*out = CHARDEV_WAKEUPS_UPSTREAM;
	else if (!strcmp(name, "v3"))
		*out = CHARDEV_WAKEUPS_V3;
	else
		return -EINVAL;
	return 0;
}

/**
 * chardev_wakes_on_unplug() - does an unplug of @lc wake its files' waiters?
 * @ctx: context
 * @lc:  the EC instance
 *
 * Return: true in revocable mode unless the seed's v3 behaviour was chosen.
 */
bool chardev_wakes_on_unplug(const struct chardev_ctx *ctx, const struct lifecycle *lc)
{
	return lifecycle_files_see_unplug(lc) &&
	       ctx->config.unplug_wakeups == CHARDEV_WAKEUPS_UPSTREAM;
}

static int chardev_tick_ec(struct ec *ec, void *arg)
{
	(void)arg;
	return ec_tick(ec);
}

/**
 * chardev_tick() - advance the current EC, raising its time-driven events.
 * @ctx: context
 *
 * The simulated EC advances lazily; a real one raises battery and thermal
 * events on its own. A poll or a blocking read asks for it here, through
 * the daemon's handle, which never reaches an unplugged EC in any mode.
 */
void chardev_tick(struct chardev_ctx *ctx)
{
	chardev_with_ec(ctx, chardev_tick_ec, NULL);
}

int chardev_ctx_create(const struct chardev_config *config, struct chardev_ctx **out)
{
	struct chardev_ctx *ctx;

	if (!config || !config->profile || !config->ops.read_complete ||
	    (unsigned int)config->mode >= lifecycle_mode_count() ||
	    (unsigned int)config->unplug_wakeups > CHARDEV_WAKEUPS_V3)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	if (chardev_trace_create(CHARDEV_TRACE_DEFAULT_EVENTS, &ctx->trace))
		goto err_free;
	if (pthread_mutex_init(&ctx->lock, NULL))
		goto err_trace;
	if (pthread_cond_init(&ctx->cond, NULL))
		goto err_mutex;
	if (pthread_mutex_init(&ctx->record_lock, NULL))
		goto err_cond;
	if (ec_fault_plan_create(config->fault_seed, &ctx->faults))
		goto err_record;
	ctx->config = *config;
	ctx->record_t0 = chardev_record_now(ctx);
	/* The EC's clock is cheap to read; clock_gettime() may not be. */
	if (config->clock)
		chardev_trace_set_clock(ctx->trace, config->clock->now_ns, config->clock->ctx);
	*out = ctx;
	return 0;

err_record:
	pthread_mutex_destroy(&ctx->record_lock);
err_cond:
	pthread_cond_destroy(&ctx->cond);
err_mutex:
	pthread_mutex_destroy(&ctx->lock);
err_trace:
	chardev_trace_destroy(ctx->trace);
err_free:
	free(ctx);
	return -ENOMEM;
}

/**
 * chardev_present() - the EC instance files and commands may use.
 * @ctx: context; lock held
 *
 * One whose unplug is being started counts as absent already.
 *
 * Return: the instance or NULL.
 */
struct lifecycle *chardev_present(struct chardev_ctx *ctx)
{
	return ctx->current != ctx->unplugging ? ctx->current : NULL;
}

/**
 * chardev_reap() - free every retired instance whose unplug finished.
 * @ctx: context
 */
void chardev_reap(struct chardev_ctx *ctx)
{
	struct chardev_retired **pp, *done_list = NULL, *r;

	pthread_mutex_lock(&ctx->lock);
	pp = &ctx->retired;
	while (*pp) {
		r = *pp;
		if (r->complete && !r->pinned) {
			*pp = r->next;
			r->next = done_list;
			done_list = r;
		} else {
			pp = &r->next;
		}
	}
	pthread_mutex_unlock(&ctx->lock);

	while (done_list) {
		r = done_list;
		done_list = r->next;
		while (r->orphans) {
			struct chardev_file *f = r->orphans;

			r->orphans = f->next_orphan;
			lifecycle_detach(f->ref);
			chardev_file_events_free(f);
			free(f);
		}
		lifecycle_put(r->lc);
		free(r);
	}
}

void chardev_ctx_destroy(struct chardev_ctx *ctx)
{
	struct chardev_retired *r;

	if (!ctx)
		return;
	chardev_unplug(ctx);
	while (ctx->files)
		chardev_release(ctx->files);
	pthread_mutex_lock(&ctx->lock);
	for (;;) {
		for (r = ctx->retired; r && r->complete; r = r->next)
			;
		if (!r)
			break;
		pthread_cond_wait(&ctx->cond, &ctx->lock);
	}
	pthread_mutex_unlock(&ctx->lock);
	chardev_reap(ctx);
	pthread_cond_destroy(&ctx->cond);
	pthread_mutex_destroy(&ctx->lock);
	chardev_trace_destroy(ctx->trace);
	chardev_record_flush(ctx);
	pthread_mutex_destroy(&ctx->record_lock);
	/* Last: an unsafe mode's zombie EC may still hold it until here. */
	ec_fault_plan_destroy(ctx->faults);
	free(ctx);
}

/*
 * With --state, a new EC continues from the file (none yet: a fresh EC);
 * a file it refuses refuses the plug, so nobody is served a half-meant EC.
 */
static int chardev_state_restore(struct chardev_ctx *ctx, struct ec *ec)
{
	char err[320];
	int ret;

	if (!ctx->config.state_path)
		return 0;
	ret = ec_state_load_file(ec, ctx->config.state_path, err, sizeof(err));
	if (ret == -ENOENT) {
		chardev_log(ctx, CHARDEV_LOG_INFO, "no state file yet: a fresh EC (%s)", err);
		return 0;
	}
	if (ret < 0) {
		STAT_INC(ctx, state_refused);
		chardev_log(ctx, CHARDEV_LOG_ERR, "state file refused: %s", err);
		return ret;
	}
	STAT_INC(ctx, state_loads);
	chardev_log(ctx, CHARDEV_LOG_INFO, "state loaded: %d fields from %s", ret,
		    ctx->config.state_path);
	return 0;
}

int chardev_plug(struct chardev_ctx *ctx)
{
	const struct lifecycle_hooks hooks = {
		.on_zombie = chardev_on_zombie,
		.on_ec_destroyed = chardev_on_ec_destroyed,
		.arg = ctx,
	};
	struct lifecycle *lc;
	struct ec *ec;
	int ret;

	chardev_reap(ctx);
	ret = ec_create(ctx->config.profile, ctx->config.clock, &ec);
	if (!ret) {
		ret = chardev_state_restore(ctx, ec);
		if (ret)
			ec_destroy(ec);
	}
	if (!ret)
		ret = lifecycle_create(ctx->config.mode, ec, &hooks, &lc);
	if (ret) {
		TRACE(ctx, PLUG, 0, 0, ret, 0);
		return ret;
	}
	/* Counted before anything can free it (the -EBUSY put below can). */
	STAT_ADD(ctx, live_ec_bytes, lifecycle_ec_bytes(lc));
	STAT_INC(ctx, live_ecs);

	pthread_mutex_lock(&ctx->lock);
	/*
	 * ctx->lock -> EC lock, but on an EC nobody else can reach yet; under
	 * the lock so that a concurrent chardev_set_latency() is not lost.
	 */
	if (ctx->latency_set)
		ec_set_latency_ns(ec, ctx->latency_ns);
	ec_set_fault_plan(ec, ctx->faults);
	if (ctx->config.replay)
		ec_set_replay(ec, ctx->config.replay);
	if (ctx->current) {
		pthread_mutex_unlock(&ctx->lock);
		lifecycle_put(lc);
		return -EBUSY;
	}
	ctx->current = lc;
	TRACE(ctx, PLUG, 0, 0, 0, 0);
	pthread_mutex_unlock(&ctx->lock);
	STAT_INC(ctx, plugs);
	chardev_record(ctx, &(struct ec_rec){ .kind = EC_REC_PLUG });
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC plugged in (%s mode)",
		    lifecycle_mode_name(ctx->config.mode));
	return 0;
}

static uint64_t chardev_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The one completion of an unplug, in whatever thread finished it: the
 * requester's callback first, then the record is marked complete and
 * ctx->cond signalled, so a waiter (chardev_unplug(), destroy) returns only
 * after the callback has returned.
 */
static void chardev_unplug_finish(struct chardev_retired *r, int result)
{
	struct chardev_ctx *ctx = r->ctx;
	struct lifecycle *expected = r->lc;
	uint64_t waited = 0, wait_ns = chardev_now_ns() - r->start_ns;
	bool last = !lifecycle_files_see_unplug(r->lc);

	/*
	 * The stats keep the last revoke's figures: an older revoke that
	 * finishes after a newer one began leaves them alone.
	 */
	if (atomic_compare_exchange_strong(&ctx->revoking, &expected, NULL)) {
		waited = atomic_load(&ctx->revoke_waited);
		last = true;
	}
	if (last) {
		STAT_SET(ctx, revoke_waited_accesses, waited);
		STAT_SET(ctx, last_revoke_wait_ns, wait_ns);
	}
	TRACE(ctx, REVOKE_DONE, 0, 0, waited, wait_ns);
	if (!result) {
		STAT_INC(ctx, revocations);
		chardev_log(ctx, CHARDEV_LOG_INFO, "EC unplug complete");
	}
	if (r->done)
		r->done(r->done_arg, result);
	pthread_mutex_lock(&ctx->lock);
	r->result = result;
	r->complete = true;
	pthread_cond_broadcast(&ctx->cond);
	/* Last touch: once unlocked, @r may be reaped and @ctx destroyed. */
	pthread_mutex_unlock(&ctx->lock);
}

static void chardev_unplug_complete(void *arg)
{
	chardev_unplug_finish(arg, 0);
}

static bool chardev_file_on_lc(const struct chardev_file *f, const void *key)
{
	return f->lc == key;
}

static bool chardev_file_any(const struct chardev_file *f, const void *key)
{
	return true;
}

/*
 * With --state, the EC going away leaves its state in the file, for the
 * next plug (or the next run). Saved as the unplug begins: a command that
 * slips in before the revoke completes is not in the file.
 */
static void chardev_state_keep(struct chardev_ctx *ctx, struct lifecycle *lc)
{
	char err[320];
	size_t len = 0;
	struct ec *ec;
	int ret = -ENODEV;

	if (!ctx->config.state_path)
		return;
	ec = lifecycle_access_owner(lc);
	if (ec)
		ret = ec_state_save_file(ec, ctx->config.state_path, &len, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "the EC is already gone");
	lifecycle_release_owner(lc);
	if (ret) {
		chardev_log(ctx, CHARDEV_LOG_ERR, "state not saved: %s", err);
		return;
	}
	STAT_INC(ctx, state_saves);
	chardev_log(ctx, CHARDEV_LOG_INFO, "state saved: %zu bytes to %s", len,
		    ctx->config.state_path);
}

/*
 * Start unplugging the present EC (only if it is @only, when given). Its retired record is listed (pinned)
 * before the revoke starts, so that files released meanwhile stay
 * allocated and a completion that comes at once finds it. Only once the
 * revoke has started is the EC detached and, where the unplug wakes waiters
 * (chardev_wakes_on_unplug()), are its files marked dead and their parked
 * reads and pollers woken (so a woken reader's next call already fails). In
 * the teaching modes, and with the seed's v3 behaviour, nothing tells the
 * old files, which is the point. If the start fails, nothing of this has
 * happened: the EC stays current and its files keep working.
 */
static int chardev_unplug_start(struct chardev_ctx *ctx, void (*done)(void *, int), void *arg,
				bool pin, struct lifecycle *only, struct chardev_retired **out)
{
	struct chardev_parked *woken = NULL;
	struct chardev_file *pollers = NULL;
	struct chardev_retired *r, **pp;
	struct lifecycle *lc;
	unsigned int n;
	int ret;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;

	pthread_mutex_lock(&ctx->lock);
	lc = chardev_present(ctx);
	if (!lc || (only && lc != only)) {
		pthread_mutex_unlock(&ctx->lock);
		free(r);
		return -ENODEV;
	}
	ctx->unplugging = lc;
	r->lc = lc;
	r->ctx = ctx;
	r->done = done;
	r->done_arg = arg;
	r->pinned = true;
	r->next = ctx->retired;
	ctx->retired = r;
	r->start_ns = chardev_now_ns();
	/*
	 * Recorded before the revoke begins: accesses still inside the EC
	 * from here on are ones it waits for, and they count themselves as
	 * they leave (chardev_access_end()).
	 */
	if (lifecycle_files_see_unplug(lc)) {
		atomic_store(&ctx->revoke_waited, 0);
		atomic_store(&ctx->revoking, lc);
	}
	TRACE(ctx, REVOKE_START, 0, 0, STAT_GET(ctx, inflight_accesses), 0);
	/* Ours until the end, whatever a completion and a reaper do. */
	lifecycle_get(lc);
	pthread_mutex_unlock(&ctx->lock);

	chardev_state_keep(ctx, lc);
	ret = lifecycle_unplug_async(lc, chardev_unplug_complete, r);

	pthread_mutex_lock(&ctx->lock);
	ctx->unplugging = NULL;
	if (ret < 0) {
		struct lifecycle *expected = lc;

		for (pp = &ctx->retired; *pp != r; pp = &(*pp)->next)
			;
		*pp = r->next;
		/* No revoke is waiting after all. */
		atomic_compare_exchange_strong(&ctx->revoking, &expected, NULL);
		pthread_mutex_unlock(&ctx->lock);
		free(r);
		lifecycle_put(lc);
		chardev_log(ctx, CHARDEV_LOG_ERR, "unplug failed, the EC stays: %s",
			    strerror(-ret));
		return ret;
	}
	/* The context's reference on @lc moves to @r. */
	ctx->current = NULL;
	if (chardev_wakes_on_unplug(ctx, lc)) {
		struct chardev_file *f;

		for (f = ctx->files; f; f = f->next) {
			if (f->lc == lc)
				f->dead = true;
		}
		woken = chardev_take_parked(ctx, chardev_parked_on_lc, lc, 0);
		pollers = chardev_collect_pollers(ctx, chardev_file_on_lc, lc);
	}
	r->pinned = pin;
	pthread_mutex_unlock(&ctx->lock);
	STAT_INC(ctx, unplugs);
	chardev_record(ctx, &(struct ec_rec){ .kind = EC_REC_UNPLUG });
	chardev_record_flush(ctx);
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC unplug started");

	/* 0: the holder was unplugged already and will not call back. */
	if (!ret)
		chardev_unplug_finish(r, 0);
	n = chardev_complete_parked(ctx, woken, -ENODEV);
	if (chardev_wakes_on_unplug(ctx, lc))
		TRACE(ctx, READERS_WOKEN, 0, 0, n, 0);
	chardev_wake_files(ctx, pollers);
	lifecycle_put(lc);
	*out = r;
	return 0;
}

int chardev_unplug_async(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
			 void *arg)
{
	struct chardev_retired *r;
	int ret;

	ret = chardev_unplug_start(ctx, done, arg, false, NULL, &r);
	if (!ret)
		chardev_reap(ctx);
	return ret;
}

int chardev_unplug(struct chardev_ctx *ctx)
{
	struct chardev_retired *r;
	int ret;

	ret = chardev_unplug_start(ctx, NULL, NULL, true, NULL, &r);
	if (ret)
		return ret;
	chardev_log(ctx, CHARDEV_LOG_INFO, "waiting for in-flight commands");
	pthread_mutex_lock(&ctx->lock);
	while (!r->complete)
		pthread_cond_wait(&ctx->cond, &ctx->lock);
	ret = r->result;
	r->pinned = false;
	pthread_mutex_unlock(&ctx->lock);
	chardev_reap(ctx);
	return ret;
}

/**
 * chardev_fault_unplug() - an injected "unplug" fault: the device of @lc
 * goes away as the command that drew it answers.
 * @ctx: context
 * @lc:  the instance the command ran on
 *
 * As chardev_cold_reboot(), called with no access held and only starting
 * the unplug; unlike it, nothing comes back until a plug.
 */
void chardev_fault_unplug(struct chardev_ctx *ctx, struct lifecycle *lc)
{
	struct chardev_retired *r;
	int ret;

	ret = chardev_unplug_start(ctx, NULL, NULL, false, lc, &r);
	if (ret) {
		chardev_log(ctx, CHARDEV_LOG_NOTICE,
			    "injected unplug on an EC no longer current: nothing to unplug (%s)",
			    strerror(-ret));
		return;
	}
	chardev_log(ctx, CHARDEV_LOG_INFO, "injected fault: the device goes away");
	chardev_reap(ctx);
}

/**
 * chardev_cold_reboot() - the EC of @lc went through a cold reset: the
 * device goes away and comes back, as an operator's unplug and plug.
 * @ctx:     context
 * @lc:      the instance the resetting command ran on
 * @file_id: the file that sent it (for the trace)
 * @resets:  the EC's cold-reset count after the command
 *
 * Called with no access held (the command's has ended): the unplug only
 * starts here and completes once the other accesses are out, so a reboot
 * sent in the middle of other commands cannot deadlock. Only @lc is
 * retired: an instance that is no longer current (a reboot sent through an
 * old file in a teaching mode, or racing another reboot) changes nothing.
 * The fresh EC is made at once, so new opens work while old files see what
 * an unplug gives in the mode.
 */
void chardev_cold_reboot(struct chardev_ctx *ctx, struct lifecycle *lc, uint64_t file_id,
			 uint32_t resets)
{
	struct chardev_retired *r;
	int ret;

	TRACE(ctx, EC_COLD_REBOOT, file_id, 0, resets, 0);
	ret = chardev_unplug_start(ctx, NULL, NULL, false, lc, &r);
	if (ret) {
		chardev_log(ctx, CHARDEV_LOG_NOTICE,
			    "cold EC reset on an EC no longer current: nothing to replug (%s)",
			    strerror(-ret));
		return;
	}
	STAT_INC(ctx, ec_cold_reboots);
	chardev_log(ctx, CHARDEV_LOG_INFO, "cold EC reset: the device goes away and comes back");
	chardev_reap(ctx);
	ret = chardev_plug(ctx);
	if (ret)
		chardev_log(ctx, CHARDEV_LOG_WARNING, "no fresh EC after the cold reset: %s",
			    strerror(-ret));
}

/* In every mode: nobody may stay parked on, or poll, an exiting daemon. */
static void chardev_wake_everyone(struct chardev_ctx *ctx)
{
	struct chardev_parked *woken;
	struct chardev_file *f, *pollers;

	pthread_mutex_lock(&ctx->lock);
	for (f = ctx->files; f; f = f->next)
		f->dead = true;
	woken = chardev_take_parked(ctx, chardev_parked_any, NULL, 0);
	pollers = chardev_collect_pollers(ctx, chardev_file_any, NULL);
	pthread_mutex_unlock(&ctx->lock);
	chardev_complete_parked(ctx, woken, -ENODEV);
	chardev_wake_files(ctx, pollers);
}

int chardev_shutdown_begin(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
			   void *arg)
{
	int ret;

	ret = chardev_unplug_async(ctx, done, arg);
	chardev_wake_everyone(ctx);
	return ret;
}

void chardev_shutdown(struct chardev_ctx *ctx)
{
	chardev_unplug(ctx);
	chardev_wake_everyone(ctx);
}

bool chardev_is_plugged(struct chardev_ctx *ctx)
{
	bool plugged;

	pthread_mutex_lock(&ctx->lock);
	plugged = chardev_present(ctx) != NULL;
	pthread_mutex_unlock(&ctx->lock);
	return plugged;
}

enum lifecycle_mode chardev_mode(const struct chardev_ctx *ctx)
{
	return ctx->config.mode;
}

void chardev_set_test_point(struct chardev_ctx *ctx,
			    void (*fn)(void *arg, enum chardev_test_point point,
				       struct chardev_file *file),
			    void *arg)
{
	ctx->test_arg = arg;
	ctx->test_point = fn;
}

const struct ec_profile *chardev_profile(const struct chardev_ctx *ctx)
{
	return ctx->config.profile;
}

void chardev_stats(struct chardev_ctx *ctx, struct chardev_stats *out)
{
#define CHARDEV_STAT_COPY(name, doc) out->name = STAT_GET(ctx, name);
	CHARDEV_STATS(CHARDEV_STAT_COPY)
#undef CHARDEV_STAT_COPY
	/* The replay counts its own answers, across every EC it served. */
	if (ctx->config.replay)
		ec_replay_counts(ctx->config.replay, &out->replay_hits, &out->replay_loose_hits,
				 &out->replay_misses);
}

void chardev_stat_inc(struct chardev_ctx *ctx, enum chardev_stat stat)
{
	if ((unsigned int)stat < CHARDEV_STAT_COUNT)
		atomic_fetch_add(&ctx->stats[stat], 1);
}

struct chardev_trace *chardev_trace(struct chardev_ctx *ctx)
{
	return ctx->trace;
}

void chardev_trace_uevent(struct chardev_ctx *ctx, unsigned int action,
			  unsigned long long seqnum)
{
	TRACE(ctx, UEVENT, 0, action, seqnum, 0);
}

void chardev_set_operator_hold(struct chardev_ctx *ctx, bool hold)
{
	atomic_store(&ctx->operator_hold, hold);
}

bool chardev_operator_hold(struct chardev_ctx *ctx)
{
	return atomic_load(&ctx->operator_hold);
}

int chardev_with_ec(struct chardev_ctx *ctx, int (*fn)(struct ec *ec, void *arg), void *arg)
{
	struct lifecycle *lc;
	struct ec *ec;
	int ret = -ENODEV;

	pthread_mutex_lock(&ctx->lock);
	lc = chardev_present(ctx);
	if (lc)
		lifecycle_get(lc);
	pthread_mutex_unlock(&ctx->lock);
	if (!lc)
		return -ENODEV;

	ec = lifecycle_access_owner(lc);
	if (ec)
		ret = fn(ec, arg);
	lifecycle_release_owner(lc);
	lifecycle_put(lc);
	return ret;
}

struct chardev_state_args {
	const char *path;
	size_t len;
	char *err;
	size_t errlen;
};

static int chardev_state_save_ec(struct ec *ec, void *arg)
{
	struct chardev_state_args *a = arg;

	return ec_state_save_file(ec, a->path, &a->len, a->err, a->errlen);
}

static int chardev_state_load_ec(struct ec *ec, void *arg)
{
	struct chardev_state_args *a = arg;

	return ec_state_load_file(ec, a->path, a->err, a->errlen);
}

int chardev_state_save(struct chardev_ctx *ctx, size_t *len, char *err, size_t errlen)
{
	struct chardev_state_args a = { ctx->config.state_path, 0, err, errlen };
	int ret;

	if (!a.path)
		return -EDESTADDRREQ;
	ret = chardev_with_ec(ctx, chardev_state_save_ec, &a);
	*len = a.len;
	if (!ret)
		STAT_INC(ctx, state_saves);
	return ret;
}

int chardev_state_load(struct chardev_ctx *ctx, char *err, size_t errlen)
{
	struct chardev_state_args a = { ctx->config.state_path, 0, err, errlen };
	int ret;

	if (!a.path)
		return -EDESTADDRREQ;
	ret = chardev_with_ec(ctx, chardev_state_load_ec, &a);
	if (ret >= 0)
		STAT_INC(ctx, state_loads);
	else if (ret != -ENODEV)
		STAT_INC(ctx, state_refused);
	return ret;
}

static int chardev_apply_latency(struct ec *ec, void *arg)
{
	ec_set_latency_ns(ec, *(const uint64_t *)arg);
	return 0;
}

struct ec_fault_plan *chardev_fault_plan(struct chardev_ctx *ctx)
{
	return ctx->faults;
}

int chardev_set_latency(struct chardev_ctx *ctx, uint64_t ns)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->latency_ns = ns;
	ctx->latency_set = true;
	pthread_mutex_unlock(&ctx->lock);
	return chardev_with_ec(ctx, chardev_apply_latency, &ns);
}

uint64_t chardev_open_files(struct chardev_ctx *ctx)
{
	return STAT_GET(ctx, open_files);
}

