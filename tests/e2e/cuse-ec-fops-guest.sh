# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-fops-guest.sh - one daemon per mode, the table's rows through
# cuse_ec_fops, and in unsafe mode valgrind's reports sorted by the file
# operation they happened in. Run by cuse-ec-fops.test (CUSE) and, with
# CUSE_EC_FRONTEND=socket (lib.sh), by devsock-fops.test: the same rows and the same
# expectations through the device socket and the preload library, on the
# host, as any user.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
fops=$e2e_bin/cuse_ec_fops
dev=/dev/cros_ec
run=$(e2e_tmpdir cuse-ec-fops)
node=$(e2e_node_path "$dev")
sock=$run/ctl
vglog=$run/valgrind.log

# Wait (bounded) for the control socket of the daemon just started.
wait_for_socket() {
	local end=$(( SECONDS + 61 ))

	while (( SECONDS < end )); do
		[[ -S $sock ]] && return 0
		kill -0 "$e2e_daemon_pid" 2>/dev/null || return 1
		hl_nap 0.05
	done
	return 1
}

# run_mode NAME CLIENT-MODE DAEMON-ARGS...: one daemon, every row, exit 0.
run_mode() {
	local name=$1 client_mode=$2

	shift 2
	rm -f "$sock"
	e2e_start_daemon "$daemon" -f --no-udev --control="$sock" "${e2e_front_args[@]}" "$@"
	e2e_wait_for_node "$node" "$e2e_node_timeout" || e2e_fatal "$name: $node did not appear"
	wait_for_socket || e2e_fatal "$name: no control socket"
	e2e_check "$name: every row of the table" "${e2e_client[@]}" "$fops" "$dev" "$sock" "$client_mode"
	e2e_check_exit "$name: daemon exit" 0 e2e_stop_daemon
	e2e_check "$name: $node gone with the daemon" e2e_wait_for_gone "$node" 60
}

run_mode refcount refcount --lifecycle=refcount
run_mode revocable revocable --lifecycle=revocable
run_mode "revocable --unplug-wakeups=v3" v3 --lifecycle=revocable --unplug-wakeups=v3
# The fix as finally posted answers every row as revocable does.
run_mode fenced revocable --lifecycle=fenced
run_mode "fenced --unplug-wakeups=v3" v3 --lifecycle=fenced --unplug-wakeups=v3

# Unsafe: the same rows under valgrind; every report must be at a site the
# pre-fix driver has (release, version read, XCMD, READMEM).
allowed='chardev_(release|read_version|ioctl_xcmd|ioctl_readmem)'
if hl_sanitized "$top_builddir" "$daemon"; then
	# A sanitizer build (scripts/check's ASan and TSan stages run this
	# through the socket): valgrind cannot run it, and ASan stops the
	# daemon at its first use-after-free. The four sites under ASan are
	# tests/cuse_ec/test_chardev_unplug.c's, in the same stage.
	echo "# unsafe: not run, $daemon is a sanitizer build (valgrind cannot run it)"
elif command -v valgrind >/dev/null; then
	rm -f "$sock"
	e2e_valgrind_argv "$daemon" --error-exitcode=97 --num-callers=24 --log-file="$vglog"
	"${e2e_vg[@]}" "$daemon" -f --no-udev --lifecycle=unsafe --control="$sock" "${e2e_front_args[@]}" &
	e2e_daemon_pid=$!
	e2e_daemon_pids+=("$e2e_daemon_pid")
	e2e_wait_for_node "$node" 60 || e2e_fatal "unsafe: $node did not appear under valgrind"
	wait_for_socket || e2e_fatal "unsafe: no control socket"
	e2e_check "unsafe: every row of the table" "${e2e_client[@]}" "$fops" "$dev" "$sock" unsafe
	e2e_check_exit "unsafe: valgrind reports memory errors (status 97)" 97 e2e_stop_daemon
	# One line per report: the file operation its access stack runs in.
	awk -v mode=count -f "$top_srcdir/tests/e2e/valgrind-sites.awk" "$vglog" | sort | uniq -c > "$run/sites"
	echo "---- valgrind reports by file operation ----"
	cat "$run/sites"
	# For the reader (the checks below judge): head keeps the first lines,
	# and awk stopped by the pipe head closed is no error.
	echo "---- reports elsewhere (none expected) ----"
	{ awk -v mode=show -v allowed="$allowed" -f "$top_srcdir/tests/e2e/valgrind-sites.awk" \
		"$vglog" || true; } | head -80
	echo "---- the first report ----"
	{ awk '/== Invalid/ { p = 1 } p { print } p && /^==[0-9]+== *$/ { n++ } n == 3 { exit }' \
		"$vglog" || true; } | head -40
	for site in chardev_release chardev_read_version chardev_ioctl_xcmd chardev_ioctl_readmem; do
		e2e_check "unsafe: a report at $site" grep -qw "$site" "$run/sites"
	done
	e2e_check "unsafe: no report anywhere else" \
		bash -c "! grep -vwE '$allowed' '$run/sites'"
	e2e_check "unsafe: invalid reads are reported" grep -q "Invalid read" "$vglog"
	e2e_check "unsafe: ... of blocks freed by the unplug" grep -q "lifecycle_unplug" "$vglog"
	e2e_check "unsafe: ... that ec_create allocated" grep -q "ec_create" "$vglog"
else
	e2e_skip_or_fail "valgrind is not installed (Debian package 'valgrind')"
fi
rm -rf "$run"
e2e_done
