// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frontend_cuse.c - the CUSE front end (frontend.h): the node is the
 * kernel's /dev/NAME, served through libfuse3's CUSE session.
 *
 * Each CUSE request becomes one chardev_*() call and its answer becomes one
 * reply, so everything with logic in it is testable on the host without a
 * kernel (chardev.c). What lives here is libfuse glue: the ioctl retry
 * replies, parked reads and their interrupts, poll handles, the session and
 * its loop, and the thread that sets up the node once the kernel made it
 * (node_setup.c holds how) and then runs --user's drop.
 */
#define FUSE_USE_VERSION 314
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

#include "chardev.h"
#include "frontend.h"
#include "node.h"
#include "node_setup.h"
#include "options.h"

/**
 * struct frontend_cuse - one node served through CUSE.
 * @fe:          the instance (first)
 * @ctx:         the chardev, from ->attach
 * @se:          the CUSE session, or NULL
 * @node:        the node's permissions (node_setup.h)
 * @node_thread: applies --mode/--owner/--group once the node exists, then
 *               --user
 * @node_thread_started: @node_thread must be joined
 * @drop_failed: --user could not be applied: exit with status 1
 * @node_failed: the node at /dev/NAME is not our device: exit with status 1
 */
struct frontend_cuse {
	struct cuse_ec_frontend fe;
	struct chardev_ctx *ctx;
	struct fuse_session *se;
	struct node_setup node;
	pthread_t node_thread;
	bool node_thread_started;
	bool drop_failed;
	bool node_failed;
};

static struct frontend_cuse *frontend_cuse_of(struct cuse_ec_frontend *fe)
{
	return (struct frontend_cuse *)fe;
}

/* ---- chardev -> CUSE callbacks ---- */

static void frontend_cuse_read_complete(void *token, int result, const void *data, size_t len)
{
	fuse_req_t req = token;

	if (result < 0)
		fuse_reply_err(req, -result);
	else
		fuse_reply_buf(req, data, len);
}

static bool frontend_cuse_read_interrupted(void *token)
{
	return fuse_req_interrupted(token);
}

static void frontend_cuse_poll_notify(void *poll_handle)
{
	fuse_lowlevel_notify_poll(poll_handle);
}

static void frontend_cuse_poll_destroy(void *poll_handle)
{
	fuse_pollhandle_destroy(poll_handle);
}

static void frontend_cuse_chardev_ops(struct chardev_ops *ops)
{
	ops->read_complete = frontend_cuse_read_complete;
	ops->read_interrupted = frontend_cuse_read_interrupted;
	ops->poll_notify = frontend_cuse_poll_notify;
	ops->poll_destroy = frontend_cuse_poll_destroy;
}

/* ---- CUSE operations ---- */

static struct frontend_cuse *frontend_cuse_req(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static struct chardev_file *frontend_cuse_file(struct fuse_file_info *fi)
{
	return (struct chardev_file *)(uintptr_t)fi->fh;
}

static void frontend_cuse_open(fuse_req_t req, struct fuse_file_info *fi)
{
	struct frontend_cuse *fc = frontend_cuse_req(req);
	struct chardev_file *file;
	int ret;

	ret = chardev_open(fc->ctx, &file);
	if (ret) {
		fuse_reply_err(req, -ret);
		return;
	}
	fi->fh = (uintptr_t)file;
	/* A character device: no page cache, no seeking (like the kernel's). */
	fi->direct_io = 1;
	fi->nonseekable = 1;
	if (fuse_reply_open(req, fi) == -ENOENT)
		chardev_release(file);	/* the opener was interrupted meanwhile */
}

/* The kernel interrupted a read (signal): complete it if still parked. */
static void frontend_cuse_read_interrupt(fuse_req_t req, void *data)
{
	struct frontend_cuse *fc = data;

	chardev_read_cancel(fc->ctx, req);
}

static void frontend_cuse_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct frontend_cuse *fc = frontend_cuse_req(req);
	char buf[CHARDEV_READ_MAX];
	size_t len = 0;
	int ret;

	/*
	 * Registered before the read can be parked: once parked, another
	 * thread may complete (and free) @req at any moment.
	 */
	fuse_req_interrupt_func(req, frontend_cuse_read_interrupt, fc);
	ret = chardev_read(frontend_cuse_file(fi), size, fi->flags & O_NONBLOCK, req, buf, &len);
	if (ret == CHARDEV_READ_PARKED)
		return;
	if (ret < 0)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_buf(req, buf, len);
}

static void frontend_cuse_ioctl(fuse_req_t req, int cmd, void *arg, struct fuse_file_info *fi,
				unsigned int flags, const void *in_buf, size_t in_bufsz,
				size_t out_bufsz)
{
	struct chardev_ioctl_result res;
	struct iovec in_iov, out_iov;

	/* libfuse hands the number over as int: XCMD (0xC014EC00) is negative. */
	chardev_ioctl(frontend_cuse_file(fi), (unsigned int)cmd, (uintptr_t)arg,
		      (flags & FUSE_IOCTL_COMPAT) ? CHARDEV_IOCTL_COMPAT : 0,
		      in_buf, in_bufsz, out_bufsz, &res);
	switch (res.action) {
	case CHARDEV_IOCTL_RETRY:
		in_iov.iov_base = (void *)(uintptr_t)res.in_iov.base;
		in_iov.iov_len = res.in_iov.len;
		out_iov.iov_base = (void *)(uintptr_t)res.out_iov.base;
		out_iov.iov_len = res.out_iov.len;
		fuse_reply_ioctl_retry(req, res.in_count ? &in_iov : NULL, res.in_count,
				       res.out_count ? &out_iov : NULL, res.out_count);
		break;
	case CHARDEV_IOCTL_REPLY:
		fuse_reply_ioctl(req, res.ret, res.out, res.out_len);
		break;
	case CHARDEV_IOCTL_ERROR:
		fuse_reply_err(req, -res.ret);
		break;
	}
	chardev_ioctl_result_free(&res);
}

static void frontend_cuse_poll(fuse_req_t req, struct fuse_file_info *fi,
			       struct fuse_pollhandle *ph)
{
	fuse_reply_poll(req, chardev_poll(frontend_cuse_file(fi), ph));
}

static void frontend_cuse_release(fuse_req_t req, struct fuse_file_info *fi)
{
	chardev_release(frontend_cuse_file(fi));
	fuse_reply_err(req, 0);
}

/*
 * Apply --mode/--owner/--group once the kernel's node shows up in /dev,
 * then --user: the node is set up, /dev/cuse, the control socket and the
 * uevent monitors are open, so root is needed no more. Serving as root
 * when asked not to is worse than not serving: a failure ends the daemon.
 * Each flag is set before the signal, which ends the loop that reads it.
 */
static void *frontend_cuse_node_thread(void *arg)
{
	struct frontend_cuse *fc = arg;
	const struct cuse_ec_frontend_config *cfg = &fc->fe.cfg;

	if (node_setup_run(&fc->node) == -ENODEV) {
		fc->node_failed = true;
		kill(getpid(), SIGTERM);
		return NULL;
	}
	if (cfg->drop_root && cfg->drop_root(cfg->arg)) {
		fc->drop_failed = true;
		kill(getpid(), SIGTERM);
	}
	return NULL;
}

static void frontend_cuse_init_done(void *userdata)
{
	struct frontend_cuse *fc = userdata;
	const struct cuse_ec_frontend_config *cfg = &fc->fe.cfg;
	sigset_t old;

	cuse_ec_frontend_log(&fc->fe, CHARDEV_LOG_NOTICE, "serving /dev/%s (%s lifecycle)",
			     cfg->name, cfg->lifecycle);
	if (cfg->node_mode < 0 && cfg->owner == (uid_t)-1 && cfg->group == (gid_t)-1 &&
	    !cfg->drop_root)
		return;
	/* Signals belong to libfuse's loop threads, not to this helper. */
	cuse_ec_frontend_block_signals(&old);
	if (!pthread_create(&fc->node_thread, NULL, frontend_cuse_node_thread, fc))
		fc->node_thread_started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static const struct cuse_lowlevel_ops frontend_cuse_clop = {
	.init_done = frontend_cuse_init_done,
	.open = frontend_cuse_open,
	.read = frontend_cuse_read,
	.ioctl = frontend_cuse_ioctl,
	.poll = frontend_cuse_poll,
	.release = frontend_cuse_release,
};

/* ---- the front end's operations ---- */

static void frontend_cuse_describe(const struct cuse_ec_frontend_config *cfg, char *buf,
				   size_t size)
{
	snprintf(buf, size, "through CUSE");
}

/*
 * Before anything is created (node, rule, socket): this daemon must be the
 * only one for its name, and /dev/NAME must be free, or it is another
 * device's. The lock is held until the process ends: a daemonized child
 * inherits it, and teardown lets go only after its cleanup.
 */
static int frontend_cuse_claim_name(struct frontend_cuse *fc)
{
	char err[320];
	int ret;

	ret = node_lock_instance(CUSE_EC_LOCK_DIR, fc->fe.cfg.name, &fc->fe.lock_fd, err,
				 sizeof(err));
	if (!ret)
		ret = node_check_free("/dev", fc->fe.cfg.name, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "cuse_ec: %s\n", err);
		return -1;
	}
	return 0;
}

/* Ends with /dev/cuse open, libfuse's signal handlers in, the cwd "/". */
static int frontend_cuse_setup(struct cuse_ec_frontend *fe)
{
	struct frontend_cuse *fc = frontend_cuse_of(fe);
	const struct cuse_ec_frontend_config *cfg = &fe->cfg;
	char devname[16 + CUSE_EC_NAME_MAX];
	const char *dev_info_argv[] = { devname };
	struct cuse_info ci = { 0 };
	char *fuse_argv[4];
	int fuse_argc = 0, multithreaded = 0;

	node_setup_init(&fc->node, cfg->name, cfg->log, cfg->arg);
	fc->node.mode = cfg->node_mode;
	fc->node.owner = cfg->owner;
	fc->node.group = cfg->group;
	/* Before the CUSE device can exist: udevd's entry for it is newer. */
	fc->node.started_usec = cfg->started_usec;

	snprintf(devname, sizeof(devname), "DEVNAME=%s", cfg->name);
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info_argv;
	/* XCMD's number encodes only its header: the payload needs retries. */
	ci.flags = CUSE_UNRESTRICTED_IOCTL;

	/* Always -f here: the daemon forks itself, later (fuse_daemonize()). */
	fuse_argv[fuse_argc++] = (char *)cfg->argv0;
	fuse_argv[fuse_argc++] = "-f";
	if (cfg->debug)
		fuse_argv[fuse_argc++] = "-d";
	fuse_argv[fuse_argc] = NULL;
	/*
	 * libfuse leaves a signal alone if it is ignored, and shells start
	 * background jobs with SIGINT ignored; we promise SIGINT/SIGTERM end
	 * the daemon cleanly, so make them default for libfuse to take over.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* Opens /dev/cuse, installs SIGTERM/SIGINT handlers, chdirs to "/". */
	fc->se = cuse_lowlevel_setup(fuse_argc, fuse_argv, &ci, &frontend_cuse_clop,
				     &multithreaded, fc);
	if (!fc->se) {
		fprintf(stderr, "cuse_ec: cannot set up CUSE (is cuse.ko loaded and /dev/cuse "
			"accessible?)\n");
		return -1;
	}
	return frontend_cuse_claim_name(fc);
}

/*
 * The node appears once the loop answers the kernel's CUSE_INIT, so this
 * still comes before it: udevd's first "add" already obeys.
 */
static void frontend_cuse_start(struct cuse_ec_frontend *fe)
{
	node_rule_install(&frontend_cuse_of(fe)->node);
}

/* Nothing to open: the loop answers CUSE_INIT in ->run, and the node appears. */
static int frontend_cuse_attach(struct cuse_ec_frontend *fe, struct chardev_ctx *ctx)
{
	frontend_cuse_of(fe)->ctx = ctx;
	return 0;
}

/*
 * Serve CUSE requests until a signal or the kernel ends the session. One
 * node: libfuse's exit signals end one session (fuse_set_signal_handlers()
 * keeps the last), so several CUSE nodes in one daemon are refused when
 * the options are parsed.
 */
static int frontend_cuse_run(struct cuse_ec_frontend *const *fes, size_t n)
{
	struct cuse_ec_frontend *fe = fes[0];
	struct frontend_cuse *fc = frontend_cuse_of(fe);
	struct fuse_loop_config *loop_config;
	int ret;

	if (n != 1) {
		cuse_ec_frontend_log(fe, CHARDEV_LOG_ERR, "CUSE serves one node per daemon");
		return 1;
	}
	loop_config = fuse_loop_cfg_create();
	if (!loop_config) {
		cuse_ec_frontend_log(fe, CHARDEV_LOG_ERR, "out of memory for the loop");
		return 1;
	}
	ret = fuse_session_loop_mt(fc->se, loop_config);
	cuse_ec_frontend_log(fe, CHARDEV_LOG_NOTICE, "exiting (%s)",
			     ret > 0 ? strsignal(ret) : ret < 0 ? strerror(-ret) : "unmounted");
	fuse_loop_cfg_destroy(loop_config);
	return ret < 0 || fc->drop_failed || fc->node_failed ? 1 : 0;
}

static void frontend_cuse_stop(struct cuse_ec_frontend *fe)
{
	struct frontend_cuse *fc = frontend_cuse_of(fe);

	if (fc->node_thread_started)
		pthread_join(fc->node_thread, NULL);
	if (fc->se)
		cuse_lowlevel_teardown(fc->se);
	node_rule_remove(&fc->node);
}

static void frontend_cuse_abandon(struct cuse_ec_frontend *fe)
{
	node_rule_remove(&frontend_cuse_of(fe)->node);
}

const struct cuse_ec_frontend_ops frontend_cuse_ops = {
	.name = "cuse",
	.size = sizeof(struct frontend_cuse),
	.kernel_node = true,
	.describe = frontend_cuse_describe,
	.setup = frontend_cuse_setup,
	.start = frontend_cuse_start,
	.chardev_ops = frontend_cuse_chardev_ops,
	.attach = frontend_cuse_attach,
	.run = frontend_cuse_run,
	.stop = frontend_cuse_stop,
	.abandon = frontend_cuse_abandon,
};
