# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# The checks of hotplug-control.test: hotplug_sim's control trigger through
# the device socket and the preload library (CUSE_EC_FRONTEND=socket), on
# the host. The uevent trigger needs the CUSE node's sysfs: cuse-ec-udev.test.
set -euo pipefail

# shellcheck source=tests/e2e/lib.sh
. "${top_srcdir:?}/tests/e2e/lib.sh"

daemon=${CUSE_EC_DAEMON:-$top_builddir/cuse_ec/cuse_ec}
sim=("${e2e_client[@]}" "$top_builddir/hotplug_sim/hotplug_sim")
name=hs_ec$$
out=$(e2e_tmpdir hotplug-control)
sock=$out/hs_$$.sock

e2e_start_daemon "$daemon" -f --name="$name" --control="$sock" "${e2e_front_args[@]}"
e2e_wait_for_node "/dev/$name" "$e2e_node_timeout" || e2e_fatal "no $(e2e_node_path "/dev/$name")"
pid=$e2e_daemon_pid

# json_total FILE OP OUTCOME N [OUTCOME N]... : the report's totals for OP
# count N calls of each OUTCOME.
json_total() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
path, op, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
got = json.load(open(path))["totals"][op]
want = {pairs[i]: int(pairs[i + 1]) for i in range(0, len(pairs), 2)}
bad = {k: got.get(k, 0) for k in want if got.get(k, 0) != want[k]}
if bad:
    print("# totals of %s: %s, wanted %s" % (op, got, want))
sys.exit(1 if bad else 0)
PY
}

# json_has FILE REGEX : the JSON report matches REGEX.
json_has() {
	grep -Eq -- "$2" "$1"
}

# 1. Flap through the control socket: 20 cycles, 4 clients, 1 blocked reader.
e2e_check "flap 20 via control exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --daemon-pid="$pid" \
	--clients=4 --readers=1 --pollers=1 --scenario=flap --cycles=20 --period=20ms \
	--jitter=5ms --deadline=5s --json="$out/flap.json" --csv="$out/flap.csv"
e2e_check "flap: 20 unplugs, 20 plugs, nothing unexpected or hung" \
	json_has "$out/flap.json" '"unexpected":0,.*"unplugs":20,"plugs":20,"trigger_errors":0,.*"hung":0,"workers_died":0,"daemon_pid":[0-9]+,"daemon_alive":true'
e2e_check "flap: the reader was woken with ENODEV" \
	json_has "$out/flap.json" '"role":"reader","counts":\{[^]]*"event":\{[^}]*"ENODEV":[1-9]'
e2e_check "flap: xcmd latency percentiles, in order" bash -c '
	l=$(grep -Eo "\"xcmd\":\{\"n\":[0-9]+,\"p50\":[0-9.]+,\"p90\":[0-9.]+,\"p99\":[0-9.]+,\"max\":[0-9.]+\}" "$1")
	[[ $l =~ n\":([1-9][0-9]*),\"p50\":([0-9.]+),\"p90\":([0-9.]+),\"p99\":([0-9.]+),\"max\":([0-9.]+) ]] &&
	awk -v a="${BASH_REMATCH[2]}" -v b="${BASH_REMATCH[3]}" -v c="${BASH_REMATCH[4]}" -v d="${BASH_REMATCH[5]}" \
		"BEGIN { exit !(a <= b && b <= c && c <= d) }"' _ "$out/flap.json"
e2e_check "flap: 20 plug times, each seen plugged by the daemon" bash -c '
	[[ $(grep -Eo "\"plugged_us\":[0-9.]+" "$1" | wc -l) -eq 20 ]]' _ "$out/flap.json"
e2e_check "flap: every unplug was seen revoked" \
	json_has "$out/flap.json" '"trigger_to_revoked":\{"n":20,'
e2e_check "flap: the JSON report holds to docs/hotplug_sim-report.schema.json" \
	"$top_srcdir/tests/hotplug_sim/json-schema-check" \
	"$top_srcdir/docs/hotplug_sim-report.schema.json" "$out/flap.json"
# Counts add up: the CSV has one row per counted call.
e2e_check "flap: CSV rows = calls in the JSON" bash -c '
	calls=$(grep -Eo "\"calls\":[0-9]+" "$1" | head -1 | cut -d: -f2)
	rows=$(($(wc -l <"$2") - 1))
	[[ $calls -gt 0 && $calls -eq $rows ]]' _ "$out/flap.json" "$out/flap.csv"

# 1b. The same load as processes instead of threads.
e2e_check "flap 10 with --processes exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --daemon-pid="$pid" \
	--processes --clients=3 --readers=1 --pollers=1 --scenario=flap --cycles=10 \
	--period=20ms --json="$out/proc.json" --csv="$out/proc.csv" -q
e2e_check "processes: 10 unplugs, nothing unexpected, hung or dead" \
	json_has "$out/proc.json" '"unexpected":0,.*"unplugs":10,"plugs":10,.*"hung":0,"workers_died":0'
e2e_check "processes: CSV rows = calls in the JSON" bash -c '
	calls=$(grep -Eo "\"calls\":[0-9]+" "$1" | head -1 | cut -d: -f2)
	rows=$(($(wc -l <"$2") - 1))
	[[ $calls -gt 0 && $calls -eq $rows ]]' _ "$out/proc.json" "$out/proc.csv"

# 1c. --duration bounds a flap whose cycles are unlimited: every cycle
# sleeps at least its period, so 200 ms hold at most 10 cycles of 20 ms.
e2e_check "flap --duration=200ms exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control \
	--clients=2 --scenario=flap --duration=200ms --period=20ms -q --progress=100ms \
	--json="$out/duration.json" 2>"$out/duration.err"
e2e_check "--progress=100ms: progress lines on stderr, naming the step" \
	grep -Eq '^hotplug_sim: [0-9]+\.[0-9] s: (step [0-9] of 3 \((sleep|flap)\)|stopping the workers), [0-9]+ unplug\(s\), [0-9]+ plug\(s\), [0-9]+ calls$' \
	"$out/duration.err"
e2e_check "without --daemon-pid the daemon's pid comes from the control socket" \
	json_has "$out/duration.json" "\"daemon_pid\":$pid,\"daemon_alive\":true"
e2e_check "flap --duration: 1 to 10 unplugs, as many plugs" bash -c '
	n=$(grep -Eo "\"unplugs\":[0-9]+" "$1" | cut -d: -f2)
	p=$(grep -Eo "\"plugs\":[0-9]+" "$1" | cut -d: -f2)
	[[ $n -ge 1 && $n -le 10 && $p -eq $n ]]' _ "$out/duration.json"

# 2. The inflight race: unplug while an XCMD sleeps 100 ms inside the EC.
e2e_check "inflight via control exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --daemon-pid="$pid" \
	--clients=4 --mix=xcmd=100 --readers=1 --scenario=inflight --latency=100ms \
	--json="$out/inflight.json" -q
e2e_check "inflight: a call was in flight across the revoke" \
	json_has "$out/inflight.json" '"longest_inflight_us":([3-9][0-9]{4}|[0-9]{6,})'

# 3. The shipped replug scenario file, and a deliberately wrong expectation.
e2e_check "replug.scn exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control \
	-f "$top_srcdir/hotplug_sim/scenarios/replug.scn" -q
e2e_check "expect ok only: ENODEV makes the run fail (1)" bash -c '
	"$@" >/dev/null 2>&1; [[ $? -eq 1 ]]' _ \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --scenario=replug \
	--expect-errno=ok -q

e2e_check "unwritable --csv: message and exit 1" bash -c '
	err=$("$@" 2>&1 >/dev/null); [[ $? -eq 1 && $err == *"/nonexistent/x.csv"* ]]' _ \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --scenario=single \
	--clients=1 --csv=/nonexistent/x.csv -q
echo plug >"$out/plug.scn"
e2e_check "plug back after the single unplug" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --clients=1 -q \
	--scenario-file="$out/plug.scn"

# 4. Random, seeded.
e2e_check "random 30 via control exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control --daemon-pid="$pid" \
	--clients=3 --readers=1 --scenario=random --cycles=30 --period=10ms --seed=42 -q


# 5. Fault steps: the daemon's fault verb from a scenario file. Two clients
# call HELLO (cmd 1) in a loop for a second: far more than the 8 calls the
# two rules take, so each rule is used up, in order.
cat >"$out/fault.scn" <<'SCN'
clients 2
mix xcmd=100
expect ok,EC_ERROR,EIO
fault cmd=1,result=BUSY,times=5
fault cmd=1,eio,times=3
sleep 1s
SCN
e2e_check "fault steps: the run exits 0" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control \
	-f "$out/fault.scn" --json="$out/fault.json" -q
e2e_check "fault steps: nothing unexpected" json_has "$out/fault.json" '"unexpected":0,'
e2e_check "fault steps: 5 BUSY answers (EC_ERROR), then 3 EIO" \
	json_total "$out/fault.json" xcmd EC_ERROR 5 EIO 3
e2e_check "fault steps: the daemon counted 8" \
	e2e_wait_stat "$daemon" "$sock" faults_injected 8
e2e_check "a rule the daemon refuses ends the run: exit 1, its reply" bash -c '
	printf "clients 1\nfault nope\n" >"$1/badfault.scn"
	err=$("${@:2}" -f "$1/badfault.scn" -q 2>&1 >/dev/null)
	[[ $? -eq 1 && $err == *"unknown fault item"* ]]' _ "$out" \
	"${sim[@]}" --name="$name" --control="$sock" --trigger=control
e2e_check "daemon still answers" kill -0 "$pid"
e2e_check_exit "daemon exit status" 0 e2e_stop_daemon
rm -rf "$out"
e2e_done
