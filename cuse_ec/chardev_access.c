// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_access.c - the daemon's own record of what the lifecycle claims
 * are about: every file access to the EC and every completion of a parked
 * read, in the trace and in the gauges (see chardev_trace.h).
 *
 * access-begin is recorded before lifecycle_access() and access-end before
 * lifecycle_release(). So for an access that held the EC, the trace shows
 * access-end ahead of the revoke-done of a revoke that had to wait for it:
 * the revoke cannot complete before the release, which follows the record.
 */
#include "config.h"

#include <stdlib.h>

#include "chardev_internal.h"

/**
 * chardev_access_begin() - start a file access to the EC.
 * @file: the file
 * @op:   the EC command, or CHARDEV_TRACE_OP_* for other accesses
 * @acc:  the access, for chardev_access_end()
 *
 * Return: the EC, or NULL when it is gone; pair with chardev_access_end()
 * either way, in the same thread.
 */
struct ec *chardev_access_begin(struct chardev_file *file, uint32_t op,
				struct chardev_access *acc)
{
	struct chardev_ctx *ctx = file->ctx;

	acc->op = op;
	acc->begin_seq = TRACE(ctx, ACCESS_BEGIN, file->id, op, 0, 0);
	acc->ec = lifecycle_access(file->ref);
	if (acc->ec)
		STAT_INC(ctx, inflight_accesses);
	return acc->ec;
}

/**
 * chardev_access_end() - end an access started by chardev_access_begin().
 * @file: the file
 * @acc:  the access
 * @ret:  its outcome (>= 0 or -errno), for the trace
 */
void chardev_access_end(struct chardev_file *file, struct chardev_access *acc, int ret)
{
	struct chardev_ctx *ctx = file->ctx;

	if (acc->ec) {
		/*
		 * Still inside: a revoke that began meanwhile waits for us.
		 * Counted before the release, so its completion sees it.
		 */
		if (atomic_load(&ctx->revoking) == file->lc)
			atomic_fetch_add(&ctx->revoke_waited, 1);
		STAT_DEC(ctx, inflight_accesses);
	}
	TRACE(ctx, ACCESS_END, file->id, acc->op, acc->begin_seq, ret);
	lifecycle_release(file->ref);
}

/**
 * chardev_parked_complete() - finish a parked read, which left ctx->parked.
 * @ctx:  context
 * @p:    the parked read; freed here
 * @ret:  bytes in @data, or -errno
 * @data: the event, or NULL
 * @len:  its length
 */
void chardev_parked_complete(struct chardev_ctx *ctx, struct chardev_parked *p, int ret,
			     const void *data, size_t len)
{
	TRACE(ctx, READ_WOKEN, p->file_id, 0, ret, 0);
	STAT_DEC(ctx, parked_reads);
	ctx->config.ops.read_complete(p->token, ret, data, len);
	free(p);
}
