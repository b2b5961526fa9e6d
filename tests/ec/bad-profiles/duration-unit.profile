# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: bad duration '3 fortnights' for 'timeout_delay'
[faults]
timeout_delay = 3 fortnights
