# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid GPIO EC_WP_L value '2': out of range 0..1
[gpio]
EC_WP_L = 2
