# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 8
# expect-error: [battery] critical must not exceed low
[battery]
design_capacity = 1000
design_voltage = 7000
low = 5
critical = 10
