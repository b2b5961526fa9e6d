# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of flap1000.test, through the device socket and the preload
# library (CUSE_EC_FRONTEND=socket) on the host, or a CUSE node.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
sim=("${e2e_client[@]}" "$top_builddir/hotplug_sim/hotplug_sim")
name=flap1k$$
out=$(e2e_tmpdir flap1000)
sock=$out/flap1k_$$.sock
cycles=${CUSE_EC_FLAP_CYCLES:-1000}
# A sanitizer build (scripts/check's stages): 200 cycles, and no RSS check —
# its allocator keeps freed memory in quarantine, the figure is its own.
memory_checks=1
if e2e_daemon_sanitized; then
	cycles=${CUSE_EC_FLAP_CYCLES:-200}
	memory_checks=0
fi
# Slack for allocator noise (arena growth, one more libfuse buffer); a leak
# of even a few hundred bytes per cycle is far above it over 1,000 cycles.
rss_slack_kib=256

# rss PID: VmRSS in KiB.
rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

# json_num FILE KEY: the first number for "KEY" in the one-line JSON.
json_num() {
	grep -Eo "\"$2\":[0-9]+" "$1" | head -1 | cut -d: -f2
}

e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --log-level=warning \
	"${e2e_front_args[@]}"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" || e2e_fatal "no $(e2e_node_path "/dev/$name")"
pid=$e2e_daemon_pid
load=(--name="$name" --control="$sock" --trigger=control --daemon-pid="$pid"
	--clients=4 --readers=1 --scenario=flap --period=2ms --deadline=5s)

# Warm-up: the same load for 50 cycles, so the baseline already holds every
# buffer and thread pool the daemon grows to under this load.
e2e_check "warm-up: 50 cycles exit 0" "${sim[@]}" "${load[@]}" --cycles=50 -q
# Empty when the daemon is gone: the RSS check below says so.
rss_warm=$(rss "$pid") || rss_warm=

start=$SECONDS
e2e_check "$cycles flap cycles exit 0" "${sim[@]}" "${load[@]}" --cycles="$cycles" \
	--json="$out/flap1000.json" --csv="$out/flap1000.csv" -q
echo "# $cycles cycles took $(( SECONDS - start )) s"
rss_end=$(rss "$pid") || rss_end=
echo "# daemon VmRSS: $rss_warm KiB after warm-up, $rss_end KiB after $cycles cycles"

json=$out/flap1000.json
e2e_check "zero unexpected outcomes" test "$(json_num "$json" unexpected)" = 0
e2e_check "unplugs = plugs = $cycles" \
	grep -q "\"unplugs\":$cycles,\"plugs\":$cycles,\"trigger_errors\":0" "$json"
e2e_check "every unplug was seen revoked" grep -q "\"trigger_to_revoked\":{\"n\":$cycles," "$json"
e2e_check "nothing hung, no worker died, daemon alive" \
	grep -q '"hung":0,"workers_died":0,"daemon_pid":[^,]*,"daemon_alive":true' "$json"
e2e_check "no zombie accesses" grep -q '"zombie_accesses":0,' "$json"
e2e_check "the reader was woken with ENODEV" \
	grep -Eq '"role":"reader","counts":\{[^]]*"event":\{[^}]*"ENODEV":[1-9]' "$json"
e2e_check "CSV rows = calls in the JSON" bash -c '
	calls=$(grep -Eo "\"calls\":[0-9]+" "$1" | head -1 | cut -d: -f2)
	rows=$(($(wc -l <"$2") - 1))
	[[ $calls -gt 0 && $calls -eq $rows ]]' _ "$json" "$out/flap1000.csv"
e2e_check "per-outcome totals add up to the calls" bash -c '
	calls=$(grep -Eo "\"calls\":[0-9]+" "$1" | head -1 | cut -d: -f2)
	sum=$(sed -n "s/.*\"totals\":\(.*\),\"per_client\".*/\1/p" "$1" |
		grep -Eo "\"[A-Za-z_0-9]+\":[0-9]+" | awk -F: "{ s += \$2 } END { print s }")
	[[ $sum -eq $calls ]]' _ "$json"
if (( memory_checks )); then
	e2e_check "daemon RSS flat (+$rss_slack_kib KiB at most)" \
		test -n "$rss_warm" -a -n "$rss_end" -a "$rss_end" -le $(( ${rss_warm:-0} + rss_slack_kib ))
else
	echo "# RSS check left out: the daemon is a sanitizer build"
fi
e2e_check "daemon still answers" kill -0 "$pid"
e2e_check_exit "daemon exit status" 0 e2e_stop_daemon
# Kept for a look when a check failed.
(( e2e_failures )) || rm -rf "$out"
e2e_done
