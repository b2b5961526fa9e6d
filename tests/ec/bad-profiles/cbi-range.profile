# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: 'sku_id' out of range (0..4294967295)
[cbi]
sku_id = 0x100000000
