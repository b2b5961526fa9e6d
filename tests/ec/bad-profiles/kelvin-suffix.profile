# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: invalid ambient '40F': expected kelvin, or Celsius with a C suffix
[temp]
name = CPU
ambient = 40F
