// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_main.c - cuse_ec, the daemon: serves /dev/<name> through CUSE, or
 * with --socket-dir as a UNIX socket (sock_frontend.c).
 *
 * A thin front end: each CUSE request becomes one chardev_*() call and its
 * answer becomes one reply, so everything with logic in it is testable on
 * the host without a kernel (chardev.c). What lives here is libfuse glue:
 * the ioctl retry replies, parked reads and their interrupts, poll handles,
 * the thread that sets up the node (node_setup.c holds how), logging and
 * the process's life, which both front ends share.
 */
#define FUSE_USE_VERSION 314
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

#include "chardev.h"
#include "common/common.h"
#include "control.h"
#include "ctl/ctl.h"
#include "ec/ec.h"
#include "node.h"
#include "node_setup.h"
#include "options.h"
#include "profile_path.h"
#include "shutdown.h"
#include "session_files.h"
#include "sock_frontend.h"
#include "udev_follow.h"

/**
 * struct cuse_ec_daemon - everything the daemon owns (no other globals).
 * @opts:      the command line
 * @ctx:       the chardev context (the seam)
 * @profile:   board profile for every EC instance
 * @clock:     the ECs' time source (real time, cheap to read)
 * @se:        the CUSE session
 * @node_thread: applies --mode/--owner/--group once the node exists, then
 *               --user
 * @node_thread_started: @node_thread must be joined
 * @node:      the node's permissions (node_setup.h)
 * @drop_failed: --user could not be applied: exit with status 1
 * @node_failed: the node at /dev/NAME is not our device: exit with status 1
 * @lock_fd:   the instance lock on NAME (node_lock_instance()), or -1
 * @control:   the control socket server, or NULL
 * @follow:    the uevent monitor, or NULL
 * @shutdown:  revokes first on an exit signal, or NULL
 * @control_path: --control made absolute (the daemon chdirs to "/")
 * @sock:      the socket front end (--socket-dir), or NULL
 * @sock_path: --socket-dir's DIR/NAME, absolute
 * @files:     --record's file and --replay's recording
 * @state_path: --state made absolute
 */
struct cuse_ec_daemon {
	struct cuse_ec_options opts;
	struct chardev_ctx *ctx;
	struct ec_profile *profile;
	struct cached_clock *clock;
	struct fuse_session *se;
	pthread_t node_thread;
	bool node_thread_started;
	struct node_setup node;
	bool drop_failed;
	bool node_failed;
	int lock_fd;
	struct control_server *control;
	struct udev_follow *follow;
	struct shutdown_watch *shutdown;
	char control_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct sock_frontend *sock;
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct session_files files;
	char state_path[PATH_MAX];
};

static const char *const cuse_ec_level_names[] = {
	"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

static void cuse_ec_log_cb(void *arg, int level, const char *msg)
{
	struct cuse_ec_daemon *d = arg;
	struct timespec ts;

	if (d->opts.syslog) {
		syslog(level, "%s", msg);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(stderr, "cuse_ec[%d] %lld.%03ld %s: %s\n", (int)getpid(), (long long)ts.tv_sec,
		ts.tv_nsec / 1000000, cuse_ec_level_names[level & 7], msg);
}

/* The front end's own messages: the same sink, whether or not a chardev exists. */
static void cuse_ec_log(struct cuse_ec_daemon *d, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void cuse_ec_log(struct cuse_ec_daemon *d, int level, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (level > d->opts.log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cuse_ec_log_cb(d, level, msg);
}

/* node_setup's messages, filtered by --log-level as the front end's are. */
static void cuse_ec_log_node(void *arg, int level, const char *msg)
{
	struct cuse_ec_daemon *d = arg;

	if (level <= d->opts.log_level)
		cuse_ec_log_cb(d, level, msg);
}

/* ---- chardev -> CUSE callbacks ---- */

static void cuse_ec_read_complete(void *token, int result, const void *data, size_t len)
{
	fuse_req_t req = token;

	if (result < 0)
		fuse_reply_err(req, -result);
	else
		fuse_reply_buf(req, data, len);
}

static bool cuse_ec_read_interrupted(void *token)
{
	return fuse_req_interrupted(token);
}

static void cuse_ec_poll_notify(void *poll_handle)
{
	fuse_lowlevel_notify_poll(poll_handle);
}

static void cuse_ec_poll_destroy(void *poll_handle)
{
	fuse_pollhandle_destroy(poll_handle);
}

/* ---- CUSE operations ---- */

static struct cuse_ec_daemon *cuse_ec_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static struct chardev_file *cuse_ec_file(struct fuse_file_info *fi)
{
	return (struct chardev_file *)(uintptr_t)fi->fh;
}

static void cuse_ec_open(fuse_req_t req, struct fuse_file_info *fi)
{
	struct cuse_ec_daemon *d = cuse_ec_of(req);
	struct chardev_file *file;
	int ret;

	ret = chardev_open(d->ctx, &file);
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
static void cuse_ec_read_interrupt(fuse_req_t req, void *data)
{
	struct cuse_ec_daemon *d = data;

	chardev_read_cancel(d->ctx, req);
}

static void cuse_ec_read(fuse_req_t req, size_t size, off_t off, struct fuse_file_info *fi)
{
	struct cuse_ec_daemon *d = cuse_ec_of(req);
	char buf[CHARDEV_READ_MAX];
	size_t len = 0;
	int ret;

	/*
	 * Registered before the read can be parked: once parked, another
	 * thread may complete (and free) @req at any moment.
	 */
	fuse_req_interrupt_func(req, cuse_ec_read_interrupt, d);
	ret = chardev_read(cuse_ec_file(fi), size, fi->flags & O_NONBLOCK, req, buf, &len);
	if (ret == CHARDEV_READ_PARKED)
		return;
	if (ret < 0)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_buf(req, buf, len);
}

static void cuse_ec_ioctl(fuse_req_t req, int cmd, void *arg, struct fuse_file_info *fi,
			  unsigned int flags, const void *in_buf, size_t in_bufsz,
			  size_t out_bufsz)
{
	struct chardev_ioctl_result res;
	struct iovec in_iov, out_iov;

	/* libfuse hands the number over as int: XCMD (0xC014EC00) is negative. */
	chardev_ioctl(cuse_ec_file(fi), (unsigned int)cmd, (uintptr_t)arg,
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

static void cuse_ec_poll(fuse_req_t req, struct fuse_file_info *fi, struct fuse_pollhandle *ph)
{
	fuse_reply_poll(req, chardev_poll(cuse_ec_file(fi), ph));
}

static void cuse_ec_release(fuse_req_t req, struct fuse_file_info *fi)
{
	chardev_release(cuse_ec_file(fi));
	fuse_reply_err(req, 0);
}

/*
 * --user: the node is set up, /dev/cuse, the control socket and the uevent
 * monitors are open, so root is needed no more. Serving as root when asked
 * not to is worse than not serving: a failure ends the daemon.
 */
static void cuse_ec_drop_root(struct cuse_ec_daemon *d)
{
	char err[256];

	if (!d->opts.user.wanted)
		return;
	if (privdrop_apply(&d->opts.user, err, sizeof(err))) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "--user: %s; exiting", err);
		d->drop_failed = true;
		kill(getpid(), SIGTERM);
		return;
	}
	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "running as %s (uid %u, gid %u)", d->opts.user.user,
		    (unsigned int)d->opts.user.uid, (unsigned int)d->opts.user.gid);
}

/* Apply --mode/--owner/--group once the kernel's node shows up in /dev. */
static void *cuse_ec_node_thread(void *arg)
{
	struct cuse_ec_daemon *d = arg;

	if (node_setup_run(&d->node) == -ENODEV) {
		d->node_failed = true;
		kill(getpid(), SIGTERM);
		return NULL;
	}
	cuse_ec_drop_root(d);
	return NULL;
}

/* Threads the daemon makes leave SIGTERM/SIGINT/SIGHUP to libfuse's loop. */
static void cuse_ec_block_signals(sigset_t *old)
{
	sigset_t block;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < SHUTDOWN_NSIG; i++)
		sigaddset(&block, shutdown_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

static void cuse_ec_init_done(void *userdata)
{
	struct cuse_ec_daemon *d = userdata;
	sigset_t old;

	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "serving /dev/%s (%s lifecycle)", d->opts.name,
		    lifecycle_mode_name(d->opts.lifecycle));
	if (d->opts.node_mode < 0 && d->opts.owner == (uid_t)-1 && d->opts.group == (gid_t)-1 &&
	    !d->opts.user.wanted)
		return;
	/* Signals belong to libfuse's loop threads, not to this helper. */
	cuse_ec_block_signals(&old);
	if (!pthread_create(&d->node_thread, NULL, cuse_ec_node_thread, d))
		d->node_thread_started = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static const struct cuse_lowlevel_ops cuse_ec_clop = {
	.init_done = cuse_ec_init_done,
	.open = cuse_ec_open,
	.read = cuse_ec_read,
	.ioctl = cuse_ec_ioctl,
	.poll = cuse_ec_poll,
	.release = cuse_ec_release,
};

static int cuse_ec_load_profile(struct cuse_ec_daemon *d)
{
	return profile_path_load(d->opts.profile, &d->profile, stderr);
}

/*
 * A relative --control or --socket-dir names a place in the start
 * directory, not in "/" (where the daemon goes): @what=@rel[/@name] made
 * absolute in @abs.
 */
static int cuse_ec_absolute(const char *what, const char *rel, const char *name, char *abs,
			    size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (rel[0] == '/') {
		n = snprintf(abs, size, "%s%s%s", rel, name ? "/" : "", name ? name : "");
	} else {
		if (!getcwd(cwd, sizeof(cwd))) {
			fprintf(stderr, "cuse_ec: %s=%s: cannot tell the current directory: %s\n",
				what, rel, strerror(errno));
			return -1;
		}
		n = snprintf(abs, size, "%s/%s%s%s", cwd, rel, name ? "/" : "", name ? name : "");
	}
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "cuse_ec: %s=%s: as an absolute path (%s) it is longer than a "
			"socket path may be (%zu bytes)\n", what, rel, abs, size - 1);
		return -1;
	}
	return 0;
}

static int cuse_ec_absolute_paths(struct cuse_ec_daemon *d)
{
	if (d->opts.control) {
		if (cuse_ec_absolute("--control", d->opts.control, NULL, d->control_path,
				     sizeof(d->control_path)))
			return -1;
		d->opts.control = d->control_path;
	}
	if (d->opts.socket_dir &&
	    cuse_ec_absolute("--socket-dir", d->opts.socket_dir, d->opts.name, d->sock_path,
			     sizeof(d->sock_path)))
		return -1;
	if (d->opts.state) {
		if (cuse_ec_absolute("--state", d->opts.state, NULL, d->state_path,
				     sizeof(d->state_path)))
			return -1;
		d->opts.state = d->state_path;
	}
	return 0;
}

/*
 * --state: a file that is there must load, checked on the terminal, before
 * anything is served (the plug loads it again, and refuses it again if it
 * changed meanwhile); a missing one is a fresh EC.
 */
static int cuse_ec_check_state(struct cuse_ec_daemon *d)
{
	char err[320];
	struct ec *ec;
	int ret;

	if (!d->opts.state)
		return 0;
	ret = ec_create(d->profile, NULL, &ec);
	if (ret) {
		fprintf(stderr, "cuse_ec: --state: cannot create an EC to check it: %s\n",
			strerror(-ret));
		return -1;
	}
	ret = ec_state_load_file(ec, d->opts.state, err, sizeof(err));
	ec_destroy(ec);
	if (ret < 0 && ret != -ENOENT) {
		fprintf(stderr, "cuse_ec: --state: refused: %s\n", err);
		return -1;
	}
	return 0;
}

/*
 * Before anything is created (node, rule, socket): this daemon must be the
 * only one for its name, and /dev/NAME must be free, or it is another
 * device's. The lock is held until the process ends: a daemonized child
 * inherits it, and teardown lets go only after its cleanup.
 */
static int cuse_ec_claim_name(struct cuse_ec_daemon *d)
{
	char err[320];
	int ret;

	ret = node_lock_instance(CUSE_EC_LOCK_DIR, d->opts.name, &d->lock_fd, err, sizeof(err));
	if (!ret)
		ret = node_check_free("/dev", d->opts.name, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "cuse_ec: %s\n", err);
		return -1;
	}
	return 0;
}

/*
 * Phase 1 for --socket-dir: the instance lock beside the socket (the
 * directory must be safe for it, as /run/cuse_ec is), and the exit signals
 * that end the accept loop. The socket itself is made in phase 3, once the
 * EC exists.
 */
static int cuse_ec_setup_socket(struct cuse_ec_daemon *d)
{
	char dir[sizeof(d->sock_path)], err[320];
	int ret;

	strcpy(dir, d->sock_path);
	*strrchr(dir, '/') = '\0';
	ret = node_lock_instance(dir[0] ? dir : "/", d->opts.name, &d->lock_fd, err,
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

/*
 * Phase 1, on the terminal: everything that can fail with a message the
 * user sees, and nothing that starts a thread (daemonizing forks, and only
 * the forking thread survives a fork). Ends with /dev/cuse open and the
 * working directory "/": relative paths were made absolute before that.
 */
static int cuse_ec_setup(struct cuse_ec_daemon *d, char *argv0)
{
	char devname[16 + CUSE_EC_NAME_MAX];
	const char *dev_info_argv[] = { devname };
	struct cuse_info ci = { 0 };
	char *fuse_argv[4];
	int fuse_argc = 0, multithreaded = 0;

	d->lock_fd = -1;
	node_setup_init(&d->node, d->opts.name, cuse_ec_log_node, d);
	d->node.mode = d->opts.node_mode;
	d->node.owner = d->opts.owner;
	d->node.group = d->opts.group;
	/* Before the CUSE device can exist: udevd's entry for it is newer. */
	d->node.started_usec = mono_now_ns() / 1000;
	if (d->opts.syslog)
		openlog("cuse_ec", LOG_PID, LOG_DAEMON);
	if (cuse_ec_absolute_paths(d))
		return -1;
	if (cuse_ec_load_profile(d) || cuse_ec_check_state(d))
		return -1;
	if (session_files_open(&d->opts, &d->files, stderr))
		return -1;
	if (d->opts.socket_dir)
		return cuse_ec_setup_socket(d);

	snprintf(devname, sizeof(devname), "DEVNAME=%s", d->opts.name);
	ci.dev_info_argc = 1;
	ci.dev_info_argv = dev_info_argv;
	/* XCMD's number encodes only its header: the payload needs retries. */
	ci.flags = CUSE_UNRESTRICTED_IOCTL;

	/* Always -f here: the daemon forks itself, later (cuse_ec_daemonize()). */
	fuse_argv[fuse_argc++] = argv0;
	fuse_argv[fuse_argc++] = "-f";
	if (d->opts.debug)
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
	d->se = cuse_lowlevel_setup(fuse_argc, fuse_argv, &ci, &cuse_ec_clop, &multithreaded, d);
	if (!d->se) {
		fprintf(stderr, "cuse_ec: cannot set up CUSE (is cuse.ko loaded and /dev/cuse "
			"accessible?)\n");
		return -1;
	}
	return cuse_ec_claim_name(d);
}

/*
 * Phase 2: without -f, fork into the background (the parent exits once the
 * child is detached). Every thread is started after this, in the process
 * that keeps running.
 */
static int cuse_ec_daemonize(struct cuse_ec_daemon *d)
{
	if (fuse_daemonize(d->opts.foreground)) {
		fprintf(stderr, "cuse_ec: cannot go to the background\n");
		return -1;
	}
	return 0;
}

/*
 * The commands in flight outlived --shutdown-timeout and the process exits
 * without its teardown: remove what a next daemon would trip over.
 */
static void cuse_ec_abandon(void *arg)
{
	struct cuse_ec_daemon *d = arg;

	node_rule_remove(&d->node);
	control_server_unlink(d->control);
	sock_frontend_unlink(d->sock);
}

/*
 * Phase 3, in the process that stays: the node's udev rule, the EC's clock
 * (a ticker thread), the chardev with its first EC, the control socket and
 * the uevent monitor.
 */
static int cuse_ec_start(struct cuse_ec_daemon *d)
{
	struct chardev_config config = { 0 };
	struct udev_follow_rules follow_rules;
	unsigned int i;
	sigset_t old;
	int ret;

	/*
	 * The node appears once the loop answers the kernel's CUSE_INIT, so
	 * this still comes before it: udevd's first "add" already obeys.
	 */
	if (!d->opts.socket_dir)
		node_rule_install(&d->node);
	cuse_ec_block_signals(&old);
	ret = cached_clock_create(&d->clock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "clock: %s", strerror(-ret));
		return -1;
	}
	config.mode = d->opts.lifecycle;
	config.profile = d->profile;
	config.clock = cached_clock_ops(d->clock);
	config.log_level = d->opts.log_level;
	config.unplug_wakeups = d->opts.unplug_wakeups;
	config.fault_seed = d->opts.fault_seed;
	config.replay = d->files.replay;
	config.record = d->files.record;
	config.record_format = d->opts.record_format;
	config.state_path = d->opts.state;
	if (d->opts.socket_dir) {
		sock_frontend_chardev_ops(&config.ops);
	} else {
		config.ops.read_complete = cuse_ec_read_complete;
		config.ops.read_interrupted = cuse_ec_read_interrupted;
		config.ops.poll_notify = cuse_ec_poll_notify;
		config.ops.poll_destroy = cuse_ec_poll_destroy;
	}
	config.ops.log = cuse_ec_log_cb;
	config.ops.ctx = d;
	ret = chardev_ctx_create(&config, &d->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "chardev: %s", strerror(-ret));
		return -1;
	}
	/* Checked when parsed, and no more than the plan holds. */
	for (i = 0; i < d->opts.n_faults; i++)
		ec_fault_plan_add(chardev_fault_plan(d->ctx), &d->opts.faults[i]);
	ret = chardev_plug(d->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "cannot create the EC: %s", strerror(-ret));
		return -1;
	}

	if (d->opts.socket_dir) {
		ret = sock_frontend_start(d->ctx, d->sock_path, &d->sock);
		if (ret) {
			cuse_ec_log(d, CHARDEV_LOG_ERR, "device socket %s: %s", d->sock_path,
				    strerror(-ret));
			return -1;
		}
	}

	if (d->opts.control) {
		cuse_ec_block_signals(&old);
		ret = control_server_start(d->ctx, d->opts.control, &d->control);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (ret) {
			cuse_ec_log(d, CHARDEV_LOG_ERR, "control socket %s: %s", d->opts.control,
				    strerror(-ret));
			return -1;
		}
		control_server_set_idle_timeout(d->control, d->opts.control_idle_timeout_ms);
	}

	/* A socket has no device of ours to follow: only one named. */
	if (!d->opts.no_udev &&
	    (!d->opts.socket_dir || d->opts.follow || d->opts.n_follow_match)) {
		/* Options were checked when parsed; this cannot fail on them. */
		ret = udev_follow_rules_init(&follow_rules, d->opts.name, d->opts.follow,
					     d->opts.follow_match, d->opts.n_follow_match);
		if (!ret) {
			cuse_ec_block_signals(&old);
			ret = udev_follow_start(d->ctx, &follow_rules, &d->follow);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
		/* Not fatal: the control socket still unplugs and plugs. */
		if (ret)
			cuse_ec_log(d, CHARDEV_LOG_WARNING, "not following uevents: %s",
				    strerror(-ret));
	}

	/* After libfuse's handlers (phase 1): ours run first, then theirs. */
	ret = shutdown_watch_start(d->ctx, d->opts.shutdown_timeout_ms, cuse_ec_abandon, d,
				   &d->shutdown);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "shutdown watch: %s", strerror(-ret));
		return -1;
	}
	if (d->opts.socket_dir) {
		cuse_ec_log(d, CHARDEV_LOG_NOTICE, "serving /dev/%s as %s (%s lifecycle)",
			    d->opts.name, d->sock_path, lifecycle_mode_name(d->opts.lifecycle));
		/* Everything is open: root is needed no more. */
		cuse_ec_drop_root(d);
		if (d->drop_failed)
			return -1;
	}
	return 0;
}

/* Phase 4 for --socket-dir: accept connections until an exit signal. */
static int cuse_ec_run_socket(struct cuse_ec_daemon *d)
{
	int ret = sock_frontend_run(d->sock);

	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "exiting (%s)",
		    ret > 0 ? strsignal(ret) : strerror(-ret));
	return ret < 0 ? 1 : 0;
}

/* Phase 4: serve CUSE requests until a signal or the kernel ends the session. */
static int cuse_ec_run(struct cuse_ec_daemon *d)
{
	struct fuse_loop_config *loop_config;
	int ret;

	if (d->opts.socket_dir)
		return cuse_ec_run_socket(d);
	loop_config = fuse_loop_cfg_create();
	if (!loop_config) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "out of memory for the loop");
		return 1;
	}
	ret = fuse_session_loop_mt(d->se, loop_config);
	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "exiting (%s)",
		    ret > 0 ? strsignal(ret) : ret < 0 ? strerror(-ret) : "unmounted");
	fuse_loop_cfg_destroy(loop_config);
	return ret < 0 || d->drop_failed || d->node_failed ? 1 : 0;
}

/*
 * Phase 5: undo whatever of phases 1-3 happened, in reverse. The uevent
 * monitor and the control socket stop first, so that no uevent or command
 * plugs a fresh EC after the revoke; then the revoke, which wakes every
 * parked reader and poller; then the session and what setup left behind.
 */
static void cuse_ec_teardown(struct cuse_ec_daemon *d)
{
	/*
	 * A second SIGTERM (an impatient operator, a stop script) must not
	 * cut the teardown short: once cuse_lowlevel_teardown() has put back
	 * the default actions it would kill the daemon with status 143 and
	 * could leave its udev rule behind. Every other thread is gone or
	 * blocks these, so held here they stay pending and die with the
	 * process; SIGKILL still ends a teardown that hangs.
	 */
	cuse_ec_block_signals(NULL);
	shutdown_watch_stop(d->shutdown);
	udev_follow_stop(d->follow);
	control_server_stop(d->control);
	if (d->ctx)
		chardev_shutdown(d->ctx);
	sock_frontend_stop(d->sock);
	if (d->node_thread_started)
		pthread_join(d->node_thread, NULL);
	if (d->se)
		cuse_lowlevel_teardown(d->se);
	node_rule_remove(&d->node);
	chardev_ctx_destroy(d->ctx);
	if (session_files_close(&d->files))
		cuse_ec_log(d, CHARDEV_LOG_ERR, "--record %s: the last records were not written",
			    d->opts.record);
	cached_clock_destroy(d->clock);
	ec_profile_free(d->profile);
	/* Last: a next daemon for this name starts only after our cleanup. */
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	if (d->opts.syslog)
		closelog();
}

/*
 * --check: what would fail before serving, found without serving - the
 * options (parsed already), the paths made absolute, the profile and the
 * --replay recording loaded -
 * so that a wrapper (ec-shell --uml) can refuse a bad command line before
 * it boots a guest. Nothing is created, locked or opened.
 */
static int cuse_ec_check(struct cuse_ec_daemon *d)
{
	struct ec_recording *rec = NULL;
	char why[512];
	int status = 1;

	if (d->opts.replay && ec_recording_load(d->opts.replay, &rec, why, sizeof(why))) {
		fprintf(stderr, "cuse_ec: --replay %s\n", why);
		return 1;
	}
	ec_recording_destroy(rec);
	if (!cuse_ec_absolute_paths(d) && !cuse_ec_load_profile(d) && !cuse_ec_check_state(d)) {
		printf("ok: would serve /dev/%s %s%s (%s lifecycle, %s profile)\n", d->opts.name,
		       d->opts.socket_dir ? "as " : "through CUSE",
		       d->opts.socket_dir ? d->sock_path : "", lifecycle_mode_name(d->opts.lifecycle),
		       d->opts.profile ? d->opts.profile : "built-in laptop");
		status = 0;
	}
	ec_profile_free(d->profile);
	return status;
}

/**
 * main() - run the daemon until SIGTERM/SIGINT.
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 0 after a signal, 1 on a runtime error, 2 on bad usage. With
 * --send: 0 if every reply was "ok", 1 otherwise. With --check: 0 when
 * the daemon would start serving, 1 when the profile or a path is bad.
 */
int main(int argc, char **argv)
{
	struct cuse_ec_daemon d = { 0 };
	int ret, status = 1;

	ret = cuse_ec_parse_options(argc, argv, &d.opts, stdout, stderr);
	if (ret == CUSE_EC_OPTIONS_EXIT)
		return 0;
	if (ret)
		return 2;
	if (d.opts.list_profiles)
		return profile_path_list(stdout, stderr);
	if (d.opts.check_profile)
		return profile_path_check(d.opts.check_profile, stdout, stderr);
	/* Client mode: talk to a running daemon, set up nothing of our own. */
	if (d.opts.n_send) {
		ret = ctl_send_lines(d.opts.control, d.opts.send, d.opts.n_send,
				     CTL_SEND_REPLY_TIMEOUT_MS,
				     d.opts.send_json ? CTL_SEND_JSON : 0, stdout, stderr);
		return ret ? 1 : 0;
	}

	if (d.opts.check)
		return cuse_ec_check(&d);
	if (!cuse_ec_setup(&d, argv[0]) && !cuse_ec_daemonize(&d) && !cuse_ec_start(&d))
		status = cuse_ec_run(&d);
	cuse_ec_teardown(&d);
	return status;
}
