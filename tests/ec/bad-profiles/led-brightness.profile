# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: invalid brightness '256': out of range 0..255
[led]
id = power
range = 1,1,1,1,1,256
