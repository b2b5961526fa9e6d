# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: 'ambient' out of range (200..453)
[temp]
name = CPU
ambient = 100
