# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid size '0x100000000': out of range 0..4294967295
[flash]
size = 0x100000000
