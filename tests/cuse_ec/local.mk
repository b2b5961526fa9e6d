# SPDX-License-Identifier: GPL-2.0-or-later
#
# Daemon tests: Check unit tests of the chardev seam, lifecycle, control
# socket, options and udev following on the host (no kernel, many threads;
# also run under ASan/TSan), the raw-ABI probe the end-to-end tests run in
# the guest, and a script that feeds the real daemon bad command lines.

# Each test is tests/cuse_ec/NAME.c (automake's default source for the
# program NAME), linked with the harness; this list is the only place a test
# is named. The flags and libraries are given once for the whole list, as
# GNU make target-specific variables on the list's objects and programs
# (tests/ec/local.mk says why); a test that needs more says so below it.
daemon_unit_tests = \
	tests/cuse_ec/test_chardev \
	tests/cuse_ec/test_chardev_unplug \
	tests/cuse_ec/test_chardev_stress \
	tests/cuse_ec/test_chardev_races \
	tests/cuse_ec/test_chardev_trace \
	tests/cuse_ec/test_chardev_evidence \
	tests/cuse_ec/test_chardev_reboot \
	tests/cuse_ec/test_chardev_faults \
	tests/cuse_ec/test_chardev_record \
	tests/cuse_ec/test_control_options \
	tests/cuse_ec/test_control_devices \
	tests/cuse_ec/test_control_state \
	tests/cuse_ec/test_control_hw \
	tests/cuse_ec/test_control_races \
	tests/cuse_ec/test_udev_follow \
	tests/cuse_ec/test_privdrop \
	tests/cuse_ec/test_path_wait \
	tests/cuse_ec/test_control_abuse \
	tests/cuse_ec/test_control_paths \
	tests/cuse_ec/test_node \
	tests/cuse_ec/test_node_setup \
	tests/cuse_ec/test_sock_frontend
check_PROGRAMS += $(daemon_unit_tests)
TESTS += $(daemon_unit_tests)
daemon_unit_test_objects = $(daemon_unit_tests:=.$(OBJEXT))
daemon_unit_test_programs = $(daemon_unit_tests:=$(EXEEXT))
$(daemon_unit_test_objects): AM_CPPFLAGS := $(daemon_test_cppflags)
$(daemon_unit_test_objects): AM_CFLAGS := $(daemon_test_cflags)
$(daemon_unit_test_programs): LDADD = $(daemon_test_ldadd)
$(daemon_unit_test_programs): $(daemon_test_libs)

# bind() wrapped: the test swaps a fresh socket's path the moment it is bound.
tests_cuse_ec_test_control_paths_LDFLAGS = -Wl,--wrap=bind
# dlsym() of the real functions it interposes.
tests_cuse_ec_test_chardev_races_LDADD = $(daemon_test_ldadd) -ldl

# The harness (tests/cuse_ec/harness.h) the tests share, built once.
daemon_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS)
daemon_test_cppflags = $(daemon_cppflags) -I$(top_srcdir)/tests/cuse_ec
daemon_test_libs = tests/cuse_ec/libharness.la cuse_ec/libcuse_ec_daemon.la ec/libecmodel.la \
	revocable/librevocable.la
daemon_test_ldadd = $(daemon_test_libs) $(CHECK_LIBS)
check_LTLIBRARIES += tests/cuse_ec/libharness.la
tests_cuse_ec_libharness_la_SOURCES = tests/cuse_ec/harness.c tests/cuse_ec/harness.h
tests_cuse_ec_libharness_la_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_libharness_la_CFLAGS = $(daemon_test_cflags)

# End-to-end (UML): a raw-ABI probe of our own plus the project's ecctl.
check_PROGRAMS += tests/cuse_ec/cuse_ec_probe
tests_cuse_ec_cuse_ec_probe_SOURCES = tests/cuse_ec/cuse_ec_probe.c
tests_cuse_ec_cuse_ec_probe_CFLAGS = $(AM_CFLAGS)

cuse_ec_tests = tests/cuse_ec/cuse-ec-args.test tests/cuse_ec/cuse-ec-profiles.test \
	tests/cuse_ec/units.test
TESTS += $(cuse_ec_tests)
guest_tests += tests/cuse_ec/units.test
dist_noinst_SCRIPTS += $(cuse_ec_tests)
