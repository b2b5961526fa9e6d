# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid busy '0.00000001': finer than one in a million
[faults]
busy = 0.00000001
