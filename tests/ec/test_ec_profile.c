// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ec_profile.c - board profile parsing: the shipped profiles, the
 * built-in default, and a directory of broken profiles, each of which
 * states the line and message its error must carry.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec_test_util.h"
#include "../check_run.h"

START_TEST(test_shipped_profiles)
{
	static const char *const files[] = {
		"ec/profiles/laptop.profile",
		"ec/profiles/usbc-dual.profile",
		"ec/profiles/minimal.profile",
	};
	struct ec_profile *p[3];
	char err[256];
	size_t i;

	for (i = 0; i < 3; i++)
		ck_assert_msg(ec_profile_load(test_path(files[i]), &p[i], err, sizeof(err)) == 0,
			      "%s", err);
	ck_assert_str_eq(p[0]->board, "laptop");
	ck_assert_uint_eq(p[0]->n_temps, 3);
	ck_assert_uint_eq(p[0]->n_fans, 1);
	ck_assert_uint_eq(p[0]->n_pd_ports, 2);
	ck_assert(p[0]->has_battery);
	ck_assert(p[0]->memmap_direct);
	ck_assert(p[0]->features[0] & (1u << EC_FEATURE_PWM_FAN));

	ck_assert_uint_eq(p[1]->n_pd_ports, 2);
	ck_assert_uint_eq(p[1]->n_temps, 4);
	ck_assert_uint_eq(p[1]->temps[0].ambient_k, 45 + 273);
	ck_assert_uint_eq(p[1]->latency_ns, 50000);
	ck_assert_uint_eq(p[1]->n_latency_rules, 1);
	ck_assert_str_eq(p[1]->passthru_version[1], "dual_pd_v1.0.5");
	ck_assert(p[1]->pd_ports[1].dp);
	ck_assert_uint_eq(p[1]->batt_full_mah, 6000);	/* defaults to design */

	ck_assert(!p[2]->memmap_direct);
	ck_assert(!p[2]->has_battery);
	ck_assert_uint_eq(p[2]->n_fans, 0);
	/*
	 * 18 listed, plus the commands of hardware it lacks: keyboard
	 * backlight (2), CBI (2), ADC (1), TRNG (1), battery (5), USB-A (1),
	 * SPI flash (1), motion sensors (1), side buttons (1), backlight
	 * switch (1).
	 */
	ck_assert_uint_eq(p[2]->n_disabled, 34);
	ck_assert(ec_profile_cmd_disabled(p[2], EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT));
	ck_assert(!ec_profile_cmd_disabled(p[0], EC_CMD_PWM_SET_KEYBOARD_BACKLIGHT));
	ck_assert_uint_eq(p[2]->current_image, EC_IMAGE_RO);
	for (i = 0; i < 3; i++)
		ec_profile_free(p[i]);
}
END_TEST

START_TEST(test_default_equals_laptop_file)
{
	struct ec_profile *builtin, *file;
	char err[256];

	ck_assert_int_eq(ec_profile_default(&builtin), 0);
	ck_assert_int_eq(ec_profile_load(test_path("ec/profiles/laptop.profile"), &file, err,
					 sizeof(err)), 0);
	ck_assert_mem_eq(builtin, file, sizeof(*file));
	ec_profile_free(builtin);
	ec_profile_free(file);
	ck_assert_int_eq(ec_profile_default(NULL), -EINVAL);
}
END_TEST

/* Reads "# expect-line: N" and "# expect-error: text" from a bad profile. */
static void read_expectation(const char *path, unsigned int *line, char *msg, size_t len)
{
	char buf[1024];
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	*line = 0;
	msg[0] = '\0';
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (!strncmp(buf, "# expect-line: ", 15))
			*line = (unsigned int)atoi(buf + 15);
		else if (!strncmp(buf, "# expect-error: ", 16))
			snprintf(msg, len, "%s", buf + 16);
	}
	fclose(f);
	ck_assert_msg(*line && msg[0], "%s lacks its expectation header", path);
}

START_TEST(test_bad_profiles_directory)
{
	char dir[4096], path[4096 + 256], want_msg[1024], prefix[4096 + 300], err[1024];
	struct ec_profile *prof = NULL;
	struct dirent *de;
	unsigned int want_line, count = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s", test_path("tests/ec/bad-profiles"));
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 8 || strcmp(de->d_name + n - 8, ".profile"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		read_expectation(path, &want_line, want_msg, sizeof(want_msg));
		err[0] = '\0';
		ck_assert_msg(ec_profile_load(path, &prof, err, sizeof(err)) == -EINVAL,
			      "%s loaded", de->d_name);
		snprintf(prefix, sizeof(prefix), "%s:%u: ", path, want_line);
		ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s: got '%s', want prefix '%s'",
			      de->d_name, err, prefix);
		ck_assert_msg(strstr(err, want_msg), "%s: got '%s', want '%s'", de->d_name, err,
			      want_msg);
		count++;
	}
	closedir(d);
	ck_assert_uint_ge(count, 40);
}
END_TEST

static char *write_temp(const void *data, size_t len)
{
	static char name[64];
	int fd;

	snprintf(name, sizeof(name), "/tmp/ec_profile_test.XXXXXX");
	fd = mkstemp(name);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
	return name;
}

START_TEST(test_load_errors)
{
	struct ec_profile *prof = NULL;
	char err[512], want[128];
	char *big, *name;
	static const char with_nul[] = "[ec]\nboard = a\0b\n";

	ck_assert_int_eq(ec_profile_load("/nonexistent/x.profile", &prof, err, sizeof(err)),
			 -ENOENT);
	ck_assert_str_eq(err, "/nonexistent/x.profile: No such file or directory");
	ck_assert_int_eq(ec_profile_load(NULL, &prof, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(ec_profile_load("/dev/null", NULL, err, sizeof(err)), -EINVAL);
	/* A file that sets no key, empty or only comments and sections: refused. */
	{
		static const char *const nothing[] = { "", "# only a comment\n\n", "[ec]\n[flash]\n" };

		for (size_t i = 0; i < sizeof(nothing) / sizeof(nothing[0]); i++) {
			name = write_temp(nothing[i], strlen(nothing[i]));
			ck_assert_int_eq(ec_profile_load(name, &prof, err, sizeof(err)), -EINVAL);
			snprintf(want, sizeof(want), "%s: sets no key: a board needs at least one "
				 "(start from a shipped profile, e.g. laptop)", name);
			ck_assert_str_eq(err, want);
			unlink(name);
		}
	}
	/* One key is a board: every other key keeps its default. */
	name = write_temp("[ec]\nboard = tiny\n", 18);
	ck_assert_int_eq(ec_profile_load(name, &prof, NULL, 0), 0);
	ck_assert_str_eq(prof->board, "tiny");
	ck_assert_uint_eq(prof->flash_size, 0);
	ec_profile_free(prof);
	unlink(name);

	big = malloc(70000);
	memset(big, '#', 70000);
	name = write_temp(big, 70000);
	ck_assert_int_eq(ec_profile_load(name, &prof, err, sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: larger than 65536 bytes", name);
	ck_assert_str_eq(err, want);
	unlink(name);
	free(big);

	name = write_temp(with_nul, sizeof(with_nul) - 1);
	ck_assert_int_eq(ec_profile_load(name, &prof, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte in line", name);
	ck_assert_str_eq(err, want);
	unlink(name);

	/* A tiny error buffer is filled, never overrun. */
	name = write_temp("[bad]\n", 6);
	memset(err, 'Z', sizeof(err));
	ck_assert_int_eq(ec_profile_load(name, &prof, err, 8), -EINVAL);
	ck_assert_uint_eq(err[7], '\0');
	ck_assert_uint_eq(err[8], 'Z');
	unlink(name);
}
END_TEST

START_TEST(test_value_forms)
{
	static const char text[] =
		"; a comment\n"
		"  [ec]  \n"
		"\tboard   =   spaced out  \n"
		"features = 2, 38, ,flash\n"
		"memmap_direct = off\n"
		"[temp]\nname = T\nambient = 300K\nwarn = 80C\n"
		"[latency]\ndefault = 2ms\n0x67 = 3s\n103 = 7us\n"
		"[faults]\nbusy = 0.000001\nin_progress = 0.5\ntimeout = 0\nseed = 0xFFFFFFFFFFFFFFFF\n"
		"[gpio]\nA = 0 in\nB = 1\n"
		"[state]\nlid = closed\nac = false\n"
		"[flash]\nsize = 64K\nwrite_block = 4\nerase_block = 0x1000\n";
	struct ec_profile prof;
	char err[256] = "";

	ck_assert_msg(ec_profile_parse_text(text, "t", &prof, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(prof.board, "spaced out");
	ck_assert_uint_eq(prof.features[0], (1u << 2) | (1u << EC_FEATURE_FLASH));
	ck_assert_uint_eq(prof.features[1], 1u << (EC_FEATURE_EFS2 - 32));
	ck_assert(!prof.memmap_direct);
	ck_assert_uint_eq(prof.temps[0].ambient_k, 300);
	ck_assert_uint_eq(prof.temps[0].thresh_k[EC_TEMP_THRESH_WARN], 353);
	ck_assert_uint_eq(prof.latency_ns, 2000000);
	ck_assert_uint_eq(prof.latency_rules[0].command, 0x67);
	ck_assert_uint_eq(prof.latency_rules[0].ns, 3000000000ull);
	ck_assert_uint_eq(prof.latency_rules[1].command, 103);
	ck_assert_uint_eq(prof.latency_rules[1].ns, 7000);
	ck_assert_uint_eq(prof.fault_busy_ppm, 1);
	ck_assert_uint_eq(prof.fault_in_progress_ppm, 500000);
	ck_assert_uint_eq(prof.fault_seed, UINT64_MAX);
	ck_assert_uint_eq(prof.n_gpios, 2);
	ck_assert(!prof.gpios[0].output);
	ck_assert(!prof.lid_open);
	ck_assert(!prof.ac_present);
	ck_assert(!prof.has_battery);
	ck_assert_uint_eq(prof.flash_size, 65536);
	ck_assert_uint_eq(prof.flash_erase_block, 4096);
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(16384);
	struct ec_profile prof;
	char err[256];
	int i;

	/* 32 GPIOs fit, the 33rd does not. */
	strcpy(text, "[gpio]\n");
	for (i = 0; i < 33; i++)
		sprintf(text + strlen(text), "G%d = 1\n", i);
	ck_assert_int_eq(ec_profile_parse_text(text, "g", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "g:34: too many GPIOs (max 32)");

	strcpy(text, "[latency]\n");
	for (i = 0; i < 17; i++)
		sprintf(text + strlen(text), "%d = 1us\n", i + 1);
	ck_assert_int_eq(ec_profile_parse_text(text, "l", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "l:18: too many latency rules (max 16)");

	strcpy(text, "[ec]\ndisable_commands = ");
	for (i = 0; i < 65; i++)
		sprintf(text + strlen(text), "%d,", i + 1);
	ck_assert_int_eq(ec_profile_parse_text(text, "d", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "d:2: too many disabled commands (max 64)");

	text[0] = '\0';
	for (i = 0; i < 25; i++)
		strcat(text, "[temp]\nname = t\nambient = 300\n");
	ck_assert_int_eq(ec_profile_parse_text(text, "t", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "t:73: too many [temp] sections (max 24)");

	text[0] = '\0';
	for (i = 0; i < 8; i++)
		strcat(text, "[led]\nid = power\n");
	ck_assert_int_eq(ec_profile_parse_text(text, "e", &prof, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "e:15: too many [led] sections (max 7)");
	free(text);
}
END_TEST

static Suite *ec_profile_suite(void)
{
	Suite *s = suite_create("ec_profile");
	TCase *tc = tcase_create("profile");

	tcase_add_test(tc, test_shipped_profiles);
	tcase_add_test(tc, test_default_equals_laptop_file);
	tcase_add_test(tc, test_bad_profiles_directory);
	tcase_add_test(tc, test_load_errors);
	tcase_add_test(tc, test_value_forms);
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run_suite(ec_profile_suite());
}
