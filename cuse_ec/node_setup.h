/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_setup.h - the node's permissions have one owner, the daemon's
 * --mode/--owner/--group: a runtime udev rule hands them to udevd (which
 * re-applies rules on every "add" of the node), and once the kernel's node
 * exists they are applied to it, and applied again after udevd has set up
 * this daemon's node (not an earlier device that had the same number), so
 * the last word is ours.
 *
 * The directories are fields (struct node_setup), so all of it runs in a
 * scratch tree in the unit tests: the daemon keeps only the thread.
 */
#ifndef CUSE_EC_NODE_SETUP_H
#define CUSE_EC_NODE_SETUP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* The property our runtime rule gives the node: which daemon made it. */
#define NODE_SETUP_INSTANCE_KEY "CUSE_EC_INSTANCE"

/**
 * typedef node_setup_log_fn - where node_setup's messages go.
 * @arg:   node_setup.log_arg
 * @level: a syslog level (LOG_ERR .. LOG_DEBUG)
 * @msg:   one line, no newline
 */
typedef void (*node_setup_log_fn)(void *arg, int level, const char *msg);

/**
 * struct node_setup - one daemon's node, what it wants of it and where.
 * @name:         the node's name (/dev/@name, the CUSE device's name)
 * @mode:         --mode, or -1
 * @owner:        --owner, or (uid_t)-1
 * @group:        --group, or (gid_t)-1
 * @started_usec: CLOCK_MONOTONIC at the daemon's start, in microseconds:
 *                without our rule, an entry udevd set up before it is not ours
 * @dev_dir:      "/dev"
 * @sysfs_dir:    "/sys/class/cuse"
 * @udev_dir:     "/run/udev": udevd's control socket, data/ and rules.d/
 * @udevadm:      the program run to make udevd read the rules again
 *                ("udevadm"), or NULL not to ask
 * @wait_ms:      how long to wait for the node, and then for udevd
 * @recheck_ms:   the pause before asking udevd again to apply our rule
 * @log:          the messages' sink
 * @log_arg:      passed to @log
 * @rule:         set by node_rule_install(): the rule file written, or ""
 * @instance:     set by node_rule_install(): NODE_SETUP_INSTANCE_KEY's value
 *                in that rule ("PID.USEC", unique to this daemon), or ""
 * @rule_written: set by node_rule_install(): CLOCK_REALTIME_COARSE (the
 *                clock of file times) before the node can exist
 * @without_rule: udevd's entry is our node's, set up without our rule
 * @asked_again:  udevd was sent a "change" for the node: an entry counts
 *                only once udevd's queue is empty
 * @foreign_logged: the message that udevd's entry is another device's was
 *                given (once is enough)
 *
 * Fill it with node_setup_init(), then change what differs.
 */
struct node_setup {
	const char *name;
	int mode;
	uid_t owner;
	gid_t group;
	uint64_t started_usec;
	const char *dev_dir;
	const char *sysfs_dir;
	const char *udev_dir;
	const char *udevadm;
	int wait_ms;
	int recheck_ms;
	node_setup_log_fn log;
	void *log_arg;
	char rule[320];
	char instance[48];
	struct timespec rule_written;
	bool without_rule;
	bool asked_again;
	bool foreign_logged;
	atomic_bool cancelled;
};

/**
 * node_setup_init() - the system's directories, no options, 10 s waits.
 * @ns:   the setup to fill
 * @name: the node's name; must outlive @ns
 * @log:  the messages' sink
 * @arg:  passed to @log
 */
void node_setup_init(struct node_setup *ns, const char *name, node_setup_log_fn log, void *arg);

/**
 * node_rule_install() - write the runtime rule for @ns's node and ask a
 * running udevd to read it now (it rechecks rules only every few seconds,
 * too late for the node about to appear).
 * @ns: the setup; sets @ns->rule and @ns->instance
 *
 * The rule sorts before the shipped 70-cuse_ec.rules, tags the node
 * CUSE_EC=1 and NODE_SETUP_INSTANCE_KEY=@ns->instance, and fixes the given
 * mode, owner and group with ":=" so no later rule changes them. It is
 * written to a temporary name and renamed into place: udevd never reads
 * half a rule. A failure is logged as a warning; the daemon serves on.
 *
 * Return: 0; or -errno when no rule was written (@ns->rule is then "").
 */
int node_rule_install(struct node_setup *ns);

/**
 * node_rule_remove() - remove the rule node_rule_install() wrote, if any.
 * @ns: the setup
 */
void node_rule_remove(struct node_setup *ns);

/**
 * node_setup_run() - apply the options to the node once it exists, then
 * again once udevd has set up this daemon's node.
 * @ns: the setup
 *
 * Also worth running without options while a runtime rule is in place
 * (@ns->rule): nothing of the node is changed then, but a lost reload
 * request is found and udevd asked again, so the shipped rule's defaults
 * reach the node.
 *
 * Waits (inotify, up to @ns->wait_ms) for @dev_dir/@name to be a character
 * device. It is changed only through node_open_own(): a descriptor of the
 * device the kernel numbered for our CUSE device (@sysfs_dir). If udevd
 * runs (its control socket answers), waits up to @ns->wait_ms more for
 * its database entry of that number to be ours: with our rule, the entry
 * carries our instance; without it, udevd set it up after @started_usec
 * (or records nothing). An entry udevd wrote for our node with rules read
 * before ours (a lost reload request) gets a reload and a "change" uevent
 * for the node, up to three times, @recheck_ms apart after the first. The
 * wait for the entry goes on while udevd has events queued, @wait_ms past
 * the last time it had, six times @wait_ms at most. On a timeout the
 * options are applied again anyway, with a warning. Every failure is
 * logged.
 *
 * Return: 0 when the options were applied; -ENODEV when @dev_dir/@name is
 * not our device (the caller should stop serving); -ETIMEDOUT when the
 * node never appeared; -ECANCELED after node_setup_cancel(); or -errno.
 */
int node_setup_run(struct node_setup *ns);

/**
 * node_setup_wanted() - is there anything for node_setup_run() to do?
 * @ns: the setup, after node_rule_install()
 *
 * Options to apply, or a runtime rule udevd must have read: without
 * options the node still gets the shipped rule's defaults from udevd only
 * through that rule, and a lost reload request must be found and udevd
 * asked again.
 *
 * Return: true when node_setup_run() should run.
 */
bool node_setup_wanted(const struct node_setup *ns);

/**
 * node_setup_cancel() - make a node_setup_run() in another thread return
 * -ECANCELED within a fifth of a second, whatever it waits for.
 * @ns: the setup
 *
 * For a daemon that stops: its run must not wait out udevd.
 */
void node_setup_cancel(struct node_setup *ns);

#endif /* CUSE_EC_NODE_SETUP_H */
