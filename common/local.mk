# SPDX-License-Identifier: GPL-2.0-or-later
#
# What every program needs once (common/common.h): the parsers for each
# kind of value a user types, UTF-8 text for JSON, the monotonic clock
# the random generator and a server's listening UNIX socket. libc only, so the
# EC model may link it; its tests are in tests/common/local.mk.

noinst_LTLIBRARIES += common/libcommon.la
common_libcommon_la_SOURCES = common/common.h common/parse.c common/utf8.c \
	common/clock.c common/unix_socket.c common/ec_result.c
