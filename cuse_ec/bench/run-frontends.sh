#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-frontends.sh - what a client pays per XCMD on each way to the EC:
# a direct in-process call into the EC model, the preload library and the
# device socket (cuse_ec --socket-dir, on this host), and the CUSE node (in
# user-mode-linux where the host has no /dev/cuse); and under the socket
# path its floor, a bare request/answer between two threads over the same
# kind of socket. One client thread, HELLO, the median of 7 rounds each;
# printed as us per op and as ratios, with PASS/FAIL of the preload's
# figures against their targets. A figure, not a test: exits 0 either way.
#
#   cuse_ec/bench/run-frontends.sh [--no-uml] [BUILDDIR] [ITERATIONS]
#
# Targets: XCMD through the preload library <= 30 us (issue 29), and
# <= 1.5x the bare socket round trip, which says what the library and the
# daemon add whatever the machine's scheduler costs (on a shared 2-core VM
# the bare round trip alone moves between 20 and 35 us). The CUSE figure
# is the guest's: user-mode-linux runs every system call of the guest
# through ptrace, so it is far above what CUSE costs on a real kernel; it
# is printed for the order of magnitude.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
uml=1
if [[ ${1:-} == --no-uml ]]; then
	uml=0
	shift
fi
builddir=$(cd "${1:-$PWD}" && pwd)
iterations=${2:-20000}
preload_target_us=30
floor_target=1.5
[[ $iterations =~ ^[1-9][0-9]*$ ]] || { echo "ITERATIONS must be a positive number, not '$iterations'" >&2; exit 2; }

# shellcheck source=scripts/hotplug-lib.sh
. "$top_srcdir/scripts/hotplug-lib.sh"

bench=$builddir/cuse_ec/bench/cuse_ec_bench
direct=$builddir/cuse_ec/bench/ec_direct_bench
floor=$builddir/cuse_ec/bench/socket_floor
daemon=$builddir/cuse_ec/cuse_ec
for b in "$bench" "$direct" "$floor" "$daemon"; do
	[[ -x $b ]] || { echo "missing $b (run make first)" >&2; exit 1; }
done
lib=$(hl_preload_lib "$builddir") || exit 1

# ns_of [OP]: the ns_per_op of the single-thread line of OP (default: XCMD)
# among the bench lines on stdin.
ns_of() {
	awk -v op="${1:-^xcmd}" '$1 ~ op && $2 == "threads=1" { sub("ns_per_op=", "", $3); print $3; exit }'
}

run=$(mktemp -d "${TMPDIR:-/tmp}/run-frontends.XXXXXX")
daemon_pid=
cleanup() {
	[[ -z $daemon_pid ]] || kill -TERM "$daemon_pid" 2>/dev/null || true
	[[ -z $daemon_pid ]] || wait "$daemon_pid" 2>/dev/null || true
	rm -rf "$run"
}
trap cleanup EXIT

echo "== direct call into the EC model (ec_host_command), $iterations ops per round"
direct_ns=$("$direct" "$iterations" | tee /dev/stderr | ns_of)

echo "== bare SOCK_SEQPACKET round trip between two threads, $iterations per round"
floor_ns=$("$floor" "$iterations" | tee /dev/stderr | ns_of '^socket_round_trip')

echo "== preload library + device socket (cuse_ec --socket-dir), $iterations ops per round"
"$daemon" -f --no-udev --log-level=err --socket-dir="$run" &
daemon_pid=$!
hl_wait_for_node "$run/cros_ec" 20 || { echo "the socket daemon did not start" >&2; exit 1; }
preload_ns=$(env LD_PRELOAD="$lib" CUSE_EC_SOCKET_DIR="$run" "$bench" /dev/cros_ec - "$iterations" |
	tee /dev/stderr | ns_of)
kill -TERM "$daemon_pid"
wait "$daemon_pid" || true
daemon_pid=

cuse_ns=
if (( uml )) && { hl_cuse_here || hl_uml_available; }; then
	echo "== CUSE node ($(hl_cuse_here && echo "this host" || echo "in user-mode-linux")), $iterations ops per round"
	guest='set -e
"$1" -f --no-udev --log-level=err &
pid=$!
for (( i = 0; i < 400; i++ )); do [[ -c /dev/cros_ec ]] && break; sleep 0.05; done
"$2" /dev/cros_ec - "$3"
kill -TERM "$pid"; wait "$pid" || true'
	cuse_ns=$(hl_run_where_cuse "$builddir" "$run" 600 bash -c "$guest" guest "$daemon" "$bench" \
		"$iterations" 2>/dev/null | tee /dev/stderr | ns_of) || cuse_ns=
fi

us() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "== XCMD HELLO, one client thread (median of 7 rounds)"
printf '%-34s %10s %16s\n' "path" "us per op" "x the direct call"
printf '%-34s %10s %16s\n' "direct call into the EC model" "$(us "$direct_ns")" "1.00"
printf '%-34s %10s %16s\n' "preload library + device socket" "$(us "$preload_ns")" \
	"$(ratio "$preload_ns" "$direct_ns")"
printf '%-34s %10s %16s\n' "(bare socket round trip)" "$(us "$floor_ns")" \
	"$(ratio "$floor_ns" "$direct_ns")"
if [[ -n $cuse_ns ]]; then
	printf '%-34s %10s %16s\n' "CUSE node$(hl_cuse_here || echo " (user-mode-linux)")" \
		"$(us "$cuse_ns")" "$(ratio "$cuse_ns" "$direct_ns")"
	echo "preload vs CUSE: $(ratio "$cuse_ns" "$preload_ns")x faster through the preload"
fi
verdict=$(awk -v ns="$preload_ns" -v t="$preload_target_us" 'BEGIN { print ns / 1000 <= t ? "PASS" : "FAIL" }')
echo "preload: $(us "$preload_ns") us per XCMD, target <= $preload_target_us us: $verdict"
verdict=$(awk -v a="$preload_ns" -v b="$floor_ns" -v t="$floor_target" 'BEGIN { print a / b <= t ? "PASS" : "FAIL" }')
echo "preload: $(ratio "$preload_ns" "$floor_ns")x the bare socket round trip, target <= ${floor_target}x: $verdict"
