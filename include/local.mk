# SPDX-License-Identifier: GPL-2.0-or-later
noinst_HEADERS += include/cros_ec/cros_ec_dev.h
noinst_HEADERS += include/cros_ec/ec_commands.h
