# SPDX-License-Identifier: GPL-2.0-or-later
#
# Small programs using librevocable the way another project would.
# make check builds them against the build tree's library and runs them;
# make installcheck builds the same sources against an installed copy
# (DESTDIR too) with nothing but `pkg-config --cflags --libs revocable`.

revocable_examples = examples/sleeping_reader examples/embedded_async
check_PROGRAMS += $(revocable_examples)
TESTS += $(revocable_examples)

examples_sleeping_reader_SOURCES = examples/sleeping_reader.c
examples_sleeping_reader_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
examples_sleeping_reader_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
examples_sleeping_reader_LDADD = revocable/librevocable.la

examples_embedded_async_SOURCES = examples/embedded_async.c
examples_embedded_async_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/revocable
examples_embedded_async_CFLAGS = $(AM_CFLAGS) $(URCU_CFLAGS)
examples_embedded_async_LDADD = revocable/librevocable.la

EXTRA_DIST += examples/README.md
dist_noinst_SCRIPTS += examples/installcheck.sh

installcheck-local: installcheck-examples
installcheck-examples:
	DESTDIR='$(DESTDIR)' pkgconfigdir='$(pkgconfigdir)' libdir='$(libdir)' \
	includedir='$(includedir)' mandir='$(mandir)' CC='$(CC)' \
	CFLAGS='$(WARN_CFLAGS) $(CFLAGS)' LDFLAGS='$(LDFLAGS)' \
		$(SHELL) $(srcdir)/examples/installcheck.sh $(srcdir)/examples \
		$(revocable_examples:examples/%=%)
.PHONY: installcheck-examples
