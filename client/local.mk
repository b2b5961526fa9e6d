# SPDX-License-Identifier: GPL-2.0-or-later
#
# The client library (the /dev/cros_ec ABI as real clients speak it) and the
# ecctl CLI. The daemon must never link this; hotplug_sim and tests do.

noinst_LTLIBRARIES += client/libecclient.la
client_libecclient_la_SOURCES = \
	client/ec_client.c \
	client/ec_client_cmds.c \
	client/ecctl_cli.c
client_libecclient_la_LIBADD = common/libcommon.la
noinst_HEADERS += client/ec_client.h client/ecctl_cli.h

bin_PROGRAMS += client/ecctl
client_ecctl_SOURCES = client/ecctl.c
client_ecctl_LDADD = client/libecclient.la
dist_man_MANS += client/ecctl.1
