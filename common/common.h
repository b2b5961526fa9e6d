/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.h - what every program of the project needs once: parsers for
 * each kind of value a user types (integers, sizes, durations,
 * probabilities), with one set of rules and one style of error message;
 * text fields made fit for JSON output; the monotonic clock and a sleep;
 * one small seedable random generator; and the client of the daemon's
 * control socket.
 *
 * libc only: the EC model links this too, and must stay free of CUSE,
 * udev and RCU libraries.
 *
 * The rules, for every parser:
 *  - no leading blank or sign, no empty text, nothing after the value but
 *    the parser's own unit;
 *  - integers are decimal, or hexadecimal after "0x" (a leading 0 is still
 *    decimal); octal only where the value is a file mode (parse_octal());
 *  - a value that overflows, or lies outside the caller's range, is
 *    -ERANGE; anything else malformed is -EINVAL;
 *  - the message always reads "invalid WHAT 'TEXT': REASON", where WHAT
 *    is the caller's name for the value (an option, a key, a keyword).
 */
#ifndef CUSE_EC_COMMON_H
#define CUSE_EC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any message the parsers write (the text is cut at 40 bytes). */
#define PARSE_ERR_MAX 192

#define PARSE_NSEC_PER_SEC	1000000000ull
#define PARSE_PPM		1000000u	/* a probability of 1, in ppm */

/**
 * parse_uint() - a whole unsigned number in [@min, @max].
 * @text:   decimal, or hexadecimal after "0x"/"0X"
 * @what:   the value's name for the message ("--clients", "size")
 * @min:    smallest accepted value
 * @max:    largest accepted value
 * @out:    the value, written only on success
 * @err:    the message on failure (at least PARSE_ERR_MAX bytes is enough)
 * @errlen: size of @err
 *
 * Return: 0; -EINVAL for text that is not a number (empty, blank, sign,
 * junk after the digits); -ERANGE for overflow or a value out of range.
 */
int parse_uint(const char *text, const char *what, uint64_t min, uint64_t max,
	       uint64_t *out, char *err, size_t errlen);

/**
 * parse_octal() - a whole number in octal digits, in [0, @max] (file modes).
 * @text:   octal digits, with or without a leading 0
 * @what:   the value's name for the message
 * @max:    largest accepted value
 * @out:    the value, written only on success
 * @err:    the message on failure
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL or -ERANGE as parse_uint().
 */
int parse_octal(const char *text, const char *what, uint64_t max, uint64_t *out,
		char *err, size_t errlen);

/**
 * parse_size() - a byte count: a number with an optional binary unit.
 * @text:   "4096", "0x1000", "64K", "1M", "2G" (also "KiB", "MiB", "GiB")
 * @what:   the value's name for the message
 * @min:    smallest accepted size in bytes
 * @max:    largest accepted size in bytes
 * @out:    the size in bytes, written only on success
 * @err:    the message on failure
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL (also for an unknown unit) or -ERANGE.
 */
int parse_size(const char *text, const char *what, uint64_t min, uint64_t max,
	       uint64_t *out, char *err, size_t errlen);

/**
 * parse_duration() - a time span: a decimal number and a unit.
 * @text:   "20ms", "1s", "500us", "7ns", "2m"; "0" alone needs no unit
 * @what:   the value's name for the message
 * @max_ns: longest accepted span in nanoseconds
 * @out_ns: the span in nanoseconds, written only on success
 * @err:    the message on failure
 * @errlen: size of @err
 *
 * A bare number other than 0 is refused rather than guessed at: "20" could
 * mean milliseconds in one program and seconds in the next.
 *
 * Return: 0, -EINVAL (no unit, unknown unit, fraction) or -ERANGE.
 */
int parse_duration(const char *text, const char *what, uint64_t max_ns, uint64_t *out_ns,
		   char *err, size_t errlen);

/**
 * format_duration() - a span as parse_duration() reads it back: in its
 * largest unit that holds it whole ("1500us", "2s", "3m", "0ns").
 * @ns:  the span in nanoseconds
 * @buf: receives the text; 32 bytes always suffice
 * @len: room in @buf
 *
 * Return: the length of the full text (as snprintf).
 */
size_t format_duration(uint64_t ns, char *buf, size_t len);

/**
 * parse_probability() - a probability from 0 to 1, in parts per million.
 * @text:   "0", "1", "0.25", "0.000001" (at most six decimals that matter)
 * @what:   the value's name for the message
 * @out_ppm: the probability times PARSE_PPM, written only on success
 * @err:    the message on failure
 * @errlen: size of @err
 *
 * Return: 0; -EINVAL for malformed text or a finer step than 1 ppm;
 * -ERANGE above 1.
 */
int parse_probability(const char *text, const char *what, uint32_t *out_ppm,
		      char *err, size_t errlen);

/**
 * ec_result_name() - the EC_RES_* name of an EC status code.
 * @result: the status code
 *
 * Return: e.g. "INVALID_PARAM", or "UNKNOWN" for codes the ABI does not name.
 */
const char *ec_result_name(uint32_t result);

/**
 * ec_result_parse() - an EC status code as a user types it.
 * @text:   a name without its EC_RES_ prefix ("BUSY", any case) or a
 *          number 0..255
 * @out:    the code, written only on success
 * @err:    the message on failure
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL.
 */
int ec_result_parse(const char *text, uint32_t *out, char *err, size_t errlen);

/**
 * cli_option_error() - the message for an option getopt_long() refused.
 * @opt:    what getopt_long() returned: ':' (no argument) or anything else
 *          (an unknown option); call it with opterr = 0 and a leading ':'
 *          in the short options
 * @argv:   the arguments getopt_long() was given
 * @err:    receives "option 'X' needs an argument" or
 *          "unknown option 'X' (try --help)"
 * @errlen: size of @err
 *
 * Every program words a bad option the same way with it.
 *
 * Return: -EINVAL, for the caller to hand on.
 */
int cli_option_error(int opt, char *const argv[], char *err, size_t errlen);

/* Room text_to_utf8() needs for a field of @size bytes, at worst. */
#define TEXT_UTF8_ROOM(size)	(3 * (size) + 1)

/**
 * text_to_utf8() - a C-string field as valid UTF-8 text.
 * @field:  the field's bytes; the text ends at the first NUL, or at @size
 * @size:   the field's size (fixed-size EC strings need not hold a NUL)
 * @out:    receives the text, NUL-terminated
 * @outlen: size of @out; TEXT_UTF8_ROOM(@size) always suffices
 *
 * Valid UTF-8 is copied as it is ("café" stays "café"); each byte that is
 * not part of a valid sequence (a stray 0xff, an overlong form, a
 * surrogate) becomes U+FFFD, the replacement character, so a JSON writer
 * always gets valid text and every program shows a bad byte the same way.
 * Control characters are left for the JSON writer to escape.
 *
 * Return: the length of the text in @out.
 */
size_t text_to_utf8(const char *field, size_t size, char *out, size_t outlen);

/* ---- time ---- */

/**
 * mono_now_ns() - CLOCK_MONOTONIC in nanoseconds.
 *
 * Return: the time; it never goes backwards.
 */
uint64_t mono_now_ns(void);

/**
 * mono_sleep_ns() - sleep at least @ns nanoseconds, resuming after signals.
 * @ns: how long
 *
 * For pacing and back-off only: a sleep never proves that something else
 * has happened.
 */
void mono_sleep_ns(uint64_t ns);

/* ---- random numbers ---- */

/**
 * xorshift64s_next() - the next number of a xorshift64* sequence.
 * @state: the generator; any value, 0 included, is a valid seed
 *
 * Small, fast and reproducible from its seed (fault injection, workload
 * mixes, jitter); not for anything that must be unpredictable.
 *
 * Return: 64 pseudo-random bits.
 */
uint64_t xorshift64s_next(uint64_t *state);

/* ---- listening UNIX sockets ---- */

/**
 * struct unix_sock_id - which file a server's socket is (dev and inode).
 * @dev: st_dev of the socket's file
 * @ino: st_ino of the socket's file
 */
struct unix_sock_id {
	unsigned long long dev;
	unsigned long long ino;
};

/**
 * unix_listen() - a listening UNIX socket at @path, file mode 0666.
 * @path:    where; a stale socket there (nobody accepts) is replaced
 * @type:    SOCK_STREAM or SOCK_SEQPACKET
 * @backlog: listen()'s backlog
 * @fd_out:  the socket (close-on-exec, non-blocking)
 * @id:      which file is ours, for unix_unlink_own()
 *
 * Return: 0; -EADDRINUSE when a live server already listens at @path (it
 * is left alone) or something that is not a socket is there; -EINVAL for
 * an empty path or one longer than a socket address holds; or -errno.
 */
int unix_listen(const char *path, int type, int backlog, int *fd_out, struct unix_sock_id *id);

/**
 * unix_unlink_own() - unlink @path only if it is still the socket @id.
 * @path: the socket's path
 * @id:   as unix_listen() gave it
 */
void unix_unlink_own(const char *path, const struct unix_sock_id *id);

/**
 * unix_peer_trusted() - whether the peer of a connected socket is root or
 * runs as this process's effective user (SO_PEERCRED).
 * @fd: the connection
 *
 * Return: true if served, false otherwise (or when it cannot be told).
 */
bool unix_peer_trusted(int fd);

#endif /* CUSE_EC_COMMON_H */
