# SPDX-License-Identifier: GPL-2.0-or-later

# scripts/uml-run is a user feature too (see docs/uml.md) but stays
# uninstalled: it is a development tool for this tree.
dist_noinst_SCRIPTS += \
	scripts/uml-run \
	scripts/check

EXTRA_DIST += scripts/deps.sh docs/uml.md
