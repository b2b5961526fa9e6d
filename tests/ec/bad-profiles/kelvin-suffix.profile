# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: bad temperature '40F'
[temp]
name = CPU
ambient = 40F
