# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: invalid max_request_packet '32': out of range 64..4096
[protocol]
max_request_packet = 32
