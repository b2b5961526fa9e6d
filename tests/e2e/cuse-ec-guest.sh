# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-guest.sh - end-to-end checks of the cuse_ec daemon through a real
# CUSE device, in one boot (run by cuse-ec.test, inside UML when the host has
# no /dev/cuse). Run by bash; see tests/e2e/lib.sh for the helpers.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
probe=${CUSE_EC_PROBE:-$top_builddir/tests/cuse_ec/cuse_ec_probe}
ecctl=${CUSE_EC_ECCTL:-$top_builddir/client/ecctl}
run=$(mktemp -d /run/cuse-ec-e2e.XXXXXX)
sock=$run/ctl
dev=/dev/cros_ec

# Wait (bounded) for a condition given as a command.
wait_for() {
	local i

	for (( i = 0; i < 100; i++ )); do
		"$@" && return 0
		sleep 0.05
	done
	"$@"
}

node_mode_is() {
	[[ $(stat -c %a "$dev" 2>/dev/null) == "$1" ]]
}

rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

start() {
	e2e_start_daemon "$daemon" -f --control="$sock" "$@"
	e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
	wait_for test -S "$sock" || e2e_fatal "no control socket"
}

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# ---- revocable (default) ----
start --mode=0666
e2e_check "node mode applied after it appeared (0666)" wait_for node_mode_is 666
e2e_check "ABI corners (start-up, ENOTTY, EINVAL, EMSGSIZE, EFAULT, READ_MEMMAP)" \
	"$probe" abi "$dev"
e2e_check "a non-root client works with mode 0666" as_nobody "$probe" abi "$dev"
for cmd in hello version chipinfo protoinfo battery temps fans console uptime panicinfo \
	   "usbpd ports" "usbpd power"; do
	# shellcheck disable=SC2086
	e2e_check "real-client start-up + ecctl $cmd" "$ecctl" $cmd
done
e2e_check "a non-root peer is refused by the control socket" \
	bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups '$probe' ctl '$sock' status"
e2e_check "events through poll/read/O_NONBLOCK; unplug wakes the reader" \
	"$probe" events "$dev" "$sock"
e2e_check "unplug/replug x200 under 8+8 threads, latency, blocked reader" \
	"$probe" load "$dev" "$sock" 200
e2e_check "daemon survived the load" kill -0 "$e2e_daemon_pid"

# A warm-up, not a check: the measured run below is the check.
"$probe" openclose "$dev" 1000 >/dev/null || true
rss_before=$(rss_kib "$e2e_daemon_pid")
e2e_check "10,000 open/close cycles" "$probe" openclose "$dev" 10000
rss_after=$(rss_kib "$e2e_daemon_pid")
echo "daemon RSS: ${rss_before} KiB before, ${rss_after} KiB after 10,000 open/close"
e2e_check "daemon memory flat over 10,000 open/close (< 256 KiB growth)" \
	test $(( rss_after - rss_before )) -lt 256
e2e_check "idle daemon RSS <= 8 MiB (${rss_after} KiB)" test "$rss_after" -le 8192

# Memory per open file: hold 800 files open and compare.
"$probe" openhold "$dev" 800 3 >"$run/hold.out" 2>&1 &
holder=$!
if wait_for grep -q "opened 800" "$run/hold.out"; then
	rss_held=$(rss_kib "$e2e_daemon_pid")
	per_file=$(( (rss_held - rss_after) * 1024 / 800 ))
	echo "daemon RSS with 800 open files: ${rss_held} KiB (${per_file} bytes per file)"
	e2e_check "<= 2 KiB of daemon memory per open file (${per_file} B)" test "$per_file" -le 2048
else
	e2e_report 0 "could not hold 800 open files: $(cat "$run/hold.out")"
fi
# The holder's failure is the "could not hold" report above.
wait "$holder" || true
e2e_check_exit "SIGTERM: exit 0" 0 e2e_stop_daemon TERM

# ---- node permissions: default 0600 keeps non-root out ----
start
e2e_check "without --mode the node stays 0600" node_mode_is 600
e2e_check "a non-root client is refused by a 0600 node" \
	bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups '$probe' abi '$dev' 2>/dev/null"
e2e_check_exit "SIGINT: exit 0" 0 e2e_stop_daemon INT

# ---- SIGTERM wakes a blocked reader (ENODEV) and exits 0 ----
start
"$probe" holdterm "$dev" >"$run/hold.out" 2>&1 &
holder=$!
e2e_check "client blocks in read" wait_for grep -q holding "$run/hold.out"
e2e_check "its read is parked in the daemon" e2e_wait_stat "$daemon" "$sock" parked_reads 1
e2e_check_exit "SIGTERM with a blocked reader: exit 0" 0 e2e_stop_daemon TERM
e2e_check_exit "the blocked reader was woken with ENODEV" 0 wait "$holder"
cat "$run/hold.out"

# ---- the daemon is killed while clients hold fds ----
start
"$probe" hold "$dev" 2 >"$run/hold.out" 2>&1 &
holder=$!
e2e_check "client holds an fd and a blocked read" wait_for grep -q holding "$run/hold.out"
e2e_check "its read is parked in the daemon" e2e_wait_stat "$daemon" "$sock" parked_reads 1
e2e_stop_daemon KILL || true	# 137: killed, as this case wants
e2e_check_exit "clients get ENOTCONN/ECONNABORTED, no hang" 0 wait "$holder"
cat "$run/hold.out"

# ---- refcount mode: zombies ----
start --lifecycle=refcount
e2e_check "refcount: old fds keep talking to the gone EC, counted" \
	"$probe" zombie "$dev" "$sock"
e2e_check_exit "refcount daemon exit 0" 0 e2e_stop_daemon TERM

# ---- without -f: daemonized, relative --control, the EC's clock runs ----
uptime_ms() {
	"$ecctl" --json uptime 2>/dev/null | sed -n 's/.*"uptime_ms":\([0-9]*\).*/\1/p'
}
uptime_past() {
	local now

	now=$(uptime_ms)
	[[ -n $now && $now -gt $1 ]]
}
# The daemon forks itself away; it is found again by its control socket,
# given relative to the directory it was started in.
status=0
(cd "$run" && "$daemon" --control=bg.sock) || status=$?
e2e_check_status "without -f: the starting process exits 0" 0 "$status"
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear (no -f)"
e2e_check "relative --control is made absolute before the chdir to /" \
	wait_for test -S "$run/bg.sock"
# Not found, or no uptime: empty, and the checks below say so.
bg_pid=$(pgrep -f -- "--control=bg.sock" | head -n 1) || bg_pid=
first=$(uptime_ms) || first=
e2e_check "EC uptime readable from the daemonized daemon (${first:-none} ms)" test -n "$first"
# Real time passes in the guest; the EC's uptime must follow it, whatever
# the wait costs on a loaded host (bounded: 5 s of 50 ms steps).
e2e_check "EC uptime advances without -f (the clock ticks in the daemon)" \
	wait_for uptime_past "${first:-0}"
e2e_check "daemonized daemon answers its control socket" \
	"$daemon" --control="$run/bg.sock" --send=status
if [[ -n $bg_pid ]]; then
	kill -TERM "$bg_pid"
	e2e_check "daemonized daemon exits on SIGTERM" \
		wait_for bash -c "! kill -0 $bg_pid 2>/dev/null"
else
	e2e_check "daemonized daemon found" false
fi

rm -rf "$run"
e2e_done
