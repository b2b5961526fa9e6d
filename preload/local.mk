# SPDX-License-Identifier: GPL-2.0-or-later
#
# The preload library: LD_PRELOAD=libcuse_ec_preload.so makes /dev/NAME of
# a daemon started with --socket-dir exist for an unmodified client
# (preload/cuse_ec_preload.8). It needs libc and the device socket.

pkglib_LTLIBRARIES += preload/libcuse_ec_preload.la
preload_libcuse_ec_preload_la_SOURCES = preload/cuse_ec_preload.c preload/preload_poll.c \
	preload/preload.h
preload_libcuse_ec_preload_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
preload_libcuse_ec_preload_la_LDFLAGS = -module -avoid-version -shared \
	-Wl,--version-script=$(srcdir)/preload/preload.sym
preload_libcuse_ec_preload_la_LIBADD = devsock/libdevsock.la -ldl
EXTRA_DIST += preload/preload.sym
dist_man_MANS += preload/cuse_ec_preload.7
