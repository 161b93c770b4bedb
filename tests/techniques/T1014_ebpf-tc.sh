#!/bin/sh
# SPDX-License-Identifier: MIT
# An eBPF rootkit's loader (TripleCross's steps): attaches its classifier
# to the network interface's traffic control to hide and trigger on
# packets, then starts its execve hijacker, all with sudo (its object and
# its hijacker are empty stand-ins here: the attempts are the evidence).
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=/tmp/.kit; mkdir -p $d
: > $d/tc.o; printf '#!/bin/sh\nexit 0\n' > $d/execve_hijack; chmod +x $d/execve_hijack
sudo tc qdisc add dev enp0s3 clsact 2>/dev/null
sudo tc filter add dev enp0s3 egress bpf direct-action obj $d/tc.o sec classifier/egress 2>/dev/null
sudo $d/execve_hijack 2>/dev/null
rm -rf $d
exit 0
