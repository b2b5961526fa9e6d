/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chardev_testing.h - chardev calls only the host tests use. The daemon
 * never includes this header.
 */
#ifndef CUSE_EC_CHARDEV_TESTING_H
#define CUSE_EC_CHARDEV_TESTING_H

#include "chardev.h"

struct ec_profile;

/**
 * chardev_profile() - the board profile the context was made with.
 * @ctx: context
 *
 * Return: the profile (borrowed from the context's creator).
 */
const struct ec_profile *chardev_profile(const struct chardev_ctx *ctx);

struct chardev_file;
struct ec_event;

/**
 * chardev_notify_file() - hand @ev to @file as the EC's notifier chain
 * would, for a call the test cannot time otherwise (an EC being retired
 * that raises one more event).
 * @file: the file
 * @ev:   the event
 */
void chardev_notify_file(struct chardev_file *file, const struct ec_event *ev);

/**
 * enum chardev_test_point - windows a host test may enter deterministically.
 * @CHARDEV_TEST_DELIVER_HANDED: a parked read was taken to be handed an
 *	event; its queue has not been popped yet (a non-blocking read may
 *	take the event here)
 * @CHARDEV_TEST_DELIVER_REPARK: the pop found nothing; the read is about
 *	to park again (an event queued and notified here finds it not parked)
 * @CHARDEV_TEST_XCMD_ENTER: an XCMD holds its access and is about to hand
 *	its command to the EC (another command may reach the EC first here)
 *
 * Each is a place where, in the daemon, another thread can run at any
 * instant; the hook lets a test put that thread's work exactly there, in
 * the calling thread, with no chardev lock held.
 */
enum chardev_test_point {
	CHARDEV_TEST_DELIVER_HANDED,
	CHARDEV_TEST_DELIVER_REPARK,
	CHARDEV_TEST_XCMD_ENTER,
};

/**
 * chardev_set_test_point() - run @fn at every test point of @ctx.
 * @ctx: context, with no file operation in progress
 * @fn:  the hook (NULL: none); gets @arg, the point and the file
 * @arg: passed to @fn
 */
void chardev_set_test_point(struct chardev_ctx *ctx,
			    void (*fn)(void *arg, enum chardev_test_point point,
				       struct chardev_file *file),
			    void *arg);

#endif /* CUSE_EC_CHARDEV_TESTING_H */
