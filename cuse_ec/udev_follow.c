// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * udev_follow.c - follow a device's uevents (see udev_follow.h); the
 * matcher it feeds lives in udev_match.c.
 *
 * The monitor thread never waits for readers: a "remove" starts an
 * asynchronous unplug (chardev_unplug_async) whose completion runs in
 * whichever thread lets go of the EC last, so a burst of uevents is drained
 * as fast as it arrives even while a client sits inside a slow command.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <libudev.h>

#include "chardev.h"
#include "chardev_trace.h"
#include "udev_follow.h"

/*
 * While udevd runs it accepts connections on this socket. The file itself
 * proves nothing: it outlives a udevd that was killed or told to exit.
 */
#define UDEV_FOLLOW_UDEVD_SOCKET "/run/udev/control"
/* Re-probe period when udevd's pid cannot be watched (udevd --daemon). */
#define UDEV_FOLLOW_PROBE_MS 1000
/* After the socket file appears, udevd binds before it listens: retry. */
#define UDEV_FOLLOW_NEW_SOCKET_RETRIES 100
#define UDEV_FOLLOW_NEW_SOCKET_RETRY_MS 50
/* Properties looked at per event; a uevent has a dozen or two. */
#define UDEV_FOLLOW_PROPS_MAX 128
/* Socket buffer for a burst of uevents (a flap writes them back to back). */
#define UDEV_FOLLOW_RCVBUF (1024 * 1024)

int udev_follow_udevd_probe(const char *path, pid_t *pid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd, ret = 0;

	if (!path || !pid)
		return -EINVAL;
	*pid = 0;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* Closed at once without a message: udevd drops it silently. */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		ret = errno == EAGAIN ? 0 : -errno;	/* EAGAIN: listening, backlog full */
	else if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		*pid = cred.pid;
	close(fd);
	return ret;
}

int udev_follow_db_value(const char *path, const char *prefix, char *buf, size_t len)
{
	size_t plen, cap = 0;
	char *line = NULL;
	ssize_t n;
	FILE *f;
	int ret = -ENODATA;

	if (!path || !prefix || !prefix[0] || !buf || !len)
		return -EINVAL;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	plen = strlen(prefix);
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (memchr(line, '\0', (size_t)n))
			continue;	/* not a text record */
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if ((size_t)n < plen || memcmp(line, prefix, plen))
			continue;
		if ((size_t)n - plen >= len) {
			ret = -E2BIG;
			break;
		}
		memcpy(buf, line + plen, (size_t)n - plen + 1);
		ret = 0;
		break;
	}
	/* getline() fails at end of file too: only a read error counts. */
	if (n < 0 && !feof(f))
		ret = errno ? -errno : -EIO;
	free(line);
	fclose(f);
	return ret;
}

/* ---- the monitor thread ---- */

/* Poll slots of the monitor thread. */
enum {
	UDEV_FOLLOW_PFD_WAKE,
	UDEV_FOLLOW_PFD_KERNEL,
	UDEV_FOLLOW_PFD_UDEV,
	UDEV_FOLLOW_PFD_INOTIFY,
	UDEV_FOLLOW_PFD_PIDFD,
	UDEV_FOLLOW_PFD_COUNT,
};

/**
 * struct udev_follow - a running monitor.
 * @ctx:     the chardev context it drives
 * @rules:   what it follows
 * @udev:    libudev context
 * @mon:     monitors: [0] the kernel's netlink group, [1] udevd's while
 *           udevd runs (else NULL)
 * @wake_fd: eventfd; written once to make the thread exit
 * @thread:  the thread
 * @last_seqnum: SEQNUM of the latest event acted on (thread only)
 * @seen:    recent SEQNUMs, to count each event once (thread only)
 * @control: udevd's control socket path
 * @control_dir: its directory
 * @inotify_fd: watches @control_dir (or its parent until it exists)
 * @watching_dir: the inotify watch is on @control_dir itself
 * @udevd_pidfd: pidfd of the running udevd, or -1 when not known
 * @udevd_up: udevd accepted our last probe
 * @retries: probes left after the socket file appeared but refused
 */
struct udev_follow {
	struct chardev_ctx *ctx;
	struct udev_follow_rules rules;
	struct udev *udev;
	struct udev_monitor *mon[2];
	int wake_fd;
	pthread_t thread;
	unsigned long long last_seqnum;
	struct udev_follow_seen seen;
	char control[UDEV_FOLLOW_PATH_MAX];
	char control_dir[UDEV_FOLLOW_PATH_MAX];
	int inotify_fd;
	bool watching_dir;
	int udevd_pidfd;
	bool udevd_up;
	unsigned int retries;
};

static const char *const udev_follow_source_names[] = { "kernel", "udev" };

static bool udev_follow_own_rules(const struct udev_follow_rules *rules)
{
	return !rules->devpath[0] && !rules->n_match;
}

static size_t udev_follow_props_of(struct udev_device *dev, struct udev_follow_prop *props)
{
	struct udev_list_entry *entry;
	size_t n = 0;

	udev_list_entry_foreach(entry, udev_device_get_properties_list_entry(dev)) {
		if (n == UDEV_FOLLOW_PROPS_MAX)
			break;
		props[n].key = udev_list_entry_get_name(entry);
		props[n].value = udev_list_entry_get_value(entry);
		n++;
	}
	return n;
}

/* Act on one event; idempotent, so the same event from both sources is fine. */
static void udev_follow_handle(struct udev_follow *uf, struct udev_device *dev,
			       unsigned int src)
{
	struct udev_follow_prop props[UDEV_FOLLOW_PROPS_MAX];
	const char *source = udev_follow_source_names[src];
	enum udev_follow_decision decision;
	const char *uuid, *devpath;
	unsigned long long seqnum;
	size_t n;
	int ret;

	chardev_stat_inc(uf->ctx, src ? CHARDEV_STAT_uevents_udev : CHARDEV_STAT_uevents_kernel);
	n = udev_follow_props_of(dev, props);
	seqnum = udev_follow_seqnum(props, n);
	if (udev_follow_seen_add(&uf->seen, seqnum))
		chardev_stat_inc(uf->ctx, CHARDEV_STAT_uevents_seen);
	decision = udev_follow_decide(&uf->rules, props, n);
	uuid = udev_follow_prop_get(props, n, "SYNTH_UUID");
	devpath = udev_follow_prop_get(props, n, "DEVPATH");
	if (!devpath)
		devpath = "?";
	/*
	 * With udevd running every event comes twice, udevd's copy later. In
	 * a fast flap that late copy of a "remove" would arrive after the
	 * kernel's "add" and unplug the fresh EC: act on each number once.
	 */
	if (decision != UDEV_FOLLOW_IGNORE && seqnum) {
		if (seqnum <= uf->last_seqnum) {
			chardev_log(uf->ctx, CHARDEV_LOG_DEBUG,
				    "uevent #%llu %s (%s): already handled", seqnum, devpath,
				    source);
			return;
		}
		uf->last_seqnum = seqnum;
	}

	switch (decision) {
	case UDEV_FOLLOW_IGNORE:
		chardev_log(uf->ctx, CHARDEV_LOG_DEBUG, "uevent %s %s (%s) ignored",
			    udev_device_get_action(dev) ? udev_device_get_action(dev) : "?",
			    devpath, source);
		return;
	case UDEV_FOLLOW_UNPLUG:
		chardev_trace_uevent(uf->ctx, CHARDEV_TRACE_UEVENT_REMOVE, seqnum);
		/* Returns at once: the revoke completes when the last reader leaves. */
		ret = chardev_unplug_async(uf->ctx, NULL, NULL);
		if (!ret)
			chardev_stat_inc(uf->ctx, CHARDEV_STAT_uevent_unplugs);
		chardev_log(uf->ctx, CHARDEV_LOG_NOTICE,
			    "uevent remove %s (%s, SYNTH_UUID=%s): %s", devpath, source,
			    uuid ? uuid : "-",
			    !ret ? "unplug started" : ret == -ENODEV ? "already unplugged" :
			    "unplug failed");
		return;
	case UDEV_FOLLOW_PLUG:
		chardev_trace_uevent(uf->ctx, CHARDEV_TRACE_UEVENT_ADD, seqnum);
		/* A coldplug replay must not undo an operator's unplug. */
		if (chardev_operator_hold(uf->ctx)) {
			chardev_stat_inc(uf->ctx, CHARDEV_STAT_uevent_adds_held);
			chardev_log(uf->ctx, CHARDEV_LOG_NOTICE,
				    "uevent add %s (%s, SYNTH_UUID=%s): ignored, unplugged by "
				    "the operator until \"plug\"", devpath, source,
				    uuid ? uuid : "-");
			return;
		}
		ret = chardev_plug(uf->ctx);
		if (!ret)
			chardev_stat_inc(uf->ctx, CHARDEV_STAT_uevent_plugs);
		chardev_log(uf->ctx, ret && ret != -EBUSY ? CHARDEV_LOG_ERR : CHARDEV_LOG_NOTICE,
			    "uevent add %s (%s, SYNTH_UUID=%s): %s%s", devpath, source,
			    uuid ? uuid : "-",
			    !ret ? "plugged" : ret == -EBUSY ? "already plugged" : "plug failed: ",
			    ret && ret != -EBUSY ? strerror(-ret) : "");
		return;
	}
}

/*
 * Open and enable a monitor of @source ("kernel" or "udev"). The error is
 * taken right where it happens: a later call (the unref) may change errno.
 */
static int udev_follow_open(struct udev_follow *uf, const char *source,
			    struct udev_monitor **out)
{
	struct udev_monitor *mon;
	int ret;

	errno = 0;
	mon = udev_monitor_new_from_netlink(uf->udev, source);
	if (!mon)
		return errno ? -errno : -ENOMEM;
	/* Following our own device: let the kernel drop everyone else's. */
	if (udev_follow_own_rules(&uf->rules))
		udev_monitor_filter_add_match_subsystem_devtype(mon, "cuse", NULL);
	/* Best effort; the default buffer holds a few hundred events. */
	udev_monitor_set_receive_buffer_size(mon, UDEV_FOLLOW_RCVBUF);
	ret = udev_monitor_enable_receiving(mon);
	if (ret < 0) {
		udev_monitor_unref(mon);
		return ret;
	}
	*out = mon;
	return 0;
}

static void udev_follow_forget_pid(struct udev_follow *uf)
{
	if (uf->udevd_pidfd >= 0)
		close(uf->udevd_pidfd);
	uf->udevd_pidfd = -1;
}

/*
 * Probe udevd and bring the "udev" monitor in line: open it when udevd
 * has appeared, drop it when udevd has gone. A udevd whose pid we know is
 * watched through a pidfd (its exit wakes the thread); pid 1 means systemd
 * holds the socket and starts udevd on demand, so it counts as running.
 */
static void udev_follow_track_udevd(struct udev_follow *uf)
{
	pid_t pid;
	int ret;

	ret = udev_follow_udevd_probe(uf->control, &pid);
	if (ret) {
		udev_follow_forget_pid(uf);
		if (!uf->udevd_up)
			return;
		uf->udevd_up = false;
		if (uf->mon[1])
			udev_monitor_unref(uf->mon[1]);
		uf->mon[1] = NULL;
		chardev_stat_inc(uf->ctx, CHARDEV_STAT_udevd_vanished);
		chardev_log(uf->ctx, CHARDEV_LOG_NOTICE,
			    "udevd has gone (%s): following kernel uevents only",
			    strerror(-ret));
		return;
	}
	uf->retries = 0;
	udev_follow_forget_pid(uf);
	if (pid > 1)
		uf->udevd_pidfd = pidfd_open(pid, 0);	/* -1: pid gone (a forked daemon) */
	if (uf->udevd_up)
		return;
	uf->udevd_up = true;
	ret = udev_follow_open(uf, "udev", &uf->mon[1]);
	chardev_stat_inc(uf->ctx, CHARDEV_STAT_udevd_appeared);
	if (!ret)
		chardev_log(uf->ctx, CHARDEV_LOG_NOTICE,
			    "udevd is running (pid %d): following its uevents too", (int)pid);
	else
		chardev_log(uf->ctx, CHARDEV_LOG_WARNING,
			    "udevd is running but its uevents cannot be monitored: %s",
			    strerror(-ret));
}

/* Watch the socket's directory, or its parent until the directory exists. */
static void udev_follow_watch(struct udev_follow *uf)
{
	char parent[UDEV_FOLLOW_PATH_MAX];
	char *slash;

	if (inotify_add_watch(uf->inotify_fd, uf->control_dir,
			      IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF |
			      IN_ONLYDIR) >= 0) {
		uf->watching_dir = true;
		return;
	}
	uf->watching_dir = false;
	strcpy(parent, uf->control_dir);
	slash = strrchr(parent, '/');
	if (slash == parent)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	if (inotify_add_watch(uf->inotify_fd, parent, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0)
		chardev_log(uf->ctx, CHARDEV_LOG_WARNING,
			    "cannot watch %s for udevd: %s", parent, strerror(errno));
}

/* Something changed where udevd's socket lives. */
static void udev_follow_inotify(struct udev_follow *uf)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	const char *base = strrchr(uf->control, '/') + 1;
	const char *dir_base = strrchr(uf->control_dir, '/') + 1;
	bool probe = false, rewatch = false;
	const struct inotify_event *ev;
	ssize_t len;
	char *p;

	while ((len = read(uf->inotify_fd, buf, sizeof(buf))) > 0) {
		for (p = buf; p < buf + len; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF))
				rewatch = true;
			if (!ev->len)
				continue;
			if (uf->watching_dir && !strcmp(ev->name, base))
				probe = true;
			if (!uf->watching_dir && !strcmp(ev->name, dir_base))
				rewatch = probe = true;
		}
	}
	if (rewatch) {
		/* Start over: drop every watch, add the right one. */
		close(uf->inotify_fd);
		uf->inotify_fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
		if (uf->inotify_fd >= 0)
			udev_follow_watch(uf);
	}
	if (probe) {
		uf->retries = UDEV_FOLLOW_NEW_SOCKET_RETRIES;
		udev_follow_track_udevd(uf);
	}
}

static int udev_follow_timeout(const struct udev_follow *uf)
{
	if (!uf->udevd_up && uf->retries)
		return UDEV_FOLLOW_NEW_SOCKET_RETRY_MS;
	/* Running but not watchable by pid (and not systemd's socket). */
	if (uf->udevd_up && uf->udevd_pidfd < 0)
		return UDEV_FOLLOW_PROBE_MS;
	return -1;
}

static void *udev_follow_thread(void *arg)
{
	struct udev_follow *uf = arg;
	struct pollfd pfd[UDEV_FOLLOW_PFD_COUNT];
	struct udev_device *dev;
	unsigned int i;
	int n;

	for (;;) {
		pfd[UDEV_FOLLOW_PFD_WAKE].fd = uf->wake_fd;
		pfd[UDEV_FOLLOW_PFD_KERNEL].fd = udev_monitor_get_fd(uf->mon[0]);
		pfd[UDEV_FOLLOW_PFD_UDEV].fd = uf->mon[1] ? udev_monitor_get_fd(uf->mon[1]) : -1;
		pfd[UDEV_FOLLOW_PFD_INOTIFY].fd = uf->inotify_fd;
		pfd[UDEV_FOLLOW_PFD_PIDFD].fd = uf->udevd_pidfd;
		for (i = 0; i < UDEV_FOLLOW_PFD_COUNT; i++) {
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		n = poll(pfd, UDEV_FOLLOW_PFD_COUNT, udev_follow_timeout(uf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			chardev_log(uf->ctx, CHARDEV_LOG_ERR, "uevent monitor: poll: %s",
				    strerror(errno));
			break;
		}
		if (pfd[UDEV_FOLLOW_PFD_WAKE].revents)
			break;
		if (!n) {
			if (uf->retries)
				uf->retries--;
			udev_follow_track_udevd(uf);
			continue;
		}
		/* Events first: a udevd that just died may have sent its last. */
		for (i = 0; i < 2; i++) {
			if (!pfd[UDEV_FOLLOW_PFD_KERNEL + i].revents || !uf->mon[i])
				continue;
			/* Drain: the sockets are non-blocking, NULL means empty
			 * (or a message libudev refused, e.g. from a non-root sender). */
			while ((dev = udev_monitor_receive_device(uf->mon[i]))) {
				udev_follow_handle(uf, dev, i);
				udev_device_unref(dev);
			}
		}
		if (pfd[UDEV_FOLLOW_PFD_PIDFD].revents) {
			udev_follow_forget_pid(uf);
			udev_follow_track_udevd(uf);
		}
		if (pfd[UDEV_FOLLOW_PFD_INOTIFY].revents)
			udev_follow_inotify(uf);
	}
	return NULL;
}

/*
 * Whether the followed device exists now. Returns 1, 0, or -errno when it
 * cannot be told (then the EC stays as it is).
 */
static int udev_follow_scan(struct udev_follow *uf)
{
	struct udev_follow_prop props[UDEV_FOLLOW_PROPS_MAX];
	struct udev_list_entry *entry;
	struct udev_enumerate *en;
	struct udev_device *dev;
	char syspath[UDEV_FOLLOW_PATH_MAX + 8];
	int found = 0;

	if (uf->rules.devpath[0]) {
		snprintf(syspath, sizeof(syspath), "/sys%s", uf->rules.devpath);
		dev = udev_device_new_from_syspath(uf->udev, syspath);
		if (!dev)
			return 0;
		found = udev_follow_matches(&uf->rules, props, udev_follow_props_of(dev, props));
		udev_device_unref(dev);
		return found;
	}
	en = udev_enumerate_new(uf->udev);
	if (!en)
		return -ENOMEM;
	if (udev_enumerate_scan_devices(en) < 0) {
		udev_enumerate_unref(en);
		return -EIO;
	}
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en)) {
		dev = udev_device_new_from_syspath(uf->udev, udev_list_entry_get_name(entry));
		if (!dev)
			continue;
		found = udev_follow_matches(&uf->rules, props, udev_follow_props_of(dev, props));
		udev_device_unref(dev);
		if (found)
			break;
	}
	udev_enumerate_unref(en);
	return found;
}

static int udev_follow_set_control(struct udev_follow *uf, const char *path)
{
	char *slash;

	if (!path)
		path = UDEV_FOLLOW_UDEVD_SOCKET;
	if (path[0] != '/' || strlen(path) >= sizeof(uf->control))
		return -EINVAL;
	strcpy(uf->control, path);
	strcpy(uf->control_dir, path);
	slash = strrchr(uf->control_dir, '/');
	if (slash == uf->control_dir || !slash[1])
		return -EINVAL;
	*slash = '\0';
	return 0;
}

int udev_follow_start(struct chardev_ctx *ctx, const struct udev_follow_rules *rules,
		      struct udev_follow **out)
{
	struct udev_follow *uf;
	int ret = -ENOMEM, present;

	if (!ctx || !rules || !out)
		return -EINVAL;
	uf = calloc(1, sizeof(*uf));
	if (!uf)
		return -ENOMEM;
	uf->ctx = ctx;
	uf->rules = *rules;
	uf->udevd_pidfd = -1;
	ret = udev_follow_set_control(uf, rules->udevd_control);
	if (ret)
		goto err_free;
	uf->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (uf->wake_fd < 0) {
		ret = -errno;
		goto err_free;
	}
	uf->inotify_fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (uf->inotify_fd < 0) {
		ret = -errno;
		goto err_fd;
	}
	ret = -ENOMEM;
	uf->udev = udev_new();
	if (!uf->udev)
		goto err_inotify;
	ret = udev_follow_open(uf, "kernel", &uf->mon[0]);
	if (ret)
		goto err_udev;
	/* Watch first, then probe: a udevd starting in between is not missed. */
	udev_follow_watch(uf);
	udev_follow_track_udevd(uf);
	/*
	 * Monitors are receiving, so a device that comes or goes from here on
	 * is an event; what is there now decides the EC's first state.
	 */
	if (!udev_follow_own_rules(&uf->rules)) {
		present = udev_follow_scan(uf);
		if (!present && chardev_is_plugged(ctx)) {
			chardev_unplug(ctx);
			chardev_log(ctx, CHARDEV_LOG_NOTICE,
				    "followed device absent: EC unplugged until it appears");
		} else if (present < 0) {
			chardev_log(ctx, CHARDEV_LOG_WARNING,
				    "cannot list devices (%s): EC left plugged", strerror(-present));
		}
	}
	ret = -pthread_create(&uf->thread, NULL, udev_follow_thread, uf);
	if (ret)
		goto err_mon;
	if (!udev_follow_own_rules(&uf->rules))
		chardev_log(ctx, CHARDEV_LOG_INFO, "following uevents of %s (%u match rules)%s",
			    uf->rules.devpath[0] ? uf->rules.devpath : "any device",
			    uf->rules.n_match, uf->mon[1] ? ", kernel and udev" : ", kernel");
	else
		chardev_log(ctx, CHARDEV_LOG_INFO, "following uevents of cuse/%s",
			    uf->rules.name);
	*out = uf;
	return 0;

err_mon:
	if (uf->mon[1])
		udev_monitor_unref(uf->mon[1]);
	udev_monitor_unref(uf->mon[0]);
	udev_follow_forget_pid(uf);
err_udev:
	udev_unref(uf->udev);
err_inotify:
	close(uf->inotify_fd);
err_fd:
	close(uf->wake_fd);
err_free:
	free(uf);
	return ret;
}

void udev_follow_stop(struct udev_follow *uf)
{
	uint64_t one = 1;

	if (!uf)
		return;
	if (write(uf->wake_fd, &one, sizeof(one)) != sizeof(one))
		chardev_log(uf->ctx, CHARDEV_LOG_ERR, "uevent monitor: cannot wake: %s",
			    strerror(errno));
	pthread_join(uf->thread, NULL);
	if (uf->mon[1])
		udev_monitor_unref(uf->mon[1]);
	udev_monitor_unref(uf->mon[0]);
	udev_follow_forget_pid(uf);
	udev_unref(uf->udev);
	if (uf->inotify_fd >= 0)
		close(uf->inotify_fd);
	close(uf->wake_fd);
	free(uf);
}
