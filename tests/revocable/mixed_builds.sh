#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Mixed ThreadSanitizer builds (docs/design.md, "TSan mode"); run in a TSan
# build only (tests/revocable/local.mk), where
# - mixed_plain is mixed_build.c compiled and linked without the sanitizer
#   flags, with the inline read side, against the TSan-built library;
# - mixed_tsan is the same source built with them against
#   plain/librevocable.so.0, the library compiled without them.
# Checked:
# 1. each program and library is what its name says (TSan references or
#    none), so the mixes below are real;
# 2. mixed_plain started as it is built - libtsan loaded after libc, as a
#    dependency of the library - is refused at load time with a message
#    naming the remedy (exit 127), rather than crashing in its first
#    thread;
# 3. mixed_plain with the TSan runtime loaded first (LD_PRELOAD, the
#    remedy): the revoke-while-reading stress finds no use after revoke;
# 4. mixed_tsan, the reverse mix, likewise (under the caller's
#    TSAN_OPTIONS: scripts/check halts on any report).
set -euo pipefail

builddir=${top_builddir:-.}
tsan_so=$builddir/revocable/.libs/librevocable.so
plain_so=$builddir/tests/revocable/plain/librevocable.so.0
plain_prog=$builddir/tests/revocable/mixed_plain
tsan_prog=$builddir/tests/revocable/mixed_tsan
# Rounds of each stress: a few CPU-seconds in all (the TSan stage's time).
rounds=150

status=0
fail() {
	echo "FAIL: $*"
	status=1
}

command -v nm >/dev/null || { echo "FAIL: nm missing (binutils)"; exit 1; }
for f in "$tsan_so" "$plain_so" "$plain_prog" "$tsan_prog"; do
	[ -f "$f" ] || { echo "FAIL: $f not built"; exit 1; }
done

# Instrumented code calls the runtime's __tsan_* functions.  Read whole
# before matching (grep -q would close the pipe under pipefail).
tsan_refs() {
	local syms

	syms=$(nm -D --undefined-only "$1")
	[[ $syms == *__tsan_func_entry* ]]
}
tsan_refs "$tsan_so" || fail "$tsan_so is not instrumented by TSan"
tsan_refs "$tsan_prog" || fail "$tsan_prog is not instrumented by TSan"
! tsan_refs "$plain_so" || fail "$plain_so is instrumented by TSan"
! tsan_refs "$plain_prog" || fail "$plain_prog is instrumented by TSan"

runtime=$(ldd "$tsan_so")
runtime=$(sed -n 's/^[[:space:]]*libtsan[^ ]* => \([^ ]*\) .*/\1/p' <<<"$runtime")
[ -n "$runtime" ] || { echo "FAIL: $tsan_so names no libtsan it loads"; exit 1; }

# 2. The runtime after libc: refused at load time.
if out=$("$plain_prog" "$rounds" 2>&1); then
	code=0
else
	code=$?
fi
if [ "$code" -ne 127 ] || [[ $out != *"librevocable: built with ThreadSanitizer, but "*" was loaded after libc"*"LD_PRELOAD="* ]]; then
	fail "a plain program with the TSan runtime loaded late: exit $code, not 127 with the refusal: $out"
else
	echo "PASS: refused at load: ${out%%:*}: ... (exit 127)"
fi

# Bad arguments: a usage message and exit 2, no run.
bad_args() {
	local out code

	if out=$("$tsan_prog" "$@" 2>&1); then
		code=0
	else
		code=$?
	fi
	if [ "$code" -ne 2 ] || [[ $out != usage:* ]]; then
		fail "mixed_build $*: exit $code, not 2 with its usage: $out"
	fi
}
for arg in 0 abc 5x -3 "" 100001 " 7"; do
	bad_args "$arg"
done
bad_args 1 2

# 3. and 4.: the two mixes, each a stress that must find no use after revoke.
if out=$(LD_PRELOAD=$runtime "$plain_prog" "$rounds" 2>&1); then
	echo "PASS: plain program, inline read side, TSan-built library: $out"
else
	fail "plain program, inline read side, TSan-built library (exit $?): $out"
fi
if out=$("$tsan_prog" "$rounds" 2>&1); then
	echo "PASS: TSan program, inline read side, plain library: $out"
else
	fail "TSan program, inline read side, plain library (exit $?): $out"
fi
exit "$status"
