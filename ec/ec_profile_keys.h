/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_profile_keys.h - the profile format's vocabulary: its sections, the
 * keys each section takes and the names some values are written with.
 *
 * Private to the profile parser: ec_profile.c reads these tables, and
 * ec_profile_keys.c (the one place a new key is added) defines them.
 */
#ifndef EC_EC_PROFILE_KEYS_H
#define EC_EC_PROFILE_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum key_type {
	KT_STR,		/* char[size] */
	KT_U16,
	KT_U32,
	KT_BOOL,	/* yes/no, true/false, on/off, 1/0 */
	KT_KELVIN,	/* u32 kelvin; "45C" converts from Celsius */
	KT_DURATION,	/* u64 ns; suffix ns, us, ms, s or m */
	KT_PROB,	/* u32 ppm, written as a probability 0..1 */
	KT_SIZE,	/* u32 bytes; optional suffix K, M or G */
	KT_U64,
	KT_ENUM,	/* u32 or u8 index into a name list */
	KT_FEATURES,	/* u32[2] from feature names or bit numbers */
	KT_CMDLIST,	/* disabled command list */
	KT_LED_RANGE,	/* u8[6] */
};

enum section_id {
	SEC_NONE,
	SEC_EC,
	SEC_CHIP,
	SEC_FLASH,
	SEC_PROTOCOL,
	SEC_STATE,
	SEC_BATTERY,
	SEC_TEMP,
	SEC_FAN,
	SEC_LED,
	SEC_GPIO,
	SEC_USBPD_PORT,
	SEC_LATENCY,
	SEC_FAULTS,
	SEC_PASSTHRU,
	SEC_KEYBOARD,
	SEC_CBI,
	SEC_ADC,
	SEC_FINGERPRINT,
	SEC_RWSIG,
	SEC_MOTION_SENSOR,
	SEC_COUNT
};

/**
 * struct key_desc - one "key = value" a section takes.
 * @key:    the key's name
 * @type:   how the value is written
 * @offset: into the profile, or into the section's item for a repeatable one
 * @size:   KT_STR: the field's size; KT_ENUM: 1 or 4 bytes
 * @min:    smallest number allowed
 * @max:    largest number allowed
 * @names:  KT_ENUM: NULL-terminated value names, the index is stored
 */
struct key_desc {
	const char *key;
	enum key_type type;
	size_t offset;
	size_t size;
	uint64_t min, max;
	const char *const *names;
};

/**
 * struct section_desc - one [section].
 * @name:        as written between the brackets
 * @keys:        its keys; NULL for a section whose lines ec_profile.c parses itself
 * @n_keys:      entries in @keys
 * @has_present: the section sets the bool at @present when it appears
 * @present:     offset of that bool in the profile
 * @max_items:   0, or: the section repeats, each header opening the next of
 *               at most @max_items items (the keys' offsets are into the item)
 * @items:       offset of the item array in the profile
 * @item_size:   size of one item
 * @count:       offset of the unsigned int item count
 */
struct section_desc {
	const char *name;
	const struct key_desc *keys;
	size_t n_keys;
	bool has_present;
	size_t present;
	unsigned int max_items;
	size_t items, item_size, count;
};

/* Indexed by enum section_id; entry SEC_NONE is empty. */
extern const struct section_desc ec_profile_sections[SEC_COUNT];

const struct key_desc *ec_profile_find_key(enum section_id section, const char *key);
int ec_profile_feature_bit(const char *name);
const char *ec_profile_feature_name(unsigned int bit);

#endif /* EC_EC_PROFILE_KEYS_H */
