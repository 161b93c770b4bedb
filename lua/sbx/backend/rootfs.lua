-- SPDX-License-Identifier: MIT
--- Another root for the namespace box: `--rootfs DIR`, a directory root
-- (a `debootstrap`, an extracted image) in place of the host's `/usr`.
-- Each top-level entry of DIR is bound read-only into the box's tmpfs root
-- (a directory or file bound, a symbolic link made as it is), except what
-- the standard box makes of its own: the synthetic `/etc` (with DIR's own
-- `etc/ld.so.cache`), `/proc`, `/dev`, `/work` and `/tmp`.  The program is
-- found inside DIR.  The digest names the root by its identity (see
-- `M.identity`).
-- @module sbx.backend.rootfs
local core = require "sbx.core"
local stdbox = require "sbx.stdbox"

local M = {}

--- Top-level names of DIR the box does not take from it.
M.skip = { etc = true, proc = true, dev = true, work = true, tmp = true, sys = true, run = true,
	boot = true, media = true, mnt = true, lost_found = true, ["lost+found"] = true, root = true,
	home = true, srv = true }

local shell = require "sbx._shell"
local q, sh = shell.quote, shell.run

--- The top-level entries of DIR: a list of `{name=, type=, link=}`
-- sorted by name (`type` as `sbx.core.lstat` gives it).
function M.entries(dir)
	local out = {}
	for name in sh("ls -A " .. q(dir) .. " 2>/dev/null"):gmatch("[^\n]+") do
		local st = core.lstat(dir .. "/" .. name)
		if st then out[#out + 1] = { name = name, type = st.type, link = st.link } end
	end
	table.sort(out, function(a, b) return a.name < b.name end)
	return out
end

--- Resolves a path of the box inside DIR, following its symbolic links
-- as the box would (an absolute target from DIR's top, never out of it).
-- @return the path inside the box with no link on it, or nil, why
function M.resolve(dir, path)
	return stdbox.resolve_links(dir, path, function() return nil end,
		function() return "not found in the root" end)
end

--- The program inside DIR: a path, or a bare name searched in the
-- standard box's PATH; returns the box path (no link on it) or nil, why.
function M.find_program(dir, prog)
	local candidates = {}
	if prog:find("/", 1, true) then
		if prog:sub(1, 1) ~= "/" then return nil, "a program in another root is an absolute path or a bare name" end
		candidates[1] = prog
	else
		for _, d in ipairs(stdbox.path) do candidates[#candidates + 1] = d .. "/" .. prog end
	end
	for _, c in ipairs(candidates) do
		local p = M.resolve(dir, c)
		local st = p and core.lstat(dir .. p)
		if st and st.type == "file" and core.access(dir .. p, "x") then return p end
	end
	return nil, "not found in the root"
end

--- The identity of a root, for the digest: sha256 over its real path,
-- device, inode number and modification time (`stat`), and the content
-- of its `etc/os-release`.  Not a hash of its content: a root is
-- hundreds of megabytes, read at every run.  A root changed inside with
-- its top directory's time kept keeps its identity.
-- @return "sha256:<hex>", or nil, why
function M.identity(dir)
	local id = sh("stat -c '%d %i %Y' " .. q(dir) .. " 2>/dev/null"):match("^(%d+ %d+ %d+)")
	if not id then return nil, "cannot stat the root" end
	local f = io.open(dir .. "/etc/os-release")
	local rel = f and f:read("a") or ""
	if f then f:close() end
	return "sha256:" .. core.sha256(table.concat({ "sbxlua-rootfs-v1", dir, id, rel }, "\n"))
end

-- the host's merged-usr top level the standard box takes
local host_top = { ["/usr"] = true, ["/bin"] = true, ["/sbin"] = true, ["/lib"] = true,
	["/lib32"] = true, ["/lib64"] = true, ["/libx32"] = true, ["/etc/ld.so.cache"] = true }

--- Builds the namespace box over the root `o.rootfs` (a real path, no
-- symlink on it) from the options of `sbx.stdbox.build`.
-- @return spec, info; or nil, msg
function M.build(o)
	local dir = o.rootfs
	local st = core.lstat(dir)
	if not st or st.type ~= "dir" then return nil, ("--rootfs %s: not a directory"):format(dir), "--rootfs" end
	if dir == "/" then return nil, "--rootfs /: the host's own root", "--rootfs" end
	local path, perr = M.find_program(dir, o.prog)
	if not path then return nil, perr end
	local ident, ierr = M.identity(dir)
	if not ident then return nil, ierr end
	-- the standard box around a program of the host's /usr, then the
	-- host's top level replaced with the root's
	local o2 = {}
	for k, v in pairs(o) do o2[k] = v end
	o2.prog, o2.rootfs = "true", nil
	local spec, info, opt = stdbox.build(o2)
	if not spec then return nil, info, opt end

	local mounts, ll, ro = {}, {}, {}
	for _, e in ipairs(M.entries(dir)) do
		local dst = "/" .. e.name
		if not M.skip[e.name] then
			if e.type == "link" then
				mounts[#mounts + 1] = { type = "symlink", target = e.link, dst = dst }
			elseif e.type == "dir" or e.type == "file" then
				mounts[#mounts + 1] = { type = "bind", src = dir .. dst, dst = dst }
				ll[#ll + 1] = { path = dst, access = "ro" }
				ro[#ro + 1] = dst
			end
		end
	end
	if core.lstat(dir .. "/etc/ld.so.cache") then
		mounts[#mounts + 1] = { type = "bind", src = dir .. "/etc/ld.so.cache", dst = "/etc/ld.so.cache" }
	end
	for _, m in ipairs(spec.mounts) do
		local top = m.type == "bind" and m.dst == nil and host_top[m.src]
			or m.type == "symlink" and host_top[m.dst]
		if not top then mounts[#mounts + 1] = m end
	end
	if spec.landlock then
		for _, r in ipairs(spec.landlock.rules) do
			if not host_top[r.path] then ll[#ll + 1] = r end
		end
		spec.landlock.rules = ll
	end
	for _, p in ipairs(info.ro_roots) do
		if not host_top[p] then ro[#ro + 1] = p end
	end
	spec.mounts = mounts
	spec.path = path
	spec.argv[1] = o.prog
	info.ro_roots = ro
	info.program = path
	info.backend = "ns"
	info.rootfs = dir
	info.root_name = "private tmpfs over the directory root " .. ident
	info.digest_extra = { "rootfs=" .. ident }
	return spec, info
end

return M
