// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_test_util.c - fake clock, EC construction and a guarded host-command
 * wrapper for the EC model's unit tests.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_test_util.h"

#define GUARD_BYTES 64
#define GUARD_FILL 0xA5

static uint64_t fake_now(void *ctx)
{
	return ((struct fake_clock *)ctx)->now;
}

static void fake_sleep(void *ctx, uint64_t ns)
{
	struct fake_clock *fc = ctx;

	fc->now += ns;
	fc->slept += ns;
}

void fake_clock_init(struct fake_clock *fc)
{
	fc->now = 1000 * NS_PER_S;
	fc->slept = 0;
	fc->clock.now_ns = fake_now;
	fc->clock.sleep_ns = fake_sleep;
	fc->clock.ctx = fc;
}

void fake_clock_advance(struct fake_clock *fc, uint64_t ns)
{
	fc->now += ns;
}

const char *test_path(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("top_srcdir");

	snprintf(buf, sizeof(buf), "%s/%s", top ? top : TOP_SRCDIR_FALLBACK, rel);
	return buf;
}

struct ec *make_ec_file(const char *profile_file, struct fake_clock *fc)
{
	struct ec_profile *prof = NULL;
	struct ec *ec = NULL;
	char err[256] = "";
	int ret;

	if (profile_file)
		ret = ec_profile_load(test_path(profile_file), &prof, err, sizeof(err));
	else
		ret = ec_profile_default(&prof);
	ck_assert_msg(ret == 0, "profile %s: %d %s", profile_file ? profile_file : "default",
		      ret, err);
	ret = ec_create(prof, fc ? &fc->clock : NULL, &ec);
	ck_assert_int_eq(ret, 0);
	ec_profile_free(prof);
	return ec;
}

struct ec *make_ec_text(const char *text, struct fake_clock *fc)
{
	struct ec_profile *prof = malloc(sizeof(*prof));
	struct ec *ec = NULL;
	char err[256] = "";
	int ret;

	ck_assert_ptr_nonnull(prof);
	ret = ec_profile_parse_text(text, "inline", prof, err, sizeof(err));
	ck_assert_msg(ret == 0, "inline profile: %s", err);
	ret = ec_create(prof, fc ? &fc->clock : NULL, &ec);
	ck_assert_int_eq(ret, 0);
	free(prof);
	return ec;
}

struct ec *make_ec_file_plus(const char *profile_file, const char *extra, struct fake_clock *fc)
{
	static char text[16384];
	FILE *f = fopen(test_path(profile_file), "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	ck_assert_uint_lt(n + strlen(extra) + 1, sizeof(text));
	snprintf(text + n, sizeof(text) - n, "\n%s", extra);
	return make_ec_text(text, fc);
}

/*
 * Every ck_assert*() records where it stands with a write() to Check's
 * channel, passing or not; hc() runs hundreds of thousands of times in
 * some tests (every command number, every version), so its checks call
 * into Check only when they fail.
 */
int hc(struct ec *ec, uint32_t cmd, uint32_t ver, const void *req, size_t req_len,
       void *resp, size_t resp_max, uint32_t *status)
{
	uint8_t *buf = malloc(resp_max + GUARD_BYTES);
	size_t i;
	int ret;

	if (!buf)
		ck_abort_msg("out of memory");
	memset(buf, GUARD_FILL, resp_max + GUARD_BYTES);
	ret = ec_host_command(ec, cmd, ver, req, req_len, buf, resp_max, status);
	for (i = resp_max; i < resp_max + GUARD_BYTES; i++)
		if (buf[i] != GUARD_FILL)
			ck_abort_msg("cmd 0x%x v%u wrote past resp_max %zu", cmd, ver, resp_max);
	if (ret > (int)resp_max)
		ck_abort_msg("cmd 0x%x v%u: %d bytes answered, at most %zu asked", cmd, ver, ret,
			     resp_max);
	if (ret > 0 && *status != EC_RES_SUCCESS)
		ck_abort_msg("cmd 0x%x v%u: %d bytes answered with status %u", cmd, ver, ret,
			     *status);
	if (resp && resp_max)
		memcpy(resp, buf, resp_max);
	free(buf);
	return ret;
}

uint32_t hc_status(struct ec *ec, uint32_t cmd, uint32_t ver, const void *req, size_t req_len,
		   void *resp, size_t resp_max, int *ret)
{
	uint32_t status;
	int r = hc(ec, cmd, ver, req, req_len, resp, resp_max, &status);

	if (ret)
		*ret = r;
	return status;
}

uint32_t status_on_board(const char *profile_file, uint32_t cmd, uint32_t ver, const void *req,
			 size_t req_len, size_t resp_max)
{
	struct fake_clock fc;
	struct ec *ec;
	uint32_t status;
	uint8_t *resp = resp_max ? malloc(resp_max) : NULL;

	ck_assert(!resp_max || resp);
	fake_clock_init(&fc);
	ec = make_ec_file(profile_file, &fc);
	hc(ec, cmd, ver, req, req_len, resp, resp_max, &status);
	ec_destroy(ec);
	free(resp);
	return status;
}

uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void test_listener_call(struct ec_notifier *nb, const struct ec_event *ev)
{
	struct test_listener *l = (struct test_listener *)((char *)nb -
				  offsetof(struct test_listener, nb));

	pthread_mutex_lock(&l->lock);
	l->calls++;
	if ((l->mask & (1u << ev->type)) && ec_event_queue_push(&l->q, ev) == 0)
		l->queued++;
	pthread_mutex_unlock(&l->lock);
	if (l->hook)
		l->hook(l, ev);
}

void test_listener_init(struct test_listener *l, uint32_t mask)
{
	memset(l, 0, sizeof(*l));
	l->nb.call = test_listener_call;
	pthread_mutex_init(&l->lock, NULL);
	ec_event_queue_init(&l->q);
	l->mask = mask;
}

int test_listener_pop(struct test_listener *l, void *buf, size_t len)
{
	int ret;

	pthread_mutex_lock(&l->lock);
	ret = ec_event_queue_pop(&l->q, buf, len);
	pthread_mutex_unlock(&l->lock);
	return ret;
}

unsigned int test_listener_calls(struct test_listener *l)
{
	unsigned int n;

	pthread_mutex_lock(&l->lock);
	n = l->calls;
	pthread_mutex_unlock(&l->lock);
	return n;
}

void test_listener_fini(struct test_listener *l)
{
	ec_event_queue_clear(&l->q);
	pthread_mutex_destroy(&l->lock);
}

const struct ec_cmd_entry *test_cmd_table(size_t *count)
{
	static struct ec_cmd_entry table[EC_CMDS_MAX];
	const struct ec_cmd_entry *sorted[EC_CMDS_MAX];
	size_t n = ec_cmd_table_fill(sorted, EC_CMDS_MAX), i;

	ck_assert_uint_le(n, EC_CMDS_MAX);
	for (i = 0; i < n; i++)
		table[i] = *sorted[i];
	*count = n;
	return table;
}

void check_doc_answered_list(struct ec *ec, const char *name)
{
	static char doc[96 * 1024];
	static bool listed[0x10000];
	const struct ec_cmd_entry *table;
	char marker[64], *start, *end, *p;
	size_t n, i, len;
	FILE *f = fopen(test_path("docs/ec-commands.md"), "r");

	ck_assert_ptr_nonnull(f);
	len = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	ck_assert_uint_lt(len, sizeof(doc) - 1);
	doc[len] = 0;
	snprintf(marker, sizeof(marker), "<!-- answered:%s -->", name);
	start = strstr(doc, marker);
	ck_assert_msg(start, "no %s in docs/ec-commands.md", marker);
	end = strstr(start, "<!-- end -->");
	ck_assert_ptr_nonnull(end);
	*end = 0;
	memset(listed, 0, sizeof(listed));
	for (p = strstr(start, "0x"); p; p = strstr(p + 2, "0x"))
		listed[strtoul(p, NULL, 16) & 0xFFFF] = true;
	table = test_cmd_table(&n);
	for (i = 0; i < n; i++) {
		uint16_t c = table[i].command;
		bool answered = ec_cmd_versions(ec, c) != 0;

		ck_assert_msg(answered == listed[c], "%s: 0x%04x: answered %d, listed %d", name, c,
			      answered, listed[c]);
		listed[c] = false;
	}
	for (i = 0; i < 0x10000; i++)
		ck_assert_msg(!listed[i], "%s: 0x%04zx listed but not a command", name, i);
}
