/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec.h - a simulated ChromiumOS Embedded Controller.
 *
 * Bytes in, status and bytes out, a clock and an event queue: the model knows
 * nothing of CUSE, udev or revocable, so it can be unit-tested and fuzzed on
 * its own. Every function here is thread-safe; host commands are serialised
 * by the EC's own lock, as the kernel serialises them per device.
 */
#ifndef EC_EC_H
#define EC_EC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ec;
struct ec_profile;

/**
 * struct ec_clock - the time source the EC lives by.
 * @now_ns:   monotonic nanoseconds; state (battery, fans, temperatures,
 *            uptime) advances by the difference between two readings
 * @sleep_ns: waits @ns for injected command latency; a fake clock may
 *            advance its own time instead of sleeping
 * @ctx:      passed to both callbacks
 *
 * NULL for ec_create() means the real CLOCK_MONOTONIC and nanosleep().
 */
struct ec_clock {
	uint64_t (*now_ns)(void *ctx);
	void (*sleep_ns)(void *ctx, uint64_t ns);
	void *ctx;
};

/**
 * ec_profile_load() - parse a board profile file.
 * @path:   file to read: a regular file (or a symlink to one); a FIFO,
 *          directory or device is rejected without reading it
 * @out:    the parsed profile on success
 * @err:    on failure, "<file>:<line>: <problem>", or "<file>: is a FIFO,
 *          not a regular file" and the like
 * @errlen: size of @err
 *
 * Return: 0, or -errno with @err filled in: -EINVAL for a malformed file or
 * one that is not a regular file (FIFO, device, socket), -EISDIR for a
 * directory, -EFBIG for one over 64 KiB, -ENOMEM, or the -errno of opening
 * or reading it.
 */
int ec_profile_load(const char *path, struct ec_profile **out, char *err, size_t errlen);

/**
 * ec_profile_default() - the built-in typical-laptop profile.
 * @out: the profile on success
 *
 * The text of profiles/laptop.profile, compiled in at build time.
 *
 * Return: 0, -ENOMEM, or -EINVAL if the built-in text were broken.
 */
int ec_profile_default(struct ec_profile **out);

/**
 * ec_profile_free() - free a profile.
 * @profile: the profile, or NULL
 */
void ec_profile_free(struct ec_profile *profile);

/**
 * ec_profile_describe() - print a parsed profile for a human: identity,
 * flash, protocol limits, battery, sensors, fans, USB-PD ports, keyboard,
 * latency and faults, one area a line.
 * @profile: the profile
 * @out:     where to print
 *
 * Return: 0, or -EIO if writing failed.
 */
int ec_profile_describe(const struct ec_profile *profile, FILE *out);

/**
 * ec_create() - build a powered-on EC from a profile.
 * @profile: board description; copied, so the caller may free it afterwards
 * @clock:   time source, or NULL for real time
 * @out:     the new EC
 *
 * Return: 0, -EINVAL for a NULL argument or an unusable profile, -ENOMEM.
 */
int ec_create(const struct ec_profile *profile, const struct ec_clock *clock, struct ec **out);

/**
 * ec_destroy() - free an EC; NULL is ignored.
 * @ec: the EC; no other thread may use it any more
 *
 * Notifier entries still registered are left alone (their owners hold
 * them); the chain simply ends with the EC.
 */
void ec_destroy(struct ec *ec);

/*
 * ec_max_request() / ec_max_response() - the largest request / response
 * payload: the protocol's max request / response packet minus the 8-byte
 * header.
 */
size_t ec_max_request(const struct ec *ec);
size_t ec_max_response(const struct ec *ec);

/**
 * ec_host_command() - execute one host command, exactly as a real EC would.
 * @ec:        the EC
 * @command:   host command number (passthrough offsets 0x4000*n included)
 * @version:   command version
 * @req:       request parameters; missing bytes read as zero
 * @req_len:   bytes in @req (at most ec_max_request())
 * @resp:      response buffer
 * @resp_max:  room in @resp (clamped to ec_max_response() by the caller)
 * @ec_status: EC status code (EC_RES_*), always written
 *
 * Injected latency (from the profile) is spent inside, holding the EC lock,
 * like a slow EC would. Never writes more than @resp_max bytes.
 *
 * A response that does not fit @resp_max is rejected with
 * EC_RES_RESPONSE_TOO_BIG (nothing written), except string answers (build
 * info, console) which are cut to fit and stay NUL-terminated.
 *
 * Return: number of response bytes produced (>= 0; 0 when @ec_status is an
 * error), -EMSGSIZE when @req_len exceeds ec_max_request(), -EINVAL for a
 * NULL buffer with a non-zero size, -ETIMEDOUT for an injected
 * transport timeout (profile [faults] timeout, or a fault plan's), -EIO
 * and -EMSGSIZE for a fault plan's transport error and oversized answer
 * (ec_set_fault_plan()).
 */
int ec_host_command(struct ec *ec, uint32_t command, uint32_t version,
		    const void *req, size_t req_len, void *resp, size_t resp_max,
		    uint32_t *ec_status);

/**
 * enum ec_fault_kind - what an injected fault makes of a host command
 * (ec_fault.c describes each: ec_fault_kind_help()).
 * @EC_FAULT_NONE:        no fault
 * @EC_FAULT_RESULT:      answer an EC result; the command does not run
 * @EC_FAULT_SHORT:       run it; a successful answer keeps its first N bytes
 * @EC_FAULT_OVERSIZE:    run it; the answer overflows: -EMSGSIZE, as the
 *                        kernel's transports give for a packet too long
 * @EC_FAULT_DELAY:       spend longer in the EC, then run it
 * @EC_FAULT_EIO:         transport error -EIO; the command does not run
 * @EC_FAULT_TIMEOUT:     the profile's timeout_delay, then -ETIMEDOUT
 * @EC_FAULT_IN_PROGRESS: run it; answer IN_PROGRESS (then GET_COMMS_STATUS
 *                        and RESEND_RESPONSE, as for the profile's faults)
 * @EC_FAULT_UNPLUG:      run it; the caller unplugs the device as it
 *                        answers (struct ec_cmd_effects says so)
 * @EC_FAULT_KINDS:       the count
 */
enum ec_fault_kind {
	EC_FAULT_NONE,
	EC_FAULT_RESULT,
	EC_FAULT_SHORT,
	EC_FAULT_OVERSIZE,
	EC_FAULT_DELAY,
	EC_FAULT_EIO,
	EC_FAULT_TIMEOUT,
	EC_FAULT_IN_PROGRESS,
	EC_FAULT_UNPLUG,
	EC_FAULT_KINDS
};

/* A rule's @command for every host command. */
#define EC_FAULT_ANY_COMMAND	0xFFFFFFFFu
/* Rules a plan holds. */
#define EC_FAULT_RULES_MAX	8
/* Room for a rule's text, either way (ec_fault_parse(), ec_fault_format()). */
#define EC_FAULT_TEXT_MAX	96

/**
 * struct ec_fault - one rule of a fault plan.
 * @command: the host command it hits, or EC_FAULT_ANY_COMMAND
 * @kind:    what it does
 * @arg:     the kind's value: an EC result, a byte count, nanoseconds
 * @times:   injections left (the last removes the rule); 0: every time
 * @ppm:     its chance at each command it could hit, in parts per million
 *           (PARSE_PPM: always)
 */
struct ec_fault {
	uint32_t command;
	enum ec_fault_kind kind;
	uint64_t arg;
	uint32_t times;
	uint32_t ppm;
};

/**
 * ec_fault_parse() - a rule as a user writes it: comma-separated items,
 * one kind ("result=BUSY", "short=4", "oversize", "delay=50ms", "eio",
 * "timeout", "in_progress", "unplug") and optionally "cmd=0x0b" (default
 * all), "times=3" or "times=always" (default 1), "p=0.25" (default 1).
 * @spec:   the text; one word, so a control line or an option carries it
 * @out:    the rule, written only on success
 * @err:    the reason on failure
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL (unknown or repeated item, missing kind, a value
 * out of range), -ERANGE for a number or duration out of range.
 */
int ec_fault_parse(const char *spec, struct ec_fault *out, char *err, size_t errlen);

/**
 * ec_fault_format() - a rule in the form ec_fault_parse() reads, every
 * item spelled out: "cmd=all,result=BUSY,times=1,p=1".
 * @f:   the rule
 * @buf: receives the text; EC_FAULT_TEXT_MAX bytes always suffice
 * @len: room in @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t ec_fault_format(const struct ec_fault *f, char *buf, size_t len);

/**
 * ec_fault_kind_name() - a kind's name as a rule spells it.
 * @kind: the kind
 *
 * Return: e.g. "in_progress"; "none" for EC_FAULT_NONE or out of range.
 */
const char *ec_fault_kind_name(enum ec_fault_kind kind);

/**
 * ec_fault_kind_help() - what a kind does, one line for a help text.
 * @kind: the kind
 *
 * Return: the line; "" for EC_FAULT_NONE or out of range.
 */
const char *ec_fault_kind_help(enum ec_fault_kind kind);

struct ec_fault_plan;

/**
 * ec_fault_plan_create() - an empty fault plan.
 * @seed: seeds the draws of rules with p < 1 (0: a fixed default), so a
 *        run repeats
 * @out:  the plan
 *
 * Return: 0 or -ENOMEM.
 */
int ec_fault_plan_create(uint64_t seed, struct ec_fault_plan **out);

/**
 * ec_fault_plan_destroy() - free a plan; NULL is ignored.
 * @plan: the plan; no EC may use it any more (ec_set_fault_plan())
 */
void ec_fault_plan_destroy(struct ec_fault_plan *plan);

/**
 * ec_fault_plan_add() - append a rule; rules are tried in the order added,
 * the first that hits a command decides it.
 * @plan: the plan
 * @f:    the rule (copied)
 *
 * Return: 0, -EINVAL for a rule without a kind or with p = 0, -ENOSPC when
 * the plan holds EC_FAULT_RULES_MAX rules.
 */
int ec_fault_plan_add(struct ec_fault_plan *plan, const struct ec_fault *f);

/**
 * ec_fault_plan_clear() - remove every rule.
 * @plan: the plan
 *
 * Return: how many there were.
 */
size_t ec_fault_plan_clear(struct ec_fault_plan *plan);

/**
 * ec_fault_plan_list() - the rules as they stand (injections left).
 * @plan:     the plan
 * @out:      receives up to @room rules, in order
 * @room:     entries in @out
 * @injected: if not NULL, faults injected since the plan was made
 *
 * Return: the number of rules (may exceed @room).
 */
size_t ec_fault_plan_list(struct ec_fault_plan *plan, struct ec_fault *out, size_t room,
			  uint64_t *injected);

/**
 * ec_set_fault_plan() - the plan the EC draws from at every host command.
 * @ec:   the EC
 * @plan: the plan, or NULL for none; it must outlive its use by @ec
 */
void ec_set_fault_plan(struct ec *ec, struct ec_fault_plan *plan);

/**
 * struct ec_cmd_effects - what a host command did besides its answer.
 * @cold_resets: the cold-reset count (ec_cold_resets()) as the command left
 *               it when the command itself made a cold reset, else 0
 * @fault:       the fault of the EC's plan that shaped it (EC_FAULT_NONE:
 *               none); for EC_FAULT_UNPLUG the caller takes the device away
 */
struct ec_cmd_effects {
	uint32_t cold_resets;
	enum ec_fault_kind fault;
};

/**
 * ec_host_command_effects() - ec_host_command(), also saying what the
 * command did to the device: whether this very command cold-reset the EC,
 * and which injected fault shaped it.
 * @ec:        the EC
 * @command:   host command number
 * @version:   command version
 * @req:       request parameters
 * @req_len:   bytes in @req
 * @resp:      response buffer
 * @resp_max:  room in @resp
 * @ec_status: EC status code, always written
 * @effects:   if not NULL, always written
 *
 * Two ec_cold_resets() calls around ec_host_command() are not enough to
 * tell: another thread's command can reset the EC between them. This reads
 * the count in the same hold of the EC lock as the command runs.
 *
 * Return: as ec_host_command(); also -EIO for an injected transport error
 * and -EMSGSIZE for an injected oversized answer.
 */
int ec_host_command_effects(struct ec *ec, uint32_t command, uint32_t version,
			    const void *req, size_t req_len, void *resp, size_t resp_max,
			    uint32_t *ec_status, struct ec_cmd_effects *effects);

/**
 * ec_read_memmap() - READMEM: read from the 256-byte memory map.
 * @ec:     the EC
 * @offset: first byte
 * @bytes:  count (<= 255), or 0 for a NUL-terminated string (count includes the NUL)
 * @buf:    at least 255 bytes
 *
 * A replay (ec_set_replay()) answers first when it has a matching record.
 *
 * Return: bytes read, -EINVAL for a range outside the map, or -ENOTTY when
 * the profile has no direct memory-map access (clients then use READ_MEMMAP).
 */
int ec_read_memmap(struct ec *ec, uint32_t offset, uint32_t bytes, void *buf);

/**
 * ec_memmap_direct() - whether READMEM works directly (else it is ENOTTY
 * and clients use EC_CMD_READ_MEMMAP); the driver's "ec_dev->cmd_readmem".
 * @ec: the EC
 *
 * Return: true when the profile grants direct memory-map access, or a
 * replay is set (ec_set_replay(): its READMEM records answer).
 */
bool ec_memmap_direct(const struct ec *ec);

/**
 * ec_get_version_text() - the chardev's read() text ("1.0.0\n<RO>\n<RW>\n<image>\n").
 * @ec:  the EC
 * @buf: output, NUL-terminated (truncated like snprintf when short)
 * @len: size of @buf
 *
 * Return: bytes written without the NUL, or -EINVAL.
 */
int ec_get_version_text(struct ec *ec, char *buf, size_t len);

/* ---- MKBP events: a notifier chain; the queues belong to the listeners. ---- */

/* Largest MKBP event payload the model raises or injects. */
#define EC_EVENT_PAYLOAD_MAX	16

/**
 * struct ec_event - one MKBP event as the EC raises it.
 * @type: enum ec_mkbp_event
 * @len:  bytes of @data in use
 * @data: the payload
 */
struct ec_event {
	uint8_t type;
	uint8_t len;
	uint8_t data[EC_EVENT_PAYLOAD_MAX];
};

/**
 * struct ec_notifier - an entry on the EC's event notifier chain, embedded
 * in the listener's own object (as the kernel's chardev_priv embeds the
 * notifier_block it puts on ec_dev->event_notifier).
 * @call: called with every event the EC raises, in the order raised; with
 *        no EC lock held, so it may take the listener's locks and call back
 *        into the EC (events raised meanwhile are delivered after it
 *        returns). @ev is valid for the call only.
 * @next: the chain's link, owned by the EC while registered
 *
 * The EC never frees, and after ec_destroy() never touches, an entry: the
 * listener owns it and everything around it.
 */
struct ec_notifier {
	void (*call)(struct ec_notifier *nb, const struct ec_event *ev);
	struct ec_notifier *next;
};

/**
 * ec_notifier_register() - put @nb on @ec's event notifier chain.
 * @ec: the EC
 * @nb: the entry, with @nb->call set
 *
 * Return: 0, -EINVAL for NULL arguments or a NULL @call, -EEXIST when @nb is
 * already on the chain, -EDEADLK when called from inside a notifier call.
 */
int ec_notifier_register(struct ec *ec, struct ec_notifier *nb);

/**
 * ec_notifier_unregister() - take @nb off the chain.
 * @ec: the EC
 * @nb: the entry
 *
 * Waits for a delivery in progress (like the kernel's
 * blocking_notifier_chain_unregister()), so once this returns @nb is not
 * called any more and its owner may free it.
 *
 * Return: 0, -EINVAL for NULL arguments, -ENOENT when @nb is not on the
 * chain, -EDEADLK when called from inside a notifier call (waiting for the
 * delivery would wait for itself).
 */
int ec_notifier_unregister(struct ec *ec, struct ec_notifier *nb);

struct ec_event_node;

/**
 * struct ec_event_queue - one listener's queue of MKBP events (what the
 * kernel keeps in chardev_priv->events). It has no lock of its own and no
 * EC pointer: the owner serialises calls with its own lock.
 * @head:  oldest event
 * @tail:  newest event
 * @bytes: queued cost, one type byte plus the payload per event
 */
struct ec_event_queue {
	struct ec_event_node *head, *tail;
	size_t bytes;
};

/**
 * ec_event_queue_init() - make @q empty.
 * @q: the queue
 */
void ec_event_queue_init(struct ec_event_queue *q);

/**
 * ec_event_queue_push() - append a copy of @ev.
 * @q:  the queue
 * @ev: the event
 *
 * Like the kernel, a queue at its cap (CROS_EC_MAX_EVENT_QUEUE_BYTES) drops
 * the newer event and keeps the old ones.
 *
 * Return: 0, -EINVAL (NULL argument, @ev->len above EC_EVENT_PAYLOAD_MAX),
 * -ENOSPC (queue full, @ev dropped) or -ENOMEM.
 */
int ec_event_queue_push(struct ec_event_queue *q, const struct ec_event *ev);

/**
 * ec_event_queue_pop() - take the oldest event as "type byte + payload".
 * @q:   the queue
 * @buf: output (may be NULL when @len is 0)
 * @len: room in @buf; the event is cut to it (and consumed). A @len of 0
 *       consumes nothing, as a zero-length read() only checks.
 *
 * Return: bytes written, -EAGAIN when the queue is empty, -EINVAL.
 */
int ec_event_queue_pop(struct ec_event_queue *q, void *buf, size_t len);

/**
 * ec_event_queue_pending() - is an event queued?
 * @q: the queue
 *
 * Return: true when ec_event_queue_pop() would return an event.
 */
bool ec_event_queue_pending(const struct ec_event_queue *q);

/**
 * ec_event_queue_clear() - free every queued event; @q stays usable.
 * @q: the queue (NULL is ignored)
 */
void ec_event_queue_clear(struct ec_event_queue *q);

/**
 * ec_tick() - bring the EC's state up to the clock's now and deliver the
 * events that became due (battery thresholds, temperatures, alarms). A
 * real EC does this on its own; the model does it whenever it is called,
 * and this call is for listeners that want time-driven events while
 * nobody sends commands.
 * @ec: the EC
 *
 * Return: 0 or -EINVAL.
 */
int ec_tick(struct ec *ec);

/* ---- Stimuli: what the world does to the EC (control socket, tests). ---- */

/*
 * EC_STIMULI(X) - every stimulus, once: X(ID, name). The enum, the
 * names (ec_stimulus_name(), ec_stimulus_parse()) and the control socket's
 * "inject" (and its help) are derived from this list.
 */
#define EC_STIMULI(X)							\
	X(LID_OPEN, "lid-open")						\
	X(LID_CLOSE, "lid-close")					\
	X(POWER_BUTTON, "power-button")		/* press and release */	\
	X(AC_PLUG, "ac-plug")						\
	X(AC_UNPLUG, "ac-unplug")					\
	X(WP_ASSERT, "wp-assert")	/* hardware write protect: EC_WP_L low */ \
	X(WP_DEASSERT, "wp-deassert")					\
	X(FINGER_DOWN, "finger-down")	/* on the fingerprint sensor */	\
	X(FINGER_UP, "finger-up")

enum ec_stimulus {
#define EC_STIM_ENUM(id, name) EC_STIM_##id,
	EC_STIMULI(EC_STIM_ENUM)
#undef EC_STIM_ENUM
	EC_STIM_COUNT		/* not a stimulus: how many there are */
};

/**
 * ec_stimulus_name() - the name of a stimulus ("lid-open").
 * @stim: the stimulus
 *
 * Return: the name, or NULL when @stim is not one (EC_STIM_COUNT or more).
 */
const char *ec_stimulus_name(enum ec_stimulus stim);

/**
 * ec_stimulus_parse() - the stimulus of a name.
 * @name: a name as ec_stimulus_name() gives it
 * @out:  the stimulus
 *
 * Return: 0, or -EINVAL when no stimulus has that name.
 */
int ec_stimulus_parse(const char *name, enum ec_stimulus *out);

/**
 * ec_apply_stimulus() - change state and raise the events a real EC would.
 * @ec:   the EC
 * @stim: what happened
 *
 * Return: 0, or -EINVAL for an unknown stimulus.
 */
int ec_apply_stimulus(struct ec *ec, enum ec_stimulus stim);
/**
 * ec_inject_event() - queue a raw MKBP event.
 * @ec:      the EC
 * @type:    event type (< EC_MKBP_EVENT_COUNT)
 * @payload: up to 16 bytes
 * @len:     bytes of @payload
 *
 * Return: 0 or -EINVAL.
 */
int ec_inject_event(struct ec *ec, uint8_t type, const void *payload, size_t len);
/**
 * ec_inject_panic() - record a panic-info blob returned by GET_PANIC_INFO.
 * @ec:   the EC
 * @blob: the bytes (NULL with @len 0 clears the record)
 * @len:  at most EC_PANIC_MAX
 *
 * Return: 0 or -EINVAL.
 */
int ec_inject_panic(struct ec *ec, const void *blob, size_t len);
/**
 * ec_set_latency_ns() - one latency for every host command, overriding the
 * profile's default and per-command rules.
 * @ec: the EC
 * @ns: nanoseconds spent inside each command
 */
void ec_set_latency_ns(struct ec *ec, uint64_t ns);

/**
 * ec_cold_resets() - cold resets of the EC (REBOOT_EC cold, cold-AP-off,
 * hibernate) since ec_create(). On a real Chromebook such a reset takes the
 * host's EC device away and brings it back; a daemon that learns from
 * ec_host_command_effects() which command made one can show its clients the
 * same.
 * Return: the count.
 */
uint32_t ec_cold_resets(struct ec *ec);

/**
 * ec_memory_footprint() - heap bytes owned by @ec now: the struct, its
 * command buffers and what its subsystems allocated (the flash's written
 * blocks, the fingerprint frame and templates). Listeners own their event
 * queues. Takes the EC's lock; a fresh EC's figure depends on its profile
 * alone.
 * @ec: the EC
 *
 * Return: bytes.
 */
size_t ec_memory_footprint(struct ec *ec);

/**
 * ec_kb_backlight_percent() - the keyboard backlight's level, as the host
 * last set it (it is off after every EC boot).
 * Return: 0..100 percent, or -ENODEV when the board has no backlight.
 */
int ec_kb_backlight_percent(struct ec *ec);

/* ---- A convertible's hinge and side buttons (boards with [motion_sensor]) ---- */

/**
 * ec_motion_set_lid_angle() - move the hinge to @degrees, as a hand
 * would: the lid accelerometer turns, the EC reads the sensors every ten
 * degrees on the way (so tablet mode follows with its hysteresis and
 * raises the MKBP switch event and the MODE_CHANGE host event), and the
 * sensors the AP collects get a sample in the FIFO. The lid switch does
 * not move (inject lid-close/lid-open for that; they move the hinge too).
 * @ec:      the EC
 * @degrees: 0 (closed) .. 360 (folded flat behind)
 *
 * Return: 0; -EINVAL for an angle above 360; -ENODEV when the board has
 * no base and lid accelerometer to measure it.
 */
int ec_motion_set_lid_angle(struct ec *ec, unsigned int degrees);

/**
 * ec_motion_lid_angle() - the lid angle the EC read last.
 * @ec: the EC
 *
 * Return: degrees, LID_ANGLE_UNRELIABLE (500) when the reading disagrees
 * with the lid switch, or -ENODEV (no lid angle on this board).
 */
int ec_motion_lid_angle(struct ec *ec);

/**
 * ec_set_tablet_mode() - fold the lid behind the base (360 degrees) or
 * back to the profile's lid_angle: ec_motion_set_lid_angle(), so tablet
 * mode is what the EC decides from the angle, not a value set aside it.
 * @ec:     the EC
 * @tablet: fold (true) or unfold
 *
 * Return: 0, or -ENODEV when the board has no lid angle.
 */
int ec_set_tablet_mode(struct ec *ec, bool tablet);

/**
 * ec_tablet_mode() - whether the EC has the board in tablet mode.
 * @ec: the EC
 *
 * Return: 1 or 0, or -ENODEV when the board has no lid angle.
 */
int ec_tablet_mode(struct ec *ec);

/**
 * ec_press_button() - press a side button for @press_ms on the EC clock:
 * an MKBP button event with it held, another when it is let go.
 * @ec:       the EC
 * @button:   EC_MKBP_VOL_UP, EC_MKBP_VOL_DOWN or EC_MKBP_RECOVERY
 * @press_ms: how long it is held
 *
 * Return: 0; -EINVAL for another button; -ENODEV when the board lacks it
 * (its [keyboard] buttons).
 */
int ec_press_button(struct ec *ec, unsigned int button, uint32_t press_ms);

/* ---- The daemon's clock. ---- */

/*
 * A cached monotonic clock (cached_clock.c): real monotonic time, read without a
 * system call on the hot path. Every host command advances the EC's state
 * by reading the clock. Where the vDSO is missing (user-mode-linux has none)
 * clock_gettime() is a full system call costing about as much as a tenth
 * of a CUSE round trip, so a ticker thread publishes the time every 10 ms
 * while commands are flowing, and parks itself once they stop (no idle
 * wake-ups). Not every millisecond: in user-mode-linux, with one virtual
 * CPU, each tick preempts the thread serving a command, and a 1 kHz ticker
 * alone cost about 5% of an XCMD round trip (cuse_ec/bench/run-bench.sh).
 * Nothing the EC models needs a finer step; the trace orders events by
 * sequence number, not by time.
 */
struct cached_clock;

/**
 * cached_clock_create() - start a cached monotonic clock.
 * @out: the clock
 *
 * Readings lag real time by at most about two ticks (20 ms), never go
 * backwards, and sleeping (injected latency) uses the real nanosleep().
 *
 * Return: 0 or -errno.
 */
int cached_clock_create(struct cached_clock **out);

/**
 * cached_clock_destroy() - stop the ticker and free the clock.
 * @c: the clock; NULL is ignored
 */
void cached_clock_destroy(struct cached_clock *clock);

/**
 * cached_clock_ops() - the struct ec_clock to hand to ec_create().
 * @c: the clock
 *
 * Return: its struct ec_clock.
 */
const struct ec_clock *cached_clock_ops(struct cached_clock *clock);

/* Recordings and their replay: ec_recording.h, part of this API. */
#include "ec/ec_recording.h"
/* The state file format this build writes and the newest it reads. */
#define EC_STATE_FORMAT_VERSION	1
/* The largest state file ec_state_load_file() reads. */
#define EC_STATE_FILE_MAX	(64u << 20)

/**
 * ec_state_save() - the EC's state as a blob in the state file format
 * (cuse_ec-state(5)): every member of the model but its configuration, locks,
 * listeners and scratch, keyed by name and sealed with a SHA-256.
 * @ec:   the EC; brought up to the clock's now first
 * @blob: the blob, to free()
 * @len:  its length
 *
 * Return: 0, -EINVAL for a NULL argument, -ENOMEM.
 */
int ec_state_save(struct ec *ec, void **blob, size_t *len);

/**
 * ec_state_load() - replace the EC's state with a saved one.
 * @ec:     the EC, of the board the blob was saved from
 * @blob:   the blob
 * @len:    its length
 * @err:    on failure, why, for a human
 * @errlen: size of @err
 *
 * All of the blob is checked, and decoded into a copy, before the EC changes;
 * then the whole state is replaced in one hold of the EC lock, so a refused
 * blob leaves the EC exactly as it was. Timestamps move to the EC's clock:
 * the EC resumes as though no time passed while the state was stored.
 *
 * Return: the number of fields loaded (> 0), or -errno with @err filled in:
 * -EINVAL not a state file, a field unknown, missing, repeated or of a
 * length this board does not have, or values the board cannot hold;
 * -EPROTONOSUPPORT a newer format version; -EXDEV saved from another board
 * or kind of EC; -EBADMSG truncated or changed (digest mismatch); -ENOMEM.
 */
int ec_state_load(struct ec *ec, const void *blob, size_t len, char *err, size_t errlen);

/**
 * ec_state_save_file() - ec_state_save() to a file, atomically: a temporary
 * file in the same directory, written, fsync()ed and renamed over @path, so
 * a failed save leaves the old file as it was.
 * @ec:     the EC
 * @path:   the file
 * @len:    the bytes written, or NULL
 * @err:    on failure, why, naming the file
 * @errlen: size of @err
 *
 * Return: 0, or -errno of the step that failed, with @err filled in.
 */
int ec_state_save_file(struct ec *ec, const char *path, size_t *len, char *err, size_t errlen);

/**
 * ec_state_load_file() - ec_state_load() from a file.
 * @ec:     the EC
 * @path:   a regular file of at most EC_STATE_FILE_MAX bytes
 * @err:    on failure, why, naming the file
 * @errlen: size of @err
 *
 * Return: the fields loaded (> 0), or -errno with @err filled in: those of
 * ec_state_load(), -ENOENT when there is no such file, -EFBIG for one over
 * the cap, -EINVAL for a FIFO, device or directory, or the -errno of
 * opening or reading it.
 */
int ec_state_load_file(struct ec *ec, const char *path, char *err, size_t errlen);

#endif /* EC_EC_H */
