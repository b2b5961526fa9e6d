// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * profile_path.c - board profiles by name (see profile_path.h).
 *
 * The search list is rebuilt on every call from the environment and the
 * installed directory, so nothing here keeps state between calls.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile_path.h"

#ifndef CUSE_EC_PROFILES_DIR
#error "CUSE_EC_PROFILES_DIR (the installed profiles directory) must be defined"
#endif

#define PROFILE_SUFFIX ".profile"
/* More directories than anyone lists; the rest are ignored, not an error. */
#define PROFILE_DIRS_MAX 16
/* Profiles --list-profiles shows at most (dedup table size). */
#define PROFILE_LIST_MAX 256

/**
 * struct profile_dirs - the directories searched, in order.
 * @dir:   each directory (pointers into @buf or the built-in constant)
 * @n:     how many
 * @buf:   a private copy of $CUSE_EC_PROFILE_PATH, split in place
 */
struct profile_dirs {
	const char *dir[PROFILE_DIRS_MAX];
	unsigned int n;
	char *buf;
};

static int profile_dirs_get(struct profile_dirs *dirs)
{
	const char *env = getenv(PROFILE_PATH_ENV);
	char *save = NULL, *tok;

	memset(dirs, 0, sizeof(*dirs));
	if (env && env[0]) {
		dirs->buf = strdup(env);
		if (!dirs->buf)
			return -ENOMEM;
		for (tok = strtok_r(dirs->buf, ":", &save);
		     tok && dirs->n < PROFILE_DIRS_MAX - 1;
		     tok = strtok_r(NULL, ":", &save))
			dirs->dir[dirs->n++] = tok;
	}
	dirs->dir[dirs->n++] = CUSE_EC_PROFILES_DIR;
	return 0;
}

static void profile_dirs_put(struct profile_dirs *dirs)
{
	free(dirs->buf);
	dirs->buf = NULL;
}

static bool profile_is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool profile_has_suffix(const char *name)
{
	size_t len = strlen(name), slen = strlen(PROFILE_SUFFIX);

	return len > slen && !strcmp(name + len - slen, PROFILE_SUFFIX);
}

/* @dir/@name, then @dir/@name.profile unless @name already ends in it. */
static int profile_try_dir(const char *dir, const char *name, char *path, size_t len)
{
	int n;

	n = snprintf(path, len, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (profile_is_file(path))
		return 0;
	if (profile_has_suffix(name))
		return -ENOENT;
	n = snprintf(path, len, "%s/%s%s", dir, name, PROFILE_SUFFIX);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return profile_is_file(path) ? 0 : -ENOENT;
}

int profile_path_resolve(const char *name, char *path, size_t len)
{
	struct profile_dirs dirs;
	unsigned int i;
	int ret;

	if (!name || !name[0])
		return -EINVAL;
	if (strchr(name, '/')) {
		if (strlen(name) >= len)
			return -ENAMETOOLONG;
		strcpy(path, name);
		return 0;
	}
	ret = profile_dirs_get(&dirs);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < dirs.n && ret == -ENOENT; i++)
		ret = profile_try_dir(dirs.dir[i], name, path, len);
	profile_dirs_put(&dirs);
	return ret;
}

static void profile_report_not_found(const char *name, FILE *err)
{
	struct profile_dirs dirs;
	unsigned int i;

	fprintf(err, "cuse_ec: no profile '%s' in", name);
	if (profile_dirs_get(&dirs)) {
		fprintf(err, " the profile path (out of memory)\n");
		return;
	}
	for (i = 0; i < dirs.n; i++)
		fprintf(err, "%s%s", i ? ":" : " ", dirs.dir[i]);
	fprintf(err, " (cuse_ec --list-profiles shows them; ./%s for a file here)\n",
		name);
	profile_dirs_put(&dirs);
}

int profile_path_load(const char *name, struct ec_profile **out, FILE *err)
{
	char path[PATH_MAX], msg[256];
	int ret;

	if (!name) {
		ret = ec_profile_default(out);
		if (ret)
			fprintf(err, "cuse_ec: default profile: %s\n", strerror(-ret));
		return ret;
	}
	ret = profile_path_resolve(name, path, sizeof(path));
	if (ret == -ENOENT) {
		profile_report_not_found(name, err);
		return ret;
	}
	if (ret) {
		fprintf(err, "cuse_ec: profile '%s': %s\n", name, strerror(-ret));
		return ret;
	}
	msg[0] = '\0';
	ret = ec_profile_load(path, out, msg, sizeof(msg));
	if (ret)
		fprintf(err, "cuse_ec: %s\n", msg[0] ? msg : strerror(-ret));
	return ret;
}

/* The first comment line after the SPDX tag: the profile's own summary. */
static void profile_summary(const char *path, char *buf, size_t len)
{
	char line[256];
	FILE *f;

	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = line;

		if (s[0] != '#')
			break;
		s += strspn(s, "# \t");
		if (!*s || *s == '\n' || !strncmp(s, "SPDX-", 5))
			continue;
		s[strcspn(s, "\n")] = '\0';
		snprintf(buf, len, "%s", s);
		break;
	}
	fclose(f);
}

struct profile_seen {
	char name[PROFILE_LIST_MAX][NAME_MAX + 1];
	unsigned int n;
};

static bool profile_seen_add(struct profile_seen *seen, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < seen->n; i++)
		if (strlen(seen->name[i]) == len && !strncmp(seen->name[i], name, len))
			return false;
	if (seen->n == PROFILE_LIST_MAX)
		return false;
	memcpy(seen->name[seen->n], name, len);
	seen->name[seen->n++][len] = '\0';
	return true;
}

static int profile_list_dir(const char *dir, struct profile_seen *seen, FILE *out)
{
	struct dirent **ents = NULL;
	char path[PATH_MAX], summary[160];
	int n, i, listed = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t base = strlen(name) - strlen(PROFILE_SUFFIX);
		int len;

		if (!profile_has_suffix(name))
			continue;
		len = snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (len < 0 || (size_t)len >= sizeof(path) || !profile_is_file(path))
			continue;
		if (!profile_seen_add(seen, name, base))
			continue;
		profile_summary(path, summary, sizeof(summary));
		fprintf(out, "%-16.*s %s%s%s\n", (int)base, name, path,
			summary[0] ? "  " : "", summary);
		listed++;
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return listed;
}

int profile_path_list(FILE *out, FILE *err)
{
	struct profile_dirs dirs;
	struct profile_seen *seen;
	unsigned int i;
	int listed = 0, ret;

	seen = calloc(1, sizeof(*seen));
	if (!seen || profile_dirs_get(&dirs)) {
		free(seen);
		fprintf(err, "cuse_ec: --list-profiles: out of memory\n");
		return 1;
	}
	for (i = 0; i < dirs.n; i++) {
		ret = profile_list_dir(dirs.dir[i], seen, out);
		if (ret >= 0)
			listed += ret;
		else if (ret != -ENOENT)
			fprintf(err, "cuse_ec: %s: %s\n", dirs.dir[i], strerror(-ret));
	}
	if (!listed) {
		fprintf(err, "cuse_ec: no profiles in");
		for (i = 0; i < dirs.n; i++)
			fprintf(err, "%s%s", i ? ":" : " ", dirs.dir[i]);
		fprintf(err, "\n");
	}
	profile_dirs_put(&dirs);
	free(seen);
	return listed ? 0 : 1;
}

int profile_path_check(const char *name, FILE *out, FILE *err)
{
	struct ec_profile *profile = NULL;
	char path[PATH_MAX];
	int ret;

	ret = profile_path_load(name, &profile, err);
	if (ret)
		return 1;
	if (!profile_path_resolve(name, path, sizeof(path)))
		fprintf(out, "profile:      %s\n", path);
	ret = ec_profile_describe(profile, out);
	ec_profile_free(profile);
	if (ret) {
		fprintf(err, "cuse_ec: --check-profile: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
