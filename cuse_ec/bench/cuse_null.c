// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_null.c - the benchmark floor: a CUSE server that speaks the same
 * /dev/cros_ec ioctl ABI with the same retry protocol and the same
 * multithreaded libfuse loop as cuse_ec, but does no work behind it (no EC
 * model, no lifecycle, no locks). cuse_ec's latency is compared with this.
 *
 *   cuse_null [--name=NAME]     (foreground; SIGTERM/SIGINT end it)
 */
#define FUSE_USE_VERSION 314
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

#include "cros_ec/cros_ec_dev.h"

#define NULL_MAX_PAYLOAD 536	/* a typical EC's max response */

static void null_open(fuse_req_t req, struct fuse_file_info *fi)
{
	fi->direct_io = 1;
	fi->nonseekable = 1;
	fuse_reply_open(req, fi);
}

static void null_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	static const char text[] = "1.0.0\nnull\nnull\nread-write\n";

	fuse_reply_buf(req, text, size < sizeof(text) - 1 ? size : sizeof(text) - 1);
}

static void null_retry(fuse_req_t req, void *arg, size_t in_len, size_t out_len)
{
	struct iovec in = { arg, in_len }, out = { arg, out_len };

	fuse_reply_ioctl_retry(req, &in, 1, out_len ? &out : NULL, out_len ? 1 : 0);
}

/* XCMD in the same three steps as cuse_ec; HELLO answered, rest "unknown". */
static void null_xcmd(fuse_req_t req, void *arg, const void *in_buf, size_t in_bufsz,
		      size_t out_bufsz)
{
	unsigned char reply[CROS_EC_XCMD_HEADER_SIZE + NULL_MAX_PAYLOAD] = { 0 };
	struct cros_ec_command_v2 hdr;
	uint32_t in_data = 0, insize;
	int ret = 0;

	if (!in_bufsz) {
		null_retry(req, arg, CROS_EC_XCMD_HEADER_SIZE, 0);
		return;
	}
	memcpy(&hdr, in_buf, CROS_EC_XCMD_HEADER_SIZE);
	if (hdr.outsize > CROS_EC_MAX_XCMD_PAYLOAD || hdr.insize > CROS_EC_MAX_XCMD_PAYLOAD) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (!out_bufsz) {
		null_retry(req, arg, CROS_EC_XCMD_HEADER_SIZE + hdr.outsize,
			   CROS_EC_XCMD_HEADER_SIZE + hdr.insize);
		return;
	}
	if (hdr.outsize > NULL_MAX_PAYLOAD) {
		fuse_reply_err(req, EMSGSIZE);
		return;
	}
	insize = hdr.insize < NULL_MAX_PAYLOAD ? hdr.insize : NULL_MAX_PAYLOAD;
	hdr.result = 1;
	if (hdr.command == 1 && hdr.outsize >= 4 && insize >= 4) {
		memcpy(&in_data, (const unsigned char *)in_buf + CROS_EC_XCMD_HEADER_SIZE, 4);
		in_data += 0x01020304u;
		memcpy(reply + CROS_EC_XCMD_HEADER_SIZE, &in_data, 4);
		hdr.result = 0;
		ret = 4;
	}
	hdr.insize = insize;
	memcpy(reply, &hdr, CROS_EC_XCMD_HEADER_SIZE);
	fuse_reply_ioctl(req, ret, reply, CROS_EC_XCMD_HEADER_SIZE + insize);
}

static void null_ioctl(fuse_req_t req, int cmd, void *arg, struct fuse_file_info *fi,
		       unsigned int flags, const void *in_buf, size_t in_bufsz, size_t out_bufsz)
{
	struct cros_ec_readmem_v2 mem;

	switch ((unsigned int)cmd) {
	case CROS_EC_DEV_IOCXCMD_V2:
		null_xcmd(req, arg, in_buf, in_bufsz, out_bufsz);
		return;
	case CROS_EC_DEV_IOCRDMEM_V2:
		if (!in_bufsz) {
			null_retry(req, arg, sizeof(mem), sizeof(mem));
			return;
		}
		memcpy(&mem, in_buf, sizeof(mem));
		if (mem.bytes > sizeof(mem.buffer)) {
			fuse_reply_err(req, EINVAL);
			return;
		}
		memset(mem.buffer, 0, sizeof(mem.buffer));
		if (mem.offset == 0x20 && mem.bytes == 2)
			memcpy(mem.buffer, "EC", 2);
		fuse_reply_ioctl(req, (int)mem.bytes, &mem, sizeof(mem));
		return;
	case CROS_EC_DEV_IOCEVENTMASK_V2:
		fuse_reply_ioctl(req, 0, NULL, 0);
		return;
	default:
		fuse_reply_err(req, ENOTTY);
	}
}

static void null_release(fuse_req_t req, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static const struct cuse_lowlevel_ops null_ops = {
	.open = null_open,
	.read = null_read,
	.ioctl = null_ioctl,
	.release = null_release,
};

/**
 * main() - serve /dev/NAME until a signal.
 * @argc: argument count
 * @argv: optional --name=NAME
 *
 * Return: 0, 1 on a setup error, 2 on bad usage.
 */
int main(int argc, char **argv)
{
	char devname[96] = "DEVNAME=cros_ec";
	const char *dev_info_argv[] = { devname };
	struct cuse_info ci = { 0 };
	struct fuse_loop_config *config;
	struct fuse_session *se;
	char *fuse_argv[] = { argv[0], "-f", NULL };
	int multithreaded, ret;

	if (argc > 2 || (argc == 2 && (strncmp(argv[1], "--name=", 7) || !argv[1][7] ||
				       strlen(argv[1]) > 70 || strchr(argv[1] + 7, '/')))) {
		fprintf(stderr, "usage: %s [--name=NAME]\n", argv[0]);
		return 2;
	}
	if (argc == 2)
		snprintf(devname, sizeof(devname), "DEVNAME=%s", argv[1] + 7);
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info_argv;
	ci.flags = CUSE_UNRESTRICTED_IOCTL;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	se = cuse_lowlevel_setup(2, fuse_argv, &ci, &null_ops, &multithreaded, NULL);
	if (!se)
		return 1;
	config = fuse_loop_cfg_create();
	ret = config ? fuse_session_loop_mt(se, config) : -ENOMEM;
	fuse_loop_cfg_destroy(config);
	cuse_lowlevel_teardown(se);
	return ret < 0 ? 1 : 0;
}
