// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frontend_sock.c - the device socket front end (frontend.h): the node is
 * a UNIX socket, --socket-dir's DIR/NAME, served by sock_frontend.c (whose
 * own API its tests use) for the preload library. No root, no kernel node.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "frontend.h"
#include "node.h"
#include "options.h"
#include "sock_frontend.h"

/**
 * struct frontend_sock - one node served as a device socket.
 * @fe:   the instance (first)
 * @sock: the socket server, from ->attach, or NULL
 */
struct frontend_sock {
	struct cuse_ec_frontend fe;
	struct sock_frontend *sock;
};

static struct frontend_sock *frontend_sock_of(struct cuse_ec_frontend *fe)
{
	return (struct frontend_sock *)fe;
}

static void frontend_sock_describe(const struct cuse_ec_frontend_config *cfg, char *buf,
				   size_t size)
{
	snprintf(buf, size, "as %s", cfg->socket_path);
}

/*
 * The instance lock beside the socket (the directory must be safe for it,
 * as /run/cuse_ec is), and the exit signals that end the accept loop. The
 * socket itself is made in ->attach, once the EC exists.
 */
static int frontend_sock_setup(struct cuse_ec_frontend *fe)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)], err[320];
	int ret;

	snprintf(dir, sizeof(dir), "%s", fe->cfg.socket_path);
	*strrchr(dir, '/') = '\0';
	ret = node_lock_instance(dir[0] ? dir : "/", fe->cfg.name, &fe->lock_fd, err,
				 sizeof(err));
	if (ret) {
		fprintf(stderr, "cuse_ec: --socket-dir: %s\n", err);
		return -1;
	}
	ret = sock_frontend_catch_signals();
	if (ret) {
		fprintf(stderr, "cuse_ec: signals: %s\n", strerror(-ret));
		return -1;
	}
	return 0;
}

static int frontend_sock_attach(struct cuse_ec_frontend *fe, struct chardev_ctx *ctx)
{
	int ret;

	ret = sock_frontend_start(ctx, fe->cfg.socket_path, &frontend_sock_of(fe)->sock);
	if (ret) {
		cuse_ec_frontend_log(fe, CHARDEV_LOG_ERR, "device socket %s: %s",
				     fe->cfg.socket_path, strerror(-ret));
		return -1;
	}
	return 0;
}

/*
 * Everything is open when the loop starts: root is needed no more, and
 * serving as root when asked not to is worse than not serving. One loop
 * accepts for every device's socket.
 */
static int frontend_sock_run(struct cuse_ec_frontend *const *fes, size_t n)
{
	const struct cuse_ec_frontend_config *cfg = &fes[0]->cfg;
	struct sock_frontend *socks[CUSE_EC_DEVICES_MAX];
	size_t i;
	int ret;

	if (n > CUSE_EC_DEVICES_MAX)
		return 1;
	for (i = 0; i < n; i++) {
		socks[i] = frontend_sock_of(fes[i])->sock;
		cuse_ec_frontend_log(fes[i], CHARDEV_LOG_NOTICE, "serving /dev/%s as %s (%s lifecycle)",
				     fes[i]->cfg.name, fes[i]->cfg.socket_path, fes[i]->cfg.lifecycle);
	}
	if (cfg->drop_root && cfg->drop_root(cfg->arg)) {
		kill(getpid(), SIGTERM);
		return 1;
	}
	ret = sock_frontend_run_all(socks, n);
	cuse_ec_frontend_log(fes[0], CHARDEV_LOG_NOTICE, "exiting (%s)",
			     ret > 0 ? strsignal(ret) : strerror(-ret));
	return ret < 0 ? 1 : 0;
}

static void frontend_sock_stop(struct cuse_ec_frontend *fe)
{
	sock_frontend_stop(frontend_sock_of(fe)->sock);
}

static void frontend_sock_abandon(struct cuse_ec_frontend *fe)
{
	sock_frontend_unlink(frontend_sock_of(fe)->sock);
}

const struct cuse_ec_frontend_ops frontend_sock_ops = {
	.name = "socket",
	.size = sizeof(struct frontend_sock),
	.kernel_node = false,
	.describe = frontend_sock_describe,
	.setup = frontend_sock_setup,
	.chardev_ops = sock_frontend_chardev_ops,
	.attach = frontend_sock_attach,
	.run = frontend_sock_run,
	.stop = frontend_sock_stop,
	.abandon = frontend_sock_abandon,
};
