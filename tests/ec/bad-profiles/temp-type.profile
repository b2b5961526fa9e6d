# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: unknown value 'gpu' for 'type'
[temp]
name = CPU
type = gpu
