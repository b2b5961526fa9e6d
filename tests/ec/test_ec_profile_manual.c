// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_profile_manual.c - cuse_ec-profile(5) says what the parser does:
 * every [section] and key of the parser's table has its item in the page
 * and every item names a real one; the FILES list is the shipped profiles;
 * the example parses; the diagnostics shown are the parser's own words.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"
#include "ec/ec_profile_keys.h"
#include "../check_run.h"

#define MANUAL		"ec/cuse_ec-profile.5"
#define MAX_LINES	2048

/* The page, one roff line an entry, "\-" read as "-". */
struct manual {
	char *line[MAX_LINES];
	size_t n;
};

static void manual_load(struct manual *m)
{
	char buf[1024];
	FILE *f = fopen(test_path(MANUAL), "r");

	ck_assert_msg(f, "cannot open %s", MANUAL);
	m->n = 0;
	while (fgets(buf, sizeof(buf), f)) {
		char *r, *w;

		ck_assert_msg(m->n < MAX_LINES, "%s is longer than the test expects", MANUAL);
		buf[strcspn(buf, "\n")] = '\0';
		for (r = w = buf; *r; r++, w++) {
			if (r[0] == '\\' && r[1] == '-')
				r++;
			*w = *r;
		}
		*w = '\0';
		m->line[m->n] = strdup(buf);
		ck_assert_ptr_nonnull(m->line[m->n]);
		m->n++;
	}
	fclose(f);
}

static void manual_free(struct manual *m)
{
	while (m->n)
		free(m->line[--m->n]);
}

/* The section of a ".SS [name] ..." line, or SEC_NONE. */
static enum section_id section_named(const char *ss, bool *found)
{
	enum section_id id;
	size_t len;

	*found = false;
	if (strncmp(ss, ".SS [", 5))
		return SEC_NONE;
	len = strcspn(ss + 5, "]");
	for (id = SEC_NONE + 1; id < SEC_COUNT; id++) {
		const char *name = ec_profile_sections[id].name;

		if (strlen(name) == len && !strncmp(ss + 5, name, len)) {
			*found = true;
			return id;
		}
	}
	return SEC_NONE;
}

/*
 * Every ".SS [section]" is a section of the table and every ".TP" + ".B key"
 * under it one of its keys; every section and key of the table is there.
 */
START_TEST(test_manual_lists_every_section_and_key)
{
	static bool documented[SEC_COUNT][64];
	bool section_seen[SEC_COUNT] = { false };
	enum section_id cur = SEC_NONE, id;
	struct manual m;
	size_t i, k, items = 0;

	manual_load(&m);
	for (i = 0; i < m.n; i++) {
		const char *l = m.line[i];
		bool found;

		if (!strncmp(l, ".SH", 3)) {
			cur = SEC_NONE;
		} else if (!strncmp(l, ".SS [", 5)) {
			cur = section_named(l, &found);
			ck_assert_msg(found, "%s: '%s' is no section of the format", MANUAL, l);
			ck_assert_msg(!section_seen[cur], "%s: [%s] twice", MANUAL,
				      ec_profile_sections[cur].name);
			section_seen[cur] = true;
		} else if (cur != SEC_NONE && !strcmp(l, ".TP") && i + 1 < m.n &&
			   !strncmp(m.line[i + 1], ".B ", 3)) {
			const struct section_desc *sd = &ec_profile_sections[cur];
			const char *key = m.line[i + 1] + 3;

			ck_assert_msg(sd->keys, "%s: [%s] takes lines, not keys, but lists '%s'",
				      MANUAL, sd->name, key);
			for (k = 0; k < sd->n_keys && strcmp(sd->keys[k].key, key); k++)
				;
			ck_assert_msg(k < sd->n_keys, "%s: [%s] has no key '%s'", MANUAL, sd->name,
				      key);
			ck_assert_uint_lt(k, 64);
			ck_assert_msg(!documented[cur][k], "%s: [%s] %s twice", MANUAL, sd->name, key);
			documented[cur][k] = true;
			items++;
		}
	}
	for (id = SEC_NONE + 1; id < SEC_COUNT; id++) {
		const struct section_desc *sd = &ec_profile_sections[id];

		ck_assert_msg(section_seen[id], "%s lacks the section [%s]", MANUAL, sd->name);
		for (k = 0; sd->keys && k < sd->n_keys; k++)
			ck_assert_msg(documented[id][k], "%s lacks [%s] %s", MANUAL, sd->name,
				      sd->keys[k].key);
	}
	ck_assert_uint_ge(items, 100);
	manual_free(&m);
}
END_TEST

/* FILES lists the shipped profiles: each one that ec/profiles/ holds. */
START_TEST(test_manual_files_are_the_shipped_profiles)
{
	static const char prefix[] = ".I /usr/share/cuse_ec/profiles/";
	char listed[16][64];
	size_t n_listed = 0, n_shipped = 0, i, j;
	bool in_files = false;
	struct manual m;
	struct dirent *de;
	DIR *d;

	manual_load(&m);
	for (i = 0; i < m.n; i++) {
		if (!strncmp(m.line[i], ".SH", 3))
			in_files = !strcmp(m.line[i], ".SH FILES");
		else if (in_files && !strncmp(m.line[i], prefix, sizeof(prefix) - 1)) {
			ck_assert_uint_lt(n_listed, 16);
			snprintf(listed[n_listed++], sizeof(listed[0]), "%s",
				 m.line[i] + sizeof(prefix) - 1);
		}
	}
	d = opendir(test_path("ec/profiles"));
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 9 || strcmp(de->d_name + len - 8, ".profile"))
			continue;
		for (j = 0; j < n_listed && strcmp(listed[j], de->d_name); j++)
			;
		ck_assert_msg(j < n_listed, "%s FILES lacks the shipped %s", MANUAL, de->d_name);
		n_shipped++;
	}
	closedir(d);
	ck_assert_msg(n_listed == n_shipped, "%s FILES lists %zu profiles, ec/profiles has %zu",
		      MANUAL, n_listed, n_shipped);
	manual_free(&m);
}
END_TEST

/* The text between ".nf" and ".fi" after the first line of @sh. */
static char *manual_block(const struct manual *m, const char *sh)
{
	size_t i, len = 0;
	bool in_sh = false, in_block = false;
	char *text = calloc(1, 8192);

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < m->n; i++) {
		const char *l = m->line[i];

		if (!strncmp(l, ".SH", 3))
			in_sh = !strcmp(l, sh);
		else if (in_sh && !strcmp(l, ".nf"))
			in_block = true;
		else if (in_block && !strcmp(l, ".fi"))
			return text;
		else if (in_block)
			len += (size_t)snprintf(text + len, 8192 - len, "%s\n", l);
		ck_assert_uint_lt(len, 8192);
	}
	ck_abort_msg("%s: no .nf block under %s", MANUAL, sh);
	return NULL;
}

START_TEST(test_manual_example_parses)
{
	struct ec_profile *prof = calloc(1, sizeof(*prof));
	char err[256] = "";
	struct manual m;
	char *text;

	manual_load(&m);
	text = manual_block(&m, ".SH EXAMPLES");
	ck_assert_ptr_nonnull(prof);
	ck_assert_msg(ec_profile_parse_text(text, "example", prof, err, sizeof(err)) == 0,
		      "%s's example: %s", MANUAL, err);
	ck_assert_str_eq(prof->board, "hotbox");
	ck_assert_uint_eq(prof->n_temps, 1);
	ck_assert_uint_eq(prof->temps[0].ambient_k, 55 + 273);
	ck_assert_uint_eq(prof->n_fans, 1);
	ck_assert(prof->has_battery);
	ck_assert_uint_eq(prof->latency_ns, 200000);
	free(prof);
	free(text);
	manual_free(&m);
}
END_TEST

/*
 * Each diagnostic the page shows, "NAME:LINE: MESSAGE", is what the parser
 * says for a profile whose line LINE is the line below (in its section,
 * after comments).
 */
START_TEST(test_manual_diagnostics_are_the_parsers)
{
	static const struct {
		const char *message;
		const char *section;
		const char *line;
	} cases[] = {
		{ "unknown key 'colour' in [ec]", "[ec]", "colour = red" },
		{ "invalid max_request_packet '8192': out of range 64..4096", "[protocol]",
		  "max_request_packet = 8192" },
	};
	struct ec_profile *prof = calloc(1, sizeof(*prof));
	struct manual m;
	size_t shown = 0, c;
	char *block, *l, *save = NULL;

	ck_assert_ptr_nonnull(prof);
	manual_load(&m);
	block = manual_block(&m, ".SH DIAGNOSTICS");
	for (l = strtok_r(block, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[64], text[4096], err[512] = "";
		unsigned int at, i;
		int used = 0;

		ck_assert_msg(sscanf(l, "%63[^:]:%u: %n", name, &at, &used) == 2 && used > 0,
			      "%s: '%s' is not NAME:LINE: MESSAGE", MANUAL, l);
		for (c = 0; c < sizeof(cases) / sizeof(cases[0]) &&
			    strcmp(cases[c].message, l + used); c++)
			;
		ck_assert_msg(c < sizeof(cases) / sizeof(cases[0]),
			      "%s shows a diagnostic this test cannot make: %s", MANUAL, l);
		ck_assert_uint_ge(at, 2);
		text[0] = '\0';
		for (i = 1; i < at - 1; i++)
			strcat(text, "# a comment\n");
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s\n%s\n",
			 cases[c].section, cases[c].line);
		ck_assert_int_eq(ec_profile_parse_text(text, name, prof, err, sizeof(err)),
				 -EINVAL);
		ck_assert_str_eq(err, l);
		shown++;
	}
	ck_assert_uint_eq(shown, sizeof(cases) / sizeof(cases[0]));
	free(prof);
	free(block);
	manual_free(&m);
}
END_TEST

static Suite *ec_profile_manual_suite(void)
{
	Suite *s = suite_create("ec_profile_manual");
	TCase *tc = tcase_create("manual");

	tcase_add_test(tc, test_manual_lists_every_section_and_key);
	tcase_add_test(tc, test_manual_files_are_the_shipped_profiles);
	tcase_add_test(tc, test_manual_example_parses);
	tcase_add_test(tc, test_manual_diagnostics_are_the_parsers);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_profile_manual_suite());
}
