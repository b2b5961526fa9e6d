// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_fuzz.c - a hostile client of the real /dev/cros_ec.
 *
 * Random operations on the device node - the ioctls the device's syzlang
 * description declares (include/cros_ec/cros_ec_dev.syz, turned into
 * CROS_EC_SYZ_IOCTLS_* by tests/e2e/syz2h.awk), ioctls with random numbers, XCMD
 * and READMEM arguments with random headers at NULL, unmapped, read-only,
 * kernel and guard-page addresses, read/write/poll/lseek, open/close - and
 * every result is compared with the one the ABI prescribes
 * (docs/device-abi.md; the expectations are in the fuzz_ioctl_*() and fuzz_op_*() below).
 * "Anything but a crash" is not enough: an answer the ABI does not allow is
 * a mismatch and fails the run.
 *
 * Two phases: a steady one (one client, the EC plugged all along: no ENODEV
 * allowed anywhere) and a flapping one (several clients while this program
 * unplugs and replugs the EC through the control socket: ENODEV becomes
 * allowed where an operation reaches the EC, and a file that saw it must go
 * on seeing it, since a revoked file never comes back). The run ends with a
 * fresh open and an exact HELLO.
 *
 *   cuse_ec_fuzz [--dev PATH] [--control SOCK] [--seed N] [--ops N]
 *                [--clients N] [--seconds S] [--cycles N] [--flap-ms MS]
 *                [--verbose]
 *
 * Exit status: 0 every answer was allowed, 1 a mismatch or the daemon
 * failed the final HELLO, 2 usage or set-up error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "ctl/ctl.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "tests/e2e/cros_ec_dev_syz.h"

#define FUZZ_MAX_FDS 8
#define FUZZ_MAX_CLIENTS 32
/* Room for the largest XCMD a caller may describe, plus slack. */
#define FUZZ_ARENA_BYTES (CROS_EC_XCMD_HEADER_SIZE + CROS_EC_MAX_XCMD_PAYLOAD + 8192)
/* Mismatches printed in full; the rest are only counted. */
#define FUZZ_PRINT_MAX 20
#define FUZZ_KERNEL_ADDR ((void *)0xffff888000000000ull)
#define FUZZ_HELLO_IN 0x01020304u
#define FUZZ_ERR_ANY_SUCCESS 0

/*
 * The description and cros_ec_dev.h agree, or this does not build: each
 * described structure's size, and the size each ioctl number encodes.
 */
#define FUZZ_SYZ_CHECK_PTR(number, type, size)					\
	_Static_assert(sizeof(struct type) == (size),				\
		       #type ": cros_ec_dev.syz lays out another size");	\
	_Static_assert(_IOC_SIZE(number) == (size), #number ": size field is not " #type "'s");
#define FUZZ_SYZ_CHECK_INT(number)						\
	_Static_assert(_IOC_SIZE(number) == 0, #number ": takes a value, not a pointer");
CROS_EC_SYZ_IOCTLS_PTR(FUZZ_SYZ_CHECK_PTR)
CROS_EC_SYZ_IOCTLS_INT(FUZZ_SYZ_CHECK_INT)

/* What the test learnt from the EC at start-up. */
struct fuzz_ec_limits {
	uint32_t max_request;
	uint32_t max_response;
};

struct fuzz_config {
	const char *dev;
	const char *control;
	uint64_t seed;
	unsigned long ops;
	unsigned int clients;
	unsigned int seconds;
	unsigned long cycles;
	unsigned int flap_ms;
	bool verbose;
};

/* Shared by the clients of one run. */
struct fuzz_run {
	const struct fuzz_config *cfg;
	struct fuzz_ec_limits lim;
	atomic_bool stop;
	atomic_ulong ops;
	atomic_ulong mismatches;
	atomic_ulong enodev;
	atomic_ulong efault;
	atomic_ulong success;
	atomic_ulong other_errno;
	bool flapping;	/* ENODEV allowed where an operation reaches the EC */
	/* XCMD header that another thread rewrites while ioctls read it. */
	unsigned char *race_buf;
};

/* One open file and what the test knows about it. */
struct fuzz_fd {
	int fd;
	uint32_t mask;		/* event mask set with EVENTMASK */
	int version_done;	/* 0 no, 1 yes, -1 unknown (an EFAULT read) */
	/*
	 * What the daemon said about the file, both for good once said: @dead
	 * - read or poll reported it gone (the unplug marked the file); @revoked
	 * - an access to the EC failed (the revoke itself, which follows the
	 * marking: in between the EC still answers commands).
	 */
	bool dead;
	bool revoked;
};

/*
 * Per-client memory: a read-write arena and a read-only one, each followed
 * by a PROT_NONE guard page, so an argument can be placed to end exactly
 * where readable (or writable) memory ends.
 */
struct fuzz_client {
	struct fuzz_run *run;
	unsigned int id;
	uint64_t rng;
	unsigned char *rw;	/* FUZZ_ARENA_BYTES, guard after */
	unsigned char *ro;	/* FUZZ_ARENA_BYTES, guard after */
	unsigned char *none;	/* a PROT_NONE page */
	size_t arena;		/* usable bytes of rw/ro (page multiple) */
	struct fuzz_fd fds[FUZZ_MAX_FDS];
	unsigned int nfds;
};

/* An argument address and how many bytes from it can be read / written. */
struct fuzz_ptr {
	void *p;
	size_t readable;
	size_t writable;
	bool ro;	/* lives in the read-only arena */
	bool kernel;	/* not a user address at all */
	const char *kind;
};

static uint32_t fuzz_below(struct fuzz_client *c, uint32_t n)
{
	return n ? (uint32_t)(xorshift64s_next(&c->rng) % n) : 0;
}

static void fuzz_mismatch(struct fuzz_client *c, const char *op, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fuzz_mismatch(struct fuzz_client *c, const char *op, const char *fmt, ...)
{
	unsigned long n = atomic_fetch_add(&c->run->mismatches, 1);
	va_list ap;

	if (n >= FUZZ_PRINT_MAX && !c->run->cfg->verbose)
		return;
	fprintf(stderr, "MISMATCH client %u op %s: ", c->id, op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void fuzz_count(struct fuzz_client *c, long ret, int err)
{
	atomic_fetch_add(&c->run->ops, 1);
	if (ret >= 0)
		atomic_fetch_add(&c->run->success, 1);
	else if (err == ENODEV)
		atomic_fetch_add(&c->run->enodev, 1);
	else if (err == EFAULT)
		atomic_fetch_add(&c->run->efault, 1);
	else
		atomic_fetch_add(&c->run->other_errno, 1);
}

/*
 * Check an answer of an operation that reached the EC stage (past every
 * argument check the ABI puts before the EC). ENODEV is allowed only while
 * the EC flaps, and from then on the file stays gone: @via_ec operations
 * (XCMD, READMEM, EVENTMASK) go through the revocable and must fail on a
 * revoked file; read and poll look at the file's mark and must fail on a
 * dead one. Returns true when the caller should go on checking a success.
 */
static bool fuzz_ec_stage(struct fuzz_client *c, struct fuzz_fd *f, const char *op, bool via_ec,
			  long ret, int err)
{
	if (ret < 0 && err == ENODEV) {
		if (!c->run->flapping && !f->dead)
			fuzz_mismatch(c, op, "ENODEV with the EC plugged all along");
		f->dead = true;
		if (via_ec)
			f->revoked = true;
		return false;
	}
	if (via_ec ? f->revoked : f->dead) {
		fuzz_mismatch(c, op, "a %s file answered %ld (%s), want ENODEV",
			      via_ec ? "revoked" : "dead", ret, ret < 0 ? strerror(err) : "success");
		return false;
	}
	return true;
}

static void fuzz_want_errno(struct fuzz_client *c, const char *op, long ret, int err, int want)
{
	if (ret < 0 && err == want)
		return;
	fuzz_mismatch(c, op, "got %ld (%s), want %s", ret, ret < 0 ? strerror(err) : "success",
		      strerror(want));
}

/* ---- argument placement ---- */

static void fuzz_pick_ptr(struct fuzz_client *c, size_t span, struct fuzz_ptr *out)
{
	size_t valid;

	memset(out, 0, sizeof(*out));
	switch (fuzz_below(c, 12)) {
	case 0:
		out->p = NULL;
		out->kind = "NULL";
		return;
	case 1:
		out->p = c->none + fuzz_below(c, 64);
		out->kind = "PROT_NONE";
		return;
	case 2:
		out->p = FUZZ_KERNEL_ADDR;
		out->kernel = true;
		out->kind = "kernel";
		return;
	case 3:
	case 4:
		/* Ends inside the guard page after @valid readable bytes. */
		valid = fuzz_below(c, (uint32_t)span + 1);
		out->p = c->rw + c->arena - valid;
		out->readable = out->writable = valid;
		out->kind = "guard";
		return;
	case 5:
	case 6:
		valid = span + fuzz_below(c, 64);
		if (valid > c->arena)
			valid = c->arena;
		out->p = c->ro + c->arena - valid;
		out->readable = valid;
		out->ro = true;
		out->kind = "read-only";
		return;
	default:
		out->p = c->rw + fuzz_below(c, 64);
		out->readable = out->writable = c->arena - (size_t)((unsigned char *)out->p - c->rw);
		out->kind = "valid";
		return;
	}
}

/* Write @len bytes at @ptr even when it lives in the read-only arena. */
static void fuzz_fill(struct fuzz_client *c, struct fuzz_ptr *ptr, const void *src, size_t len)
{
	if (len > ptr->readable)
		len = ptr->readable;
	if (!len)
		return;
	if (ptr->ro)
		mprotect(c->ro, c->arena, PROT_READ | PROT_WRITE);
	memcpy(ptr->p, src, len);
	if (ptr->ro)
		mprotect(c->ro, c->arena, PROT_READ);
}

/* ---- operations ---- */

static uint32_t fuzz_size(struct fuzz_client *c, uint32_t max_request)
{
	switch (fuzz_below(c, 8)) {
	case 0:
		return 0;
	case 1:
		return fuzz_below(c, 16);
	case 2:
		return max_request + fuzz_below(c, 3);	/* just at / past the EC's limit */
	case 3:
		return CROS_EC_MAX_XCMD_PAYLOAD + fuzz_below(c, 2);	/* just at / past 64 KiB */
	case 4:
		return (uint32_t)xorshift64s_next(&c->rng);	/* anything, up to 0xffffffff */
	case 5:
		return 0xffffffffu;
	default:
		return fuzz_below(c, 300);
	}
}

static uint32_t fuzz_command(struct fuzz_client *c)
{
	static const uint32_t known[] = {
		EC_CMD_HELLO, EC_CMD_GET_VERSION, EC_CMD_GET_PROTOCOL_INFO, EC_CMD_GET_FEATURES,
		EC_CMD_READ_MEMMAP, EC_CMD_GET_CMD_VERSIONS, EC_CMD_GET_NEXT_EVENT,
		0x4001, 0x8001, 0xc001,	/* passthrough to a device behind the EC */
	};

	if (fuzz_below(c, 4))
		return known[fuzz_below(c, sizeof(known) / sizeof(known[0]))];
	return fuzz_below(c, 2) ? fuzz_below(c, 0x200) : (uint32_t)xorshift64s_next(&c->rng);
}

static void fuzz_ioctl_CROS_EC_DEV_IOCXCMD_V2(struct fuzz_client *c, struct fuzz_fd *f)
{
	const struct fuzz_ec_limits *lim = &c->run->lim;
	struct cros_ec_command_v2 hdr, back;
	unsigned char payload[32];
	struct fuzz_ptr ptr;
	uint32_t insize_eff;
	size_t i, need_out;
	long ret;
	int err;

	hdr.version = fuzz_below(c, 4) ? fuzz_below(c, 3) : (uint32_t)xorshift64s_next(&c->rng);
	hdr.command = fuzz_command(c);
	hdr.outsize = fuzz_size(c, lim->max_request);
	hdr.insize = fuzz_size(c, lim->max_response);
	hdr.result = (uint32_t)xorshift64s_next(&c->rng);
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (unsigned char)xorshift64s_next(&c->rng);
	if (hdr.command == EC_CMD_HELLO && fuzz_below(c, 2)) {
		hdr.version = 0;
		hdr.outsize = 4;
		hdr.insize = 4;
		memcpy(payload, &(uint32_t){ FUZZ_HELLO_IN }, 4);
	}
	fuzz_pick_ptr(c, CROS_EC_XCMD_HEADER_SIZE + sizeof(payload), &ptr);
	fuzz_fill(c, &ptr, &hdr, sizeof(hdr));
	if (ptr.readable > sizeof(hdr)) {
		struct fuzz_ptr data = ptr;

		data.p = (unsigned char *)ptr.p + sizeof(hdr);
		data.readable -= sizeof(hdr);
		fuzz_fill(c, &data, payload, sizeof(payload));
	}

	errno = 0;
	ret = ioctl(f->fd, CROS_EC_DEV_IOCXCMD_V2, ptr.p);
	err = errno;
	fuzz_count(c, ret, err);

	/* The ABI's order: header copy, size limits, request copy, EC. */
	if (ptr.readable < sizeof(hdr))
		return fuzz_want_errno(c, "XCMD header", ret, err, EFAULT);
	if (hdr.outsize > CROS_EC_MAX_XCMD_PAYLOAD || hdr.insize > CROS_EC_MAX_XCMD_PAYLOAD)
		return fuzz_want_errno(c, "XCMD > 64 KiB", ret, err, EINVAL);
	if (ptr.readable < sizeof(hdr) + hdr.outsize)
		return fuzz_want_errno(c, "XCMD request copy", ret, err, EFAULT);
	if (!fuzz_ec_stage(c, f, "XCMD", true, ret, err))
		return;
	if (hdr.outsize > lim->max_request)
		return fuzz_want_errno(c, "XCMD outsize > EC max", ret, err, EMSGSIZE);
	insize_eff = hdr.insize < lim->max_response ? hdr.insize : lim->max_response;
	need_out = sizeof(hdr) + insize_eff;
	if (ptr.writable < need_out)
		return fuzz_want_errno(c, "XCMD response copy", ret, err, EFAULT);
	if (ret < 0 || ret > insize_eff) {
		fuzz_mismatch(c, "XCMD", "cmd 0x%x v%u out %u in %u (%s): got %ld (%s), want 0..%u",
			      hdr.command, hdr.version, hdr.outsize, hdr.insize, ptr.kind, ret,
			      ret < 0 ? strerror(err) : "success", insize_eff);
		return;
	}
	memcpy(&back, ptr.p, sizeof(back));
	if (back.command != hdr.command || back.version != hdr.version ||
	    back.outsize != hdr.outsize || back.insize != insize_eff || back.result > EC_RES_BUSY)
		fuzz_mismatch(c, "XCMD", "header back cmd 0x%x v%u out %u in %u result %u, sent "
			      "cmd 0x%x v%u out %u in %u (clamped %u)", back.command, back.version,
			      back.outsize, back.insize, back.result, hdr.command, hdr.version,
			      hdr.outsize, hdr.insize, insize_eff);
	if (hdr.command == EC_CMD_HELLO && hdr.version == 0 && hdr.outsize == 4 &&
	    hdr.insize == 4 && !memcmp(payload, &(uint32_t){ FUZZ_HELLO_IN }, 4)) {
		uint32_t out;

		memcpy(&out, (unsigned char *)ptr.p + sizeof(hdr), 4);
		if (ret != 4 || back.result || out != FUZZ_HELLO_IN + EC_HELLO_MAGIC)
			fuzz_mismatch(c, "XCMD HELLO", "ret %ld result %u out 0x%x", ret,
				      back.result, out);
	}
}

static void fuzz_ioctl_CROS_EC_DEV_IOCRDMEM_V2(struct fuzz_client *c, struct fuzz_fd *f)
{
	struct cros_ec_readmem_v2 mem, back;
	struct fuzz_ptr ptr;
	long ret;
	int err;

	memset(&mem, 0, sizeof(mem));
	switch (fuzz_below(c, 4)) {
	case 0:
		mem.offset = (uint32_t)xorshift64s_next(&c->rng);
		mem.bytes = (uint32_t)xorshift64s_next(&c->rng);
		break;
	case 1:
		mem.offset = 0x20;
		mem.bytes = 2;
		break;
	default:
		mem.offset = fuzz_below(c, 300);
		mem.bytes = fuzz_below(c, 300);
		break;
	}
	fuzz_pick_ptr(c, sizeof(mem), &ptr);
	fuzz_fill(c, &ptr, &mem, sizeof(mem));

	errno = 0;
	ret = ioctl(f->fd, CROS_EC_DEV_IOCRDMEM_V2, ptr.p);
	err = errno;
	fuzz_count(c, ret, err);

	/*
	 * READMEM goes to the EC before anything else, before the argument is
	 * even fetched: a revoked file says ENODEV whatever the pointer.
	 */
	if (ptr.readable < sizeof(mem) && !f->revoked && !(ret < 0 && err == ENODEV))
		return fuzz_want_errno(c, "READMEM copy", ret, err, EFAULT);
	if (!fuzz_ec_stage(c, f, "READMEM", true, ret, err))
		return;
	if (mem.bytes > sizeof(mem.buffer) || mem.offset >= CROS_EC_MEMMAP_SIZE ||
	    mem.bytes > CROS_EC_MEMMAP_SIZE - mem.offset)
		return fuzz_want_errno(c, "READMEM range", ret, err, EINVAL);
	if (ptr.writable < sizeof(mem))
		return fuzz_want_errno(c, "READMEM copy back", ret, err, EFAULT);
	if (ret < 0 || (mem.bytes && ret != mem.bytes) || (!mem.bytes && (ret < 1 || ret > 255))) {
		fuzz_mismatch(c, "READMEM", "offset %u bytes %u: got %ld (%s)", mem.offset, mem.bytes,
			      ret, ret < 0 ? strerror(err) : "success");
		return;
	}
	memcpy(&back, ptr.p, sizeof(back));
	if (mem.offset == 0x20 && mem.bytes == 2 && memcmp(back.buffer, "EC", 2))
		fuzz_mismatch(c, "READMEM", "0x20 reads %02x %02x, want \"EC\"", back.buffer[0],
			      back.buffer[1]);
}

static void fuzz_ioctl_CROS_EC_DEV_IOCEVENTMASK_V2(struct fuzz_client *c, struct fuzz_fd *f)
{
	unsigned long mask = fuzz_below(c, 3) ? fuzz_below(c, 2) << fuzz_below(c, 32) :
				     (unsigned long)xorshift64s_next(&c->rng);
	long ret;
	int err;

	errno = 0;
	ret = ioctl(f->fd, CROS_EC_DEV_IOCEVENTMASK_V2, mask);
	err = errno;
	fuzz_count(c, ret, err);
	/*
	 * The ABI: 0, even on a revoked file (the mask lives in the file).
	 * A daemon that keeps the mask with the EC answers ENODEV there: that
	 * is accepted on a dead file only.
	 */
	if (ret == 0) {
		f->mask = (uint32_t)mask;
		return;
	}
	if (err == ENODEV && (c->run->flapping || f->dead)) {
		f->dead = f->revoked = true;
		return;
	}
	fuzz_mismatch(c, "EVENTMASK", "got %ld (%s), want 0", ret, strerror(err));
}

/* Is @cmd one of the ioctls the device's description declares? */
static bool fuzz_described_ioctl(unsigned int cmd)
{
#define FUZZ_IS_PTR(number, type, size) cmd == (number) ||
#define FUZZ_IS_INT(number) cmd == (number) ||
	return CROS_EC_SYZ_IOCTLS_PTR(FUZZ_IS_PTR) CROS_EC_SYZ_IOCTLS_INT(FUZZ_IS_INT) false;
#undef FUZZ_IS_PTR
#undef FUZZ_IS_INT
}

static void fuzz_op_badioctl(struct fuzz_client *c, struct fuzz_fd *f)
{
	/* Type bytes the VFS answers itself (FIOCLEX, FIFREEZE, FIGETBSZ ...). */
	static const unsigned char vfs_types[] = { 0x00, 0x15, 0x54, 0x58, 0x66, 0x94 };
	static const unsigned int fixed[] = {
		CROS_EC_DEV_IOCXCMD_V1, CROS_EC_DEV_IOCRDMEM_V1, 0x5401 /* TCGETS */,
		_IOWR(0xEC, 0, 24), _IOWR(0xEC, 1, 20), _IO(0xEC, 3), _IOR(0xEC, 2, 4),
	};
	struct fuzz_ptr ptr;
	unsigned int cmd, type;
	bool ok;
	size_t i;
	long ret;
	int err;

	if (fuzz_below(c, 4) == 0) {
		cmd = fixed[fuzz_below(c, sizeof(fixed) / sizeof(fixed[0]))];
	} else {
		do {
			cmd = (uint32_t)xorshift64s_next(&c->rng);
			if (fuzz_below(c, 2))
				cmd = (cmd & ~0xff00u) | (0xECu << 8);
			type = (cmd >> 8) & 0xff;
			ok = !fuzz_described_ioctl(cmd);
			for (i = 0; i < sizeof(vfs_types); i++)
				ok = ok && type != vfs_types[i];
		} while (!ok);
	}
	fuzz_pick_ptr(c, 64, &ptr);
	errno = 0;
	ret = ioctl(f->fd, cmd, ptr.p);
	err = errno;
	fuzz_count(c, ret, err);
	if (ret < 0 && err == ENOTTY)
		return;
	fuzz_mismatch(c, "ioctl", "0x%08x: got %ld (%s), want ENOTTY", cmd, ret,
		      ret < 0 ? strerror(err) : "success");
}

static size_t fuzz_read_len(struct fuzz_client *c)
{
	static const size_t lens[] = { 0, 1, 5, 6, 79, 80, 255, 256, 4096 };

	if (fuzz_below(c, 3))
		return lens[fuzz_below(c, sizeof(lens) / sizeof(lens[0]))];
	return fuzz_below(c, 8192);
}

static void fuzz_op_read(struct fuzz_client *c, struct fuzz_fd *f)
{
	size_t len = fuzz_read_len(c);
	struct fuzz_ptr ptr;
	bool nonblock;
	long ret;
	int err, fl;

	fuzz_pick_ptr(c, len, &ptr);
	/* A blocking read with a mask set would wait for an event: never. */
	fl = fcntl(f->fd, F_GETFL);
	nonblock = f->mask || fuzz_below(c, 2);
	fcntl(f->fd, F_SETFL, nonblock ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
	errno = 0;
	ret = read(f->fd, ptr.p, len);
	err = errno;
	fuzz_count(c, ret, err);

	if (!len) {
		/* Nothing to transfer; only a kernel address fails (access_ok). */
		if (ptr.kernel ? !(ret < 0 && err == EFAULT) : ret != 0)
			fuzz_mismatch(c, "read 0", "%s: got %ld (%s)", ptr.kind, ret, strerror(err));
		return;
	}
	if (ptr.writable < len) {
		/*
		 * fuse pins the caller's pages before it asks the daemon: none
		 * writable is EFAULT; some may be asked for alone (a short read).
		 */
		if (ret < 0 && err == EFAULT) {
			if (!f->mask && f->version_done == 0)
				f->version_done = -1;	/* the daemon may have been asked */
			return;
		}
		if (!ptr.writable) {
			fuzz_mismatch(c, "read", "%zu bytes into %s: got %ld (%s), want EFAULT", len,
				      ptr.kind, ret, ret < 0 ? strerror(err) : "success");
			return;
		}
		len = ptr.writable;
	}
	if (!f->mask) {
		/* Version text at the first read, end of file after it. */
		/*
		 * The ABI says 0 here even on a revoked file; this daemon checks
		 * the file's mark first and answers ENODEV once it is dead.
		 */
		if (ret < 0 && err == ENODEV && f->version_done && c->run->flapping) {
			f->dead = true;
			return;
		}
		if (f->version_done == 1 || (f->version_done == -1 && ret == 0)) {
			if (ret != 0)
				fuzz_mismatch(c, "read", "after the version text: got %ld (%s), want 0",
					      ret, ret < 0 ? strerror(err) : "success");
			f->version_done = 1;
			return;
		}
		if (!fuzz_ec_stage(c, f, "read version", false, ret, err))
			return;
		if (ret <= 0 || (size_t)ret > len ||
		    memcmp(ptr.p, "1.0.0\n", (size_t)ret < 6 ? (size_t)ret : 6)) {
			fuzz_mismatch(c, "read version", "%zu bytes: got %ld (%s)", len, ret,
				      ret < 0 ? strerror(err) : "text not 1.0.0");
			return;
		}
		f->version_done = 1;
		return;
	}
	/*
	 * Events live in the file: a revoked file still hands out what was
	 * queued and says EAGAIN when nothing is (the ABI, seed 006).
	 */
	if (ret < 0 && err == EAGAIN)
		return;
	if (ret < 0 && err == ENODEV) {
		fuzz_ec_stage(c, f, "read event", false, ret, err);
		return;
	}
	if (ret < 1 || (size_t)ret > len)
		fuzz_mismatch(c, "read event", "%zu bytes, O_NONBLOCK: got %ld (%s), want an event "
			      "or EAGAIN", len, ret, ret < 0 ? strerror(err) : "success");
}

static void fuzz_op_write(struct fuzz_client *c, struct fuzz_fd *f)
{
	size_t len = fuzz_below(c, 2) ? fuzz_below(c, 64) : fuzz_below(c, 8192);
	struct fuzz_ptr ptr;
	long ret;
	int err;

	fuzz_pick_ptr(c, len, &ptr);
	errno = 0;
	ret = write(f->fd, ptr.p, len);
	err = errno;
	fuzz_count(c, ret, err);
	if (!len && ret == 0 && !ptr.kernel)
		return;
	/*
	 * The driver has no write(): the kernel's node answers EINVAL; a CUSE
	 * server without a write operation gets ENOSYS from libfuse. A buffer
	 * fuse cannot pin fails with EFAULT first.
	 */
	if (ret < 0 && err == ENOSYS)
		return;
	if (ret < 0 && err == EFAULT && (ptr.readable < len || ptr.kernel))
		return;
	fuzz_mismatch(c, "write", "%zu bytes from %s: got %ld (%s), want ENOSYS", len,
		      ptr.kind, ret, ret < 0 ? strerror(err) : "success");
}

static void fuzz_op_poll(struct fuzz_client *c, struct fuzz_fd *f)
{
	struct pollfd pfd = { .fd = f->fd, .events = (short)xorshift64s_next(&c->rng) };
	short allowed = POLLERR | POLLHUP;
	int ret, err;

	errno = 0;
	ret = poll(&pfd, 1, 0);
	err = errno;
	fuzz_count(c, ret, err);
	if (ret < 0) {
		fuzz_mismatch(c, "poll", "failed: %s", strerror(err));
		return;
	}
	if (f->mask)
		allowed |= pfd.events & (POLLIN | POLLRDNORM);
	if ((pfd.revents & ~allowed) || (ret != (pfd.revents != 0))) {
		fuzz_mismatch(c, "poll", "events 0x%x mask 0x%x: revents 0x%x ret %d",
			      (unsigned short)pfd.events, f->mask, (unsigned short)pfd.revents,
			      ret);
		return;
	}
	if (pfd.revents & POLLERR) {
		if (!c->run->flapping && !f->dead)
			fuzz_mismatch(c, "poll", "POLLERR with the EC plugged all along");
		f->dead = true;
	} else if (f->dead) {
		/* POLLERR is reported whatever was asked for. */
		fuzz_mismatch(c, "poll", "a revoked file polls 0x%x, want POLLERR",
			      (unsigned short)pfd.revents);
	}
}

static void fuzz_op_lseek(struct fuzz_client *c, struct fuzz_fd *f)
{
	off_t ret;
	int err;

	errno = 0;
	ret = lseek(f->fd, (off_t)fuzz_below(c, 1000), SEEK_SET);
	err = errno;
	fuzz_count(c, ret < 0 ? -1 : 0, err);
	/*
	 * The driver's node cannot seek (ESPIPE); a CUSE node has the kernel's
	 * noop_llseek, which leaves the position at 0 and says so.
	 */
	if (!(ret < 0 && err == ESPIPE) && ret != 0)
		fuzz_mismatch(c, "lseek", "got %lld (%s), want ESPIPE or 0", (long long)ret,
			      strerror(err));
}

static void fuzz_op_open(struct fuzz_client *c)
{
	struct fuzz_fd *f;
	int fd, err;

	if (c->nfds == FUZZ_MAX_FDS)
		return;
	errno = 0;
	fd = open(c->run->cfg->dev, O_RDWR | O_CLOEXEC | (fuzz_below(c, 2) ? O_NONBLOCK : 0));
	err = errno;
	fuzz_count(c, fd, err);
	if (fd < 0) {
		if (!(err == ENODEV && c->run->flapping))
			fuzz_mismatch(c, "open", "%s", strerror(err));
		return;
	}
	f = &c->fds[c->nfds++];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
}

static void fuzz_op_close(struct fuzz_client *c, unsigned int i)
{
	int ret, err;

	errno = 0;
	ret = close(c->fds[i].fd);
	err = errno;
	fuzz_count(c, ret, err);
	if (ret)
		fuzz_mismatch(c, "close", "%s", strerror(err));
	c->fds[i] = c->fds[--c->nfds];
}

/*
 * XCMD on a header that the racer thread rewrites meanwhile: the sizes it
 * reads twice may differ (EINVAL) or one may be over 64 KiB (EINVAL).
 */
static void fuzz_op_race(struct fuzz_client *c, struct fuzz_fd *f)
{
	long ret;
	int err;

	errno = 0;
	ret = ioctl(f->fd, CROS_EC_DEV_IOCXCMD_V2, c->run->race_buf);
	err = errno;
	fuzz_count(c, ret, err);
	if (ret >= 0 && ret <= 4 && !f->revoked)
		return;
	if (ret < 0 && err == EINVAL)
		return;
	if (ret < 0 && err == ENODEV) {
		fuzz_ec_stage(c, f, "XCMD raced", true, ret, err);
		return;
	}
	fuzz_mismatch(c, "XCMD raced", "got %ld (%s), want 0..4 or EINVAL", ret,
		      ret < 0 ? strerror(err) : "success");
}

/*
 * How often each described ioctl is tried, per 100 operations. A newly
 * described ioctl needs its fuzz_ioctl_NUMBER() and its weight here, or
 * this does not build.
 */
#define FUZZ_WEIGHT_CROS_EC_DEV_IOCXCMD_V2	30
#define FUZZ_WEIGHT_CROS_EC_DEV_IOCRDMEM_V2	15
#define FUZZ_WEIGHT_CROS_EC_DEV_IOCEVENTMASK_V2	7

static const struct fuzz_ioctl {
	unsigned int weight;
	void (*op)(struct fuzz_client *c, struct fuzz_fd *f);
} fuzz_ioctls[] = {
#define FUZZ_IOCTL_PTR(number, type, size) { FUZZ_WEIGHT_##number, fuzz_ioctl_##number },
#define FUZZ_IOCTL_INT(number) { FUZZ_WEIGHT_##number, fuzz_ioctl_##number },
	CROS_EC_SYZ_IOCTLS_PTR(FUZZ_IOCTL_PTR)
	CROS_EC_SYZ_IOCTLS_INT(FUZZ_IOCTL_INT)
#undef FUZZ_IOCTL_PTR
#undef FUZZ_IOCTL_INT
};

static void fuzz_one(struct fuzz_client *c)
{
	unsigned int pick = fuzz_below(c, 100), i;
	struct fuzz_fd *f;

	if (!c->nfds || pick < 4) {
		fuzz_op_open(c);
		return;
	}
	i = fuzz_below(c, c->nfds);
	f = &c->fds[i];
	if (pick < 8) {
		fuzz_op_close(c, i);
		return;
	}
	pick -= 8;
	for (i = 0; i < sizeof(fuzz_ioctls) / sizeof(fuzz_ioctls[0]); i++) {
		if (pick < fuzz_ioctls[i].weight) {
			fuzz_ioctls[i].op(c, f);
			return;
		}
		pick -= fuzz_ioctls[i].weight;
	}
	/* What is left of the 100, counted from the ioctls' share. */
	if (pick < 10)
		fuzz_op_badioctl(c, f);
	else if (pick < 22)
		fuzz_op_read(c, f);
	else if (pick < 26)
		fuzz_op_write(c, f);
	else if (pick < 33)
		fuzz_op_poll(c, f);
	else if (pick < 35)
		fuzz_op_lseek(c, f);
	else if (c->run->race_buf)
		fuzz_op_race(c, f);
	else
		fuzz_ioctl_CROS_EC_DEV_IOCXCMD_V2(c, f);
}

static int fuzz_client_init(struct fuzz_client *c, struct fuzz_run *run, unsigned int id)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t arena = (FUZZ_ARENA_BYTES + page - 1) / page * page;
	unsigned char *map;

	memset(c, 0, sizeof(*c));
	c->run = run;
	c->id = id;
	c->rng = run->cfg->seed * 0x9E3779B97F4A7C15ull + id + 1;
	c->arena = arena;
	/* rw | guard | ro | guard | none */
	map = mmap(NULL, 2 * (arena + page) + page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return -errno;
	c->rw = map;
	c->ro = map + arena + page;
	c->none = map + 2 * (arena + page);
	if (mprotect(c->rw + arena, page, PROT_NONE) || mprotect(c->ro + arena, page, PROT_NONE) ||
	    mprotect(c->none, page, PROT_NONE) || mprotect(c->ro, arena, PROT_READ))
		return -errno;
	return 0;
}

static void fuzz_client_fini(struct fuzz_client *c)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	while (c->nfds)
		fuzz_op_close(c, c->nfds - 1);
	if (c->rw)
		munmap(c->rw, 2 * (c->arena + page) + page);
}

static void *fuzz_client_thread(void *arg)
{
	struct fuzz_client *c = arg;

	while (!atomic_load(&c->run->stop))
		fuzz_one(c);
	return NULL;
}

/* Rewrites the raced header's sizes as fast as it can. */
static void *fuzz_racer_thread(void *arg)
{
	struct fuzz_run *run = arg;
	volatile struct cros_ec_command_v2 *hdr = (void *)run->race_buf;
	unsigned int n = 0;

	while (!atomic_load(&run->stop)) {
		hdr->outsize = (n & 1) ? 4 : 8;
		hdr->insize = (n & 2) ? 4 : 0x20000;
		n++;
	}
	return NULL;
}

/* One control command to flap the EC; 0 when the daemon said "ok". */
static int fuzz_ctl(struct ctl_conn *ctl, const char *line, char *reply)
{
	int ret = ctl_request(ctl, line, reply, CTL_REPLY_MAX, 10000);

	return ret ? ret : ctl_reply_is_ok(reply) ? 0 : -EPROTO;
}

/* ---- set-up and the final checks ---- */

static long fuzz_xcmd(int fd, uint32_t command, const void *req, uint32_t outsize, void *resp,
		      uint32_t insize, uint32_t *result)
{
	unsigned char buf[CROS_EC_XCMD_HEADER_SIZE + 256];
	struct cros_ec_command_v2 *cmd = (void *)buf;
	long ret;

	memset(buf, 0, sizeof(buf));
	cmd->command = command;
	cmd->outsize = outsize;
	cmd->insize = insize;
	if (outsize)
		memcpy(cmd->data, req, outsize);	/* @req may be NULL for none */
	ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
	if (ret < 0)
		return -errno;
	*result = cmd->result;
	memcpy(resp, cmd->data, insize);
	return ret;
}

static int fuzz_limits(const char *dev, struct fuzz_ec_limits *lim)
{
	struct ec_response_get_protocol_info info;
	uint32_t result;
	long ret;
	int fd;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fuzz_xcmd(fd, EC_CMD_GET_PROTOCOL_INFO, NULL, 0, &info, sizeof(info), &result);
	close(fd);
	if (ret != 12 || result)
		return ret < 0 ? (int)ret : -EPROTO;
	lim->max_request = info.max_request_packet_size - EC_HOST_PACKET_HEADER_SIZE;
	lim->max_response = info.max_response_packet_size - EC_HOST_PACKET_HEADER_SIZE;
	return 0;
}

/* A fresh open after everything: the daemon must answer as on day one. */
static int fuzz_final_hello(const char *dev)
{
	uint32_t in = FUZZ_HELLO_IN, out = 0, result = 0xff;
	char text[80] = "";
	long ret;
	int fd;

	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "final open %s: %s\n", dev, strerror(errno));
		return -1;
	}
	ret = read(fd, text, sizeof(text) - 1);
	if (ret < 6 || memcmp(text, "1.0.0\n", 6)) {
		fprintf(stderr, "final version read: %ld\n", ret);
		close(fd);
		return -1;
	}
	ret = fuzz_xcmd(fd, EC_CMD_HELLO, &in, 4, &out, 4, &result);
	close(fd);
	if (ret != 4 || result || out != in + EC_HELLO_MAGIC) {
		fprintf(stderr, "final HELLO: ret %ld result %u out 0x%x\n", ret, result, out);
		return -1;
	}
	return 0;
}

static void fuzz_report(const char *phase, struct fuzz_run *run, unsigned long extra,
			const char *extra_name)
{
	printf("fuzz %s: %lu operations (%lu ok, %lu ENODEV, %lu EFAULT, %lu other errno), "
	       "%lu mismatches", phase, atomic_load(&run->ops), atomic_load(&run->success),
	       atomic_load(&run->enodev), atomic_load(&run->efault),
	       atomic_load(&run->other_errno), atomic_load(&run->mismatches));
	if (extra_name)
		printf(", %lu %s", extra, extra_name);
	printf("\n");
}

static int fuzz_steady(const struct fuzz_config *cfg, const struct fuzz_ec_limits *lim)
{
	struct fuzz_run run = { .cfg = cfg, .lim = *lim };
	struct fuzz_client c;
	int ret;

	ret = fuzz_client_init(&c, &run, 0);
	if (ret) {
		fprintf(stderr, "arena: %s\n", strerror(-ret));
		return 2;
	}
	while (atomic_load(&run.ops) < cfg->ops)
		fuzz_one(&c);
	fuzz_client_fini(&c);
	fuzz_report("steady", &run, 0, NULL);
	return atomic_load(&run.mismatches) ? 1 : 0;
}

static int fuzz_flapping(const struct fuzz_config *cfg, const struct fuzz_ec_limits *lim)
{
	struct fuzz_run run = { .cfg = cfg, .lim = *lim, .flapping = true };
	struct fuzz_client clients[FUZZ_MAX_CLIENTS];
	struct timespec now, end, pause = { 0, (long)cfg->flap_ms * 1000000L };
	pthread_t threads[FUZZ_MAX_CLIENTS], racer;
	unsigned long cycles = 0, refused = 0;
	unsigned int n, started = 0;
	char reply[CTL_REPLY_MAX];
	struct ctl_conn ctl;
	int ret;

	ret = ctl_open(&ctl, cfg->control);
	if (ret) {
		fprintf(stderr, "control %s: %s\n", cfg->control, strerror(-ret));
		return 2;
	}
	run.race_buf = calloc(1, CROS_EC_XCMD_HEADER_SIZE + 0x20000 + 64);
	if (!run.race_buf) {
		ctl_close(&ctl);
		return 2;
	}
	((struct cros_ec_command_v2 *)run.race_buf)->command = EC_CMD_HELLO;
	memcpy(run.race_buf + CROS_EC_XCMD_HEADER_SIZE, &(uint32_t){ FUZZ_HELLO_IN }, 4);
	for (n = 0; n < cfg->clients; n++) {
		ret = fuzz_client_init(&clients[n], &run, n + 1);
		if (ret || pthread_create(&threads[n], NULL, fuzz_client_thread, &clients[n])) {
			fprintf(stderr, "client %u: cannot start\n", n);
			ret = 2;
			break;
		}
		started++;
	}
	if (!ret && pthread_create(&racer, NULL, fuzz_racer_thread, &run))
		ret = 2;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += cfg->seconds;
	/* The pause only paces the load; nothing is ordered by it. */
	while (!ret && (!cfg->cycles || cycles < cfg->cycles)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		if (fuzz_ctl(&ctl, "unplug", reply))
			refused++;
		nanosleep(&pause, NULL);
		if (fuzz_ctl(&ctl, "plug", reply))
			refused++;
		nanosleep(&pause, NULL);
		cycles++;
	}
	atomic_store(&run.stop, true);
	for (n = 0; n < started; n++)
		pthread_join(threads[n], NULL);
	if (started == cfg->clients && !ret)
		pthread_join(racer, NULL);
	for (n = 0; n < started; n++)
		fuzz_client_fini(&clients[n]);
	fuzz_ctl(&ctl, "plug", reply);
	ctl_close(&ctl);
	free(run.race_buf);
	fuzz_report("flapping", &run, cycles, "unplug/replug cycles");
	if (refused) {
		fprintf(stderr, "the control socket refused %lu unplug/plug commands\n", refused);
		ret = ret ? ret : 1;
	}
	if (!ret && atomic_load(&run.mismatches))
		ret = 1;
	return ret;
}

static void fuzz_usage(FILE *out)
{
	fprintf(out,
		"usage: cuse_ec_fuzz [--dev PATH] [--control SOCK] [--seed N] [--ops N]\n"
		"                    [--clients N] [--seconds S] [--cycles N] [--flap-ms MS]\n"
		"                    [--verbose]\n"
		"  --dev PATH      the device (default /dev/cros_ec)\n"
		"  --control SOCK  the daemon's control socket: enables the flapping phase\n"
		"  --seed N        the random seed (default: from the clock; always printed)\n"
		"  --ops N         operations of the steady phase (default 20000)\n"
		"  --clients N     clients of the flapping phase (default 4, at most %d)\n"
		"  --seconds S     length of the flapping phase (default 10; hours: 3600 ...)\n"
		"  --cycles N      end the flapping phase after N unplug/replug cycles, if\n"
		"                  --seconds has not ended it first (default 0: no bound)\n"
		"  --flap-ms MS    time between unplug and plug (default 25)\n"
		"  --verbose       print every mismatch (default: the first %d)\n",
		FUZZ_MAX_CLIENTS, FUZZ_PRINT_MAX);
}

static int fuzz_number(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || end == s || *end || *s == '-' || *out > max) ? -EINVAL : 0;
}

/* An option's name from the table getopt_long() parsed it with. */
static const char *fuzz_option_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "control", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "ops", required_argument, NULL, 'n' },
		{ "clients", required_argument, NULL, 'j' },
		{ "seconds", required_argument, NULL, 't' },
		{ "cycles", required_argument, NULL, 'y' },
		{ "flap-ms", required_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fuzz_config cfg = {
		.dev = "/dev/cros_ec", .ops = 20000, .clients = 4, .seconds = 10, .flap_ms = 25,
	};
	struct fuzz_ec_limits lim;
	unsigned long long v;
	struct timespec ts;
	bool seeded = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			cfg.dev = optarg;
			break;
		case 'c':
			cfg.control = optarg;
			break;
		case 'v':
			cfg.verbose = true;
			break;
		case 'h':
			fuzz_usage(stdout);
			return 0;
		default:
			if (opt == '?' || fuzz_number(optarg, opt == 's' ? UINT64_MAX :
						      opt == 'j' ? FUZZ_MAX_CLIENTS : 1u << 31, &v) ||
			    (opt == 'j' && v == 0)) {
				if (opt != '?')
					fprintf(stderr, "cuse_ec_fuzz: bad --%s value '%s'\n",
						fuzz_option_name(longopts, opt), optarg);
				fuzz_usage(stderr);
				return 2;
			}
			if (opt == 's') {
				cfg.seed = v;
				seeded = true;
			} else if (opt == 'n') {
				cfg.ops = (unsigned long)v;
			} else if (opt == 'j') {
				cfg.clients = (unsigned int)v;
			} else if (opt == 't') {
				cfg.seconds = (unsigned int)v;
			} else if (opt == 'y') {
				cfg.cycles = (unsigned long)v;
			} else {
				cfg.flap_ms = (unsigned int)v;
			}
			break;
		}
	}
	if (optind != argc) {
		fuzz_usage(stderr);
		return 2;
	}
	if (!seeded) {
		clock_gettime(CLOCK_REALTIME, &ts);
		cfg.seed = (uint64_t)ts.tv_sec * 1000000007ull + (uint64_t)ts.tv_nsec;
	}
	printf("fuzz seed %" PRIu64 " (reproduce with --seed %" PRIu64 ")\n", cfg.seed, cfg.seed);
	fflush(stdout);

	ret = fuzz_limits(cfg.dev, &lim);
	if (ret) {
		fprintf(stderr, "cuse_ec_fuzz: GET_PROTOCOL_INFO on %s: %s\n", cfg.dev,
			strerror(-ret));
		return 2;
	}
	ret = fuzz_steady(&cfg, &lim);
	if (!ret && cfg.control && cfg.seconds)
		ret = fuzz_flapping(&cfg, &lim);
	if (ret == 2)
		return 2;
	if (fuzz_final_hello(cfg.dev)) {
		fprintf(stderr, "cuse_ec_fuzz: the daemon no longer answers HELLO\n");
		return 1;
	}
	printf("fuzz: daemon answers HELLO afterwards; %s\n", ret ? "FAIL" : "PASS");
	return ret;
}
