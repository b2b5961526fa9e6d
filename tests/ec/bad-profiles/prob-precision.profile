# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad probability
[faults]
busy = 0.00000001
