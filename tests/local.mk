# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end tests.  The .test scripts are bash; they find the binaries
# through $top_builddir and the helpers through $top_srcdir (both exported
# by AM_TESTS_ENVIRONMENT), so they work in VPATH builds and distcheck.

TEST_EXTENSIONS = .test
TEST_LOG_COMPILER = bash

noinst_HEADERS += tests/check_run.h

check_PROGRAMS += tests/e2e/cuse_mini tests/e2e/cuse_mini_client

tests_e2e_cuse_mini_SOURCES = tests/e2e/cuse_mini.c tests/e2e/cuse_mini.h
tests_e2e_cuse_mini_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
tests_e2e_cuse_mini_LDADD = $(FUSE3_LIBS)

tests_e2e_cuse_mini_client_SOURCES = tests/e2e/cuse_mini_client.c \
	tests/e2e/cuse_mini.h

e2e_tests = \
	tests/e2e/cuse-mini-args.test \
	tests/e2e/cuse-mini.test \
	tests/e2e/uml-run.test
TESTS += $(e2e_tests)
dist_noinst_SCRIPTS += $(e2e_tests)

# Sourced or run by bash from the .test scripts, never executed directly.
EXTRA_DIST += \
	tests/e2e/lib.sh \
	tests/e2e/cuse-mini-guest.sh \
	tests/tsan.supp
include tests/ec/local.mk
include tests/lab/local.mk
