/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_testing.h - EC calls for the unit tests and the fuzzer only; the daemon
 * and the tools see ec.h alone.
 */
#ifndef EC_EC_TESTING_H
#define EC_EC_TESTING_H

#include <stddef.h>
#include <stdint.h>

struct ec;

/**
 * ec_set_load() - set the CPU load (0..100 %) that temperatures and battery
 * drain follow.
 * @ec:      the EC
 * @percent: the load
 *
 * Return: 0 or -EINVAL.
 */
int ec_set_load(struct ec *ec, uint32_t percent);

/**
 * ec_host_command_count() - how many host commands the EC's subsystems
 * declare (passthrough offsets not counted).
 *
 * Return: the count.
 */
size_t ec_host_command_count(void);

/**
 * ec_host_command_number() - the @index-th declared host command, in
 * command-number order.
 * @index: 0 .. ec_host_command_count() - 1
 *
 * Return: its command number, or 0xFFFFFFFF for an @index out of range.
 */
uint32_t ec_host_command_number(size_t index);

#endif /* EC_EC_TESTING_H */
