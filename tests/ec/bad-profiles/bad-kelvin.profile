# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: bad temperature 'hot' for 'ambient'
[temp]
name = CPU
ambient = hot
