# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: [temp] 0 needs name and ambient
[temp]
ambient = 300
