// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev.c - /dev/cros_ec file operations as the kernel driver does them,
 * independent of CUSE (see chardev.h).
 *
 * Locking: one context mutex protects the current EC, the file list, every
 * file's poll handle and dead flag, and the parked reads. It is never held
 * while calling into the EC (EC calls may raise events, whose notify
 * callback takes this mutex) nor while completing a read.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "chardev.h"
#include "ec/ec.h"

/**
 * struct chardev_parked - a blocking read waiting for an event.
 * @next:  list link (ctx->parked)
 * @file:  the file it reads from
 * @token: the front end's request
 * @len:   caller's buffer size
 */
struct chardev_parked {
	struct chardev_parked *next;
	struct chardev_file *file;
	void *token;
	size_t len;
};

/**
 * struct chardev_retired - an unplugged EC instance whose unplug may still
 * be in progress.
 * @next:     list link (ctx->retired)
 * @lc:       the holder (the context's reference)
 * @ctx:      back pointer for the completion callback
 * @complete: set once no access can reach the EC any more
 * @orphans:  files released before @complete, kept allocated because a
 *            command still in flight may raise an event and notify them
 * @done:     the unplug requester's callback and its argument
 */
struct chardev_retired {
	struct chardev_retired *next;
	struct lifecycle *lc;
	struct chardev_ctx *ctx;
	atomic_bool complete;
	struct chardev_file *orphans;
	void (*done)(void *arg);
	void *done_arg;
};

/**
 * struct chardev_file - one open file.
 * @ctx:          the daemon context
 * @lc:           the EC instance this file was opened on (the ref holds it)
 * @ref:          this file's handle on that instance
 * @sub:          its MKBP event queue inside the EC
 * @event_mask:   last EVENTMASK value (0: read() returns the version text)
 * @version_done: the version text was read once ("offset" is non-zero now)
 * @dead:         revocable mode: unplugged; reads/polls fail at once
 * @released:     release ran; a late notify must not touch anything else
 * @poll_handle:  who to wake when an event arrives or the EC goes
 * @next:         ctx->files link
 * @prev:         ctx->files link
 * @next_orphan:  chardev_retired.orphans link
 */
struct chardev_file {
	struct chardev_ctx *ctx;
	struct lifecycle *lc;
	struct lifecycle_ref *ref;
	struct ec_subscriber *sub;
	atomic_uint event_mask;
	atomic_bool version_done;
	bool dead;
	bool released;
	void *poll_handle;
	struct chardev_file *next;
	struct chardev_file *prev;
	struct chardev_file *next_orphan;
};

/**
 * struct chardev_ctx - the daemon's state.
 * @lock:    see the comment at the top of this file
 * @config:  mode, profile, clock, callbacks
 * @current: the present EC instance, NULL while unplugged
 * @files:   every open file
 * @parked:  every parked read, oldest first
 * @retired: unplugged instances not yet reaped
 * @latency_ns: injected host-command latency for new ECs (0: profile's)
 * @latency_set: @latency_ns was set by chardev_set_latency()
 * @stats:   counters (atomics: updated without @lock)
 * @operator_hold: the control socket unplugged; uevent adds do not plug
 */
struct chardev_ctx {
	pthread_mutex_t lock;
	struct chardev_config config;
	struct lifecycle *current;
	struct chardev_file *files;
	struct chardev_parked *parked;
	struct chardev_retired *retired;
	uint64_t latency_ns;
	bool latency_set;
	struct {
		atomic_uint_fast64_t opens, open_enodev, releases, open_files;
		atomic_uint_fast64_t ioctl_ok, ioctl_ec_error, ioctl_enodev;
		atomic_uint_fast64_t ioctl_enotty, ioctl_other_error, ioctl_retries;
		atomic_uint_fast64_t reads, read_enodev, events_delivered, parked_reads;
		atomic_uint_fast64_t plugs, unplugs, revocations_completed;
		atomic_uint_fast64_t zombie_accesses;
		atomic_uint_fast64_t uevents_seen, uevent_unplugs, uevent_plugs;
		atomic_uint_fast64_t uevents_kernel, uevents_udev, uevent_adds_held;
		atomic_uint_fast64_t udevd_appeared, udevd_vanished;
	} stats;
	atomic_bool operator_hold;
};

#define STAT_INC(ctx, name) atomic_fetch_add(&(ctx)->stats.name, 1)

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
	    (unsigned int)config->mode > LIFECYCLE_UNSAFE)
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	if (pthread_mutex_init(&ctx->lock, NULL)) {
		free(ctx);
		return -ENOMEM;
	}
	ctx->config = *config;
	*out = ctx;
	return 0;
}

/* Free every retired instance whose unplug finished, with its orphans. */
static void chardev_reap(struct chardev_ctx *ctx)
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
	if (ret)
		return ret;
	ret = lifecycle_create(ctx->config.mode, ec, chardev_on_zombie, ctx, &lc);
	if (ret)
		return ret;

	pthread_mutex_lock(&ctx->lock);
	if (ctx->latency_set)
		ec_set_latency_ns(ec, ctx->latency_ns);
	if (ctx->current) {
		pthread_mutex_unlock(&ctx->lock);
		lifecycle_put(lc);
		return -EBUSY;
	}
	ctx->current = lc;
	pthread_mutex_unlock(&ctx->lock);
	STAT_INC(ctx, plugs);
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC plugged in (%s mode)",
		    lifecycle_mode_name(ctx->config.mode));
	return 0;
}

/* Completion of an unplug, in whatever thread finished it. */
static void chardev_unplug_complete(void *arg)
{
	struct chardev_retired *r = arg;
	struct chardev_ctx *ctx = r->ctx;
	void (*done)(void *) = r->done;
	void *done_arg = r->done_arg;

	STAT_INC(ctx, revocations_completed);
	chardev_log(ctx, CHARDEV_LOG_INFO, "EC unplug complete");
	if (done)
		done(done_arg);
	/*
	 * Last: after this store the reaper may free @r and a destroy may
	 * free @ctx, so neither is touched any more.
	 */
	atomic_store(&r->complete, true);
}

/*
 * Detach the current EC; in revocable mode also mark its files dead and take
 * their parked reads (completed by the caller once the revoke has started,
 * so that a woken reader's next call already fails). In the teaching modes
 * nothing tells the old files, which is the point.
 */
static int chardev_unplug_begin(struct chardev_ctx *ctx, void (*done)(void *), void *arg,
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

	if (ctx->config.mode == LIFECYCLE_REVOCABLE) {
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

/* Wake blocked readers (ENODEV) and pollers (POLLERR|POLLHUP) of @lc. */
static void chardev_wake_dead(struct chardev_ctx *ctx, struct lifecycle *lc,
			      struct chardev_parked *woken)
{
	struct chardev_parked *p;
	struct chardev_file *f;

	if (ctx->config.mode != LIFECYCLE_REVOCABLE)
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
		ctx->config.ops.read_complete(p->token, -ENODEV, NULL, 0);
		free(p);
	}
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
int chardev_unplug_async(struct chardev_ctx *ctx, void (*done)(void *arg), void *arg)
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
		chardev_unplug_complete(r);
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

static void chardev_unplug_wait_done(void *arg)
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
		ctx->config.ops.read_complete(p->token, -ENODEV, NULL, 0);
		free(p);
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
#define COPY(name) out->name = atomic_load(&ctx->stats.name)
	COPY(opens);
	COPY(open_enodev);
	COPY(releases);
	COPY(open_files);
	COPY(ioctl_ok);
	COPY(ioctl_ec_error);
	COPY(ioctl_enodev);
	COPY(ioctl_enotty);
	COPY(ioctl_other_error);
	COPY(ioctl_retries);
	COPY(reads);
	COPY(read_enodev);
	COPY(events_delivered);
	COPY(parked_reads);
	COPY(plugs);
	COPY(unplugs);
	COPY(revocations_completed);
	COPY(zombie_accesses);
	COPY(uevents_seen);
	COPY(uevent_unplugs);
	COPY(uevent_plugs);
	COPY(uevents_kernel);
	COPY(uevents_udev);
	COPY(uevent_adds_held);
	COPY(udevd_appeared);
	COPY(udevd_vanished);
#undef COPY
}

/**
 * chardev_count_uevent() - count one uevent outcome.
 * @ctx:  context
 * @stat: counter
 */
void chardev_count_uevent(struct chardev_ctx *ctx, enum chardev_uevent_stat stat)
{
	switch (stat) {
	case CHARDEV_UEVENT_SEEN:
		STAT_INC(ctx, uevents_seen);
		break;
	case CHARDEV_UEVENT_UNPLUG:
		STAT_INC(ctx, uevent_unplugs);
		break;
	case CHARDEV_UEVENT_PLUG:
		STAT_INC(ctx, uevent_plugs);
		break;
	case CHARDEV_UEVENT_KERNEL:
		STAT_INC(ctx, uevents_kernel);
		break;
	case CHARDEV_UEVENT_UDEV:
		STAT_INC(ctx, uevents_udev);
		break;
	case CHARDEV_UEVENT_ADD_HELD:
		STAT_INC(ctx, uevent_adds_held);
		break;
	case CHARDEV_UDEVD_APPEARED:
		STAT_INC(ctx, udevd_appeared);
		break;
	case CHARDEV_UDEVD_VANISHED:
		STAT_INC(ctx, udevd_vanished);
		break;
	}
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
	return atomic_load(&ctx->stats.open_files);
}

/* ---- events ---- */

/* Hand the oldest queued event to a parked read, or park it again. */
static void chardev_deliver(struct chardev_file *file, struct chardev_parked *p)
{
	struct chardev_ctx *ctx = file->ctx;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t len = p->len < sizeof(buf) ? p->len : sizeof(buf);
	struct ec *ec;
	int ret;

	ec = lifecycle_access(file->ref);
	ret = ec ? ec_subscriber_pop(ec, file->sub, buf, len) : -ENODEV;
	lifecycle_release(file->ref);

	if (ret == -EAGAIN) {
		/* Another reader took it first: wait again, unless the EC went. */
		pthread_mutex_lock(&ctx->lock);
		if (!file->dead && !file->released) {
			p->next = ctx->parked;
			ctx->parked = p;
			pthread_mutex_unlock(&ctx->lock);
			return;
		}
		pthread_mutex_unlock(&ctx->lock);
		ret = -ENODEV;
	}
	if (ret >= 0)
		STAT_INC(ctx, events_delivered);
	ctx->config.ops.read_complete(p->token, ret, ret > 0 ? buf : NULL,
				      ret > 0 ? (size_t)ret : 0);
	free(p);
}

/* Claim the oldest parked read of @file (ctx->lock held). */
static struct chardev_parked *chardev_claim_parked(struct chardev_file *file)
{
	struct chardev_parked **pp, *p;

	for (pp = &file->ctx->parked; *pp; pp = &(*pp)->next) {
		p = *pp;
		if (p->file == file) {
			*pp = p->next;
			return p;
		}
	}
	return NULL;
}

/* The EC queued an event for this file (runs in the thread that caused it). */
static void chardev_event_notify(void *arg)
{
	struct chardev_file *file = arg;
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked *p = NULL;

	pthread_mutex_lock(&ctx->lock);
	if (!file->released) {
		if (file->poll_handle && ctx->config.ops.poll_notify)
			ctx->config.ops.poll_notify(file->poll_handle);
		p = chardev_claim_parked(file);
	}
	pthread_mutex_unlock(&ctx->lock);
	if (p)
		chardev_deliver(file, p);
}

/* ---- file operations ---- */

/**
 * chardev_open() - attach a new file to the current EC.
 * @ctx: context
 * @out: the file
 *
 * Return: 0, -ENODEV or -ENOMEM.
 */
int chardev_open(struct chardev_ctx *ctx, struct chardev_file **out)
{
	struct chardev_file *file;
	struct ec *ec;
	int ret;

	file = calloc(1, sizeof(*file));
	if (!file)
		return -ENOMEM;
	file->ctx = ctx;
	atomic_init(&file->event_mask, 0);
	atomic_init(&file->version_done, false);

	pthread_mutex_lock(&ctx->lock);
	if (!ctx->current) {
		pthread_mutex_unlock(&ctx->lock);
		ret = -ENODEV;
		goto err_free;
	}
	ret = lifecycle_attach(ctx->current, &file->ref);
	if (ret) {
		pthread_mutex_unlock(&ctx->lock);
		goto err_free;
	}
	file->lc = ctx->current;
	pthread_mutex_unlock(&ctx->lock);

	/* The EC may vanish right here; then the access below says so. */
	ec = lifecycle_access(file->ref);
	ret = ec ? ec_subscribe(ec, chardev_event_notify, file, &file->sub) : -ENODEV;
	lifecycle_release(file->ref);
	if (ret)
		goto err_detach;

	pthread_mutex_lock(&ctx->lock);
	file->next = ctx->files;
	if (ctx->files)
		ctx->files->prev = file;
	ctx->files = file;
	/* An unplug that ran meanwhile did not see this file: mark it now. */
	if (ctx->config.mode == LIFECYCLE_REVOCABLE && ctx->current != file->lc)
		file->dead = true;
	pthread_mutex_unlock(&ctx->lock);

	STAT_INC(ctx, opens);
	STAT_INC(ctx, open_files);
	*out = file;
	return 0;

err_detach:
	lifecycle_detach(file->ref);
err_free:
	free(file);
	if (ret == -ENODEV)
		STAT_INC(ctx, open_enodev);
	return ret;
}

/**
 * chardev_release() - close: always succeeds, frees the file.
 * @file: the file
 */
void chardev_release(struct chardev_file *file)
{
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked *woken = NULL, *p;
	struct chardev_retired *r;
	void *poll_handle;
	struct ec *ec;
	bool orphaned = false;

	pthread_mutex_lock(&ctx->lock);
	file->released = true;
	if (file->prev)
		file->prev->next = file->next;
	else
		ctx->files = file->next;
	if (file->next)
		file->next->prev = file->prev;
	while ((p = chardev_claim_parked(file))) {
		p->next = woken;
		woken = p;
	}
	poll_handle = file->poll_handle;
	file->poll_handle = NULL;
	pthread_mutex_unlock(&ctx->lock);

	while (woken) {
		p = woken;
		woken = p->next;
		ctx->config.ops.read_complete(p->token, -EBADF, NULL, 0);
		free(p);
	}
	if (poll_handle && ctx->config.ops.poll_destroy)
		ctx->config.ops.poll_destroy(poll_handle);

	/*
	 * Unsubscribe while the EC is still reachable. In unsafe mode after an
	 * unplug this touches freed memory: the bug the mode exists to show.
	 */
	ec = lifecycle_access(file->ref);
	if (ec)
		ec_unsubscribe(ec, file->sub);
	lifecycle_release(file->ref);

	if (!ec) {
		/*
		 * Revoked: the EC (with our subscriber) is freed by the revoke's
		 * release callback. Until the revoke is complete a command still
		 * in flight may notify us, so keep the file until then.
		 */
		pthread_mutex_lock(&ctx->lock);
		for (r = ctx->retired; r; r = r->next) {
			if (r->lc == file->lc && !atomic_load(&r->complete)) {
				file->next_orphan = r->orphans;
				r->orphans = file;
				orphaned = true;
				break;
			}
		}
		pthread_mutex_unlock(&ctx->lock);
	}

	STAT_INC(ctx, releases);
	atomic_fetch_sub(&ctx->stats.open_files, 1);
	if (!orphaned) {
		lifecycle_detach(file->ref);
		free(file);
	}
	chardev_reap(ctx);
}

/**
 * chardev_read() - version text, or one MKBP event once a mask is set.
 * @file:     the file
 * @len:      caller's buffer size
 * @nonblock: O_NONBLOCK
 * @token:    the request, in case it must be parked
 * @buf:      CHARDEV_READ_MAX bytes
 * @outlen:   bytes produced
 *
 * Return: 0, CHARDEV_READ_PARKED, or -errno (see chardev.h).
 */
int chardev_read(struct chardev_file *file, size_t len, bool nonblock, void *token,
		 void *buf, size_t *outlen)
{
	struct chardev_ctx *ctx = file->ctx;
	char text[CHARDEV_READ_MAX];
	struct chardev_parked *p;
	size_t want = len < CHARDEV_READ_MAX ? len : CHARDEV_READ_MAX;
	bool dead, pending = false;
	struct ec *ec;
	int ret;

	STAT_INC(ctx, reads);
	*outlen = 0;
	pthread_mutex_lock(&ctx->lock);
	dead = file->dead;
	pthread_mutex_unlock(&ctx->lock);
	if (dead) {
		ret = -ENODEV;
		goto out;
	}

	if (!atomic_load(&file->event_mask)) {
		/* Kernel: version text at offset 0, then 0 (end of file). */
		if (atomic_load(&file->version_done))
			return 0;
		ec = lifecycle_access(file->ref);
		ret = ec ? ec_get_version_text(ec, text, sizeof(text)) : -ENODEV;
		lifecycle_release(file->ref);
		if (ret < 0)
			goto out;
		if ((size_t)ret < want)
			want = (size_t)ret;
		memcpy(buf, text, want);
		*outlen = want;
		atomic_store(&file->version_done, true);
		return 0;
	}

	if (!len)
		return 0;
	ec = lifecycle_access(file->ref);
	ret = ec ? ec_subscriber_pop(ec, file->sub, buf, want) : -ENODEV;
	lifecycle_release(file->ref);
	if (ret >= 0) {
		STAT_INC(ctx, events_delivered);
		*outlen = (size_t)ret;
		return 0;
	}
	if (ret != -EAGAIN || nonblock)
		goto out;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->file = file;
	p->token = token;
	p->len = len;
	pthread_mutex_lock(&ctx->lock);
	if (file->dead) {
		ret = -ENODEV;
	} else if (ctx->config.ops.read_interrupted &&
		   ctx->config.ops.read_interrupted(token)) {
		ret = -EINTR;
	} else {
		struct chardev_parked **pp = &ctx->parked;

		/* FIFO: an event goes to the reader that waited longest. */
		while (*pp)
			pp = &(*pp)->next;
		*pp = p;
		ret = CHARDEV_READ_PARKED;
	}
	pthread_mutex_unlock(&ctx->lock);
	if (ret != CHARDEV_READ_PARKED) {
		free(p);
		goto out;
	}
	STAT_INC(ctx, parked_reads);

	/*
	 * An event queued between the pop above and parking found nobody to
	 * wake: look again now that we are visible. From here on @token may
	 * already be completed by another thread, so it is not touched.
	 */
	ec = lifecycle_access(file->ref);
	if (ec)
		pending = ec_subscriber_pending(ec, file->sub);
	lifecycle_release(file->ref);
	if (pending)
		chardev_event_notify(file);
	return CHARDEV_READ_PARKED;

out:
	if (ret == -ENODEV)
		STAT_INC(ctx, read_enodev);
	return ret;
}

/**
 * chardev_read_cancel() - complete a still-parked read with -EINTR.
 * @ctx:   context
 * @token: the interrupted request
 */
void chardev_read_cancel(struct chardev_ctx *ctx, void *token)
{
	struct chardev_parked **pp, *p = NULL;

	pthread_mutex_lock(&ctx->lock);
	for (pp = &ctx->parked; *pp; pp = &(*pp)->next) {
		if ((*pp)->token == token) {
			p = *pp;
			*pp = p->next;
			break;
		}
	}
	pthread_mutex_unlock(&ctx->lock);
	if (!p)
		return;
	ctx->config.ops.read_complete(p->token, -EINTR, NULL, 0);
	free(p);
}

/**
 * chardev_poll() - readiness; remember @poll_handle for later wake-ups.
 * @file:        the file
 * @poll_handle: front-end handle or NULL
 *
 * Return: CHARDEV_POLL* bits.
 */
unsigned int chardev_poll(struct chardev_file *file, void *poll_handle)
{
	struct chardev_ctx *ctx = file->ctx;
	void *old = NULL;
	bool dead, pending = false;
	struct ec *ec;

	pthread_mutex_lock(&ctx->lock);
	if (poll_handle && poll_handle != file->poll_handle) {
		old = file->poll_handle;
		file->poll_handle = poll_handle;
	}
	dead = file->dead;
	pthread_mutex_unlock(&ctx->lock);
	if (old && ctx->config.ops.poll_destroy)
		ctx->config.ops.poll_destroy(old);
	if (dead)
		return CHARDEV_POLLERR | CHARDEV_POLLHUP;

	ec = lifecycle_access(file->ref);
	if (ec)
		pending = ec_subscriber_pending(ec, file->sub);
	lifecycle_release(file->ref);
	if (!ec)
		return CHARDEV_POLLERR | CHARDEV_POLLHUP;
	return pending ? CHARDEV_POLLIN | CHARDEV_POLLRDNORM : 0;
}

/* ---- ioctl ---- */

static void chardev_ioctl_error(struct chardev_ioctl_result *res, int err)
{
	res->action = CHARDEV_IOCTL_ERROR;
	res->ret = err;
}

static void chardev_ioctl_retry(struct chardev_ioctl_result *res, uint64_t arg,
				size_t in_len, size_t out_len)
{
	res->action = CHARDEV_IOCTL_RETRY;
	res->in_iov.base = arg;
	res->in_iov.len = in_len;
	res->in_count = in_len ? 1 : 0;
	res->out_iov.base = arg;
	res->out_iov.len = out_len;
	res->out_count = out_len ? 1 : 0;
}

/*
 * XCMD, in three steps because its number encodes only the 20-byte header:
 * (1) nothing fetched yet: ask for the header; (2) header fetched: check
 * the sizes and ask for header+request in, header+response out; (3) run it.
 * Steps are told apart by what the kernel fetched (stateless, so concurrent
 * ioctls on one file cannot mix their steps).
 */
static void chardev_ioctl_xcmd(struct chardev_file *file, uint64_t arg, const void *in,
			       size_t in_len, size_t out_len, struct chardev_ioctl_result *res)
{
	const size_t hdr_len = CROS_EC_XCMD_HEADER_SIZE;
	struct cros_ec_command_v2 hdr;
	size_t insize, reply_len;
	uint32_t ec_status = 0;
	unsigned char *reply;
	struct ec *ec;
	int ret;

	if (in_len == 0) {
		chardev_ioctl_retry(res, arg, hdr_len, 0);
		return;
	}
	if (in_len < hdr_len) {
		chardev_ioctl_error(res, -EINVAL);
		return;
	}
	memcpy(&hdr, in, hdr_len);
	if (hdr.outsize > CROS_EC_MAX_XCMD_PAYLOAD || hdr.insize > CROS_EC_MAX_XCMD_PAYLOAD) {
		chardev_ioctl_error(res, -EINVAL);
		return;
	}

	if (out_len == 0) {
		if (in_len != hdr_len) {
			chardev_ioctl_error(res, -EINVAL);
			return;
		}
		chardev_ioctl_retry(res, arg, hdr_len + hdr.outsize, hdr_len + hdr.insize);
		return;
	}

	/* The caller changed the sizes between the two copies: reject. */
	if (in_len != hdr_len + hdr.outsize || out_len != hdr_len + hdr.insize) {
		chardev_ioctl_error(res, -EINVAL);
		return;
	}

	ec = lifecycle_access(file->ref);
	if (!ec) {
		ret = -ENODEV;
		goto out_release;
	}
	insize = hdr.insize;
	if (insize > ec_max_response(ec))
		insize = ec_max_response(ec);	/* the kernel clamps, silently */
	if (hdr.outsize > ec_max_request(ec)) {
		ret = -EMSGSIZE;
		goto out_release;
	}
	reply_len = hdr_len + insize;
	reply = calloc(1, reply_len);
	if (!reply) {
		ret = -ENOMEM;
		goto out_release;
	}
	ret = ec_host_command(ec, hdr.command, hdr.version, (const unsigned char *)in + hdr_len,
			      hdr.outsize, reply + hdr_len, insize, &ec_status);
	lifecycle_release(file->ref);
	if (ret < 0) {
		free(reply);
		chardev_ioctl_error(res, ret);
		return;
	}
	hdr.insize = (uint32_t)insize;
	hdr.result = ec_status;
	memcpy(reply, &hdr, hdr_len);
	res->action = CHARDEV_IOCTL_REPLY;
	res->ret = ret;
	res->out = reply;
	res->out_len = reply_len;
	return;

out_release:
	lifecycle_release(file->ref);
	chardev_ioctl_error(res, ret);
}

/* READMEM: its number encodes the whole 264-byte struct: one retry. */
static void chardev_ioctl_readmem(struct chardev_file *file, uint64_t arg, const void *in,
				  size_t in_len, size_t out_len, struct chardev_ioctl_result *res)
{
	const size_t arg_len = sizeof(struct cros_ec_readmem_v2);
	struct cros_ec_readmem_v2 *mem;
	struct ec *ec;
	int ret;

	if (in_len == 0 && out_len == 0) {
		chardev_ioctl_retry(res, arg, arg_len, arg_len);
		return;
	}
	if (in_len != arg_len || out_len != arg_len) {
		chardev_ioctl_error(res, -EINVAL);
		return;
	}

	mem = calloc(1, arg_len);
	if (!mem) {
		chardev_ioctl_error(res, -ENOMEM);
		return;
	}
	memcpy(mem, in, arg_len);
	ec = lifecycle_access(file->ref);
	if (!ec)
		ret = -ENODEV;
	else if (mem->bytes > sizeof(mem->buffer))
		ret = -EINVAL;
	else
		ret = ec_read_memmap(ec, mem->offset, mem->bytes, mem->buffer);
	lifecycle_release(file->ref);
	if (ret < 0) {
		free(mem);
		chardev_ioctl_error(res, ret);
		return;
	}
	res->action = CHARDEV_IOCTL_REPLY;
	res->ret = ret;
	if (ret == 0) {
		/* Like the kernel: nothing read, nothing copied back. */
		free(mem);
		return;
	}
	res->out = mem;
	res->out_len = arg_len;
}

/* EVENTMASK: the argument value is the mask; no memory is transferred. */
static void chardev_ioctl_eventmask(struct chardev_file *file, uint64_t arg,
				    struct chardev_ioctl_result *res)
{
	struct ec *ec;
	int ret = 0;

	ec = lifecycle_access(file->ref);
	if (ec)
		ec_subscriber_set_mask(ec, file->sub, (uint32_t)arg);
	else
		ret = -ENODEV;
	lifecycle_release(file->ref);
	if (ret) {
		chardev_ioctl_error(res, ret);
		return;
	}
	atomic_store(&file->event_mask, (uint32_t)arg);
	res->action = CHARDEV_IOCTL_REPLY;
	res->ret = 0;
}

/**
 * chardev_ioctl() - one step of an ioctl (see chardev.h).
 * @file:    the file
 * @cmd:     ioctl number
 * @arg:     caller's argument
 * @flags:   CHARDEV_IOCTL_COMPAT or 0
 * @in:      bytes fetched from the caller
 * @in_len:  their count
 * @out_len: room for the reply
 * @res:     the next action
 */
void chardev_ioctl(struct chardev_file *file, unsigned int cmd, uint64_t arg,
		   unsigned int flags, const void *in, size_t in_len, size_t out_len,
		   struct chardev_ioctl_result *res)
{
	struct chardev_ctx *ctx = file->ctx;

	memset(res, 0, sizeof(*res));
	if (in_len && !in) {
		chardev_ioctl_error(res, -EFAULT);
		goto count;
	}
	/*
	 * 32-bit callers (flags & CHARDEV_IOCTL_COMPAT) use the same numbers
	 * and layouts (every field is u32/u8), so they take the same paths.
	 */
	switch (cmd) {
	case CROS_EC_DEV_IOCXCMD_V2:
		chardev_ioctl_xcmd(file, arg, in, in_len, out_len, res);
		break;
	case CROS_EC_DEV_IOCRDMEM_V2:
		chardev_ioctl_readmem(file, arg, in, in_len, out_len, res);
		break;
	case CROS_EC_DEV_IOCEVENTMASK_V2:
		chardev_ioctl_eventmask(file, arg, res);
		break;
	default:
		/* v1 (':') numbers included: clients fall back to v2 on ENOTTY. */
		chardev_ioctl_error(res, -ENOTTY);
		break;
	}

count:
	switch (res->action) {
	case CHARDEV_IOCTL_RETRY:
		STAT_INC(ctx, ioctl_retries);
		break;
	case CHARDEV_IOCTL_REPLY:
		if (cmd == CROS_EC_DEV_IOCXCMD_V2 && res->out_len >= CROS_EC_XCMD_HEADER_SIZE &&
		    ((const struct cros_ec_command_v2 *)res->out)->result)
			STAT_INC(ctx, ioctl_ec_error);
		else
			STAT_INC(ctx, ioctl_ok);
		break;
	case CHARDEV_IOCTL_ERROR:
		if (res->ret == -ENODEV)
			STAT_INC(ctx, ioctl_enodev);
		else if (res->ret == -ENOTTY)
			STAT_INC(ctx, ioctl_enotty);
		else
			STAT_INC(ctx, ioctl_other_error);
		break;
	}
}

/**
 * chardev_ioctl_result_free() - free a result's reply buffer.
 * @res: the result
 */
void chardev_ioctl_result_free(struct chardev_ioctl_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}
