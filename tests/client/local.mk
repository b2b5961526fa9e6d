# SPDX-License-Identifier: GPL-2.0-or-later
#
# Client library and ecctl tests: Check unit tests against an in-process
# fake device (a canned EC, and the project's EC model), plus a script that
# runs the real ecctl binary on bad input.

client_test_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)

check_PROGRAMS += tests/client/test_client tests/client/test_client_model \
	tests/client/test_client_gone
tests_client_test_client_SOURCES = \
	tests/client/test_client.c \
	tests/client/fake_dev.c \
	tests/client/fake_dev.h
tests_client_test_client_CFLAGS = $(client_test_cflags)
tests_client_test_client_LDADD = client/libecctl.la $(CHECK_LIBS)

tests_client_test_client_model_SOURCES = \
	tests/client/test_client_model.c \
	tests/client/fake_dev.c \
	tests/client/fake_dev.h
tests_client_test_client_model_CFLAGS = $(client_test_cflags)
tests_client_test_client_model_LDADD = client/libecctl.la ec/libecmodel.la \
	$(CHECK_LIBS) -lm

tests_client_test_client_gone_SOURCES = \
	tests/client/test_client_gone.c \
	tests/client/fake_dev.c \
	tests/client/fake_dev.h
tests_client_test_client_gone_CFLAGS = $(client_test_cflags)
tests_client_test_client_gone_LDADD = client/libecclient.la $(CHECK_LIBS)

# ecctl-e2e.test and ecctl-areas.test drive the real daemon with the real
# ecctl through the device socket; their checks' half is sourced data.
client_tests = tests/client/ecctl-usage.test tests/client/ecctl-e2e.test \
	tests/client/ecctl-areas.test
# The same awkward strings through ecctl's and hotplug_sim's JSON writers,
# read back by json-c's parser.
check_PROGRAMS += tests/client/test_json_text
tests_client_test_json_text_SOURCES = \
	tests/client/test_json_text.c \
	tests/client/fake_dev.c \
	tests/client/fake_dev.h
tests_client_test_json_text_CFLAGS = $(client_test_cflags) $(JSONC_CFLAGS)
tests_client_test_json_text_LDADD = client/libecctl.la hotplug_sim/libhotplugsim.la \
	$(JSONC_LIBS) $(CHECK_LIBS)

TESTS += tests/client/test_client tests/client/test_client_model tests/client/test_json_text \
	tests/client/test_client_gone $(client_tests)
dist_noinst_SCRIPTS += $(client_tests)
EXTRA_DIST += tests/client/ecctl-e2e-guest.sh tests/client/ecctl-areas-guest.sh
