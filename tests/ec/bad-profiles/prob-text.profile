# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad probability 'often' for 'busy'
[faults]
busy = often
