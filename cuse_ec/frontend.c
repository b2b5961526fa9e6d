// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frontend.c - what every front end's instance has (frontend.h): its
 * allocation, its instance lock, its messages and the signal rule.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "frontend.h"
#include "shutdown.h"

int cuse_ec_frontend_create(const struct cuse_ec_frontend_ops *ops,
			    const struct cuse_ec_frontend_config *cfg, struct cuse_ec_frontend **out)
{
	struct cuse_ec_frontend *fe;

	fe = calloc(1, ops->size);
	if (!fe)
		return -ENOMEM;
	fe->ops = ops;
	fe->cfg = *cfg;
	fe->lock_fd = -1;
	*out = fe;
	return 0;
}

void cuse_ec_frontend_destroy(struct cuse_ec_frontend *fe)
{
	if (!fe)
		return;
	if (fe->lock_fd >= 0)
		close(fe->lock_fd);
	free(fe);
}

void cuse_ec_frontend_log(const struct cuse_ec_frontend *fe, int level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fe->cfg.log(fe->cfg.arg, level, msg);
}

void cuse_ec_frontend_block_signals(sigset_t *old)
{
	sigset_t block;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaddset(&block, shutdown_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}
