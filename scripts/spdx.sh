#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx.sh: every C, Lua, shell and Python source of the tree carries
# `SPDX-License-Identifier: MIT` in its first comment line (after a #!
# line, and after a Python coding line that follows it).
#   scripts/spdx.sh          add the line to each source that lacks one
#   scripts/spdx.sh --check  list each source without one; exit 1 if any
# Sources: the files git tracks (else every file under the tree, but
# build/ and .git/) named *.c, *.h, *.lua, *.sh, *.py, or whose #! line
# names sh, bash, dash, python or lua.  A file that has the line anywhere
# in its first five lines is left as it is: running it twice changes
# nothing.
set -eu
cd "$(dirname "$0")/.."
TAG="SPDX-License-Identifier: MIT"

mode=add
case ${1:-} in
--check) mode=check ;;
'') ;;
*) echo "spdx.sh: unknown argument $1 (usage: scripts/spdx.sh [--check])" >&2; exit 2 ;;
esac

list() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z | tr '\0' '\n'
	else
		find . -path ./.git -prune -o -path ./build -prune -o -type f -print | sed 's|^\./||'
	fi
}

# the comment style of a source: c, lua, hash; nothing for another file
kind() {
	case $1 in
	*.c | *.h) echo c; return ;;
	*.lua) echo lua; return ;;
	*.sh | *.py) echo hash; return ;;
	esac
	head -c 2 "$1" 2>/dev/null | grep -q '^#!' || return 0
	first=$(head -n 1 "$1")
	case $first in
	*lua*) echo lua ;;
	*sh | *sh\ * | *python*) echo hash ;;
	esac
}

# the line after which the tag goes: 0 (first), 1 (after #!), 2 (after a
# coding line that follows the #! line)
place() {
	n=0
	if head -c 2 "$1" | grep -q '^#!'; then n=1; fi
	if sed -n "$((n + 1))p" "$1" | grep -q '^#.*coding[:=]'; then n=$((n + 1)); fi
	echo "$n"
}

add() {
	case $2 in
	c) line="/* $TAG */" ;;
	lua) line="-- $TAG" ;;
	*) line="# $TAG" ;;
	esac
	n=$(place "$1")
	tmp=$(mktemp "$1.spdx.XXXXXX")
	{
		[ "$n" -gt 0 ] && head -n "$n" "$1"
		printf '%s\n' "$line"
		tail -n "+$((n + 1))" "$1"
	} >"$tmp"
	chmod --reference="$1" "$tmp"
	mv "$tmp" "$1"
}

# "kind path" of each source
sources() {
	list | while IFS= read -r f; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		k=$(kind "$f")
		[ -z "$k" ] || printf '%s %s\n' "$k" "$f"
	done
}

# of "kind path" lines, those whose file lacks the tag in its first lines
# (paths hold no blank: git's and find's names, split on purpose)
# shellcheck disable=SC2046
lacking() {
	awk -v tag="$TAG" '
	NR == FNR { kind[$2] = $1; order[++n] = $2; next }
	FNR <= 5 && index($0, tag) { has[FILENAME] = 1 }
	FNR == 5 { nextfile }
	END { for (i = 1; i <= n; i++) if (!has[order[i]]) print kind[order[i]], order[i] }
	' "$1" $(cut -d' ' -f2 "$1")
}

todo=$(mktemp)
trap 'rm -f "$todo" "$todo.all"' EXIT
sources >"$todo.all"
lacking "$todo.all" >"$todo"
if [ "$mode" = check ]; then
	[ -s "$todo" ] || exit 0
	cut -d' ' -f2 "$todo"
	echo "spdx.sh: $(wc -l <"$todo") sources without \"$TAG\" (scripts/spdx.sh adds it)" >&2
	exit 1
fi
while read -r k f; do add "$f" "$k"; done <"$todo"
