# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# tests/revocable/public_names.sh - sourced by the revocable tests that hold
# every public name of revocable.h to something (man_pages.sh: a page each;
# api_select.sh: a fate under the v11 API), so both read the same list.
# not set -euo pipefail: sourced, so the caller's options apply.

# revocable_public_names HEADER: the public functions (the exported region
# between "#pragma GCC visibility push(default)" and "pop", minus the
# revocable__ internals) and the public macros (every REVOCABLE_* HEADER
# defines, minus internals and the include guard), one per line, sorted.
revocable_public_names() {
	{
		awk '/^#pragma GCC visibility push\(default\)/ { on = 1; next }
		     /^#pragma GCC visibility pop/ { on = 0 }
		     on' "$1" | grep -o '\brevocable_[a-z_]*(' | tr -d '(' | grep -v '^revocable__'
		sed -n 's/^#define \(REVOCABLE[A-Z_]*\).*/\1/p' "$1" |
			grep -v -e '^REVOCABLE__' -e '^REVOCABLE_H$'
	} | sort -u
}
