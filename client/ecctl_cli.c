// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ecctl_cli.c - ecctl's command line and its commands' output, in ectool's
 * human form or as JSON.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cros_ec/ec_commands.h>

#include "client/ecctl_cli.h"
#include "common/common.h"

#define DEFAULT_DEVICE "cros_ec"
#define DEFAULT_EVENT_TIMEOUT_MS 10000

static int hex_digit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = (char)tolower((unsigned char)ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

int ecctl_parse_hex(const char *s, uint8_t *buf, size_t max, size_t *len)
{
	size_t n = 0;

	if (!s || !len)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (*s) {
		int hi, lo;

		if (*s == ' ' || *s == ':' || *s == ',') {
			s++;
			continue;
		}
		hi = hex_digit(s[0]);
		lo = hi < 0 ? -1 : hex_digit(s[1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		buf[n++] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	*len = n;
	return 0;
}

static const struct {
	const char *name;
	enum ecctl_command command;
	int min_args;
	int max_args;
} command_table[] = {
	{ "hello", ECCTL_CMD_HELLO, 0, 0 },
	{ "version", ECCTL_CMD_VERSION, 0, 0 },
	{ "chipinfo", ECCTL_CMD_CHIPINFO, 0, 0 },
	{ "protoinfo", ECCTL_CMD_PROTOINFO, 0, 0 },
	{ "cmdversions", ECCTL_CMD_CMDVERSIONS, 1, 1 },
	{ "battery", ECCTL_CMD_BATTERY, 0, 0 },
	{ "temps", ECCTL_CMD_TEMPS, 0, 0 },
	{ "fans", ECCTL_CMD_FANS, 0, 0 },
	{ "console", ECCTL_CMD_CONSOLE, 0, 0 },
	{ "events", ECCTL_CMD_EVENTS, 0, 3 },
	{ "uptime", ECCTL_CMD_UPTIME, 0, 0 },
	{ "panicinfo", ECCTL_CMD_PANICINFO, 0, 0 },
	{ "usbpd", ECCTL_CMD_USBPD_PORTS, 1, 2 },
	{ "raw", ECCTL_CMD_RAW, 2, 3 },
};

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Parse "--opt VALUE" or "--opt=VALUE"; *i moves past what was used. */
static int option_value(int argc, char *const argv[], int *i, const char *opt,
			const char **value)
{
	const char *arg = argv[*i];
	size_t len = strlen(opt);

	if (strncmp(arg, opt, len))
		return 0;
	if (arg[len] == '=') {
		*value = arg + len + 1;
		return 1;
	}
	if (arg[len])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*value = argv[++*i];
	return 1;
}

/* A command argument in [@min, @max], by the shared rules and message. */
static int arg_uint(const char *text, const char *what, uint32_t min, uint32_t max,
		    uint32_t *out, char *err, size_t errlen)
{
	uint64_t v;

	if (parse_uint(text, what, min, max, &v, err, errlen))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_command_args(const char *name, int nargs, char *const args[],
			      struct ecctl_opts *opts, char *err, size_t errlen)
{
	uint32_t v;
	int ret;

	switch (opts->command) {
	case ECCTL_CMD_CMDVERSIONS:
		return arg_uint(args[0], "command number", 0, 0xffff, &opts->host_cmd, err,
				errlen);
	case ECCTL_CMD_EVENTS:
		if (nargs > 0 && arg_uint(args[0], "event mask", 1, UINT32_MAX, &opts->event_mask,
					  err, errlen))
			return -EINVAL;
		if (nargs > 1) {
			if (arg_uint(args[1], "event count", 1, 100000, &v, err, errlen))
				return -EINVAL;
			opts->event_count = v;
		}
		if (nargs > 2) {
			if (!strcmp(args[2], "-1")) {
				opts->timeout_ms = -1;
			} else {
				/* Milliseconds, as ectool's waitevent takes them; -1 waits forever. */
				if (arg_uint(args[2], "timeout (ms, or -1)", 0, 86400000, &v, err,
					     errlen))
					return -EINVAL;
				opts->timeout_ms = (int)v;
			}
		}
		return 0;
	case ECCTL_CMD_USBPD_PORTS:
		if (!strcmp(args[0], "ports")) {
			if (nargs != 1)
				return bad(err, errlen, "usbpd ports takes no argument");
			return 0;
		}
		if (strcmp(args[0], "power"))
			return bad(err, errlen, "usbpd: unknown sub-command '%s' (ports, power)",
				   args[0]);
		opts->command = ECCTL_CMD_USBPD_POWER;
		if (nargs > 1) {
			if (arg_uint(args[1], "port", 0, 254, &v, err, errlen))
				return -EINVAL;
			opts->port = (int)v;
		}
		return 0;
	case ECCTL_CMD_RAW:
		if (arg_uint(args[0], "command number", 0, 0xffff, &opts->host_cmd, err, errlen) ||
		    arg_uint(args[1], "command version", 0, 31, &opts->host_ver, err, errlen))
			return -EINVAL;
		if (nargs > 2) {
			ret = ecctl_parse_hex(args[2], opts->raw_req, sizeof(opts->raw_req),
					      &opts->raw_len);
			if (ret == -E2BIG)
				return bad(err, errlen, "raw: more than %d request bytes",
					   ECCTL_RAW_MAX);
			if (ret)
				return bad(err, errlen,
					   "raw: bad hex bytes '%s' (pairs of hex digits)", args[2]);
		}
		return 0;
	default:
		(void)name;
		return 0;
	}
}

int ecctl_parse_args(int argc, char *const argv[], struct ecctl_opts *opts,
		     char *err, size_t errlen)
{
	const char *value;
	size_t k;
	int i, r;

	memset(opts, 0, sizeof(*opts));
	opts->device = DEFAULT_DEVICE;
	opts->event_mask = (1u << EC_MKBP_EVENT_COUNT) - 1;
	opts->event_count = 1;
	opts->timeout_ms = DEFAULT_EVENT_TIMEOUT_MS;
	opts->port = -1;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			opts->help = true;
			return 0;
		}
		if (!strcmp(arg, "-V") || !strcmp(arg, "--version")) {
			opts->version = true;
			return 0;
		}
		if (!strcmp(arg, "-j") || !strcmp(arg, "--json")) {
			opts->json = true;
			continue;
		}
		bool is_name = true;

		r = option_value(argc, argv, &i, "--name", &value);
		if (!r)
			r = option_value(argc, argv, &i, "-n", &value);
		if (!r) {
			is_name = false;
			r = option_value(argc, argv, &i, "--device", &value);
		}
		if (!r)
			r = option_value(argc, argv, &i, "-d", &value);
		if (r < 0)
			return bad(err, errlen, "option '%s' needs a value", arg);
		if (r > 0) {
			if (!*value)
				return bad(err, errlen, "option '%s' needs a non-empty value", arg);
			/* A name must be a bare name: the node lives directly under /dev. */
			if (is_name && strchr(value, '/'))
				return bad(err, errlen, "--name '%s' must not contain '/' (use --device)",
					   value);
			opts->device = value;
			opts->device_is_path = !is_name;
			continue;
		}
		return bad(err, errlen, "unknown option '%s'", arg);
	}

	if (i >= argc)
		return bad(err, errlen, "no command given (try --help)");
	for (k = 0; k < sizeof(command_table) / sizeof(command_table[0]); k++)
		if (!strcmp(argv[i], command_table[k].name))
			break;
	if (k == sizeof(command_table) / sizeof(command_table[0]))
		return bad(err, errlen, "unknown command '%s' (try --help)", argv[i]);

	opts->command = command_table[k].command;
	if (argc - i - 1 < command_table[k].min_args || argc - i - 1 > command_table[k].max_args)
		return bad(err, errlen, "%s: wrong number of arguments (try --help)", argv[i]);
	return parse_command_args(argv[i], argc - i - 1, argv + i + 1, opts, err, errlen);
}

void ecctl_usage(FILE *out, const char *prog)
{
	fprintf(out,
		"Usage: %s [--name NAME | --device PATH] [--json] COMMAND [ARGS]\n"
		"\n"
		"Talk to a ChromiumOS EC through its /dev/cros_ec character device.\n"
		"\n"
		"Options:\n"
		"  -n, --name NAME     device /dev/NAME (default cros_ec)\n"
		"  -d, --device PATH   device node path\n"
		"  -j, --json          JSON output\n"
		"  -h, --help          this text\n"
		"  -V, --version       program version\n"
		"\n"
		"Commands:\n"
		"  hello                       check the EC answers\n"
		"  version                     firmware versions and build info\n"
		"  chipinfo                    chip vendor, name, revision\n"
		"  protoinfo                   host protocol information\n"
		"  cmdversions CMD             supported versions of host command CMD\n"
		"  battery                     battery state\n"
		"  temps                       temperature sensors\n"
		"  fans                        fan speeds\n"
		"  console                     EC console log\n"
		"  events [MASK [N [MS]]]      read N MKBP events (MS per event; -1 = forever)\n"
		"  uptime                      EC uptime and AP resets\n"
		"  panicinfo                   saved panic record\n"
		"  usbpd ports                 number of USB-PD ports\n"
		"  usbpd power [PORT]          USB-PD power info\n"
		"  raw CMD VER [HEXBYTES]      send any host command\n"
		"\n"
		"Exit status: 0 success, 1 device or EC error, 2 usage error.\n",
		prog);
}

/* ---- output ---- */

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", out);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

static void hex_dump(FILE *out, const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		fprintf(out, "%02x%s", buf[i], (i % 16 == 15 || i + 1 == len) ? "\n" : " ");
}

static void json_hex(FILE *out, const uint8_t *buf, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++)
		fprintf(out, "%02x", buf[i]);
	fputc('"', out);
}

static int report(FILE *err, const char *what, int ret)
{
	char msg[96];

	fprintf(err, "ecctl: %s: %s\n", what, ec_client_strerror(ret, msg, sizeof(msg)));
	return ECCTL_EXIT_DEVICE;
}

static int run_hello(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	uint32_t in = 0xa0b0c0d0, got = 0;
	int ret = ec_client_hello(c, in, &got);

	if (ret == -EPROTO) {
		fprintf(err, "ecctl: hello: expected 0x%08x, got 0x%08x\n",
			in + EC_HELLO_MAGIC, got);
		return ECCTL_EXIT_DEVICE;
	}
	if (ret)
		return report(err, "hello", ret);
	if (o->json)
		fprintf(out, "{\"hello\":true,\"out_data\":%u}\n", got);
	else
		fprintf(out, "EC says hello!\n");
	return ECCTL_EXIT_OK;
}

static int run_version(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_version v;
	int ret = ec_client_get_version(c, &v);

	if (ret)
		return report(err, "version", ret);
	if (o->json) {
		fputs("{\"ro_version\":", out);
		json_string(out, v.ro);
		fputs(",\"rw_version\":", out);
		json_string(out, v.rw);
		fprintf(out, ",\"firmware_copy\":\"%s\",\"build_info\":",
			ec_client_image_name(v.current_image));
		json_string(out, v.build_info);
		fputs("}\n", out);
		return ECCTL_EXIT_OK;
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

	if (ret)
		return report(err, "chipinfo", ret);
	if (o->json) {
		fputs("{\"vendor\":", out);
		json_string(out, chip.vendor);
		fputs(",\"name\":", out);
		json_string(out, chip.name);
		fputs(",\"revision\":", out);
		json_string(out, chip.revision);
		fputs("}\n", out);
		return ECCTL_EXIT_OK;
	}
	fprintf(out, "Chip info:\n  vendor:    %s\n  name:      %s\n  revision:  %s\n",
		chip.vendor, chip.name, chip.revision);
	return ECCTL_EXIT_OK;
}

static int run_protoinfo(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_protocol p;
	int ret = ec_client_protoinfo(c, &p);
	int v;

	if (ret)
		return report(err, "protoinfo", ret);
	if (o->json) {
		fprintf(out, "{\"protocol_versions\":%u,\"max_request_packet\":%u,"
			"\"max_response_packet\":%u,\"flags\":%u}\n",
			p.protocol_versions, p.max_request_packet, p.max_response_packet, p.flags);
		return ECCTL_EXIT_OK;
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

	if (ret)
		return report(err, "cmdversions", ret);
	if (o->json)
		fprintf(out, "{\"command\":%u,\"version_mask\":%u}\n", o->host_cmd, mask);
	else
		fprintf(out, "Command 0x%04x supports version mask 0x%08x\n", o->host_cmd, mask);
	return ECCTL_EXIT_OK;
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

static int run_battery(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_battery b;
	int ret = ec_client_battery(c, &b);
	/* The extended strings of BATTERY_GET_STATIC win over the 8-byte map. */
	const char *mfgr, *model, *serial, *type;

	if (ret)
		return report(err, "battery", ret);
	mfgr = b.have_static ? b.st.manufacturer : b.manufacturer;
	model = b.have_static ? b.st.model : b.model;
	serial = b.have_static ? b.st.serial : b.serial;
	type = b.have_static ? b.st.type : b.type;

	if (o->json) {
		fprintf(out, "{\"present\":%s", b.present ? "true" : "false");
		if (b.present) {
			fputs(",\"manufacturer\":", out);
			json_string(out, mfgr);
			fputs(",\"model\":", out);
			json_string(out, model);
			fputs(",\"serial\":", out);
			json_string(out, serial);
			fputs(",\"chemistry\":", out);
			json_string(out, type);
			fprintf(out, ",\"design_capacity_mah\":%u,\"last_full_mah\":%u,"
				"\"design_voltage_mv\":%u,\"cycle_count\":%u,\"voltage_mv\":%u,"
				"\"current_ma\":%u,\"remaining_mah\":%u,\"flags\":%u",
				b.design_capacity, b.last_full, b.design_voltage, b.cycle_count,
				b.voltage, b.rate, b.remaining, b.flags);
			if (b.have_dynamic)
				fprintf(out, ",\"desired_voltage_mv\":%d,\"desired_current_ma\":%d",
					b.dyn.desired_voltage, b.dyn.desired_current);
		}
		fputs("}\n", out);
		return ECCTL_EXIT_OK;
	}
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
	struct ec_info_temps t;
	bool first = true;
	unsigned int i;
	int ret = ec_client_temps(c, &t);

	if (ret)
		return report(err, "temps", ret);
	if (o->json)
		fputs("{\"sensors\":[", out);
	else
		fprintf(out, "--sensor name-------- --temperature--\n");
	for (i = 0; i < t.count; i++) {
		uint8_t raw = t.sensor[i].raw;
		const char *status = ec_client_temp_status_name(raw);
		int kelvin = raw + EC_TEMP_SENSOR_OFFSET;

		if (raw == EC_TEMP_SENSOR_NOT_PRESENT)
			continue;
		if (o->json) {
			fprintf(out, "%s{\"id\":%u,\"name\":", first ? "" : ",", i);
			json_string(out, t.sensor[i].name);
			if (status) {
				fputs(",\"status\":", out);
				json_string(out, status);
			} else {
				fprintf(out, ",\"kelvin\":%d,\"celsius\":%d", kelvin, kelvin - 273);
			}
			fputc('}', out);
		} else if (status) {
			fprintf(out, "%-20s  sensor %u %s\n",
				*t.sensor[i].name ? t.sensor[i].name : "(unnamed)", i, status);
		} else {
			fprintf(out, "%-20s  %d K (= %d C)\n",
				*t.sensor[i].name ? t.sensor[i].name : "(unnamed)", kelvin,
				kelvin - 273);
		}
		first = false;
	}
	if (o->json)
		fputs("]}\n", out);
	return ECCTL_EXIT_OK;
}

static int run_fans(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_fans f;
	unsigned int i;
	int ret = ec_client_fans(c, &f);

	if (ret)
		return report(err, "fans", ret);
	if (o->json) {
		fputs("{\"fans\":[", out);
		for (i = 0; i < f.count; i++) {
			if (f.rpm[i] == EC_FAN_SPEED_STALLED_DEPRECATED)
				fprintf(out, "%s{\"id\":%u,\"stalled\":true}", i ? "," : "", i);
			else
				fprintf(out, "%s{\"id\":%u,\"rpm\":%u}", i ? "," : "", i, f.rpm[i]);
		}
		fputs("]}\n", out);
		return ECCTL_EXIT_OK;
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
	size_t len;
	char *text;
	int ret = ec_client_console(c, &text, &len);

	if (ret)
		return report(err, "console", ret);
	if (o->json) {
		fputs("{\"console\":", out);
		json_string(out, text);
		fputs("}\n", out);
	} else {
		fwrite(text, 1, len, out);
		if (len && text[len - 1] != '\n')
			fputc('\n', out);
	}
	free(text);
	return ECCTL_EXIT_OK;
}

static int run_events(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	uint8_t ev[64];
	unsigned int n;
	int ret;

	ret = ec_client_set_event_mask(c, o->event_mask);
	if (ret)
		return report(err, "events: EVENTMASK", ret);
	if (o->json)
		fputs("{\"events\":[", out);
	for (n = 0; n < o->event_count; n++) {
		ret = ec_client_read_event(c, ev, sizeof(ev), o->timeout_ms);
		if (ret < 0)
			break;
		if (o->json) {
			fprintf(out, "%s{\"type\":%u,\"data\":", n ? "," : "",
				ev[0] & EC_MKBP_EVENT_TYPE_MASK);
			json_hex(out, ev + 1, (size_t)ret - 1);
			fputc('}', out);
		} else {
			fprintf(out, "Event type %u (%d bytes):", ev[0] & EC_MKBP_EVENT_TYPE_MASK,
				ret - 1);
			for (int k = 1; k < ret; k++)
				fprintf(out, " %02x", ev[k]);
			fputc('\n', out);
		}
	}
	if (o->json)
		fputs("]}\n", out);
	if (ret < 0)
		return report(err, "events", ret);
	return ECCTL_EXIT_OK;
}

static int run_uptime(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	struct ec_info_uptime u;
	unsigned int i;
	int ret = ec_client_uptime(c, &u);

	if (ret)
		return report(err, "uptime", ret);
	if (o->json) {
		fprintf(out, "{\"uptime_ms\":%u,\"ap_resets\":%u,\"reset_flags\":%u}\n",
			u.time_since_ec_boot_ms, u.ap_resets_since_ec_boot, u.ec_reset_flags);
		return ECCTL_EXIT_OK;
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

static int run_panicinfo(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	uint8_t buf[256];
	int ret = ec_client_panicinfo(c, buf, sizeof(buf));

	if (ret < 0)
		return report(err, "panicinfo", ret);
	if (o->json) {
		fprintf(out, "{\"panic\":%s,\"data\":", ret ? "true" : "false");
		json_hex(out, buf, (size_t)ret);
		fputs("}\n", out);
	} else if (!ret) {
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
	int ret = ec_client_usbpd_ports(c, &ports);

	if (ret)
		return report(err, "usbpd ports", ret);
	if (o->json)
		fprintf(out, "{\"ports\":%u}\n", ports);
	else
		fprintf(out, "Number of USB PD ports: %u\n", ports);
	return ECCTL_EXIT_OK;
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

static void print_pd_power(FILE *out, const struct ec_info_pd_power *p, bool json, bool first)
{
	if (json) {
		fprintf(out, "%s{\"port\":%u,\"role\":\"%s\",\"type\":\"%s\",\"dualrole\":%s,"
			"\"voltage_now_mv\":%u,\"voltage_max_mv\":%u,\"current_max_ma\":%u,"
			"\"current_lim_ma\":%u,\"max_power_uw\":%u}",
			first ? "" : ",", p->port, pd_role_name(p->role), pd_type_name(p->type),
			p->dualrole ? "true" : "false", p->voltage_now, p->voltage_max,
			p->current_max, p->current_lim, p->max_power);
		return;
	}
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
	struct ec_info_pd_power p;
	unsigned int ports, port, first, last;
	int ret;

	if (o->port >= 0) {
		first = last = (unsigned int)o->port;
	} else {
		ret = ec_client_usbpd_ports(c, &ports);
		if (ret)
			return report(err, "usbpd ports", ret);
		if (!ports) {
			fprintf(out, o->json ? "{\"ports\":[]}\n" : "No USB PD ports\n");
			return ECCTL_EXIT_OK;
		}
		first = 0;
		last = ports - 1;
	}
	if (o->json)
		fputs("{\"ports\":[", out);
	for (port = first; port <= last; port++) {
		ret = ec_client_usbpd_power(c, (uint8_t)port, &p);
		if (ret) {
			if (o->json)
				fputs("]}\n", out);
			return report(err, "usbpd power", ret);
		}
		print_pd_power(out, &p, o->json, port == first);
	}
	if (o->json)
		fputs("]}\n", out);
	return ECCTL_EXIT_OK;
}

static int run_raw(struct ec_client *c, const struct ecctl_opts *o, FILE *out, FILE *err)
{
	size_t resp_len = ec_client_max_response(c);
	uint32_t result;
	uint8_t *resp;
	int ret;

	resp = malloc(resp_len ? resp_len : 1);
	if (!resp)
		return report(err, "raw", -ENOMEM);
	ret = ec_client_xcmd(c, o->host_cmd, o->host_ver, o->raw_req, o->raw_len, resp,
			     resp_len, &result);
	if (ret < 0) {
		free(resp);
		return report(err, "raw", ret);
	}
	if (o->json) {
		fprintf(out, "{\"result\":%u,\"result_name\":\"%s\",\"data\":", result,
			ec_result_name(result));
		json_hex(out, resp, (size_t)ret);
		fputs("}\n", out);
	} else {
		fprintf(out, "Result: %u (%s)\nResponse (%d bytes):\n", result,
			ec_result_name(result), ret);
		hex_dump(out, resp, (size_t)ret);
	}
	free(resp);
	/* An EC-level refusal is still a failed command for the caller's script. */
	return result == EC_RES_SUCCESS ? ECCTL_EXIT_OK : ECCTL_EXIT_DEVICE;
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
