# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-death-guest.sh - the daemon dies (SIGKILL) or shuts down (SIGTERM)
# under clients blocked in read() and in poll(), with a command in flight
# and with an idle fd: every client must return within a bound with an
# error from the documented list (cuse_ec(8), DEVICE GONE), and a daemon
# started again on the same name serves at once. SIGTERM unplugs first:
# the reader and the poller are out while the command still runs, and
# --shutdown-timeout bounds how long the daemon waits for that command. A
# burst of SIGTERMs through the whole shutdown still ends in exit 0.
# Run by cuse-ec-death.test.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
victim=$top_builddir/tests/e2e/cuse_ec_victim
fuzz=$top_builddir/tests/e2e/cuse_ec_fuzz
run=$(mktemp -d /run/cuse-ec-death.XXXXXX)
sock=$run/ctl
name=cros_ec
dev=/dev/$name
# Seconds every client gets to return once the daemon is signalled (the
# TERM round's command alone takes 20 s); a deadline, not a pause.
bound=60

wait_for() {
	e2e_wait_until "$@"
}

ctl() {
	e2e_ctl "$sock" "$@"
}

stat_of() {
	e2e_stat "$sock" "$1"
}

stat_at_least() {
	(( $(stat_of "$1") >= $2 ))
}

parked_at_least() {
	stat_at_least parked_reads "$1"
}

# A client's thread sleeps in the kernel with a function matching PATTERN
# on its kernel stack (UML's wchan names only its scheduler; the stack says
# where the task waits: do_sys_poll, fuse_do_ioctl ...).
blocked_in() {
	local pid=$1 pattern=$2 t

	for t in /proc/"$pid"/task/*; do
		hl_file_has "$t/stack" "$pattern" && return 0
	done
	return 1
}

# After the revoke began with a HELLO inside the EC, the daemon recorded the
# parked read's wake-up before that HELLO's access ended (if it has yet).
woken_before_command_end() {
	local trace

	trace=$(ctl trace) || return 1
	awk '$3 == "revoke-start" && !r { r = $1 }
	     r && $3 == "read-woken" && !w { w = $1 }
	     r && $3 == "access-end" && / cmd=0x0001 / && / ret=[0-9]/ && !e { e = $1 }
	     END { if (!w) print "no read-woken after revoke-start"
		   else if (e && e < w) print "HELLO ended (" e ") before the read was woken (" w ")"
		   exit !(w && (!e || w < e)) }' <<<"$trace" >&2
}

start() {
	e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --log-level=err "$@"
	e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
	wait_for 60 test -S "$sock" || e2e_fatal "no control socket"
}

# victim MODE: starts one client, its output in $run/MODE.out
declare -A pids
victim() {
	: >"$run/$1.out"
	"$victim" "$1" "$dev" >"$run/$1.out" 2>&1 &
	pids[$1]=$!
	wait_for 60 hl_file_has "$run/$1.out" '^ready' || e2e_fatal "$1 client not ready: $(cat "$run/$1.out")"
}

# exited_within PID SECS: PID is gone or a zombie within SECS.
exited_within() {
	wait_for "$2" not_running "$1"
}

not_running() {
	! hl_running "$1"
}

# flat FILE: FILE's lines on one line (for a check's description).
flat() {
	local text=

	IFS= read -r -d '' text <"$1" || true
	echo "${text//$'\n'/ }"
}

# round SIG NAME LATENCY_NS [DAEMON OPTIONS]: one daemon, four clients, SIG.
round() {
	local sig=$1 what=$2 latency=$3 status mode

	shift 3
	start "$@"
	victim read
	victim poll
	victim idle
	e2e_check "$what: the reader is parked in the daemon" wait_for 60 parked_at_least 1
	e2e_check "$what: the poller sleeps in poll()" \
		wait_for 60 blocked_in "${pids[poll]}" 'do_sys_poll'
	ctl latency "$latency" >/dev/null || e2e_fatal "latency refused"
	victim inflight
	# In flight = inside the EC (the daemon's gauge), not just sent: the
	# ioctl's first steps are quick round trips.
	e2e_check "$what: a command is in flight (inflight_accesses >= 1)" \
		wait_for 60 stat_at_least inflight_accesses 1

	kill -"$sig" "$e2e_daemon_pid"
	# Their answers first: once libfuse's loop stops taking requests, a new
	# call (the poller's read, a close) waits for the daemon's exit.
	e2e_check "$what: the reader got its answer within $bound s" \
		wait_for "$bound" hl_file_has "$run/read.out" '^read: '
	e2e_check "$what: the poller got its answer within $bound s" \
		wait_for "$bound" hl_file_has "$run/poll.out" '^poll: '
	if [[ $what == TERM ]]; then
		# Unplug first: the waiters are out while the command still runs.
		# The daemon's trace says in which order (its sequence numbers), read
		# while the command keeps the daemon alive.
		e2e_check "$what: the parked read woken before the command in flight ended" \
			woken_before_command_end
	fi
	for mode in read poll; do
		e2e_check "$what: the $mode client returned within $bound s" \
			exited_within "${pids[$mode]}" "$bound"
	done
	e2e_check "$what: the inflight client returned within $bound s" \
		exited_within "${pids[inflight]}" "$bound"
	status=0
	e2e_stop_daemon "$sig" >/dev/null 2>&1 || status=$?
	case $what in
	TERM) e2e_check_status "TERM: the daemon exits 0" 0 "$status" ;;
	TERM-bounded) e2e_check_status "TERM-bounded: exits 1, the command left behind" 1 "$status" ;;
	esac
	e2e_check "$what: the node is gone with the daemon" e2e_wait_for_gone "$dev" "$bound"
	kill -USR1 "${pids[idle]}"
	e2e_check "$what: the idle client returned within $bound s" \
		exited_within "${pids[idle]}" "$bound"
	for mode in read poll inflight idle; do
		status=0
		wait "${pids[$mode]}" || status=$?
		e2e_check_status "$what: $mode client saw a documented error: $(flat "$run/$mode.out")" \
			0 "$status"
	done

	# The same name again, at once: a fresh daemon serves a fresh client.
	start
	e2e_check "$what: restarted on $name, HELLO answered" "$fuzz" --dev "$dev" --ops 200 --seed 1
	e2e_check_exit "$what: the restarted daemon exits 0" 0 e2e_stop_daemon TERM
}

# SIGTERM after SIGTERM, from the first to the daemon's exit: the later ones
# land in every phase of the shutdown, the teardown included, and none may
# cut it short (exit 0, its udev rule removed). The loop uses only bash
# builtins so that it sends as many as it can.
term_burst() {
	local rule=/run/udev/rules.d/70-cuse_ec-$name.rules pid state sent=0 status

	start --mode=0666
	e2e_check "TERM-burst: the daemon wrote its udev rule" test -f "$rule"
	ctl latency 300000000 >/dev/null || e2e_fatal "latency refused"
	victim inflight
	e2e_check "TERM-burst: a command is in flight (inflight_accesses >= 1)" \
		wait_for 60 stat_at_least inflight_accesses 1
	pid=$e2e_daemon_pid
	while kill -TERM "$pid" 2>/dev/null; do
		sent=$((sent + 1))
		read -r _ _ state _ <"/proc/$pid/stat" 2>/dev/null || break
		[[ $state == Z ]] && break
	done
	status=0
	e2e_stop_daemon TERM >/dev/null 2>&1 || status=$?
	e2e_check_status "TERM-burst: the daemon exits 0 after $sent SIGTERMs" 0 "$status"
	e2e_check "TERM-burst: its udev rule is removed" test ! -e "$rule"
	status=0
	wait "${pids[inflight]}" || status=$?
	e2e_check_status "TERM-burst: inflight client saw a documented error: $(flat "$run/inflight.out")" \
		0 "$status"
}

round KILL KILL 3000000000
# The command takes 20 s, inside --shutdown-timeout: time enough, even on a
# loaded machine, to read the daemon's trace before it exits.
round TERM TERM 20000000000 --shutdown-timeout=40
# The command would take 60 s: the daemon gives it 1 s, then exits.
round TERM TERM-bounded 60000000000 --shutdown-timeout=1
term_burst

rm -rf "$run"
e2e_done
