# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-uaf-guest.sh - the unsafe lifecycle mode's use-after-free, caught
# by valgrind memcheck (ASan cannot run inside UML). Run by cuse-ec-uaf.test.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
probe=${CUSE_EC_PROBE:-$top_builddir/tests/cuse_ec/cuse_ec_probe}
run=$(mktemp -d /run/cuse-ec-uaf.XXXXXX)
sock=$run/ctl
dev=/dev/cros_ec
log=$run/valgrind.log

command -v valgrind >/dev/null || e2e_skip_or_fail "valgrind is not installed (Debian package 'valgrind')"

e2e_valgrind_argv "$daemon" --error-exitcode=97 --log-file="$log"
"${e2e_vg[@]}" "$daemon" -f --lifecycle=unsafe --control="$sock" &
e2e_daemon_pid=$!
e2e_daemon_pids+=("$e2e_daemon_pid")
e2e_wait_for_node "$dev" 60 || e2e_fatal "$dev did not appear under valgrind"
for (( i = 0; i < 200; i++ )); do
	[[ -S $sock ]] && break
	sleep 0.1
done
e2e_check "unsafe: HELLO on a file opened before unplug" "$probe" uaf "$dev" "$sock"
# Not e2e_stop_daemon: valgrind symbolising hundreds of reports on a busy
# machine can take longer than its 10 s grace; 60 s here.
e2e_check_exit "valgrind reports memory errors (status 97)" 97 \
	hl_stop_pid TERM "$e2e_daemon_pid" 60
e2e_daemon_pid=
e2e_daemon_pids=()
e2e_check "an invalid read is reported" grep -q "Invalid read" "$log"
e2e_check "... in the ioctl path" grep -Eq "chardev_ioctl|ec_host_command|ec_max_re" "$log"
e2e_check "... of a block freed by the unplug" grep -Eq "free'd|freed" "$log"
e2e_check "... and freed in lifecycle_unplug" grep -q "lifecycle_unplug" "$log"
e2e_check "... allocated by ec_create" grep -q "ec_create" "$log"
echo "---- first report ----"
# For the reader: head keeps 40 lines, and awk stopped by the pipe it
# closed is no error.
{ awk '/Invalid read/ { p = 1 } p { print } p && /^==[0-9]+== $/ { n++ } n == 3 { exit }' "$log" ||
	true; } | head -40
rm -rf "$run"
e2e_done
