# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: 'size' out of range
[flash]
size = 0x100000000
