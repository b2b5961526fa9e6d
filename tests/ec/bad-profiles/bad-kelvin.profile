# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: invalid ambient 'hot': expected kelvin, or Celsius with a C suffix
[temp]
name = CPU
ambient = hot
