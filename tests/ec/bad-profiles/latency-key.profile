# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: latency key must be 'default' or a command number, not 'hello'
[latency]
hello = 1ms
