# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of ecctl-areas.test, through either front end: the flash,
# write-protect, host-event and keyboard commands end to end, as
# `ecctl raw` requests through the daemon's device (the layouts are
# the ones ectool sends).
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
ecctl=$(e2e_client_cmd "$top_builddir/client/ecctl")
out_dir=$(e2e_tmpdir ecctl-areas)

# raw CMD VER HEX : the response's bytes as one hex string; fails on an EC error.
raw() {
	local out

	out=$("$ecctl" --name "$name" --json raw "$@") || return 1
	[[ $out =~ \"data\":\"([0-9a-f]*)\" ]] || return 1
	printf '%s\n' "${BASH_REMATCH[1]}"
}

# raw_is DESC REGEX CMD VER HEX : the command succeeds and its hex matches ^REGEX.
raw_is() {
	local desc=$1 regex=$2
	shift 2
	e2e_check "$desc" raw_matches "$regex" "$@"
}
raw_matches() {
	local regex=$1 hex
	shift
	hex=$(raw "$@") || return 1
	[[ $hex =~ ^$regex ]] || { echo "# got $hex"; return 1; }
}

# raw_refused DESC RESULT CMD VER HEX : the EC answers RESULT (e.g. INVALID_PARAM).
raw_refused() {
	local desc=$1 want=$2
	shift 2
	e2e_check "$desc" bash -c 'out=$("$1" --name "$2" raw "${@:4}"); [[ $? -eq 1 &&
		$out == *"($3)"* ]]' _ "$ecctl" "$name" "$want" "$@"
}

# until_ok SECS CMD... : retry CMD (each try a full ecctl round trip) until
# it succeeds, for up to SECS seconds by the clock.
until_ok() {
	local secs=$1
	shift
	hl_until "$secs" quietly "$@"
}

quietly() {
	"$@" >/dev/null 2>&1
}

ctl() {
	/usr/bin/python3 - "$sock" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
print(s.makefile().readline().strip())
PY
}
ctl_ok() {
	local reply

	reply=$(ctl "$1") || return 1
	[[ $reply == ok* ]]
}

# stats_are KEY=VALUE... : the daemon's counters have exactly these values now.
stats_are() {
	local stats kv

	stats=" $(ctl stats) "
	for kv; do
		[[ $stats == *" $kv "* ]] || { echo "# stats: no $kv in$stats"; return 1; }
	done
}

# status_has KEY=VALUE : the daemon's status line has it.
status_has() {
	local status

	status=" $(ctl status) "
	[[ $status == *" $1 "* ]] || { echo "# status: no $1 in$status"; return 1; }
}

name=ecareas_$$_$RANDOM
sock=$out_dir/ecareas_$$.sock
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" "${e2e_front_args[@]}"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" ||
	e2e_fatal "$(e2e_node_path "/dev/$name") did not appear within $e2e_node_timeout s"

# GET_FEATURES: flash, pwm_fan, pwm_keyb, led, motion_sense, keyb, port80,
# thermal, bklight_switch, host_events, gpio, i2c, charger, hang_detect,
# battery, usb_pd, usb_mux, motion_sense_fifo, rtc / unified_wake_masks,
# host_event64, efs2, typec_cmd.
raw_is "GET_FEATURES advertises only backed features" 'eeeecb0943020000$' 0x0d 0

# --- write protect: one truth, three views ---
wp_l=$(printf 'EC_WP_L' | od -An -tx1 | tr -d ' \n')
raw_is "switches: write protect disabled, lid open" '05$' 0x07 0 3001
raw_is "EC_WP_L GPIO high (not asserted)" '01$' 0x93 0 "$wp_l"
raw_is "FLASH_PROTECT: no GPIO_ASSERTED" '00000000' 0x15 1 0000000000000000
raw_is "FLASH_PROTECT ignores unchangeable bits, answers SUCCESS" '00000000' \
	0x15 1 0a0000000a000000
if [[ -x /usr/bin/python3 ]]; then
	e2e_check "inject wp-assert" ctl_ok "inject wp-assert"
	raw_is "switches: write protect enabled" '01$' 0x07 0 3001
	raw_is "EC_WP_L GPIO low (asserted)" '00$' 0x93 0 "$wp_l"
	raw_is "FLASH_PROTECT: GPIO_ASSERTED" '08000000' 0x15 1 0000000000000000
	raw_is "RO_AT_BOOT with WP asserted protects RO now" '0b000000' \
		0x15 1 0100000001000000
	raw_refused "protected RO refuses FLASH_ERASE" ACCESS_DENIED 0x13 0 0000000000100000
	raw_refused "locked system refuses MKBP_SIMULATE_KEY" ACCESS_DENIED 0x62 0 000001
	e2e_check "inject wp-deassert" ctl_ok "inject wp-deassert"
	raw_is "deasserting drops the now-protection" '01000000' 0x15 1 0000000000000000
	raw_is "RO_AT_BOOT can be cleared again" '00000000' 0x15 1 0100000000000000
fi

# --- flash ---
raw_is "FLASH_READ: the RO image starts with its version" "$(printf 'laptop_v2' |
	od -An -tx1 | tr -d ' \n')" 0x11 0 0000000010000000
raw_is "FLASH_ERASE v0 block 0" '' 0x13 0 0000000000100000
raw_is "FLASH_READ erased bytes" 'ffffffffffffffff$' 0x11 0 0000000008000000
raw_is "FLASH_WRITE v1 8 bytes" '' 0x12 1 00000000080000001122334455667788
raw_is "FLASH_READ them back" '1122334455667788$' 0x11 0 0000000008000000
raw_refused "FLASH_WRITE misaligned" INVALID_PARAM 0x12 1 01000000040000001122334455
raw_refused "FLASH_READ outside the flash" INVALID_PARAM 0x11 0 0000ffff10000000
raw_refused "FLASH_WRITE into the running RW image" ACCESS_DENIED 0x12 1 \
	0000040004000000aabbccdd
raw_is "FLASH_ERASE v1 async erase of block 1 is queued" '' 0x13 1 010000000010000000100000
e2e_check "FLASH_ERASE GET_RESULT reports SUCCESS once done" \
	until_ok 60 raw 0x13 1 02000000
raw_refused "FLASH_ERASE unknown sub-command" INVALID_PARAM 0x13 1 07000000
raw_is "FLASH_REGION_INFO RW" '0000040000000400$' 0x16 1 01000000

# VBOOT_HASH: wait for the boot-time hash of RW, then hash the 8 bytes written.
e2e_check "VBOOT_HASH boot hash of RW finishes" until_ok 60 raw_matches '01' 0x2a 0 00
want=$(printf '\x11\x22\x33\x44\x55\x66\x77\x88' | sha256sum | cut -c1-64)
raw_is "VBOOT_HASH RECALC is the SHA-256 of the bytes" "010020000000000008000000$want" \
	0x2a 0 030000000000000008000000
raw_is "VBOOT_HASH START answers BUSY status" '02' 0x2a 0 020000000000000000100000
raw_is "VBOOT_HASH ABORT" '' 0x2a 0 01
# The hash may have finished before the ABORT arrived; it is never still running.
raw_is "VBOOT_HASH after ABORT: not busy" '0[01]' 0x2a 0 00
raw_refused "VBOOT_HASH unknown hash type" INVALID_PARAM 0x2a 0 03010000000000000800000000

# --- host events ---
raw_is "HOST_EVENT_SET_SCI_MASK" '' 0x8b 0 34120000
raw_is "HOST_EVENT_GET_SCI_MASK" '34120000$' 0x89 0
raw_is "HOST_EVENT GET SCI mask (64-bit)" '3412000000000000$' 0xa4 0 00020000
raw_is "HOST_EVENT SET wake mask, 64 bits" '' 0xa4 0 010500000100000001000000
raw_is "HOST_EVENT_GET_WAKE_MASK sees the low half" '01000000$' 0x8d 0
raw_refused "HOST_EVENT SET of the main copy" ACCESS_DENIED 0xa4 0 0100000001000000
raw_refused "HOST_EVENT unknown mask type" INVALID_PARAM 0xa4 0 0009000000000000
if [[ -x /usr/bin/python3 ]]; then
	e2e_check "inject lid-close" ctl_ok "inject lid-close"
	raw_is "HOST_EVENT_GET_B has LID_CLOSED" '(0[13579bdf]|[13579bdf][0-9a-f])' 0x87 0
	raw_is "HOST_EVENT_CLEAR main copy" '' 0x8c 0 01000000
	raw_is "memmap host events: LID_CLOSED cleared" '(0[02468ace]|[02468ace][0-9a-f])' \
		0x07 0 3408
	raw_is "copy B keeps it" '(0[13579bdf]|[13579bdf][0-9a-f])' 0x87 0
	raw_is "HOST_EVENT_CLEAR_B" '' 0x8f 0 01000000
	raw_is "copy B cleared" '(0[02468ace]|[02468ace][0-9a-f])' 0x87 0
	e2e_check "inject lid-open" ctl_ok "inject lid-open"
fi
raw_is "HOST_SLEEP_EVENT v1 S0ix suspend" '00000000$' 0xa9 1 03000000
raw_is "HOST_SLEEP_EVENT v1 S0ix resume: one transition" '01000000$' 0xa9 1 04000000
raw_refused "HOST_SLEEP_EVENT unknown event" INVALID_PARAM 0xa9 0 09

# --- RTC and port 80 ---
raw_is "RTC_SET_VALUE" '' 0x46 0 00f15365
raw_is "RTC_GET_VALUE follows it" '0[0-9a-f]f15365$' 0x44 0
raw_is "RTC_SET_ALARM in 100 s" '' 0x47 0 64000000
raw_is "RTC_GET_ALARM counts down from 100" '(64|63|62|61|60)000000$' 0x45 0
raw_is "RTC_SET_ALARM clear" '' 0x47 0 00000000
raw_is "RTC_GET_ALARM: none" '00000000$' 0x45 0
raw_is "PORT80_READ v0: last boot's code" 'f800$' 0x48 0
raw_is "PORT80_READ v1 GET_INFO: history of 128" '[0-9a-f]{8}80000000f8000000$' 0x48 1 0000
raw_is "PORT80_READ v1 READ_BUFFER: reset marker first" '02100100' 0x48 1 \
	01000000000020000000
raw_refused "PORT80_READ v1 past the ring" INVALID_PARAM 0x48 1 01008000000001000000

# --- keyboard and MKBP ---
raw_is "MKBP_INFO KBD: 8 rows, 13 columns" '080000000d00000000$' 0x61 0 0000
raw_is "MKBP_INFO SUPPORTED switches: lid, tablet mode" '03000000$' 0x61 0 0104
raw_is "MKBP_INFO CURRENT switches: lid open" '01000000$' 0x61 0 0204
raw_is "MKBP_SIMULATE_KEY col 2 row 3" '' 0x62 0 020301
raw_is "MKBP_INFO CURRENT matrix shows it" '000008' 0x61 0 0200
raw_refused "MKBP_SIMULATE_KEY outside the matrix" INVALID_PARAM 0x62 0 0d0001
raw_is "GET_KEYBOARD_ID" '00000000$' 0x63 0
raw_is "PWM_SET_KEYBOARD_BACKLIGHT 40 %" '' 0x23 0 28
raw_is "PWM_GET_KEYBOARD_BACKLIGHT" '2801$' 0x22 0
raw_refused "PWM_SET_KEYBOARD_BACKLIGHT 101 %" INVALID_PARAM 0x23 0 65
e2e_check "ecctl kblight 30 sets and reads it" bash -c \
	'[[ $("$1" --name "$2" kblight 30) == "Keyboard backlight: 30% (on)" ]]' _ "$ecctl" "$name"
e2e_check "the daemon's status shows the backlight at 30 %" status_has kb_backlight=30
raw_is "PWM_GET_KEYBOARD_BACKLIGHT sees ecctl's 30 %" '1e01$' 0x22 0
raw_is "MKBP_WAKE_MASK set event mask" '' 0x69 0 0101000014000000
raw_is "MKBP_WAKE_MASK get event mask" '14000000$' 0x69 0 0001
raw_is "MKBP_GET_CONFIG: 21 bytes" '[0-9a-f]{42}$' 0x65 0
raw_refused "MKBP_SET_CONFIG zero scan period" INVALID_PARAM 0x64 0 01000000000000000000
raw_is "GET_CMD_VERSIONS GET_NEXT_EVENT: v0..v3" '0f000000$' 0x08 1 6700

# --- board info, ADC, chips, I2C, random numbers ---
raw_is "GET_CROS_BOARD_INFO SKU_ID" '10$' 0x11f 0 0200000000000000
raw_is "GET_CROS_BOARD_INFO OEM_NAME" "$(printf 'CUSE' | od -An -tx1 | tr -d ' \n')00$" \
	0x11f 0 0400000000000000
raw_refused "GET_CROS_BOARD_INFO missing tag" INVALID_PARAM 0x11f 0 0900000000000000
raw_is "SET_CROS_BOARD_INFO SSFC = 7" '' 0x120 0 08000000000000000100000007
raw_is "GET_CROS_BOARD_INFO SSFC reads it back" '07$' 0x11f 0 0800000000000000
raw_refused "SET_CROS_BOARD_INFO without its data" INVALID_PARAM 0x120 0 080000000000000004000000
if [[ -x /usr/bin/python3 ]]; then
	e2e_check "inject wp-assert (CBI)" ctl_ok "inject wp-assert"
	raw_refused "SET_CROS_BOARD_INFO with WP asserted" ACCESS_DENIED \
		0x120 0 08000000000000000100000001
	e2e_check "inject wp-deassert (CBI)" ctl_ok "inject wp-deassert"
fi
raw_is "ADC_READ VBUS: 20 V from the charger" '204e0000$' 0x123 0 00
raw_is "ADC_READ PSYS" 'ec2c0000$' 0x123 0 02
raw_refused "ADC_READ channel past the list" INVALID_PARAM 0x123 0 09
raw_is "LOCATE_CHIP CBI EEPROM: I2C port 0, 0x50" '000000005000$' 0x126 0 00000000
raw_is "LOCATE_CHIP TCPC 1: I2C port 3, 0x0b" '000003000b00$' 0x126 0 01010000
raw_refused "LOCATE_CHIP TCPC 2: past the ports" OVERFLOW 0x126 0 01020000
raw_is "I2C_PASSTHRU smart battery DesignCapacity 4800 mAh" '0002c012$' \
	0x9e 0 01020b0001000b80020018
raw_is "I2C_PASSTHRU nobody at 0x30: NAK" '0100$' 0x9e 0 010230000100308002000000
raw_refused "I2C_PASSTHRU unknown port" INVALID_PARAM 0x9e 0 07020b0001000b80020018
raw_is "I2C_PASSTHRU_PROTECT STATUS port 0: unlocked" '00$' 0xb7 0 0000
raw_is "RAND_NUM 8 bytes" '[0-9a-f]{16}$' 0x1a 0 0800
raw_refused "RAND_NUM more than the response holds" OVERFLOW 0x1a 0 0010

# --- power side and switches ---
raw_is "FLASH_SPI_INFO: JEDEC ef 30 13" 'ef301300ef12' 0x18 0
raw_is "PWM_SET_DUTY keyboard light 50 %" '' 0x25 0 ff7f0100
raw_is "PWM_GET_KEYBOARD_BACKLIGHT follows it" '3201$' 0x22 0
raw_refused "PWM_SET_DUTY display light (none)" INVALID_PARAM 0x25 0 ffff0200
raw_is "CHARGE_CURRENT_LIMIT 500 mA" '' 0xa1 0 f4010000
raw_is "CHARGE_STATE charge current now 500 mA" 'f4010000$' 0xa0 0 010000000100000000000000
raw_is "EXTERNAL_POWER_LIMIT lifted" '' 0xa2 1 ffffffff
raw_is "HIBERNATION_DELAY read: 3600 s" '0000000000000000100e0000$' 0xa8 0 00000000
raw_is "SWITCH_ENABLE_WIRELESS v1 WLAN off" '0e00$' 0x91 1 00010000
raw_is "THERMAL_SET_THRESHOLD v1 sensor 0" '' 0x50 1 \
	00000000"$(printf '%064d' 0)"
raw_refused "THERMAL_SET_THRESHOLD sensor 9" INVALID_PARAM 0x50 1 \
	09000000"$(printf '%064d' 0)"
raw_is "HANG_DETECT configure 1 s / 3 s" '' 0x9f 0 00000000e803b80b
raw_is "FORCE_LID_OPEN on" '' 0x2c 0 01
raw_is "USB_CHARGE_SET_MODE port 1 CDP" '' 0x30 0 0102
raw_refused "USB_CHARGE_SET_MODE port 5" INVALID_PARAM 0x30 0 0502
raw_is "BATTERY_CUT_OFF" '' 0x99 0
raw_is "memory map: battery not present after the cut-off" '01$' 0x07 0 4c01
raw_is "I2C_PASSTHRU: the cut-off battery NAKs" '0100$' 0x9e 0 01020b0001000b80020018

# --- USB-PD / Type-C (port 0: a 20 V charger, port 1: nothing) ---
raw_is "PD_GET_LOG_ENTRY: port 0's connection at boot" '[0-9a-f]{8}010000' 0x115 0
raw_is "PD_GET_LOG_ENTRY: then its power state, sink" '[0-9a-f]{8}00080a80' 0x115 0
raw_is "PD_CHIP_INFO v1 port 0: Parade 0x8815" 'a01d1588' 0x11b 1 0000
raw_refused "PD_CHIP_INFO port 2" INVALID_PARAM 0x11b 0 0200
raw_is "USB_PD_DEV_INFO port 0: no accessory ID" '0000' 0x112 0 00
raw_is "TYPEC_DISCOVERY port 0: identity of the charger" '0300' 0x131 0 0000
raw_is "USB_PD_GET_AMODE port 0: no SVID" '0000$' 0x116 0 000000
raw_refused "USB_PD_SET_AMODE DP on the charger" INVALID_PARAM 0x117 0 0100000001ff0100
raw_is "TYPEC_CONTROL CLEAR_EVENTS" '' 0x132 0 00010000ffffffff
raw_is "USB_MUX dock on port 0" '' 0x9a 0 03
raw_is "USB_PD_MUX_INFO port 0 follows" '0[3b]$|1[3b]$' 0x11a 0 00
raw_is "PD_CONTROL suspend port 1" '' 0x119 0 0100
raw_is "PD_CHARGE_PORT_OVERRIDE: don't charge" '' 0x114 0 feff
raw_refused "PD_CHARGE_PORT_OVERRIDE port 1 (no charger)" ERROR 0x114 0 0100

# --- REBOOT_EC: a warm reset keeps the device, a cold one replugs it ---
raw_refused "REBOOT_EC unknown command" INVALID_PARAM 0xd2 0 0300
raw_is "REBOOT_EC jump to RO" '' 0xd2 0 0100
raw_is "SYSINFO reset flags after the jump: POWER_ON, SYSJUMP" '08040000' 0x1c 0
e2e_check "a warm reset replugs nothing" stats_are ec_cold_reboots=0 unplugs=0
# A file opened before the cold reboot: a reader blocked with no timeout.
rb_out=$out_dir/ecareas_rb_$$
"$ecctl" --name "$name" events 0xffff 1 -1 >"$rb_out" 2>&1 &
rb_reader=$!
e2e_check "the old file's read is parked in the daemon" \
	e2e_wait_stat "$daemon" "$sock" parked_reads 1
raw_is "REBOOT_EC cold is answered" '' 0xd2 0 0400
timeout 10 tail --pid="$rb_reader" -f /dev/null ||
	{ echo "# reader still blocked 10 s after the cold reboot"; kill -KILL "$rb_reader" || true; }
e2e_check_exit "the old file's reader is woken, exit 1" 1 wait "$rb_reader"
e2e_check "the old file gets ENODEV" grep -q 'ENODEV' "$rb_out"
rm -f "$rb_out"
e2e_check "the daemon counted the cold reboot" \
	e2e_wait_stat "$daemon" "$sock" ec_cold_reboots 1
raw_is "a new open answers HELLO" '05050505$' 0x01 0 01020304
raw_is "GET_UPTIME_INFO: a fresh EC, flags POWER_ON" '[0-9a-f]{4}00000000000008000000' \
	0x121 0
raw_is "the keyboard backlight starts over" '0000$' 0x22 0

e2e_check_exit "daemon exits 0 on SIGTERM" 0 e2e_stop_daemon TERM

# --- the minimal profile: no backlight, no feature it cannot back ---
name=ecareas_min_$$_$RANDOM
e2e_start_daemon "$daemon" -f --name="$name" "${e2e_front_args[@]}" \
	--profile="$top_srcdir/ec/profiles/minimal.profile"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" ||
	e2e_fatal "$(e2e_node_path "/dev/$name") did not appear within $e2e_node_timeout s"
raw_is "minimal: GET_FEATURES host_events only" '0020000000000000$' 0x0d 0
raw_refused "minimal: no keyboard backlight" INVALID_COMMAND 0x22 0
raw_refused "minimal: no ADC channels" INVALID_COMMAND 0x123 0 00
raw_refused "minimal: no CBI EEPROM" INVALID_COMMAND 0x11f 0 0000000000000000
raw_is "minimal: FLASH_READ works" "$(printf 'mini_v0' | od -An -tx1 | tr -d ' \n')" \
	0x11 0 0000000008000000
e2e_check_exit "minimal daemon exits 0" 0 e2e_stop_daemon TERM
rm -rf "$out_dir"
e2e_done
