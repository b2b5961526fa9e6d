// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_mini - the smallest CUSE device that exercises what the real
 * cros_ec daemon depends on: a character device created through
 * /dev/cuse, a plain read, and an unrestricted ioctl whose payload size is
 * only known after its header has been fetched (the retry protocol).
 *
 * It exists so the user-mode-linux harness is proven against a real
 * kernel before the project's own daemon is.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <cuse_lowlevel.h>
#include <fuse_opt.h>

#include "cuse_mini.h"

#define CUSE_MINI_NAME_MAX 64

/**
 * struct cuse_mini_opts - command line of the daemon
 * @name: device name (the node becomes /dev/@name); owned by fuse_opt
 * @show_help: --help was given
 */
struct cuse_mini_opts {
	char *name;
	int show_help;
};

enum {
	CUSE_MINI_KEY_HELP,
};

static const struct fuse_opt cuse_mini_opt_spec[] = {
	{ "--name=%s", offsetof(struct cuse_mini_opts, name), 0 },
	FUSE_OPT_KEY("-h", CUSE_MINI_KEY_HELP),
	FUSE_OPT_KEY("--help", CUSE_MINI_KEY_HELP),
	FUSE_OPT_END
};

static void cuse_mini_usage(FILE *out, const char *argv0)
{
	fprintf(out,
		"Usage: %s --name=NAME [-f] [-d] [-s]\n"
		"Create the test character device /dev/NAME through CUSE.\n"
		"  --name=NAME  device name: 1..%d of [A-Za-z0-9_-]\n"
		"  -f           stay in the foreground\n"
		"  -d           print FUSE debug output (implies -f)\n"
		"  -s           single-threaded\n",
		argv0, CUSE_MINI_NAME_MAX);
}

static int cuse_mini_opt_proc(void *data, const char *arg, int key,
			      struct fuse_args *outargs)
{
	struct cuse_mini_opts *opts = data;

	if (key == CUSE_MINI_KEY_HELP) {
		opts->show_help = 1;
		return 0;
	}
	/* Everything else (-f, -d, -s, ...) is libfuse's to judge. */
	return 1;
}

/*
 * The name ends up in a path under /dev and in the CUSE "DEVNAME=" string,
 * so only a conservative character set is let through.
 */
static int cuse_mini_check_name(const char *name)
{
	size_t len, i;

	if (!name)
		return -EINVAL;
	len = strlen(name);
	if (len == 0 || len > CUSE_MINI_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return -EINVAL;
	}
	return 0;
}

static void cuse_mini_open(fuse_req_t req, struct fuse_file_info *fi)
{
	fuse_reply_open(req, fi);
}

static void cuse_mini_read(fuse_req_t req, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	static const char greeting[] = CUSE_MINI_GREETING;
	size_t len = sizeof(greeting) - 1;

	/*
	 * CUSE passes no file position (off is always 0): every read returns
	 * the greeting afresh, like a stream device would.
	 */
	if (size < len)
		len = size;
	fuse_reply_buf(req, greeting, len);
}

/*
 * Third and last round of the ioctl: the whole request is in @in_buf and
 * the kernel will copy our reply back over the caller's buffer.
 */
static void cuse_mini_xform_reply(fuse_req_t req,
				  const struct cuse_mini_xfer *in,
				  size_t total)
{
	struct cuse_mini_xfer *out;
	uint8_t key = (uint8_t)in->key;
	uint32_t i;

	out = malloc(total);
	if (!out) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	out->len = in->len;
	out->key = in->key;
	for (i = 0; i < in->len; i++)
		out->data[i] = in->data[in->len - 1 - i] ^ key;
	fuse_reply_ioctl(req, (int)in->len, out, total);
	free(out);
}

static void cuse_mini_ioctl(fuse_req_t req, int cmd, void *arg,
			    struct fuse_file_info *fi, unsigned int flags,
			    const void *in_buf, size_t in_bufsz,
			    size_t out_bufsz)
{
	const struct cuse_mini_xfer *hdr = in_buf;
	struct iovec in_iov, out_iov;
	size_t total;

	/* libfuse 3.14 hands the number over as int: compare unsigned. */
	if ((unsigned int)cmd != CUSE_MINI_IOC_XFORM) {
		fuse_reply_err(req, ENOTTY);
		return;
	}
	if (flags & FUSE_IOCTL_COMPAT) {
		fuse_reply_err(req, ENOSYS);
		return;
	}

	/* Round 1: nothing fetched yet; ask for the header. */
	if (in_bufsz == 0) {
		in_iov.iov_base = arg;
		in_iov.iov_len = sizeof(*hdr);
		fuse_reply_ioctl_retry(req, &in_iov, 1, NULL, 0);
		return;
	}
	if (in_bufsz < sizeof(*hdr)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	if (hdr->len > CUSE_MINI_MAX_PAYLOAD) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	total = sizeof(*hdr) + hdr->len;

	/* Round 2: header known; ask for all of it, in and out. */
	if (out_bufsz == 0) {
		in_iov.iov_base = arg;
		in_iov.iov_len = total;
		out_iov = in_iov;
		fuse_reply_ioctl_retry(req, &in_iov, 1, &out_iov, 1);
		return;
	}

	/*
	 * Round 3.  The caller may have changed the header between rounds;
	 * asking again could loop forever, so a mismatch is an error.
	 */
	if (in_bufsz != total || out_bufsz != total) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	cuse_mini_xform_reply(req, hdr, total);
}

static const struct cuse_lowlevel_ops cuse_mini_ops = {
	.open = cuse_mini_open,
	.read = cuse_mini_read,
	.ioctl = cuse_mini_ioctl,
};

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct cuse_mini_opts opts = { 0 };
	char devname_arg[sizeof("DEVNAME=") + CUSE_MINI_NAME_MAX];
	const char *dev_info_argv[] = { devname_arg };
	struct cuse_info ci = { 0 };
	int ret = 2;

	if (fuse_opt_parse(&args, &opts, cuse_mini_opt_spec,
			   cuse_mini_opt_proc) == -1) {
		fprintf(stderr, "cuse_mini: cannot parse the command line\n");
		goto out;
	}
	if (opts.show_help) {
		cuse_mini_usage(stdout, argv[0]);
		ret = 0;
		goto out;
	}
	if (!opts.name) {
		fprintf(stderr, "cuse_mini: --name=NAME is required\n");
		cuse_mini_usage(stderr, argv[0]);
		goto out;
	}
	if (cuse_mini_check_name(opts.name) < 0) {
		fprintf(stderr,
			"cuse_mini: invalid device name '%s': use 1..%d of [A-Za-z0-9_-]\n",
			opts.name, CUSE_MINI_NAME_MAX);
		goto out;
	}
	snprintf(devname_arg, sizeof(devname_arg), "DEVNAME=%s", opts.name);

	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info_argv;
	ci.flags = CUSE_UNRESTRICTED_IOCTL;

	ret = cuse_lowlevel_main(args.argc, args.argv, &ci, &cuse_mini_ops,
				 NULL) ? 1 : 0;
out:
	free(opts.name);
	fuse_opt_free_args(&args);
	return ret;
}
