# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid size '12abc': unknown unit 'abc' (use K, M or G)
[flash]
size = 12abc
