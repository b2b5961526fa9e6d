# SPDX-License-Identifier: GPL-2.0-or-later
# A two-port USB-C board with four temperature sensors and two fans,
# a charger on port 0 and a DisplayPort dock on port 1.

[ec]
board = usbc-dual
version_ro = dual_v1.4.200-ro
version_rw = dual_v1.4.200-rw
fwid_ro = Google_Dual.14000.0.0
fwid_rw = Google_Dual.14000.2.0
current_image = rw
build_info = dual_v1.4.200-rw 2026-02-01 08:30:00 builder@cuse-ec
board_version = 5
memmap_direct = yes
features = flash, pwm_fan, led, keyb, thermal, host_events, gpio, charger, battery, usb_pd, usb_mux, rtc, host_event64, typec_cmd

[chip]
vendor = ite
name = it81202
revision = bx

[flash]
size = 1048576
write_block = 4
erase_block = 4096
protect_block = 4096
write_ideal = 256

[protocol]
max_request_packet = 544
max_response_packet = 544

[state]
lid = open
ac = yes
load = 30

[battery]
design_capacity = 6000
design_voltage = 15400
cycle_count = 7
charge = 55
charge_current = 3000
manufacturer = COSMX
model = AP19B5K
serial = 0x0042
type = LIP
adapter_watts = 100

[temp]
name = SOC
type = cpu
ambient = 45C
load_rise = 45
fan_drop = 25
warn = 90C
high = 95C
halt = 105C
fan_off = 50C
fan_max = 85C

[temp]
name = DDR
type = board
ambient = 38C
load_rise = 15
fan_drop = 8
warn = 80C
high = 85C
fan_off = 45C
fan_max = 75C

[temp]
name = Charger
type = board
ambient = 36C
load_rise = 8
fan_drop = 4
warn = 75C
high = 85C

[temp]
name = Ambient
type = case
ambient = 30C
load_rise = 3

[fan]
max_rpm = 5500

[fan]
max_rpm = 4800

[led]
id = left
range = 0, 0, 0, 0, 1, 1

[led]
id = right
range = 0, 0, 0, 0, 1, 1

[gpio]
EC_WP_L = 1
LID_OPEN = 1
USB_C0_PPC_INT_ODL = 1
USB_C1_PPC_INT_ODL = 1
EN_USB_C0_VBUS = 0 out
EN_USB_C1_VBUS = 1 out

# No CBI strings: a board early in its life, with integers only.
[cbi]
board_version = 5
sku_id = 0x2001
fw_config = 0x3
i2c_port = 2

[usbpd_port]
connected = yes
partner = source
voltage = 20000
current = 5000
tcpc_vid = 0x048d
tcpc_pid = 0x8320
tcpc_did = 0x0001
tcpc_fw = 0x0105
partner_vid = 0x18d1
partner_pid = 0x5003

[usbpd_port]
connected = yes
partner = sink
dp = yes
polarity = 1
voltage = 5000
current = 1500
tcpc_vid = 0x048d
tcpc_pid = 0x8320
tcpc_did = 0x0001
tcpc_fw = 0x0105
partner_vid = 0x2109
partner_pid = 0x0102

[latency]
default = 50us
0x0133 = 200us

[passthru]
1 = dual_pd_v1.0.5
