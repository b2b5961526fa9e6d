// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_read.c - read(), poll() and MKBP event delivery to parked reads
 * (see chardev.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "chardev_internal.h"
#include "ec/ec.h"


/* Hand the oldest queued event to a parked read, or park it again. */
static void chardev_deliver(struct chardev_file *file, struct chardev_parked *p)
{
	struct chardev_ctx *ctx = file->ctx;
	unsigned char buf[CHARDEV_READ_MAX];
	size_t len = p->len < sizeof(buf) ? p->len : sizeof(buf);
	struct chardev_access acc;
	struct ec *ec;
	int ret;

	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READ, &acc);
	ret = ec ? ec_subscriber_pop(ec, file->sub, buf, len) : -ENODEV;
	chardev_access_end(file, &acc, ret);

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

/* The EC queued an event for this file (runs in the thread that caused it). */
void chardev_event_notify(void *arg)
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
	struct chardev_access acc;
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
		ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READ, &acc);
		ret = ec ? ec_get_version_text(ec, text, sizeof(text)) : -ENODEV;
		chardev_access_end(file, &acc, ret);
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
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READ, &acc);
	ret = ec ? ec_subscriber_pop(ec, file->sub, buf, want) : -ENODEV;
	chardev_access_end(file, &acc, ret);
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
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READ, &acc);
	if (ec)
		pending = ec_subscriber_pending(ec, file->sub);
	chardev_access_end(file, &acc, pending);
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
	void *old = NULL;
	bool dead, pending = false;
	struct chardev_access acc;
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

	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_POLL, &acc);
	if (ec)
		pending = ec_subscriber_pending(ec, file->sub);
	chardev_access_end(file, &acc, ec ? pending : -ENODEV);
	if (!ec)
		return CHARDEV_POLLERR | CHARDEV_POLLHUP;
	return pending ? CHARDEV_POLLIN | CHARDEV_POLLRDNORM : 0;
}

