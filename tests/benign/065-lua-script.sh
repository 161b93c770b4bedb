#!/bin/sh
# SPDX-License-Identifier: MIT
# A short Lua program, when a Lua interpreter is installed.
set -eu
lua=$(command -v lua5.4 || command -v lua || true)
if [ -z "$lua" ]; then echo "no lua"; exit 0; fi
"$lua" -e '
local t = {}
for w in ("the lazy dog and the quick fox"):gmatch("%a+") do t[w] = (t[w] or 0) + 1 end
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", t[k], " ") end
print()'
