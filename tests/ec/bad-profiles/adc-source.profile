# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 6
# expect-error: unknown value 'thermal' for 'source'
[adc]
name = T
source = thermal
