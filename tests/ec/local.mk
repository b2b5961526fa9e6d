# SPDX-License-Identifier: GPL-2.0-or-later
#
# EC model unit tests (Check) and the fuzz target replayed over its corpus.
# They link ec/libecmodel.la and nothing else of the project: no libfuse,
# libudev or liburcu headers are on their include path.

ec_test_cppflags = $(AM_CPPFLAGS) -DTOP_SRCDIR_FALLBACK=\"$(abs_top_srcdir)\"
ec_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
ec_test_ldadd = ec/libecmodel.la $(CHECK_LIBS)
ec_unit_tests = \
	tests/ec/test_ec_cmds \
	tests/ec/test_ec_sizes \
	tests/ec/test_ec_state \
	tests/ec/test_ec_notifier \
	tests/ec/test_ec_profile \
	tests/ec/test_ec_profile_open \
	tests/ec/test_ec_flash_events \
	tests/ec/test_ec_keyboard \
	tests/ec/test_ec_board \
	tests/ec/test_ec_board_info \
	tests/ec/test_ec_reboot \
	tests/ec/test_ec_power_ctl \
	tests/ec/test_ec_pd \
	tests/ec/fuzz_replay
check_PROGRAMS += $(ec_unit_tests)
TESTS += $(ec_unit_tests)

# No call cycle between the EC's subsystems, read from libecmodel's objects.
TESTS += tests/ec/call_graph.test
dist_noinst_SCRIPTS += tests/ec/call_graph.test

tests_ec_test_ec_cmds_SOURCES = tests/ec/test_ec_cmds.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_cmds_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_cmds_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_cmds_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_sizes_SOURCES = tests/ec/test_ec_sizes.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_sizes_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_sizes_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_sizes_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_state_SOURCES = tests/ec/test_ec_state.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_state_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_state_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_state_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_notifier_SOURCES = tests/ec/test_ec_notifier.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_notifier_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_notifier_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_notifier_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_profile_SOURCES = tests/ec/test_ec_profile.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_profile_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_profile_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_profile_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_profile_open_SOURCES = tests/ec/test_ec_profile_open.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_profile_open_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_profile_open_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_profile_open_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_flash_events_SOURCES = tests/ec/test_ec_flash_events.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_flash_events_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_flash_events_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_flash_events_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_keyboard_SOURCES = tests/ec/test_ec_keyboard.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_keyboard_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_keyboard_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_keyboard_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_board_SOURCES = tests/ec/test_ec_board.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_board_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_board_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_board_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_board_info_SOURCES = tests/ec/test_ec_board_info.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_board_info_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_board_info_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_board_info_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_reboot_SOURCES = tests/ec/test_ec_reboot.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_reboot_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_reboot_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_reboot_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_power_ctl_SOURCES = tests/ec/test_ec_power_ctl.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_power_ctl_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_power_ctl_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_power_ctl_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_pd_SOURCES = tests/ec/test_ec_pd.c \
	tests/ec/ec_test_util.c tests/ec/ec_test_util.h
tests_ec_test_ec_pd_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_pd_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_pd_LDADD = $(ec_test_ldadd)

# The fuzz target's entry point, replayed over a checked-in corpus.
tests_ec_fuzz_replay_SOURCES = fuzz/ec_fuzz.c tests/ec/fuzz_replay.c
tests_ec_fuzz_replay_CPPFLAGS = $(ec_test_cppflags)
tests_ec_fuzz_replay_LDADD = ec/libecmodel.la

EXTRA_DIST += \
	tests/ec/bad-profiles \
	tests/ec/corpus
