# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: range needs exactly 6 values
[led]
id = power
range = 1,1,1,1,1,1,1
