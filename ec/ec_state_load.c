// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_state_load.c - loading a state blob (cuse_ec-state(5)): the header, the
 * records by name, their lengths and the values the board can hold are all
 * checked, and decoded into a staging copy, before the EC changes; then the
 * staged state goes into the EC in one hold of its lock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"
#include "ec_state_table.h"
#include "sha256.h"

#define EC_STATE_NAME_MAX	64	/* a record's name, bytes */

/*
 * Move the timestamps of @f in @data (a copy of the member) by @shift, the
 * loading EC's clock less the saving one's, modulo 2^64 so differences stay
 * exact; 0 means "none" and stays 0.
 */
static void ec_state_times_shift(const struct ec_state_field *f, uint8_t *data, uint64_t shift)
{
	size_t at;

	for (at = f->time_off; at + 8 <= f->size; at += f->stride) {
		uint64_t t;

		memcpy(&t, data + at, 8);
		if (t) {
			t += shift;
			if (!t)		/* would read as "none" */
				t = 1;
		}
		memcpy(data + at, &t, 8);
	}
}

/* A reader over the blob that fails once, and stays failed, at its end. */
struct ec_state_reader {
	const uint8_t *p, *end;
	bool short_read;
};

static const uint8_t *ec_state_take(struct ec_state_reader *r, size_t n)
{
	const uint8_t *at = r->p;

	if (r->short_read || (size_t)(r->end - r->p) < n) {
		r->short_read = true;
		return NULL;
	}
	r->p += n;
	return at;
}

static uint32_t ec_state_take32(struct ec_state_reader *r)
{
	const uint8_t *b = ec_state_take(r, 4);

	return b ? b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24 : 0;
}

static uint16_t ec_state_take16(struct ec_state_reader *r)
{
	const uint8_t *b = ec_state_take(r, 2);

	return b ? (uint16_t)(b[0] | b[1] << 8) : 0;
}

static int ec_state_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int ec_state_fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static const struct ec_state_field *ec_state_find(const uint8_t *name, size_t len, size_t *index)
{
	size_t i;

	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];

		if (strlen(f->name) == len && !memcmp(f->name, name, len)) {
			*index = i;
			return f;
		}
	}
	return NULL;
}

/*
 * What the handlers index with must lie inside what the board has: a file
 * whose digest is right can still come from a careless editor. The reason,
 * or NULL when the staged state is one the model can run.
 */
static const char *ec_state_unusable(const struct ec *st)
{
	const struct ec_flash_state *fl = &st->flash;
	uint32_t fsize = st->prof.flash_size, i;

	if (fl->n_blocks != ec_state_flash_blocks(st))
		return "flash.n_blocks does not match the board's flash";
	for (i = 0; i < fl->n_blocks; i++)
		if (fl->block_state[i] >= EC_STATE_BLOCK_STATES)
			return "flash.block_state holds an unknown block state";
	if (fl->written_blocks != ec_state_blocks_written(st))
		return "flash.written_blocks does not count the written blocks";
	if (fl->erase_offset > fsize || fl->erase_size > fsize - fl->erase_offset)
		return "flash.erase_offset/erase_size lie outside the flash";
	if (fl->hash_offset > fsize || fl->hash_size > fsize - fl->hash_offset)
		return "flash.hash_offset/hash_size lie outside the flash";
	if (fl->nonce_size > sizeof(fl->nonce))
		return "flash.nonce_size is larger than the nonce";
	if (st->pdc.log_head >= EC_PD_LOG_LEN || st->pdc.log_count > EC_PD_LOG_LEN)
		return "pdc.log_head/log_count lie outside the PD log";
	for (i = 0; i < EC_PD_LOG_LEN; i++)
		if (st->pdc.log[i].size > sizeof(st->pdc.log[i].payload))
			return "pdc.log holds an entry longer than its payload";
	if (st->hq_head >= EC_HOST_QUEUE_LEN || st->hq_count > EC_HOST_QUEUE_LEN)
		return "hq_head/hq_count lie outside the event queue";
	for (i = 0; i < EC_HOST_QUEUE_LEN; i++)
		if (st->host_queue[i].len > EC_EVENT_PAYLOAD_MAX)
			return "host_queue holds an event longer than its payload";
	if (st->chipset.splash_next >= EC_CHARGESPLASH_REQUESTS)
		return "chipset.splash_next lies outside the request log";
	if (st->batt_host.first_use_slots > EC_BATT_FIRST_USE_SLOTS)
		return "batt_host.first_use_slots is more than the pack's slots";
	if (st->motion.fifo_head >= EC_MOTION_FIFO_SIZE ||
	    st->motion.fifo_count > EC_MOTION_FIFO_SIZE)
		return "motion.fifo_head/fifo_count lie outside the sensor FIFO";
	if (st->motion.angle > 360 || st->motion.open_angle > 360)
		return "motion.angle/open_angle are not 0..360 degrees";
	for (i = 0; i < EC_MOTION_SENSORS_MAX; i++)
		if (!st->motion.sensor[i].range)
			return "motion.sensor has a range of 0";
	if (st->panic_len > EC_PANIC_MAX)
		return "panic_len is larger than the panic buffer";
	if (st->saved_len > st->resp_room)
		return "saved_len is larger than the response buffer";
	if (ec_state_has_fp(st)) {
		/* A capture writes one byte a pixel from frame_offset on. */
		if (st->fp.frame_valid > st->prof.fp_frame_size ||
		    st->fp.frame_offset > st->prof.fp_frame_size ||
		    (uint64_t)st->prof.fp_width * st->prof.fp_height >
		    st->prof.fp_frame_size - st->fp.frame_offset)
			return "fp.frame_valid/frame_offset lie outside the frame";
		if (st->fp.templ_valid > st->prof.fp_template_max || st->fp.templ_valid > 32)
			return "fp.templ_valid is more than the board's templates";
	}
	return NULL;
}

/* Free what a staging copy's codecs built. */
static void ec_state_release_staged(struct ec *st)
{
	size_t i = ec_state_n_fields;

	while (i--)
		if (ec_state_fields[i].how == EC_STATE_HEAP)
			ec_state_fields[i].codec->release(st);
}

/*
 * Header checks, in the order that gives the most useful message: a file
 * that is not ours, one from a newer build (whose layout after the version
 * may differ), one cut short or changed, one from another board.
 */
static int ec_state_check_header(const struct ec *ec, const uint8_t *blob, size_t len,
				 struct ec_state_reader *r, uint64_t *saved_now,
				 char *err, size_t errlen)
{
	const uint8_t *board;
	uint32_t version, kind;
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	uint16_t board_len;

	if (len < EC_STATE_MAGIC_LEN || memcmp(blob, EC_STATE_MAGIC, EC_STATE_MAGIC_LEN))
		return ec_state_fail(err, errlen, -EINVAL, "not an EC state file (no %s magic)",
				     EC_STATE_MAGIC);
	r->p = blob + EC_STATE_MAGIC_LEN;
	r->end = blob + len;
	version = ec_state_take32(r);
	if (r->short_read)
		return ec_state_fail(err, errlen, -EBADMSG, "corrupt state file: truncated");
	if (version > EC_STATE_FORMAT_VERSION)
		return ec_state_fail(err, errlen, -EPROTONOSUPPORT,
				     "state file format version %u is newer than this build reads (%u)",
				     version, EC_STATE_FORMAT_VERSION);
	if (version < 1)
		return ec_state_fail(err, errlen, -EBADMSG,
				     "corrupt state file: format version 0");
	if (len < (size_t)(r->p - blob) + SHA256_DIGEST_SIZE)
		return ec_state_fail(err, errlen, -EBADMSG, "corrupt state file: truncated");
	r->end = blob + len - SHA256_DIGEST_SIZE;
	sha256_init(&ctx);
	sha256_update(&ctx, blob, len - SHA256_DIGEST_SIZE);
	sha256_final(&ctx, digest);
	if (memcmp(digest, r->end, SHA256_DIGEST_SIZE))
		return ec_state_fail(err, errlen, -EBADMSG,
				     "corrupt state file: SHA-256 digest mismatch (truncated or changed)");
	board_len = ec_state_take16(r);
	board = ec_state_take(r, board_len);
	kind = ec_state_take32(r);
	*saved_now = ec_state_take32(r);
	*saved_now |= (uint64_t)ec_state_take32(r) << 32;
	if (r->short_read)
		return ec_state_fail(err, errlen, -EBADMSG, "corrupt state file: header cut short");
	if (board_len != strlen(ec->prof.board) || memcmp(board, ec->prof.board, board_len) ||
	    kind != ec->prof.kind)
		return ec_state_fail(err, errlen, -EXDEV,
				     "state file is from board '%.*s' (kind %u), this EC is board '%s' (kind %u)",
				     (int)(board_len > 64 ? 64 : board_len), (const char *)board,
				     kind, ec->prof.board, ec->prof.kind);
	return 0;
}

/* A record of the file, found by its table row. */
struct ec_state_record {
	const uint8_t *data;
	uint32_t len;
};

static int ec_state_wrong_size(const struct ec_state_field *f, uint32_t len, size_t want,
			       char *err, size_t errlen)
{
	return ec_state_fail(err, errlen, -EINVAL,
			     "state file's field '%s' is %u bytes, this EC's is %zu (a board of other dimensions)",
			     f->name, len, want);
}

/*
 * Every record into @rec (by table row): each name known, saved, seen once,
 * of the length the board gives; then every saved row present.
 */
static int ec_state_index_records(const struct ec *ec, struct ec_state_reader *r,
				  struct ec_state_record *rec, char *err, size_t errlen)
{
	uint32_t n = ec_state_take32(r), k;
	size_t i;

	for (k = 0; k < n; k++) {
		const struct ec_state_field *f;
		uint16_t name_len = ec_state_take16(r);
		const uint8_t *name = ec_state_take(r, name_len);
		uint32_t data_len = ec_state_take32(r);
		const uint8_t *data = ec_state_take(r, data_len);

		if (r->short_read)
			return ec_state_fail(err, errlen, -EBADMSG,
					     "corrupt state file: record %u cut short", k);
		if (name_len > EC_STATE_NAME_MAX)
			return ec_state_fail(err, errlen, -EBADMSG,
					     "corrupt state file: record %u has a %u-byte name",
					     k, name_len);
		f = ec_state_find(name, name_len, &i);
		if (!f || f->how == EC_STATE_NOT_SAVED)
			return ec_state_fail(err, errlen, -EINVAL,
					     "state file has field '%.*s', which this version does not know",
					     (int)name_len, (const char *)name);
		if (rec[i].data)
			return ec_state_fail(err, errlen, -EINVAL,
					     "state file has field '%s' twice", f->name);
		/* A buffer's size can hang on other fields: checked when staged. */
		if (f->how != EC_STATE_HEAP && data_len != f->size)
			return ec_state_wrong_size(f, data_len, f->size, err, errlen);
		rec[i].data = data;
		rec[i].len = data_len;
	}
	if (r->p != r->end)
		return ec_state_fail(err, errlen, -EBADMSG,
				     "corrupt state file: %zu bytes after the last record",
				     (size_t)(r->end - r->p));
	for (i = 0; i < ec_state_n_fields; i++)
		if (ec_state_fields[i].how != EC_STATE_NOT_SAVED && !rec[i].data)
			return ec_state_fail(err, errlen, -EINVAL,
					     "state file lacks field '%s'", ec_state_fields[i].name);
	return 0;
}

/* Decode the records into @st, a zeroed EC with @ec's board. */
static int ec_state_stage(struct ec *st, const struct ec_state_record *rec, char *err,
			  size_t errlen)
{
	const char *why;
	size_t i;
	int ret;

	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];

		if (f->how == EC_STATE_NOT_SAVED)
			continue;
		if (f->how != EC_STATE_HEAP) {
			memcpy((uint8_t *)st + f->offset, rec[i].data, f->size);
			continue;
		}
		if (rec[i].len != f->codec->size(st))
			return ec_state_wrong_size(f, rec[i].len, f->codec->size(st), err, errlen);
		ret = f->codec->decode(st, rec[i].data, rec[i].len);
		if (ret)
			return ec_state_fail(err, errlen, ret, "cannot load field '%s': %s",
					     f->name, strerror(-ret));
	}
	why = ec_state_unusable(st);
	if (why)
		return ec_state_fail(err, errlen, -EINVAL, "state file is unusable: %s", why);
	return 0;
}

/* Move the staged state into @ec, locked: nothing here can fail. */
static void ec_state_commit(struct ec *ec, struct ec *st, uint64_t saved_now)
{
	size_t i;

	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];
		uint8_t *dst = (uint8_t *)ec + f->offset;

		switch (f->how) {
		case EC_STATE_NOT_SAVED:
			continue;
		case EC_STATE_HEAP:
			f->codec->release(ec);
			memcpy(dst, (uint8_t *)st + f->offset, f->size);
			memset((uint8_t *)st + f->offset, 0, f->size);	/* now the EC's */
			continue;
		case EC_STATE_TIME:
			ec_state_times_shift(f, (uint8_t *)st + f->offset, ec->last_ns - saved_now);
			break;
		case EC_STATE_BYTES:
			break;
		}
		memcpy(dst, (uint8_t *)st + f->offset, f->size);
	}
	ec_memmap_refresh(ec);
}

int ec_state_load(struct ec *ec, const void *blob, size_t len, char *err, size_t errlen)
{
	struct ec_state_record *rec = NULL;
	struct ec_state_reader r = { 0 };
	struct ec *st = NULL;
	uint64_t saved_now = 0;
	size_t i;
	int ret;

	if (!ec || (!blob && len))
		return ec_state_fail(err, errlen, -EINVAL, "no EC or no state");
	if (!blob)
		return ec_state_fail(err, errlen, -EINVAL, "not an EC state file (empty)");
	ret = ec_state_check_header(ec, blob, len, &r, &saved_now, err, errlen);
	if (ret)
		return ret;
	rec = calloc(ec_state_n_fields, sizeof(*rec));
	st = calloc(1, sizeof(*st));
	if (!rec || !st) {
		ret = ec_state_fail(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	/* The board (and what it sizes) is the EC's: the header said they agree. */
	st->prof = ec->prof;
	st->resp_room = ec->resp_room;
	ret = ec_state_index_records(ec, &r, rec, err, errlen);
	if (!ret)
		ret = ec_state_stage(st, rec, err, errlen);
	if (ret)
		goto out;
	ec_lock_advance(ec);
	ec_state_commit(ec, st, saved_now);
	ec_unlock_notify(ec);
	ret = 0;
	for (i = 0; i < ec_state_n_fields; i++)
		ret += ec_state_fields[i].how != EC_STATE_NOT_SAVED;
out:
	if (st)
		ec_state_release_staged(st);
	free(st);
	free(rec);
	return ret;
}
