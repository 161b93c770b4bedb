#!/bin/sh
# SPDX-License-Identifier: MIT
# Measures the system calls of the strict profile's corpus and writes them
# as lists the profile allows (docs/seccomp.md, "The strict profile").
#
#   scripts/trace-profile.sh [STEP...]          trace and write the lists
#   scripts/trace-profile.sh --union [STEP...]  trace and add to the lists
#   scripts/trace-profile.sh --check [STEP...]  trace and compare: exit 1,
#                                               naming the calls, when a
#                                               trace holds a call a list lacks
#
# STEP is program, threads, net or spawn (default: all four).  Each step's
# corpus runs outside the box under `strace -f -qq -e trace=all -o FILE`
# (without --seccomp-bpf, so every call of every process is seen; never
# `strace -c`, whose summary drops exit_group), in an empty environment
# with PATH=/usr/bin:/bin.  The names are read from strace's own lines
# ("PID name(args) = ret"; "<... name resumed>" lines only continue a call
# already counted) and must be names libseccomp knows (asked through the
# built sbx.core).  A list is profiles/calls/ARCH-LIBC-STEP.lua (the
# directory is $SBX_CALLS_DIR when set), a Lua file returning the sorted
# names, its header saying how it was made.
#
# Exit status: 0; 1 when --check found a call a list lacks; 2 when the
# script could not measure (strace missing or failing, a corpus program
# failing, a name libseccomp does not know); that step's list is left as it was.
#
# Needs `make` first (the corpus is build/tests/corpus_*) and strace
# (scripts/deps.sh).  Runs as any user: strace traces only its own children.
set -eu
cd "$(dirname "$0")/.."

mode="write"
case ${1:-} in
--check) mode=check && shift ;;
--union) mode=union && shift ;;
-h | --help)
	sed -n '2,/^set -eu/s/^# \{0,1\}//p' "$0"
	exit 0
	;;
-*)
	echo "trace-profile: unknown option $1 (--check, --union)" >&2
	exit 2
	;;
esac
steps=${*:-program threads net spawn}

die() {
	echo "trace-profile: $*" >&2
	exit 2
}

strace=$(command -v strace) || die "strace is missing (scripts/deps.sh)"
[ -f build/sbx/core.so ] || die "build/sbx/core.so is missing: run make"
LUA=${LUA:-lua5.4}

arch=$(uname -m)
if ver=$(getconf GNU_LIBC_VERSION 2>/dev/null); then
	libc=glibc
	libc_version=$ver # "glibc 2.36"
elif ldd 2>&1 | grep -q musl; then
	libc=musl
	libc_version="musl $(ldd 2>&1 | sed -n 's/^Version //p')"
else
	die "cannot tell the C library (neither glibc nor musl)"
fi
kernel=$(uname -r)
strace_version=$("$strace" -V | sed -n '1s/.*version //p')

# The corpus of a step, one command a line (words split by the shell).
corpus() {
	case $1 in
	program)
		echo "build/tests/corpus_program"
		echo "/bin/sh -c 'echo corpus'"
		echo "/usr/bin/python3 -c 'import json'"
		echo "/usr/bin/python3 -c 'import socket'"
		echo "/bin/ls -la /"
		echo "/usr/bin/id"
		;;
	threads) echo "build/tests/corpus_threads" ;;
	net) echo "build/tests/corpus_net" ;;
	spawn)
		echo "build/tests/corpus_spawn"
		echo "/bin/sh -c 'true | cat; /bin/true'"
		echo "/bin/sh -c 'ls -la /; id'"
		echo "/usr/bin/python3 -c 'import socket, subprocess; subprocess.run([\"id\"])'"
		;;
	*) die "unknown step '$1' (program, threads, net, spawn)" ;;
	esac
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The names of the calls one command made: strace's lines are
# "PID name(" for a call (finished or "<unfinished ...>"), and
# "PID <... name resumed>", "PID --- SIG... ---", "PID +++ ... +++" else.
trace() { # $1 = command, $2 = output list (names, one a line, unsorted)
	names=$2
	eval "set -- $1"
	[ -x "$1" ] || die "$1 is missing (run make)"
	if ! env -i PATH=/usr/bin:/bin "$strace" -f -qq -e trace=all \
		-o "$tmp/raw" "$@" </dev/null >"$tmp/out" 2>&1; then
		cat "$tmp/out" >&2
		die "$* failed under strace"
	fi
	sed -n 's/^[0-9][0-9]* \{1,\}\([a-z_][a-z0-9_]*\)(.*/\1/p' "$tmp/raw" >>"$names"
	grep -q . "$names" || die "no system call read from strace's output for $*"
}

# Names libseccomp does not know, one a line (none: empty output).
unknown() { # $1 = file of names
	LUA_CPATH="build/?.so" "$LUA" -e '
		local core = require "sbx.core"
		for n in io.lines() do
			if not core.syscall_number(n) then print(n) end
		end' <"$1"
}

# The names a list file holds, one a line.
listed() { # $1 = list file
	sed -n 's/^[[:space:]]*"\([a-z0-9_]*\)",$/\1/p' "$1"
}

write_list() { # $1 = step, $2 = sorted names, $3 = list file, $4 = merged?
	{
		echo "-- The system calls of the strict profile's step \"$1\" on $arch with"
		echo "-- $libc_version, as strace saw them.  Made by scripts/trace-profile.sh:"
		echo "-- strace $strace_version -f -qq -e trace=all -o FILE (no --seccomp-bpf),"
		echo "-- outside the box, env -i PATH=/usr/bin:/bin, kernel $kernel, over:"
		corpus "$1" | sed 's/^/--   /'
		[ "$4" = yes ] && echo "-- Merged (--union) with the names this file held before."
		echo "-- Regenerate: scripts/trace-profile.sh [--union] $1;"
		echo "-- verify: scripts/trace-profile.sh --check $1.  Data for profiles/strict.lua."
		echo "return {"
		sed 's/.*/\t"&",/' "$2"
		echo "}"
	} >"$3.tmp"
	mv "$3.tmp" "$3"
}

calls=${SBX_CALLS_DIR:-profiles/calls}
mkdir -p "$calls"
status=0
for step in $steps; do
	list=$calls/$arch-$libc-$step.lua
	: >"$tmp/names"
	corpus "$step" >"$tmp/cmds"
	while IFS= read -r cmd; do
		trace "$cmd" "$tmp/names"
	done <"$tmp/cmds"
	sort -u "$tmp/names" >"$tmp/seen"
	bad=$(unknown "$tmp/seen")
	[ -z "$bad" ] || die "$step: names libseccomp does not know:" "$(echo "$bad" | tr "\n" " ")"
	case $mode in
	check)
		[ -f "$list" ] || die "$list is missing (run scripts/trace-profile.sh $step)"
		listed "$list" | sort -u >"$tmp/old"
		missing=$(comm -23 "$tmp/seen" "$tmp/old" | tr '\n' ' ')
		if [ -n "$missing" ]; then
			echo "trace-profile: $list lacks: $missing"
			status=1
		else
			echo "trace-profile: $list holds all $(wc -l <"$tmp/seen") calls traced"
		fi
		;;
	union)
		merged=no
		if [ -f "$list" ]; then
			listed "$list" >>"$tmp/seen"
			merged=yes
		fi
		sort -u "$tmp/seen" >"$tmp/all"
		write_list "$step" "$tmp/all" "$list" $merged
		echo "trace-profile: $list: $(wc -l <"$tmp/all") calls"
		;;
	write)
		write_list "$step" "$tmp/seen" "$list" no
		echo "trace-profile: $list: $(wc -l <"$tmp/seen") calls"
		;;
	esac
done
exit $status
