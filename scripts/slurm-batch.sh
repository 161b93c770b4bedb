#!/bin/sh
# SPDX-License-Identifier: MIT
# slurm-batch.sh: run `sbxlua batch.lua` as a Slurm job array, one shard per
# task, and a final job that merges the shards' JSON lines.
#
#   scripts/slurm-batch.sh [--tasks N] [--outdir DIR] [--sbxlua PATH] [--wait]
#                          [--sbatch "OPTIONS"] -- [batch.lua options] PATH...
#
# Task K of N runs `sbxlua batch.lua --shard K/N --output DIR/shard-K.jsonl`
# with the batch options and paths given after `--` (paths as the tasks see
# them: relative to the current directory, which every task starts in, so
# it must be on a file system the nodes share).  The merge job runs after
# every task ended well and writes DIR/merged.jsonl (each record once,
# sorted by program) and its summary on its stderr (DIR/merge.err).
# A task that was stopped can be submitted again: its shard file keeps what
# it recorded, and the task skips those programs.
# Prints the array's and the merge job's ids; --wait returns when the merge
# job has ended, with its status.
set -eu

tasks=4
outdir=batch-out
sbxlua=
wait=
extra=
while [ $# -gt 0 ]; do
	case $1 in
	--tasks) tasks=$2; shift 2 ;;
	--outdir) outdir=$2; shift 2 ;;
	--sbxlua) sbxlua=$2; shift 2 ;;
	--sbatch) extra=$2; shift 2 ;;
	--wait) wait=--wait; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "slurm-batch.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "slurm-batch.sh: no PATH to evaluate (see --help)" >&2; exit 2; }
case $tasks in ''|*[!0-9]*|0) echo "slurm-batch.sh: --tasks N: a whole number above 0" >&2; exit 2 ;; esac

if [ -z "$sbxlua" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	if [ -x "$here/sbxlua" ]; then sbxlua=$here/sbxlua; else sbxlua=$(command -v sbxlua); fi
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

# the batch's arguments, quoted for the job scripts' shell
args=
for a in "$@"; do
	q=$(printf '%s' "$a" | sed "s/'/'\\\\''/g")
	args="$args '$q'"
done
qsbx=$(printf '%s' "$sbxlua" | sed "s/'/'\\\\''/g")
qout=$(printf '%s' "$outdir" | sed "s/'/'\\\\''/g")

# shellcheck disable=SC2086 # $extra: the operator's sbatch options, split
array=$(sbatch --parsable $extra --job-name=sbx-batch --array="1-$tasks" \
	--chdir="$(pwd)" --output="$outdir/task-%a.out" --error="$outdir/task-%a.err" <<EOF
#!/bin/sh
exec '$qsbx' batch.lua --progress never --shard "\$SLURM_ARRAY_TASK_ID/$tasks" \\
	--output '$qout'/shard-"\$SLURM_ARRAY_TASK_ID".jsonl $args
EOF
)
array=${array%%;*}

shards=
k=1
while [ "$k" -le "$tasks" ]; do
	shards="$shards '$qout/shard-$k.jsonl'"
	k=$((k + 1))
done
# shellcheck disable=SC2086
merge=$(sbatch --parsable $wait $extra --job-name=sbx-batch-merge --dependency="afterok:$array" \
	--kill-on-invalid-dep=yes --chdir="$(pwd)" --output="$outdir/merge.out" \
	--error="$outdir/merge.err" <<EOF
#!/bin/sh
for f in $shards; do [ -e "\$f" ] || : > "\$f"; done
rm -f '$qout/merged.jsonl'
exec '$qsbx' batch.lua --merge --output '$qout/merged.jsonl' $shards
EOF
)
merge=${merge%%;*}
echo "array $array merge $merge output $outdir/merged.jsonl"
