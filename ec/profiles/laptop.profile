# SPDX-License-Identifier: GPL-2.0-or-later
# A typical Chromebook-style laptop: one battery, one fan, three
# temperature sensors, two USB-C ports, LPC with direct memory-map access.
# It is a convertible: a 360-degree hinge, an accelerometer and gyroscope
# in the base, an accelerometer in the lid (the EC computes the lid angle
# and tablet mode from them), volume buttons on the side.
# This file is compiled into the model as its default profile.

[ec]
board = laptop
version_ro = laptop_v2.0.1234-ro
version_rw = laptop_v2.0.1234-rw
fwid_ro = Google_Laptop.15000.0.0
fwid_rw = Google_Laptop.15000.1.0
current_image = rw
build_info = laptop_v2.0.1234-rw 2026-01-15 10:00:00 builder@cuse-ec
board_version = 3
memmap_direct = yes
features = flash, pwm_fan, pwm_keyb, led, keyb, port80, thermal, host_events, gpio, i2c, charger, battery, hang_detect, usb_pd, usb_mux, rtc, unified_wake_masks, host_event64, efs2, typec_cmd, motion_sense, motion_sense_fifo, bklight_switch
rand_num = yes
usb_a_ports = 2

[chip]
vendor = nuvoton
name = npcx796fc
revision = B

[flash]
size = 524288
write_block = 4
erase_block = 4096
protect_block = 4096
write_ideal = 256
flags = 0
protect_flags = 0
write_protect = no
# A 512 KiB SPI NOR part (JEDEC ef 30 13, manufacturer/device ef 12).
spi_jedec = 0xef3013
spi_mfr_dev = 0xef12

# CrOS board info in the EEPROM at 0x50 on I2C port 0.
[cbi]
board_version = 3
oem_id = 1
sku_id = 0x10
model_id = 2
fw_config = 0x131
pcb_supplier = 1
ssfc = 0
dram_part_num = K4U6E3S4AA-MGCL
oem_name = CUSE
i2c_port = 0

# ADC channels: the charger's VBUS sense, its battery current monitor, and
# the system power monitor (mW).
[adc]
name = VBUS
source = vbus

[adc]
name = AMON_BMON
source = battery_current

[adc]
name = PSYS
value = 11500

[keyboard]
rows = 8
cols = 13
id = 0
backlight = yes
# The power button and the volume buttons (bits of EC_MKBP_*).
buttons = 0x7

[protocol]
max_request_packet = 256
max_response_packet = 256

[state]
lid = open
ac = yes
load = 20
lid_angle = 110

[battery]
design_capacity = 4800
design_voltage = 11550
full_capacity = 4650
cycle_count = 42
charge = 80
charge_current = 2400
idle_current = 450
load_current = 2600
low = 10
critical = 5
manufacturer = SMP
model = L20M3PG1
serial = 0x1a2b
type = LION
adapter_watts = 65
i2c_port = 1

[temp]
name = CPU
type = cpu
ambient = 318
load_rise = 40
fan_drop = 20
warn = 358
high = 368
halt = 378
fan_off = 323
fan_max = 353

[temp]
name = Charger
type = board
ambient = 310
load_rise = 10
fan_drop = 5
warn = 348
high = 358
halt = 368
fan_off = 0
fan_max = 0

[temp]
name = Battery
type = battery
ambient = 303
load_rise = 5
fan_drop = 2
high = 333
halt = 343

[fan]
max_rpm = 6000

[led]
id = battery
range = 1, 0, 0, 0, 1, 1

[led]
id = power
range = 0, 0, 0, 0, 1, 0

[gpio]
EC_WP_L = 1
LID_OPEN = 1
AC_PRESENT = 1
POWER_BUTTON_L = 1
ENTERING_RW = 1 out
PCH_SYS_PWROK = 1 out
EN_PP5000 = 1 out
ENABLE_BACKLIGHT = 1 out
USB_C0_OC_ODL = 1

# Each port's TCPC sits on its own I2C bus (LOCATE_CHIP finds it there).
[usbpd_port]
connected = yes
partner = source
voltage = 20000
current = 3250
tcpc_i2c_port = 2
tcpc_i2c_addr = 0x0b
tcpc_vid = 0x1da0
tcpc_pid = 0x8815
tcpc_did = 0x0001
tcpc_fw = 0x12
partner_vid = 0x18d1
partner_pid = 0x5002

[usbpd_port]
connected = no
tcpc_i2c_port = 3
tcpc_i2c_addr = 0x0b
tcpc_vid = 0x1da0
tcpc_pid = 0x8815
tcpc_did = 0x0001
tcpc_fw = 0x12

# The motion sensors, in the firmware's order: the base accelerometer (0),
# the lid's (1), the base gyroscope (2). Chips are enum motionsensor_chip
# (2 BMI160, 8 BMA255); rates in mHz.
[motion_sensor]
type = accel
location = base
chip = 2
range = 4
min_frequency = 12500
max_frequency = 100000

[motion_sensor]
type = accel
location = lid
chip = 8
range = 2
min_frequency = 7810
max_frequency = 125000

[motion_sensor]
type = gyro
location = base
chip = 2
range = 1000
min_frequency = 25000
max_frequency = 100000

[latency]
default = 0ns

[faults]
busy = 0
in_progress = 0
timeout = 0
timeout_delay = 1s
seed = 1
