# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 12
# expect-error: too many [fan] sections (max 4)
[fan]
max_rpm = 1
[fan]
max_rpm = 1
[fan]
max_rpm = 1
[fan]
max_rpm = 1
[fan]
