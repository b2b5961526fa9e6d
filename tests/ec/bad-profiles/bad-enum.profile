# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: unknown value 'rx' for 'current_image'
[ec]
current_image = rx
