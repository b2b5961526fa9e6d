/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Forced into every unit test's compile by configure when the Check
 * framework was not found, so `make check` stops with the package to
 * install instead of a missing-header error. A plain build never reads it.
 */
#error "make check needs the Check unit-test framework (>= 0.15): apt-get install check, then re-run configure"
