/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hs_run.h - run one hotplug_sim experiment against a live device.
 */
#ifndef HOTPLUG_SIM_HS_RUN_H
#define HOTPLUG_SIM_HS_RUN_H

#include "hs.h"

/**
 * hs_run() - start the client, reader and poller threads, play the scenario,
 * stop everything and fill the report.
 * @cfg: the configuration (validated by the parsers)
 * @rep: the report; release it with hs_report_release()
 *
 * Hung threads are left behind (detached) and counted: the caller should
 * exit soon after.
 *
 * Return: 0 when the run completed (its verdict is in @rep), -errno when it
 * could not start (e.g. the control socket did not answer), with a message
 * on stderr.
 */
int hs_run(const struct hs_config *cfg, struct hs_report *rep);

/**
 * hs_report_release() - free what hs_run() allocated in @rep.
 * @rep: the report
 */
void hs_report_release(struct hs_report *rep);

#endif /* HOTPLUG_SIM_HS_RUN_H */
