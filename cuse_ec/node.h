/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node.h - what the daemon may touch of its /dev node, and that no other
 * daemon serves the same name: one instance per name (a lock taken before
 * anything is created), /dev/NAME free before our CUSE device registers,
 * and the node changed only through a descriptor of the character device
 * whose number the kernel gave our CUSE device (sysfs).
 *
 * Directories are parameters (the daemon passes CUSE_EC_LOCK_DIR, "/dev"
 * and "/sys/class/cuse"), so the rules are unit-tested in a scratch tree.
 */
#ifndef CUSE_EC_NODE_H
#define CUSE_EC_NODE_H

#include <stddef.h>
#include <sys/types.h>

/* Where the daemon's per-name instance locks live. */
#define CUSE_EC_LOCK_DIR "/run/cuse_ec"

/**
 * node_lock_instance() - become the one daemon serving @name.
 * @dir:    directory of the lock files; created (0755) if missing. It must
 *          be a directory itself (no symlink), owned by root or by this
 *          process's user, and writable by no other account.
 * @name:   the node's name
 * @fd_out: the lock's descriptor: keep it open for the process's life
 *          (a fork's child holds it too); never unlink the file
 * @err:    receives the reason on failure
 * @errlen: size of @err
 *
 * Takes flock(LOCK_EX) on @dir/@name.lock without waiting.
 *
 * Return: 0; -EBUSY when another process holds the lock (another daemon
 * serves @name); -EPERM when @dir is not safe as described; or -errno.
 */
int node_lock_instance(const char *dir, const char *name, int *fd_out, char *err,
		       size_t errlen);

/**
 * node_check_free() - there must be nothing at @dev_dir/@name before our
 * CUSE device exists: whatever is there belongs to someone else.
 * @dev_dir: "/dev"
 * @name:    the node's name
 * @err:     receives what is there, when something is
 * @errlen:  size of @err
 *
 * Return: 0 when free; -EEXIST when something is there; or -errno.
 */
int node_check_free(const char *dev_dir, const char *name, char *err, size_t errlen);

/**
 * node_cuse_devnum() - the device number of CUSE device @name.
 * @sysfs_dir: "/sys/class/cuse"
 * @name:      the device's name
 * @out:       the number, from @sysfs_dir/@name/dev ("MAJOR:MINOR")
 *
 * Return: 0; -ENOENT while no such device is registered; -EPROTO when the
 * file does not hold a device number; or -errno.
 */
int node_cuse_devnum(const char *sysfs_dir, const char *name, dev_t *out);

/**
 * node_open_own() - pin the node at @path if it is the character device
 * numbered @want: O_PATH|O_NOFOLLOW, checked through the descriptor, so a
 * symlink or another device swapped in under the name is never changed.
 * @path:   the node
 * @want:   our CUSE device's number
 * @err:    receives what @path is instead, on -ENODEV
 * @errlen: size of @err
 *
 * Return: an O_PATH descriptor; -ENODEV when @path is not our device; or
 * -errno.
 */
int node_open_own(const char *path, dev_t want, char *err, size_t errlen);

#endif /* CUSE_EC_NODE_H */
