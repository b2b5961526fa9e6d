# SPDX-License-Identifier: GPL-2.0-or-later
#
# hotplug_sim: drives unplug/replug (synthetic uevents or the control socket)
# under client load and reports the outcomes. The parsers and the report live
# in a small library so the unit tests exercise exactly what the CLI runs.

noinst_LTLIBRARIES += hotplug_sim/libhotplugsim.la
hotplug_sim_libhotplugsim_la_SOURCES = \
	hotplug_sim/hs_latency.c \
	hotplug_sim/hs_parse.c \
	hotplug_sim/hs_parse_internal.h \
	hotplug_sim/hs_report.c \
	hotplug_sim/hs_scenario.c
hotplug_sim_libhotplugsim_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
hotplug_sim_libhotplugsim_la_LIBADD = client/libecclient.la ctl/libctl.la common/libcommon.la \
	$(JSONC_LIBS)
noinst_HEADERS += hotplug_sim/hs.h hotplug_sim/hs_run.h

bin_PROGRAMS += hotplug_sim/hotplug_sim
hotplug_sim_hotplug_sim_SOURCES = hotplug_sim/hotplug_sim.c hotplug_sim/hs_run.c \
	hotplug_sim/hs_worker.c hotplug_sim/hs_internal.h
hotplug_sim_hotplug_sim_CFLAGS = $(AM_CFLAGS) $(UDEV_CFLAGS)
hotplug_sim_hotplug_sim_LDADD = hotplug_sim/libhotplugsim.la $(UDEV_LIBS)
dist_man_MANS += hotplug_sim/hotplug_sim.1

EXTRA_DIST += \
	hotplug_sim/scenarios/flap.scn \
	hotplug_sim/scenarios/inflight.scn \
	hotplug_sim/scenarios/replug.scn \
	docs/hotplug-scenarios.md
