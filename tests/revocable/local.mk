# SPDX-License-Identifier: LGPL-2.1-or-later
#
# librevocable tests: KUnit-shaped seed tests, contract, stress, out-of-
# memory and off-path tests (Check), the ABI and man-page checks, the spin
# model, and the teaching lab's v3-bug build.

# The shared object's symbols against the version script and the header,
# and the man pages against the header and mandoc -Tlint.
dist_check_SCRIPTS += tests/revocable/abi_symbols.sh tests/revocable/man_pages.sh
EXTRA_DIST += tests/revocable/public_names.sh
TESTS += tests/revocable/abi_symbols.sh tests/revocable/man_pages.sh
# Its thread-locals reached by initial exec: no __tls_get_addr in the
# exported read side (disassembled), no dynamic TLS relocation.
dist_check_SCRIPTS += tests/revocable/tls_model.sh
TESTS += tests/revocable/tls_model.sh

# Unit tests (Check).  KUnit-shaped seed tests and the contract tests,
# built with the opt-in inline read side (REVOCABLE_INLINE), where the
# subtle steps are; the contract tests once more with the default read
# side, the exported calls (test_revocable_contract_calls).
revocable_test_cflags = $(AM_CFLAGS) $(URCU_CFLAGS) $(CHECK_CFLAGS)
revocable_test_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable \
	-I$(top_srcdir)/tests/revocable -DREVOCABLE_INLINE
revocable_test_ldadd = revocable/librevocable.la $(CHECK_LIBS)

check_PROGRAMS += tests/revocable/test_revocable_seed \
	tests/revocable/test_revocable_contract \
	tests/revocable/test_revocable_contract_calls \
	tests/revocable/test_revocable_stress \
	tests/revocable/test_revocable_nomem \
	tests/revocable/test_revocable_slot_wait \
	tests/revocable/test_revocable_offpath \
	tests/revocable/test_revocable_defects \
	tests/revocable/test_revocable_dlclose \
	tests/revocable/test_revocable_hooks \
	tests/revocable/test_revocable_gaps \
	tests/revocable/test_revocable_gaps_calls \
	tests/revocable/test_revocable_gaps_hooks
TESTS += tests/revocable/test_revocable_seed \
	tests/revocable/test_revocable_contract \
	tests/revocable/test_revocable_contract_calls \
	tests/revocable/test_revocable_stress \
	tests/revocable/test_revocable_nomem \
	tests/revocable/test_revocable_slot_wait \
	tests/revocable/test_revocable_offpath \
	tests/revocable/test_revocable_defects \
	tests/revocable/test_revocable_dlclose \
	tests/revocable/test_revocable_hooks \
	tests/revocable/test_revocable_gaps \
	tests/revocable/test_revocable_gaps_calls \
	tests/revocable/test_revocable_gaps_hooks
noinst_HEADERS += tests/revocable/kunit_shim.h tests/revocable/test_util.h

tests_revocable_test_revocable_seed_SOURCES = tests/revocable/test_seed.c
tests_revocable_test_revocable_seed_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_seed_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_seed_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_contract_SOURCES = tests/revocable/test_contract.c
tests_revocable_test_revocable_contract_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_contract_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_contract_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_contract_calls_SOURCES = tests/revocable/test_contract.c
tests_revocable_test_revocable_contract_calls_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_contract_calls_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/revocable -I$(top_srcdir)/tests/revocable
tests_revocable_test_revocable_contract_calls_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_stress_SOURCES = tests/revocable/test_stress.c
tests_revocable_test_revocable_stress_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_stress_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_stress_LDADD = $(revocable_test_ldadd)

# Embedded providers freed at once, fork(), release-callback reentrancy,
# misuse reports.
tests_revocable_test_revocable_offpath_SOURCES = tests/revocable/test_offpath.c
tests_revocable_test_revocable_offpath_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_offpath_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_offpath_LDADD = $(revocable_test_ldadd)

# Promises of revocable(3) first tested here: REVOCABLE() left by goto,
# a guard never entered, the reports on stderr, the barrier in callbacks,
# nested accesses that write neither provider nor handle; with the inline
# read side and (_calls) with the exported calls.
tests_revocable_test_revocable_gaps_SOURCES = tests/revocable/test_gaps.c
tests_revocable_test_revocable_gaps_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_gaps_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_gaps_LDADD = $(revocable_test_ldadd)

tests_revocable_test_revocable_gaps_calls_SOURCES = tests/revocable/test_gaps.c
tests_revocable_test_revocable_gaps_calls_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_gaps_calls_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/revocable -I$(top_srcdir)/tests/revocable
tests_revocable_test_revocable_gaps_calls_LDADD = $(revocable_test_ldadd)

# Issue 26's defects, each test written to fail before its fix.
tests_revocable_test_revocable_defects_SOURCES = tests/revocable/test_defects.c
tests_revocable_test_revocable_defects_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_defects_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_defects_LDADD = $(revocable_test_ldadd)

# dlclose() of the library with a registered thread alive: the test loads
# the build tree's shared object itself, so it links no librevocable.
tests_revocable_test_revocable_dlclose_SOURCES = tests/revocable/test_dlclose.c
tests_revocable_test_revocable_dlclose_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_dlclose_CPPFLAGS = $(revocable_test_cppflags) \
	-DREVOCABLE_SO='"$(abs_top_builddir)/revocable/.libs/librevocable.so"' \
	-DTLS_FILLER_SO='"$(abs_top_builddir)/tests/revocable/.libs/libtls_filler.so"'
tests_revocable_test_revocable_dlclose_LDADD = $(CHECK_LIBS) -ldl
EXTRA_tests_revocable_test_revocable_dlclose_DEPENDENCIES = \
	revocable/librevocable.la tests/revocable/libtls_filler.la
# A module with 256 bytes of initial-exec TLS, which the dlclose test loads
# first to use up glibc's static TLS surplus (cut by GLIBC_TUNABLES).
check_LTLIBRARIES += tests/revocable/libtls_filler.la
tests_revocable_libtls_filler_la_SOURCES = tests/revocable/tls_filler.c
tests_revocable_libtls_filler_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# The kernel series' v11 API (revocable_v11.h): its KUnit cases and two
# cases mixing it with the seed's names (v11_seed_side.c, a translation unit
# of its own), with the inline read side and with the calls; and the
# compile-time refusals of mixing the two APIs in one translation unit.
check_PROGRAMS += tests/revocable/test_revocable_v11 \
	tests/revocable/test_revocable_v11_calls
TESTS += tests/revocable/test_revocable_v11 \
	tests/revocable/test_revocable_v11_calls
noinst_HEADERS += tests/revocable/v11_seed_side.h
revocable_v11_test_sources = tests/revocable/test_v11.c \
	tests/revocable/v11_seed_side.c
tests_revocable_test_revocable_v11_SOURCES = $(revocable_v11_test_sources)
tests_revocable_test_revocable_v11_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_v11_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_v11_LDADD = $(revocable_test_ldadd)
tests_revocable_test_revocable_v11_calls_SOURCES = $(revocable_v11_test_sources)
tests_revocable_test_revocable_v11_calls_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_v11_calls_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/revocable -I$(top_srcdir)/tests/revocable
tests_revocable_test_revocable_v11_calls_LDADD = $(revocable_test_ldadd)
dist_check_SCRIPTS += tests/revocable/api_select.sh
TESTS += tests/revocable/api_select.sh

# The inline protocol's version (revocable.sym): one small program built
# with each read side; the library of the next protocol - the same
# sources, the version script with the node REVOCABLE_INLINE_<n> renumbered
# n+1 (derived, not kept by hand) - which must refuse the inline program at
# load time; and a stand-in for a program built against the previous
# protocol (the inline program linked against the same sources with the
# node numbered n-1), which this library must refuse.
check_PROGRAMS += tests/revocable/inline_consumer_calls \
	tests/revocable/inline_consumer_inline \
	tests/revocable/inline_consumer_forced \
	tests/revocable/inline_consumer_prev
tests_revocable_inline_consumer_calls_SOURCES = tests/revocable/inline_consumer.c
tests_revocable_inline_consumer_calls_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
tests_revocable_inline_consumer_calls_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_revocable_inline_consumer_calls_LDADD = revocable/librevocable.la
tests_revocable_inline_consumer_calls_LDFLAGS = -no-install
tests_revocable_inline_consumer_inline_SOURCES = tests/revocable/inline_consumer.c
tests_revocable_inline_consumer_inline_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable \
	-DREVOCABLE_INLINE
tests_revocable_inline_consumer_inline_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_revocable_inline_consumer_inline_LDADD = revocable/librevocable.la
tests_revocable_inline_consumer_inline_LDFLAGS = -no-install
# REVOCABLE_NO_INLINE beside REVOCABLE_INLINE: the calls again.
tests_revocable_inline_consumer_forced_SOURCES = tests/revocable/inline_consumer.c
tests_revocable_inline_consumer_forced_CPPFLAGS = $(tests_revocable_inline_consumer_inline_CPPFLAGS) \
	-DREVOCABLE_NO_INLINE
tests_revocable_inline_consumer_forced_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_revocable_inline_consumer_forced_LDADD = revocable/librevocable.la
tests_revocable_inline_consumer_forced_LDFLAGS = -no-install
tests_revocable_inline_consumer_prev_SOURCES = tests/revocable/inline_consumer.c
tests_revocable_inline_consumer_prev_CPPFLAGS = $(tests_revocable_inline_consumer_inline_CPPFLAGS)
tests_revocable_inline_consumer_prev_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_revocable_inline_consumer_prev_LDADD = tests/revocable/librevocable_prev.la
tests_revocable_inline_consumer_prev_LDFLAGS = -no-install
check_LTLIBRARIES += tests/revocable/librevocable_next.la \
	tests/revocable/librevocable_prev.la
tests_revocable_librevocable_next_la_SOURCES = $(revocable_librevocable_la_SOURCES)
tests_revocable_librevocable_next_la_CPPFLAGS = $(revocable_librevocable_la_CPPFLAGS)
tests_revocable_librevocable_next_la_CFLAGS = $(revocable_librevocable_la_CFLAGS)
tests_revocable_librevocable_next_la_LDFLAGS = -rpath /nowhere -version-info 0:0:0 \
	-Wl,--version-script=tests/revocable/next_protocol.sym
EXTRA_tests_revocable_librevocable_next_la_DEPENDENCIES = tests/revocable/next_protocol.sym
tests_revocable_librevocable_prev_la_SOURCES = $(revocable_librevocable_la_SOURCES)
tests_revocable_librevocable_prev_la_CPPFLAGS = $(revocable_librevocable_la_CPPFLAGS)
tests_revocable_librevocable_prev_la_CFLAGS = $(revocable_librevocable_la_CFLAGS)
tests_revocable_librevocable_prev_la_LDFLAGS = -rpath /nowhere -version-info 0:0:0 \
	-Wl,--version-script=tests/revocable/prev_protocol.sym
EXTRA_tests_revocable_librevocable_prev_la_DEPENDENCIES = tests/revocable/prev_protocol.sym
CLEANFILES += tests/revocable/next_protocol.sym tests/revocable/prev_protocol.sym
# The version script with the inline node renumbered by $$off (+ 1, - 1).
revocable_renumber_inline = n=$$(sed -n 's/^REVOCABLE_INLINE_\([0-9][0-9]*\) {$$/\1/p' \
	$(srcdir)/revocable/revocable.sym) && test -n "$$n" && m=$$(($$n $$off)) && \
	sed "s/REVOCABLE_INLINE_$$n\([^0-9]\|$$\)/REVOCABLE_INLINE_$$m\1/g" \
	$(srcdir)/revocable/revocable.sym > $@-t && \
	grep -q "^REVOCABLE_INLINE_$$m {" $@-t && mv $@-t $@
tests/revocable/next_protocol.sym: revocable/revocable.sym
	$(AM_V_GEN)$(MKDIR_P) tests/revocable && off='+ 1' && $(revocable_renumber_inline)
tests/revocable/prev_protocol.sym: revocable/revocable.sym
	$(AM_V_GEN)$(MKDIR_P) tests/revocable && off='- 1' && $(revocable_renumber_inline)
dist_check_SCRIPTS += tests/revocable/inline_protocol.sh
TESTS += tests/revocable/inline_protocol.sh

# Mixed builds (docs/design.md, "TSan mode"), in a ThreadSanitizer build
# only (configure's TSAN_BUILD, decided by revocable.h): mixed_build.c, a
# revoke-while-reading stress with the inline read side, compiled without
# the sanitizer flags against the TSan-built library (mixed_plain; a custom
# rule, since automake appends the configured CFLAGS to every target's),
# and with them against a plain copy of the library (mixed_tsan, linked
# against plain/librevocable.so.0, the library's sources compiled without
# them). mixed_builds.sh runs both, and shows the TSan-built library
# refusing a program that loads the TSan runtime after libc.
EXTRA_DIST += tests/revocable/mixed_build.c tests/revocable/mixed_builds.sh
if TSAN_BUILD
revocable_plain_cflags = $(filter-out -fsanitize=%,$(CFLAGS))
revocable_plain_ldflags = $(filter-out -fsanitize=%,$(LDFLAGS))
check_SCRIPTS += tests/revocable/mixed_plain
CLEANFILES += tests/revocable/mixed_plain tests/revocable/plain/librevocable.so.0
tests/revocable/mixed_plain: tests/revocable/mixed_build.c revocable/revocable.h \
		revocable/librevocable.la
	$(AM_V_CCLD)$(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) \
		--mode=link $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
		-I$(top_srcdir)/revocable -DREVOCABLE_INLINE $(AM_CFLAGS) $(URCU_CFLAGS) \
		$(revocable_plain_cflags) $(revocable_plain_ldflags) -no-install -o $@ \
		$(srcdir)/tests/revocable/mixed_build.c revocable/librevocable.la $(LIBS)
tests/revocable/plain/librevocable.so.0: $(revocable_librevocable_la_SOURCES) \
		revocable/revocable.h revocable/revocable.sym
	$(AM_V_CCLD)$(MKDIR_P) tests/revocable/plain && $(CC) $(DEFS) $(DEFAULT_INCLUDES) \
		$(AM_CPPFLAGS) $(revocable_librevocable_la_CPPFLAGS) \
		$(revocable_librevocable_la_CFLAGS) $(revocable_plain_cflags) -fPIC -shared \
		-Wl,-soname,librevocable.so.0 \
		-Wl,--version-script=$(srcdir)/revocable/revocable.sym \
		$(revocable_plain_ldflags) -o $@ $(filter %.c,$^) $(LIBS)
check_PROGRAMS += tests/revocable/mixed_tsan
tests_revocable_mixed_tsan_SOURCES = tests/revocable/mixed_build.c
tests_revocable_mixed_tsan_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable \
	-DREVOCABLE_INLINE
tests_revocable_mixed_tsan_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
tests_revocable_mixed_tsan_LDADD = tests/revocable/plain/librevocable.so.0
tests_revocable_mixed_tsan_LDFLAGS = -no-install \
	-Wl,-rpath,$(abs_top_builddir)/tests/revocable/plain
TESTS += tests/revocable/mixed_builds.sh
endif

# The protocol's Promela model, checked by spin (and its planted bugs).
dist_check_SCRIPTS += tests/revocable/spin-model.test
EXTRA_DIST += revocable/model/revocable.pml revocable/model/lifetime.pml
TESTS += tests/revocable/spin-model.test

# Memcheck over the library's thread lifetimes (main build only: not a
# unit test, so the sanitizer builds do not run it).
dist_check_SCRIPTS += tests/revocable/valgrind.test
TESTS += tests/revocable/valgrind.test
tests/revocable/valgrind.log: tests/revocable/test_revocable_contract$(EXEEXT) \
	$(revocable_examples)

# The benchmark's argument handling is tested; its figures are not.
dist_check_SCRIPTS += tests/revocable/bench_args.sh
TESTS += tests/revocable/bench_args.sh

# Out-of-memory paths: the library's sources are compiled a second time
# into the test with the allocation-failure hook (revocable_internal.h),
# so it links no librevocable and the installed library has no hook.
tests_revocable_test_revocable_nomem_SOURCES = tests/revocable/test_nomem.c \
	$(revocable_librevocable_la_SOURCES)
tests_revocable_test_revocable_nomem_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_nomem_CPPFLAGS = $(revocable_test_cppflags) \
	-DREVOCABLE_TEST_ALLOC_HOOK
tests_revocable_test_revocable_nomem_LDADD = $(CHECK_LIBS)

# Counted, not timed: the library's sources compiled into the test with
# its test-only seams (REVOCABLE_TEST_HOOKS, revocable_internal.h).
tests_revocable_test_revocable_hooks_SOURCES = tests/revocable/test_hooks.c \
	$(revocable_librevocable_la_SOURCES)
tests_revocable_test_revocable_hooks_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_hooks_CPPFLAGS = $(revocable_test_cppflags) \
	-DREVOCABLE_TEST_HOOKS
tests_revocable_test_revocable_hooks_LDADD = $(CHECK_LIBS)

# The promises of test_gaps that need the internals or the seams: fork,
# a thread exiting while a revoke waits, the records' alignment.
tests_revocable_test_revocable_gaps_hooks_SOURCES = \
	tests/revocable/test_gaps_hooks.c $(revocable_librevocable_la_SOURCES)
tests_revocable_test_revocable_gaps_hooks_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_gaps_hooks_CPPFLAGS = $(revocable_test_cppflags) \
	-DREVOCABLE_TEST_HOOKS
tests_revocable_test_revocable_gaps_hooks_LDADD = $(CHECK_LIBS)

# The C11 argument's happens-before edges (docs/design.md, "Weakly
# ordered CPUs"), one case per way a revoker sees an access end, held at
# the seam after the scan: checked by TSan in its build, by the release
# callback's view of the resource in every build.
check_PROGRAMS += tests/revocable/test_revocable_c11
TESTS += tests/revocable/test_revocable_c11
tests_revocable_test_revocable_c11_SOURCES = tests/revocable/test_c11.c \
	$(revocable_librevocable_la_SOURCES)
tests_revocable_test_revocable_c11_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_c11_CPPFLAGS = $(revocable_test_cppflags) \
	-DREVOCABLE_TEST_HOOKS
tests_revocable_test_revocable_c11_LDADD = $(CHECK_LIBS)

# The revoker's "has that access ended?" predicate at exact points of a
# reader's life: revoke.c is #included by the test (the predicate is
# static) and the other library sources are compiled into it.
tests_revocable_test_revocable_slot_wait_SOURCES = \
	tests/revocable/test_slot_wait.c revocable/reader.c revocable/refused.c \
	revocable/access.c revocable/teardown.c revocable/tsan_runtime.c \
	revocable/revocable_internal.h
tests_revocable_test_revocable_slot_wait_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_slot_wait_CPPFLAGS = $(revocable_test_cppflags)
tests_revocable_test_revocable_slot_wait_LDADD = $(CHECK_LIBS)

# The teaching lab's v3 index bug (docs/teaching.md, exercise 1): the
# library's sources with revocable/lab_v3_index_bug.c in place of
# revocable/access.c (it #includes access.c with the lab's broken read
# side), built with REVOCABLE_LAB_V3_INDEX_BUG into a library that is never
# installed, and the two tests that expose it linked against it.  They use
# the exported read side (REVOCABLE_NO_INLINE), so the bug needs no change
# to the installed header; they are built by make check, never run whole
# by it (they hang until Check's timeout, which is the point of the
# exercise): lab_v3bug.sh below runs the contract's single-thread case.
# An EXTRA_ library: built only for the programs that link it.
EXTRA_LTLIBRARIES += tests/revocable/librevocable_lab_v3bug.la
# (automake cleans no EXTRA_ library by itself; distcleancheck would see it)
CLEANFILES += tests/revocable/librevocable_lab_v3bug.la
tests_revocable_librevocable_lab_v3bug_la_SOURCES = \
	$(revocable_core_sources) revocable/lab_v3_index_bug.c
tests_revocable_librevocable_lab_v3bug_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/revocable -DREVOCABLE_LAB_V3_INDEX_BUG
tests_revocable_librevocable_lab_v3bug_la_CFLAGS = \
	$(revocable_librevocable_la_CFLAGS)
tests_revocable_librevocable_lab_v3bug_la_LIBADD =
revocable_lab_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable \
	-I$(top_srcdir)/tests/revocable -DREVOCABLE_NO_INLINE
revocable_lab_ldadd = tests/revocable/librevocable_lab_v3bug.la \
	$(CHECK_LIBS)
check_PROGRAMS += tests/revocable/test_revocable_stress_v3bug \
	tests/revocable/test_revocable_contract_v3bug
main_only_programs += tests/revocable/test_revocable_stress_v3bug
tests_revocable_test_revocable_stress_v3bug_SOURCES = tests/revocable/test_stress.c
tests_revocable_test_revocable_stress_v3bug_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_stress_v3bug_CPPFLAGS = $(revocable_lab_cppflags)
tests_revocable_test_revocable_stress_v3bug_LDADD = $(revocable_lab_ldadd)
tests_revocable_test_revocable_contract_v3bug_SOURCES = tests/revocable/test_contract.c
tests_revocable_test_revocable_contract_v3bug_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_contract_v3bug_CPPFLAGS = $(revocable_lab_cppflags)
tests_revocable_test_revocable_contract_v3bug_LDADD = $(revocable_lab_ldadd)
# What the two above would show, as states rather than hangs: test_lab
# (the lab's sources compiled in with the test-only seams) steps two
# threads through v3's defect on one handle and counts the revoke's park;
# lab_v3bug.sh runs it, and the contract cases that are single-threaded
# (their Check case "single_thread") against the lab library, which must
# pass there.
check_PROGRAMS += tests/revocable/test_revocable_lab
tests_revocable_test_revocable_lab_SOURCES = tests/revocable/test_lab.c \
	$(revocable_core_sources) revocable/lab_v3_index_bug.c
tests_revocable_test_revocable_lab_CFLAGS = $(revocable_test_cflags)
tests_revocable_test_revocable_lab_CPPFLAGS = $(revocable_lab_cppflags) \
	-DREVOCABLE_LAB_V3_INDEX_BUG -DREVOCABLE_TEST_HOOKS
tests_revocable_test_revocable_lab_LDADD = $(CHECK_LIBS)
dist_check_SCRIPTS += tests/revocable/lab_v3bug.sh
TESTS += tests/revocable/lab_v3bug.sh
