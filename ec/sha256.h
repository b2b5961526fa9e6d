/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sha256.h - SHA-256 (FIPS 180-4) for the EC model's VBOOT_HASH. The daemon
 * links no crypto library, and a hash of a simulated flash image needs no
 * constant-time care, so a small streaming implementation is enough.
 */
#ifndef CUSE_EC_SHA256_H
#define CUSE_EC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

/**
 * struct sha256_ctx - a hash in progress.
 * @state: the eight working words
 * @bytes: message bytes taken so far
 * @buf:   the partial block
 */
struct sha256_ctx {
	uint32_t state[8];
	uint64_t bytes;
	uint8_t buf[64];
};

/**
 * sha256_init() - start a new hash.
 * @ctx: the context
 */
void sha256_init(struct sha256_ctx *ctx);
/**
 * sha256_update() - feed message bytes.
 * @ctx:  the context
 * @data: the bytes (NULL allowed when @len is 0)
 * @len:  how many
 */
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
/**
 * sha256_final() - pad, and write the 32-byte digest.
 * @ctx: the context (unusable afterwards until sha256_init())
 * @out: the digest, big-endian words as the standard writes them
 */
void sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE]);

#endif /* CUSE_EC_SHA256_H */
