// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * chardev_ioctl.c - the v2 ioctls under CUSE's retry protocol (see chardev.h).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "chardev_internal.h"
#include "ec/ec.h"

/* The kernel's cros_ec_wait_until_complete(): polls and their interval. */
#define CHARDEV_COMMS_RETRIES	50
#define CHARDEV_COMMS_POLL_NS	10000000ull


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
 * An answer of IN_PROGRESS never reaches the client as such: the kernel's
 * cros_ec_send_command() polls GET_COMMS_STATUS every 10 ms, at most 50
 * times, until the EC no longer says PROCESSING, and gives the command
 * that poll's result and length. The command's own answer is never fetched
 * (RESEND_RESPONSE is the client's to send). Run inside the command's
 * access, as the kernel holds the device's lock across it.
 */
static int chardev_wait_until_complete(struct chardev_file *file, struct ec *ec,
				       uint32_t *ec_status)
{
	const struct ec_clock *clock = file->ctx->config.clock;
	struct ec_response_get_comms_status st;
	int ret, i;

	for (i = 0; i < CHARDEV_COMMS_RETRIES; i++) {
		if (clock && clock->sleep_ns)
			clock->sleep_ns(clock->ctx, CHARDEV_COMMS_POLL_NS);
		else
			mono_sleep_ns(CHARDEV_COMMS_POLL_NS);
		memset(&st, 0, sizeof(st));
		ret = ec_host_command(ec, EC_CMD_GET_COMMS_STATUS, 0, NULL, 0, &st, sizeof(st),
				      ec_status);
		if (ret < 0 || *ec_status != EC_RES_SUCCESS)
			return ret;
		if (ret == 0)
			return -EPROTO;
		if (!(st.flags & EC_COMMS_STATUS_PROCESSING))
			return ret;
	}
	return -EAGAIN;
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
	struct chardev_access acc;
	struct ec_cmd_effects fx;
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

	ec = chardev_access_begin(file, hdr.command, &acc);
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
	TEST_POINT(file->ctx, XCMD_ENTER, file);
	/*
	 * The EC says whether this command reset it: a count read around the
	 * call would also move for another file's reboot that reached the EC
	 * while this command waited for it, crediting that reboot here.
	 */
	ret = ec_host_command_effects(ec, hdr.command, hdr.version,
				      (const unsigned char *)in + hdr_len, hdr.outsize,
				      reply + hdr_len, insize, &ec_status, &fx);
	if (fx.fault != EC_FAULT_NONE) {
		STAT_INC(file->ctx, faults_injected);
		TRACE(file->ctx, EC_FAULT, file->id, hdr.command, fx.fault, ret);
	}
	if (ret >= 0 && ec_status == EC_RES_IN_PROGRESS) {
		/* The driver's buffer, given back, still holds the request. */
		memcpy(reply + hdr_len, (const unsigned char *)in + hdr_len,
		       hdr.outsize < insize ? hdr.outsize : insize);
		ret = chardev_wait_until_complete(file, ec, &ec_status);
	}
	chardev_access_end(file, &acc, ret);
	chardev_record(file->ctx, &(struct ec_rec){
		.kind = EC_REC_XCMD, .command = hdr.command, .version = hdr.version,
		.result = ec_status, .ret = ret, .out_size = hdr.outsize, .in_size = hdr.insize,
		.req_known = true, .req = (const uint8_t *)in + hdr_len,
		.data_len = ret > 0 ? (uint32_t)ret : 0, .data = reply + hdr_len });
	/*
	 * A cold reset takes the device away and back. Only now, with this
	 * access ended, since the unplug is one this access would hold up.
	 * The reply still goes out, but only after the unplug has started and
	 * been counted: the EC answers, then resets, so no client may see the
	 * old EC after a SUCCESS it was given, and the reboot's sender finds
	 * it counted as soon as it has the answer.
	 */
	if (fx.cold_resets)
		chardev_cold_reboot(file->ctx, file->lc, file->id, fx.cold_resets);
	/* The same for an injected unplug: the answer goes out after it. */
	if (fx.fault == EC_FAULT_UNPLUG)
		chardev_fault_unplug(file->ctx, file->lc);
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
	chardev_access_end(file, &acc, ret);
	chardev_ioctl_error(res, ret);
}

/*
 * READMEM: its number encodes the whole 264-byte struct: one retry. As in
 * the driver, the EC comes first (ENODEV, or ENOTTY without direct
 * memory-map access) and the argument after it, so the first step asks the
 * EC before asking the kernel for the argument.
 */
static void chardev_ioctl_readmem(struct chardev_file *file, uint64_t arg, const void *in,
				  size_t in_len, size_t out_len, struct chardev_ioctl_result *res)
{
	const size_t arg_len = sizeof(struct cros_ec_readmem_v2);
	struct cros_ec_readmem_v2 *mem;
	struct chardev_access acc;
	struct ec *ec;
	int ret;

	if (in_len == 0 && out_len == 0) {
		ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READMEM, &acc);
		ret = !ec ? -ENODEV : !ec_memmap_direct(ec) ? -ENOTTY : 0;
		chardev_access_end(file, &acc, ret);
		if (ret)
			chardev_ioctl_error(res, ret);
		else
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
	ec = chardev_access_begin(file, CHARDEV_TRACE_OP_READMEM, &acc);
	if (!ec)
		ret = -ENODEV;
	else if (mem->bytes > sizeof(mem->buffer))
		ret = -EINVAL;
	else
		ret = ec_read_memmap(ec, mem->offset, mem->bytes, mem->buffer);
	chardev_access_end(file, &acc, ret);
	if (ec && ret != -EINVAL)
		chardev_record(file->ctx, &(struct ec_rec){
			.kind = EC_REC_READMEM, .offset = mem->offset, .in_size = mem->bytes,
			.ret = ret, .data_len = ret > 0 ? (uint32_t)ret : 0, .data = mem->buffer });
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

/*
 * EVENTMASK: the argument value is the mask; no memory is transferred. The
 * mask is the file's own ("priv->event_mask = arg"), so it works, and
 * answers 0, whether or not the EC is still there.
 */
static void chardev_ioctl_eventmask(struct chardev_file *file, uint64_t arg,
				    struct chardev_ioctl_result *res)
{
	atomic_store(&file->event_mask, (uint32_t)arg);
	res->action = CHARDEV_IOCTL_REPLY;
	res->ret = 0;
}

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

void chardev_ioctl_result_free(struct chardev_ioctl_result *res)
{
	free(res->out);
	res->out = NULL;
	res->out_len = 0;
}
