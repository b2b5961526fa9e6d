// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session_files.c - --record's file and --replay's recording for the
 * daemon. Both are opened before the daemon changes to "/", so relative
 * paths name files in the start directory, and any problem with them is a
 * start-up error (exit status 1), not a surprise later.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "session_files.h"

int session_files_open(const struct cuse_ec_options *opts, struct session_files *sf, FILE *err)
{
	char why[512];
	int fd, ret;

	*sf = (struct session_files){ 0 };
	if (opts->replay) {
		ret = ec_recording_load(opts->replay, &sf->recording, why, sizeof(why));
		if (ret) {
			fprintf(err, "cuse_ec: --replay %s\n", why);
			return ret;
		}
		ret = ec_replay_create(sf->recording, opts->replay_miss, opts->replay_match,
				       &sf->replay);
		if (ret) {
			fprintf(err, "cuse_ec: --replay: %s\n", strerror(-ret));
			goto err_recording;
		}
	}
	if (opts->record) {
		fd = open(opts->record, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		sf->record = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!sf->record) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
			fprintf(err, "cuse_ec: --record %s: %s\n", opts->record, strerror(-ret));
			goto err_replay;
		}
		/* Flushed now: a fork (daemonizing) must not write it twice. */
		ret = ec_recording_write_header(opts->record_format, NULL, sf->record);
		if (!ret && fflush(sf->record) == EOF)
			ret = -EIO;
		if (ret) {
			fprintf(err, "cuse_ec: --record %s: %s\n", opts->record, strerror(-ret));
			fclose(sf->record);
			sf->record = NULL;
			goto err_replay;
		}
	}
	return 0;

err_replay:
	ec_replay_destroy(sf->replay);
	sf->replay = NULL;
err_recording:
	ec_recording_destroy(sf->recording);
	sf->recording = NULL;
	return ret;
}

int session_files_close(struct session_files *sf)
{
	int ret = 0;

	if (sf->record && fclose(sf->record) == EOF)
		ret = -EIO;
	sf->record = NULL;
	ec_replay_destroy(sf->replay);
	sf->replay = NULL;
	ec_recording_destroy(sf->recording);
	sf->recording = NULL;
	return ret;
}
