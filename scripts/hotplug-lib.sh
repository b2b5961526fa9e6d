# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# not set -euo pipefail: sourced, so the caller's options apply.
#
# hotplug-lib.sh - the one shell library of the tree: sourced by
# scripts/hotplug-compare, scripts/experiments/*, scripts/demo,
# scripts/uaf-lab and, through tests/e2e/lib.sh (a test-only layer on top of
# it), by every end-to-end test. It finds the build tree, tells whether
# /dev/cuse or user-mode-linux is usable, runs "somewhere with a real
# /dev/cuse" (here or in one user-mode-linux boot), starts and stops the
# daemon (optionally under valgrind memcheck), waits for a node, and reads
# single fields out of hotplug_sim's JSON report without needing jq. It
# sources nothing under tests/: the shipped scripts use it.
#
# Every function is prefixed hl_. The caller sets hl_prog (for messages)
# before sourcing, and hl_srcdir is the source tree this file lives in.
# Safe under set -euo pipefail, and sourced once however often it is named.

[[ -z ${hl_sourced:-} ]] || return 0
hl_sourced=1
hl_srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
hl_prog=${hl_prog:-hotplug}
# shellcheck source=scripts/version.sh
. "$hl_srcdir/scripts/version.sh"
hl_daemon_pid=
hl_nap_fd=
# Set by hl_stop_daemon, read by the scripts that source this file.
hl_daemon_killed=0

# Exit statuses shared by the scripts (the same as scripts/uaf-lab).
readonly HL_EXIT_FAIL=1
readonly HL_EXIT_USAGE=2
readonly HL_EXIT_CANNOT_RUN=99

hl_usage_error() {
	printf '%s: %s\n' "$hl_prog" "$*" >&2
	printf "Try '%s --help'.\n" "$hl_prog" >&2
	exit "$HL_EXIT_USAGE"
}

hl_cannot_run() {
	printf '%s: %s\n' "$hl_prog" "$*" >&2
	exit "$HL_EXIT_CANNOT_RUN"
}

# hl_is_uint TEXT [MAX]: TEXT is a decimal number in 1..MAX (default 1000000).
hl_is_uint() {
	[[ $1 =~ ^[0-9]{1,7}$ ]] && (( 10#$1 >= 1 && 10#$1 <= ${2:-1000000} ))
}

# hl_find_build_dir [DIR]: print the build tree to use. An explicit DIR must
# hold the built daemon; otherwise the automake top_builddir, the current
# directory and the demo's _build/main are tried in that order.
hl_find_build_dir() {
	local dir

	if [[ -n ${1:-} ]]; then
		[[ -x $1/cuse_ec/cuse_ec ]] || return 1
		(cd "$1" && pwd)
		return 0
	fi
	for dir in "${top_builddir:-}" "$PWD" "$hl_srcdir/_build/main"; do
		[[ -n $dir && -x $dir/cuse_ec/cuse_ec && -x $dir/hotplug_sim/hotplug_sim ]] || continue
		(cd "$dir" && pwd)
		return 0
	done
	return 1
}

# hl_cuse_here: /dev/cuse is usable here (a host with CUSE, or the guest).
hl_cuse_here() {
	[[ -c /dev/cuse && -r /dev/cuse && -w /dev/cuse ]]
}

# hl_uml_available: scripts/uml-run can boot a guest here.
hl_uml_available() {
	command -v "${UML_KERNEL:-linux.uml}" >/dev/null 2>&1 &&
		PATH=$PATH:/usr/sbin:/sbin command -v insmod >/dev/null 2>&1
}

# hl_uml_run BUILD TIMEOUT [UML-RUN-OPTIONS...] -- CMD...: run CMD in one
# user-mode-linux boot that sees this source tree and BUILD, bounded by
# TIMEOUT seconds. Returns CMD's status, or uml-run's own 124 (timed out)
# or 125 (the guest could not run it); each caller says what those mean.
hl_uml_run() {
	local build=$1 timeout=$2

	shift 2
	"$hl_srcdir/scripts/uml-run" --timeout "$timeout" --share "$hl_srcdir" \
		--share "$build" "$@"
}

# hl_nap SECS: pause SECS seconds with no process made: a read
# with a timeout on a FIFO that no one writes. Inside user-mode-linux every
# fork and exec costs tens of milliseconds of the host's CPU, so a polling
# loop's `sleep` cost as much as the poll itself. The FIFO is made once per
# shell (UML's devtmpfs has no /dev/fd for a process substitution).
hl_nap() {
	local fifo

	if [[ -z $hl_nap_fd ]]; then
		fifo=$(mktemp -u "${TMPDIR:-/tmp}/hl_nap.XXXXXX") || return 1
		mkfifo -m 600 "$fifo" || return 1
		exec {hl_nap_fd}<>"$fifo"
		rm -f "$fifo"
	fi
	read -r -t "$1" -u "$hl_nap_fd" _ || true
}

# hl_backoff VAR: the pause of a polling loop whose check costs a process
# (a control command, stat, grep). VAR holds milliseconds (start it at 0)
# and doubles from 10, so a condition that is met at once is seen within
# 10 ms, up to a cap: 200 ms on the host (a long wait polls 5 times a
# second, not 20), 1 s inside a user-mode-linux guest (uml-run sets
# UML_GUEST), where each poll's fork and exec costs ~50 ms of the host's
# CPU on a quiet machine and 300-600 ms on a loaded one: there a 5-Hz poll
# kept a core busy for as long as it waited, and a wait that grew longer
# under load polled more, which loaded it further. A check here is of a
# state that holds once reached, never of a passing one.
hl_backoff() {
	local -n hl_backoff_ms=$1
	local secs cap=200

	[[ -z ${UML_GUEST:-} ]] || cap=1000
	(( hl_backoff_ms = hl_backoff_ms ? hl_backoff_ms * 2 : 10 ))
	(( hl_backoff_ms <= cap )) || hl_backoff_ms=$cap
	printf -v secs '%d.%03d' $(( hl_backoff_ms / 1000 )) $(( hl_backoff_ms % 1000 ))
	hl_nap "$secs"
}

# hl_until SECS CMD...: run CMD until it succeeds, for up to SECS seconds
# by the clock however slow each try is (a loaded machine slows a guest
# many times over: a bound counted in tries would shrink with it). Every
# wait of these scripts is a deadline for a failure, never a pause that a
# passing run sits out, so they are generous.
hl_until() {
	# shellcheck disable=SC2034 # hl_backoff reads and sets it by name
	local end=$(( SECONDS + $1 + 1 )) pause=0

	shift
	while :; do
		"$@" && return 0
		(( SECONDS < end )) || return 1
		hl_backoff pause
	done
}

hl_exists() {
	[[ -e $1 ]]
}

hl_absent() {
	[[ ! -e $1 ]]
}

# hl_wait_for_node PATH [SECS]: wait (bounded, default 60 s) for PATH.
hl_wait_for_node() {
	hl_until "${2:-60}" hl_exists "$1"
}

# hl_wait_for_gone PATH [SECS]: wait (bounded, default 60 s) for PATH to go.
hl_wait_for_gone() {
	hl_until "${2:-60}" hl_absent "$1"
}

# hl_run_where_cuse BUILD OUT TIMEOUT CMD...: run CMD right here when this
# host has /dev/cuse, else in one user-mode-linux boot that sees the source
# tree, BUILD and OUT (read-write). The harness's own failures (no boot,
# timeout) become HL_EXIT_CANNOT_RUN with a message; CMD's status passes.
hl_run_where_cuse() {
	local build=$1 out=$2 timeout=$3 status

	shift 3
	if hl_cuse_here; then
		"$@"
		return
	fi
	hl_uml_available || hl_cannot_run "no usable /dev/cuse here and no user-mode-linux (Debian packages 'user-mode-linux' and 'kmod')"
	status=0
	# --stream: a person watches these; progress must reach them as it comes.
	hl_uml_run "$build" "$timeout" --mem 384M --stream --out "$out" -C "$out" -- "$@" ||
		status=$?
	case $status in
	124) hl_cannot_run "the user-mode-linux guest timed out after ${timeout}s" ;;
	125) hl_cannot_run "the user-mode-linux guest failed (see the uml-run message above)" ;;
	esac
	return $status
}

# hl_preload_lib BUILD: what LD_PRELOAD needs so that the devices of a
# `cuse_ec --socket-dir` daemon exist for a client (cuse_ec_preload(7)):
# the preload library, BUILD's own when BUILD is a build tree, else the
# installed one; in a sanitizer build the sanitizer's runtime first, as it
# must come first. Prints the list; fails with a message when there is none.
hl_preload_lib() {
	local build=$1 lib runtime

	for lib in "$build/preload/.libs/libcuse_ec_preload.so" \
		"$build/lib/cuse_ec/libcuse_ec_preload.so" \
		/usr/lib/*/cuse_ec/libcuse_ec_preload.so /usr/local/lib/cuse_ec/libcuse_ec_preload.so; do
		if [[ -f $lib ]]; then
			runtime=$(ldd "$lib" 2>/dev/null | hl_sanitizer_runtime)
			echo "${runtime:+$runtime }$lib"
			return 0
		fi
	done
	echo "no libcuse_ec_preload.so in $build (run make) or installed" >&2
	return 1
}

# hl_sanitizer_runtime: on stdin ldd's lines for a binary; prints the ASan or
# TSan runtime among them (nothing when it has none).
hl_sanitizer_runtime() {
	awk '$1 ~ /^lib[at]san\.so/ { print $3; exit }'
}

# hl_tool_argv BUILD PROGRAM TOOL...: set array hl_tool to run TOOL on
# PROGRAM's real binary: through BUILD's libtool when PROGRAM is a libtool
# wrapper script, or TOOL would see bash instead of the program.
hl_tool_argv() {
	local build=$1 prog=$2

	shift 2
	hl_tool=("$@")
	if [[ -x $build/libtool ]] && grep -q "libtool wrapper" "$prog" 2>/dev/null; then
		hl_tool=("$build/libtool" --mode=execute "$@")
	fi
}

# hl_unwrap BUILD PROGRAM: sets hl_exec to the binary that PROGRAM runs and
# hl_ld to the LD_LIBRARY_PATH it runs it with: PROGRAM and an empty path,
# unless PROGRAM is BUILD's libtool wrapper script, whose own settings are
# read by running it once through libtool. A wrapper (bash, then libtool's
# checks) costs seconds at every start inside user-mode-linux; the binary
# with hl_ld does what it does. Fails with a message when libtool does.
# shellcheck disable=SC2034 # hl_exec, hl_ld: read by the scripts that source this file
hl_unwrap() {
	local build=$1 prog=$2

	hl_exec=$prog
	hl_ld=
	if [[ -x $build/libtool ]] && grep -q "libtool wrapper" "$prog" 2>/dev/null; then
		{ read -r hl_ld && read -r hl_exec; } < <("$build/libtool" --mode=execute \
			sh -c 'printf "%s\n%s\n" "$LD_LIBRARY_PATH" "$1"' sh "$prog") || {
			echo "$hl_prog: cannot resolve the libtool wrapper $prog" >&2
			return 1
		}
	fi
}

# hl_sanitized BUILD PROGRAM: true when PROGRAM (a libtool wrapper in BUILD
# or a binary) was built with ASan or TSan, which valgrind cannot run.
hl_sanitized() {
	hl_tool_argv "$1" "$2" ldd
	[[ -n $("${hl_tool[@]}" "$2" 2>/dev/null | hl_sanitizer_runtime) ]]
}

# hl_valgrind_argv BUILD PROGRAM ARGS...: set array hl_vg to run PROGRAM's
# real binary under valgrind with ARGS (hl_tool_argv: valgrind must check
# the daemon, not the libtool wrapper's bash).
#
# --vex-guest-chase=no: by default valgrind translates a call and the first
# instructions of its callee as one block, and a use-after-free load in
# those first instructions is then reported at the call with the stack
# pointer already moved, so the report's stack stops after one frame. Not
# chasing costs little and gives every report its whole stack, which the
# tests sort reports by.
hl_valgrind_argv() {
	local build=$1 prog=$2

	shift 2
	hl_tool_argv "$build" "$prog" valgrind --vex-guest-chase=no "$@"
	hl_vg=("${hl_tool[@]}")
}

# hl_start_daemon BUILD NAME SOCK MODE VGLOG|- LOG: start cuse_ec (under
# valgrind memcheck unless VGLOG is "-") and wait for its node and control
# socket; valgrind in UML can take tens of seconds to start.
hl_start_daemon() {
	local build=$1 name=$2 sock=$3 mode=$4 vglog=$5 log=$6 daemon end

	daemon=$build/cuse_ec/cuse_ec
	rm -f "$sock"
	if [[ $vglog == - ]]; then
		"$daemon" -f --name="$name" --lifecycle="$mode" --control="$sock" \
			--log-level=warning 2>"$log" &
	else
		hl_valgrind_argv "$build" "$daemon" --error-exitcode=97 \
			--num-callers=20 --log-file="$vglog"
		"${hl_vg[@]}" "$daemon" -f --name="$name" --lifecycle="$mode" \
			--control="$sock" --log-level=warning 2>"$log" &
	fi
	hl_daemon_pid=$!
	end=$(( SECONDS + 91 ))
	while (( SECONDS < end )); do
		[[ -e /dev/$name && -S $sock ]] && return 0
		kill -0 "$hl_daemon_pid" 2>/dev/null || break
		hl_nap 0.05
	done
	echo "$hl_prog: the $mode daemon did not come up; its log:" >&2
	tail -20 "$log" >&2
	hl_stop_daemon >/dev/null 2>&1
	return 1
}

# hl_running PID: PID exists and is not a zombie. Read from /proc with
# builtins only: forking ps in a polling loop is slow inside UML.
hl_running() {
	local line state

	read -r line 2>/dev/null <"/proc/$1/stat" || return 1
	# The state follows the ")" that closes the command name.
	state=${line##*) }
	[[ ${state:0:1} != Z ]]
}

# hl_file_has FILE ERE: a line of FILE matches the extended regular
# expression ERE. The read built-in, not a grep process per poll (slow
# inside UML); a FILE not there (yet) has no such line.
hl_file_has() {
	local line

	[[ -r $1 ]] || return 1
	while IFS= read -r line || [[ -n $line ]]; do
		[[ $line =~ $2 ]] && return 0
	done <"$1"
	return 1
}

# hl_stop_pid SIG PID GRACE: send SIG to PID (a child of this shell), wait
# up to GRACE seconds for it to end, then SIGKILL it; return its exit status
# (128+N when signal N ended it). hl_killed is 1 when the SIGKILL was needed.
hl_stop_pid() {
	local sig=$1 pid=$2 grace=$3 end status=0

	hl_killed=0
	# Already gone is fine: wait still reaps it and gives its status.
	kill "-$sig" "$pid" 2>/dev/null || true
	end=$(( SECONDS + grace + 1 ))
	while (( SECONDS < end )); do
		hl_running "$pid" || break
		hl_nap 0.05
	done
	if hl_running "$pid"; then
		echo "$hl_prog: daemon $pid ignored SIG$sig for $grace s, killing it" >&2
		kill -KILL "$pid" 2>/dev/null || true
		hl_killed=1
	fi
	wait "$pid" || status=$?
	return "$status"
}

# hl_stop_daemon: SIGTERM the daemon, wait up to 60 s (valgrind writing its
# summary is slow in UML), then KILL; return its exit status (137, and
# hl_daemon_killed=1, when it had to be killed).
hl_stop_daemon() {
	local status=0

	hl_daemon_killed=0
	[[ -n $hl_daemon_pid ]] || return 0
	hl_stop_pid TERM "$hl_daemon_pid" 60 || status=$?
	# shellcheck disable=SC2034 # read by the scripts that source this file
	hl_daemon_killed=$hl_killed
	hl_daemon_pid=
	return "$status"
}

# hl_json_num FILE KEY: the first numeric (or true/false) value of "KEY" in
# hotplug_sim's one-line JSON report; empty when absent.
hl_json_num() {
	{ grep -Eo "\"$2\":(-?[0-9.]+|true|false)" "$1" 2>/dev/null || true; } |
		head -1 | cut -d: -f2
}

# hl_json_outcomes FILE: "ok ENODEV other" - totals over every op of the
# report's "totals" object (anything neither ok nor ENODEV is "other").
hl_json_outcomes() {
	sed -n 's/.*"totals":\(.*\),"per_client".*/\1/p' "$1" |
		{ grep -Eo '"[A-Za-z_0-9]+":[0-9]+' || true; } |
		awk -F'[":]+' '
			$2 == "ok" { ok += $3; next }
			$2 == "ENODEV" { enodev += $3; next }
			{ other += $3 }
			END { printf "%d %d %d\n", ok, enodev, other }'
}

# hl_compare_fields FILE: "calls ok enodev other zombies hung alive" from a
# hotplug_sim report, "?" for every figure it does not give (null, absent,
# or no report at all): a crashed daemon leaves zombie_accesses null, and a
# row must keep its columns all the same. alive: alive, crashed or ?.
hl_compare_fields() {
	local calls='?' ok='?' enodev='?' other='?' zombies='?' hung='?' alive='?' v

	if [[ -s $1 ]]; then
		# No process substitution: UML's devtmpfs has no /dev/fd.
		read -r ok enodev other <<<"$(hl_json_outcomes "$1")"
		v=$(hl_json_num "$1" calls) && [[ $v =~ ^[0-9]+$ ]] && calls=$v
		v=$(hl_json_num "$1" zombie_accesses) && [[ $v =~ ^[0-9]+$ ]] && zombies=$v
		v=$(hl_json_num "$1" hung) && [[ $v =~ ^[0-9]+$ ]] && hung=$v
		case $(hl_json_num "$1" daemon_alive) in
		true) alive=alive ;;
		false) alive=crashed ;;
		esac
	fi
	echo "${calls:-?} ${ok:-?} ${enodev:-?} ${other:-?} $zombies $hung $alive"
}

# The teaching table's columns, once: each row of hotplug-compare is these
# words, in this order, none empty ("?" for unknown).
HL_COMPARE_COLUMNS="mode calls ok enodev other zombie_accesses hung daemon daemon_status uaf_reports valgrind hotplug_sim_status verdict"

# hl_json_value WORD: WORD as a JSON number, or null when it is not one.
hl_json_value() {
	if [[ $1 =~ ^[0-9]+$ ]]; then echo "$1"; else echo null; fi
}

# hl_compare_write DIR CLIENTS CYCLES FAILURES ROW...: the table on stdout,
# and DIR/compare.csv and DIR/compare.json (docs/hotplug-compare.schema.json)
# from the rows (HL_COMPARE_COLUMNS each).
hl_compare_write() {
	local dir=$1 clients=$2 cycles=$3 failures=$4 row sep='' n
	local m calls ok enodev other zombies hung alive dstatus uaf vg sstatus verdict extra
	shift 4

	printf '%-10s %6s %6s %6s %6s %8s %5s %9s %5s  %s\n' \
		mode calls ok ENODEV other zombies hung daemon UAF signature
	echo "${HL_COMPARE_COLUMNS// /,}" >"$dir/compare.csv"
	{
		printf '{"scenario":{"clients":%d,"readers":1,"inflight_latency_ms":100,"flap_cycles":%d,"trigger":"control"},"modes":[' \
			"$clients" "$cycles"
		for row in "$@"; do
			read -r m calls ok enodev other zombies hung alive dstatus uaf vg sstatus verdict extra <<<"$row"
			n=$(wc -w <<<"$row")
			if [[ -n $extra || $n -ne $(wc -w <<<"$HL_COMPARE_COLUMNS") ]]; then
				echo "$hl_prog: internal error: row of $n words: $row" >&2
				return 1
			fi
			printf '%-10s %6s %6s %6s %6s %8s %5s %9s %5s  %s\n' \
				"$m" "$calls" "$ok" "$enodev" "$other" "$zombies" "$hung" "$alive" "$uaf" \
				"${verdict//_/ }" >&3
			echo "${row// /,}" >>"$dir/compare.csv"
			printf '%s{"mode":"%s","calls":%s,"ok":%s,"enodev":%s,"other":%s,"zombie_accesses":%s,"hung":%s,"daemon":"%s","daemon_survived":%s,"daemon_status":%s,"uaf_reports":%s,"valgrind":%s,"hotplug_sim_status":%s,"signature_ok":%s,"verdict":"%s"}' \
				"$sep" "$m" "$(hl_json_value "$calls")" "$(hl_json_value "$ok")" \
				"$(hl_json_value "$enodev")" "$(hl_json_value "$other")" \
				"$(hl_json_value "$zombies")" "$(hl_json_value "$hung")" "$alive" \
				"$(case $alive in alive | hung-exit) echo true ;; crashed | no-start) echo false ;; *) echo null ;; esac)" \
				"$(hl_json_value "$dstatus")" "$(hl_json_value "$uaf")" \
				"$([[ $vg == yes ]] && echo true || echo false)" \
				"$(hl_json_value "$sstatus")" "$([[ $verdict == as-expected ]] && echo true || echo false)" \
				"$verdict"
			sep=,
		done
		printf '],"failures":%d}\n' "$failures"
	} 3>&1 >"$dir/compare.json"
}

# hl_deadline_ms BUILD NAME FLOOR_MS: a call deadline for the daemon that
# serves /dev/NAME, from what this machine measures now rather than a guess:
# 10 times the median of three `ecctl hello` (an open, the client's
# start-up, HELLO, a close), and at least FLOOR_MS. A loaded machine, or a
# daemon under valgrind, gets the longer deadline it needs (measured: under
# valgrind with both cores busy a hello takes ~1 s and the slowest call of
# the teaching table ~5 s). Prints "DEADLINE_MS MEDIAN_MS", or "FLOOR_MS ?"
# when ecctl failed.
hl_deadline_ms() {
	local build=$1 name=$2 floor=$3 i t0 t1 median deadline times=()

	for (( i = 0; i < 3; i++ )); do
		t0=$(date +%s%N)
		if ! "$build/client/ecctl" --name="$name" hello >/dev/null 2>&1; then
			echo "$floor ?"
			return 0
		fi
		t1=$(date +%s%N)
		times+=("$(( (t1 - t0) / 1000000 ))")
	done
	median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
	deadline=$(( median * 10 ))
	(( deadline > floor )) || deadline=$floor
	echo "$deadline $median"
}

# hl_valgrind_errors LOG: the invalid reads, writes and frees memcheck
# reported - the use-after-free signature (0 for a missing or empty log).
hl_valgrind_errors() {
	[[ -s $1 ]] || { echo 0; return; }
	grep -cE '^==[0-9]+== Invalid (read|write|free)' "$1" || true
}

# hl_rss_kib PID: the process's VmRSS in KiB (empty if it is gone).
hl_rss_kib() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# hl_experiment_main NAME SUMMARY "$@": the whole of a scripts/experiments/
# script. The caller sets the array hl_sim_args (hotplug_sim options: load
# and scenario; trigger, device, control, reports are added here) and may set
# hl_exp_trigger (control, the default, or uevent). Handles --out, --build-dir,
# --help; re-runs itself inside user-mode-linux when /dev/cuse is missing;
# there starts a revocable cuse_ec, runs hotplug_sim, stops the daemon and
# draws the latency histogram. Exits 0 on a clean run, 1 when hotplug_sim
# saw something unexpected or the daemon did not exit cleanly, 2 usage, 99
# could not run.
hl_experiment_main() {
	local name=$1 summary=$2 self out=./hotplug-results build_opt='' in_guest=0
	local opt val build run sock sim_status daemon_status

	shift 2
	self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
	while (( $# )); do
		opt=$1
		val=
		case $opt in
		--*=*) val=${opt#*=}; opt=${opt%%=*} ;;
		--out|--build-dir)
			(( $# >= 2 )) || hl_usage_error "option '$opt' needs a value"
			val=$2
			shift
			;;
		esac
		case $opt in
		--out) out=$val ;;
		--build-dir) build_opt=$val ;;
		--in-guest) in_guest=1 ;;	# internal: /dev/cuse works here
		-V|--version) cuse_ec_print_version "$hl_prog"; exit 0 ;;
		-h|--help)
			cat <<USAGE
Usage: $hl_prog [--out DIR] [--build-dir DIR]
$summary
Runs where /dev/cuse works: here, or in one user-mode-linux boot.
Leaves $name.json, $name.csv, $name.txt (summary), $name.png (latency
histogram) and $name-timeline.png in --out (default ./hotplug-results).
  --out DIR        results directory
  --build-dir DIR  built tree (default: \$top_builddir, ., or _build/main)
Exit status: 0 clean run, 1 an unexpected outcome (see the summary),
2 bad usage, 99 could not run.
USAGE
			exit 0
			;;
		*) hl_usage_error "unknown argument '$1'" ;;
		esac
		shift
	done
	[[ -n $out ]] || hl_usage_error "--out needs a directory"
	if [[ -n $build_opt && ! -d $build_opt ]]; then
		hl_usage_error "--build-dir '$build_opt' is not a directory"
	fi
	build=$(hl_find_build_dir "$build_opt") ||
		hl_cannot_run "no built cuse_ec in ${build_opt:-\$top_builddir, . or $hl_srcdir/_build/main} (run make first)"
	mkdir -p "$out" || hl_cannot_run "cannot create --out '$out'"
	out=$(cd "$out" && pwd)
	if (( ! in_guest )) && ! hl_cuse_here; then
		hl_run_where_cuse "$build" "$out" "${HL_TIMEOUT:-600}" \
			bash "$self" --in-guest --out="$out" --build-dir="$build"
		exit
	fi

	run=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX") || hl_cannot_run "no temporary directory"
	sock=$run/ctl.sock
	# shellcheck disable=SC2064 # expand $run now: it is local
	trap "hl_stop_daemon >/dev/null 2>&1; rm -rf '$run'" EXIT
	hl_start_daemon "$build" "hx_$name$$" "$sock" revocable - "$out/$name-daemon.log" ||
		exit "$HL_EXIT_CANNOT_RUN"
	sim_status=0
	# shellcheck disable=SC2154 # hl_sim_args is the calling script's
	"$build/hotplug_sim/hotplug_sim" --name="hx_$name$$" --control="$sock" \
		--trigger="${hl_exp_trigger:-control}" --daemon-pid="$hl_daemon_pid" \
		"${hl_sim_args[@]}" --json="$out/$name.json" --csv="$out/$name.csv" |
		tee "$out/$name.txt" || sim_status=${PIPESTATUS[0]}
	daemon_status=0
	hl_stop_daemon || daemon_status=$?
	"$hl_srcdir/scripts/latency-histogram" "$out/$name.csv" "$out/$name.png" ||
		sim_status=1
	"$hl_srcdir/scripts/latency-timeline" "$out/$name.csv" "$out/$name.json" \
		"$out/$name-timeline.png" --title "$name" || sim_status=1
	echo "results: $out/$name.{json,csv,txt,png} $out/$name-timeline.png"
	if (( daemon_status != 0 )); then
		echo "$hl_prog: the daemon exited with status $daemon_status" >&2
		exit "$HL_EXIT_FAIL"
	fi
	(( sim_status == 0 )) || exit "$HL_EXIT_FAIL"
	exit 0
}
