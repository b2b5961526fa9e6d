# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# not set -euo pipefail: sourced, so the caller's options apply.
#
# deps.sh - the one list of Debian packages this project needs, and an
# installer that fetches only the missing ones. Sourced by scripts/check and
# scripts/demo so that README, CI and a fresh machine agree on one list.

# Build: toolchain and autotools.
CUSE_EC_BUILD_PKGS="gcc make autoconf automake libtool pkg-config"
# Libraries (headers + pkg-config files).
CUSE_EC_LIB_PKGS="liburcu-dev libfuse3-dev libudev-dev libjson-c-dev check"
# Running and testing: the user-mode-linux kernel with CUSE, insmod for
# its modules, fusermount3, valgrind for the use-after-free lab, clang for
# the libFuzzer target, gnuplot for latency histograms, mandoc to lint the
# man pages, udev for the end-to-end run with a real systemd-udevd inside
# the guest, spin to model-check the librevocable protocol, graphviz to
# redraw docs/components.svg (make components-svg), systemd for
# systemd-analyze verify of the units, shellcheck for every shell script,
# setpriv and script (util-linux, bsdutils: essential) for the unit and
# ec-shell tests, python3-jsonschema to hold the JSON reports to their
# schemas (docs/*.schema.json).
CUSE_EC_RUN_PKGS="user-mode-linux kmod fuse3 valgrind clang gnuplot-nox mandoc udev spin systemd graphviz shellcheck python3-jsonschema"

cuse_ec_missing_pkgs() {
	local pkg missing=""

	for pkg in $CUSE_EC_BUILD_PKGS $CUSE_EC_LIB_PKGS $CUSE_EC_RUN_PKGS; do
		if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep 'install ok installed' >/dev/null; then
			missing="$missing $pkg"
		fi
	done
	echo "$missing"
}

# cuse_ec_install_deps: apt-get install what is missing of the lists above.
cuse_ec_install_deps() {
	local missing sudo=""

	missing=$(cuse_ec_missing_pkgs)
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null 2>&1 || {
			echo "error: missing packages:$missing (run as root or install sudo)" >&2
			return 1
		}
		sudo=sudo
	fi
	echo "== installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq || return 1
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null || return 1
}
