// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_main.c - cuse_ec, the daemon: serves /dev/<name> through CUSE.
 *
 * A thin front end: each CUSE request becomes one chardev_*() call and its
 * answer becomes one reply, so everything with logic in it is testable on
 * the host without a kernel (chardev.c). What lives here is libfuse glue:
 * the ioctl retry replies, parked reads and their interrupts, poll handles,
 * node permissions, logging and the process's life.
 */
#define FUSE_USE_VERSION 314
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <cuse_lowlevel.h>
#include <fuse_lowlevel.h>

#include "chardev.h"
#include "common/common.h"
#include "control.h"
#include "control_client.h"
#include "ec/ec.h"
#include "node.h"
#include "options.h"
#include "path_wait.h"
#include "profile_path.h"
#include "shutdown.h"
#include "udev_follow.h"

/*
 * How long the node thread waits for the node to appear, and then for
 * udevd to set it up, before it goes on without it.
 */
#define CUSE_EC_NODE_WAIT_MS 10000
/* The property our runtime rule gives the node: which daemon made it. */
#define CUSE_EC_INSTANCE_KEY "CUSE_EC_INSTANCE"
/* udevd reads rules from here too; files live until reboot or unlink. */
#define CUSE_EC_RUN_RULES_DIR "/run/udev/rules.d"
/* Where the kernel lists CUSE devices and their numbers. */
#define CUSE_EC_SYSFS_CUSE "/sys/class/cuse"
/* Seconds `udevadm control --reload` may wait for udevd's answer. */
#define CUSE_EC_RELOAD_TIMEOUT "5"

extern char **environ;

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
 * @node_rule: the runtime udev rule written for the node, or ""
 * @node_instance: CUSE_EC_INSTANCE that rule gives the node ("PID.USEC",
 *               unique to this daemon), or "" without a rule
 * @foreign_logged: the node thread has said that udevd's entry for the
 *               node's number is another device's
 * @drop_failed: --user could not be applied: exit with status 1
 * @node_failed: the node at /dev/NAME is not our device: exit with status 1
 * @lock_fd:   the instance lock on NAME (node_lock_instance()), or -1
 * @control:   the control socket server, or NULL
 * @follow:    the uevent monitor, or NULL
 * @shutdown:  revokes first on an exit signal, or NULL
 * @control_path: --control made absolute (the daemon chdirs to "/")
 */
struct cuse_ec_daemon {
	struct cuse_ec_options opts;
	struct chardev_ctx *ctx;
	struct ec_profile *profile;
	struct cached_clock *clock;
	struct fuse_session *se;
	pthread_t node_thread;
	bool node_thread_started;
	char node_rule[64 + CUSE_EC_NAME_MAX];
	char node_instance[48];
	bool foreign_logged;
	bool drop_failed;
	bool node_failed;
	int lock_fd;
	struct control_server *control;
	struct udev_follow *follow;
	struct shutdown_watch *shutdown;
	char control_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	uint64_t started_usec;
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
 * Apply --mode/--owner/--group to the node at @path. The node is pinned
 * with O_PATH|O_NOFOLLOW and checked through the descriptor to be the
 * character device the kernel numbered for our CUSE device (sysfs), so what
 * is changed is never a symlink, a file swapped in under the name (/dev is
 * writable by udevd and root's tools) or another device's node. An O_PATH
 * descriptor takes fchownat(AT_EMPTY_PATH); its mode is set through
 * /proc/self/fd, which names that same inode.
 */
static int cuse_ec_node_apply(struct cuse_ec_daemon *d, const char *path)
{
	char fdpath[32], err[256];
	dev_t ours;
	int fd, ret;

	ret = node_cuse_devnum(CUSE_EC_SYSFS_CUSE, d->opts.name, &ours);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "%s/%s/dev: %s; mode/owner not applied",
			    CUSE_EC_SYSFS_CUSE, d->opts.name, strerror(-ret));
		return -1;
	}
	fd = node_open_own(path, ours, err, sizeof(err));
	if (fd == -ENODEV) {
		/* Serving a node that is someone else's device helps nobody. */
		cuse_ec_log(d, CHARDEV_LOG_ERR, "%s; mode/owner not applied; exiting", err);
		d->node_failed = true;
		kill(getpid(), SIGTERM);
		return -1;
	}
	if (fd < 0) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "%s: %s", path, strerror(-fd));
		return -1;
	}
	ret = 0;
	if ((d->opts.owner != (uid_t)-1 || d->opts.group != (gid_t)-1) &&
	    fchownat(fd, "", d->opts.owner, d->opts.group, AT_EMPTY_PATH)) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "chown %s: %s", path, strerror(errno));
		ret = -1;
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	if (d->opts.node_mode >= 0 && chmod(fdpath, (mode_t)d->opts.node_mode)) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "chmod %s: %s", path, strerror(errno));
		ret = -1;
	}
	close(fd);
	return ret;
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

/*
 * path_wait() test for udevd's entry of our node: written when udevd set
 * up this daemon's node, not another device that had the same number. The
 * kernel gives a new CUSE device the number of one just removed, and udevd
 * may be behind: the earlier device's entry can still be there, or even be
 * written only now, when udevd handles that device's late "add". Only our
 * runtime rule's CUSE_EC_INSTANCE names the node's daemon. Without that rule
 * udevd cannot know us: an entry then counts when udevd set it up ("I:",
 * microseconds of CLOCK_MONOTONIC) after this daemon started, or has no
 * such line (udevd writes an empty entry for a device it records nothing
 * about).
 */
static bool cuse_ec_udevd_entry_is_ours(const char *path, void *arg)
{
	struct cuse_ec_daemon *d = arg;
	char value[64];
	uint64_t usec;
	int ret;

	if (!d->node_instance[0]) {
		ret = udev_follow_db_value(path, "I:", value, sizeof(value));
		if (ret == -ENODATA)
			return true;
		return !ret && !parse_uint(value, "udev init time", 0, UINT64_MAX, &usec, NULL, 0) &&
		       usec >= d->started_usec;
	}
	ret = udev_follow_db_value(path, "E:" CUSE_EC_INSTANCE_KEY "=", value, sizeof(value));
	if (!ret && !strcmp(value, d->node_instance))
		return true;
	if (ret != -ENOENT && !d->foreign_logged) {
		d->foreign_logged = true;
		cuse_ec_log(d, CHARDEV_LOG_INFO, "%s is not /dev/%s's (%s %s): another device "
			    "had its number; waiting for udevd to set up ours", path,
			    d->opts.name, CUSE_EC_INSTANCE_KEY, ret ? "unset" : value);
	}
	return false;
}

/*
 * udevd handles the node's first "add" on its own time: with rules it may
 * have read before ours was in place, after our own chmod. It records the
 * device in its database only once it has set the node up, so once our
 * node's entry exists our options are applied again and the last word is
 * ours.
 * The database directory itself may not exist before udevd's first entry:
 * path_wait() then watches /run/udev (there: its control socket answered)
 * until it does.
 */
static void cuse_ec_node_after_udevd(struct cuse_ec_daemon *d, const char *path, dev_t rdev)
{
	char entry[32];
	pid_t udevd;
	int ret;

	if (udev_follow_udevd_probe("/run/udev/control", &udevd))
		return;	/* no udevd: nobody else sets the node up */
	snprintf(entry, sizeof(entry), "c%u:%u", major(rdev), minor(rdev));
	ret = path_wait("/run/udev/data", entry, cuse_ec_udevd_entry_is_ours, d,
			CUSE_EC_NODE_WAIT_MS);
	if (ret == -ETIMEDOUT)
		cuse_ec_log(d, CHARDEV_LOG_WARNING, "udevd has not set up %s%s in %d s; "
			    "options applied again without it", path,
			    d->node_instance[0] ? " with the runtime rule" : "",
			    CUSE_EC_NODE_WAIT_MS / 1000);
	else if (ret)
		cuse_ec_log(d, CHARDEV_LOG_WARNING, "waiting for udevd to set up %s: %s; "
			    "options applied again without it", path, strerror(-ret));
	cuse_ec_node_apply(d, path);
}

/* path_wait() test for the kernel's node: a character device, its stat kept. */
static bool cuse_ec_node_is_chardev(const char *path, void *arg)
{
	struct stat *st = arg;

	return !stat(path, st) && S_ISCHR(st->st_mode);
}

/* Apply --mode/--owner/--group once the kernel's node shows up in /dev. */
static void *cuse_ec_node_thread(void *arg)
{
	struct cuse_ec_daemon *d = arg;
	char path[16 + CUSE_EC_NAME_MAX];
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "/dev/%s", d->opts.name);
	ret = path_wait("/dev", d->opts.name, cuse_ec_node_is_chardev, &st,
			CUSE_EC_NODE_WAIT_MS);
	if (ret) {
		if (ret == -ETIMEDOUT)
			cuse_ec_log(d, CHARDEV_LOG_ERR, "%s did not appear; mode/owner not applied",
				    path);
		else
			cuse_ec_log(d, CHARDEV_LOG_ERR, "waiting for %s: %s; mode/owner not applied",
				    path, strerror(-ret));
		cuse_ec_drop_root(d);
		return NULL;
	}
	if (!cuse_ec_node_apply(d, path)) {
		cuse_ec_node_after_udevd(d, path, st.st_rdev);
		cuse_ec_log(d, CHARDEV_LOG_INFO, "%s ready", path);
	}
	cuse_ec_drop_root(d);
	return NULL;
}

/* Ask a running udevd to read the rules again now (it rechecks them only
 * every few seconds otherwise, too late for the node about to appear). */
static void cuse_ec_udevd_reload(struct cuse_ec_daemon *d)
{
	char *const argv[] = { "udevadm", "control", "--timeout=" CUSE_EC_RELOAD_TIMEOUT,
			       "--reload", NULL };
	pid_t pid, udevd;
	int status, ret;

	if (udev_follow_udevd_probe("/run/udev/control", &udevd))
		return;	/* no udevd: it reads every rule when it starts */
	ret = posix_spawnp(&pid, "udevadm", NULL, NULL, argv, environ);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_WARNING, "udevadm control --reload: %s",
			    strerror(ret));
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		cuse_ec_log(d, CHARDEV_LOG_WARNING,
			    "udevadm control --reload failed: udevd may apply old rules to %s",
			    d->opts.name);
}

/*
 * The node's permissions have one owner: this daemon's options. udevd
 * re-applies rules on every "add" of the node (ours at start, synthetic
 * ones, coldplug replays), so the options are also handed to udevd as a
 * runtime rule. It sorts before 70-cuse_ec.rules, tags the node CUSE_EC=1
 * (the shipped rule's defaults then cover any --name) and fixes the given
 * mode/owner/group with ":=" so no later rule changes them.
 */
static void cuse_ec_node_rule_install(struct cuse_ec_daemon *d)
{
	char tmp[sizeof(d->node_rule) + 8];
	FILE *f;

	if (mkdir("/run/udev", 0755) && errno != EEXIST)
		return;	/* no /run: no udevd either */
	if (mkdir(CUSE_EC_RUN_RULES_DIR, 0755) && errno != EEXIST) {
		cuse_ec_log(d, CHARDEV_LOG_WARNING, "%s: %s", CUSE_EC_RUN_RULES_DIR,
			    strerror(errno));
		return;
	}
	snprintf(d->node_rule, sizeof(d->node_rule), "%s/70-cuse_ec-%s.rules",
		 CUSE_EC_RUN_RULES_DIR, d->opts.name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", d->node_rule);
	f = fopen(tmp, "we");
	if (!f)
		goto err;
	fprintf(f, "# Written by cuse_ec (pid %d) for /dev/%s; removed when it exits.\n",
		(int)getpid(), d->opts.name);
	snprintf(d->node_instance, sizeof(d->node_instance), "%d.%" PRIu64, (int)getpid(),
		 d->started_usec);
	fprintf(f, "SUBSYSTEM==\"cuse\", KERNEL==\"%s\", ENV{CUSE_EC}=\"1\", "
		"ENV{" CUSE_EC_INSTANCE_KEY "}=\"%s\"", d->opts.name, d->node_instance);
	if (d->opts.node_mode >= 0)
		fprintf(f, ", MODE:=\"%04o\"", (unsigned int)d->opts.node_mode);
	if (d->opts.owner != (uid_t)-1)
		fprintf(f, ", OWNER:=\"%u\"", (unsigned int)d->opts.owner);
	if (d->opts.group != (gid_t)-1)
		fprintf(f, ", GROUP:=\"%u\"", (unsigned int)d->opts.group);
	fputc('\n', f);
	if (fclose(f))
		goto err_tmp;
	/* Renamed into place: udevd never reads half a rule. */
	if (rename(tmp, d->node_rule))
		goto err_tmp;
	cuse_ec_udevd_reload(d);
	return;

err_tmp:
	unlink(tmp);
err:
	cuse_ec_log(d, CHARDEV_LOG_WARNING, "cannot write %s: %s", d->node_rule,
		    strerror(errno));
	d->node_rule[0] = '\0';
	d->node_instance[0] = '\0';
}

static void cuse_ec_node_rule_remove(struct cuse_ec_daemon *d)
{
	if (d->node_rule[0] && unlink(d->node_rule))
		cuse_ec_log(d, CHARDEV_LOG_WARNING, "%s: %s", d->node_rule,
			    strerror(errno));
}

static void cuse_ec_init_done(void *userdata)
{
	struct cuse_ec_daemon *d = userdata;
	sigset_t block, old;

	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "serving /dev/%s (%s lifecycle)", d->opts.name,
		    lifecycle_mode_name(d->opts.lifecycle));
	if (d->opts.node_mode < 0 && d->opts.owner == (uid_t)-1 && d->opts.group == (gid_t)-1 &&
	    !d->opts.user.wanted)
		return;
	/* Signals belong to libfuse's loop threads, not to this helper. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
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

/* Threads the daemon makes leave SIGTERM/SIGINT/SIGHUP to libfuse's loop. */
static void cuse_ec_block_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

/* A relative --control names a place in the start directory, not in "/". */
static int cuse_ec_absolute_control(struct cuse_ec_daemon *d)
{
	char cwd[PATH_MAX];
	int n;

	if (!d->opts.control || d->opts.control[0] == '/')
		return 0;
	if (!getcwd(cwd, sizeof(cwd))) {
		fprintf(stderr, "cuse_ec: --control=%s: cannot tell the current directory: %s\n",
			d->opts.control, strerror(errno));
		return -1;
	}
	n = snprintf(d->control_path, sizeof(d->control_path), "%s/%s", cwd, d->opts.control);
	if (n < 0 || (size_t)n >= sizeof(d->control_path)) {
		fprintf(stderr, "cuse_ec: --control=%s: as an absolute path (%s/...) it is longer "
			"than a socket path may be (%zu bytes)\n", d->opts.control, cwd,
			sizeof(d->control_path) - 1);
		return -1;
	}
	d->opts.control = d->control_path;
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
	/* Before the CUSE device can exist: udevd's entry for it is newer. */
	d->started_usec = mono_now_ns() / 1000;
	if (d->opts.syslog)
		openlog("cuse_ec", LOG_PID, LOG_DAEMON);
	if (cuse_ec_absolute_control(d))
		return -1;
	if (cuse_ec_load_profile(d))
		return -1;

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

	cuse_ec_node_rule_remove(d);
	control_server_unlink(d->control);
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
	sigset_t old;
	int ret;

	/*
	 * The node appears once the loop answers the kernel's CUSE_INIT, so
	 * this still comes before it: udevd's first "add" already obeys.
	 */
	cuse_ec_node_rule_install(d);
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
	config.ops.read_complete = cuse_ec_read_complete;
	config.ops.read_interrupted = cuse_ec_read_interrupted;
	config.ops.poll_notify = cuse_ec_poll_notify;
	config.ops.poll_destroy = cuse_ec_poll_destroy;
	config.ops.log = cuse_ec_log_cb;
	config.ops.ctx = d;
	ret = chardev_ctx_create(&config, &d->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "chardev: %s", strerror(-ret));
		return -1;
	}
	ret = chardev_plug(d->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "cannot create the EC: %s", strerror(-ret));
		return -1;
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

	if (!d->opts.no_udev) {
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
	return 0;
}

/* Phase 4: serve CUSE requests until a signal or the kernel ends the session. */
static int cuse_ec_run(struct cuse_ec_daemon *d)
{
	struct fuse_loop_config *loop_config;
	int ret;

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
	if (d->node_thread_started)
		pthread_join(d->node_thread, NULL);
	if (d->se)
		cuse_lowlevel_teardown(d->se);
	cuse_ec_node_rule_remove(d);
	chardev_ctx_destroy(d->ctx);
	cached_clock_destroy(d->clock);
	ec_profile_free(d->profile);
	/* Last: a next daemon for this name starts only after our cleanup. */
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	if (d->opts.syslog)
		closelog();
}

/**
 * main() - run the daemon until SIGTERM/SIGINT.
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 0 after a signal, 1 on a runtime error, 2 on bad usage. With
 * --send: 0 if every reply was "ok", 1 otherwise.
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
		ret = control_client_send(d.opts.control, d.opts.send, d.opts.n_send,
					  CONTROL_CLIENT_REPLY_TIMEOUT_MS, stdout, stderr);
		return ret ? 1 : 0;
	}

	if (!cuse_ec_setup(&d, argv[0]) && !cuse_ec_daemonize(&d) && !cuse_ec_start(&d))
		status = cuse_ec_run(&d);
	cuse_ec_teardown(&d);
	return status;
}
