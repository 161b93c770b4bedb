#!/bin/sh
# SPDX-License-Identifier: MIT
# Looks for signs of a container, a virtual machine or an analysis box,
# and stays quiet when it finds one.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
suspect=0
grep -qE 'docker|lxc|kubepods' /proc/1/cgroup 2>/dev/null && suspect=1
cat /.dockerenv > /dev/null 2>&1 && suspect=1
cat /run/.containerenv > /dev/null 2>&1 && suspect=1
case "$(cat /sys/class/dmi/id/product_name 2>/dev/null)" in
	*VirtualBox* | *VMware* | *KVM* | *QEMU*) suspect=1 ;;
esac
cat /sys/class/dmi/id/sys_vendor > /dev/null 2>&1
grep -q hypervisor /proc/cpuinfo && suspect=1
virt=$(systemd-detect-virt 2>/dev/null) && [ "$virt" != none ] && suspect=1
[ "$(nproc)" -lt 2 ] && suspect=1
if [ "$suspect" = 1 ]; then exit 0; fi
echo 'bare metal: going on'
