# SPDX-License-Identifier: GPL-2.0-or-later
#
# The components picture against the code: the edges of docs/components.dot
# are exactly those the #include lines make, they point one way, and
# docs/components.svg was drawn from the current .dot; kernel-doc is written
# once per function.

docs_tests = tests/docs/components.test tests/docs/kernel-doc.test
TESTS += $(docs_tests)
dist_noinst_SCRIPTS += $(docs_tests)
