#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# librevocable's ABI, three ways: the dynamic symbols the shared object
# defines, the global list of the version script, and what revocable.h
# declares between its "#pragma GCC visibility push(default)" and "pop".
# Fails on any difference, and on an API symbol outside the version node
# REVOCABLE_1 or an internal of the inline read side (revocable__*) outside
# REVOCABLE_INLINE_2.
set -euo pipefail

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-.}
so=$builddir/revocable/.libs/librevocable.so
script=$srcdir/revocable/revocable.sym
header=$srcdir/revocable/revocable.h
api_node=REVOCABLE_1
inline_node=REVOCABLE_INLINE_2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v readelf >/dev/null || { echo "SKIP: readelf missing (binutils)"; exit 77; }
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }

# Defined dynamic symbols as name@@VERSION (unversioned ones bare); the
# nodes' own ABS symbols are not interfaces.
readelf --dyn-syms -W "$so" |
	awk '$7 != "UND" && $8 != "" && $1 ~ /^[0-9]+:$/ { print $8 }' |
	grep -v -x -e "$api_node" -e "$api_node@@$api_node" \
		-e "$inline_node" -e "$inline_node@@$inline_node" | sort -u > "$tmp/so.versioned"
sed 's/@.*//' "$tmp/so.versioned" | sort -u > "$tmp/so"

# The version script's global: lists of both nodes.
sed -e 's|/\*.*\*/||g' -e '/\/\*/,/\*\//d' "$script" |
	awk -v api="$api_node" -v inl="$inline_node" '
		($1 == api || $1 == inl) && $2 == "{" { in_node = 1; next }
		in_node && /^}/ { in_node = 0 }
		in_node && /^[ \t]*global:/ { global = 1; next }
		in_node && /^[ \t]*local:/ { global = 0; next }
		in_node && global { gsub(/[ \t;]/, ""); if ($0 != "") print }
	' | sort -u > "$tmp/script"

# The header's exported declarations: join each pragma region, drop
# comments, split on ';' and take the declared name (the identifier before
# the first '(' of a function, the last identifier of a variable).
awk '
	/^#pragma GCC visibility push\(default\)/ { on = 1; next }
	/^#pragma GCC visibility pop/ { on = 0 }
	on { printf "%s ", $0 }
' "$header" | sed -e 's|/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/||g' | tr ';' '\n' |
	while read -r decl; do
		[ -n "$decl" ] || continue
		case $decl in
		*'('*) decl=${decl%%(*} ;;
		esac
		decl=${decl%"${decl##*[A-Za-z0-9_]}"}
		echo "${decl##*[!A-Za-z0-9_]}"
	done | sort -u > "$tmp/header"

status=0
compare() {
	local a=$1 b=$2
	if ! diff -u --label "$a" --label "$b" "$tmp/$a" "$tmp/$b"; then
		echo "FAIL: the symbols of $a and $b differ (lines above)"
		status=1
	fi
}
compare script so
compare header so
compare header script
# Each symbol in its node: the internals of the inline read side in the
# inline protocol's, everything else in the API's.
misplaced=$(awk -F'@@' -v api="$api_node" -v inl="$inline_node" '
	$1 ~ /^revocable__/ { if ($2 != inl) print $0 " (want " inl ")"; next }
	{ if ($2 != api) print $0 " (want " api ")" }' "$tmp/so.versioned")
if [ -n "$misplaced" ]; then
	echo "FAIL: exported in the wrong version node: ${misplaced//$'\n'/; }"
	status=1
fi
[ -s "$tmp/so" ] || { echo "FAIL: no exported symbol found in $so"; status=1; }
[ $status -eq 0 ] && echo "PASS: $(wc -l < "$tmp/so") symbols in $api_node and $inline_node, match revocable.sym and revocable.h"
exit $status
