// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * harness.c - fake front end and fake kernel for chardev host tests.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ec/ec.h"
#include "harness.h"

static void harness_read_complete(void *token, int result, const void *data, size_t len)
{
	struct fake_read *r = token;

	pthread_mutex_lock(&r->lock);
	r->completions++;
	r->result = result;
	if (result > 0)
		memcpy(r->data, data, len);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static bool harness_read_interrupted(void *token)
{
	struct fake_read *r = token;
	bool ret;

	pthread_mutex_lock(&r->lock);
	ret = r->interrupted;
	pthread_mutex_unlock(&r->lock);
	return ret;
}

static void harness_poll_notify(void *handle)
{
	__atomic_fetch_add(&((struct fake_poll *)handle)->notified, 1, __ATOMIC_SEQ_CST);
}

static void harness_poll_destroy(void *handle)
{
	__atomic_fetch_add(&((struct fake_poll *)handle)->destroyed, 1, __ATOMIC_SEQ_CST);
}

struct chardev_ops harness_ops(void)
{
	struct chardev_ops ops = {
		.read_complete = harness_read_complete,
		.read_interrupted = harness_read_interrupted,
		.poll_notify = harness_poll_notify,
		.poll_destroy = harness_poll_destroy,
	};

	return ops;
}


static int harness_ctx_make(enum lifecycle_mode mode, const struct ec_clock *clock,
			    enum chardev_unplug_wakeups wakeups, const char *state_path,
			    struct chardev_ctx **out)
{
	struct chardev_config config = { .unplug_wakeups = wakeups };
	struct ec_profile *profile;

	ck_assert_int_eq(ec_profile_default(&profile), 0);
	config.mode = mode;
	config.profile = profile;
	config.clock = clock;
	config.ops = harness_ops();
	config.log_level = 0;
	config.state_path = state_path;
	ck_assert_int_eq(chardev_ctx_create(&config, out), 0);
	return chardev_plug(*out);
}

static struct chardev_ctx *harness_ctx_with(enum lifecycle_mode mode,
					    const struct ec_clock *clock,
					    enum chardev_unplug_wakeups wakeups)
{
	struct chardev_ctx *ctx;

	ck_assert_int_eq(harness_ctx_make(mode, clock, wakeups, NULL, &ctx), 0);
	return ctx;
}

int harness_ctx_state(enum lifecycle_mode mode, const char *state_path,
		      struct chardev_ctx **out)
{
	return harness_ctx_make(mode, NULL, CHARDEV_WAKEUPS_UPSTREAM, state_path, out);
}

struct chardev_ctx *harness_ctx(enum lifecycle_mode mode)
{
	return harness_ctx_clock(mode, NULL);
}

struct chardev_ctx *harness_ctx_clock(enum lifecycle_mode mode, const struct ec_clock *clock)
{
	return harness_ctx_with(mode, clock, CHARDEV_WAKEUPS_UPSTREAM);
}

struct chardev_ctx *harness_ctx_wakeups(enum lifecycle_mode mode,
					enum chardev_unplug_wakeups wakeups)
{
	return harness_ctx_with(mode, NULL, wakeups);
}

void harness_ctx_free(struct chardev_ctx *ctx)
{
	const struct ec_profile *profile = chardev_profile(ctx);

	chardev_ctx_destroy(ctx);
	ec_profile_free((struct ec_profile *)profile);
}

void fake_read_init(struct fake_read *r)
{
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
}

bool fake_read_wait(struct fake_read *r, int ms)
{
	struct timespec deadline;
	bool done;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->lock);
	while (!r->completions) {
		if (pthread_cond_timedwait(&r->cond, &r->lock, &deadline))
			break;
	}
	done = r->completions > 0;
	pthread_mutex_unlock(&r->lock);
	return done;
}

int do_read(struct chardev_ctx *ctx, struct chardev_file *file, void *buf, size_t len,
	    bool nonblock, int wait_ms)
{
	unsigned char tmp[CHARDEV_READ_MAX];
	struct fake_read r;
	size_t outlen = 0;
	int ret;

	fake_read_init(&r);
	ret = chardev_read(file, len, nonblock, &r, tmp, &outlen);
	if (ret == 0) {
		memcpy(buf, tmp, outlen);
		ret = (int)outlen;
		goto out;
	}
	if (ret != CHARDEV_READ_PARKED)
		goto out;
	if (!fake_read_wait(&r, wait_ms)) {
		/* Like a signal: the request must come back exactly once. */
		chardev_read_cancel(ctx, &r);
		ck_assert(fake_read_wait(&r, 5000));
		pthread_mutex_lock(&r.lock);
		ck_assert_int_eq(r.completions, 1);
		pthread_mutex_unlock(&r.lock);
		ret = r.result == -EINTR ? -ETIMEDOUT : r.result;
		goto out;
	}
	pthread_mutex_lock(&r.lock);
	ck_assert_int_eq(r.completions, 1);
	ret = r.result;
	if (ret > 0)
		memcpy(buf, r.data, (size_t)ret);
	pthread_mutex_unlock(&r.lock);
out:
	pthread_mutex_destroy(&r.lock);
	pthread_cond_destroy(&r.cond);
	return ret;
}

long do_ioctl(struct chardev_file *file, unsigned int cmd, void *arg, unsigned int flags)
{
	struct chardev_ioctl_result res;
	unsigned char *in = NULL;
	size_t in_len = 0, out_len = 0;
	long ret = -EIO;
	int round;

	/* The kernel gives up after a few retries; so does a sane server. */
	for (round = 0; round < 4; round++) {
		chardev_ioctl(file, cmd, (uintptr_t)arg, flags, in, in_len, out_len, &res);
		free(in);
		in = NULL;
		switch (res.action) {
		case CHARDEV_IOCTL_RETRY:
			ck_assert_uint_le(res.in_count, 1);
			ck_assert_uint_le(res.out_count, 1);
			in_len = res.in_count ? res.in_iov.len : 0;
			out_len = res.out_count ? res.out_iov.len : 0;
			if (in_len) {
				ck_assert_ptr_eq((void *)(uintptr_t)res.in_iov.base, arg);
				in = malloc(in_len);
				ck_assert_ptr_nonnull(in);
				memcpy(in, arg, in_len);
			}
			chardev_ioctl_result_free(&res);
			continue;
		case CHARDEV_IOCTL_REPLY:
			ck_assert_uint_le(res.out_len, out_len);
			if (res.out_len)
				memcpy(arg, res.out, res.out_len);
			ret = res.ret;
			chardev_ioctl_result_free(&res);
			return ret;
		case CHARDEV_IOCTL_ERROR:
			ck_assert_int_lt(res.ret, 0);
			chardev_ioctl_result_free(&res);
			return res.ret;
		}
	}
	ck_abort_msg("ioctl 0x%x still retrying after 4 rounds", cmd);
	return ret;
}

long do_xcmd(struct chardev_file *file, uint32_t command, uint32_t version,
	     const void *req, uint32_t outsize, void *resp, uint32_t insize, uint32_t *result)
{
	size_t room = outsize > insize ? outsize : insize;
	struct cros_ec_command_v2 *cmd;
	long ret;

	cmd = calloc(1, sizeof(*cmd) + room);
	ck_assert_ptr_nonnull(cmd);
	cmd->version = version;
	cmd->command = command;
	cmd->outsize = outsize;
	cmd->insize = insize;
	cmd->result = 0xff;
	if (outsize)
		memcpy(cmd->data, req, outsize);
	ret = do_ioctl(file, CROS_EC_DEV_IOCXCMD_V2, cmd, 0);
	if (ret >= 0) {
		if (result)
			*result = cmd->result;
		if (resp)
			memcpy(resp, cmd->data, (size_t)ret < insize ? (size_t)ret : insize);
	}
	free(cmd);
	return ret;
}

bool harness_child_report(void (*fn)(void *arg), void *arg, char *report, size_t room)
{
	int pipefd[2], status;
	size_t total = 0;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(pipefd[1], 2);
		fn(arg);
		_exit(0);
	}
	close(pipefd[1]);
	while (total + 1 < room && (n = read(pipefd[0], report + total, room - 1 - total)) > 0)
		total += (size_t)n;
	report[total] = '\0';
	close(pipefd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/**
 * harness_open() - open a file, failing the test if that fails.
 * @ctx: context
 *
 * Return: the file.
 */
struct chardev_file *harness_open(struct chardev_ctx *ctx)
{
	struct chardev_file *file = NULL;

	ck_assert_int_eq(chardev_open(ctx, &file), 0);
	return file;
}

/**
 * harness_hello() - HELLO through @file, its answer checked.
 * @file: the file
 *
 * Return: 4, -EBADMSG or -errno.
 */
long harness_hello(struct chardev_file *file)
{
	uint32_t in = 1, resp = 0, result = 0;
	long ret;

	ret = do_xcmd(file, EC_CMD_HELLO, 0, &in, sizeof(in), &resp, sizeof(resp), &result);
	if (ret == 4 && (result != EC_RES_SUCCESS || resp != in + EC_HELLO_MAGIC))
		return -EBADMSG;
	return ret;
}

/* @deadline: CLOCK_REALTIME, HARNESS_DEADLINE_MS from now. */
static void harness_deadline(struct timespec *deadline)
{
	clock_gettime(CLOCK_REALTIME, deadline);
	deadline->tv_sec += HARNESS_DEADLINE_MS / 1000;
}

bool harness_gate_pass(struct harness_gate *gate)
{
	struct timespec deadline;
	bool opened;

	harness_deadline(&deadline);
	pthread_mutex_lock(&gate->lock);
	/* Arrivals after one gave up waiting were not together: no opening. */
	if (++gate->arrived == gate->open_at && !gate->expired)
		gate->opened = true;
	pthread_cond_broadcast(&gate->cond);
	while (!gate->opened &&
	       pthread_cond_timedwait(&gate->cond, &gate->lock, &deadline) != ETIMEDOUT)
		;
	opened = gate->opened;
	if (!opened)
		gate->expired = true;
	pthread_mutex_unlock(&gate->lock);
	return opened;
}

bool harness_gate_wait_arrived(struct harness_gate *gate, int n)
{
	struct timespec deadline;
	bool arrived;

	harness_deadline(&deadline);
	pthread_mutex_lock(&gate->lock);
	while (gate->arrived < n &&
	       pthread_cond_timedwait(&gate->cond, &gate->lock, &deadline) != ETIMEDOUT)
		;
	arrived = gate->arrived >= n;
	pthread_mutex_unlock(&gate->lock);
	return arrived;
}

void harness_gate_open(struct harness_gate *gate)
{
	pthread_mutex_lock(&gate->lock);
	gate->opened = true;
	pthread_cond_broadcast(&gate->cond);
	pthread_mutex_unlock(&gate->lock);
}
