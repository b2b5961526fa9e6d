/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_state_table.h - the one definition of what a state file holds
 * (ec_state_file.c): every member of struct ec, by path, with how it is
 * saved or why it is not. Private to the EC model and its unit tests, which
 * check that no member of struct ec is missing from the table.
 */
#ifndef EC_EC_STATE_TABLE_H
#define EC_EC_STATE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ec;

/**
 * enum ec_state_how - how one member of struct ec goes into a state file.
 * @EC_STATE_BYTES:     its bytes, as they are
 * @EC_STATE_TIME:      EC-clock nanoseconds (one uint64_t, or one in each
 *                      element of an array): saved relative to the clock's
 *                      now at the save, moved to the loading EC's now; 0
 *                      (none) stays 0
 * @EC_STATE_HEAP:      a buffer the member points to, through @codec
 * @EC_STATE_NOT_SAVED: left out, for the reason in @why
 */
enum ec_state_how {
	EC_STATE_BYTES,
	EC_STATE_TIME,
	EC_STATE_HEAP,
	EC_STATE_NOT_SAVED,
};

/**
 * struct ec_state_codec - the bytes of a heap buffer a member points to.
 * @size:    bytes the buffer has on @ec's board (0: the board has none)
 * @encode:  writes @size(@ec) bytes to @out
 * @decode:  builds the buffer in @st from @len bytes (@len already checked
 *           against @size(@st)); the other members it reads (listed earlier
 *           in the table) are already decoded; returns 0 or -ENOMEM/-EINVAL
 * @release: frees the buffer of @ec and sets the member to NULL
 */
struct ec_state_codec {
	size_t (*size)(const struct ec *ec);
	void (*encode)(const struct ec *ec, uint8_t *out);
	int (*decode)(struct ec *st, const uint8_t *in, size_t len);
	void (*release)(struct ec *ec);
};

/**
 * struct ec_state_field - one row of the table.
 * @name:     the member's path in struct ec ("flash.erase_busy"); a record's
 *            name in the file
 * @offset:   offsetof(struct ec, member)
 * @size:     sizeof(member)
 * @how:      how it is saved
 * @stride:   EC_STATE_TIME: bytes from one timestamp to the next
 * @time_off: EC_STATE_TIME: the timestamp's offset in each element
 * @codec:    EC_STATE_HEAP: its buffer's coding
 * @why:      EC_STATE_NOT_SAVED: one word of reason
 */
struct ec_state_field {
	const char *name;
	size_t offset;
	size_t size;
	enum ec_state_how how;
	size_t stride;
	size_t time_off;
	const struct ec_state_codec *codec;
	const char *why;
};

/* The file's first bytes. */
#define EC_STATE_MAGIC		"CUSEECST"
#define EC_STATE_MAGIC_LEN	8

/* Flash block states (ec_cmd_flashrw.c): 2 is written, its bytes in block[]. */
#define EC_STATE_BLOCK_WRITTEN	2
#define EC_STATE_BLOCK_STATES	3

/* ec_state_file.c: what the board gives the buffers, for the loader's checks. */
uint32_t ec_state_flash_blocks(const struct ec *ec);
size_t ec_state_blocks_written(const struct ec *ec);
bool ec_state_has_fp(const struct ec *ec);

/* The table, in the order a load decodes it. */
extern const struct ec_state_field ec_state_fields[];
extern const size_t ec_state_n_fields;

#endif /* EC_EC_STATE_TABLE_H */
