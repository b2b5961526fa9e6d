// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node.c - the daemon's claim on its name and its node (see node.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/common.h"
#include "node.h"

/* What @st is, in words: "a character device 1:3", "a symlink", ... */
static void node_describe(const struct stat *st, char *buf, size_t len)
{
	if (S_ISCHR(st->st_mode))
		snprintf(buf, len, "a character device %u:%u", major(st->st_rdev),
			 minor(st->st_rdev));
	else if (S_ISBLK(st->st_mode))
		snprintf(buf, len, "a block device %u:%u", major(st->st_rdev),
			 minor(st->st_rdev));
	else if (S_ISLNK(st->st_mode))
		snprintf(buf, len, "a symlink");
	else if (S_ISDIR(st->st_mode))
		snprintf(buf, len, "a directory");
	else
		snprintf(buf, len, "a file of type 0%o", (unsigned int)(st->st_mode & S_IFMT));
}

/* The lock directory: ours or root's, and nobody else may add to it. */
static int node_lock_dir_open(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -errno;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		close(fd);
		return -errno;
	}
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 0022)) {
		snprintf(err, errlen, "%s is owned by uid %u with mode %04o: another account "
			 "could take or fake the lock", dir, (unsigned int)st.st_uid,
			 (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

int node_lock_instance(const char *dir, const char *name, int *fd_out, char *err,
		       size_t errlen)
{
	char file[320];
	int dfd, fd, ret;

	*fd_out = -1;
	if (!name || !name[0] || strchr(name, '/') ||
	    (size_t)snprintf(file, sizeof(file), "%s.lock", name) >= sizeof(file)) {
		snprintf(err, errlen, "bad node name for a lock");
		return -EINVAL;
	}
	dfd = node_lock_dir_open(dir, err, errlen);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, file, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s/%s: %s", dir, file, strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (ret == -EBUSY)
			snprintf(err, errlen, "another cuse_ec already serves /dev/%s (it holds "
				 "%s/%s)", name, dir, file);
		else
			snprintf(err, errlen, "locking %s/%s: %s", dir, file, strerror(-ret));
		close(fd);
		goto out;
	}
	*fd_out = fd;
	ret = 0;
out:
	close(dfd);
	return ret;
}

int node_check_free(const char *dev_dir, const char *name, char *err, size_t errlen)
{
	char path[320], what[64];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dev_dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	node_describe(&st, what, sizeof(what));
	snprintf(err, errlen, "%s already exists (%s) before this daemon's device: it is not "
		 "ours to serve or change; choose another --name", path, what);
	return -EEXIST;
}

int node_cuse_devnum(const char *sysfs_dir, const char *name, dev_t *out)
{
	char path[320], text[32], *colon;
	uint64_t maj, min;
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/dev", sysfs_dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	if (n && text[n - 1] == '\n')
		text[n - 1] = '\0';
	colon = strchr(text, ':');
	if (!colon)
		return -EPROTO;
	*colon = '\0';
	if (parse_uint(text, "major", 0, 0xfff, &maj, NULL, 0) ||
	    parse_uint(colon + 1, "minor", 0, 0xfffff, &min, NULL, 0))
		return -EPROTO;
	*out = makedev((unsigned int)maj, (unsigned int)min);
	return 0;
}

int node_open_own(const char *path, dev_t want, char *err, size_t errlen)
{
	char what[64];
	struct stat st;
	int fd;

	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP) {
			snprintf(err, errlen, "%s is a symlink", path);
			return -ENODEV;
		}
		return -errno;
	}
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	if (!S_ISCHR(st.st_mode) || st.st_rdev != want) {
		node_describe(&st, what, sizeof(what));
		snprintf(err, errlen, "%s is %s, not this daemon's device %u:%u", path, what,
			 major(want), minor(want));
		close(fd);
		return -ENODEV;
	}
	return fd;
}
