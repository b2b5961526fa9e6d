// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_state_file.c - an EC's state as a versioned, self-describing blob
 * (cuse_ec-state(5)): the table of what is saved, the heap buffers' codecs
 * and the encoder. The loader is ec_state_load.c.
 *
 * Layout, little-endian: "CUSEECST", u32 format version, u16 board-name
 * length and the name, u32 EC kind, u64 EC clock at the save, u32 record
 * count, then per record a u16
 * name length, the name, a u32 data length and the data; last the SHA-256
 * of everything before it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"
#include "ec_state_table.h"
#include "sha256.h"


/* ---- heap buffers ---- */

uint32_t ec_state_flash_blocks(const struct ec *ec)
{
	if (!ec->prof.flash_size || !ec->prof.flash_erase_block)
		return 0;
	return ec->prof.flash_size / ec->prof.flash_erase_block;
}

/* The per-block states: one byte each (enum ec_flash_block_state). */
static size_t ec_state_bstate_size(const struct ec *ec)
{
	return ec_state_flash_blocks(ec);
}

static void ec_state_bstate_encode(const struct ec *ec, uint8_t *out)
{
	memcpy(out, ec->flash.block_state, ec_state_flash_blocks(ec));
}

static int ec_state_bstate_decode(struct ec *st, const uint8_t *in, size_t len)
{
	if (!len)
		return 0;
	st->flash.block_state = malloc(len);
	if (!st->flash.block_state)
		return -ENOMEM;
	memcpy(st->flash.block_state, in, len);
	return 0;
}

static void ec_state_bstate_release(struct ec *ec)
{
	free(ec->flash.block_state);
	ec->flash.block_state = NULL;
}


/* The written blocks, whose bytes the file holds; the others cost nothing. */
size_t ec_state_blocks_written(const struct ec *ec)
{
	uint32_t b, n = ec_state_flash_blocks(ec);
	size_t written = 0;

	for (b = 0; ec->flash.block_state && b < n; b++)
		written += ec->flash.block_state[b] == EC_STATE_BLOCK_WRITTEN;
	return written;
}

static size_t ec_state_blocks_size(const struct ec *ec)
{
	return ec_state_blocks_written(ec) * ec->prof.flash_erase_block;
}

static void ec_state_blocks_encode(const struct ec *ec, uint8_t *out)
{
	uint32_t b, n = ec_state_flash_blocks(ec), eb = ec->prof.flash_erase_block;

	for (b = 0; b < n; b++) {
		if (ec->flash.block_state[b] != EC_STATE_BLOCK_WRITTEN)
			continue;
		memcpy(out, ec->flash.block[b], eb);
		out += eb;
	}
}

static void ec_state_blocks_release(struct ec *ec)
{
	uint32_t b, n = ec_state_flash_blocks(ec);

	for (b = 0; ec->flash.block && b < n; b++)
		free(ec->flash.block[b]);
	free(ec->flash.block);
	ec->flash.block = NULL;
}

static int ec_state_blocks_decode(struct ec *st, const uint8_t *in, size_t len)
{
	uint32_t b, n = ec_state_flash_blocks(st), eb = st->prof.flash_erase_block;

	if (!n)
		return 0;
	st->flash.block = calloc(n, sizeof(*st->flash.block));
	if (!st->flash.block)
		return -ENOMEM;
	for (b = 0; b < n; b++) {
		if (st->flash.block_state[b] != EC_STATE_BLOCK_WRITTEN)
			continue;
		st->flash.block[b] = malloc(eb);
		if (!st->flash.block[b])
			return -ENOMEM;	/* the caller releases what was built */
		memcpy(st->flash.block[b], in, eb);
		in += eb;
	}
	return 0;
}

/*
 * The fingerprint buffers and the held-back response: one fixed-size buffer
 * each, whose size the board gives; one codec per member, sharing the code.
 */
#define EC_FP_META_BYTES	sizeof(struct ec_fp_template_encryption_metadata)

bool ec_state_has_fp(const struct ec *ec)
{
	return ec->prof.has_fp && ec->prof.kind == EC_KIND_FPMCU;
}

static size_t ec_state_frame_size(const struct ec *ec)
{
	return ec_state_has_fp(ec) ? ec->prof.fp_frame_size : 0;
}

static size_t ec_state_templates_size(const struct ec *ec)
{
	return ec_state_has_fp(ec) ? (size_t)ec->prof.fp_template_max *
				     (ec->prof.fp_template_size - EC_FP_META_BYTES) : 0;
}

static size_t ec_state_xfer_size(const struct ec *ec)
{
	return ec_state_has_fp(ec) ? ec->prof.fp_template_size : 0;
}

static size_t ec_state_resp_size(const struct ec *ec)
{
	return ec->resp_room;
}

#define EC_STATE_BUFFER_CODEC(id, member, sizefn)				\
static void ec_state_##id##_encode(const struct ec *ec, uint8_t *out)		\
{										\
	size_t n = sizefn(ec);							\
										\
	if (n)									\
		memcpy(out, ec->member, n);					\
}										\
static int ec_state_##id##_decode(struct ec *st, const uint8_t *in, size_t len) \
{										\
	if (!len)								\
		return 0;							\
	st->member = malloc(len);						\
	if (!st->member)							\
		return -ENOMEM;							\
	memcpy(st->member, in, len);						\
	return 0;								\
}										\
static void ec_state_##id##_release(struct ec *ec)				\
{										\
	free(ec->member);							\
	ec->member = NULL;							\
}										\
static const struct ec_state_codec ec_state_##id##_codec = {			\
	.size = sizefn, .encode = ec_state_##id##_encode,			\
	.decode = ec_state_##id##_decode, .release = ec_state_##id##_release,	\
}

EC_STATE_BUFFER_CODEC(frame, fp.frame, ec_state_frame_size);
EC_STATE_BUFFER_CODEC(templates, fp.templates, ec_state_templates_size);
EC_STATE_BUFFER_CODEC(xfer, fp.xfer, ec_state_xfer_size);
EC_STATE_BUFFER_CODEC(resp, saved_resp, ec_state_resp_size);

static const struct ec_state_codec ec_state_bstate_codec = {
	.size = ec_state_bstate_size, .encode = ec_state_bstate_encode,
	.decode = ec_state_bstate_decode, .release = ec_state_bstate_release,
};

static const struct ec_state_codec ec_state_blocks_codec = {
	.size = ec_state_blocks_size, .encode = ec_state_blocks_encode,
	.decode = ec_state_blocks_decode, .release = ec_state_blocks_release,
};

/* ---- the table ---- */

#define EC_MEMBER_SIZE(m)	sizeof(((struct ec *)0)->m)
#define EC_ROW(m, how_)		.name = #m, .offset = offsetof(struct ec, m), \
				.size = EC_MEMBER_SIZE(m), .how = (how_)
#define SAVE(m)			{ EC_ROW(m, EC_STATE_BYTES) }
#define TIME(m)			{ EC_ROW(m, EC_STATE_TIME), .stride = 8 }
#define TIMES(m, type, ts)	{ EC_ROW(m, EC_STATE_TIME), .stride = sizeof(type), \
				  .time_off = offsetof(type, ts) }
#define HEAP(m, codec_)		{ EC_ROW(m, EC_STATE_HEAP), .codec = &(codec_) }
#define NOT_SAVED(m, why_)	{ EC_ROW(m, EC_STATE_NOT_SAVED), .why = (why_) }

/*
 * Every member of struct ec, one row each (a unit test finds any member
 * missing). A heap buffer's row comes after the members its codec reads.
 */
const struct ec_state_field ec_state_fields[] = {
	NOT_SAVED(lock, "lock"),
	NOT_SAVED(prof, "profile"),
	NOT_SAVED(clock, "clock"),
	TIME(boot_ns),
	TIME(last_ns),
	SAVE(rtc_at_boot),
	NOT_SAVED(latency_ns, "configuration"),
	NOT_SAVED(latency_overridden, "configuration"),
	SAVE(rng),
	NOT_SAVED(fault_plan, "configuration"),
	NOT_SAVED(replay, "configuration"),
	SAVE(lid_open),
	SAVE(ac_present),
	SAVE(load_percent),
	SAVE(batt_mah),
	SAVE(batt_ma),
	SAVE(batt_discharged_mah),
	SAVE(batt_cycles),
	SAVE(batt_level),
	SAVE(batt_full_reported),
	SAVE(chg_mode),
	SAVE(sustain_lower),
	SAVE(sustain_upper),
	SAVE(temp_k),
	SAVE(temp_level),
	SAVE(fan_rpm),
	SAVE(fan_auto),
	SAVE(fan_by_rpm),
	SAVE(fan_duty),
	SAVE(fan_target_rpm),
	SAVE(led_brightness),
	SAVE(led_auto),
	SAVE(gpio_value),
	SAVE(pd),
	SAVE(flash_protect_flags),
	SAVE(wp_asserted),
	SAVE(flash.n_blocks),
	HEAP(flash.block_state, ec_state_bstate_codec),
	HEAP(flash.block, ec_state_blocks_codec),
	SAVE(flash.written_blocks),
	SAVE(flash.erase_busy),
	TIME(flash.erase_done_ns),
	SAVE(flash.erase_offset),
	SAVE(flash.erase_size),
	SAVE(flash.erase_result),
	SAVE(flash.hash_status),
	TIME(flash.hash_done_ns),
	SAVE(flash.hash_offset),
	SAVE(flash.hash_size),
	SAVE(flash.nonce_size),
	SAVE(flash.nonce),
	SAVE(flash.digest),
	SAVE(kb.matrix),
	SAVE(kb.config),
	SAVE(kb.host_wake_mask),
	SAVE(kb.event_wake_mask),
	SAVE(kb.backlight),
	SAVE(kb.backlight_duty),
	TIME(board.alarm_ns),
	SAVE(board.p80),
	SAVE(board.p80_writes),
	SAVE(board.p80_last_boot),
	SAVE(sys.cbi),
	SAVE(sys.eeprom_ptr),
	SAVE(sys.sbs_cmd),
	SAVE(sys.sbs_rw),
	SAVE(sys.batt_cut_off),
	SAVE(sys.i2c_protected),
	SAVE(sys.reset_flags),
	SAVE(sys.jump_disabled),
	SAVE(sys.pending_reboot),
	SAVE(sys.pending_flags),
	NOT_SAVED(sys.cold_resets, "watched"),
	SAVE(sys.resets),
	SAVE(sys.boot_image),
	SAVE(sys.i2c_khz),
	SAVE(ctl.temps_boot),
	SAVE(ctl.charge_limit_ma),
	SAVE(ctl.ext_current_ma),
	SAVE(ctl.ext_voltage_mv),
	SAVE(ctl.hibernate_delay_s),
	SAVE(ctl.wireless_now),
	SAVE(ctl.wireless_suspend),
	SAVE(ctl.force_lid_open),
	SAVE(ctl.hang_flags),
	SAVE(ctl.hang_host_ms),
	SAVE(ctl.hang_reboot_ms),
	SAVE(ctl.hang_running),
	TIME(ctl.hang_start_ns),
	SAVE(ctl.hang_event_sent),
	SAVE(ctl.cutoff_at_shutdown),
	SAVE(ctl.cutoff_saw_unplug),
	SAVE(ctl.usb_mode),
	SAVE(ctl.usb_inhibit),
	TIMES(pdc.log, struct ec_pd_log_entry, ns),
	SAVE(pdc.log_head),
	SAVE(pdc.log_count),
	SAVE(pdc.override_port),
	SAVE(pdc.suspended),
	SAVE(pdc.control_disabled),
	SAVE(pdc.bist_share),
	SAVE(fp.mode),
	SAVE(fp.finger),
	SAVE(fp.enrolling),
	SAVE(fp.enroll_touches),
	TIME(fp.reset_done_ns),
	SAVE(fp.dead_pixels),
	HEAP(fp.frame, ec_state_frame_codec),
	SAVE(fp.frame_valid),
	SAVE(fp.frame_offset),
	HEAP(fp.templates, ec_state_templates_codec),
	HEAP(fp.xfer, ec_state_xfer_codec),
	SAVE(fp.templ_valid),
	SAVE(fp.templ_dirty),
	SAVE(fp.user_id),
	SAVE(fp.seed),
	SAVE(fp.seed_set),
	TIME(fp.next_encrypt_ns),
	SAVE(fp.capture_us),
	SAVE(fp.match_us),
	SAVE(fp.overall_us),
	SAVE(fp.t0_us),
	SAVE(fp.stats_invalid),
	SAVE(fp.matched),
	SAVE(fp.nonce),
	SAVE(rwsig.rollback_id),
	SAVE(rwsig.min_version),
	SAVE(rwsig.secret),
	TIME(rwsig.entropy_done_ns),
	SAVE(rwsig.entropy_result),
	SAVE(rwsig.aborted),
	SAVE(motion.sensor),
	SAVE(motion.angle),
	SAVE(motion.open_angle),
	SAVE(motion.lid_angle),
	SAVE(motion.tablet),
	SAVE(motion.tablet_angle),
	SAVE(motion.tablet_hys),
	SAVE(motion.kb_wake_angle),
	SAVE(motion.fifo),
	SAVE(motion.fifo_head),
	SAVE(motion.fifo_count),
	SAVE(motion.fifo_lost),
	SAVE(motion.fifo_int),
	SAVE(motion.sample_id),
	SAVE(buttons.held),
	TIME(buttons.release_ns),
	SAVE(chipset.pause_in_s5),
	SAVE(chipset.reboot_at_g3),
	SAVE(chipset.g3_delay_s),
	SAVE(chipset.ap_resets),
	SAVE(chipset.ap_reset_cause),
	SAVE(chipset.ap_reset_ms),
	SAVE(chipset.splash_requested),
	SAVE(chipset.splash_display),
	SAVE(chipset.splash_locked),
	SAVE(chipset.splash_log_s),
	SAVE(chipset.splash_log_used),
	SAVE(chipset.splash_next),
	SAVE(batt_host.first_use),
	SAVE(batt_host.first_use_slots),
	SAVE(batt_host.hours_to_zero),
	SAVE(batt_host.rate_cutoff_ua),
	SAVE(batt_host.rate_hibern_ua),
	SAVE(batt_host.zone_cutoff_mah),
	SAVE(batt_host.zone_stayup_mah),
	SAVE(console),
	SAVE(con_head),
	SAVE(con_snap_end),
	SAVE(con_read_pos),
	SAVE(con_recent_pos),
	SAVE(con_last_snap),
	SAVE(panic),
	SAVE(panic_len),
	SAVE(host_events),
	SAVE(hostev.events_b),
	SAVE(hostev.mask),
	SAVE(hostev.sleep_event),
	SAVE(hostev.sleep_timeout_ms),
	SAVE(hostev.sleep_transitions),
	SAVE(host_queue),
	SAVE(hq_head),
	SAVE(hq_count),
	NOT_SAVED(chain_lock, "lock"),
	NOT_SAVED(chain, "listeners"),
	NOT_SAVED(deliverer, "listeners"),
	NOT_SAVED(outbox, "in-flight"),
	NOT_SAVED(ob_head, "in-flight"),
	NOT_SAVED(ob_count, "in-flight"),
	NOT_SAVED(outbox_dropped, "diagnostic"),
	SAVE(saved_valid),
	SAVE(saved_status),
	SAVE(saved_len),
	HEAP(saved_resp, ec_state_resp_codec),
	NOT_SAVED(memmap, "derived"),
	NOT_SAVED(passthru, "devices behind the EC: each an EC of its own, not saved"),
	NOT_SAVED(req_room, "profile"),
	NOT_SAVED(resp_room, "profile"),
	NOT_SAVED(req_buf, "scratch"),
	NOT_SAVED(resp_buf, "scratch"),
};

const size_t ec_state_n_fields = sizeof(ec_state_fields) / sizeof(ec_state_fields[0]);

/* ---- writing ---- */

static size_t ec_state_field_len(const struct ec *ec, const struct ec_state_field *f)
{
	return f->how == EC_STATE_HEAP ? f->codec->size(ec) : f->size;
}

static uint8_t *ec_state_put(uint8_t *p, const void *src, size_t len)
{
	memcpy(p, src, len);
	return p + len;
}

static uint8_t *ec_state_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return p + 2;
}

static uint8_t *ec_state_put32(uint8_t *p, uint32_t v)
{
	ec_put_le32(p, v);
	return p + 4;
}

static size_t ec_state_header_len(const struct ec *ec)
{
	return EC_STATE_MAGIC_LEN + 4 + 2 + strlen(ec->prof.board) + 4 + 8 + 4;
}

/* The blob of @ec, which is locked and advanced to now. */
static int ec_state_encode(const struct ec *ec, uint64_t now, uint8_t **blob, size_t *lenp)
{
	size_t len = ec_state_header_len(ec) + SHA256_DIGEST_SIZE, i;
	uint32_t records = 0;
	struct sha256_ctx ctx;
	uint8_t *buf, *p;

	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];

		if (f->how == EC_STATE_NOT_SAVED)
			continue;
		len += 2 + strlen(f->name) + 4 + ec_state_field_len(ec, f);
		records++;
	}
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	p = ec_state_put(buf, EC_STATE_MAGIC, EC_STATE_MAGIC_LEN);
	p = ec_state_put32(p, EC_STATE_FORMAT_VERSION);
	p = ec_state_put16(p, (uint16_t)strlen(ec->prof.board));
	p = ec_state_put(p, ec->prof.board, strlen(ec->prof.board));
	p = ec_state_put32(p, ec->prof.kind);
	p = ec_state_put32(p, (uint32_t)now);
	p = ec_state_put32(p, (uint32_t)(now >> 32));
	p = ec_state_put32(p, records);
	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];
		size_t n = ec_state_field_len(ec, f);

		if (f->how == EC_STATE_NOT_SAVED)
			continue;
		p = ec_state_put16(p, (uint16_t)strlen(f->name));
		p = ec_state_put(p, f->name, strlen(f->name));
		p = ec_state_put32(p, (uint32_t)n);
		if (f->how == EC_STATE_HEAP) {
			if (n)
				f->codec->encode(ec, p);
		} else {
			memcpy(p, (const uint8_t *)ec + f->offset, n);
		}
		p += n;
	}
	sha256_init(&ctx);
	sha256_update(&ctx, buf, (size_t)(p - buf));
	sha256_final(&ctx, p);
	*blob = buf;
	*lenp = len;
	return 0;
}

int ec_state_save(struct ec *ec, void **blob, size_t *len)
{
	uint8_t *buf;
	int ret;

	if (!ec || !blob || !len)
		return -EINVAL;
	ec_lock_advance(ec);
	ret = ec_state_encode(ec, ec->last_ns, &buf, len);
	ec_unlock_notify(ec);
	if (ret)
		return ret;
	*blob = buf;
	return 0;
}
