# SPDX-License-Identifier: GPL-2.0-or-later
#
# The teaching lab (docs/teaching.md): its client, built by plain `make` so
# scripts/uaf-lab works on a fresh build, and the test that runs the lab.

noinst_PROGRAMS += tests/lab/uaf_lab_client
# The client reads the daemon's order with the protocol's own definition
# of the trace lines (ctl/ctl_trace.h).
tests_lab_uaf_lab_client_SOURCES = tests/lab/uaf_lab_client.c tests/lab/lab_ctl.c tests/lab/lab_ctl.h
tests_lab_uaf_lab_client_CFLAGS = $(AM_CFLAGS)
tests_lab_uaf_lab_client_LDADD = ctl/libctl.la common/libcommon.la
# Step 5's client: one file, two threads, a revoke that never completes.
noinst_PROGRAMS += tests/lab/uaf_lab_v3_client
tests_lab_uaf_lab_v3_client_SOURCES = tests/lab/uaf_lab_v3_client.c tests/lab/lab_ctl.c \
	tests/lab/lab_ctl.h
tests_lab_uaf_lab_v3_client_CFLAGS = $(AM_CFLAGS)
tests_lab_uaf_lab_v3_client_LDADD = ctl/libctl.la common/libcommon.la

lab_tests = tests/lab/uaf-lab.test tests/lab/uaf-lab-args.test tests/lab/trace-timeline.test
TESTS += $(lab_tests)
guest_tests += tests/lab/uaf-lab.test
dist_noinst_SCRIPTS += $(lab_tests) scripts/uaf-lab scripts/trace-timeline
# The lab's pictures in the document, and the traces of the run that drew
# them (trace-timeline.test draws them again and compares).
lab_pictures = docs/uaf-lab-step1.svg docs/uaf-lab-step2.svg docs/uaf-lab-step3.svg \
	docs/uaf-lab-step4.svg docs/uaf-lab-step5.svg
dist_doc_DATA += docs/teaching.md $(lab_pictures)
EXTRA_DIST += $(lab_pictures:.svg=-trace.txt)

# Step 5: the daemon as it would be on the v3 series as posted.  The
# daemon's own sources compiled again, with REVOCABLE_NO_INLINE so that
# every access goes through the library's exported read side, and linked
# against the lab's v3-bug library (tests/revocable/local.mk) instead of
# librevocable.  Built by make check and by scripts/uaf-lab (which names
# it), never installed.
check_PROGRAMS += tests/lab/cuse_ec_v3bug
main_only_programs += tests/lab/cuse_ec_v3bug
tests_lab_cuse_ec_v3bug_SOURCES = $(cuse_ec_cuse_ec_SOURCES) \
	$(cuse_ec_libcuse_ec_daemon_la_SOURCES)
tests_lab_cuse_ec_v3bug_CPPFLAGS = $(daemon_cppflags) -DREVOCABLE_NO_INLINE
tests_lab_cuse_ec_v3bug_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS) $(UDEV_CFLAGS)
tests_lab_cuse_ec_v3bug_LDADD = ctl/libctl.la devsock/libdevsock.la common/libcommon.la \
	ec/libecmodel.la tests/revocable/librevocable_lab_v3bug.la \
	$(URCU_LIBS) $(UDEV_LIBS) $(FUSE3_LIBS)

# Exercise 5: attach after revoke, the merged series' way and
# librevocable's, each run under valgrind by attach-after-revoke.test.
# -no-install: a real binary, not a libtool wrapper, for valgrind to run.
check_PROGRAMS += tests/lab/attach_after_revoke
main_only_programs += tests/lab/attach_after_revoke
tests_lab_attach_after_revoke_SOURCES = tests/lab/attach_after_revoke.c
tests_lab_attach_after_revoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
# No sibling calls: the free'd stack keeps lab_v7_revoke() (a tail call
# would leave only its caller).
tests_lab_attach_after_revoke_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) -fno-optimize-sibling-calls
tests_lab_attach_after_revoke_LDFLAGS = -no-install
tests_lab_attach_after_revoke_LDADD = revocable/librevocable.la $(URCU_LIBS)
dist_check_SCRIPTS += tests/lab/attach-after-revoke.test
TESTS += tests/lab/attach-after-revoke.test
