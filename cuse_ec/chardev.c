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

/**
 * chardev_log() - log a message through the front end.
 * @ctx:   context
 * @level: CHARDEV_LOG_*
 * @fmt:   printf format
 */
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

/**
 * chardev_unplug_wakeups_parse() - map an --unplug-wakeups value.
 * @name: "upstream" or "v3"
 * @out:  the value
 *
 * Return: 0 or -EINVAL.
 */
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

/**
 * chardev_ctx_create() - make a context with no EC present.
 * @config: configuration (copied)
 * @out:    the context
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int chardev_ctx_create(const struct chardev_config *config, struct chardev_ctx **out)
{
	struct chardev_ctx *ctx;

	if (!config || !config->profile || !config->ops.read_complete ||
	    (unsigned int)config->mode > LIFECYCLE_UNSAFE ||
	    (unsigned int)config->unplug_wakeups > CHARDEV_WAKEUPS_V3)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	if (chardev_trace_create(CHARDEV_TRACE_DEFAULT_EVENTS, &ctx->trace)) {
		free(ctx);
		return -ENOMEM;
	}
	if (pthread_mutex_init(&ctx->lock, NULL)) {
		chardev_trace_destroy(ctx->trace);
		free(ctx);
		return -ENOMEM;
	}
	ctx->config = *config;
	*out = ctx;
	return 0;
}

/* Free every retired instance whose unplug finished, with its orphans. */
void chardev_reap(struct chardev_ctx *ctx)
{
	struct chardev_retired **pp, *done_list = NULL, *r;

	pthread_mutex_lock(&ctx->lock);
	pp = &ctx->retired;
	while (*pp) {
		r = *pp;
		if (atomic_load(&r->complete)) {
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

/**
 * chardev_ctx_destroy() - free a context.
 * @ctx: context; NULL is ignored
 *
 * Files still open (clients of an exiting daemon keep their fds) are
 * released here, so the front end must not call into them any more.
 * Waits for unplugs still completing.
 */
void chardev_ctx_destroy(struct chardev_ctx *ctx)
{
	bool pending;

	if (!ctx)
		return;
	chardev_unplug(ctx);
	while (ctx->files)
		chardev_release(ctx->files);
	for (;;) {
		chardev_reap(ctx);
		pthread_mutex_lock(&ctx->lock);
		pending = ctx->retired != NULL;
		pthread_mutex_unlock(&ctx->lock);
		if (!pending)
			break;
		/* An async unplug completes when its last reader leaves. */
		usleep(1000);
	}
	pthread_mutex_destroy(&ctx->lock);
	chardev_trace_destroy(ctx->trace);
	free(ctx);
}

/**
 * chardev_plug() - create a fresh EC and make it current.
 * @ctx: context
 *
 * Return: 0, -EBUSY if one is present, or -errno.
 */
int chardev_plug(struct chardev_ctx *ctx)
{
	struct lifecycle *lc;
	struct ec *ec;
	int ret;

	chardev_reap(ctx);
	ret = ec_create(ctx->config.profile, ctx->config.clock, &ec);
	if (!ret)
		ret = lifecycle_create(ctx->config.mode, ec, chardev_on_zombie, ctx, &lc);
	if (ret) {
		TRACE(ctx, PLUG, 0, 0, ret, 0);
		return ret;
	}

	pthread_mutex_lock(&ctx->lock);
	if (ctx->latency_set)
		ec_set_latency_ns(ec, ctx->latency_ns);
	if (ctx->current) {
		pthread_mutex_unlock(&ctx->lock);
		lifecycle_put(lc);
		return -EBUSY;
	}
	ctx->current = lc;
	TRACE(ctx, PLUG, 0, 0, 0, 0);
	pthread_mutex_unlock(&ctx->lock);
	STAT_INC(ctx, plugs);
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

/* Completion of an unplug, in whatever thread finished it. */
static void chardev_unplug_finish(struct chardev_retired *r, int result)
{
	struct chardev_ctx *ctx = r->ctx;
	void (*done)(void *, int) = r->done;
	void *done_arg = r->done_arg;
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
	STAT_INC(ctx, revocations);
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC unplug complete");
	if (done)
		done(done_arg, result);
	/*
	 * Last: after this store the reaper may free @r and a destroy may
	 * free @ctx, so neither is touched any more.
	 */
	atomic_store(&r->complete, true);
}

static void chardev_unplug_complete(void *arg)
{
	chardev_unplug_finish(arg, 0);
}

/*
 * Detach the current EC; where the unplug wakes waiters also mark its files
 * dead and take their parked reads (completed by the caller once the revoke
 * has started, so that a woken reader's next call already fails). In the
 * teaching modes, and with the seed's v3 behaviour, nothing tells the old
 * files, which is the point.
 */
static int chardev_unplug_begin(struct chardev_ctx *ctx, void (*done)(void *, int), void *arg,
				struct chardev_retired **out, struct chardev_parked **woken)
{
	struct chardev_parked **pp, *p;
	struct chardev_retired *r;
	struct chardev_file *f;
	struct lifecycle *lc;

	*woken = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;

	pthread_mutex_lock(&ctx->lock);
	lc = ctx->current;
	if (!lc) {
		pthread_mutex_unlock(&ctx->lock);
		free(r);
		return -ENODEV;
	}
	ctx->current = NULL;
	r->lc = lc;
	r->ctx = ctx;
	r->done = done;
	r->done_arg = arg;
	atomic_init(&r->complete, false);
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

	if (chardev_wakes_on_unplug(ctx, lc)) {
		for (f = ctx->files; f; f = f->next) {
			if (f->lc == lc)
				f->dead = true;
		}
		pp = &ctx->parked;
		while (*pp) {
			p = *pp;
			if (p->file->lc == lc) {
				*pp = p->next;
				p->next = *woken;
				*woken = p;
			} else {
				pp = &p->next;
			}
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	STAT_INC(ctx, unplugs);
	*out = r;
	return 0;
}

/* Wake blocked readers (ENODEV) and pollers (POLLERR) of @lc. */
static void chardev_wake_dead(struct chardev_ctx *ctx, struct lifecycle *lc,
			      struct chardev_parked *woken)
{
	struct chardev_parked *p;
	struct chardev_file *f;
	unsigned int n = 0;

	if (!chardev_wakes_on_unplug(ctx, lc))
		return;
	pthread_mutex_lock(&ctx->lock);
	for (f = ctx->files; f; f = f->next) {
		if (f->lc == lc && f->poll_handle && ctx->config.ops.poll_notify)
			ctx->config.ops.poll_notify(f->poll_handle);
	}
	pthread_mutex_unlock(&ctx->lock);
	while (woken) {
		p = woken;
		woken = p->next;
		STAT_INC(ctx, read_enodev);
		chardev_parked_complete(ctx, p, -ENODEV, NULL, 0);
		n++;
	}
	TRACE(ctx, READERS_WOKEN, 0, 0, n, 0);
}

/**
 * chardev_unplug_async() - start an unplug; @done runs once it completes.
 * @ctx:  context
 * @done: completion callback or NULL
 * @arg:  its argument
 *
 * The revoke starts before any waiter is woken, so a woken reader's next
 * call already gets ENODEV.
 *
 * Return: 0 or -ENODEV.
 */
int chardev_unplug_async(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
			 void *arg)
{
	struct chardev_parked *woken;
	struct chardev_retired *r;
	struct lifecycle *lc;
	int ret;

	ret = chardev_unplug_begin(ctx, done, arg, &r, &woken);
	if (ret)
		return ret;
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC unplug started");
	/* @r may be reaped as soon as the unplug completes: hold what we need. */
	lc = r->lc;
	lifecycle_get(lc);
	ret = lifecycle_unplug_async(lc, chardev_unplug_complete, r);
	if (ret <= 0) {
		/* Nobody will call back: complete (or report failure) here. */
		if (ret < 0)
			chardev_log(ctx, CHARDEV_LOG_ERR, "async unplug failed: %s",
				    strerror(-ret));
		chardev_unplug_finish(r, ret);
	}
	chardev_wake_dead(ctx, lc, woken);
	lifecycle_put(lc);
	chardev_reap(ctx);
	return 0;
}

/* A synchronous unplug waits on one of these. */
struct chardev_unplug_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
};

static void chardev_unplug_wait_done(void *arg, int result)
{
	struct chardev_unplug_wait *w = arg;

	pthread_mutex_lock(&w->lock);
	w->done = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

/**
 * chardev_unplug() - unplug and wait until the EC is gone.
 * @ctx: context
 *
 * Blocked readers are woken at once, not after the in-flight commands.
 *
 * Return: 0 or -ENODEV when nothing is plugged.
 */
int chardev_unplug(struct chardev_ctx *ctx)
{
	struct chardev_unplug_wait w = { .done = false };
	int ret;

	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cond, NULL);
	ret = chardev_unplug_async(ctx, chardev_unplug_wait_done, &w);
	if (!ret) {
		chardev_log(ctx, CHARDEV_LOG_INFO, "waiting for in-flight commands");
		pthread_mutex_lock(&w.lock);
		while (!w.done)
			pthread_cond_wait(&w.cond, &w.lock);
		pthread_mutex_unlock(&w.lock);
		chardev_reap(ctx);
	}
	pthread_cond_destroy(&w.cond);
	pthread_mutex_destroy(&w.lock);
	return ret;
}

/**
 * chardev_shutdown() - daemon exit: unplug and wake every waiter.
 * @ctx: context
 */
void chardev_shutdown(struct chardev_ctx *ctx)
{
	struct chardev_parked *woken;
	struct chardev_file *f;

	chardev_unplug(ctx);
	/* In every mode: nobody may stay parked on an exiting daemon. */
	pthread_mutex_lock(&ctx->lock);
	woken = ctx->parked;
	ctx->parked = NULL;
	for (f = ctx->files; f; f = f->next) {
		f->dead = true;
		if (f->poll_handle && ctx->config.ops.poll_notify)
			ctx->config.ops.poll_notify(f->poll_handle);
	}
	pthread_mutex_unlock(&ctx->lock);
	while (woken) {
		struct chardev_parked *p = woken;

		woken = p->next;
		chardev_parked_complete(ctx, p, -ENODEV, NULL, 0);
	}
}

/**
 * chardev_is_plugged() - whether an EC is present.
 * @ctx: context
 *
 * Return: true while plugged.
 */
bool chardev_is_plugged(struct chardev_ctx *ctx)
{
	bool plugged;

	pthread_mutex_lock(&ctx->lock);
	plugged = ctx->current != NULL;
	pthread_mutex_unlock(&ctx->lock);
	return plugged;
}

/**
 * chardev_mode() - the context's lifecycle mode.
 * @ctx: context
 *
 * Return: the mode.
 */
enum lifecycle_mode chardev_mode(const struct chardev_ctx *ctx)
{
	return ctx->config.mode;
}

/**
 * chardev_profile() - the board profile new ECs are made from.
 * @ctx: context
 *
 * Return: the profile (borrowed from the creator).
 */
const struct ec_profile *chardev_profile(const struct chardev_ctx *ctx)
{
	return ctx->config.profile;
}

/**
 * chardev_stats() - snapshot the counters.
 * @ctx: context
 * @out: snapshot
 */
void chardev_stats(struct chardev_ctx *ctx, struct chardev_stats *out)
{
#define CHARDEV_STAT_COPY(name, doc) out->name = STAT_GET(ctx, name);
	CHARDEV_STATS(CHARDEV_STAT_COPY)
#undef CHARDEV_STAT_COPY
}

/**
 * chardev_stat_inc() - count one event the context does not see itself.
 * @ctx:  context
 * @stat: counter
 */
void chardev_stat_inc(struct chardev_ctx *ctx, enum chardev_stat stat)
{
	if ((unsigned int)stat < CHARDEV_STAT_COUNT)
		atomic_fetch_add(&ctx->stats[stat], 1);
}

/**
 * chardev_trace() - the context's lifecycle event log.
 * @ctx: context
 *
 * Return: the log (lives as long as @ctx).
 */
struct chardev_trace *chardev_trace(struct chardev_ctx *ctx)
{
	return ctx->trace;
}

/**
 * chardev_trace_uevent() - record a uevent the daemon acts on.
 * @ctx:    context
 * @action: CHARDEV_TRACE_UEVENT_*
 * @seqnum: its SEQNUM (0 if it had none)
 */
void chardev_trace_uevent(struct chardev_ctx *ctx, unsigned int action,
			  unsigned long long seqnum)
{
	TRACE(ctx, UEVENT, 0, action, seqnum, 0);
}

/**
 * chardev_set_operator_hold() - record the operator's unplug or plug.
 * @ctx:  context
 * @hold: in force or not
 */
void chardev_set_operator_hold(struct chardev_ctx *ctx, bool hold)
{
	atomic_store(&ctx->operator_hold, hold);
}

/**
 * chardev_operator_hold() - whether an operator's unplug is in force.
 * @ctx: context
 *
 * Return: the flag.
 */
bool chardev_operator_hold(struct chardev_ctx *ctx)
{
	return atomic_load(&ctx->operator_hold);
}

/**
 * chardev_with_ec() - run @fn on the current EC.
 * @ctx: context
 * @fn:  callback
 * @arg: its argument
 *
 * Return: @fn's return or -ENODEV.
 */
int chardev_with_ec(struct chardev_ctx *ctx, int (*fn)(struct ec *ec, void *arg), void *arg)
{
	struct lifecycle *lc;
	struct ec *ec;
	int ret = -ENODEV;

	pthread_mutex_lock(&ctx->lock);
	lc = ctx->current;
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

static int chardev_apply_latency(struct ec *ec, void *arg)
{
	ec_set_latency_ns(ec, *(const uint64_t *)arg);
	return 0;
}

/**
 * chardev_set_latency() - set the injected latency now and for later ECs.
 * @ctx: context
 * @ns:  nanoseconds
 *
 * Return: 0 or -ENODEV (value kept for the next plug).
 */
int chardev_set_latency(struct chardev_ctx *ctx, uint64_t ns)
{
	pthread_mutex_lock(&ctx->lock);
	ctx->latency_ns = ns;
	ctx->latency_set = true;
	pthread_mutex_unlock(&ctx->lock);
	return chardev_with_ec(ctx, chardev_apply_latency, &ns);
}

/**
 * chardev_open_files() - files currently open.
 * @ctx: context
 *
 * Return: the count.
 */
uint64_t chardev_open_files(struct chardev_ctx *ctx)
{
	return STAT_GET(ctx, open_files);
}

