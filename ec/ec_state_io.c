// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_state_io.c - state files on disk: written atomically (a temporary file
 * beside the target, fsync()ed and renamed over it, then the directory
 * synced), read whole with a size cap. The format is ec_state_file.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ec.h"

static int ec_state_io_fail(char *err, size_t errlen, const char *path, const char *what,
			    int ret)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s%s%s", path, what, *what ? ": " : "",
			 strerror(-ret));
	return ret;
}

static int ec_state_write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The directory of @path, for the temporary file and the final fsync(). */
static char *ec_state_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int ec_state_save_file(struct ec *ec, const char *path, size_t *lenp, char *err, size_t errlen)
{
	char *tmp = NULL, *dir = NULL;
	void *blob = NULL;
	size_t len = 0;
	int fd = -1, dfd, ret;

	if (!ec || !path)
		return -EINVAL;
	ret = ec_state_save(ec, &blob, &len);
	if (ret)
		return ec_state_io_fail(err, errlen, path, "saving the state", ret);
	dir = ec_state_dir_of(path);
	tmp = malloc(strlen(path) + sizeof(".tmp-XXXXXX"));
	if (tmp)
		sprintf(tmp, "%s.tmp-XXXXXX", path);
	if (!dir || !tmp) {
		ret = ec_state_io_fail(err, errlen, path, "", -ENOMEM);
		goto out_name;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = ec_state_io_fail(err, errlen, path, "creating a temporary file", -errno);
		goto out_name;
	}
	ret = ec_state_write_all(fd, blob, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	fd = -1;
	if (ret) {
		ec_state_io_fail(err, errlen, path, "writing", ret);
		goto out_unlink;
	}
	if (rename(tmp, path)) {
		ret = ec_state_io_fail(err, errlen, path, "renaming the new file over it", -errno);
		goto out_unlink;
	}
	/* The rename is durable once the directory is on disk too. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	if (lenp)
		*lenp = len;
	goto out_name;

out_unlink:
	unlink(tmp);
out_name:
	free(tmp);
	free(dir);
	free(blob);
	return ret;
}

/* Read @fd (a regular file of @size bytes, at most the cap) whole. */
static int ec_state_read_all(int fd, size_t size, uint8_t **out, size_t *lenp)
{
	uint8_t *buf = malloc(size ? size : 1);
	size_t len = 0;

	if (!buf)
		return -ENOMEM;
	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (!n)
			break;	/* it shrank: the loader sees the short file */
		len += (size_t)n;
	}
	*out = buf;
	*lenp = len;
	return 0;
}

int ec_state_load_file(struct ec *ec, const char *path, char *err, size_t errlen)
{
	char why[256];
	uint8_t *blob = NULL;
	struct stat st;
	size_t len = 0;
	int fd, ret;

	if (!ec || !path)
		return -EINVAL;
	/* O_NONBLOCK: a FIFO must not hang the daemon; fstat() then refuses it. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return ec_state_io_fail(err, errlen, path, "", -errno);
	if (fstat(fd, &st)) {
		ret = ec_state_io_fail(err, errlen, path, "", -errno);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s: not a regular file", path);
		goto out;
	}
	if ((uint64_t)st.st_size > EC_STATE_FILE_MAX) {
		ret = -EFBIG;
		if (err && errlen)
			snprintf(err, errlen, "%s: larger than %u bytes", path, EC_STATE_FILE_MAX);
		goto out;
	}
	ret = ec_state_read_all(fd, (size_t)st.st_size, &blob, &len);
	if (ret) {
		ec_state_io_fail(err, errlen, path, "read error", ret);
		goto out;
	}
	ret = ec_state_load(ec, blob, len, why, sizeof(why));
	if (ret < 0 && err && errlen)
		snprintf(err, errlen, "%s: %s", path, why);
out:
	free(blob);
	close(fd);
	return ret;
}
