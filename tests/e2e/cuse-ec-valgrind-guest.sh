# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-valgrind-guest.sh - the daemon under valgrind memcheck through an
# end-to-end run, in the revocable and the refcount lifecycle: real-client
# start-ups, events, 25 unplug/replug cycles under load, the fuzz client
# (steady and flapping), SIGTERM. memcheck must report 0 errors and 0
# definitely lost bytes (status 97 otherwise). The unsafe mode is left out:
# its use-after-free is the point (cuse-ec-fops.test). Run by
# cuse-ec-valgrind.test through the device socket on the host (valgrind in
# a user-mode-linux guest is many times slower; the CUSE front end's code
# runs under valgrind there in cuse-ec-fops.test's unsafe mode, where any
# report outside the four pre-fix sites fails).
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
probe=("${e2e_client[@]}" "${CUSE_EC_PROBE:-$top_builddir/tests/cuse_ec/cuse_ec_probe}")
ecctl=("${e2e_client[@]}" "${CUSE_EC_ECCTL:-$top_builddir/client/ecctl}")
fuzz=("${e2e_client[@]}" "$top_builddir/tests/e2e/cuse_ec_fuzz")
run=$(e2e_tmpdir cuse-ec-valgrind)
node_mode=()
[[ $e2e_frontend == socket ]] || node_mode=(--mode=0666)
sock=$run/ctl
dev=/dev/cros_ec

command -v valgrind >/dev/null || e2e_skip_or_fail "valgrind is not installed (Debian package 'valgrind')"

for mode in revocable refcount; do
	log=$run/$mode.log
	e2e_valgrind_argv "$daemon" --error-exitcode=97 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite --log-file="$log"
	rm -f "$sock"
	"${e2e_vg[@]}" "$daemon" -f --lifecycle="$mode" "${node_mode[@]}" --control="$sock" \
		--log-level=err "${e2e_front_args[@]}" &
	e2e_daemon_pid=$!
	e2e_daemon_pids+=("$e2e_daemon_pid")
	e2e_wait_for_node "$dev" 60 || e2e_fatal "$dev did not appear under valgrind"
	hl_until 60 test -S "$sock" || true
	[[ -S $sock ]] || e2e_fatal "no control socket under valgrind"

	for cmd in version battery temps fans console "usbpd ports"; do
		# shellcheck disable=SC2086
		e2e_check "$mode: ecctl $cmd" "${ecctl[@]}" $cmd
	done
	e2e_check "$mode: ABI corners" "${probe[@]}" abi "$dev"
	if [[ $mode == revocable ]]; then
		e2e_check "$mode: events, unplug wakes the reader" "${probe[@]}" events "$dev" "$sock"
		e2e_check "$mode: 25 unplug/replug cycles under load" "${probe[@]}" load "$dev" "$sock" 25
	else
		e2e_check "$mode: zombies counted" "${probe[@]}" zombie "$dev" "$sock"
	fi
	# Whatever the checks above left, the fuzz client starts with an EC.
	# (A plug that fails shows as the fuzz check's failure.)
	if ! "$daemon" --control="$sock" --send status | grep " plugged" >/dev/null; then
		"$daemon" --control="$sock" --send plug >/dev/null || true
	fi
	e2e_check "$mode: fuzz, steady and flapping" \
		"${fuzz[@]}" --dev "$dev" --control "$sock" --ops 3000 --clients 2 --seconds 4 --flap-ms 50

	# Not e2e_stop_daemon: the leak check at exit is slow under valgrind
	# (60 s, not its 10).
	status=0
	hl_stop_pid TERM "$e2e_daemon_pid" 60 || status=$?
	e2e_daemon_pid=
	e2e_daemon_pids=()
	e2e_check_status "$mode: memcheck: 0 errors, 0 definite leaks, exit 0" 0 "$status"
	# For the reader; a log without these lines is what the check above judged.
	{ grep -E "ERROR SUMMARY|definitely lost|in use at exit|All heap blocks" "$log" || true; } |
		sed "s/^/$mode: /"
	(( status == 0 )) || cat "$log"
	e2e_wait_for_gone "$dev" 60 || e2e_fatal "$dev stayed after the daemon exited"
done

rm -rf "$run"
e2e_done
