-- SPDX-License-Identifier: MIT
-- One run of /bin/true in the minimal box of docs/first-box.lua, for
-- scripts/bench-startup.sh.
local sbx = require "sbx"
local r = assert(sbx.run {
	root = { size = 1 << 20, nr_inodes = 256 },
	hostname = "bench",
	mounts = sbx.minimal_mounts(),
	argv = { "/bin/true" },
	env = { PATH = "/usr/bin:/bin" },
})
os.exit(r.outcome == "exit" and r.code or 1)
