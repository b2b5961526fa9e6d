#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uevent.sh - unplug and replug by synthetic uevents written to the CUSE
# device's sysfs uevent file, as the kernel would announce real hardware
# leaving, under 4 clients. Only a daemon that follows uevents (its --help
# mentions them) is revoked by them; with an older daemon this falls back to
# the control socket and says so, rather than reporting a run where the
# unplug never landed.
set -euo pipefail
hl_prog=uevent.sh
# shellcheck source=scripts/hotplug-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../hotplug-lib.sh"
hl_exp_trigger=control
build_opt=
for arg in "$@"; do
	[[ $arg == --build-dir=* ]] && build_opt=${arg#--build-dir=}
done
if build=$(hl_find_build_dir "$build_opt" 2>/dev/null) &&
   grep -qi uevent <<<"$("$build/cuse_ec/cuse_ec" --help 2>&1)"; then
	hl_exp_trigger=uevent
elif [[ " $* " == *" --in-guest "* ]] || hl_cuse_here; then
	# Said where the run happens, so --help and bad options stay quiet.
	echo "$hl_prog: this cuse_ec does not follow uevents yet: using the control socket" >&2
fi
hl_sim_args=(--clients=4 --readers=1 --scenario=flap --cycles=20 --period=50ms
	--uevent-arg=EXPERIMENT=uevent --deadline=5s)
hl_experiment_main uevent "Unplug/replug 20 times by synthetic uevents (control socket if the daemon cannot follow uevents yet)." "$@"
