# SPDX-License-Identifier: GPL-2.0-or-later

# ==== daemon (cuse_ec binary, chardev seam, lifecycle, control) — daemon helper's block ====
# The chardev seam and everything else with logic in it is a convenience
# library, so host tests link exactly the code the daemon runs.
noinst_LTLIBRARIES += cuse_ec/libchardev.la
cuse_ec_libchardev_la_SOURCES = \
	cuse_ec/chardev.c \
	cuse_ec/lifecycle.c \
	cuse_ec/control.c \
	cuse_ec/options.c \
	cuse_ec/control_client.c \
	cuse_ec/udev_follow.c \
	cuse_ec/udev_match.c
noinst_HEADERS += \
	cuse_ec/chardev.h \
	cuse_ec/lifecycle.h \
	cuse_ec/control.h \
	cuse_ec/control_client.h \
	cuse_ec/options.h \
	cuse_ec/udev_follow.h
daemon_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/cuse_ec -I$(top_srcdir)/revocable
cuse_ec_libchardev_la_CPPFLAGS = $(daemon_cppflags)
cuse_ec_libchardev_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) $(UDEV_CFLAGS) -pthread
cuse_ec_libchardev_la_LIBADD = $(UDEV_LIBS)

sbin_PROGRAMS += cuse_ec/cuse_ec
cuse_ec_cuse_ec_SOURCES = cuse_ec/cuse_main.c
cuse_ec_cuse_ec_CPPFLAGS = $(daemon_cppflags)
cuse_ec_cuse_ec_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS) -pthread
cuse_ec_cuse_ec_LDADD = cuse_ec/libchardev.la ec/libecmodel.la \
	revocable/librevocable.la $(FUSE3_LIBS) -lpthread

dist_man_MANS += cuse_ec/cuse_ec.8
udevrulesdir = $(prefix)/lib/udev/rules.d
dist_udevrules_DATA = cuse_ec/70-cuse_ec.rules

# Host tests of the seam: no kernel, many threads (also run under ASan/TSan).
daemon_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS) -pthread
daemon_test_cppflags = $(daemon_cppflags) -I$(top_srcdir)/tests/cuse_ec
daemon_test_ldadd = cuse_ec/libchardev.la ec/libecmodel.la \
	revocable/librevocable.la $(CHECK_LIBS) -lpthread
daemon_unit_tests = \
	tests/cuse_ec/test_chardev \
	tests/cuse_ec/test_chardev_stress \
	tests/cuse_ec/test_control_options \
	tests/cuse_ec/test_udev_follow
check_PROGRAMS += $(daemon_unit_tests)
TESTS += $(daemon_unit_tests)
noinst_HEADERS += tests/cuse_ec/harness.h

tests_cuse_ec_test_chardev_SOURCES = tests/cuse_ec/test_chardev.c tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_stress_SOURCES = tests/cuse_ec/test_chardev_stress.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_stress_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_stress_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_stress_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_control_options_SOURCES = tests/cuse_ec/test_control_options.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_control_options_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_control_options_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_control_options_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_udev_follow_SOURCES = tests/cuse_ec/test_udev_follow.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_udev_follow_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_udev_follow_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_udev_follow_LDADD = $(daemon_test_ldadd)

# End-to-end (UML): a raw-ABI probe of our own plus the project's ecctl.
check_PROGRAMS += tests/cuse_ec/cuse_ec_probe
tests_cuse_ec_cuse_ec_probe_SOURCES = tests/cuse_ec/cuse_ec_probe.c
tests_cuse_ec_cuse_ec_probe_CFLAGS = $(AM_CFLAGS) -pthread
tests_cuse_ec_cuse_ec_probe_LDADD = -lpthread
daemon_e2e_tests = tests/cuse_ec/cuse-ec-args.test tests/e2e/cuse-ec.test \
	tests/e2e/cuse-ec-uaf.test tests/e2e/cuse-ec-udev.test \
	tests/e2e/cuse-ec-udevd.test
TESTS += $(daemon_e2e_tests)
dist_noinst_SCRIPTS += $(daemon_e2e_tests)
EXTRA_DIST += tests/e2e/cuse-ec-guest.sh tests/e2e/cuse-ec-uaf-guest.sh \
	tests/e2e/cuse-ec-udev-guest.sh

# Benchmark (prints figures, never a test): cuse_ec vs a null CUSE server
# speaking the same ABI; cuse_ec/bench/run-bench.sh runs both in one UML boot.
noinst_PROGRAMS += cuse_ec/bench/cuse_null cuse_ec/bench/cuse_ec_bench
cuse_ec_bench_cuse_null_SOURCES = cuse_ec/bench/cuse_null.c
cuse_ec_bench_cuse_null_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) -pthread
cuse_ec_bench_cuse_null_LDADD = $(FUSE3_LIBS) -lpthread
cuse_ec_bench_cuse_ec_bench_SOURCES = cuse_ec/bench/cuse_ec_bench.c
cuse_ec_bench_cuse_ec_bench_CFLAGS = $(AM_CFLAGS) -pthread
cuse_ec_bench_cuse_ec_bench_LDADD = -lpthread
dist_noinst_SCRIPTS += cuse_ec/bench/run-bench.sh
# ==== end of the daemon block ====
