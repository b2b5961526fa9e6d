#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# librevocable reaches its thread-locals without __tls_get_addr (issue 26:
# every exported try_access/release paid one):
# - the exported read side (revocable_try_access, revocable_release,
#   revocable_guard_enter, revocable_guard_exit), disassembled, calls no
#   __tls_get_addr;
# - no dynamic TLS relocation at all (DTPMOD/DTPOFF: the general- and
#   local-dynamic models; TLSDESC: descriptors): every thread-local of the
#   library is reached by initial exec, which the DF_STATIC_TLS flag says;
# - its TLS block stays small, since a dlopen()ed copy takes it from the
#   static TLS surplus that glibc shares among all such libraries
#   (revocable/local.mk; test_revocable_dlclose dlopens the library).
set -euo pipefail

builddir=${top_builddir:-.}
so=$builddir/revocable/.libs/librevocable.so
# Bytes of static TLS a dlopen()ed copy may take: well under the 1152
# glibc reserves for all initial-exec libraries loaded that way.
tls_max=512
exported="revocable_try_access revocable_release revocable_guard_enter revocable_guard_exit"

for tool in objdump readelf; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool missing (binutils)"; exit 77; }
done
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

# Read whole before matching (see inline_protocol.sh: grep -q and pipefail).
disasm=$(objdump -d --no-show-raw-insn "$so")
for fn in $exported; do
	body=$(awk -v fn="$fn" '
		$2 == "<" fn ">:" { on = 1; next }
		on && /^$/ { exit }
		on { print }' <<<"$disasm")
	if [ -z "$body" ]; then
		fail "$fn not found in the disassembly of $so"
	elif [[ $body == *__tls_get_addr* ]]; then
		fail "$fn calls __tls_get_addr: $(grep -m1 __tls_get_addr <<<"$body")"
	fi
done

relocs=$(readelf -rW "$so")
dynamic=$(grep -E 'R_[A-Z0-9_]+_(DTPMOD|DTPOFF|TLSDESC)' <<<"$relocs" || true)
[ -z "$dynamic" ] ||
	fail "dynamic TLS relocations (a thread-local not reached by initial exec): ${dynamic//$'\n'/; }"
[[ $(readelf -dW "$so") == *STATIC_TLS* ]] ||
	fail "$so lacks the DF_STATIC_TLS flag that initial-exec TLS sets"

# The segment's size in memory (MemSiz, hex), made a number by bash.
tls_size=$(readelf -lW "$so" | awk '$1 == "TLS" { print $6 }')
[ -z "$tls_size" ] || tls_size=$((tls_size))
if [ -z "$tls_size" ]; then
	fail "no TLS segment in $so"
elif [ "$tls_size" -gt "$tls_max" ]; then
	fail "TLS block of $tls_size bytes, more than $tls_max of static TLS for a dlopen()ed copy"
fi
[ $status -eq 0 ] && echo "PASS: $exported call no __tls_get_addr; every thread-local is initial-exec; TLS block $tls_size bytes (<= $tls_max)"
exit $status
