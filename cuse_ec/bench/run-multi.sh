#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-multi.sh - what pulling one device costs another device of the same
# daemon: cros_ec's XCMD HELLO rate through the preload library and the
# device socket while cros_fp is unplugged and plugged again in a loop,
# against its rate while cros_fp sits still. One daemon serves both
# (cuse_ec --device); multi_bench pairs a quiet round with a flapping one
# (ABBA order), so that a neighbour's load on a shared machine hits both
# alike, and the figure is the median of the pairs' ratios. Prints the
# figures, the ratio and PASS/FAIL against the target; a figure, not a
# test: exits 0 either way (2 on bad usage, 1 when it cannot run).
#
#   cuse_ec/bench/run-multi.sh [BUILDDIR] [OPS] [PAUSE_MS] [PAIRS]
#
# OPS: HELLOs a round (default 20000). PAUSE_MS (default 10) is the loop's
# pace between cycles: a fingerprint MCU reset is a rare event, a hundred a
# second is far beyond any board. PAIRS: default 15. Target: flapping rate
# >= 0.95 x the quiet rate (issue 27).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
builddir=$(cd "${1:-$PWD}" && pwd)
ops=${2:-20000}
pause_ms=${3:-10}
pairs=${4:-15}
target=0.95
[[ $ops =~ ^[1-9][0-9]*$ ]] || { echo "OPS must be a positive number, not '$ops'" >&2; exit 2; }
if ! [[ $pause_ms =~ ^[0-9]+$ ]] || (( pause_ms > 1000 )); then
	echo "PAUSE_MS must be 0..1000, not '$pause_ms'" >&2
	exit 2
fi
[[ $pairs =~ ^[1-9][0-9]?$ ]] || { echo "PAIRS must be 1..99, not '$pairs'" >&2; exit 2; }

# shellcheck source=scripts/hotplug-lib.sh
. "$top_srcdir/scripts/hotplug-lib.sh"

bench=$builddir/cuse_ec/bench/multi_bench
daemon=$builddir/cuse_ec/cuse_ec
for b in "$bench" "$daemon"; do
	[[ -x $b ]] || { echo "missing $b (run make first)" >&2; exit 1; }
done
lib=$(hl_preload_lib "$builddir") || exit 1
profiles=$top_srcdir/ec/profiles

run=$(mktemp -d "${TMPDIR:-/tmp}/run-multi.XXXXXX")
daemon_pid=
cleanup() {
	[[ -z $daemon_pid ]] || kill -TERM "$daemon_pid" 2>/dev/null || true
	[[ -z $daemon_pid ]] || wait "$daemon_pid" 2>/dev/null || true
	rm -rf "$run"
}
trap cleanup EXIT

"$daemon" -f --no-udev --log-level=err --socket-dir="$run" --control="$run/ctl" \
	--device=cros_ec:"$profiles/laptop.profile" \
	--device=cros_fp:"$profiles/fingerprint.profile" &
daemon_pid=$!
if ! hl_wait_for_node "$run/cros_fp" 20 || ! hl_until 20 hl_exists "$run/ctl"; then
	echo "the daemon did not start" >&2
	exit 1
fi

echo "== cros_ec XCMD HELLO through the preload library, one client thread, $ops ops a round;"
echo "   $pairs pairs of rounds: cros_fp quiet / cros_fp unplugged and plugged in a loop (pause $pause_ms ms)"
summary=$(env LD_PRELOAD="$lib" CUSE_EC_SOCKET_DIR="$run" \
	"$bench" /dev/cros_ec "$run/ctl" cros_fp "$pause_ms" "$pairs" "$ops" | tee /dev/stderr | tail -n 1)
[[ $summary == multi\ * ]] || { echo "multi_bench gave no summary" >&2; exit 1; }
field() { tr ' ' '\n' <<<"$summary" | sed -n "s/^$1=//p"; }
stats=$("$daemon" --control="$run/ctl" --send "@cros_fp stats" --send "@cros_ec stats")
echo "== medians of $pairs pairs"
printf '%-40s %12s\n' "cros_ec, cros_fp quiet" "$(field quiet_ops_per_s) ops/s"
printf '%-40s %12s\n' "cros_ec, cros_fp unplugged and plugged" "$(field flapping_ops_per_s) ops/s"
echo "cros_fp: $(field cycles) unplug/plug cycles; daemon: cros_fp unplugs=$(sed -n 1p <<<"$stats" |
	tr ' ' '\n' | sed -n 's/^unplugs=//p'), cros_ec unplugs=$(sed -n 2p <<<"$stats" |
	tr ' ' '\n' | sed -n 's/^unplugs=//p')"
ratio=$(field ratio)
verdict=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r >= t ? "PASS" : "FAIL") }')
echo "cros_ec's rate while cros_fp flaps: ${ratio}x its quiet rate (median of the pairs' ratios), target >= ${target}x: $verdict"
