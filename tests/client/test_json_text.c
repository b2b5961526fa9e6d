// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_json_text.c - the same awkward strings through both programs' JSON
 * writers (ecctl's chipinfo over a fake device, hotplug_sim's report), the
 * output read back by json-c's parser: valid UTF-8 ("café") comes back as
 * the same text, a tab is escaped, a fixed-size field ends at its NUL, an
 * invalid byte becomes U+FFFD, and both programs write the same bytes.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <cros_ec/ec_commands.h>

#include "client/ec_client.h"
#include "client/ecctl_cli.h"
#include "hotplug_sim/hs.h"
#include "tests/client/fake_dev.h"
#include "../check_run.h"

/* "café", a tab, an invalid byte, then a NUL and text the JSON must not show. */
static const char awkward[] = "caf\xc3\xa9\t\xff\0hidden";
/* What a JSON parser must read back. */
static const char awkward_text[] = "caf\xc3\xa9\t\xef\xbf\xbd";
/* How both writers must spell it. */
static const char awkward_json[] = "\"caf\xc3\xa9\\t\xef\xbf\xbd\"";

static char *ecctl_chipinfo_json(const struct ec_response_get_chip_info *chip)
{
	char *argv[] = { (char *)"ecctl", (char *)"--json", (char *)"chipinfo", NULL };
	struct ec_client_error cerr;
	struct ec_client *c = NULL;
	struct canned_ec *canned = calloc(1, sizeof(*canned));
	struct fake_dev dev;
	struct ecctl_opts o;
	char err[160], *text = NULL;
	size_t len;
	FILE *out;

	ck_assert_ptr_nonnull(canned);
	canned_ec_init(canned);
	canned->chip = chip;
	fake_dev_init(&dev, &canned_backend, canned);
	ck_assert_int_eq(ec_client_attach(&fake_transport, &dev, 0, &cerr, &c), 0);
	ck_assert_int_eq(ecctl_parse_args(3, argv, &o, err, sizeof(err)), 0);
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(ecctl_run(c, &o, out, stderr), ECCTL_EXIT_OK);
	fclose(out);
	ec_client_close(c);
	fake_dev_destroy(&dev);
	free(canned);
	return text;
}

static char *hotplug_report_json(const char *device, size_t size)
{
	static const char *const roles[1] = { "client" };
	struct hs_client_counts counts[1] = { 0 };
	struct hs_config *cfg = calloc(1, sizeof(*cfg));
	struct hs_report rep = { 0 };
	char *text = NULL;
	size_t len;
	FILE *out;

	ck_assert_ptr_nonnull(cfg);
	hs_config_init(cfg);
	ck_assert_uint_le(size, sizeof(cfg->device));
	/* The command line would refuse this name; the report must cope anyway. */
	memcpy(cfg->device, device, size);
	rep.nclients = 1;
	rep.clients = counts;
	rep.roles = (const char **)roles;
	out = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(hs_report_json(&rep, cfg, out), 0);
	fclose(out);
	free(cfg);
	return text;
}

static const char *field(json_object *obj, const char *key)
{
	json_object *val;

	ck_assert_msg(json_object_object_get_ex(obj, key, &val), "no key '%s'", key);
	ck_assert_msg(json_object_is_type(val, json_type_string), "'%s' is no string", key);
	return json_object_get_string(val);
}

static json_object *parse(const char *text)
{
	json_object *obj = json_tokener_parse(text);

	ck_assert_msg(obj, "not JSON: %s", text);
	return obj;
}

START_TEST(same_text_through_both_writers)
{
	struct ec_response_get_chip_info chip;
	json_object *from_ecctl, *from_report;
	char *ecctl_out, *report_out;

	memset(&chip, 0, sizeof(chip));
	memcpy(chip.vendor, awkward, sizeof(awkward));
	strcpy(chip.name, "plain");
	/* 32 bytes and no NUL at all: the field's size ends the text. */
	memset(chip.revision, 'r', sizeof(chip.revision));

	ecctl_out = ecctl_chipinfo_json(&chip);
	report_out = hotplug_report_json(awkward, sizeof(awkward));
	from_ecctl = parse(ecctl_out);
	from_report = parse(report_out);

	ck_assert_str_eq(field(from_ecctl, "vendor"), awkward_text);
	ck_assert_str_eq(field(from_report, "device"), awkward_text);
	ck_assert_str_eq(field(from_ecctl, "name"), "plain");
	ck_assert_str_eq(field(from_ecctl, "revision"), "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr");
	ck_assert_msg(strstr(ecctl_out, awkward_json), "ecctl wrote: %s", ecctl_out);
	ck_assert_msg(strstr(report_out, awkward_json), "hotplug_sim wrote: %s", report_out);
	ck_assert_ptr_null(strstr(ecctl_out, "hidden"));
	ck_assert_ptr_null(strstr(report_out, "hidden"));

	json_object_put(from_ecctl);
	json_object_put(from_report);
	free(ecctl_out);
	free(report_out);
}
END_TEST

START_TEST(control_characters_escaped_alike)
{
	static const char controls[] = "\x01\"\\/\n\x1f\x7f";
	/* JSON's own escapes where it has them, \u00XX for the rest; '/' and DEL as is. */
	static const char escaped[] = "\"\\u0001\\\"\\\\/\\n\\u001f\x7f\"";
	struct ec_response_get_chip_info chip;
	const char *a, *b;
	char *ecctl_out, *report_out;

	memset(&chip, 0, sizeof(chip));
	memcpy(chip.vendor, controls, sizeof(controls));
	ecctl_out = ecctl_chipinfo_json(&chip);
	report_out = hotplug_report_json(controls, sizeof(controls));
	a = strstr(ecctl_out, "\"vendor\":") + strlen("\"vendor\":");
	b = strstr(report_out, "\"device\":") + strlen("\"device\":");
	ck_assert_msg(!strncmp(a, escaped, strlen(escaped)), "ecctl wrote %s", a);
	ck_assert_msg(!strncmp(b, escaped, strlen(escaped)), "hotplug_sim wrote %s", b);
	free(ecctl_out);
	free(report_out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json_text");
	TCase *tc = tcase_create("writers");

	tcase_add_test(tc, same_text_through_both_writers);
	tcase_add_test(tc, control_characters_escaped_alike);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
