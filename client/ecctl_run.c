// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ecctl_run.c - ecctl's commands and their output: ectool's human form, or
 * one JSON object per command written by json-c, every text field passed
 * through text_to_utf8() first so the JSON is valid whatever the EC sent.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <cros_ec/ec_commands.h>

#include "client/ecctl_cli.h"
#include "common/common.h"

/* Plain (no spaces), and '/' left alone: paths and versions read as written. */
#define JSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* A JSON string from a text field of @size bytes (see text_to_utf8()). */
static json_object *jtext(const char *field, size_t size)
{
	size_t room = TEXT_UTF8_ROOM(size);
	json_object *obj;
	char *text = malloc(room);

	if (!text)
		return NULL;
	text_to_utf8(field, size, text, room);
	obj = json_object_new_string(text);
	free(text);
	return obj;
}

#define JTEXT(field)	jtext((field), sizeof(field))

static json_object *jhex(const uint8_t *buf, size_t len)
{
	char *text = malloc(2 * len + 1);
	json_object *obj;
	size_t i;

	if (!text)
		return NULL;
	for (i = 0; i < len; i++)
		snprintf(text + 2 * i, 3, "%02x", buf[i]);
	text[2 * len] = '\0';
	obj = json_object_new_string(text);
	free(text);
	return obj;
}

static void jadd(json_object *obj, const char *key, json_object *val)
{
	json_object_object_add(obj, key, val);
}

static void jadd_uint(json_object *obj, const char *key, uint64_t v)
{
	json_object_object_add(obj, key, json_object_new_uint64(v));
}

static void jadd_int(json_object *obj, const char *key, int64_t v)
{
	json_object_object_add(obj, key, json_object_new_int64(v));
}

static void jadd_bool(json_object *obj, const char *key, bool v)
{
	json_object_object_add(obj, key, json_object_new_boolean(v));
}

static void jadd_str(json_object *obj, const char *key, const char *ascii)
{
	json_object_object_add(obj, key, json_object_new_string(ascii));
}

/* {"command":..,"message":..,"errno":..,"ec_result":..} for ecctl_error(). */
static json_object *error_object(const char *command, const char *message, int ret)
{
	json_object *e = json_object_new_object();
	uint32_t result;
	bool ec = ret && ec_client_err_is_ec(ret, &result);

	jadd(e, "command", command ? json_object_new_string(command) : NULL);
	jadd_str(e, "message", message);
	jadd(e, "errno", ret && !ec ? json_object_new_string(ec_errno_name(-ret)) : NULL);
	jadd(e, "ec_result", ec ? json_object_new_string(ec_result_name(result)) : NULL);
	return e;
}

void ecctl_error(const struct ecctl_opts *opts, FILE *out, FILE *err, const char *command,
		 const char *message, int ret)
{
	json_object *j;
	char msg[96];

	if (!message)
		message = ec_client_strerror(ret, msg, sizeof(msg));
	if (command)
		fprintf(err, "ecctl: %s: %s\n", command, message);
	else
		fprintf(err, "ecctl: %s\n", message);
	if (!opts || !opts->json)
		return;
	j = json_object_new_object();
	jadd(j, "error", error_object(command, message, ret));
	fprintf(out, "%s\n", json_object_to_json_string_ext(j, JSON_FLAGS));
	json_object_put(j);
}

/* A failed command: the message (and its JSON under --json), exit 1. */
static int report_cmd(const struct ecctl_opts *o, FILE *out, FILE *err, const char *what,
		      int ret)
{
	ecctl_error(o, out, err, what, NULL, ret);
	return ECCTL_EXIT_DEVICE;
}

/* Print @obj on one line and free it. */
static int emit(FILE *out, FILE *err, json_object *obj)
{
	const char *text = obj ? json_object_to_json_string_ext(obj, JSON_FLAGS) : NULL;
	int status = ECCTL_EXIT_OK;

	if (text)
		fprintf(out, "%s\n", text);
	else
		status = report_cmd(NULL, out, err, "json", -ENOMEM);
	json_object_put(obj);
	return status;
}

static void hex_dump(FILE *out, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(out, "%02x%s", buf[i], (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
}

static int run_hello(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	uint32_t in = 0xa0b0c0d0, got = 0;
	int ret = ec_client_hello(c, in, &got);
	json_object *j;

	if (ret == -EPROTO) {
		fprintf(err, "ecctl: hello: expected 0x%08x, got 0x%08x\n",
			in + EC_HELLO_MAGIC, got);
		return ECCTL_EXIT_DEVICE;
	}
	if (ret)
		return report_cmd(o, out, err, "hello", ret);
	if (!o->json) {
		fprintf(out, "EC says hello!\n");
		return ECCTL_EXIT_OK;
	}
	j = json_object_new_object();
	jadd_bool(j, "hello", true);
	jadd_uint(j, "out_data", got);
	return emit(out, err, j);
}

static int run_version(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_version v;
	int ret = ec_client_get_version(c, &v);
	json_object *j;

	if (ret)
		return report_cmd(o, out, err, "version", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd(j, "ro_version", JTEXT(v.ro));
		jadd(j, "rw_version", JTEXT(v.rw));
		jadd_str(j, "firmware_copy", ec_client_image_name(v.current_image));
		jadd(j, "build_info", JTEXT(v.build_info));
		return emit(out, err, j);
	}
	fprintf(out, "RO version:    %s\n", v.ro);
	fprintf(out, "RW version:    %s\n", v.rw);
	if (v.cmd_version >= 1 && (*v.fwid_ro || *v.fwid_rw)) {
		fprintf(out, "RO cros fwid:  %s\n", v.fwid_ro);
		fprintf(out, "RW cros fwid:  %s\n", v.fwid_rw);
	}
	fprintf(out, "Firmware copy: %s\n", ec_client_image_name(v.current_image));
	fprintf(out, "Build info:    %s\n", v.build_info);
	return ECCTL_EXIT_OK;
}

static int run_chipinfo(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_chip chip;
	int ret = ec_client_chipinfo(c, &chip);
	json_object *j;

	if (ret)
		return report_cmd(o, out, err, "chipinfo", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd(j, "vendor", JTEXT(chip.vendor));
		jadd(j, "name", JTEXT(chip.name));
		jadd(j, "revision", JTEXT(chip.revision));
		return emit(out, err, j);
	}
	fprintf(out, "Chip info:\n  vendor:    %s\n  name:      %s\n  revision:  %s\n",
		chip.vendor, chip.name, chip.revision);
	return ECCTL_EXIT_OK;
}

static int run_protoinfo(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_protocol p;
	int ret = ec_client_protoinfo(c, &p);
	json_object *j;
	int v;

	if (ret)
		return report_cmd(o, out, err, "protoinfo", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd_uint(j, "protocol_versions", p.protocol_versions);
		jadd_uint(j, "max_request_packet", p.max_request_packet);
		jadd_uint(j, "max_response_packet", p.max_response_packet);
		jadd_uint(j, "flags", p.flags);
		return emit(out, err, j);
	}
	fprintf(out, "Protocol info:\n  protocol versions:");
	for (v = 0; v < 32; v++)
		if (p.protocol_versions & (1u << v))
			fprintf(out, " %d", v);
	fprintf(out, "\n  max request:  %4u bytes\n  max response: %4u bytes\n  flags: 0x%08x\n",
		p.max_request_packet, p.max_response_packet, p.flags);
	if (p.flags & EC_PROTOCOL_INFO_IN_PROGRESS_SUPPORTED)
		fprintf(out, "    EC_RES_IN_PROGRESS supported\n");
	return ECCTL_EXIT_OK;
}

static int run_cmdversions(struct ec_client *c, const struct ecctl_opts *o, FILE *out,
			   FILE *err)
{
	uint32_t mask;
	int ret = ec_client_cmd_versions(c, (uint16_t)o->host_cmd, &mask);
	json_object *j;

	if (ret)
		return report_cmd(o, out, err, "cmdversions", ret);
	if (!o->json) {
		fprintf(out, "Command 0x%04x supports version mask 0x%08x\n", o->host_cmd, mask);
		return ECCTL_EXIT_OK;
	}
	j = json_object_new_object();
	jadd_uint(j, "command", o->host_cmd);
	jadd_uint(j, "version_mask", mask);
	return emit(out, err, j);
}

static void battery_flags_text(FILE *out, uint32_t flags)
{
	if (flags & EC_BATT_FLAG_AC_PRESENT)
		fputs(" AC_PRESENT", out);
	if (flags & EC_BATT_FLAG_BATT_PRESENT)
		fputs(" BATT_PRESENT", out);
	if (flags & EC_BATT_FLAG_DISCHARGING)
		fputs(" DISCHARGING", out);
	if (flags & EC_BATT_FLAG_CHARGING)
		fputs(" CHARGING", out);
	if (flags & EC_BATT_FLAG_LEVEL_CRITICAL)
		fputs(" LEVEL_CRITICAL", out);
}

static int battery_json(const struct ec_info_battery *b, FILE *out, FILE *err)
{
	json_object *j = json_object_new_object();

	jadd_bool(j, "present", b->present);
	if (!b->present)
		return emit(out, err, j);
	/* The extended strings of BATTERY_GET_STATIC win over the 8-byte map. */
	if (b->have_static) {
		jadd(j, "manufacturer", JTEXT(b->st.manufacturer));
		jadd(j, "model", JTEXT(b->st.model));
		jadd(j, "serial", JTEXT(b->st.serial));
		jadd(j, "chemistry", JTEXT(b->st.type));
	} else {
		jadd(j, "manufacturer", JTEXT(b->manufacturer));
		jadd(j, "model", JTEXT(b->model));
		jadd(j, "serial", JTEXT(b->serial));
		jadd(j, "chemistry", JTEXT(b->type));
	}
	jadd_uint(j, "design_capacity_mah", b->design_capacity);
	jadd_uint(j, "last_full_mah", b->last_full);
	jadd_uint(j, "design_voltage_mv", b->design_voltage);
	jadd_uint(j, "cycle_count", b->cycle_count);
	jadd_uint(j, "voltage_mv", b->voltage);
	jadd_uint(j, "current_ma", b->rate);
	jadd_uint(j, "remaining_mah", b->remaining);
	jadd_uint(j, "flags", b->flags);
	if (b->have_dynamic) {
		jadd_int(j, "desired_voltage_mv", b->dyn.desired_voltage);
		jadd_int(j, "desired_current_ma", b->dyn.desired_current);
	}
	return emit(out, err, j);
}

static int run_battery(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_battery b;
	int ret = ec_client_battery(c, &b);
	const char *mfgr, *model, *serial, *type;

	if (ret)
		return report_cmd(o, out, err, "battery", ret);
	if (o->json)
		return battery_json(&b, out, err);
	mfgr = b.have_static ? b.st.manufacturer : b.manufacturer;
	model = b.have_static ? b.st.model : b.model;
	serial = b.have_static ? b.st.serial : b.serial;
	type = b.have_static ? b.st.type : b.type;
	if (!b.memmap_version && !b.have_static) {
		fprintf(out, "Battery info not available\n");
		return ECCTL_EXIT_OK;
	}
	if (b.memmap_version && !b.present) {
		fprintf(out, "Battery not present\n");
		return ECCTL_EXIT_OK;
	}
	fprintf(out, "Battery info:\n");
	fprintf(out, "  OEM name:               %s\n", mfgr);
	fprintf(out, "  Model number:           %s\n", model);
	fprintf(out, "  Chemistry   :           %s\n", type);
	fprintf(out, "  Serial number:          %s\n", serial);
	fprintf(out, "  Design capacity:        %u mAh\n", b.design_capacity);
	fprintf(out, "  Last full charge:       %u mAh\n", b.last_full);
	fprintf(out, "  Design output voltage   %u mV\n", b.design_voltage);
	fprintf(out, "  Cycle count             %u\n", b.cycle_count);
	fprintf(out, "  Present voltage         %u mV\n", b.voltage);
	fprintf(out, "  Present current         %u mA\n", b.rate);
	fprintf(out, "  Remaining capacity      %u mAh\n", b.remaining);
	if (b.have_dynamic) {
		fprintf(out, "  Desired voltage         %d mV\n", b.dyn.desired_voltage);
		fprintf(out, "  Desired current         %d mA\n", b.dyn.desired_current);
	}
	fprintf(out, "  Flags                   0x%02x", b.flags);
	battery_flags_text(out, b.flags);
	fputc('\n', out);
	return ECCTL_EXIT_OK;
}

static int run_temps(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	json_object *j = NULL, *sensors = NULL;
	struct ec_info_temps t;
	unsigned int i;
	int ret = ec_client_temps(c, &t);

	if (ret)
		return report_cmd(o, out, err, "temps", ret);
	if (o->json) {
		j = json_object_new_object();
		sensors = json_object_new_array();
		jadd(j, "sensors", sensors);
	} else {
		fprintf(out, "--sensor name-------- --temperature--\n");
	}
	for (i = 0; i < t.count; i++) {
		uint8_t raw = t.sensor[i].raw;
		const char *status = ec_client_temp_status_name(raw);
		const char *name = *t.sensor[i].name ? t.sensor[i].name : "(unnamed)";
		int kelvin = raw + EC_TEMP_SENSOR_OFFSET;
		json_object *s;

		if (raw == EC_TEMP_SENSOR_NOT_PRESENT)
			continue;
		if (!o->json && status) {
			fprintf(out, "%-20s  sensor %u %s\n", name, i, status);
			continue;
		}
		if (!o->json) {
			fprintf(out, "%-20s  %d K (= %d C)\n", name, kelvin, kelvin - 273);
			continue;
		}
		s = json_object_new_object();
		jadd_uint(s, "id", i);
		jadd(s, "name", JTEXT(t.sensor[i].name));
		if (status) {
			jadd_str(s, "status", status);
		} else {
			jadd_int(s, "kelvin", kelvin);
			jadd_int(s, "celsius", kelvin - 273);
		}
		json_object_array_add(sensors, s);
	}
	return o->json ? emit(out, err, j) : ECCTL_EXIT_OK;
}

static int run_fans(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	json_object *j, *fans;
	struct ec_info_fans f;
	unsigned int i;
	int ret = ec_client_fans(c, &f);

	if (ret)
		return report_cmd(o, out, err, "fans", ret);
	if (o->json) {
		j = json_object_new_object();
		fans = json_object_new_array();
		jadd(j, "fans", fans);
		for (i = 0; i < f.count; i++) {
			json_object *fan = json_object_new_object();

			jadd_uint(fan, "id", i);
			if (f.rpm[i] == EC_FAN_SPEED_STALLED_DEPRECATED)
				jadd_bool(fan, "stalled", true);
			else
				jadd_uint(fan, "rpm", f.rpm[i]);
			json_object_array_add(fans, fan);
		}
		return emit(out, err, j);
	}
	if (!f.count)
		fprintf(out, "No fans\n");
	for (i = 0; i < f.count; i++) {
		if (f.rpm[i] == EC_FAN_SPEED_STALLED_DEPRECATED)
			fprintf(out, "Fan %u stalled!\n", i);
		else
			fprintf(out, "Fan %u RPM: %u\n", i, f.rpm[i]);
	}
	return ECCTL_EXIT_OK;
}

static int run_console(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	int status = ECCTL_EXIT_OK;
	json_object *j;
	size_t len;
	char *text;
	int ret = ec_client_console(c, &text, &len);

	if (ret)
		return report_cmd(o, out, err, "console", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd(j, "console", jtext(text, len));
		status = emit(out, err, j);
	} else {
		fwrite(text, 1, len, out);
		if (len && text[len - 1] != '\n')
			fputc('\n', out);
	}
	free(text);
	return status;
}

static int run_events(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	json_object *j = NULL, *events = NULL;
	uint8_t ev[64];
	unsigned int n;
	int ret, status = ECCTL_EXIT_OK;

	ret = ec_client_set_event_mask(c, o->event_mask);
	if (ret)
		return report_cmd(o, out, err, "events: EVENTMASK", ret);
	/* A wait of seconds with nothing on the screen looks like a hang. */
	if (o->timeout_ms < 0)
		fprintf(err, "ecctl: waiting for %u event(s) (mask 0x%x), without a time limit\n",
			o->event_count, o->event_mask);
	else
		fprintf(err, "ecctl: waiting for %u event(s) (mask 0x%x), up to %d ms each\n",
			o->event_count, o->event_mask, o->timeout_ms);
	if (o->json) {
		j = json_object_new_object();
		events = json_object_new_array();
		jadd(j, "events", events);
	}
	for (n = 0; n < o->event_count; n++) {
		ret = ec_client_read_event(c, ev, sizeof(ev), o->timeout_ms);
		if (ret < 0)
			break;
		if (o->json) {
			json_object *e = json_object_new_object();

			jadd_uint(e, "type", ev[0] & EC_MKBP_EVENT_TYPE_MASK);
			jadd(e, "data", jhex(ev + 1, (size_t)ret - 1));
			json_object_array_add(events, e);
		} else {
			fprintf(out, "Event type %u (%d bytes):", ev[0] & EC_MKBP_EVENT_TYPE_MASK,
				ret - 1);
			for (int k = 1; k < ret; k++)
				fprintf(out, " %02x", ev[k]);
			fputc('\n', out);
		}
	}
	/* The events read before a failure are still printed, with the error. */
	if (o->json) {
		if (ret < 0) {
			char msg[96];

			/* The text line as every error has it; the object joins the events. */
			ec_client_strerror(ret, msg, sizeof(msg));
			ecctl_error(NULL, out, err, "events", msg, ret);
			jadd(j, "error", error_object("events", msg, ret));
		}
		status = emit(out, err, j);
	} else if (ret < 0) {
		return report_cmd(o, out, err, "events", ret);
	}
	return ret < 0 ? ECCTL_EXIT_DEVICE : status;
}

static int run_uptime(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_uptime u;
	json_object *j;
	unsigned int i;
	int ret = ec_client_uptime(c, &u);

	if (ret)
		return report_cmd(o, out, err, "uptime", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd_uint(j, "uptime_ms", u.time_since_ec_boot_ms);
		jadd_uint(j, "ap_resets", u.ap_resets_since_ec_boot);
		jadd_uint(j, "reset_flags", u.ec_reset_flags);
		return emit(out, err, j);
	}
	fprintf(out, "EC uptime: %u.%03u seconds\n", u.time_since_ec_boot_ms / 1000,
		u.time_since_ec_boot_ms % 1000);
	fprintf(out, "AP resets since EC boot: %u\n", u.ap_resets_since_ec_boot);
	fprintf(out, "Most recent AP reset causes:\n");
	for (i = 0; i < 4; i++) {
		if (!u.recent[i].reset_time_ms)
			continue;
		fprintf(out, "\t%u.%03u: cause %u\n", u.recent[i].reset_time_ms / 1000,
			u.recent[i].reset_time_ms % 1000, u.recent[i].reset_cause);
	}
	fprintf(out, "EC reset flags at last EC boot: 0x%08x\n", u.ec_reset_flags);
	return ECCTL_EXIT_OK;
}

static int run_kblight(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	json_object *j;
	uint8_t percent;
	bool enabled;
	int ret;

	if (o->kblight >= 0) {
		ret = ec_client_set_kblight(c, (uint8_t)o->kblight);
		if (ret)
			return report_cmd(o, out, err, "kblight", ret);
	}
	ret = ec_client_kblight(c, &percent, &enabled);
	if (ret)
		return report_cmd(o, out, err, "kblight", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd_uint(j, "percent", percent);
		jadd_bool(j, "enabled", enabled);
		return emit(out, err, j);
	}
	fprintf(out, "Keyboard backlight: %u%% (%s)\n", percent, enabled ? "on" : "off");
	return ECCTL_EXIT_OK;
}

static int run_panicinfo(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	uint8_t buf[256];
	json_object *j;
	int ret = ec_client_panicinfo(c, buf, sizeof(buf));

	if (ret < 0)
		return report_cmd(o, out, err, "panicinfo", ret);
	if (o->json) {
		j = json_object_new_object();
		jadd_bool(j, "panic", ret != 0);
		jadd(j, "data", jhex(buf, (size_t)ret));
		return emit(out, err, j);
	}
	if (!ret) {
		fprintf(out, "No panic data.\n");
	} else {
		fprintf(out, "Panic data (%d bytes):\n", ret);
		hex_dump(out, buf, (size_t)ret);
	}
	return ECCTL_EXIT_OK;
}

static int run_usbpd_ports(struct ec_client *c, const struct ecctl_opts *o, FILE *out,
			   FILE *err)
{
	unsigned int ports;
	json_object *j;
	int ret = ec_client_usbpd_ports(c, &ports);

	if (ret)
		return report_cmd(o, out, err, "usbpd ports", ret);
	if (!o->json) {
		fprintf(out, "Number of USB PD ports: %u\n", ports);
		return ECCTL_EXIT_OK;
	}
	j = json_object_new_object();
	jadd_uint(j, "ports", ports);
	return emit(out, err, j);
}

static const char *pd_role_name(uint8_t role)
{
	static const char *const names[] = { "Disconnected", "SRC", "SNK", "SNK (not charging)" };

	return role < 4 ? names[role] : "unknown role";
}

static const char *pd_type_name(uint8_t type)
{
	static const char *const names[] = {
		"None", "PD", "Type-C", "Proprietary", "DCP", "CDP", "SDP", "Other", "VBUS",
		"Unknown",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "invalid";
}

static json_object *pd_power_json(const struct ec_info_pd_power *p)
{
	json_object *j = json_object_new_object();

	jadd_uint(j, "port", p->port);
	jadd_str(j, "role", pd_role_name(p->role));
	jadd_str(j, "type", pd_type_name(p->type));
	jadd_bool(j, "dualrole", p->dualrole);
	jadd_uint(j, "voltage_now_mv", p->voltage_now);
	jadd_uint(j, "voltage_max_mv", p->voltage_max);
	jadd_uint(j, "current_max_ma", p->current_max);
	jadd_uint(j, "current_lim_ma", p->current_lim);
	jadd_uint(j, "max_power_uw", p->max_power);
	return j;
}

static void pd_power_text(FILE *out, const struct ec_info_pd_power *p)
{
	fprintf(out, "Port %u: %s", p->port, pd_role_name(p->role));
	if (p->role == 0) {
		fputc('\n', out);
		return;
	}
	fprintf(out, " %s%s %umV / %umA, max %umV / %umA / %umW\n", pd_type_name(p->type),
		p->dualrole ? " DRP" : "", p->voltage_now, p->current_lim, p->voltage_max,
		p->current_max, p->max_power / 1000);
}

static int run_usbpd_power(struct ec_client *c, const struct ecctl_opts *o, FILE *out,
			   FILE *err)
{
	json_object *j = NULL, *list = NULL;
	struct ec_info_pd_power p;
	unsigned int ports = 1, port, first = 0, last = 0;
	int ret = 0, status;

	if (o->port >= 0) {
		first = last = (unsigned int)o->port;
	} else {
		ret = ec_client_usbpd_ports(c, &ports);
		if (ret)
			return report_cmd(o, out, err, "usbpd ports", ret);
		last = ports ? ports - 1 : 0;
	}
	if (o->json) {
		j = json_object_new_object();
		list = json_object_new_array();
		jadd(j, "ports", list);
	} else if (!ports) {
		fprintf(out, "No USB PD ports\n");
	}
	for (port = first; ports && port <= last; port++) {
		ret = ec_client_usbpd_power(c, (uint8_t)port, &p);
		if (ret)
			break;
		if (o->json)
			json_object_array_add(list, pd_power_json(&p));
		else
			pd_power_text(out, &p);
	}
	/* The ports read before a failure are still printed. */
	status = o->json ? emit(out, err, j) : ECCTL_EXIT_OK;
	return ret ? report_cmd(o, out, err, "usbpd power", ret) : status;
}

static int run_raw(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	size_t resp_len = ec_client_max_response(c);
	int status = ECCTL_EXIT_OK;
	uint32_t result;
	json_object *j;
	uint8_t *resp;
	int ret;

	resp = malloc(resp_len ? resp_len : 1);
	if (!resp)
		return report_cmd(o, out, err, "raw", -ENOMEM);
	ret = ec_client_xcmd(c, o->host_cmd, o->host_ver, o->raw_req, o->raw_len, resp,
			     resp_len, &result);
	if (ret < 0) {
		free(resp);
		return report_cmd(o, out, err, "raw", ret);
	}
	if (o->json) {
		j = json_object_new_object();
		jadd_uint(j, "result", result);
		jadd_str(j, "result_name", ec_result_name(result));
		jadd(j, "data", jhex(resp, (size_t)ret));
		status = emit(out, err, j);
	} else {
		fprintf(out, "Result: %u (%s)\nResponse (%d bytes):\n", result,
			ec_result_name(result), ret);
		hex_dump(out, resp, (size_t)ret);
	}
	free(resp);
	/* An EC-level refusal is still a failed command for the caller's script. */
	if (status == ECCTL_EXIT_OK && result != EC_RES_SUCCESS)
		status = ECCTL_EXIT_DEVICE;
	return status;
}
int ecctl_run(struct ec_client *c, const struct ecctl_opts *opts, FILE *out, FILE *err)
{
	switch (opts->command) {
	case ECCTL_CMD_HELLO:
		return run_hello(c, opts, out, err);
	case ECCTL_CMD_VERSION:
		return run_version(c, opts, out, err);
	case ECCTL_CMD_CHIPINFO:
		return run_chipinfo(c, opts, out, err);
	case ECCTL_CMD_PROTOINFO:
		return run_protoinfo(c, opts, out, err);
	case ECCTL_CMD_CMDVERSIONS:
		return run_cmdversions(c, opts, out, err);
	case ECCTL_CMD_BATTERY:
		return run_battery(c, opts, out, err);
	case ECCTL_CMD_TEMPS:
		return run_temps(c, opts, out, err);
	case ECCTL_CMD_FANS:
		return run_fans(c, opts, out, err);
	case ECCTL_CMD_CONSOLE:
		return run_console(c, opts, out, err);
	case ECCTL_CMD_EVENTS:
		return run_events(c, opts, out, err);
	case ECCTL_CMD_UPTIME:
		return run_uptime(c, opts, out, err);
	case ECCTL_CMD_PANICINFO:
		return run_panicinfo(c, opts, out, err);
	case ECCTL_CMD_KBLIGHT:
		return run_kblight(c, opts, out, err);
	case ECCTL_CMD_USBPD_PORTS:
		return run_usbpd_ports(c, opts, out, err);
	case ECCTL_CMD_USBPD_POWER:
		return run_usbpd_power(c, opts, out, err);
	case ECCTL_CMD_RAW:
		return run_raw(c, opts, out, err);
	case ECCTL_CMD_NONE:
		break;
	}
	fprintf(err, "ecctl: no command\n");
	return ECCTL_EXIT_USAGE;
}
