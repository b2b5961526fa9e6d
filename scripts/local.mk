# SPDX-License-Identifier: GPL-2.0-or-later

# scripts/uml-run is a user feature too (see docs/uml.md) but stays
# uninstalled: it is a development tool for this tree.
dist_noinst_SCRIPTS += \
	scripts/uml-run \
	scripts/check

EXTRA_DIST += scripts/deps.sh scripts/uml-xstate-shim.c docs/uml.md

# hotplug experiments: the 3-mode teaching table, the latency histogram, the
# end-to-end demo and the ready experiments (run from the source tree).
dist_noinst_SCRIPTS += \
	scripts/hotplug-compare \
	scripts/latency-histogram \
	scripts/demo \
	scripts/experiments/flap.sh \
	scripts/experiments/inflight.sh \
	scripts/experiments/compare-modes.sh \
	scripts/experiments/uevent.sh \
	scripts/experiments/soak.sh
EXTRA_DIST += scripts/hotplug-lib.sh
