# SPDX-License-Identifier: GPL-2.0-or-later
#
# The device socket (devsock/devsock.h): the messages that carry /dev/NAME's
# file operations over a UNIX socket. The daemon's socket frontend and the
# preload library link it; libc only. Its tests are in tests/devsock/.

noinst_LTLIBRARIES += devsock/libdevsock.la
devsock_libdevsock_la_SOURCES = devsock/devsock.c
noinst_HEADERS += devsock/devsock.h
