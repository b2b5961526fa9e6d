# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: [faults] probabilities add up to more than 1
[faults]
busy = 0.6
timeout = 0.6
