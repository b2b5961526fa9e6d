// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ecctl.c - a small ectool-like CLI for /dev/cros_ec, built on the
 * project's client library.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "client/ec_client.h"
#include "client/ecctl_cli.h"

int main(int argc, char **argv)
{
	struct ec_client_error error;
	struct ecctl_opts opts;
	struct ec_client *c;
	char path[PATH_MAX];
	char msg[160];
	int ret;

	if (ecctl_parse_args(argc, argv, &opts, msg, sizeof(msg))) {
		/* JSON too when --json came before the mistake. */
		ecctl_error(&opts, stdout, stderr, NULL, msg, 0);
		return ECCTL_EXIT_USAGE;
	}
	if (opts.help) {
		ecctl_usage(stdout, "ecctl");
		return ECCTL_EXIT_OK;
	}
	if (opts.version) {
		printf("ecctl (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return ECCTL_EXIT_OK;
	}

	/* A --device path without a '/' is relative, not a name under /dev. */
	if (opts.device_is_path && !strchr(opts.device, '/')) {
		if (snprintf(path, sizeof(path), "./%s", opts.device) >= (int)sizeof(path)) {
			ecctl_error(&opts, stdout, stderr, NULL, "device path too long", 0);
			return ECCTL_EXIT_USAGE;
		}
		opts.device = path;
	}
	ret = ec_client_open_diag(opts.device, 0, &error, &c);
	if (ret) {
		/* The step's message already names the system call and its errno text. */
		if (!ec_client_err_is_ec(ret, NULL)) {
			size_t len = strlen(error.message);

			snprintf(error.message + len, sizeof(error.message) - len, " [%s]",
				 ec_errno_name(-ret));
		}
		ecctl_error(&opts, stdout, stderr, opts.device, error.message, ret);
		return ECCTL_EXIT_DEVICE;
	}
	ret = ecctl_run(c, &opts, stdout, stderr);
	ec_client_close(c);
	if (fflush(stdout)) {
		/* Text only: stdout is what failed. */
		fprintf(stderr, "ecctl: writing output: %s\n", strerror(errno));
		return ECCTL_EXIT_DEVICE;
	}
	return ret;
}
