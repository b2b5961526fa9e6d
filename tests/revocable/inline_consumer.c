// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inline_consumer.c - the smallest librevocable program: one access while
 * the provider lives, one after it was revoked.  Built twice, with the
 * default read side (calls into the shared object) and with
 * REVOCABLE_INLINE; tests/revocable/inline_protocol.sh runs both against
 * the library and against one of the next inline protocol.
 *
 * Exit 0 when every answer was right, 1 otherwise.
 */
#include <stdio.h>

#include <revocable.h>

int main(void)
{
	static int resource;
	struct revocable_provider *rp;
	struct revocable *rev;
	void *live, *gone;

	rp = revocable_provider_alloc(&resource);
	rev = rp ? revocable_alloc(rp) : NULL;
	if (!rev) {
		fprintf(stderr, "inline_consumer: out of memory\n");
		return 1;
	}
	live = revocable_try_access(rev);
	revocable_release(rev);
	if (revocable_provider_revoke(rp) != 1) {
		fprintf(stderr, "inline_consumer: revoke failed\n");
		return 1;
	}
	gone = revocable_try_access(rev);
	revocable_release(rev);
	revocable_free(rev);
	revocable_provider_free(rp);
	revocable_barrier();
	if (live != &resource || gone) {
		fprintf(stderr, "inline_consumer: live %p (want %p), after revoke %p (want NULL)\n",
			live, (void *)&resource, gone);
		return 1;
	}
	printf("ok\n");
	return 0;
}
