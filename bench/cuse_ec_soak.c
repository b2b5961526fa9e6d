// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_soak.c - unplug/replug a running cuse_ec N times under clients
 * and watch the daemon's resources: every --every cycles one line with its
 * RSS, open fds and threads (from /proc of the process at the other end of
 * the control socket), then a summary with the drift and PASS/FAIL.
 *
 *   cuse_ec_soak --control SOCK [--dev PATH] [--cycles N] [--clients N]
 *                [--every N] [--max-rss-growth KIB]
 *
 * Each cycle is "unplug wait" (returns once the revoke completed) and
 * "plug" on one control connection. The clients open the node, run HELLO,
 * READMEM, poll and non-blocking event reads, and reopen whenever the EC
 * is gone. PASS: from the first sample to the last, RSS grew by at most
 * --max-rss-growth KiB (default 512), the fd count is back where it was and
 * the thread count grew by at most the number of clients (libfuse starts
 * workers on demand, one per request being served, and lets idle ones go
 * later). scripts/soak runs this against a daemon of its own.
 *
 * Exit status: 0 PASS, 1 FAIL or a cycle refused, 2 usage or set-up error.
 */
#define _GNU_SOURCE
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/common.h"
#include "ctl/ctl.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"

#define SOAK_MAX_CLIENTS 64

struct soak_config {
	const char *control;
	const char *dev;
	unsigned long cycles;
	unsigned int clients;
	unsigned long every;
	unsigned long max_rss_growth_kib;
};

struct soak_run {
	const struct soak_config *cfg;
	atomic_bool stop;
	atomic_ulong ops;
	atomic_ulong gone;
	atomic_ulong unexpected;
};

/* One reading of the daemon's resources. */
struct soak_sample {
	long rss_kib;
	long threads;
	long fds;
};

static long soak_status_field(pid_t pid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			value = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return value;
}

static long soak_count_fds(pid_t pid)
{
	char path[64];
	struct dirent *de;
	long n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static int soak_sample(pid_t pid, struct soak_sample *s)
{
	s->rss_kib = soak_status_field(pid, "VmRSS");
	s->threads = soak_status_field(pid, "Threads");
	s->fds = soak_count_fds(pid);
	return (s->rss_kib < 0 || s->threads < 0 || s->fds < 0) ? -ESRCH : 0;
}

/* ---- clients ---- */

static long soak_hello(int fd)
{
	unsigned char buf[CROS_EC_XCMD_HEADER_SIZE + 4];
	struct cros_ec_command_v2 *cmd = (void *)buf;
	uint32_t in = 0x01020304, out;
	long ret;

	memset(buf, 0, sizeof(buf));
	cmd->command = EC_CMD_HELLO;
	cmd->outsize = 4;
	cmd->insize = 4;
	memcpy(cmd->data, &in, 4);
	ret = ioctl(fd, CROS_EC_DEV_IOCXCMD_V2, cmd);
	if (ret < 0)
		return -errno;
	memcpy(&out, cmd->data, 4);
	return (ret == 4 && !cmd->result && out == in + EC_HELLO_MAGIC) ? 0 : -EBADMSG;
}

static bool soak_gone(long err)
{
	return err == -ENODEV || err == -ECONNABORTED || err == -ENOTCONN || err == -EIO;
}

static void *soak_client(void *arg)
{
	struct soak_run *run = arg;
	struct cros_ec_readmem_v2 mem;
	struct pollfd pfd;
	unsigned char buf[64];
	unsigned int step = 0;
	long ret;
	int fd = -1;

	while (!atomic_load(&run->stop)) {
		if (fd < 0) {
			fd = open(run->cfg->dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
			if (fd < 0) {
				/* No EC between unplug and plug: try again soon. */
				if (errno != ENODEV)
					atomic_fetch_add(&run->unexpected, 1);
				atomic_fetch_add(&run->gone, 1);
				nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
				continue;
			}
			if (ioctl(fd, CROS_EC_DEV_IOCEVENTMASK_V2, 1ul << EC_MKBP_EVENT_HOST_EVENT) &&
			    !soak_gone(-errno))
				atomic_fetch_add(&run->unexpected, 1);
		}
		switch (step++ % 4) {
		case 0:
			ret = soak_hello(fd);
			break;
		case 1:
			memset(&mem, 0, sizeof(mem));
			mem.offset = 0x20;
			mem.bytes = 2;
			ret = ioctl(fd, CROS_EC_DEV_IOCRDMEM_V2, &mem) < 0 ? -errno : 0;
			break;
		case 2:
			pfd.fd = fd;
			pfd.events = POLLIN;
			ret = poll(&pfd, 1, 0) < 0 ? -errno : 0;
			if (!ret && (pfd.revents & POLLERR))
				ret = -ENODEV;
			break;
		default:
			ret = read(fd, buf, sizeof(buf)) < 0 ? -errno : 0;
			if (ret == -EAGAIN)
				ret = 0;
			break;
		}
		atomic_fetch_add(&run->ops, 1);
		if (!ret)
			continue;
		if (!soak_gone(ret))
			atomic_fetch_add(&run->unexpected, 1);
		atomic_fetch_add(&run->gone, 1);
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* ---- the control socket ---- */

/* Connect; the daemon being measured is the process at the other end. */
static int soak_connect(struct ctl_conn *ctl, const char *path, pid_t *daemon)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int ret;

	ret = ctl_open(ctl, path);
	if (ret)
		return ret;
	if (getsockopt(ctl->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		ret = -errno;
		ctl_close(ctl);
		return ret;
	}
	*daemon = cred.pid;
	return 0;
}

static int soak_say(struct ctl_conn *ctl, const char *line, char *reply)
{
	int ret = ctl_request(ctl, line, reply, CTL_REPLY_MAX, 30000);

	return ret ? ret : ctl_reply_is_ok(reply) ? 0 : -EPROTO;
}

static void soak_usage(FILE *out)
{
	fprintf(out,
		"usage: cuse_ec_soak --control SOCK [--dev PATH] [--cycles N] [--clients N]\n"
		"                    [--every N] [--max-rss-growth KIB]\n"
		"  --control SOCK        the daemon's control socket (required)\n"
		"  --dev PATH            its node (default /dev/cros_ec)\n"
		"  --cycles N            unplug/replug cycles (default 20000)\n"
		"  --clients N           client threads (default 4, at most %d)\n"
		"  --every N             one resource line every N cycles (default 1000)\n"
		"  --max-rss-growth KIB  PASS bound on RSS growth (default 512)\n",
		SOAK_MAX_CLIENTS);
}

static int soak_parse(int argc, char **argv, struct soak_config *cfg)
{
	static const struct option longopts[] = {
		{ "control", required_argument, NULL, 'c' },
		{ "dev", required_argument, NULL, 'd' },
		{ "cycles", required_argument, NULL, 'n' },
		{ "clients", required_argument, NULL, 'j' },
		{ "every", required_argument, NULL, 'e' },
		{ "max-rss-growth", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cfg->control = optarg;
			continue;
		case 'd':
			cfg->dev = optarg;
			continue;
		case 'h':
			soak_usage(stdout);
			exit(0);
		case '?':
			soak_usage(stderr);
			return -EINVAL;
		}
		errno = 0;
		v = strtoul(optarg, &end, 10);
		if (errno || end == optarg || *end || *optarg == '-' || !v ||
		    (opt == 'j' && v > SOAK_MAX_CLIENTS)) {
			fprintf(stderr, "cuse_ec_soak: bad value '%s' for --%s\n", optarg,
				opt == 'n' ? "cycles" : opt == 'j' ? "clients" :
				opt == 'e' ? "every" : "max-rss-growth");
			return -EINVAL;
		}
		if (opt == 'n')
			cfg->cycles = v;
		else if (opt == 'j')
			cfg->clients = (unsigned int)v;
		else if (opt == 'e')
			cfg->every = v;
		else
			cfg->max_rss_growth_kib = v;
	}
	if (optind != argc || !cfg->control) {
		fprintf(stderr, "cuse_ec_soak: %s\n", cfg->control ? "unexpected argument" :
			"--control is required");
		soak_usage(stderr);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct soak_config cfg = {
		.dev = "/dev/cros_ec", .cycles = 20000, .clients = 4, .every = 1000,
		.max_rss_growth_kib = 512,
	};
	struct soak_run run = { .cfg = &cfg };
	pthread_t threads[SOAK_MAX_CLIENTS];
	struct soak_sample first = { 0 }, s;
	unsigned long cycle, refused = 0;
	unsigned int n, started = 0;
	bool have_first = false, pass;
	char reply[CTL_REPLY_MAX];
	struct ctl_conn ctl;
	pid_t daemon = 0;
	int ret;

	if (soak_parse(argc, argv, &cfg))
		return 2;
	ret = soak_connect(&ctl, cfg.control, &daemon);
	if (ret) {
		fprintf(stderr, "cuse_ec_soak: control socket %s: %s\n", cfg.control,
			strerror(-ret));
		return 2;
	}
	if (soak_sample(daemon, &s)) {
		fprintf(stderr, "cuse_ec_soak: cannot read /proc/%d of the daemon\n", (int)daemon);
		return 2;
	}
	printf("soak: daemon pid %d, %lu cycles, %u clients; at start: RSS %ld KiB, "
	       "%ld fds, %ld threads\n", (int)daemon, cfg.cycles, cfg.clients, s.rss_kib, s.fds,
	       s.threads);
	fflush(stdout);
	for (n = 0; n < cfg.clients; n++) {
		if (pthread_create(&threads[n], NULL, soak_client, &run))
			break;
		started++;
	}

	for (cycle = 1; cycle <= cfg.cycles; cycle++) {
		if (soak_say(&ctl, "unplug wait", reply) || soak_say(&ctl, "plug", reply)) {
			fprintf(stderr, "cuse_ec_soak: cycle %lu refused: '%s'\n", cycle, reply);
			refused++;
			break;
		}
		if (cycle % cfg.every)
			continue;
		if (soak_sample(daemon, &s)) {
			fprintf(stderr, "cuse_ec_soak: the daemon is gone at cycle %lu\n", cycle);
			refused++;
			break;
		}
		if (!have_first) {
			first = s;
			have_first = true;
		}
		printf("cycle %lu: RSS %ld KiB, %ld fds, %ld threads; clients: %lu ops, %lu saw "
		       "the EC gone\n", cycle, s.rss_kib, s.fds, s.threads, atomic_load(&run.ops),
		       atomic_load(&run.gone));
		fflush(stdout);
	}
	atomic_store(&run.stop, true);
	for (n = 0; n < started; n++)
		pthread_join(threads[n], NULL);
	ctl_close(&ctl);

	if (!have_first) {
		printf("soak: fewer than %lu cycles ran; FAIL\n", cfg.every);
		return 1;
	}
	pass = !refused && started == cfg.clients && !atomic_load(&run.unexpected) &&
	       s.rss_kib - first.rss_kib <= (long)cfg.max_rss_growth_kib &&
	       s.fds == first.fds && s.threads - first.threads <= (long)cfg.clients;
	printf("soak: %lu cycles; from cycle %lu to the end RSS %ld -> %ld KiB (%+ld KiB, bound "
	       "%lu), fds %ld -> %ld, threads %ld -> %ld; %lu client ops, %lu unexpected "
	       "errors; %s\n", cycle - 1, cfg.every, first.rss_kib, s.rss_kib,
	       s.rss_kib - first.rss_kib, cfg.max_rss_growth_kib, first.fds, s.fds,
	       first.threads, s.threads, atomic_load(&run.ops), atomic_load(&run.unexpected),
	       pass ? "PASS" : "FAIL");
	return pass ? 0 : 1;
}
