// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_read.c - read(), poll() and MKBP event delivery to parked reads
 * (see chardev.h; locking in chardev_internal.h).
 *
 * Parked reads. A blocking read with no event queued parks; the next event
 * queued for its file is handed to the read of that file that parked first.
 * Every path that parks goes through chardev_park() (park, then look again
 * for an event whose notification found nobody parked) and every path that
 * ends parked reads takes them with chardev_take_parked(), oldest first:
 * event delivery (one, the oldest of the file), interrupt (the one with the
 * token), release (all of the file), unplug (all of the EC instance) and
 * daemon exit (all). A read handed an event that a concurrent non-blocking
 * read took first parks again in its old place (it keeps its sequence
 * number), so it is still the first to be served.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "chardev_internal.h"
#include "chardev_testing.h"
#include "ec/ec.h"

/* Pop the oldest event of @file's own queue (see ec_event_queue_pop()). */
static int chardev_pop_event(struct chardev_file *file, void *buf, size_t len)
{
	int ret;

	pthread_mutex_lock(&file->events_lock);
	ret = ec_event_queue_pop(&file->events, buf, len);
	pthread_mutex_unlock(&file->events_lock);
	return ret;
}

static bool chardev_event_pending(struct chardev_file *file)
{
	bool pending;

	pthread_mutex_lock(&file->events_lock);
	pending = ec_event_queue_pending(&file->events);
	pthread_mutex_unlock(&file->events_lock);
	return pending;
}

/**
 * chardev_file_events_free() - free the file's queued events and its lock.
 * @file: a file no notifier call can reach any more
 */
void chardev_file_events_free(struct chardev_file *file)
{
	ec_event_queue_clear(&file->events);
	pthread_mutex_destroy(&file->events_lock);
}

/*
 * Where the mode tells waiters, has the file's EC gone? Asked through the
 * file's own handle, as the fixed driver asks its revocable; in the
 * teaching modes nothing is asked (and nothing is dereferenced).
 */
static bool chardev_ec_gone(struct chardev_file *file, uint32_t op)
{
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_access acc;
	bool dead, gone;

	pthread_mutex_lock(&ctx->lock);
	dead = file->dead;
	pthread_mutex_unlock(&ctx->lock);
	if (dead)
		return true;
	if (!chardev_wakes_on_unplug(ctx, file->lc))
		return false;
	gone = !chardev_access_begin(file, op, &acc);
	chardev_access_end(file, &acc, gone ? -ENODEV : 0);
	return gone;
}

/* ---- poll handles ---- */

/* Pin the file's poll handle for a notification outside the lock; lock held. */
static void *chardev_poll_pin(struct chardev_file *file)
{
	if (!file->poll_handle || !file->ctx->config.ops.poll_notify)
		return NULL;
	file->poll_busy++;
	return file->poll_handle;
}

/* Lock held. */
static void chardev_poll_unpin(struct chardev_file *file)
{
	if (!--file->poll_busy)
		pthread_cond_broadcast(&file->ctx->cond);
}

/**
 * chardev_poll_swap() - replace a file's poll handle once it is idle.
 * @file:   the file; ctx->lock held (dropped while waiting)
 * @handle: the new handle, or NULL to drop it
 *
 * Return: the old handle (the caller destroys it after unlocking), or NULL.
 */
void *chardev_poll_swap(struct chardev_file *file, void *handle)
{
	struct chardev_ctx *ctx = file->ctx;
	void *old;

	while (file->poll_busy)
		pthread_cond_wait(&ctx->cond, &ctx->lock);
	old = file->poll_handle;
	file->poll_handle = handle;
	return old;
}

/**
 * chardev_collect_pollers() - pin the poll handles of matching files.
 * @ctx:   context; lock held
 * @match: which files
 * @key:   passed to @match
 *
 * A file already on another wake list is left to that one.
 *
 * Return: the wake list for chardev_wake_files().
 */
struct chardev_file *chardev_collect_pollers(struct chardev_ctx *ctx,
					     bool (*match)(const struct chardev_file *f,
							   const void *key),
					     const void *key)
{
	struct chardev_file *f, *list = NULL;

	for (f = ctx->files; f; f = f->next) {
		if (f->on_wake || !match(f, key) || !chardev_poll_pin(f))
			continue;
		f->on_wake = true;
		f->next_wake = list;
		list = f;
	}
	return list;
}

/**
 * chardev_wake_files() - notify a wake list's pollers, then unpin them.
 * @ctx:  context; lock NOT held
 * @list: from chardev_collect_pollers()
 */
void chardev_wake_files(struct chardev_ctx *ctx, struct chardev_file *list)
{
	struct chardev_file *f;

	if (!list)
		return;
	/* Pinned handles do not change, so reading them unlocked is safe. */
	for (f = list; f; f = f->next_wake)
		ctx->config.ops.poll_notify(f->poll_handle);
	pthread_mutex_lock(&ctx->lock);
	while (list) {
		f = list;
		list = f->next_wake;
		f->on_wake = false;
		chardev_poll_unpin(f);
	}
	pthread_mutex_unlock(&ctx->lock);
}

/* ---- parked reads ---- */

/** chardev_parked_on_file() - match the reads of the file @key. */
bool chardev_parked_on_file(const struct chardev_parked *p, const void *key)
{
	return p->file == key;
}

/** chardev_parked_on_lc() - match the reads of files on the EC instance @key. */
bool chardev_parked_on_lc(const struct chardev_parked *p, const void *key)
{
	return p->file->lc == key;
}

/** chardev_parked_any() - match every read. */
bool chardev_parked_any(const struct chardev_parked *p, const void *key)
{
	return true;
}

static bool chardev_parked_with_token(const struct chardev_parked *p, const void *key)
{
	return p->token == key;
}

/**
 * chardev_take_parked() - unlink matching parked reads.
 * @ctx:   context; lock held
 * @match: which reads
 * @key:   passed to @match
 * @max:   at most this many (0: all)
 *
 * Return: the reads taken, oldest first, linked by @next.
 */
struct chardev_parked *chardev_take_parked(struct chardev_ctx *ctx,
					   bool (*match)(const struct chardev_parked *p,
							 const void *key),
					   const void *key, unsigned int max)
{
	struct chardev_parked **pp = &ctx->parked, *taken = NULL, **tail = &taken, *p;
	unsigned int n = 0;

	while (*pp && (!max || n < max)) {
		p = *pp;
		if (!match(p, key)) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		p->next = NULL;
		*tail = p;
		tail = &p->next;
		n++;
	}
	return taken;
}

/**
 * chardev_complete_parked() - end taken reads with an error.
 * @ctx:    context; lock NOT held
 * @list:   from chardev_take_parked(); freed
 * @result: -errno for every read
 *
 * Return: how many reads were completed.
 */
unsigned int chardev_complete_parked(struct chardev_ctx *ctx, struct chardev_parked *list,
				     int result)
{
	struct chardev_parked *p;
	unsigned int n = 0;

	while (list) {
		p = list;
		list = p->next;
		if (result == -ENODEV)
			STAT_INC(ctx, read_enodev);
		chardev_parked_complete(ctx, p, result, NULL, 0);
		n++;
	}
	return n;
}

static void chardev_wake_reader(struct chardev_file *file);

/*
 * Park @p in first-park order, unless it must end now: -EBADF (file
 * released), -ENODEV (EC gone, daemon exiting), -EINTR (interrupted). The
 * interrupt is asked under the lock, so a chardev_read_cancel() either
 * comes later and finds the read parked, or is seen here.
 */
static int chardev_park_locked(struct chardev_parked *p)
{
	struct chardev_file *file = p->file;
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked **pp;

	if (file->released)
		return -EBADF;
	if (file->dead)
		return -ENODEV;
	if (ctx->config.ops.read_interrupted && ctx->config.ops.read_interrupted(p->token))
		return -EINTR;
	if (!p->seq) {
		/* First time: counted under the lock, before anyone can complete it. */
		p->seq = ++ctx->park_seq;
		STAT_INC(ctx, reads_parked);
		STAT_INC(ctx, parked_reads);
		TRACE(ctx, READ_PARKED, file->id, 0, 0, 0);
	}
	for (pp = &ctx->parked; *pp && (*pp)->seq < p->seq; pp = &(*pp)->next)
		;
	p->next = *pp;
	*pp = p;
	return 0;
}

/*
 * The one way to park a read (first time or again). After parking, an event
 * queued meanwhile found nobody to hand it to: look again now that the read
 * is visible. From then on @p may be completed by another thread at any
 * time, so the caller must not touch it.
 *
 * Return: CHARDEV_READ_PARKED, or -errno with @p still the caller's.
 */
static int chardev_park(struct chardev_parked *p)
{
	struct chardev_file *file = p->file;
	struct chardev_ctx *ctx = file->ctx;
	int ret;

	pthread_mutex_lock(&ctx->lock);
	ret = chardev_park_locked(p);
	pthread_mutex_unlock(&ctx->lock);
	if (ret)
		return ret;
	if (chardev_event_pending(file))
		chardev_wake_reader(file);
	return CHARDEV_READ_PARKED;
}

/* ---- events ---- */

/* Hand the oldest queued event to a parked read, or park it again. */
static void chardev_deliver(struct chardev_parked *p)
{
	struct chardev_file *file = p->file;
	struct chardev_ctx *ctx = file->ctx;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t len = p->len < sizeof(buf) ? p->len : sizeof(buf);
	int ret;

	TEST_POINT(ctx, DELIVER_HANDED, file);
	ret = chardev_pop_event(file, buf, len);
	if (ret == -EAGAIN) {
		/* A non-blocking read took it first: wait again, in the same place. */
		TEST_POINT(ctx, DELIVER_REPARK, file);
		ret = chardev_park(p);
		if (ret == CHARDEV_READ_PARKED)
			return;
	}
	if (ret >= 0) {
		STAT_INC(ctx, events_delivered);
		if (ret > 0)
			chardev_record(ctx, &(struct ec_rec){ .kind = EC_REC_EVENT, .data = buf,
							      .data_len = (uint32_t)ret });
	} else if (ret == -ENODEV)
		STAT_INC(ctx, read_enodev);
	chardev_parked_complete(ctx, p, ret, ret > 0 ? buf : NULL, ret > 0 ? (size_t)ret : 0);
}

/*
 * Something was queued for @file: wake its poller (outside the lock, the
 * handle pinned) and hand the event to its oldest parked read.
 */
static void chardev_wake_reader(struct chardev_file *file)
{
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked *p = NULL;
	void *poll_handle = NULL;

	pthread_mutex_lock(&ctx->lock);
	if (!file->released) {
		poll_handle = chardev_poll_pin(file);
		p = chardev_take_parked(ctx, chardev_parked_on_file, file, 1);
	}
	pthread_mutex_unlock(&ctx->lock);
	if (poll_handle) {
		ctx->config.ops.poll_notify(poll_handle);
		pthread_mutex_lock(&ctx->lock);
		chardev_poll_unpin(file);
		pthread_mutex_unlock(&ctx->lock);
	}
	if (p)
		chardev_deliver(p);
}

/**
 * chardev_event_notify() - the file's entry on the EC's notifier chain.
 * @nb: the file's notifier
 * @ev: the event the EC raised
 *
 * The driver's cros_ec_chardev_mkbp_event(): runs in the thread that
 * raised the event, with no EC lock held. It checks the EC through the
 * file's handle first (a revoked one drops the event, 006 lines 97-124; the
 * EC itself hands over the event, so nothing of it is dereferenced), then
 * queues by the file's mask under the file's lock and wakes a reader.
 */
void chardev_event_notify(struct ec_notifier *nb, const struct ec_event *ev)
{
	struct chardev_file *file = (struct chardev_file *)((char *)nb -
				    offsetof(struct chardev_file, notifier));
	uint32_t mask = atomic_load(&file->event_mask);
	struct chardev_access acc;
	bool present;
	int ret;

	present = chardev_access_begin(file, CHARDEV_TRACE_OP_NOTIFY, &acc) != NULL;
	chardev_access_end(file, &acc, present ? 0 : -ENODEV);
	if (!present || ev->type >= 32 || !(mask & (1u << ev->type)))
		return;
	pthread_mutex_lock(&file->events_lock);
	ret = ec_event_queue_push(&file->events, ev);
	pthread_mutex_unlock(&file->events_lock);
	if (!ret)
		chardev_wake_reader(file);
}

void chardev_notify_file(struct chardev_file *file, const struct ec_event *ev)
{
	chardev_event_notify(&file->notifier, ev);
}

/* The version text: the one read path that follows the EC pointer. */
static int chardev_read_version(struct chardev_file *file, size_t want, void *buf,
				size_t *outlen)
{
	char text[CHARDEV_READ_MAX];
	struct chardev_access acc;
	struct ec *ec;
	int ret;

	/* Kernel: "if (*offset != 0) return 0;" comes before the device. */
	if (atomic_load(&file->version_done))
		return 0;
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READ, &acc);
	ret = ec ? ec_get_version_text(ec, text, sizeof(text)) : -ENODEV;
	chardev_access_end(file, &acc, ret);
	if (ret < 0)
		return ret;
	if ((size_t)ret < want)
		want = (size_t)ret;
	memcpy(buf, text, want);
	*outlen = want;
	atomic_store(&file->version_done, true);
	return 0;
}

/* ---- file operations ---- */

int chardev_read(struct chardev_file *file, size_t len, bool nonblock, void *token,
		 void *buf, size_t *outlen)
{
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked *p;
	size_t want = len < CHARDEV_READ_MAX ? len : CHARDEV_READ_MAX;
	int ret;

	STAT_INC(ctx, reads);
	*outlen = 0;
	if (!atomic_load(&file->event_mask)) {
		ret = chardev_read_version(file, want, buf, outlen);
		goto out;
	}

	/* Events from here on: the file's own queue, as in the driver. */
	chardev_tick(ctx);
	if (!len) {
		/* Zero length does no I/O; only O_NONBLOCK on empty says so. */
		ret = nonblock && !chardev_event_pending(file) ? -EAGAIN : 0;
		goto out;
	}
	ret = chardev_pop_event(file, buf, want);
	if (ret >= 0) {
		STAT_INC(ctx, events_delivered);
		chardev_record(ctx, &(struct ec_rec){ .kind = EC_REC_EVENT, .data = buf,
						      .data_len = (uint32_t)ret });
		*outlen = (size_t)ret;
		return 0;
	}
	if (ret != -EAGAIN)
		goto out;
	/*
	 * Nothing will ever arrive from a gone EC: say so, where the mode
	 * does - to a non-blocking read too. poll() reports POLLERR then, and
	 * an event loop that read EAGAIN after it would poll and read again
	 * for ever.
	 */
	if (chardev_ec_gone(file, CHARDEV_TRACE_OP_READ)) {
		ret = -ENODEV;
		goto out;
	}
	if (nonblock)
		goto out;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->file = file;
	p->token = token;
	p->len = len;
	p->file_id = file->id;
	ret = chardev_park(p);
	if (ret == CHARDEV_READ_PARKED)
		return ret;
	free(p);

out:
	if (ret == -ENODEV)
		STAT_INC(ctx, read_enodev);
	return ret;
}

void chardev_read_cancel(struct chardev_ctx *ctx, void *token)
{
	struct chardev_parked *p;

	pthread_mutex_lock(&ctx->lock);
	p = chardev_take_parked(ctx, chardev_parked_with_token, token, 1);
	pthread_mutex_unlock(&ctx->lock);
	chardev_complete_parked(ctx, p, -EINTR);
}

unsigned int chardev_poll(struct chardev_file *file, void *poll_handle)
{
	struct chardev_ctx *ctx = file->ctx;
	unsigned int mask = 0;
	void *old = NULL;

	pthread_mutex_lock(&ctx->lock);
	if (poll_handle && poll_handle != file->poll_handle)
		old = chardev_poll_swap(file, poll_handle);
	pthread_mutex_unlock(&ctx->lock);
	if (old && ctx->config.ops.poll_destroy)
		ctx->config.ops.poll_destroy(old);

	chardev_tick(ctx);
	if (chardev_event_pending(file))
		mask |= CHARDEV_POLLIN | CHARDEV_POLLRDNORM;
	if (chardev_ec_gone(file, CHARDEV_TRACE_OP_POLL))
		mask |= CHARDEV_POLLERR;
	return mask;
}

