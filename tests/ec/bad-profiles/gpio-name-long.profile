# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: GPIO name 'GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG' too long (max 31 characters)
[gpio]
GGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG = 1
