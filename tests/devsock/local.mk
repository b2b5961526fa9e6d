# SPDX-License-Identifier: GPL-2.0-or-later
#
# The device socket's framing: whole messages, every malformed stream.

check_PROGRAMS += tests/devsock/test_devsock
tests_devsock_test_devsock_SOURCES = tests/devsock/test_devsock.c
tests_devsock_test_devsock_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_devsock_test_devsock_LDADD = devsock/libdevsock.la $(CHECK_LIBS) -lpthread
TESTS += tests/devsock/test_devsock
