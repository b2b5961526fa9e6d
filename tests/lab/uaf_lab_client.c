// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uaf_lab_client.c - the teaching lab's client (docs/teaching.md).
 *
 *   uaf_lab_client [--reader] [--latency-ms N] DEV SOCK
 *
 * Stages the race from the seeds on purpose instead of by luck: it makes
 * every host command sleep inside the EC (control "latency"), starts an
 * XCMD HELLO on an open file, and while that command is in flight asks the
 * daemon to unplug the EC ("unplug wait"). Then it uses the same file
 * again. It prints what happened as key=value lines; the lab script
 * (scripts/uaf-lab) decides whether that is what the chosen lifecycle mode
 * promises, so this program judges nothing and works against every mode.
 *
 * With --reader a second file blocks in read() on MKBP events across the
 * unplug (only sensible in revocable mode: the other modes never wake it,
 * and the client then reports reader=still-blocked after a bounded wait).
 *
 * Exit status: 0 when the sequence ran (whatever the outcomes), 1 when it
 * could not be set up, 2 on bad usage.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"

/* How long the lab waits for a blocked reader to wake after the unplug. */
#define LAB_READER_WAIT_MS 3000
/* When the unplug is sent, as a fraction of the injected latency. */
#define LAB_UNPLUG_AT_PERCENT 30

/**
 * struct lab_inflight - the XCMD that is inside the EC when the unplug lands.
 * @fd:       the file it runs on
 * @ret:      0 for a correct HELLO answer, else -errno (-EBADMSG: wrong answer)
 * @start_ms: when it was issued
 * @end_ms:   when it returned
 */
struct lab_inflight {
	int fd;
	long ret;
	long long start_ms;
	long long end_ms;
};

/**
 * struct lab_reader - a read() blocked on MKBP events across the unplug.
 * @fd:   its file
 * @err:  errno the read ended with (0: it returned data)
 * @done: the read returned
 * @lock: protects @done/@err against the main thread's bounded wait
 * @cond: signalled when @done is set
 */
struct lab_reader {
	int fd;
	int err;
	bool done;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static long long lab_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* errno as its name: the doc and the script match on "ENODEV", not text. */
static const char *lab_errname(long ret)
{
	switch (-ret) {
	case 0: return "ok";
	case ENODEV: return "ENODEV";
	case ENOTCONN: return "ENOTCONN";
	case ECONNABORTED: return "ECONNABORTED";
	case EBADMSG: return "wrong-answer";
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ETIMEDOUT: return "ETIMEDOUT";
	default: return "other-error";
	}
}

/* XCMD HELLO: 0 when the EC answered correctly, else -errno or -EBADMSG. */
static long lab_hello(int fd)
{
	unsigned char buf[sizeof(struct cros_ec_command_v2) + 8] = { 0 };
	struct cros_ec_command_v2 *cmd = (void *)buf;
	uint32_t in = 0x01020304, out;
	long ret;

	cmd->command = EC_CMD_HELLO;
	cmd->outsize = sizeof(in);
	cmd->insize = sizeof(out);
	memcpy(cmd->data, &in, sizeof(in));
	ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
	if (ret < 0)
		return -errno;
	memcpy(&out, cmd->data, sizeof(out));
	if (ret != sizeof(out) || cmd->result != EC_RES_SUCCESS || out != in + EC_HELLO_MAGIC)
		return -EBADMSG;
	return 0;
}

/* READMEM of the "EC" signature in the memory map. */
static long lab_readmem(int fd)
{
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	long ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem);

	if (ret < 0)
		return -errno;
	return ret == 2 && !memcmp(mem.buffer, "EC", 2) ? 0 : -EBADMSG;
}

/* One control command over the daemon's socket; the reply lands in @reply. */
static int lab_control(const char *sock, const char *line, char *reply, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t off = 0;
	int fd, ret = -EIO;

	reply[0] = '\0';
	if (strlen(sock) >= sizeof(addr.sun_path))
		return -EINVAL;
	strcpy(addr.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		goto out;
	}
	if (dprintf(fd, "%s\n", line) < 0)
		goto out;
	while (off + 1 < len && read(fd, reply + off, 1) == 1 && reply[off] != '\n')
		off++;
	reply[off] = '\0';
	ret = strncmp(reply, "ok", 2) ? -EIO : 0;
out:
	close(fd);
	return ret;
}

static void *lab_inflight_thread(void *arg)
{
	struct lab_inflight *in = arg;

	in->start_ms = lab_now_ms();
	in->ret = lab_hello(in->fd);
	in->end_ms = lab_now_ms();
	return NULL;
}

static void *lab_reader_thread(void *arg)
{
	struct lab_reader *rd = arg;
	char buf[64];
	int err;

	err = read(rd->fd, buf, sizeof(buf)) < 0 ? errno : 0;
	pthread_mutex_lock(&rd->lock);
	rd->err = err;
	rd->done = true;
	pthread_cond_signal(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

/* Wait (bounded) for the reader; false if it is still blocked. */
static bool lab_reader_wait(struct lab_reader *rd, int ms)
{
	struct timespec until;
	bool done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&rd->lock);
	while (!rd->done && !pthread_cond_timedwait(&rd->cond, &rd->lock, &until))
		;
	done = rd->done;
	pthread_mutex_unlock(&rd->lock);
	return done;
}

static int lab_usage(void)
{
	fprintf(stderr, "usage: uaf_lab_client [--reader] [--latency-ms N] DEV SOCK\n"
		"  N: 50..10000 ms a host command sleeps inside the EC (default 500)\n");
	return 2;
}

static int lab_parse_ms(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 50 || v > 10000)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * main() - run the staged race once and report it.
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 0 when the sequence ran, 1 on a setup failure, 2 on bad usage.
 */
int main(int argc, char **argv)
{
	struct lab_reader rd = { .fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct lab_inflight in = { .fd = -1 };
	const char *dev, *sock;
	char line[64], reply[512];
	long latency_ms = 500, ret;
	long long t0, unplug_sent, unplug_back;
	bool want_reader = false, reader_started = false;
	pthread_t inflight_thread, reader_thread;
	int i, status = 1, fd;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--reader")) {
			want_reader = true;
		} else if (!strcmp(argv[i], "--latency-ms") && i + 1 < argc) {
			if (lab_parse_ms(argv[++i], &latency_ms)) {
				fprintf(stderr, "uaf_lab_client: bad --latency-ms '%s'\n", argv[i]);
				return lab_usage();
			}
		} else {
			fprintf(stderr, "uaf_lab_client: unknown option '%s'\n", argv[i]);
			return lab_usage();
		}
	}
	if (argc - i != 2)
		return lab_usage();
	dev = argv[i];
	sock = argv[i + 1];

	in.fd = open(dev, O_RDWR | O_CLOEXEC);
	if (in.fd < 0) {
		fprintf(stderr, "uaf_lab_client: open %s: %s\n", dev, strerror(errno));
		return 1;
	}
	ret = lab_hello(in.fd);
	printf("before_unplug_hello=%s\n", lab_errname(ret));
	if (want_reader) {
		rd.fd = open(dev, O_RDWR | O_CLOEXEC);
		if (rd.fd < 0 ||
		    ioctl(rd.fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1u << EC_MKBP_EVENT_BUTTON) < 0) {
			fprintf(stderr, "uaf_lab_client: reader setup: %s\n", strerror(errno));
			goto out;
		}
		if (pthread_create(&reader_thread, NULL, lab_reader_thread, &rd))
			goto out;
		reader_started = true;
	}

	snprintf(line, sizeof(line), "latency %ld", latency_ms * 1000000);
	if (lab_control(sock, line, reply, sizeof(reply))) {
		fprintf(stderr, "uaf_lab_client: '%s' -> '%s'\n", line, reply);
		goto out;
	}
	t0 = lab_now_ms();
	if (pthread_create(&inflight_thread, NULL, lab_inflight_thread, &in))
		goto out;
	/* Land the unplug while the HELLO sleeps inside the EC. */
	usleep((useconds_t)(latency_ms * 1000 * LAB_UNPLUG_AT_PERCENT / 100));
	unplug_sent = lab_now_ms();
	ret = lab_control(sock, "unplug wait", reply, sizeof(reply));
	unplug_back = lab_now_ms();
	pthread_join(inflight_thread, NULL);
	printf("unplug_reply=%s\n", reply);
	printf("inflight_hello=%s\n", lab_errname(in.ret));
	printf("inflight_ms=%lld\n", in.end_ms - in.start_ms);
	printf("unplug_sent_ms=%lld\n", unplug_sent - t0);
	printf("unplug_returned_ms=%lld\n", unplug_back - t0);
	printf("inflight_done_ms=%lld\n", in.end_ms - t0);
	/* The heart of step 3: did revoke wait for the command in flight? */
	printf("unplug_waited_for_inflight=%s\n", unplug_back >= in.end_ms ? "yes" : "no");

	ret = lab_hello(in.fd);
	printf("after_unplug_hello=%s\n", lab_errname(ret));
	ret = lab_readmem(in.fd);
	printf("after_unplug_readmem=%s\n", lab_errname(ret));
	fd = open(dev, O_RDWR | O_CLOEXEC);
	printf("after_unplug_open=%s\n", fd < 0 ? lab_errname(-errno) : "ok");
	if (fd >= 0)
		close(fd);
	if (reader_started) {
		if (lab_reader_wait(&rd, LAB_READER_WAIT_MS))
			printf("blocked_reader=%s\n", lab_errname(-rd.err));
		else
			printf("blocked_reader=still-blocked\n");
	}
	if (!lab_control(sock, "stats", reply, sizeof(reply)))
		printf("stats=%s\n", reply + 3);
	else
		printf("stats=unavailable (%s)\n", reply);
	fflush(stdout);
	status = 0;
out:
	close(in.fd);
	if (reader_started) {
		/*
		 * A reader that never woke (refcount/unsafe) is abandoned with
		 * the process: closing its fd does not end a CUSE read.
		 */
		if (rd.done)
			pthread_join(reader_thread, NULL);
		else
			_exit(status);
	}
	if (rd.fd >= 0)
		close(rd.fd);
	return status;
}
