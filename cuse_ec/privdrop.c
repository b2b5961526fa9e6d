// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * privdrop.c - --user=USER[:GROUP]: the daemon needs root to open /dev/cuse,
 * bind its control socket where it was told, join the uevent groups and set
 * the node's owner and mode; after that it serves as USER. What it keeps
 * are file descriptors: the CUSE channel, the listening socket and the
 * uevent monitors all stay usable without privileges.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "privdrop.h"

/* A name, or a number for an id without a name (containers, CI). */
static int privdrop_number(const char *s, unsigned long *out)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || *end || *out >= (unsigned long)(uid_t)-1)
		return -EINVAL;
	return 0;
}

static int privdrop_user(const char *name, struct privdrop *out, char *err, size_t errlen)
{
	struct passwd *pw;
	unsigned long n;

	pw = getpwnam(name);
	if (!pw && !privdrop_number(name, &n))
		pw = getpwuid((uid_t)n);
	if (!pw) {
		snprintf(err, errlen, "no such user '%s'", name);
		return -EINVAL;
	}
	if (!pw->pw_uid) {
		snprintf(err, errlen, "'%s' is root: nothing would be dropped", name);
		return -EINVAL;
	}
	if (strlen(pw->pw_name) >= sizeof(out->user)) {
		snprintf(err, errlen, "user name '%s' is too long", pw->pw_name);
		return -EINVAL;
	}
	strcpy(out->user, pw->pw_name);
	out->uid = pw->pw_uid;
	out->gid = pw->pw_gid;
	return 0;
}

int privdrop_parse(const char *spec, struct privdrop *out, char *err, size_t errlen)
{
	char user[PRIVDROP_NAME_MAX];
	const char *colon, *group;
	struct group *gr;
	unsigned long n;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	colon = strchr(spec, ':');
	len = colon ? (size_t)(colon - spec) : strlen(spec);
	if (!len || len >= sizeof(user)) {
		snprintf(err, errlen, "want USER or USER:GROUP");
		return -EINVAL;
	}
	memcpy(user, spec, len);
	user[len] = '\0';
	ret = privdrop_user(user, out, err, errlen);
	if (ret)
		return ret;
	if (colon) {
		group = colon + 1;
		gr = getgrnam(group);
		if (!gr && !privdrop_number(group, &n))
			gr = getgrgid((gid_t)n);
		if (!gr) {
			snprintf(err, errlen, "no such group '%s'", group);
			return -EINVAL;
		}
		out->gid = gr->gr_gid;
		out->group_given = true;
	}
	out->wanted = true;
	return 0;
}

/* Groups first, while we still may; just GROUP when the caller chose it. */
static int privdrop_groups(const struct privdrop *p)
{
	if (p->group_given)
		return setgroups(1, &p->gid) ? -errno : 0;
	return initgroups(p->user, p->gid) ? -errno : 0;
}

int privdrop_apply(const struct privdrop *p, char *err, size_t errlen)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	int ret;

	if (!p->wanted)
		return 0;
	ret = privdrop_groups(p);
	if (ret) {
		snprintf(err, errlen, "setting the groups of %s: %s", p->user, strerror(-ret));
		return ret;
	}
	if (setresgid(p->gid, p->gid, p->gid)) {
		ret = -errno;
		snprintf(err, errlen, "setresgid(%u): %s", (unsigned int)p->gid, strerror(errno));
		return ret;
	}
	/* Leaving uid 0 clears every capability set (no SECBIT_KEEP_CAPS). */
	if (setresuid(p->uid, p->uid, p->uid)) {
		ret = -errno;
		snprintf(err, errlen, "setresuid(%u): %s", (unsigned int)p->uid, strerror(errno));
		return ret;
	}
	/* Trust, but check: all three ids moved and root cannot come back. */
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid) ||
	    ruid != p->uid || euid != p->uid || suid != p->uid || rgid != p->gid ||
	    egid != p->gid || sgid != p->gid || !setuid(0) || !setgid(0)) {
		snprintf(err, errlen, "the switch to %s did not hold", p->user);
		return -EPERM;
	}
	return 0;
}
