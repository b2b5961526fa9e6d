#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The inline read side's protocol is versioned (revocable/revocable.sym):
# - a program built with the default read side imports no library
#   internal (revocable__*), only the API of node REVOCABLE_1;
# - one built with REVOCABLE_INLINE imports the internals it inlines, each
#   under REVOCABLE_INLINE_1;
# - against a library of the next inline protocol (the same sources, the
#   node renamed REVOCABLE_INLINE_2, put where the loader looks first for
#   librevocable.so.0), the inline program is refused at load time with the
#   loader's "version ... not found" and never runs, while the default
#   program runs as before.
set -euo pipefail

builddir=${top_builddir:-.}
calls=$builddir/tests/revocable/inline_consumer_calls
inline=$builddir/tests/revocable/inline_consumer_inline
next=$builddir/tests/revocable/.libs/librevocable_next.so.0
command -v readelf >/dev/null || { echo "SKIP: readelf missing (binutils)"; exit 77; }
for f in "$calls" "$inline" "$next"; do
	[ -e "$f" ] || { echo "FAIL: $f not built (make check builds it)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

fail() {
	echo "FAIL: $*"
	status=1
}

# The undefined dynamic symbols of a program, as name@VERSION.
imports() {
	readelf --dyn-syms -W "$1" | awk '$7 == "UND" && $8 ~ /^revocable/ { print $8 }' | sort
}

imports "$calls" >"$tmp/calls"
imports "$inline" >"$tmp/inline"
grep -q '^revocable__' "$tmp/calls" &&
	fail "the default program imports internals: $(grep '^revocable__' "$tmp/calls" | tr '\n' ' ')"
grep -v -q '@REVOCABLE_1$' "$tmp/calls" &&
	fail "the default program imports outside REVOCABLE_1: $(grep -v '@REVOCABLE_1$' "$tmp/calls" | tr '\n' ' ')"
grep -q '^revocable__tls_reader@REVOCABLE_INLINE_1$' "$tmp/inline" ||
	fail "the inline program does not import revocable__tls_reader@REVOCABLE_INLINE_1: $(tr '\n' ' ' <"$tmp/inline")"
grep '^revocable__' "$tmp/inline" | grep -v -q '@REVOCABLE_INLINE_1$' &&
	fail "an internal imported outside REVOCABLE_INLINE_1: $(tr '\n' ' ' <"$tmp/inline")"

# Both run against this build's library (their RUNPATH).
for prog in "$calls" "$inline"; do
	out=$("$prog" 2>&1) || fail "${prog##*/} against this library: $out"
done

# The next protocol's library where the loader looks first.
# Read whole before the match: `grep -q` ends at the first line, and under
# pipefail readelf's SIGPIPE then failed the check now and then.
syms=$(readelf --dyn-syms -W "$next")
[[ $syms == *@@REVOCABLE_INLINE_2* ]] ||
	fail "$next does not define the node REVOCABLE_INLINE_2"
cp "$next" "$tmp/librevocable.so.0"
out=$(LD_LIBRARY_PATH=$tmp "$calls" 2>&1) ||
	fail "the default program refused by the next protocol's library: $out"
rc=0
out=$(LD_LIBRARY_PATH=$tmp "$inline" 2>&1) || rc=$?
if [ "$rc" -eq 0 ]; then
	fail "the inline program ran against the next protocol's library: $out"
elif ! grep -q "version \`REVOCABLE_INLINE_1' not found" <<<"$out"; then
	fail "the inline program failed for another reason (status $rc): $out"
fi
[ $status -eq 0 ] && echo "PASS: default program imports REVOCABLE_1 only and runs against the next protocol; the inline program imports REVOCABLE_INLINE_1 and is refused by it at load time"
exit $status
