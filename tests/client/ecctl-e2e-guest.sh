# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of ecctl-e2e.test, through either front end (tests/e2e/lib.sh).
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
ecctl=$(e2e_client_cmd "$top_builddir/client/ecctl")
out_dir=$(e2e_tmpdir ecctl-e2e)

# ecctl_ok DESC ARGS... : ecctl exits 0 and prints something.
ecctl_ok() {
	local desc=$1
	shift
	e2e_check "$desc" bash -c 'out=$("$@") && [[ -n $out ]]' _ "$ecctl" "$@"
}

# ecctl_prints DESC REGEX ARGS... : ecctl exits 0 and its output matches REGEX.
ecctl_prints() {
	local desc=$1 regex=$2
	shift 2
	e2e_check "$desc" bash -c 'out=$("${@:2}") && [[ $out =~ $1 ]]' _ "$regex" "$ecctl" "$@"
}

# ecctl_fails DESC STATUS REGEX ARGS... : ecctl exits STATUS, stderr matches REGEX.
ecctl_fails() {
	local desc=$1 want=$2 regex=$3
	shift 3
	e2e_check "$desc" bash -c \
		'err=$("${@:3}" 2>&1 >/dev/null); [[ $? -eq $1 && $err =~ $2 ]]' \
		_ "$want" "$regex" "$ecctl" "$@"
}

# ctl LINE : one command to the daemon's control socket; prints the reply.
# Bash cannot speak AF_UNIX, so this needs Debian's python3; without it the
# control-socket checks are left out (and say so).
ctl() {
	/usr/bin/python3 - "$sock" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
print(s.makefile().readline().strip())
PY
}

# ctl_ok LINE : the daemon answers LINE with "ok ...".
ctl_ok() {
	local reply

	reply=$(ctl "$1") || return 1
	[[ $reply == ok* ]]
}

# ctl_says LINE PATTERN : the daemon's reply to LINE matches the glob PATTERN.
ctl_says() {
	local reply

	reply=$(ctl "$1") || return 1
	# shellcheck disable=SC2053 # a glob on purpose
	[[ $reply == $2 ]] || { echo "# '$1' got: $reply"; return 1; }
}

# wait_open_files N : the daemon reports N open files (bounded, 60 s).
wait_open_files() {
	hl_until 60 open_files_are "$1"
}

open_files_are() {
	[[ $(ctl status) == *open_files=$1* ]]
}

# --- the default (laptop) profile ---
name=ecctl_$$_$RANDOM
sock=$out_dir/ecctl_$$.sock
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" "${e2e_front_args[@]}"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" ||
	e2e_fatal "$(e2e_node_path "/dev/$name") did not appear within $e2e_node_timeout s"

ecctl_prints "hello" '^EC says hello!$' --name "$name" hello
ecctl_prints "version" 'RO version: .*Firmware copy: read-(only|write)' --name "$name" version
ecctl_prints "chipinfo" 'Chip info:' --name "$name" chipinfo
ecctl_prints "protoinfo" 'max request: +[0-9]+ bytes' --name "$name" protoinfo
ecctl_prints "cmdversions HELLO" 'supports version mask 0x0000000[1-9a-f]' \
	--name "$name" cmdversions 1
ecctl_prints "battery" 'Battery info:|Battery not present' --name "$name" battery
ecctl_prints "temps" '[0-9]+ K \(= -?[0-9]+ C\)' --name "$name" temps
ecctl_prints "fans" 'Fan 0 RPM|No fans' --name "$name" fans
ecctl_ok "console" --name "$name" console
ecctl_prints "uptime" 'EC uptime: [0-9]+\.[0-9]{3} seconds' --name "$name" uptime
ecctl_ok "panicinfo" --name "$name" panicinfo
ecctl_prints "usbpd ports" 'Number of USB PD ports: [0-9]+' --name "$name" usbpd ports
ecctl_ok "usbpd power" --name "$name" usbpd power
ecctl_prints "raw HELLO" '05 05 05 05' --name "$name" raw 1 0 01020304
ecctl_prints "json version" '^\{"ro_version":' --name "$name" --json version
ecctl_prints "--device path" '^EC says hello!$' --device "/dev/$name" hello
ecctl_fails "raw unknown command" 1 '' --name "$name" raw 0x3fff 0
ecctl_fails "no event within 100 ms" 1 'ETIMEDOUT' --name "$name" events 0xffff 1 100

if [[ -x /usr/bin/python3 ]]; then
	for cmd in version chipinfo protoinfo battery temps fans console uptime panicinfo \
		"usbpd power"; do
		# shellcheck disable=SC2086 # "usbpd power" is two words on purpose
		e2e_check "--json $cmd is valid JSON" bash -c \
			'"$1" --name "$2" --json $3 | /usr/bin/python3 -m json.tool >/dev/null' \
			_ "$ecctl" "$name" "$cmd"
	done

	# An event injected while ecctl waits in poll() reaches its read().
	# Its mask is set a moment after the open, before it polls: inject once
	# the daemon has recorded a poll (its trace), not after a guessed delay.
	out_file=$out_dir/ecctl_ev_$$
	e2e_check "trace clear" ctl_ok "trace clear"
	"$ecctl" --name "$name" events 0xffff 1 10000 >"$out_file" 2>&1 &
	reader=$!
	e2e_check "events: the daemon has seen the reader poll" \
		e2e_wait_trace "$daemon" "$sock" 'access-end file=[0-9]+ cmd=poll'
	# Two flips: whichever state the lid was in, one of them is a change.
	e2e_check "inject lid-close" ctl_ok "inject lid-close"
	e2e_check "inject lid-open" ctl_ok "inject lid-open"
	e2e_check_exit "events: reader gets the injected event" 0 wait "$reader"
	e2e_check "events: output names the event" grep -q '^Event type [0-9]' "$out_file"

	# A reader blocked with no timeout is woken by an unplug: ENODEV, exit 1.
	"$ecctl" --name "$name" events 0xffff 1 -1 >"$out_file" 2>&1 &
	reader=$!
	e2e_check "blocked reader has the device open" wait_open_files 1
	# With no timeout it blocks in read(): wait until the daemon has parked it.
	e2e_check "the blocked reader's read is parked in the daemon" \
		e2e_wait_stat "$daemon" "$sock" parked_reads 1
	e2e_check "unplug" ctl_ok "unplug wait"
	# Bounded: a reader the unplug failed to wake is killed, and fails below.
	timeout 10 tail --pid="$reader" -f /dev/null ||
		{ echo "# reader still blocked 10 s after the unplug"; kill -KILL "$reader" || true; }
	e2e_check_exit "blocked reader woken by unplug exits 1" 1 wait "$reader"
	e2e_check "woken reader reports ENODEV" grep -q 'ENODEV' "$out_file"
	ecctl_fails "open with no EC present fails ENODEV" 1 'ENODEV' --name "$name" hello
	e2e_check "plug" ctl_ok plug
	ecctl_prints "hello after replug" '^EC says hello!$' --name "$name" hello
	rm -f "$out_file"

	# Faults on demand (cuse_ec(8), "fault"): each kind as a client sees it.
	e2e_check "fault result=BUSY" ctl_ok "fault cmd=1,result=BUSY"
	ecctl_fails "fault: hello answered BUSY" 1 'EC error BUSY' --name "$name" hello
	ecctl_prints "fault: once, then a plain answer" '^EC says hello!$' --name "$name" hello
	e2e_check "fault eio" ctl_ok "fault cmd=1,eio"
	ecctl_fails "fault: hello gets EIO" 1 'EIO' --name "$name" hello
	e2e_check "fault oversize" ctl_ok "fault cmd=1,oversize"
	ecctl_fails "fault: hello gets EMSGSIZE" 1 'EMSGSIZE' --name "$name" hello
	e2e_check "fault short" ctl_ok "fault cmd=1,short=2"
	ecctl_fails "fault: a short answer is a wrong one" 1 'hello: expected 0xa1b2c3d4' \
		--name "$name" hello
	e2e_check "fault in_progress" ctl_ok "fault cmd=1,in_progress"
	# The driver polls GET_COMMS_STATUS and answers SUCCESS with the
	# request's own bytes, as the kernel's does: a wrong hello.
	ecctl_fails "fault: in_progress, the driver's wait gives a wrong answer" 1 \
		'hello: expected 0xa1b2c3d4' --name "$name" hello
	e2e_check "fault timeout" ctl_ok "fault cmd=1,timeout"
	ecctl_fails "fault: hello gets ETIMEDOUT" 1 'ETIMEDOUT' --name "$name" hello
	e2e_check "fault delay" ctl_ok "fault cmd=1,delay=5ms"
	ecctl_prints "fault: a delayed hello answers" '^EC says hello!$' --name "$name" hello
	e2e_check "fault unplug" ctl_ok "fault cmd=1,unplug"
	ecctl_prints "fault: the unplugging hello still answers" '^EC says hello!$' \
		--name "$name" hello
	e2e_check "fault: the device is gone" e2e_wait_stat "$daemon" "$sock" revocations 2
	ecctl_fails "fault: then open fails ENODEV" 1 'ENODEV' --name "$name" hello
	e2e_check "fault: the trace has it" \
		e2e_wait_trace "$daemon" "$sock" 'fault file=[0-9]+ cmd=0x0001 kind=8 ret=4'
	e2e_check "fault: plug" ctl_ok plug
	e2e_check "faults: every rule used, 8 injected" ctl_says faults "ok faults 0 injected=8"
	e2e_check "fault: stats count them" e2e_wait_stat "$daemon" "$sock" faults_injected 8
	e2e_check "fault: a bad rule is refused with its reason" \
		ctl_says "fault nope" "error unknown fault item 'nope'*"
else
	echo "# /usr/bin/python3 missing: control-socket checks left out"
fi

e2e_check_exit "daemon exits 0 on SIGTERM" 0 e2e_stop_daemon TERM
# A node left behind is what the next check reports.
e2e_wait_for_gone "/dev/$name" 60 || true
ecctl_fails "node gone after the daemon exits" 1 'ENOENT' --name "$name" hello

# --- the minimal profile: no direct memory map ---
name=ecctl_min_$$_$RANDOM
e2e_start_daemon "$daemon" -f --name="$name" "${e2e_front_args[@]}" \
	--profile="$top_srcdir/ec/profiles/minimal.profile"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" ||
	e2e_fatal "$(e2e_node_path "/dev/$name") did not appear within $e2e_node_timeout s"
ecctl_prints "minimal: start-up via READ_MEMMAP" '^EC says hello!$' --name "$name" hello
ecctl_prints "minimal: temps via READ_MEMMAP" '[0-9]+ K' --name "$name" temps
ecctl_prints "minimal: no fans" 'No fans' --name "$name" fans
ecctl_fails "minimal: usbpd refused by the EC" 1 'EC error INVALID_COMMAND' \
	--name "$name" usbpd ports
e2e_check_exit "minimal daemon exits 0" 0 e2e_stop_daemon TERM
rm -rf "$out_dir"
e2e_done
