// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * udev_match.c - the pure half of udev_follow.h: parsing --follow and
 * --follow-match, deciding what one uevent means, telling copies of one
 * event apart. No netlink, no threads: every rule is unit-tested as is.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "udev_follow.h"

static bool udev_follow_key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A value (or path) byte we accept: printable, no whitespace. */
static bool udev_follow_value_char(char c)
{
	return (unsigned char)c > ' ' && (unsigned char)c < 0x7f;
}

int udev_follow_parse_match(const char *text, struct udev_follow_match *out)
{
	const char *eq, *p;
	size_t key_len, value_len;

	if (!text || !out)
		return -EINVAL;
	eq = strchr(text, '=');
	if (!eq)
		return -EINVAL;
	key_len = (size_t)(eq - text);
	value_len = strlen(eq + 1);
	if (!key_len || !value_len)
		return -EINVAL;
	if (key_len >= UDEV_FOLLOW_KEY_MAX || value_len >= UDEV_FOLLOW_VALUE_MAX)
		return -ENAMETOOLONG;
	for (p = text; p < eq; p++)
		if (!udev_follow_key_char(*p))
			return -EINVAL;
	for (p = eq + 1; *p; p++)
		if (!udev_follow_value_char(*p))
			return -EINVAL;
	memcpy(out->key, text, key_len);
	out->key[key_len] = '\0';
	memcpy(out->value, eq + 1, value_len + 1);
	return 0;
}

int udev_follow_parse_syspath(const char *text, char *devpath)
{
	const char *p, *rel = text;
	size_t len;

	if (!text || !devpath || text[0] != '/')
		return -EINVAL;
	/* Uevents carry the path below /sys; accept either spelling. */
	if (!strncmp(text, "/sys/", 5) || !strcmp(text, "/sys"))
		rel = text + 4;
	len = strlen(rel);
	while (len > 0 && rel[len - 1] == '/')
		len--;
	if (!len)
		return -EINVAL;
	if (len >= UDEV_FOLLOW_PATH_MAX)
		return -ENAMETOOLONG;
	for (p = rel; p < rel + len; p++) {
		if (!udev_follow_value_char(*p))
			return -EINVAL;
		/* ".." would name some other device than the one written. */
		if (p[0] == '/' && p[1] == '.' && p[2] == '.' && (p[3] == '/' || p + 3 == rel + len))
			return -EINVAL;
	}
	memcpy(devpath, rel, len);
	devpath[len] = '\0';
	return 0;
}

int udev_follow_rules_init(struct udev_follow_rules *rules, const char *name,
			   const char *syspath, const char *const *matches, unsigned int n)
{
	unsigned int i;
	int ret;

	if (!rules || !name || !name[0] || n > UDEV_FOLLOW_MATCH_MAX)
		return -EINVAL;
	memset(rules, 0, sizeof(*rules));
	if (strlen(name) >= sizeof(rules->name))
		return -ENAMETOOLONG;
	strcpy(rules->name, name);
	if (syspath) {
		ret = udev_follow_parse_syspath(syspath, rules->devpath);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = udev_follow_parse_match(matches[i], &rules->match[i]);
		if (ret)
			return ret;
	}
	rules->n_match = n;
	return 0;
}

const char *udev_follow_prop_get(const struct udev_follow_prop *props, size_t n,
				 const char *key)
{
	size_t i;

	if (!props || !key)
		return NULL;
	for (i = 0; i < n; i++)
		if (props[i].key && props[i].value && !strcmp(props[i].key, key))
			return props[i].value;
	return NULL;
}

/* Default rule: the daemon's own CUSE device, /devices/virtual/cuse/NAME. */
static bool udev_follow_is_own_device(const struct udev_follow_rules *rules,
				      const struct udev_follow_prop *props, size_t n,
				      const char *devpath)
{
	const char *subsystem = udev_follow_prop_get(props, n, "SUBSYSTEM");
	const char *sysname = strrchr(devpath, '/');

	if (!subsystem || strcmp(subsystem, "cuse"))
		return false;
	sysname = sysname ? sysname + 1 : devpath;
	return !strcmp(sysname, rules->name);
}

/*
 * The kernel's uevent says DEVNAME=ec2, libudev and udevd say /dev/ec2:
 * compare names below /dev so that either spelling matches either.
 */
static const char *udev_follow_devname_tail(const char *value)
{
	return !strncmp(value, "/dev/", 5) ? value + 5 : value;
}

static bool udev_follow_value_matches(const struct udev_follow_match *m, const char *value)
{
	if (!value)
		return false;
	if (!strcmp(m->key, "DEVNAME"))
		return !strcmp(udev_follow_devname_tail(value), udev_follow_devname_tail(m->value));
	return !strcmp(value, m->value);
}

bool udev_follow_matches(const struct udev_follow_rules *rules,
			 const struct udev_follow_prop *props, size_t n)
{
	const char *devpath = udev_follow_prop_get(props, n, "DEVPATH");
	unsigned int i;

	if (!rules || !devpath)
		return false;
	if (!rules->devpath[0] && !rules->n_match)
		return udev_follow_is_own_device(rules, props, n, devpath);
	if (rules->devpath[0] && strcmp(rules->devpath, devpath))
		return false;
	for (i = 0; i < rules->n_match; i++)
		if (!udev_follow_value_matches(&rules->match[i],
					       udev_follow_prop_get(props, n, rules->match[i].key)))
			return false;
	return true;
}

enum udev_follow_decision udev_follow_decide(const struct udev_follow_rules *rules,
					     const struct udev_follow_prop *props, size_t n)
{
	const char *action = udev_follow_prop_get(props, n, "ACTION");

	if (!rules || !action)
		return UDEV_FOLLOW_IGNORE;
	/* Only the two actions that mean "there" / "gone"; change, bind,
	 * unbind, move and online/offline leave the EC as it is. */
	if (strcmp(action, "remove") && strcmp(action, "add"))
		return UDEV_FOLLOW_IGNORE;
	if (!udev_follow_matches(rules, props, n))
		return UDEV_FOLLOW_IGNORE;
	return action[0] == 'r' ? UDEV_FOLLOW_UNPLUG : UDEV_FOLLOW_PLUG;
}

bool udev_follow_seen_add(struct udev_follow_seen *seen, unsigned long long seqnum)
{
	unsigned int i;

	if (!seqnum)
		return true;
	for (i = 0; i < UDEV_FOLLOW_SEEN_MAX; i++)
		if (seen->seqnum[i] == seqnum)
			return false;
	seen->seqnum[seen->next] = seqnum;
	seen->next = (seen->next + 1) % UDEV_FOLLOW_SEEN_MAX;
	return true;
}

unsigned long long udev_follow_seqnum(const struct udev_follow_prop *props, size_t n)
{
	const char *text = udev_follow_prop_get(props, n, "SEQNUM");
	unsigned long long v;
	char *end;

	if (!text || text[0] < '0' || text[0] > '9')
		return 0;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return 0;
	return v;
}
