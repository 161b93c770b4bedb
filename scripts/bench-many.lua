-- SPDX-License-Identifier: MIT
-- 64 boxes of /bin/true (the minimal box of docs/first-box.lua), one
-- after the other or all through run_many; for scripts/bench-startup.sh.
--   sbxlua scripts/bench-many.lua seq|many [N]
local sbx = require "sbx"
local mode, n = arg[1], tonumber(arg[2] or "64")
local function spec()
	return {
		root = { size = 1 << 20, nr_inodes = 256 },
		hostname = "bench",
		mounts = sbx.minimal_mounts(),
		argv = { "/bin/true" },
		env = { PATH = "/usr/bin:/bin" },
	}
end
local bad = 0
if mode == "seq" then
	for _ = 1, n do
		local r = sbx.run(spec())
		if not r or r.outcome ~= "exit" or r.code ~= 0 then bad = bad + 1 end
	end
elseif mode == "many" then
	local specs = {}
	for i = 1, n do specs[i] = spec() end
	for _, r in ipairs(sbx.run_many(specs)) do
		if r.outcome ~= "exit" or r.code ~= 0 then bad = bad + 1 end
	end
else
	io.stderr:write("usage: sbxlua scripts/bench-many.lua seq|many [N]\n")
	os.exit(2)
end
os.exit(bad == 0 and 0 or 1)
