// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * udev_follow.c - follow a device's uevents (see udev_follow.h).
 *
 * The monitor thread never waits for readers: a "remove" starts an
 * asynchronous unplug (chardev_unplug_async) whose completion runs in
 * whichever thread lets go of the EC last, so a burst of uevents is drained
 * as fast as it arrives even while a client sits inside a slow command.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <libudev.h>

#include "chardev.h"
#include "udev_follow.h"

/* udevd's control socket: it exists exactly while a udevd runs. */
#define UDEV_FOLLOW_UDEVD_SOCKET "/run/udev/control"
/* Properties looked at per event; a uevent has a dozen or two. */
#define UDEV_FOLLOW_PROPS_MAX 128
/* Socket buffer for a burst of uevents (a flap writes them back to back). */
#define UDEV_FOLLOW_RCVBUF (1024 * 1024)

static bool udev_follow_key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A value (or path) byte we accept: printable, no whitespace. */
static bool udev_follow_value_char(char c)
{
	return (unsigned char)c > ' ' && (unsigned char)c < 0x7f;
}

/**
 * udev_follow_parse_match() - check and split "KEY=VALUE".
 * @text: the argument
 * @out:  the rule
 *
 * Return: 0, -EINVAL or -ENAMETOOLONG.
 */
int udev_follow_parse_match(const char *text, struct udev_follow_match *out)
{
	const char *eq, *p;
	size_t key_len, value_len;

	if (!text || !out)
		return -EINVAL;
	eq = strchr(text, '=');
	if (!eq)
		return -EINVAL;
	key_len = (size_t)(eq - text);
	value_len = strlen(eq + 1);
	if (!key_len || !value_len)
		return -EINVAL;
	if (key_len >= UDEV_FOLLOW_KEY_MAX || value_len >= UDEV_FOLLOW_VALUE_MAX)
		return -ENAMETOOLONG;
	for (p = text; p < eq; p++)
		if (!udev_follow_key_char(*p))
			return -EINVAL;
	for (p = eq + 1; *p; p++)
		if (!udev_follow_value_char(*p))
			return -EINVAL;
	memcpy(out->key, text, key_len);
	out->key[key_len] = '\0';
	memcpy(out->value, eq + 1, value_len + 1);
	return 0;
}

/**
 * udev_follow_parse_syspath() - turn a --follow argument into a DEVPATH.
 * @text:    the argument
 * @devpath: UDEV_FOLLOW_PATH_MAX bytes
 *
 * Return: 0, -EINVAL or -ENAMETOOLONG.
 */
int udev_follow_parse_syspath(const char *text, char *devpath)
{
	const char *p, *rel = text;
	size_t len;

	if (!text || !devpath || text[0] != '/')
		return -EINVAL;
	/* Uevents carry the path below /sys; accept either spelling. */
	if (!strncmp(text, "/sys/", 5) || !strcmp(text, "/sys"))
		rel = text + 4;
	len = strlen(rel);
	while (len > 0 && rel[len - 1] == '/')
		len--;
	if (!len)
		return -EINVAL;
	if (len >= UDEV_FOLLOW_PATH_MAX)
		return -ENAMETOOLONG;
	for (p = rel; p < rel + len; p++) {
		if (!udev_follow_value_char(*p))
			return -EINVAL;
		/* ".." would name some other device than the one written. */
		if (p[0] == '/' && p[1] == '.' && p[2] == '.' && (p[3] == '/' || p + 3 == rel + len))
			return -EINVAL;
	}
	memcpy(devpath, rel, len);
	devpath[len] = '\0';
	return 0;
}

/**
 * udev_follow_rules_init() - rules from the command line.
 * @rules:   result
 * @name:    --name
 * @syspath: --follow or NULL
 * @matches: --follow-match arguments
 * @n:       count
 *
 * Return: 0, -EINVAL or -ENAMETOOLONG.
 */
int udev_follow_rules_init(struct udev_follow_rules *rules, const char *name,
			   const char *syspath, const char *const *matches, unsigned int n)
{
	unsigned int i;
	int ret;

	if (!rules || !name || !name[0] || n > UDEV_FOLLOW_MATCH_MAX)
		return -EINVAL;
	memset(rules, 0, sizeof(*rules));
	if (strlen(name) >= sizeof(rules->name))
		return -ENAMETOOLONG;
	strcpy(rules->name, name);
	if (syspath) {
		ret = udev_follow_parse_syspath(syspath, rules->devpath);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		ret = udev_follow_parse_match(matches[i], &rules->match[i]);
		if (ret)
			return ret;
	}
	rules->n_match = n;
	return 0;
}

/**
 * udev_follow_prop_get() - a property's value.
 * @props: properties
 * @n:     count
 * @key:   name
 *
 * Return: value or NULL.
 */
const char *udev_follow_prop_get(const struct udev_follow_prop *props, size_t n,
				 const char *key)
{
	size_t i;

	if (!props || !key)
		return NULL;
	for (i = 0; i < n; i++)
		if (props[i].key && props[i].value && !strcmp(props[i].key, key))
			return props[i].value;
	return NULL;
}

/* Default rule: the daemon's own CUSE device, /devices/virtual/cuse/NAME. */
static bool udev_follow_is_own_device(const struct udev_follow_rules *rules,
				      const struct udev_follow_prop *props, size_t n,
				      const char *devpath)
{
	const char *subsystem = udev_follow_prop_get(props, n, "SUBSYSTEM");
	const char *sysname = strrchr(devpath, '/');

	if (!subsystem || strcmp(subsystem, "cuse"))
		return false;
	sysname = sysname ? sysname + 1 : devpath;
	return !strcmp(sysname, rules->name);
}

/**
 * udev_follow_decide() - what one uevent means for the EC.
 * @rules: rules
 * @props: properties
 * @n:     count
 *
 * Return: the decision.
 */
enum udev_follow_decision udev_follow_decide(const struct udev_follow_rules *rules,
					     const struct udev_follow_prop *props, size_t n)
{
	const char *action = udev_follow_prop_get(props, n, "ACTION");
	const char *devpath = udev_follow_prop_get(props, n, "DEVPATH");
	const char *value;
	unsigned int i;

	if (!rules || !action || !devpath)
		return UDEV_FOLLOW_IGNORE;
	/* Only the two actions that mean "there" / "gone"; change, bind,
	 * unbind, move and online/offline leave the EC as it is. */
	if (strcmp(action, "remove") && strcmp(action, "add"))
		return UDEV_FOLLOW_IGNORE;

	if (!rules->devpath[0] && !rules->n_match) {
		if (!udev_follow_is_own_device(rules, props, n, devpath))
			return UDEV_FOLLOW_IGNORE;
	}
	if (rules->devpath[0] && strcmp(rules->devpath, devpath))
		return UDEV_FOLLOW_IGNORE;
	for (i = 0; i < rules->n_match; i++) {
		value = udev_follow_prop_get(props, n, rules->match[i].key);
		if (!value || strcmp(value, rules->match[i].value))
			return UDEV_FOLLOW_IGNORE;
	}
	return action[0] == 'r' ? UDEV_FOLLOW_UNPLUG : UDEV_FOLLOW_PLUG;
}

/**
 * udev_follow_seqnum() - SEQNUM as a number.
 * @props: properties
 * @n:     count
 *
 * Return: the number or 0.
 */
unsigned long long udev_follow_seqnum(const struct udev_follow_prop *props, size_t n)
{
	const char *text = udev_follow_prop_get(props, n, "SEQNUM");
	unsigned long long v;
	char *end;

	if (!text || text[0] < '0' || text[0] > '9')
		return 0;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return 0;
	return v;
}

/* ---- the monitor thread ---- */

/**
 * struct udev_follow - a running monitor.
 * @ctx:     the chardev context it drives
 * @rules:   what it follows
 * @udev:    libudev context
 * @mon:     monitors: [0] the kernel's netlink group, [1] udevd's (or NULL)
 * @wake_fd: eventfd; written once to make the thread exit
 * @thread:  the thread
 * @last_seqnum: SEQNUM of the latest event acted on (thread only)
 */
struct udev_follow {
	struct chardev_ctx *ctx;
	struct udev_follow_rules rules;
	struct udev *udev;
	struct udev_monitor *mon[2];
	int wake_fd;
	pthread_t thread;
	unsigned long long last_seqnum;
};

static const char *const udev_follow_source_names[] = { "kernel", "udev" };

/* Act on one event; idempotent, so the same event from both sources is fine. */
static void udev_follow_handle(struct udev_follow *uf, struct udev_device *dev,
			       const char *source)
{
	struct udev_follow_prop props[UDEV_FOLLOW_PROPS_MAX];
	struct udev_list_entry *entry;
	enum udev_follow_decision decision;
	const char *uuid, *devpath;
	unsigned long long seqnum;
	size_t n = 0;
	int ret;

	chardev_count_uevent(uf->ctx, CHARDEV_UEVENT_SEEN);
	udev_list_entry_foreach(entry, udev_device_get_properties_list_entry(dev)) {
		if (n == UDEV_FOLLOW_PROPS_MAX)
			break;
		props[n].key = udev_list_entry_get_name(entry);
		props[n].value = udev_list_entry_get_value(entry);
		n++;
	}
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
	seqnum = udev_follow_seqnum(props, n);
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
		/* Returns at once: the revoke completes when the last reader leaves. */
		ret = chardev_unplug_async(uf->ctx, NULL, NULL);
		if (!ret)
			chardev_count_uevent(uf->ctx, CHARDEV_UEVENT_UNPLUG);
		chardev_log(uf->ctx, CHARDEV_LOG_NOTICE,
			    "uevent remove %s (%s, SYNTH_UUID=%s): %s", devpath, source,
			    uuid ? uuid : "-",
			    !ret ? "unplug started" : ret == -ENODEV ? "already unplugged" :
			    "unplug failed");
		return;
	case UDEV_FOLLOW_PLUG:
		ret = chardev_plug(uf->ctx);
		if (!ret)
			chardev_count_uevent(uf->ctx, CHARDEV_UEVENT_PLUG);
		chardev_log(uf->ctx, ret && ret != -EBUSY ? CHARDEV_LOG_ERR : CHARDEV_LOG_NOTICE,
			    "uevent add %s (%s, SYNTH_UUID=%s): %s%s", devpath, source,
			    uuid ? uuid : "-",
			    !ret ? "plugged" : ret == -EBUSY ? "already plugged" : "plug failed: ",
			    ret && ret != -EBUSY ? strerror(-ret) : "");
		return;
	}
}

static void *udev_follow_thread(void *arg)
{
	struct udev_follow *uf = arg;
	struct pollfd pfd[3];
	struct udev_device *dev;
	unsigned int i, nmon = uf->mon[1] ? 2 : 1;

	pfd[0].fd = uf->wake_fd;
	pfd[0].events = POLLIN;
	for (i = 0; i < nmon; i++) {
		pfd[1 + i].fd = udev_monitor_get_fd(uf->mon[i]);
		pfd[1 + i].events = POLLIN;
	}
	for (;;) {
		if (poll(pfd, 1 + nmon, -1) < 0) {
			if (errno == EINTR)
				continue;
			chardev_log(uf->ctx, CHARDEV_LOG_ERR, "uevent monitor: poll: %s",
				    strerror(errno));
			break;
		}
		if (pfd[0].revents)
			break;
		for (i = 0; i < nmon; i++) {
			if (!pfd[1 + i].revents)
				continue;
			/* Drain: the sockets are non-blocking, NULL means empty
			 * (or a message libudev refused, e.g. from a non-root sender). */
			while ((dev = udev_monitor_receive_device(uf->mon[i]))) {
				udev_follow_handle(uf, dev, udev_follow_source_names[i]);
				udev_device_unref(dev);
			}
		}
	}
	return NULL;
}

static struct udev_monitor *udev_follow_open(struct udev_follow *uf, const char *source)
{
	struct udev_monitor *mon = udev_monitor_new_from_netlink(uf->udev, source);

	if (!mon)
		return NULL;
	/* Following our own device: let the kernel drop everyone else's. */
	if (!uf->rules.devpath[0] && !uf->rules.n_match)
		udev_monitor_filter_add_match_subsystem_devtype(mon, "cuse", NULL);
	/* Best effort; the default buffer holds a few hundred events. */
	udev_monitor_set_receive_buffer_size(mon, UDEV_FOLLOW_RCVBUF);
	if (udev_monitor_enable_receiving(mon) < 0) {
		udev_monitor_unref(mon);
		return NULL;
	}
	return mon;
}

/**
 * udev_follow_start() - start following uevents.
 * @ctx:   context
 * @rules: rules (copied)
 * @out:   the monitor
 *
 * Return: 0 or -errno.
 */
int udev_follow_start(struct chardev_ctx *ctx, const struct udev_follow_rules *rules,
		      struct udev_follow **out)
{
	struct udev_follow *uf;
	int ret = -ENOMEM;

	if (!ctx || !rules || !out)
		return -EINVAL;
	uf = calloc(1, sizeof(*uf));
	if (!uf)
		return -ENOMEM;
	uf->ctx = ctx;
	uf->rules = *rules;
	uf->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (uf->wake_fd < 0) {
		ret = -errno;
		goto err_free;
	}
	uf->udev = udev_new();
	if (!uf->udev)
		goto err_fd;
	uf->mon[0] = udev_follow_open(uf, "kernel");
	if (!uf->mon[0]) {
		ret = errno ? -errno : -EIO;
		goto err_udev;
	}
	/* udevd re-broadcasts processed events (with its database's
	 * properties, e.g. ID_VENDOR_ID) only if one is running. */
	if (!access(UDEV_FOLLOW_UDEVD_SOCKET, F_OK)) {
		uf->mon[1] = udev_follow_open(uf, "udev");
		if (!uf->mon[1])
			chardev_log(ctx, CHARDEV_LOG_WARNING,
				    "udevd seems to run but its uevents cannot be monitored");
	}
	ret = -pthread_create(&uf->thread, NULL, udev_follow_thread, uf);
	if (ret)
		goto err_mon;
	if (uf->rules.devpath[0] || uf->rules.n_match)
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
err_udev:
	udev_unref(uf->udev);
err_fd:
	close(uf->wake_fd);
err_free:
	free(uf);
	return ret;
}

/**
 * udev_follow_stop() - stop and free.
 * @uf: monitor or NULL
 */
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
	udev_unref(uf->udev);
	close(uf->wake_fd);
	free(uf);
}
