#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# soak.sh - a longer random run: 300 seeded random actions (toggle the EC
# or not, then sleep up to 25 ms) under 8 client processes (not threads, so
# a client that dies is noticed), 2 blocked readers and 2 pollers. The
# deadline is 10 s: with this many processes on one UML CPU a revoke has
# been seen to take almost 5 s to be acknowledged.
set -euo pipefail
hl_prog=soak.sh
# shellcheck source=scripts/hotplug-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../hotplug-lib.sh"
hl_sim_args=(--processes --clients=8 --readers=2 --pollers=2 --scenario=random
	--cycles=300 --period=25ms --seed=7 --deadline=10s)
hl_experiment_main soak "Random unplug/plug soak: 300 actions, 8 client processes, 2 readers, 2 pollers." "$@"
