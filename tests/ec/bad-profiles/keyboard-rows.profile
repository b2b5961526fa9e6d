# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid rows '9': out of range 1..8
[keyboard]
rows = 9
