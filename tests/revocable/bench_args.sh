#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# revocable_bench rejects bad arguments with a clear message and exit 2,
# and -h prints usage; no measurement is run here (figures are not tests).
set -euo pipefail
bench="${top_builddir:-.}/bench/revocable_bench"
fail=0

expect() {
	want_rc=$1
	want_text=$2
	shift 2
	rc=0
	out=$("$bench" "$@" 2>&1) || rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		echo "FAIL: revocable_bench $*: exit $rc, want $want_rc"
		fail=1
	fi
	case "$out" in
	*"$want_text"*) ;;
	*) echo "FAIL: revocable_bench $*: output lacks '$want_text': $out"; fail=1 ;;
	esac
}

expect 2 "unknown argument '--bogus'" --bogus
expect 2 "too many arguments" --quick --quick
expect 2 "unknown argument ''" ""
expect 0 "usage:" -h
expect 0 "usage:" --help
exit $fail
