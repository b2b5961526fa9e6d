# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid latency '11s': longer than 10s
[latency]
default = 11s
