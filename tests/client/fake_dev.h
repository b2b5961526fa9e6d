/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_dev.h - an in-process stand-in for /dev/cros_ec: the client's
 * transport seam on one side, an EC backend (canned, or the project's EC
 * model) on the other, and the kernel driver's rules in between (XCMD size
 * checks and clamping, READMEM, EVENTMASK, the version text, events).
 * Knobs break each start-up step on purpose.
 */
#ifndef TESTS_CLIENT_FAKE_DEV_H
#define TESTS_CLIENT_FAKE_DEV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/ec_client.h"

/**
 * struct fake_backend - the EC behind the fake device (ec.h-shaped calls).
 * @host_command: run a command; return bytes or -errno, set *status
 * @read_memmap:  READMEM; bytes, -EINVAL or -ENOTTY
 * @version_text: fill the read() text; length or -errno
 * @max_request:  largest request payload
 * @max_response: largest response payload
 * @set_mask:     EVENTMASK reached the device (may be NULL)
 */
struct fake_backend {
	int (*host_command)(void *ctx, uint32_t command, uint32_t version, const void *req,
			    size_t req_len, void *resp, size_t resp_max, uint32_t *status);
	int (*read_memmap)(void *ctx, uint32_t offset, uint32_t bytes, void *buf);
	int (*version_text)(void *ctx, char *buf, size_t len);
	size_t (*max_request)(void *ctx);
	size_t (*max_response)(void *ctx);
	void (*set_mask)(void *ctx, uint32_t mask);
};

#define FAKE_EVENT_SLOTS 32

/**
 * struct fake_dev - one open file of the fake device.
 * @backend, @backend_ctx: the EC
 * @version_override: when set, read() returns this text instead
 * @v1_ret:           what the v1 XCMD probe returns (default -ENOTTY)
 * @readmem_err:      when non-zero, READMEM fails with it (e.g. -ENOTTY)
 * @gone_err:         when non-zero, every operation fails with it (unplug)
 * @ioctl_calls:      ioctls seen (for "no round trip" checks)
 */
struct fake_dev {
	const struct fake_backend *backend;
	void *backend_ctx;
	const char *version_override;
	int v1_ret;
	int readmem_err;
	int gone_err;
	unsigned int ioctl_calls;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool text_read;
	uint32_t event_mask;
	unsigned int ev_head, ev_count;
	uint8_t ev_len[FAKE_EVENT_SLOTS];
	uint8_t ev_data[FAKE_EVENT_SLOTS][17];
};

/**
 * fake_dev_init() - a healthy device (one open file) over an EC.
 * @dev:     the device
 * @backend: the EC's calls
 * @ctx:     passed to them
 */
void fake_dev_init(struct fake_dev *dev, const struct fake_backend *backend, void *ctx);
/**
 * fake_dev_destroy() - free the device's lock and condition.
 * @dev: the device
 */
void fake_dev_destroy(struct fake_dev *dev);
/**
 * fake_dev_push_event() - queue an event for read(), waking waiters.
 * @dev:  the device
 * @type: MKBP event type
 * @data: payload
 * @len:  payload bytes (at most 16; more is cut)
 */
void fake_dev_push_event(struct fake_dev *dev, uint8_t type, const void *data, size_t len);
/**
 * fake_dev_set_gone() - simulate an unplug: blocked readers and pollers wake,
 * and every later call fails.
 * @dev: the device
 * @err: the positive errno they fail with (ENODEV for an unplug)
 */
void fake_dev_set_gone(struct fake_dev *dev, int err);

/** fake_transport - the ops table; ctx is a struct fake_dev. */
extern const struct ec_transport_ops fake_transport;

/* ---- a canned EC: fixed answers, enough for every ecctl command ---- */

/**
 * struct canned_ec - a tiny EC with settable answers.
 * @memmap:        the 256-byte map
 * @max_req_pkt:   GET_PROTOCOL_INFO request packet size
 * @max_resp_pkt:  GET_PROTOCOL_INFO response packet size
 * @protoinfo_len: bytes GET_PROTOCOL_INFO returns (12 unless broken on purpose)
 * @ver_mask:      GET_CMD_VERSIONS answer per command (0 = unknown command)
 * @console:       console text, handed out in @console_chunk pieces
 * @panic:         panic blob (@panic_len bytes, 0 = none)
 * @fail_command:  a command that answers @fail_status (0 = none)
 * @hello_add:     what HELLO adds (EC_HELLO_MAGIC unless broken on purpose)
 * @text:          the read() version text
 * @chip:          when set, GET_CHIP_INFO answers these 96 bytes verbatim
 */
struct canned_ec {
	uint8_t memmap[256];
	uint16_t max_req_pkt;
	uint16_t max_resp_pkt;
	size_t protoinfo_len;
	uint32_t ver_mask[0x700];
	uint32_t features0;
	char console[512];
	size_t console_chunk;
	size_t console_pos;
	bool console_snapshot;
	uint8_t panic[64];
	size_t panic_len;
	unsigned int pd_ports;
	uint32_t fail_command;
	uint32_t fail_status;
	uint32_t hello_add;
	char text[128];
	const struct ec_response_get_chip_info *chip;
};

/**
 * canned_ec_init() - a typical laptop: battery, four temperature slots in
 * use (one in error), one fan, two USB-PD ports.
 * @ec: the canned EC
 */
void canned_ec_init(struct canned_ec *ec);

extern const struct fake_backend canned_backend;

#endif /* TESTS_CLIENT_FAKE_DEV_H */
