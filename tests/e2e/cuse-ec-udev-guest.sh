# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of cuse-ec-udev.test (argument "plain": no udevd) and of
# cuse-ec-udevd.test (argument "udevd": Debian's systemd-udevd runs in the
# guest with the project's rule in /run/udev/rules.d), run where /dev/cuse is
# real. One script, so that both worlds are held to the same checks; where
# they differ, the difference is what the man page documents.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

case ${1:-plain} in
plain) with_udevd=0 ;;
udevd) with_udevd=1 ;;
*) echo "usage: $0 plain|udevd" >&2; exit 2 ;;
esac

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
sim=$top_builddir/hotplug_sim/hotplug_sim
name=udev_ec$$
dev=/dev/$name
out=${UML_OUT:-$(mktemp -d)}
sock=$out/udev_$$.sock
uevent=/sys/class/cuse/$name/uevent
# Empty without the group: every permission check with it then fails.
plugdev=$(getent group plugdev | cut -d: -f3) || plugdev=

# ctl LINE : one control command, reply on stdout ($daemon is the binary,
# not libtool's wrapper: lib.sh resolved it).
ctl() {
	"$daemon" --control="$sock" --send="$1"
}

# stat_of KEY : one counter from `stats`.
stat_of() {
	e2e_stat "$sock" "$1"
}

# wait_until DESC CMD... : run CMD until it succeeds (bounded by the
# clock, 60 s, however slow each try is under load). What the daemon says
# is asked for only if it fails: each control command is a process, which
# costs ~0.1 s of CPU in UML, so a description is never worked out ahead.
wait_until() {
	# shellcheck disable=SC2034 # hl_backoff reads and sets it by name
	local desc=$1 end=$((SECONDS + 60)) pause=0

	shift
	while ((SECONDS < end)); do
		"$@" && return 0
		hl_backoff pause
	done
	"$@" && return 0
	echo "still not true after 60 s: $desc (daemon: $(ctl status 2>&1); $(ctl stats 2>&1))" >&2
	# Where udevd, its helpers and the daemons sleep. (How a daemon
	# without options came to wait for udevd's lost reloads: in ci84 this
	# showed udevd idle, asleep in path_parentat, its copy of the "add"
	# delivered and the node still 0600 root.)
	echo "udevd queue: $(ls /run/udev/queue 2>&1)" >&2
	# shellcheck disable=SC2009 # the whole line, with its wchan, is the point
	ps -eo pid,ppid,stat,etimes,wchan:24,args 2>&1 | grep -E 'PID|udev|cuse_ec' >&2
	return 1
}

# wait_status WORD : poll `status` until it says WORD.
wait_status() {
	wait_until "status is $1" status_is "$1"
}

status_is() {
	[[ $(ctl status) == "ok $1 "* ]]
}

# stat_ge KEY N : counter KEY is at least N.
stat_ge() {
	local v

	v=$(stat_of "$1")
	[[ -n $v && $v -ge $2 ]]
}

wait_stat() {
	wait_until "stats $1 >= $2" stat_ge "$1" "$2"
}

# perms_are PATH MODE GID : the node's octal mode and group. Checked through
# wait_until: `udevadm settle` only waits for uevents udevd has already
# received, so the node's own "add" may still be on its way.
perms_are() {
	[[ $(stat -c '%a %g' "$1" 2>/dev/null) == "$2 $3" ]]
}

# settle : with udevd, wait until it has handled every queued uevent (and so
# has sent its copies and set permissions). Without udevd there is nothing
# to wait for: the kernel's copy is all there is.
settle() {
	(( with_udevd )) || return 0
	udevadm settle --timeout=30
}

# copies_counted : every kernel copy has its udevd copy (with udevd) and
# each event is counted once in uevents_seen.
copies_counted() {
	local k u s stats

	# One reply: the three counters of one moment, one process.
	stats=$(ctl stats) || return
	k=$(e2e_stat_in "$stats" uevents_kernel) u=$(e2e_stat_in "$stats" uevents_udev)
	s=$(e2e_stat_in "$stats" uevents_seen)
	[[ -n $k ]] || return 1
	if (( with_udevd )); then
		[[ $u == "$k" && $s == "$k" ]]
	else
		[[ $u == 0 && $s == "$k" ]]
	fi
}

synth() {
	local uuid

	read -r uuid </proc/sys/kernel/random/uuid
	echo "$1 $uuid SRC=test" >"$2"
}

udevd_pid=
# udevd_start : systemd-udevd in the background (not --daemon, so its pid
# is the listener's), answering pings before we go on.
udevd_start() {
	/lib/systemd/systemd-udevd >"$out/udevd.log" 2>&1 &
	udevd_pid=$!
	wait_until "udevd answers pings" udevd_pings
}

udevd_pings() {
	udevadm control --ping --timeout=1 2>/dev/null
}

# udevd_stop : udevd's orderly way out, bounded. systemd-udevd 252 in this
# guest now and then stays after acknowledging --exit (seen in a CI-like
# run here: no worker left, main process asleep); that is udevd's behaviour, not
# the daemon's, so a udevd that does not go is reported with where it sleeps
# and killed, and only "udevd is gone" is checked.
udevd_stop() {
	local pid=$udevd_pid

	if ! { timeout 30 udevadm control --exit --timeout=20 &&
		wait_until "udevd $pid exited" bash -c '! kill -0 "$1" 2>/dev/null ||
			[[ $(cat "/proc/$1/stat") == *") Z "* ]]' _ "$pid"; }; then
		echo "note: udevd $pid did not exit on udevadm control --exit; killing it" >&2
		grep -H . /proc/[0-9]*/comm 2>/dev/null | grep udev >&2 || true
		echo "wchan: $(cat "/proc/$pid/wchan" 2>/dev/null)" >&2
		kill -KILL "$pid" 2>/dev/null || true
	fi
	wait "$pid" || true
	udevd_pid=
	! kill -0 "$pid" 2>/dev/null
}

udevd_kill() {
	kill -KILL "$udevd_pid"
	wait "$udevd_pid" || true	# 137: killed, as intended
	udevd_pid=
}

if (( with_udevd )); then
	mkdir -p /run/udev/rules.d
	cp "$top_srcdir/cuse_ec/70-cuse_ec.rules" /run/udev/rules.d/
	udevd_start || e2e_fatal "udevd did not start"
	e2e_check "udevd is running" test -n "$udevd_pid"
fi

# A held fd and a reader blocked on MKBP events, both on the EC of the
# moment: after "remove" the read must wake with ENODEV and the held fd must
# fail with ENODEV. Prints "ready" once blocked; result in the exit status.
cat >"$out/holder.py" <<'PY'
import errno, fcntl, os, sys, threading
dev = sys.argv[1]
held = os.open(dev, os.O_RDWR)
reader = os.open(dev, os.O_RDWR)
fcntl.ioctl(reader, 0xEC02, 0x7fffffff)          # CROS_EC_DEV_IOCEVENTMASK_V2
woke = []
def block():
    try:
        os.read(reader, 512)
        woke.append("data")
    except OSError as e:
        woke.append(errno.errorcode.get(e.errno, str(e.errno)))
t = threading.Thread(target=block, daemon=True)
t.start()
print("ready", flush=True)
t.join(10)
if not woke:
    sys.exit("blocked reader was not woken within 10 s")
if woke[0] != "ENODEV":
    sys.exit("blocked reader woke with %s, not ENODEV" % woke[0])
try:
    os.read(held, 512)
    sys.exit("held fd still reads after remove")
except OSError as e:
    if e.errno != errno.ENODEV:
        sys.exit("held fd: %s, not ENODEV" % errno.errorcode.get(e.errno))
print("ENODEV", flush=True)
PY

e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --log-level=info
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev"
pid=$e2e_daemon_pid
e2e_check "the daemon is plugged at start" wait_status plugged
e2e_check "sysfs uevent file exists" test -w "$uevent"
e2e_check "udevd seen at start: udevd_appeared=$with_udevd" \
	wait_until "udevd_appeared=$with_udevd" test "$(stat_of udevd_appeared)" = "$with_udevd"

# 0. Permissions without --mode: udevd applies 70-cuse_ec.rules to any
#    --name (the daemon's runtime rule tags the node); without udevd CUSE's
#    0600 root stays.
settle
if (( with_udevd )); then
	e2e_check "udevd: default permissions 0660 plugdev for --name=$name" \
		wait_until "node permissions" perms_are "$dev" 660 "$plugdev"
	e2e_check "udevd: the runtime rule names the node" \
		grep -q "KERNEL==\"$name\"" "/run/udev/rules.d/70-cuse_ec-$name.rules"
else
	e2e_check "no udevd: the node stays 0600 root" perms_are "$dev" 600 0
fi
majmin=$(stat -c '%t:%T' "$dev")
majmin=$((16#${majmin%:*})):$((16#${majmin#*:}))

# 1. remove: unplugged, the held fd and the blocked reader get ENODEV.
python3 "$out/holder.py" "$dev" >"$out/holder.out" 2>&1 &
holder=$!
hl_until 60 grep -q ready "$out/holder.out" 2>/dev/null || true
e2e_check "the holder's read is parked in the daemon" \
	e2e_wait_stat "$daemon" "$sock" parked_reads 1
e2e_check "write remove uevent" synth remove "$uevent"
e2e_check "status becomes unplugged" wait_status unplugged
e2e_check "held fd and blocked reader get ENODEV" wait "$holder"
cat "$out/holder.out"
settle
# With or without udevd the node itself stays: udevd removes only its
# /dev/char link and database entry for a synthetic remove.
e2e_check "after remove the node still exists" test -c "$dev"
e2e_check "open fails with ENODEV (not ENOENT) while unplugged" \
	bash -c "{ exec 3<'$dev'; } 2>&1 | grep -q 'No such device\$'"
if (( with_udevd )); then
	e2e_check "udevd: /dev/char/$majmin removed on remove" test ! -e "/dev/char/$majmin"
fi
e2e_check "uevent_unplugs=1" test "$(stat_of uevent_unplugs)" = 1
e2e_check "revocation completed" test "$(stat_of revocations)" = 1

# A second remove while unplugged is harmless.
e2e_check "duplicate remove uevent" synth remove "$uevent"
settle
e2e_check "duplicate remove reached the monitor" wait_stat uevents_kernel 3
e2e_check "duplicate remove: still 1 uevent unplug, daemon alive" \
	bash -c "[[ \$1 == 1 ]] && kill -0 $pid" _ "$(stat_of uevent_unplugs)"

# 2. add: plugged again, a new open works.
e2e_check "write add uevent" synth add "$uevent"
e2e_check "status becomes plugged" wait_status plugged
e2e_check "a new open reads the version" bash -c "head -c 64 '$dev' | grep -q ."
e2e_check "uevent_plugs=1" test "$(stat_of uevent_plugs)" = 1
settle
if (( with_udevd )); then
	e2e_check "udevd: /dev/char/$majmin back after add" test -e "/dev/char/$majmin"
	e2e_check "udevd: still 0660 plugdev after add" wait_until "node permissions" perms_are "$dev" 660 "$plugdev"
fi
e2e_check "each uevent counted once, copies per source beside it" \
	wait_until "copies counted" copies_counted

# 3. hotplug_sim's scenarios through uevents. The volume (1,000 flap
#    cycles, random actions, in-flight calls, again under ASan and TSan) is
#    the host's, through the device socket (hotplug-control.test,
#    devsock-*.test); here the kernel's part, with the least volume that
#    still exercises it: real uevents reaching the monitor while clients
#    and a blocked reader are revoked. Without udevd every scenario; with
#    udevd a short flap, which is where its copies could double an unplug
#    (the man page: the same counts as without udevd) - the others'
#    outcome does not depend on udevd, and each event in a UML guest costs
#    udevd a worker's CPU.
if (( with_udevd )); then flap_cycles=3; else flap_cycles=5; fi
e2e_check "hotplug_sim flap $flap_cycles via uevents exits 0" \
	"$sim" --name="$name" --control="$sock" --trigger=uevent --daemon-pid="$pid" \
	--clients=4 --readers=1 --scenario=flap --cycles=$flap_cycles --period=20ms \
	--deadline=5s --json="$out/flap.json" -q
e2e_check "flap: $flap_cycles unplugs revoked, nothing unexpected or hung" \
	grep -Eq "\"unexpected\":0,.*\"unplugs\":$flap_cycles,.*\"hung\":0" "$out/flap.json"
e2e_check "flap: every unplug was seen revoked" \
	grep -Eq "\"trigger_to_revoked\":\\{\"n\":$flap_cycles," "$out/flap.json"
e2e_check "daemon counted $((flap_cycles + 1)) uevent unplugs" \
	test "$(stat_of uevent_unplugs)" = $((flap_cycles + 1))
grep -o '"trigger_to_revoked":{[^}]*}' "$out/flap.json"
if (( !with_udevd )); then
	e2e_check "hotplug_sim replug via uevents exits 0" \
		"$sim" --name="$name" --control="$sock" --trigger=uevent --daemon-pid="$pid" \
		--clients=2 --readers=1 --scenario=replug --json="$out/replug.json" -q
	e2e_check "hotplug_sim inflight via uevents exits 0" \
		"$sim" --name="$name" --control="$sock" --trigger=uevent --daemon-pid="$pid" \
		--clients=3 --mix=xcmd=100 --scenario=inflight --latency=100ms \
		--json="$out/inflight.json" -q
	e2e_check "hotplug_sim random 5 via uevents exits 0" \
		"$sim" --name="$name" --control="$sock" --trigger=uevent --daemon-pid="$pid" \
		--clients=3 --readers=1 --scenario=random --cycles=5 --period=10ms --seed=7 -q
fi
settle
e2e_check "after the scenarios: each uevent counted once" \
	wait_until "copies counted" copies_counted
if (( with_udevd )); then
	e2e_check "udevd: permissions unchanged after the scenarios" \
		wait_until "node permissions" perms_are "$dev" 660 "$plugdev"
fi

# 4. An operator's unplug holds against a coldplug replay until "plug".
status_is plugged || ctl plug >/dev/null
e2e_check "operator: unplug wait" bash -c '[[ $("$@") == "ok unplugged" ]]' _ \
	"$daemon" --control="$sock" --send="unplug wait"
held=$(stat_of uevent_adds_held)
if (( with_udevd )); then
	e2e_check "coldplug replay: udevadm trigger --action=add" \
		udevadm trigger --action=add "/sys/class/cuse/$name"
else
	e2e_check "coldplug replay: add written to the uevent file" synth add "$uevent"
fi
settle
e2e_check "the replayed add reached the monitor and was held" \
	wait_stat uevent_adds_held $((held + 1))
e2e_check "still unplugged after the replay" status_is unplugged
e2e_check "operator: plug" bash -c '[[ $("$@") == "ok plugged" ]]' _ \
	"$daemon" --control="$sock" --send=plug
e2e_check "after plug, uevents act again: remove unplugs" \
	synth remove "$uevent"
e2e_check "status becomes unplugged after the remove" wait_status unplugged
synth add "$uevent"
e2e_check "and add plugs" wait_status plugged

# 5. udevd killed and restarted mid-run (with udevd only).
if (( with_udevd )); then
	settle
	udevd_kill
	e2e_check "udevd killed: the daemon notices (udevd_vanished=1)" wait_stat udevd_vanished 1
	e2e_check "udevd killed: its socket file stays" test -S /run/udev/control
	k=$(stat_of uevents_kernel) u=$(stat_of uevents_udev)
	e2e_check "no udevd: a remove still unplugs" synth remove "$uevent"
	e2e_check "no udevd: status becomes unplugged" wait_status unplugged
	e2e_check "no udevd: only the kernel copy came" \
		bash -c '[[ $1 == "$2" && $3 -gt $4 ]]' _ "$(stat_of uevents_udev)" "$u" \
		"$(stat_of uevents_kernel)" "$k"
	udevd_start || e2e_fatal "udevd did not restart"
	e2e_check "udevd restarted: the daemon follows it again (udevd_appeared=2)" \
		wait_stat udevd_appeared 2
	e2e_check "udevd restarted: add plugs" synth add "$uevent"
	e2e_check "udevd restarted: status becomes plugged" wait_status plugged
	settle
	e2e_check "udevd restarted: its copies arrive again" wait_stat uevents_udev $((u + 1))
	e2e_check "udevd restarted: 0660 plugdev after its add" wait_until "node permissions" perms_are "$dev" 660 "$plugdev"
	e2e_check "daemon alive through the udevd restart" kill -0 "$pid"
fi

e2e_check_exit "daemon exits 0 on SIGTERM" 0 e2e_stop_daemon
e2e_check "the runtime rule is removed at exit" \
	test ! -e "/run/udev/rules.d/70-cuse_ec-$name.rules"

# 6. --mode/--group with another --name: one owner, no fight, before or
#    after any add.
other=ec_other$$
e2e_start_daemon "$daemon" -f --name="$other" --control="$sock" --mode=0640 --group=plugdev
e2e_wait_for_node "/dev/$other" "$e2e_node_timeout" || e2e_fatal "no /dev/$other"
e2e_check "--mode/--group: 0640 plugdev once it appeared" \
	wait_until "/dev/$other is 0640 plugdev" perms_are "/dev/$other" 640 "$plugdev"
settle
e2e_check "--mode/--group: still 0640 plugdev once udevd settled" \
	wait_until "node permissions" perms_are "/dev/$other" 640 "$plugdev"
synth remove "/sys/class/cuse/$other/uevent"
synth add "/sys/class/cuse/$other/uevent"
e2e_check "--mode/--group: replugged" wait_status plugged
settle
e2e_check "--mode/--group: still 0640 plugdev after remove+add" \
	wait_until "node permissions" perms_are "/dev/$other" 640 "$plugdev"
e2e_check_exit "--name=$other daemon exits 0" 0 e2e_stop_daemon

# The name the shipped rule also gives defaults to: --mode still wins,
# at start and after an add (70-cuse_ec.rules says 0660).
e2e_start_daemon "$daemon" -f --name=cros_ec --control="$sock" --mode=0666
e2e_wait_for_node /dev/cros_ec "$e2e_node_timeout" || e2e_fatal "no /dev/cros_ec"
e2e_check "cros_ec --mode=0666: applied once it appeared" \
	wait_until "/dev/cros_ec is 0666" perms_are /dev/cros_ec 666 "$( ((with_udevd)) && echo "$plugdev" || echo 0)"
synth remove /sys/class/cuse/cros_ec/uevent
synth add /sys/class/cuse/cros_ec/uevent
e2e_check "cros_ec --mode=0666: replugged" wait_status plugged
settle
e2e_check "cros_ec --mode=0666: still 0666 after remove+add" \
	wait_until "node permissions" perms_are /dev/cros_ec 666 "$( ((with_udevd)) && echo "$plugdev" || echo 0)"
e2e_check_exit "--name=cros_ec daemon exits 0" 0 e2e_stop_daemon

# 6b. udevd behind (with udevd only). The kernel gives a new CUSE node the
#     number of the one just removed, and udevd handles events on its own
#     time: when a daemon starts, udevd's entry for that number may still
#     be the previous device's (its "remove" not handled yet), or be
#     written only now (its late "add"). The new daemon must apply its
#     options the last time after udevd has set up its own node, whatever
#     it finds meanwhile. Gates (PROGRAM rules that wait for a file) hold
#     udevd inside the previous device's events: in a synthetic "change",
#     during which its entry is kept and its "remove" waits, and, for the
#     late case, first in its "add". So each ordering happens every run.
#     Only the test's own "change" (SRC=test) is held: a daemon whose
#     reload request udevd lost sends one of its own to be set up again.
#     A rule fixes the new node's mode to 0600 ahead of the daemon's
#     runtime rule, so only the daemon's last chmod leaves it 0666; the
#     group (plugdev, from the shipped rule) shows that udevd set it up.
cat >"$out/gate.sh" <<'SH'
#!/bin/bash
# gate.sh PREFIX: udevd is in the event (PREFIX.in) until a line comes on
# the FIFO PREFIX.go; 60 s at most, so that udevd is never held for good.
# Built-ins only once started: a sleep process per poll costs ~50 ms of CPU
# in UML, for as long as the gate is held. The FIFO is open before
# PREFIX.in says so, so a line written after that is never lost.
exec 3<>"$1.go" || exit 0
: >"$1.in"
read -r -t 60 -u 3 _
exit 0
SH

# gate_open PREFIX : let gate.sh PREFIX go (read-write: never blocks, even
# on a gate that already gave up).
gate_open() {
	local fd

	exec {fd}<>"$1.go"
	echo go >&"$fd"
	exec {fd}>&-
}
# udevd_behind LATE : LATE=0, the previous device's entry is still there
# when the daemon starts; LATE=1, it is written after that.
udevd_behind() {
	local late=$1 first=ec_a$1_$$ second=ec_b$1_$$ gate=$out/gate$1 what devnum log
	local rule=/run/udev/rules.d/60-cuse_ec-test.rules

	what=$( ((late)) && echo "udevd behind, late add" || echo "udevd behind, stale entry")
	log=$out/behind$late.log
	{
		echo "SUBSYSTEM==\"cuse\", KERNEL==\"$second\", MODE:=\"0600\""
		echo "SUBSYSTEM==\"cuse\", KERNEL==\"$first\", ACTION==\"change\"," \
			"ENV{SYNTH_ARG_SRC}==\"test\", PROGRAM==\"/bin/bash $out/gate.sh $gate-change\""
		((late)) && echo "SUBSYSTEM==\"cuse\", KERNEL==\"$first\", ACTION==\"add\"," \
			"PROGRAM==\"/bin/bash $out/gate.sh $gate-add\""
	} >"$rule"
	mkfifo "$gate-change.go" "$gate-add.go"
	udevadm control --reload
	settle
	e2e_start_daemon "$daemon" -f --name="$first" --control="$sock"
	e2e_wait_for_node "/dev/$first" "$e2e_node_timeout" || e2e_fatal "no /dev/$first"
	devnum=$(stat -c '%t:%T' "/dev/$first")
	if ((late)); then
		e2e_check "$what: udevd is held in /dev/$first's add" \
			wait_until "udevd ran $gate-add" test -e "$gate-add.in"
	else
		e2e_check "$what: udevd has set up /dev/$first" \
			wait_until "/dev/$first is 0660 plugdev" perms_are "/dev/$first" 660 "$plugdev"
	fi
	synth change "/sys/class/cuse/$first/uevent"
	((late)) || e2e_check "$what: udevd is held in /dev/$first's change" \
		wait_until "udevd ran $gate-change" test -e "$gate-change.in"
	e2e_check_exit "$what: the $first daemon exits 0" 0 e2e_stop_daemon
	e2e_start_daemon "$daemon" -f --name="$second" --control="$sock" --mode=0666 \
		--log-level=info 2>"$log"
	e2e_wait_for_node "/dev/$second" "$e2e_node_timeout" || e2e_fatal "no /dev/$second"
	e2e_check "$what: /dev/$second has /dev/$first's number $devnum" \
		test "$(stat -c '%t:%T' "/dev/$second")" = "$devnum"
	if ((late)); then
		gate_open "$gate-add"
		e2e_check "$what: udevd is held in /dev/$first's change" \
			wait_until "udevd ran $gate-change" test -e "$gate-change.in"
	fi
	e2e_check "$what: the daemon sees that udevd's entry is /dev/$first's" \
		wait_until "the daemon logged the entry as another device's" \
		grep -q "is not /dev/$second's" "$log"
	gate_open "$gate-change"
	settle
	e2e_check "$what: --mode=0666 is the last word, after udevd's 0600" \
		wait_until "/dev/$second is 0666 plugdev" perms_are "/dev/$second" 666 "$plugdev"
	e2e_check "$what: the daemon did not go on without udevd" \
		bash -c '! grep "has not set up" "$1"' _ "$log"
	echo "$what: /dev/$second is $(stat -c '%a %U:%G' "/dev/$second")"
	rm -f "$rule"
	udevadm control --reload
	e2e_check_exit "$what: the $second daemon exits 0" 0 e2e_stop_daemon
	sed "s/^/  $second: /" "$log"
}

if (( with_udevd )); then
	udevd_behind 0
	udevd_behind 1
fi

# 7. --follow-match on a kernel key (INTERFACE) of a dummy network
#    interface: starts unplugged while it is absent, follows it after.
# Absent is the usual case: this only clears a leftover.
ip link del ecdummy0 2>/dev/null || true
# The guest has no /lib/modules of its own: load dummy.ko by path.
dummy_ko=/usr/lib/uml/modules/$(uname -r)/kernel/drivers/net/dummy.ko
# numdummies=0: no dummy0 of its own, which would match ID_NET_DRIVER=dummy.
[[ -d /sys/module/dummy || ! -e $dummy_ko ]] || insmod "$dummy_ko" numdummies=0
e2e_check "dummy network interfaces can be made" test -d /sys/module/dummy
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" \
	--follow-match=INTERFACE=ecdummy0 --log-level=info
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (follow)"
e2e_check "kernel key: unplugged at start, the interface is absent" wait_status unplugged
e2e_check "kernel key: ip link add" ip link add ecdummy0 type dummy
e2e_check "kernel key: plugged when it appears" wait_status plugged
e2e_check "kernel key: ip link del" ip link del ecdummy0
e2e_check "kernel key: unplugged when it goes" wait_status unplugged
ip link add ecdummy0 type dummy
e2e_check "kernel key: plugged again" wait_status plugged
e2e_check_exit "kernel-key follower exits 0" 0 e2e_stop_daemon
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" \
	--follow-match=INTERFACE=ecdummy0
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (follow 2)"
e2e_check "kernel key: plugged at start, the interface is there" wait_status plugged
e2e_check_exit "second kernel-key follower exits 0" 0 e2e_stop_daemon
ip link del ecdummy0
settle

# 8. --follow-match on a udevd-only key (ID_NET_DRIVER, set by udevd's
#    net_setup_link): the daemon starts before udevd.
(( with_udevd )) && e2e_check "udevd is stopped (1)" udevd_stop
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" \
	--follow-match=ID_NET_DRIVER=dummy --log-level=info
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (udevd key)"
e2e_check "udevd key: unplugged at start" wait_status unplugged
if (( with_udevd )); then
	e2e_check "udevd key: the stale socket file does not count as udevd" \
		test "$(stat_of udevd_appeared)" = 0
	udevd_start || e2e_fatal "udevd did not start (3)"
	e2e_check "udevd key: udevd started after the daemon is followed" \
		wait_stat udevd_appeared 1
	e2e_check "udevd key: ip link add" ip link add ecdummy0 type dummy
	e2e_check "udevd key: plugged by udevd's copy" wait_status plugged
	e2e_check "udevd key: ip link del" ip link del ecdummy0
	e2e_check "udevd key: unplugged by udevd's copy" wait_status unplugged
	# The db-entry caveat: a device added while udevd is down has no
	# database entry, so udevd's copy of its remove lacks ID_NET_DRIVER.
	udevd_kill
	ip link add ecdummy0 type dummy
	udevd_start || e2e_fatal "udevd did not start (4)"
	wait_stat udevd_appeared 2
	ctl plug >/dev/null
	u=$(stat_of uevents_udev)
	ip link del ecdummy0
	settle
	e2e_check "db caveat: udevd's copy of the remove arrived" wait_stat uevents_udev $((u + 1))
	e2e_check "db caveat: without a db entry it carries no ID_NET_DRIVER: still plugged" \
		status_is plugged
else
	k=$(stat_of uevents_kernel)
	e2e_check "udevd key: ip link add" ip link add ecdummy0 type dummy
	e2e_check "udevd key: the kernel's add arrived" wait_stat uevents_kernel $((k + 1))
	e2e_check "udevd key: no udevd, no ID_NET_DRIVER: stays unplugged" status_is unplugged
	ip link del ecdummy0
fi
e2e_check_exit "udevd-key follower exits 0" 0 e2e_stop_daemon

# 9. --no-udev: the same uevent is not even seen.
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --no-udev
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (3)"
e2e_check "no-udev: write remove uevent" synth remove "$uevent"
settle
hl_nap 0.3	# nothing to wait for: the point is that nothing happens
e2e_check "no-udev: still plugged, nothing seen" \
	bash -c "[[ \$(\"\$1\" --control=\"\$2\" --send=status) == 'ok plugged '* && \$3 == 0 ]]" \
	_ "$daemon" "$sock" "$(stat_of uevents_seen)"
e2e_check_exit "no-udev daemon exits 0" 0 e2e_stop_daemon

# 10. hotplug_sim's uevent trigger (cuse_ec_preload(7): the one a device
# socket cannot carry): the write to the node's sysfs uevent file works and
# the monitor sees our SYNTH_UUID. The daemon follows no uevents, so no
# revoke is expected: one client, no blocked reader (which an unplug that
# never lands would rightly report as hung).
if (( !with_udevd )); then
	e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --no-udev
	e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (4)"
	e2e_check "sysfs uevent file exists" test -w "$uevent"
	e2e_check "hotplug_sim uevent trigger: write ok, monitor saw both uevents" bash -c '
		"${@:2}" && grep -Eq "\"uevents_sent\":2,\"uevents_seen\":2,\"monitor\":true" "$1"' _ \
		"$out/uevent.json" "$sim" --name="$name" --trigger=uevent --clients=1 \
		--uevent-arg=SIMRUN=e2e --scenario=replug --json="$out/uevent.json" -q
	e2e_check "hotplug_sim uevent trigger: bad sysfs path is a trigger error (1)" bash -c '
		"$@" 2>/dev/null; [[ $? -eq 1 ]]' _ \
		"$sim" --name="$name" --sysfs=/nonexistent --clients=1 --no-monitor -q
	e2e_check_exit "uevent-trigger daemon exits 0" 0 e2e_stop_daemon
fi

if (( with_udevd )); then
	e2e_check "udevd is stopped (2)" udevd_stop
fi
e2e_done
