#!/bin/sh
# SPDX-License-Identifier: MIT
# The first stage of a hypervisor locker: before it touches anything it
# asks the host's own command-line interface what it is, which networks,
# datastores and vSAN it has, and which virtual machines run now.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
ESXCLI=/bin/esxcli
out=/tmp/inventory.txt
{
	$ESXCLI system version get
	$ESXCLI system hostname get
	$ESXCLI network ip interface ipv4 get
	$ESXCLI network vswitch standard list
	$ESXCLI storage filesystem list
	$ESXCLI vsan cluster get
	$ESXCLI vm process list
} > "$out" 2>/dev/null
wc -l < "$out"
rm -f "$out"
exit 0
