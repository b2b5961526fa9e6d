# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 7
# expect-error: feature 'pwm_keyb' needs command 0x0022, which this board lacks
[ec]
features = pwm_keyb
[keyboard]
backlight = no
