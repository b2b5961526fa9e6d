# SPDX-License-Identifier: GPL-2.0-or-later
#
# Daemon tests: Check unit tests of the chardev seam, lifecycle, control
# socket, options and udev following on the host (no kernel, many threads;
# also run under ASan/TSan), the raw-ABI probe the end-to-end tests run in
# the guest, and a script that feeds the real daemon bad command lines.

daemon_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS)
daemon_test_cppflags = $(daemon_cppflags) -I$(top_srcdir)/tests/cuse_ec
daemon_test_ldadd = cuse_ec/libchardev.la ec/libecmodel.la \
	revocable/librevocable.la $(CHECK_LIBS)
daemon_unit_tests = \
	tests/cuse_ec/test_chardev \
	tests/cuse_ec/test_chardev_unplug \
	tests/cuse_ec/test_chardev_stress \
	tests/cuse_ec/test_chardev_races \
	tests/cuse_ec/test_chardev_trace \
	tests/cuse_ec/test_chardev_evidence \
	tests/cuse_ec/test_chardev_reboot \
	tests/cuse_ec/test_control_options \
	tests/cuse_ec/test_control_races \
	tests/cuse_ec/test_udev_follow \
	tests/cuse_ec/test_privdrop \
	tests/cuse_ec/test_path_wait \
	tests/cuse_ec/test_control_abuse \
	tests/cuse_ec/test_control_paths \
	tests/cuse_ec/test_node
check_PROGRAMS += $(daemon_unit_tests)
TESTS += $(daemon_unit_tests)
noinst_HEADERS += tests/cuse_ec/harness.h

tests_cuse_ec_test_node_SOURCES = tests/cuse_ec/test_node.c
tests_cuse_ec_test_node_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_node_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_node_LDADD = $(daemon_test_ldadd)

# bind() wrapped: the test swaps a fresh socket's path the moment it is bound.
tests_cuse_ec_test_control_paths_SOURCES = tests/cuse_ec/test_control_paths.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_control_paths_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_control_paths_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_control_paths_LDFLAGS = -Wl,--wrap=bind
tests_cuse_ec_test_control_paths_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_control_abuse_SOURCES = tests/cuse_ec/test_control_abuse.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_control_abuse_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_control_abuse_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_control_abuse_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_path_wait_SOURCES = tests/cuse_ec/test_path_wait.c
tests_cuse_ec_test_path_wait_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_path_wait_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_path_wait_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_privdrop_SOURCES = tests/cuse_ec/test_privdrop.c
tests_cuse_ec_test_privdrop_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_privdrop_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_privdrop_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_SOURCES = tests/cuse_ec/test_chardev.c tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_unplug_SOURCES = tests/cuse_ec/test_chardev_unplug.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_unplug_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_unplug_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_unplug_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_stress_SOURCES = tests/cuse_ec/test_chardev_stress.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_stress_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_stress_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_stress_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_trace_SOURCES = tests/cuse_ec/test_chardev_trace.c
tests_cuse_ec_test_chardev_trace_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_trace_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_trace_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_evidence_SOURCES = tests/cuse_ec/test_chardev_evidence.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_evidence_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_evidence_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_evidence_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_reboot_SOURCES = tests/cuse_ec/test_chardev_reboot.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_reboot_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_reboot_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_reboot_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_chardev_races_SOURCES = tests/cuse_ec/test_chardev_races.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_chardev_races_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_chardev_races_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_chardev_races_LDADD = $(daemon_test_ldadd) -ldl

tests_cuse_ec_test_control_options_SOURCES = tests/cuse_ec/test_control_options.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_control_options_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_control_options_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_control_options_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_control_races_SOURCES = tests/cuse_ec/test_control_races.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_control_races_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_control_races_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_control_races_LDADD = $(daemon_test_ldadd)

tests_cuse_ec_test_udev_follow_SOURCES = tests/cuse_ec/test_udev_follow.c \
	tests/cuse_ec/harness.c
tests_cuse_ec_test_udev_follow_CPPFLAGS = $(daemon_test_cppflags)
tests_cuse_ec_test_udev_follow_CFLAGS = $(daemon_test_cflags)
tests_cuse_ec_test_udev_follow_LDADD = $(daemon_test_ldadd)

# End-to-end (UML): a raw-ABI probe of our own plus the project's ecctl.
check_PROGRAMS += tests/cuse_ec/cuse_ec_probe
tests_cuse_ec_cuse_ec_probe_SOURCES = tests/cuse_ec/cuse_ec_probe.c
tests_cuse_ec_cuse_ec_probe_CFLAGS = $(AM_CFLAGS)

cuse_ec_tests = tests/cuse_ec/cuse-ec-args.test tests/cuse_ec/cuse-ec-profiles.test \
	tests/cuse_ec/units.test
TESTS += $(cuse_ec_tests)
dist_noinst_SCRIPTS += $(cuse_ec_tests)
