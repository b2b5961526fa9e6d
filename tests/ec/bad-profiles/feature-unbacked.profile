# SPDX-License-Identifier: GPL-2.0-or-later
# expect-line: 5
# expect-error: feature 15 ('i2c') cannot be advertised: the model has no commands for it
[ec]
features = host_events, i2c
