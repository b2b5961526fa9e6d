# SPDX-License-Identifier: GPL-2.0-or-later
#
# valgrind-sites.awk - sort a cuse_ec valgrind log's reports by the file
# operation whose access stack they are in (the innermost chardev_*
# function before the free/alloc stacks). After a use-after-free valgrind
# sometimes loses the stack inside the EC; a report with EC code on top and
# no chardev frame is "ec_lost_stack", one without either "unknown".
#
#   awk -v mode=count -f valgrind-sites.awk LOG   one site name per report
#   awk -v mode=show -v allowed=REGEX -f ...      the reports whose site
#                                                 does not match REGEX
/== (Invalid|Conditional|Use of uninit|Syscall param|Mismatched|Source and dest)/ {
	inrep = 1; n = 0; site = ""; top = ""; access = 1
}
inrep { buf[n++] = $0 }
inrep && /Address 0x|Block was|Uninitialised value/ { access = 0 }
inrep && access && top == "" && match($0, /(at|by) 0x[0-9A-F]+: [a-z_]+ /) {
	top = $0; sub(/.*: /, "", top); sub(/ .*/, "", top)
	if (top !~ /^(ec_|chardev_)/) top = ""
}
inrep && access && site == "" && match($0, /: chardev_[a-z_]+ /) {
	site = substr($0, RSTART + 2, RLENGTH - 3)
}
inrep && /^==[0-9]+== *$/ {
	if (site == "")
		site = top ~ /^ec_/ ? "ec_lost_stack" : "unknown"
	if (mode == "count")
		print site
	else if (site !~ ("^(" allowed ")$"))
		for (i = 0; i < n; i++) print buf[i]
	inrep = 0
}
