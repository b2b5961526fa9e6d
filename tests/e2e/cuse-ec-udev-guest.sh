# SPDX-License-Identifier: GPL-2.0-or-later
#
# The checks of cuse-ec-udev.test, run where /dev/cuse is real.

. "$top_srcdir/tests/e2e/lib.sh"

daemon=$top_builddir/cuse_ec/cuse_ec
sim=$top_builddir/hotplug_sim/hotplug_sim
name=udev_ec$$
dev=/dev/$name
out=${UML_OUT:-$(mktemp -d)}
sock=$out/udev_$$.sock
uevent=/sys/class/cuse/$name/uevent

# ctl LINE : one control command, reply on stdout.
ctl() {
	"$daemon" --control="$sock" --send="$1"
}

# stat_of KEY : one counter from `stats`.
stat_of() {
	ctl stats | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# wait_status WORD : poll `status` (bounded, 5 s) until it says WORD.
wait_status() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ $(ctl status) == "ok $1 "* ]] && return 0
		sleep 0.05
	done
	echo "status stayed '$(ctl status)', wanted $1" >&2
	return 1
}

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

# 1. remove: unplugged, the held fd and the blocked reader get ENODEV.
python3 "$out/holder.py" "$dev" >"$out/holder.out" 2>&1 &
holder=$!
for ((i = 0; i < 100; i++)); do
	grep -q ready "$out/holder.out" 2>/dev/null && break
	sleep 0.05
done
sleep 0.2	# let the read park in the daemon
uuid=$(cat /proc/sys/kernel/random/uuid)
e2e_check "write remove uevent" bash -c "echo 'remove $uuid SRC=test' >'$uevent'"
e2e_check "status becomes unplugged" wait_status unplugged
e2e_check "held fd and blocked reader get ENODEV" wait "$holder"
cat "$out/holder.out"
e2e_check "open fails with ENODEV while unplugged" \
	bash -c "{ exec 3<'$dev'; } 2>&1 | grep -q 'No such device'"
e2e_check "uevent_unplugs=1" test "$(stat_of uevent_unplugs)" = 1
e2e_check "revocation completed" test "$(stat_of revocations)" = 1

# A second remove while unplugged is harmless.
e2e_check "duplicate remove uevent" bash -c "echo 'remove $uuid SRC=dup' >'$uevent'"
sleep 0.3
e2e_check "duplicate remove: still 1 uevent unplug, daemon alive" \
	bash -c "[[ \$1 == 1 ]] && kill -0 $pid" _ "$(stat_of uevent_unplugs)"

# 2. add: plugged again, a new open works.
uuid=$(cat /proc/sys/kernel/random/uuid)
e2e_check "write add uevent" bash -c "echo 'add $uuid SRC=test' >'$uevent'"
e2e_check "status becomes plugged" wait_status plugged
e2e_check "a new open reads the version" bash -c "head -c 64 '$dev' | grep -q ."
e2e_check "uevent_plugs=1" test "$(stat_of uevent_plugs)" = 1

# 3. A short flap through uevents under load.
e2e_check "hotplug_sim flap 20 via uevents exits 0" \
	"$sim" --name="$name" --control="$sock" --trigger=uevent --daemon-pid="$pid" \
	--clients=4 --readers=1 --scenario=flap --cycles=20 --period=20ms \
	--deadline=5s --json="$out/flap.json" -q
e2e_check "flap: 20 unplugs revoked, nothing unexpected or hung" \
	grep -Eq '"unexpected":0,.*"unplugs":20,.*"hung":0' "$out/flap.json"
e2e_check "flap: every unplug was seen revoked" \
	grep -Eq '"trigger_to_revoked":\{"n":20,' "$out/flap.json"
e2e_check "daemon counted 21 uevent unplugs" test "$(stat_of uevent_unplugs)" = 21
grep -o '"trigger_to_revoked":{[^}]*}' "$out/flap.json"
grep -Eo '"(trigger_to_last_out|revoked_to_last_out|last_out_to_revoked)":\{[^}]*\}' "$out/flap.json"

e2e_stop_daemon
e2e_check_status "daemon exits 0 on SIGTERM" 0 $?

# 4. --follow-match on something that never matches: our uevents are seen
#    but ignored.
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" \
	--follow-match=ID_VENDOR_ID=ffff
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (2)"
e2e_check "follow-match: plugged at start" wait_status plugged
uuid=$(cat /proc/sys/kernel/random/uuid)
e2e_check "follow-match: write remove uevent" \
	bash -c "echo 'remove $uuid SRC=test' >'$uevent'"
for ((i = 0; i < 100; i++)); do
	[[ $(stat_of uevents_seen) -ge 1 ]] && break
	sleep 0.05
done
e2e_check "follow-match: the uevent reached the monitor" test "$(stat_of uevents_seen)" -ge 1
e2e_check "follow-match: still plugged, no uevent unplug" \
	bash -c "[[ \$(\"\$1\" --control=\"\$2\" --send=status) == 'ok plugged '* && \$3 == 0 ]]" \
	_ "$daemon" "$sock" "$(stat_of uevent_unplugs)"
e2e_stop_daemon
e2e_check_status "follow-match daemon exits 0" 0 $?

# 5. --no-udev: the same uevent is not even seen.
e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" --no-udev
e2e_wait_for_node "$dev" "$e2e_node_timeout" || e2e_fatal "no $dev (3)"
uuid=$(cat /proc/sys/kernel/random/uuid)
e2e_check "no-udev: write remove uevent" bash -c "echo 'remove $uuid SRC=test' >'$uevent'"
sleep 0.3
e2e_check "no-udev: still plugged, nothing seen" \
	bash -c "[[ \$(\"\$1\" --control=\"\$2\" --send=status) == 'ok plugged '* && \$3 == 0 ]]" \
	_ "$daemon" "$sock" "$(stat_of uevents_seen)"
e2e_stop_daemon
e2e_check_status "no-udev daemon exits 0" 0 $?

e2e_done
