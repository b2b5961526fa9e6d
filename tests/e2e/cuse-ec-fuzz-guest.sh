# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# cuse-ec-fuzz-guest.sh - the fuzz client against a running cuse_ec, in one
# boot (run by cuse-ec-fuzz.test). Run by bash; see tests/e2e/lib.sh.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
fuzz=$top_builddir/tests/e2e/cuse_ec_fuzz
run=$(mktemp -d /run/cuse-ec-fuzz.XXXXXX)
sock=$run/ctl
dev=/dev/cros_ec

e2e_start_daemon "$daemon" -f --control="$sock" --log-level=err
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "$dev did not appear"
hl_until 60 test -S "$sock" || e2e_fatal "no control socket $sock"

# shellcheck disable=SC2086
# The volume is the host's: devsock-fuzz.test runs the client's defaults
# (20,000 operations, 10 s of flapping) through the device socket, and again
# under ASan and TSan, into the same file operations. Here the CUSE path and
# the kernel's part, shortened: every guest system call is a ptrace stop
# under user-mode-linux. CUSE_EC_FUZZ_ARGS still wins (the last option does).
e2e_check "fuzz: every answer allowed by the ABI, HELLO afterwards" \
	"$fuzz" --dev "$dev" --control "$sock" --ops 5000 --seconds 3 ${CUSE_EC_FUZZ_ARGS:-}
e2e_check "the daemon survived the fuzzing" kill -0 "$e2e_daemon_pid"
e2e_check_exit "daemon exit 0 after the fuzzing" 0 e2e_stop_daemon TERM

rm -rf "$run"
e2e_done
