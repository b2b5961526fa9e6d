# SPDX-License-Identifier: GPL-2.0-or-later
# A minimal EC: no battery, no fans, one sensor, no USB-PD, no direct
# memory-map access (clients must use EC_CMD_READ_MEMMAP) and only the
# basic identity commands.

[ec]
board = minimal
version_ro = mini_v0.1.0-ro
version_rw = mini_v0.1.0-rw
current_image = ro
build_info = mini_v0.1.0 minimal
memmap_direct = no
features = host_events
disable_commands = 0x0015, 0x0021, 0x0024, 0x0029, 0x0051, 0x0052, 0x0093, 0x0096, 0x009d, 0x00a0, 0x00d3, 0x0101, 0x0102, 0x0103, 0x011a, 0x0133, 0x0600, 0x0601

[chip]
vendor = st
name = stm32f072
revision = 1

[flash]
size = 131072
write_block = 2
erase_block = 2048
protect_block = 4096

[protocol]
max_request_packet = 128
max_response_packet = 160

[state]
lid = open
ac = yes
load = 5

[temp]
name = Board
type = board
ambient = 305
load_rise = 5
