# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: unknown value 'toaster' for 'partner'
[usbpd_port]
partner = toaster
