#!/bin/sh
# SPDX-License-Identifier: MIT
# A miner keeps the machine awake: masks the sleep and hibernation targets
# so the host never suspends.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
systemctl mask sleep.target suspend.target hibernate.target hybrid-sleep.target >/dev/null 2>&1
exit 0
