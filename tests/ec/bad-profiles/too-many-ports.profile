# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 8
# expect-error: too many [usbpd_port] sections (max 4)
[usbpd_port]
[usbpd_port]
[usbpd_port]
[usbpd_port]
[usbpd_port]
