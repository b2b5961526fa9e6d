# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: invalid ambient '100': out of range 200K..453K
[temp]
name = CPU
ambient = 100
