# SPDX-License-Identifier: GPL-2.0-or-later
#
# The control protocol (ctl/ctl.h): the line limits, the one client and
# `--send`'s loop, the counters' keys (ctl_stats.h) and the trace lines (ctl_trace.h). The daemon's server,
# hotplug_sim, the lab, the bench and the tests link it; it needs libc,
# common/ and json-c (--send --json).

noinst_LTLIBRARIES += ctl/libctl.la
ctl_libctl_la_SOURCES = ctl/ctl_client.c ctl/ctl_send.c ctl/ctl_trace.c
ctl_libctl_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
ctl_libctl_la_LIBADD = common/libcommon.la $(JSONC_LIBS)
noinst_HEADERS += ctl/ctl.h ctl/ctl_stats.h ctl/ctl_trace.h
