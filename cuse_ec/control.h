/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * control.h - the daemon's control socket: one text command per line.
 *
 * The verbs are declared once, in control.c's table; "help" lists them and
 * "help VERB" says what one does; cuse_ec(8) CONTROL SOCKET describes each
 * (tests/cuse_ec/test_control_options.c keeps the page and the table
 * equal). Replies are one line, "ok ..." or "error <reason>", except the N
 * event lines that follow "ok trace events=N".
 */
#ifndef CUSE_EC_CONTROL_H
#define CUSE_EC_CONTROL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctl/ctl.h"
#include "ec/ec.h"

struct chardev_ctx;
struct control_server;

/* The server thread's name (top -H, /proc/PID/task/TID/comm). */
#define CONTROL_THREAD_NAME "ec-control"


struct control_verb;

/**
 * struct control_device - one device a control server serves.
 * @name: its node's name, what "@NAME" addresses; NULL for an unnamed one
 *        (a server of one context that no line can address by name)
 * @ctx:  its chardev context
 */
struct control_device {
	const char *name;
	struct chardev_ctx *ctx;
};

/**
 * struct control_cmd - one parsed command line.
 * @device:     "@NAME": the device it addresses; "" for the default (the
 *              server's first)
 * @ctx:        the addressed device's context, set by the server once it
 *              resolved @device (control_execute() takes it as argument)
 * @devices:    the server's device names for "info" ("a,b"), or NULL
 * @verb:       the table's row of the verb (control_verb_name() names it)
 * @stimulus:   "inject": the event
 * @latency_ns: "latency": the latency
 * @fault:      "fault": the rule
 * @topic:      "help VERB": the verb's row
 * @lid_angle:  "motion angle": the hinge's degrees, 0..360
 * @button:     "button": EC_MKBP_VOL_UP, EC_MKBP_VOL_DOWN or EC_MKBP_RECOVERY
 * @press_ms:   "button": how long it is held
 */
struct control_cmd {
	char device[CTL_DEVICE_NAME_MAX];
	struct chardev_ctx *ctx;
	const char *devices;
	const struct control_verb *verb;
	enum ec_stimulus stimulus;
	uint64_t latency_ns;
	struct ec_fault fault;
	const struct control_verb *topic;
	unsigned int lid_angle;
	unsigned int button;
	uint32_t press_ms;
};

/**
 * control_verb_name() - the name of a parsed command's verb, without its
 * value: "unplug wait", "inject".
 * @cmd: a command control_parse() filled
 *
 * Return: the name, or NULL when @cmd holds no verb.
 */
const char *control_verb_name(const struct control_cmd *cmd);

/**
 * control_parse() - parse one command line (no newline): an optional first
 * word "@NAME" (a valid device name, ctl.h) and the verb.
 * @line:   the text, NUL-terminated
 * @cmd:    the command
 * @err:    on failure, the reason (without the "error " prefix)
 * @errlen: room in @err
 *
 * Return: 0, or -EINVAL with @err set (a bad device name too: whether
 * a good one is served is the server's to say).
 */
int control_parse(const char *line, struct control_cmd *cmd, char *err, size_t errlen);

/**
 * control_print_verbs() - every control verb's form and what it does, one
 * verb an item, in the order "help" lists them (for cuse_ec --help).
 * @out:    where to print
 * @column: where the texts start; a longer form gets a line of its own
 * @width:  the texts are wrapped at word boundaries to end by this column
 *          (a word longer than the room left stays whole)
 */
void control_print_verbs(FILE *out, int column, int width);

/**
 * control_execute() - run a command that replies at once.
 * @ctx:   the daemon
 * @cmd:   a parsed command other than "unplug wait" and "trace" (which
 *         need the server: a reply later, several lines)
 * @reply: the one-line reply, "ok ..." or "error ..." (no newline)
 * @len:   room in @reply
 *
 * Return: 0 on "ok", -errno on "error"; -EINVAL ("error command needs the
 * server") for a verb that needs the server.
 */
int control_execute(struct chardev_ctx *ctx, const struct control_cmd *cmd,
		    char *reply, size_t len);

/**
 * control_server_start() - listen on @path and serve it from a new thread.
 * @ctx:  the daemon
 * @path: unix socket path
 * @out:  the server
 *
 * A stale socket at @path (nobody answers on it) is replaced; a live one,
 * another server's, is left alone. The socket's file is created with mode
 * 0666 by bind() itself, whatever the process umask, and nothing at @path
 * is changed afterwards. Only peers with uid 0 or the daemon's own uid are
 * served (SO_PEERCRED); others get "error permission denied".
 *
 * Return: 0; -EADDRINUSE when a server answers at @path or something that
 * is not a socket is there; -EEXIST when @path no longer named our socket
 * right after bind (someone who can write its directory replaced it); or
 * another -errno.
 */
int control_server_start(struct chardev_ctx *ctx, const char *path, struct control_server **out);

/**
 * control_server_start_devices() - control_server_start() for a daemon of
 * several devices: a line's "@NAME" picks one, no prefix the first; a name
 * not served gets "error no device 'NAME' ... errno=ENODEV".
 * @devs: the devices, copied (the names must outlive the server), each
 *        named
 * @n:    how many, 1..CTL_DEVICES_MAX
 * @path: unix socket path
 * @out:  the server
 *
 * Return: as control_server_start(); -EINVAL for a bad @n or a name missing.
 */
int control_server_start_devices(const struct control_device *devs, size_t n, const char *path,
				 struct control_server **out);

/* Default of --control-idle-timeout, in seconds. */
#define CONTROL_IDLE_TIMEOUT_DEFAULT_S 60

/**
 * control_server_unlink() - remove the socket's path now, if it still names
 * this server's socket (a process about to exit without its teardown).
 * @srv: the server; NULL is ignored
 */
void control_server_unlink(struct control_server *srv);

/**
 * control_server_set_idle_timeout() - close connections silent this long
 * (CONTROL_IDLE_TIMEOUT_DEFAULT_S until set); one waiting for an
 * "unplug wait" reply is not silent.
 * @srv: the server
 * @ms:  the timeout, 0 for never
 */
void control_server_set_idle_timeout(struct control_server *srv, unsigned int ms);

/**
 * control_server_stop() - stop the thread, close the socket, and unlink its
 * path unless another server has bound a socket there since.
 * @srv: the server; NULL is ignored
 *
 * Waits (up to 10 s) for "unplug wait" completions still due; if one does
 * not come, the server is leaked rather than freed under it.
 */
void control_server_stop(struct control_server *srv);

#endif /* CUSE_EC_CONTROL_H */
