#!/bin/sh
# SPDX-License-Identifier: MIT
# A shell configured as some users keep it: its history is cleared at
# exit by a trap on EXIT (a logout set-up, not an act), the history file in
# its own place.
set -eu
mkdir -p /work/hist
bash -c 'HISTFILE=/work/hist/history; set -o history; trap "history -c" EXIT; echo work done; ls /work/hist'
