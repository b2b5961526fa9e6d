# SPDX-License-Identifier: GPL-2.0-or-later

# ==== EC model (cuse_ec/ec*.c, profiles, tests/ec, fuzz) — EC helper's block ====
noinst_LTLIBRARIES += cuse_ec/libecmodel.la
ec_model_sources = \
	cuse_ec/ec.c \
	cuse_ec/ec.h \
	cuse_ec/ec_internal.h \
	cuse_ec/ec_profile.c \
	cuse_ec/ec_cmd_system.c \
	cuse_ec/ec_cmd_flash.c \
	cuse_ec/ec_cmd_thermal.c \
	cuse_ec/ec_cmd_power.c \
	cuse_ec/ec_cmd_usbpd.c \
	cuse_ec/ec_cmd_console.c \
	cuse_ec/ec_cmd_gpio_led.c \
	cuse_ec/ec_cmd_events.c
cuse_ec_libecmodel_la_SOURCES = $(ec_model_sources)
nodist_cuse_ec_libecmodel_la_SOURCES = cuse_ec/ec_profile_builtin.c
cuse_ec_libecmodel_la_LIBADD = -lpthread

# The built-in default profile is laptop.profile itself, turned into a C
# string at build time, so the two can never drift apart.
ec_default_profile = $(top_srcdir)/cuse_ec/profiles/laptop.profile
cuse_ec/ec_profile_builtin.c: $(ec_default_profile)
	$(AM_V_GEN)$(MKDIR_P) cuse_ec && { \
	  echo '// SPDX-License-Identifier: GPL-2.0-or-later'; \
	  echo '/* Generated from cuse_ec/profiles/laptop.profile; do not edit. */'; \
	  echo 'extern const char ec_builtin_laptop_profile[];'; \
	  echo 'const char ec_builtin_laptop_profile[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/	"/' -e 's/$$/\\n"/' \
	    $(ec_default_profile); \
	  echo ';'; \
	} > $@-t && mv -f $@-t $@
CLEANFILES += cuse_ec/ec_profile_builtin.c cuse_ec/ec_profile_builtin.c-t

profilesdir = $(pkgdatadir)/profiles
dist_profiles_DATA = \
	cuse_ec/profiles/laptop.profile \
	cuse_ec/profiles/usbc-dual.profile \
	cuse_ec/profiles/minimal.profile
dist_doc_DATA += docs/profile-format.md

# Unit tests (Check).
ec_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/cuse_ec -DTOP_SRCDIR_FALLBACK=\"$(abs_top_srcdir)\"
ec_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
ec_test_ldadd = cuse_ec/libecmodel.la $(CHECK_LIBS)
ec_unit_tests = \
	tests/ec/test_ec_cmds \
	tests/ec/test_ec_state \
	tests/ec/test_ec_profile \
	tests/ec/fuzz_replay
check_PROGRAMS += $(ec_unit_tests)
TESTS += $(ec_unit_tests)

tests_ec_test_ec_cmds_SOURCES = tests/ec/test_ec_cmds.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_cmds_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_cmds_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_cmds_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_state_SOURCES = tests/ec/test_ec_state.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_state_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_state_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_state_LDADD = $(ec_test_ldadd)

tests_ec_test_ec_profile_SOURCES = tests/ec/test_ec_profile.c tests/ec/ec_test_util.c \
	tests/ec/ec_test_util.h
tests_ec_test_ec_profile_CPPFLAGS = $(ec_test_cppflags)
tests_ec_test_ec_profile_CFLAGS = $(ec_test_cflags)
tests_ec_test_ec_profile_LDADD = $(ec_test_ldadd)

# The fuzz target's entry point, replayed over a checked-in corpus.
tests_ec_fuzz_replay_SOURCES = fuzz/ec_fuzz.c tests/ec/fuzz_replay.c
tests_ec_fuzz_replay_CPPFLAGS = $(ec_test_cppflags)
tests_ec_fuzz_replay_LDADD = cuse_ec/libecmodel.la

EXTRA_DIST += \
	tests/ec/bad-profiles \
	tests/ec/corpus

if ENABLE_FUZZING
# libFuzzer build: the model's sources are compiled into the target with
# the same instrumentation. Configure with CC=clang --enable-fuzzing.
noinst_PROGRAMS += fuzz/ec_fuzz
fuzz_ec_fuzz_SOURCES = fuzz/ec_fuzz.c $(ec_model_sources)
nodist_fuzz_ec_fuzz_SOURCES = cuse_ec/ec_profile_builtin.c
fuzz_ec_fuzz_CPPFLAGS = $(ec_test_cppflags)
fuzz_ec_fuzz_CFLAGS = $(AM_CFLAGS) -g -fsanitize=fuzzer,address,undefined
fuzz_ec_fuzz_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_ec_fuzz_LDADD = -lpthread

# `make fuzz-run FUZZ_SECONDS=30`: a bounded fuzzing session (scripts/check).
# New inputs go to a scratch corpus in the build tree; the checked-in corpus
# is only read.
FUZZ_SECONDS = 30
fuzz-run: fuzz/ec_fuzz$(EXEEXT)
	rm -rf fuzz/corpus-new && mkdir -p fuzz/corpus-new
	./fuzz/ec_fuzz$(EXEEXT) -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
		-print_final_stats=1 fuzz/corpus-new $(top_srcdir)/tests/ec/corpus
else
fuzz-run:
	@echo "fuzzing is not configured: use CC=clang ./configure --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz-run
# ==== end of the EC model block ====

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
	cuse_ec/clock.c
noinst_HEADERS += \
	cuse_ec/chardev.h \
	cuse_ec/clock.h \
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
cuse_ec_cuse_ec_LDADD = cuse_ec/libchardev.la cuse_ec/libecmodel.la \
	revocable/librevocable.la $(FUSE3_LIBS) -lpthread

dist_man_MANS += cuse_ec/cuse_ec.8
udevrulesdir = $(prefix)/lib/udev/rules.d
dist_udevrules_DATA = cuse_ec/70-cuse_ec.rules

# Host tests of the seam: no kernel, many threads (also run under ASan/TSan).
daemon_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS) -pthread
daemon_test_cppflags = $(daemon_cppflags) -I$(top_srcdir)/tests/cuse_ec
daemon_test_ldadd = cuse_ec/libchardev.la cuse_ec/libecmodel.la \
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
	tests/e2e/cuse-ec-uaf.test tests/e2e/cuse-ec-udev.test
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
