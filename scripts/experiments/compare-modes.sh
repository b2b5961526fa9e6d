#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# compare-modes.sh - the teaching table (scripts/hotplug-compare) with its
# defaults, then a latency histogram of each mode's calls.
set -euo pipefail
hl_prog=compare-modes.sh
# shellcheck source=scripts/hotplug-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../hotplug-lib.sh"

out=./hotplug-results
args=()
while (( $# )); do
	case $1 in
	--out=*) out=${1#--out=} ;;
	--out)
		(( $# >= 2 )) || hl_usage_error "option '--out' needs a value"
		out=$2
		shift
		;;
	-h|--help)
		cat <<USAGE
Usage: $hl_prog [--out DIR] [hotplug-compare options]
Run scripts/hotplug-compare (every lifecycle mode, one table) and draw
<mode>.png latency histograms. Results in --out (default ./hotplug-results).
Exit status: that of hotplug-compare (0 every mode as expected, 1 not,
2 bad usage, 99 could not run).
USAGE
		exit 0
		;;
	-V|--version) cuse_ec_print_version "$hl_prog"; exit 0 ;;
	*) args+=("$1") ;;
	esac
	shift
done
status=0
"$hl_srcdir/scripts/hotplug-compare" --out="$out" "${args[@]}" || status=$?
(( status == HL_EXIT_USAGE || status == HL_EXIT_CANNOT_RUN )) && exit $status
for csv in "$out"/revocable.csv "$out"/refcount.csv "$out"/unsafe.csv; do
	[[ -s $csv ]] || continue
	"$hl_srcdir/scripts/latency-histogram" "$csv" "${csv%.csv}.png" \
		--title="$(basename "${csv%.csv}") lifecycle: call latency" || status=1
done
exit $status
