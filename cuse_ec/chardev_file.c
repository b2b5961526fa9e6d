// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_file.c - open() and release() of /dev/cros_ec (see chardev.h).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "chardev_internal.h"
#include "ec/ec.h"


int chardev_open(struct chardev_ctx *ctx, struct chardev_file **out)
{
	struct chardev_access acc;
	struct chardev_file *file;
	struct ec *ec;
	int ret;

	file = calloc(1, sizeof(*file));
	if (!file)
		return -ENOMEM;
	if (pthread_mutex_init(&file->events_lock, NULL)) {
		free(file);
		return -ENOMEM;
	}
	file->ctx = ctx;
	file->id = atomic_fetch_add(&ctx->next_file_id, 1) + 1;
	file->notifier.call = chardev_event_notify;
	ec_event_queue_init(&file->events);
	atomic_init(&file->event_mask, 0);
	atomic_init(&file->version_done, false);

	pthread_mutex_lock(&ctx->lock);
	file->lc = chardev_present(ctx);
	if (!file->lc) {
		pthread_mutex_unlock(&ctx->lock);
		ret = -ENODEV;
		goto err_free;
	}
	ret = lifecycle_attach(file->lc, &file->ref);
	if (ret) {
		pthread_mutex_unlock(&ctx->lock);
		goto err_free;
	}
	pthread_mutex_unlock(&ctx->lock);

	/*
	 * The driver's blocking_notifier_chain_register() on the device's
	 * event_notifier. The EC may vanish right here; then the access says so.
	 */
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_OPEN, &acc);
	ret = ec ? ec_notifier_register(ec, &file->notifier) : -ENODEV;
	chardev_access_end(file, &acc, ret);
	if (ret)
		goto err_detach;

	pthread_mutex_lock(&ctx->lock);
	file->next = ctx->files;
	if (ctx->files)
		ctx->files->prev = file;
	ctx->files = file;
	/* An unplug that ran meanwhile did not see this file: mark it now. */
	if (chardev_wakes_on_unplug(ctx, file->lc) && ctx->current != file->lc)
		file->dead = true;
	pthread_mutex_unlock(&ctx->lock);

	STAT_INC(ctx, opens);
	STAT_INC(ctx, open_files);
	TRACE(ctx, OPEN, file->id, 0, 0, 0);
	*out = file;
	return 0;

err_detach:
	lifecycle_detach(file->ref);
err_free:
	TRACE(ctx, OPEN, file->id, 0, ret, 0);
	chardev_file_events_free(file);
	free(file);
	if (ret == -ENODEV)
		STAT_INC(ctx, open_enodev);
	return ret;
}

void chardev_release(struct chardev_file *file)
{
	struct chardev_ctx *ctx = file->ctx;
	struct chardev_parked *woken;
	struct chardev_access acc;
	struct chardev_retired *r;
	void *poll_handle;
	struct ec *ec;
	bool orphaned = false;
	uint64_t id = file->id;	/* an orphaned file may be freed by the reaper */

	pthread_mutex_lock(&ctx->lock);
	file->released = true;
	if (file->prev)
		file->prev->next = file->next;
	else
		ctx->files = file->next;
	if (file->next)
		file->next->prev = file->prev;
	woken = chardev_take_parked(ctx, chardev_parked_on_file, file, 0);
	/* Waits for a notification of the handle still running elsewhere. */
	poll_handle = chardev_poll_swap(file, NULL);
	pthread_mutex_unlock(&ctx->lock);

	chardev_complete_parked(ctx, woken, -EBADF);
	if (poll_handle && ctx->config.ops.poll_destroy)
		ctx->config.ops.poll_destroy(poll_handle);

	/*
	 * The driver's blocking_notifier_chain_unregister() on
	 * ec_dev->event_notifier: it follows the EC pointer. The fixed driver
	 * skips it when the access fails (006 lines 164-172); in unsafe mode
	 * after an unplug it touches freed memory, the pre-fix driver's bug.
	 */
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_RELEASE, &acc);
	if (ec)
		ec_notifier_unregister(ec, &file->notifier);
	chardev_access_end(file, &acc, ec ? 0 : -ENODEV);

	if (!ec) {
		/*
		 * Revoked: our entry stays on the chain of an EC that is being
		 * retired. Until the revoke is complete a command still in
		 * flight may raise an event and call it, so keep the file until
		 * then; the EC's destruction ends the chain.
		 */
		pthread_mutex_lock(&ctx->lock);
		for (r = ctx->retired; r; r = r->next) {
			if (r->lc == file->lc && !r->complete) {
				file->next_orphan = r->orphans;
				r->orphans = file;
				orphaned = true;
				break;
			}
		}
		pthread_mutex_unlock(&ctx->lock);
	}

	STAT_INC(ctx, releases);
	STAT_DEC(ctx, open_files);
	TRACE(ctx, RELEASE, id, 0, 0, 0);
	if (!orphaned) {
		lifecycle_detach(file->ref);
		chardev_file_events_free(file);
		free(file);
	}
	chardev_reap(ctx);
}
