# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end tests in user-mode-linux (or on the host's /dev/cuse): a
# minimal CUSE server of our own that proves the CUSE path itself, and the
# real daemon driven through its device, its uevents and systemd-udevd.

check_PROGRAMS += tests/e2e/cuse_mini tests/e2e/cuse_mini_client
main_only_programs += tests/e2e/cuse_mini tests/e2e/cuse_mini_client

tests_e2e_cuse_mini_SOURCES = tests/e2e/cuse_mini.c tests/e2e/cuse_mini.h
tests_e2e_cuse_mini_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
tests_e2e_cuse_mini_LDADD = $(FUSE3_LIBS)

tests_e2e_cuse_mini_client_SOURCES = tests/e2e/cuse_mini_client.c \
	tests/e2e/cuse_mini.h

# The rows of docs/teaching.md's op-by-op table, against the real daemon;
# built by plain `make`, as scripts/uaf-lab runs it too.
noinst_PROGRAMS += tests/e2e/cuse_ec_fops
tests_e2e_cuse_ec_fops_SOURCES = tests/e2e/cuse_ec_fops.c
tests_e2e_cuse_ec_fops_CFLAGS = $(AM_CFLAGS) -pthread
tests_e2e_cuse_ec_fops_LDADD = ctl/libctl.la common/libcommon.la -lpthread

e2e_tests = \
	tests/e2e/cuse-mini-args.test \
	tests/e2e/cuse-mini.test \
	tests/e2e/uml-run.test \
	tests/e2e/cuse-ec.test \
	tests/e2e/cuse-ec-fops.test \
	tests/e2e/devsock-ec.test \
	tests/e2e/devsock-fops.test \
	tests/e2e/devsock-fuzz.test \
	tests/e2e/devsock-record.test \
	tests/e2e/devsock-state.test \
	tests/e2e/devsock-multi.test \
	tests/e2e/cuse-ec-udev.test \
	tests/e2e/cuse-ec-udevd.test \
	tests/e2e/ec-shell.test
TESTS += $(e2e_tests)
dist_noinst_SCRIPTS += $(e2e_tests)
guest_tests += tests/e2e/cuse-mini.test tests/e2e/uml-run.test tests/e2e/cuse-ec.test \
	tests/e2e/cuse-ec-fops.test tests/e2e/cuse-ec-udev.test tests/e2e/cuse-ec-udevd.test \
	tests/e2e/ec-shell.test

# Sourced or run by bash from the .test scripts, never executed directly.
EXTRA_DIST += \
	tests/e2e/lib.sh \
	tests/e2e/cuse-mini-guest.sh \
	tests/e2e/cuse-ec-guest.sh \
	tests/e2e/record-replay-guest.sh \
	tests/e2e/cuse-ec-fops-guest.sh \
	tests/e2e/valgrind-sites.awk \
	tests/e2e/cuse-ec-udev-guest.sh

# Hostile clients and faults: a fuzz client on the real device, every answer
# checked against the ABI, while the EC flaps; clients of a daemon that
# dies or shuts down under them; the daemon under valgrind memcheck.
check_PROGRAMS += tests/e2e/cuse_ec_fuzz
tests_e2e_cuse_ec_fuzz_SOURCES = tests/e2e/cuse_ec_fuzz.c
nodist_tests_e2e_cuse_ec_fuzz_SOURCES = tests/e2e/cros_ec_dev_syz.h
# The device's syzlang description, as the fuzz client's table of ioctls.
tests/e2e/cros_ec_dev_syz.h: $(top_srcdir)/include/cros_ec/cros_ec_dev.syz \
		$(top_srcdir)/tests/e2e/syz2h.awk
	$(AM_V_GEN)$(MKDIR_P) tests/e2e && \
	$(AWK) -f $(top_srcdir)/tests/e2e/syz2h.awk \
		$(top_srcdir)/include/cros_ec/cros_ec_dev.syz >$@.tmp && mv $@.tmp $@
BUILT_SOURCES += tests/e2e/cros_ec_dev_syz.h
CLEANFILES += tests/e2e/cros_ec_dev_syz.h
EXTRA_DIST += include/cros_ec/cros_ec_dev.syz tests/e2e/syz2h.awk
TESTS += tests/e2e/syz2h.test
dist_noinst_SCRIPTS += tests/e2e/syz2h.test
tests_e2e_cuse_ec_fuzz_LDADD = ctl/libctl.la common/libcommon.la
tests_e2e_cuse_ec_fuzz_CFLAGS = $(AM_CFLAGS)
check_PROGRAMS += tests/e2e/cuse_ec_victim
main_only_programs += tests/e2e/cuse_ec_victim
tests_e2e_cuse_ec_victim_SOURCES = tests/e2e/cuse_ec_victim.c

hostile_e2e_tests = \
	tests/e2e/cuse-ec-fuzz-args.test \
	tests/e2e/soak-args.test \
	tests/e2e/cuse-ec-fuzz.test \
	tests/e2e/cuse-ec-death.test \
	tests/e2e/cuse-ec-valgrind.test \
	tests/e2e/cuse-ec-user.test \
	tests/e2e/cuse-ec-claim.test \
	tests/e2e/cuse-ec-multi.test
TESTS += $(hostile_e2e_tests)
dist_noinst_SCRIPTS += $(hostile_e2e_tests)
guest_tests += tests/e2e/cuse-ec-fuzz.test tests/e2e/cuse-ec-death.test \
	tests/e2e/cuse-ec-user.test tests/e2e/cuse-ec-claim.test tests/e2e/cuse-ec-multi.test
EXTRA_DIST += tests/e2e/cuse-ec-fuzz-guest.sh tests/e2e/cuse-ec-death-guest.sh \
	tests/e2e/cuse-ec-valgrind-guest.sh tests/e2e/cuse-ec-user-guest.sh \
	tests/e2e/cuse-ec-claim-guest.sh tests/e2e/cuse-ec-multi-guest.sh
dist_doc_DATA += docs/device-abi.md
