# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: [battery] needs design_capacity and design_voltage
[battery]
charge = 50
