// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uaf_lab_v3_client.c - the teaching lab's step 5 (docs/teaching.md): the
 * v3 series as posted, through the device.
 *
 *   uaf_lab_v3_client [--latency-ms N] DEV SOCK DAEMON-PID
 *
 * Run against tests/lab/cuse_ec_v3bug (the daemon on the lab library with
 * v3's shared SRCU index, docs/design.md "Teaching switch"). One file, two
 * threads:
 *
 *   1. thread A sends XCMD HELLO on the file; every host command sleeps N
 *      ms inside the EC (control "latency"), and the client waits until the
 *      daemon reports it inside (stats: inflight_accesses >= 1);
 *   2. the EC is unplugged without waiting (control "unplug": the revoke
 *      runs on a thread of the library's and waits for A);
 *   3. thread B sends XCMD HELLO on the *same* file: the revocation is
 *      published, so B is told ENODEV, but its try_access recorded B's
 *      slot as the handle's index and its release cleared it;
 *   4. A leaves the EC; its release clears the slot the handle names -
 *      B's, already clear - and A's own slot keeps naming the provider.
 *
 * The revoker waits for A's slot, which nothing will clear. The client
 * waits for the daemon to report no access inside (inflight_accesses 0),
 * then LAB_V3_NEVER_MS more for a revocation, reads the counters and the
 * trace, and reports what they say: revoke-start, both accesses'
 * access-end, and whether a revoke-done followed. Then, with the file
 * still open (closing it could run an access on A's worker thread, which
 * would reuse and so clear its slot; see docs/teaching.md, "Step 5"), it
 * kills the daemon with SIGKILL: a SIGTERM would wait for the revoke.
 *
 * Output: key=value lines and "evidence:" / "trace:" lines, judged by
 * scripts/uaf-lab. Exit status: 0 when the sequence ran and the daemon
 * was killed, 1 when it could not be set up, 2 on bad usage.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cros_ec/ec_commands.h"
#include "lab_ctl.h"

/*
 * How long after the last access-end the revoke is given to complete. A
 * revoker parked on a slot looks at it again at least every 20 ms
 * (revocable/revoke.c, WAIT_PARK_NS), and a revoke whose last access has
 * ended completes at its next look; 3 s are 150 looks. The bound only
 * gives the revoker its chances: what proves "never" is what the daemon
 * counts at its end (no access inside, the unplug started and not done).
 */
#define LAB_V3_NEVER_MS 3000
/* Between two reads of the counters while the bound runs. */
#define LAB_V3_POLL_MS 20

/**
 * struct lab_v3_cmd - one thread's HELLO on the shared file.
 * @fd:  the file (the same for both threads)
 * @ret: 0 for a correct answer, else -errno (-EBADMSG: wrong answer)
 */
struct lab_v3_cmd {
	int fd;
	long ret;
};

static void *lab_v3_hello_thread(void *arg)
{
	struct lab_v3_cmd *c = arg;

	c->ret = lab_hello(c->fd);
	return NULL;
}

/* The one HELLO access that began before @before and ended after it. */
static long lab_v3_access_across(const struct lab_trace *tr, uint64_t before)
{
	size_t i;

	for (i = 0; i < tr->n && tr->e[i].seq < before; i++) {
		long e;

		if (tr->e[i].event != CHARDEV_TRACE_ACCESS_BEGIN || tr->e[i].cmd != EC_CMD_HELLO)
			continue;
		e = lab_trace_end_of(tr, tr->e[i].seq);
		if (e >= 0 && tr->e[e].seq > before)
			return (long)i;
	}
	return -1;
}

/*
 * What the trace says: the revoke's start, the access it found inside (A),
 * the access that began during it (B), their ends, and the revoke-done or
 * its absence. revoke_done=none when the trace has none after revoke-start.
 */
static void lab_v3_report_trace(const struct lab_trace *tr)
{
	long start, a, a_end, b, b_end, done;

	start = lab_trace_first(tr, CHARDEV_TRACE_REVOKE_START, 0, 0);
	if (start < 0) {
		printf("revoke_order=unknown (no revoke-start in the trace)\n");
		return;
	}
	a = lab_v3_access_across(tr, tr->e[start].seq);
	b = lab_trace_first(tr, CHARDEV_TRACE_ACCESS_BEGIN, 0, tr->e[start].seq);
	a_end = a < 0 ? -1 : lab_trace_end_of(tr, tr->e[a].seq);
	b_end = b < 0 ? -1 : lab_trace_end_of(tr, tr->e[b].seq);
	done = lab_trace_first(tr, CHARDEV_TRACE_REVOKE_DONE, 0, tr->e[start].seq);
	lab_evidence(tr, a);
	lab_evidence(tr, start);
	lab_evidence(tr, b);
	lab_evidence(tr, b_end);
	lab_evidence(tr, a_end);
	lab_evidence(tr, done);
	if (a < 0 || a_end < 0 || b < 0 || b_end < 0) {
		printf("revoke_order=unknown (%s)\n",
		       a < 0 ? "no HELLO inside the EC at revoke-start" :
		       b < 0 ? "no access began after revoke-start" :
		       "an access has no access-end");
		return;
	}
	printf("inflight_access=#%llu-#%llu\n", (unsigned long long)tr->e[a].seq,
	       (unsigned long long)tr->e[a_end].seq);
	printf("during_revoke_access=#%llu-#%llu\n", (unsigned long long)tr->e[b].seq,
	       (unsigned long long)tr->e[b_end].seq);
	/* The bug needs B inside the handle while A still is. */
	if (tr->e[b].seq > tr->e[a_end].seq) {
		printf("revoke_order=second-access-after-first-ended\n");
		return;
	}
	if (done >= 0) {
		printf("revoke_done=#%llu\n", (unsigned long long)tr->e[done].seq);
		printf("revoke_order=revoke-start<access-begin<access-end<revoke-done\n");
		return;
	}
	printf("revoke_done=none\n");
	/* The row the other steps fill in: the unplug is still waiting. */
	printf("unplug_waited_for_inflight=never-done\n");
	printf("revoke_order=revoke-start<access-begin<both-access-ends, no revoke-done\n");
}

/*
 * After both accesses have left: give the revoke LAB_V3_NEVER_MS to
 * complete, then report the daemon's counters. 0, or -EIO.
 */
static int lab_v3_report_pending(const char *sock)
{
	struct chardev_stats st;
	char reply[CHARDEV_STATS_TEXT_MAX + 8];
	int waited;

	for (waited = 0; waited < LAB_V3_NEVER_MS; waited += LAB_V3_POLL_MS) {
		if (lab_stats(sock, &st))
			return -EIO;
		if (st.revocations > 0)
			break;
		usleep(LAB_V3_POLL_MS * 1000);
	}
	if (lab_control(sock, "stats", reply, sizeof(reply)) || chardev_stats_parse(reply, &st) <= 0)
		return -EIO;
	printf("stats=%s\n", reply + 3);
	printf("waited_after_last_access_ms=%d\n", waited);
	printf("inflight_accesses=%llu\n", (unsigned long long)st.inflight_accesses);
	printf("unplugs=%llu\n", (unsigned long long)st.unplugs);
	printf("revocations=%llu\n", (unsigned long long)st.revocations);
	/* Started, nothing inside, not done: nothing left that could end it. */
	printf("revoke_pending=%s\n",
	       st.unplugs == 1 && st.revocations == 0 && st.inflight_accesses == 0 ? "yes" : "no");
	return 0;
}

static int lab_v3_usage(void)
{
	fprintf(stderr, "usage: uaf_lab_v3_client [--latency-ms N] DEV SOCK DAEMON-PID\n"
		"  N: 50..10000 ms a host command sleeps inside the EC (default 1000)\n");
	return 2;
}

/* A number in [@min, @max]; 0, or -EINVAL. */
static int lab_v3_parse(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * main() - run step 5's sequence once, report it, kill the daemon.
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 0 when the sequence ran and the daemon was killed, 1 on a setup
 * failure, 2 on bad usage.
 */
int main(int argc, char **argv)
{
	struct lab_v3_cmd a = { .fd = -1 }, b = { .fd = -1 };
	struct lab_trace *tr = NULL;
	const char *dev, *sock;
	char line[64], reply[256];
	long latency_ms = 1000, pid;
	bool a_started = false;
	pthread_t a_thread, b_thread;
	int i, status = 1, k;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--latency-ms") && i + 1 < argc) {
			if (lab_v3_parse(argv[++i], 50, 10000, &latency_ms)) {
				fprintf(stderr, "uaf_lab_v3_client: bad --latency-ms '%s'\n", argv[i]);
				return lab_v3_usage();
			}
		} else {
			fprintf(stderr, "uaf_lab_v3_client: unknown option '%s'\n", argv[i]);
			return lab_v3_usage();
		}
	}
	if (argc - i != 3)
		return lab_v3_usage();
	dev = argv[i];
	sock = argv[i + 1];
	if (lab_v3_parse(argv[i + 2], 2, INT32_MAX, &pid)) {
		fprintf(stderr, "uaf_lab_v3_client: bad DAEMON-PID '%s'\n", argv[i + 2]);
		return lab_v3_usage();
	}

	tr = malloc(sizeof(*tr));
	if (!tr)
		return 1;
	a.fd = open(dev, O_RDWR | O_CLOEXEC);
	if (a.fd < 0) {
		fprintf(stderr, "uaf_lab_v3_client: open %s: %s\n", dev, strerror(errno));
		goto out;
	}
	b.fd = a.fd;
	printf("before_unplug_hello=%s\n", lab_errname(lab_hello(a.fd)));

	snprintf(line, sizeof(line), "latency %ld", latency_ms * 1000000);
	if (lab_control(sock, line, reply, sizeof(reply))) {
		fprintf(stderr, "uaf_lab_v3_client: '%s' -> '%s'\n", line, reply);
		goto out;
	}
	if (pthread_create(&a_thread, NULL, lab_v3_hello_thread, &a))
		goto out;
	a_started = true;
	/* Unplug while A sleeps inside the EC, as the daemon reports. */
	if (!LAB_WAIT_STAT(sock, inflight_accesses, 1))
		goto out;
	/* "unplug" replies once the revocation is published (async). */
	lab_control(sock, "unplug", reply, sizeof(reply));
	printf("unplug_reply=%s\n", reply);
	if (pthread_create(&b_thread, NULL, lab_v3_hello_thread, &b))
		goto out;
	pthread_join(b_thread, NULL);
	pthread_join(a_thread, NULL);
	a_started = false;
	printf("inflight_hello=%s\n", lab_errname(a.ret));
	printf("during_revoke_hello=%s\n", lab_errname(b.ret));
	/* Both have left the EC, as the daemon counts them. */
	if (!LAB_WAIT_STAT_LE(sock, inflight_accesses, 0) || lab_v3_report_pending(sock))
		goto out;
	if (lab_read_trace(sock, tr)) {
		printf("revoke_order=unknown (no trace)\n");
	} else {
		lab_v3_report_trace(tr);
		for (size_t n = 0; n < tr->n; n++)
			printf("trace: %s\n", tr->raw[n]);
	}
	fflush(stdout);
	status = 0;
out:
	if (a_started)
		pthread_join(a_thread, NULL);
	/* The file is still open: nothing of ours reaches the daemon again. */
	k = kill((pid_t)pid, SIGKILL);
	printf("daemon_killed=%s\n", k ? strerror(errno) : "SIGKILL");
	fflush(stdout);
	if (k)
		status = 1;
	if (a.fd >= 0)
		close(a.fd);
	free(tr);
	return status;
}
