# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: passthru version string must be 1..31 characters
[passthru]
1 =
