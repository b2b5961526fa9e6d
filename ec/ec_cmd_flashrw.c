// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_flashrw.c - the simulated flash chip: FLASH_READ, FLASH_WRITE,
 * FLASH_ERASE (with the asynchronous erase protocol), FLASH_REGION_INFO and
 * VBOOT_HASH (a real SHA-256 of the image, started, polled and aborted like
 * the firmware's background hash).
 *
 * Layout, as on a single-RW Chromebook EC: the read-only image fills the
 * first half of the flash, the read-write image the second. Bits are
 * cleared by writes and set by erases (the other way round when the
 * profile's FLASH_INFO flags say ERASE_TO_0), so a write over data that was
 * not erased gives what NOR flash gives: the AND of old and new.
 *
 * Background jobs run on the EC clock: an async erase takes
 * EC_ERASE_NS_PER_BLOCK per erase block, a started hash EC_HASH_NS_PER_KIB
 * per KiB. Both are settled lazily by every flash command (the only way a
 * host can see them).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"
#include "sha256.h"

#define EC_ERASE_NS_PER_BLOCK	2000000ull	/* 2 ms per erase block */
#define EC_HASH_NS_PER_KIB	1000000ull	/* 1 MiB/s */

static uint32_t ec_flash_half(const struct ec *ec)
{
	return ec->prof.flash_size / 2;
}

static uint8_t ec_flash_erased_byte(const struct ec *ec)
{
	return (ec->prof.flash_flags & EC_FLASH_INFO_ERASE_TO_0) ? 0x00 : 0xFF;
}

static uint64_t ec_hash_ns(uint32_t size)
{
	return EC_HASH_NS_PER_KIB * ((size + 1023ull) / 1024);
}

enum ec_flash_block_state {
	EC_BLOCK_PRISTINE = 0,	/* the factory image */
	EC_BLOCK_ERASED,
	EC_BLOCK_WRITTEN,	/* bytes in block[] */
};

/*
 * The factory image, one byte at a time so any block can be produced on
 * demand: each half starts with its version string, the first quarter of
 * the half is code (bytes hashed from the offset), the rest is erased.
 */
static uint8_t ec_flash_factory_byte(const struct ec *ec, uint32_t off)
{
	uint32_t half = ec_flash_half(ec);
	uint32_t rel = off < half ? off : off - half;
	const char *version = off < half ? ec->prof.version_ro : ec->prof.version_rw;
	size_t vlen = strlen(version);
	uint64_t x;

	if (rel <= vlen)	/* the string and its NUL */
		return (uint8_t)version[rel];
	if (rel >= half / 4)
		return ec_flash_erased_byte(ec);
	x = (uint64_t)off * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return (uint8_t)(x ^ (x >> 31));
}

/* Copy @len bytes from @off (inside the flash) to @dst. */
static void ec_flash_get(const struct ec *ec, uint32_t off, uint8_t *dst, uint32_t len)
{
	const struct ec_flash_state *fl = &ec->flash;
	uint32_t eb = ec->prof.flash_erase_block;

	while (len) {
		uint32_t b = off / eb, in = off % eb;
		uint32_t n = eb - in < len ? eb - in : len;
		uint32_t i;

		switch (fl->block_state[b]) {
		case EC_BLOCK_WRITTEN:
			memcpy(dst, fl->block[b] + in, n);
			break;
		case EC_BLOCK_ERASED:
			memset(dst, ec_flash_erased_byte(ec), n);
			break;
		default:
			for (i = 0; i < n; i++)
				dst[i] = ec_flash_factory_byte(ec, off + i);
			break;
		}
		off += n;
		dst += n;
		len -= n;
	}
}

/* Block @b as bytes a write can change; NULL when memory runs out. */
static uint8_t *ec_flash_block_mut(struct ec *ec, uint32_t b)
{
	struct ec_flash_state *fl = &ec->flash;
	uint32_t eb = ec->prof.flash_erase_block;

	if (fl->block_state[b] == EC_BLOCK_WRITTEN)
		return fl->block[b];
	fl->block[b] = malloc(eb);
	if (!fl->block[b])
		return NULL;
	ec_flash_get(ec, b * eb, fl->block[b], eb);
	fl->block_state[b] = EC_BLOCK_WRITTEN;
	fl->written_blocks++;
	return fl->block[b];
}

/* Erase whole blocks [@off, +@size): they stop costing memory. */
static void ec_flash_erase_now(struct ec *ec, uint32_t off, uint32_t size)
{
	struct ec_flash_state *fl = &ec->flash;
	uint32_t eb = ec->prof.flash_erase_block;
	uint32_t b;

	for (b = off / eb; b < (off + size) / eb; b++) {
		if (fl->block_state[b] == EC_BLOCK_WRITTEN) {
			free(fl->block[b]);
			fl->block[b] = NULL;
			fl->written_blocks--;
		}
		fl->block_state[b] = EC_BLOCK_ERASED;
	}
}

static bool ec_overlaps(uint32_t off, uint32_t size, uint32_t start, uint32_t len)
{
	return size && len && off < start + len && start < off + size;
}

static void ec_flash_digest(struct ec *ec)
{
	struct ec_flash_state *fl = &ec->flash;
	struct sha256_ctx ctx;
	uint8_t chunk[256];
	uint32_t done;

	sha256_init(&ctx);
	if (fl->nonce_size)
		sha256_update(&ctx, fl->nonce, fl->nonce_size);
	for (done = 0; done < fl->hash_size; done += sizeof(chunk)) {
		uint32_t n = fl->hash_size - done < sizeof(chunk) ? fl->hash_size - done :
			     (uint32_t)sizeof(chunk);

		ec_flash_get(ec, fl->hash_offset + done, chunk, n);
		sha256_update(&ctx, chunk, n);
	}
	sha256_final(&ctx, fl->digest);
	fl->hash_status = EC_VBOOT_HASH_STATUS_DONE;
}

/** ec_flash_free() - release the flash. @ec: the EC being destroyed. */
static void ec_flash_free(struct ec *ec)
{
	struct ec_flash_state *fl = &ec->flash;
	uint32_t b;

	for (b = 0; fl->block && b < fl->n_blocks; b++)
		free(fl->block[b]);
	free(fl->block);
	free(fl->block_state);
	fl->block = NULL;
	fl->block_state = NULL;
	fl->n_blocks = 0;
}

/**
 * ec_flash_init() - set up the flash with its factory image. As the
 * firmware does, the EC starts hashing its RW image at boot, in the
 * background.
 * @ec: the EC being created
 *
 * Return: 0 or -ENOMEM.
 */
static int ec_flash_init(struct ec *ec)
{
	struct ec_flash_state *fl = &ec->flash;
	uint32_t half = ec_flash_half(ec);

	memset(fl, 0, sizeof(*fl));
	fl->erase_result = EC_RES_SUCCESS;
	if (!ec->prof.flash_size || !ec->prof.flash_erase_block)
		return 0;
	fl->n_blocks = ec->prof.flash_size / ec->prof.flash_erase_block;
	fl->block = calloc(fl->n_blocks, sizeof(*fl->block));
	fl->block_state = calloc(fl->n_blocks, 1);
	if (!fl->block || !fl->block_state) {
		ec_flash_free(ec);
		return -ENOMEM;
	}
	fl->hash_offset = half;
	fl->hash_size = half;
	fl->hash_status = EC_VBOOT_HASH_STATUS_BUSY;
	fl->hash_done_ns = ec->last_ns + ec_hash_ns(half);
	return 0;
}

/**
 * ec_flash_footprint() - heap bytes the flash costs now.
 * @ec: the EC
 *
 * Return: bytes (the block tables and every written block).
 */
static size_t ec_flash_footprint(const struct ec *ec)
{
	const struct ec_flash_state *fl = &ec->flash;

	return (size_t)fl->n_blocks * (sizeof(*fl->block) + 1) +
	       fl->written_blocks * ec->prof.flash_erase_block;
}

/* Changing hashed bytes drops the digest, as the firmware's hash does. */
static void ec_flash_changed(struct ec *ec, uint32_t off, uint32_t size)
{
	struct ec_flash_state *fl = &ec->flash;

	if (ec_overlaps(off, size, fl->hash_offset, fl->hash_size))
		fl->hash_status = EC_VBOOT_HASH_STATUS_NONE;
}

/**
 * ec_flash_settle() - finish the background erase and hash whose time on
 * the EC clock has come.
 * @ec: the EC, locked and advanced
 */
void ec_flash_settle(struct ec *ec)
{
	struct ec_flash_state *fl = &ec->flash;

	if (fl->erase_busy && ec->last_ns >= fl->erase_done_ns) {
		ec_flash_erase_now(ec, fl->erase_offset, fl->erase_size);
		ec_flash_changed(ec, fl->erase_offset, fl->erase_size);
		fl->erase_busy = false;
		fl->erase_result = EC_RES_SUCCESS;
	}
	if (fl->hash_status == EC_VBOOT_HASH_STATUS_BUSY && ec->last_ns >= fl->hash_done_ns)
		ec_flash_digest(ec);
}

/**
 * ec_flash_reboot() - the flash's part of an EC reset: an async erase the
 * reset interrupts is finished (the simulated flash never tears), and the
 * boot-time hash of RW starts over.
 * @ec: the EC, locked
 */
static void ec_flash_reboot(struct ec *ec)
{
	struct ec_flash_state *fl = &ec->flash;
	uint32_t half = ec_flash_half(ec);

	if (!fl->n_blocks)
		return;
	if (fl->erase_busy) {
		ec_flash_erase_now(ec, fl->erase_offset, fl->erase_size);
		fl->erase_busy = false;
	}
	fl->erase_result = EC_RES_SUCCESS;
	fl->nonce_size = 0;
	fl->hash_offset = half;
	fl->hash_size = half;
	fl->hash_status = EC_VBOOT_HASH_STATUS_BUSY;
	fl->hash_done_ns = ec->last_ns + ec_hash_ns(half);
}

/* Offset and size inside the flash, both multiples of @block. */
static bool ec_flash_range_ok(const struct ec *ec, uint32_t offset, uint32_t size,
			      uint32_t block)
{
	if (!ec->flash.n_blocks || offset > ec->prof.flash_size ||
	    size > ec->prof.flash_size - offset)
		return false;
	return block && !(offset % block) && !(size % block);
}

/*
 * A write or erase may not touch a protected region, nor the image the EC
 * runs from (the firmware will not overwrite its running copy).
 */
static bool ec_flash_range_locked(const struct ec *ec, uint32_t off, uint32_t size)
{
	uint32_t f = ec->flash_protect_flags;
	uint32_t half = ec_flash_half(ec);
	bool ro_locked = (f & (EC_FLASH_PROTECT_RO_NOW | EC_FLASH_PROTECT_ALL_NOW)) ||
			 ec->prof.current_image == EC_IMAGE_RO;
	bool rw_locked = (f & (EC_FLASH_PROTECT_RW_NOW | EC_FLASH_PROTECT_ALL_NOW)) ||
			 ec->prof.current_image == EC_IMAGE_RW;

	return (ro_locked && ec_overlaps(off, size, 0, half)) ||
	       (rw_locked && ec_overlaps(off, size, half, half));
}

/**
 * ec_cmd_flash_read() - FLASH_READ: @size bytes from @offset. Outside the
 * flash is INVALID_PARAM, more than the host can take OVERFLOW, and BUSY
 * while an async erase runs.
 */
static int ec_cmd_flash_read(struct ec_cmd_args *args)
{
	const struct ec_params_flash_read *p = (const void *)args->req;
	struct ec *ec = args->ec;

	ec_flash_settle(ec);
	if (!ec_flash_range_ok(ec, p->offset, p->size, 1))
		return EC_RES_INVALID_PARAM;
	if (p->size > args->resp_max)
		return EC_RES_OVERFLOW;
	if (ec->flash.erase_busy)
		return EC_RES_BUSY;
	ec_flash_get(ec, p->offset, args->resp, p->size);
	args->resp_size = p->size;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_flash_write() - FLASH_WRITE v0 and v1: program whole write blocks
 * with the data that follows the header. As in the firmware both versions
 * take as much data as the request carries: v1 only tells a host that more
 * than 64 bytes fit (ectool checks for v1, then sends v0). Misaligned or
 * out-of-range writes and data missing from the request are INVALID_PARAM;
 * a protected region or the running image ACCESS_DENIED.
 */
static int ec_cmd_flash_write(struct ec_cmd_args *args)
{
	const struct ec_params_flash_write *p = (const void *)args->req;
	const uint8_t *data = args->req + sizeof(*p);
	struct ec *ec = args->ec;
	uint32_t eb = ec->prof.flash_erase_block;
	uint8_t *blk = NULL;
	uint32_t i;

	ec_flash_settle(ec);
	if (args->req_len < sizeof(*p) || p->size > args->req_len - sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (!ec_flash_range_ok(ec, p->offset, p->size, ec->prof.flash_write_block))
		return EC_RES_INVALID_PARAM;
	if (ec_flash_range_locked(ec, p->offset, p->size))
		return EC_RES_ACCESS_DENIED;
	if (ec->flash.erase_busy)
		return EC_RES_BUSY;
	for (i = 0; i < p->size; i++) {
		uint32_t off = p->offset + i;

		if (i == 0 || !(off % eb)) {
			blk = ec_flash_block_mut(ec, off / eb);
			if (!blk)
				return EC_RES_ERROR;
		}
		blk[off % eb] = ec_flash_erased_byte(ec) ? blk[off % eb] & data[i] :
			       blk[off % eb] | data[i];
	}
	ec_flash_changed(ec, p->offset, p->size);
	return EC_RES_SUCCESS;
}

static int ec_flash_erase_check(struct ec *ec, uint32_t offset, uint32_t size)
{
	if (!ec_flash_range_ok(ec, offset, size, ec->prof.flash_erase_block))
		return EC_RES_INVALID_PARAM;
	if (ec_flash_range_locked(ec, offset, size))
		return EC_RES_ACCESS_DENIED;
	if (ec->flash.erase_busy)
		return EC_RES_BUSY;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_flash_erase() - FLASH_ERASE v0 (erase now) and v1 (SECTOR: erase
 * now; SECTOR_ASYNC: queue it and answer at once, BUSY if one is queued;
 * GET_RESULT: BUSY while it runs, then its result once). Whole erase blocks
 * only; protection as for FLASH_WRITE.
 */
static int ec_cmd_flash_erase(struct ec_cmd_args *args)
{
	const struct ec_params_flash_erase_v1 *p1 = (const void *)args->req;
	const struct ec_params_flash_erase *p = (const void *)args->req;
	struct ec_flash_state *fl = &args->ec->flash;
	struct ec *ec = args->ec;
	uint32_t cmd = FLASH_ERASE_SECTOR;
	int rc;

	ec_flash_settle(ec);
	if (args->version == 1) {
		cmd = p1->cmd;
		p = &p1->params;
	}
	switch (cmd) {
	case FLASH_ERASE_SECTOR:
		rc = ec_flash_erase_check(ec, p->offset, p->size);
		if (rc == EC_RES_SUCCESS) {
			ec_flash_erase_now(ec, p->offset, p->size);
			ec_flash_changed(ec, p->offset, p->size);
		}
		return rc;
	case FLASH_ERASE_SECTOR_ASYNC:
		rc = ec_flash_erase_check(ec, p->offset, p->size);
		if (rc != EC_RES_SUCCESS)
			return rc;
		fl->erase_busy = true;
		fl->erase_offset = p->offset;
		fl->erase_size = p->size;
		fl->erase_done_ns = ec->last_ns +
				    EC_ERASE_NS_PER_BLOCK * (p->size / ec->prof.flash_erase_block);
		ec_flash_settle(ec);
		return EC_RES_SUCCESS;
	case FLASH_ERASE_GET_RESULT:
		if (fl->erase_busy)
			return EC_RES_BUSY;
		rc = (int)fl->erase_result;
		fl->erase_result = EC_RES_SUCCESS;
		return rc;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/* Offset and size of a region; false for an unknown region. */
static bool ec_flash_region(const struct ec *ec, uint32_t region, uint32_t *off, uint32_t *size)
{
	uint32_t half = ec_flash_half(ec);

	switch (region) {
	case EC_FLASH_REGION_RO:
	case EC_FLASH_REGION_WP_RO:
		*off = 0;
		break;
	case EC_FLASH_REGION_ACTIVE:
	case EC_FLASH_REGION_UPDATE:
		/* One RW copy: it is both the active and the updatable one. */
		*off = half;
		break;
	default:
		return false;
	}
	*size = half;
	return true;
}

/** ec_cmd_flash_region_info() - FLASH_REGION_INFO v1: offset and size of a region. */
static int ec_cmd_flash_region_info(struct ec_cmd_args *args)
{
	const struct ec_params_flash_region_info *p = (const void *)args->req;
	struct ec_response_flash_region_info *r = (void *)args->resp;
	uint32_t off, size;

	if (!args->ec->flash.n_blocks || !ec_flash_region(args->ec, p->region, &off, &size))
		return EC_RES_INVALID_PARAM;
	r->offset = off;
	r->size = size;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

static void ec_vboot_hash_answer(struct ec_cmd_args *args)
{
	const struct ec_flash_state *fl = &args->ec->flash;
	struct ec_response_vboot_hash *r = (void *)args->resp;

	r->status = fl->hash_status;
	r->hash_type = EC_VBOOT_HASH_TYPE_SHA256;
	r->offset = fl->hash_offset;
	r->size = fl->hash_size;
	if (fl->hash_status == EC_VBOOT_HASH_STATUS_DONE) {
		r->digest_size = SHA256_DIGEST_SIZE;
		memcpy(r->hash_digest, fl->digest, SHA256_DIGEST_SIZE);
	}
	args->resp_size = sizeof(*r);
}

static int ec_vboot_hash_start(struct ec_cmd_args *args)
{
	const struct ec_params_vboot_hash *p = (const void *)args->req;
	struct ec_flash_state *fl = &args->ec->flash;
	struct ec *ec = args->ec;
	uint32_t offset = p->offset, size = p->size;
	uint32_t region = EC_FLASH_REGION_COUNT;

	if (p->hash_type != EC_VBOOT_HASH_TYPE_SHA256 || p->nonce_size > sizeof(p->nonce_data))
		return EC_RES_INVALID_PARAM;
	if (offset == EC_VBOOT_HASH_OFFSET_RO)
		region = EC_FLASH_REGION_RO;
	else if (offset == EC_VBOOT_HASH_OFFSET_ACTIVE)
		region = EC_FLASH_REGION_ACTIVE;
	else if (offset == EC_VBOOT_HASH_OFFSET_UPDATE)
		region = EC_FLASH_REGION_UPDATE;
	if (region != EC_FLASH_REGION_COUNT && !ec_flash_region(ec, region, &offset, &size))
		return EC_RES_INVALID_PARAM;
	if (!ec_flash_range_ok(ec, offset, size, 1))
		return EC_RES_INVALID_PARAM;
	if (fl->hash_status == EC_VBOOT_HASH_STATUS_BUSY)
		return EC_RES_BUSY;
	fl->hash_offset = offset;
	fl->hash_size = size;
	fl->nonce_size = p->nonce_size;
	memcpy(fl->nonce, p->nonce_data, p->nonce_size);
	if (p->cmd == EC_VBOOT_HASH_RECALC) {
		ec_flash_digest(ec);
	} else {
		fl->hash_status = EC_VBOOT_HASH_STATUS_BUSY;
		fl->hash_done_ns = ec->last_ns + ec_hash_ns(size);
		ec_flash_settle(ec);
	}
	ec_vboot_hash_answer(args);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_vboot_hash() - VBOOT_HASH: GET (status, and the digest when
 * DONE), ABORT (a running hash is dropped: status NONE), START (hash in the
 * background: BUSY until it is done on the EC clock; BUSY as an answer while
 * another runs), RECALC (hash now, answer DONE). The offset may name a
 * region (EC_VBOOT_HASH_OFFSET_*); a nonce is hashed before the data. An
 * unknown sub-command or hash type, a nonce over 64 bytes or a range
 * outside the flash is INVALID_PARAM.
 */
static int ec_cmd_vboot_hash(struct ec_cmd_args *args)
{
	const struct ec_params_vboot_hash *p = (const void *)args->req;
	struct ec_flash_state *fl = &args->ec->flash;

	if (!fl->n_blocks)
		return EC_RES_INVALID_PARAM;
	ec_flash_settle(args->ec);
	switch (p->cmd) {
	case EC_VBOOT_HASH_GET:
		ec_vboot_hash_answer(args);
		return EC_RES_SUCCESS;
	case EC_VBOOT_HASH_ABORT:
		if (fl->hash_status == EC_VBOOT_HASH_STATUS_BUSY)
			fl->hash_status = EC_VBOOT_HASH_STATUS_NONE;
		return EC_RES_SUCCESS;
	case EC_VBOOT_HASH_START:
	case EC_VBOOT_HASH_RECALC:
		return ec_vboot_hash_start(args);
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_flashrw_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_FLASH_READ, EC_VER_MASK(0), ec_cmd_flash_read),
	EC_HOST_COMMAND(EC_CMD_FLASH_WRITE, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_flash_write),
	EC_HOST_COMMAND(EC_CMD_FLASH_ERASE, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_flash_erase),
	EC_HOST_COMMAND(EC_CMD_FLASH_REGION_INFO, EC_VER_MASK(1), ec_cmd_flash_region_info),
	EC_HOST_COMMAND(EC_CMD_VBOOT_HASH, EC_VER_MASK(0), ec_cmd_vboot_hash),
};

const struct ec_subsystem ec_subsys_flashrw = {
	.name = "flashrw",
	EC_SUBSYSTEM_CMDS(ec_flashrw_cmds),
	.kinds = EC_KINDS_ALL,
	.create = ec_flash_init,
	.destroy = ec_flash_free,
	.footprint = ec_flash_footprint,
	.boot = ec_flash_reboot,
};
