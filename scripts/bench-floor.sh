#!/bin/sh
# SPDX-License-Identifier: MIT
# Sourced by scripts/bench-startup.sh and scripts/bench-levers.sh, from the
# tree's top: checks the tools a start-up bench needs, makes "$tmp" (removed
# at exit), builds the floor (scripts/bench-floor.c) as "$tmp/floor" with its
# BPF in "$tmp/floor.bpf", and sets links (bwrap's /usr-merge links) and
# bw_floor (bubblewrap with the floor's tree and walls, reading the BPF on
# descriptor 9).
for t in hyperfine bwrap cc; do
	command -v $t >/dev/null || { echo "bench: $t missing (scripts/deps.sh --bench)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/floor" scripts/bench-floor.c
"$tmp/floor" --dump-bpf "$tmp/floor.bpf"
links="--symlink usr/bin /bin --symlink usr/sbin /sbin --symlink usr/lib /lib --symlink usr/lib64 /lib64"
# the floor's tree and walls, as far as bwrap has them, with the floor's BPF
# shellcheck disable=SC2034 # used by the script that sources this one
bw_floor="bwrap --unshare-all --ro-bind /usr /usr $links --proc /proc --tmpfs /tmp --cap-drop ALL --seccomp 9 /bin/true"
