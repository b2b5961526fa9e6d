// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sleeping_reader - a provider, a reader that sleeps inside its access,
 * and a revoke that waits for it.
 *
 * A "sensor" is published through a provider.  A reader thread takes an
 * access, tells main it is inside, and then sleeps (slow I/O, say) while
 * still using the sensor.  main revokes meanwhile: the revoke returns only
 * once the reader has left, then the release callback frees the sensor,
 * and every later access gets NULL.  The program checks that order itself
 * (the reader records that it finished before its access ended) and exits
 * 1 if it ever sees otherwise.
 *
 * Build: cc sleeping_reader.c $(pkg-config --cflags --libs revocable)
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <revocable.h>

struct sensor {
	int celsius;
	bool freed;		/* set by the release callback, for the check */
};

struct demo {
	struct revocable *rev;	/* the reader's handle */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool reader_inside;
	bool reader_finished;	/* written before the reader's release */
	bool sensor_released;
	int reading;
};

static void sensor_release(void *res, void *arg)
{
	struct sensor *s = res;
	struct demo *d = arg;

	pthread_mutex_lock(&d->lock);
	d->sensor_released = true;
	pthread_mutex_unlock(&d->lock);
	s->freed = true;
	free(s);
}

/* One reading: -ENODEV once the sensor is gone, like a driver's read(). */
static int read_sensor_slowly(struct demo *d)
{
	const struct timespec slow_io = { 0, 200 * 1000 * 1000 };

	REVOCABLE_OR_ENODEV(d->rev, res);
	struct sensor *s = res;

	pthread_mutex_lock(&d->lock);
	d->reader_inside = true;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);

	nanosleep(&slow_io, NULL);	/* the slow part; the revoke waits */
	d->reading = s->freed ? -1 : s->celsius;

	pthread_mutex_lock(&d->lock);
	d->reader_finished = true;
	pthread_mutex_unlock(&d->lock);
	return 0;			/* the access ends here */
}

static void *reader(void *arg)
{
	struct demo *d = arg;

	if (read_sensor_slowly(d))
		fprintf(stderr, "reader: sensor already gone\n");
	return NULL;
}

int main(void)
{
	struct demo d = { .lock = PTHREAD_MUTEX_INITIALIZER,
			  .cond = PTHREAD_COND_INITIALIZER };
	struct revocable_provider *rp;
	struct sensor *s = malloc(sizeof(*s));
	pthread_t tid;
	bool finished_first;
	int ret, status = 0;

	if (!s)
		return 1;
	s->celsius = 42;
	s->freed = false;
	rp = revocable_provider_alloc(s);
	d.rev = rp ? revocable_alloc(rp) : NULL;
	if (!d.rev || revocable_provider_set_release(rp, sensor_release, &d)) {
		fprintf(stderr, "sleeping_reader: out of memory\n");
		return 1;
	}
	if (pthread_create(&tid, NULL, reader, &d))
		return 1;

	pthread_mutex_lock(&d.lock);
	while (!d.reader_inside)
		pthread_cond_wait(&d.cond, &d.lock);
	pthread_mutex_unlock(&d.lock);
	printf("reader is inside its access, sleeping; revoking\n");

	ret = revocable_provider_revoke(rp);	/* waits for the reader */
	pthread_mutex_lock(&d.lock);
	finished_first = d.reader_finished && d.sensor_released;
	pthread_mutex_unlock(&d.lock);
	printf("revoke returned %d; reader had finished: %s, read %d C\n",
	       ret, finished_first ? "yes" : "NO", d.reading);
	if (ret != 1 || !finished_first || d.reading != 42)
		status = 1;

	if (read_sensor_slowly(&d) != -ENODEV)	/* the sensor is gone now */
		status = 1;
	else
		printf("a new access after the revoke: -ENODEV\n");

	pthread_join(tid, NULL);
	revocable_free(d.rev);
	revocable_provider_free(rp);	/* already revoked: drops the ref */
	revocable_barrier();
	printf("%s\n", status ? "FAILED" : "ok");
	return status;
}
