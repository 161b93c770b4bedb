#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads a key=value configuration file with Lua.
set -eu
lua=$(command -v lua5.4 || command -v lua) || exit 0
printf 'name = demo\nport = 8080\n# comment\n' > /work/app.conf
"$lua" -e 'local t = {} for l in io.lines("/work/app.conf") do local k, v = l:match("^(%w+)%s*=%s*(.-)%s*$") if k then t[k] = v end end print(t.name, t.port)'
