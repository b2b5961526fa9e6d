// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unix_socket.c - a daemon's listening UNIX socket, made once for every
 * server of the project (the control socket, the device socket): stale
 * sockets replaced, live ones left alone, the file created with its final
 * mode, and only our own socket ever unlinked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common.h"

/*
 * Whatever sits at @path from an earlier run: a socket nobody answers on is
 * stale and goes; a live one is another daemon's and is never touched
 * (-EADDRINUSE); anything else stays, and bind() refuses it.
 */
static int unix_clear_stale(const struct sockaddr_un *addr, int type)
{
	struct stat st;
	int fd, ret;

	if (lstat(addr->sun_path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return 0;
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* Accepted, or its backlog full (EAGAIN): a server is there. */
	ret = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) ? -errno : 0;
	close(fd);
	if (!ret || ret == -EAGAIN)
		return -EADDRINUSE;
	if (ret != -ECONNREFUSED)
		return ret;
	if (unlink(addr->sun_path) && errno != ENOENT)
		return -errno;
	return 0;
}

struct unix_bind {
	int fd;
	const struct sockaddr_un *addr;
	int ret;
};

/*
 * bind() creates the socket's file with its final mode, 0666 (anyone may
 * connect; the server asks SO_PEERCRED who is served, so a refused peer
 * gets a clear answer rather than a bare EACCES): the mode is the socket
 * inode's 0777 less the umask. So there is no chmod by path afterwards,
 * which an account able to write the directory could aim elsewhere by
 * swapping the path for a symlink. The umask is set in a thread of its
 * own, that unshare(CLONE_FS) gave its own umask: no other thread ever
 * creates a file under it.
 */
static void *unix_bind_thread(void *arg)
{
	struct unix_bind *b = arg;

	if (unshare(CLONE_FS)) {
		b->ret = -errno;
		return NULL;
	}
	umask(0111);
	b->ret = bind(b->fd, (const struct sockaddr *)b->addr, sizeof(*b->addr)) ? -errno : 0;
	return NULL;
}

int unix_listen(const char *path, int type, int backlog, int *fd_out, struct unix_sock_id *id)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct unix_bind b = { .ret = -EIO };
	pthread_t thread;
	struct stat st;
	int fd, ret;

	if (!path || !path[0] || strlen(path) >= sizeof(addr.sun_path))
		return -EINVAL;
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	ret = unix_clear_stale(&addr, type);
	if (ret)
		goto err_close;
	b.fd = fd;
	b.addr = &addr;
	ret = -pthread_create(&thread, NULL, unix_bind_thread, &b);
	if (ret)
		goto err_close;
	pthread_join(thread, NULL);
	ret = b.ret;
	if (ret)
		goto err_close;
	/*
	 * Remember which socket is ours: only that one is ever unlinked.
	 * Replaced already (the directory is someone else's to write): not
	 * ours to remove, and nobody would reach us through it.
	 */
	if (lstat(path, &st)) {
		ret = -errno;
		goto err_close;
	}
	if (!S_ISSOCK(st.st_mode)) {
		ret = -EEXIST;
		goto err_close;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	if (listen(fd, backlog)) {
		ret = -errno;
		unix_unlink_own(path, id);
		goto err_close;
	}
	*fd_out = fd;
	return 0;

err_close:
	close(fd);
	return ret;
}

void unix_unlink_own(const char *path, const struct unix_sock_id *id)
{
	struct stat st;

	if (lstat(path, &st) || st.st_dev != id->dev || st.st_ino != id->ino)
		return;
	unlink(path);
}

bool unix_peer_trusted(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred))
		return false;
	return cred.uid == 0 || cred.uid == geteuid();
}
