# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: feature 4 ('lightbar') cannot be advertised: the model has no commands for it
[ec]
features = host_events, lightbar
