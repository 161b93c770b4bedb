#!/bin/sh
# SPDX-License-Identifier: MIT
# Hides its commands as base64 text decoded by a child shell and piped to
# another shell to run.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
sh -c "echo aWQ7IHVuYW1lIC1hCg== | base64 -d | sh" >/dev/null 2>&1
exit 0
