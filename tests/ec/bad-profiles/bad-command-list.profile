# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid command number '0x4001': out of range 0x0..0x3fff
[ec]
disable_commands = 0x4001
