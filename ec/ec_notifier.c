// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_notifier.c - how MKBP events leave the EC: a notifier chain that
 * listeners put their own entries on, and the per-listener queue type they
 * keep the events in.
 *
 * This mirrors the kernel's split: cros_ec keeps a blocking notifier chain
 * (ec_dev->event_notifier) and calls it with each event; each open
 * cros_ec_chardev file registers the notifier_block inside its own
 * chardev_priv and queues the events it wants under its own lock. Nothing a
 * listener owns lives in the EC, so once the EC is freed the only EC
 * memory a listener can still reach is the chain it is registered on.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cros_ec/cros_ec_dev.h"
#include "ec_internal.h"

struct ec_event_node {
	struct ec_event_node *next;
	struct ec_event ev;
};

/**
 * ec_notifier_init() - set up an empty chain (called by ec_create()).
 * @ec: the EC being built
 *
 * Return: 0 or -ENOMEM.
 */
int ec_notifier_init(struct ec *ec)
{
	if (pthread_mutex_init(&ec->chain_lock, NULL))
		return -ENOMEM;
	ec->chain = NULL;
	atomic_init(&ec->deliverer, 0);
	return 0;
}

/**
 * ec_notifier_fini() - end the chain (called by ec_destroy()). The entries
 * still on it belong to their owners and are not touched.
 * @ec: the EC being freed
 */
void ec_notifier_fini(struct ec *ec)
{
	pthread_mutex_destroy(&ec->chain_lock);
}

static uintptr_t ec_self(void)
{
	/* glibc's pthread_t is the thread's address: never 0. */
	return (uintptr_t)pthread_self();
}

static bool ec_delivering_here(struct ec *ec)
{
	return atomic_load(&ec->deliverer) == ec_self();
}

/**
 * ec_queue_event() - raise an MKBP event: queue it for GET_NEXT_EVENT and
 * for the notifier chain (delivered by ec_unlock_notify()).
 * @ec:      the EC, locked
 * @type:    enum ec_mkbp_event
 * @payload: event data
 * @len:     bytes of @payload (cut to EC_EVENT_PAYLOAD_MAX)
 */
void ec_queue_event(struct ec *ec, uint8_t type, const void *payload, size_t len)
{
	struct ec_event ev = { .type = type };

	if (len > EC_EVENT_PAYLOAD_MAX)
		len = EC_EVENT_PAYLOAD_MAX;
	ev.len = (uint8_t)len;
	if (len)
		memcpy(ev.data, payload, len);

	if (ec->hq_count < EC_HOST_QUEUE_LEN) {
		ec->host_queue[(ec->hq_head + ec->hq_count) % EC_HOST_QUEUE_LEN] = ev;
		ec->hq_count++;
	}
	/*
	 * The outbox is emptied at the end of every locked section, so it only
	 * fills when a notifier call blocks while other threads keep raising
	 * events; then, like the EC's own FIFO, the newest is dropped.
	 */
	if (ec->ob_count == EC_OUTBOX_LEN) {
		ec->outbox_dropped++;
		return;
	}
	ec->outbox[(ec->ob_head + ec->ob_count) % EC_OUTBOX_LEN] = ev;
	ec->ob_count++;
}

/* Take the oldest outbox event (ec->lock held). */
static bool ec_outbox_take(struct ec *ec, struct ec_event *ev)
{
	if (!ec->ob_count)
		return false;
	*ev = ec->outbox[ec->ob_head];
	ec->ob_head = (ec->ob_head + 1) % EC_OUTBOX_LEN;
	ec->ob_count--;
	return true;
}

/*
 * Deliver every outbox event to every entry, oldest first. One thread
 * delivers at a time (chain_lock), so listeners see the events in the order
 * they were raised even when several threads raise them.
 */
static void ec_deliver(struct ec *ec)
{
	struct ec_notifier *nb, *next;
	struct ec_event ev;
	bool more;

	pthread_mutex_lock(&ec->chain_lock);
	atomic_store(&ec->deliverer, ec_self());
	for (;;) {
		pthread_mutex_lock(&ec->lock);
		more = ec_outbox_take(ec, &ev);
		pthread_mutex_unlock(&ec->lock);
		if (!more)
			break;
		for (nb = ec->chain; nb; nb = next) {
			next = nb->next;
			nb->call(nb, &ev);
		}
	}
	atomic_store(&ec->deliverer, 0);
	pthread_mutex_unlock(&ec->chain_lock);
}

/**
 * ec_unlock_notify() - drop the EC lock, then deliver the events raised
 * while it was held.
 * @ec: the EC, locked
 *
 * Inside a notifier call (the callback called back into the EC) nothing is
 * delivered here: the delivery already running picks the new events up.
 */
void ec_unlock_notify(struct ec *ec)
{
	bool due = ec->ob_count != 0;

	pthread_mutex_unlock(&ec->lock);
	if (due && !ec_delivering_here(ec))
		ec_deliver(ec);
}

int ec_tick(struct ec *ec)
{
	if (!ec)
		return -EINVAL;
	ec_lock_advance(ec);
	ec_unlock_notify(ec);
	return 0;
}

int ec_notifier_register(struct ec *ec, struct ec_notifier *nb)
{
	struct ec_notifier *it;
	int ret = 0;

	if (!ec || !nb || !nb->call)
		return -EINVAL;
	if (ec_delivering_here(ec))
		return -EDEADLK;
	pthread_mutex_lock(&ec->chain_lock);
	for (it = ec->chain; it; it = it->next) {
		if (it == nb) {
			ret = -EEXIST;
			goto out;
		}
	}
	nb->next = ec->chain;
	ec->chain = nb;
out:
	pthread_mutex_unlock(&ec->chain_lock);
	return ret;
}

int ec_notifier_unregister(struct ec *ec, struct ec_notifier *nb)
{
	struct ec_notifier **pp;
	int ret = -ENOENT;

	if (!ec || !nb)
		return -EINVAL;
	if (ec_delivering_here(ec))
		return -EDEADLK;
	pthread_mutex_lock(&ec->chain_lock);
	for (pp = &ec->chain; *pp; pp = &(*pp)->next) {
		if (*pp == nb) {
			*pp = nb->next;
			nb->next = NULL;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ec->chain_lock);
	return ret;
}

/* ---- the listener's queue ---- */

void ec_event_queue_init(struct ec_event_queue *q)
{
	q->head = NULL;
	q->tail = NULL;
	q->bytes = 0;
}

int ec_event_queue_push(struct ec_event_queue *q, const struct ec_event *ev)
{
	struct ec_event_node *node;
	size_t cost;

	if (!q || !ev || ev->len > EC_EVENT_PAYLOAD_MAX)
		return -EINVAL;
	cost = 1 + (size_t)ev->len;
	if (q->bytes + cost > CROS_EC_MAX_EVENT_QUEUE_BYTES)
		return -ENOSPC;
	node = malloc(sizeof(*node));
	if (!node)
		return -ENOMEM;
	node->next = NULL;
	node->ev = *ev;
	if (q->tail)
		q->tail->next = node;
	else
		q->head = node;
	q->tail = node;
	q->bytes += cost;
	return 0;
}

int ec_event_queue_pop(struct ec_event_queue *q, void *buf, size_t len)
{
	struct ec_event_node *node;
	uint8_t *out = buf;
	size_t n;

	if (!q || (!buf && len))
		return -EINVAL;
	node = q->head;
	if (!node)
		return -EAGAIN;
	if (!len)
		return 0;
	q->head = node->next;
	if (!q->head)
		q->tail = NULL;
	q->bytes -= 1 + (size_t)node->ev.len;
	out[0] = node->ev.type;
	n = (size_t)node->ev.len + 1;
	if (n > len)
		n = len;
	memcpy(out + 1, node->ev.data, n - 1);
	free(node);
	return (int)n;
}

bool ec_event_queue_pending(const struct ec_event_queue *q)
{
	return q && q->head;
}

void ec_event_queue_clear(struct ec_event_queue *q)
{
	struct ec_event_node *node, *next;

	if (!q)
		return;
	for (node = q->head; node; node = next) {
		next = node->next;
		free(node);
	}
	ec_event_queue_init(q);
}
