# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-multi-guest.sh - one daemon serving two CUSE nodes, run where
# /dev/cuse is real (by cuse-ec-multi.test). Its own names only: /dev/cros_ec,
# /dev/cros_fp, /dev/cros_pd (must be free: another test's daemon for them
# would be a clash, reported as such) and a fresh directory under /run.
#
#  1. --device=cros_ec:laptop --device=cros_fp:fingerprint: both nodes
#     appear, each answers as its board.
#  2. A client drives cros_ec (XCMD and READMEM in turn) and another
#     cros_fp (XCMD) while cros_fp is unplugged and plugged MULTI_CYCLES
#     times through the control socket, once more through a synthetic
#     uevent pair on its own sysfs device: cros_fp's client sees ENODEV
#     after each unplug and is served after each plug; cros_ec's is served
#     meanwhile and sees no error at all; each device's counters say so.
#  3. A second daemon whose second node's name is taken exits 1 naming it,
#     with its first node never served; the running one is untouched.
#  4. SIGTERM: a blocked reader on each node is woken with ENODEV, the
#     daemon exits 0 and both nodes go.
#
# Cheap inside UML: every wait is a bounded loop of bash built-ins and
# hl_nap, and each round costs one process (a control call).
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
probe=$top_builddir/tests/cuse_ec/cuse_ec_probe
cycles=${MULTI_CYCLES:-3}
run=$(e2e_tmpdir cuse-ec-multi)
ctl_sock=$run/ctl
# The profiles by name, from the source tree (nothing is installed).
export CUSE_EC_PROFILE_PATH=$top_srcdir/ec/profiles

fatal() {
	cat "$run/daemon.log" >&2 || true
	e2e_fatal "$@"
}

for node in cros_ec cros_fp cros_pd; do
	[[ ! -e /dev/$node ]] || e2e_fatal "/dev/$node exists already: not this test's"
done

# snap [LINE...]: LINE... and then both devices' stats in one control call
# (a process in the guest is the cost that counts): the first reply in
# $first, the stats in $ec_stats and $fp_stats. Fails when a reply is not
# "ok".
first='' ec_stats='' fp_stats=''
snap() {
	local line out args=()
	local -a replies

	for line in "$@" "@cros_ec stats" "@cros_fp stats"; do
		args+=(--send "$line")
	done
	out=$("$daemon" --control="$ctl_sock" "${args[@]}" 2>&1) ||
		{ echo "control: $* -> $out" >&2; return 1; }
	IFS=$'\n' read -r -d '' -a replies <<<"$out" || true
	first=${replies[0]}
	ec_stats=" ${replies[$#]} "
	fp_stats=" ${replies[$# + 1]} "
}

# sum STATS KEY...: the sum of the counters KEY... in the stats reply
# STATS, in $count.
count=0
sum() {
	local stats=$1 key

	shift
	count=0
	for key; do
		[[ $stats =~ [[:space:]]$key=([0-9]+)[[:space:]] ]] ||
			{ echo "no counter $key" >&2; return 1; }
		count=$(( count + BASH_REMATCH[1] ))
	done
}

# is N DEV KEY...: DEV's (ec or fp, as of the last snap) counters KEY...
# sum to N.
is() {
	local n=$1 stats=$2_stats

	shift 2
	sum "${!stats}" "$@" || return 1
	(( count == n )) || { echo "$*: $count, not $n" >&2; return 1; }
}

# matches TEXT GLOB: TEXT matches GLOB.
matches() {
	# shellcheck disable=SC2053  # the glob is the point
	[[ $1 == $2 ]] || { echo "'$1' does not match '$2'" >&2; return 1; }
}

# reply_is LINE GLOB: the daemon's reply to LINE matches GLOB.
reply_is() {
	local reply

	reply=$("$daemon" --control="$ctl_sock" --send "$1" 2>&1) || true
	# shellcheck disable=SC2053  # the glob is the point
	[[ $reply == $2 ]] || { echo "'$1' -> '$reply', expected '$2'" >&2; return 1; }
}

# synth DEV ACTION: a synthetic uevent of DEV's own CUSE device.
synth() {
	local uuid

	read -r uuid </proc/sys/kernel/random/uuid
	echo "$2 $uuid SRC=test" >"/sys/class/cuse/$1/uevent"
}

# ended PID: the child has exited (gone, or a zombie not yet waited for).
ended() {
	local st

	[[ -e /proc/$1 ]] || return 0
	read -r st <"/proc/$1/stat" || return 0
	[[ ${st##*) } == Z* ]]
}

# reaped PID: its exit status once it ended (at most 60 s; then it is
# killed and the status is 124): a reader left blocked fails, never hangs.
reaped() {
	local st=0

	if ! e2e_wait_until 60 ended "$1"; then
		kill -KILL "$1" 2>/dev/null || true
		wait "$1" 2>/dev/null || true
		return 124
	fi
	wait "$1" || st=$?
	return "$st"
}

# 1. Two nodes, one daemon.
e2e_start_daemon "$daemon" -f --control="$ctl_sock" \
	--device=cros_ec:laptop --device=cros_fp:fingerprint 2>"$run/daemon.log"
e2e_wait_for_node /dev/cros_ec "$e2e_node_timeout" || fatal "/dev/cros_ec did not appear"
e2e_wait_for_node /dev/cros_fp "$e2e_node_timeout" || fatal "/dev/cros_fp did not appear"
e2e_wait_until 60 reply_is status "ok *" 2>/dev/null || fatal "no control socket"
e2e_check "both nodes are character devices" test -c /dev/cros_ec -a -c /dev/cros_fp
e2e_check "info lists both devices, cros_ec first" \
	reply_is info "ok info * devices=cros_ec,cros_fp"

# 2. The clients, until their stdin closes: paced, a 5 ms pause after each
# call (unpaced, two of them starve the guest's one CPU and every control
# call waits seconds).
mkfifo "$run/ec.in" "$run/fp.in"
"$probe" drive /dev/cros_ec readmem paced <"$run/ec.in" >"$run/ec.out" &
ec_client=$!
"$probe" drive /dev/cros_fp paced <"$run/fp.in" >"$run/fp.out" &
fp_client=$!
exec {ec_in}>"$run/ec.in" {fp_in}>"$run/fp.in"
# both_above KEY: both devices' counter KEY is above 0.
both_above() {
	snap && sum "$ec_stats" "$1" && (( count > 0 )) && sum "$fp_stats" "$1" && (( count > 0 ))
}
e2e_wait_until 60 both_above ioctl_ok || fatal "a client never got through"

# unplug_cycle HOW: one unplug and plug of cros_fp, by the control socket
# (HOW=control) or by uevents on its own device (HOW=uevent); the clients'
# progress is read off the counters, never a clock, from the last snap on
# (each cycle ends with one). Returns 1 with a message on a miss.
unplug_cycle() {
	local ec_ok fp_gone fp_ok

	sum "$ec_stats" ioctl_ok && ec_ok=$count
	sum "$fp_stats" ioctl_enodev open_enodev && fp_gone=$count
	if [[ $1 == control ]]; then
		snap "@cros_fp unplug wait" || return 1
	else
		synth cros_fp remove
	fi
	# cros_fp's client is refused, cros_ec's served meanwhile.
	unplugged_seen() {
		snap "@cros_fp status" "@cros_ec status" && [[ $first == "ok unplugged "* ]] &&
			sum "$fp_stats" ioctl_enodev open_enodev && (( count > fp_gone )) &&
			sum "$ec_stats" ioctl_ok && (( count > ec_ok ))
	}
	e2e_wait_until 60 unplugged_seen ||
		{ echo "$1: no ENODEV on cros_fp or cros_ec not served ($first)" >&2; return 1; }
	[[ $ec_stats == *" unplugs=0 "* ]] || { echo "$1: cros_ec was unplugged" >&2; return 1; }
	sum "$fp_stats" ioctl_ok && fp_ok=$count
	if [[ $1 == control ]]; then
		snap "@cros_fp plug" || return 1
	else
		synth cros_fp add
	fi
	replugged_seen() {
		snap && sum "$fp_stats" ioctl_ok && (( count > fp_ok ))
	}
	e2e_wait_until 60 replugged_seen ||
		{ echo "$1: cros_fp's client not served after the plug" >&2; return 1; }
}

failed_cycles=0
snap || fatal "no stats"
for (( i = 1; i <= cycles; i++ )); do
	unplug_cycle control || failed_cycles=$(( failed_cycles + 1 ))
done
e2e_check "$cycles control-socket unplug/plug cycles of cros_fp under two clients" \
	[ "$failed_cycles" = 0 ]
snap || fatal "no stats"
e2e_check "a uevent remove/add pair of cros_fp's own device under two clients" \
	unplug_cycle uevent
snap || fatal "no stats"
e2e_check "cros_fp followed its uevents" is 1 fp uevent_unplugs
e2e_check "cros_ec saw none of them" is 0 ec uevent_unplugs uevent_plugs
exec {ec_in}>&- {fp_in}>&-
e2e_check_exit "cros_ec's client ends" 0 reaped "$ec_client"
e2e_check_exit "cros_fp's client ends" 0 reaped "$fp_client"
read -r ec_counts <"$run/ec.out" || true
read -r fp_counts <"$run/fp.out" || true
echo "cros_ec's client: $ec_counts; cros_fp's client: $fp_counts"
e2e_check "cros_ec's client: XCMD and READMEM, no error at all" \
	matches "$ec_counts" "ok=[1-9]* enodev=0 other=0 readmem=[1-9]*"
e2e_check "cros_fp's client: ENODEV and nothing else" \
	matches "$fp_counts" "ok=[1-9]* enodev=[1-9]* other=0"
snap || fatal "no stats"
e2e_check "cros_fp: $(( cycles + 1 )) unplugs" is $(( cycles + 1 )) fp unplugs
e2e_check "cros_fp: each unplug revoked" is $(( cycles + 1 )) fp revocations
e2e_check "cros_fp: $(( cycles + 2 )) plugs" is $(( cycles + 2 )) fp plugs
e2e_check "cros_ec: never unplugged" is 0 ec unplugs
e2e_check "cros_ec: plugged once" is 1 ec plugs
e2e_check "cros_ec: no ENODEV, no zombie access" \
	is 0 ec ioctl_enodev open_enodev zombie_accesses

# 3. A daemon whose second node cannot be set up: it names the node and
# exits 1, and its first node (set up before) is closed, never served.
e2e_check_exit "a daemon whose cros_fp is taken exits 1" 1 \
	"$daemon" -f --device=cros_pd:minimal --device=cros_fp:fingerprint 2>"$run/second.log"
e2e_check "... saying which node" \
	grep -q "another cuse_ec already serves /dev/cros_fp" "$run/second.log"
e2e_check "... its cros_pd never appeared" test ! -e /dev/cros_pd
e2e_check "the running daemon still serves both" \
	reply_is info "ok info * devices=cros_ec,cros_fp"

# 4. SIGTERM revokes and ends every node: a read blocked on each (parked,
# as the daemon's counters report) ends with ENODEV.
"$probe" holdterm /dev/cros_ec >"$run/ec.hold" 2>&1 &
ec_hold=$!
"$probe" holdterm /dev/cros_fp >"$run/fp.hold" 2>&1 &
fp_hold=$!
e2e_wait_until 60 both_above parked_reads || fatal "no read parked on each node"
e2e_check_exit "the daemon exits 0 on SIGTERM" 0 e2e_stop_daemon
e2e_check_exit "SIGTERM woke cros_ec's blocked reader with ENODEV" 0 reaped "$ec_hold"
e2e_check_exit "SIGTERM woke cros_fp's blocked reader with ENODEV" 0 reaped "$fp_hold"
e2e_check "/dev/cros_ec is gone" e2e_wait_for_gone /dev/cros_ec 60
e2e_check "/dev/cros_fp is gone" e2e_wait_for_gone /dev/cros_fp 60
e2e_check "the exit is logged, for the signal" \
	grep -q "exiting (Terminated)" "$run/daemon.log"
rm -rf "$run"
e2e_done
