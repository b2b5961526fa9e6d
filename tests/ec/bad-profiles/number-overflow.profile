# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad number
[flash]
size = 99999999999999999999999
