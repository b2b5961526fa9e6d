# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# tests/e2e/lib.sh - helpers for end-to-end tests that need a real /dev/cuse.
# A test-only layer over scripts/hotplug-lib.sh, the one shell library (which
# holds the CUSE and UML detection, the guest boot, the node waits, the
# valgrind command line and the stopping of a process): what is here is the
# checks' bookkeeping and the tests' conventions (skip or fail, exit 99 for
# a harness failure). Safe under set -euo pipefail.
# not set -euo pipefail: sourced, so the caller's options apply.
#
# Source it from a bash test script:  . "$top_srcdir/tests/e2e/lib.sh"
#
# The usual shape is two files: a `.test` script that make check runs on the
# host, and a guest script holding the actual checks, run in ONE boot:
#
#   foo.test:        . "$top_srcdir/tests/e2e/lib.sh"
#                    e2e_run_checks "$top_srcdir/tests/e2e/foo-guest.sh"
#   foo-guest.sh:    set -euo pipefail
#                    . "$top_srcdir/tests/e2e/lib.sh"
#                    e2e_start_daemon "$e2e_bin/cuse_mini" -f --name=x
#                    e2e_wait_for_node /dev/x 10 || e2e_fatal "no /dev/x"
#                    e2e_check "client passes" "$e2e_bin/cuse_mini_client" /dev/x
#                    e2e_check_exit "daemon exit" 0 e2e_stop_daemon
#                    e2e_done
#
# Scripts run with set -euo pipefail: a command that fails outside a check
# ends the script (the ERR trap below names it), so a failure that is
# expected is written as one (`|| true` with the reason, or `if !`), and a
# command whose status is the point is run through e2e_check_exit.
#
# Helpers (all prefixed e2e_):
#   e2e_cuse_available      true if /dev/cuse is usable here (host or guest)
#   e2e_uml_available       true if scripts/uml-run can boot a guest here
#   e2e_skip_or_fail MSG    exit 77 (skip), or 1 when $CI is set: in CI a
#                           missing environment is a failure, not a skip
#   e2e_run_guest [uml-run options --] CMD...
#                           run CMD in a UML guest that sees the source and
#                           build trees; harness failures (124/125) become
#                           99 (automake "hard error"), the rest pass through
#   e2e_run_checks SCRIPT [ARGS...]
#                           run SCRIPT with bash right here if /dev/cuse is
#                           usable, else inside a guest, else skip/fail
#   e2e_run_socket_checks SCRIPT [ARGS...]
#                           run SCRIPT right here through the socket front
#                           end (CUSE_EC_FRONTEND=socket, below): no CUSE,
#                           no guest, any user
#   e2e_daemon_sanitized    true when this build's daemon has ASan or TSan
#                           in it (scripts/check's sanitizer stages): its
#                           memory figures are the sanitizer's, not its own
#   e2e_tmpdir NAME         a fresh directory for a script's files (/run in
#                           a guest, $TMPDIR or /tmp through the socket)
#   e2e_wait_for_node PATH [SECS]      wait (bounded, default 10 s) for PATH
#                           (/dev/NAME: the served node, whichever front end)
#   e2e_wait_for_gone PATH [SECS]      wait (bounded) for PATH to vanish
#   e2e_start_daemon CMD...  start CMD in the background; its pid is in
#                           e2e_daemon_pid (the latest one) and e2e_daemon_pids;
#                           under valgrind when CUSE_EC_VALGRIND=1 (memory
#                           errors or definite leaks -> daemon status 97)
#   e2e_stop_daemon [SIG [PID]]  signal the latest daemon (or PID) with SIG
#                           (default TERM), wait up to 10 s (then KILL),
#                           return its exit status (128+N if killed by N)
#   e2e_check DESC CMD...   run CMD, print ok/not ok, count failures
#   e2e_check_status DESC WANT GOT     compare two exit statuses
#   e2e_check_exit DESC WANT CMD...    run CMD (e2e_stop_daemon, wait PID,
#                           ...) and check that it exits WANT
#   e2e_wait_until SECS CMD...  run CMD until it succeeds, at most SECS s
#   e2e_ctl SOCK LINE       one control command to the daemon at SOCK
#   e2e_stat SOCK KEY       one counter of the daemon's stats
#   e2e_stat_in STATS KEY   one counter of a stats reply already had
#   e2e_fatal MSG           print, stop the daemon, exit 1
#   e2e_done                print a summary; exit 0 if no check failed
#
# Variables: top_srcdir / top_builddir (from make check's environment, or
# derived from this file's location), e2e_bin (= $top_builddir/tests/e2e),
# UML_OUT (a writable results dir; inside uml-run it is the --out dir).
# e2e_node_timeout: seconds to wait for a daemon's node (10, or 60 under
# valgrind, which starts slowly in UML).
# UML_RUN_TIMEOUT overrides the per-guest timeout (seconds, default 300).
# CUSE_EC_DAEMON: the daemon's binary (set here from the build's, below).
#
# The front end (CUSE_EC_FRONTEND): `cuse` (default), the daemon serves a
# CUSE node /dev/NAME; `socket`, it serves the device socket DIR/NAME
# (cuse_ec --socket-dir) and clients find /dev/NAME through the preload
# library (cuse_ec_preload(7)). A script written once runs through either:
#   e2e_frontend     cuse or socket
#   e2e_front_args   the daemon options that choose it (an array; empty
#                    for cuse): "$daemon" -f "${e2e_front_args[@]}" ...
#   e2e_client       the prefix a client runs with (an array; empty for
#                    cuse): "${e2e_client[@]}" "$probe" abi /dev/cros_ec
#   e2e_sock_dir     the socket directory (socket only)
#   e2e_client_cmd PROGRAM   prints a command that runs PROGRAM through the
#                    front end (PROGRAM itself for cuse; a wrapper script
#                    for socket), for the places an array cannot go, such
#                    as `bash -c '"$1" ...' _ "$ecctl"`
# Checks that only CUSE can make (the node's mode in /dev, another user
# kept out by it) test [[ $e2e_frontend == cuse ]].

# The e2e_* variables are read by the scripts that source this file.
# shellcheck disable=SC2034

if [[ -z ${top_srcdir:-} ]]; then
	top_srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fi
top_builddir=${top_builddir:-$PWD}
hl_prog=${hl_prog:-e2e}
# shellcheck source=scripts/hotplug-lib.sh
. "$top_srcdir/scripts/hotplug-lib.sh"
e2e_bin=$top_builddir/tests/e2e
e2e_checks=0
e2e_failures=0
e2e_daemon_pid=
e2e_daemon_pids=()
e2e_node_timeout=60
if [[ ${CUSE_EC_VALGRIND:-0} == 1 ]]; then
	e2e_node_timeout=60
fi
# The daemon the checks run: CUSE_EC_DAEMON, or the build's. In a build
# tree cuse_ec is libtool's wrapper script (it links the shared
# librevocable); resolved once here, on the host, to the binary and the
# library path it sets (hl_unwrap), and handed on in CUSE_EC_DAEMON and
# CUSE_EC_DAEMON_LD, which uml-run passes into a guest: a wrapper costs
# seconds at every start and control call there.
if [[ -z ${CUSE_EC_DAEMON:-} && -x $top_builddir/cuse_ec/cuse_ec ]]; then
	hl_unwrap "$top_builddir" "$top_builddir/cuse_ec/cuse_ec" || exit 99
	export CUSE_EC_DAEMON=$hl_exec CUSE_EC_DAEMON_LD=$hl_ld
fi
if [[ -n ${CUSE_EC_DAEMON_LD:-} ]]; then
	export LD_LIBRARY_PATH=$CUSE_EC_DAEMON_LD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
e2e_frontend=${CUSE_EC_FRONTEND:-cuse}
e2e_front_args=()
e2e_client=()
e2e_sock_dir=
case $e2e_frontend in
cuse) ;;
socket)
	# A script's own temporary directory is its to remove; this one is
	# made for every script that sources the library, so it goes at exit
	# unless the script sets its own EXIT trap (then it is left in /tmp).
	e2e_sock_dir=$(mktemp -d "${TMPDIR:-/tmp}/cuse-ec-sock.XXXXXX")
	e2e_client_bin=$(mktemp -d "${TMPDIR:-/tmp}/cuse-ec-client.XXXXXX")
	trap 'rm -rf "$e2e_sock_dir" "$e2e_client_bin"' EXIT
	e2e_front_args=(--socket-dir="$e2e_sock_dir")
	e2e_preload=$(hl_preload_lib "$top_builddir") || exit 99
	e2e_client=(env LD_PRELOAD="$e2e_preload" CUSE_EC_SOCKET_DIR="$e2e_sock_dir")
	;;
*)
	echo "e2e: CUSE_EC_FRONTEND must be cuse or socket, not '$e2e_frontend'" >&2
	exit 99
	;;
esac
# Under set -e a failing command ends the script; say which one and where
# (errtrace: in functions too). Only where -e is on: a command substitution
# runs without it, and a failure there ends nothing.
e2e_err=0
set -o errtrace
trap 'e2e_err=$?; [[ $- != *e* ]] ||
	echo "e2e: ${BASH_SOURCE[0]:-$0} line $LINENO: \"$BASH_COMMAND\" failed (status $e2e_err)" >&2' ERR

e2e_cuse_available() {
	hl_cuse_here
}

e2e_uml_available() {
	hl_uml_available
}

e2e_skip_or_fail() {
	if [[ -n ${CI:-} ]]; then
		echo "FAIL (CI is set, so no skipping): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

e2e_run_guest() {
	local status=0

	hl_uml_run "$top_builddir" "${UML_RUN_TIMEOUT:-300}" "$@" || status=$?
	case $status in
	124|125)
		echo "e2e: uml-run harness failure (status $status)" >&2
		return 99
		;;
	esac
	return $status
}

e2e_run_checks() {
	local script=$1

	shift
	if e2e_cuse_available; then
		bash "$script" "$@"
		return
	fi
	if ! e2e_uml_available; then
		e2e_skip_or_fail "no usable /dev/cuse and no user-mode-linux (install the Debian packages 'user-mode-linux' and 'kmod')"
	fi
	if [[ -n ${UML_OUT:-} ]]; then
		e2e_run_guest --out "$UML_OUT" -- bash "$script" "$@"
	else
		e2e_run_guest -- bash "$script" "$@"
	fi
}

e2e_run_socket_checks() {
	local script=$1

	shift
	CUSE_EC_FRONTEND=socket bash "$script" "$@"
}

e2e_daemon_sanitized() {
	hl_sanitized "$top_builddir" "${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}"
}

e2e_client_cmd() {
	local prog=$1 wrapper

	if [[ $e2e_frontend == cuse ]]; then
		echo "$prog"
		return
	fi
	wrapper=$e2e_client_bin/${prog##*/}
	{
		echo '#!/bin/bash'
		printf 'exec'
		printf ' %q' "${e2e_client[@]}" "$prog"
		printf ' "$@"\n'
	} >"$wrapper"
	chmod +x "$wrapper"
	echo "$wrapper"
}

e2e_tmpdir() {
	if [[ $e2e_frontend == cuse ]]; then
		mktemp -d "/run/$1.XXXXXX"
	else
		mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX"
	fi
}

# e2e_node_path PATH: where the node PATH is served (PATH itself, or for
# /dev/NAME through the socket front end the socket DIR/NAME).
e2e_node_path() {
	if [[ $e2e_frontend == socket && $1 == /dev/* ]]; then
		echo "$e2e_sock_dir/${1#/dev/}"
	else
		echo "$1"
	fi
}

e2e_wait_for_node() {
	local path=$1

	shift
	hl_wait_for_node "$(e2e_node_path "$path")" "$@"
}

e2e_wait_for_gone() {
	local path=$1

	shift
	hl_wait_for_gone "$(e2e_node_path "$path")" "$@"
}

# e2e_wait_stat DAEMON SOCK NAME MIN [SECS]: wait until the daemon's
# `stats` reports NAME >= MIN (e.g. parked_reads 1: a read really is parked
# in the daemon). The daemon says when, never a sleep; after SECS (default
# 60, generous for valgrind under load) it says which condition failed.
e2e_wait_stat() {
	local daemon=$1 sock=$2 name=$3 min=$4 secs=${5:-60} end got="" out="" pause=0

	end=$(( SECONDS + secs ))
	while :; do
		# No answer yet (the socket is not up) is one more round.
		# Parsed by bash: no pipeline, one process a round (see hl_nap).
		out=$("$daemon" --control="$sock" --send=stats 2>/dev/null) || out=
		got=
		[[ " $out " =~ [[:space:]]$name=([0-9]+)[[:space:]] ]] && got=${BASH_REMATCH[1]}
		[[ -n $got ]] && (( got >= min )) && return 0
		(( SECONDS < end )) || break
		hl_backoff pause
	done
	echo "e2e: the daemon did not report $name >= $min within $secs s (last: ${got:-none})" >&2
	return 1
}

# e2e_wait_trace DAEMON SOCK REGEX [SECS]: wait until the daemon's lifecycle
# trace (`trace`) has an event line matching the extended REGEX, e.g.
# 'access-end file=[0-9]+ cmd=poll': the daemon recorded that step.
e2e_wait_trace() {
	local daemon=$1 sock=$2 regex=$3 secs=${4:-60} end pause=0

	end=$(( SECONDS + secs ))
	while :; do
		[[ $("$daemon" --control="$sock" --send=trace 2>/dev/null) =~ $regex ]] && return 0
		(( SECONDS < end )) || break
		hl_backoff pause
	done
	echo "e2e: no trace event matching '$regex' within $secs s" >&2
	return 1
}

# e2e_valgrind_argv PROGRAM VALGRIND-ARGS...: sets the array e2e_vg to the
# command that runs PROGRAM's real binary under valgrind (hl_valgrind_argv
# with this build tree).
e2e_valgrind_argv() {
	hl_valgrind_argv "$top_builddir" "$@"
	e2e_vg=("${hl_vg[@]}")
}

e2e_start_daemon() {
	if [[ ${CUSE_EC_VALGRIND:-0} == 1 ]]; then
		e2e_valgrind_argv "$1" -q --error-exitcode=97 --leak-check=full \
			--errors-for-leak-kinds=definite
		set -- "${e2e_vg[@]}" "$@"
	fi
	"$@" &
	e2e_daemon_pid=$!
	e2e_daemon_pids+=("$e2e_daemon_pid")
}

e2e_stop_daemon() {
	local sig=${1:-TERM} pid=${2:-$e2e_daemon_pid} p left=()

	[[ -n $pid ]] || return 0
	if [[ $pid == "$e2e_daemon_pid" ]]; then
		e2e_daemon_pid=
	fi
	for p in "${e2e_daemon_pids[@]}"; do
		[[ $p == "$pid" ]] || left+=("$p")
	done
	e2e_daemon_pids=("${left[@]}")
	hl_stop_pid "$sig" "$pid" 10
}

e2e_report() {
	local ok=$1 desc=$2

	e2e_checks=$(( e2e_checks + 1 ))
	# The seconds since the script started, as a TAP comment: where a
	# slow run spent its time, read from its log.
	if (( ok )); then
		echo "ok $e2e_checks - $desc # ${SECONDS}s"
	else
		e2e_failures=$(( e2e_failures + 1 ))
		echo "not ok $e2e_checks - $desc # ${SECONDS}s"
	fi
}

e2e_check() {
	local desc=$1

	shift
	if "$@"; then
		e2e_report 1 "$desc"
	else
		e2e_report 0 "$desc (status $?)"
	fi
}

e2e_check_status() {
	local desc=$1 want=$2 got=$3

	if [[ $want == "$got" ]]; then
		e2e_report 1 "$desc"
	else
		e2e_report 0 "$desc (want status $want, got $got)"
	fi
}

e2e_check_exit() {
	local desc=$1 want=$2 got=0

	shift 2
	"$@" || got=$?
	e2e_check_status "$desc" "$want" "$got"
}

e2e_wait_until() {
	hl_until "$@"
}

e2e_ctl() {
	local sock=$1

	shift
	"${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}" --control="$sock" --send "$*"
}

e2e_stat() {
	local stats

	# One process, the control command: parsed by bash (see hl_nap).
	stats=$(e2e_ctl "$1" stats) || return
	e2e_stat_in "$stats" "$2"
}

# e2e_stat_in STATS KEY: KEY's value in STATS, a `stats` reply already had
# (several counters of one moment from one reply); nothing if absent.
e2e_stat_in() {
	if [[ " $1 " =~ [[:space:]]$2=([^[:space:]]*)[[:space:]] ]]; then
		echo "${BASH_REMATCH[1]}"
	fi
}

e2e_fatal() {
	local pid

	echo "e2e: fatal: $*" >&2
	for pid in "${e2e_daemon_pids[@]}"; do
		# Its status says nothing here: this run already failed.
		e2e_stop_daemon KILL "$pid" >/dev/null 2>&1 || true
	done
	exit 1
}

e2e_done() {
	echo "$(( e2e_checks - e2e_failures )) of $e2e_checks checks passed"
	if (( e2e_checks > 0 && e2e_failures == 0 )); then
		exit 0
	fi
	exit 1
}
