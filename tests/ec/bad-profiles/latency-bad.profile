# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid latency '5 minutes': unknown unit ' minutes' (use ns, us, ms, s or m)
[latency]
default = 5 minutes
