/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lifecycle_testing.h - lifecycle calls only the host tests use. The daemon
 * never includes this header: it unplugs asynchronously (chardev.c).
 */
#ifndef CUSE_EC_LIFECYCLE_TESTING_H
#define CUSE_EC_LIFECYCLE_TESTING_H

#include <stdbool.h>

#include "lifecycle.h"

/**
 * lifecycle_mode_of() - the mode @lc was created with.
 * @lc: holder
 *
 * Return: the mode.
 */
enum lifecycle_mode lifecycle_mode_of(const struct lifecycle *lc);

/**
 * lifecycle_unplug() - the EC goes away; returns when the mode is done.
 * @lc: holder
 *
 * revocable: revokes and waits until every in-flight access has left.
 * refcount:  drops the daemon's reference to the EC and returns at once.
 * unsafe:    frees the EC at once, whatever is in flight.
 * fenced:    takes the lock for writing (waiting for every access inside),
 *            clears the pointer, frees the EC.
 *
 * Return: 1 if this call unplugged, 0 if already unplugged, -EDEADLK when
 * called from inside an access of the same EC.
 */
int lifecycle_unplug(struct lifecycle *lc);

/**
 * lifecycle_is_unplugged() - whether an unplug was started on @lc.
 * @lc: holder
 *
 * True from the moment lifecycle_unplug() or lifecycle_unplug_async()
 * started the unplug (not when it completed); an async start that failed
 * leaves it false.
 *
 * Return: true after lifecycle_unplug() (a failed start is undone).
 */
bool lifecycle_is_unplugged(const struct lifecycle *lc);

#endif /* CUSE_EC_LIFECYCLE_TESTING_H */
