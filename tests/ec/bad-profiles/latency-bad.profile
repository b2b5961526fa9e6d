# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad latency '5 minutes'
[latency]
default = 5 minutes
