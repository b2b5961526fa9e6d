# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: unknown value 'ajar' for 'lid'
[state]
lid = ajar
