# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: unknown key 'colour' in [ec]
[ec]
board = x
colour = blue
