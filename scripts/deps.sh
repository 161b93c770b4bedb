#!/bin/sh
# Installs the Debian packages sbxlua needs to build and test, when missing.
# As root it runs apt-get; otherwise it prints the exact command to run.
#   scripts/deps.sh          build, run and test dependencies
#   scripts/deps.sh --bench  also the peers and tools of the benchmarks
set -eu
pkgs="make gcc libc6-dev pkg-config lua5.4 liblua5.4-dev libseccomp-dev
libcap-dev nettle-dev libedit-dev lua-busted lua-check lua-cjson lua-inspect lua-argparse lua-yaml cppcheck clang-format
libmagic-dev libmagic1
util-linux python3 libpython3.11-testsuite perl git procps iproute2 strace runc podman debootstrap lua-filesystem tmux
munge slurmctld slurmd slurm-client"
[ "${1:-}" = "--bench" ] && pkgs="$pkgs hyperfine bubblewrap firejail"

missing=""
for p in $pkgs; do
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
