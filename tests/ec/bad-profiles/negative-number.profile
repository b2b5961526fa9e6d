# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad number '-1' for 'size'
[flash]
size = -1
