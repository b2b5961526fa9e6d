/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preload.h - what the preload library's files share (not installed): the
 * connection table and the request exchange of cuse_ec_preload.c, which
 * preload_poll.c uses for poll(), ppoll(), select() and pselect().
 */
#ifndef CUSE_EC_PRELOAD_H
#define CUSE_EC_PRELOAD_H

#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/types.h>
#include <time.h>

#include "devsock/devsock.h"

#define SHIM_EXPORT __attribute__((visibility("default")))
/* Descriptors the table covers; a connection above this is not ours. */
#define SHIM_FDS 4096
/* ioctl steps answered by the client before it gives up (EIO). */
#define SHIM_IOCTL_STEPS 16
/* The end of user space (x86-64's TASK_SIZE_MAX): past it, access_ok() fails. */
#define SHIM_USER_TOP 0x00007ffffffff000ull

/**
 * struct shim_wait - a request waiting for its answer.
 * @seq:  its number
 * @done: the answer is in @hdr (and @data)
 * @hdr:  the answer's header
 * @size: room the requester has for the answer's data
 * @data: the answer's data, a copy the receiving thread made (malloc'ed;
 *        the requester copies it out in its own thread and frees it)
 * @len:  data received (an answer with more than @size is -EIO)
 * @wake_fd: an eventfd the receiver writes after each message, made when
 *        an interruptible request waits behind another thread's receive;
 *        -1 without
 * @next: in the connection's list
 */
struct shim_wait {
	uint32_t seq;
	bool done;
	struct devsock_hdr hdr;
	size_t size;
	void *data;
	size_t len;
	int wake_fd;
	struct shim_wait *next;
};

/**
 * struct shim_conn - one connection (one open file), shared by its fds.
 * @ino:       the socket's inode: dup()s of it find this
 * @users:     fds mapped to it
 * @lock:      protects what follows
 * @cond:      an answer was dispatched, or the receiving role is free
 * @receiving: a thread is reading the socket
 * @dead:      the connection failed: every request gets @dead_err
 * @dead_err:  -errno
 * @next_seq:  the next request's number
 * @notifies:  DEVSOCK_NOTIFY messages seen
 * @waits:     requests waiting for their answer
 * @rbuf:      the receiving thread's buffer (DEVSOCK_DATA_MAX bytes)
 */
struct shim_conn {
	ino_t ino;
	unsigned int users;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool receiving;
	bool dead;
	int dead_err;
	uint32_t next_seq;
	uint64_t notifies;
	struct shim_wait *waits;
	void *rbuf;
};

/**
 * struct shim_state - the library's state: the process has one.
 * @lock:   protects @fds and every connection's @users
 * @fds:    fd -> connection
 * @dir:    CUSE_EC_SOCKET_DIR, "" when unset (then nothing is ours)
 * @real_*: libc's functions
 */
struct shim_state {
	pthread_mutex_t lock;
	struct shim_conn *fds[SHIM_FDS];
	char dir[PATH_MAX];
	int (*real_openat)(int, const char *, int, ...);
	int (*real_close)(int);
	ssize_t (*real_read)(int, void *, size_t);
	ssize_t (*real_write)(int, const void *, size_t);
	int (*real_ioctl)(int, unsigned long, ...);
	int (*real_poll)(struct pollfd *, nfds_t, int);
	int (*real_ppoll)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
	int (*real_select)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
	int (*real_pselect)(int, fd_set *, fd_set *, fd_set *, const struct timespec *,
			    const sigset_t *);
	int (*real_dup)(int);
	int (*real_dup2)(int, int);
	int (*real_dup3)(int, int, int);
	int (*real_fcntl)(int, int, ...);
};

extern struct shim_state shim;

/**
 * shim_init() - resolve libc's functions and read the environment, once.
 */
void shim_init(void);

/**
 * shim_conn_of() - the connection behind @fd.
 * @fd: any descriptor
 *
 * Return: the connection, or NULL when @fd is not one of ours.
 */
struct shim_conn *shim_conn_of(int fd);

/**
 * shim_request() - send a request and wait for its answer.
 * @c:     the connection
 * @fd:    a descriptor of it
 * @req:   the request (its @seq is set here)
 * @data:  its data
 * @len:   bytes of @data
 * @ans:   the answer's header
 * @buf:   room for the answer's data
 * @size:  bytes of room
 * @got:   the answer's data length, or NULL
 * @interruptible: a signal from the send on (SA_RESTART or not) sends
 *         DEVSOCK_CANCEL for it; the answer is still awaited (the daemon
 *         then answers -EINTR, or the data)
 *
 * Return: 0 with @ans filled, or -errno of the connection.
 */
int shim_request(struct shim_conn *c, int fd, struct devsock_hdr *req, const void *data,
		 size_t len, struct devsock_hdr *ans, void *buf, size_t size, size_t *got,
		 bool interruptible);

/**
 * shim_receive_one() - receive and dispatch one message as the receiver.
 * @c:             the connection, its lock held and no receiver active
 * @fd:            a descriptor of it
 * @intr_mask:     NULL, or the signal mask to wait with: then return
 *                 -EINTR when a signal comes before a message
 *
 * Return: 0, -EINTR, or the connection's error (it is then dead).
 */
int shim_receive_one(struct shim_conn *c, int fd, const sigset_t *intr_mask);

/**
 * shim_fail() - set errno for a connection error and return -1.
 * @err: -errno; a lost connection reads as ENODEV
 *
 * Return: -1.
 */
int shim_fail(int err);

#endif /* CUSE_EC_PRELOAD_H */
