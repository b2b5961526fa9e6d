// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * attach_after_revoke.c - the teaching lab's Exercise 5 (docs/teaching.md):
 * the attach-after-revoke use-after-free of the revocable series as merged
 * in January 2026, and the same steps on librevocable.
 *
 *   attach_after_revoke v7|librevocable
 *
 * v7: a model of the merged design after its rushed fixes, as the revert
 * describes it (Johan Hovold, "Revert "revocable: Revocable resource
 * management"", 4 Feb 2026): the provider is refcounted; the revoke clears
 * the owner's pointer to it (it takes the pointer's address) and drops the
 * owner's reference, which frees the provider; a consumer attaches by
 * dereferencing a provider pointer and taking a reference unless the count
 * is zero. A consumer that got the pointer by value before the revoke - a
 * file's private data, set at open - still holds a non-NULL copy, and its
 * attach reads the freed provider. Nothing here is the kernel's code: the
 * RCU of the original only delays the free past a grace period, which
 * changes nothing once the revoke is over, so the model frees at once.
 *
 * librevocable: the same steps with the library's API. The file takes its
 * own reference when it copies the pointer (revocable_provider_get()), the
 * revoke frees nothing, the owner drops its reference
 * (revocable_provider_free()), and the attach through the copy gives a
 * handle whose access returns NULL.
 *
 * Run under valgrind (or built with AddressSanitizer), "v7" is reported as
 * an invalid read in lab_v7_attach() of a block freed by lab_v7_revoke();
 * "librevocable" runs clean. tests/lab/attach-after-revoke.test checks
 * both. Exit status: 0 when the steps ran, 1 on a failure of the library,
 * 2 on bad usage.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "revocable.h"

/**
 * struct lab_v7_provider - the merged series' provider, as a model.
 * @refs: its reference count (the kernel's kref)
 * @res:  the resource, NULL once revoked
 */
struct lab_v7_provider {
	int refs;
	void *res;
};

/**
 * struct lab_v7_consumer - a consumer handle, attached to a provider.
 * @rp: the provider it holds a reference on
 */
struct lab_v7_consumer {
	struct lab_v7_provider *rp;
};

static struct lab_v7_provider *lab_v7_provider_alloc(void *res)
{
	struct lab_v7_provider *rp = calloc(1, sizeof(*rp));

	if (!rp)
		return NULL;
	rp->refs = 1;		/* the owner's */
	rp->res = res;
	return rp;
}

static __attribute__((noipa)) void lab_v7_provider_put(struct lab_v7_provider *rp)
{
	if (--rp->refs == 0)
		free(rp);
}

/*
 * The revoke as merged after the fixes: clear the caller's pointer, the
 * resource, and drop the owner's reference. Copies of *@rp_ptr made before
 * are not cleared - nothing knows them.
 */
static __attribute__((noipa)) void lab_v7_revoke(struct lab_v7_provider **rp_ptr)
{
	struct lab_v7_provider *rp = *rp_ptr;

	*rp_ptr = NULL;
	rp->res = NULL;
	/* (Here the kernel waits for readers: there are none.) */
	lab_v7_provider_put(rp);
}

/*
 * The attach: a NULL provider is refused, a live one gets a reference
 * unless its count already reached zero. @rp is a value: if it was copied
 * before the revoke, it points at freed memory, and reading its count is
 * the use-after-free. (noipa here and on the revoke: the memory checker's
 * stacks name them, however the compiler would have merged them.)
 */
static __attribute__((noipa)) int lab_v7_attach(struct lab_v7_provider *rp,
						struct lab_v7_consumer *c)
{
	if (!rp)
		return -ENODEV;
	if (rp->refs == 0)	/* kref_get_unless_zero() */
		return -ENODEV;
	rp->refs++;
	c->rp = rp;
	return 0;
}

/* v7's steps: open (copy by value), unplug (revoke), attach via the copy. */
static int lab_run_v7(void)
{
	static int ec = 42;
	struct lab_v7_provider *owner_rp, *file_copy;
	struct lab_v7_consumer c = { 0 };
	int ret;

	owner_rp = lab_v7_provider_alloc(&ec);
	if (!owner_rp)
		return 1;
	file_copy = owner_rp;		/* open: private_data = the pointer */
	lab_v7_revoke(&owner_rp);	/* unplug: owner_rp is NULL now */
	printf("owner pointer after revoke: %s\n", owner_rp ? "set" : "NULL");
	ret = lab_v7_attach(file_copy, &c);
	/* Whatever it answered, it answered from freed memory. */
	printf("attach through the file's copy: %s\n", ret ? strerror(-ret) : "attached");
	if (!ret)
		lab_v7_provider_put(c.rp);
	return 0;
}

/* The same steps on librevocable: the copy is a reference of its own. */
static int lab_run_librevocable(void)
{
	static int ec = 42;
	struct revocable_provider *owner_rp, *file_copy;
	struct revocable *rev;
	void *res;
	int ret;

	owner_rp = revocable_provider_alloc(&ec);
	if (!owner_rp)
		return 1;
	file_copy = revocable_provider_get(owner_rp);	/* open */
	ret = revocable_provider_revoke(owner_rp);	/* unplug */
	printf("revoke: %d\n", ret);
	revocable_provider_free(owner_rp);		/* the owner lets go */
	rev = revocable_alloc(file_copy);		/* attach after revoke */
	if (!rev) {
		revocable_provider_put(file_copy);
		return 1;
	}
	res = revocable_try_access(rev);
	printf("attach through the file's copy: attached; access: %s\n",
	       res ? "the resource (wrong)" : "NULL");
	revocable_release(rev);
	revocable_free(rev);
	revocable_provider_put(file_copy);		/* close */
	return res ? 1 : 0;
}

/**
 * main() - run one of the two sequences.
 * @argc: argument count
 * @argv: "v7" or "librevocable"
 *
 * Return: 0 when the steps ran, 1 on a library failure, 2 on bad usage.
 */
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "v7"))
		return lab_run_v7();
	if (argc == 2 && !strcmp(argv[1], "librevocable"))
		return lab_run_librevocable();
	fprintf(stderr, "usage: attach_after_revoke v7|librevocable\n");
	return 2;
}
