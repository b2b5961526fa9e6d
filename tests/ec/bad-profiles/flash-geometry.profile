# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 7
# expect-error: [flash] size must be a multiple of 2 x erase_block, erase_block of write_block, at most 16777216 bytes
[flash]
size = 12288
write_block = 4
erase_block = 4096
