// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socket_floor.c - the least any socket front end can cost on this
 * machine: one 48-byte request and its 48-byte answer between two threads
 * over a UNIX SOCK_SEQPACKET pair (the device socket's kind), nothing
 * done in between. Prints one line as cuse_ec_bench does:
 *   socket_round_trip threads=1 ns_per_op=<median of 7 rounds> ops_per_s=<median>
 *
 *   socket_floor [ITERATIONS]
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench_rounds.h"

#define MSG 48

/* The other end: answers every record with itself until the pair closes. */
static void *echo_main(void *arg)
{
	int fd = *(int *)arg;
	char buf[MSG];
	ssize_t n;

	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0)
		if (send(fd, buf, (size_t)n, MSG_NOSIGNAL) != n)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	long iterations = 100000, i;
	char buf[MSG] = { 0 };
	double ns[ROUNDS], s;
	pthread_t echo;
	int sv[2], r;

	if (argc > 1) {
		iterations = strtol(argv[1], NULL, 10);
		if (iterations < 10 || iterations > 100000000) {
			fprintf(stderr, "%s: ITERATIONS must be 10..100000000\n", argv[0]);
			return 2;
		}
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) ||
	    pthread_create(&echo, NULL, echo_main, &sv[1])) {
		perror("socket_floor");
		return 1;
	}
	for (r = 0; r < ROUNDS; r++) {
		s = bench_now_s();
		for (i = 0; i < iterations; i++) {
			if (send(sv[0], buf, sizeof(buf), 0) != MSG ||
			    recv(sv[0], buf, sizeof(buf), 0) != MSG) {
				perror("socket_floor");
				return 1;
			}
		}
		ns[r] = (bench_now_s() - s) * 1e9 / (double)iterations;
	}
	close(sv[0]);
	pthread_join(echo, NULL);
	close(sv[1]);
	bench_print("socket_round_trip", bench_median(ns));
	return 0;
}
