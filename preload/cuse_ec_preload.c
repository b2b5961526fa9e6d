// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_preload.c - libcuse_ec_preload.so: /dev/NAME for an unmodified
 * client, through the daemon's device socket (cuse_ec --socket-dir=DIR).
 *
 * LD_PRELOAD=libcuse_ec_preload.so CUSE_EC_SOCKET_DIR=DIR client ...
 *
 * open("/dev/NAME") connects to DIR/NAME when that is a socket; the file
 * descriptor the client gets is the connection. read(), write(), ioctl(),
 * poll() and ppoll() on it speak devsock/devsock.h; close(), dup() and
 * fcntl() work on the socket itself, so a duplicate, a fork's child and an
 * exec'd program (the table is rebuilt from /proc/self/fd) hold the same
 * open file. Every other file and call goes to libc untouched.
 *
 * Several threads may use one descriptor at once: whichever thread is
 * waiting receives the connection's next message and hands it to the
 * request it answers (sequence numbers), as the kernel does for a shared
 * open file. What differs from CUSE is listed in cuse_ec_preload(8).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "devsock/devsock.h"
#include "preload.h"

/*
 * An interposer's state cannot hang off a context the client passes in:
 * the client does not know it is there. So it is this one object, set up
 * once (shim_init()) and guarded by its lock.
 */
struct shim_state shim = { .lock = PTHREAD_MUTEX_INITIALIZER };
static pthread_once_t shim_once = PTHREAD_ONCE_INIT;

static void shim_adopt_inherited(void);
static void shim_atfork_prepare(void);
static void shim_atfork_parent(void);
static void shim_atfork_child(void);

static void shim_resolve(void)
{
	const char *dir = getenv("CUSE_EC_SOCKET_DIR");

	shim.real_openat = dlsym(RTLD_NEXT, "openat");
	shim.real_close = dlsym(RTLD_NEXT, "close");
	shim.real_read = dlsym(RTLD_NEXT, "read");
	shim.real_write = dlsym(RTLD_NEXT, "write");
	shim.real_ioctl = dlsym(RTLD_NEXT, "ioctl");
	shim.real_poll = dlsym(RTLD_NEXT, "poll");
	shim.real_ppoll = dlsym(RTLD_NEXT, "ppoll");
	shim.real_select = dlsym(RTLD_NEXT, "select");
	shim.real_pselect = dlsym(RTLD_NEXT, "pselect");
	shim.real_dup = dlsym(RTLD_NEXT, "dup");
	shim.real_dup2 = dlsym(RTLD_NEXT, "dup2");
	shim.real_dup3 = dlsym(RTLD_NEXT, "dup3");
	shim.real_fcntl = dlsym(RTLD_NEXT, "fcntl");
	if (dir && dir[0] && strlen(dir) < sizeof(shim.dir))
		strcpy(shim.dir, dir);
	pthread_atfork(shim_atfork_prepare, shim_atfork_parent, shim_atfork_child);
	shim_adopt_inherited();
}

void shim_init(void)
{
	pthread_once(&shim_once, shim_resolve);
}

__attribute__((constructor)) static void shim_constructor(void)
{
	shim_init();
}

/* ---- which files are ours ---- */

/* "/dev/NAME" whose DIR/NAME is a socket: its address in @addr. */
static bool shim_path_ours(const char *path, struct sockaddr_un *addr)
{
	const char *name;
	struct stat st;
	int n;

	if (!shim.dir[0] || !path || strncmp(path, "/dev/", 5))
		return false;
	name = path + 5;
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path, sizeof(addr->sun_path), "%s/%s", shim.dir, name);
	if (n < 0 || (size_t)n >= sizeof(addr->sun_path))
		return false;
	return !stat(addr->sun_path, &st) && S_ISSOCK(st.st_mode);
}

/* A connected socket whose peer is a socket in DIR: one of ours. */
static bool shim_fd_ours(int fd)
{
	struct sockaddr_un addr;
	socklen_t len = sizeof(addr);
	size_t dlen = strlen(shim.dir);

	if (!shim.dir[0] || getpeername(fd, (struct sockaddr *)&addr, &len) ||
	    addr.sun_family != AF_UNIX || len <= offsetof(struct sockaddr_un, sun_path))
		return false;
	addr.sun_path[len - offsetof(struct sockaddr_un, sun_path) < sizeof(addr.sun_path) ?
		      len - offsetof(struct sockaddr_un, sun_path) : sizeof(addr.sun_path) - 1] = 0;
	return !strncmp(addr.sun_path, shim.dir, dlen) && addr.sun_path[dlen] == '/' &&
	       !strchr(addr.sun_path + dlen + 1, '/');
}

static struct shim_conn *shim_conn_new(ino_t ino)
{
	struct shim_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ino = ino;
	c->next_seq = 1;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	return c;
}

static void shim_conn_free(struct shim_conn *c)
{
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c->rbuf);
	free(c);
}

/* Map @fd to the connection of socket @ino (made if no fd has it). Under shim.lock. */
static struct shim_conn *shim_map_locked(int fd, ino_t ino)
{
	struct shim_conn *c = NULL;
	int i;

	if (fd < 0 || fd >= SHIM_FDS)
		return NULL;
	for (i = 0; i < SHIM_FDS && !c; i++)
		if (shim.fds[i] && shim.fds[i]->ino == ino)
			c = shim.fds[i];
	if (!c)
		c = shim_conn_new(ino);
	if (!c)
		return NULL;
	c->users++;
	shim.fds[fd] = c;
	return c;
}

static void shim_unmap_locked(int fd)
{
	struct shim_conn *c;

	if (fd < 0 || fd >= SHIM_FDS || !shim.fds[fd])
		return;
	c = shim.fds[fd];
	shim.fds[fd] = NULL;
	if (!--c->users)
		shim_conn_free(c);
}

static void shim_map(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISSOCK(st.st_mode))
		return;
	pthread_mutex_lock(&shim.lock);
	shim_unmap_locked(fd);
	shim_map_locked(fd, st.st_ino);
	pthread_mutex_unlock(&shim.lock);
}

/*
 * The connection behind @fd, or NULL when @fd is not ours. The mapping is
 * checked against the socket each time: an fd of ours closed behind our
 * back (close_range(), a libc-internal close) may have been reused.
 */
struct shim_conn *shim_conn_of(int fd)
{
	struct shim_conn *c;
	struct stat st;

	shim_init();
	if (fd < 0 || fd >= SHIM_FDS)
		return NULL;
	pthread_mutex_lock(&shim.lock);
	c = shim.fds[fd];
	pthread_mutex_unlock(&shim.lock);
	if (!c)
		return NULL;
	if (!fstat(fd, &st) && S_ISSOCK(st.st_mode) && st.st_ino == c->ino)
		return c;
	pthread_mutex_lock(&shim.lock);
	if (shim.fds[fd] == c)
		shim_unmap_locked(fd);
	pthread_mutex_unlock(&shim.lock);
	return NULL;
}

/* After exec: the descriptors of ours the process inherited. */
static void shim_adopt_inherited(void)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (!shim.dir[0])
		return;
	d = opendir("/proc/self/fd");
	if (!d)
		return;
	while ((de = readdir(d))) {
		fd = atoi(de->d_name);
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || fd == dirfd(d))
			continue;
		if (shim_fd_ours(fd))
			shim_map(fd);
	}
	closedir(d);
}

/* A fork's child has only the forking thread: no one else is waiting. */
static void shim_atfork_prepare(void)
{
	pthread_mutex_lock(&shim.lock);
}

static void shim_atfork_parent(void)
{
	pthread_mutex_unlock(&shim.lock);
}

static void shim_atfork_child(void)
{
	int i;

	pthread_mutex_init(&shim.lock, NULL);
	for (i = 0; i < SHIM_FDS; i++) {
		struct shim_conn *c = shim.fds[i];

		if (!c)
			continue;
		pthread_mutex_init(&c->lock, NULL);
		pthread_cond_init(&c->cond, NULL);
		c->receiving = false;
		c->waits = NULL;
	}
}

/* ---- requests ---- */

static void shim_dispatch(struct shim_conn *c, const struct devsock_hdr *h)
{
	struct shim_wait *w;

	if (h->type == DEVSOCK_NOTIFY) {
		c->notifies++;
		return;
	}
	for (w = c->waits; w; w = w->next) {
		if (w->seq != h->seq || w->done)
			continue;
		w->hdr = *h;
		w->len = h->len;
		/*
		 * Into memory of its own, never the requester's buffer: the
		 * requester's thread alone writes its buffers (then an
		 * argument's memory is only ever touched by the caller's thread).
		 */
		if (h->len > w->size || (h->len && !(w->data = malloc(h->len)))) {
			w->hdr.status = h->len > w->size ? -EIO : -ENOMEM;
			w->len = 0;
		} else if (h->len) {
			memcpy(w->data, c->rbuf, h->len);
		}
		w->done = true;
		return;
	}
	/* An answer nobody waits for (its waiter was in a forked parent): dropped. */
}

/*
 * Wake the requests that wait behind the receiver with a wake descriptor
 * (interruptible ones): the condition variable cannot end their wait on a
 * signal. Called with c->lock held.
 */
static void shim_wake_waiters(struct shim_conn *c)
{
	static const uint64_t one = 1;
	struct shim_wait *w;

	/* A failed write finds the counter full: it is readable anyway. */
	for (w = c->waits; w; w = w->next) {
		if (w->wake_fd >= 0)
			(void)shim.real_write(w->wake_fd, &one, sizeof(one));
	}
}

/*
 * Before it sleeps, the receiver looks for the answer for a while: the
 * daemon answers an XCMD in a few microseconds, and a thread that went to
 * sleep pays the scheduler's wake-up on top of the socket's, about as much
 * again on this kind of machine. Bounded, so a read that waits for an
 * event costs SHIM_SPIN_NS of CPU once and then sleeps.
 */
#define SHIM_SPIN_NS 40000

static int shim_recv_spin(int fd, struct devsock_hdr *h, void *buf)
{
	struct timespec t0, now;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = devsock_recv_nowait(fd, h, buf, DEVSOCK_DATA_MAX);
		if (ret != -EAGAIN)
			return ret;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - t0.tv_sec) * 1000000000L + (now.tv_nsec - t0.tv_nsec) >=
		    SHIM_SPIN_NS)
			return -EAGAIN;
	}
}

/*
 * Receive one message as the connection's receiver and dispatch it.
 * Called with c->lock held and the role free; returns with it held.
 * Return: 0, -EINTR (a signal, nothing received) or the connection's error.
 */
int shim_receive_one(struct shim_conn *c, int fd, const sigset_t *intr_mask)
{
	struct devsock_hdr h;
	int ret;

	if (!c->rbuf) {
		c->rbuf = malloc(DEVSOCK_DATA_MAX);
		if (!c->rbuf)
			return -ENOMEM;
	}
	c->receiving = true;
	pthread_mutex_unlock(&c->lock);
	ret = shim_recv_spin(fd, &h, c->rbuf);
	if (ret == -EAGAIN && intr_mask)
		ret = devsock_recv_sigmask(fd, &h, c->rbuf, DEVSOCK_DATA_MAX, intr_mask);
	else if (ret == -EAGAIN)
		ret = devsock_recv(fd, &h, c->rbuf, DEVSOCK_DATA_MAX, 1);
	pthread_mutex_lock(&c->lock);
	c->receiving = false;
	if (ret == 1)
		shim_dispatch(c, &h);
	else if (ret != -EINTR) {
		c->dead = true;
		c->dead_err = ret ? ret : -ENODEV;
	}
	pthread_cond_broadcast(&c->cond);
	shim_wake_waiters(c);
	return ret == 1 ? 0 : ret == -EINTR ? -EINTR : c->dead_err;
}

/* A record goes whole: threads sharing the connection need no lock to send. */
static int shim_send(int fd, struct devsock_hdr *h, const void *data, size_t len)
{
	h->len = (uint32_t)len;
	return devsock_send(fd, h, data, len);
}

/*
 * Wait, c->lock held, while another thread is the receiver, with @mask in
 * place: -EINTR when a signal came (also one that came while it was
 * blocked, since the request was sent), else 0 when the receiver has
 * dispatched a message or left the role. Without a wake descriptor (none
 * to be had) the wait is the condition variable's, which no signal ends.
 */
static int shim_wait_behind(struct shim_conn *c, struct shim_wait *w, const sigset_t *mask)
{
	struct pollfd pfd = { .events = POLLIN };
	uint64_t count;
	int ret;

	if (w->wake_fd < 0)
		w->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (w->wake_fd < 0) {
		pthread_cond_wait(&c->cond, &c->lock);
		return 0;
	}
	pfd.fd = w->wake_fd;
	pthread_mutex_unlock(&c->lock);
	ret = shim.real_ppoll(&pfd, 1, NULL, mask) < 0 ? -errno : 0;
	if (!ret && shim.real_read(w->wake_fd, &count, sizeof(count)) < 0)
		ret = 0;	/* woken by another wake's reader: look again */
	pthread_mutex_lock(&c->lock);
	return ret == -EINTR ? -EINTR : 0;
}

/*
 * Send @req and wait for its answer into @ans (data into @buf, @size).
 * @interruptible: a signal sends DEVSOCK_CANCEL for it (a read), and the
 * answer is still awaited: the daemon answers -EINTR or the data. As
 * through CUSE, where the kernel's wait for the answer is one system call,
 * a signal anywhere from the send on ends the wait: signals are blocked
 * before the send, and every wait puts the caller's mask back atomically
 * (ppoll), so none can come between a check and the sleep. Then SA_RESTART
 * does not restart the read either, as with CUSE (the kernel gets the
 * daemon's -EINTR, not a restartable error).
 * Return: 0 with @ans filled, or -errno of the connection.
 */
int shim_request(struct shim_conn *c, int fd, struct devsock_hdr *req, const void *data,
			size_t len, struct devsock_hdr *ans, void *buf, size_t size,
			size_t *got, bool interruptible)
{
	struct shim_wait w = { .size = size, .wake_fd = -1 }, **p;
	struct devsock_hdr cancel = { .type = DEVSOCK_CANCEL };
	sigset_t blocked, mask;
	bool cancelled = false;
	int ret = 0;

	if (interruptible) {
		/* Faults are the program's to see at once, never held back. */
		sigfillset(&blocked);
		sigdelset(&blocked, SIGSEGV);
		sigdelset(&blocked, SIGBUS);
		sigdelset(&blocked, SIGFPE);
		sigdelset(&blocked, SIGILL);
		pthread_sigmask(SIG_BLOCK, &blocked, &mask);
	}
	pthread_mutex_lock(&c->lock);
	if (c->dead) {
		ret = c->dead_err;
		pthread_mutex_unlock(&c->lock);
		goto out;
	}
	w.seq = c->next_seq++;
	if (!c->next_seq)
		c->next_seq = 1;
	w.next = c->waits;
	c->waits = &w;
	pthread_mutex_unlock(&c->lock);

	req->seq = w.seq;
	ret = shim_send(fd, req, data, len);

	pthread_mutex_lock(&c->lock);
	while (!ret && !w.done && !c->dead) {
		bool intr = interruptible && !cancelled;

		if (c->receiving && !intr) {
			pthread_cond_wait(&c->cond, &c->lock);
			continue;
		}
		if (c->receiving)
			ret = shim_wait_behind(c, &w, &mask);
		else
			ret = shim_receive_one(c, fd, intr ? &mask : NULL);
		if (ret == -EINTR) {
			cancelled = true;
			cancel.arg[0] = w.seq;
			pthread_mutex_unlock(&c->lock);
			ret = shim_send(fd, &cancel, NULL, 0);
			pthread_mutex_lock(&c->lock);
		}
	}
	if (!ret && !w.done)
		ret = c->dead_err;
	for (p = &c->waits; *p; p = &(*p)->next) {
		if (*p == &w) {
			*p = w.next;
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (w.wake_fd >= 0)
		shim.real_close(w.wake_fd);
	if (!ret && w.len)
		memcpy(buf, w.data, w.len);
	free(w.data);
	if (!ret) {
		*ans = w.hdr;
		if (got)
			*got = w.len;
	}
out:
	/* A signal that ended the wait has had its handler; any later one now. */
	if (interruptible)
		pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return ret;
}

/* A lost connection reads as a device that went away. */
int shim_fail(int err)
{
	errno = err == -EPIPE || err == -ECONNRESET || err == -EPROTO ? ENODEV : -err;
	return -1;
}

/* ---- the caller's memory, copied without trusting an address ---- */

static ssize_t shim_copy_in(void *dst, uint64_t addr, size_t len)
{
	struct iovec local = { .iov_base = dst, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };

	if (!len)
		return 0;
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
}

/* Both return the bytes copied (fewer where the memory ends), or -1. */
static ssize_t shim_copy_out(uint64_t addr, const void *src, size_t len)
{
	struct iovec local = { .iov_base = (void *)src, .iov_len = len };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = len };

	if (!len)
		return 0;
	return process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
}

/*
 * How much of the caller's memory from @arg on the daemon will ask for
 * (@prefetch) and how large the answer can be (@room): the argument's size
 * as the number encodes it, and for XCMD also the payloads its header
 * announces. Guesses only: what @prefetch misses costs a round trip
 * (DEVSOCK_RETRY), and @room only picks the buffer.
 */
static void shim_ioctl_sizes(unsigned long cmd, uint64_t arg, size_t *prefetch, size_t *room)
{
	struct cros_ec_command_v2 hdr;
	size_t size = _IOC_SIZE(cmd), out, in;

	*prefetch = _IOC_DIR(cmd) & _IOC_WRITE ? size : 0;
	*room = size;
	if (cmd == CROS_EC_DEV_IOCXCMD_V2 &&
	    shim_copy_in(&hdr, arg, sizeof(hdr)) == (ssize_t)sizeof(hdr)) {
		out = hdr.outsize < CROS_EC_MAX_XCMD_PAYLOAD ? hdr.outsize : CROS_EC_MAX_XCMD_PAYLOAD;
		in = hdr.insize < CROS_EC_MAX_XCMD_PAYLOAD ? hdr.insize : CROS_EC_MAX_XCMD_PAYLOAD;
		*prefetch += out;
		*room += in > out ? in : out;
	}
	if (*prefetch > DEVSOCK_DATA_MAX)
		*prefetch = DEVSOCK_DATA_MAX;
}

/* Small arguments (every cros_ec one but a large XCMD) stay on the stack. */
#define SHIM_IOCTL_STACK 4096

static int shim_ioctl(struct shim_conn *c, int fd, unsigned long cmd, uint64_t arg)
{
	struct devsock_hdr req = { .type = DEVSOCK_IOCTL }, ans;
	size_t len, room, cap = SHIM_IOCTL_STACK, out_room = 0, got = 0;
	char stack[SHIM_IOCTL_STACK];
	uint64_t out_base = 0;
	void *buf = stack;
	ssize_t n;
	int step, ret;

	shim_ioctl_sizes(cmd, arg, &len, &room);
	if (len > cap || room > cap) {
		buf = malloc(DEVSOCK_DATA_MAX);
		if (!buf) {
			errno = ENOMEM;
			return -1;
		}
		cap = DEVSOCK_DATA_MAX;
	}
	n = shim_copy_in(buf, arg, len);
	len = n > 0 ? (size_t)n : 0;
	req.flags = DEVSOCK_F_PREFETCH;
	for (step = 0; step < SHIM_IOCTL_STEPS; step++) {
		req.arg[0] = cmd;
		req.arg[1] = arg;
		req.arg[2] = out_room;
		req.arg[3] = out_base;
		ret = shim_request(c, fd, &req, buf, len, &ans, buf, cap, &got, false);
		if (ret)
			goto fail;
		if (ans.type == DEVSOCK_REPLY) {
			if (ans.status < 0) {
				ret = ans.status;
				goto fail;
			}
			/* The reply fills the room the protocol's last step made. */
			if (got > ans.arg[3]) {
				ret = -EIO;
				goto fail;
			}
			if (shim_copy_out(ans.arg[2], buf, got) != (ssize_t)got) {
				ret = -EFAULT;
				goto fail;
			}
			if (buf != stack)
				free(buf);
			return ans.status;
		}
		if (ans.type != DEVSOCK_RETRY || ans.arg[1] > DEVSOCK_DATA_MAX ||
		    ans.arg[3] > DEVSOCK_DATA_MAX) {
			ret = -EIO;
			goto fail;
		}
		/* The kernel's FUSE_IOCTL retry: fetch what was asked, say where the reply goes. */
		len = (size_t)ans.arg[1];
		if ((len > cap || ans.arg[3] > cap) && buf == stack) {
			buf = malloc(DEVSOCK_DATA_MAX);
			if (!buf) {
				buf = stack;
				ret = -ENOMEM;
				goto fail;
			}
			cap = DEVSOCK_DATA_MAX;
		}
		if (shim_copy_in(buf, ans.arg[0], len) != (ssize_t)len) {
			ret = -EFAULT;
			goto fail;
		}
		out_base = ans.arg[2];
		out_room = (size_t)ans.arg[3];
		req.flags = 0;
	}
	ret = -EIO;
fail:
	if (buf != stack)
		free(buf);
	return shim_fail(ret);
}

/* ---- the interposed calls ---- */

/* Connect to the socket behind "/dev/NAME"; -1 with errno as open() sets it. */
static int shim_open_device(const struct sockaddr_un *addr, int flags)
{
	struct devsock_hdr ans;
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | (flags & O_CLOEXEC ? SOCK_CLOEXEC : 0), 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr))) {
		/* A socket nobody serves: the node of a daemon that is gone. */
		ret = errno == ECONNREFUSED ? ENOENT : errno;
		goto err;
	}
	ret = devsock_recv(fd, &ans, NULL, 0, 1);
	if (ret != 1 || ans.type != DEVSOCK_OPENED) {
		ret = ENODEV;
		goto err;
	}
	if (ans.status < 0) {
		ret = -ans.status;
		goto err;
	}
	if (flags & O_NONBLOCK)
		shim.real_fcntl(fd, F_SETFL, O_NONBLOCK);
	shim_map(fd);
	return fd;
err:
	shim.real_close(fd);
	errno = ret;
	return -1;
}

static bool shim_want(const char *path, struct sockaddr_un *addr)
{
	shim_init();
	return shim_path_ours(path, addr);
}

/* Every open entry point: ours by path, else libc's openat() (AT_FDCWD for open()). */
static int shim_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	struct sockaddr_un addr;

	if (shim_want(path, &addr))
		return shim_open_device(&addr, flags);
	return shim.real_openat(dirfd, path, flags, mode);
}

/* The mode argument exists only with O_CREAT or O_TMPFILE. */
#define SHIM_OPEN_MODE(flags, mode)					\
	do {								\
		va_list ap_;						\
									\
		if ((flags) & (O_CREAT | O_TMPFILE)) {			\
			va_start(ap_, flags);				\
			(mode) = va_arg(ap_, mode_t);			\
			va_end(ap_);					\
		}							\
	} while (0)

SHIM_EXPORT int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	SHIM_OPEN_MODE(flags, mode);
	return shim_openat(AT_FDCWD, path, flags, mode);
}

SHIM_EXPORT int open64(const char *path, int flags, ...)
	__attribute__((alias("open")));

SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	SHIM_OPEN_MODE(flags, mode);
	return shim_openat(dirfd, path, flags, mode);
}

SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

/* _FORTIFY_SOURCE's checked entry points. */
SHIM_EXPORT int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

SHIM_EXPORT int __open64_2(const char *path, int flags)
	__attribute__((alias("__open_2")));

SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
	__attribute__((alias("__openat_2")));

SHIM_EXPORT int close(int fd)
{
	shim_init();
	if (fd >= 0 && fd < SHIM_FDS) {
		pthread_mutex_lock(&shim.lock);
		shim_unmap_locked(fd);
		pthread_mutex_unlock(&shim.lock);
	}
	return shim.real_close(fd);
}

/*
 * What CUSE's kernel side checks before the daemon sees a read or write:
 * access_ok() on the range (a kernel address is EFAULT even for 0 bytes),
 * then the pages pinned (none usable: EFAULT; some: only those are used).
 * Return: how many bytes from @addr on are usable (at most @len, at most
 * @cap looked at), or -EFAULT.
 */
static ssize_t shim_user_range(uint64_t addr, size_t len, size_t cap, bool writable)
{
	char probe[DEVSOCK_READ_MAX > 4096 ? DEVSOCK_READ_MAX : 4096];
	size_t look = len < cap ? len : cap, chunk;
	ssize_t n, done = 0;

	if (addr + len < addr || addr + len > SHIM_USER_TOP)
		return -EFAULT;
	while ((size_t)done < look) {
		chunk = look - done < sizeof(probe) ? look - done : sizeof(probe);
		n = shim_copy_in(probe, addr + done, chunk);
		/* Writable: the same bytes written back (a read-only page refuses). */
		if (n > 0 && writable)
			n = shim_copy_out(addr + done, probe, (size_t)n);
		if (n <= 0)
			break;
		done += n;
		if ((size_t)n < chunk)
			break;
	}
	if (!done && len)
		return -EFAULT;
	return (size_t)done == look ? (ssize_t)len : done;
}

SHIM_EXPORT ssize_t read(int fd, void *buf, size_t count)
{
	struct devsock_hdr req = { .type = DEVSOCK_READ }, ans;
	struct shim_conn *c = shim_conn_of(fd);
	char data[DEVSOCK_READ_MAX];
	size_t got = 0;
	ssize_t room;
	int ret, fl;

	if (!c)
		return shim.real_read(fd, buf, count);
	room = shim_user_range((uintptr_t)buf, count, DEVSOCK_READ_MAX, true);
	if (room < 0) {
		errno = EFAULT;
		return -1;
	}
	if (!count)
		return 0;	/* the kernel asks no driver for nothing */
	fl = shim.real_fcntl(fd, F_GETFL);
	req.arg[0] = (size_t)room;
	req.flags = fl >= 0 && (fl & O_NONBLOCK) ? DEVSOCK_F_NONBLOCK : 0;
	ret = shim_request(c, fd, &req, NULL, 0, &ans, data, sizeof(data), &got, true);
	if (ret)
		return shim_fail(ret);
	if (ans.status < 0) {
		errno = -ans.status;
		return -1;
	}
	if (got > (size_t)room)
		got = (size_t)room;
	if (shim_copy_out((uintptr_t)buf, data, got) != (ssize_t)got) {
		errno = EFAULT;
		return -1;
	}
	return (ssize_t)got;
}

SHIM_EXPORT ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen)
{
	if (count > buflen)
		abort();	/* what glibc's own check does */
	return read(fd, buf, count);
}

/*
 * The device has no write(): through CUSE libfuse answers ENOSYS, once the
 * kernel has pinned the buffer (EFAULT before that, 0 for nothing).
 */
SHIM_EXPORT ssize_t write(int fd, const void *buf, size_t count)
{
	ssize_t usable;

	if (!shim_conn_of(fd))
		return shim.real_write(fd, buf, count);
	usable = shim_user_range((uintptr_t)buf, count, DEVSOCK_DATA_MAX, false);
	if (usable < 0 || (size_t)usable < count) {
		errno = EFAULT;
		return -1;
	}
	if (!count)
		return 0;
	errno = ENOSYS;
	return -1;
}

SHIM_EXPORT int ioctl(int fd, unsigned long cmd, ...)
{
	struct shim_conn *c;
	void *arg;
	va_list ap;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	c = shim_conn_of(fd);
	if (!c)
		return shim.real_ioctl(fd, cmd, arg);
	return shim_ioctl(c, fd, cmd, (uintptr_t)arg);
}

SHIM_EXPORT int dup(int fd)
{
	int nfd;

	shim_init();
	nfd = shim.real_dup(fd);
	if (nfd >= 0 && shim_conn_of(fd))
		shim_map(nfd);
	return nfd;
}

/* @nfd was closed and made a copy of @fd: it is ours exactly when @fd is. */
static int shim_duped_onto(int fd, int nfd)
{
	if (nfd < 0 || nfd == fd)
		return nfd;
	pthread_mutex_lock(&shim.lock);
	shim_unmap_locked(nfd);
	pthread_mutex_unlock(&shim.lock);
	if (shim_conn_of(fd))
		shim_map(nfd);
	return nfd;
}

SHIM_EXPORT int dup3(int fd, int nfd, int flags)
{
	shim_init();
	return shim_duped_onto(fd, shim.real_dup3(fd, nfd, flags));
}

SHIM_EXPORT int dup2(int fd, int nfd)
{
	shim_init();
	return shim_duped_onto(fd, shim.real_dup2(fd, nfd));
}

SHIM_EXPORT int fcntl(int fd, int cmd, ...)
{
	void *arg;
	va_list ap;
	int ret;

	shim_init();
	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	ret = shim.real_fcntl(fd, cmd, arg);
	if (ret >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && shim_conn_of(fd))
		shim_map(ret);
	return ret;
}

SHIM_EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

