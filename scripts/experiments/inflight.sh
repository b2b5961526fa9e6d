#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# inflight.sh - the deterministic race: every host command sleeps 100 ms
# inside the EC (the daemon's latency injection), and the unplug lands while
# an XCMD is in there. The revocable EC must let that call finish, then fail
# everything after it with ENODEV; the summary shows how long the unplug
# waited for the call ("longest in-flight call").
set -euo pipefail
hl_prog=inflight.sh
# shellcheck source=scripts/hotplug-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../hotplug-lib.sh"
hl_sim_args=(--clients=4 --mix=xcmd=100 --readers=1 --scenario=inflight
	--latency=100ms --deadline=5s)
hl_experiment_main inflight "Unplug while an XCMD is inside the EC (100 ms injected latency)." "$@"
