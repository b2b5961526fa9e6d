# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 4
# expect-error: unknown section [nonsense]
[nonsense]
