#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# installcheck.sh SRCDIR EXAMPLE... - what an outside project sees of an
# installed librevocable: build each example from SRCDIR/EXAMPLE.c with
# nothing but `pkg-config --cflags --libs revocable`, check that it really
# loads the installed library, and run it.  With DESTDIR set the
# installation is looked for under it (pkg-config's sysroot).  Also checks
# that the header, pkg-config file and man pages were installed.
# Environment (from make installcheck): DESTDIR, pkgconfigdir, libdir,
# includedir, mandir, CC, CFLAGS, LDFLAGS (the build's own: a sanitized
# library needs its runtime in the program too).
# not set -euo pipefail: POSIX sh (make runs it with $(SHELL)), which has
# no pipefail; no pipe here hides a failure that matters (ldd's shows in
# its output, which is checked).
set -eu

srcdir=$1
: "${includedir:?from make installcheck}" "${pkgconfigdir:?from make installcheck}"
: "${mandir:?from make installcheck}" "${libdir:?from make installcheck}"
shift
root=${DESTDIR:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

for f in "$includedir/revocable.h" "$pkgconfigdir/revocable.pc" \
	 "$mandir/man3/revocable.3" "$mandir/man3/revocable_try_access.3" \
	 "$mandir/man3/REVOCABLE_OR_ENODEV.3"; do
	[ -f "$root$f" ] || fail "not installed: $root$f"
done

PKG_CONFIG_PATH=$root$pkgconfigdir
export PKG_CONFIG_PATH
if [ -n "$root" ]; then
	PKG_CONFIG_SYSROOT_DIR=$root
	export PKG_CONFIG_SYSROOT_DIR
fi
cflags=$(pkg-config --cflags revocable) || { echo "FAIL: pkg-config --cflags revocable"; exit 1; }
libs=$(pkg-config --libs revocable) || { echo "FAIL: pkg-config --libs revocable"; exit 1; }
echo "pkg-config --cflags --libs revocable: $cflags $libs"

for ex in "$@"; do
	# shellcheck disable=SC2086
	if ! ${CC:-cc} ${CFLAGS:-} $cflags ${LDFLAGS:-} -o "$work/$ex" "$srcdir/$ex.c" $libs; then
		fail "$ex does not build from pkg-config alone"
		continue
	fi
	# The installed library, not the build tree's or a system one.
	lib=$(LD_LIBRARY_PATH=$root$libdir ldd "$work/$ex" | awk '/librevocable/ { print $3 }')
	case $lib in
	"$root$libdir"/*) ;;
	*) fail "$ex loads librevocable from '$lib', not from $root$libdir" ;;
	esac
	if LD_LIBRARY_PATH=$root$libdir "$work/$ex" > "$work/$ex.out" 2>&1; then
		echo "PASS: $ex (built with pkg-config, run against $lib)"
	else
		cat "$work/$ex.out"
		fail "$ex exited non-zero"
	fi
done
exit $status
