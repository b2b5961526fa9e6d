# SPDX-License-Identifier: GPL-2.0-or-later
#
# hotplug_sim tests: Check unit tests of every parser (bad input first) and
# of the report (totals, verdict, JSON and CSV shape), a script that feeds
# the real binary bad command lines and scenario files, and an end-to-end run.

check_PROGRAMS += tests/hotplug_sim/test_hs_parse tests/hotplug_sim/test_hs_report
tests_hotplug_sim_test_hs_parse_SOURCES = tests/hotplug_sim/test_hs_parse.c
tests_hotplug_sim_test_hs_parse_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_hotplug_sim_test_hs_parse_CPPFLAGS = $(AM_CPPFLAGS) \
	-DHS_TEST_SRCDIR=\"$(abs_top_srcdir)\"
tests_hotplug_sim_test_hs_parse_LDADD = hotplug_sim/libhotplugsim.la $(CHECK_LIBS)

tests_hotplug_sim_test_hs_report_SOURCES = tests/hotplug_sim/test_hs_report.c
tests_hotplug_sim_test_hs_report_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_hotplug_sim_test_hs_report_LDADD = hotplug_sim/libhotplugsim.la $(CHECK_LIBS)

# hotplug-control.test drives the real daemon through its device socket and
# the preload library, on the host; its checks' half is sourced data.
hotplug_sim_tests = \
	tests/hotplug_sim/hotplug-usage.test \
	tests/hotplug_sim/report-schema.test \
	tests/hotplug_sim/hotplug-control.test
TESTS += tests/hotplug_sim/test_hs_parse tests/hotplug_sim/test_hs_report $(hotplug_sim_tests)
dist_noinst_SCRIPTS += $(hotplug_sim_tests)
EXTRA_DIST += tests/hotplug_sim/hotplug-control-guest.sh \
	tests/hotplug_sim/json-schema-check \
	docs/hotplug_sim-report.schema.json \
	docs/hotplug-compare.schema.json
# report-schema.test reads the samples test_hs_report writes.
tests/hotplug_sim/report-schema.log: tests/hotplug_sim/test_hs_report$(EXEEXT)

# Experiments and teaching table (scripts/hotplug-compare, latency-histogram,
# demo, experiments/): their bad options and a canned-CSV histogram on the
# host, and 1,000 flap cycles against the real daemon (its device socket).
hotplug_sim_experiment_tests = \
	tests/hotplug_sim/scripts-usage.test \
	tests/hotplug_sim/flap1000.test
TESTS += $(hotplug_sim_experiment_tests)
dist_noinst_SCRIPTS += $(hotplug_sim_experiment_tests)
EXTRA_DIST += \
	tests/hotplug_sim/flap1000-guest.sh \
	tests/hotplug_sim/data/latency-small.csv \
	tests/hotplug_sim/data/report-small.json
