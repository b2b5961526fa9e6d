/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cuse_mini.h - the wire contract between the end-to-end test device
 * (cuse_mini) and its client (cuse_mini_client).
 *
 * The one ioctl carries a variable-length payload behind a fixed header,
 * the shape that forces CUSE's unrestricted-ioctl retry protocol: the
 * daemon must first fetch the header to learn how much more to fetch.
 */
#ifndef CUSE_EC_TESTS_E2E_CUSE_MINI_H
#define CUSE_EC_TESTS_E2E_CUSE_MINI_H

#include <stdint.h>
#include <sys/ioctl.h>

/* Largest payload the device accepts; crossing several pages on purpose. */
#define CUSE_MINI_MAX_PAYLOAD 16384u

/**
 * struct cuse_mini_xfer - header of a CUSE_MINI_IOC_XFORM buffer
 * @len: number of payload bytes that follow the header
 * @key: byte XOR'd into every payload byte on the way back
 *
 * The device answers with the payload reversed and XOR'd with @key, so a
 * reply that is merely the request echoed, truncated or shifted is caught.
 */
struct cuse_mini_xfer {
	uint32_t len;
	uint32_t key;
	uint8_t data[];
};

/* The size encoded in the number is the header only: CUSE does not use it. */
#define CUSE_MINI_IOC_XFORM _IOWR('M', 0x01, struct cuse_mini_xfer)
/* Never implemented by the device: must fail with ENOTTY. */
#define CUSE_MINI_IOC_UNKNOWN _IO('M', 0x7f)

/* What every read() of the device returns (a prefix, for short reads). */
#define CUSE_MINI_GREETING "cuse_mini: hello\n"

#endif /* CUSE_EC_TESTS_E2E_CUSE_MINI_H */
