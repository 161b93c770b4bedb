#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages sbxlua needs, when missing.  As root it
# runs apt-get; otherwise it prints the exact command to run.
#   scripts/deps.sh [all]    build, runtime and test dependencies
#   scripts/deps.sh build    to build sbxlua (make, make install)
#   scripts/deps.sh runtime  to run an installed sbxlua
#   scripts/deps.sh test     to lint and test it (make check)
#   scripts/deps.sh --bench  all, and the peers and tools of the benchmarks
#   scripts/deps.sh --list KIND  print KIND's packages, install nothing
set -eu

# (g++: core/common/tlsh.cc, libtlsh's C++ class behind a C interface)
build="make gcc g++ libc6-dev pkg-config lua5.4 liblua5.4-dev libseccomp-dev libcap-dev nettle-dev libedit-dev libmagic-dev
libfuzzy-dev libtlsh-dev libyara-dev"
# the C libraries' run-time packages, and the Lua modules the scripts load
# (argparse: every command line; cjson: --json; lfs: batch.lua's walk;
# yaml: Sigma rules; inspect: the REPL's tables)
runtime="lua5.4 liblua5.4-0 libseccomp2 libcap2 libnettle8 libedit2 libmagic1 libyara9 libfuzzy2 libtlsh0 libstdc++6 lua-argparse
lua-cjson lua-filesystem
lua-yaml lua-inspect"
# runc and podman: --backend oci; debootstrap: the --rootfs tests' root;
# strace: the strict profile's lists; munge and slurm: make check-slurm;
# mandoc and man-db: the man pages; luarocks: the rockspec; zsh and fish:
# the completions; tcpdump: the sink's capture; chromium: the HTML pages;
# python3-jsonschema: the JSON schemas; golang-go: a Go program's CPU count;
# btrfs-progs: a btrfs subvolume on a loop image (tests/lockhost_spec.lua);
# ssdeep and tlsh-tools: the reference hashes (tests/hashes_spec.lua);
# yara: the reference scanner (tests/yara_spec.lua);
# libpcre2-dev: PCRE2, which the Sigma regex engine is checked against;
# rsync: a technique sample's shell started as rsync's remote shell
test="lua-busted lua-check cppcheck clang-format mandoc man-db luarocks zsh fish util-linux python3 libpython3.11-testsuite
perl git procps iproute2 strace runc podman debootstrap tmux munge slurmctld slurmd slurm-client
tcpdump chromium python3-jsonschema golang-go btrfs-progs ssdeep tlsh-tools yara libpcre2-dev rsync"
bench="hyperfine bubblewrap firejail time"

list=no
if [ "${1:-}" = --list ]; then list=yes; shift; fi
case ${1:-all} in
build) pkgs=$build ;;
runtime) pkgs=$runtime ;;
test) pkgs=$test ;;
all) pkgs="$build $runtime $test" ;;
--bench) pkgs="$build $runtime $test $bench" ;;
*) echo "deps.sh: unknown kind ${1:-} (build, runtime, test, all or --bench)" >&2; exit 2 ;;
esac
if [ "$list" = yes ]; then
	echo "$pkgs" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $/\n/'
	exit 0
fi

missing=""
for p in $(echo "$pkgs" | tr ' ' '\n' | sort -u); do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "sbxlua: missing packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
echo "sbxlua: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
