// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frontend_cuse.c - the CUSE front end (frontend.h): the node is the
 * kernel's /dev/NAME, served through libfuse3's CUSE session.
 *
 * Each CUSE request becomes one chardev_*() call and its answer becomes one
 * reply, so everything with logic in it is testable on the host without a
 * kernel (chardev.c). What lives here is libfuse glue: the ioctl retry
 * replies, parked reads and their interrupts, poll handles, the sessions and
 * their loops, and the thread that sets up a node once the kernel made it
 * (node_setup.c holds how).
 *
 * Several nodes (--device, repeated) are several CUSE sessions, each with
 * its own /dev/cuse descriptor and its own loop thread; ->run's thread
 * watches them all. libfuse's exit-signal handlers cannot be used for that:
 * fuse_set_signal_handlers() remembers one session (the last set up) and its
 * handler ends only that one, and fuse_remove_signal_handlers() of any other
 * complains. So the front end catches the exit signals itself, as the socket
 * front end does: the handler writes the signal to a pipe that ->run's thread
 * reads, and that thread ends every session - fuse_session_exit() and a
 * signal to the session's loop thread, whose sem_wait() in
 * fuse_session_loop_mt() only a signal interrupts - and again every
 * FRONTEND_CUSE_KICK_MS until each loop is out (a signal that lands between
 * the loop's check of its exit flag and its sleep is lost to it).
 */
#define FUSE_USE_VERSION 314
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

#include "chardev.h"
#include "frontend.h"
#include "node.h"
#include "node_setup.h"
#include "options.h"
#include "shutdown.h"

/* How often ->run signals a loop thread again until its loop is out. */
#define FRONTEND_CUSE_KICK_MS 200

/**
 * struct frontend_cuse - one node served through CUSE.
 * @fe:          the instance (first)
 * @ctx:         the chardev, from ->attach
 * @se:          the CUSE session, or NULL
 * @node:        the node's permissions (node_setup.h)
 * @event_fd:    an eventfd ->run's thread polls: the loop ended, the node
 *               is set up; -1 before ->setup
 * @loop_thread: runs the session's loop (fuse_session_loop_mt())
 * @loop_started: @loop_thread must be joined
 * @loop_done:   the loop returned; @loop_ret is its value
 * @loop_ret:    fuse_session_loop_mt()'s value (written before @loop_done)
 * @node_thread: applies --mode/--owner/--group once the node exists, and
 *               sees udevd apply the runtime rule (node_setup_wanted())
 * @node_thread_started: @node_thread must be joined
 * @node_ready:  the node is set up (what --user's drop waits for)
 * @node_failed: the node at /dev/NAME is not our device: exit with status 1
 */
struct frontend_cuse {
	struct cuse_ec_frontend fe;
	struct chardev_ctx *ctx;
	struct fuse_session *se;
	struct node_setup node;
	int event_fd;
	pthread_t loop_thread;
	bool loop_started;
	atomic_bool loop_done;
	int loop_ret;
	pthread_t node_thread;
	bool node_thread_started;
	atomic_bool node_ready;
	atomic_bool node_failed;
};

/*
 * The exit signals' pipe: a handler gets no argument, so the one thing it
 * needs lives here (one per process, as the signals are). Made by the
 * first ->setup, before any thread, and never closed: the process ends
 * with it.
 */
static int frontend_cuse_signal_pipe[2] = { -1, -1 };

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

/* Tell ->run's thread that something of @fc changed (it reads the flags). */
static void frontend_cuse_notify(struct frontend_cuse *fc)
{
	if (eventfd_write(fc->event_fd, 1)) {
		/* Only a counter at its maximum fails: ->run has a wake-up already. */
	}
}

/*
 * Apply --mode/--owner/--group once the kernel's node shows up in /dev;
 * --user's drop waits for every node's (->run does it once). A node that
 * is not ours ends the daemon through the exit signal, so that its EC is
 * revoked first like at any exit; the flag is set before the signal.
 */
static void *frontend_cuse_node_thread(void *arg)
{
	struct frontend_cuse *fc = arg;

	if (node_setup_run(&fc->node) == -ENODEV) {
		atomic_store(&fc->node_failed, true);
		kill(getpid(), SIGTERM);
		return NULL;
	}
	atomic_store(&fc->node_ready, true);
	frontend_cuse_notify(fc);
	return NULL;
}

static void frontend_cuse_init_done(void *userdata)
{
	struct frontend_cuse *fc = userdata;
	const struct cuse_ec_frontend_config *cfg = &fc->fe.cfg;
	sigset_t old;

	cuse_ec_frontend_log(&fc->fe, CHARDEV_LOG_NOTICE, "serving /dev/%s (%s lifecycle)",
			     cfg->name, cfg->lifecycle);
	/*
	 * Without options the node still gets the shipped rule's defaults from
	 * udevd through the runtime rule, if udevd read it: the thread finds
	 * out, and asks udevd again when its reload request was lost.
	 */
	if (!node_setup_wanted(&fc->node) && !cfg->drop_root)
		return;
	/* Signals belong to the loop threads, not to this helper. */
	cuse_ec_frontend_block_signals(&old);
	if (!pthread_create(&fc->node_thread, NULL, frontend_cuse_node_thread, fc))
		fc->node_thread_started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!fc->node_thread_started) {
		/* Without it neither the options nor --user's drop are applied. */
		cuse_ec_frontend_log(&fc->fe, CHARDEV_LOG_ERR, "/dev/%s: no thread to set the "
				     "node up; exiting", cfg->name);
		atomic_store(&fc->node_failed, true);
		kill(getpid(), SIGTERM);
	}
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

static void frontend_cuse_on_signal(int sig)
{
	unsigned char c = (unsigned char)sig;
	int saved = errno;

	if (write(frontend_cuse_signal_pipe[1], &c, 1) < 0) {
		/* Full: ->run has a signal to read already. */
	}
	errno = saved;
}

/*
 * The exit signals end every session (the file's comment says why not
 * libfuse's handlers). Installed whatever the signal's disposition was:
 * shells start background jobs with SIGINT ignored, and we promise that
 * SIGINT ends the daemon cleanly. No SA_RESTART: the signal must interrupt
 * a loop's sem_wait(). SIGPIPE is ignored, as libfuse would have it: a
 * reply to a requester that is gone is an error, never a signal.
 */
static int frontend_cuse_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = frontend_cuse_on_signal };
	size_t i;

	if (frontend_cuse_signal_pipe[0] < 0 &&
	    pipe2(frontend_cuse_signal_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaddset(&sa.sa_mask, shutdown_signals[i]);
	for (i = 0; i < SHUTDOWN_NSIG; i++) {
		if (sigaction(shutdown_signals[i], &sa, NULL))
			return -errno;
	}
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* Ends with /dev/cuse open, the exit signals caught, the cwd "/". */
static int frontend_cuse_setup(struct cuse_ec_frontend *fe)
{
	struct frontend_cuse *fc = frontend_cuse_of(fe);
	const struct cuse_ec_frontend_config *cfg = &fe->cfg;
	char devname[16 + CUSE_EC_NAME_MAX];
	const char *dev_info_argv[] = { devname };
	struct cuse_info ci = { 0 };
	char *fuse_argv[4];
	int fuse_argc = 0, multithreaded = 0, ret;

	node_setup_init(&fc->node, cfg->name, cfg->log, cfg->arg);
	fc->node.mode = cfg->node_mode;
	fc->node.owner = cfg->owner;
	fc->node.group = cfg->group;
	/* Before the CUSE device can exist: udevd's entry for it is newer. */
	fc->node.started_usec = cfg->started_usec;

	fc->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = fc->event_fd < 0 ? -errno : frontend_cuse_catch_signals();
	if (ret) {
		fprintf(stderr, "cuse_ec: /dev/%s: %s\n", cfg->name, strerror(-ret));
		return -1;
	}

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
	/* Opens /dev/cuse and chdirs to "/"; our handlers are in, so it adds none. */
	fc->se = cuse_lowlevel_setup(fuse_argc, fuse_argv, &ci, &frontend_cuse_clop,
				     &multithreaded, fc);
	if (!fc->se) {
		fprintf(stderr, "cuse_ec: /dev/%s: cannot set up CUSE (is cuse.ko loaded and "
			"/dev/cuse accessible?)\n", cfg->name);
		return -1;
	}
	/* Let go of libfuse's session for signals: ->stop destroys it alone. */
	fuse_remove_signal_handlers(fc->se);
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

static void *frontend_cuse_loop_thread(void *arg)
{
	struct frontend_cuse *fc = arg;
	struct fuse_loop_config *loop_config;
	int ret = -ENOMEM;

	loop_config = fuse_loop_cfg_create();
	if (loop_config) {
		ret = fuse_session_loop_mt(fc->se, loop_config);
		fuse_loop_cfg_destroy(loop_config);
	}
	fc->loop_ret = ret;
	atomic_store(&fc->loop_done, true);
	frontend_cuse_notify(fc);
	return NULL;
}

/**
 * struct frontend_cuse_run - what ->run's thread knows of its sessions.
 * @fcs:        the instances
 * @n:          how many
 * @exit_sig:   the exit signal that came (the first), or 0
 * @ending:     every session is being ended
 * @dropped:    --user's drop is done, or not wanted
 * @failed:     exit with status 1
 */
struct frontend_cuse_run {
	struct frontend_cuse *fcs[CUSE_EC_DEVICES_MAX];
	size_t n;
	int exit_sig;
	bool ending;
	bool dropped;
	bool failed;
};

/* Wait for a signal, a loop's end or a node's set-up; read what came. */
static void frontend_cuse_run_wait(struct frontend_cuse_run *r)
{
	struct pollfd pfds[1 + CUSE_EC_DEVICES_MAX];
	unsigned char sig;
	eventfd_t count;
	size_t i;

	/*
	 * While ending, the kicks' own signals come back through the pipe:
	 * they must not wake this thread, or it would kick without a pause.
	 */
	pfds[0] = (struct pollfd){ .fd = r->ending ? -1 : frontend_cuse_signal_pipe[0],
				   .events = POLLIN };
	for (i = 0; i < r->n; i++)
		pfds[1 + i] = (struct pollfd){ .fd = r->fcs[i]->event_fd, .events = POLLIN };
	if (poll(pfds, 1 + r->n, r->ending ? FRONTEND_CUSE_KICK_MS : -1) <= 0)
		return;		/* a timeout (kick again) or EINTR (look again) */
	while (!r->ending && read(frontend_cuse_signal_pipe[0], &sig, 1) == 1) {
		if (!r->exit_sig)
			r->exit_sig = sig;
	}
	for (i = 0; i < r->n; i++)
		eventfd_read(r->fcs[i]->event_fd, &count);
}

/*
 * What the flags say now: a loop that ended or an exit signal ends every
 * session; once every node is set up, --user's drop (once). Serving as root
 * when asked not to is worse than not serving: its failure ends the
 * daemon through the exit signal (revoke first).
 */
static void frontend_cuse_run_check(struct frontend_cuse_run *r)
{
	const struct cuse_ec_frontend_config *cfg = &r->fcs[0]->fe.cfg;
	size_t i, ready = 0;

	for (i = 0; i < r->n; i++) {
		struct frontend_cuse *fc = r->fcs[i];

		if (atomic_load(&fc->node_failed))
			r->failed = true;
		if (atomic_load(&fc->node_ready))
			ready++;
		if (!r->ending && atomic_load(&fc->loop_done)) {
			cuse_ec_frontend_log(&fc->fe, CHARDEV_LOG_NOTICE,
					     "/dev/%s: the session ended (%s); ending every node",
					     fc->fe.cfg.name,
					     fc->loop_ret < 0 ? strerror(-fc->loop_ret) : "unmounted");
			r->ending = true;
		}
		if (atomic_load(&fc->loop_done) && fc->loop_ret < 0)
			r->failed = true;
	}
	if (r->exit_sig)
		r->ending = true;
	if (!r->ending && !r->dropped && ready == r->n) {
		r->dropped = true;
		if (cfg->drop_root(cfg->arg)) {
			r->failed = true;
			kill(getpid(), SIGTERM);
		}
	}
}

/* Every loop still running: told to exit and interrupted. */
static void frontend_cuse_run_kick(struct frontend_cuse_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		struct frontend_cuse *fc = r->fcs[i];

		if (!fc->loop_started || atomic_load(&fc->loop_done))
			continue;
		fuse_session_exit(fc->se);
		pthread_kill(fc->loop_thread, r->exit_sig ? r->exit_sig : SIGTERM);
	}
}

static bool frontend_cuse_run_over(const struct frontend_cuse_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->fcs[i]->loop_started && !atomic_load(&r->fcs[i]->loop_done))
			return false;
	}
	return true;
}

/*
 * Serve every node's CUSE requests, each session in a loop thread of its
 * own, until an exit signal or the kernel ends a session; then end them
 * all. The loop threads take the exit signals (this thread's mask, which
 * has them open; libfuse's workers block them).
 */
static int frontend_cuse_run(struct cuse_ec_frontend *const *fes, size_t n)
{
	struct frontend_cuse_run r = { .n = n };
	size_t i;
	int ret;

	if (!n || n > CUSE_EC_DEVICES_MAX)
		return 1;
	r.dropped = !fes[0]->cfg.drop_root;
	for (i = 0; i < n; i++) {
		r.fcs[i] = frontend_cuse_of(fes[i]);
		ret = pthread_create(&r.fcs[i]->loop_thread, NULL, frontend_cuse_loop_thread,
				     r.fcs[i]);
		if (ret) {
			cuse_ec_frontend_log(fes[i], CHARDEV_LOG_ERR, "/dev/%s: no loop thread: %s",
					     fes[i]->cfg.name, strerror(ret));
			r.failed = r.ending = true;
			break;
		}
		r.fcs[i]->loop_started = true;
	}
	for (;;) {
		frontend_cuse_run_check(&r);
		if (r.ending)
			frontend_cuse_run_kick(&r);
		if (frontend_cuse_run_over(&r))
			break;
		frontend_cuse_run_wait(&r);
	}
	for (i = 0; i < n; i++) {
		if (r.fcs[i]->loop_started)
			pthread_join(r.fcs[i]->loop_thread, NULL);
	}
	cuse_ec_frontend_log(fes[0], CHARDEV_LOG_NOTICE, "exiting (%s)",
			     r.exit_sig ? strsignal(r.exit_sig) : "a session ended");
	return r.failed ? 1 : 0;
}

static void frontend_cuse_stop(struct cuse_ec_frontend *fe)
{
	struct frontend_cuse *fc = frontend_cuse_of(fe);

	if (fc->node_thread_started) {
		node_setup_cancel(&fc->node);
		pthread_join(fc->node_thread, NULL);
	}
	/* Not cuse_lowlevel_teardown(): libfuse has no handlers of ours to remove. */
	if (fc->se)
		fuse_session_destroy(fc->se);
	node_rule_remove(&fc->node);
	if (fc->event_fd >= 0)
		close(fc->event_fd);
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
