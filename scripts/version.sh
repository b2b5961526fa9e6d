# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# not set -euo pipefail: sourced, so the caller's options apply.
#
# version.sh - what the scripts print for -V/--version, in the form the
# programs use ("PROG (PACKAGE) VERSION"), taken from AC_INIT in the
# configure.ac beside this directory so the version is written once.
# Sourced.

# cuse_ec_print_version PROG: print PROG's version line.
cuse_ec_print_version() {
	local ac fields

	ac=$(dirname "${BASH_SOURCE[0]}")/../configure.ac
	fields=$(sed -n 's/^AC_INIT(\[\([^]]*\)\], *\[\([^]]*\)\].*/\1 \2/p' "$ac")
	[[ -n $fields ]] || { echo "$1: no AC_INIT in $ac" >&2; return 1; }
	printf '%s (%s) %s\n' "$1" "${fields% *}" "${fields#* }"
}
