// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_read.c - read(), poll() and MKBP event delivery to parked reads
 * (see chardev.h).
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "chardev_internal.h"
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

/* Hand the oldest queued event to a parked read, or park it again. */
static void chardev_deliver(struct chardev_file *file, struct chardev_parked *p)
{
	struct chardev_ctx *ctx = file->ctx;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t len = p->len < sizeof(buf) ? p->len : sizeof(buf);
	int ret;

	ret = chardev_pop_event(file, buf, len);
	if (ret == -EAGAIN) {
		/* Another reader took it first: wait again, unless told to stop. */
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
	chardev_parked_complete(ctx, p, ret, ret > 0 ? buf : NULL, ret > 0 ? (size_t)ret : 0);
}

/* Claim the oldest parked read of @file (ctx->lock held). */
struct chardev_parked *chardev_claim_parked(struct chardev_file *file)
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

/* Something was queued for @file: wake its poller and one parked read. */
static void chardev_wake_reader(struct chardev_file *file)
{
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
		*outlen = (size_t)ret;
		return 0;
	}
	if (ret != -EAGAIN || nonblock)
		goto out;
	/* Nothing will ever arrive from a gone EC: say so, where the mode does. */
	if (chardev_ec_gone(file, CHARDEV_TRACE_OP_READ)) {
		ret = -ENODEV;
		goto out;
	}

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->file = file;
	p->token = token;
	p->len = len;
	p->file_id = file->id;
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
		/* Under the lock: nobody can complete it before it is counted. */
		STAT_INC(ctx, reads_parked);
		STAT_INC(ctx, parked_reads);
		TRACE(ctx, READ_PARKED, file->id, 0, 0, 0);
	}
	pthread_mutex_unlock(&ctx->lock);
	if (ret != CHARDEV_READ_PARKED) {
		free(p);
		goto out;
	}

	/*
	 * An event queued between the pop above and parking found nobody to
	 * wake: look again now that we are visible. From here on @token may
	 * already be completed by another thread, so it is not touched.
	 */
	if (chardev_event_pending(file))
		chardev_wake_reader(file);
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
	chardev_parked_complete(ctx, p, -EINTR, NULL, 0);
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
	unsigned int mask = 0;
	void *old = NULL;

	pthread_mutex_lock(&ctx->lock);
	if (poll_handle && poll_handle != file->poll_handle) {
		old = file->poll_handle;
		file->poll_handle = poll_handle;
	}
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
