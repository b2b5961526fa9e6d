// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake_dev.c - the fake /dev/cros_ec used by the client tests, and a canned
 * EC to put behind it. The fake applies the kernel driver's rules (see
 * docs/device-abi.md) so the client meets the same checks it meets
 * on a real device.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cros_ec/cros_ec_dev.h>
#include <cros_ec/ec_commands.h>

#include "tests/client/fake_dev.h"

void fake_dev_init(struct fake_dev *dev, const struct fake_backend *backend, void *ctx)
{
	memset(dev, 0, sizeof(*dev));
	dev->backend = backend;
	dev->backend_ctx = ctx;
	dev->v1_ret = -ENOTTY;
	pthread_mutex_init(&dev->lock, NULL);
	pthread_cond_init(&dev->cond, NULL);
}

void fake_dev_destroy(struct fake_dev *dev)
{
	pthread_cond_destroy(&dev->cond);
	pthread_mutex_destroy(&dev->lock);
}

void fake_dev_push_event(struct fake_dev *dev, uint8_t type, const void *data, size_t len)
{
	unsigned int slot;

	if (len > 16)
		len = 16;
	pthread_mutex_lock(&dev->lock);
	/* Like the kernel's capped queue: newer events are dropped when full. */
	if (dev->ev_count < FAKE_EVENT_SLOTS) {
		slot = (dev->ev_head + dev->ev_count) % FAKE_EVENT_SLOTS;
		dev->ev_data[slot][0] = type;
		memcpy(&dev->ev_data[slot][1], data, len);
		dev->ev_len[slot] = (uint8_t)(len + 1);
		dev->ev_count++;
		pthread_cond_broadcast(&dev->cond);
	}
	pthread_mutex_unlock(&dev->lock);
}

void fake_dev_set_gone(struct fake_dev *dev, int err)
{
	pthread_mutex_lock(&dev->lock);
	__atomic_store_n(&dev->gone_err, err, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&dev->cond);
	pthread_mutex_unlock(&dev->lock);
}

static int gone(struct fake_dev *dev)
{
	return __atomic_load_n(&dev->gone_err, __ATOMIC_ACQUIRE);
}

static int fake_xcmd(struct fake_dev *dev, struct cros_ec_command_v2 *cmd)
{
	const struct fake_backend *b = dev->backend;
	uint32_t insize = cmd->insize;
	uint32_t status = 0;
	uint8_t *req;
	int ret;

	if (cmd->outsize > CROS_EC_MAX_XCMD_PAYLOAD || cmd->insize > CROS_EC_MAX_XCMD_PAYLOAD)
		return -EINVAL;
	if (cmd->outsize > b->max_request(dev->backend_ctx))
		return -EMSGSIZE;
	if (insize > b->max_response(dev->backend_ctx))
		insize = (uint32_t)b->max_response(dev->backend_ctx);
	/*
	 * The response goes straight into the caller's buffer, which holds
	 * max(outsize, insize) bytes, as the kernel's copy-back would.
	 */
	/* The EC reads its request while writing its response: keep them apart. */
	req = malloc(cmd->outsize ? cmd->outsize : 1);
	if (!req)
		return -ENOMEM;
	memcpy(req, cmd->data, cmd->outsize);
	ret = b->host_command(dev->backend_ctx, cmd->command, cmd->version, req,
			      cmd->outsize, cmd->data, insize, &status);
	free(req);
	if (ret < 0)
		return ret;
	cmd->result = status;
	return ret;
}

static int fake_ioctl(void *ctx, unsigned long request, unsigned long arg)
{
	struct fake_dev *dev = ctx;

	__atomic_fetch_add(&dev->ioctl_calls, 1, __ATOMIC_RELAXED);
	if (gone(dev))
		return -gone(dev);
	switch (request) {
	case CROS_EC_DEV_IOCXCMD_V2:
		return fake_xcmd(dev, (struct cros_ec_command_v2 *)arg);
	case CROS_EC_DEV_IOCRDMEM_V2: {
		struct cros_ec_readmem_v2 *rm = (struct cros_ec_readmem_v2 *)arg;

		if (dev->readmem_err)
			return dev->readmem_err;
		return dev->backend->read_memmap(dev->backend_ctx, rm->offset, rm->bytes,
						 rm->buffer);
	}
	case CROS_EC_DEV_IOCEVENTMASK_V2:
		pthread_mutex_lock(&dev->lock);
		dev->event_mask = (uint32_t)arg;
		pthread_mutex_unlock(&dev->lock);
		if (dev->backend->set_mask)
			dev->backend->set_mask(dev->backend_ctx, (uint32_t)arg);
		return 0;
	case CROS_EC_DEV_IOCXCMD_V1:
		return dev->v1_ret;
	default:
		return -ENOTTY;
	}
}

static ssize_t fake_read(void *ctx, void *buf, size_t len)
{
	struct fake_dev *dev = ctx;
	char text[256];
	ssize_t ret;
	int n;

	pthread_mutex_lock(&dev->lock);
	/* After an unplug every read fails, version text included. */
	if (gone(dev)) {
		ret = -gone(dev);
		goto out;
	}
	if (!dev->event_mask) {
		if (dev->text_read) {
			ret = 0;
			goto out;
		}
		if (dev->version_override)
			n = snprintf(text, sizeof(text), "%s", dev->version_override);
		else
			n = dev->backend->version_text(dev->backend_ctx, text, sizeof(text));
		if (n < 0) {
			ret = n;
			goto out;
		}
		dev->text_read = true;
		ret = (size_t)n < len ? n : (ssize_t)len;
		memcpy(buf, text, (size_t)ret);
		goto out;
	}
	while (!dev->ev_count && !gone(dev))
		pthread_cond_wait(&dev->cond, &dev->lock);
	if (gone(dev)) {
		ret = -gone(dev);
		goto out;
	}
	ret = dev->ev_len[dev->ev_head] < len ? dev->ev_len[dev->ev_head] : (ssize_t)len;
	memcpy(buf, dev->ev_data[dev->ev_head], (size_t)ret);
	dev->ev_head = (dev->ev_head + 1) % FAKE_EVENT_SLOTS;
	dev->ev_count--;
out:
	pthread_mutex_unlock(&dev->lock);
	return ret;
}

static int fake_poll(void *ctx, int timeout_ms)
{
	struct fake_dev *dev = ctx;
	struct timespec deadline;
	int revents = 0;

	clock_gettime(CLOCK_REALTIME, &deadline);
	if (timeout_ms > 0) {
		deadline.tv_sec += timeout_ms / 1000;
		deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
		if (deadline.tv_nsec >= 1000000000) {
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000;
		}
	}
	pthread_mutex_lock(&dev->lock);
	for (;;) {
		if (gone(dev)) {
			revents = POLLERR | POLLHUP;
			break;
		}
		if (dev->ev_count) {
			revents = POLLIN | POLLRDNORM;
			break;
		}
		if (!timeout_ms)
			break;
		if (timeout_ms < 0)
			pthread_cond_wait(&dev->cond, &dev->lock);
		else if (pthread_cond_timedwait(&dev->cond, &dev->lock, &deadline) == ETIMEDOUT)
			break;
	}
	pthread_mutex_unlock(&dev->lock);
	return revents;
}

const struct ec_transport_ops fake_transport = {
	.ioctl = fake_ioctl,
	.read = fake_read,
	.poll = fake_poll,
	.close = NULL,
};

/* ---- the canned EC ---- */

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void canned_ec_init(struct canned_ec *ec)
{
	static const uint16_t always[] = {
		EC_CMD_HELLO, EC_CMD_GET_BUILD_INFO, EC_CMD_GET_CHIP_INFO, EC_CMD_READ_MEMMAP,
		EC_CMD_GET_PROTOCOL_INFO, EC_CMD_GET_FEATURES, EC_CMD_TEMP_SENSOR_GET_INFO,
		EC_CMD_CONSOLE_SNAPSHOT, EC_CMD_CONSOLE_READ, EC_CMD_GET_PANIC_INFO,
		EC_CMD_USB_PD_PORTS, EC_CMD_USB_PD_POWER_INFO, EC_CMD_GET_UPTIME_INFO,
		EC_CMD_BATTERY_GET_DYNAMIC,
	};
	size_t i;

	memset(ec, 0, sizeof(*ec));
	for (i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		ec->ver_mask[always[i]] = EC_VER_MASK(0);
	ec->ver_mask[EC_CMD_GET_VERSION] = EC_VER_MASK(0) | EC_VER_MASK(1);
	ec->ver_mask[EC_CMD_GET_CMD_VERSIONS] = EC_VER_MASK(0) | EC_VER_MASK(1);
	ec->ver_mask[EC_CMD_BATTERY_GET_STATIC] = EC_VER_MASK(0) | EC_VER_MASK(1);
	ec->hello_add = EC_HELLO_MAGIC;
	ec->max_req_pkt = 0x88;
	ec->max_resp_pkt = 0x108;
	ec->protoinfo_len = sizeof(struct ec_response_get_protocol_info);
	ec->features0 = 1u << EC_FEATURE_PWM_FAN;
	snprintf(ec->console, sizeof(ec->console),
		 "[0.001 boot]\n[0.200 power on]\n[1.000 \"quoted\" line]\n");
	ec->console_chunk = 10;
	ec->pd_ports = 2;
	snprintf(ec->text, sizeof(ec->text), "1.0.0\nro-1.2\nrw-1.3\nread-write\n");

	memset(ec->memmap, 0xff, 0x20);
	ec->memmap[EC_MEMMAP_TEMP_SENSOR + 0] = 100;	/* 300 K */
	ec->memmap[EC_MEMMAP_TEMP_SENSOR + 1] = 110;	/* 310 K */
	ec->memmap[EC_MEMMAP_TEMP_SENSOR + 2] = EC_TEMP_SENSOR_ERROR;
	ec->memmap[EC_MEMMAP_TEMP_SENSOR_B + 0] = 120;	/* sensor 16: 320 K */
	ec->memmap[EC_MEMMAP_FAN] = 0xb8;		/* 3000 RPM */
	ec->memmap[EC_MEMMAP_FAN + 1] = 0x0b;
	ec->memmap[EC_MEMMAP_ID] = 'E';
	ec->memmap[EC_MEMMAP_ID + 1] = 'C';
	ec->memmap[EC_MEMMAP_ID_VERSION] = 1;
	ec->memmap[EC_MEMMAP_THERMAL_VERSION] = 2;
	ec->memmap[EC_MEMMAP_BATTERY_VERSION] = 1;
	put_le32(ec->memmap + EC_MEMMAP_BATT_VOLT, 12100);
	put_le32(ec->memmap + EC_MEMMAP_BATT_RATE, 1500);
	put_le32(ec->memmap + EC_MEMMAP_BATT_CAP, 3000);
	ec->memmap[EC_MEMMAP_BATT_FLAG] = EC_BATT_FLAG_AC_PRESENT | EC_BATT_FLAG_BATT_PRESENT |
					  EC_BATT_FLAG_CHARGING;
	put_le32(ec->memmap + EC_MEMMAP_BATT_DCAP, 5000);
	put_le32(ec->memmap + EC_MEMMAP_BATT_DVLT, 11550);
	put_le32(ec->memmap + EC_MEMMAP_BATT_LFCC, 4800);
	put_le32(ec->memmap + EC_MEMMAP_BATT_CCNT, 42);
	memcpy(ec->memmap + EC_MEMMAP_BATT_MFGR, "ACME", 4);
	memcpy(ec->memmap + EC_MEMMAP_BATT_MODEL, "BAT12345", 8);	/* unterminated */
	memcpy(ec->memmap + EC_MEMMAP_BATT_SERIAL, "0042", 4);
	memcpy(ec->memmap + EC_MEMMAP_BATT_TYPE, "LION", 4);
}

#define FILL(resp, max, src) do {				\
	size_t n__ = sizeof(src) < (max) ? sizeof(src) : (max);	\
	memcpy((resp), &(src), n__);				\
	ret = (int)n__;						\
} while (0)

static int canned_host_command(void *ctx, uint32_t command, uint32_t version, const void *req,
			       size_t req_len, void *resp, size_t resp_max, uint32_t *status)
{
	struct canned_ec *ec = ctx;
	uint8_t params[64] = { 0 };
	int ret = 0;

	/* Short requests read as zero-filled, as a real EC treats them. */
	memcpy(params, req, req_len < sizeof(params) ? req_len : sizeof(params));
	*status = EC_RES_SUCCESS;
	if (command >= sizeof(ec->ver_mask) / sizeof(ec->ver_mask[0]) || !ec->ver_mask[command]) {
		*status = EC_RES_INVALID_COMMAND;
		return 0;
	}
	if (!(ec->ver_mask[command] & EC_VER_MASK(version))) {
		*status = EC_RES_INVALID_VERSION;
		return 0;
	}
	if (ec->fail_command == command) {
		*status = ec->fail_status;
		return 0;
	}

	switch (command) {
	case EC_CMD_HELLO: {
		struct ec_response_hello r;

		memcpy(&r.out_data, params, 4);
		r.out_data += ec->hello_add;
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_GET_VERSION: {
		struct ec_response_get_version_v1 r;

		memset(&r, 0, sizeof(r));
		strcpy(r.version_string_ro, "ro-1.2");
		strcpy(r.version_string_rw, "rw-1.3");
		strcpy(r.cros_fwid_ro, version ? "fwid-ro" : "");
		strcpy(r.cros_fwid_rw, "fwid-rw");
		r.current_image = EC_IMAGE_RW;
		ret = (int)(version ? sizeof(r) : sizeof(struct ec_response_get_version));
		if ((size_t)ret > resp_max)
			ret = (int)resp_max;
		memcpy(resp, &r, (size_t)ret);
		break;
	}
	case EC_CMD_GET_BUILD_INFO: {
		static const char info[] = "canned_v1.0 2026-12-03";

		FILL(resp, resp_max, info);
		break;
	}
	case EC_CMD_GET_CHIP_INFO: {
		struct ec_response_get_chip_info r;

		if (ec->chip) {
			FILL(resp, resp_max, *ec->chip);
			break;
		}
		memset(&r, 0, sizeof(r));
		strcpy(r.vendor, "acme");
		/* 32 bytes with no NUL: the client must bound it. */
		memset(r.name, 'n', sizeof(r.name));
		strcpy(r.revision, "B1");
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_READ_MEMMAP: {
		uint8_t off = params[0], size = params[1];

		if ((unsigned int)off + size > sizeof(ec->memmap) || size > resp_max) {
			*status = EC_RES_INVALID_PARAM;
			break;
		}
		memcpy(resp, ec->memmap + off, size);
		ret = size;
		break;
	}
	case EC_CMD_GET_CMD_VERSIONS: {
		struct ec_response_get_cmd_versions r;
		uint32_t cmd = version ? (uint32_t)(params[0] | params[1] << 8) : params[0];

		if (cmd >= sizeof(ec->ver_mask) / sizeof(ec->ver_mask[0]) || !ec->ver_mask[cmd]) {
			*status = EC_RES_INVALID_PARAM;
			break;
		}
		r.version_mask = ec->ver_mask[cmd];
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_GET_PROTOCOL_INFO: {
		uint8_t raw[16] = { 0 };
		struct ec_response_get_protocol_info r = {
			.protocol_versions = EC_VER_MASK(3),
			.max_request_packet_size = ec->max_req_pkt,
			.max_response_packet_size = ec->max_resp_pkt,
			.flags = EC_PROTOCOL_INFO_IN_PROGRESS_SUPPORTED,
		};

		memcpy(raw, &r, sizeof(r));
		ret = (int)(ec->protoinfo_len < resp_max ? ec->protoinfo_len : resp_max);
		memcpy(resp, raw, (size_t)ret);
		break;
	}
	case EC_CMD_GET_FEATURES: {
		struct ec_response_get_features r = { .flags = { ec->features0, 0 } };

		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_TEMP_SENSOR_GET_INFO: {
		struct ec_response_temp_sensor_get_info r;

		if (params[0] >= 24 || ec->memmap[params[0] < 16 ? params[0] : 0x18 + params[0] - 16] ==
		    EC_TEMP_SENSOR_NOT_PRESENT) {
			*status = EC_RES_INVALID_PARAM;
			break;
		}
		memset(&r, 0, sizeof(r));
		snprintf(r.sensor_name, sizeof(r.sensor_name), "Sensor %u", params[0]);
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_CONSOLE_SNAPSHOT:
		ec->console_snapshot = true;
		ec->console_pos = 0;
		break;
	case EC_CMD_CONSOLE_READ: {
		size_t left, n;

		if (!ec->console_snapshot) {
			*status = EC_RES_ERROR;
			break;
		}
		left = strlen(ec->console) - ec->console_pos;
		n = left < ec->console_chunk ? left : ec->console_chunk;
		if (n + 1 > resp_max)
			n = resp_max - 1;
		memcpy(resp, ec->console + ec->console_pos, n);
		((char *)resp)[n] = '\0';
		ec->console_pos += n;
		ret = (int)n + 1;
		break;
	}
	case EC_CMD_GET_PANIC_INFO:
		ret = (int)(ec->panic_len < resp_max ? ec->panic_len : resp_max);
		memcpy(resp, ec->panic, (size_t)ret);
		break;
	case EC_CMD_USB_PD_PORTS: {
		struct ec_response_usb_pd_ports r = { .num_ports = (uint8_t)ec->pd_ports };

		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_USB_PD_POWER_INFO: {
		struct ec_response_usb_pd_power_info r;

		if (params[0] >= ec->pd_ports) {
			*status = EC_RES_INVALID_PARAM;
			break;
		}
		memset(&r, 0, sizeof(r));
		if (params[0] == 0) {
			r.role = USB_PD_PORT_POWER_SINK;
			r.type = USB_CHG_TYPE_PD;
			r.dualrole = 1;
			r.meas.voltage_max = 20000;
			r.meas.voltage_now = 20000;
			r.meas.current_max = 3000;
			r.meas.current_lim = 3000;
			r.max_power = 60000000;
		}
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_GET_UPTIME_INFO: {
		struct ec_response_uptime_info r;

		memset(&r, 0, sizeof(r));
		r.time_since_ec_boot_ms = 123456;
		r.ap_resets_since_ec_boot = 2;
		r.ec_reset_flags = 0x400;
		r.recent_ap_reset[0].reset_cause = 7;
		r.recent_ap_reset[0].reset_time_ms = 1500;
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_BATTERY_GET_STATIC: {
		struct ec_response_battery_static_info_v1 r;

		memset(&r, 0, sizeof(r));
		r.design_capacity = 5000;
		r.design_voltage = 11550;
		r.cycle_count = 42;
		strcpy(r.manufacturer_ext, "ACME Power");
		memcpy(r.model_ext, "MODEL-123456", 12);	/* unterminated */
		strcpy(r.serial_ext, "0042");
		strcpy(r.type_ext, "LION");
		FILL(resp, resp_max, r);
		break;
	}
	case EC_CMD_BATTERY_GET_DYNAMIC: {
		struct ec_response_battery_dynamic_info r = {
			.actual_voltage = 12100, .actual_current = 1500,
			.remaining_capacity = 3000, .full_capacity = 4800,
			.flags = 0x0b, .desired_voltage = 13200, .desired_current = 2000,
		};

		FILL(resp, resp_max, r);
		break;
	}
	default:
		*status = EC_RES_INVALID_COMMAND;
		break;
	}
	return ret;
}

static int canned_read_memmap(void *ctx, uint32_t offset, uint32_t bytes, void *buf)
{
	struct canned_ec *ec = ctx;

	if (offset >= sizeof(ec->memmap) || bytes > 255 || offset + bytes > sizeof(ec->memmap))
		return -EINVAL;
	if (!bytes) {
		const uint8_t *nul = memchr(ec->memmap + offset, 0, sizeof(ec->memmap) - offset);

		if (!nul)
			return -EINVAL;
		bytes = (uint32_t)(nul - (ec->memmap + offset)) + 1;
	}
	memcpy(buf, ec->memmap + offset, bytes);
	return (int)bytes;
}

static int canned_version_text(void *ctx, char *buf, size_t len)
{
	struct canned_ec *ec = ctx;

	return snprintf(buf, len, "%s", ec->text);
}

static size_t canned_max_request(void *ctx)
{
	return ((struct canned_ec *)ctx)->max_req_pkt - 8u;
}

static size_t canned_max_response(void *ctx)
{
	return ((struct canned_ec *)ctx)->max_resp_pkt - 8u;
}

const struct fake_backend canned_backend = {
	.host_command = canned_host_command,
	.read_memmap = canned_read_memmap,
	.version_text = canned_version_text,
	.max_request = canned_max_request,
	.max_response = canned_max_response,
};
