/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lifecycle.h - how the chardev holds and reaches one EC instance.
 *
 * The four modes differ in exactly this one place (one const
 * table of steps per mode in lifecycle.c), so the comparison between them is
 * honest: the chardev code above is identical and asks one property of the
 * mode, lifecycle_files_see_unplug().
 *
 *   revocable - the EC is a revocable provider, each open file a consumer.
 *               Unplug revokes (waiting for in-flight accesses); later
 *               accesses get NULL; the EC is destroyed once the last reader
 *               has left.
 *   refcount  - files keep a counted reference to the EC. Unplug only drops
 *               the daemon's reference, so old files keep "succeeding"
 *               against hardware that is gone (zombie accesses, counted).
 *   unsafe    - files keep a raw pointer; unplug frees the EC at once. The
 *               next access through an old file is a genuine use-after-free.
 *   fenced    - the fix finally posted for cros_ec_chardev instead of
 *               revocable (May 2026): refcounted driver data holds the EC
 *               pointer under a reader/writer lock; every file operation
 *               holds it for reading, unplug takes it for writing (waiting
 *               for every access inside, a command in flight included),
 *               clears the pointer and frees the EC. Later accesses find
 *               NULL (ENODEV). As with the kernel's rw_semaphore, a waiting
 *               unplug holds back new readers (no starvation), so no thread
 *               may hold two accesses of one EC at once.
 */
#ifndef CUSE_EC_LIFECYCLE_H
#define CUSE_EC_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ec;
struct lifecycle;
struct lifecycle_ref;

enum lifecycle_mode {
	LIFECYCLE_REVOCABLE,
	LIFECYCLE_REFCOUNT,
	LIFECYCLE_UNSAFE,
	LIFECYCLE_FENCED,
};

/**
 * lifecycle_mode_parse() - map "revocable", "refcount", "unsafe" or "fenced"
 * to a mode.
 * @name: the mode's name
 * @out:  the mode on success
 *
 * Return: 0, or -EINVAL for any other string (including NULL).
 */
int lifecycle_mode_parse(const char *name, enum lifecycle_mode *out);

/** lifecycle_mode_name() - the option spelling of @mode ("?" if invalid). */
const char *lifecycle_mode_name(enum lifecycle_mode mode);

/**
 * lifecycle_mode_count() - how many modes there are: the modes are
 * 0 .. lifecycle_mode_count() - 1, counted from the table of their
 * operations, so a new mode is one more row there (and its enum value),
 * not a change to every check of the range.
 *
 * Return: the number of modes.
 */
unsigned int lifecycle_mode_count(void);

/**
 * lifecycle_mode_list() - every mode's name in table order, for messages:
 * "revocable, refcount, unsafe or fenced".
 * @buf: receives the text, cut (NUL-terminated) if it does not fit
 * @len: size of @buf
 *
 * Return: @buf.
 */
const char *lifecycle_mode_list(char *buf, size_t len);

/**
 * struct lifecycle_hooks - what the holder tells its creator.
 * @on_zombie:       called on every file access after unplug that still
 *                   reached the EC (refcount mode: the teaching "zombie")
 * @on_ec_destroyed: called once, right after the EC the holder took over is
 *                   freed, on whichever path frees it (an unplug, the last
 *                   file's close, the last reference), in that path's thread,
 *                   with lifecycle_ec_bytes(); not when lifecycle_create()
 *                   fails (then the EC was never the holder's)
 * @arg:             passed to both
 *
 * Either callback may be NULL.
 */
struct lifecycle_hooks {
	void (*on_zombie)(void *arg);
	void (*on_ec_destroyed)(void *arg, size_t ec_bytes);
	void *arg;
};

/**
 * lifecycle_create() - wrap a fresh EC instance in a holder.
 * @mode:   how files hold the EC
 * @ec:     the EC; the holder owns it from now on (also on failure)
 * @hooks:  callbacks (copied), or NULL for none
 * @out:    the holder, with one reference owned by the caller
 *
 * Return: 0, -EINVAL for a mode that is not one of enum lifecycle_mode, or
 * -ENOMEM.
 */
int lifecycle_create(enum lifecycle_mode mode, struct ec *ec,
		     const struct lifecycle_hooks *hooks, struct lifecycle **out);

/**
 * lifecycle_ec_bytes() - the heap bytes of the holder's EC when it was
 * taken over (ec_memory_footprint() of the fresh EC): the figure
 * @on_ec_destroyed reports, so a count of live bytes adds and subtracts the
 * same amount even though the EC's own footprint grows as the host writes
 * its flash.
 * @lc: holder
 *
 * Return: bytes.
 */
size_t lifecycle_ec_bytes(const struct lifecycle *lc);

/**
 * lifecycle_get() - take a reference on the holder (not on the EC).
 * @lc: holder
 */
void lifecycle_get(struct lifecycle *lc);

/**
 * lifecycle_put() - drop a reference; the last one frees the holder and,
 * unless already gone, the EC. Must not be called inside an access.
 */
void lifecycle_put(struct lifecycle *lc);

/**
 * lifecycle_files_see_unplug() - whether an unplug reaches the open files.
 * @lc: holder
 *
 * The one mode property the chardev asks: when true (revocable), files are
 * marked dead at unplug and their blocked readers and pollers are woken;
 * when false (refcount, unsafe), nothing tells them, which is the lesson.
 *
 * Return: true when files fail and their waiters are woken after an unplug
 * (revocable mode); false when they never learn of it (the teaching modes).
 */
bool lifecycle_files_see_unplug(const struct lifecycle *lc);

/**
 * lifecycle_attach() - make a per-file handle (a consumer) on @lc.
 * @lc:  holder; the handle takes its own reference
 * @out: the handle
 *
 * Attaching to an already unplugged holder is safe: in revocable mode every
 * access through the handle then yields NULL.
 *
 * Return: 0 or -ENOMEM.
 */
int lifecycle_attach(struct lifecycle *lc, struct lifecycle_ref **out);

/**
 * lifecycle_detach() - free a handle made by lifecycle_attach().
 * @ref: the handle, NULL is ignored
 */
void lifecycle_detach(struct lifecycle_ref *ref);

/**
 * lifecycle_access() - start using the EC through @ref.
 * @ref: the file's handle
 *
 * Many threads may access through one handle at once; an access may block
 * (a slow host command). Every call, whatever it returned, must be paired
 * with lifecycle_release() in the same thread (as with the seed's
 * revocable_try_access()/revocable_release()).
 *
 * Return: the EC, or NULL when it is gone (revocable mode only; the other
 * modes hand out the EC even after unplug, by design).
 */
struct ec *lifecycle_access(struct lifecycle_ref *ref);

/**
 * lifecycle_release() - end an access started by lifecycle_access().
 * @ref: the handle
 */
void lifecycle_release(struct lifecycle_ref *ref);

/**
 * lifecycle_access_owner() - access the EC through the holder's own handle
 * (used by the daemon itself: control commands, event injection).
 * @lc: holder
 *
 * Return: the EC, or NULL once unplugged (in every mode: the daemon itself
 * never talks to an unplugged EC). Always pair with lifecycle_release_owner().
 */
struct ec *lifecycle_access_owner(struct lifecycle *lc);

/**
 * lifecycle_release_owner() - end an access from lifecycle_access_owner().
 * @lc: holder
 */
void lifecycle_release_owner(struct lifecycle *lc);

/**
 * lifecycle_unplug_async() - start an unplug and return at once.
 * @lc:   holder
 * @done: called once the unplug is complete (in revocable mode: after the
 *        last in-flight access has left, possibly in that reader's thread);
 *        may be NULL
 * @arg:  passed to @done
 *
 * Return: 1 if this call started the unplug, 0 if already unplugged (and
 * @done is not called), or -errno.
 */
int lifecycle_unplug_async(struct lifecycle *lc, void (*done)(void *arg), void *arg);

#endif /* CUSE_EC_LIFECYCLE_H */
