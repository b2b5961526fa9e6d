# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-guest.sh - end-to-end checks of the cuse_ec daemon as clients see
# it: through a real CUSE device in one boot (cuse-ec.test, inside UML when
# the host has no /dev/cuse), and the same checks through the device socket
# and the preload library on the host (CUSE_EC_FRONTEND=socket,
# devsock-ec.test; the sanitizer stages run that one too). Run by bash; see
# tests/e2e/lib.sh for the helpers.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
probe=("${e2e_client[@]}" "${CUSE_EC_PROBE:-$top_builddir/tests/cuse_ec/cuse_ec_probe}")
ecctl=("${e2e_client[@]}" "${CUSE_EC_ECCTL:-$top_builddir/client/ecctl}")
run=$(e2e_tmpdir cuse-ec-e2e)
sock=$run/ctl
dev=/dev/cros_ec
node=$(e2e_node_path "$dev")
# The loops' lengths. Every syscall of a guest traps into user-mode-linux,
# so through CUSE there the loops are shorter, as under a sanitizer (whose
# memory figures are its own: the memory checks are left out below); the
# socket front end on the host runs them at full length. Every check runs.
if [[ $e2e_frontend == socket ]] && ! e2e_daemon_sanitized; then
	load_cycles=200 openclose_cycles=10000
else
	load_cycles=25 openclose_cycles=2000
fi

# Wait (bounded) for a condition given as a command.
wait_for() {
	hl_until 60 "$@"
}

node_mode_is() {
	[[ $(stat -c %a "$dev" 2>/dev/null) == "$1" ]]
}

rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

start() {
	# A killed daemon leaves its sockets (the kernel takes a CUSE node
	# away): removed first, so the waits below see this daemon's own.
	rm -f "$sock"
	[[ $e2e_frontend == cuse ]] || rm -f "$node"
	e2e_start_daemon "$daemon" -f --control="$sock" "${e2e_front_args[@]}" "$@"
	e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$node did not appear"
	wait_for test -S "$sock" || e2e_fatal "no control socket"
}

as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# ---- revocable (default) ----
# --mode is the CUSE node's; the device socket's directory decides instead.
if [[ $e2e_frontend == cuse ]]; then
	start --mode=0666
else
	start
fi
if [[ $e2e_frontend == cuse ]]; then
	e2e_check "node mode applied after it appeared (0666)" wait_for node_mode_is 666
fi
e2e_check "ABI corners (start-up, ENOTTY, EINVAL, EMSGSIZE, EFAULT, READ_MEMMAP)" \
	"${probe[@]}" abi "$dev"
if [[ $e2e_frontend == cuse ]]; then
	# The device socket serves its owner only (cuse_ec_preload(7)).
	e2e_check "a non-root client works with mode 0666" as_nobody "${probe[@]}" abi "$dev"
fi
for cmd in hello version chipinfo protoinfo battery temps fans console uptime panicinfo \
	   "usbpd ports" "usbpd power"; do
	# shellcheck disable=SC2086
	e2e_check "real-client start-up + ecctl $cmd" "${ecctl[@]}" $cmd
done
e2e_check "a non-root peer is refused by the control socket" \
	bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups '${probe[-1]}' ctl '$sock' status"
e2e_check "events through poll/read/O_NONBLOCK; unplug wakes the reader" \
	"${probe[@]}" events "$dev" "$sock"
e2e_check "unplug/replug x$load_cycles under 8+8 threads, latency, blocked reader" \
	"${probe[@]}" load "$dev" "$sock" "$load_cycles"
e2e_check "daemon survived the load" kill -0 "$e2e_daemon_pid"

# A warm-up, not a check: the measured run below is the check.
"${probe[@]}" openclose "$dev" $(( openclose_cycles / 10 )) >/dev/null || true
rss_before=$(rss_kib "$e2e_daemon_pid")
e2e_check "$openclose_cycles open/close cycles" "${probe[@]}" openclose "$dev" "$openclose_cycles"
rss_after=$(rss_kib "$e2e_daemon_pid")
echo "daemon RSS: ${rss_before} KiB before, ${rss_after} KiB after $openclose_cycles open/close"
# A sanitizer's allocator keeps freed memory in quarantine and its shadow
# grows with it: the figures are its own, the memory checks are left out.
memory_checks=1
if e2e_daemon_sanitized; then
	memory_checks=0
	echo "# memory checks left out: the daemon is a sanitizer build"
fi
if (( memory_checks )); then
	e2e_check "daemon memory flat over $openclose_cycles open/close (< 256 KiB growth)" \
		test $(( rss_after - rss_before )) -lt 256
	e2e_check "idle daemon RSS <= 8 MiB (${rss_after} KiB)" test "$rss_after" -le 8192
fi

# Memory per open file: hold files open and compare. The device socket
# serves 256 files at once (cuse_ec(8)): it holds 250, CUSE 800.
if [[ $e2e_frontend == socket ]]; then
	held=250 per_file_max=16384
else
	held=800 per_file_max=2048
fi
"${probe[@]}" openhold "$dev" "$held" 3 >"$run/hold.out" 2>&1 &
holder=$!
if wait_for grep -q "opened $held" "$run/hold.out"; then
	rss_held=$(rss_kib "$e2e_daemon_pid")
	per_file=$(( (rss_held - rss_after) * 1024 / held ))
	echo "daemon RSS with $held open files: ${rss_held} KiB (${per_file} bytes per file)"
	if (( memory_checks )); then
		e2e_check "<= $per_file_max bytes of daemon memory per open file (${per_file} B)" \
			test "$per_file" -le "$per_file_max"
	fi
else
	e2e_report 0 "could not hold $held open files: $(cat "$run/hold.out")"
fi
# The holder's failure is the "could not hold" report above.
wait "$holder" || true
if [[ $e2e_frontend == socket ]]; then
	e2e_check "the device socket serves 256 files at once, the 257th open gets EMFILE" \
		bash -c '"$@" 2>&1 | grep -q "open #256: Too many open files"' _ \
		"${probe[@]}" openhold "$dev" 257 0
fi
e2e_check_exit "SIGTERM: exit 0" 0 e2e_stop_daemon TERM

# ---- node permissions: default 0600 keeps non-root out ----
start
if [[ $e2e_frontend == cuse ]]; then
	e2e_check "without --mode the node stays 0600" node_mode_is 600
fi
# Through the socket the daemon refuses another user's connection (EACCES)
# itself: its directory opened to all, so the refusal is not the directory's.
[[ $e2e_frontend == cuse ]] || chmod 0755 "$e2e_sock_dir"
e2e_check "a non-root client is refused (EACCES)" \
	bash -c 'setpriv --reuid=65534 --regid=65534 --clear-groups "$@" abi /dev/cros_ec \
		2>&1 | grep -q "Permission denied"' _ "${probe[@]}"
e2e_check_exit "SIGINT: exit 0" 0 e2e_stop_daemon INT

# ---- SIGTERM wakes a blocked reader (ENODEV) and exits 0 ----
start
"${probe[@]}" holdterm "$dev" >"$run/hold.out" 2>&1 &
holder=$!
e2e_check "client blocks in read" wait_for grep -q holding "$run/hold.out"
e2e_check "its read is parked in the daemon" e2e_wait_stat "$daemon" "$sock" parked_reads 1
e2e_check_exit "SIGTERM with a blocked reader: exit 0" 0 e2e_stop_daemon TERM
e2e_check_exit "the blocked reader was woken with ENODEV" 0 wait "$holder"
cat "$run/hold.out"

# ---- the daemon is killed while clients hold fds ----
start
"${probe[@]}" hold "$dev" 2 "$e2e_frontend" >"$run/hold.out" 2>&1 &
holder=$!
e2e_check "client holds an fd and a blocked read" wait_for grep -q holding "$run/hold.out"
e2e_check "its read is parked in the daemon" e2e_wait_stat "$daemon" "$sock" parked_reads 1
e2e_stop_daemon KILL || true	# 137: killed, as this case wants
e2e_check_exit "clients get the dead daemon's errno ($e2e_frontend), no hang" 0 wait "$holder"
cat "$run/hold.out"

# ---- refcount mode: zombies ----
start --lifecycle=refcount
e2e_check "refcount: old fds keep talking to the gone EC, counted" \
	"${probe[@]}" zombie "$dev" "$sock"
e2e_check_exit "refcount daemon exit 0" 0 e2e_stop_daemon TERM

# ---- without -f: daemonized, relative --control, the EC's clock runs ----
uptime_ms() {
	"${ecctl[@]}" --json uptime 2>/dev/null | sed -n 's/.*"uptime_ms":\([0-9]*\).*/\1/p'
}
uptime_past() {
	local now

	now=$(uptime_ms)
	[[ -n $now && $now -gt $1 ]]
}
# The daemon forks itself away; it is found again by its control socket,
# given relative to the directory it was started in.
status=0
(cd "$run" && "$daemon" --control=bg.sock "${e2e_front_args[@]}") || status=$?
e2e_check_status "without -f: the starting process exits 0" 0 "$status"
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$node did not appear (no -f)"
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
