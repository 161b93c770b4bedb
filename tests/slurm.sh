#!/bin/sh
# SPDX-License-Identifier: MIT
# slurm.sh: the batch as a Slurm job array, for real.  Starts a one-node
# Slurm cluster on this machine (Debian's munge, slurmctld, slurmd and
# slurm-client; a generated slurm.conf with proctrack/linuxproc and
# task/none; every file in a private directory), runs
# scripts/slurm-batch.sh over tests/progs/batch as a 4-task array, and
# checks that the merged lines equal a one-machine run's (sorted, without
# timings).  The controller and the node are named localhost at 127.0.0.1,
# and munged's origin is 127.0.0.1, so the machine's own host name need
# not resolve (a fresh container's or cloud image's often does not).
# Stops every daemon it started and removes its directory.
# Needs root (the daemons); prints `slurm: ok` and exits 0 when equal, 77
# (skipped) without root or without the Debian packages.
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

if [ "$(id -u)" -ne 0 ]; then echo "slurm: skipped (needs root to start the daemons)"; exit 77; fi
for c in munged mungekey slurmctld slurmd sbatch sinfo; do
	command -v "$c" >/dev/null || { echo "slurm: skipped ($c missing: scripts/deps.sh installs it)"; exit 77; }
done

dir=$(mktemp -d /tmp/sbx-slurm.XXXXXX)
chmod 0755 "$dir"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || :; done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -KILL "$p" 2>/dev/null || :
	done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# two ports no other service of this machine (nor another run of this
# test) uses now: the kernel's choice
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
ctld_port=${ports% *}
d_port=${ports#* }
host=localhost
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/out"
chmod 0700 "$dir/munge"
mungekey -c -k "$dir/munge/munge.key"
munged --force --origin=127.0.0.1 --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
	--pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
	--seed-file="$dir/munge/munged.seed"
pids="$(cat "$dir/munge/munged.pid")"

cat > "$dir/slurm.conf" <<EOF
ClusterName=sbxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
MessageTimeout=5
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=sbx Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
ctld=$!
pids="$pids $ctld"
slurmd -D -N "$host" -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
pids="$pids $!"

# the node up and idle (nothing to wait on but the controller's word: ask
# until it says so, for at most 30 s; a controller that died is a failure)
end=$(($(date +%s) + 30))
until [ "$(timeout 5 sinfo -h -o %T 2>/dev/null)" = idle ]; do
	if [ "$(date +%s)" -gt "$end" ] || ! kill -0 "$ctld" 2>/dev/null; then
		echo "slurm: the node did not come up" >&2
		tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || :
		exit 1
	fi
	sleep 0.1
done

opts="--wall 2 --pids 16 --output-limit 64K"
# shellcheck disable=SC2086
timeout 300 scripts/slurm-batch.sh --tasks 4 --outdir "$dir/out" --sbxlua "$root/sbxlua" --wait \
	-- $opts tests/progs/batch >"$dir/submit.out"
# shellcheck disable=SC2086
./sbxlua batch.lua -q -j 2 --output "$dir/one.jsonl" $opts tests/progs/batch

# every line, without what differs between runs of the same program
# (timings, the events' times, the sampler's measures, the deaths' pids,
# when the analysis ran, the decoys' markers and so their hashes, random
# per run; and what a program did before a limit stopped it, which
# depends on when the limit was seen: its outcome and verdict stay)
strip() {
	python3 -c '
import json, sys
out = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    r.pop("timings", None)
    r["run"].pop("measured", None)
    r["run"].pop("deaths", None)
    r["run"].pop("decoys", None)
    r["run"].pop("analysis_date", None)
    for f in r["run"].get("files") or []:
        if f.get("decoy"):
            for k in ("sha256", "md5", "sha1", "ssdeep", "tlsh", "markers"):
                f.pop(k, None)
    if r.get("limit"):
        r["run"].pop("events", None)
        r["run"].pop("behaviour", None)
    for e in r["run"].get("events") or []:
        e.pop("time_ms", None)
        if e.get("cause") == "sleeps":  # the jumps: to each deadline from when
            e.pop("seconds", None)      # the box was seen waiting
            e.pop("longest", None)
    out.append(json.dumps(r, sort_keys=True))
print("\n".join(sorted(out)))' "$1"
}
strip "$dir/one.jsonl" >"$dir/one.txt"
strip "$dir/out/merged.jsonl" >"$dir/merged.txt"
n=$(wc -l <"$dir/one.txt")
shards=0
for k in 1 2 3 4; do shards=$((shards + $(wc -l <"$dir/out/shard-$k.jsonl"))); done
if [ "$n" -lt 8 ] || [ "$shards" -ne "$n" ] || ! cmp -s "$dir/one.txt" "$dir/merged.txt"; then
	echo "slurm: the merged job array differs from the one-machine run ($shards shard lines, $n lines)" >&2
	diff "$dir/one.txt" "$dir/merged.txt" >&2 || :
	cat "$dir/out"/*.err >&2 || :
	exit 1
fi
echo "slurm: ok ($n programs, 4 tasks, merged output equals the one-machine run)"
