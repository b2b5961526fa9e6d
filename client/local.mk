# SPDX-License-Identifier: GPL-2.0-or-later
#
# The client library (the /dev/cros_ec ABI as real clients speak it) and the
# ecctl CLI. The daemon must never link this; hotplug_sim and tests do.

noinst_LTLIBRARIES += client/libecclient.la
client_libecclient_la_SOURCES = \
	client/ec_client.c \
	client/ec_client_cmds.c
client_libecclient_la_LIBADD = common/libcommon.la
noinst_HEADERS += client/ec_client.h client/ecctl_cli.h

# ecctl's parsing and commands, apart from main() so the tests drive them;
# the client library itself needs no JSON writer.
noinst_LTLIBRARIES += client/libecctl.la
client_libecctl_la_SOURCES = client/ecctl_cli.c client/ecctl_run.c
client_libecctl_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
client_libecctl_la_LIBADD = client/libecclient.la common/libcommon.la $(JSONC_LIBS)

bin_PROGRAMS += client/ecctl
client_ecctl_SOURCES = client/ecctl.c
client_ecctl_LDADD = client/libecctl.la
dist_man_MANS += client/ecctl.1

# The recorder: a device's answers as a recording (ec/'s formats) and a
# profile; ec/libecmodel.la for the format code only.
bin_PROGRAMS += client/cuse_ec-record
client_cuse_ec_record_SOURCES = client/cuse_ec_record.c
client_cuse_ec_record_LDADD = client/libecclient.la ec/libecmodel.la common/libcommon.la
dist_man_MANS += client/cuse_ec-record.1
