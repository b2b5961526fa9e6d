# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-user-guest.sh - --user=nobody: once serving, the daemon runs as
# nobody with no capabilities, and still serves, unplugs and replugs from
# its control socket and follows its own uevents. Run by cuse-ec-user.test.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
ecctl=${CUSE_EC_ECCTL:-$top_builddir/client/ecctl}
run=$(mktemp -d /run/cuse-ec-user.XXXXXX)
sock=$run/ctl
dev=/dev/cros_ec
uevent=/sys/class/cuse/cros_ec/uevent

wait_for() {
	e2e_wait_until 60 "$@"
}

ctl() {
	e2e_ctl "$sock" "$@"
}

stat_of() {
	e2e_stat "$sock" "$1"
}

stat_is() {
	[[ $(stat_of "$1") == "$2" ]]
}

status_is() {
	[[ $(ctl status) == "ok $1 "* ]]
}

# FIELD of /proc/PID/status, whitespace squeezed.
proc_field() {
	awk -v k="$2:" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "/proc/$1/status"
}

ids_are() {
	[[ $(proc_field "$1" Uid) == "$2 $2 $2 $2" && $(proc_field "$1" Gid) == "$3 $3 $3 $3" ]]
}

synth() {
	local uuid

	read -r uuid </proc/sys/kernel/random/uuid
	echo "$1 $uuid SRC=test" >"$uevent"
}

e2e_start_daemon "$daemon" -f --user=nobody --mode=0666 --control="$sock"
pid=$e2e_daemon_pid
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
wait_for test -S "$sock" || e2e_fatal "no control socket"

e2e_check "the daemon runs as nobody:nogroup (uid/gid 65534, all four)" \
	wait_for ids_are "$pid" 65534 65534
echo "daemon: Uid $(proc_field "$pid" Uid); Gid $(proc_field "$pid" Gid); Groups $(proc_field "$pid" Groups)"
for cap in CapInh CapPrm CapEff CapAmb; do
	e2e_check "$cap is empty" test "$(proc_field "$pid" $cap)" = 0000000000000000
done
e2e_check "the node got its mode before the drop (0666)" \
	test "$(stat -c %a "$dev")" = 666

e2e_check "serving: ecctl hello" "$ecctl" hello
e2e_check "serving: ecctl version as nobody" \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ecctl" version
e2e_check "control: stats answered to root" ctl stats
e2e_check "control: unplug wait" ctl unplug wait
e2e_check "unplugged: ecctl fails" bash -c "! '$ecctl' hello 2>/dev/null"
e2e_check "control: plug" ctl plug
e2e_check "replugged: ecctl hello" "$ecctl" hello

e2e_check "uevent: the sysfs uevent file exists" test -w "$uevent"
synth remove
e2e_check "uevent remove followed: uevent_unplugs=1" wait_for stat_is uevent_unplugs 1
e2e_check "uevent remove followed: unplugged" status_is unplugged
synth add
e2e_check "uevent add followed: uevent_plugs=1" wait_for stat_is uevent_plugs 1
e2e_check "uevent add followed: plugged" wait_for status_is plugged
e2e_check "after the uevents: ecctl hello" "$ecctl" hello
e2e_check "still nobody after all that" ids_are "$pid" 65534 65534

e2e_check_exit "SIGTERM: exit 0" 0 e2e_stop_daemon TERM
# As nobody it could not unlink its socket in a root-owned directory; a new
# daemon (root again) takes the path over.
e2e_start_daemon "$daemon" -f --user=nobody --control="$sock"
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear again"
e2e_check "restarted on the same control path: status" wait_for ctl status
e2e_check_exit "second daemon: exit 0" 0 e2e_stop_daemon TERM

rm -rf "$run"
e2e_done
