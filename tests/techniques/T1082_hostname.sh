#!/bin/sh
# SPDX-License-Identifier: MIT
# What is this machine called, and which one is it.
hostname
cat /etc/hostname
uname -n
cat /etc/machine-id 2>/dev/null
