// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_fp.c - the fingerprint MCU's sensor (the FPMCU behind
 * /dev/cros_fp): FP_INFO, FP_MODE and its state machine, FP_FRAME (the
 * image and template download), FP_TEMPLATE (upload), FP_CONTEXT, FP_STATS,
 * FP_SEED and FP_ENC_STATUS, and the EC_MKBP_EVENT_FINGERPRINT events.
 *
 * The host sets a mode; the world puts a finger on the sensor and takes it
 * off (the finger-down and finger-up stimuli); the MCU answers each with
 * the event the mode asks for: FINGER_DOWN, FINGER_UP, IMAGE_READY after a
 * capture, ENROLL with the progress of an enrollment, MATCH with its
 * verdict. The finger is always the same one, so a template enrolled from
 * it matches it, and a match fails only for want of templates.
 *
 * Templates leave the MCU encrypted under a key from the TPM seed, the
 * user context and a salt, and come back the same way: a template taken
 * out under another seed or user does not decrypt (UNAVAILABLE). The
 * cipher is a model of the firmware's AES-GCM built on SHA-256 (a
 * keystream and a 16-byte tag): it behaves the same to the host, and
 * guards nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"
#include "sha256.h"

#define NS_PER_US	1000ull
#define NS_PER_MS	1000000ull
#define NS_PER_S	1000000000ull

/* A sensor reset re-opens the sensor: about 175 ms on the real part. */
#define EC_FP_RESET_NS		(175 * NS_PER_MS)
/* At most one template encryption a second (the firmware's own limit). */
#define EC_FP_ENCRYPT_GAP_NS	NS_PER_S

#define FP_MODE_ANY_CAPTURE	(FP_MODE_CAPTURE | FP_MODE_ENROLL_IMAGE | FP_MODE_MATCH)
#define EC_FP_META		sizeof(struct ec_fp_template_encryption_metadata)
/* The finger the model's sensor always sees, as its templates record it. */
#define EC_FP_FINGER_ID		0x46494e47u

/* Bytes of one stored template: the template and its positive-match salt. */
static size_t ec_fp_slot(const struct ec *ec)
{
	return ec->prof.fp_template_size - EC_FP_META;
}

static bool ec_fp_present(const struct ec *ec)
{
	return ec->fp.frame != NULL;
}

static void ec_fp_free(struct ec *ec)
{
	free(ec->fp.frame);
	free(ec->fp.templates);
	free(ec->fp.xfer);
	ec->fp.frame = ec->fp.templates = ec->fp.xfer = NULL;
}

static int ec_fp_init(struct ec *ec)
{
	const struct ec_profile *prof = &ec->prof;

	if (!prof->has_fp || prof->kind != EC_KIND_FPMCU)
		return 0;
	ec->fp.frame = calloc(1, prof->fp_frame_size);
	ec->fp.templates = calloc(prof->fp_template_max, ec_fp_slot(ec));
	ec->fp.xfer = calloc(1, prof->fp_template_size);
	if (!ec->fp.frame || !ec->fp.templates || !ec->fp.xfer) {
		/* The undo runs the hooks before this one only. */
		ec_fp_free(ec);
		return -ENOMEM;
	}
	return 0;
}

static size_t ec_fp_footprint(const struct ec *ec)
{
	if (!ec_fp_present(ec))
		return 0;
	return ec->prof.fp_frame_size + ec->prof.fp_template_max * ec_fp_slot(ec) +
	       ec->prof.fp_template_size;
}

/* What a sensor reset and a new user clear: templates, frame, user. */
static void ec_fp_clear_context(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;

	fp->templ_valid = 0;
	fp->templ_dirty = 0;
	fp->frame_valid = 0;
	fp->matched = -1;
	memset(fp->user_id, 0, sizeof(fp->user_id));
	if (!ec_fp_present(ec))
		return;
	memset(fp->frame, 0, ec->prof.fp_frame_size);
	memset(fp->templates, 0, ec->prof.fp_template_max * ec_fp_slot(ec));
	memset(fp->xfer, 0, ec->prof.fp_template_size);
}

/* At every boot: RAM starts over, the seed may be set again; the finger stays. */
static void ec_fp_boot(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;

	ec_fp_clear_context(ec);
	fp->mode = 0;
	fp->enrolling = false;
	fp->enroll_touches = 0;
	fp->reset_done_ns = 0;
	fp->dead_pixels = FP_ERROR_DEAD_PIXELS_UNKNOWN;
	memset(fp->seed, 0, sizeof(fp->seed));
	fp->seed_set = false;
	fp->next_encrypt_ns = 0;
	fp->capture_us = fp->match_us = fp->overall_us = 0;
	fp->t0_us = 0;
	fp->stats_invalid = 0;
	if (ec_fp_present(ec))
		fp->frame_offset = ec->prof.fp_frame_size -
				   ec->prof.fp_width * ec->prof.fp_height * ec->prof.fp_bpp / 8;
}

static void ec_fp_event(struct ec *ec, uint32_t fp_events)
{
	uint8_t payload[4];

	ec_put_le32(payload, fp_events);
	ec_queue_event(ec, EC_MKBP_EVENT_FINGERPRINT, payload, sizeof(payload));
}

/* Capture types that need no finger: the sensor's own test patterns. */
static bool ec_fp_finger_needed(uint32_t mode)
{
	uint32_t type = FP_CAPTURE_TYPE(mode);

	return type != FP_CAPTURE_PATTERN0 && type != FP_CAPTURE_PATTERN1 &&
	       type != FP_CAPTURE_RESET_TEST;
}

/*
 * Fill the frame: a vendor header, then the image. A finger shows as
 * concentric ridges; the test patterns are 8x8 checkerboards.
 */
static void ec_fp_capture(struct ec *ec, uint32_t type)
{
	const struct ec_profile *prof = &ec->prof;
	struct ec_fp_state *fp = &ec->fp;
	uint8_t *img = fp->frame + fp->frame_offset;
	uint32_t x, y;

	memset(fp->frame, 0, fp->frame_offset);
	for (y = 0; y < prof->fp_height; y++) {
		for (x = 0; x < prof->fp_width; x++) {
			uint32_t dx = x > prof->fp_width / 2 ? x - prof->fp_width / 2 :
				      prof->fp_width / 2 - x;
			uint32_t dy = y > prof->fp_height / 2 ? y - prof->fp_height / 2 :
				      prof->fp_height / 2 - y;
			bool on;

			if (type == FP_CAPTURE_PATTERN0 || type == FP_CAPTURE_PATTERN1)
				on = (((x / 8) ^ (y / 8)) & 1) == (type == FP_CAPTURE_PATTERN0);
			else if (type == FP_CAPTURE_RESET_TEST)
				on = false;
			else
				on = ((dx * dx + dy * dy) / 48) & 1;
			*img++ = on ? 0xE0 : 0x20;
		}
	}
	fp->frame_valid = prof->fp_frame_size;
	fp->capture_us = (uint32_t)(prof->fp_capture_ns / NS_PER_US);
}

/* One more image of the enrollment; at the last one the template is made. */
static uint32_t ec_fp_enroll(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;
	uint32_t percent;
	uint8_t *slot;

	if (!fp->enrolling || fp->templ_valid >= ec->prof.fp_template_max)
		return EC_MKBP_FP_ENROLL | EC_MKBP_FP_ERRCODE(EC_MKBP_FP_ERR_ENROLL_INTERNAL);
	fp->enroll_touches++;
	fp->templ_dirty |= 1u << fp->templ_valid;
	percent = fp->enroll_touches * 100 / ec->prof.fp_enroll_touches;
	if (percent >= 100) {
		size_t i;

		percent = 100;
		slot = fp->templates + fp->templ_valid * ec_fp_slot(ec);
		/* The template: the finger's identity, then a pattern of it. */
		ec_put_le32(slot, EC_FP_FINGER_ID);
		for (i = 4; i < ec_fp_slot(ec); i++)
			slot[i] = (uint8_t)(i * 7 + fp->templ_valid);
		fp->templ_valid++;
		fp->mode &= ~FP_MODE_ENROLL_SESSION;
		fp->enrolling = false;
		fp->enroll_touches = 0;
	}
	return EC_MKBP_FP_ENROLL | EC_MKBP_FP_ERRCODE(EC_MKBP_FP_ERR_ENROLL_OK) |
	       percent << EC_MKBP_FP_ENROLL_PROGRESS_OFFSET;
}

/* Compare the finger with the templates; the index nibble is -1's with none. */
static uint32_t ec_fp_match(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;
	int32_t fgr = -1;
	uint32_t code = EC_MKBP_FP_ERR_MATCH_NO_TEMPLATES;
	uint16_t i;

	fp->matched = -1;
	if (fp->templ_valid)
		code = EC_MKBP_FP_ERR_MATCH_NO;
	for (i = 0; i < fp->templ_valid && fgr < 0; i++) {
		const uint8_t *slot = fp->templates + i * ec_fp_slot(ec);

		if ((uint32_t)(slot[0] | slot[1] << 8 | slot[2] << 16 |
			       (uint32_t)slot[3] << 24) == EC_FP_FINGER_ID)
			fgr = i;
	}
	fp->match_us = (uint32_t)(ec->prof.fp_match_ns / NS_PER_US);
	if (fgr >= 0) {
		code = EC_MKBP_FP_ERR_MATCH_YES;
		fp->matched = (int8_t)fgr;
	} else {
		fp->stats_invalid |= FPSTATS_MATCHING_INV;
	}
	return EC_MKBP_FP_MATCH | EC_MKBP_FP_ERRCODE(code) |
	       (((uint32_t)fgr << EC_MKBP_FP_MATCH_IDX_OFFSET) & EC_MKBP_FP_MATCH_IDX_MASK);
}

/* A finger is on the sensor: what the mode asks of it, and its events. */
static void ec_fp_finger_seen(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;
	uint32_t evt = EC_MKBP_FP_IMAGE_READY;

	if (!(fp->mode & (FP_MODE_FINGER_DOWN | FP_MODE_ANY_CAPTURE)))
		return;
	fp->t0_us = (ec->last_ns - ec->boot_ns) / NS_PER_US;
	fp->stats_invalid = 0;
	if (fp->mode & FP_MODE_FINGER_DOWN) {
		fp->mode &= ~FP_MODE_FINGER_DOWN;
		ec_fp_event(ec, EC_MKBP_FP_FINGER_DOWN);
	}
	if (!(fp->mode & FP_MODE_ANY_CAPTURE))
		return;
	ec_fp_capture(ec, FP_CAPTURE_TYPE(fp->mode));
	fp->overall_us = fp->capture_us;
	if (fp->mode & FP_MODE_ENROLL_IMAGE) {
		evt = ec_fp_enroll(ec);
	} else if (fp->mode & FP_MODE_MATCH) {
		evt = ec_fp_match(ec);
		fp->overall_us += fp->match_us;
	}
	fp->mode &= ~FP_MODE_ANY_CAPTURE;
	ec_fp_event(ec, evt);
}

/*
 * A new mode, as the MCU's task takes it: enrollment sessions begin and
 * end, test patterns are captured at once, maintenance is done, a sensor
 * reset starts, and a finger already there (or already gone) is seen.
 */
static void ec_fp_apply_mode(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;

	if ((fp->mode & FP_MODE_ENROLL_SESSION) && !fp->enrolling) {
		fp->enrolling = true;
		fp->enroll_touches = 0;
	} else if (!(fp->mode & FP_MODE_ENROLL_SESSION) && fp->enrolling) {
		fp->enrolling = false;
	}
	if ((fp->mode & FP_MODE_CAPTURE) && !ec_fp_finger_needed(fp->mode)) {
		ec_fp_capture(ec, FP_CAPTURE_TYPE(fp->mode));
		fp->mode &= ~FP_MODE_CAPTURE;
		ec_fp_event(ec, EC_MKBP_FP_IMAGE_READY);
	}
	if (fp->mode & FP_MODE_SENSOR_MAINTENANCE) {
		fp->dead_pixels = 0;
		fp->mode &= ~FP_MODE_SENSOR_MAINTENANCE;
	}
	if (fp->mode & FP_MODE_RESET_SENSOR)
		fp->reset_done_ns = ec->last_ns + EC_FP_RESET_NS;
	if (fp->finger)
		ec_fp_finger_seen(ec);
	else if (fp->mode & FP_MODE_FINGER_UP) {
		fp->mode &= ~FP_MODE_FINGER_UP;
		ec_fp_event(ec, EC_MKBP_FP_FINGER_UP);
	}
}

/* A sensor reset ends when the EC clock reaches it: the context is gone. */
static void ec_fp_settle(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;

	if (!fp->reset_done_ns || ec->last_ns < fp->reset_done_ns)
		return;
	fp->reset_done_ns = 0;
	ec_fp_clear_context(ec);
	fp->mode &= ~FP_MODE_RESET_SENSOR;
	ec_console_log(ec, "fp: sensor reset, context cleared");
}

static void ec_fp_stimulus(struct ec *ec, enum ec_stimulus stim)
{
	struct ec_fp_state *fp = &ec->fp;

	if (!ec_fp_present(ec))
		return;
	if (stim == EC_STIM_FINGER_DOWN && !fp->finger) {
		fp->finger = true;
		ec_fp_finger_seen(ec);
	} else if (stim == EC_STIM_FINGER_UP && fp->finger) {
		fp->finger = false;
		if (fp->mode & FP_MODE_FINGER_UP) {
			fp->mode &= ~FP_MODE_FINGER_UP;
			ec_fp_event(ec, EC_MKBP_FP_FINGER_UP);
		}
	}
}

/* The firmware's checks of a new mode; RESET_SENSOR only from an idle sensor. */
static bool ec_fp_mode_valid(const struct ec *ec, uint32_t mode)
{
	if (FP_CAPTURE_TYPE(mode) >= FP_CAPTURE_TYPE_MAX)
		return false;
	if ((mode & ~FP_MODE_CAPTURE_TYPE_MASK) & ~FP_VALID_MODES)
		return false;
	if ((mode & FP_MODE_ENROLL_SESSION) && ec->fp.templ_valid >= ec->prof.fp_template_max)
		return false;
	if ((mode & FP_MODE_RESET_SENSOR) && (ec->fp.mode & FP_VALID_MODES))
		return false;
	return true;
}

static int ec_fp_set_mode(struct ec *ec, uint32_t mode)
{
	if (!ec_fp_mode_valid(ec, mode))
		return EC_RES_INVALID_PARAM;
	if (!(mode & FP_MODE_DONT_CHANGE)) {
		ec->fp.mode = mode;
		ec_fp_apply_mode(ec);
	}
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_mode() - FP_MODE v0: set the mode (unless DONT_CHANGE) and
 * answer the mode now, less what it already finished. An unknown bit, a
 * capture type past RESET_TEST, an enrollment with every template in use,
 * a sensor reset while any mode is on, or a short request: INVALID_PARAM.
 */
static int ec_cmd_fp_mode(struct ec_cmd_args *args)
{
	const struct ec_params_fp_mode *p = (const void *)args->req;
	struct ec_response_fp_mode *r = (void *)args->resp;
	int ret;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	ret = ec_fp_set_mode(args->ec, p->mode);
	if (ret != EC_RES_SUCCESS)
		return ret;
	r->mode = args->ec->fp.mode;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_info() - FP_INFO v0 (32 bytes: the sensor and its image) and
 * v1 (48: and the templates: size, maximum, in use, dirty, format).
 */
static int ec_cmd_fp_info(struct ec_cmd_args *args)
{
	struct ec_response_fp_info *r = (void *)args->resp;
	const struct ec *ec = args->ec;
	const struct ec_profile *prof = &ec->prof;
	const char *fmt = prof->fp_pixel_format;

	r->vendor_id = prof->fp_vendor_id;
	r->product_id = prof->fp_product_id;
	r->model_id = prof->fp_model_id;
	r->version = prof->fp_version;
	r->frame_size = prof->fp_frame_size;
	r->pixel_format = (uint32_t)(uint8_t)fmt[0] | (uint32_t)(uint8_t)fmt[1] << 8 |
			  (uint32_t)(uint8_t)fmt[2] << 16 | (uint32_t)(uint8_t)fmt[3] << 24;
	r->width = (uint16_t)prof->fp_width;
	r->height = (uint16_t)prof->fp_height;
	r->bpp = (uint16_t)prof->fp_bpp;
	r->errors = ec->fp.dead_pixels;
	if (args->version == 0) {
		args->resp_size = sizeof(struct ec_response_fp_info_v0);
		return EC_RES_SUCCESS;
	}
	r->template_size = prof->fp_template_size;
	r->template_max = (uint16_t)prof->fp_template_max;
	r->template_valid = ec->fp.templ_valid;
	r->template_dirty = ec->fp.templ_dirty;
	r->template_version = FP_TEMPLATE_FORMAT_VERSION;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* [offset, offset + size) inside a buffer of @len bytes, without overflow. */
static bool ec_fp_range_ok(uint32_t len, uint32_t offset, uint32_t size)
{
	return offset <= len && size <= len - offset;
}

/* The encryption key: the seed, the user and the template's salt. */
static void ec_fp_key(const struct ec *ec, const uint8_t *salt, uint8_t key[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, ec->fp.seed, sizeof(ec->fp.seed));
	sha256_update(&ctx, ec->fp.user_id, sizeof(ec->fp.user_id));
	sha256_update(&ctx, salt, FP_CONTEXT_ENCRYPTION_SALT_BYTES);
	sha256_final(&ctx, key);
}

/* XOR @len bytes with the keystream of (key, nonce); its own inverse. */
static void ec_fp_crypt(const uint8_t *key, const uint8_t *nonce, uint8_t *buf, size_t len)
{
	uint8_t block[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	uint32_t counter;
	size_t done, i;

	for (done = 0, counter = 0; done < len; done += sizeof(block), counter++) {
		sha256_init(&ctx);
		sha256_update(&ctx, key, SHA256_DIGEST_SIZE);
		sha256_update(&ctx, nonce, FP_CONTEXT_NONCE_BYTES);
		sha256_update(&ctx, &counter, sizeof(counter));
		sha256_final(&ctx, block);
		for (i = 0; i < sizeof(block) && done + i < len; i++)
			buf[done + i] ^= block[i];
	}
}

static void ec_fp_tag(const uint8_t *key, const uint8_t *nonce, const uint8_t *buf, size_t len,
		      uint8_t tag[FP_CONTEXT_TAG_BYTES])
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, key, SHA256_DIGEST_SIZE);
	sha256_update(&ctx, nonce, FP_CONTEXT_NONCE_BYTES);
	sha256_update(&ctx, buf, len);
	sha256_final(&ctx, digest);
	memcpy(tag, digest, FP_CONTEXT_TAG_BYTES);
}

/* Template @fgr into the transfer buffer: metadata, then it encrypted. */
static void ec_fp_encrypt(struct ec *ec, uint16_t fgr)
{
	struct ec_fp_state *fp = &ec->fp;
	struct ec_fp_template_encryption_metadata *meta = (void *)fp->xfer;
	uint8_t key[SHA256_DIGEST_SIZE], fresh[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	/* A fresh nonce and salt each time, as the firmware draws from its TRNG. */
	fp->nonce++;
	sha256_init(&ctx);
	sha256_update(&ctx, fp->seed, sizeof(fp->seed));
	sha256_update(&ctx, &fp->nonce, sizeof(fp->nonce));
	sha256_final(&ctx, fresh);
	memset(meta, 0, EC_FP_META);
	meta->struct_version = FP_TEMPLATE_FORMAT_VERSION;
	memcpy(meta->nonce, fresh, FP_CONTEXT_NONCE_BYTES);
	memcpy(meta->encryption_salt, fresh + FP_CONTEXT_NONCE_BYTES,
	       FP_CONTEXT_ENCRYPTION_SALT_BYTES);
	memcpy(fp->xfer + EC_FP_META, fp->templates + fgr * ec_fp_slot(ec), ec_fp_slot(ec));
	ec_fp_key(ec, meta->encryption_salt, key);
	ec_fp_crypt(key, meta->nonce, fp->xfer + EC_FP_META, ec_fp_slot(ec));
	ec_fp_tag(key, meta->nonce, fp->xfer + EC_FP_META, ec_fp_slot(ec), meta->tag);
}

/* FP_FRAME of template @fgr (0-based): see ec_cmd_fp_frame(). */
static int ec_fp_frame_template(struct ec_cmd_args *args, uint32_t fgr, uint32_t offset,
				uint32_t size)
{
	struct ec *ec = args->ec;
	struct ec_fp_state *fp = &ec->fp;

	if (fgr >= ec->prof.fp_template_max)
		return EC_RES_INVALID_PARAM;
	if (fgr >= fp->templ_valid)
		return EC_RES_UNAVAILABLE;
	if (!ec_fp_range_ok(ec->prof.fp_template_size, offset, size))
		return EC_RES_INVALID_PARAM;
	if (!offset) {
		/* The first chunk encrypts the template, once a second at most. */
		if (ec->last_ns < fp->next_encrypt_ns)
			return EC_RES_BUSY;
		if (!fp->seed_set)
			return EC_RES_UNAVAILABLE;
		fp->next_encrypt_ns = ec->last_ns + EC_FP_ENCRYPT_GAP_NS;
		ec_fp_encrypt(ec, (uint16_t)fgr);
		fp->templ_dirty &= ~(1u << fgr);
	}
	memcpy(args->resp, fp->xfer + offset, size);
	args->resp_size = size;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_frame() - FP_FRAME v0: @size bytes from @offset of a buffer,
 * the offset's high nibble choosing it: 0 the last capture (ACCESS_DENIED
 * while the system is locked; a simple image or test pattern starts after
 * the vendor header), n template n - 1, encrypted when its first chunk is
 * asked for (BUSY within a second of the last encryption, UNAVAILABLE
 * without a TPM seed; INVALID_PARAM past the maximum, UNAVAILABLE past the
 * templates in use). More than the host can take, a range past the
 * buffer (or past the capture, or with none yet) or a short request:
 * INVALID_PARAM.
 */
static int ec_cmd_fp_frame(struct ec_cmd_args *args)
{
	const struct ec_params_fp_frame *p = (const void *)args->req;
	struct ec *ec = args->ec;
	struct ec_fp_state *fp = &ec->fp;
	uint32_t idx = FP_FRAME_GET_BUFFER_INDEX(p->offset);
	uint32_t offset = p->offset & FP_FRAME_OFFSET_MASK;
	uint32_t type = FP_CAPTURE_TYPE(fp->mode);

	if (args->req_len < sizeof(*p) || p->size > args->resp_max)
		return EC_RES_INVALID_PARAM;
	if (idx != FP_FRAME_INDEX_RAW_IMAGE)
		return ec_fp_frame_template(args, idx - FP_FRAME_INDEX_TEMPLATE, offset, p->size);
	if (ec_system_locked(ec))
		return EC_RES_ACCESS_DENIED;
	if (type != FP_CAPTURE_VENDOR_FORMAT && type != FP_CAPTURE_QUALITY_TEST)
		offset += fp->frame_offset;
	if (!ec_fp_range_ok(fp->frame_valid, offset, p->size))
		return EC_RES_INVALID_PARAM;
	memcpy(args->resp, fp->frame + offset, p->size);
	args->resp_size = p->size;
	return EC_RES_SUCCESS;
}

static bool ec_fp_bytes_trivial(const uint8_t *b, size_t len)
{
	size_t i;

	for (i = 1; i < len; i++)
		if (b[i] != b[0])
			return false;
	return b[0] == 0 || b[0] == 0xFF;
}

/* The whole template arrived: check and decrypt it into the next slot. */
static int ec_fp_commit(struct ec *ec)
{
	struct ec_fp_state *fp = &ec->fp;
	const struct ec_fp_template_encryption_metadata *meta = (const void *)fp->xfer;
	uint8_t key[SHA256_DIGEST_SIZE], tag[FP_CONTEXT_TAG_BYTES];
	uint8_t *slot = fp->templates + fp->templ_valid * ec_fp_slot(ec);
	size_t salt_at = ec_fp_slot(ec) - FP_POSITIVE_MATCH_SALT_BYTES;

	if (meta->struct_version != FP_TEMPLATE_FORMAT_VERSION)
		return EC_RES_INVALID_PARAM;
	if (!fp->seed_set)
		return EC_RES_UNAVAILABLE;
	ec_fp_key(ec, meta->encryption_salt, key);
	ec_fp_tag(key, meta->nonce, fp->xfer + EC_FP_META, ec_fp_slot(ec), tag);
	if (memcmp(tag, meta->tag, sizeof(tag)))
		return EC_RES_UNAVAILABLE;	/* another seed or user, or altered */
	memcpy(slot, fp->xfer + EC_FP_META, ec_fp_slot(ec));
	ec_fp_crypt(key, meta->nonce, slot, ec_fp_slot(ec));
	if (ec_fp_bytes_trivial(slot + salt_at, FP_POSITIVE_MATCH_SALT_BYTES)) {
		memset(slot, 0, ec_fp_slot(ec));
		return EC_RES_INVALID_PARAM;
	}
	fp->templ_valid++;
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_template() - FP_TEMPLATE v0: a chunk of an encrypted template
 * at @offset; the chunk with FP_TEMPLATE_COMMIT in its size completes it,
 * and the template is decrypted into the next free slot (INVALID_PARAM
 * for another format version or an empty template, UNAVAILABLE when it
 * does not decrypt under this seed and user or there is no seed).
 * OVERFLOW when every slot is in use; a size that is not the bytes sent, a
 * range past the template or a short request: INVALID_PARAM.
 */
static int ec_cmd_fp_template(struct ec_cmd_args *args)
{
	const struct ec_params_fp_template *p = (const void *)args->req;
	struct ec *ec = args->ec;
	uint32_t size, offset;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	size = p->size & ~FP_TEMPLATE_COMMIT;
	offset = p->offset;
	if (ec->fp.templ_valid >= ec->prof.fp_template_max)
		return EC_RES_OVERFLOW;
	if (args->req_len - sizeof(*p) != size)
		return EC_RES_INVALID_PARAM;
	if (!ec_fp_range_ok(ec->prof.fp_template_size, offset, size))
		return EC_RES_INVALID_PARAM;
	memcpy(ec->fp.xfer + offset, p->data, size);
	if (p->size & FP_TEMPLATE_COMMIT)
		return ec_fp_commit(ec);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_context() - FP_CONTEXT v1: ASYNC starts a sensor reset, which
 * clears the templates (INVALID_PARAM while any mode is on, BUSY while a
 * reset runs); GET_RESULT is BUSY until the reset is done, then sets the
 * new user. An unknown action or a short request: INVALID_PARAM.
 */
static int ec_cmd_fp_context(struct ec_cmd_args *args)
{
	const struct ec_params_fp_context_v1 *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	switch (p->action) {
	case FP_CONTEXT_ASYNC:
		if (ec->fp.mode & FP_MODE_RESET_SENSOR)
			return EC_RES_BUSY;
		return ec_fp_set_mode(ec, FP_MODE_RESET_SENSOR);
	case FP_CONTEXT_GET_RESULT:
		if (ec->fp.mode & FP_MODE_RESET_SENSOR)
			return EC_RES_BUSY;
		memcpy(ec->fp.user_id, p->userid, sizeof(ec->fp.user_id));
		return EC_RES_SUCCESS;
	default:
		return EC_RES_INVALID_PARAM;
	}
}

/**
 * ec_cmd_fp_stats() - FP_STATS v0: the last capture's and match's
 * durations (the profile's capture_time and match_time), finger to
 * event, when it began (microseconds since the EC booted), which of them are invalid (a
 * failed match) and the template the last match found (-1: none).
 */
static int ec_cmd_fp_stats(struct ec_cmd_args *args)
{
	struct ec_response_fp_stats *r = (void *)args->resp;
	const struct ec_fp_state *fp = &args->ec->fp;

	r->capture_time_us = fp->capture_us;
	r->matching_time_us = fp->match_us;
	r->overall_time_us = fp->overall_us;
	r->overall_t0_lo = (uint32_t)fp->t0_us;
	r->overall_t0_hi = (uint32_t)(fp->t0_us >> 32);
	r->timestamps_invalid = fp->stats_invalid;
	r->template_matched = fp->matched;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_fp_seed() - FP_SEED v0: the TPM seed, once per boot (then
 * ACCESS_DENIED); a format version other than FP_TEMPLATE_FORMAT_VERSION
 * or a short request: INVALID_PARAM.
 */
static int ec_cmd_fp_seed(struct ec_cmd_args *args)
{
	const struct ec_params_fp_seed *p = (const void *)args->req;
	struct ec_fp_state *fp = &args->ec->fp;

	if (args->req_len < sizeof(*p) || p->struct_version != FP_TEMPLATE_FORMAT_VERSION)
		return EC_RES_INVALID_PARAM;
	if (fp->seed_set)
		return EC_RES_ACCESS_DENIED;
	memcpy(fp->seed, p->seed, sizeof(fp->seed));
	fp->seed_set = true;
	return EC_RES_SUCCESS;
}

/** ec_cmd_fp_enc_status() - FP_ENC_STATUS v0: whether the seed is set. */
static int ec_cmd_fp_enc_status(struct ec_cmd_args *args)
{
	struct ec_response_fp_encryption_status *r = (void *)args->resp;

	r->valid_flags = FP_ENC_STATUS_SEED_SET;
	r->status = args->ec->fp.seed_set ? FP_ENC_STATUS_SEED_SET : 0;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_fp_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_FP_MODE, EC_VER_MASK(0), ec_cmd_fp_mode),
	EC_HOST_COMMAND(EC_CMD_FP_INFO, EC_VER_MASK(0) | EC_VER_MASK(1), ec_cmd_fp_info),
	EC_HOST_COMMAND(EC_CMD_FP_FRAME, EC_VER_MASK(0), ec_cmd_fp_frame),
	EC_HOST_COMMAND(EC_CMD_FP_TEMPLATE, EC_VER_MASK(0), ec_cmd_fp_template),
	EC_HOST_COMMAND(EC_CMD_FP_CONTEXT, EC_VER_MASK(1), ec_cmd_fp_context),
	EC_HOST_COMMAND(EC_CMD_FP_STATS, EC_VER_MASK(0), ec_cmd_fp_stats),
	EC_HOST_COMMAND(EC_CMD_FP_SEED, EC_VER_MASK(0), ec_cmd_fp_seed),
	EC_HOST_COMMAND(EC_CMD_FP_ENC_STATUS, EC_VER_MASK(0), ec_cmd_fp_enc_status),
};

const struct ec_subsystem ec_subsys_fp = {
	.name = "fp",
	EC_SUBSYSTEM_CMDS(ec_fp_cmds),
	.create = ec_fp_init,
	.destroy = ec_fp_free,
	.footprint = ec_fp_footprint,
	.boot = ec_fp_boot,
	.advance = ec_fp_settle,
	.stimulus = ec_fp_stimulus,
	.kinds = EC_KIND_MASK(EC_KIND_FPMCU),
};
