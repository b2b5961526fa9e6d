/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * membarrier_count - the benchmark counts the sys_membarrier() calls the
 * process makes (librevocable's included) by interposing libc's syscall():
 * see membarrier_count.c.
 */
#ifndef BENCH_MEMBARRIER_COUNT_H
#define BENCH_MEMBARRIER_COUNT_H

/**
 * bench_membarriers_issued() - MEMBARRIER_CMD_PRIVATE_EXPEDITED calls so far.
 *
 * Return: the number of such calls made through syscall() by any code of
 * the process since it started.
 */
unsigned long bench_membarriers_issued(void);

/**
 * bench_membarrier() - one sys_membarrier() call, counted like the others.
 * @cmd: MEMBARRIER_CMD_*.
 *
 * Return: the system call's result (-1 with errno on failure).
 */
long bench_membarrier(int cmd);

#endif /* BENCH_MEMBARRIER_COUNT_H */
