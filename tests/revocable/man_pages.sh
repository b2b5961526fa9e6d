#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# librevocable's manual: a page for every public function and macro of
# revocable.h (and none for anything else), each naming its subject, all
# clean under mandoc -Tlint, and SEE ALSO naming only pages that exist:
# ours, or the few system pages listed below (all in Debian's manpages-dev).
set -euo pipefail

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
header=$srcdir/revocable/revocable.h
main=$srcdir/revocable/revocable.3
mandir=$srcdir/revocable/man
system_pages="membarrier(2)"
status=0
fail() { echo "FAIL: $*"; status=1; }

command -v mandoc >/dev/null || { echo "SKIP: mandoc missing (apt-get install mandoc)"; exit 77; }

# shellcheck source=tests/revocable/public_names.sh
. "$srcdir/tests/revocable/public_names.sh"
public=$(revocable_public_names "$header")

for name in $public; do
	page=$mandir/$name.3
	if [ ! -f "$page" ]; then
		fail "no man page for $name (want revocable/man/$name.3)"
		continue
	fi
	sed -n '/^\.SH NAME/,/^\.SH/p' "$page" | grep "^$name \\\\-" >/dev/null ||
		fail "$page: NAME does not name $name"
	grep -q "$name" "$main" || fail "revocable(3) never mentions $name"
done
for page in "$mandir"/*.3; do
	name=$(basename "$page" .3)
	grep -qx "$name" <<<"$public" || fail "$page documents $name, which revocable.h does not make public"
done

for page in "$main" "$mandir"/*.3; do
	out=$(mandoc -Tlint -Wall "$page" 2>&1) || true
	[ -z "$out" ] || fail "mandoc -Tlint $page: $out"
	sed -n '/^\.SH SEE ALSO/,/^\.SH/p' "$page" |
		sed -n 's/^\.BR \([A-Za-z_0-9]*\) (\([0-9]\)).*/\1(\2)/p' |
		while read -r ref; do
			case $ref in
			*"(3)") [ -f "$mandir/${ref%(3)}.3" ] || [ "$ref" = "revocable(3)" ] ||
				echo "FAIL: $page: SEE ALSO $ref: no such page" ;;
			*) grep -qF " $ref " <<<" $system_pages " ||
				echo "FAIL: $page: SEE ALSO $ref is not a known system page" ;;
			esac
		done | grep . && status=1
done
[ $status -eq 0 ] && echo "PASS: $(echo "$public" | wc -l) public names, one page each, mandoc -Tlint clean"
exit $status
