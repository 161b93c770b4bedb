#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs its payload under names an administrator expects to see: sshd in
# /tmp, and a kernel thread's name as argv[0].
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
cp /bin/sleep /tmp/sshd
/tmp/sshd 0.2
mkdir -p /dev/shm/.k
cp /bin/sleep /dev/shm/.k/kworker
(exec -a '[kworker/0:2H]' /dev/shm/.k/kworker 0.2)
cp /bin/sleep "$HOME/.cache-systemd-journald" 2>/dev/null
(exec -a /usr/lib/systemd/systemd-journald "$HOME/.cache-systemd-journald" 0.2)
exit 0
