// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * node_setup.c - the node's permissions, owned by the daemon's options
 * (node_setup.h): the runtime udev rule, and applying the options to the
 * kernel's node before and after udevd.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "node.h"
#include "node_setup.h"
#include "path_wait.h"
#include "udev_follow.h"

/* Seconds `udevadm control --reload` may wait for udevd's answer. */
#define NODE_SETUP_RELOAD_TIMEOUT "5"
#define NODE_SETUP_WAIT_MS 10000
/*
 * Times udevd is asked to look again at a node it set up with rules read
 * before ours, and the pause before each retry: udevd 252 rereads changed
 * rules files by itself on an event at most every 3 s.
 */
#define NODE_SETUP_RULE_RETRIES 3
#define NODE_SETUP_RECHECK_MS 3500
/*
 * How often a wait for udevd's entry looks again at udevd's queue, and the
 * longest any wait goes without looking at node_setup_cancel().
 */
#define NODE_SETUP_QUEUE_POLL_MS 200
/* A wait for udevd goes on while udevd works, up to this many times wait_ms. */
#define NODE_SETUP_BUSY_FACTOR 6

extern char **environ;

static void ns_log(struct node_setup *ns, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ns_log(struct node_setup *ns, int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!ns->log)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ns->log(ns->log_arg, level, msg);
}

void node_setup_init(struct node_setup *ns, const char *name, node_setup_log_fn log, void *arg)
{
	*ns = (struct node_setup){
		.name = name,
		.mode = -1,
		.owner = (uid_t)-1,
		.group = (gid_t)-1,
		.dev_dir = "/dev",
		.sysfs_dir = "/sys/class/cuse",
		.udev_dir = "/run/udev",
		.udevadm = "udevadm",
		.wait_ms = NODE_SETUP_WAIT_MS,
		.recheck_ms = NODE_SETUP_RECHECK_MS,
		.log = log,
		.log_arg = arg,
	};
}

/* Is udevd there to set the node up? Its control socket answers. */
static bool ns_udevd_runs(struct node_setup *ns)
{
	char control[256];
	pid_t udevd;

	snprintf(control, sizeof(control), "%s/control", ns->udev_dir);
	return !udev_follow_udevd_probe(control, &udevd);
}

/* udevd has events queued or running: it keeps /run/udev/queue meanwhile. */
static bool ns_udevd_busy(struct node_setup *ns)
{
	char queue[256];

	snprintf(queue, sizeof(queue), "%s/queue", ns->udev_dir);
	return !access(queue, F_OK);
}

/* --mode, --owner or --group given. */
static bool ns_has_options(const struct node_setup *ns)
{
	return ns->mode >= 0 || ns->owner != (uid_t)-1 || ns->group != (gid_t)-1;
}

static void ns_udevd_reload(struct node_setup *ns)
{
	char *const argv[] = { (char *)ns->udevadm, "control",
			       "--timeout=" NODE_SETUP_RELOAD_TIMEOUT, "--reload", NULL };
	int status, ret;
	pid_t pid;

	if (!ns->udevadm || !ns_udevd_runs(ns))
		return;	/* no udevd: it reads every rule when it starts */
	ret = posix_spawnp(&pid, ns->udevadm, NULL, NULL, argv, environ);
	if (ret) {
		ns_log(ns, LOG_WARNING, "%s control --reload: %s", ns->udevadm, strerror(ret));
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		ns_log(ns, LOG_WARNING,
		       "%s control --reload failed: udevd may apply old rules to %s",
		       ns->udevadm, ns->name);
}

/* The rule's one line: what udevd matches and what it must set. */
static int ns_rule_write(struct node_setup *ns, FILE *f)
{
	fprintf(f, "# Written by cuse_ec (pid %d) for %s/%s; removed when it exits.\n",
		(int)getpid(), ns->dev_dir, ns->name);
	fprintf(f, "SUBSYSTEM==\"cuse\", KERNEL==\"%s\", ENV{CUSE_EC}=\"1\", "
		"ENV{" NODE_SETUP_INSTANCE_KEY "}=\"%s\"", ns->name, ns->instance);
	if (ns->mode >= 0)
		fprintf(f, ", MODE:=\"%04o\"", (unsigned int)ns->mode);
	if (ns->owner != (uid_t)-1)
		fprintf(f, ", OWNER:=\"%u\"", (unsigned int)ns->owner);
	if (ns->group != (gid_t)-1)
		fprintf(f, ", GROUP:=\"%u\"", (unsigned int)ns->group);
	fputc('\n', f);
	return fclose(f) ? -errno : 0;
}

int node_rule_install(struct node_setup *ns)
{
	char dir[sizeof(ns->rule) - 64], tmp[sizeof(ns->rule) + 8];
	FILE *f;
	int n, ret;

	ns->rule[0] = '\0';
	ns->instance[0] = '\0';
	if (mkdir(ns->udev_dir, 0755) && errno != EEXIST)
		return -errno;	/* no /run: no udevd either */
	n = snprintf(dir, sizeof(dir), "%s/rules.d", ns->udev_dir);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENAMETOOLONG;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		ns_log(ns, LOG_WARNING, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	snprintf(ns->rule, sizeof(ns->rule), "%s/70-cuse_ec-%s.rules", dir, ns->name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", ns->rule);
	snprintf(ns->instance, sizeof(ns->instance), "%d.%" PRIu64, (int)getpid(),
		 ns->started_usec);
	/* The clock file times are taken from: an entry written later is newer. */
	clock_gettime(CLOCK_REALTIME_COARSE, &ns->rule_written);
	f = fopen(tmp, "we");
	if (!f) {
		ret = -errno;
		goto err;
	}
	ret = ns_rule_write(ns, f);
	/* Renamed into place: udevd never reads half a rule. */
	if (!ret && rename(tmp, ns->rule))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		goto err;
	}
	ns_udevd_reload(ns);
	return 0;

err:
	ns_log(ns, LOG_WARNING, "cannot write %s: %s", ns->rule, strerror(-ret));
	ns->rule[0] = '\0';
	ns->instance[0] = '\0';
	return ret;
}

void node_rule_remove(struct node_setup *ns)
{
	if (ns->rule[0] && unlink(ns->rule))
		ns_log(ns, LOG_WARNING, "%s: %s", ns->rule, strerror(errno));
}

/*
 * Apply the options to the node at @path. The node is pinned with
 * O_PATH|O_NOFOLLOW and checked through the descriptor to be the character
 * device the kernel numbered for our CUSE device, so what is changed is
 * never a symlink, a file swapped in under the name (/dev is writable by
 * udevd and root's tools) or another device's node. An O_PATH descriptor
 * takes fchownat(AT_EMPTY_PATH); its mode is set through /proc/self/fd,
 * which names that same inode.
 */
static int ns_apply(struct node_setup *ns, const char *path)
{
	char fdpath[32], err[256];
	dev_t ours;
	int fd, ret;

	if (!ns_has_options(ns))
		return 0;	/* run for udevd's sake only (node_setup_wanted()) */
	ret = node_cuse_devnum(ns->sysfs_dir, ns->name, &ours);
	if (ret) {
		ns_log(ns, LOG_ERR, "%s/%s/dev: %s; mode/owner not applied", ns->sysfs_dir,
		       ns->name, strerror(-ret));
		return ret;
	}
	fd = node_open_own(path, ours, err, sizeof(err));
	if (fd == -ENODEV) {
		/* Serving a node that is someone else's device helps nobody. */
		ns_log(ns, LOG_ERR, "%s; mode/owner not applied; exiting", err);
		return fd;
	}
	if (fd < 0) {
		ns_log(ns, LOG_ERR, "%s: %s", path, strerror(-fd));
		return fd;
	}
	ret = 0;
	if ((ns->owner != (uid_t)-1 || ns->group != (gid_t)-1) &&
	    fchownat(fd, "", ns->owner, ns->group, AT_EMPTY_PATH)) {
		ret = -errno;
		ns_log(ns, LOG_ERR, "chown %s: %s", path, strerror(errno));
	}
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	if (ns->mode >= 0 && chmod(fdpath, (mode_t)ns->mode)) {
		ret = -errno;
		ns_log(ns, LOG_ERR, "chmod %s: %s", path, strerror(errno));
	}
	close(fd);
	return ret;
}

/*
 * Did udevd write the entry at @path after this daemon started? By its
 * "I:" line (microseconds of CLOCK_MONOTONIC), or, for an entry that
 * records no time (udevd writes an empty one for a device it records
 * nothing about), by the file's time against the rule's.
 */
static bool ns_entry_is_new(struct node_setup *ns, const char *path, bool by_mtime)
{
	char value[64];
	struct stat st;
	uint64_t usec;
	int ret;

	ret = udev_follow_db_value(path, "I:", value, sizeof(value));
	if (!ret)
		return !parse_uint(value, "udev init time", 0, UINT64_MAX, &usec, NULL, 0) &&
		       usec >= ns->started_usec;
	if (ret != -ENODATA)
		return false;
	if (!by_mtime)
		return true;
	return !stat(path, &st) &&
	       (st.st_mtim.tv_sec > ns->rule_written.tv_sec ||
		(st.st_mtim.tv_sec == ns->rule_written.tv_sec &&
		 st.st_mtim.tv_nsec >= ns->rule_written.tv_nsec));
}

/* Sleep @ms, in slices: true when node_setup_cancel() came meanwhile. */
static bool ns_nap(struct node_setup *ns, int ms)
{
	while (ms > 0 && !atomic_load(&ns->cancelled)) {
		int slice = ms < NODE_SETUP_QUEUE_POLL_MS ? ms : NODE_SETUP_QUEUE_POLL_MS;

		mono_sleep_ns((uint64_t)slice * 1000000);
		ms -= slice;
	}
	return atomic_load(&ns->cancelled);
}

bool node_setup_wanted(const struct node_setup *ns)
{
	return ns_has_options(ns) || ns->rule[0];
}

void node_setup_cancel(struct node_setup *ns)
{
	atomic_store(&ns->cancelled, true);
}

/*
 * One path_wait() of a longer wait that has @left_ms to go (0 or less:
 * one last look): a slice of NODE_SETUP_QUEUE_POLL_MS at most, so that
 * the caller looks at udevd's queue and at node_setup_cancel() that often.
 */
static int ns_wait_slice(struct node_setup *ns, const char *dir, const char *name,
			 path_wait_ready_fn ready, void *arg, int64_t left_ms)
{
	if (atomic_load(&ns->cancelled))
		return -ECANCELED;
	if (left_ms < 0)
		left_ms = 0;
	return path_wait(dir, name, ready, arg,
			 left_ms < NODE_SETUP_QUEUE_POLL_MS ? (int)left_ms : NODE_SETUP_QUEUE_POLL_MS);
}

/*
 * path_wait() test for udevd's entry of our node: written when udevd set
 * up this daemon's node, not another device that had the same number. The
 * kernel gives a new CUSE device the number of one just removed, and udevd
 * may be behind: the earlier device's entry can still be there, or even be
 * written only now, when udevd handles that device's late "add". Only our
 * runtime rule's instance names the node's daemon. Without that rule udevd
 * cannot know us: an entry then counts when udevd set it up after this
 * daemon started, or has no such line. With the rule, a new entry without
 * the instance is ours set up by rules udevd read before ours
 * (@ns->without_rule): node_setup_run() asks udevd to look again.
 */
static bool ns_udevd_entry_is_ours(const char *path, void *arg)
{
	struct node_setup *ns = arg;
	char value[64];
	int ret;

	if (!ns->instance[0])
		return ns_entry_is_new(ns, path, false);
	ret = udev_follow_db_value(path, "E:" NODE_SETUP_INSTANCE_KEY "=", value, sizeof(value));
	/* Once udevd was asked to look again, its "change" must be done too. */
	if (!ret && !strcmp(value, ns->instance))
		return !ns->asked_again || !ns_udevd_busy(ns);
	/*
	 * Only with udevd idle is a new entry without any instance our node's:
	 * while events wait, it may be the previous device's, rewritten by a
	 * late event of it after its daemon's rule went away.
	 */
	if (ret == -ENODATA && ns_entry_is_new(ns, path, true) && !ns_udevd_busy(ns)) {
		ns->without_rule = true;
		return true;
	}
	if (ret != -ENOENT && !ns->foreign_logged) {
		ns->foreign_logged = true;
		ns_log(ns, LOG_INFO, "%s is not %s/%s's (%s %s): another device had its number; "
		       "waiting for udevd to set up ours", path, ns->dev_dir, ns->name,
		       NODE_SETUP_INSTANCE_KEY, ret ? "unset" : value);
	}
	return false;
}

/*
 * path_wait() for udevd's entry, looking again every so often: what
 * decides also includes udevd's queue, whose end no event in data/ marks.
 * udevd handles one device's events in order, so ours may wait behind a
 * previous device's slow ones (its rules' programs, a loaded machine):
 * while udevd has events queued the wait goes on, @ns->wait_ms past the
 * last time it had, and NODE_SETUP_BUSY_FACTOR times that at most.
 */
static int ns_wait_entry(struct node_setup *ns, const char *data, const char *entry)
{
	int64_t now = (int64_t)(mono_now_ns() / 1000000), left;
	int64_t deadline = now + ns->wait_ms;
	int64_t cap = now + (int64_t)ns->wait_ms * NODE_SETUP_BUSY_FACTOR;
	int ret;

	for (;;) {
		now = (int64_t)(mono_now_ns() / 1000000);
		if (ns_udevd_busy(ns) && now + ns->wait_ms > deadline)
			deadline = now + ns->wait_ms < cap ? now + ns->wait_ms : cap;
		left = deadline - now;
		ret = ns_wait_slice(ns, data, entry, ns_udevd_entry_is_ours, ns, left);
		if (ret != -ETIMEDOUT || left <= 0)
			return ret;
	}
}

/* A "change" uevent for our device: udevd handles it with the rules it has now. */
static int ns_udevd_look_again(struct node_setup *ns)
{
	char path[320];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/uevent", ns->sysfs_dir, ns->name);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs("change\n", f);
	return fclose(f) ? -errno : 0;
}

/*
 * udevd handles the node's first "add" on its own time: with rules it may
 * have read before ours was in place, after our own chmod. It records the
 * device in its database only once it has set the node up, so once our
 * node's entry exists our options are applied again and the last word is
 * ours. The database directory itself may not exist before udevd's first
 * entry: path_wait() then watches its parent until it does.
 *
 * udevd may also have set the node up without our rule although we asked
 * it to read the rule before the node existed: systemd-udevd 252 drops a
 * control message that arrives before it has turned on credentials for
 * the connection ("Invalid sender uid 65534, ignoring message" in its
 * debug log), and `udevadm control --reload` still exits 0. Then the node
 * misses what only our rule gives (CUSE_EC=1, the shipped rule's group):
 * udevd is asked again, and sent a "change" for the node to apply it.
 */
static int ns_apply_after_udevd(struct node_setup *ns, const char *path, dev_t rdev)
{
	char data[256], entry[32];
	int ret, tries = 0;

	if (!ns_udevd_runs(ns))
		return 0;	/* no udevd: nobody else sets the node up */
	snprintf(data, sizeof(data), "%s/data", ns->udev_dir);
	snprintf(entry, sizeof(entry), "c%u:%u", major(rdev), minor(rdev));
	for (;;) {
		ns->without_rule = false;
		ret = ns_wait_entry(ns, data, entry);
		if (ret || !ns->without_rule || tries == NODE_SETUP_RULE_RETRIES)
			break;
		if (tries++ && ns_nap(ns, ns->recheck_ms))
			return -ECANCELED;
		ns_log(ns, LOG_NOTICE, "udevd set up %s with rules read before ours; asking it "
		       "to read them and look again (%d of %d)", path, tries,
		       NODE_SETUP_RULE_RETRIES);
		ns_udevd_reload(ns);
		ns->asked_again = true;
		ret = ns_udevd_look_again(ns);
		if (ret) {
			ns_log(ns, LOG_WARNING, "%s/%s/uevent: %s", ns->sysfs_dir, ns->name,
			       strerror(-ret));
			break;
		}
	}
	if (ret == -ECANCELED)
		return ret;
	if (ret == -ETIMEDOUT)
		ns_log(ns, LOG_WARNING, "udevd has not set up %s%s (%d ms after it was last "
		       "busy); options applied again without it", path,
		       ns->instance[0] ? " with the runtime rule" : "", ns->wait_ms);
	else if (!ret && ns->without_rule)
		ns_log(ns, LOG_WARNING, "udevd set up %s without the runtime rule; options "
		       "applied again without it", path);
	else if (ret)
		ns_log(ns, LOG_WARNING, "waiting for udevd to set up %s: %s; options applied "
		       "again without it", path, strerror(-ret));
	return ns_apply(ns, path);
}

/* path_wait() test for the kernel's node: a character device, its stat kept. */
static bool ns_node_is_chardev(const char *path, void *arg)
{
	struct stat *st = arg;

	return !stat(path, st) && S_ISCHR(st->st_mode);
}

/* path_wait() for the node, up to @ns->wait_ms, looking at the cancel flag. */
static int ns_wait_node(struct node_setup *ns, struct stat *st)
{
	int64_t deadline = (int64_t)(mono_now_ns() / 1000000) + ns->wait_ms, left;
	int ret;

	for (;;) {
		left = deadline - (int64_t)(mono_now_ns() / 1000000);
		ret = ns_wait_slice(ns, ns->dev_dir, ns->name, ns_node_is_chardev, st, left);
		if (ret != -ETIMEDOUT || left <= 0)
			return ret;
	}
}

int node_setup_run(struct node_setup *ns)
{
	char path[256];
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", ns->dev_dir, ns->name);
	ret = ns_wait_node(ns, &st);
	if (ret == -ECANCELED)
		return ret;
	if (ret == -ETIMEDOUT) {
		ns_log(ns, LOG_ERR, "%s did not appear; mode/owner not applied", path);
		return ret;
	}
	if (ret) {
		ns_log(ns, LOG_ERR, "waiting for %s: %s; mode/owner not applied", path,
		       strerror(-ret));
		return ret;
	}
	ret = ns_apply(ns, path);
	if (!ret)
		ret = ns_apply_after_udevd(ns, path, st.st_rdev);
	if (!ret)
		ns_log(ns, LOG_INFO, "%s ready", path);
	return ret;
}
