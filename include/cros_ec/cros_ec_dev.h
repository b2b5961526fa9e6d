/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cros_ec_dev.h - the /dev/cros_ec character-device ABI (ioctl numbers and
 * argument layouts) as the Linux cros_ec_chardev driver exposes it.
 *
 * Written for this project from the documented interface facts; shared by
 * the daemon (which serves it) and the client library (which speaks it).
 * Every field is a u32 or u8, so 32-bit and 64-bit callers share layouts.
 */
#ifndef CROS_EC_DEV_H
#define CROS_EC_DEV_H

#include <stdint.h>
#include <sys/ioctl.h>

/* Text returned by read() at offset 0 starts with this line. */
#define CROS_EC_DEV_VERSION "1.0.0"

/* Largest outsize/insize the kernel accepts before clamping (EINVAL above). */
#define CROS_EC_MAX_XCMD_PAYLOAD (64 * 1024)

/* The kernel caps each file's queued MKBP events at one page of bytes. */
#define CROS_EC_MAX_EVENT_QUEUE_BYTES 4096

/* Size of the EC's memory map (READMEM window). */
#define CROS_EC_MEMMAP_SIZE 256

/**
 * struct cros_ec_command_v2 - XCMD argument: a 20-byte header followed by
 * max(outsize, insize) bytes of payload.
 * @version: host command version
 * @command: host command number
 * @outsize: bytes sent to the EC (request)
 * @insize:  room for the EC's response
 * @result:  EC status code, filled in by the driver
 * @data:    request on the way in, response on the way out
 */
struct cros_ec_command_v2 {
	uint32_t version;
	uint32_t command;
	uint32_t outsize;
	uint32_t insize;
	uint32_t result;
	uint8_t data[];
};

#define CROS_EC_XCMD_HEADER_SIZE 20u

/**
 * struct cros_ec_readmem_v2 - READMEM argument.
 * @offset: first memory-map byte to read
 * @bytes:  number of bytes, or 0 for "a NUL-terminated string"
 * @buffer: where the bytes land
 */
struct cros_ec_readmem_v2 {
	uint32_t offset;
	uint32_t bytes;
	uint8_t buffer[255];
};

#define CROS_EC_DEV_IOC_V2 0xEC
#define CROS_EC_DEV_IOCXCMD_V2 _IOWR(CROS_EC_DEV_IOC_V2, 0, struct cros_ec_command_v2)
#define CROS_EC_DEV_IOCRDMEM_V2 _IOWR(CROS_EC_DEV_IOC_V2, 1, struct cros_ec_readmem_v2)
#define CROS_EC_DEV_IOCEVENTMASK_V2 _IO(CROS_EC_DEV_IOC_V2, 2)

/*
 * The obsolete pointer-based v1 ABI (type ':'). Only its numbers matter:
 * the device must answer them with ENOTTY so that clients fall back to v2.
 */
#define CROS_EC_DEV_IOCXCMD_V1 0xC0283A00u
#define CROS_EC_DEV_IOCRDMEM_V1 0xC0103A01u

_Static_assert(sizeof(struct cros_ec_command_v2) == 20, "XCMD header is 20 bytes");
_Static_assert(sizeof(struct cros_ec_readmem_v2) == 264, "READMEM argument is 264 bytes");
_Static_assert(CROS_EC_DEV_IOCXCMD_V2 == 0xC014EC00u, "XCMD number");
_Static_assert(CROS_EC_DEV_IOCRDMEM_V2 == 0xC108EC01u, "READMEM number");
_Static_assert(CROS_EC_DEV_IOCEVENTMASK_V2 == 0x0000EC02u, "EVENTMASK number");

#endif /* CROS_EC_DEV_H */
