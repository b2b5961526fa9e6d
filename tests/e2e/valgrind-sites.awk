# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind-sites.awk - sort a cuse_ec valgrind log's reports by the file
# operation whose access stack they are in (the innermost chardev_*
# function before the free/alloc stacks); a report with no chardev frame in
# its access stack is "unknown". The stacks are whole only with valgrind's
# --vex-guest-chase=no (tests/e2e/lib.sh, e2e_valgrind_argv).
#
#   awk -v mode=count -f valgrind-sites.awk LOG   one site name per report
#   awk -v mode=show -v allowed=REGEX -f ...      the reports whose site
#                                                 does not match REGEX
/== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest)/ {
	inrep = 1; n = 0; site = ""; access = 1
}
inrep { buf[n++] = $0 }
inrep && /Address 0x|Block was|Uninitialised value/ { access = 0 }
inrep && access && site == "" && match($0, /: chardev_[a-z_]+ /) {
	site = substr($0, RSTART + 2, RLENGTH - 3)
}
inrep && /^==[0-9]+== *$/ {
	if (site == "")
		site = "unknown"
	if (mode == "count")
		print site
	else if (site !~ ("^(" allowed ")$"))
		for (i = 0; i < n; i++) print buf[i]
	inrep = 0
}
