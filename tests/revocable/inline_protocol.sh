#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The inline read side's protocol is versioned (revocable/revocable.sym):
# - a program built with the default read side imports no library
#   internal (revocable__*), only the API of node REVOCABLE_1, and calls
#   the read side through its GOT, not a PLT stub (noplt);
# - one built with REVOCABLE_INLINE imports the internals it inlines, each
#   under this protocol's node, REVOCABLE_INLINE_<n> (read from
#   revocable.sym); with REVOCABLE_NO_INLINE defined too, it imports what
#   the default program imports (the calls);
# - against a library of the next inline protocol (the same sources, the
#   node renumbered n+1, put where the loader looks first for
#   librevocable.so.0), the inline program is refused at load time with the
#   loader's "version ... not found" and never runs, while the default
#   program runs as before;
# - a program built against the previous protocol (a stand-in: the inline
#   program linked against the same sources with the node numbered n-1,
#   as a program built with the old header imports it) is refused by this
#   library the same way: an old inline binary fails to load instead of
#   running its old protocol against this one.
set -euo pipefail

builddir=${top_builddir:-.}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
calls=$builddir/tests/revocable/inline_consumer_calls
inline=$builddir/tests/revocable/inline_consumer_inline
forced=$builddir/tests/revocable/inline_consumer_forced
prev_inline=$builddir/tests/revocable/inline_consumer_prev
next=$builddir/tests/revocable/.libs/librevocable_next.so.0
this=$builddir/revocable/.libs/librevocable.so.0
command -v readelf >/dev/null || { echo "SKIP: readelf missing (binutils)"; exit 77; }
n=$(sed -n 's/^REVOCABLE_INLINE_\([0-9][0-9]*\) {$/\1/p' "$srcdir/revocable/revocable.sym")
[[ $n =~ ^[0-9]+$ ]] || { echo "FAIL: no REVOCABLE_INLINE_<n> node in $srcdir/revocable/revocable.sym"; exit 1; }
node=REVOCABLE_INLINE_$n
next_node=REVOCABLE_INLINE_$((n + 1))
prev_node=REVOCABLE_INLINE_$((n - 1))
for f in "$calls" "$inline" "$prev_inline" "$next" "$this"; do
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
grep -q "^revocable__tls_reader@$node\$" "$tmp/inline" ||
	fail "the inline program does not import revocable__tls_reader@$node: $(tr '\n' ' ' <"$tmp/inline")"
grep '^revocable__' "$tmp/inline" | grep -v -q "@$node\$" &&
	fail "an internal imported outside $node: $(tr '\n' ' ' <"$tmp/inline")"
imports "$forced" >"$tmp/forced"
cmp -s "$tmp/calls" "$tmp/forced" ||
	fail "REVOCABLE_NO_INLINE beside REVOCABLE_INLINE does not give the calls: $(tr '\n' ' ' <"$tmp/forced")"
imports "$prev_inline" >"$tmp/prev"
grep -q "^revocable__tls_reader@$prev_node\$" "$tmp/prev" ||
	fail "the previous protocol's stand-in does not import revocable__tls_reader@$prev_node: $(tr '\n' ' ' <"$tmp/prev")"

# The default program calls the read side through its GOT, not a PLT stub
# (revocable.h declares the calls noplt, a GCC attribute: a program built
# by another compiler is not checked).
if readelf -p .comment "$calls" 2>/dev/null | grep -q 'GCC:' &&
	! readelf -p .comment "$calls" 2>/dev/null | grep -qi clang; then
	relocs=$(readelf -r -W "$calls")
	for fn in revocable_try_access revocable_release; do
		grep -q "JUMP_SLO.* $fn@" <<<"$relocs" &&
			fail "the default program calls $fn through the PLT"
		grep -q "GLOB_DAT.* $fn@" <<<"$relocs" ||
			fail "the default program has no GOT entry for $fn"
	done
fi

# Both run against this build's library (their RUNPATH).
for prog in "$calls" "$inline"; do
	out=$("$prog" 2>&1) || fail "${prog##*/} against this library: $out"
done

# The next protocol's library where the loader looks first.
# Read whole before the match: `grep -q` ends at the first line, and under
# pipefail readelf's SIGPIPE then failed the check now and then.
syms=$(readelf --dyn-syms -W "$next")
[[ $syms == *@@$next_node* ]] ||
	fail "$next does not define the node $next_node"
cp "$next" "$tmp/librevocable.so.0"
out=$(LD_LIBRARY_PATH=$tmp "$calls" 2>&1) ||
	fail "the default program refused by the next protocol's library: $out"
rc=0
out=$(LD_LIBRARY_PATH=$tmp "$inline" 2>&1) || rc=$?
if [ "$rc" -eq 0 ]; then
	fail "the inline program ran against the next protocol's library: $out"
elif ! grep -q "version \`$node' not found" <<<"$out"; then
	fail "the inline program failed for another reason (status $rc): $out"
fi

# The previous protocol's program against this library (under the file
# name it was linked with).
mkdir "$tmp/this"
cp "$this" "$tmp/this/librevocable_prev.so.0"
rc=0
out=$(LD_LIBRARY_PATH=$tmp/this "$prev_inline" 2>&1) || rc=$?
if [ "$rc" -eq 0 ]; then
	fail "a program of the previous protocol ($prev_node) ran against this library: $out"
elif ! grep -q "version \`$prev_node' not found" <<<"$out"; then
	fail "the previous protocol's program failed for another reason (status $rc): $out"
fi
[ $status -eq 0 ] && echo "PASS: default program imports REVOCABLE_1 only and runs against the next protocol, as does one built with REVOCABLE_INLINE and REVOCABLE_NO_INLINE; the inline program imports $node and is refused by the next protocol's library at load time; a program of $prev_node is refused by this one"
exit $status
