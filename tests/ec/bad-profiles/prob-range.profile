# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad probability '1.5' for 'busy' (0..1)
[faults]
busy = 1.5
