# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid busy 'often': expected a probability 0..1
[faults]
busy = often
