// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_recording.c - the recording model: a list of records (host commands,
 * memory-map reads, events, unplug and plug, each with its time), the
 * native text format both ways, and the reader that picks a format by the
 * first line. umockdev's format is in ec_recording_umockdev.c, the replay
 * in ec_replay.c. The format is cuse_ec-recording(5).
 *
 * A recording is built by one thread (a loader, a test) and only read
 * afterwards, so it has no lock; the replay that reads it has its own.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/common.h"
#include "ec_internal.h"

#define EC_REC_NATIVE_MAGIC	"cuse_ec-recording"
#define EC_REC_NATIVE_VERSION	1
/* A file larger than this is no session anybody shares. */
#define EC_REC_FILE_MAX		(16u << 20)

struct ec_recording {
	struct ec_rec *recs;
	size_t n, cap;
	char *device;
};

/* The kinds as the native format names them: the one table of names. */
static const char *const ec_rec_kind_names[EC_REC_KINDS] = {
	[EC_REC_XCMD] = "xcmd",
	[EC_REC_READMEM] = "readmem",
	[EC_REC_EVENT] = "event",
	[EC_REC_UNPLUG] = "unplug",
	[EC_REC_PLUG] = "plug",
};

int ec_recording_create(struct ec_recording **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void ec_recording_destroy(struct ec_recording *rec)
{
	size_t i;

	if (!rec)
		return;
	/* One allocation a record holds both buffers (ec_recording_add()). */
	for (i = 0; i < rec->n; i++)
		free((void *)rec->recs[i].data);
	free(rec->recs);
	free(rec->device);
	free(rec);
}

int ec_recording_add(struct ec_recording *rec, const struct ec_rec *r)
{
	uint32_t req_len;
	struct ec_rec copy;
	uint8_t *buf;

	if (!rec || !r || r->kind >= EC_REC_KINDS)
		return -EINVAL;
	req_len = r->kind == EC_REC_XCMD && r->req_known ? r->out_size : 0;
	if (req_len > EC_REC_DATA_MAX || r->data_len > EC_REC_DATA_MAX ||
	    (req_len && !r->req) || (r->data_len && !r->data))
		return -EINVAL;
	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? rec->cap * 2 : 64;
		struct ec_rec *grown = realloc(rec->recs, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		rec->recs = grown;
		rec->cap = cap;
	}
	/* data first: its pointer is the allocation's, freed by destroy. */
	buf = malloc((size_t)r->data_len + req_len + 1);
	if (!buf)
		return -ENOMEM;
	copy = *r;
	if (r->data_len)
		memcpy(buf, r->data, r->data_len);
	if (req_len)
		memcpy(buf + r->data_len, r->req, req_len);
	copy.data = buf;
	copy.req = req_len ? buf + r->data_len : NULL;
	if (r->kind != EC_REC_XCMD)
		copy.req_known = false;
	rec->recs[rec->n++] = copy;
	return 0;
}

size_t ec_recording_count(const struct ec_recording *rec)
{
	return rec ? rec->n : 0;
}

const struct ec_rec *ec_recording_get(const struct ec_recording *rec, size_t i)
{
	return rec && i < rec->n ? &rec->recs[i] : NULL;
}

const char *ec_recording_device(const struct ec_recording *rec)
{
	return rec ? rec->device : NULL;
}

int ec_recording_set_device(struct ec_recording *rec, const char *path)
{
	char *copy = NULL;
	const char *p;

	if (!rec)
		return -EINVAL;
	if (path) {
		if (path[0] != '/')
			return -EINVAL;
		for (p = path; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == 0x7f)
				return -EINVAL;
		copy = strdup(path);
		if (!copy)
			return -ENOMEM;
	}
	free(rec->device);
	rec->device = copy;
	return 0;
}

int ec_rec_format_parse(const char *name, enum ec_rec_format *out)
{
	if (!name || !out)
		return -EINVAL;
	if (!strcmp(name, "native"))
		*out = EC_REC_FORMAT_NATIVE;
	else if (!strcmp(name, "umockdev"))
		*out = EC_REC_FORMAT_UMOCKDEV;
	else
		return -EINVAL;
	return 0;
}

enum ec_rec_format ec_rec_format_for_path(const char *path)
{
	size_t len = path ? strlen(path) : 0;

	if (len >= 6 && !strcmp(path + len - 6, ".ioctl"))
		return EC_REC_FORMAT_UMOCKDEV;
	return EC_REC_FORMAT_NATIVE;
}

/* ---- hex, both ways (shared with the umockdev format) ---- */

static int ec_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ec_rec_hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t room,
		      size_t *out_len)
{
	size_t i;

	if (hex_len % 2)
		return -EINVAL;
	if (hex_len / 2 > room)
		return -EMSGSIZE;
	for (i = 0; i < hex_len; i += 2) {
		int hi = ec_hex_digit(hex[i]), lo = ec_hex_digit(hex[i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	*out_len = hex_len / 2;
	return 0;
}

int ec_rec_hex_write(FILE *out, const uint8_t *buf, size_t len, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		if (putc(digits[buf[i] >> 4], out) == EOF || putc(digits[buf[i] & 15], out) == EOF)
			return -EIO;
	}
	return 0;
}

void ec_rec_err(char *err, size_t errlen, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err || !errlen)
		return;
	if (line)
		n = snprintf(err, errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- the native format ---- */

/* A hex field, or "-" for none. */
static int ec_native_hex(FILE *out, const char *key, const uint8_t *buf, size_t len)
{
	if (fprintf(out, " %s=", key) < 0)
		return -EIO;
	if (!len)
		return putc('-', out) == EOF ? -EIO : 0;
	return ec_rec_hex_write(out, buf, len, false);
}

static int ec_native_write(const struct ec_rec *r, FILE *out)
{
	int ret;

	if (fprintf(out, "%" PRIu64 " %s", r->t_ns, ec_rec_kind_names[r->kind]) < 0)
		return -EIO;
	switch (r->kind) {
	case EC_REC_XCMD:
		if (fprintf(out, " cmd=0x%04" PRIx32 " ver=%" PRIu32 " out=%" PRIu32
			    " in=%" PRIu32 " result=%" PRIu32 " ret=%" PRId32,
			    r->command, r->version, r->out_size, r->in_size, r->result,
			    r->ret) < 0)
			return -EIO;
		if (r->req_known)
			ret = ec_native_hex(out, "req", r->req, r->out_size);
		else
			ret = fputs(" req=?", out) == EOF ? -EIO : 0;
		if (!ret)
			ret = ec_native_hex(out, "data", r->data, r->data_len);
		break;
	case EC_REC_READMEM:
		if (fprintf(out, " offset=%" PRIu32 " bytes=%" PRIu32 " ret=%" PRId32,
			    r->offset, r->in_size, r->ret) < 0)
			return -EIO;
		ret = ec_native_hex(out, "data", r->data, r->data_len);
		break;
	case EC_REC_EVENT:
		ret = ec_native_hex(out, "data", r->data, r->data_len);
		break;
	default:
		ret = 0;
		break;
	}
	if (!ret && putc('\n', out) == EOF)
		ret = -EIO;
	return ret;
}

int ec_rec_write(enum ec_rec_format format, const struct ec_rec *r, FILE *out)
{
	int ret;

	if (!r || !out || r->kind >= EC_REC_KINDS)
		return -EINVAL;
	switch (format) {
	case EC_REC_FORMAT_NATIVE:
		ret = ec_native_write(r, out);
		return ret ? ret : 1;
	case EC_REC_FORMAT_UMOCKDEV:
		return ec_umockdev_write(r, out);
	}
	return -EINVAL;
}

int ec_recording_write_header(enum ec_rec_format format, const char *device, FILE *out)
{
	if (!out)
		return -EINVAL;
	switch (format) {
	case EC_REC_FORMAT_NATIVE:
		if (fprintf(out, "%s %d\n", EC_REC_NATIVE_MAGIC, EC_REC_NATIVE_VERSION) < 0)
			return -EIO;
		if (device && fprintf(out, "device %s\n", device) < 0)
			return -EIO;
		return 0;
	case EC_REC_FORMAT_UMOCKDEV:
		if (device && fprintf(out, "@DEV %s\n", device) < 0)
			return -EIO;
		return 0;
	}
	return -EINVAL;
}

int ec_recording_write(const struct ec_recording *rec, enum ec_rec_format format, FILE *out,
		       size_t *skipped)
{
	size_t i, left_out = 0;
	int ret;

	if (!rec)
		return -EINVAL;
	ret = ec_recording_write_header(format, rec->device, out);
	for (i = 0; !ret && i < rec->n; i++) {
		ret = ec_rec_write(format, &rec->recs[i], out);
		if (ret == 0)
			left_out++;
		ret = ret < 0 ? ret : 0;
	}
	if (skipped)
		*skipped = left_out;
	return ret;
}

/*
 * One "key=value" field of a native line, in its fixed place: @tok is the
 * field, @key what it must be called. Return: the value, or NULL.
 */
static const char *ec_native_field(const char *tok, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(tok, key, n) || tok[n] != '=')
		return NULL;
	return tok + n + 1;
}

/* A field's number in [0, @max], its name in the message. */
static int ec_native_uint(const char *tok, const char *key, uint64_t max, uint64_t *out,
			  unsigned int line, char *err, size_t errlen)
{
	char why[PARSE_ERR_MAX];
	const char *val = ec_native_field(tok, key);

	if (!val) {
		ec_rec_err(err, errlen, line, "expected '%s=', found '%.40s'", key, tok);
		return -EINVAL;
	}
	if (parse_uint(val, key, 0, max, out, why, sizeof(why))) {
		ec_rec_err(err, errlen, line, "%s", why);
		return -EINVAL;
	}
	return 0;
}

/* "ret=": bytes (>= 0) or -errno (-1 .. -4095). */
int ec_rec_parse_ret(const char *val, int32_t *out, unsigned int line, char *err, size_t errlen)
{
	char why[PARSE_ERR_MAX];
	uint64_t v;
	bool neg = val[0] == '-';

	if (parse_uint(val + neg, "ret", neg ? 1 : 0, neg ? 4095 : EC_REC_DATA_MAX, &v, why,
		       sizeof(why))) {
		ec_rec_err(err, errlen, line, "%s", why);
		return -EINVAL;
	}
	*out = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}

/* A hex field ("-": none) into @buf. */
static int ec_native_bytes(const char *tok, const char *key, uint8_t *buf, size_t room,
			   uint32_t *len, unsigned int line, char *err, size_t errlen)
{
	const char *val = ec_native_field(tok, key);
	size_t n = 0;
	int ret;

	if (!val) {
		ec_rec_err(err, errlen, line, "expected '%s=', found '%.40s'", key, tok);
		return -EINVAL;
	}
	if (strcmp(val, "-")) {
		ret = ec_rec_hex_decode(val, strlen(val), buf, room, &n);
		if (ret || !n) {
			ec_rec_err(err, errlen, line, ret == -EMSGSIZE ?
				   "%s: more than %zu bytes" : "%s: not an even count of hex digits (or '-')",
				   key, room);
			return -EINVAL;
		}
	}
	*len = (uint32_t)n;
	return 0;
}

/* The fields each kind has, in order, after time and kind. */
static const unsigned int ec_native_nfields[EC_REC_KINDS] = {
	[EC_REC_XCMD] = 8, [EC_REC_READMEM] = 4, [EC_REC_EVENT] = 1,
	[EC_REC_UNPLUG] = 0, [EC_REC_PLUG] = 0,
};

#define EC_NATIVE_TOKENS_MAX	12

/*
 * One record line: "T KIND FIELD...". @line is modified (split at blanks).
 * @req and @data are EC_REC_DATA_MAX bytes of room the record points into.
 */
static int ec_native_parse_line(char *line, unsigned int lineno, struct ec_rec *r,
				uint8_t *req, uint8_t *data, char *err, size_t errlen)
{
	char *tok[EC_NATIVE_TOKENS_MAX], *save = NULL, *t, why[PARSE_ERR_MAX];
	unsigned int n = 0, k;
	uint64_t v[4];
	uint32_t req_len = 0;

	for (t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == EC_NATIVE_TOKENS_MAX) {
			ec_rec_err(err, errlen, lineno, "too many fields");
			return -EINVAL;
		}
		tok[n++] = t;
	}
	if (n < 2) {
		ec_rec_err(err, errlen, lineno, "expected 'TIME KIND ...'");
		return -EINVAL;
	}
	*r = (struct ec_rec){ .req = req, .data = data };
	if (parse_uint(tok[0], "time", 0, UINT64_MAX, &r->t_ns, why, sizeof(why))) {
		ec_rec_err(err, errlen, lineno, "%s", why);
		return -EINVAL;
	}
	for (k = 0; k < EC_REC_KINDS; k++)
		if (!strcmp(tok[1], ec_rec_kind_names[k]))
			break;
	if (k == EC_REC_KINDS) {
		ec_rec_err(err, errlen, lineno, "unknown record kind '%.40s'", tok[1]);
		return -EINVAL;
	}
	r->kind = (enum ec_rec_kind)k;
	if (n - 2 != ec_native_nfields[k]) {
		ec_rec_err(err, errlen, lineno, "%s takes %u fields, found %u",
			   ec_rec_kind_names[k], ec_native_nfields[k], n - 2);
		return -EINVAL;
	}
	switch (r->kind) {
	case EC_REC_XCMD:
		if (ec_native_uint(tok[2], "cmd", 0xFFFF, &v[0], lineno, err, errlen) ||
		    ec_native_uint(tok[3], "ver", 31, &v[1], lineno, err, errlen) ||
		    ec_native_uint(tok[4], "out", EC_REC_DATA_MAX, &v[2], lineno, err, errlen) ||
		    ec_native_uint(tok[5], "in", EC_REC_DATA_MAX, &v[3], lineno, err, errlen))
			return -EINVAL;
		r->command = (uint32_t)v[0];
		r->version = (uint32_t)v[1];
		r->out_size = (uint32_t)v[2];
		r->in_size = (uint32_t)v[3];
		if (ec_native_uint(tok[6], "result", UINT32_MAX, &v[0], lineno, err, errlen))
			return -EINVAL;
		r->result = (uint32_t)v[0];
		if (!ec_native_field(tok[7], "ret")) {
			ec_rec_err(err, errlen, lineno, "expected 'ret=', found '%.40s'", tok[7]);
			return -EINVAL;
		}
		if (ec_rec_parse_ret(tok[7] + 4, &r->ret, lineno, err, errlen))
			return -EINVAL;
		if (ec_native_field(tok[8], "req") && !strcmp(tok[8], "req=?")) {
			r->req_known = false;
		} else {
			if (ec_native_bytes(tok[8], "req", req, EC_REC_DATA_MAX, &req_len, lineno,
					    err, errlen))
				return -EINVAL;
			if (req_len != r->out_size) {
				ec_rec_err(err, errlen, lineno, "req has %" PRIu32 " bytes, out says %"
					   PRIu32, req_len, r->out_size);
				return -EINVAL;
			}
			r->req_known = true;
		}
		if (ec_native_bytes(tok[9], "data", data, EC_REC_DATA_MAX, &r->data_len, lineno,
				    err, errlen))
			return -EINVAL;
		if (r->data_len > r->in_size || (r->ret > 0 && (uint32_t)r->ret > r->in_size)) {
			ec_rec_err(err, errlen, lineno, "an answer longer than in=%" PRIu32,
				   r->in_size);
			return -EINVAL;
		}
		return 0;
	case EC_REC_READMEM:
		if (ec_native_uint(tok[2], "offset", 254, &v[0], lineno, err, errlen) ||
		    ec_native_uint(tok[3], "bytes", 255, &v[1], lineno, err, errlen))
			return -EINVAL;
		r->offset = (uint32_t)v[0];
		r->in_size = (uint32_t)v[1];
		if (!ec_native_field(tok[4], "ret")) {
			ec_rec_err(err, errlen, lineno, "expected 'ret=', found '%.40s'", tok[4]);
			return -EINVAL;
		}
		if (ec_rec_parse_ret(tok[4] + 4, &r->ret, lineno, err, errlen) ||
		    ec_native_bytes(tok[5], "data", data, 255, &r->data_len, lineno, err, errlen))
			return -EINVAL;
		if (r->ret > 255) {
			ec_rec_err(err, errlen, lineno, "ret above the map's 255 bytes");
			return -EINVAL;
		}
		return 0;
	case EC_REC_EVENT:
		if (ec_native_bytes(tok[2], "data", data, 1 + EC_EVENT_PAYLOAD_MAX, &r->data_len,
				    lineno, err, errlen))
			return -EINVAL;
		if (!r->data_len) {
			ec_rec_err(err, errlen, lineno, "an event has at least its type byte");
			return -EINVAL;
		}
		return 0;
	default:
		return 0;
	}
}

/* ---- reading: lines, the format, the records ---- */

/* Longest line either format writes, with room to spare. */
#define EC_REC_LINE_MAX		(2 * (EC_REC_DATA_MAX + 64) + 256)

struct ec_rec_reader {
	const char *text;
	size_t len, pos;
	unsigned int lineno;
	char line[EC_REC_LINE_MAX + 1];
};

/* The next line without its newline. Return: 1, 0 at the end, -EINVAL. */
static int ec_rec_next_line(struct ec_rec_reader *rd, char *err, size_t errlen)
{
	const char *start, *nl;
	size_t n;

	if (rd->pos >= rd->len)
		return 0;
	start = rd->text + rd->pos;
	nl = memchr(start, '\n', rd->len - rd->pos);
	n = nl ? (size_t)(nl - start) : rd->len - rd->pos;
	rd->pos += n + (nl ? 1 : 0);
	rd->lineno++;
	if (n > EC_REC_LINE_MAX) {
		ec_rec_err(err, errlen, rd->lineno, "longer than %d characters", EC_REC_LINE_MAX);
		return -EINVAL;
	}
	if (memchr(start, '\0', n)) {
		ec_rec_err(err, errlen, rd->lineno, "a NUL byte");
		return -EINVAL;
	}
	memcpy(rd->line, start, n);
	rd->line[n] = '\0';
	return 1;
}

static int ec_rec_parse_native(struct ec_rec_reader *rd, struct ec_recording *rec,
			       uint8_t *req, uint8_t *data, char *err, size_t errlen)
{
	struct ec_rec r;
	int ret;

	while ((ret = ec_rec_next_line(rd, err, errlen)) > 0) {
		if (rd->line[0] == '#' || !rd->line[0])
			continue;
		if (!strncmp(rd->line, "device ", 7)) {
			if (rec->n || rec->device) {
				ec_rec_err(err, errlen, rd->lineno,
					   "'device' only once, before the first record");
				return -EINVAL;
			}
			ret = ec_recording_set_device(rec, rd->line + 7);
			if (ret == -EINVAL)
				ec_rec_err(err, errlen, rd->lineno,
					   "device: not an absolute path without blanks");
			if (ret)
				return ret;
			continue;
		}
		ret = ec_native_parse_line(rd->line, rd->lineno, &r, req, data, err, errlen);
		if (ret)
			return ret;
		ret = ec_recording_add(rec, &r);
		if (ret)
			return ret;
	}
	return ret;
}

int ec_recording_parse(const char *text, size_t len, struct ec_recording **out,
		       char *err, size_t errlen)
{
	struct ec_rec_reader *rd;
	struct ec_recording *rec = NULL;
	uint8_t *req = NULL, *data = NULL;
	char magic[sizeof(EC_REC_NATIVE_MAGIC) + 16];
	int ret, version;

	if (err && errlen)
		err[0] = '\0';
	if (!out || (!text && len))
		return -EINVAL;
	rd = calloc(1, sizeof(*rd));
	req = malloc(EC_REC_DATA_MAX);
	data = malloc(EC_REC_DATA_MAX);
	ret = ec_recording_create(&rec);
	if (!rd || !req || !data || ret) {
		ret = -ENOMEM;
		goto out;
	}
	rd->text = text;
	rd->len = len;

	/* The first line says which format; the other's parser never sees it. */
	ret = ec_rec_next_line(rd, err, errlen);
	if (ret <= 0) {
		if (!ret)
			ec_rec_err(err, errlen, 0, "empty: no format line");
		ret = -EINVAL;
		goto out;
	}
	if (!strncmp(rd->line, EC_REC_NATIVE_MAGIC " ", sizeof(EC_REC_NATIVE_MAGIC))) {
		char extra;

		if (sscanf(rd->line, "%24s %d%c", magic, &version, &extra) != 2 ||
		    version != EC_REC_NATIVE_VERSION) {
			ec_rec_err(err, errlen, 1, "unsupported version '%.40s' (this reads %s %d)",
				   rd->line, EC_REC_NATIVE_MAGIC, EC_REC_NATIVE_VERSION);
			ret = -EINVAL;
			goto out;
		}
		ret = ec_rec_parse_native(rd, rec, req, data, err, errlen);
	} else if (ec_umockdev_first_line(rd->line)) {
		rd->pos = 0;
		rd->lineno = 0;
		while ((ret = ec_rec_next_line(rd, err, errlen)) > 0) {
			ret = ec_umockdev_parse_line(rd->line, rd->lineno, rec, data, err, errlen);
			if (ret)
				break;
		}
	} else {
		ec_rec_err(err, errlen, 1, "neither '%s %d' nor a umockdev ioctl file",
			   EC_REC_NATIVE_MAGIC, EC_REC_NATIVE_VERSION);
		ret = -EINVAL;
	}
out:
	if (!ret)
		*out = rec;
	else
		ec_recording_destroy(rec);
	free(rd);
	free(req);
	free(data);
	return ret;
}

int ec_recording_load(const char *path, struct ec_recording **out, char *err, size_t errlen)
{
	char why[256] = "";
	struct stat st;
	char *text = NULL;
	size_t got = 0;
	ssize_t n;
	int fd, ret;

	if (!path || !out)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(why, sizeof(why), "%s", strerror(-ret));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(why, sizeof(why), "not a regular file");
		goto out;
	}
	if ((uint64_t)st.st_size > EC_REC_FILE_MAX) {
		ret = -EFBIG;
		snprintf(why, sizeof(why), "larger than %u MiB", EC_REC_FILE_MAX >> 20);
		goto out;
	}
	text = malloc((size_t)st.st_size + 1);
	if (!text) {
		ret = -ENOMEM;
		goto out;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, text + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(why, sizeof(why), "%s", strerror(-ret));
			goto out;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	ret = ec_recording_parse(text, got, out, why, sizeof(why));
out:
	if (ret && err && errlen)
		snprintf(err, errlen, "%s: %s", path, why[0] ? why : strerror(-ret));
	free(text);
	close(fd);
	return ret;
}
