#!/bin/sh
# SPDX-License-Identifier: MIT
# What is this machine: kernel, distribution, hardware.
uname -a
cat /etc/os-release /usr/lib/os-release /etc/issue 2>/dev/null
cat /proc/version
hostname
grep -m1 'model name' /proc/cpuinfo
head -3 /proc/meminfo
lscpu 2>/dev/null | head -5
