# SPDX-License-Identifier: GPL-2.0-or-later
#
# The preload library as clients use it: a C client of every promise and a
# script that runs it, a Python client and a dying daemon, on the host.

check_PROGRAMS += tests/preload/preload_client
tests_preload_preload_client_SOURCES = tests/preload/preload_client.c
tests_preload_preload_client_CFLAGS = $(AM_CFLAGS) -pthread
tests_preload_preload_client_LDADD = ctl/libctl.la common/libcommon.la -lpthread
preload_tests = tests/preload/preload.test
TESTS += $(preload_tests)
dist_noinst_SCRIPTS += $(preload_tests)
