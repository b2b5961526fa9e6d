#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The teaching lab's library (docs/design.md, "Teaching switch"), checked
# without waiting for the hang it teaches:
# 1. test_revocable_lab steps two threads on one handle through v3's
#    defect and finds the states that make a revoke hang (it fails if the
#    lab library behaves like the installed one);
# 2. the contract cases that are single-threaded (Check case
#    "single_thread" of test_contract.c) pass against the lab library, all
#    of them: the run must report as many checks as the case lists.
set -euo pipefail

builddir=${top_builddir:-.}
srcdir=${top_srcdir:-.}
lab_test=$builddir/tests/revocable/test_revocable_lab
contract=$builddir/tests/revocable/test_revocable_contract_v3bug
status=0
fail() {
	echo "FAIL: $*"
	status=1
}

for f in "$lab_test" "$contract"; do
	[ -x "$f" ] || { echo "FAIL: $f not built"; exit 1; }
done

if "$lab_test"; then
	echo "PASS: the lab library's shared-index defect, step by step"
else
	fail "$lab_test"
fi

cases=$(grep -c 'tcase_add_test(single, ' "$srcdir/tests/revocable/test_contract.c")
if out=$(CK_RUN_CASE=single_thread "$contract" 2>&1); then
	if [[ $out == *"100%: Checks: $cases, Failures: 0, Errors: 0"* ]]; then
		echo "PASS: $cases single-threaded contract cases on the lab library"
	else
		fail "the single-threaded contract cases on the lab library did not all run ($cases listed): $out"
	fi
else
	fail "single-threaded contract cases on the lab library: $out"
fi
exit "$status"
