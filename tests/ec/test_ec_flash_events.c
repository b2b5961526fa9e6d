// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_flash_events.c - the flash chip (read, write, erase, async erase,
 * regions, VBOOT_HASH and SHA-256), write protect seen from every side,
 * the host event commands and HOST_SLEEP_EVENT; and the consistency rule
 * between GET_FEATURES, the command table and GET_CMD_VERSIONS for every
 * shipped profile.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"
#include "ec/sha256.h"
#include "../check_run.h"

#define NS_PER_MS 1000000ull

static struct fake_clock fc;
static struct ec *ec;

/*
 * The shipped profiles: every ec/profiles/ *.profile, read from the
 * directory when the suite is built, so a new one is covered without an
 * edit here.
 */
#define SHIPPED_MAX	16
static char shipped_profiles[SHIPPED_MAX][sizeof("ec/profiles/") + NAME_MAX];
static size_t n_shipped;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void find_shipped_profiles(void)
{
	DIR *d = opendir(test_path("ec/profiles"));
	struct dirent *de;

	/* Not in a test yet: test_shipped_profiles_found reports a miss. */
	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 9 || strcmp(de->d_name + len - 8, ".profile") || n_shipped >= SHIPPED_MAX)
			continue;
		snprintf(shipped_profiles[n_shipped++], sizeof(shipped_profiles[0]),
			 "ec/profiles/%s", de->d_name);
	}
	closedir(d);
	qsort(shipped_profiles, n_shipped, sizeof(shipped_profiles[0]), name_cmp);
}

static void setup(void)
{
	fake_clock_init(&fc);
	ec = make_ec_file(NULL, &fc);
}

static void teardown(void)
{
	ec_destroy(ec);
	ec = NULL;
}

/* ---- the consistency rule ---- */

START_TEST(test_features_backed_and_versions_true)
{
	struct fake_clock clk;
	struct ec *e;
	uint8_t resp[64];
	const struct ec_cmd_entry *table;
	size_t n, i, ncmds;
	unsigned int bit, v;
	uint32_t flags[2];
	int ret;

	fake_clock_init(&clk);
	e = make_ec_file(shipped_profiles[_i], &clk);
	ck_assert_uint_eq(hc_status(e, EC_CMD_GET_FEATURES, 0, NULL, 0, resp, sizeof(resp), &ret),
			  EC_RES_SUCCESS);
	flags[0] = le32(resp);
	flags[1] = le32(resp + 4);

	/* Every advertised feature: all its commands answer on this board. */
	for (bit = 0; bit < EC_FEATURE_COUNT; bit++) {
		const uint16_t *cmds;

		if (!(flags[bit / 32] & (1u << (bit % 32))))
			continue;
		cmds = ec_feature_cmds(bit, &ncmds);
		ck_assert_msg(cmds, "%s advertises feature %u, which no command backs",
			      shipped_profiles[_i], bit);
		for (i = 0; i < ncmds; i++) {
			uint16_t c = cmds[i];

			ck_assert_msg(hc_status(e, EC_CMD_GET_CMD_VERSIONS, 1, &c, 2, resp, sizeof(resp),
					  NULL) == EC_RES_SUCCESS,
				      "%s: feature %u needs command 0x%04x, which is missing",
				      shipped_profiles[_i], bit, c);
		}
	}

	/*
	 * Every command the table has: GET_CMD_VERSIONS reports exactly the
	 * versions the dispatcher takes (or "unsupported" when the board
	 * disables it, and then every version is INVALID_COMMAND).
	 */
	table = test_cmd_table(&n);
	for (i = 0; i < n; i++) {
		uint16_t c = table[i].command;
		uint32_t st = hc_status(e, EC_CMD_GET_CMD_VERSIONS, 1, &c, 2, resp, sizeof(resp), NULL);
		uint32_t mask = st == EC_RES_SUCCESS ? le32(resp) : 0;

		if (st == EC_RES_SUCCESS)
			ck_assert_msg(mask == table[i].versions, "0x%04x: mask 0x%x, table 0x%x",
				      c, mask, table[i].versions);
		else
			ck_assert_uint_eq(st, EC_RES_INVALID_PARAM);
		for (v = 0; v < 32; v++) {
			uint8_t big[256];

			st = hc_status(e, c, v, NULL, 0, big, sizeof(big), NULL);
			if (!mask)
				ck_assert_msg(st == EC_RES_INVALID_COMMAND, "0x%04x v%u: %u", c, v, st);
			else if (!(mask & EC_VER_MASK(v)))
				ck_assert_msg(st == EC_RES_INVALID_VERSION, "0x%04x v%u: %u", c, v,
					      st);
			else
				ck_assert_msg(st != EC_RES_INVALID_VERSION &&
					      st != EC_RES_INVALID_COMMAND, "0x%04x v%u: %u", c, v, st);
		}
	}
	ec_destroy(e);
}
END_TEST

/* The loop above ran over the directory's profiles, all of them. */
START_TEST(test_shipped_profiles_found)
{
	ck_assert_msg(n_shipped >= 4 && n_shipped < SHIPPED_MAX,
		      "found %zu profiles in ec/profiles", n_shipped);
	ck_assert_str_eq(shipped_profiles[0], "ec/profiles/fingerprint.profile");
}
END_TEST

/* docs/ec-commands.md lists every command the table answers. */
START_TEST(test_doc_lists_every_command)
{
	const struct ec_cmd_entry *table;
	static char doc[64 * 1024];
	size_t n, i, len;
	FILE *f = fopen(test_path("docs/ec-commands.md"), "r");

	ck_assert_ptr_nonnull(f);
	len = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[len] = 0;
	table = test_cmd_table(&n);
	for (i = 0; i < n; i++) {
		char want[16];
		const char *p = doc;
		bool found = false;

		snprintf(want, sizeof(want), table[i].command < 0x100 ? "0x%02X" : "0x%X",
			 table[i].command);
		while (!found && (p = strstr(p, want))) {
			char next = p[strlen(want)];

			found = !((next >= '0' && next <= '9') || (next >= 'A' && next <= 'F'));
			p++;
		}
		ck_assert_msg(found, "docs/ec-commands.md does not list %s", want);
	}
}
END_TEST

START_TEST(test_profile_refuses_unbacked_feature)
{
	static const char *const bad[] = {
		"[ec]\nfeatures = lightbar\n",
		"[ec]\nfeatures = 50\n",
		"[ec]\nfeatures = host_events\ndisable_commands = 0x008c\n",
		"[ec]\nfeatures = flash\n",
		"[flash]\nsize = 10000\nwrite_block = 4\nerase_block = 4096\n",
	};
	struct ec_profile prof;
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ck_assert_int_eq(ec_profile_parse_text(bad[i], "b", &prof, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, "feature") || strstr(err, "[flash]"), "%s", err);
	}
	ck_assert_int_eq(ec_profile_parse_text("[ec]\nfeatures = host_events\ndisable_commands = "
					       "0x008c\n", "b", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "b:3: feature 'host_events' needs command 0x008c, "
			      "which this board lacks");
}
END_TEST

/* ---- write protect ---- */

static uint32_t protect(struct ec *e, uint32_t mask, uint32_t flags, uint32_t *writable)
{
	struct ec_params_flash_protect p = { .mask = mask, .flags = flags };
	uint8_t resp[12];

	ck_assert_uint_eq(hc_status(e, EC_CMD_FLASH_PROTECT, 1, &p, sizeof(p), resp, sizeof(resp),
			      NULL), EC_RES_SUCCESS);
	if (writable)
		*writable = le32(resp + 8);
	return le32(resp);
}

/* The WP line as FLASH_PROTECT, the EC_WP_L GPIO and the switches byte see it. */
static void check_wp(struct ec *e, bool asserted)
{
	uint8_t map[EC_MEMMAP_SIZE], resp[4];
	char name[32] = "EC_WP_L";

	ck_assert_int_eq(ec_read_memmap(e, EC_MEMMAP_SWITCHES, 1, map), 1);
	ck_assert_uint_eq(!(map[0] & EC_SWITCH_WRITE_PROTECT_DISABLED), asserted);
	ck_assert_uint_eq(!!(protect(e, 0, 0, NULL) & EC_FLASH_PROTECT_GPIO_ASSERTED), asserted);
	ck_assert_uint_eq(hc_status(e, EC_CMD_GPIO_GET, 0, name, sizeof(name), resp, sizeof(resp), NULL),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(resp[0], asserted ? 0 : 1);	/* active low */
}

START_TEST(test_wp_one_truth)
{
	struct ec *e;

	check_wp(ec, false);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_ASSERT), 0);
	check_wp(ec, true);
	ck_assert_int_eq(ec_apply_stimulus(ec, EC_STIM_WP_DEASSERT), 0);
	check_wp(ec, false);

	e = make_ec_text("[flash]\nsize = 65536\nwrite_block = 4\nerase_block = 4096\n"
			 "write_protect = yes\n[gpio]\nEC_WP_L = 1\n", &fc);
	check_wp(e, true);
	ec_destroy(e);
	/* The older spelling: GPIO_ASSERTED among the initial protect flags. */
	e = make_ec_text("[flash]\nsize = 65536\nwrite_block = 4\nerase_block = 4096\n"
			 "protect_flags = 0x9\n[gpio]\nEC_WP_L = 1\n", &fc);
	check_wp(e, true);
	ck_assert_uint_eq(protect(e, 0, 0, NULL) & EC_FLASH_PROTECT_RO_NOW,
			  EC_FLASH_PROTECT_RO_NOW);
	ec_destroy(e);
}
END_TEST

START_TEST(test_flash_protect_like_firmware)
{
	uint32_t f, w;

	/* WP deasserted: at-boot flags are free, ALL_NOW cannot be set. */
	f = protect(ec, EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_ALL_NOW,
		    EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_ALL_NOW, &w);
	ck_assert_uint_eq(f, EC_FLASH_PROTECT_RO_AT_BOOT);
	ck_assert_uint_eq(w & EC_FLASH_PROTECT_ALL_NOW, 0);
	ck_assert(w & EC_FLASH_PROTECT_RO_AT_BOOT);

	/* WP asserted: RO protected now, the at-boot flags frozen. */
	ec_apply_stimulus(ec, EC_STIM_WP_ASSERT);
	f = protect(ec, EC_FLASH_PROTECT_RO_AT_BOOT, 0, &w);
	ck_assert_uint_eq(f, EC_FLASH_PROTECT_RO_AT_BOOT | EC_FLASH_PROTECT_RO_NOW |
			  EC_FLASH_PROTECT_GPIO_ASSERTED);
	ck_assert_uint_eq(w, EC_FLASH_PROTECT_ALL_NOW);
	f = protect(ec, EC_FLASH_PROTECT_ALL_NOW, EC_FLASH_PROTECT_ALL_NOW, &w);
	ck_assert(f & EC_FLASH_PROTECT_ALL_NOW);
	ck_assert_uint_eq(w, 0);
	/* One-way until the line drops. */
	f = protect(ec, EC_FLASH_PROTECT_ALL_NOW, 0, NULL);
	ck_assert(f & EC_FLASH_PROTECT_ALL_NOW);
	/* Unknown and read-only bits: ignored, still SUCCESS. */
	ck_assert_uint_eq(protect(ec, 0xFFFFFFFFu, 0, NULL), f);

	ec_apply_stimulus(ec, EC_STIM_WP_DEASSERT);
	f = protect(ec, 0, 0, &w);
	ck_assert_uint_eq(f, EC_FLASH_PROTECT_RO_AT_BOOT);
	ck_assert(w & EC_FLASH_PROTECT_RO_AT_BOOT);
}
END_TEST

/* ---- flash read / write / erase ---- */

static uint32_t flash_read(struct ec *e, uint32_t off, uint32_t size, uint8_t *out)
{
	struct ec_params_flash_read p = { .offset = off, .size = size };

	return hc_status(e, EC_CMD_FLASH_READ, 0, &p, sizeof(p), out, size, NULL);
}

static uint32_t flash_write(struct ec *e, uint32_t ver, uint32_t off, const void *data,
			    uint32_t size)
{
	uint8_t req[248] = { 0 };
	struct ec_params_flash_write p = { .offset = off, .size = size };

	memcpy(req, &p, sizeof(p));
	memcpy(req + sizeof(p), data, size);
	return hc_status(e, EC_CMD_FLASH_WRITE, ver, req, sizeof(p) + size, NULL, 0, NULL);
}

static uint32_t flash_erase(struct ec *e, uint32_t ver, uint8_t cmd, uint32_t off,
			    uint32_t size)
{
	struct ec_params_flash_erase_v1 p1 = { .cmd = cmd, .params = { off, size } };
	struct ec_params_flash_erase p0 = { off, size };

	if (ver == 0)
		return hc_status(e, EC_CMD_FLASH_ERASE, 0, &p0, sizeof(p0), NULL, 0, NULL);
	return hc_status(e, EC_CMD_FLASH_ERASE, 1, &p1, sizeof(p1), NULL, 0, NULL);
}

START_TEST(test_flash_read_write_erase)
{
	uint8_t buf[240], data[64];
	size_t base = ec_memory_footprint(ec);
	uint32_t half = 524288 / 2;
	size_t i;

	/* The factory RO image starts with its version string. */
	ck_assert_uint_eq(flash_read(ec, 0, 32, buf), EC_RES_SUCCESS);
	ck_assert_str_eq((char *)buf, "laptop_v2.0.1234-ro");
	ck_assert_uint_eq(flash_read(ec, half, 32, buf), EC_RES_SUCCESS);
	ck_assert_str_eq((char *)buf, "laptop_v2.0.1234-rw");

	ck_assert_uint_eq(flash_erase(ec, 0, 0, 0, 4096), EC_RES_SUCCESS);
	ck_assert_uint_eq(flash_read(ec, 0, 240, buf), EC_RES_SUCCESS);
	for (i = 0; i < 240; i++)
		ck_assert_uint_eq(buf[i], 0xFF);
	ck_assert_uint_eq(ec_memory_footprint(ec), base);

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	ck_assert_uint_eq(flash_write(ec, 0, 64, data, 64), EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_memory_footprint(ec), base + 4096);
	ck_assert_uint_eq(flash_read(ec, 64, 64, buf), EC_RES_SUCCESS);
	ck_assert_mem_eq(buf, data, 64);
	/* Writing over written bytes only clears bits, as NOR flash does. */
	memset(data, 0x0F, 8);
	ck_assert_uint_eq(flash_write(ec, 1, 64, data, 8), EC_RES_SUCCESS);
	ck_assert_uint_eq(flash_read(ec, 64, 8, buf), EC_RES_SUCCESS);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(buf[i], (uint8_t)(i * 7) & 0x0F);
	/* Erasing gives the memory back. */
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_SECTOR, 0, 4096), EC_RES_SUCCESS);
	ck_assert_uint_eq(ec_memory_footprint(ec), base);

	/* The running RW image is never overwritten. */
	ck_assert_uint_eq(flash_write(ec, 1, half, data, 4), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(flash_erase(ec, 0, 0, half, 4096), EC_RES_ACCESS_DENIED);
	/* RO protected now (WP asserted, RO_AT_BOOT): RO refuses too. */
	ec_apply_stimulus(ec, EC_STIM_WP_ASSERT);
	protect(ec, EC_FLASH_PROTECT_RO_AT_BOOT, EC_FLASH_PROTECT_RO_AT_BOOT, NULL);
	ck_assert_uint_eq(flash_write(ec, 1, 0, data, 4), EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_SECTOR_ASYNC, 0, 4096),
			  EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(flash_read(ec, 0, 4, buf), EC_RES_SUCCESS);
}
END_TEST

START_TEST(test_flash_bad_inputs)
{
	uint8_t buf[256] = { 0 }, req[16] = { 0 };
	struct ec_params_flash_read rd = { .offset = 0, .size = 249 };
	struct ec_params_flash_write *wr = (void *)req;
	int ret;

	/* Reads: outside the flash, wrapping, more than the host can take. */
	ck_assert_uint_eq(flash_read(ec, 524288 - 4, 8, buf), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_read(ec, 0xFFFFFFF0u, 32, buf), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_READ, 0, &rd, sizeof(rd), buf, 248, &ret),
			  EC_RES_OVERFLOW);
	ck_assert_int_eq(ret, 0);
	/* Writes: misaligned, outside, data missing. v0 takes over 64 bytes too. */
	ck_assert_uint_eq(flash_write(ec, 1, 2, buf, 4), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_write(ec, 1, 0, buf, 6), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_write(ec, 1, 524288, buf, 4), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_write(ec, 0, 0, buf, 68), EC_RES_SUCCESS);
	ck_assert_uint_eq(flash_write(ec, 1, 0, buf, 68), EC_RES_SUCCESS);
	wr->size = 8;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_WRITE, 1, req, 12, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_WRITE, 1, req, 4, NULL, 0, NULL),
			  EC_RES_INVALID_PARAM);
	/* Erases: misaligned, outside, unknown sub-command. */
	ck_assert_uint_eq(flash_erase(ec, 0, 0, 100, 4096), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_erase(ec, 1, 0, 0, 100), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_erase(ec, 1, 0, 524288, 4096), EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_erase(ec, 1, 3, 0, 4096), EC_RES_INVALID_PARAM);
	/* Regions: the four known, then an unknown one. */
	for (rd.offset = 0; rd.offset < EC_FLASH_REGION_COUNT; rd.offset++)
		ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_REGION_INFO, 1, &rd.offset, 4, buf, 8,
				      NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_REGION_INFO, 1, &rd.offset, 4, buf, 8, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

START_TEST(test_flash_async_erase)
{
	uint8_t buf[16];
	int ret;

	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_SECTOR_ASYNC, 0, 8192), EC_RES_SUCCESS);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_GET_RESULT, 0, 0), EC_RES_BUSY);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_SECTOR_ASYNC, 8192, 4096), EC_RES_BUSY);
	ck_assert_uint_eq(flash_read(ec, 0, 16, buf), EC_RES_BUSY);
	ck_assert_uint_eq(flash_write(ec, 1, 0, buf, 4), EC_RES_BUSY);
	/* Two blocks take 4 ms on the EC clock. */
	fake_clock_advance(&fc, 3 * NS_PER_MS);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_GET_RESULT, 0, 0), EC_RES_BUSY);
	fake_clock_advance(&fc, 1 * NS_PER_MS);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_GET_RESULT, 0, 0), EC_RES_SUCCESS);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_FLASH_READ, 0, &(struct ec_params_flash_read){ 4096, 16 },
			      8, buf, sizeof(buf), &ret), EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 16);
	ck_assert_uint_eq(buf[0] & buf[7] & buf[15], 0xFF);
	/* Misaligned async erase is refused before it is queued. */
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_SECTOR_ASYNC, 1, 4096),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(flash_erase(ec, 1, FLASH_ERASE_GET_RESULT, 0, 0), EC_RES_SUCCESS);
}
END_TEST

/* ---- SHA-256 and VBOOT_HASH ---- */

static void hex_digest(const uint8_t *d, char *out)
{
	int i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

START_TEST(test_sha256_vectors)
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE], a[997];
	char hex[65];
	int i;

	sha256_init(&ctx);
	sha256_final(&ctx, d);
	hex_digest(d, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_init(&ctx);
	sha256_update(&ctx, "abc", 3);
	sha256_final(&ctx, d);
	hex_digest(d, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_init(&ctx);
	sha256_update(&ctx, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56);
	sha256_final(&ctx, d);
	hex_digest(d, hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* A million 'a' fed in odd-sized pieces crosses every block boundary case. */
	memset(a, 'a', sizeof(a));
	sha256_init(&ctx);
	for (i = 0; i < 1000000 / 997; i++)
		sha256_update(&ctx, a, sizeof(a));
	sha256_update(&ctx, a, 1000000 % 997);
	sha256_final(&ctx, d);
	hex_digest(d, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

static uint32_t vboot(struct ec *e, uint8_t cmd, uint32_t off, uint32_t size, uint8_t nonce,
		      struct ec_response_vboot_hash *r)
{
	struct ec_params_vboot_hash p = { .cmd = cmd, .offset = off, .size = size,
					  .nonce_size = nonce };

	memset(p.nonce_data, 0x5A, sizeof(p.nonce_data));
	memset(r, 0, sizeof(*r));
	return hc_status(e, EC_CMD_VBOOT_HASH, 0, &p, sizeof(p), r, sizeof(*r), NULL);
}

/* SHA-256 of @nonce bytes of 0x5A and the flash range, read with FLASH_READ. */
static void expected_digest(struct ec *e, uint32_t off, uint32_t size, uint8_t nonce,
			    uint8_t *out)
{
	struct sha256_ctx ctx;
	uint8_t buf[240], pad[64];
	uint32_t done;

	memset(pad, 0x5A, sizeof(pad));
	sha256_init(&ctx);
	sha256_update(&ctx, pad, nonce);
	for (done = 0; done < size; done += sizeof(buf)) {
		uint32_t n = size - done < sizeof(buf) ? size - done : (uint32_t)sizeof(buf);

		ck_assert_uint_eq(flash_read(e, off + done, n, buf), EC_RES_SUCCESS);
		sha256_update(&ctx, buf, n);
	}
	sha256_final(&ctx, out);
}

START_TEST(test_vboot_hash)
{
	struct ec_response_vboot_hash r;
	uint8_t want[SHA256_DIGEST_SIZE];
	uint32_t half = 524288 / 2;

	/* At boot the EC hashes its RW image in the background. */
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_GET, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_BUSY);
	ck_assert_uint_eq(r.offset, half);
	ck_assert_uint_eq(r.size, half);
	fake_clock_advance(&fc, NS_PER_S);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_GET, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_DONE);
	ck_assert_uint_eq(r.digest_size, 32);
	expected_digest(ec, half, half, 0, want);
	ck_assert_mem_eq(r.hash_digest, want, 32);

	/* RECALC of RO with a nonce: answered at once. */
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_RECALC, EC_VBOOT_HASH_OFFSET_RO, 0, 16, &r),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_DONE);
	ck_assert_uint_eq(r.offset, 0);
	expected_digest(ec, 0, half, 16, want);
	ck_assert_mem_eq(r.hash_digest, want, 32);

	/* START, a second START while busy, ABORT. */
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_START, 4096, 8192, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_BUSY);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_START, 0, 4096, 0, &r), EC_RES_BUSY);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_ABORT, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_GET, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_NONE);

	/* A write into the hashed range drops the digest. */
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_RECALC, 0, 4096, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(flash_erase(ec, 0, 0, 0, 4096), EC_RES_SUCCESS);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_GET, 0, 0, 0, &r), EC_RES_SUCCESS);
	ck_assert_uint_eq(r.status, EC_VBOOT_HASH_STATUS_NONE);
}
END_TEST

START_TEST(test_vboot_hash_bad_inputs)
{
	struct ec_params_vboot_hash p = { .cmd = EC_VBOOT_HASH_RECALC, .size = 16 };
	struct ec_response_vboot_hash r;
	struct ec *e;

	p.hash_type = 1;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_VBOOT_HASH, 0, &p, sizeof(p), &r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	p.hash_type = 0;
	p.nonce_size = 65;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_VBOOT_HASH, 0, &p, sizeof(p), &r, sizeof(r), NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_RECALC, 524288 - 8, 16, 0, &r),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(vboot(ec, EC_VBOOT_HASH_START, 0xFFFFFFF0u, 0x20, 0, &r),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(vboot(ec, 4, 0, 16, 0, &r), EC_RES_INVALID_PARAM);
	/* A board without flash has nothing to hash. */
	e = make_ec_text("[ec]\nboard = noflash\n", &fc);
	ck_assert_uint_eq(vboot(e, EC_VBOOT_HASH_GET, 0, 0, 0, &r), EC_RES_INVALID_PARAM);
	ec_destroy(e);
}
END_TEST

/* ---- host events ---- */

static uint32_t mask32(struct ec *e, uint32_t cmd, uint32_t set, bool is_set)
{
	uint8_t resp[4] = { 0 };

	if (is_set) {
		ck_assert_uint_eq(hc_status(e, cmd, 0, &set, 4, NULL, 0, NULL), EC_RES_SUCCESS);
		return 0;
	}
	ck_assert_uint_eq(hc_status(e, cmd, 0, NULL, 0, resp, sizeof(resp), NULL), EC_RES_SUCCESS);
	return le32(resp);
}

static uint32_t hostev64(struct ec *e, uint8_t action, uint8_t type, uint64_t value,
			 uint64_t *out)
{
	struct ec_params_host_event p = { .action = action, .mask_type = type, .value = value };
	uint8_t resp[8] = { 0 };
	uint32_t st = hc_status(e, EC_CMD_HOST_EVENT, 0, &p, sizeof(p), resp, sizeof(resp), NULL);

	if (out)
		*out = le32(resp) | (uint64_t)le32(resp + 4) << 32;
	return st;
}

START_TEST(test_host_event_copies)
{
	uint64_t lid = EC_HOST_EVENT_MASK(EC_HOST_EVENT_LID_CLOSED), v;
	uint8_t map[8];

	ec_apply_stimulus(ec, EC_STIM_LID_CLOSE);
	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_HOST_EVENTS, 8, map), 8);
	ck_assert(le32(map) & lid);
	ck_assert(mask32(ec, EC_CMD_HOST_EVENT_GET_B, 0, false) & lid);
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_MAIN, 0, &v),
			  EC_RES_SUCCESS);
	ck_assert(v & lid);

	/* Clearing the main copy leaves copy B alone, and the other way round. */
	mask32(ec, EC_CMD_HOST_EVENT_CLEAR, (uint32_t)lid, true);
	ck_assert_int_eq(ec_read_memmap(ec, EC_MEMMAP_HOST_EVENTS, 8, map), 8);
	ck_assert_uint_eq(le32(map) & lid, 0);
	ck_assert(mask32(ec, EC_CMD_HOST_EVENT_GET_B, 0, false) & lid);
	mask32(ec, EC_CMD_HOST_EVENT_CLEAR_B, (uint32_t)lid, true);
	ck_assert_uint_eq(mask32(ec, EC_CMD_HOST_EVENT_GET_B, 0, false) & lid, 0);

	/* The 64-bit command clears either copy too. */
	ec_apply_stimulus(ec, EC_STIM_LID_OPEN);
	lid = EC_HOST_EVENT_MASK(EC_HOST_EVENT_LID_OPEN);
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_CLEAR, EC_HOST_EVENT_B, lid, NULL),
			  EC_RES_SUCCESS);
	hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_B, 0, &v);
	ck_assert_uint_eq(v & lid, 0);
	hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_MAIN, 0, &v);
	ck_assert(v & lid);
}
END_TEST

START_TEST(test_host_event_masks)
{
	uint64_t v;
	unsigned int t;

	mask32(ec, EC_CMD_HOST_EVENT_SET_SCI_MASK, 0x1234, true);
	mask32(ec, EC_CMD_HOST_EVENT_SET_SMI_MASK, 0x55, true);
	mask32(ec, EC_CMD_HOST_EVENT_SET_WAKE_MASK, 0x8001, true);
	ck_assert_uint_eq(mask32(ec, EC_CMD_HOST_EVENT_GET_SCI_MASK, 0, false), 0x1234);
	ck_assert_uint_eq(mask32(ec, EC_CMD_HOST_EVENT_GET_SMI_MASK, 0, false), 0x55);
	ck_assert_uint_eq(mask32(ec, EC_CMD_HOST_EVENT_GET_WAKE_MASK, 0, false), 0x8001);
	hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_ACTIVE_WAKE_MASK, 0, &v);
	ck_assert_uint_eq(v, 0x8001);

	/* 64-bit masks; the legacy commands see the low half. */
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_SET, EC_HOST_EVENT_SCI_MASK,
				   0x100000001ull, NULL), EC_RES_SUCCESS);
	ck_assert_uint_eq(mask32(ec, EC_CMD_HOST_EVENT_GET_SCI_MASK, 0, false), 1);
	hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_SCI_MASK, 0, &v);
	ck_assert_uint_eq(v, 0x100000001ull);
	for (t = EC_HOST_EVENT_ALWAYS_REPORT_MASK; t < EC_HOST_EVENT_MASK_TYPE_COUNT; t++) {
		ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_SET, (uint8_t)t, 0xA0 + t, NULL),
				  EC_RES_SUCCESS);
		hostev64(ec, EC_HOST_EVENT_GET, (uint8_t)t, 0, &v);
		ck_assert_uint_eq(v, 0xA0 + t);
	}

	/* Bad inputs: events are not set by the host, masks are not cleared. */
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_SET, EC_HOST_EVENT_MAIN, 1, NULL),
			  EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_SET, EC_HOST_EVENT_B, 1, NULL),
			  EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_CLEAR, EC_HOST_EVENT_SCI_MASK, 1, NULL),
			  EC_RES_ACCESS_DENIED);
	ck_assert_uint_eq(hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_MASK_TYPE_COUNT, 0, NULL),
			  EC_RES_INVALID_PARAM);
	ck_assert_uint_eq(hostev64(ec, 3, EC_HOST_EVENT_SCI_MASK, 0, NULL), EC_RES_INVALID_PARAM);
	hostev64(ec, EC_HOST_EVENT_GET, EC_HOST_EVENT_SCI_MASK, 0, &v);
	ck_assert_uint_eq(v, 0x100000001ull);
}
END_TEST

START_TEST(test_host_sleep_event)
{
	struct ec_params_host_sleep_event_v1 p = { .sleep_event = HOST_SLEEP_EVENT_S0IX_SUSPEND,
						   .sleep_timeout_ms = 1000 };
	uint8_t resp[4];
	int ret;

	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 0, &p, 1, resp, 4, &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 0);
	ck_assert_uint_eq(ec->hostev.sleep_timeout_ms, 0);
	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 1, &p, 4, resp, 4, &ret),
			  EC_RES_SUCCESS);
	ck_assert_int_eq(ret, 4);
	ck_assert_uint_eq(ec->hostev.sleep_timeout_ms, 1000);
	p.sleep_event = HOST_SLEEP_EVENT_S0IX_RESUME;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 1, &p, 4, resp, 4, &ret),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 1);
	/* A resume with no suspend before it saw no transitions. */
	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 1, &p, 4, resp, 4, &ret),
			  EC_RES_SUCCESS);
	ck_assert_uint_eq(le32(resp), 0);
	p.sleep_event = 0;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 1, &p, 4, resp, 4, NULL),
			  EC_RES_INVALID_PARAM);
	p.sleep_event = HOST_SLEEP_EVENT_S3_WAKEABLE_SUSPEND + 1;
	ck_assert_uint_eq(hc_status(ec, EC_CMD_HOST_SLEEP_EVENT, 0, &p, 1, resp, 4, NULL),
			  EC_RES_INVALID_PARAM);
}
END_TEST

static Suite *ec_flash_events_suite(void)
{
	Suite *s = suite_create("ec_flash_events");
	TCase *tc = tcase_create("flash_events");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	find_shipped_profiles();
	tcase_add_loop_test(tc, test_features_backed_and_versions_true, 0, (int)n_shipped);
	tcase_add_test(tc, test_shipped_profiles_found);
	tcase_add_test(tc, test_profile_refuses_unbacked_feature);
	tcase_add_test(tc, test_doc_lists_every_command);
	tcase_add_test(tc, test_wp_one_truth);
	tcase_add_test(tc, test_flash_protect_like_firmware);
	tcase_add_test(tc, test_flash_read_write_erase);
	tcase_add_test(tc, test_flash_bad_inputs);
	tcase_add_test(tc, test_flash_async_erase);
	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_vboot_hash);
	tcase_add_test(tc, test_vboot_hash_bad_inputs);
	tcase_add_test(tc, test_host_event_copies);
	tcase_add_test(tc, test_host_event_masks);
	tcase_add_test(tc, test_host_sleep_event);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_flash_events_suite());
}
