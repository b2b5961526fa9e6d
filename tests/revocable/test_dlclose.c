// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * librevocable unloaded by dlclose() while a thread it registered lives
 * on (issue 26, defect 6): the thread's exit must not call into the
 * unmapped library.  Nor may the library's own threads (the deferred-free
 * worker, an async revoke's thread) still be on their way out of its code
 * when revocable_barrier() and dlclose() have returned: a window of a few
 * instructions, so the test takes many rounds through it (ASan's CI run
 * found it once in 4 runs of a single round).  This program does not link
 * librevocable; it loads the build tree's shared object (REVOCABLE_SO).
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/*
 * The record of a thread registered when the library is unloaded is
 * leaked by design (nothing of the library may run for it any more).
 * LeakSanitizer did not report it while the library's thread-locals were
 * global-dynamic (a dlopen()ed library's TLS blocks are then heap memory,
 * which it scans); they are initial-exec now (docs/design.md,
 * "Thread-local storage"), in the exited thread's static TLS, and it is
 * reported.  So the allocation that makes the record, the thread's first
 * access, is marked as no leak.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAKED_BY_DESIGN(stmt) \
	do { __lsan_disable(); stmt; __lsan_enable(); } while (0)
#else
#define LEAKED_BY_DESIGN(stmt) do { stmt; } while (0)
#endif

#define RES	((void *)0x5e52)
#define ROUNDS	1000

struct lib {
	void *dl;
	void *(*provider_alloc)(void *res);
	void *(*alloc)(void *rp);
	void *(*try_access)(void *rev);
	void (*release)(void *rev);
	void (*free_handle)(void *rev);
	void (*provider_free)(void *rp);
	int (*revoke_async)(void *rp, void (*done)(void *rp, void *arg),
			    void *arg);
	void (*barrier)(void);
};

static void lib_open(struct lib *lib)
{
	lib->dl = dlopen(REVOCABLE_SO, RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(lib->dl, "dlopen %s: %s", REVOCABLE_SO, dlerror());
	*(void **)&lib->provider_alloc = dlsym(lib->dl, "revocable_provider_alloc");
	*(void **)&lib->alloc = dlsym(lib->dl, "revocable_alloc");
	*(void **)&lib->try_access = dlsym(lib->dl, "revocable_try_access");
	*(void **)&lib->release = dlsym(lib->dl, "revocable_release");
	*(void **)&lib->free_handle = dlsym(lib->dl, "revocable_free");
	*(void **)&lib->provider_free = dlsym(lib->dl, "revocable_provider_free");
	*(void **)&lib->revoke_async = dlsym(lib->dl,
					     "revocable_provider_revoke_async");
	*(void **)&lib->barrier = dlsym(lib->dl, "revocable_barrier");
	ck_assert(lib->provider_alloc && lib->alloc && lib->try_access &&
		  lib->release && lib->free_handle && lib->provider_free &&
		  lib->revoke_async && lib->barrier);
}

/* The thread registers with the library, then waits for the unload. */
struct reader {
	struct lib *lib;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int registered;
	int unloaded;
	void *seen;
};

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	struct lib *lib = r->lib;
	void *rp = lib->provider_alloc(RES);
	void *rev = lib->alloc(rp);

	LEAKED_BY_DESIGN(r->seen = lib->try_access(rev));
	lib->release(rev);
	lib->free_handle(rev);
	lib->provider_free(rp);

	pthread_mutex_lock(&r->lock);
	r->registered = 1;
	pthread_cond_broadcast(&r->cond);
	while (!r->unloaded)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	return NULL;	/* the thread-exit path of a library now gone */
}

START_TEST(test_thread_exit_after_dlclose)
{
	struct lib lib;
	struct reader r = { .lib = &lib };
	pthread_t tid;

	lib_open(&lib);
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	tid = start_thread(reader_fn, &r);

	pthread_mutex_lock(&r.lock);
	while (!r.registered)
		pthread_cond_wait(&r.cond, &r.lock);
	pthread_mutex_unlock(&r.lock);
	ck_assert_ptr_eq(r.seen, RES);

	lib.barrier();	/* the library's own threads are done */
	ck_assert_int_eq(dlclose(lib.dl), 0);

	pthread_mutex_lock(&r.lock);
	r.unloaded = 1;
	pthread_cond_broadcast(&r.cond);
	pthread_mutex_unlock(&r.lock);
	join_within(tid, 10000, "a registered thread exiting after dlclose()");
}
END_TEST

/*
 * The library's own threads, many times over: an async revoke's thread
 * and the deferred-free worker that the provider's last put starts.  No
 * access is made, so no reader record is left behind (a registered
 * thread's record is leaked by design at the unload, as above).
 */
START_TEST(test_library_threads_gone_after_dlclose)
{
	struct lib lib;
	void *rp;
	int i;

	for (i = 0; i < ROUNDS; i++) {
		lib_open(&lib);
		rp = lib.provider_alloc(RES);
		ck_assert_int_eq(lib.revoke_async(rp, NULL, NULL), 0);
		lib.provider_free(rp);
		lib.barrier();
		ck_assert_int_eq(dlclose(lib.dl), 0);
	}
}
END_TEST

/* ---- dlopen() with the static TLS surplus used up ---- */

/* argv[1] that makes this program the probe below instead of the suite. */
#define TLS_PROBE_ARG	"--dlopen-probe"
/* glibc's static TLS surplus at its smallest (elf/dl-tls.c: one
 * namespace, no optional part): about 300 bytes free, of which the
 * filler module takes 256, leaving less than the library's 296. */
#define SMALLEST_SURPLUS "glibc.rtld.nns=1:glibc.rtld.optional_static_tls=0"

/* The probe: load the filler, then the library; say what happened and
 * exit 0 unless the filler itself does not load. */
static int dlopen_probe(void)
{
	void *filler = dlopen(TLS_FILLER_SO, RTLD_NOW | RTLD_LOCAL);
	void *dl;

	if (!filler) {
		printf("filler not loaded: %s\n", dlerror());
		return 1;
	}
	dl = dlopen(REVOCABLE_SO, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		printf("dlopen failed: %s\n", dlerror());
		return 0;
	}
	printf("loaded\n");
	return dlclose(dl) ? 1 : 0;
}

/* Run this program as the probe with GLIBC_TUNABLES=@tunables (NULL:
 * unset; glibc reads it at start-up only); return its wait status and
 * put its output in @out. */
static int run_probe(const char *tunables, char *out, size_t len)
{
	size_t used = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (tunables)
			setenv("GLIBC_TUNABLES", tunables, 1);
		else
			unsetenv("GLIBC_TUNABLES");
		execl("/proc/self/exe", "dlopen-probe", TLS_PROBE_ARG,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (used < len - 1 &&
	       (n = read(fds[0], out + used, len - 1 - used)) > 0)
		used += n;
	out[used] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * docs/design.md, "Thread-local storage": "Should the surplus be used
 * up, dlopen() fails with \"cannot allocate memory in static TLS
 * block\" - a clear error at load time, never a misbehaving library".
 * The probe loads a 256-byte initial-exec module and then the library:
 * with glibc's usual surplus both load (the probe is shown to work);
 * with the surplus cut to its smallest the library's dlopen() returns
 * NULL with that error and the program goes on to exit normally.
 */
START_TEST(test_dlopen_without_static_tls_fails_cleanly)
{
	char out[1024];
	int status;

	status = run_probe(NULL, out, sizeof(out));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		      strstr(out, "loaded"),
		      "the probe did not load the library as usual: status %#x, '%s'",
		      status, out);
	status = run_probe(SMALLEST_SURPLUS, out, sizeof(out));
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the probe with the surplus used up did not exit normally: status %#x, '%s'",
		      status, out);
	ck_assert_msg(strstr(out, "cannot allocate memory in static TLS block"),
		      "dlopen() with the static TLS surplus used up: '%s'", out);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;

	if (argc == 2 && !strcmp(argv[1], TLS_PROBE_ARG))
		return dlopen_probe();
	s = suite_create("revocable_dlclose");
	tc = tcase_create("dlclose");
	tcase_add_test(tc, test_thread_exit_after_dlclose);
	tcase_add_test(tc, test_library_threads_gone_after_dlclose);
	tcase_add_test(tc, test_dlopen_without_static_tls_fails_cleanly);
	suite_add_tcase(s, tc);
	return check_run_suite_forked(s);
}
