# SPDX-License-Identifier: GPL-2.0-or-later
#
# cuse-ec-death-guest.sh - the daemon dies (SIGKILL) or shuts down (SIGTERM)
# under clients blocked in read() and in poll(), with a command in flight
# and with an idle fd: every client must return within a bound with an
# error from the documented list (cuse_ec(8), DEVICE GONE), and a daemon
# started again on the same name serves at once. Run by cuse-ec-death.test.

. "$top_srcdir/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
victim=$top_builddir/tests/e2e/cuse_ec_victim
fuzz=$top_builddir/tests/e2e/cuse_ec_fuzz
run=$(mktemp -d /run/cuse-ec-death.XXXXXX)
sock=$run/ctl
name=cros_ec
dev=/dev/$name
# Seconds every client gets to return once the daemon is signalled.
bound=10
# EC latency that keeps a command in flight when the signal comes (ns).
latency=3000000000

wait_for() {
	local secs=$1 i

	shift
	for (( i = 0; i < secs * 20; i++ )); do
		"$@" && return 0
		sleep 0.05
	done
	"$@"
}

ctl() {
	"$daemon" --control="$sock" --send "$*"
}

stat_of() {
	ctl stats | tr ' ' '\n' | sed -n "s/^$1=//p"
}

parked_at_least() {
	(( $(stat_of parked_reads) >= $1 ))
}

# A client's thread sleeps in the kernel with a function matching PATTERN
# on its kernel stack (UML's wchan names only its scheduler; the stack says
# where the task waits: do_sys_poll, fuse_do_ioctl ...).
blocked_in() {
	local pid=$1 pattern=$2 t

	for t in /proc/"$pid"/task/*; do
		grep -Eq "$pattern" "$t/stack" 2>/dev/null && return 0
	done
	return 1
}

start() {
	e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --log-level=err
	e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
	wait_for 10 test -S "$sock" || e2e_fatal "no control socket"
}

# victim MODE: starts one client, its output in $run/MODE.out
declare -A pids
victim() {
	: >"$run/$1.out"
	"$victim" "$1" "$dev" >"$run/$1.out" 2>&1 &
	pids[$1]=$!
	wait_for 10 grep -q '^ready' "$run/$1.out" || e2e_fatal "$1 client not ready: $(cat "$run/$1.out")"
}

exited_within() {
	local pid=$1 secs=$2

	wait_for "$secs" bash -c "! kill -0 $pid 2>/dev/null || [[ \$(ps -o stat= -p $pid) == Z* ]]"
}

for sig in KILL TERM; do
	start
	victim read
	victim poll
	victim idle
	e2e_check "$sig: the reader is parked in the daemon" wait_for 10 parked_at_least 1
	e2e_check "$sig: the poller sleeps in poll()" wait_for 10 blocked_in "${pids[poll]}" 'do_sys_poll'
	ctl latency $latency >/dev/null || e2e_fatal "latency refused"
	victim inflight
	if wait_for 10 blocked_in "${pids[inflight]}" 'fuse_do_ioctl'; then
		e2e_report 1 "$sig: a command is in flight"
	else
		e2e_report 0 "$sig: a command is in flight: $(cat /proc/"${pids[inflight]}"/task/*/stack)"
	fi

	kill -"$sig" "$e2e_daemon_pid"
	for mode in read poll inflight; do
		e2e_check "$sig: the $mode client returned within $bound s" \
			exited_within "${pids[$mode]}" "$bound"
	done
	status=$(e2e_stop_daemon "$sig" >/dev/null 2>&1; echo $?)
	if [[ $sig == TERM ]]; then
		e2e_check_status "TERM: the daemon exits 0" 0 "$status"
	fi
	e2e_check "$sig: the node is gone with the daemon" e2e_wait_for_gone "$dev" "$bound"
	kill -USR1 "${pids[idle]}"
	e2e_check "$sig: the idle client returned within $bound s" \
		exited_within "${pids[idle]}" "$bound"
	for mode in read poll inflight idle; do
		wait "${pids[$mode]}"
		e2e_check_status "$sig: $mode client saw a documented error: $(tr '\n' ' ' <"$run/$mode.out")" \
			0 $?
	done

	# The same name again, at once: a fresh daemon serves a fresh client.
	start
	e2e_check "$sig: restarted on $name, HELLO answered" "$fuzz" --dev "$dev" --ops 200 --seed 1
	e2e_stop_daemon TERM
	e2e_check_status "$sig: the restarted daemon exits 0" 0 $?
done

rm -rf "$run"
e2e_done
