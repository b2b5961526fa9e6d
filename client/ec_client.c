// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_client.c - transport, start-up and the raw ioctls of the cros_ec client.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cros_ec/cros_ec_dev.h>
#include <cros_ec/ec_commands.h>

#include "client/ec_client.h"
#include "common/common.h"

/*
 * Length of the first read a real client does; the version text is longer
 * than any client needs, and the driver truncates it to this.
 */
#define VERSION_READ_LEN 79

/* XCMD calls up to this payload use a stack buffer, larger ones the heap. */
#define XCMD_STACK_PAYLOAD 512

struct ec_client {
	const struct ec_transport_ops *ops;
	void *ctx;
	bool direct_memmap;
	size_t max_request;
	size_t max_response;
	char version_text[VERSION_READ_LEN + 1];
};

/*
 * Every way a device can vanish under its client means the same to it, so
 * every call reports it as one error (EC_CLIENT_GONE): the EC unplugged
 * (ENODEV), the daemon dead during the call (ECONNABORTED) or before it
 * (ENOTCONN), a connection torn down mid-answer (EIO). cuse_ec(8) lists
 * them under DEVICE GONE. EIO is also what a live device's transport
 * error gives (the daemon's "eio" fault, an LPC or SPI error on a real
 * Chromebook), so it means gone only when the file says so too: poll()
 * then reports POLLERR or POLLHUP at once.
 */
static int client_gone(struct ec_client *c, int ret)
{
	int revents;

	switch (ret) {
	case -ENODEV:
	case -ECONNABORTED:
	case -ENOTCONN:
		return EC_CLIENT_GONE;
	case -EIO:
		revents = c->ops->poll(c->ctx, 0);
		if (revents > 0 && (revents & (POLLERR | POLLHUP)))
			return EC_CLIENT_GONE;
		return ret;
	}
	return ret;
}

bool ec_client_err_is_gone(int err)
{
	return err == EC_CLIENT_GONE;
}

/* ---- the file-descriptor transport ---- */

/*
 * ec_client_open()'s transport. Its context is its own allocation, so the
 * fd never appears in struct ec_client and nothing outside this transport
 * can read, poll or close it behind the client's back.
 */
struct fd_ctx {
	int fd;
};

static int fd_ioctl(void *ctx, unsigned long request, unsigned long arg)
{
	struct fd_ctx *f = ctx;
	int ret;

	do {
		ret = ioctl(f->fd, request, arg);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

static ssize_t fd_read(void *ctx, void *buf, size_t len)
{
	struct fd_ctx *f = ctx;
	ssize_t ret = read(f->fd, buf, len);

	return ret < 0 ? -errno : ret;
}

static int fd_poll(void *ctx, int timeout_ms)
{
	struct fd_ctx *f = ctx;
	struct pollfd pfd = { .fd = f->fd, .events = POLLIN | POLLRDNORM };
	int ret = poll(&pfd, 1, timeout_ms);

	if (ret < 0)
		return -errno;
	return ret == 0 ? 0 : pfd.revents;
}

static void fd_close(void *ctx)
{
	struct fd_ctx *f = ctx;

	close(f->fd);
	free(f);
}

static const struct ec_transport_ops fd_transport_ops = {
	.ioctl = fd_ioctl,
	.read = fd_read,
	.poll = fd_poll,
	.close = fd_close,
};

/* ---- names ---- */

const char *ec_client_step_name(enum ec_client_step step)
{
	switch (step) {
	case EC_STEP_NONE:
		return "none";
	case EC_STEP_OPEN:
		return "open";
	case EC_STEP_VERSION_TEXT:
		return "version text";
	case EC_STEP_V1_PROBE:
		return "v1 probe";
	case EC_STEP_MEMMAP_ID:
		return "memory-map id";
	case EC_STEP_PROTOCOL_INFO:
		return "protocol info";
	}
	return "unknown";
}

/* ---- raw ioctls ---- */

int ec_client_xcmd(struct ec_client *c, uint32_t command, uint32_t version,
		   const void *req, size_t req_len, void *resp, size_t resp_len,
		   uint32_t *ec_result)
{
	/* Aligned for the header's u32 fields. */
	uint32_t stack_buf[(CROS_EC_XCMD_HEADER_SIZE + XCMD_STACK_PAYLOAD) / 4];
	struct cros_ec_command_v2 *cmd;
	size_t payload;
	int ret;

	if (!c || (req_len && !req) || (resp_len && !resp))
		return -EINVAL;
	if (req_len > CROS_EC_MAX_XCMD_PAYLOAD || resp_len > CROS_EC_MAX_XCMD_PAYLOAD)
		return -EINVAL;
	/* Refuse locally what the device would refuse: saves a round trip. */
	if (req_len > c->max_request)
		return -EMSGSIZE;

	payload = req_len > resp_len ? req_len : resp_len;
	if (payload <= XCMD_STACK_PAYLOAD) {
		cmd = (struct cros_ec_command_v2 *)stack_buf;
	} else {
		cmd = malloc(CROS_EC_XCMD_HEADER_SIZE + payload);
		if (!cmd)
			return -ENOMEM;
	}
	cmd->version = version;
	cmd->command = command;
	cmd->outsize = (uint32_t)req_len;
	cmd->insize = (uint32_t)resp_len;
	cmd->result = 0xff;
	if (req_len)
		memcpy(cmd->data, req, req_len);

	ret = client_gone(c, c->ops->ioctl(c->ctx, CROS_EC_DEV_IOCXCMD_V2, (unsigned long)cmd));
	if (ret < 0)
		goto out;
	/* The device clamps insize, so it can never report more than asked. */
	if ((size_t)ret > resp_len) {
		ret = -EPROTO;
		goto out;
	}
	if (ret)
		memcpy(resp, cmd->data, (size_t)ret);
	if (ec_result)
		*ec_result = cmd->result;
	else if (cmd->result != EC_RES_SUCCESS)
		ret = EC_CLIENT_EC_ERR(cmd->result);
out:
	if (cmd != (struct cros_ec_command_v2 *)stack_buf)
		free(cmd);
	return ret;
}

/* One READ_MEMMAP host command of @want bytes (at most the max response). */
static int read_memmap_cmd(struct ec_client *c, uint32_t offset, uint32_t want, uint8_t *buf)
{
	struct ec_params_read_memmap params = {
		.offset = (uint8_t)offset,
		.size = (uint8_t)want,
	};
	uint32_t result;
	int ret;

	ret = ec_client_xcmd(c, EC_CMD_READ_MEMMAP, 0, &params, sizeof(params), buf, want,
			     &result);
	if (ret < 0)
		return ret;
	if (result != EC_RES_SUCCESS)
		return EC_CLIENT_EC_ERR(result);
	return (uint32_t)ret == want ? ret : -EPROTO;
}

/*
 * READ_MEMMAP, for ECs without direct memory-map access: in pieces no larger
 * than the EC's max response, so a small EC still serves a 255-byte read.
 */
static int readmem_via_hostcmd(struct ec_client *c, uint32_t offset, uint32_t bytes,
			       uint8_t *buf)
{
	uint8_t local[CROS_EC_MEMMAP_SIZE];
	uint32_t want = bytes, done = 0;
	uint8_t *dst = buf;
	uint8_t *nul;
	int ret;

	/*
	 * A string has no known length: read up to the end of the map into a
	 * local buffer and hand back only the string, as READMEM would.
	 */
	if (!bytes) {
		want = CROS_EC_MEMMAP_SIZE - offset;
		if (want > 255)
			want = 255;
		dst = local;
	}
	while (done < want) {
		uint32_t chunk = want - done;

		if (chunk > c->max_response)
			chunk = (uint32_t)c->max_response;
		ret = read_memmap_cmd(c, offset + done, chunk, dst + done);
		if (ret < 0)
			return ret;
		done += chunk;
		/* A string may end in this piece: no need to read on. */
		if (!bytes && memchr(dst + done - chunk, '\0', chunk))
			break;
	}
	if (bytes)
		return (int)done;
	nul = memchr(local, '\0', done);
	if (!nul)
		return -EPROTO;
	ret = (int)(nul - local) + 1;
	memcpy(buf, local, (size_t)ret);
	return ret;
}

int ec_client_readmem(struct ec_client *c, uint32_t offset, uint32_t bytes, void *buf)
{
	struct cros_ec_readmem_v2 rm;
	int ret;

	if (!c || !buf)
		return -EINVAL;
	if (offset >= CROS_EC_MEMMAP_SIZE || bytes > sizeof(rm.buffer) ||
	    offset + bytes > CROS_EC_MEMMAP_SIZE)
		return -EINVAL;
	if (!c->direct_memmap)
		return readmem_via_hostcmd(c, offset, bytes, buf);

	memset(&rm, 0, sizeof(rm));
	rm.offset = offset;
	rm.bytes = bytes;
	ret = client_gone(c, c->ops->ioctl(c->ctx, CROS_EC_DEV_IOCRDMEM_V2, (unsigned long)&rm));
	if (ret < 0)
		return ret;
	if ((uint32_t)ret > sizeof(rm.buffer) || (bytes && (uint32_t)ret > bytes))
		return -EPROTO;
	memcpy(buf, rm.buffer, (size_t)ret);
	return ret;
}

int ec_client_set_event_mask(struct ec_client *c, uint32_t mask)
{
	int ret;

	if (!c)
		return -EINVAL;
	ret = client_gone(c, c->ops->ioctl(c->ctx, CROS_EC_DEV_IOCEVENTMASK_V2, mask));
	return ret < 0 ? ret : 0;
}

int ec_client_poll(struct ec_client *c, int timeout_ms)
{
	if (!c)
		return -EINVAL;
	return c->ops->poll(c->ctx, timeout_ms);
}

/*
 * Without a timeout, wait where a blocking reader waits: in read(), inside
 * the driver (what an unplug must wake). A non-blocking file polls first.
 */
static int read_event_blocking(struct ec_client *c, void *buf, size_t len)
{
	ssize_t got;
	int revents;

	for (;;) {
		got = client_gone(c, (int)c->ops->read(c->ctx, buf, len));
		if (got == -EINTR)
			continue;
		if (got != -EAGAIN)
			break;
		revents = c->ops->poll(c->ctx, -1);
		if (revents < 0 && revents != -EINTR)
			return revents;
	}
	if (got < 0)
		return (int)got;
	return got ? (int)got : -ENODATA;
}

int ec_client_read_event(struct ec_client *c, void *buf, size_t len, int timeout_ms)
{
	int64_t deadline = 0;
	ssize_t got;
	int revents;

	if (!c || !buf || !len)
		return -EINVAL;
	if (timeout_ms < 0)
		return read_event_blocking(c, buf, len);
	deadline = (int64_t)(mono_now_ns() / 1000000) + timeout_ms;

	for (;;) {
		int64_t left = deadline - (int64_t)(mono_now_ns() / 1000000);
		int wait_ms = left > 0 ? (int)(left > INT_MAX ? INT_MAX : left) : 0;

		revents = c->ops->poll(c->ctx, wait_ms);
		if (revents == -EINTR)
			continue;
		if (revents < 0)
			return revents;
		if (revents == 0) {
			if ((int64_t)(mono_now_ns() / 1000000) >= deadline)
				return -ETIMEDOUT;
			continue;
		}
		/*
		 * POLLERR/POLLHUP mean the EC or the daemon went away: the
		 * read below says so.
		 */
		got = client_gone(c, (int)c->ops->read(c->ctx, buf, len));
		if (got == -EAGAIN || got == -EINTR) {
			/* Another thread took the event first; wait again. */
			if (!(revents & (POLLERR | POLLHUP | POLLNVAL)))
				continue;
			return EC_CLIENT_GONE;
		}
		if (got < 0)
			return (int)got;
		if (got == 0)
			return -ENODATA;
		return (int)got;
	}
}

/* ---- start-up ---- */

static int fail(struct ec_client_error *error, enum ec_client_step step, int err,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(struct ec_client_error *error, enum ec_client_step step, int err,
		const char *fmt, ...)
{
	va_list ap;

	if (error) {
		error->step = step;
		error->err = err;
		va_start(ap, fmt);
		vsnprintf(error->message, sizeof(error->message), fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Step 1: the version text's first line must be exactly "1.0.0". */
static int startup_version_text(struct ec_client *c, struct ec_client_error *error)
{
	ssize_t got;
	size_t first_len;

	got = client_gone(c, (int)c->ops->read(c->ctx, c->version_text, VERSION_READ_LEN));
	if (got < 0)
		return fail(error, EC_STEP_VERSION_TEXT, (int)got,
			    "step 1: reading the version text failed: %s", strerror((int)-got));
	c->version_text[got] = '\0';
	first_len = strcspn(c->version_text, "\n");
	if (first_len != strlen(CROS_EC_DEV_VERSION) ||
	    memcmp(c->version_text, CROS_EC_DEV_VERSION, first_len))
		return fail(error, EC_STEP_VERSION_TEXT, -EPROTO,
			    "step 1: first line of the version text is \"%.*s\", expected \"%s\"",
			    (int)(first_len > 32 ? 32 : first_len), c->version_text,
			    CROS_EC_DEV_VERSION);
	return 0;
}

/*
 * The obsolete pointer-based v1 XCMD argument. Only its size matters (it is
 * encoded in the ioctl number); a cros_ec device must refuse it unread.
 */
struct xcmd_v1_probe {
	uint32_t version;
	uint32_t command;
	uint8_t *outdata;
	uint32_t outsize;
	uint8_t *indata;
	uint32_t insize;
	uint32_t result;
};

/* On 64-bit the ioctl number encodes exactly this struct's 40 bytes. */
_Static_assert(sizeof(void *) != 8 || sizeof(struct xcmd_v1_probe) == 0x28,
	       "v1 XCMD argument is 0x28 bytes, as in 0xC0283A00");

/* Step 2: v1 XCMD HELLO must fail with ENOTTY. */
static int startup_v1_probe(struct ec_client *c, struct ec_client_error *error)
{
	struct ec_params_hello hello_req = { .in_data = 0xa0b0c0d0 };
	struct ec_response_hello hello_resp;
	struct xcmd_v1_probe probe = {
		.command = EC_CMD_HELLO,
		.outdata = (uint8_t *)&hello_req,
		.outsize = sizeof(hello_req),
		.indata = (uint8_t *)&hello_resp,
		.insize = sizeof(hello_resp),
		.result = 0xff,
	};
	int ret;

	ret = client_gone(c, c->ops->ioctl(c->ctx, CROS_EC_DEV_IOCXCMD_V1, (unsigned long)&probe));
	if (ret == -ENOTTY)
		return 0;
	if (ret >= 0)
		return fail(error, EC_STEP_V1_PROBE, -EPROTO,
			    "step 2: the obsolete v1 XCMD ioctl succeeded; expected ENOTTY");
	return fail(error, EC_STEP_V1_PROBE, ret,
		    "step 2: the v1 XCMD probe failed with %s; expected ENOTTY",
		    strerror(-ret));
}

/* Step 3: the memory map must say "EC" at 0x20 (by READMEM or READ_MEMMAP). */
static int startup_memmap_id(struct ec_client *c, unsigned int flags,
			     struct ec_client_error *error)
{
	char id[2], why[96];
	int ret;

	c->direct_memmap = !(flags & EC_CLIENT_NO_MEMMAP);
	ret = ec_client_readmem(c, EC_MEMMAP_ID, sizeof(id), id);
	if (ret == -ENOTTY && c->direct_memmap) {
		c->direct_memmap = false;
		ret = ec_client_readmem(c, EC_MEMMAP_ID, sizeof(id), id);
	}
	if (ret < 0)
		return fail(error, EC_STEP_MEMMAP_ID, ret,
			    "step 3: reading the memory-map id (%s) failed: %s",
			    c->direct_memmap ? "READMEM" : "READ_MEMMAP",
			    ec_client_strerror(ret, why, sizeof(why)));
	if (ret != (int)sizeof(id) || id[0] != 'E' || id[1] != 'C')
		return fail(error, EC_STEP_MEMMAP_ID, -EPROTO,
			    "step 3: memory-map id is %d byte(s) 0x%02x 0x%02x; expected \"EC\"",
			    ret, ret > 0 ? (uint8_t)id[0] : 0, ret > 1 ? (uint8_t)id[1] : 0);
	return 0;
}

/* Step 4: GET_PROTOCOL_INFO must return exactly 12 bytes; sizes follow. */
static int startup_protocol_info(struct ec_client *c, struct ec_client_error *error)
{
	struct ec_response_get_protocol_info info;
	uint32_t result;
	int ret;

	ret = ec_client_xcmd(c, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, &info, sizeof(info),
			     &result);
	if (ret < 0)
		return fail(error, EC_STEP_PROTOCOL_INFO, ret,
			    "step 4: GET_PROTOCOL_INFO failed: %s", strerror(-ret));
	if (result != EC_RES_SUCCESS)
		return fail(error, EC_STEP_PROTOCOL_INFO, -EPROTO,
			    "step 4: GET_PROTOCOL_INFO: EC result %u (%s)",
			    result, ec_result_name(result));
	if (ret != (int)sizeof(info))
		return fail(error, EC_STEP_PROTOCOL_INFO, -EPROTO,
			    "step 4: GET_PROTOCOL_INFO returned %d bytes; expected %zu",
			    ret, sizeof(info));
	/* A packet carries an 8-byte header; anything not above it is nonsense. */
	if (info.max_request_packet_size <= 8 || info.max_response_packet_size <= 8)
		return fail(error, EC_STEP_PROTOCOL_INFO, -EPROTO,
			    "step 4: GET_PROTOCOL_INFO packet sizes %u/%u are not above 8",
			    info.max_request_packet_size, info.max_response_packet_size);
	c->max_request = info.max_request_packet_size - 8u;
	c->max_response = info.max_response_packet_size - 8u;
	return 0;
}

int ec_client_attach(const struct ec_transport_ops *ops, void *ctx, unsigned int flags,
		     struct ec_client_error *error, struct ec_client **out)
{
	struct ec_client *c;
	int ret;

	if (error)
		memset(error, 0, sizeof(*error));
	if (!ops || !ops->ioctl || !ops->read || !ops->poll || !out)
		return fail(error, EC_STEP_OPEN, -EINVAL, "invalid arguments");

	c = calloc(1, sizeof(*c));
	if (!c)
		return fail(error, EC_STEP_OPEN, -ENOMEM, "out of memory");
	c->ops = ops;
	c->ctx = ctx;
	c->direct_memmap = !(flags & EC_CLIENT_NO_MEMMAP);
	c->max_request = EC_CLIENT_DEFAULT_MAX_PAYLOAD;
	c->max_response = EC_CLIENT_DEFAULT_MAX_PAYLOAD;

	if (!(flags & EC_CLIENT_RAW)) {
		ret = startup_version_text(c, error);
		if (!ret)
			ret = startup_v1_probe(c, error);
		if (!ret)
			ret = startup_memmap_id(c, flags, error);
		if (!ret)
			ret = startup_protocol_info(c, error);
		if (ret) {
			free(c);
			return ret;
		}
	}
	*out = c;
	return 0;
}

int ec_client_open_diag(const char *name_or_path, unsigned int flags,
			struct ec_client_error *error, struct ec_client **out)
{
	char path[PATH_MAX];
	struct fd_ctx *f;
	int open_flags = O_RDWR | O_CLOEXEC;
	int ret;

	if (error)
		memset(error, 0, sizeof(*error));
	if (!name_or_path || !*name_or_path || !out)
		return fail(error, EC_STEP_OPEN, -EINVAL, "no device name given");
	/* Like real clients: a bare name lives directly under /dev/. */
	if (strchr(name_or_path, '/'))
		ret = snprintf(path, sizeof(path), "%s", name_or_path);
	else
		ret = snprintf(path, sizeof(path), "/dev/%s", name_or_path);
	if (ret < 0 || (size_t)ret >= sizeof(path))
		return fail(error, EC_STEP_OPEN, -ENAMETOOLONG, "device path too long");

	f = malloc(sizeof(*f));
	if (!f)
		return fail(error, EC_STEP_OPEN, -ENOMEM, "out of memory");
	if (flags & EC_CLIENT_NONBLOCK)
		open_flags |= O_NONBLOCK;
	f->fd = open(path, open_flags);
	if (f->fd < 0) {
		ret = -errno;
		free(f);
		return fail(error, EC_STEP_OPEN, ret, "cannot open %s: %s", path,
			    strerror(-ret));
	}
	ret = ec_client_attach(&fd_transport_ops, f, flags, error, out);
	if (ret)
		fd_close(f);
	return ret;
}

int ec_client_open(const char *name_or_path, unsigned int flags, struct ec_client **out)
{
	return ec_client_open_diag(name_or_path, flags, NULL, out);
}

void ec_client_close(struct ec_client *c)
{
	if (!c)
		return;
	if (c->ops->close)
		c->ops->close(c->ctx);
	free(c);
}

size_t ec_client_max_request(const struct ec_client *c)
{
	return c->max_request;
}

size_t ec_client_max_response(const struct ec_client *c)
{
	return c->max_response;
}

bool ec_client_has_direct_memmap(const struct ec_client *c)
{
	return c->direct_memmap;
}

const char *ec_client_version_text(const struct ec_client *c)
{
	return c->version_text;
}
