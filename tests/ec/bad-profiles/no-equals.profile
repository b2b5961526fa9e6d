# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: expected 'key = value', got 'board laptop'
[ec]
board laptop
