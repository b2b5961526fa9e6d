// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A ThreadSanitizer build of the library refuses to run in a program that
 * did not load the TSan runtime first (docs/design.md, "TSan mode").
 *
 * GCC links a TSan-built shared object against libtsan, so a program built
 * without -fsanitize=thread still loads it - but after libc, so libtsan's
 * interceptors (pthread_create among them) are not the ones the program
 * and the library call.  A thread created through libc's pthread_create
 * then has no TSan state, and the first instrumented function it enters
 * (the library's deferred-free worker, or the program's own reader)
 * crashes in __tsan_func_entry.  Failing at load time with a message that
 * names the remedy replaces that SIGSEGV.  Other builds compile nothing
 * here.
 */
#include "config.h"

#include "revocable_internal.h"

#ifdef REVOCABLE__TSAN

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

/* Defined by the TSan runtime; every instrumented object calls it. */
extern void __tsan_init(void);

/*
 * The runtime works only when its pthread_create is the one every caller
 * binds to: compare the runtime's own definition with the global lookup.
 * A runtime linked statically into the program (Clang's default) answers
 * both lookups the same way, and one that cannot be found by name is
 * left alone: only a runtime seen to come late is refused.
 */
__attribute__((constructor)) static void tsan_runtime_first(void)
{
	void *runtime, *theirs, *bound;
	Dl_info info;

	if (!dladdr((void *)__tsan_init, &info) || !info.dli_fname)
		return;
	runtime = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!runtime)
		return;
	theirs = dlsym(runtime, "pthread_create");
	bound = dlsym(RTLD_DEFAULT, "pthread_create");
	dlclose(runtime);
	if (!theirs || theirs == bound)
		return;
	fprintf(stderr,
		"librevocable: built with ThreadSanitizer, but %s was loaded after libc, so its interceptors are not in use and the library's threads would crash: build the program with -fsanitize=thread, or run it with LD_PRELOAD=%s\n",
		info.dli_fname, info.dli_fname);
	/* Like the dynamic loader refusing a program: nothing ran yet. */
	_exit(127);
}

#endif /* REVOCABLE__TSAN */
