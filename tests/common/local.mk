# SPDX-License-Identifier: GPL-2.0-or-later
#
# The shared parsers' unit tests: every rule and every bad input, once.

check_PROGRAMS += tests/common/test_parse
tests_common_test_parse_SOURCES = tests/common/test_parse.c
tests_common_test_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_common_test_parse_LDADD = ctl/libctl.la common/libcommon.la $(CHECK_LIBS)
TESTS += tests/common/test_parse
