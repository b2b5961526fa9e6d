# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-claim-guest.sh - what the daemon may touch: /dev/NAME of another
# device (a decoy made with mknod) is refused before anything is created;
# a second daemon for a served name fails with a clear message and leaves
# the first one's node, runtime udev rule and live control socket as they
# were. Run by cuse-ec-claim.test.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
run=$(mktemp -d /run/cuse-ec-claim.XXXXXX)
dev=/dev/cros_ec
rule=/run/udev/rules.d/70-cuse_ec-cros_ec.rules

# The daemon under test must end by itself within 30 s; 124 if it did not.
run_to_end() {
	local status=0

	timeout 30 "$@" || status=$?
	return "$status"
}

# mode owner:group type major:minor, as stat says.
describe() {
	stat -c '%a %U:%G %F %t:%T' "$1"
}

# --- a decoy at /dev/NAME: another device's node (1:3, as /dev/null) ---
mknod -m 0600 /dev/decoy c 1 3
before=$(describe /dev/decoy)
status=0
run_to_end "$daemon" -f --name=decoy --mode=0666 --owner=65534 \
	--control="$run/decoy.sock" 2>"$run/decoy.err" || status=$?
e2e_check_status "decoy: the daemon refuses to start (exit 1)" 1 "$status"
e2e_check "decoy: it says why" grep -q '/dev/decoy already exists (a character device 1:3)' \
	"$run/decoy.err"
e2e_check "decoy: /dev/decoy unchanged ($before)" test "$(describe /dev/decoy)" = "$before"
e2e_check "decoy: no control socket made" test ! -e "$run/decoy.sock"
e2e_check "decoy: no udev rule written" test ! -e /run/udev/rules.d/70-cuse_ec-decoy.rules
rm -f /dev/decoy
cat "$run/decoy.err"

# --- a second daemon for a name already served ---
e2e_start_daemon "$daemon" -f --mode=0640 --control="$run/ctl"
first=$e2e_daemon_pid
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
e2e_wait_until 60 e2e_ctl "$run/ctl" status >/dev/null || e2e_fatal "first daemon: no control socket"
e2e_wait_until 60 test "$(stat -c %a "$dev")" = 640 || e2e_fatal "first daemon: mode not applied"
node_before=$(describe "$dev")
sock_before=$(stat -c %i "$run/ctl")
rule_before=$(cat "$rule" 2>/dev/null || echo none)

status=0
run_to_end "$daemon" -f --mode=0666 --owner=65534 --control="$run/ctl" \
	2>"$run/second.err" || status=$?
e2e_check_status "second daemon: refused (exit 1)" 1 "$status"
e2e_check "second daemon: it says why" grep -q 'another cuse_ec already serves /dev/cros_ec' \
	"$run/second.err"
cat "$run/second.err"
e2e_check "first daemon's node unchanged ($node_before)" test "$(describe "$dev")" = "$node_before"
e2e_check "first daemon's control socket is the same inode" \
	test "$(stat -c %i "$run/ctl" 2>/dev/null)" = "$sock_before"
e2e_check "first daemon's udev rule unchanged" test "$(cat "$rule" 2>/dev/null || echo none)" = "$rule_before"
e2e_check "first daemon still answers its control socket" e2e_ctl "$run/ctl" status
e2e_check "first daemon still running" kill -0 "$first"

e2e_stop_daemon TERM
e2e_check_status "first daemon: exit 0" 0 $?
# Its lock went with it: the name can be served again at once.
e2e_start_daemon "$daemon" -f --control="$run/ctl"
e2e_check "after the first: a new daemon serves the name" \
	e2e_wait_until 60 e2e_ctl "$run/ctl" status
e2e_stop_daemon TERM
e2e_check_status "new daemon: exit 0" 0 $?

rm -rf "$run"
e2e_done
