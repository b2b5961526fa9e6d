# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid load '101': out of range 0..100
[state]
load = 101
