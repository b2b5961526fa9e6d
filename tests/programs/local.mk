# SPDX-License-Identifier: GPL-2.0-or-later
#
# What every program shares: -V/--version and -h/--help, for the compiled
# programs and the scripts alike; bash completion read from that --help.

programs_tests = tests/programs/version.test tests/programs/completion.test
TESTS += $(programs_tests)
dist_noinst_SCRIPTS += $(programs_tests)
