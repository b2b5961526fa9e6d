// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uaf_lab_client.c - the teaching lab's client (docs/teaching.md).
 *
 *   uaf_lab_client [--reader] [--replug] [--latency-ms N] DEV SOCK
 *
 * Stages the race from the seeds on purpose instead of by luck: it makes
 * every host command sleep inside the EC (control "latency"), starts an
 * XCMD HELLO on an open file, waits until the daemon reports the command
 * inside the EC (stats: inflight_accesses >= 1), and then asks the daemon
 * to unplug the EC ("unplug wait"). Then it uses the same file again.
 *
 * Whether the unplug waited for the command is not judged from the client's
 * clocks: the ioctl reply and the control reply travel on different
 * channels, so their arrival says nothing about the order inside the
 * daemon. The daemon numbers its own events (control "trace"), and the
 * client reads the order from there: the in-flight command's access-end
 * against the revoke's revoke-done, and for the blocked reader read-parked,
 * revoke-start and read-woken.
 *
 * It prints what happened as key=value lines, and the trace lines it used
 * as "evidence:" lines; the lab script (scripts/uaf-lab) decides whether
 * that is what the chosen lifecycle mode promises, so this program judges
 * nothing and works against every mode.
 *
 * With --reader a second file blocks in read() on MKBP events across the
 * unplug, parked before the unplug starts (stats: parked_reads >= 1); only
 * sensible in revocable mode: the other modes never wake it, and the client
 * then reports blocked_reader=still-blocked after a bounded wait.
 *
 * With --replug, once the trace is read, a fresh EC is plugged in and the
 * old file is set against a new one: the operator pulls the new EC's
 * charger ("inject ac-unplug"), both files read the AC flag of the memory
 * map, and the old file sets the hibernation delay, which the new file
 * then reads back. In refcount mode the old file still answers, from the
 * dead EC: AC still present, the setting taken and lost. Then the EC is
 * unplugged and plugged LAB_REPLUG_CYCLES more times and the old file reads
 * the AC flag once more: refcount's first EC is still there, pinned by the
 * one file that holds it. The daemon's live_ecs and live_ec_bytes say how
 * much it pins (replug_live_ecs, replug_pinned_bytes: the bytes beyond the
 * plugged EC's, one_ec_bytes, read at the start with one EC plugged); the
 * old file is then closed and the figures read again (closed_*).
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
#include <stddef.h>
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
#include "lab_ctl.h"

/* How long the lab waits for a blocked reader to wake after the unplug. */
#define LAB_READER_WAIT_MS 10000
/*
 * Unplug/plug cycles after the replug (--replug): the old file asks again
 * at the end, to show whether its EC outlived them all.
 */
#define LAB_REPLUG_CYCLES 10

/**
 * struct lab_inflight - the XCMD that is inside the EC when the unplug lands.
 * @fd:  the file it runs on
 * @ret: 0 for a correct HELLO answer, else -errno (-EBADMSG: wrong answer)
 */
struct lab_inflight {
	int fd;
	long ret;
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


/* READMEM of the "EC" signature in the memory map. */
static long lab_readmem(int fd)
{
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_ID, .bytes = 2 };
	long ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem);

	if (ret < 0)
		return -errno;
	return ret == 2 && !memcmp(mem.buffer, "EC", 2) ? 0 : -EBADMSG;
}

/* The memory map's AC flag: 1 or 0 on the charger, else -errno. */
static long lab_read_ac(int fd)
{
	struct cros_ec_readmem_v2 mem = { .offset = EC_MEMMAP_BATT_FLAG, .bytes = 1 };
	long ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem);

	if (ret < 0)
		return -errno;
	if (ret != 1)
		return -EBADMSG;
	return mem.buffer[0] & EC_BATT_FLAG_AC_PRESENT ? 1 : 0;
}

/*
 * HIBERNATION_DELAY: set @seconds (0: only read); the delay the EC holds
 * afterwards (>= 0), or -errno / -EBADMSG.
 */
static long lab_hibernation_delay(int fd, uint32_t seconds)
{
	struct ec_params_hibernation_delay p = { .seconds = seconds };
	struct ec_response_hibernation_delay r;
	long ret = lab_xcmd(fd, EC_CMD_HIBERNATION_DELAY, &p, sizeof(p), &r, sizeof(r));

	return ret ? ret : r.hibernate_delay;
}


/*
 * What the trace says about the revoke and the command in flight:
 * unplug_waited_for_inflight=yes when that command's access-end comes
 * before the revoke's revoke-done, no when after.
 */
static void lab_report_inflight(const struct lab_trace *tr)
{
	long start, done, begin = -1, end = -1, i;

	start = lab_trace_last(tr, CHARDEV_TRACE_REVOKE_START, 0, UINT64_MAX);
	if (start < 0) {
		printf("unplug_waited_for_inflight=unknown (no revoke-start in the trace)\n");
		return;
	}
	done = lab_trace_first(tr, CHARDEV_TRACE_REVOKE_DONE, 0, tr->e[start].seq);
	/* The HELLO that entered before the revoke and left after it began. */
	for (i = 0; i < (long)tr->n && tr->e[i].seq < tr->e[start].seq; i++) {
		long e;

		if (tr->e[i].event != CHARDEV_TRACE_ACCESS_BEGIN || tr->e[i].cmd != EC_CMD_HELLO)
			continue;
		e = lab_trace_end_of(tr, tr->e[i].seq);
		if (e < 0 || tr->e[e].seq > tr->e[start].seq) {
			begin = i;
			end = e;
		}
	}
	lab_evidence(tr, begin);
	lab_evidence(tr, start);
	if (done >= 0 && end >= 0 && tr->e[done].seq < tr->e[end].seq) {
		lab_evidence(tr, done);
		lab_evidence(tr, end);
	} else {
		lab_evidence(tr, end);
		lab_evidence(tr, done);
	}
	if (begin < 0 || end < 0 || done < 0) {
		printf("unplug_waited_for_inflight=unknown (%s)\n",
		       begin < 0 ? "no HELLO inside the EC at revoke-start" :
		       end < 0 ? "the in-flight HELLO has no access-end" : "no revoke-done");
		return;
	}
	printf("inflight_access=#%llu-#%llu\n", (unsigned long long)tr->e[begin].seq,
	       (unsigned long long)tr->e[end].seq);
	printf("revoke=#%llu-#%llu\n", (unsigned long long)tr->e[start].seq,
	       (unsigned long long)tr->e[done].seq);
	/* The heart of step 3: did the revoke wait for the command in flight? */
	printf("unplug_waited_for_inflight=%s\n",
	       tr->e[end].seq < tr->e[done].seq ? "yes" : "no");
}

/*
 * What the trace says about the blocked reader: parked before the revoke
 * began, woken after it (reader_order=parked<revoke-start<woken).
 */
static void lab_report_reader(const struct lab_trace *tr)
{
	long start, parked, woken;

	start = lab_trace_last(tr, CHARDEV_TRACE_REVOKE_START, 0, UINT64_MAX);
	if (start < 0) {
		printf("reader_order=unknown (no revoke-start in the trace)\n");
		return;
	}
	parked = lab_trace_last(tr, CHARDEV_TRACE_READ_PARKED, 0, tr->e[start].seq);
	if (parked < 0) {
		printf("reader_order=not-parked-before-revoke-start\n");
		return;
	}
	woken = lab_trace_first(tr, CHARDEV_TRACE_READ_WOKEN, tr->e[parked].file,
				tr->e[parked].seq);
	lab_evidence(tr, parked);
	if (woken >= 0 && tr->e[woken].seq < tr->e[start].seq) {
		lab_evidence(tr, woken);
		lab_evidence(tr, start);
		printf("reader_order=woken-before-revoke-start\n");
		return;
	}
	lab_evidence(tr, start);
	lab_evidence(tr, woken);
	if (woken < 0) {
		printf("reader_order=never-woken\n");
		return;
	}
	printf("reader_order=parked<revoke-start<woken\n");
}

static void *lab_inflight_thread(void *arg)
{
	struct lab_inflight *in = arg;

	in->ret = lab_hello(in->fd);
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

/* An AC reading as the table shows it. */
static const char *lab_ac_name(long ac)
{
	return ac == 1 ? "on-AC" : ac == 0 ? "on-battery" : lab_errname(ac);
}

/*
 * After the unplug: a fresh EC, a new file on it, the new EC's charger
 * pulled, and the old @old_fd asked the same questions as the new file.
 * Reports replug_* lines; 0, or -EIO when the daemon refused a step.
 */
/*
 * What the unplugged ECs still allocated cost, as "PREFIX_live_ecs=N" and
 * "PREFIX_pinned_bytes=B": the daemon's figures less the plugged EC's
 * @one_ec bytes (every EC of the daemon's profile counts the same).
 */
static int lab_report_live(const char *sock, const char *prefix, uint64_t one_ec)
{
	struct chardev_stats st;

	if (lab_stats(sock, &st) || st.live_ec_bytes < one_ec)
		return -EIO;
	printf("%s_live_ecs=%llu\n", prefix, (unsigned long long)st.live_ecs);
	printf("%s_pinned_bytes=%llu\n", prefix, (unsigned long long)(st.live_ec_bytes - one_ec));
	return 0;
}

static int lab_replug(const char *dev, const char *sock, int *old_fdp, uint64_t one_ec)
{
	int old_fd = *old_fdp;
	char reply[256];
	long ret;
	int fd, i;

	/* The new EC's commands need not sleep: the race is over. */
	if (lab_control(sock, "latency 0", reply, sizeof(reply)) ||
	    lab_control(sock, "plug", reply, sizeof(reply))) {
		fprintf(stderr, "uaf_lab_client: replug: '%s'\n", reply);
		return -EIO;
	}
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "uaf_lab_client: open %s after the replug: %s\n", dev,
			strerror(errno));
		return -EIO;
	}
	printf("replug_new_file_ac_before=%s\n", lab_ac_name(lab_read_ac(fd)));
	if (lab_control(sock, "inject ac-unplug", reply, sizeof(reply))) {
		fprintf(stderr, "uaf_lab_client: 'inject ac-unplug' -> '%s'\n", reply);
		close(fd);
		return -EIO;
	}
	printf("replug_new_file_ac=%s\n", lab_ac_name(lab_read_ac(fd)));
	printf("replug_old_file_ac=%s\n", lab_ac_name(lab_read_ac(old_fd)));
	/* A setting given through the old file: where does it land? */
	ret = lab_hibernation_delay(old_fd, 7200);
	printf("replug_old_file_set_delay=%s\n", ret < 0 ? lab_errname(ret) : "ok");
	ret = lab_hibernation_delay(fd, 0);
	if (ret < 0)
		printf("replug_new_ec_delay=%s\n", lab_errname(ret));
	else
		printf("replug_new_ec_delay=%lds\n", ret);
	close(fd);
	/* More ECs come and go; does the old file's EC stay? */
	for (i = 0; i < LAB_REPLUG_CYCLES; i++) {
		if (lab_control(sock, "unplug wait", reply, sizeof(reply)) ||
		    lab_control(sock, "plug", reply, sizeof(reply))) {
			fprintf(stderr, "uaf_lab_client: replug cycle %d: '%s'\n", i + 1, reply);
			return -EIO;
		}
	}
	printf("replug_cycles=%d\n", LAB_REPLUG_CYCLES);
	printf("replug_cycles_old_file_ac=%s\n", lab_ac_name(lab_read_ac(old_fd)));
	if (lab_report_live(sock, "replug", one_ec))
		return -EIO;
	/* The daemon frees a pinned EC once it has seen the file's release. */
	close(old_fd);
	*old_fdp = -1;
	if (!LAB_WAIT_STAT_LE(sock, live_ecs, 1) || lab_report_live(sock, "closed", one_ec))
		return -EIO;
	return 0;
}

static int lab_usage(void)
{
	fprintf(stderr, "usage: uaf_lab_client [--reader] [--replug] [--latency-ms N] DEV SOCK\n"
		"  N: 50..10000 ms a host command sleeps inside the EC (default 1000)\n");
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
	struct chardev_stats st;
	struct lab_trace *tr = NULL;
	const char *dev, *sock;
	char line[64], reply[CHARDEV_STATS_TEXT_MAX + 8];
	long latency_ms = 1000, ret;
	uint64_t one_ec_bytes;
	bool want_reader = false, want_replug = false, reader_started = false;
	bool inflight_started = false;
	pthread_t inflight_thread, reader_thread;
	int i, status = 1, fd;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--reader")) {
			want_reader = true;
		} else if (!strcmp(argv[i], "--replug")) {
			want_replug = true;
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

	tr = malloc(sizeof(*tr));
	if (!tr)
		return 1;
	in.fd = open(dev, O_RDWR | O_CLOEXEC);
	if (in.fd < 0) {
		fprintf(stderr, "uaf_lab_client: open %s: %s\n", dev, strerror(errno));
		free(tr);
		return 1;
	}
	ret = lab_hello(in.fd);
	printf("before_unplug_hello=%s\n", lab_errname(ret));
	/* One EC plugged: what one EC of the daemon's profile holds. */
	if (lab_stats(sock, &st) || st.live_ecs != 1) {
		fprintf(stderr, "uaf_lab_client: no stats, or not one live EC at the start\n");
		goto out;
	}
	one_ec_bytes = st.live_ec_bytes;
	printf("one_ec_bytes=%llu\n", (unsigned long long)one_ec_bytes);
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
		/*
		 * Parked in the daemon before the unplug, and its last look at
		 * the EC over: from here on only the HELLO below is inside.
		 */
		if (!LAB_WAIT_STAT(sock, parked_reads, 1) ||
		    !LAB_WAIT_STAT_LE(sock, inflight_accesses, 0))
			goto out;
	}

	snprintf(line, sizeof(line), "latency %ld", latency_ms * 1000000);
	if (lab_control(sock, line, reply, sizeof(reply))) {
		fprintf(stderr, "uaf_lab_client: '%s' -> '%s'\n", line, reply);
		goto out;
	}
	if (pthread_create(&inflight_thread, NULL, lab_inflight_thread, &in))
		goto out;
	inflight_started = true;
	/* Unplug while the HELLO sleeps inside the EC, as the daemon reports. */
	if (!LAB_WAIT_STAT(sock, inflight_accesses, 1))
		goto out;
	ret = lab_control(sock, "unplug wait", reply, sizeof(reply));
	pthread_join(inflight_thread, NULL);
	inflight_started = false;
	printf("unplug_reply=%s\n", reply);
	printf("inflight_hello=%s\n", lab_errname(in.ret));

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
	if (!lab_control(sock, "stats", reply, sizeof(reply)) &&
	    chardev_stats_parse(reply, &st) > 0) {
		printf("stats=%s\n", reply + 3);
		printf("revoke_waited_accesses=%llu\n",
		       (unsigned long long)st.revoke_waited_accesses);
	} else {
		printf("stats=unavailable (%s)\n", reply);
	}
	/* The order, as the daemon recorded it. */
	if (lab_read_trace(sock, tr)) {
		printf("unplug_waited_for_inflight=unknown (no trace)\n");
	} else {
		lab_report_inflight(tr);
		if (reader_started)
			lab_report_reader(tr);
		for (size_t k = 0; k < tr->n; k++)
			printf("trace: %s\n", tr->raw[k]);
	}
	if (want_replug && lab_replug(dev, sock, &in.fd, one_ec_bytes)) {
		fflush(stdout);
		goto out;
	}
	fflush(stdout);
	status = 0;
out:
	if (inflight_started)
		pthread_join(inflight_thread, NULL);
	free(tr);
	if (in.fd >= 0)
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
