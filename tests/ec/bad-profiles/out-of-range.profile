# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: 'max_request_packet' out of range (64..4096)
[protocol]
max_request_packet = 32
