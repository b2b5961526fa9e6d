# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: 'rows' out of range (1..8)
[keyboard]
rows = 9
