# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Record and replay (cuse_ec-recording(5)), through either front end
# (tests/e2e/lib.sh): a scripted ecctl session against a daemon that
# records it, then the same session against a daemon with another profile
# that answers from the recording, prints the same; a session recorded in
# umockdev's format replays too; unplug and plug are in the recording;
# cuse_ec-record's overlay of a device replays over another profile.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
ecctl=$(e2e_client_cmd "$top_builddir/client/ecctl")
dir=$(e2e_tmpdir record-replay)
other_profile=$top_srcdir/ec/profiles/usbc-dual.profile

# The session: ecctl commands and their exit statuses, on stdout. Each
# command is one string split into words on purpose.
session_cmds=(hello version chipinfo protoinfo "cmdversions 1" "cmdversions 0x97" battery temps
	fans uptime "usbpd ports" "usbpd power" "raw 1 0 01020304" console panicinfo
	"raw 0x3ffe 0")
session() {
	local name=$1 cmd status

	for cmd in "${session_cmds[@]}"; do
		status=0
		# shellcheck disable=SC2086 # a command's words
		"$ecctl" --name "$name" $cmd 2>&1 || status=$?
		echo "[$cmd: status $status]"
	done
}

# serve NAME ARGS...: start a daemon serving /dev/NAME with control socket
# $dir/NAME.sock, and wait for its node.
serve() {
	local name=$1

	shift
	e2e_start_daemon "$daemon" -f --no-udev --name="$name" --control="$dir/$name.sock" \
		"${e2e_front_args[@]}" "$@"
	e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" ||
		e2e_fatal "$(e2e_node_path "/dev/$name") did not appear within $e2e_node_timeout s"
}

# ctl_ok SOCK LINE: the daemon at SOCK answers LINE with "ok ...".
ctl_ok() {
	[[ $(e2e_ctl "$1" "$2") == ok* ]]
}

# stat_at_least SOCK KEY N / stat_is SOCK KEY N: a counter of the daemon.
stat_at_least() {
	(( $(e2e_stat "$1" "$2") >= $3 ))
}
stat_is() {
	[[ $(e2e_stat "$1" "$2") == "$3" ]]
}

# --- record a session (the laptop profile) ---
rec=rr_rec_$$_$RANDOM
serve "$rec" --record="$dir/session.rec"
session "$rec" >"$dir/recorded.out"
e2e_check "unplug while recording" ctl_ok "$dir/$rec.sock" "unplug wait"
e2e_check "plug while recording" ctl_ok "$dir/$rec.sock" plug
e2e_check "records_written counted" stat_at_least "$dir/$rec.sock" records_written 20
e2e_check_exit "recording daemon stops cleanly" 0 e2e_stop_daemon
e2e_check "the recording says its format first" \
	bash -c '[[ $(head -n 1 "$1") == "cuse_ec-recording 1" ]]' _ "$dir/session.rec"
e2e_check "the recording has host commands, memory-map reads, unplug and plug" bash -c \
	'grep -q " xcmd cmd=0x0001 ver=0 out=4 in=[0-9]* result=0 ret=4 req=01020304 data=05050505$" "$1" &&
	 grep -q " readmem offset=" "$1" && grep -q "^[0-9]* unplug$" "$1" &&
	 grep -q "^[0-9]* plug$" "$1"' _ "$dir/session.rec"

# --- without the recording another profile answers otherwise ---
plain=rr_plain_$$_$RANDOM
serve "$plain" --profile="$other_profile"
session "$plain" >"$dir/plain.out"
e2e_check_exit "plain daemon stops cleanly" 0 e2e_stop_daemon
e2e_check "another profile alone prints something else" \
	bash -c '! cmp -s "$1" "$2"' _ "$dir/recorded.out" "$dir/plain.out"

# --- replay: the other profile, the recording over it, misses invalid ---
play=rr_play_$$_$RANDOM
serve "$play" --profile="$other_profile" --replay="$dir/session.rec" --replay-miss=invalid
session "$play" >"$dir/replayed.out"
e2e_check "the replayed session prints what the recorded one did" \
	diff -u "$dir/recorded.out" "$dir/replayed.out"
e2e_check "every request of the session was in the recording" \
	stat_is "$dir/$play.sock" replay_misses 0
e2e_check "replay_hits counted" stat_at_least "$dir/$play.sock" replay_hits 20
e2e_check "a request the recording lacks: INVALID_COMMAND" bash -c \
	'out=$("$1" --name "$2" raw 0x0001 0 05060708 2>&1); [[ $out == *INVALID_COMMAND* ]]' \
	_ "$ecctl" "$play"
e2e_check "replay_misses counted" stat_is "$dir/$play.sock" replay_misses 1
e2e_check_exit "replaying daemon stops cleanly" 0 e2e_stop_daemon

# --- umockdev's format: recorded, then replayed over the model ---
umock=rr_umock_$$_$RANDOM
serve "$umock" --record="$dir/session.ioctl"
session_cmds=(hello version chipinfo "raw 1 0 01020304")
session "$umock" >"$dir/umock-recorded.out"
e2e_check_exit "umockdev-recording daemon stops cleanly" 0 e2e_stop_daemon
e2e_check "the .ioctl recording is umockdev's: XCMD_V2 lines only" bash -c \
	'grep -q "^CROS_EC_DEV_IOCXCMD_V2 4 0000000001000000040000000400000000000000" "$1" &&
	 ! grep -qv "^CROS_EC_DEV_IOCXCMD_V2 -\{0,1\}[0-9]* [0-9A-F]*$" "$1"' _ "$dir/session.ioctl"
play=rr_uplay_$$_$RANDOM
serve "$play" --profile="$other_profile" --replay="$dir/session.ioctl"
session "$play" >"$dir/umock-replayed.out"
e2e_check "the umockdev recording replays the same output" \
	diff -u "$dir/umock-recorded.out" "$dir/umock-replayed.out"
e2e_check_exit "umockdev-replaying daemon stops cleanly" 0 e2e_stop_daemon

# --- cuse_ec-record: any cros_ec device (here the daemon's) to an overlay ---
recorder=$(e2e_client_cmd "$top_builddir/client/cuse_ec-record")
live=rr_live_$$_$RANDOM
serve "$live"
e2e_check "cuse_ec-record records the device" \
	"$recorder" --dev="/dev/$live" --overlay="$dir/overlay.rec" --profile-out="$dir/rec.profile"
# Answers that do not move with time: the live device and the replay agree.
# "raw 8 1 0100": ectool's GET_CMD_VERSIONS v1 for a command <= 0xff;
# "raw 0x10 1": its FLASH_INFO v1 (flashinfo's WriteIdealSize).
session_cmds=(hello version chipinfo protoinfo "cmdversions 1" "cmdversions 0x97" "usbpd ports"
	"usbpd power" panicinfo "raw 8 1 0100" "raw 0x10 1")
session "$live" >"$dir/live.out"
e2e_check_exit "recorded daemon stops cleanly" 0 e2e_stop_daemon
e2e_check "the recorder's profile loads" "$daemon" --check-profile="$dir/rec.profile"
e2e_check "the profile has the board, its versions, chip and flash" bash -c \
	'grep -qx "board = laptop" "$1" && grep -qx "version_ro = laptop_v2.0.1234-ro" "$1" &&
	 grep -qx "vendor = nuvoton" "$1" && grep -qx "size = 524288" "$1"' _ "$dir/rec.profile"
e2e_check "the profile has FLASH_INFO v1's write_ideal and flags" bash -c \
	'grep -qx "write_ideal = 256" "$1" && grep -qx "flags = 0" "$1"' _ "$dir/rec.profile"
e2e_check "the overlay has GET_CMD_VERSIONS v1 and v0 of a command <= 0xff, FLASH_INFO v1" \
	bash -c 'grep -q " xcmd cmd=0x0008 ver=1 out=2 .* req=0100 " "$1" &&
	 grep -q " xcmd cmd=0x0008 ver=0 out=1 .* req=01 " "$1" &&
	 grep -q " xcmd cmd=0x0010 ver=1 out=0 in=24 result=0 ret=24 " "$1"' _ "$dir/overlay.rec"
play=rr_over_$$_$RANDOM
serve "$play" --profile="$other_profile" --replay="$dir/overlay.rec" --replay-miss=model
session "$play" >"$dir/over.out"
e2e_check "over another profile, the recorded answers win" \
	diff -u "$dir/live.out" "$dir/over.out"
# Those that move (battery, temperatures, fans, uptime) answer as recorded,
# whichever profile is under the overlay.
session_cmds=(battery temps fans uptime)
session "$play" >"$dir/over-moving.out"
e2e_check "nothing the recorder asked was missing" stat_is "$dir/$play.sock" replay_misses 0
e2e_check_exit "overlaid daemon stops cleanly" 0 e2e_stop_daemon
play=rr_own_$$_$RANDOM
serve "$play" --profile="$dir/rec.profile" --replay="$dir/overlay.rec" --replay-miss=model
session "$play" >"$dir/own-moving.out"
e2e_check_exit "daemon on the recorder's profile stops cleanly" 0 e2e_stop_daemon
e2e_check "the moving answers are the recording's, not a profile's" \
	diff -u "$dir/over-moving.out" "$dir/own-moving.out"
e2e_check "cuse_ec-record without --overlay: usage error" bash -c \
	'"$1" --dev=/dev/null >/dev/null 2>&1; [[ $? == 2 ]]' _ "$recorder"
e2e_check "cuse_ec-record, bad option: usage error" bash -c \
	'"$1" --bogus >/dev/null 2>&1; [[ $? == 2 ]]' _ "$recorder"
e2e_check "cuse_ec-record, no such device: error naming it" bash -c \
	'err=$("$1" --dev="$2" --overlay="$3" 2>&1); [[ $? == 1 && $err == *"$2"* ]]' _ \
	"$recorder" "$dir/no-such-dev" "$dir/x.rec"

rm -rf "$dir"
e2e_done
