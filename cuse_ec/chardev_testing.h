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

#endif /* CUSE_EC_CHARDEV_TESTING_H */
