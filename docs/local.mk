# SPDX-License-Identifier: GPL-2.0-or-later
#
# docs/components.svg is drawn from docs/components.dot and kept in the tree,
# so the README and design.md show it without graphviz; tests/docs checks
# that the drawing is current and the edges are the code's. After changing
# the .dot, `make components-svg` (graphviz) redraws it.

EXTRA_DIST += docs/components.dot docs/components.svg

components-svg:
	$(AM_V_GEN)sum=$$(sha256sum < $(srcdir)/docs/components.dot | cut -d' ' -f1) && \
	dot -Tsvg $(srcdir)/docs/components.dot | \
	sed "1a <!-- drawn from components.dot, sha256 $$sum -->" \
		> $(srcdir)/docs/components.svg-t && \
	mv -f $(srcdir)/docs/components.svg-t $(srcdir)/docs/components.svg
.PHONY: components-svg

# Installed beside teaching.md and ec-commands.md: the
# design (with its picture), the ABI, the scenario format, the README.
dist_doc_DATA += docs/design.md docs/components.svg \
	docs/hotplug-scenarios.md README.md
EXTRA_DIST += docs/demo-histogram.png docs/demo-timeline.png
