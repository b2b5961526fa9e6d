/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * devsock.h - the device socket: /dev/NAME's file operations over a UNIX
 * SOCK_SEQPACKET socket, for hosts without CUSE. One connection is one open
 * file; its first message is the open's answer. A message is one record: a
 * fixed header and up to DEVSOCK_DATA_MAX bytes of data, in host byte order
 * (the socket is local). The daemon serves it (cuse_ec --socket=DIR, cuse_ec/sock_frontend.c);
 * the preload library (preload/) speaks it for unmodified clients.
 *
 * The ioctl exchange is CUSE's retry protocol, unchanged: the daemon asks
 * for the caller's memory by address (DEVSOCK_RETRY) and the client, which
 * runs in the caller's process, sends those bytes. To spare round trips a
 * client may send bytes from @arg onwards with the first DEVSOCK_IOCTL
 * (DEVSOCK_F_PREFETCH): the daemon answers the retries those bytes cover
 * itself, from that one copy.
 *
 * Requests carry a sequence number the answer repeats, so several threads
 * may share one file, as they share an open file of a real device.
 *
 * The daemon: cuse_ec/sock_frontend.c. The client: preload/.
 */
#ifndef CUSE_EC_DEVSOCK_H
#define CUSE_EC_DEVSOCK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Most data one message carries: an XCMD header and 64 KiB of payload. */
#define DEVSOCK_DATA_MAX (65536u + 64u)
/* Most data a READ's answer carries (the daemon's reads are smaller). */
#define DEVSOCK_READ_MAX 4096u

/**
 * enum devsock_type - what a message is.
 * @DEVSOCK_OPENED: daemon, first on a connection: @status is the open's
 *                  result (0, or -errno and the connection ends)
 * @DEVSOCK_READ:   client: read(); @arg[0] the size, DEVSOCK_F_NONBLOCK
 * @DEVSOCK_IOCTL:  client: one ioctl step; @arg[0] the number, @arg[1] the
 *                  caller's argument, @arg[2] the room for the reply (per
 *                  the last DEVSOCK_RETRY), @arg[3] where that reply goes;
 *                  data: the bytes the last DEVSOCK_RETRY asked for, or with
 *                  DEVSOCK_F_PREFETCH a copy of memory from @arg[1] on
 * @DEVSOCK_POLL:   client: poll(); the answer's @status is the mask; a
 *                  DEVSOCK_NOTIFY follows when it may have changed
 * @DEVSOCK_CANCEL: client: the read with sequence number @arg[0] was
 *                  interrupted by a signal; no answer of its own
 * @DEVSOCK_REPLY:  daemon: the request @seq is done; @status the result
 *                  (>= 0) or -errno; data: what read() returns, or the
 *                  ioctl's reply for the memory at @arg[2], which has room
 *                  for @arg[3] bytes (the last retry step's)
 * @DEVSOCK_RETRY:  daemon: ioctl @seq needs the caller's @arg[1] bytes at
 *                  @arg[0] (none when @arg[1] is 0) and will fill @arg[3]
 *                  bytes at @arg[2]
 * @DEVSOCK_NOTIFY: daemon, unasked: poll again, readiness may have changed
 */
enum devsock_type {
	DEVSOCK_OPENED = 1,
	DEVSOCK_READ,
	DEVSOCK_IOCTL,
	DEVSOCK_POLL,
	DEVSOCK_CANCEL,
	DEVSOCK_REPLY,
	DEVSOCK_RETRY,
	DEVSOCK_NOTIFY,
	DEVSOCK_TYPE_COUNT
};

/* Message flags. */
#define DEVSOCK_F_NONBLOCK	0x1	/* READ: the file is O_NONBLOCK */
#define DEVSOCK_F_COMPAT	0x2	/* IOCTL: a 32-bit caller */
#define DEVSOCK_F_PREFETCH	0x4	/* IOCTL: data is a copy of memory at @arg[1] */

/**
 * struct devsock_hdr - every message's header.
 * @type:   enum devsock_type
 * @flags:  DEVSOCK_F_*
 * @seq:    request number (the answer repeats it); 0 for OPENED and NOTIFY
 * @status: answers: the result
 * @len:    bytes of data after the header (at most DEVSOCK_DATA_MAX)
 * @arg:    per type, see enum devsock_type
 */
struct devsock_hdr {
	uint16_t type;
	uint16_t flags;
	uint32_t seq;
	int32_t status;
	uint32_t len;
	uint64_t arg[4];
};

/**
 * devsock_send() - send one whole message (one record).
 * @fd:   the connection (blocking or not: a full socket is waited for)
 * @hdr:  header; @hdr->len must equal @len
 * @data: @len bytes, or NULL when @len is 0
 * @len:  data length, at most DEVSOCK_DATA_MAX
 *
 * Never raises SIGPIPE. A record is sent whole, so threads sharing @fd
 * need no lock around it.
 *
 * Return: 0; -EINVAL for a bad length; -EPIPE/-ECONNRESET when the peer
 * has gone; or -errno.
 */
int devsock_send(int fd, const struct devsock_hdr *hdr, const void *data, size_t len);

/**
 * devsock_recv() - receive one whole message.
 * @fd:     the connection
 * @hdr:    the header received
 * @data:   room for the data
 * @size:   bytes of room (a message with more data is an error)
 * @nointr: retry on EINTR instead of returning it
 *
 * Return: 1 with a message; 0 at the end of the connection; -EINTR when a
 * signal interrupted the wait and @nointr is false (no message is lost: a
 * record is taken whole or not at all); -EPROTO for a record shorter than
 * a header or longer than @size allows, one whose @len disagrees with its
 * size, an unknown type or a length over DEVSOCK_DATA_MAX; or -errno.
 */
int devsock_recv(int fd, struct devsock_hdr *hdr, void *data, size_t size, int nointr);

/**
 * devsock_recv_nowait() - take one whole message if one is waiting.
 * @fd:   the connection
 * @hdr:  the header received
 * @data: room for the data
 * @size: bytes of room
 *
 * Return: as devsock_recv(), and -EAGAIN when no message is waiting.
 */
int devsock_recv_nowait(int fd, struct devsock_hdr *hdr, void *data, size_t size);

/**
 * devsock_recv_sigmask() - receive one whole message, waiting with a mask.
 * @fd:   the connection
 * @hdr:  the header received
 * @data: room for the data
 * @size: bytes of room
 * @mask: the signal mask during the wait alone (ppoll()'s atomic swap)
 *
 * A caller that blocked signals before it sent its request and passes its
 * own mask here loses none: a signal that came in between is delivered when
 * the wait starts, and ends it. Like poll(), the wait ends with -EINTR after
 * any handler, SA_RESTART or not.
 *
 * Return: as devsock_recv() with @nointr false.
 */
int devsock_recv_sigmask(int fd, struct devsock_hdr *hdr, void *data, size_t size,
			 const sigset_t *mask);

/**
 * devsock_type_name() - a type's name for messages and traces.
 * @type: the value from a header
 *
 * Return: "read", "ioctl", ... or "unknown".
 */
const char *devsock_type_name(unsigned int type);

#endif /* CUSE_EC_DEVSOCK_H */
