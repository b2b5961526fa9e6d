# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid sku_id '0x100000000': out of range 0x0..0xffffffff
[cbi]
sku_id = 0x100000000
