#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run-bench.sh - cuse_ec against the null CUSE server, in one UML boot (or
# directly where the host has /dev/cuse). Prints latency/throughput for both,
# the ratios, and the daemon's idle RSS and per-open-file memory.
#
#   cuse_ec/bench/run-bench.sh [BUILDDIR] [ITERATIONS]
#
# Targets: XCMD latency <= 1.25x the floor; idle RSS <= 8 MiB;
# <= 2 KiB per open file. This prints; it does not fail on a missed target.

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
builddir=$(cd "${1:-$PWD}" && pwd)
iterations=${2:-5000}

if [[ ${CUSE_EC_BENCH_GUEST:-0} != 1 ]]; then
	if [[ -c /dev/cuse ]]; then
		CUSE_EC_BENCH_GUEST=1 exec bash "$0" "$builddir" "$iterations"
	fi
	exec "$top_srcdir/scripts/uml-run" --timeout 900 --mem 512M \
		--share "$top_srcdir" --share "$builddir" \
		--env CUSE_EC_BENCH_GUEST=1 -- bash "$0" "$builddir" "$iterations"
fi

bench=$builddir/cuse_ec/bench/cuse_ec_bench
null=$builddir/cuse_ec/bench/cuse_null
daemon=$builddir/cuse_ec/cuse_ec
probe=$builddir/tests/cuse_ec/cuse_ec_probe
for b in "$bench" "$null" "$daemon" "$probe"; do
	[[ -x $b ]] || { echo "missing $b (run make && make check first)" >&2; exit 1; }
done

wait_node() {
	local i

	for (( i = 0; i < 200; i++ )); do
		[[ -c $1 ]] && return 0
		sleep 0.05
	done
	return 1
}

# Both servers run at once; the client alternates rounds between them.
"$null" --name=cros_null &
null_pid=$!
"$daemon" -f --control=/run/bench.sock --log-level=err &
pid=$!
wait_node /dev/cros_null || { echo "null server did not start" >&2; exit 1; }
wait_node /dev/cros_ec || { echo "cuse_ec did not start" >&2; exit 1; }
for (( i = 0; i < 100; i++ )); do [[ -S /run/bench.sock ]] && break; sleep 0.05; done
"$probe" ctl /run/bench.sock "latency 0" >/dev/null

echo "== cuse_ec (revocable) vs the null CUSE server, $iterations ops per round =="
echo "   (XCMD latency target: latency_ratio <= 1.25)"
"$bench" /dev/cros_ec /dev/cros_null "$iterations"
kill -TERM "$null_pid" || true
wait "$null_pid" || true

# The real daemon is behind the libtool wrapper's exec: same pid.
rss_idle=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
"$probe" openhold /dev/cros_ec 800 2 >/run/bench-hold.txt &
holder=$!
for (( i = 0; i < 200; i++ )); do grep -q "opened 800" /run/bench-hold.txt && break; sleep 0.05; done
rss_held=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
wait "$holder"
kill -TERM "$pid"
wait "$pid"
echo "idle RSS: ${rss_idle} KiB (target <= 8192)"
echo "per open file: $(( (rss_held - rss_idle) * 1024 / 800 )) bytes (target <= 2048)"
