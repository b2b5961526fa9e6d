/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_recording.h - recordings of a device's sessions, kept, shared and
 * replayed (cuse_ec-recording(5)): the part of ec.h's API for them, in a
 * file of its own so each stays readable; include ec/ec.h, which includes
 * this.
 */
#ifndef EC_EC_RECORDING_H
#define EC_EC_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ec;

/**
 * enum ec_rec_kind - what one record of a recording is.
 * @EC_REC_XCMD:    a host command through CROS_EC_DEV_IOCXCMD_V2
 * @EC_REC_READMEM: a direct memory-map read (CROS_EC_DEV_IOCRDMEM_V2)
 * @EC_REC_EVENT:   an MKBP event as a read() of the device returned it
 * @EC_REC_UNPLUG:  the device went away
 * @EC_REC_PLUG:    the device came (back)
 * @EC_REC_KINDS:   the count
 */
enum ec_rec_kind {
	EC_REC_XCMD,
	EC_REC_READMEM,
	EC_REC_EVENT,
	EC_REC_UNPLUG,
	EC_REC_PLUG,
	EC_REC_KINDS
};

/* Largest payload of one record: a protocol packet, with room to spare. */
#define EC_REC_DATA_MAX		4096

/**
 * struct ec_rec - one record.
 * @kind:      what it is
 * @t_ns:      nanoseconds since the recording began (0 when unknown)
 * @command:   XCMD: host command
 * @version:   XCMD: command version
 * @result:    XCMD: the EC result the client saw
 * @ret:       XCMD, READMEM: the ioctl's return, bytes (>= 0) or -errno
 * @out_size:  XCMD: request bytes the client sent (outsize)
 * @in_size:   XCMD: room the client gave (insize); READMEM: bytes asked
 * @offset:    READMEM: first byte of the map
 * @req_known: XCMD: @req holds the request; false when the source did not
 *             keep it (a umockdev file) and any request of @out_size bytes
 *             matches
 * @req:       XCMD: @out_size bytes of request, when @req_known
 * @data_len:  bytes in @data
 * @data:      XCMD: the answer's bytes (a umockdev file: all @in_size bytes
 *             of the buffer after the ioctl); READMEM: the bytes read;
 *             EVENT: type byte and payload, as read() gave them
 */
struct ec_rec {
	enum ec_rec_kind kind;
	uint64_t t_ns;
	uint32_t command;
	uint32_t version;
	uint32_t result;
	int32_t ret;
	uint32_t out_size;
	uint32_t in_size;
	uint32_t offset;
	bool req_known;
	const uint8_t *req;
	uint32_t data_len;
	const uint8_t *data;
};

/**
 * enum ec_rec_format - the text formats a recording is read and written in.
 * @EC_REC_FORMAT_NATIVE:   "cuse_ec-recording 1": every kind, with times
 * @EC_REC_FORMAT_UMOCKDEV: umockdev's ".ioctl" file: XCMD records only
 */
enum ec_rec_format {
	EC_REC_FORMAT_NATIVE,
	EC_REC_FORMAT_UMOCKDEV,
};

struct ec_recording;

/**
 * ec_recording_create() - an empty recording.
 * @out: the recording
 *
 * Return: 0 or -ENOMEM.
 */
int ec_recording_create(struct ec_recording **out);

/**
 * ec_recording_destroy() - free a recording; NULL is ignored.
 * @rec: the recording; no replay may use it any more
 */
void ec_recording_destroy(struct ec_recording *rec);

/**
 * ec_recording_add() - append a copy of @r; records keep the order added.
 * @rec: the recording
 * @r:   the record; its buffers are copied
 *
 * Return: 0, -EINVAL for a kind out of range, a payload over
 * EC_REC_DATA_MAX or a NULL buffer with a non-zero length, -ENOMEM.
 */
int ec_recording_add(struct ec_recording *rec, const struct ec_rec *r);

/**
 * ec_recording_count() - records held.
 * @rec: the recording
 *
 * Return: the count.
 */
size_t ec_recording_count(const struct ec_recording *rec);

/**
 * ec_recording_get() - one record, valid while @rec lives.
 * @rec: the recording
 * @i:   its index, in the order added
 *
 * Return: the record, or NULL when @i is out of range.
 */
const struct ec_rec *ec_recording_get(const struct ec_recording *rec, size_t i);

/**
 * ec_recording_device() - the device the session was recorded from (a
 * umockdev file's "@DEV" line, the native "device" line).
 * @rec: the recording
 *
 * Return: the path, or NULL when the file named none.
 */
const char *ec_recording_device(const struct ec_recording *rec);

/**
 * ec_recording_set_device() - name the device the session comes from.
 * @rec:  the recording
 * @path: an absolute path without blanks, or NULL for none
 *
 * Return: 0, -EINVAL for a path that is not absolute or holds a blank or
 * control character (it must fit one line), -ENOMEM.
 */
int ec_recording_set_device(struct ec_recording *rec, const char *path);

/**
 * ec_recording_parse() - read a recording from text; the first line picks
 * the format ("cuse_ec-recording 1": native; a umockdev "@DEV" line or a
 * CROS_EC_DEV_IOCXCMD_V2 line: umockdev).
 * @text:   the text (need not be NUL-terminated)
 * @len:    its length
 * @out:    the recording on success
 * @err:    on failure "line N: REASON"
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for malformed text (the first bad line is named),
 * -ENOMEM.
 */
int ec_recording_parse(const char *text, size_t len, struct ec_recording **out,
		       char *err, size_t errlen);

/**
 * ec_recording_load() - ec_recording_parse() on a file's contents.
 * @path:   a regular file of at most 16 MiB
 * @out:    the recording on success
 * @err:    on failure "PATH: line N: REASON" or "PATH: REASON"
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL (malformed, or not a regular file), -EFBIG, -ENOMEM,
 * or the -errno of opening or reading it.
 */
int ec_recording_load(const char *path, struct ec_recording **out, char *err, size_t errlen);

/**
 * ec_recording_write_header() - the lines a file of @format starts with.
 * @format: the format
 * @device: the device path for it, or NULL
 * @out:    where to write
 *
 * Return: 0, -EINVAL for an unknown format, -EIO when writing failed.
 */
int ec_recording_write_header(enum ec_rec_format format, const char *device, FILE *out);

/**
 * ec_rec_write() - one record as a line of @format, so a recorder can write
 * as a session goes.
 * @format: the format
 * @r:      the record
 * @out:    where to write
 *
 * Return: 1 when written, 0 when @format cannot carry the record (umockdev:
 * anything but XCMD; nothing is written), -EINVAL for an unknown format or
 * kind, -EIO when writing failed.
 */
int ec_rec_write(enum ec_rec_format format, const struct ec_rec *r, FILE *out);

/**
 * ec_recording_write() - the whole recording in @format: the header, then
 * every record it can carry, in order.
 * @rec:     the recording
 * @format:  the format
 * @out:     where to write
 * @skipped: if not NULL, the records @format could not carry
 *
 * Return: 0, -EINVAL, -EIO as ec_rec_write().
 */
int ec_recording_write(const struct ec_recording *rec, enum ec_rec_format format, FILE *out,
		       size_t *skipped);

/**
 * ec_rec_format_parse() - a format by name: "native" or "umockdev".
 * @name: the name
 * @out:  the format
 *
 * Return: 0, or -EINVAL for another name.
 */
int ec_rec_format_parse(const char *name, enum ec_rec_format *out);

/**
 * ec_rec_format_for_path() - the format a file's name asks for: ".ioctl"
 * is umockdev's, anything else native.
 * @path: the file's name
 *
 * Return: the format.
 */
enum ec_rec_format ec_rec_format_for_path(const char *path);

/**
 * enum ec_replay_miss - what a replay does with a request its recording
 * lacks.
 * @EC_REPLAY_MISS_MODEL:   the simulated EC answers it (an overlay on a
 *                          profile)
 * @EC_REPLAY_MISS_INVALID: EC_RES_INVALID_COMMAND, as a firmware without
 *                          the command answers
 */
enum ec_replay_miss {
	EC_REPLAY_MISS_MODEL,
	EC_REPLAY_MISS_INVALID,
};

/**
 * ec_replay_miss_parse() - a miss policy by name: "model" or "invalid".
 * @name: the name
 * @out:  the policy
 *
 * Return: 0, or -EINVAL for another name.
 */
int ec_replay_miss_parse(const char *name, enum ec_replay_miss *out);

/**
 * ec_replay_miss_name() - a policy's name.
 * @miss: the policy
 *
 * Return: "model" or "invalid" ("?" out of range).
 */
const char *ec_replay_miss_name(enum ec_replay_miss miss);

/**
 * enum ec_replay_match - how a replay matches a host command's request.
 * @EC_REPLAY_MATCH_BYTES: command, version and request bytes, exactly
 * @EC_REPLAY_MATCH_ORDER: exactly first; failing that, the first record not
 *                         used yet with the command, version and request
 *                         length (for clients that leave request bytes
 *                         uninitialised, as ectool does)
 */
enum ec_replay_match {
	EC_REPLAY_MATCH_BYTES,
	EC_REPLAY_MATCH_ORDER,
};

/**
 * ec_replay_match_parse() - a matching by name: "bytes" or "order".
 * @name: the name
 * @out:  the matching
 *
 * Return: 0, or -EINVAL for another name.
 */
int ec_replay_match_parse(const char *name, enum ec_replay_match *out);

/**
 * ec_replay_match_name() - a matching's name.
 * @match: the matching
 *
 * Return: "bytes" or "order" ("?" out of range).
 */
const char *ec_replay_match_name(enum ec_replay_match match);

struct ec_replay;

/**
 * ec_replay_create() - a replay of @rec's XCMD and READMEM records.
 * @rec:   the recording; it must outlive the replay
 * @miss:  the policy for requests @rec lacks
 * @match: how host commands find their records
 * @out:   the replay
 *
 * An XCMD request matches a record with its command, version and request
 * bytes (a record without its request bytes: any request of the same
 * length). Identical requests take the matching records in recorded order;
 * after the last, the last answer repeats. With EC_REPLAY_MATCH_ORDER, a
 * request no record matches so takes the first record not used yet with
 * its command, version and request length; only when there is none does
 * @miss apply. A READMEM matches offset and byte count the same way;
 * failing that, a plain read (not a string) within the bytes of a recorded
 * plain read is answered from them.
 *
 * Return: 0, -EINVAL, -ENOMEM.
 */
int ec_replay_create(const struct ec_recording *rec, enum ec_replay_miss miss,
		     enum ec_replay_match match, struct ec_replay **out);

/**
 * ec_replay_destroy() - free a replay; NULL is ignored.
 * @replay: the replay; no EC may use it any more (ec_set_replay())
 */
void ec_replay_destroy(struct ec_replay *replay);

/**
 * ec_replay_counts() - requests answered from the recording and not.
 * @replay:     the replay
 * @hits:       if not NULL, requests a record matching exactly answered
 * @loose_hits: if not NULL, host commands EC_REPLAY_MATCH_ORDER answered
 *              from a record of other request bytes (not in @hits)
 * @misses:     if not NULL, requests the recording lacked
 */
void ec_replay_counts(struct ec_replay *replay, uint64_t *hits, uint64_t *loose_hits,
		      uint64_t *misses);

/**
 * ec_set_replay() - the replay the EC consults before its model at every
 * host command and memory-map read.
 * @ec:     the EC
 * @replay: the replay, or NULL for none; it must outlive its use by @ec
 */
void ec_set_replay(struct ec *ec, struct ec_replay *replay);

#endif /* EC_EC_RECORDING_H */
