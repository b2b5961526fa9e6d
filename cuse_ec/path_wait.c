// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * path_wait.c - wait for a directory entry with inotify (see path_wait.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "path_wait.h"

/*
 * What can make an entry ready: it is created, renamed into place (udevd
 * writes its database through a temporary file), or has its mode or owner
 * changed.
 */
#define PATH_WAIT_ENTRY_EVENTS (IN_CREATE | IN_ATTRIB | IN_MOVED_TO | IN_ONLYDIR)
/* What can make a missing directory appear in its parent. */
#define PATH_WAIT_DIR_EVENTS (IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)

static int64_t path_wait_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool path_wait_exists(const char *path, void *arg)
{
	(void)arg;
	return !access(path, F_OK);
}

/* The parent of @dir into @buf: "/run/udev" for "/run/udev/data". */
static int path_wait_parent(const char *dir, char *buf, size_t len)
{
	const char *slash = strrchr(dir, '/');
	int n;

	if (!slash)
		n = snprintf(buf, len, ".");
	else if (slash == dir)
		n = snprintf(buf, len, "/");
	else
		n = snprintf(buf, len, "%.*s", (int)(slash - dir), dir);
	return n >= 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* Read and drop every queued event: whatever they say, the entry is rechecked. */
static int path_wait_drain(int fd)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		if (n < 0 && errno != EAGAIN)
			return -errno;
		return 0;
	}
}

int path_wait(const char *dir, const char *name, path_wait_ready_fn ready, void *arg,
	      int timeout_ms)
{
	char path[PATH_MAX], parent[PATH_MAX];
	struct pollfd pfd = { .events = POLLIN };
	int64_t deadline, left;
	int fd, wd, ret;

	if (!dir || !dir[0] || !name || !name[0] || strchr(name, '/') || timeout_ms < 0)
		return -EINVAL;
	ret = snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ret < 0 || (size_t)ret >= sizeof(path))
		return -ENAMETOOLONG;
	ret = path_wait_parent(dir, parent, sizeof(parent));
	if (ret)
		return ret;
	if (!ready)
		ready = path_wait_exists;
	deadline = path_wait_now_ms() + timeout_ms;

	fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd < 0)
		return -errno;
	pfd.fd = fd;
	/*
	 * /run/udev/data is made by udevd with its first database entry, so
	 * it may be missing when we start: then the parent is watched until
	 * the directory shows up, and the directory itself from then on. The
	 * parent's watch stays; its later events only cost a recheck.
	 */
	wd = inotify_add_watch(fd, dir, PATH_WAIT_ENTRY_EVENTS);
	if (wd < 0 && errno != ENOENT) {
		ret = -errno;
		goto out;
	}
	if (wd < 0 && inotify_add_watch(fd, parent, PATH_WAIT_DIR_EVENTS) < 0) {
		ret = -errno;
		goto out;
	}

	for (;;) {
		/* Watch before checking: nothing made in between goes unseen. */
		if (wd < 0) {
			wd = inotify_add_watch(fd, dir, PATH_WAIT_ENTRY_EVENTS);
			if (wd < 0 && errno != ENOENT) {
				ret = -errno;
				goto out;
			}
		}
		if (ready(path, arg)) {
			ret = 0;
			goto out;
		}
		left = deadline - path_wait_now_ms();
		if (left <= 0) {
			ret = -ETIMEDOUT;
			goto out;
		}
		ret = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (ret < 0 && errno != EINTR) {
			ret = -errno;
			goto out;
		}
		if (!ret) {
			/* No last look: the deadline is the answer, not a race with it. */
			ret = -ETIMEDOUT;
			goto out;
		}
		if (ret > 0) {
			ret = path_wait_drain(fd);
			if (ret)
				goto out;
		}
	}
out:
	close(fd);
	return ret;
}
