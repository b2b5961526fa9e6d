# SPDX-License-Identifier: GPL-2.0-or-later
#
# The simulated EC: state, the host-command table and its handlers by area,
# the memory map, MKBP events, board profiles, recordings and their replay,
# and the clock. It depends on
# libc, include/cros_ec and common/ only (no CUSE, udev or RCU library), so the
# fuzzer and the unit tests build without any of them; ec/ec.h is its one
# public header (with ec_recording.h, which it includes).

noinst_LTLIBRARIES += ec/libecmodel.la
ec_model_sources = \
	ec/ec.c \
	ec/ec_subsystems.c \
	ec/ec.h \
	ec/ec_recording.h \
	ec/ec_internal.h \
	ec/ec_testing.h \
	ec/ec_state.c \
	ec/ec_events.c \
	ec/ec_notifier.c \
	ec/ec_fault.c \
	ec/ec_recording.c \
	ec/ec_recording_umockdev.c \
	ec/ec_replay.c \
	ec/ec_state_file.c \
	ec/ec_state_load.c \
	ec/ec_state_io.c \
	ec/ec_state_table.h \
	ec/ec_profile.c \
	ec/ec_profile_file.c \
	ec/ec_profile_keys.c \
	ec/ec_profile_describe.c \
	ec/ec_profile_keys.h \
	ec/ec_profile.h \
	ec/ec_cmd_system.c \
	ec/ec_cmd_flash.c \
	ec/ec_cmd_thermal.c \
	ec/ec_cmd_power.c \
	ec/ec_cmd_usbpd.c \
	ec/ec_cmd_console.c \
	ec/ec_cmd_gpio_led.c \
	ec/ec_cmd_events.c \
	ec/ec_cmd_flashrw.c \
	ec/ec_cmd_hostevent.c \
	ec/ec_cmd_keyboard.c \
	ec/ec_cmd_port80.c \
	ec/ec_cmd_rtc.c \
	ec/ec_cmd_adc_cbi.c \
	ec/ec_cmd_i2c.c \
	ec/ec_cmd_reboot.c \
	ec/ec_cmd_settings.c \
	ec/ec_cmd_pd.c \
	ec/ec_cmd_rwsig.c \
	ec/ec_cmd_fp.c \
	ec/ec_cmd_motion.c \
	ec/ec_cmd_buttons.c \
	ec/ec_cmd_chipset.c \
	ec/ec_cmd_battery.c \
	ec/ec_features.c \
	ec/sha256.c \
	ec/sha256.h \
	ec/cached_clock.c
ec_libecmodel_la_SOURCES = $(ec_model_sources)
nodist_ec_libecmodel_la_SOURCES = ec/ec_profile_builtin.c
ec_libecmodel_la_CFLAGS = $(AM_CFLAGS)
ec_libecmodel_la_LIBADD = common/libcommon.la -lm

# The built-in default profile is laptop.profile itself, turned into a C
# string at build time, so the two can never drift apart.
ec_default_profile = $(top_srcdir)/ec/profiles/laptop.profile
ec/ec_profile_builtin.c: $(ec_default_profile)
	$(AM_V_GEN)$(MKDIR_P) ec && { \
	  echo '// SPDX-License-Identifier: GPL-2.0-or-later'; \
	  echo '/* Generated from ec/profiles/laptop.profile; do not edit. */'; \
	  echo 'extern const char ec_builtin_laptop_profile[];'; \
	  echo 'const char ec_builtin_laptop_profile[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/	"/' -e 's/$$/\\n"/' \
	    $(ec_default_profile); \
	  echo ';'; \
	} > $@-t && mv -f $@-t $@
CLEANFILES += ec/ec_profile_builtin.c ec/ec_profile_builtin.c-t

profilesdir = $(pkgdatadir)/profiles
dist_profiles_DATA = \
	ec/profiles/laptop.profile \
	ec/profiles/usbc-dual.profile \
	ec/profiles/minimal.profile \
	ec/profiles/fingerprint.profile
dist_doc_DATA += docs/ec-commands.md
# The formats: board profiles (ec_profile*.c), recordings (ec_recording*.c).
dist_man_MANS += ec/cuse_ec-profile.5 ec/cuse_ec-recording.5

if ENABLE_FUZZING
# libFuzzer build: the model's sources are compiled into the target with
# the same instrumentation. Configure with CC=clang --enable-fuzzing.
noinst_PROGRAMS += fuzz/ec_fuzz
fuzz_ec_fuzz_SOURCES = fuzz/ec_fuzz.c $(ec_model_sources) $(common_libcommon_la_SOURCES)
nodist_fuzz_ec_fuzz_SOURCES = ec/ec_profile_builtin.c
fuzz_ec_fuzz_CFLAGS = $(AM_CFLAGS) -g -fsanitize=fuzzer,address,undefined
fuzz_ec_fuzz_LDFLAGS = -fsanitize=fuzzer,address,undefined
fuzz_ec_fuzz_LDADD = -lm

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
