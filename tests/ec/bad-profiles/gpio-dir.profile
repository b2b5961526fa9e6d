# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: GPIO EC_WP_L direction must be 'in' or 'out', not 'sideways'
[gpio]
EC_WP_L = 1 sideways
