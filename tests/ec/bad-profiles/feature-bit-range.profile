# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid feature bit '64': out of range 0..63
[ec]
features = 64
