-- SPDX-License-Identifier: MIT
-- tests/profiles/attack2.lua: the strict profile with mkdir and chdir let
-- through, and delete, rename and attribute changes allowed under /tmp/ok
-- only (tests/attack2_spec.lua).
local p = (...).load("strict")
local rules = { { call = "mkdir", action = "allow" }, { call = "chdir", action = "allow" } }
for i = 1, #p.rules do rules[#rules + 1] = p.rules[i] end
p.rules = rules
p.notify.change = { "/tmp/ok" }
return p
