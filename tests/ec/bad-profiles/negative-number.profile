# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid size '-1': expected a number and an optional unit (K, M or G)
[flash]
size = -1
