-- SPDX-License-Identifier: MIT
-- A first box, built from the primitives of sbx.core alone: a tmpfs root,
-- read-only /usr with the merged-usr links, /proc, a minimal /dev and a
-- writable /tmp; every namespace; the command sees only what is listed.
--
--   ./sbxlua docs/first-box.lua
local core = require "sbx.core"

-- sbx.core takes a spec as it is: a root caller's box would map to host
-- uid 0 unless host_uid says otherwise (sbx.run and sbx.box default to
-- sbx.stdbox.root_host_id, checked to be no one's)
local host_id = core.ids().euid == 0 and require("sbx.stdbox").root_host_id or nil

local box = assert(core.box {
	namespaces = { "user", "mount", "pid", "ipc", "uts", "net", "cgroup" },
	uid = 1000, gid = 1000,          -- inside; outside: the caller's ids,
	host_uid = host_id, host_gid = host_id, -- or for root an unused id
	hostname = "first-box",
	root = { size = 1 << 20, nr_inodes = 256 },  -- read-only after set-up
	mounts = {
		{ type = "bind", src = "/usr" },         -- read-only, nosuid, nodev
		{ type = "symlink", target = "usr/bin", dst = "/bin" },
		{ type = "symlink", target = "usr/sbin", dst = "/sbin" },
		{ type = "symlink", target = "usr/lib", dst = "/lib" },
		{ type = "symlink", target = "usr/lib64", dst = "/lib64" },
		{ type = "proc", dst = "/proc" },
		{ type = "dev", dst = "/dev", shm_size = 1 << 20 },
		{ type = "tmpfs", dst = "/tmp", size = 8 << 20, mode = tonumber("1777", 8) },
	},
	argv = { "/bin/sh", "-c", "id; cat /proc/self/status" },
	env = { PATH = "/usr/bin:/bin" },
	cwd = "/tmp",
	wall = 10,
})

local r = box:run()
io.write(r.stdout, r.stderr)
print(("outcome: %s %s"):format(r.outcome, r.code or r.signame or r.cannot and r.cannot.stage))
