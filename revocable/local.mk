# SPDX-License-Identifier: LGPL-2.1-or-later
#
# librevocable: the installed library, its tests and its benchmark.
# Link name for other components: revocable/librevocable.la
# (with -I$(top_srcdir)/revocable and #include <revocable.h>).

lib_LTLIBRARIES += revocable/librevocable.la
include_HEADERS += revocable/revocable.h
revocable_librevocable_la_SOURCES = revocable/revocable.c
revocable_librevocable_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
revocable_librevocable_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) -pthread
revocable_librevocable_la_LIBADD = -lpthread
# Interface version current:revision:age (libtool rules, not the package's).
revocable_librevocable_la_LDFLAGS = -version-info 0:0:0

dist_man_MANS += revocable/revocable.3
EXTRA_DIST += revocable/README.md docs/design.md

# Unit tests (Check).  KUnit-shaped seed tests and the contract tests.
revocable_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS) -pthread
revocable_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable \
	-I$(top_srcdir)/tests/revocable
revocable_test_ldadd = revocable/librevocable.la $(CHECK_LIBS) -lpthread

check_PROGRAMS += tests/revocable/test_revocable_seed \
	tests/revocable/test_revocable_contract \
	tests/revocable/test_revocable_stress \
	tests/revocable/test_revocable_nomem
TESTS += tests/revocable/test_revocable_seed \
	tests/revocable/test_revocable_contract \
	tests/revocable/test_revocable_stress \
	tests/revocable/test_revocable_nomem
noinst_HEADERS += tests/revocable/kunit_shim.h tests/revocable/test_util.h

tests_revocable_test_revocable_seed_SOURCES = tests/revocable/test_seed.c
tests_revocable_test_revocable_seed_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_seed_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_seed_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_contract_SOURCES = tests/revocable/test_contract.c
tests_revocable_test_revocable_contract_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_contract_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_contract_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_stress_SOURCES = tests/revocable/test_stress.c
tests_revocable_test_revocable_stress_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_stress_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_stress_LDADD = $(revocable_test_ldadd)

# The benchmark's argument handling is tested; its figures are not.
dist_check_SCRIPTS += tests/revocable/bench_args.sh
TESTS += tests/revocable/bench_args.sh

# Out-of-memory paths: the library source is built into the test with
# failing allocators, so it links no librevocable.
tests_revocable_test_revocable_nomem_SOURCES = tests/revocable/test_nomem.c
tests_revocable_test_revocable_nomem_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_nomem_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_nomem_LDADD = $(CHECK_LIBS) -lpthread

# Benchmark: prints figures, never run as a test.
noinst_PROGRAMS += bench/revocable_bench
bench_revocable_bench_SOURCES = bench/revocable_bench.c
bench_revocable_bench_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) -O2 -pthread
bench_revocable_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
bench_revocable_bench_LDADD = revocable/librevocable.la $(URCU_LIBS) -lpthread
