/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session_files.h - the daemon's --record and --replay files, opened and
 * loaded before it leaves its start directory, closed when it is done.
 */
#ifndef CUSE_EC_SESSION_FILES_H
#define CUSE_EC_SESSION_FILES_H

#include <stdio.h>

#include "ec/ec.h"
#include "options.h"

/**
 * struct session_files - what --record and --replay opened.
 * @record:    the recording being written (its header already), or NULL
 * @recording: the recording --replay loaded, or NULL
 * @replay:    the replay made of it, or NULL
 */
struct session_files {
	FILE *record;
	struct ec_recording *recording;
	struct ec_replay *replay;
};

/**
 * session_files_open() - load --replay's recording and create --record's
 * file, as the options ask.
 * @opts: the parsed options
 * @sf:   filled in; all NULL when neither option was given
 * @err:  where a failure is reported, one line naming the file and why
 *
 * --replay is loaded first, so a bad recording leaves no new file behind.
 *
 * Return: 0, or -errno with @sf left empty.
 */
int session_files_open(const struct cuse_ec_options *opts, struct session_files *sf, FILE *err);

/**
 * session_files_close() - flush and close the record, free the replay.
 * @sf: the files; nothing may use them any more
 *
 * Return: 0, or -EIO when the record's last bytes could not be written.
 */
int session_files_close(struct session_files *sf);

#endif /* CUSE_EC_SESSION_FILES_H */
