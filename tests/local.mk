# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every test's build and run rules live in tests/<dir>/local.mk, beside the
# test sources, and are included from here alone; a component's own
# local.mk holds none.  The .test scripts are bash; they find the binaries
# through $top_builddir and the helpers through $top_srcdir (both exported
# by AM_TESTS_ENVIRONMENT), so they work in VPATH builds and distcheck.

TEST_EXTENSIONS = .test
TEST_LOG_COMPILER = bash

noinst_HEADERS += tests/check_run.h
EXTRA_DIST += tests/tsan.supp

include tests/common/local.mk
include tests/devsock/local.mk
include tests/revocable/local.mk
include tests/ec/local.mk
include tests/cuse_ec/local.mk
include tests/client/local.mk
include tests/hotplug_sim/local.mk
include tests/e2e/local.mk
include tests/preload/local.mk
include tests/lab/local.mk
include tests/docs/local.mk
include tests/programs/local.mk

# The programs' manual pages (mandoc -Tlint, FILES, SEE ALSO that exists).
TESTS += tests/man-pages.test
dist_noinst_SCRIPTS += tests/man-pages.test

# Every tracked shell script clean under shellcheck (.shellcheckrc says how).
TESTS += tests/shell-scripts.test
dist_noinst_SCRIPTS += tests/shell-scripts.test
# scripts/ectool-sweep's bad inputs (the sweep itself needs ectool: run by hand).
TESTS += tests/ectool-sweep.test
dist_noinst_SCRIPTS += tests/ectool-sweep.test
EXTRA_DIST += .shellcheckrc
