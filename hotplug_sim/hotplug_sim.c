// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hotplug_sim - unplug and replug an emulated EC while clients hold open
 * files on it, and report what those clients saw. See hotplug_sim(1).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs.h"
#include "hs_run.h"

static int write_json(const struct hs_report *rep, const struct hs_config *cfg)
{
	FILE *out = fopen(cfg->json_path, "w");
	int ret;

	if (!out)
		return -errno;
	ret = hs_report_json(rep, cfg, out);
	if (fclose(out) && !ret)
		ret = -EIO;
	return ret;
}

int main(int argc, char **argv)
{
	/* Large (the step table): on the heap, not the stack. */
	struct hs_config *cfg = malloc(sizeof(*cfg));
	struct hs_report rep;
	char err[HS_ERR_MAX];
	int ret, status = 1;

	if (!cfg) {
		fprintf(stderr, "hotplug_sim: out of memory\n");
		return 1;
	}
	ret = hs_parse_args(cfg, argc, argv, err);
	if (ret) {
		if (ret != 1)
			fprintf(stderr, "hotplug_sim: %s\n", err);
		status = ret == 1 ? 0 : 2;
		goto out;
	}
	if (hs_run(cfg, &rep)) {
		hs_report_release(&rep);	/* no thread was started */
		goto out;
	}
	status = hs_report_verdict(&rep, cfg) || rep.output_failed;
	if (!cfg->quiet)
		hs_report_human(&rep, cfg, stdout);
	if (cfg->json_path[0]) {
		ret = write_json(&rep, cfg);
		if (ret) {
			fprintf(stderr, "hotplug_sim: %s: %s\n", cfg->json_path, strerror(-ret));
			status = 1;
		}
	}
	fflush(stdout);
	/*
	 * A thread left behind may still wake and count into the report or
	 * read the configuration: never free them then (we exit at once).
	 */
	if (rep.threads_left)
		return status;
	hs_report_release(&rep);
out:
	free(cfg);
	return status;
}
