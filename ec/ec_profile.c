// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_profile.c - board profiles: a tiny INI-like text format parsed without
 * any library (cuse_ec-profile(5) describes it).
 *
 * Each "key = value" line is looked up in its section's table of {key, type,
 * offset, range} (ec_profile_keys.c); repeatable sections ([temp], [fan], [led], [usbpd_port])
 * open a new item each time they appear and their keys land in that item.
 * Every error names the file, the line and the problem.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/common.h"
#include "ec_profile.h"
#include "ec_profile_keys.h"

#define PROFILE_LINE_MAX	512

struct parser {
	const char *file;
	unsigned int line;
	char *err;
	size_t errlen;
	struct ec_profile *prof;
	enum section_id section;
	void *item;		/* current item of a repeatable section */
	bool have_battery;
	unsigned int keys;	/* key = value lines read */
};

static int perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ps->err || !ps->errlen)
		return -EINVAL;
	n = snprintf(ps->err, ps->errlen, "%s:%u: ", ps->file, ps->line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/*
 * A temperature: kelvin, bare or with a K, or Celsius with a C (whole
 * degrees: 0 C is 273 K, as the EC's own tables round it).
 */
static int parse_kelvin(const char *v, const struct key_desc *kd, uint64_t *k,
			char *why, size_t len)
{
	char digits[24];
	size_t n = strlen(v);
	bool celsius = false;
	uint64_t t;

	if (n && (v[n - 1] == 'K' || v[n - 1] == 'C')) {
		celsius = v[n - 1] == 'C';
		n--;
	}
	if (n >= sizeof(digits))
		n = sizeof(digits) - 1;		/* too long to be in range anyway */
	memcpy(digits, v, n);
	digits[n] = '\0';
	if (parse_uint(digits, kd->key, 0, 1000, &t, why, len)) {
		/* Quote what was written, suffix and all. */
		if (!strstr(why, "out of range"))
			snprintf(why, len, "invalid %s '%.40s': expected kelvin, or Celsius "
				 "with a C suffix", kd->key, v);
		else
			snprintf(why, len, "invalid %s '%.40s': out of range %lluK..%lluK",
				 kd->key, v, (unsigned long long)kd->min,
				 (unsigned long long)kd->max);
		return -EINVAL;
	}
	t += celsius ? 273 : 0;
	if (t < kd->min || t > kd->max) {
		snprintf(why, len, "invalid %s '%.40s': out of range %lluK..%lluK", kd->key, v,
			 (unsigned long long)kd->min, (unsigned long long)kd->max);
		return -EINVAL;
	}
	*k = t;
	return 0;
}

static int lookup_name(const char *const *names, const char *v)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

static int parse_features(struct parser *ps, char *v, uint32_t *flags)
{
	char *tok, *save = NULL, why[PARSE_ERR_MAX];

	flags[0] = flags[1] = 0;
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *name = trim(tok);
		uint64_t bit;
		int named;

		if (!*name)
			continue;
		if (isdigit((unsigned char)name[0])) {
			if (parse_uint(name, "feature bit", 0, EC_FEATURE_COUNT - 1, &bit, why,
				       sizeof(why)))
				return perr(ps, "%s", why);
		} else {
			named = ec_profile_feature_bit(name);
			if (named < 0)
				return perr(ps, "unknown feature '%s'", name);
			bit = (uint64_t)named;
		}
		flags[bit / 32] |= 1u << (bit % 32);
	}
	return 0;
}

static int parse_cmdlist(struct parser *ps, char *v)
{
	struct ec_profile *prof = ps->prof;
	char *tok, *save = NULL, why[PARSE_ERR_MAX];

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *name = trim(tok);
		uint64_t cmd;

		if (!*name)
			continue;
		if (parse_uint(name, "command number", 0, 0x3FFF, &cmd, why, sizeof(why)))
			return perr(ps, "%s", why);
		if (prof->n_disabled >= EC_MAX_DISABLED_CMDS)
			return perr(ps, "too many disabled commands (max %d)", EC_MAX_DISABLED_CMDS);
		prof->disabled[prof->n_disabled++] = (uint16_t)cmd;
	}
	return 0;
}

static int parse_led_range(struct parser *ps, char *v, uint8_t *range)
{
	char *tok, *save = NULL, why[PARSE_ERR_MAX];
	unsigned int n = 0;

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t x;

		if (n >= EC_LED_COLOR_COUNT)
			return perr(ps, "range needs exactly 6 values (red,green,blue,yellow,white,amber)");
		if (parse_uint(trim(tok), "brightness", 0, 255, &x, why, sizeof(why)))
			return perr(ps, "%s", why);
		range[n++] = (uint8_t)x;
	}
	if (n != EC_LED_COLOR_COUNT)
		return perr(ps, "range needs exactly 6 values (red,green,blue,yellow,white,amber)");
	return 0;
}

static int apply_key(struct parser *ps, const struct key_desc *kd, char *v)
{
	uint8_t *base = ps->item ? ps->item : (uint8_t *)ps->prof;
	uint8_t *field = base + kd->offset;
	char why[PARSE_ERR_MAX];
	uint64_t n = 0;
	uint32_t ppm;
	bool b;
	int idx;

	switch (kd->type) {
	case KT_STR:
		if (strlen(v) >= kd->size)
			return perr(ps, "value of '%s' too long (max %zu characters)", kd->key,
				    kd->size - 1);
		ec_copy_str((char *)field, kd->size, v);
		return 0;
	case KT_BOOL:
		if (parse_bool(v, &b))
			return perr(ps, "'%s' must be yes or no, not '%s'", kd->key, v);
		*(bool *)field = b;
		return 0;
	case KT_ENUM:
		idx = lookup_name(kd->names, v);
		if (idx < 0)
			return perr(ps, "unknown value '%s' for '%s'", v, kd->key);
		if (kd->size == 1)
			*field = (uint8_t)idx;
		else
			*(uint32_t *)(void *)field = (uint32_t)idx;
		return 0;
	case KT_FEATURES:
		return parse_features(ps, v, (uint32_t *)(void *)field);
	case KT_CMDLIST:
		return parse_cmdlist(ps, v);
	case KT_LED_RANGE:
		return parse_led_range(ps, v, field);
	case KT_KELVIN:
		if (parse_kelvin(v, kd, &n, why, sizeof(why)))
			return perr(ps, "%s", why);
		break;
	case KT_DURATION:
		if (parse_duration(v, kd->key, kd->max, &n, why, sizeof(why)))
			return perr(ps, "%s", why);
		break;
	case KT_PROB:
		if (parse_probability(v, kd->key, &ppm, why, sizeof(why)))
			return perr(ps, "%s", why);
		n = ppm;
		break;
	case KT_SIZE:
		if (parse_size(v, kd->key, kd->min, kd->max, &n, why, sizeof(why)))
			return perr(ps, "%s", why);
		break;
	default:
		if (parse_uint(v, kd->key, kd->min, kd->max, &n, why, sizeof(why)))
			return perr(ps, "%s", why);
		break;
	}
	switch (kd->type) {
	case KT_U16:
		*(uint16_t *)(void *)field = (uint16_t)n;
		break;
	case KT_DURATION:
	case KT_U64:
		*(uint64_t *)(void *)field = n;
		break;
	default:
		*(uint32_t *)(void *)field = (uint32_t)n;
		break;
	}
	return 0;
}

static int open_section(struct parser *ps, const char *name)
{
	uint8_t *base = (uint8_t *)ps->prof;
	const struct section_desc *sec;
	unsigned int *count;
	size_t i;

	ps->item = NULL;
	for (i = SEC_NONE + 1; i < SEC_COUNT; i++)
		if (!strcmp(ec_profile_sections[i].name, name))
			break;
	if (i == SEC_COUNT)
		return perr(ps, "unknown section [%s]", name);
	ps->section = (enum section_id)i;
	sec = &ec_profile_sections[i];
	if (sec->has_present)
		*(bool *)(void *)(base + sec->present) = true;
	if (!sec->max_items)
		return 0;
	/* A repeatable section: each header opens the next item. */
	count = (unsigned int *)(void *)(base + sec->count);
	if (*count >= sec->max_items)
		return perr(ps, "too many [%s] sections (max %u)", name, sec->max_items);
	ps->item = base + sec->items + (size_t)*count * sec->item_size;
	(*count)++;
	return 0;
}

/* [gpio]: "NAME = 0|1 [out]" */
static int parse_gpio(struct parser *ps, const char *key, char *v)
{
	struct ec_profile *prof = ps->prof;
	struct ec_gpio_profile *g;
	char *dir, what[EC_NAME_LEN + 16], why[PARSE_ERR_MAX];
	uint64_t val;

	if (prof->n_gpios >= EC_MAX_GPIOS)
		return perr(ps, "too many GPIOs (max %d)", EC_MAX_GPIOS);
	if (strlen(key) >= EC_NAME_LEN)
		return perr(ps, "GPIO name '%s' too long (max %d characters)", key, EC_NAME_LEN - 1);
	dir = strpbrk(v, " \t");
	if (dir) {
		*dir++ = '\0';
		dir = trim(dir);
	}
	snprintf(what, sizeof(what), "GPIO %s value", key);
	if (parse_uint(v, what, 0, 1, &val, why, sizeof(why)))
		return perr(ps, "%s", why);
	if (dir && strcmp(dir, "out") && strcmp(dir, "in"))
		return perr(ps, "GPIO %s direction must be 'in' or 'out', not '%s'", key, dir);
	g = &prof->gpios[prof->n_gpios++];
	ec_copy_str(g->name, sizeof(g->name), key);
	g->value = (uint8_t)val;
	g->output = dir && !strcmp(dir, "out");
	return 0;
}

/* [latency]: "default = 200us" or "<command> = 2ms" */
static int parse_latency(struct parser *ps, const char *key, const char *v)
{
	struct ec_profile *prof = ps->prof;
	char why[PARSE_ERR_MAX];
	uint64_t ns, cmd;

	if (parse_duration(v, "latency", 10 * PARSE_NSEC_PER_SEC, &ns, why, sizeof(why)))
		return perr(ps, "%s", why);
	if (!strcmp(key, "default")) {
		prof->latency_ns = ns;
		return 0;
	}
	if (parse_uint(key, "latency command", 0, 0xFFFF, &cmd, NULL, 0))
		return perr(ps, "latency key must be 'default' or a command number, not '%s'", key);
	if (prof->n_latency_rules >= EC_MAX_LATENCY_RULES)
		return perr(ps, "too many latency rules (max %d)", EC_MAX_LATENCY_RULES);
	prof->latency_rules[prof->n_latency_rules].command = (uint16_t)cmd;
	prof->latency_rules[prof->n_latency_rules].ns = ns;
	prof->n_latency_rules++;
	return 0;
}

/* [passthru]: "<device 1..3> = <version string>" */
static int parse_passthru(struct parser *ps, const char *key, const char *v)
{
	uint64_t dev;

	if (parse_uint(key, "passthru device", 1, EC_PASSTHRU_DEVICES_MAX, &dev, NULL, 0))
		return perr(ps, "passthru device must be 1, 2 or 3, not '%s'", key);
	if (!*v || strlen(v) >= EC_VERSION_STRING_LEN)
		return perr(ps, "passthru version string must be 1..%d characters",
			    EC_VERSION_STRING_LEN - 1);
	ec_copy_str(ps->prof->passthru_version[dev], EC_VERSION_STRING_LEN, v);
	return 0;
}

/*
 * The PD MCU behind a laptop EC, once: an STM32F072 as on samus_pd (128 KiB
 * of flash in 2 KiB pages, written in half-words, protected in 4 KiB
 * banks). It keeps no wall time and has no memory map (that is the LPC
 * host interface's; the chip sits on the EC's I2C), so RTC_GET_VALUE and
 * READ_MEMMAP are switched off; it advertises no features. Its version
 * string is the parent's [passthru] line, prefixed to the build info.
 */
static const char ec_pd_mcu_profile[] =
	"[ec]\n"
	"kind = pd\n"
	"board = pd\n"
	"build_info = 2026-02-01 08:30:00 builder@cuse-ec\n"
	"memmap_direct = no\n"
	"disable_commands = 0x0007, 0x0044\n"
	"[chip]\n"
	"vendor = st\n"
	"name = stm32f07x\n"
	"revision = 1\n"
	"[flash]\n"
	"size = 128K\n"
	"write_block = 2\n"
	"erase_block = 2048\n"
	"protect_block = 4096\n"
	"write_protect = no\n";

int ec_profile_passthru(const struct ec_profile *parent, unsigned int dev,
			struct ec_profile *out)
{
	const char *version;
	char err[128];
	char build[EC_VERSION_STRING_LEN + EC_BUILD_INFO_LEN];

	if (!parent || !out || dev < 1 || dev > EC_PASSTHRU_DEVICES_MAX ||
	    !parent->passthru_version[dev][0])
		return -EINVAL;
	version = parent->passthru_version[dev];
	/* The text is ours: a parse failure is a bug a unit test catches. */
	if (ec_profile_parse_text(ec_pd_mcu_profile, "pd-mcu", out, err, sizeof(err)))
		return -EINVAL;
	ec_copy_str(out->version_ro, sizeof(out->version_ro), version);
	ec_copy_str(out->version_rw, sizeof(out->version_rw), version);
	/* Room for both: the field then cuts the line to what it holds. */
	snprintf(build, sizeof(build), "%s %s", version, out->build_info);
	ec_copy_str(out->build_info, sizeof(out->build_info), build);
	/* What the EC relays is bounded by its own buffers. */
	out->max_request_packet = parent->max_request_packet;
	out->max_response_packet = parent->max_response_packet;
	return 0;
}

static int parse_line(struct parser *ps, char *line)
{
	char *s = trim(line), *eq, *key, *v;
	const struct key_desc *kd;

	if (!*s || *s == '#' || *s == ';')
		return 0;
	if (*s == '[') {
		char *close = strchr(s, ']');

		if (!close || close[1])
			return perr(ps, "malformed section header '%s'", s);
		*close = '\0';
		return open_section(ps, trim(s + 1));
	}
	eq = strchr(s, '=');
	if (!eq)
		return perr(ps, "expected 'key = value', got '%s'", s);
	*eq = '\0';
	key = trim(s);
	v = trim(eq + 1);
	if (!*key)
		return perr(ps, "missing key before '='");
	if (ps->section == SEC_NONE)
		return perr(ps, "key '%s' outside any section", key);
	if (ps->section == SEC_GPIO)
		return parse_gpio(ps, key, v);
	if (ps->section == SEC_LATENCY)
		return parse_latency(ps, key, v);
	if (ps->section == SEC_PASSTHRU)
		return parse_passthru(ps, key, v);
	kd = ec_profile_find_key(ps->section, key);
	if (kd) {
		ps->keys++;
		return apply_key(ps, kd, v);
	}
	return perr(ps, "unknown key '%s' in [%s]", key, ec_profile_sections[ps->section].name);
}

static void profile_defaults(struct ec_profile *prof)
{
	memset(prof, 0, sizeof(*prof));
	ec_copy_str(prof->board, sizeof(prof->board), "unnamed");
	ec_copy_str(prof->version_ro, sizeof(prof->version_ro), "sim_v1.0.0-ro");
	ec_copy_str(prof->version_rw, sizeof(prof->version_rw), "sim_v1.0.0-rw");
	prof->current_image = EC_IMAGE_RW;
	prof->max_request_packet = 544;
	prof->max_response_packet = 544;
	prof->memmap_direct = true;
	prof->lid_open = true;
	prof->ac_present = true;
	prof->batt_initial_percent = 80;
	prof->batt_charge_ma = 2000;
	prof->batt_idle_ma = 500;
	prof->batt_load_ma = 2500;
	prof->batt_low_percent = 10;
	prof->batt_critical_percent = 5;
	prof->fault_timeout_ns = 1000000000ull;
	/* The Chromebook keyboard: 8 rows, 13 columns, a power button. */
	prof->kb_rows = 8;
	prof->kb_cols = 13;
	prof->kb_buttons = 1u << EC_MKBP_POWER_BUTTON;
	ec_profile_keys_defaults(prof);
}

/* Every advertised feature must be backed by commands this board answers. */
static int profile_check_features(struct parser *ps)
{
	const struct ec_profile *prof = ps->prof;
	unsigned int bit;

	for (bit = 0; bit < EC_FEATURE_COUNT; bit++) {
		uint32_t missing = 0;
		const char *why;

		if (!(prof->features[bit / 32] & (1u << (bit % 32))))
			continue;
		why = ec_feature_unbacked(prof, bit, &missing);
		if (!why)
			continue;
		if (missing)
			return perr(ps, "feature '%s' %s 0x%04x, which this board lacks",
				    ec_profile_feature_name(bit), why, missing);
		return perr(ps, "feature %u ('%s') cannot be advertised: %s", bit,
			    ec_profile_feature_name(bit), why);
	}
	if ((prof->features[0] & (1u << EC_FEATURE_FLASH)) && !prof->flash_size)
		return perr(ps, "feature 'flash' needs a [flash] size");
	return 0;
}

/*
 * The fingerprint MCU's sections: only on an FPMCU, which needs both, and
 * a sensor whose frame holds its image and whose template holds the
 * encryption metadata and the positive-match salt.
 */
static int profile_validate_fp(struct parser *ps)
{
	const struct ec_profile *prof = ps->prof;
	uint64_t image;

	if ((prof->has_fp || prof->has_rwsig) && prof->kind != EC_KIND_FPMCU)
		return perr(ps, "[fingerprint] and [rwsig] need [ec] kind = fpmcu");
	if (prof->kind != EC_KIND_FPMCU)
		return 0;
	if (!prof->has_fp || !prof->has_rwsig)
		return perr(ps, "kind = fpmcu needs a [fingerprint] and an [rwsig] section");
	if (!prof->fp_frame_size || !prof->fp_width || !prof->fp_height || !prof->fp_bpp ||
	    !prof->fp_template_size || !prof->fp_template_max)
		return perr(ps, "[fingerprint] needs frame_size, width, height, bpp, "
			    "template_size and template_max");
	if (strlen(prof->fp_pixel_format) != 4)
		return perr(ps, "[fingerprint] pixel_format must be a four-character code, e.g. GREY");
	image = (uint64_t)prof->fp_width * prof->fp_height * prof->fp_bpp / 8;
	if (image > prof->fp_frame_size)
		return perr(ps, "[fingerprint] frame_size %u is smaller than the %llu-byte image",
			    prof->fp_frame_size, (unsigned long long)image);
	if (prof->fp_template_size <= sizeof(struct ec_fp_template_encryption_metadata) +
				      FP_POSITIVE_MATCH_SALT_BYTES)
		return perr(ps, "[fingerprint] template_size must exceed the %zu bytes of "
			    "metadata and salt", sizeof(struct ec_fp_template_encryption_metadata) +
			    FP_POSITIVE_MATCH_SALT_BYTES);
	return 0;
}

/*
 * The motion sensors: a laptop EC's, each with a range its type has (the
 * type's first when unset) and the rates its chip takes.
 */
static int profile_validate_motion(struct parser *ps)
{
	struct ec_profile *prof = ps->prof;
	unsigned int i;

	if (prof->n_motion && prof->kind != EC_KIND_EC)
		return perr(ps, "[motion_sensor] needs [ec] kind = ec");
	for (i = 0; i < prof->n_motion; i++) {
		struct ec_motion_sensor_profile *m = &prof->motion[i];

		if (!m->range)
			m->range = ec_motion_range_round(m->type, 0, true);
		if (ec_motion_range_round(m->type, m->range, true) != m->range)
			return perr(ps, "[motion_sensor] %u: range %u is not one the %s has", i,
				    m->range, m->type == MOTIONSENSE_TYPE_GYRO ? "gyroscope" :
				    "accelerometer");
		if (!m->min_mhz || !m->max_mhz || m->min_mhz > m->max_mhz)
			return perr(ps, "[motion_sensor] %u needs min_frequency <= max_frequency", i);
	}
	return 0;
}

/* Cross-key rules, checked once the whole file is read. */
static int profile_validate(struct parser *ps)
{
	struct ec_profile *prof = ps->prof;
	unsigned int i;
	int ret;

	if (prof->has_battery) {
		if (!prof->batt_design_mah || !prof->batt_design_mv)
			return perr(ps, "[battery] needs design_capacity and design_voltage");
		if (!prof->batt_full_mah)
			prof->batt_full_mah = prof->batt_design_mah;
		if (prof->batt_critical_percent > prof->batt_low_percent)
			return perr(ps, "[battery] critical must not exceed low");
	}
	for (i = 0; i < prof->n_fans; i++)
		if (!prof->fan_max_rpm[i])
			return perr(ps, "[fan] %u needs max_rpm", i);
	for (i = 0; i < prof->n_temps; i++)
		if (!prof->temps[i].name[0] || !prof->temps[i].ambient_k)
			return perr(ps, "[temp] %u needs name and ambient", i);
	if ((uint64_t)prof->fault_busy_ppm + prof->fault_in_progress_ppm +
	    prof->fault_timeout_ppm > EC_PPM)
		return perr(ps, "[faults] probabilities add up to more than 1");
	/* The old way of saying "WP asserted" still works. */
	if (prof->flash_protect_flags & EC_FLASH_PROTECT_GPIO_ASSERTED)
		prof->write_protect = true;
	prof->flash_protect_flags &= ~EC_FLASH_PROTECT_GPIO_ASSERTED;
	if (prof->flash_size &&
	    (prof->flash_size > EC_FLASH_SIZE_MAX || !prof->flash_write_block ||
	     !prof->flash_erase_block || prof->flash_size % prof->flash_erase_block ||
	     prof->flash_erase_block % prof->flash_write_block ||
	     (prof->flash_size / 2) % prof->flash_erase_block))
		return perr(ps, "[flash] size must be a multiple of 2 x erase_block, "
			    "erase_block of write_block, at most %u bytes", EC_FLASH_SIZE_MAX);
	ret = profile_validate_motion(ps);
	if (!ret)
		ret = profile_validate_fp(ps);
	if (ret)
		return ret;
	if (ec_profile_disable_absent(prof))
		return perr(ps, "too many disabled commands (max %d)", EC_MAX_DISABLED_CMDS);
	/*
	 * A file that sets nothing is a mistake (a truncated copy, the wrong
	 * file), not a board: the defaults alone have no flash, battery or
	 * sensor.
	 */
	if (!ps->keys) {
		if (ps->err && ps->errlen)
			snprintf(ps->err, ps->errlen, "%s: sets no key: a board needs at least one "
				 "(start from a shipped profile, e.g. laptop)", ps->file);
		return -EINVAL;
	}
	return profile_check_features(ps);
}

/**
 * ec_profile_parse_text() - parse profile text into @out.
 * @text:   the whole profile, NUL-terminated
 * @name:   file name used in error messages
 * @out:    filled on success (and partly on failure)
 * @err:    on failure "<name>:<line>: <problem>"; may be NULL
 * @errlen: size of @err
 *
 * Return: 0 or -EINVAL.
 */
int ec_profile_parse_text(const char *text, const char *name, struct ec_profile *out,
			  char *err, size_t errlen)
{
	struct parser ps = {
		.file = name, .err = err, .errlen = errlen, .prof = out,
	};
	char line[PROFILE_LINE_MAX];
	const char *p = text;
	int ret;

	profile_defaults(out);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		ps.line++;
		if (len >= sizeof(line))
			return perr(&ps, "line longer than %d characters", PROFILE_LINE_MAX - 1);
		memcpy(line, p, len);
		line[len] = '\0';
		if (memchr(line, '\0', len))
			return perr(&ps, "NUL byte in line");
		ret = parse_line(&ps, line);
		if (ret)
			return ret;
		p += len + (nl ? 1 : 0);
	}
	return profile_validate(&ps);
}
