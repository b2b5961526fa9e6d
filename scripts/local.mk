# SPDX-License-Identifier: GPL-2.0-or-later

dist_noinst_SCRIPTS += scripts/check scripts/deb-check
EXTRA_DIST += scripts/deps.sh scripts/version.sh docs/uml.md

# ec-shell: a shell with a live /dev/cros_ec, here or in user-mode-linux.
# Installed as cuse_ec-shell, told where the installed programs are; it
# boots the guest with uml-run, installed in $(pkglibexecdir) because only
# ec-shell calls it there, and the source of the AMX shim uml-run compiles.
EXTRA_DIST += scripts/ec-shell
bin_SCRIPTS += scripts/cuse_ec-shell
dist_man_MANS += scripts/cuse_ec-shell.1
CLEANFILES += scripts/cuse_ec-shell scripts/cuse_ec-shell.tmp
scripts/cuse_ec-shell: scripts/ec-shell Makefile
	$(AM_V_GEN)$(MKDIR_P) scripts && sed \
		-e 's|^ecs_installed=0$$|ecs_installed=1|' \
		-e 's|^ecs_sbindir=$$|ecs_sbindir=$(sbindir)|' \
		-e 's|^ecs_bindir=$$|ecs_bindir=$(bindir)|' \
		-e 's|^ecs_libexecdir=$$|ecs_libexecdir=$(pkglibexecdir)|' \
		-e 's|^ecs_version=$$|ecs_version="($(PACKAGE_NAME)) $(PACKAGE_VERSION)"|' \
		-e 's|^ecs_datadir=$$|ecs_datadir=$(pkgdatadir)|' \
		-e 's|^ecs_pkglibdir=$$|ecs_pkglibdir=$(pkglibdir)|' \
		-e 's|^prog=ec-shell$$|prog=cuse_ec-shell|' \
		$(srcdir)/scripts/ec-shell > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@
# Bash completion: one file that reads every program's --help, installed
# under the program's name for each (bash-completion loads it by name).
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = scripts/completion/cuse_ec
bashcompletion_links = ecctl hotplug_sim cuse_ec-shell
install-data-hook:
	for n in $(bashcompletion_links); do \
		rm -f "$(DESTDIR)$(bashcompletiondir)/$$n" && \
		$(LN_S) cuse_ec "$(DESTDIR)$(bashcompletiondir)/$$n" || exit 1; \
	done
uninstall-hook:
	for n in $(bashcompletion_links); do rm -f "$(DESTDIR)$(bashcompletiondir)/$$n"; done

# The real ectool's every subcommand against the daemon (ECTOOL=path; run by
# hand, never by the build or the tests: docs/ec-commands.md).
EXTRA_DIST += scripts/ectool-sweep

ecshelldir = $(pkglibexecdir)
dist_ecshell_SCRIPTS = scripts/uml-run
dist_pkgdata_DATA = scripts/uml-xstate-shim.c

# hotplug experiments: the teaching table (every lifecycle mode), the latency histogram, the
# end-to-end demo and the ready experiments (run from the source tree).
dist_noinst_SCRIPTS += \
	scripts/hotplug-compare \
	scripts/latency-histogram \
	scripts/latency-timeline \
	scripts/demo \
	scripts/experiments/flap.sh \
	scripts/experiments/inflight.sh \
	scripts/experiments/compare-modes.sh \
	scripts/experiments/uevent.sh \
	scripts/experiments/soak.sh
EXTRA_DIST += scripts/hotplug-lib.sh

# soak: many unplug/replug cycles under clients; the daemon's RSS, fds and
# threads every 1,000 cycles (bench/cuse_ec_soak.c prints them).
dist_noinst_SCRIPTS += scripts/soak
noinst_PROGRAMS += bench/cuse_ec_soak
bench_cuse_ec_soak_SOURCES = bench/cuse_ec_soak.c
bench_cuse_ec_soak_LDADD = ctl/libctl.la common/libcommon.la
