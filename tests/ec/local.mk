# SPDX-License-Identifier: GPL-2.0-or-later
#
# EC model unit tests (Check) and the fuzz target replayed over its corpus.
# They link ec/libecmodel.la and nothing else of the project: no libfuse,
# libudev or liburcu headers are on their include path.

# Each test is tests/ec/NAME.c (automake's default source for the program
# NAME), linked with the shared helpers; this list is the only place a test
# is named. Its flags and libraries are given once for the whole list, as
# GNU make target-specific variables on the list's objects and programs:
# automake reads per-program variables only when they are written out one by
# one, which is what this replaces.
ec_unit_tests = \
	tests/ec/test_ec_cmds \
	tests/ec/test_ec_sizes \
	tests/ec/test_ec_state \
	tests/ec/test_ec_notifier \
	tests/ec/test_ec_profile \
	tests/ec/test_ec_profile_open \
	tests/ec/test_ec_profile_manual \
	tests/ec/test_ec_flash_events \
	tests/ec/test_ec_keyboard \
	tests/ec/test_ec_board \
	tests/ec/test_ec_board_info \
	tests/ec/test_ec_reboot \
	tests/ec/test_ec_settings \
	tests/ec/test_ec_pd \
	tests/ec/test_ec_fp \
	tests/ec/test_ec_fpmcu \
	tests/ec/test_ec_motion \
	tests/ec/test_ec_chipset \
	tests/ec/test_ec_host_misc \
	tests/ec/test_ec_fault \
	tests/ec/test_ec_recording \
	tests/ec/test_ec_state_file
check_PROGRAMS += $(ec_unit_tests)
TESTS += $(ec_unit_tests) tests/ec/fuzz_replay
ec_unit_test_objects = $(ec_unit_tests:=.$(OBJEXT))
ec_unit_test_programs = $(ec_unit_tests:=$(EXEEXT))
$(ec_unit_test_objects): AM_CFLAGS += $(CHECK_CFLAGS)
$(ec_unit_test_programs): LDADD = $(ec_test_libs) $(CHECK_LIBS)
$(ec_unit_test_programs): $(ec_test_libs)

# No call cycle between the EC's subsystems, read from libecmodel's objects.
TESTS += tests/ec/call_graph.test
dist_noinst_SCRIPTS += tests/ec/call_graph.test

# The helpers the tests share (tests/ec/ec_test_util.h), built once.
ec_test_libs = tests/ec/libectest.la ec/libecmodel.la
ec_test_cppflags = $(AM_CPPFLAGS) -DTOP_SRCDIR_FALLBACK=\"$(abs_top_srcdir)\"
check_LTLIBRARIES += tests/ec/libectest.la
tests_ec_libectest_la_SOURCES = tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_libectest_la_CPPFLAGS = $(ec_test_cppflags)
tests_ec_libectest_la_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)

# The fuzz target's entry point, replayed over a checked-in corpus.
check_PROGRAMS += tests/ec/fuzz_replay
tests_ec_fuzz_replay_SOURCES = fuzz/ec_fuzz.c tests/ec/fuzz_replay.c
tests_ec_fuzz_replay_CPPFLAGS = $(ec_test_cppflags)
tests_ec_fuzz_replay_LDADD = ec/libecmodel.la

EXTRA_DIST += \
	tests/ec/bad-profiles \
	tests/ec/corpus
