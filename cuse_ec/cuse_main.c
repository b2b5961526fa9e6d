// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_main.c - cuse_ec, the daemon: serves /dev/<name> through CUSE
 * (frontend_cuse.c), or with --socket-dir as a UNIX socket
 * (frontend_sock.c).
 *
 * What every front end shares, done once: the options, the phases of the
 * process's life (frontend.h lists them and where a front end's operations
 * come in), the control socket, the shutdown watch, logging, --user's drop
 * and the teardown; and once per device (--device, or the one node of
 * --name): its profile, chardev with its EC, front end instance, udev
 * following and files. The front end is chosen once, in
 * cuse_ec_frontend_pick(): every device is served by the same one.
 */
/* fuse_daemonize() only: the process's fork, the same for both front ends. */
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
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <fuse_lowlevel.h>

#include "chardev.h"
#include "common/common.h"
#include "control.h"
#include "ctl/ctl.h"
#include "ec/ec.h"
#include "frontend.h"
#include "options.h"
#include "privdrop.h"
#include "profile_path.h"
#include "shutdown.h"
#include "session_files.h"
#include "udev_follow.h"

struct cuse_ec_daemon;

/**
 * struct cuse_ec_device - one node the daemon serves, with all that is its
 * own: unplugging it touches nothing of another device's.
 * @daemon:    the daemon it belongs to
 * @opt:       its --device (or --name and --profile)
 * @profile:   board profile for each of its EC instances
 * @ctx:       its chardev context (the seam), or NULL before phase 3
 * @fe:        its front end instance, or NULL before phase 1's end
 * @follow:    its uevent monitor, or NULL
 * @files:     --record's file and --replay's recording (one device only)
 * @sock_path: --socket-dir's DIR/NAME, absolute
 */
struct cuse_ec_device {
	struct cuse_ec_daemon *daemon;
	const struct cuse_ec_device_opt *opt;
	struct ec_profile *profile;
	struct chardev_ctx *ctx;
	struct cuse_ec_frontend *fe;
	struct udev_follow *follow;
	struct session_files files;
	char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/**
 * struct cuse_ec_daemon - everything the daemon owns (no other globals).
 * @opts:      the command line
 * @clock:     the ECs' time source (real time, cheap to read), shared
 * @started_usec: CLOCK_MONOTONIC at the start, in microseconds
 * @fe_ops:    the front end (cuse_ec_frontend_pick()), every device's
 * @control:   the control socket server, or NULL
 * @shutdown:  revokes every device first on an exit signal, or NULL
 * @control_path: --control made absolute (the daemon chdirs to "/")
 * @state_path: --state made absolute
 * @devices:   the nodes, in --device order (@opts.devices)
 * @n_devices: how many
 */
struct cuse_ec_daemon {
	struct cuse_ec_options opts;
	struct cached_clock *clock;
	uint64_t started_usec;
	const struct cuse_ec_frontend_ops *fe_ops;
	struct control_server *control;
	struct shutdown_watch *shutdown;
	char control_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char state_path[PATH_MAX];
	struct cuse_ec_device devices[CUSE_EC_DEVICES_MAX];
	unsigned int n_devices;
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

/*
 * A device's chardev messages: with several devices, each says whose it
 * is. Its level was filtered by the chardev already.
 */
static void cuse_ec_device_log_cb(void *arg, int level, const char *msg)
{
	struct cuse_ec_device *dev = arg;
	char line[320];

	if (dev->daemon->n_devices == 1) {
		cuse_ec_log_cb(dev->daemon, level, msg);
		return;
	}
	snprintf(line, sizeof(line), "%s: %s", dev->opt->name, msg);
	cuse_ec_log_cb(dev->daemon, level, line);
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

/* The front end's and node_setup's messages, filtered by --log-level. */
static void cuse_ec_log_frontend(void *arg, int level, const char *msg)
{
	struct cuse_ec_daemon *d = arg;

	if (level <= d->opts.log_level)
		cuse_ec_log_cb(d, level, msg);
}

/*
 * --user, when the front end has opened everything that needs root
 * (frontend.h: ->run). Logs a failure; the front end ends the daemon.
 */
static int cuse_ec_drop_root(void *arg)
{
	struct cuse_ec_daemon *d = arg;
	char err[256];

	if (privdrop_apply(&d->opts.user, err, sizeof(err))) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "--user: %s; exiting", err);
		return -1;
	}
	cuse_ec_log(d, CHARDEV_LOG_NOTICE, "running as %s (uid %u, gid %u)", d->opts.user.user,
		    (unsigned int)d->opts.user.uid, (unsigned int)d->opts.user.gid);
	return 0;
}

/* The one place the front end is chosen. */
static const struct cuse_ec_frontend_ops *cuse_ec_frontend_pick(const struct cuse_ec_options *o)
{
	return o->socket_dir ? &frontend_sock_ops : &frontend_cuse_ops;
}

/* The node's description for its front end (paths made absolute already). */
static void cuse_ec_frontend_config(struct cuse_ec_device *dev, char *argv0,
				    struct cuse_ec_frontend_config *cfg)
{
	struct cuse_ec_daemon *d = dev->daemon;

	cfg->name = dev->opt->name;
	cfg->socket_path = dev->sock_path;
	cfg->lifecycle = lifecycle_mode_name(d->opts.lifecycle);
	cfg->node_mode = d->opts.node_mode;
	cfg->owner = d->opts.owner;
	cfg->group = d->opts.group;
	cfg->started_usec = d->started_usec;
	cfg->argv0 = argv0;
	cfg->debug = d->opts.debug;
	cfg->log = cuse_ec_log_frontend;
	cfg->drop_root = d->opts.user.wanted ? cuse_ec_drop_root : NULL;
	cfg->arg = d;
}

/* Each device's profile; an unknown one is named with its device. */
static int cuse_ec_load_profiles(struct cuse_ec_daemon *d)
{
	struct cuse_ec_device *dev;
	unsigned int i;

	for (i = 0; i < d->n_devices; i++) {
		dev = &d->devices[i];
		if (profile_path_load(dev->opt->profile, &dev->profile, stderr)) {
			if (d->n_devices > 1)
				fprintf(stderr, "cuse_ec: --device %s: its profile did not load\n",
					dev->opt->name);
			return -1;
		}
	}
	return 0;
}

static void cuse_ec_free_profiles(struct cuse_ec_daemon *d)
{
	unsigned int i;

	for (i = 0; i < d->n_devices; i++) {
		ec_profile_free(d->devices[i].profile);
		d->devices[i].profile = NULL;
	}
}

/* The devices of the command line, nothing set up. */
static void cuse_ec_devices_init(struct cuse_ec_daemon *d)
{
	unsigned int i;

	d->n_devices = d->opts.n_devices;
	for (i = 0; i < d->n_devices; i++) {
		d->devices[i].daemon = d;
		d->devices[i].opt = &d->opts.devices[i];
	}
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
	unsigned int i;

	if (d->opts.control) {
		if (cuse_ec_absolute("--control", d->opts.control, NULL, d->control_path,
				     sizeof(d->control_path)))
			return -1;
		d->opts.control = d->control_path;
	}
	for (i = 0; d->opts.socket_dir && i < d->n_devices; i++) {
		if (cuse_ec_absolute("--socket-dir", d->opts.socket_dir, d->devices[i].opt->name,
				     d->devices[i].sock_path, sizeof(d->devices[i].sock_path)))
			return -1;
	}
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
 * changed meanwhile); a missing one is a fresh EC. One device only (the
 * options refuse --state with several).
 */
static int cuse_ec_check_state(struct cuse_ec_daemon *d)
{
	char err[320];
	struct ec *ec;
	int ret;

	if (!d->opts.state)
		return 0;
	ret = ec_create(d->devices[0].profile, NULL, &ec);
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
 * Phase 1, on the terminal: everything that can fail with a message the
 * user sees, and nothing that starts a thread (daemonizing forks, and only
 * the forking thread survives a fork). Ends with the front end's name
 * claimed, what needs root open (/dev/cuse) and the working directory "/":
 * relative paths were made absolute before that.
 */
static int cuse_ec_setup(struct cuse_ec_daemon *d, char *argv0)
{
	struct cuse_ec_frontend_config cfg;
	struct cuse_ec_device *dev;
	unsigned int i;
	int ret;

	/* Before the CUSE device can exist: udevd's entry for it is newer. */
	d->started_usec = mono_now_ns() / 1000;
	if (d->opts.syslog)
		openlog("cuse_ec", LOG_PID, LOG_DAEMON);
	if (cuse_ec_absolute_paths(d))
		return -1;
	if (cuse_ec_load_profiles(d) || cuse_ec_check_state(d))
		return -1;
	for (i = 0; i < d->n_devices; i++) {
		dev = &d->devices[i];
		/* Files only with one device (the options say so): opened once. */
		if (session_files_open(&d->opts, &dev->files, stderr))
			return -1;
		cuse_ec_frontend_config(dev, argv0, &cfg);
		ret = cuse_ec_frontend_create(d->fe_ops, &cfg, &dev->fe);
		if (ret) {
			fprintf(stderr, "cuse_ec: %s\n", strerror(-ret));
			return -1;
		}
		if (dev->fe->ops->setup(dev->fe))
			return -1;
	}
	return 0;
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
	unsigned int i;

	for (i = 0; i < d->n_devices; i++)
		d->devices[i].fe->ops->abandon(d->devices[i].fe);
	control_server_unlink(d->control);
}

/*
 * Phase 3, one device: its chardev with its first EC, the front end's
 * attach (the device socket), its uevent monitor.
 */
static int cuse_ec_device_start(struct cuse_ec_device *dev)
{
	struct cuse_ec_daemon *d = dev->daemon;
	struct chardev_config config = { 0 };
	struct udev_follow_rules follow_rules;
	unsigned int i;
	sigset_t old;
	int ret;

	config.mode = d->opts.lifecycle;
	config.profile = dev->profile;
	config.clock = cached_clock_ops(d->clock);
	config.log_level = d->opts.log_level;
	config.unplug_wakeups = d->opts.unplug_wakeups;
	config.fault_seed = d->opts.fault_seed;
	config.replay = dev->files.replay;
	config.record = dev->files.record;
	config.record_format = d->opts.record_format;
	config.state_path = d->opts.state;
	dev->fe->ops->chardev_ops(&config.ops);
	config.ops.log = cuse_ec_device_log_cb;
	config.ops.ctx = dev;
	ret = chardev_ctx_create(&config, &dev->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "%s: chardev: %s", dev->opt->name, strerror(-ret));
		return -1;
	}
	/* Checked when parsed, and no more than the plan holds: every device's. */
	for (i = 0; i < d->opts.n_faults; i++)
		ec_fault_plan_add(chardev_fault_plan(dev->ctx), &d->opts.faults[i]);
	ret = chardev_plug(dev->ctx);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "%s: cannot create the EC: %s", dev->opt->name,
			    strerror(-ret));
		return -1;
	}
	if (dev->fe->ops->attach(dev->fe, dev->ctx))
		return -1;

	/* A socket has no device of ours to follow: only one named. */
	if (!d->opts.no_udev &&
	    (dev->fe->ops->kernel_node || d->opts.follow || d->opts.n_follow_match)) {
		/* Options were checked when parsed; this cannot fail on them. */
		ret = udev_follow_rules_init(&follow_rules, dev->opt->name, d->opts.follow,
					     d->opts.follow_match, d->opts.n_follow_match);
		if (!ret) {
			cuse_ec_frontend_block_signals(&old);
			ret = udev_follow_start(dev->ctx, &follow_rules, &dev->follow);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
		/* Not fatal: the control socket still unplugs and plugs. */
		if (ret)
			cuse_ec_log(d, CHARDEV_LOG_WARNING, "%s: not following uevents: %s",
				    dev->opt->name, strerror(-ret));
	}
	return 0;
}

/*
 * Phase 3, in the process that stays: each front end's start (CUSE: the
 * node's udev rule), the ECs' clock (a ticker thread), each device
 * (cuse_ec_device_start()), the control socket over every device and the
 * shutdown watch, which revokes them all.
 */
static int cuse_ec_start(struct cuse_ec_daemon *d)
{
	struct control_device ctl_devs[CUSE_EC_DEVICES_MAX];
	struct chardev_ctx *ctxs[CUSE_EC_DEVICES_MAX];
	unsigned int i;
	sigset_t old;
	int ret;

	for (i = 0; i < d->n_devices; i++) {
		if (d->devices[i].fe->ops->start)
			d->devices[i].fe->ops->start(d->devices[i].fe);
	}
	cuse_ec_frontend_block_signals(&old);
	ret = cached_clock_create(&d->clock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "clock: %s", strerror(-ret));
		return -1;
	}
	for (i = 0; i < d->n_devices; i++) {
		if (cuse_ec_device_start(&d->devices[i]))
			return -1;
		ctl_devs[i] = (struct control_device){ .name = d->devices[i].opt->name,
						       .ctx = d->devices[i].ctx };
		ctxs[i] = d->devices[i].ctx;
	}

	if (d->opts.control) {
		cuse_ec_frontend_block_signals(&old);
		ret = control_server_start_devices(ctl_devs, d->n_devices, d->opts.control,
						   &d->control);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (ret) {
			cuse_ec_log(d, CHARDEV_LOG_ERR, "control socket %s: %s", d->opts.control,
				    strerror(-ret));
			return -1;
		}
		control_server_set_idle_timeout(d->control, d->opts.control_idle_timeout_ms);
	}

	/* After the front end's handlers (phase 1): ours run first, then theirs. */
	ret = shutdown_watch_start(ctxs, d->n_devices, d->opts.shutdown_timeout_ms,
				   cuse_ec_abandon, d, &d->shutdown);
	if (ret) {
		cuse_ec_log(d, CHARDEV_LOG_ERR, "shutdown watch: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

/*
 * Phase 4: the front end serves until an exit signal (or the kernel ends
 * a CUSE session), which ends every device's; --user's drop happens in
 * it, once, when what needs root is open for every device.
 */
static int cuse_ec_run(struct cuse_ec_daemon *d)
{
	struct cuse_ec_frontend *fes[CUSE_EC_DEVICES_MAX];
	unsigned int i;

	for (i = 0; i < d->n_devices; i++)
		fes[i] = d->devices[i].fe;
	return d->fe_ops->run(fes, d->n_devices);
}

/*
 * Phase 5: undo whatever of phases 1-3 happened, in reverse. The control
 * socket and every uevent monitor stop first, so that no command or uevent
 * plugs a fresh EC after the revoke; then every device's revoke, which
 * wakes every parked reader and poller; then each front end and what setup
 * left behind.
 */
static void cuse_ec_teardown(struct cuse_ec_daemon *d)
{
	struct cuse_ec_device *dev;
	unsigned int i;

	/*
	 * A second SIGTERM (an impatient operator, a stop script) must not
	 * cut the teardown short: a handler put back to the default action
	 * would kill the daemon with status 143 and could leave its udev
	 * rules behind. Every other thread is gone or blocks these, so held
	 * here they stay pending and die with the process; SIGKILL still
	 * ends a teardown that hangs.
	 */
	cuse_ec_frontend_block_signals(NULL);
	shutdown_watch_stop(d->shutdown);
	/* Nothing may plug a fresh EC after a revoke: every source stops first. */
	control_server_stop(d->control);
	for (i = 0; i < d->n_devices; i++)
		udev_follow_stop(d->devices[i].follow);
	for (i = 0; i < d->n_devices; i++) {
		if (d->devices[i].ctx)
			chardev_shutdown(d->devices[i].ctx);
	}
	for (i = 0; i < d->n_devices; i++) {
		dev = &d->devices[i];
		if (dev->fe)
			dev->fe->ops->stop(dev->fe);
		chardev_ctx_destroy(dev->ctx);
		if (session_files_close(&dev->files))
			cuse_ec_log(d, CHARDEV_LOG_ERR,
				    "--record %s: the last records were not written",
				    d->opts.record);
	}
	cached_clock_destroy(d->clock);
	cuse_ec_free_profiles(d);
	/* Last: a next daemon for these names starts only after our cleanup. */
	for (i = 0; i < d->n_devices; i++)
		cuse_ec_frontend_destroy(d->devices[i].fe);
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
static int cuse_ec_check(struct cuse_ec_daemon *d, char *argv0)
{
	char why[512], where[16 + sizeof(d->devices[0].sock_path)];
	struct cuse_ec_frontend_config cfg;
	struct ec_recording *rec = NULL;
	struct cuse_ec_device *dev;
	unsigned int i;
	int status = 1;

	if (d->opts.replay && ec_recording_load(d->opts.replay, &rec, why, sizeof(why))) {
		fprintf(stderr, "cuse_ec: --replay %s\n", why);
		return 1;
	}
	ec_recording_destroy(rec);
	if (!cuse_ec_absolute_paths(d) && !cuse_ec_load_profiles(d) && !cuse_ec_check_state(d)) {
		for (i = 0; i < d->n_devices; i++) {
			dev = &d->devices[i];
			cuse_ec_frontend_config(dev, argv0, &cfg);
			d->fe_ops->describe(&cfg, where, sizeof(where));
			printf("ok: would serve /dev/%s %s (%s lifecycle, %s profile)\n",
			       dev->opt->name, where, cfg.lifecycle,
			       dev->opt->profile ? dev->opt->profile : "built-in laptop");
		}
		status = 0;
	}
	cuse_ec_free_profiles(d);
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

	d.fe_ops = cuse_ec_frontend_pick(&d.opts);
	cuse_ec_devices_init(&d);
	if (d.opts.check)
		return cuse_ec_check(&d, argv[0]);
	if (!cuse_ec_setup(&d, argv[0]) && !cuse_ec_daemonize(&d) && !cuse_ec_start(&d))
		status = cuse_ec_run(&d);
	cuse_ec_teardown(&d);
	return status;
}
