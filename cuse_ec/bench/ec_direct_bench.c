// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_direct_bench.c - the floor under every front end: HELLO as a direct
 * in-process call into the EC model (ec_host_command()), no file, no
 * kernel, no socket. Prints one line as cuse_ec_bench does:
 *   xcmd threads=1 ns_per_op=<median of 7 rounds> ops_per_s=<median>
 *
 *   ec_direct_bench [ITERATIONS]
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cros_ec/ec_commands.h"
#include "ec/ec.h"
#include "bench_rounds.h"

int main(int argc, char **argv)
{
	struct ec_params_hello req = { .in_data = 1 };
	struct ec_response_hello resp;
	struct ec_profile *profile;
	double ns[ROUNDS], s;
	long iterations = 100000, i;
	uint32_t status;
	struct ec *ec;
	int r;

	if (argc > 1) {
		iterations = strtol(argv[1], NULL, 10);
		if (iterations < 10 || iterations > 100000000) {
			fprintf(stderr, "%s: ITERATIONS must be 10..100000000\n", argv[0]);
			return 2;
		}
	}
	if (ec_profile_default(&profile) || ec_create(profile, NULL, &ec)) {
		fprintf(stderr, "%s: cannot create the EC\n", argv[0]);
		return 1;
	}
	for (r = 0; r < ROUNDS; r++) {
		s = bench_now_s();
		for (i = 0; i < iterations; i++) {
			if (ec_host_command(ec, EC_CMD_HELLO, 0, &req, sizeof(req), &resp,
					    sizeof(resp), &status) != sizeof(resp) ||
			    status != EC_RES_SUCCESS) {
				fprintf(stderr, "%s: HELLO failed (status %u)\n", argv[0], status);
				return 1;
			}
		}
		ns[r] = (bench_now_s() - s) * 1e9 / (double)iterations;
	}
	bench_print("xcmd", bench_median(ns));
	ec_destroy(ec);
	ec_profile_free(profile);
	return 0;
}
