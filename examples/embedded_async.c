// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * embedded_async - a provider embedded in the device it guards, references
 * with get/put, and an asynchronous revoke whose callback reports the end.
 *
 * struct device embeds its struct revocable_provider, so one allocation
 * holds both, and free_fn frees the device once the last reference is
 * gone (always on a library thread).  A consumer keeps a stack handle
 * (revocable_init) and takes its own provider reference (get/put).  An
 * "unplug" runs from inside an access, as an event loop's callback would:
 * revocable_provider_revoke_async() revokes at once and reports through
 * its callback after that access has ended.  The program checks the order
 * of what happened (a counter stamps each event) and exits 1 on surprise.
 *
 * Build: cc embedded_async.c $(pkg-config --cflags --libs revocable)
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <revocable.h>

struct device {
	struct revocable_provider rp;	/* embedded: freed with the device */
	const char *name;
	unsigned int serial;
};

/* The order of events, recorded where they happen. */
struct timeline {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int next;
	unsigned int access_ended, revoke_done, device_freed;
};

static struct timeline tl = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.next = 1,
};

static void stamp(unsigned int *event)
{
	pthread_mutex_lock(&tl.lock);
	*event = tl.next++;
	pthread_cond_broadcast(&tl.cond);
	pthread_mutex_unlock(&tl.lock);
}

static void device_free(struct revocable_provider *rp)
{
	struct device *dev = (struct device *)((char *)rp -
					       offsetof(struct device, rp));

	printf("free_fn: %s freed\n", dev->name);
	free(dev);
	stamp(&tl.device_freed);
}

static void unplugged(struct revocable_provider *rp, void *arg)
{
	printf("async revoke done: no reader left in %s\n", (const char *)arg);
	stamp(&tl.revoke_done);
}

static struct device *device_plug(const char *name, unsigned int serial)
{
	struct device *dev = malloc(sizeof(*dev));

	if (!dev)
		return NULL;
	dev->name = name;
	dev->serial = serial;
	revocable_provider_init(&dev->rp, dev, device_free);
	return dev;
}

int main(void)
{
	struct revocable_provider *ref;
	struct revocable handle;
	struct device *dev, *d;
	int status = 0;

	dev = device_plug("ec0", 1234);
	if (!dev)
		return 1;
	/* The consumer's own reference outlives the owner's. */
	ref = revocable_provider_get(&dev->rp);
	revocable_init(&handle, ref);

	REVOCABLE(&handle, d) {
		if (!d) {
			status = 1;
			break;
		}
		printf("access: %s serial %u\n", d->name, d->serial);
		/* Unplug from inside the access: never waits here. */
		if (revocable_provider_revoke_async(&d->rp, unplugged, "ec0"))
			status = 1;
		/* The device is still ours until this access ends. */
		printf("still inside: serial %u\n", d->serial);
		stamp(&tl.access_ended);
	}
	revocable_provider_put(&dev->rp);	/* the owner's reference */

	pthread_mutex_lock(&tl.lock);
	while (!tl.revoke_done)
		pthread_cond_wait(&tl.cond, &tl.lock);
	pthread_mutex_unlock(&tl.lock);

	REVOCABLE(&handle, d)
		printf("access after unplug: %s\n", d ? "LIVE (wrong)" : "NULL");
	if (revocable_try_access(&handle))
		status = 1;
	revocable_release(&handle);

	revocable_fini(&handle);		/* the handle's reference */
	revocable_provider_put(ref);		/* ours: the last one */
	revocable_barrier();			/* free_fn has run */
	if (!(tl.access_ended < tl.revoke_done &&
	      tl.revoke_done < tl.device_freed))
		status = 1;
	printf("order: access ended %u, revoke done %u, device freed %u: %s\n",
	       tl.access_ended, tl.revoke_done, tl.device_freed,
	       status ? "FAILED" : "ok");
	return status;
}
