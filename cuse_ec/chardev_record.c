// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_record.c - recording a session (--record): every host command
 * and memory-map read the clients make, the events their read()s get, and
 * the device's unplugs and plugs, one line each as they happen, in the
 * format cuse_ec-recording(5) describes.
 *
 * The daemon serves several files at once, so one lock orders the records
 * and the time is read under it: the file's order is the daemon's order,
 * and times never go backwards in it. Writes are buffered by stdio and
 * flushed at each unplug and at stop. A write that fails is counted
 * (record_write_errors) and logged once; the session goes on.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "common/common.h"
#include "chardev_internal.h"

uint64_t chardev_record_now(struct chardev_ctx *ctx)
{
	const struct ec_clock *clock = ctx->config.clock;

	return clock ? clock->now_ns(clock->ctx) : mono_now_ns();
}

void chardev_record(struct chardev_ctx *ctx, struct ec_rec *r)
{
	int ret;

	if (!ctx->config.record)
		return;
	pthread_mutex_lock(&ctx->record_lock);
	r->t_ns = chardev_record_now(ctx) - ctx->record_t0;
	ret = ec_rec_write(ctx->config.record_format, r, ctx->config.record);
	if (ret > 0) {
		STAT_INC(ctx, records_written);
	} else if (ret < 0) {
		STAT_INC(ctx, record_write_errors);
		if (!ctx->record_failed) {
			ctx->record_failed = true;
			chardev_log(ctx, CHARDEV_LOG_ERR,
				    "--record: writing failed (%s); later records may be lost",
				    strerror(-ret));
		}
	}
	pthread_mutex_unlock(&ctx->record_lock);
}

void chardev_record_flush(struct chardev_ctx *ctx)
{
	if (!ctx->config.record)
		return;
	pthread_mutex_lock(&ctx->record_lock);
	if (fflush(ctx->config.record) == EOF) {
		STAT_INC(ctx, record_write_errors);
		if (!ctx->record_failed) {
			ctx->record_failed = true;
			chardev_log(ctx, CHARDEV_LOG_ERR, "--record: flushing failed (%s)",
				    strerror(errno));
		}
	}
	pthread_mutex_unlock(&ctx->record_lock);
}
