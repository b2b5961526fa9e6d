# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid timeout_delay '3 fortnights': unknown unit ' fortnights' (use ns, us, ms, s or m)
[faults]
timeout_delay = 3 fortnights
