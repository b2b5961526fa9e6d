// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * membarrier_count - count the process's sys_membarrier() calls from
 * outside librevocable.  The library keeps such a count, but in its hidden
 * context, which the benchmark (a program of the installed interface) may
 * not read.  Every membarrier the library issues goes through libc's
 * syscall(), which it calls through its PLT; this program defines a
 * syscall() of its own, so the dynamic linker binds the library's calls
 * (and liburcu's) to it, and it counts the membarriers and passes every
 * call on to libc's.
 *
 * libc declares syscall() variadic.  This file never includes <unistd.h>,
 * and defines it with six long arguments after the number instead: on the
 * x86-64 and AArch64 Linux ABIs a variadic call passes integer arguments
 * exactly as a call with that many long parameters, so the six registers
 * are read and forwarded as libc's own syscall() reads them.
 */
#include "config.h"

#include <dlfcn.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>

#include "membarrier_count.h"

typedef long (*syscall_fn)(long nr, long a1, long a2, long a3, long a4,
			   long a5, long a6);

static unsigned long membarriers_issued;

long syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

static syscall_fn libc_syscall(void)
{
	static syscall_fn fn;
	syscall_fn found = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);

	if (!found) {
		/* Any thread may look it up first: they store the same. */
		*(void **)&found = dlsym(RTLD_NEXT, "syscall");
		__atomic_store_n(&fn, found, __ATOMIC_RELEASE);
	}
	return found;
}

long syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	if (nr == SYS_membarrier && a1 == MEMBARRIER_CMD_PRIVATE_EXPEDITED)
		__atomic_fetch_add(&membarriers_issued, 1, __ATOMIC_RELAXED);
	return libc_syscall()(nr, a1, a2, a3, a4, a5, a6);
}

unsigned long bench_membarriers_issued(void)
{
	return __atomic_load_n(&membarriers_issued, __ATOMIC_RELAXED);
}

long bench_membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0, 0, 0, 0);
}
