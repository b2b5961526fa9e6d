# SPDX-License-Identifier: GPL-2.0-or-later
# A fingerprint MCU (FPMCU), the EC behind /dev/cros_fp: an STM32F412
# running the bloonchipper firmware with an FPC1025 sensor, 160 x 160
# pixels at 8 bpp. The sensor's identity, frame and template sizes are
# those a real bloonchipper reported (umockdev's public cros_fp recording:
# FP_INFO v1, FP_STATS); the durations FP_STATS reports are that
# recording's. It is its own kind of firmware: no battery, charger,
# thermal, keyboard, host events or USB-PD; those commands answer
# INVALID_COMMAND here (docs/ec-commands.md, "The fingerprint MCU").

[ec]
kind = fpmcu
board = bloonchipper
version_ro = bloonchipper_v2.0.5938-ro
version_rw = bloonchipper_v2.0.5938-rw
current_image = rw
build_info = bloonchipper_v2.0.5938-rw 2026-01-15 10:00:00 builder@cuse-ec
memmap_direct = no
features = flash, fingerprint, rwsig
# No RTC: the FPMCU keeps no wall time.
disable_commands = 0x0044

[chip]
vendor = st
name = stm32f412
revision = 1

[flash]
size = 1M
write_block = 4
erase_block = 16384
protect_block = 16384
write_protect = no

# The host talks to it over SPI.
[protocol]
max_request_packet = 544
max_response_packet = 544

[fingerprint]
vendor_id = 0x20435046
product_id = 9
model_id = 0x021b
version = 1
frame_size = 26260
pixel_format = GREY
width = 160
height = 160
bpp = 8
template_size = 5156
template_max = 5
enroll_touches = 5
capture_time = 90981us
match_time = 150196us

# RO verifies RW's RSA-3072 (exponent 3) / SHA-256 signature and jumps.
[rwsig]
task = yes
sig_alg = 6
hash_alg = 2
key_version = 1
rollback_min_version = 0
rw_rollback_version = 0
