#!/bin/sh
# SPDX-License-Identifier: MIT
# Watching the kernel from inside it: a kprobe on the kernel's open path,
# defined and enabled through the tracing file system, and a bpftrace
# program in unsafe mode that runs a command of its own whenever a chosen
# program starts another.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
T=/sys/kernel/debug/tracing
sudo sh -c "echo 'p:myprobe do_sys_openat2' >> $T/kprobe_events" 2>/dev/null
sudo sh -c "echo 1 > $T/events/kprobes/myprobe/enable" 2>/dev/null
sudo /usr/bin/bpftrace --unsafe -e 'tracepoint:syscalls:sys_enter_execve /comm == "sshd"/ { system("id"); }' \
	2>/dev/null
exit 0
