// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uml-xstate-shim.c - let Debian's user-mode-linux 6.1 run on hosts whose
 * CPU has a large extended FPU state (AMX tile data, for instance).
 *
 * UML swaps its guest processes' FPU registers with
 * ptrace(PTRACE_SETREGSET, NT_X86_XSTATE) using a buffer of its own fixed
 * size.  The host kernel only accepts a SETREGSET that covers its whole
 * user xstate size; on a host with AMX that is ~11 KiB, larger than UML's
 * buffer, so the call fails with EFAULT and UML kills init at boot
 * ("userspace - ptrace set fp regs failed, errno = 14").
 *
 * scripts/uml-run preloads this object into the UML kernel process.  Only a
 * SETREGSET of NT_X86_XSTATE that the host refused with EFAULT is touched:
 * it is retried with a full-size buffer that holds the tracee's current
 * state overlaid with UML's bytes.  The components past UML's buffer are
 * ones UML never saves (guest programs cannot enable AMX without an
 * arch_prctl that UML does not forward), so they keep their current values,
 * which is what UML would have written had its buffer been large enough.
 * Every other ptrace call passes through unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Larger than any x86 xstate the host can report (AMX: 11008 bytes). */
#define XSTATE_BUF_MAX	(64 * 1024)

typedef long (*ptrace_fn)(enum __ptrace_request, pid_t, void *, void *);

static long retry_full_xstate(ptrace_fn real, pid_t pid, void *addr, const struct iovec *part)
{
	struct iovec full;
	long ret = -1;

	full.iov_base = malloc(XSTATE_BUF_MAX);
	full.iov_len = XSTATE_BUF_MAX;
	if (!full.iov_base) {
		errno = EFAULT;
		return -1;
	}
	/* GETREGSET shrinks iov_len to the host's real size. */
	if (real(PTRACE_GETREGSET, pid, addr, &full) == 0 && full.iov_len > part->iov_len) {
		memcpy(full.iov_base, part->iov_base, part->iov_len);
		ret = real(PTRACE_SETREGSET, pid, addr, &full);
	} else {
		errno = EFAULT;
	}
	free(full.iov_base);
	return ret;
}

long ptrace(enum __ptrace_request request, ...)
{
	static ptrace_fn real;
	void *addr, *data;
	va_list ap;
	pid_t pid;
	long ret;

	va_start(ap, request);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);

	if (!real)
		real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ret = real(request, pid, addr, data);
	if (ret < 0 && errno == EFAULT && request == PTRACE_SETREGSET &&
	    (unsigned long)addr == NT_X86_XSTATE && data)
		ret = retry_full_xstate(real, pid, addr, data);
	return ret;
}
