// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A module that takes 256 bytes of static TLS when it is dlopen()ed: its
 * block is initial-exec, as librevocable's is (docs/design.md,
 * "Thread-local storage").  test_revocable_dlclose loads it first, with
 * glibc's surplus cut to its minimum (about 300 bytes are then free on
 * x86-64), so that less than the library's block is left.
 */
#include "config.h"

__attribute__((tls_model("initial-exec"))) __thread char tls_filler[256];

char *tls_filler_block(void);

/* Referenced, so that the block is the module's for certain. */
char *tls_filler_block(void)
{
	return tls_filler;
}
