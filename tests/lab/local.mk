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

lab_tests = tests/lab/uaf-lab.test tests/lab/uaf-lab-args.test tests/lab/trace-timeline.test
TESTS += $(lab_tests)
dist_noinst_SCRIPTS += $(lab_tests) scripts/uaf-lab scripts/trace-timeline
# The lab's pictures in the document, and the traces of the run that drew
# them (trace-timeline.test draws them again and compares).
lab_pictures = docs/uaf-lab-step1.svg docs/uaf-lab-step2.svg docs/uaf-lab-step3.svg \
	docs/uaf-lab-step4.svg
dist_doc_DATA += docs/teaching.md $(lab_pictures)
EXTRA_DIST += $(lab_pictures:.svg=-trace.txt)
