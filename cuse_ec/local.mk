# SPDX-License-Identifier: GPL-2.0-or-later
#
# The daemon: its two front ends (CUSE in the cuse_ec binary, the device
# socket in the library), the chardev seam, the lifecycle, the control
# socket, udev following and options. Everything
# with logic in it is a convenience library, so host tests link exactly the
# code the daemon runs; they live in tests/cuse_ec/local.mk.

noinst_LTLIBRARIES += cuse_ec/libcuse_ec_daemon.la
cuse_ec_libcuse_ec_daemon_la_SOURCES = \
	cuse_ec/chardev.c \
	cuse_ec/chardev_file.c \
	cuse_ec/chardev_read.c \
	cuse_ec/chardev_ioctl.c \
	cuse_ec/chardev_trace.c \
	cuse_ec/chardev_record.c \
	cuse_ec/chardev_access.c \
	cuse_ec/lifecycle.c \
	cuse_ec/control.c \
	cuse_ec/control_server.c \
	cuse_ec/control_hw.c \
	cuse_ec/options.c \
	cuse_ec/session_files.c \
	cuse_ec/profile_path.c \
	cuse_ec/udev_follow.c \
	cuse_ec/udev_match.c \
	cuse_ec/privdrop.c \
	cuse_ec/path_wait.c \
	cuse_ec/node.c \
	cuse_ec/node_setup.c \
	cuse_ec/shutdown.c \
	cuse_ec/sock_frontend.c \
	cuse_ec/frontend.c \
	cuse_ec/frontend_sock.c
noinst_HEADERS += \
	cuse_ec/privdrop.h \
	cuse_ec/path_wait.h \
	cuse_ec/node.h \
	cuse_ec/node_setup.h \
	cuse_ec/shutdown.h \
	cuse_ec/sock_frontend.h \
	cuse_ec/frontend.h \
	cuse_ec/session_files.h \
	cuse_ec/chardev.h \
	cuse_ec/chardev_internal.h \
	cuse_ec/chardev_testing.h \
	cuse_ec/chardev_trace.h \
	cuse_ec/lifecycle.h \
	cuse_ec/lifecycle_testing.h \
	cuse_ec/control.h \
	cuse_ec/control_internal.h \
	cuse_ec/options.h \
	cuse_ec/profile_path.h \
	cuse_ec/udev_follow.h
daemon_cppflags = $(AM_CPPFLAGS) -I$(top_srcdir)/cuse_ec -I$(top_srcdir)/revocable \
	-DCUSE_EC_PROFILES_DIR='"$(profilesdir)"'
cuse_ec_libcuse_ec_daemon_la_CPPFLAGS = $(daemon_cppflags)
cuse_ec_libcuse_ec_daemon_la_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS) $(UDEV_CFLAGS)
# It links what it uses: the control protocol, the device socket, the EC model, librevocable, liburcu, libudev.
cuse_ec_libcuse_ec_daemon_la_LIBADD = ctl/libctl.la devsock/libdevsock.la common/libcommon.la ec/libecmodel.la \
	revocable/librevocable.la $(URCU_LIBS) $(UDEV_LIBS)

sbin_PROGRAMS += cuse_ec/cuse_ec
# The CUSE front end is the one part that needs libfuse (frontend.h).
cuse_ec_cuse_ec_SOURCES = cuse_ec/cuse_main.c cuse_ec/frontend_cuse.c
cuse_ec_cuse_ec_CPPFLAGS = $(daemon_cppflags)
cuse_ec_cuse_ec_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS) $(URCU_CFLAGS)
cuse_ec_cuse_ec_LDADD = cuse_ec/libcuse_ec_daemon.la $(FUSE3_LIBS)

dist_man_MANS += cuse_ec/cuse_ec.8 cuse_ec/cuse_ec-state.5
dist_udevrules_DATA = cuse_ec/70-cuse_ec.rules

# Benchmark (prints figures, never a test): cuse_ec vs a null CUSE server
# speaking the same ABI; cuse_ec/bench/run-bench.sh runs both in one UML boot.
noinst_PROGRAMS += cuse_ec/bench/cuse_null cuse_ec/bench/cuse_ec_bench
cuse_ec_bench_cuse_null_SOURCES = cuse_ec/bench/cuse_null.c
cuse_ec_bench_cuse_null_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
cuse_ec_bench_cuse_null_LDADD = $(FUSE3_LIBS)
cuse_ec_bench_cuse_ec_bench_SOURCES = cuse_ec/bench/cuse_ec_bench.c cuse_ec/bench/bench_rounds.h
cuse_ec_bench_cuse_ec_bench_CFLAGS = $(AM_CFLAGS)
dist_noinst_SCRIPTS += cuse_ec/bench/run-bench.sh
# The front ends against each other: XCMD through the preload library and
# the device socket, through CUSE (in user-mode-linux here), as a direct
# call into the EC model (ec_direct_bench), and the bare socket round trip
# under all of it (socket_floor); cuse_ec/bench/run-frontends.sh.
noinst_PROGRAMS += cuse_ec/bench/ec_direct_bench cuse_ec/bench/socket_floor
cuse_ec_bench_socket_floor_SOURCES = cuse_ec/bench/socket_floor.c
cuse_ec_bench_socket_floor_LDADD = -lpthread
cuse_ec_bench_ec_direct_bench_SOURCES = cuse_ec/bench/ec_direct_bench.c
cuse_ec_bench_ec_direct_bench_LDADD = ec/libecmodel.la common/libcommon.la
dist_noinst_SCRIPTS += cuse_ec/bench/run-frontends.sh
# One daemon, two devices: cros_ec's XCMD rate while cros_fp is unplugged and
# plugged in a loop, in rounds paired with its rate without; run-multi.sh.
noinst_PROGRAMS += cuse_ec/bench/multi_bench
cuse_ec_bench_multi_bench_SOURCES = cuse_ec/bench/multi_bench.c cuse_ec/bench/bench_rounds.h
cuse_ec_bench_multi_bench_LDADD = ctl/libctl.la common/libcommon.la -lpthread
dist_noinst_SCRIPTS += cuse_ec/bench/run-multi.sh

# systemd units: the plain service, the template whose instance is the
# board profile and the one whose instance is the node's name, with one
# hardening block shared by all.
systemdunit_DATA = cuse_ec/cuse_ec.service cuse_ec/cuse_ec@.service cuse_ec/cuse_ec-node@.service
CLEANFILES += $(systemdunit_DATA)
EXTRA_DIST += cuse_ec/cuse_ec.service.in cuse_ec/cuse_ec@.service.in \
	cuse_ec/cuse_ec-node@.service.in cuse_ec/cuse_ec-hardening.conf
cuse_ec/cuse_ec.service cuse_ec/cuse_ec@.service cuse_ec/cuse_ec-node@.service: %: %.in \
		cuse_ec/cuse_ec-hardening.conf Makefile
	$(AM_V_GEN)$(MKDIR_P) cuse_ec && sed \
		-e 's|@sbindir[@]|$(sbindir)|g' \
		-e '/^@HARDENING@$$/{' -e 'r $(srcdir)/cuse_ec/cuse_ec-hardening.conf' -e 'd' -e '}' \
		$(srcdir)/$@.in > $@-t && mv -f $@-t $@
