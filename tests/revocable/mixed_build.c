// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mixed_build.c - revoke while reading, with the inline read side
 * (REVOCABLE_INLINE), in a program whose ThreadSanitizer mode differs from
 * the library's (docs/design.md, "TSan mode"): built without TSan against
 * the TSan-built library, and with TSan against a plain copy of it
 * (tests/revocable/local.mk; tests/revocable/mixed_builds.sh runs both).
 *
 * READERS threads access the current round's handle in a loop and read the
 * resource's canary MARKS times inside every access; each round the main
 * thread waits until the readers have seen its resource, then revokes it,
 * and the release callback poisons the canary.  A reader that finds the
 * canary poisoned inside an access that returned the resource used it
 * after its release callback: a use after revoke.  The canary is a relaxed
 * atomic, so that in the TSan program ThreadSanitizer leaves to the canary
 * the edge it cannot see (the plain library's uninstrumented side of it).
 *
 * Usage: mixed_build [ROUNDS] (1 to MAX_ROUNDS).  Exit 0 when every access was safe and
 * every round saw its resource, 1 on a use after revoke or a wrong
 * answer, 2 on bad arguments or a setup failure.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <revocable.h>

#define READERS		2
#define ROUNDS		200	/* the default */
#define MAX_ROUNDS	100000
#define MARKS		32	/* canary reads per access: a long access */
#define CANARY_LIVE	0x11feUL
#define CANARY_DEAD	0xdeadUL
#define DEADLINE_S	60	/* generous: a loaded machine, a TSan build */

struct round {
	struct revocable_provider *rp;
	struct revocable *rev;
	unsigned long canary;
};

struct stress {
	struct round *rounds;
	unsigned int nr_rounds;
	struct revocable *current;	/* the handle readers use now */
	unsigned long live_accesses;	/* accesses that got a resource */
	unsigned long used_after_revoke;
	int stop;
};

static void poison(void *res, void *arg)
{
	struct round *r = res;

	__atomic_store_n(&r->canary, CANARY_DEAD, __ATOMIC_RELAXED);
}

/* One access: the resource's canary must stay live all through it. */
static void access_once(struct stress *s, struct revocable *rev)
{
	struct round *r = revocable_try_access(rev);
	unsigned int i;

	if (r) {
		for (i = 0; i < MARKS; i++)
			if (__atomic_load_n(&r->canary, __ATOMIC_RELAXED) !=
			    CANARY_LIVE) {
				__atomic_fetch_add(&s->used_after_revoke, 1,
						   __ATOMIC_RELAXED);
				break;
			}
		__atomic_fetch_add(&s->live_accesses, 1, __ATOMIC_RELAXED);
	}
	revocable_release(rev);
}

static void *reader(void *arg)
{
	struct stress *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
		access_once(s, __atomic_load_n(&s->current, __ATOMIC_ACQUIRE));
	return NULL;
}

static int round_setup(struct round *r)
{
	r->canary = CANARY_LIVE;
	r->rp = revocable_provider_alloc(r);
	if (!r->rp || revocable_provider_set_release(r->rp, poison, NULL))
		return -1;
	r->rev = revocable_alloc(r->rp);
	return r->rev ? 0 : -1;
}

/* Until the readers saw @want resources in all, or the deadline. */
static int wait_live_accesses(struct stress *s, unsigned long want)
{
	time_t deadline = time(NULL) + DEADLINE_S;

	while (__atomic_load_n(&s->live_accesses, __ATOMIC_RELAXED) < want) {
		if (time(NULL) > deadline)
			return -1;
		sched_yield();	/* the readers need the CPUs */
	}
	return 0;
}

/* The rounds; 0, or 1 with what went wrong on stderr. */
static int run_rounds(struct stress *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_rounds; i++) {
		struct round *r = &s->rounds[i];
		unsigned long seen = __atomic_load_n(&s->live_accesses,
						     __ATOMIC_RELAXED);

		__atomic_store_n(&s->current, r->rev, __ATOMIC_RELEASE);
		if (wait_live_accesses(s, seen + READERS)) {
			fprintf(stderr, "mixed_build: round %u: no reader saw the resource within %d s\n",
				i, DEADLINE_S);
			return 1;
		}
		if (revocable_provider_revoke(r->rp) != 1 ||
		    __atomic_load_n(&r->canary, __ATOMIC_RELAXED) != CANARY_DEAD) {
			fprintf(stderr, "mixed_build: round %u: the revoke did not run the release callback once\n",
				i);
			return 1;
		}
	}
	return 0;
}

/* A whole decimal number of rounds, 1 to MAX_ROUNDS: 0, or -EINVAL. */
static int parse_rounds(const char *arg, unsigned int *rounds)
{
	unsigned long n;
	char *end;

	if (*arg < '0' || *arg > '9')
		return -EINVAL;
	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || *end || n == 0 || n > MAX_ROUNDS)
		return -EINVAL;
	*rounds = n;
	return 0;
}

int main(int argc, char **argv)
{
	struct stress s = { .nr_rounds = ROUNDS };
	pthread_t threads[READERS];
	unsigned int i, started = 0;
	int ret = 2;

	if (argc > 2 || (argc == 2 && parse_rounds(argv[1], &s.nr_rounds))) {
		fprintf(stderr, "usage: mixed_build [ROUNDS], ROUNDS from 1 to %u\n",
			MAX_ROUNDS);
		return 2;
	}
	s.rounds = calloc(s.nr_rounds, sizeof(*s.rounds));
	if (!s.rounds)
		goto out;
	for (i = 0; i < s.nr_rounds; i++)
		if (round_setup(&s.rounds[i]))
			goto out;
	/* Until the first round, the readers' handle is NULL: no access. */
	for (started = 0; started < READERS; started++)
		if (pthread_create(&threads[started], NULL, reader, &s))
			goto out;
	ret = run_rounds(&s);
out:
	__atomic_store_n(&s.stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (ret == 2)
		fprintf(stderr, "mixed_build: setup failed (out of memory or threads)\n");
	if (s.used_after_revoke) {
		fprintf(stderr, "mixed_build: %lu accesses used the resource after its release callback\n",
			s.used_after_revoke);
		ret = 1;
	}
	if (ret == 0)
		printf("mixed_build: %u rounds, %lu accesses saw the resource, none after its revoke\n",
		       s.nr_rounds, s.live_accesses);
	for (i = 0; s.rounds && i < s.nr_rounds; i++) {
		revocable_free(s.rounds[i].rev);
		if (s.rounds[i].rp)
			revocable_provider_free(s.rounds[i].rp);
	}
	revocable_barrier();
	free(s.rounds);
	return ret;
}
