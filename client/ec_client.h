/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_client.h - a client of the /dev/cros_ec character device that speaks
 * the ABI the way real clients (ChromiumOS ectool) do: the 4-step start-up,
 * then XCMD / READMEM / EVENTMASK / read() for events.
 *
 * All I/O goes through a small transport (struct ec_transport_ops) so that
 * tests can run the whole client against an in-process fake EC; the normal
 * transport is a file descriptor. One client may be used from many threads
 * at once: the device serialises commands, and the client keeps no mutable
 * buffers of its own after start-up.
 */
#ifndef EC_CLIENT_H
#define EC_CLIENT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/common.h"	/* ec_result_name() */

struct ec_client;

/**
 * struct ec_transport_ops - how a client reaches the device.
 * @ioctl: issue @request with @arg (a pointer cast to unsigned long for
 *         XCMD/READMEM, the mask value itself for EVENTMASK); return the
 *         ioctl's non-negative result or -errno
 * @read:  read up to @len bytes; return the count or -errno
 * @poll:  wait up to @timeout_ms (negative: forever) for the device; return
 *         the revents (POLLIN, POLLERR, ...), 0 on timeout, or -errno
 * @close: release the transport; called once by ec_client_close() (may be NULL)
 */
struct ec_transport_ops {
	int (*ioctl)(void *ctx, unsigned long request, unsigned long arg);
	ssize_t (*read)(void *ctx, void *buf, size_t len);
	int (*poll)(void *ctx, int timeout_ms);
	void (*close)(void *ctx);
};

/* ec_client_open() flags */
#define EC_CLIENT_NONBLOCK	(1u << 0)	/* open the node O_NONBLOCK */
#define EC_CLIENT_RAW		(1u << 1)	/* skip the 4-step start-up */
#define EC_CLIENT_NO_MEMMAP	(1u << 2)	/* use READ_MEMMAP even if READMEM works */

/*
 * Packet sizes assumed before GET_PROTOCOL_INFO answered (and for raw
 * clients): the smallest a real EC offers, so that nothing is ever sent that
 * a real EC would refuse.
 */
#define EC_CLIENT_DEFAULT_MAX_PAYLOAD 120u

/**
 * enum ec_client_step - the start-up step that failed (or none).
 */
enum ec_client_step {
	EC_STEP_NONE = 0,
	EC_STEP_OPEN,		/* opening the node */
	EC_STEP_VERSION_TEXT,	/* 1: read(79), first line "1.0.0" */
	EC_STEP_V1_PROBE,	/* 2: v1 XCMD HELLO must fail ENOTTY */
	EC_STEP_MEMMAP_ID,	/* 3: READMEM 2 bytes at 0x20 = "EC" */
	EC_STEP_PROTOCOL_INFO,	/* 4: GET_PROTOCOL_INFO returns exactly 12 */
};

/**
 * struct ec_client_error - why ec_client_open() failed.
 * @step:    which start-up step
 * @err:     the -errno returned
 * @message: one line for a human, naming the step and what was seen
 */
struct ec_client_error {
	enum ec_client_step step;
	int err;
	char message[160];
};

/**
 * ec_client_open() - open a cros_ec node and run the real client's start-up.
 * @name_or_path: a device name ("cros_ec" -> "/dev/cros_ec") or a path
 *                containing a '/'
 * @flags:        EC_CLIENT_* flags
 * @out:          the client on success
 *
 * Return: 0; -errno of the failing system call; -EPROTO when the device
 * answered but not like a cros_ec device (wrong version text, v1 ioctl not
 * refused, no "EC" in the memory map, protocol info not 12 bytes); -EINVAL
 * for bad arguments. ec_client_open_diag() also says which step failed.
 */
int ec_client_open(const char *name_or_path, unsigned int flags, struct ec_client **out);

/**
 * ec_client_open_diag() - ec_client_open(), explaining a failure.
 * @name_or_path: as for ec_client_open()
 * @flags:        EC_CLIENT_* flags
 * @error:        on failure: the step, the error and a one-line message
 *                (may be NULL)
 * @out:          the client on success
 *
 * Return: as ec_client_open().
 */
int ec_client_open_diag(const char *name_or_path, unsigned int flags,
			struct ec_client_error *error, struct ec_client **out);

/**
 * ec_client_attach() - like ec_client_open() over a caller-supplied transport.
 * @ops:   the transport; must outlive the client
 * @ctx:   passed to every @ops call
 * @flags: EC_CLIENT_* flags (EC_CLIENT_NONBLOCK is ignored)
 * @error: filled in on failure (may be NULL)
 * @out:   the client on success
 *
 * On failure @ops->close is NOT called: the caller still owns @ctx.
 *
 * Return: as ec_client_open().
 */
int ec_client_attach(const struct ec_transport_ops *ops, void *ctx, unsigned int flags,
		     struct ec_client_error *error, struct ec_client **out);

/**
 * ec_client_close() - close the transport and free the client.
 * @c: the client; NULL is ignored
 */
void ec_client_close(struct ec_client *c);

/**
 * ec_client_max_request() - largest request payload the EC accepts.
 * @c: the client
 *
 * Return: GET_PROTOCOL_INFO's max request packet minus 8, or
 * EC_CLIENT_DEFAULT_MAX_PAYLOAD for a raw client.
 */
size_t ec_client_max_request(const struct ec_client *c);

/**
 * ec_client_max_response() - largest response payload the EC produces.
 * @c: the client
 *
 * Return: GET_PROTOCOL_INFO's max response packet minus 8, or
 * EC_CLIENT_DEFAULT_MAX_PAYLOAD for a raw client.
 */
size_t ec_client_max_response(const struct ec_client *c);

/**
 * ec_client_has_direct_memmap() - does READMEM work on this device?
 * @c: the client
 *
 * Return: false when READMEM answered ENOTTY at start-up (or
 * EC_CLIENT_NO_MEMMAP was given): memory-map reads use READ_MEMMAP.
 */
bool ec_client_has_direct_memmap(const struct ec_client *c);

/**
 * ec_client_version_text() - the text read at start-up step 1.
 * @c: the client
 *
 * Return: the text, NUL-terminated ("" for raw clients).
 */
const char *ec_client_version_text(const struct ec_client *c);

/*
 * "The EC said no" has one spelling everywhere in this library: every call
 * returns -errno when the device or the transport failed and
 * EC_CLIENT_EC_ERR(result) when the EC answered with a status other than
 * SUCCESS (ec_client_xcmd() too, unless it is handed @ec_result to fill),
 * so a caller can tell the two apart. Linux errnos stay below 4096, so the
 * two ranges never meet.
 */
#define EC_CLIENT_EC_ERR_BASE	4096
#define EC_CLIENT_EC_ERR(result)	(-(EC_CLIENT_EC_ERR_BASE + (int)(result)))

/**
 * ec_client_xcmd() - run one host command through the XCMD ioctl.
 * @c:         the client
 * @command:   host command number
 * @version:   command version
 * @req:       request bytes (may be NULL when @req_len is 0)
 * @req_len:   request size
 * @resp:      response buffer (may be NULL when @resp_len is 0)
 * @resp_len:  room in @resp (the insize asked for)
 * @ec_result: the EC status code (EC_RES_*); when NULL, a non-zero status
 *             is returned as EC_CLIENT_EC_ERR(status), like every helper
 *
 * Only min(return, @resp_len) bytes of @resp are written.
 *
 * Return: response bytes the EC produced (>= 0), or -errno for a transport
 * failure (-EMSGSIZE when @req_len exceeds the EC's max request, -EINVAL
 * when a size exceeds the ABI's 64 KiB limit, EC_CLIENT_GONE once the
 * device is gone).
 */
int ec_client_xcmd(struct ec_client *c, uint32_t command, uint32_t version,
		   const void *req, size_t req_len, void *resp, size_t resp_len,
		   uint32_t *ec_result);

/**
 * ec_client_readmem() - read the EC's memory map.
 * @c:      the client
 * @offset: first byte (< 256)
 * @bytes:  count (1..255), or 0 for a NUL-terminated string
 * @buf:    at least @bytes bytes, or 255 for a string
 *
 * Uses READMEM, or host command READ_MEMMAP when the device has no direct
 * memory-map access (as ectool does).
 *
 * Return: bytes read (for a string, including its NUL), -errno (-EINVAL
 * for a range outside the 256-byte map), or EC_CLIENT_EC_ERR() when
 * READ_MEMMAP is refused by the EC.
 */
int ec_client_readmem(struct ec_client *c, uint32_t offset, uint32_t bytes, void *buf);

/**
 * ec_client_set_event_mask() - EVENTMASK: choose the MKBP event types read()
 * returns (bit n = type n); 0 turns read() back into the version text.
 * @c:    the client
 * @mask: the mask
 *
 * Return: 0 or -errno.
 */
int ec_client_set_event_mask(struct ec_client *c, uint32_t mask);

/**
 * ec_client_read_event() - wait for and read one MKBP event.
 * @c:          the client
 * @buf:        receives the type byte and its payload
 * @len:        room in @buf (the event is truncated to it)
 * @timeout_ms: how long to wait; negative waits forever, blocked in read()
 *              inside the driver as a plain blocking reader is (a
 *              non-blocking file polls first)
 *
 * Return: bytes read, -ETIMEDOUT when nothing arrived in time, or -errno
 * (EC_CLIENT_GONE once the EC or the daemon is gone).
 */
int ec_client_read_event(struct ec_client *c, void *buf, size_t len, int timeout_ms);

/**
 * ec_client_poll() - wait until an event can be read, or the device fails.
 * @c:          the client
 * @timeout_ms: how long; negative waits forever
 *
 * Return: the revents (POLLIN when an event is queued; POLLERR/POLLHUP once
 * the EC or the daemon is gone), 0 on timeout, or -errno.
 */
int ec_client_poll(struct ec_client *c, int timeout_ms);

/**
 * ec_client_step_name() - a short name for a start-up step.
 * @step: the step
 *
 * Return: e.g. "version text", "v1 probe"; never NULL.
 */
const char *ec_client_step_name(enum ec_client_step step);

/* ---- typed helpers: the commands of ecctl, as ectool issues them ---- */


/*
 * What every call returns once the device is gone - the EC unplugged, or
 * the daemon serving the node dead or exiting. The kernel tells those apart
 * (ENODEV, ECONNABORTED, ENOTCONN, EIO: cuse_ec(8), DEVICE GONE); a client
 * has one thing to do about all of them, so it sees one value.
 */
#define EC_CLIENT_GONE	(-ENODEV)

/**
 * ec_client_err_is_gone() - is @err the "device gone" error?
 * @err: a negative return of any client function
 *
 * Return: true for EC_CLIENT_GONE.
 */
bool ec_client_err_is_gone(int err);

/**
 * ec_client_err_is_ec() - does @err carry an EC status code?
 * @err:    a typed helper's negative return
 * @result: receives the status code when it does (may be NULL)
 *
 * Return: true for EC_CLIENT_EC_ERR() values.
 */
bool ec_client_err_is_ec(int err, uint32_t *result);

/**
 * ec_client_strerror() - describe a negative return of any client function.
 * @err: the value
 * @buf: receives e.g. "EC error INVALID_PARAM (3)" or "ENODEV (No such device)"
 * @len: size of @buf
 *
 * Return: @buf.
 */
const char *ec_client_strerror(int err, char *buf, size_t len);

/**
 * ec_errno_name() - the symbolic name of a positive errno value.
 * @errnum: e.g. ENODEV
 *
 * Return: "ENODEV", or "E?" for values this table does not know.
 */
const char *ec_errno_name(int errnum);

/**
 * ec_client_cmd() - one host command whose EC status must be SUCCESS.
 * @c:        the client
 * @command:  host command number
 * @version:  command version
 * @req:      request bytes
 * @req_len:  request size
 * @resp:     response buffer
 * @resp_len: room in @resp
 *
 * Return: response bytes, -errno, or EC_CLIENT_EC_ERR(result).
 */
int ec_client_cmd(struct ec_client *c, uint32_t command, uint32_t version,
		  const void *req, size_t req_len, void *resp, size_t resp_len);

/**
 * ec_client_hello() - HELLO: the EC must answer @in_data + 0x01020304.
 * @c:       the client
 * @in_data: the value sent
 * @out:     the value received (may be NULL)
 *
 * Return: 0, -EPROTO for a wrong answer, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_hello(struct ec_client *c, uint32_t in_data, uint32_t *out);

/**
 * ec_client_cmd_versions() - GET_CMD_VERSIONS: which versions of @command exist.
 * @c:       the client
 * @command: host command number (v1 of GET_CMD_VERSIONS is used above 0xff)
 * @mask:    bit n set = version n supported; 0 when the EC does not know
 *           @command (it answers INVALID_PARAM)
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_cmd_versions(struct ec_client *c, uint16_t command, uint32_t *mask);

/**
 * ec_client_cmd_versions_ver() - ec_client_cmd_versions() asked with a
 * given version of GET_CMD_VERSIONS (ectool asks v1 first for every
 * command, then v0 where v1 failed).
 * @c:       the client
 * @command: host command number (v0 carries its low 8 bits only)
 * @version: 0 or 1
 * @mask:    as ec_client_cmd_versions()
 *
 * Return: 0, -EINVAL for another @version, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_cmd_versions_ver(struct ec_client *c, uint16_t command, uint8_t version,
			       uint32_t *mask);

/** struct ec_info_protocol - GET_PROTOCOL_INFO, decoded. */
struct ec_info_protocol {
	uint32_t protocol_versions;
	uint16_t max_request_packet;
	uint16_t max_response_packet;
	uint32_t flags;
};

/**
 * ec_client_protoinfo() - GET_PROTOCOL_INFO.
 * @c:    the client
 * @info: the decoded answer
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_protoinfo(struct ec_client *c, struct ec_info_protocol *info);

#define EC_INFO_STR 33	/* a 32-byte EC string plus a guaranteed NUL */

/**
 * struct ec_info_version - GET_VERSION (v1 when supported) and GET_BUILD_INFO.
 * @cmd_version:   the GET_VERSION version used
 * @ro:            RO version string
 * @rw:            RW version string
 * @fwid_ro:       RO firmware id (v1 only, else "")
 * @fwid_rw:       RW firmware id (v1 only, else "")
 * @current_image: EC_IMAGE_* value
 * @build_info:    GET_BUILD_INFO text ("" when the EC has none)
 */
struct ec_info_version {
	unsigned int cmd_version;
	char ro[EC_INFO_STR];
	char rw[EC_INFO_STR];
	char fwid_ro[EC_INFO_STR];
	char fwid_rw[EC_INFO_STR];
	uint32_t current_image;
	char build_info[256];
};

/**
 * ec_client_get_version() - GET_VERSION (v1 when GET_CMD_VERSIONS lists it,
 * else v0) and GET_BUILD_INFO (optional: empty when the EC lacks it).
 * @c: the client
 * @v: the versions
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_get_version(struct ec_client *c, struct ec_info_version *v);

/**
 * ec_client_image_name() - name an EC image as the kernel driver does.
 * @image: EC_IMAGE_* value
 *
 * Return: "unknown", "read-only", "read-write" or "invalid".
 */
const char *ec_client_image_name(uint32_t image);

/** struct ec_info_chip - GET_CHIP_INFO, NUL-terminated. */
struct ec_info_chip {
	char vendor[EC_INFO_STR];
	char name[EC_INFO_STR];
	char revision[EC_INFO_STR];
};

/**
 * ec_client_chipinfo() - GET_CHIP_INFO.
 * @c:    the client
 * @chip: vendor, name and revision, NUL-terminated
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_chipinfo(struct ec_client *c, struct ec_info_chip *chip);

/**
 * struct ec_info_battery - the battery as ectool shows it.
 * @memmap_version: EC_MEMMAP_BATTERY_VERSION (0: the EC has no battery data)
 * @present:        the BATT_PRESENT flag
 * @voltage:        mV, @rate: mA, @remaining: mAh, @flags: EC_BATT_FLAG_*
 * @design_capacity: mAh, @design_voltage: mV, @last_full: mAh, @cycle_count
 * @manufacturer, @model, @serial, @type: memory-map strings (8 bytes max)
 * @have_static:  BATTERY_GET_STATIC v1 answered; its fields follow
 * @have_dynamic: BATTERY_GET_DYNAMIC answered; its fields follow
 */
struct ec_info_battery {
	uint8_t memmap_version;
	bool present;
	uint32_t voltage;
	uint32_t rate;
	uint32_t remaining;
	uint32_t flags;
	uint32_t design_capacity;
	uint32_t design_voltage;
	uint32_t last_full;
	uint32_t cycle_count;
	char manufacturer[9];
	char model[9];
	char serial[9];
	char type[9];
	bool have_static;
	struct {
		uint16_t design_capacity;
		uint16_t design_voltage;
		uint32_t cycle_count;
		char manufacturer[13];
		char model[13];
		char serial[13];
		char type[13];
	} st;
	bool have_dynamic;
	struct {
		int16_t voltage;
		int16_t current;
		int16_t remaining;
		int16_t full;
		int16_t flags;
		int16_t desired_voltage;
		int16_t desired_current;
	} dyn;
};

/**
 * ec_client_battery() - memory-map battery values, plus the BATTERY_GET_STATIC /
 * BATTERY_GET_DYNAMIC commands when GET_CMD_VERSIONS says they exist.
 * @c:   the client
 * @bat: the battery
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_battery(struct ec_client *c, struct ec_info_battery *bat);

#define EC_INFO_MAX_TEMPS 24	/* 16 in the first bank + 8 in the second */

/**
 * struct ec_info_temps - every temperature slot of the memory map.
 * @count:  slots examined (16, or 24 when the thermal version is >= 2)
 * @raw:    the memory-map byte (K - 200, or a 0xFC..0xFF status)
 * @name:   TEMP_SENSOR_GET_INFO name ("" when unavailable)
 */
struct ec_info_temps {
	unsigned int count;
	struct {
		uint8_t raw;
		char name[EC_INFO_STR];
	} sensor[EC_INFO_MAX_TEMPS];
};

/**
 * ec_client_temps() - read the temperature banks and the sensor names.
 * @c:     the client
 * @temps: every slot (the second bank only when the thermal version >= 2)
 *
 * Names come from TEMP_SENSOR_GET_INFO; an EC without it leaves them empty.
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_temps(struct ec_client *c, struct ec_info_temps *temps);

/**
 * ec_client_temp_status_name() - what a non-temperature memory-map byte means.
 * @raw: the byte
 *
 * Return: NULL when @raw is a temperature, else e.g. "not present", "error".
 */
const char *ec_client_temp_status_name(uint8_t raw);

#define EC_INFO_MAX_FANS 4

/**
 * struct ec_info_fans - fan RPMs from the memory map.
 * @pwm_fan: GET_FEATURES reports PWM fan control (without it: no fans)
 * @count:   fans before the 0xFFFF terminator
 * @rpm:     RPM, or 0xFFFE for a stalled fan
 */
struct ec_info_fans {
	bool pwm_fan;
	unsigned int count;
	uint16_t rpm[EC_INFO_MAX_FANS];
};

/**
 * ec_client_fans() - GET_FEATURES, then the memory-map RPMs.
 * @c:    the client
 * @fans: the fans (none unless the EC reports PWM fan control)
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_fans(struct ec_client *c, struct ec_info_fans *fans);

/**
 * ec_client_console() - CONSOLE_SNAPSHOT, then CONSOLE_READ until it returns
 * an empty string.
 * @c:    the client
 * @text: a malloc()ed NUL-terminated copy of the console (caller frees)
 * @len:  its length (may be NULL)
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR(); -EOVERFLOW when the EC never
 * stops sending (more than 1 MiB).
 */
int ec_client_console(struct ec_client *c, char **text, size_t *len);

/** struct ec_info_uptime - GET_UPTIME_INFO, decoded. */
struct ec_info_uptime {
	uint32_t time_since_ec_boot_ms;
	uint32_t ap_resets_since_ec_boot;
	uint32_t ec_reset_flags;
	struct {
		uint16_t reset_cause;
		uint32_t reset_time_ms;
	} recent[4];
};

/**
 * ec_client_uptime() - GET_UPTIME_INFO.
 * @c:  the client
 * @up: the decoded answer
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_uptime(struct ec_client *c, struct ec_info_uptime *up);

/**
 * ec_client_kblight() - PWM_GET_KEYBOARD_BACKLIGHT.
 * @c:       the client
 * @percent: the backlight's duty, 0..100
 * @enabled: whether it is on
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR() (INVALID_COMMAND: no backlight).
 */
int ec_client_kblight(struct ec_client *c, uint8_t *percent, bool *enabled);

/**
 * ec_client_set_kblight() - PWM_SET_KEYBOARD_BACKLIGHT.
 * @c:       the client
 * @percent: 0..100
 *
 * Return: 0, -EINVAL above 100, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_set_kblight(struct ec_client *c, uint8_t percent);

/**
 * ec_client_panicinfo() - GET_PANIC_INFO.
 * @c:   the client
 * @buf: receives the panic record
 * @len: room in @buf
 *
 * Return: record size (0 = no panic), -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_panicinfo(struct ec_client *c, void *buf, size_t len);

/**
 * ec_client_usbpd_ports() - USB_PD_PORTS.
 * @c:     the client
 * @ports: number of USB-PD ports
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR().
 */
int ec_client_usbpd_ports(struct ec_client *c, unsigned int *ports);

/** struct ec_info_pd_power - USB_PD_POWER_INFO for one port, decoded. */
struct ec_info_pd_power {
	uint8_t port;
	uint8_t role;
	uint8_t type;
	uint8_t dualrole;
	uint16_t voltage_max;
	uint16_t voltage_now;
	uint16_t current_max;
	uint16_t current_lim;
	uint32_t max_power;
};

/**
 * ec_client_usbpd_power() - USB_PD_POWER_INFO for one port.
 * @c:    the client
 * @port: the port
 * @pw:   the decoded answer
 *
 * Return: 0, -errno or EC_CLIENT_EC_ERR() (INVALID_PARAM for a bad port).
 */
int ec_client_usbpd_power(struct ec_client *c, uint8_t port, struct ec_info_pd_power *pw);

#endif /* EC_CLIENT_H */
