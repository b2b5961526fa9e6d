/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * privdrop.h - give up root once everything that needs it is set up:
 * --user=USER[:GROUP] names who the daemon goes on as.
 */
#ifndef CUSE_EC_PRIVDROP_H
#define CUSE_EC_PRIVDROP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PRIVDROP_NAME_MAX 64

/**
 * struct privdrop - the identity to switch to.
 * @wanted: --user was given
 * @user:   its user name (for initgroups and messages)
 * @uid:    the user's uid
 * @gid:    the group: GROUP when given, else the user's primary group
 * @group_given: GROUP was given: it is the only group (no initgroups)
 */
struct privdrop {
	bool wanted;
	bool group_given;
	char user[PRIVDROP_NAME_MAX];
	uid_t uid;
	gid_t gid;
};

/**
 * privdrop_parse() - resolve "USER" or "USER:GROUP" (names or numbers).
 * @spec:   the --user value
 * @out:    the identity
 * @err:    on failure, why (one line, without the option's name)
 * @errlen: room in @err
 *
 * Return: 0 or -EINVAL (no such user or group, root itself, a bad form).
 */
int privdrop_parse(const char *spec, struct privdrop *out, char *err, size_t errlen);

/**
 * privdrop_apply() - become @p for good: supplementary groups of the user
 * (just GROUP when it was given), then gid, then uid, real, effective and
 * saved alike, so that no capability and no way back to root remain.
 * Every thread of the process changes (glibc applies set*id to all).
 * @p:      the identity (nothing happens unless @p->wanted)
 * @err:    on failure, why
 * @errlen: room in @err
 *
 * Return: 0 or -errno; -EPERM also when root could be regained afterwards.
 */
int privdrop_apply(const struct privdrop *p, char *err, size_t errlen);

#endif /* CUSE_EC_PRIVDROP_H */
