# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: 'memmap_direct' must be yes or no, not 'maybe'
[ec]
memmap_direct = maybe
