// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_replay.c - answering from a recording: an overlay the EC consults
 * before its model (ec.c), as it consults a fault plan. A request matching
 * a record gets the recorded answer; one the recording lacks gets the
 * model's answer or INVALID_COMMAND, as the policy says.
 *
 * Matching is by what the client sent, never by time: command, version
 * and request bytes (XCMD), offset and count (READMEM). Identical requests
 * take their records in recorded order, so a value that changed during the
 * session (a battery draining) changes again on replay; after the last, the
 * last answer repeats, as an EC left alone keeps answering the same.
 *
 * EC_REPLAY_MATCH_ORDER loosens XCMD matching for clients that send
 * uninitialised bytes (ectool's unused request fields): a host command no
 * record matches exactly takes the first record not used yet with its
 * command, version and request length, as a umockdev record (which kept
 * no request bytes) always matches.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ec_internal.h"

struct ec_replay {
	pthread_mutex_t lock;		/* a leaf: taken inside an EC's lock */
	const struct ec_recording *rec;
	enum ec_replay_miss miss;
	enum ec_replay_match match;
	bool *used;			/* one per record: answered already */
	uint64_t hits, loose_hits, misses;
};

static const char *const ec_replay_miss_names[] = {
	[EC_REPLAY_MISS_MODEL] = "model",
	[EC_REPLAY_MISS_INVALID] = "invalid",
};

/* The index of @name in @names (@n entries), or -EINVAL. */
static int ec_replay_name_index(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++) {
		if (!strcmp(name, names[i]))
			return (int)i;
	}
	return -EINVAL;
}

#define EC_REPLAY_NAMES(names) (names), sizeof(names) / sizeof((names)[0])

int ec_replay_miss_parse(const char *name, enum ec_replay_miss *out)
{
	int i = ec_replay_name_index(EC_REPLAY_NAMES(ec_replay_miss_names), name);

	if (i < 0 || !out)
		return -EINVAL;
	*out = (enum ec_replay_miss)i;
	return 0;
}

const char *ec_replay_miss_name(enum ec_replay_miss miss)
{
	if ((size_t)miss >= sizeof(ec_replay_miss_names) / sizeof(ec_replay_miss_names[0]))
		return "?";
	return ec_replay_miss_names[miss];
}

static const char *const ec_replay_match_names[] = {
	[EC_REPLAY_MATCH_BYTES] = "bytes",
	[EC_REPLAY_MATCH_ORDER] = "order",
};

int ec_replay_match_parse(const char *name, enum ec_replay_match *out)
{
	int i = ec_replay_name_index(EC_REPLAY_NAMES(ec_replay_match_names), name);

	if (i < 0 || !out)
		return -EINVAL;
	*out = (enum ec_replay_match)i;
	return 0;
}

const char *ec_replay_match_name(enum ec_replay_match match)
{
	if ((size_t)match >= sizeof(ec_replay_match_names) / sizeof(ec_replay_match_names[0]))
		return "?";
	return ec_replay_match_names[match];
}

int ec_replay_create(const struct ec_recording *rec, enum ec_replay_miss miss,
		     enum ec_replay_match match, struct ec_replay **out)
{
	struct ec_replay *replay;

	if (!rec || !out || (miss != EC_REPLAY_MISS_MODEL && miss != EC_REPLAY_MISS_INVALID) ||
	    (match != EC_REPLAY_MATCH_BYTES && match != EC_REPLAY_MATCH_ORDER))
		return -EINVAL;
	replay = calloc(1, sizeof(*replay));
	if (!replay)
		return -ENOMEM;
	replay->used = calloc(ec_recording_count(rec) + 1, sizeof(*replay->used));
	if (!replay->used || pthread_mutex_init(&replay->lock, NULL)) {
		free(replay->used);
		free(replay);
		return -ENOMEM;
	}
	replay->rec = rec;
	replay->miss = miss;
	replay->match = match;
	*out = replay;
	return 0;
}

void ec_replay_destroy(struct ec_replay *replay)
{
	if (!replay)
		return;
	pthread_mutex_destroy(&replay->lock);
	free(replay->used);
	free(replay);
}

void ec_replay_counts(struct ec_replay *replay, uint64_t *hits, uint64_t *loose_hits,
		      uint64_t *misses)
{
	pthread_mutex_lock(&replay->lock);
	if (hits)
		*hits = replay->hits;
	if (loose_hits)
		*loose_hits = replay->loose_hits;
	if (misses)
		*misses = replay->misses;
	pthread_mutex_unlock(&replay->lock);
}

void ec_set_replay(struct ec *ec, struct ec_replay *replay)
{
	pthread_mutex_lock(&ec->lock);
	__atomic_store_n(&ec->replay, replay, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ec->lock);
}

/* A host command's record for @command, @version and a request of @req_len bytes. */
static bool ec_replay_xcmd_shape_matches(const struct ec_rec *r, uint32_t command,
					 uint32_t version, size_t req_len)
{
	return r->kind == EC_REC_XCMD && r->command == command && r->version == version &&
	       r->out_size == req_len;
}

static bool ec_replay_xcmd_matches(const struct ec_rec *r, uint32_t command, uint32_t version,
				   const void *req, size_t req_len)
{
	return ec_replay_xcmd_shape_matches(r, command, version, req_len) &&
	       (!r->req_known || !req_len || !memcmp(r->req, req, req_len));
}

static bool ec_replay_readmem_matches(const struct ec_rec *r, uint32_t offset, uint32_t bytes)
{
	return r->kind == EC_REC_READMEM && r->offset == offset && r->in_size == bytes;
}

/*
 * The record that answers: the first matching one not used yet, else the
 * last matching one. Called with the replay's lock held.
 * Return: the record, or NULL for a miss.
 */
static const struct ec_rec *ec_replay_pick(struct ec_replay *replay, uint32_t a, uint32_t b,
					   const void *req, size_t req_len, bool readmem)
{
	const struct ec_rec *r, *last = NULL;
	size_t i, n = ec_recording_count(replay->rec);

	for (i = 0; i < n; i++) {
		r = ec_recording_get(replay->rec, i);
		if (readmem ? !ec_replay_readmem_matches(r, a, b) :
			      !ec_replay_xcmd_matches(r, a, b, req, req_len))
			continue;
		if (!replay->used[i]) {
			replay->used[i] = true;
			return r;
		}
		last = r;
	}
	return last;
}

/*
 * EC_REPLAY_MATCH_ORDER: a host command no record matched exactly takes the
 * first record not used yet with its command, version and request length,
 * whatever its request bytes. Called with the replay's lock held.
 * Return: the record, or NULL.
 */
static const struct ec_rec *ec_replay_pick_loose(struct ec_replay *replay, uint32_t command,
						 uint32_t version, size_t req_len)
{
	const struct ec_rec *r;
	size_t i, n = ec_recording_count(replay->rec);

	for (i = 0; i < n; i++) {
		r = ec_recording_get(replay->rec, i);
		if (replay->used[i] || !ec_replay_xcmd_shape_matches(r, command, version, req_len))
			continue;
		replay->used[i] = true;
		return r;
	}
	return NULL;
}

/*
 * A READMEM no record asked exactly: the last record of a plain read (not
 * a string) whose bytes cover the range, such as a recorder's one read of
 * the whole map. Return: the record, or NULL.
 */
static const struct ec_rec *ec_replay_cover(struct ec_replay *replay, uint32_t offset,
					    uint32_t bytes)
{
	const struct ec_rec *r, *found = NULL;
	size_t i, n = ec_recording_count(replay->rec);

	if (!bytes)
		return NULL;
	for (i = 0; i < n; i++) {
		r = ec_recording_get(replay->rec, i);
		if (r->kind == EC_REC_READMEM && r->in_size && r->ret > 0 &&
		    r->offset <= offset && offset + bytes <= r->offset + (uint32_t)r->ret &&
		    offset + bytes <= r->offset + r->data_len)
			found = r;
	}
	return found;
}

bool ec_replay_xcmd(struct ec_replay *replay, uint32_t command, uint32_t version,
		    const void *req, size_t req_len, void *resp, size_t resp_max,
		    uint32_t *status, int *ret)
{
	const struct ec_rec *r;
	size_t n;

	pthread_mutex_lock(&replay->lock);
	r = ec_replay_pick(replay, command, version, req, req_len, false);
	if (r)
		replay->hits++;
	else if (replay->match == EC_REPLAY_MATCH_ORDER &&
		 (r = ec_replay_pick_loose(replay, command, version, req_len)))
		replay->loose_hits++;
	else
		replay->misses++;
	if (!r) {
		pthread_mutex_unlock(&replay->lock);
		if (replay->miss == EC_REPLAY_MISS_MODEL)
			return false;
		*status = EC_RES_INVALID_COMMAND;
		*ret = 0;
		return true;
	}
	*status = r->result;
	*ret = r->ret;
	if (r->ret > 0) {
		n = (size_t)r->ret;
		if (n > resp_max) {
			/* Less room than the recorded answer: the transport refuses it. */
			*ret = -EMSGSIZE;
		} else {
			memset(resp, 0, n);
			memcpy(resp, r->data, r->data_len < n ? r->data_len : n);
		}
	}
	pthread_mutex_unlock(&replay->lock);
	return true;
}

bool ec_replay_readmem(struct ec_replay *replay, uint32_t offset, uint32_t bytes, void *buf,
		       int *ret)
{
	const struct ec_rec *r;

	pthread_mutex_lock(&replay->lock);
	r = ec_replay_pick(replay, offset, bytes, NULL, 0, true);
	if (!r && (r = ec_replay_cover(replay, offset, bytes))) {
		replay->hits++;
		*ret = (int)bytes;
		memcpy(buf, r->data + (offset - r->offset), bytes);
		pthread_mutex_unlock(&replay->lock);
		return true;
	}
	if (r)
		replay->hits++;
	else
		replay->misses++;
	if (!r) {
		pthread_mutex_unlock(&replay->lock);
		if (replay->miss == EC_REPLAY_MISS_MODEL)
			return false;
		/* As a device without direct access: clients use READ_MEMMAP. */
		*ret = -ENOTTY;
		return true;
	}
	*ret = r->ret;
	if (r->ret > 0) {
		memset(buf, 0, (size_t)r->ret);
		memcpy(buf, r->data, r->data_len < (uint32_t)r->ret ? r->data_len : (size_t)r->ret);
	}
	pthread_mutex_unlock(&replay->lock);
	return true;
}
