# SPDX-License-Identifier: GPL-2.0-or-later
#
# The teaching lab (docs/teaching.md): its client, built by plain `make` so
# scripts/uaf-lab works on a fresh build, and the test that runs the lab.

noinst_PROGRAMS += tests/lab/uaf_lab_client
# The trace's parser is compiled in: the client reads the daemon's order
# with the daemon's own definition of the text.
tests_lab_uaf_lab_client_SOURCES = tests/lab/uaf_lab_client.c cuse_ec/chardev_trace.c
tests_lab_uaf_lab_client_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/cuse_ec
tests_lab_uaf_lab_client_CFLAGS = $(AM_CFLAGS)

lab_tests = tests/lab/uaf-lab.test tests/lab/uaf-lab-args.test
TESTS += $(lab_tests)
dist_noinst_SCRIPTS += $(lab_tests) scripts/uaf-lab
dist_doc_DATA += docs/teaching.md
