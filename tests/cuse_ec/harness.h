/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness.h - a fake front end and a fake kernel for driving the chardev
 * seam from host tests: no CUSE, no /dev, just threads.
 */
#ifndef TESTS_CUSE_EC_HARNESS_H
#define TESTS_CUSE_EC_HARNESS_H

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "chardev.h"
#include "chardev_testing.h"
#include "lifecycle_testing.h"

/**
 * struct fake_read - stands in for a CUSE read request.
 * @lock:        protects the fields below
 * @cond:        signalled on completion
 * @completions: times read_complete ran for it (must end up exactly 1)
 * @result:      bytes or -errno
 * @data:        the bytes
 * @interrupted: what read_interrupted() reports
 */
struct fake_read {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int completions;
	int result;
	unsigned char data[CHARDEV_READ_MAX];
	bool interrupted;
};

/**
 * struct fake_poll - stands in for a fuse_pollhandle.
 * @notified:  times poll_notify ran for it
 * @destroyed: times poll_destroy ran for it
 */
struct fake_poll {
	int notified;
	int destroyed;
};

/* How long a test waits for a condition: TSan on a loaded 2-core machine is slow, never this slow. */
#define HARNESS_DEADLINE_MS 20000

/* One counter, by name, from a fresh snapshot of @ctx's stats. */
#define STAT_NOW(ctx, name)							\
	({									\
		struct chardev_stats st_;					\
		chardev_stats((ctx), &st_);					\
		st_.name;							\
	})

/*
 * Wait until COND holds, polling what the daemon reports (never a sleep
 * standing in for an order); fail naming COND after HARNESS_DEADLINE_MS.
 */
#define WAIT_UNTIL(cond)							\
	do {									\
		int waited_ = 0;						\
		while (!(cond)) {						\
			ck_assert_msg(waited_ < HARNESS_DEADLINE_MS,		\
				      "condition not reached in %d ms: %s",	\
				      HARNESS_DEADLINE_MS, #cond);		\
			usleep(1000);						\
			waited_++;						\
		}								\
	} while (0)

/** harness_ops() - chardev_ops that complete fake_read / fake_poll objects. */
struct chardev_ops harness_ops(void);

/**
 * harness_ctx() - a context with the default profile, plugged in.
 * @mode: lifecycle mode
 *
 * Aborts the test on failure. Free with harness_ctx_free().
 */
struct chardev_ctx *harness_ctx(enum lifecycle_mode mode);

/**
 * harness_ctx_clock() - harness_ctx() with the EC time source @clock.
 * @mode:  lifecycle mode
 * @clock: borrowed; must outlive the context (NULL: real time)
 */
struct chardev_ctx *harness_ctx_clock(enum lifecycle_mode mode, const struct ec_clock *clock);

/**
 * harness_ctx_state() - a context with the default profile and the state
 * file @state_path (--state), then plugged.
 * @mode:       lifecycle mode
 * @state_path: borrowed; must outlive the context
 * @out:        the context, also when the plug failed
 *
 * Return: chardev_plug()'s result.
 */
int harness_ctx_state(enum lifecycle_mode mode, const char *state_path,
		      struct chardev_ctx **out);

/** harness_ctx_wakeups() - harness_ctx() with a chosen unplug wake-up behaviour. */
struct chardev_ctx *harness_ctx_wakeups(enum lifecycle_mode mode,
					enum chardev_unplug_wakeups wakeups);

/** harness_ctx_free() - destroy the context and the profile it uses. */
void harness_ctx_free(struct chardev_ctx *ctx);

/** fake_read_init() - a fresh, not yet completed request. */
void fake_read_init(struct fake_read *r);

/**
 * fake_read_wait() - wait up to @ms for the completion.
 * Return: true if completed in time.
 */
bool fake_read_wait(struct fake_read *r, int ms);

/**
 * do_read() - read() as the kernel would issue it, waiting for a parked one.
 * @file:     the file
 * @buf:      destination, at least @len bytes
 * @len:      bytes wanted
 * @nonblock: O_NONBLOCK
 * @wait_ms:  how long to wait if parked (then the read is cancelled)
 *
 * Return: bytes or -errno (-ETIMEDOUT when it stayed parked; it is cancelled).
 */
int do_read(struct chardev_ctx *ctx, struct chardev_file *file, void *buf, size_t len,
	    bool nonblock, int wait_ms);

/**
 * do_ioctl() - an ioctl as the kernel performs it for an unrestricted CUSE
 * ioctl: retries copy from/to @arg until the server replies.
 * @file:  the file
 * @cmd:   number
 * @arg:   the caller's memory (or the value, for EVENTMASK)
 * @flags: CHARDEV_IOCTL_COMPAT or 0
 *
 * Return: the ioctl's return value or -errno.
 */
long do_ioctl(struct chardev_file *file, unsigned int cmd, void *arg, unsigned int flags);

/**
 * harness_open() - open() a file on the current EC; fails the test if it cannot.
 * @ctx: context
 *
 * Return: the file.
 */
struct chardev_file *harness_open(struct chardev_ctx *ctx);

/**
 * harness_hello() - HELLO through @file, its answer checked.
 * @file: the file
 *
 * Return: 4 (the response size) for the right answer, -EBADMSG for a wrong
 * one, or the ioctl's -errno.
 */
long harness_hello(struct chardev_file *file);

/**
 * do_xcmd() - XCMD with a request and a response buffer.
 * @file:     the file
 * @command:  host command
 * @version:  command version
 * @req:      request bytes
 * @outsize:  their count
 * @resp:     response buffer
 * @insize:   its room
 * @result:   EC status code
 *
 * Return: response bytes or -errno.
 */
long do_xcmd(struct chardev_file *file, uint32_t command, uint32_t version,
	     const void *req, uint32_t outsize, void *resp, uint32_t insize, uint32_t *result);

/**
 * harness_child_report() - run @fn in a child whose stderr is captured (a
 * sanitizer's report, typically).
 * @fn:     what the child does before exiting 0
 * @arg:    passed to @fn
 * @report: the child's stderr, NUL-terminated (cut to @room - 1 bytes)
 * @room:   size of @report
 *
 * Return: true if the child exited with status 0.
 */
bool harness_child_report(void (*fn)(void *arg), void *arg, char *report, size_t room);

/**
 * struct harness_gate - threads held where a test point runs them, until
 * enough of them arrived or the test opens the gate: the order a test
 * needs between threads, made rather than hoped for.
 * @lock:    guards the rest
 * @cond:    signalled at each arrival and at the opening
 * @arrived: threads that reached the gate so far
 * @open_at: the gate opens by itself once this many arrived (0: only
 *           harness_gate_open() opens it)
 * @opened:  the gate opened (not a deadline that ran out)
 * @expired: a thread gave up waiting: later arrivals do not open the gate
 *           (they were not there together with it)
 */
struct harness_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int arrived;
	int open_at;
	bool opened;
	bool expired;
};

#define HARNESS_GATE_INIT(n) \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, (n), false, false }

/**
 * harness_gate_pass() - arrive at @gate and wait until it opens; called
 * by a test-point hook in the thread to hold. A gate that never opens lets
 * the thread go after HARNESS_DEADLINE_MS, so a broken order fails the
 * test on what it finds instead of hanging it.
 * @gate: the gate
 *
 * Return: true if the gate opened.
 */
bool harness_gate_pass(struct harness_gate *gate);

/**
 * harness_gate_wait_arrived() - wait (up to HARNESS_DEADLINE_MS) until
 * @n threads arrived at @gate.
 * @gate: the gate
 * @n:    arrivals wanted
 *
 * Return: true if they did.
 */
bool harness_gate_wait_arrived(struct harness_gate *gate, int n);

/** harness_gate_open() - let every thread held at @gate go on, and any later one pass. */
void harness_gate_open(struct harness_gate *gate);

/* HAVE_ASAN: built with AddressSanitizer (tests that expect its reports). */
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

#endif /* TESTS_CUSE_EC_HARNESS_H */
