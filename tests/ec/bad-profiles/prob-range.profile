# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid busy '1.5': out of range 0..1
[faults]
busy = 1.5
