// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_client_cmds.c - typed helpers: the host-command sequences behind each
 * ecctl command, issued the way ectool issues them.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cros_ec/ec_commands.h>

#include "client/ec_client.h"

/* Console text beyond this means the EC never says "empty": give up. */
#define CONSOLE_MAX_BYTES (1u << 20)

bool ec_client_err_is_ec(int err, uint32_t *result)
{
	if (err > -EC_CLIENT_EC_ERR_BASE)
		return false;
	if (result)
		*result = (uint32_t)(-err - EC_CLIENT_EC_ERR_BASE);
	return true;
}

static const struct {
	int num;
	const char *name;
} errno_names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" }, { EIO, "EIO" },
	{ ENXIO, "ENXIO" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" }, { ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" }, { ENOTTY, "ENOTTY" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ ENAMETOOLONG, "ENAMETOOLONG" }, { ENOSYS, "ENOSYS" }, { ENODATA, "ENODATA" },
	{ ETIME, "ETIME" }, { EPROTO, "EPROTO" }, { EBADMSG, "EBADMSG" },
	{ EOVERFLOW, "EOVERFLOW" }, { EMSGSIZE, "EMSGSIZE" },
	{ EPROTONOSUPPORT, "EPROTONOSUPPORT" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ ECONNABORTED, "ECONNABORTED" }, { ENOTCONN, "ENOTCONN" },
	{ ETIMEDOUT, "ETIMEDOUT" }, { EREMOTEIO, "EREMOTEIO" }, { ENOTDIR, "ENOTDIR" },
	{ EISDIR, "EISDIR" }, { ECONNREFUSED, "ECONNREFUSED" }, { EPIPE, "EPIPE" },
};

const char *ec_errno_name(int errnum)
{
	size_t i;

	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].num == errnum)
			return errno_names[i].name;
	return "E?";
}

const char *ec_client_strerror(int err, char *buf, size_t len)
{
	uint32_t result;

	if (!buf || !len)
		return "";
	if (ec_client_err_is_ec(err, &result))
		snprintf(buf, len, "EC error %s (%u)", ec_result_name(result), result);
	else if (err < 0)
		snprintf(buf, len, "%s (%s)", ec_errno_name(-err), strerror(-err));
	else
		snprintf(buf, len, "success");
	return buf;
}

int ec_client_cmd(struct ec_client *c, uint32_t command, uint32_t version,
		  const void *req, size_t req_len, void *resp, size_t resp_len)
{
	uint32_t result;
	int ret;

	ret = ec_client_xcmd(c, command, version, req, req_len, resp, resp_len, &result);
	if (ret < 0)
		return ret;
	if (result != EC_RES_SUCCESS)
		return EC_CLIENT_EC_ERR(result);
	return ret;
}

/*
 * Like ec_client_cmd() but a response shorter than @resp_len is a protocol
 * error: every fixed-size response must arrive whole.
 */
static int cmd_exact(struct ec_client *c, uint32_t command, uint32_t version,
		     const void *req, size_t req_len, void *resp, size_t resp_len)
{
	int ret = ec_client_cmd(c, command, version, req, req_len, resp, resp_len);

	if (ret < 0)
		return ret;
	return (size_t)ret == resp_len ? 0 : -EPROTO;
}

/* Copy an EC string field of @n bytes, which need not be NUL-terminated. */
static void copy_ec_string(char *dst, const char *src, size_t n)
{
	size_t len = strnlen(src, n);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ec_client_hello(struct ec_client *c, uint32_t in_data, uint32_t *out)
{
	struct ec_params_hello req = { .in_data = in_data };
	struct ec_response_hello resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_HELLO, 0, &req, sizeof(req), &resp, sizeof(resp));
	if (ret)
		return ret;
	if (out)
		*out = resp.out_data;
	return resp.out_data == in_data + EC_HELLO_MAGIC ? 0 : -EPROTO;
}

int ec_client_cmd_versions(struct ec_client *c, uint16_t command, uint32_t *mask)
{
	/*
	 * v0 carries an 8-bit command number; larger ones need v1. ectool
	 * itself asks v1 for every command and v0 only where v1 failed
	 * (misc_util.cc); cuse_ec-record asks both ways.
	 */
	return ec_client_cmd_versions_ver(c, command, command > 0xff ? 1 : 0, mask);
}

int ec_client_cmd_versions_ver(struct ec_client *c, uint16_t command, uint8_t version,
			       uint32_t *mask)
{
	struct ec_response_get_cmd_versions resp;
	uint32_t result;
	int ret;

	if (version > 1)
		return -EINVAL;
	if (version == 1) {
		struct ec_params_get_cmd_versions_v1 req = { .cmd = command };

		ret = ec_client_xcmd(c, EC_CMD_GET_CMD_VERSIONS, 1, &req, sizeof(req),
				     &resp, sizeof(resp), &result);
	} else {
		struct ec_params_get_cmd_versions req = { .cmd = (uint8_t)command };

		ret = ec_client_xcmd(c, EC_CMD_GET_CMD_VERSIONS, 0, &req, sizeof(req),
				     &resp, sizeof(resp), &result);
	}
	if (ret < 0)
		return ret;
	/* An EC answers INVALID_PARAM for a command it does not know. */
	if (result == EC_RES_INVALID_PARAM) {
		*mask = 0;
		return 0;
	}
	if (result != EC_RES_SUCCESS)
		return EC_CLIENT_EC_ERR(result);
	if (ret != (int)sizeof(resp))
		return -EPROTO;
	*mask = resp.version_mask;
	return 0;
}

int ec_client_protoinfo(struct ec_client *c, struct ec_info_protocol *info)
{
	struct ec_response_get_protocol_info resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_GET_PROTOCOL_INFO, 0, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	info->protocol_versions = resp.protocol_versions;
	info->max_request_packet = resp.max_request_packet_size;
	info->max_response_packet = resp.max_response_packet_size;
	info->flags = resp.flags;
	return 0;
}

const char *ec_client_image_name(uint32_t image)
{
	switch (image) {
	case EC_IMAGE_UNKNOWN:
		return "unknown";
	case EC_IMAGE_RO:
		return "read-only";
	case EC_IMAGE_RW:
		return "read-write";
	default:
		return "invalid";
	}
}

int ec_client_get_version(struct ec_client *c, struct ec_info_version *v)
{
	struct ec_response_get_version_v1 resp;
	size_t want = sizeof(struct ec_response_get_version);
	uint32_t mask;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = ec_client_cmd_versions(c, EC_CMD_GET_VERSION, &mask);
	/* An EC that cannot say which versions it has still has version 0. */
	if (ec_client_err_is_ec(ret, NULL))
		mask = EC_VER_MASK(0);
	else if (ret)
		return ret;
	if (mask & EC_VER_MASK(1)) {
		v->cmd_version = 1;
		want = sizeof(struct ec_response_get_version_v1);
	}
	memset(&resp, 0, sizeof(resp));
	ret = cmd_exact(c, EC_CMD_GET_VERSION, v->cmd_version, NULL, 0, &resp, want);
	if (ret)
		return ret;
	copy_ec_string(v->ro, resp.version_string_ro, sizeof(resp.version_string_ro));
	copy_ec_string(v->rw, resp.version_string_rw, sizeof(resp.version_string_rw));
	v->current_image = resp.current_image;
	if (v->cmd_version == 1) {
		copy_ec_string(v->fwid_ro, resp.cros_fwid_ro, sizeof(resp.cros_fwid_ro));
		copy_ec_string(v->fwid_rw, resp.cros_fwid_rw, sizeof(resp.cros_fwid_rw));
	}

	/* Build info is optional: an EC without it still has a version. */
	ret = ec_client_cmd(c, EC_CMD_GET_BUILD_INFO, 0, NULL, 0, v->build_info,
			    sizeof(v->build_info) - 1);
	if (ret >= 0)
		v->build_info[ret] = '\0';
	else if (!ec_client_err_is_ec(ret, NULL))
		return ret;
	/* The text may carry its own NUL earlier; strnlen stops there anyway. */
	v->build_info[strnlen(v->build_info, sizeof(v->build_info) - 1)] = '\0';
	return 0;
}

int ec_client_chipinfo(struct ec_client *c, struct ec_info_chip *chip)
{
	struct ec_response_get_chip_info resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_GET_CHIP_INFO, 0, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	copy_ec_string(chip->vendor, resp.vendor, sizeof(resp.vendor));
	copy_ec_string(chip->name, resp.name, sizeof(resp.name));
	copy_ec_string(chip->revision, resp.revision, sizeof(resp.revision));
	return 0;
}

/* A memory-map string: at most EC_MEMMAP_TEXT_MAX bytes, maybe unterminated. */
static void memmap_string(const uint8_t *map, unsigned int offset, char *dst)
{
	copy_ec_string(dst, (const char *)map + offset, EC_MEMMAP_TEXT_MAX);
}

/*
 * Which versions of an optional command exist; an EC error from
 * GET_CMD_VERSIONS itself means "none" rather than failing the caller.
 */
static int versions_or_none(struct ec_client *c, uint16_t command, uint32_t *mask)
{
	int ret = ec_client_cmd_versions(c, command, mask);

	if (ec_client_err_is_ec(ret, NULL)) {
		*mask = 0;
		return 0;
	}
	return ret;
}

static int battery_commands(struct ec_client *c, struct ec_info_battery *bat)
{
	struct ec_params_battery_static_info sreq = { .index = 0 };
	struct ec_response_battery_static_info_v1 st;
	struct ec_params_battery_dynamic_info dreq = { .index = 0 };
	struct ec_response_battery_dynamic_info dyn;
	uint32_t mask;
	int ret;

	ret = versions_or_none(c, EC_CMD_BATTERY_GET_STATIC, &mask);
	if (ret)
		return ret;
	if (mask & EC_VER_MASK(1)) {
		ret = cmd_exact(c, EC_CMD_BATTERY_GET_STATIC, 1, &sreq, sizeof(sreq),
				&st, sizeof(st));
		if (ret)
			return ret;
		bat->have_static = true;
		bat->st.design_capacity = st.design_capacity;
		bat->st.design_voltage = st.design_voltage;
		bat->st.cycle_count = st.cycle_count;
		copy_ec_string(bat->st.manufacturer, st.manufacturer_ext, sizeof(st.manufacturer_ext));
		copy_ec_string(bat->st.model, st.model_ext, sizeof(st.model_ext));
		copy_ec_string(bat->st.serial, st.serial_ext, sizeof(st.serial_ext));
		copy_ec_string(bat->st.type, st.type_ext, sizeof(st.type_ext));
	}

	ret = versions_or_none(c, EC_CMD_BATTERY_GET_DYNAMIC, &mask);
	if (ret)
		return ret;
	if (mask & EC_VER_MASK(0)) {
		ret = cmd_exact(c, EC_CMD_BATTERY_GET_DYNAMIC, 0, &dreq, sizeof(dreq),
				&dyn, sizeof(dyn));
		if (ret)
			return ret;
		bat->have_dynamic = true;
		bat->dyn.voltage = dyn.actual_voltage;
		bat->dyn.current = dyn.actual_current;
		bat->dyn.remaining = dyn.remaining_capacity;
		bat->dyn.full = dyn.full_capacity;
		bat->dyn.flags = dyn.flags;
		bat->dyn.desired_voltage = dyn.desired_voltage;
		bat->dyn.desired_current = dyn.desired_current;
	}
	return 0;
}

int ec_client_battery(struct ec_client *c, struct ec_info_battery *bat)
{
	/* Covers 0x40..0x7F: values then the four strings. */
	uint8_t map[EC_MEMMAP_BATT_TYPE + EC_MEMMAP_TEXT_MAX];
	const unsigned int base = EC_MEMMAP_BATT_VOLT;
	int ret;

	memset(bat, 0, sizeof(*bat));
	ret = ec_client_readmem(c, EC_MEMMAP_BATTERY_VERSION, 1, &bat->memmap_version);
	if (ret < 0)
		return ret;
	/* Version 0 means the EC keeps no battery data in the map at all. */
	if (!bat->memmap_version)
		return battery_commands(c, bat);

	ret = ec_client_readmem(c, base, sizeof(map) - base, map + base);
	if (ret < 0)
		return ret;
	if (ret != (int)(sizeof(map) - base))
		return -EPROTO;
	bat->voltage = get_le32(map + EC_MEMMAP_BATT_VOLT);
	bat->rate = get_le32(map + EC_MEMMAP_BATT_RATE);
	bat->remaining = get_le32(map + EC_MEMMAP_BATT_CAP);
	bat->flags = map[EC_MEMMAP_BATT_FLAG];
	bat->design_capacity = get_le32(map + EC_MEMMAP_BATT_DCAP);
	bat->design_voltage = get_le32(map + EC_MEMMAP_BATT_DVLT);
	bat->last_full = get_le32(map + EC_MEMMAP_BATT_LFCC);
	bat->cycle_count = get_le32(map + EC_MEMMAP_BATT_CCNT);
	memmap_string(map, EC_MEMMAP_BATT_MFGR, bat->manufacturer);
	memmap_string(map, EC_MEMMAP_BATT_MODEL, bat->model);
	memmap_string(map, EC_MEMMAP_BATT_SERIAL, bat->serial);
	memmap_string(map, EC_MEMMAP_BATT_TYPE, bat->type);
	bat->present = bat->flags & EC_BATT_FLAG_BATT_PRESENT;
	if (!bat->present)
		return 0;
	return battery_commands(c, bat);
}

const char *ec_client_temp_status_name(uint8_t raw)
{
	switch (raw) {
	case EC_TEMP_SENSOR_NOT_PRESENT:
		return "not present";
	case EC_TEMP_SENSOR_ERROR:
		return "error";
	case EC_TEMP_SENSOR_NOT_POWERED:
		return "not powered";
	case EC_TEMP_SENSOR_NOT_CALIBRATED:
		return "not calibrated";
	default:
		return NULL;
	}
}

int ec_client_temps(struct ec_client *c, struct ec_info_temps *temps)
{
	uint8_t raw[EC_INFO_MAX_TEMPS];
	uint8_t thermal_version;
	unsigned int i;
	int ret;

	memset(temps, 0, sizeof(*temps));
	ret = ec_client_readmem(c, EC_MEMMAP_THERMAL_VERSION, 1, &thermal_version);
	if (ret < 0)
		return ret;
	temps->count = EC_TEMP_SENSOR_ENTRIES;
	if (thermal_version >= 2)
		temps->count += EC_TEMP_SENSOR_B_ENTRIES;

	/* One read per bank rather than ectool's byte-at-a-time: same bytes. */
	ret = ec_client_readmem(c, EC_MEMMAP_TEMP_SENSOR, EC_TEMP_SENSOR_ENTRIES, raw);
	if (ret >= 0 && ret != EC_TEMP_SENSOR_ENTRIES)
		ret = -EPROTO;
	if (ret >= 0 && temps->count > EC_TEMP_SENSOR_ENTRIES) {
		ret = ec_client_readmem(c, EC_MEMMAP_TEMP_SENSOR_B, EC_TEMP_SENSOR_B_ENTRIES,
					raw + EC_TEMP_SENSOR_ENTRIES);
		if (ret >= 0 && ret != EC_TEMP_SENSOR_B_ENTRIES)
			ret = -EPROTO;
	}
	if (ret < 0)
		return ret;
	for (i = 0; i < temps->count; i++)
		temps->sensor[i].raw = raw[i];

	for (i = 0; i < temps->count; i++) {
		struct ec_params_temp_sensor_get_info req = { .id = (uint8_t)i };
		struct ec_response_temp_sensor_get_info info;

		if (temps->sensor[i].raw == EC_TEMP_SENSOR_NOT_PRESENT)
			continue;
		ret = cmd_exact(c, EC_CMD_TEMP_SENSOR_GET_INFO, 0, &req, sizeof(req),
				&info, sizeof(info));
		/* Names are decoration: an EC without the command still has temps. */
		if (ec_client_err_is_ec(ret, NULL))
			continue;
		if (ret)
			return ret;
		copy_ec_string(temps->sensor[i].name, info.sensor_name, sizeof(info.sensor_name));
	}
	return 0;
}

int ec_client_fans(struct ec_client *c, struct ec_info_fans *fans)
{
	struct ec_response_get_features features;
	uint8_t map[EC_FAN_SPEED_ENTRIES * 2];
	unsigned int i;
	int ret;

	memset(fans, 0, sizeof(*fans));
	ret = cmd_exact(c, EC_CMD_GET_FEATURES, 0, NULL, 0, &features, sizeof(features));
	if (ret)
		return ret;
	fans->pwm_fan = features.flags[0] & (1u << EC_FEATURE_PWM_FAN);
	if (!fans->pwm_fan)
		return 0;

	ret = ec_client_readmem(c, EC_MEMMAP_FAN, sizeof(map), map);
	if (ret < 0)
		return ret;
	if (ret != (int)sizeof(map))
		return -EPROTO;
	for (i = 0; i < EC_FAN_SPEED_ENTRIES; i++) {
		uint16_t rpm = (uint16_t)(map[2 * i] | map[2 * i + 1] << 8);

		if (rpm == EC_FAN_SPEED_NOT_PRESENT)
			break;
		fans->rpm[fans->count++] = rpm;
	}
	return 0;
}

int ec_client_console(struct ec_client *c, char **text, size_t *len)
{
	size_t chunk = ec_client_max_response(c);
	size_t used = 0, size = 0;
	char *buf = NULL;
	int ret;

	*text = NULL;
	ret = ec_client_cmd(c, EC_CMD_CONSOLE_SNAPSHOT, 0, NULL, 0, NULL, 0);
	if (ret < 0)
		return ret;

	for (;;) {
		char *grown;
		size_t got;

		if (size - used < chunk + 1) {
			size = size ? size * 2 : chunk * 4 + 1;
			grown = realloc(buf, size);
			if (!grown) {
				ret = -ENOMEM;
				goto fail;
			}
			buf = grown;
		}
		ret = ec_client_cmd(c, EC_CMD_CONSOLE_READ, 0, NULL, 0, buf + used, chunk);
		if (ret < 0)
			goto fail;
		/* The EC sends a NUL-terminated string; an empty one ends the log. */
		got = strnlen(buf + used, (size_t)ret);
		if (!got)
			break;
		used += got;
		if (used > CONSOLE_MAX_BYTES) {
			ret = -EOVERFLOW;
			goto fail;
		}
	}
	buf[used] = '\0';
	*text = buf;
	if (len)
		*len = used;
	return 0;
fail:
	free(buf);
	return ret;
}

int ec_client_uptime(struct ec_client *c, struct ec_info_uptime *up)
{
	struct ec_response_uptime_info resp;
	unsigned int i;
	int ret;

	ret = cmd_exact(c, EC_CMD_GET_UPTIME_INFO, 0, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	up->time_since_ec_boot_ms = resp.time_since_ec_boot_ms;
	up->ap_resets_since_ec_boot = resp.ap_resets_since_ec_boot;
	up->ec_reset_flags = resp.ec_reset_flags;
	for (i = 0; i < 4; i++) {
		up->recent[i].reset_cause = resp.recent_ap_reset[i].reset_cause;
		up->recent[i].reset_time_ms = resp.recent_ap_reset[i].reset_time_ms;
	}
	return 0;
}

int ec_client_kblight(struct ec_client *c, uint8_t *percent, bool *enabled)
{
	struct ec_response_pwm_get_keyboard_backlight resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_PWM_GET_KEYBOARD_BACKLIGHT, 0, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	*percent = resp.percent;
	*enabled = resp.enabled;
	return 0;
}

int ec_client_set_kblight(struct ec_client *c, uint8_t percent)
{
	struct ec_params_pwm_set_keyboard_backlight req = { .percent = percent };
	int ret;

	if (percent > 100)
		return -EINVAL;
	ret = ec_client_cmd(c, EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT, 0, &req, sizeof(req), NULL, 0);
	return ret < 0 ? ret : 0;
}

int ec_client_panicinfo(struct ec_client *c, void *buf, size_t len)
{
	if (len > ec_client_max_response(c))
		len = ec_client_max_response(c);
	return ec_client_cmd(c, EC_CMD_GET_PANIC_INFO, 0, NULL, 0, buf, len);
}

int ec_client_usbpd_ports(struct ec_client *c, unsigned int *ports)
{
	struct ec_response_usb_pd_ports resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_USB_PD_PORTS, 0, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	*ports = resp.num_ports;
	return 0;
}

int ec_client_usbpd_power(struct ec_client *c, uint8_t port, struct ec_info_pd_power *pw)
{
	struct ec_params_usb_pd_power_info req = { .port = port };
	struct ec_response_usb_pd_power_info resp;
	int ret;

	ret = cmd_exact(c, EC_CMD_USB_PD_POWER_INFO, 0, &req, sizeof(req), &resp, sizeof(resp));
	if (ret)
		return ret;
	pw->port = port;
	pw->role = resp.role;
	pw->type = resp.type;
	pw->dualrole = resp.dualrole;
	pw->voltage_max = resp.meas.voltage_max;
	pw->voltage_now = resp.meas.voltage_now;
	pw->current_max = resp.meas.current_max;
	pw->current_lim = resp.meas.current_lim;
	pw->max_power = resp.max_power;
	return 0;
}
