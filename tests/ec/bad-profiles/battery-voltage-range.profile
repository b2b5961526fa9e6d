# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: invalid design_voltage '30001': out of range 1..30000
[battery]
design_capacity = 1000
design_voltage = 30001
