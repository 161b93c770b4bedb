#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Looks where sandbox-aware malware looks before it acts (the cgroup and
# mounts of pid 1 and its own, a tracer, DMI, container marker files, the
# SCSI disks' vendors, the hypervisor flag, the CPU count, the user and
# the host's name), and stays quiet when it finds one.
import os
import subprocess
import sys

if os.environ.get("HOME") != "/home/dana":
    sys.exit("run only inside sbxlua's analysis box")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


suspect = []
if any(w in read("/proc/1/cgroup") for w in ("docker", "lxc", "kubepods")):
    suspect.append("cgroup")
if "overlay" in read("/proc/self/mountinfo").split("\n")[0]:
    suspect.append("overlay root")
for line in read("/proc/self/status").splitlines():
    if line.startswith("TracerPid:") and line.split()[1] != "0":
        suspect.append("traced")
for name in ("product_name", "sys_vendor", "board_vendor", "bios_vendor"):
    v = read("/sys/class/dmi/id/" + name) + read("/sys/devices/virtual/dmi/id/" + name)
    if any(w in v for w in ("VirtualBox", "VMware", "QEMU", "KVM", "Xen", "innotek")):
        suspect.append("dmi " + name)
if os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"):
    suspect.append("container")
if any(w in read("/proc/scsi/scsi") for w in ("VBOX", "VMware", "QEMU")):
    suspect.append("scsi")
if " hypervisor" in read("/proc/cpuinfo"):
    suspect.append("hypervisor")
try:
    virt = subprocess.run(["/usr/bin/systemd-detect-virt"], capture_output=True, text=True).stdout.strip()
    if virt and virt != "none":
        suspect.append("virt " + virt)
except OSError:
    pass
if len([c for c in os.listdir("/sys/devices/system/cpu") if c[3:].isdigit()]) < 2:
    suspect.append("one cpu")
if os.uname().nodename in ("sandbox", "cuckoo", "sbx", "malware") or os.environ.get("USER") in ("sandbox", "sbx"):
    suspect.append("names")
if suspect:
    sys.exit(0)
print("bare metal: going on")
