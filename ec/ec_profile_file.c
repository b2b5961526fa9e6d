// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_profile_file.c - getting a profile: from a file, or the built-in
 * laptop; and the small helpers every user of a parsed profile needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ec_profile.h"

#define PROFILE_MAX_BYTES	(64 * 1024)

/**
 * ec_profile_cmd_disabled() - does the profile switch @command off?
 * @profile: the profile
 * @command: host command number
 *
 * Return: true when listed in disable_commands.
 */
bool ec_profile_cmd_disabled(const struct ec_profile *profile, uint32_t command)
{
	unsigned int i;

	for (i = 0; i < profile->n_disabled; i++)
		if (profile->disabled[i] == command)
			return true;
	return false;
}

/* What a file that is not a regular one is, for the message. */
static const char *profile_file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * Read a whole profile file into @text (PROFILE_MAX_BYTES + 1 bytes of room).
 * Only regular files: a FIFO would block the daemon before it serves
 * anything, a directory or device is a mistake to name. O_NONBLOCK makes the
 * open itself return at once for a FIFO with no writer; fstat then decides
 * on what was actually opened (no window between a stat and the open).
 */
static int profile_read_file(const char *path, char *text, size_t *lenp, char *err,
			     size_t errlen)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s: is %s, not a regular file", path,
				 profile_file_kind(st.st_mode));
		goto out;
	}
	while (len <= PROFILE_MAX_BYTES) {
		n = read(fd, text + len, PROFILE_MAX_BYTES + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			if (err && errlen)
				snprintf(err, errlen, "%s: read error: %s", path, strerror(-ret));
			goto out;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	*lenp = len;
out:
	close(fd);
	return ret;
}

int ec_profile_load(const char *path, struct ec_profile **out, char *err, size_t errlen)
{
	struct ec_profile *prof = NULL;
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (!path || !out)
		return -EINVAL;
	text = malloc(PROFILE_MAX_BYTES + 1);
	prof = malloc(sizeof(*prof));
	if (!text || !prof) {
		ret = -ENOMEM;
		goto out;
	}
	ret = profile_read_file(path, text, &len, err, errlen);
	if (ret)
		goto out;
	if (len > PROFILE_MAX_BYTES) {
		ret = -EFBIG;
		if (err && errlen)
			snprintf(err, errlen, "%s: larger than %d bytes", path, PROFILE_MAX_BYTES);
		goto out;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		/* Find the line of the first NUL so the message can name it. */
		unsigned int line = 1;
		size_t i;

		for (i = 0; i < len && text[i]; i++)
			line += text[i] == '\n';
		ret = -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s:%u: NUL byte in line", path, line);
		goto out;
	}
	ret = ec_profile_parse_text(text, path, prof, err, errlen);
	if (ret)
		goto out;
	*out = prof;
	prof = NULL;
out:
	free(text);
	free(prof);
	return ret;
}

int ec_profile_default(struct ec_profile **out)
{
	struct ec_profile *prof;
	int ret;

	if (!out)
		return -EINVAL;
	prof = malloc(sizeof(*prof));
	if (!prof)
		return -ENOMEM;
	ret = ec_profile_parse_text(ec_builtin_laptop_profile, "laptop.profile", prof, NULL, 0);
	if (ret) {
		free(prof);
		return ret;
	}
	*out = prof;
	return 0;
}

void ec_profile_free(struct ec_profile *profile)
{
	free(profile);
}

void ec_copy_str(char *dst, size_t room, const char *src)
{
	size_t n;

	if (!room)
		return;
	n = strnlen(src, room - 1);
	memcpy(dst, src, n);
	memset(dst + n, 0, room - n);
}
