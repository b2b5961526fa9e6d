# SPDX-License-Identifier: GPL-2.0-or-later
#
# The teaching lab (docs/teaching.md): its client, built by plain `make` so
# scripts/uaf-lab works on a fresh build, and the test that runs the lab.

noinst_PROGRAMS += tests/lab/uaf_lab_client
# The client reads the daemon's order with the protocol's own definition
# of the trace lines (ctl/ctl_trace.h).
tests_lab_uaf_lab_client_SOURCES = tests/lab/uaf_lab_client.c
tests_lab_uaf_lab_client_CFLAGS = $(AM_CFLAGS)
tests_lab_uaf_lab_client_LDADD = ctl/libctl.la common/libcommon.la

lab_tests = tests/lab/uaf-lab.test tests/lab/uaf-lab-args.test tests/lab/trace-timeline.test
TESTS += $(lab_tests)
dist_noinst_SCRIPTS += $(lab_tests) scripts/uaf-lab scripts/trace-timeline
dist_doc_DATA += docs/teaching.md
