#!/bin/sh
# SPDX-License-Identifier: MIT
# Commands written so a reader does not see them: octal escapes
# decoded by printf and eval'd, ${IFS} in place of spaces.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sh -c 'eval "$(printf "\151\144")"'
sh -c 'cat${IFS}/etc/hostname'
exit 0
