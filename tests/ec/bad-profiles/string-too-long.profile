# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: value of 'version_ro' too long (max 31 characters)
[ec]
version_ro = vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv
