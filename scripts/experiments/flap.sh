#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# flap.sh - 100 unplug/plug cycles (period 20 ms, jitter 5 ms) through the
# control socket while 4 clients, a blocked MKBP reader and a poller keep
# using the EC: every call must end ok or ENODEV, nothing may hang.
set -euo pipefail
hl_prog=flap.sh
# shellcheck source=scripts/hotplug-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../hotplug-lib.sh"
hl_sim_args=(--clients=4 --readers=1 --pollers=1 --scenario=flap --cycles=100
	--period=20ms --jitter=5ms --deadline=5s)
hl_experiment_main flap "Flap the EC 100 times under 4 clients, a blocked reader and a poller." "$@"
