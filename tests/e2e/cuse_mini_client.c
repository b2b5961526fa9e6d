// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_mini_client - drives a running cuse_mini device the way an
 * application drives a kernel driver: open, variable-size ioctls through
 * the unrestricted retry protocol, the error paths, and a plain read.
 *
 * Output is one "ok"/"not ok" line per check; the exit status is 0 only
 * if every check passed, 1 if any failed, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuse_mini.h"

/**
 * struct client_ctx - state of one client run
 * @fd: open device
 * @checks: checks run so far
 * @failures: checks that failed
 */
struct client_ctx {
	int fd;
	unsigned int checks;
	unsigned int failures;
};

static void report(struct client_ctx *ctx, int ok, const char *what)
{
	ctx->checks++;
	if (!ok)
		ctx->failures++;
	printf("%s %u - %s\n", ok ? "ok" : "not ok", ctx->checks, what);
}

/* One transform round trip; returns 1 if the reply is exactly right. */
static int check_xform(struct client_ctx *ctx, uint32_t len, uint8_t key)
{
	struct cuse_mini_xfer *xfer;
	uint8_t *sent;
	uint32_t i;
	int ret, ok = 0;

	xfer = malloc(sizeof(*xfer) + len);
	sent = malloc(len ? len : 1);
	if (!xfer || !sent) {
		fprintf(stderr, "cuse_mini_client: out of memory\n");
		goto out;
	}
	xfer->len = len;
	xfer->key = key;
	for (i = 0; i < len; i++)
		sent[i] = xfer->data[i] = (uint8_t)(i * 7 + 3);

	ret = ioctl(ctx->fd, CUSE_MINI_IOC_XFORM, xfer);
	if (ret < 0) {
		fprintf(stderr, "  xform len %u: ioctl: %s\n", len,
			strerror(errno));
		goto out;
	}
	if ((uint32_t)ret != len || xfer->len != len || xfer->key != key) {
		fprintf(stderr, "  xform len %u: returned %d, header %u/%u\n",
			len, ret, xfer->len, xfer->key);
		goto out;
	}
	for (i = 0; i < len; i++) {
		if (xfer->data[i] != (uint8_t)(sent[len - 1 - i] ^ key)) {
			fprintf(stderr, "  xform len %u: byte %u wrong\n",
				len, i);
			goto out;
		}
	}
	ok = 1;
out:
	free(sent);
	free(xfer);
	return ok;
}

/* Expects the ioctl to fail with @want_errno; returns 1 if it does. */
static int check_ioctl_fails(struct client_ctx *ctx, unsigned long cmd,
			     void *arg, int want_errno)
{
	int ret = ioctl(ctx->fd, cmd, arg);

	if (ret != -1 || errno != want_errno) {
		fprintf(stderr, "  ioctl 0x%lx: got %d (%s), want %s\n", cmd,
			ret, ret == -1 ? strerror(errno) : "success",
			strerror(want_errno));
		return 0;
	}
	return 1;
}

static int check_oversize(struct client_ctx *ctx)
{
	struct cuse_mini_xfer hdr = {
		.len = CUSE_MINI_MAX_PAYLOAD + 1,
		.key = 0,
	};

	return check_ioctl_fails(ctx, CUSE_MINI_IOC_XFORM, &hdr, EINVAL);
}

static int check_read(struct client_ctx *ctx, size_t size)
{
	static const char greeting[] = CUSE_MINI_GREETING;
	size_t want = sizeof(greeting) - 1;
	char buf[128];
	ssize_t got;

	if (size > sizeof(buf))
		size = sizeof(buf);
	if (want > size)
		want = size;
	got = read(ctx->fd, buf, size);
	if (got < 0) {
		fprintf(stderr, "  read %zu: %s\n", size, strerror(errno));
		return 0;
	}
	if ((size_t)got != want || memcmp(buf, greeting, want) != 0) {
		fprintf(stderr, "  read %zu: got %zd bytes, want %zu\n", size,
			got, want);
		return 0;
	}
	return 1;
}

int main(int argc, char *argv[])
{
	static const uint32_t sizes[] = { 0, 1, 100, 4000, 4096,
					  CUSE_MINI_MAX_PAYLOAD };
	struct client_ctx ctx = { .fd = -1 };
	char what[64];
	size_t i;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "Usage: %s /dev/NAME\n"
			"Check a running cuse_mini device; exit 0 if all passed.\n",
			argv[0]);
		return 2;
	}
	ctx.fd = open(argv[1], O_RDWR);
	if (ctx.fd < 0) {
		fprintf(stderr, "cuse_mini_client: cannot open %s: %s\n",
			argv[1], strerror(errno));
		return 1;
	}

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(what, sizeof(what), "xform ioctl, %u-byte payload",
			 sizes[i]);
		report(&ctx, check_xform(&ctx, sizes[i], (uint8_t)(0x5a + i)),
		       what);
	}
	report(&ctx, check_oversize(&ctx), "oversized payload -> EINVAL");
	report(&ctx, check_ioctl_fails(&ctx, CUSE_MINI_IOC_UNKNOWN, NULL,
				       ENOTTY), "unknown ioctl -> ENOTTY");
	report(&ctx, check_ioctl_fails(&ctx, CUSE_MINI_IOC_XFORM, NULL,
				       EFAULT), "NULL argument -> EFAULT");
	report(&ctx, check_read(&ctx, 128), "read whole greeting");
	report(&ctx, check_read(&ctx, 4), "short read");

	close(ctx.fd);
	printf("%u of %u checks passed\n", ctx.checks - ctx.failures,
	       ctx.checks);
	return ctx.failures ? 1 : 0;
}
