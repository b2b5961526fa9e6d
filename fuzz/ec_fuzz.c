// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_fuzz.c - libFuzzer target for the EC model's command dispatcher.
 *
 * The input is a script of 8-byte records: an opcode selects a host command
 * (random command, version, request bytes and response room) or something
 * the world does to the EC (stimulus, event, panic, time passing). Every
 * host command gets a response buffer with a guard zone behind resp_max and
 * an exactly-sized request buffer, so ASan sees over-reads and this code
 * sees over-writes. One EC per input, freed at the end: leaks show up too.
 *
 * The input is also read as a recording (ec_recording_parse()): a parsed
 * one must write and read back to the same text, and answers the script's
 * host commands first as a replay.
 * A record with opcode 0xFE moves a convertible's hinge, folds it or
 * presses a side button (ec_motion_set_lid_angle(), ec_set_tablet_mode(),
 * ec_press_button(), bad values included).
 * A world record with opcode 0xFF saves the EC's state and loads it back,
 * whole, changed, cut short, or changed and sealed again with a right
 * digest (so the loader's checks behind the digest are reached): a load
 * that succeeds leaves an EC the script goes on driving; one refused must
 * leave the EC's state exactly as it was.
 *
 * The same entry point is replayed over tests/ec/corpus by tests/ec/
 * fuzz_replay in `make check`, without libFuzzer.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec/ec.h"
#include "ec/ec_profile.h"
#include "ec/ec_testing.h"
#include "ec/sha256.h"

#define GUARD 32
#define GUARD_FILL 0xCD
#define RECORD 8

struct fuzz_ctx {
	uint64_t now;
	struct ec_fault_plan *faults;
};

/* What an open file keeps: a chain entry, a mask and its own queue. */
struct fuzz_listener {
	struct ec_notifier nb;
	struct ec_event_queue q;
	uint32_t mask;
};

static void fuzz_event(struct ec_notifier *nb, const struct ec_event *ev)
{
	struct fuzz_listener *l = (struct fuzz_listener *)((char *)nb -
				  offsetof(struct fuzz_listener, nb));

	if (ev->type < 32 && (l->mask & (1u << ev->type)))
		ec_event_queue_push(&l->q, ev);
}

static uint64_t fuzz_now(void *ctx)
{
	return ((struct fuzz_ctx *)ctx)->now;
}

static void fuzz_sleep(void *ctx, uint64_t ns)
{
	((struct fuzz_ctx *)ctx)->now += ns;
}

/* Commands worth hitting often: the table's, plus edges and passthrough. */
static uint32_t fuzz_command(const uint8_t *r)
{
	size_t n = ec_host_command_count();
	uint32_t raw = (uint32_t)r[1] | (uint32_t)r[2] << 8;

	switch (r[3] & 3) {
	case 0:
		return ec_host_command_number(raw % n);
	case 1:
		return ec_host_command_number(raw % n) + EC_CMD_PASSTHRU_OFFSET(1 + (r[3] >> 2) % 3);
	case 2:
		return raw;
	default:
		return raw | (uint32_t)r[4] << 16 | (uint32_t)r[5] << 24;
	}
}

static void fuzz_host_command(struct ec *ec, const uint8_t *r, const uint8_t *data,
			      size_t data_len)
{
	uint32_t cmd = fuzz_command(r);
	uint32_t version = r[4] < 0xF0 ? r[4] % 4 : r[4];
	size_t req_len = r[5] % 64 ? r[5] % 64 : 0;
	size_t resp_max = r[6] | (size_t)(r[7] & 1) << 8;
	uint8_t *req, *resp;
	struct ec_cmd_effects fx;
	uint32_t status = 0;
	size_t i;
	int ret;

	if (req_len > data_len)
		req_len = data_len;
	if (resp_max > ec_max_response(ec))
		resp_max = ec_max_response(ec);
	req = malloc(req_len ? req_len : 1);
	resp = malloc(resp_max + GUARD);
	if (!req || !resp)
		abort();
	memcpy(req, data, req_len);
	memset(resp, GUARD_FILL, resp_max + GUARD);

	ret = ec_host_command_effects(ec, cmd, version, req_len ? req : NULL, req_len, resp,
				      resp_max, &status, &fx);
	for (i = resp_max; i < resp_max + GUARD; i++)
		if (resp[i] != GUARD_FILL)
			abort();	/* wrote past resp_max */
	if (ret > (int)resp_max)
		abort();
	if (ret > 0 && status != EC_RES_SUCCESS)
		abort();
	/* An injected fault answers as its kind says, and only so. */
	if ((fx.fault == EC_FAULT_OVERSIZE) != (ret == -EMSGSIZE && req_len <= ec_max_request(ec)))
		abort();
	if ((fx.fault == EC_FAULT_EIO) != (ret == -EIO))
		abort();
	if (ret < 0 && ret != -ETIMEDOUT && ret != -EMSGSIZE && ret != -EIO)
		abort();
	if (status > EC_RES_BUSY && fx.fault != EC_FAULT_RESULT)
		abort();
	free(req);
	free(resp);
}

/*
 * A fingerprint MCU with a small sensor (fingerprint.profile's shape, sizes
 * cut down so an input stays fast), for inputs whose first byte picks it.
 */
static const char fuzz_fpmcu_profile[] =
	"[ec]\nkind = fpmcu\nboard = fuzzfp\nmemmap_direct = no\n"
	"features = flash, fingerprint, rwsig\n"
	"[flash]\nsize = 65536\nwrite_block = 4\nerase_block = 4096\n"
	"[fingerprint]\nvendor_id = 0x20435046\nframe_size = 300\npixel_format = GREY\n"
	"width = 16\nheight = 16\nbpp = 8\ntemplate_size = 160\ntemplate_max = 3\n"
	"enroll_touches = 2\ncapture_time = 1ms\nmatch_time = 2ms\n"
	"[rwsig]\ntask = yes\nsig_alg = 6\nhash_alg = 2\nkey_version = 1\n";

/*
 * A fault rule from a record: half the time as the text a user types (the
 * parser on arbitrary bytes), else built from its bytes, the invalid kind
 * and chance included; a full plan is cleared.
 */
static void fuzz_fault(struct fuzz_ctx *ctx, const uint8_t *r)
{
	struct ec_fault f;
	char text[RECORD];

	if (r[2] & 1) {
		memcpy(text, r + 3, RECORD - 3);
		text[RECORD - 3] = '\0';
		if (ec_fault_parse(text, &f, NULL, 0))
			return;
	} else {
		f = (struct ec_fault){
			.command = r[3] & 1 ? EC_FAULT_ANY_COMMAND : r[4],
			.kind = (enum ec_fault_kind)(r[5] % (EC_FAULT_KINDS + 1)),
			.arg = r[6] % 8 == 4 ? 20000 : r[6],
			.times = r[7] % 4,
			.ppm = r[7] < 0x40 ? 1000000 : (uint32_t)r[7] * 3000,
		};
	}
	if (ec_fault_plan_add(ctx->faults, &f) == -ENOSPC)
		ec_fault_plan_clear(ctx->faults);
}

static bool fuzz_same_state(struct ec *ec, const uint8_t *blob, size_t len)
{
	void *now;
	size_t now_len;
	bool same;

	if (ec_state_save(ec, &now, &now_len))
		abort();
	same = now_len == len && !memcmp(now, blob, len);
	free(now);
	return same;
}

/* Save, change the blob as @r says, load; check what a load promises. */
static void fuzz_state(struct ec *ec, const uint8_t *r)
{
	uint8_t *blob, *before;
	size_t len, at, cut;
	struct sha256_ctx sha;
	char err[256];
	void *saved;
	int ret;

	if (ec_state_save(ec, &saved, &len))
		abort();
	blob = saved;
	before = malloc(len);
	if (!before)
		abort();
	memcpy(before, blob, len);
	at = (r[2] | (size_t)r[3] << 8 | (size_t)r[4] << 16) % len;
	cut = len;
	switch (r[1] & 3) {
	case 0:
		break;
	case 1:
		blob[at] ^= r[5] ? r[5] : 1;
		break;
	case 2:
		cut = at;
		break;
	default:
		/* Changed behind a digest made anew: the loader's own checks. */
		if (at < len - SHA256_DIGEST_SIZE)
			blob[at] ^= r[5] ? r[5] : 1;
		sha256_init(&sha);
		sha256_update(&sha, blob, len - SHA256_DIGEST_SIZE);
		sha256_final(&sha, blob + len - SHA256_DIGEST_SIZE);
		break;
	}
	ret = ec_state_load(ec, blob, cut, err, sizeof(err));
	if (ret < 0) {
		/* Refused: a reason, and nothing of the blob loaded. */
		if (!err[0] || !fuzz_same_state(ec, before, len))
			abort();
	} else if ((r[1] & 3) == 0 && !fuzz_same_state(ec, before, len)) {
		abort();	/* a round trip changes nothing */
	}
	free(before);
	free(blob);
}

static void fuzz_world(struct ec *ec, struct fuzz_ctx *ctx, struct fuzz_listener *l,
		       const uint8_t *r)
{
	uint8_t buf[300];

	switch (r[1] % 9) {
	case 0:
		ec_apply_stimulus(ec, (enum ec_stimulus)(r[2] % (EC_STIM_COUNT + 1)));
		break;
	case 1:
		/* Payload bytes beyond the record read as zero. */
		memset(buf, 0, 20);
		memcpy(buf, r + 3, RECORD - 3);
		ec_inject_event(ec, r[2] % 16, buf, r[3] % 20);
		break;
	case 2:
		ec_inject_panic(ec, r + 2, r[2] % (RECORD - 1));
		break;
	case 3:
		/*
		 * Up to ~1.8 hours per record in 0.1 s units (or microseconds):
		 * long enough to cross battery and thermal thresholds, short
		 * enough to keep executions fast.
		 */
		ctx->now += (uint64_t)(r[2] | r[3] << 8) * (r[4] % 2 ? 100000000ull : 1000ull);
		break;
	case 4:
		l->mask = (uint32_t)r[2] | (uint32_t)r[3] << 8;
		break;
	case 5:
		ec_tick(ec);
		ec_event_queue_pop(&l->q, buf, r[2] % 24);
		break;
	case 6:
		ec_read_memmap(ec, r[2] | (uint32_t)(r[3] & 1) << 8, r[4], buf);
		break;
	case 7:
		fuzz_fault(ctx, r);
		break;
	default:
		ec_set_load(ec, r[2] % 120);
		break;
	}
}

/* The hinge and the side buttons; each call's errors are its own promise. */
static void fuzz_motion(struct ec *ec, const uint8_t *r)
{
	unsigned int angle = (unsigned int)(r[2] | r[3] << 8) % 400;
	int ret;

	switch (r[1] % 4) {
	case 0:
		ret = ec_motion_set_lid_angle(ec, angle);
		if (ret && ret != -ENODEV && !(ret == -EINVAL && angle > 360))
			abort();
		break;
	case 1:
		if (ec_set_tablet_mode(ec, r[2] & 1) == -EINVAL)
			abort();
		break;
	case 2:
		ret = ec_press_button(ec, r[2] % 5, r[4]);
		if (ret && ret != -ENODEV && ret != -EINVAL)
			abort();
		break;
	default:
		ret = ec_motion_lid_angle(ec);
		if (ret != -ENODEV && (ret < 0 || (ret > 360 && ret != 500)))
			abort();
		break;
	}
}

/**
 * LLVMFuzzerTestOneInput() - run one input script against a fresh EC.
 * @data: the script
 * @size: its length
 *
 * Return: 0 (libFuzzer's convention); a violated invariant aborts.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The recording as @format's text, in a malloc'd buffer; aborts on failure. */
static char *fuzz_rec_text(const struct ec_recording *rec, enum ec_rec_format format,
			   size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f || ec_recording_write(rec, format, f, NULL) || fclose(f))
		abort();
	return text;
}

/*
 * The input as a recording (cuse_ec-recording(5)): either parser on any
 * bytes refuses cleanly or reads something the native format writes and
 * reads back to the same text; umockdev's text of it parses too. Return:
 * the recording, or NULL.
 */
static struct ec_recording *fuzz_recording(const uint8_t *data, size_t size)
{
	struct ec_recording *rec = NULL, *again = NULL;
	char err[256], *text, *text2;
	size_t len, len2;

	if (ec_recording_parse((const char *)data, size, &rec, err, sizeof(err)))
		return NULL;
	text = fuzz_rec_text(rec, EC_REC_FORMAT_NATIVE, &len);
	if (ec_recording_parse(text, len, &again, err, sizeof(err)))
		abort();
	text2 = fuzz_rec_text(again, EC_REC_FORMAT_NATIVE, &len2);
	if (len != len2 || memcmp(text, text2, len))
		abort();
	free(text);
	free(text2);
	ec_recording_destroy(again);
	text = fuzz_rec_text(rec, EC_REC_FORMAT_UMOCKDEV, &len);
	/* Nothing a umockdev file holds: no format line to tell, refused. */
	if (len && ec_recording_parse(text, len, &again, err, sizeof(err)))
		abort();
	if (len)
		ec_recording_destroy(again);
	free(text);
	return rec;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_ctx ctx = { .now = 1 };
	struct ec_clock clock = { fuzz_now, fuzz_sleep, &ctx };
	struct fuzz_listener listener = { .nb.call = fuzz_event };
	struct ec_recording *rec = fuzz_recording(data, size);
	struct ec_replay *replay = NULL;
	struct ec_profile *prof;
	struct ec *ec;
	size_t off;

	if (ec_profile_default(&prof))
		abort();
	/* The first byte may pick the fingerprint MCU ... */
	if (size && (data[0] & 6) == 6 &&
	    ec_profile_parse_text(fuzz_fpmcu_profile, "fuzz-fpmcu", prof, NULL, 0))
		abort();
	/* ... and a smaller, passthrough-capable profile shape. */
	if (size && (data[0] & 1)) {
		prof->max_request_packet = 64 + data[0];
		prof->max_response_packet = 64 + data[0];
		snprintf(prof->passthru_version[2], sizeof(prof->passthru_version[2]), "pd");
		prof->memmap_direct = false;
	}
	if (ec_create(prof, &clock, &ec) || ec_fault_plan_create(size ? data[0] : 0, &ctx.faults))
		abort();
	ec_set_fault_plan(ec, ctx.faults);
	/*
	 * A recording the input parsed as answers first (the model the rest),
	 * matched by order as well as by bytes when the first byte's bit 3 says.
	 */
	if (rec && !ec_replay_create(rec, EC_REPLAY_MISS_MODEL,
				     size && (data[0] & 8) ? EC_REPLAY_MATCH_ORDER :
							     EC_REPLAY_MATCH_BYTES, &replay))
		ec_set_replay(ec, replay);
	ec_profile_free(prof);
	ec_event_queue_init(&listener.q);
	if (ec_notifier_register(ec, &listener.nb))
		abort();
	for (off = 1; off + RECORD <= size; off += RECORD) {
		const uint8_t *r = data + off;

		if (r[0] < 0xC0)
			fuzz_host_command(ec, r, data + off + RECORD, size - off - RECORD);
		else if (r[0] == 0xFF)
			fuzz_state(ec, r);
		else if (r[0] == 0xFE)
			fuzz_motion(ec, r);
		else
			fuzz_world(ec, &ctx, &listener, r);
	}
	/* Destroyed with the listener registered: its queue is its own. */
	ec_destroy(ec);
	ec_fault_plan_destroy(ctx.faults);
	ec_replay_destroy(replay);
	ec_recording_destroy(rec);
	ec_event_queue_clear(&listener.q);
	return 0;
}
