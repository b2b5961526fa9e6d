# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: unknown feature 'warp_drive'
[ec]
features = flash, warp_drive
