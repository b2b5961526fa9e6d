/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chardev.h - the /dev/cros_ec file operations, without any libfuse in them.
 *
 * This is the seam between a front end (frontend.h: CUSE in frontend_cuse.c,
 * the device socket in sock_frontend.c) and the EC: the front end turns
 * each request into one call here and turns the answer back into a reply. Host tests drive the very same calls from many threads
 * with no kernel involved, which is how the sanitizers cover the daemon.
 *
 * Asynchronous completions (a parked blocking read, a poll wake-up) go back
 * to the front end through struct chardev_ops, so nothing here sleeps on a
 * reader's behalf.
 */
#ifndef CUSE_EC_CHARDEV_H
#define CUSE_EC_CHARDEV_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctl/ctl_stats.h"
#include "ec/ec.h"
#include "lifecycle.h"

struct ec_clock;
struct ec_profile;
struct chardev_ctx;
struct chardev_trace;
struct chardev_file;

/* read() never returns more than this: an MKBP event or the version text. */
#define CHARDEV_READ_MAX 512

/* poll() bits, the same values as <poll.h> on Linux. */
#define CHARDEV_POLLIN 0x001
#define CHARDEV_POLLERR 0x008
#define CHARDEV_POLLHUP 0x010
#define CHARDEV_POLLRDNORM 0x040

/* chardev_ioctl() flag: the caller is a 32-bit process (FUSE_IOCTL_COMPAT). */
#define CHARDEV_IOCTL_COMPAT 0x1

/* chardev_read() result: the read was parked; ops->read_complete() follows. */
#define CHARDEV_READ_PARKED 1

enum chardev_log_level {
	CHARDEV_LOG_ERR = 3,
	CHARDEV_LOG_WARNING = 4,
	CHARDEV_LOG_NOTICE = 5,
	CHARDEV_LOG_INFO = 6,
	CHARDEV_LOG_DEBUG = 7,
};

/**
 * struct chardev_ops - how the chardev reaches back into its front end.
 * @read_complete:    finish a parked read: @result is the byte count of
 *                    @data (>= 0) or -errno. Called exactly once per parked
 *                    read, never with chardev locks held.
 * @read_interrupted: optional; true when the request behind @token has
 *                    already been interrupted (checked just before parking)
 * @poll_notify:      wake the poller that registered @poll_handle
 * @poll_destroy:     forget a poll handle that was replaced or whose file
 *                    was released
 * @log:              optional; one message at a syslog-style level
 * @ctx:              passed to @log
 */
struct chardev_ops {
	void (*read_complete)(void *token, int result, const void *data, size_t len);
	bool (*read_interrupted)(void *token);
	void (*poll_notify)(void *poll_handle);
	void (*poll_destroy)(void *poll_handle);
	void (*log)(void *ctx, int level, const char *msg);
	void *ctx;
};

/**
 * enum chardev_unplug_wakeups - blocked readers and pollers at an unplug.
 * @CHARDEV_WAKEUPS_UPSTREAM: woken: a blocked read fails with ENODEV, poll
 *                            reports POLLERR (later upstream work; default)
 * @CHARDEV_WAKEUPS_V3:       left alone, as seed v3's fixed driver does: a
 *                            reader sleeps until a signal, poll answers 0
 */
enum chardev_unplug_wakeups {
	CHARDEV_WAKEUPS_UPSTREAM,
	CHARDEV_WAKEUPS_V3,
};

/**
 * chardev_unplug_wakeups_parse() - map "upstream" or "v3" to its value.
 * @name: the option's value
 * @out:  the value on success
 *
 * Return: 0, or -EINVAL for anything else (including NULL).
 */
int chardev_unplug_wakeups_parse(const char *name, enum chardev_unplug_wakeups *out);

/**
 * struct chardev_config - what a chardev context is made from.
 * @mode:    lifecycle mode for every EC instance
 * @profile: board profile for each new EC; borrowed, must outlive the context
 * @clock:   EC time source, NULL for real time; borrowed
 * @ops:     front-end callbacks (copied)
 * @log_level: messages above this level are dropped
 * @unplug_wakeups: what an unplug does to blocked readers and pollers in
 *           the revocable mode
 * @fault_seed: seeds the fault plan's draws (chardev_fault_plan()); 0: a
 *           fixed default, so runs repeat
 * @replay:  answers every EC gets before its model (ec_set_replay()), or
 *           NULL; borrowed, must outlive the context
 * @record:  where the session is recorded (the header written), or NULL;
 *           borrowed, flushed at each unplug and when the context goes
 * @record_format: the format of @record
 * @state_path: --state: the state file every plug loads (when it exists) and
 *           every unplug saves; borrowed; NULL for none
 */
struct chardev_config {
	enum lifecycle_mode mode;
	const struct ec_profile *profile;
	const struct ec_clock *clock;
	struct chardev_ops ops;
	int log_level;
	enum chardev_unplug_wakeups unplug_wakeups;
	uint64_t fault_seed;
	struct ec_replay *replay;
	FILE *record;
	enum ec_rec_format record_format;
	const char *state_path;
};

/* The result of one ioctl step (see chardev_ioctl()). */
enum chardev_ioctl_action {
	CHARDEV_IOCTL_REPLY,	/* return @ret, copy @out to the caller */
	CHARDEV_IOCTL_ERROR,	/* fail with errno -@ret */
	CHARDEV_IOCTL_RETRY,	/* fetch @in_iov, provide @out_iov, call again */
};

/**
 * struct chardev_iov - a range of the caller's memory for the retry protocol.
 * @base: caller's address
 * @len:  bytes
 */
struct chardev_iov {
	uint64_t base;
	size_t len;
};

/**
 * struct chardev_ioctl_result - the answer of chardev_ioctl().
 * @action:   what the front end must do
 * @ret:      REPLY: ioctl return value (>= 0); ERROR: -errno
 * @in_iov:   RETRY: what to copy in (@in_count 0 or 1)
 * @out_iov:  RETRY: what the reply will fill (@out_count 0 or 1)
 * @in_count: number of valid @in_iov
 * @out_count: number of valid @out_iov
 * @out:      REPLY: bytes to copy back (malloc'ed; chardev_ioctl_result_free())
 * @out_len:  REPLY: length of @out
 */
struct chardev_ioctl_result {
	enum chardev_ioctl_action action;
	int ret;
	struct chardev_iov in_iov;
	struct chardev_iov out_iov;
	unsigned int in_count;
	unsigned int out_count;
	void *out;
	size_t out_len;
};

/**
 * chardev_ctx_create() - make a daemon context with no EC plugged in.
 * @config: mode, profile, clock, callbacks
 * @out:    the context
 *
 * Return: 0, -EINVAL for a bad config, or -ENOMEM.
 */
int chardev_ctx_create(const struct chardev_config *config, struct chardev_ctx **out);

/**
 * chardev_ctx_destroy() - free a context.
 * @ctx: the context; NULL is ignored. An EC still plugged is unplugged and
 *       files still open are released (no file operation may run any more).
 *
 * Waits for unplugs still completing (an async unplug completes when its
 * last reader leaves).
 */
void chardev_ctx_destroy(struct chardev_ctx *ctx);

/**
 * chardev_plug() - create a fresh EC instance and make it current.
 * @ctx: context
 *
 * Return: 0, -EBUSY when an EC is already present (or its unplug is being
 * started), or -errno from the EC.
 */
int chardev_plug(struct chardev_ctx *ctx);

/**
 * chardev_unplug() - the current EC goes away; waits until it is gone.
 * @ctx: context
 *
 * Revocable mode: returns after every in-flight command has finished; blocked
 * readers get ENODEV and pollers POLLERR, unless the configuration asks for
 * the seed's CHARDEV_WAKEUPS_V3. Must not be called from inside a file
 * operation.
 *
 * Blocked readers are woken at once, not after the in-flight commands.
 *
 * Return: 0, -ENODEV when no EC is present, or -errno when the unplug failed
 * (the EC is then still present).
 */
int chardev_unplug(struct chardev_ctx *ctx);

/**
 * chardev_unplug_async() - start an unplug and return at once.
 * @ctx:  context
 * @done: called once the unplug is over (possibly in another thread,
 *        possibly before this returns) with @arg and its result: 0 when the
 *        EC is gone, -errno when it failed; may be NULL
 * @arg:  passed to @done
 *
 * Blocked readers and pollers, where the mode wakes them, are woken before
 * this returns.
 *
 * The revoke starts before any waiter is woken, so a woken reader's next
 * call already gets ENODEV.
 *
 * Return: 0, -ENODEV when no EC is present, or -errno when the unplug could
 * not start (the EC is then still present and @done is not called).
 */
int chardev_unplug_async(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
			 void *arg);

/**
 * chardev_shutdown_begin() - daemon exit, first step: start the unplug
 * and wake every waiter in every mode (readers ENODEV, pollers POLLERR),
 * returning at once; commands in flight finish on their own.
 * @ctx:  context
 * @done: called with @arg and the unplug's result once no command reaches
 *        the EC any more (maybe in another thread, maybe before this
 *        returns); may be NULL
 * @arg:  passed to @done
 *
 * Return: 0, or -ENODEV when no EC was present (@done is then not called).
 */
int chardev_shutdown_begin(struct chardev_ctx *ctx, void (*done)(void *arg, int result),
			   void *arg);

/**
 * chardev_shutdown() - daemon exit: unplug (sync) and wake every waiter in
 * every mode, so no request stays parked.
 * @ctx: context
 */
void chardev_shutdown(struct chardev_ctx *ctx);

/**
 * chardev_is_plugged() - whether an EC is present.
 * @ctx: context
 *
 * Return: true while plugged.
 */
bool chardev_is_plugged(struct chardev_ctx *ctx);

/**
 * chardev_mode() - the context's lifecycle mode.
 * @ctx: context
 *
 * Return: the mode.
 */
enum lifecycle_mode chardev_mode(const struct chardev_ctx *ctx);

/**
 * chardev_stats() - a snapshot of the counters.
 * @ctx: context
 * @out: the snapshot
 */
void chardev_stats(struct chardev_ctx *ctx, struct chardev_stats *out);

/**
 * chardev_stat_inc() - count one event the context does not see itself
 * (the uevent monitor's outcomes).
 * @ctx:  context
 * @stat: which counter (CHARDEV_STAT_uevents_seen, ...)
 */
void chardev_stat_inc(struct chardev_ctx *ctx, enum chardev_stat stat);

/**
 * chardev_trace() - the context's lifecycle event log (chardev_trace.h):
 * every open, release, file access, parked read and its wake-up, unplug
 * (revoke) and plug, numbered in the order they happened.
 * @ctx: context
 *
 * Return: the log; it lives as long as @ctx.
 */
struct chardev_trace *chardev_trace(struct chardev_ctx *ctx);

/**
 * chardev_trace_uevent() - record a uevent the daemon acts on, ahead of the
 * unplug or plug it causes.
 * @ctx:    context
 * @action: CHARDEV_TRACE_UEVENT_ADD, _REMOVE or _OTHER
 * @seqnum: the uevent's SEQNUM, 0 if it had none
 */
void chardev_trace_uevent(struct chardev_ctx *ctx, unsigned int action,
			  unsigned long long seqnum);

/**
 * chardev_set_operator_hold() - record that the operator unplugged the EC.
 * @ctx:  context
 * @hold: true on the control socket's "unplug", false on its "plug"
 *
 * While held, uevent "add"s (coldplug replays such as `udevadm trigger
 * --action=add`, synthetic adds) leave the EC unplugged: only the operator
 * plugs it back.
 */
void chardev_set_operator_hold(struct chardev_ctx *ctx, bool hold);

/**
 * chardev_operator_hold() - whether an operator's unplug is in force.
 * @ctx: context
 *
 * Return: true between the control socket's "unplug" and its "plug".
 */
bool chardev_operator_hold(struct chardev_ctx *ctx);

/**
 * chardev_with_ec() - run @fn on the current EC (control commands).
 * @ctx: context
 * @fn:  called with the EC inside an access; its return is passed through
 * @arg: passed to @fn
 *
 * Return: @fn's return, or -ENODEV when no EC is present.
 */
int chardev_with_ec(struct chardev_ctx *ctx, int (*fn)(struct ec *ec, void *arg), void *arg);

/**
 * chardev_state_save() - save the current EC's state to the --state file
 * (ec_state_save_file(): atomically).
 * @ctx:    context
 * @len:    the bytes written
 * @err:    on failure, why
 * @errlen: size of @err
 *
 * Return: 0, -EDESTADDRREQ without a --state file, -ENODEV when no EC is
 * present, or the -errno of the save with @err filled in.
 */
int chardev_state_save(struct chardev_ctx *ctx, size_t *len, char *err, size_t errlen);

/**
 * chardev_state_load() - load the --state file into the current EC
 * (ec_state_load_file(): all or nothing).
 * @ctx:    context
 * @err:    on failure, why
 * @errlen: size of @err
 *
 * Return: the fields loaded, -EDESTADDRREQ without a --state file, -ENODEV
 * when no EC is present, or the -errno of the load with @err filled in.
 */
int chardev_state_load(struct chardev_ctx *ctx, char *err, size_t errlen);

/**
 * chardev_fault_plan() - the device's fault plan: every EC plugged in
 * draws from it, so its rules (and their injections left) outlive a
 * replug. Add and clear rules with ec_fault_plan_add() and the like.
 * @ctx: context
 *
 * Return: the plan; it lives as long as @ctx.
 */
struct ec_fault_plan *chardev_fault_plan(struct chardev_ctx *ctx);

/**
 * chardev_set_latency() - host-command latency for this EC and later ones.
 * @ctx: context
 * @ns:  nanoseconds spent inside the EC per command (0: the profile's)
 *
 * Return: 0, or -ENODEV when no EC is present (the value is kept for the
 * next plug anyway).
 */
int chardev_set_latency(struct chardev_ctx *ctx, uint64_t ns);

/**
 * chardev_open_files() - number of files currently open.
 * @ctx: context
 *
 * Return: the count.
 */
uint64_t chardev_open_files(struct chardev_ctx *ctx);

/**
 * chardev_log() - log through the front end (printf-style).
 * @ctx:   context
 * @level: CHARDEV_LOG_*
 * @fmt:   format
 */
void chardev_log(struct chardev_ctx *ctx, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * chardev_open() - open(): attach the new file to the current EC.
 * @ctx: context
 * @out: the file
 *
 * Return: 0, -ENODEV when no EC is present (or it vanished meanwhile), -ENOMEM.
 */
int chardev_open(struct chardev_ctx *ctx, struct chardev_file **out);

/**
 * chardev_release() - close(): always succeeds; frees the file. Any read
 * still parked on it is completed with -EBADF first.
 * @file: the file
 */
void chardev_release(struct chardev_file *file);

/**
 * chardev_read() - read(): version text, or one MKBP event once a mask is set.
 * @file:     the file
 * @len:      caller's buffer size
 * @nonblock: O_NONBLOCK is set on the file
 * @token:    identifies the request if it must be parked (passed back to
 *            ops->read_complete() and ops->read_interrupted())
 * @buf:      at least CHARDEV_READ_MAX bytes; receives the data
 * @outlen:   bytes placed in @buf on success
 *
 * Events already queued for the file are delivered whether or not the EC
 * is still there, as in the kernel.
 *
 * Return: 0 with @outlen set; CHARDEV_READ_PARKED when it will complete
 * later through ops->read_complete(); -EAGAIN (nonblock, no event), -EINTR
 * (already interrupted), -ENODEV (the version text, or a blocking read of
 * an empty queue, when the EC is gone and the mode says so), other -errno.
 */
int chardev_read(struct chardev_file *file, size_t len, bool nonblock, void *token,
		 void *buf, size_t *outlen);

/**
 * chardev_read_cancel() - the request behind @token was interrupted.
 * @ctx:   context
 * @token: as given to chardev_read()
 *
 * If that read is still parked, it is completed with -EINTR now; otherwise
 * nothing happens (it completed already). Safe from any thread.
 */
void chardev_read_cancel(struct chardev_ctx *ctx, void *token);

/**
 * chardev_poll() - poll(): readiness, and remember who to wake.
 * @file:        the file
 * @poll_handle: the front end's handle to notify later, or NULL; the chardev
 *               owns it from now on (ops->poll_destroy())
 *
 * Touches only the file's own state, like the kernel's poll.
 *
 * Return: CHARDEV_POLLIN|CHARDEV_POLLRDNORM when an event is queued, plus
 * CHARDEV_POLLERR when the EC is gone and the mode wakes waiters (or the
 * daemon is exiting); else 0.
 */
unsigned int chardev_poll(struct chardev_file *file, void *poll_handle);

/**
 * chardev_ioctl() - one step of an ioctl under CUSE's retry protocol.
 * @file:    the file
 * @cmd:     ioctl number (compare as unsigned: XCMD is negative as an int)
 * @arg:     the caller's argument (an address, or EVENTMASK's value)
 * @flags:   CHARDEV_IOCTL_COMPAT for 32-bit callers (same layouts: accepted)
 * @in:      bytes fetched so far from the caller (per the last RETRY)
 * @in_len:  their count
 * @out_len: room the caller provided for the reply (per the last RETRY)
 * @res:     what to do next; free with chardev_ioctl_result_free()
 *
 * XCMD: header first (RETRY 20 in), then RETRY 20+outsize in / 20+insize
 * out, then the command. READMEM: RETRY 264 in/out, then the read.
 * EVENTMASK: immediate. Anything else, including the v1 numbers: ENOTTY.
 */
void chardev_ioctl(struct chardev_file *file, unsigned int cmd, uint64_t arg,
		   unsigned int flags, const void *in, size_t in_len, size_t out_len,
		   struct chardev_ioctl_result *res);

/**
 * chardev_ioctl_result_free() - free what chardev_ioctl() allocated (the reply buffer).
 * @res: the result
 */
void chardev_ioctl_result_free(struct chardev_ioctl_result *res);

#endif /* CUSE_EC_CHARDEV_H */
