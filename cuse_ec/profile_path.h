/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * profile_path.h - board profiles by name: a name without a slash is looked
 * up in the directories of $CUSE_EC_PROFILE_PATH (colon-separated, first
 * match wins), then in the installed profiles directory; anything with a
 * slash is a file path. Also the two profile-author commands,
 * --list-profiles and --check-profile.
 */
#ifndef CUSE_EC_PROFILE_PATH_H
#define CUSE_EC_PROFILE_PATH_H

#include <stddef.h>
#include <stdio.h>

#include "ec/ec.h"

/* The environment variable with extra profile directories. */
#define PROFILE_PATH_ENV "CUSE_EC_PROFILE_PATH"

/**
 * profile_path_resolve() - the file a --profile argument names.
 * @name: a profile name ("usbc-dual" or "usbc-dual.profile") or a path
 * @path: the file, on success
 * @len:  size of @path
 *
 * Return: 0; -ENOENT if no searched directory has the name; -EINVAL for an
 * empty @name; -ENAMETOOLONG if a candidate does not fit @path.
 */
int profile_path_resolve(const char *name, char *path, size_t len);

/**
 * profile_path_load() - resolve and parse a profile, reporting failures.
 * @name: as for profile_path_resolve(); NULL for the built-in default
 * @out:  the parsed profile on success (free with ec_profile_free())
 * @err:  one line per problem: the searched directories when the name was
 *        not found, "<file>:<line>: <problem>" when it did not parse
 *
 * Return: 0 or -errno.
 */
int profile_path_load(const char *name, struct ec_profile **out, FILE *err);

/**
 * profile_path_list() - print every profile found, one line each: name,
 * file and the first line of its leading comment. A name found in two
 * directories is listed once, where the search finds it.
 * @out: where to print
 * @err: where to report unreadable directories
 *
 * Return: exit status: 0, or 1 when no profile was found at all.
 */
int profile_path_list(FILE *out, FILE *err);

/**
 * profile_path_check() - parse a profile and print what it describes.
 * @name: as for profile_path_resolve()
 * @out:  the resolved file and the parsed board
 * @err:  the problem, when there is one
 *
 * Return: exit status: 0 valid, 1 not found or not valid.
 */
int profile_path_check(const char *name, FILE *out, FILE *err);

#endif /* CUSE_EC_PROFILE_PATH_H */
