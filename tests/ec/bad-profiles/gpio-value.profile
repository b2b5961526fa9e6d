# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: GPIO EC_WP_L value must be 0 or 1, not '2'
[gpio]
EC_WP_L = 2
