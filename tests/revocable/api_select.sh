#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One API per translation unit (revocable_v11.h, revocable(3) "THE V11
# API"): small programs compiled with $CC, the wrong ones expected to stop
# with the header's own message.
# - a program with v11's names and one with the seed's compile (with and
#   without REVOCABLE_INLINE), the v11 one inline with REVOCABLE_INLINE;
# - both headers in one translation unit, in either order: #error;
# - seed calls of the names v11 reuses (revocable_alloc(), revocable_init(),
#   revocable_try_access()) in a v11 translation unit: compile-time error;
# - every other public name of revocable.h, derived from the header as
#   man_pages.sh does, in a v11 translation unit: poisoned, unless it is
#   one of the extensions v11 has no name for, which compile.
set -euo pipefail

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
header=$srcdir/revocable/revocable.h
cc=${CC:-cc}
read -r -a cflags <<<"-Wall -I$srcdir/revocable $(pkg-config --cflags liburcu 2>/dev/null || true)"
# revocable.h's names that stay usable in a v11 translation unit, and the
# ones v11 gives another meaning (checked by the calls further down).
kept="revocable_provider_set_release revocable_provider_revoke_async
revocable_provider_is_revoked revocable_barrier REVOCABLE_READER_SLOTS"
reused="revocable_alloc revocable_init revocable_try_access"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
checked=0
fail() { echo "FAIL: $*"; status=1; }

command -v "$cc" >/dev/null || { echo "SKIP: no C compiler ($cc)"; exit 77; }

# compile WHAT WANT [CFLAG...] < program: WANT is "ok" or the text the
# compiler's error must contain.
compile() {
	local what=$1 want=$2 out
	shift 2
	cat >"$tmp/t.c"
	checked=$((checked + 1))
	if out=$("$cc" -fsyntax-only "${cflags[@]}" "$@" "$tmp/t.c" 2>&1); then
		[ "$want" = ok ] || fail "$what: compiled; want an error with '$want'"
		return 0
	fi
	if [ "$want" = ok ]; then
		fail "$what: does not compile: $out"
	elif ! grep -qF -- "$want" <<<"$out"; then
		fail "$what: an error, but not '$want': $out"
	fi
}

v11_program='#include <revocable_v11.h>
static int use(struct revocable *rev)
{
	void *res;

	revocable_try_access_or_return(rev, res);
	return 0;
}
int main(void)
{
	struct revocable *rev = revocable_alloc((void *)1);
	struct revocable embedded;
	struct revocable_handle rh;
	void *res;

	if (!rev || revocable_init(&embedded, (void *)2))
		return 1;
	revocable_handle_init(rev, &rh);
	res = revocable_try_access(&rh);
	revocable_withdraw_access(&rh);
	revocable_handle_deinit(&rh);
	revocable_try_access_or_skip_scoped(rev, res)
		(void)res;
	revocable_provider_set_release(revocable_to_provider(rev), 0, 0);
	revocable_revoke(rev);
	revocable_put(rev);
	revocable_revoke(&embedded);
	revocable_put(&embedded);
	return use(rev);
}'
seed_program='#include <revocable.h>
int main(void)
{
	struct revocable_provider *rp = revocable_provider_alloc((void *)1);
	struct revocable *rev = revocable_alloc(rp);
	void *res = revocable_try_access(rev);

	revocable_release(rev);
	REVOCABLE(rev, res)
		(void)res;
	revocable_free(rev);
	revocable_provider_free(rp);
	return 0;
}'
for mode in "" -DREVOCABLE_INLINE; do
	compile "v11 program ${mode:-calls}" ok $mode <<<"$v11_program"
	compile "seed program ${mode:-calls}" ok $mode <<<"$seed_program"
done

# With REVOCABLE_INLINE a v11 unit's accesses are the inline read side:
# no call of the exported revocable_try_access(), the slow path's entry
# instead; without it, the call.
if command -v nm >/dev/null; then
	printf '%s\n' "$v11_program" >"$tmp/v11.c"
	for mode in "" -DREVOCABLE_INLINE; do
		checked=$((checked + 1))
		"$cc" -O2 -c "${cflags[@]}" $mode -o "$tmp/v11.o" "$tmp/v11.c"
		calls=$(nm -u "$tmp/v11.o" | awk '{ print $2 }')
		if [ -n "$mode" ]; then
			grep -qx revocable_try_access <<<"$calls" &&
				fail "v11 unit with REVOCABLE_INLINE calls revocable_try_access()"
			grep -qx revocable__try_access_slow <<<"$calls" ||
				fail "v11 unit with REVOCABLE_INLINE has no inline read side"
		else
			grep -qx revocable_try_access <<<"$calls" ||
				fail "v11 unit without REVOCABLE_INLINE does not call revocable_try_access()"
		fi
	done
fi

compile "revocable.h then revocable_v11.h" "revocable_v11.h after revocable.h" <<'EOF'
#include <revocable.h>
#include <revocable_v11.h>
EOF
compile "revocable_v11.h then revocable.h" "revocable.h after revocable_v11.h" <<'EOF'
#include <revocable_v11.h>
#include <revocable.h>
EOF

# The seed's calls of the names v11 reuses, left in a v11 translation unit.
for mode in "" -DREVOCABLE_INLINE; do
	compile "seed revocable_alloc(rp) in v11 ${mode:-calls}" \
		"revocable_alloc() takes the resource, not a provider" $mode <<'EOF'
#include <revocable_v11.h>
struct revocable *attach(struct revocable_provider *rp)
{
	return revocable_alloc(rp);
}
EOF
	compile "seed revocable_init(rev, rp) in v11 ${mode:-calls}" \
		"revocable_init() takes the resource, not a provider" $mode <<'EOF'
#include <revocable_v11.h>
void attach(struct revocable *rev, struct revocable_provider *rp)
{
	revocable_init(rev, rp);
}
EOF
	compile "revocable_init() of a handle in v11 ${mode:-calls}" \
		"revocable_init() sets up a provider" $mode <<'EOF'
#include <revocable_v11.h>
void attach(struct revocable_handle *rh, void *res)
{
	revocable_init(rh, res);
}
EOF
	compile "seed revocable_try_access(rev) in v11 ${mode:-calls}" \
		"revocable_try_access() takes a struct revocable_handle *" $mode <<'EOF'
#include <revocable_v11.h>
void *read_it(struct revocable *rev)
{
	return revocable_try_access(rev);
}
EOF
done
compile "struct revocable_guard in v11" poisoned <<'EOF'
#include <revocable_v11.h>
struct revocable_guard guard;
EOF

# Every other public name of revocable.h in a v11 translation unit.
# shellcheck source=tests/revocable/public_names.sh
. "$srcdir/tests/revocable/public_names.sh"
public=$(revocable_public_names "$header")
[ "$(wc -w <<<"$public")" -ge 20 ] || fail "found only $(wc -w <<<"$public") public names in $header"
for name in $public; do
	grep -qw -- "$name" <<<"$reused" && continue
	if grep -qw -- "$name" <<<"$kept"; then
		want=ok
	else
		want=poisoned
	fi
	compile "$name in a v11 translation unit" "$want" <<EOF
#include <revocable_v11.h>
int main(void)
{
	(void)($name);
	return 0;
}
EOF
done

[ $status -eq 0 ] && echo "PASS: $checked programs, each compiled or refused as the API selection says"
exit $status
