// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * utf8.c - text fields as valid UTF-8 (common.h), the one place that
 * decides what a byte the EC or a user sent becomes in JSON output.
 */
#include "config.h"

#include <string.h>

#include "common/common.h"

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/*
 * Length of the valid UTF-8 sequence at @s (at most @left bytes), or 0.
 * The ranges are RFC 3629's: no overlong forms, no surrogates, nothing
 * above U+10FFFF.
 */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (len > left)
		return 0;
	for (i = 1; i < len; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

size_t text_to_utf8(const char *field, size_t size, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)field;
	size_t n = field ? strnlen(field, size) : 0;
	size_t used = 0, i = 0, len;

	if (!outlen)
		return 0;
	while (i < n) {
		const char *piece = (const char *)s + i;

		len = utf8_sequence(s + i, n - i);
		i += len ? len : 1;
		if (!len) {
			piece = replacement;
			len = sizeof(replacement) - 1;
		}
		if (used + len >= outlen)
			break;
		memcpy(out + used, piece, len);
		used += len;
	}
	out[used] = '\0';
	return used;
}
