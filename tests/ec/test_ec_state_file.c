// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_state_file.c - saving and loading an EC's state (ec_state_save(),
 * ec_state_load(), the file helpers): the table names every member of
 * struct ec, every saved field survives a round trip, host commands read
 * back the same answers after one, every refusal has its message, and a
 * refused file changes nothing.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "ec/ec_state_table.h"
#include "ec/sha256.h"
#include "ec_test_util.h"
#include "../check_run.h"

static size_t saved_fields(void)
{
	size_t i, n = 0;

	for (i = 0; i < ec_state_n_fields; i++)
		n += ec_state_fields[i].how != EC_STATE_NOT_SAVED;
	return n;
}

static bool starts_a_field(size_t offset)
{
	size_t i;

	if (offset == sizeof(struct ec))
		return true;
	for (i = 0; i < ec_state_n_fields; i++)
		if (ec_state_fields[i].offset == offset)
			return true;
	return false;
}

/*
 * The sub-structs of struct ec. GCC 12's __builtin_clear_padding() stops
 * clearing after an array of five or more structs with padding (struct
 * ec_profile has several; ctl and pdc start with one), so on struct ec as a
 * whole it leaves holes set; on these it is exact, except @inexact ones.
 */
#define NESTED(m, inexact_)	{ offsetof(struct ec, m), sizeof(((struct ec *)0)->m), (inexact_) }
static const struct nested {
	size_t offset, size;
	bool inexact;
} nested[] = {
	NESTED(flash, false), NESTED(kb, false), NESTED(board, false), NESTED(sys, false),
	NESTED(ctl, true), NESTED(pdc, true), NESTED(fp, false), NESTED(rwsig, false),
	NESTED(hostev, false),
};

static void clear_nested_padding(struct ec *e)
{
	__builtin_clear_padding(&e->flash);
	__builtin_clear_padding(&e->kb);
	__builtin_clear_padding(&e->board);
	__builtin_clear_padding(&e->sys);
	__builtin_clear_padding(&e->ctl);
	__builtin_clear_padding(&e->pdc);
	__builtin_clear_padding(&e->fp);
	__builtin_clear_padding(&e->rwsig);
	__builtin_clear_padding(&e->hostev);
}

/* Where GCC's clearing is exact, no byte of padding is left set. */
static bool clearing_exact(size_t offset)
{
	size_t i;

	for (i = 0; i < sizeof(nested) / sizeof(nested[0]); i++)
		if (offset >= nested[i].offset && offset < nested[i].offset + nested[i].size)
			return !nested[i].inexact;
	return false;
}

/*
 * Fill a struct ec with 0xFF, clear its padding, then clear every member
 * the table lists: a byte still 0xFF belongs to a member nobody listed.
 * Where GCC's clearing is not exact (above), what it leaves must look like
 * padding: a run of at most 7 bytes (nothing here is aligned beyond 8) that
 * ends where a listed member starts; a member of 8 bytes or more cannot
 * hide there, a smaller one in an old hole could.
 */
START_TEST(test_table_covers_struct_ec)
{
	struct ec *e = malloc(sizeof(*e));
	uint8_t *b = (uint8_t *)e;
	size_t i, j;

	ck_assert_ptr_nonnull(e);
	memset(e, 0xFF, sizeof(*e));
	__builtin_clear_padding(e);
	clear_nested_padding(e);
	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];

		ck_assert_msg(f->offset + f->size <= sizeof(*e), "%s outside struct ec", f->name);
		ck_assert_msg(f->how != EC_STATE_NOT_SAVED || (f->why && *f->why),
			      "%s: not saved without a reason", f->name);
		ck_assert_msg(f->how != EC_STATE_HEAP || f->codec, "%s: no codec", f->name);
		for (j = 0; j < i; j++) {
			const struct ec_state_field *g = &ec_state_fields[j];

			ck_assert_msg(strcmp(f->name, g->name), "%s listed twice", f->name);
			ck_assert_msg(f->offset >= g->offset + g->size ||
				      g->offset >= f->offset + f->size,
				      "%s overlaps %s", f->name, g->name);
		}
		memset(b + f->offset, 0, f->size);
	}
	for (i = 0; i < sizeof(*e); i = j) {
		if (b[i] != 0xFF) {
			j = i + 1;
			continue;
		}
		for (j = i; j < sizeof(*e) && b[j] == 0xFF; j++)
			;
		ck_assert_msg(!clearing_exact(i) && j - i <= 7 && starts_a_field(j),
			      "struct ec bytes %zu..%zu are in a member the state table does not "
			      "list (ec/ec_state_file.c)", i, j - 1);
	}
	free(e);
}
END_TEST

/* cuse_ec-state(5)'s NOT SAVED names every member the table leaves out. */
START_TEST(test_man_page_names_what_is_not_saved)
{
	FILE *f = fopen(test_path("cuse_ec/cuse_ec-state.5"), "r");
	char page[16384], section[8192], *start, *end, word[80];
	size_t len, i;

	ck_assert_ptr_nonnull(f);
	len = fread(page, 1, sizeof(page) - 1, f);
	fclose(f);
	page[len] = '\0';
	start = strstr(page, "\n.SH NOT SAVED\n");
	ck_assert_ptr_nonnull(start);
	end = strstr(start + 1, "\n.SH ");
	ck_assert_ptr_nonnull(end);
	ck_assert_uint_lt((size_t)(end - start), sizeof(section));
	memcpy(section, start, (size_t)(end - start));
	section[end - start] = '\0';
	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *fl = &ec_state_fields[i];
		bool listed = strstr(section, fl->name) != NULL;

		snprintf(word, sizeof(word), "%s", fl->name);
		ck_assert_msg(listed == (fl->how == EC_STATE_NOT_SAVED),
			      "cuse_ec-state(5) NOT SAVED %s %s", listed ? "names" : "lacks", word);
	}
}
END_TEST

/* A heap field's buffer (not the flash blocks, an array of pointers). */
static uint8_t *heap_buf(struct ec *e, const struct ec_state_field *f)
{
	uint8_t *p;

	memcpy(&p, (uint8_t *)e + f->offset, sizeof(p));
	return p;
}

/* Fields whose values are bounded by the board's (kept as they are). */
static bool bounded(const char *name)
{
	static const char *const names[] = {
		"flash.n_blocks", "flash.written_blocks", "flash.hash_offset", "flash.hash_size",
		"flash.block", "flash.erase_offset", "flash.erase_size", "pdc.log_count",
		"hq_count", "panic_len", "fp.frame_offset",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/*
 * Every saved field of EC A made different from a fresh EC's (its first
 * byte XOR 1: bools flip, numbers change; a buffer's every byte), saved, loaded into a fresh EC B of
 * the same board on another clock; B then holds A's every field, its
 * timestamps moved by the clocks' difference.
 */
static void round_trip_all_fields(const char *profile)
{
	struct fake_clock fa, fb;
	struct ec *a, *b;
	char err[256] = "";
	void *blob;
	size_t len, i, k;
	uint64_t shift;
	int ret;

	fake_clock_init(&fa);
	fake_clock_init(&fb);
	fake_clock_advance(&fb, 12345 * NS_PER_S);
	a = make_ec_file(profile, &fa);
	b = make_ec_file(profile, &fb);
	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];
		uint8_t *p = (uint8_t *)a + f->offset;
		size_t n = f->size;

		if (f->how == EC_STATE_NOT_SAVED || bounded(f->name))
			continue;
		if (f->how == EC_STATE_HEAP) {
			p = heap_buf(a, f);
			n = f->codec->size(a);
		} else {
			n = 1;
		}
		for (k = 0; k < n; k++)
			p[k] ^= 1;
	}
	ck_assert_int_eq(ec_state_save(a, &blob, &len), 0);
	ret = ec_state_load(b, blob, len, err, sizeof(err));
	ck_assert_msg(ret == (int)saved_fields(), "load: %d %s", ret, err);
	free(blob);
	shift = b->last_ns - a->last_ns;
	for (i = 0; i < ec_state_n_fields; i++) {
		const struct ec_state_field *f = &ec_state_fields[i];
		const uint8_t *pa = (uint8_t *)a + f->offset, *pb = (uint8_t *)b + f->offset;

		switch (f->how) {
		case EC_STATE_NOT_SAVED:
			break;
		case EC_STATE_BYTES:
			ck_assert_msg(!memcmp(pa, pb, f->size), "%s differs after the load", f->name);
			break;
		case EC_STATE_HEAP: {
			size_t n = f->codec->size(a);
			uint8_t *ea = malloc(n + 1), *eb = malloc(n + 1);

			ck_assert_uint_eq(f->codec->size(b), n);
			if (n) {
				f->codec->encode(a, ea);
				f->codec->encode(b, eb);
			}
			ck_assert_msg(!memcmp(ea, eb, n), "%s differs after the load", f->name);
			free(ea);
			free(eb);
			break;
		}
		case EC_STATE_TIME:
			for (k = f->time_off; k + 8 <= f->size; k += f->stride) {
				uint64_t ta, tb;

				memcpy(&ta, pa + k, 8);
				memcpy(&tb, pb + k, 8);
				ck_assert_msg(tb == (ta ? ta + shift : 0),
					      "%s (+%zu): %llu, want %llu", f->name, k,
					      (unsigned long long)tb,
					      (unsigned long long)(ta ? ta + shift : 0));
			}
			break;
		}
	}
	ec_destroy(a);
	ec_destroy(b);
}

START_TEST(test_round_trip_every_field_laptop)
{
	round_trip_all_fields(NULL);
}
END_TEST

START_TEST(test_round_trip_every_field_fingerprint)
{
	round_trip_all_fields("ec/profiles/fingerprint.profile");
}
END_TEST

/* ---- the state as host commands see it ---- */

static struct fake_clock fc;

static uint32_t run(struct ec *e, uint32_t cmd, uint32_t ver, const void *req, size_t len)
{
	uint8_t resp[256];

	return hc_status(e, cmd, ver, req, len, resp, sizeof(resp), NULL);
}

/* Change what a client would: limits, fans, flash, CBI, masks, PD, RTC. */
static void drive(struct ec *e)
{
	uint8_t req[248] = { 0 };
	struct ec_params_flash_erase erase = { .offset = 0x10000, .size = 0x1000 };
	struct ec_params_flash_write *w = (void *)req;
	struct ec_params_usb_pd_control pd = {
		.port = 0, .role = USB_PD_CTRL_ROLE_FORCE_SINK, .mux = USB_PD_CTRL_MUX_DP,
	};
	uint32_t v;
	size_t i;

	v = 700;
	ck_assert_uint_eq(run(e, EC_CMD_CHARGE_CURRENT_LIMIT, 0, &v, 4), EC_RES_SUCCESS);
	v = 63;
	ck_assert_uint_eq(run(e, EC_CMD_PWM_SET_FAN_DUTY, 0, &v, 4), EC_RES_SUCCESS);
	v = 41;
	ck_assert_uint_eq(run(e, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &v, 1), EC_RES_SUCCESS);
	ck_assert_uint_eq(run(e, EC_CMD_FLASH_ERASE, 0, &erase, sizeof(erase)), EC_RES_SUCCESS);
	w->offset = 0x10010;
	w->size = 64;
	for (i = 0; i < 64; i++)
		req[sizeof(*w) + i] = (uint8_t)(i * 3 + 1);
	ck_assert_uint_eq(run(e, EC_CMD_FLASH_WRITE, 0, req, sizeof(*w) + 64), EC_RES_SUCCESS);
	memset(req, 0, sizeof(req));
	v = CBI_TAG_SKU_ID;
	memcpy(req, &v, 4);
	v = 4;
	memcpy(req + 8, &v, 4);
	v = 0x1234567;
	memcpy(req + 12, &v, 4);
	ck_assert_uint_eq(run(e, EC_CMD_SET_CROS_BOARD_INFO, 0, req, 16), EC_RES_SUCCESS);
	v = 0x00F0F00F;
	ck_assert_uint_eq(run(e, EC_CMD_HOST_EVENT_SET_SCI_MASK, 0, &v, 4), EC_RES_SUCCESS);
	ck_assert_uint_eq(run(e, EC_CMD_USB_PD_CONTROL, 1, &pd, sizeof(pd)), EC_RES_SUCCESS);
	v = 1800000000;
	ck_assert_uint_eq(run(e, EC_CMD_RTC_SET_VALUE, 0, &v, 4), EC_RES_SUCCESS);
	v = 30;
	ck_assert_uint_eq(run(e, EC_CMD_RTC_SET_ALARM, 0, &v, 4), EC_RES_SUCCESS);
	fake_clock_advance(&fc, 7 * NS_PER_S);
}

/* Read-back commands, each answered the same by A and B. */
static const struct readback {
	uint32_t cmd, ver;
	uint8_t req[12];
	size_t len;
} readbacks[] = {
	{ EC_CMD_FLASH_READ, 0, { 0x00, 0, 0x01, 0, 0x40 }, 8 },
	{ EC_CMD_GET_CROS_BOARD_INFO, 0, { CBI_TAG_SKU_ID }, 8 },
	{ EC_CMD_HOST_EVENT_GET_SCI_MASK, 0, { 0 }, 0 },
	{ EC_CMD_USB_PD_CONTROL, 1, { 0 }, 4 },
	{ EC_CMD_USB_PD_POWER_INFO, 0, { 0 }, 1 },
	{ EC_CMD_RTC_GET_VALUE, 0, { 0 }, 0 },
	{ EC_CMD_RTC_GET_ALARM, 0, { 0 }, 0 },
	{ EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, { 0 }, 0 },
	{ EC_CMD_BATTERY_GET_DYNAMIC, 0, { 0 }, 1 },
	{ EC_CMD_GET_UPTIME_INFO, 0, { 0 }, 0 },
	{ EC_CMD_FLASH_PROTECT, 1, { 0 }, 8 },
};

static void same_answers(struct ec *a, struct ec *b, const char *when)
{
	uint8_t ma[EC_MEMMAP_SIZE], mb[EC_MEMMAP_SIZE];
	size_t i;

	for (i = 0; i < sizeof(readbacks) / sizeof(readbacks[0]); i++) {
		const struct readback *r = &readbacks[i];
		uint8_t ra[256] = { 0 }, rb[256] = { 0 };
		int la, lb;
		uint32_t sa = hc_status(a, r->cmd, r->ver, r->req, r->len, ra, sizeof(ra), &la);
		uint32_t sb = hc_status(b, r->cmd, r->ver, r->req, r->len, rb, sizeof(rb), &lb);

		ck_assert_msg(sa == EC_RES_SUCCESS, "%s: command 0x%x: %u", when, r->cmd, sa);
		ck_assert_msg(sa == sb && la == lb && !memcmp(ra, rb, sizeof(ra)),
			      "%s: command 0x%x answers differently after the load", when, r->cmd);
	}
	for (i = 0; i < EC_MEMMAP_SIZE; i += 128) {
		ck_assert_int_eq(ec_read_memmap(a, i, 128, ma + i), 128);
		ck_assert_int_eq(ec_read_memmap(b, i, 128, mb + i), 128);
	}
	for (i = 0; i < EC_MEMMAP_SIZE; i++)
		ck_assert_msg(ma[i] == mb[i], "%s: memory map byte 0x%zx differs", when, i);
}

START_TEST(test_round_trip_host_commands)
{
	struct ec *a, *b;
	char err[256] = "";
	void *blob;
	size_t len;

	fake_clock_init(&fc);
	a = make_ec_file(NULL, &fc);
	drive(a);
	ck_assert_int_eq(ec_state_save(a, &blob, &len), 0);
	/* B starts later on the same clock: its own boot, then A's state. */
	fake_clock_advance(&fc, 3 * NS_PER_S);
	b = make_ec_file(NULL, &fc);
	fake_clock_advance(&fc, 3 * NS_PER_S);
	ck_assert_msg(ec_state_load(a, blob, len, err, sizeof(err)) == (int)saved_fields(),
		      "load: %s", err);
	ck_assert_msg(ec_state_load(b, blob, len, err, sizeof(err)) == (int)saved_fields(),
		      "load: %s", err);
	free(blob);
	same_answers(a, b, "at once");
	/* The state goes on the same way: the alarm fires in both, fans settle. */
	fake_clock_advance(&fc, 40 * NS_PER_S);
	same_answers(a, b, "40 s later");
	ec_destroy(a);
	ec_destroy(b);
}
END_TEST

/* ---- refusals ---- */

/* One record of a blob, for the tests that rewrite one. */
struct rec {
	char name[64];
	uint8_t *data;
	uint32_t len;
};

struct parsed {
	uint8_t header[256];
	size_t header_len;
	struct rec recs[256];
	size_t n;
};

static uint32_t get32(const uint8_t *p)
{
	return le32(p);
}

static void parse(const uint8_t *blob, size_t len, struct parsed *out)
{
	const uint8_t *p = blob + 8 + 4;
	uint16_t bl = le16(p);
	size_t i;

	p += 2 + bl + 4 + 8;
	out->n = get32(p);
	p += 4;
	out->header_len = (size_t)(p - blob);
	ck_assert_uint_le(out->header_len, sizeof(out->header));
	memcpy(out->header, blob, out->header_len);
	ck_assert_uint_le(out->n, 256);
	for (i = 0; i < out->n; i++) {
		struct rec *r = &out->recs[i];
		uint16_t nl = le16(p);

		memcpy(r->name, p + 2, nl);
		r->name[nl] = '\0';
		p += 2 + nl;
		r->len = get32(p);
		p += 4;
		r->data = malloc(r->len + 1);
		memcpy(r->data, p, r->len);
		p += r->len;
	}
	ck_assert_ptr_eq(p + SHA256_DIGEST_SIZE, blob + len);
}

/* The blob of @in, sealed with a correct digest. */
static uint8_t *seal(struct parsed *in, size_t *lenp)
{
	size_t len = in->header_len + SHA256_DIGEST_SIZE, i;
	struct sha256_ctx ctx;
	uint8_t *buf, *p;

	for (i = 0; i < in->n; i++)
		len += 2 + strlen(in->recs[i].name) + 4 + in->recs[i].len;
	buf = malloc(len);
	memcpy(buf, in->header, in->header_len);
	ec_put_le32(buf + in->header_len - 4, (uint32_t)in->n);
	p = buf + in->header_len;
	for (i = 0; i < in->n; i++) {
		uint16_t nl = (uint16_t)strlen(in->recs[i].name);

		p[0] = (uint8_t)nl;
		p[1] = (uint8_t)(nl >> 8);
		memcpy(p + 2, in->recs[i].name, nl);
		p += 2 + nl;
		ec_put_le32(p, in->recs[i].len);
		memcpy(p + 4, in->recs[i].data, in->recs[i].len);
		p += 4 + in->recs[i].len;
	}
	sha256_init(&ctx);
	sha256_update(&ctx, buf, (size_t)(p - buf));
	sha256_final(&ctx, p);
	*lenp = len;
	return buf;
}

static void parsed_free(struct parsed *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		free(in->recs[i].data);
}

static struct rec *rec_named(struct parsed *in, const char *name)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (!strcmp(in->recs[i].name, name))
			return &in->recs[i];
	ck_abort_msg("no record %s", name);
	return NULL;
}

/*
 * A state file holds only what the EC's state determines. The saved
 * response buffer is saved whole (its room, whatever the last response's
 * length); valgrind saw the bytes past that response reach the file
 * uninitialised, as ec_create() malloc()ed the buffer. With glibc's heap
 * perturbed (ASan fills new blocks itself), they must still be zeros.
 */
START_TEST(test_saved_response_tail_is_zero)
{
	struct parsed in;
	const struct rec *resp, *rlen;
	struct ec *e;
	void *blob;
	size_t len, saved_len, i;

	fake_clock_init(&fc);
	mallopt(M_PERTURB, 0x5a);
	e = make_ec_file(NULL, &fc);
	mallopt(M_PERTURB, 0);
	drive(e);
	ck_assert_int_eq(ec_state_save(e, &blob, &len), 0);
	parse(blob, len, &in);
	resp = rec_named(&in, "saved_resp");
	rlen = rec_named(&in, "saved_len");
	ck_assert_ptr_nonnull(resp);
	ck_assert_ptr_nonnull(rlen);
	ck_assert_uint_eq(rlen->len, sizeof(saved_len));
	memcpy(&saved_len, rlen->data, sizeof(saved_len));
	ck_assert_uint_lt(saved_len, resp->len);
	for (i = saved_len; i < resp->len; i++)
		ck_assert_msg(!resp->data[i], "saved_resp byte %zu of %u (response %zu bytes) is 0x%02x",
			      i, resp->len, saved_len, resp->data[i]);
	parsed_free(&in);
	free(blob);
	ec_destroy(e);
}
END_TEST

/*
 * Load @blob into @e, which must refuse it with @ret and a message holding
 * @msg, and be left exactly as it was: its state saved before and after
 * (same clock reading) is the same blob.
 */
static void refused(struct ec *e, const void *blob, size_t len, int ret, const char *msg)
{
	void *before, *after;
	size_t lb, la;
	char err[256] = "";
	int got;

	ck_assert_int_eq(ec_state_save(e, &before, &lb), 0);
	got = ec_state_load(e, blob, len, err, sizeof(err));
	ck_assert_msg(got == ret, "load gave %d (%s), want %d", got, err, ret);
	ck_assert_msg(strstr(err, msg), "message '%s' lacks '%s'", err, msg);
	ck_assert_int_eq(ec_state_save(e, &after, &la), 0);
	ck_assert_msg(lb == la && !memcmp(before, after, lb), "a refused load changed the EC (%s)",
		      msg);
	free(before);
	free(after);
}

START_TEST(test_refusals)
{
	struct ec *a, *b, *other;
	struct parsed p;
	uint8_t *blob, *bad;
	void *vblob, *vother;
	size_t len, blen, olen;
	struct rec *r;

	fake_clock_init(&fc);
	a = make_ec_file(NULL, &fc);
	drive(a);
	ck_assert_int_eq(ec_state_save(a, &vblob, &len), 0);
	blob = vblob;
	b = make_ec_file(NULL, &fc);
	drive(b);
	run(b, EC_CMD_PWM_SET_FAN_DUTY, 0, &(uint32_t){ 11 }, 4);	/* B != A */

	bad = malloc(len);
	memcpy(bad, blob, len);
	bad[0] = 'X';
	refused(b, bad, len, -EINVAL, "not an EC state file");
	refused(b, bad, 3, -EINVAL, "not an EC state file");
	refused(b, "", 0, -EINVAL, "not an EC state file");

	memcpy(bad, blob, len);
	ec_put_le32(bad + 8, EC_STATE_FORMAT_VERSION + 1);
	refused(b, bad, len, -EPROTONOSUPPORT,
		"format version 2 is newer than this build reads (1)");
	ec_put_le32(bad + 8, 0);
	refused(b, bad, len, -EBADMSG, "corrupt state file");

	refused(b, blob, len - 1, -EBADMSG, "digest mismatch");
	refused(b, blob, 10, -EBADMSG, "truncated");
	memcpy(bad, blob, len);
	bad[len / 2] ^= 0x40;
	refused(b, bad, len, -EBADMSG, "digest mismatch");
	free(bad);

	/* Another board, another kind. */
	other = make_ec_file("ec/profiles/usbc-dual.profile", &fc);
	ck_assert_int_eq(ec_state_save(other, &vother, &olen), 0);
	refused(b, vother, olen, -EXDEV, "state file is from board");
	free(vother);
	ec_destroy(other);
	other = make_ec_file("ec/profiles/fingerprint.profile", &fc);
	ck_assert_int_eq(ec_state_save(other, &vother, &olen), 0);
	refused(b, vother, olen, -EXDEV, "kind 1");
	free(vother);
	ec_destroy(other);

	/* Records: unknown, not saved, twice, missing, of another length. */
	parse(blob, len, &p);
	strcpy(p.recs[3].name, "batt_flux");
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "field 'batt_flux', which this version does not know");
	free(bad);
	strcpy(p.recs[3].name, "latency_ns");
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "field 'latency_ns', which this version does not know");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	p.n--;
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "lacks field 'saved_resp'");
	free(bad);
	p.n++;
	parsed_free(&p);

	parse(blob, len, &p);
	p.recs[p.n] = p.recs[0];
	p.recs[p.n].data = malloc(p.recs[0].len);
	memcpy(p.recs[p.n].data, p.recs[0].data, p.recs[0].len);
	p.n++;
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "twice");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "temp_k");
	r->len -= 8;
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "field 'temp_k' is");
	free(bad);
	parsed_free(&p);

	/* Values the board cannot hold, sealed correctly. */
	parse(blob, len, &p);
	r = rec_named(&p, "hq_count");
	ec_put_le32(r->data, 99);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "hq_head/hq_count");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "flash.hash_size");
	ec_put_le32(r->data, 0x7FFFFFFF);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "flash.hash_offset/hash_size");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "flash.block_state");
	r->data[0] = 9;
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "unknown block state");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "pdc.log");
	r->data[offsetof(struct ec_pd_log_entry, size)] = 200;
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "pdc.log holds an entry longer than its payload");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "motion.fifo_count");
	ec_put_le32(r->data, EC_MOTION_FIFO_SIZE + 1);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "motion.fifo_head/fifo_count lie outside the sensor FIFO");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "chipset.splash_next");
	ec_put_le32(r->data, EC_CHARGESPLASH_REQUESTS);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "chipset.splash_next lies outside the request log");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "batt_host.first_use_slots");
	ec_put_le32(r->data, EC_BATT_FIRST_USE_SLOTS + 1);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "batt_host.first_use_slots is more than the pack's slots");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "motion.angle");
	ec_put_le32(r->data, 361);
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "motion.angle/open_angle are not 0..360 degrees");
	free(bad);
	parsed_free(&p);

	parse(blob, len, &p);
	r = rec_named(&p, "motion.sensor");
	memset(r->data + offsetof(struct ec_motion_sensor_state, range), 0, sizeof(uint32_t));
	bad = seal(&p, &blen);
	refused(b, bad, blen, -EINVAL, "motion.sensor has a range of 0");
	free(bad);
	parsed_free(&p);

	/* The untouched blob still loads. */
	parse(blob, len, &p);
	bad = seal(&p, &blen);
	ck_assert_uint_eq(blen, len);
	ck_assert_int_eq(memcmp(bad, blob, len), 0);
	free(bad);
	parsed_free(&p);

	free(blob);
	ec_destroy(a);
	ec_destroy(b);
}
END_TEST

/* ---- files ---- */

static char dir[32];

static void file_setup(void)
{
	strcpy(dir, "/tmp/ec-state-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fake_clock_init(&fc);
}

static void file_teardown(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static size_t entries(const char *path)
{
	char cmd[128];
	FILE *f;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", path);
	f = popen(cmd, "r");
	ck_assert_int_eq(fscanf(f, "%d", &n), 1);
	pclose(f);
	return (size_t)n;
}

START_TEST(test_files)
{
	char path[128], sub[128], err[256] = "";
	struct ec *a, *b;
	struct stat st;
	size_t len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/ec.state", dir);
	a = make_ec_file(NULL, &fc);
	b = make_ec_file(NULL, &fc);
	drive(a);
	ck_assert_int_eq(ec_state_load_file(b, path, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_int_eq(ec_state_save_file(a, path, &len, err, sizeof(err)), 0);
	ck_assert_uint_gt(len, 0);
	ck_assert_int_eq(ec_state_load_file(b, path, err, sizeof(err)), (int)saved_fields());
	same_answers(a, b, "from a file");
	ck_assert_uint_eq(entries(dir), 1);	/* no temporary left behind */
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);	/* cuse_ec-state(5) FILES */

	ck_assert_int_eq(ec_state_load_file(b, dir, err, sizeof(err)), -EISDIR);
	snprintf(sub, sizeof(sub), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(sub, 0600), 0);
	ck_assert_int_eq(ec_state_load_file(b, sub, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/big", dir);
	fd = open(sub, O_CREAT | O_WRONLY, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, EC_STATE_FILE_MAX + 1), 0);
	close(fd);
	ck_assert_int_eq(ec_state_load_file(b, sub, err, sizeof(err)), -EFBIG);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/no/such/dir/ec.state", dir);
	ck_assert_int_eq(ec_state_save_file(a, sub, NULL, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "temporary file"));
	ec_destroy(a);
	ec_destroy(b);
}
END_TEST

/* A save that fails half way (the file size limit) leaves the old file. */
START_TEST(test_failed_save_keeps_old_file)
{
	char path[128], err[256] = "";
	struct ec *a, *b;
	struct stat before, after;
	pid_t pid;
	int status;

	snprintf(path, sizeof(path), "%s/ec.state", dir);
	a = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_state_save_file(a, path, NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(stat(path, &before), 0);
	drive(a);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct rlimit lim = { 100, 100 };

		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &lim);
		_exit(ec_state_save_file(a, path, NULL, err, sizeof(err)) == -EFBIG &&
		      strstr(err, "writing") ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "the save did not fail with EFBIG");
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	ck_assert_uint_eq(before.st_size, after.st_size);
	ck_assert_uint_eq(entries(dir), 1);
	b = make_ec_file(NULL, &fc);
	ck_assert_int_eq(ec_state_load_file(b, path, err, sizeof(err)), (int)saved_fields());
	ec_destroy(a);
	ec_destroy(b);
}
END_TEST

static Suite *ec_state_file_suite(void)
{
	Suite *s = suite_create("ec_state_file");
	TCase *tc = tcase_create("state");
	TCase *tf = tcase_create("files");

	tcase_add_test(tc, test_table_covers_struct_ec);
	tcase_add_test(tc, test_man_page_names_what_is_not_saved);
	tcase_add_test(tc, test_round_trip_every_field_laptop);
	tcase_add_test(tc, test_round_trip_every_field_fingerprint);
	tcase_add_test(tc, test_round_trip_host_commands);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_saved_response_tail_is_zero);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, file_setup, file_teardown);
	tcase_add_test(tf, test_files);
	tcase_add_test(tf, test_failed_save_keeps_old_file);
	suite_add_tcase(s, tf);
	return s;
}

int main(void)
{
	return check_run_suite(ec_state_file_suite());
}
