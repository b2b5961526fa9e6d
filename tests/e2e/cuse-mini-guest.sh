# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of cuse-mini.test, run where /dev/cuse is real (inside a UML
# guest, or directly on a host that has CUSE): one daemon, one client.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

# Unique per run: a host with real CUSE may run several of these at once.
name=cuse_mini_$$_$RANDOM
node=/dev/$name

e2e_start_daemon "$e2e_bin/cuse_mini" -f --name="$name"
e2e_wait_for_node "$node" "$e2e_node_timeout" ||
	e2e_fatal "$node did not appear within $e2e_node_timeout s"
e2e_check "$node is a character device" test -c "$node"
e2e_check "client checks pass" "$e2e_bin/cuse_mini_client" "$node"
e2e_check_exit "daemon exits 0 on SIGTERM" 0 e2e_stop_daemon TERM
e2e_check "$node is removed when the daemon exits" e2e_wait_for_gone "$node" 60
e2e_check "client fails cleanly once the device is gone" \
	bash -c '! "$1" "$2" 2>/dev/null' _ "$e2e_bin/cuse_mini_client" "$node"
e2e_done
