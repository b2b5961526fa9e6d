# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: passthru device must be 1, 2 or 3, not '4'
[passthru]
4 = pd
