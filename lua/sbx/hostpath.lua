-- SPDX-License-Identifier: MIT
--- The host side of the standard box: host paths with no link of a box's
-- followed, the program and the script it runs found on the host, the
-- caller's hard limits, and the checks of a directory an operator would
-- bind (writable, sbxlua's own, the unix sockets it holds).  Every name
-- here is also `sbx.stdbox`'s.
-- @module sbx.hostpath
local core = require "sbx.core"
local owner = require "sbx._owner"
local profile = require "sbx.profile"
local standin = require "sbx.standin"
-- the words of a program that is not there: its exit status is 127
local NOT_FOUND = require("sbx.events").NOT_FOUND

local M = {}

--- Directories searched for a bare PROG name (the box sees them through /usr).
M.path = { "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin" }

function M.basename(p) return p:match("([^/]+)/*$") end

function M.under(path, dir)
	return path == dir or path:sub(1, #dir + 1) == dir .. "/"
end

local LINK = "a symbolic link on the path (never followed)"

--- The components of path p, `.` dropped and `..` taken lexically (one
-- component back, never above the top).
-- @tparam string p
-- @treturn table list of names
function M.path_parts(p)
	local parts = {}
	for c in p:gmatch("[^/]+") do
		if c == ".." then
			parts[#parts] = nil
		elseif c ~= "." then
			parts[#parts + 1] = c
		end
	end
	return parts
end

--- The absolute form of a host path the caller typed (relative to the
-- current directory), with no symlink the box could have planted followed:
-- a box may have written one anywhere in a directory it could write, so a
-- link on the path is refused (the caller names its target) unless it is
-- the host's own (`sbx._owner.hosts`: owned by root, or by an id outside
-- the caller's namespace), which no standard box writes as:
-- `/bin -> usr/bin` is followed, a link in a --rw directory is not.  `..`
-- is taken lexically.  The core refuses every link when it opens a bind
-- source, and the box binds only the file the core opened.
-- @tparam string typed
-- @return the path, free of symlinks, or nil, reason
function M.host_path(typed)
	local p = typed
	if p:sub(1, 1) ~= "/" then
		local cwd, msg = core.realpath(".")
		if not cwd then return nil, msg:match(": (.*)$") or msg end
		p = cwd .. "/" .. p
	end
	return M.resolve_links("", p, function(st) return not owner.hosts(st.uid) and LINK or nil end,
		function(msg) return msg:match(": (.*)$") or msg end)
end

--- Resolves the path p below the directory top (`""`: the host's root),
-- following its symbolic links as the kernel would there: an absolute
-- target from top, never out of it.
-- @tparam string top
-- @tparam string p an absolute path
-- @tparam function refuse `refuse(st)` of each link met: nil to follow
--  it, or the reason it is refused
-- @tparam function missing `missing(msg)` the words for a component not
--  there (msg the host's)
-- @return the path below top with no link on it, or nil, reason
function M.resolve_links(top, p, refuse, missing)
	for _ = 1, 40 do
		local parts = M.path_parts(p)
		local at, link = "", nil
		for i, c in ipairs(parts) do
			local st, msg = core.lstat(top .. at .. "/" .. c)
			if not st then return nil, missing(msg) end
			if st.type == "link" then
				local why = refuse(st)
				if why then return nil, why end
				link = (st.link:sub(1, 1) == "/" and "" or at .. "/") .. st.link
				for j = i + 1, #parts do link = link .. "/" .. parts[j] end
				break
			end
			at = at .. "/" .. c
		end
		if not link then return at == "" and "/" or at end
		p = link
	end
	return nil, "too many levels of symbolic links"
end

--- Finds the program on the host: a name with a slash is that path (no
-- symlink followed, see `M.host_path`), a bare name is looked up in
-- `M.path` (the host's own directories).  Returns the host path, or nil
-- and the reason (`not found`, `not a regular file`, `not executable`...),
-- which the caller prefixes with the program's name.
function M.find_program(prog)
	if prog == "" then return nil, "empty program name" end
	local candidates = {}
	if prog:find("/", 1, true) then
		local p, msg = M.host_path(prog)
		if not p then
			if msg == "No such file or directory" then return nil, NOT_FOUND end
			return nil, msg
		end
		candidates[1] = p
	else
		for _, d in ipairs(M.path) do candidates[#candidates + 1] = d .. "/" .. prog end
	end
	for _, c in ipairs(candidates) do
		local real = core.realpath(c)
		local st = real and core.lstat(real)
		if st and st.type == "file" and core.access(real, "x") then return real end
		if st and #candidates == 1 then
			if st.type ~= "file" then return nil, "not a regular file" end
			return nil, "not executable"
		end
	end
	return nil, NOT_FOUND
end

-- The interpreter an ELF file names (its PT_INTERP), from its first bytes
-- (a little-endian ELF64, as this host runs), or nil.
local function elf_interp(head)
	if #head < 64 or head:byte(5) ~= 2 or head:byte(6) ~= 1 then return nil end
	-- every offset is the file's, hostile: an unsigned 64-bit one past
	-- 2^63 reads as negative here, and is refused as one past the head
	local phoff = string.unpack("<I8", head, 33)
	local phentsize, phnum = string.unpack("<I2I2", head, 55)
	if phoff < 0 or phoff > #head or phentsize < 56 then return nil end
	for i = 0, math.min(phnum, 64) - 1 do
		local at = phoff + i * phentsize
		if at + 56 > #head then return nil end
		if string.unpack("<I4", head, at + 1) == 3 then -- PT_INTERP
			local off, size = string.unpack("<I8", head, at + 9), string.unpack("<I8", head, at + 33)
			if off < 0 or size < 2 or size > #head or off + size > #head then return nil end
			return head:sub(off + 1, off + size):match("^([^%z]+)%z")
		end
	end
	return nil
end

--- How to run a regular file that is not executable by what it holds: a
-- `#!` line's interpreter (and its one argument), or an ELF file's own
-- dynamic loader (its PT_INTERP).  Samples often arrive mode 0644; the
-- file is read once, by descriptor, here on the host.
-- @tparam string host_path the file (already resolved by `M.find_program`'s
-- rules: no symlink of a box's followed)
-- @return a list: the interpreter's path and arguments to put before the
-- file's path; or nil and why not
function M.by_content(host_path)
	local f, msg = core.open_file(host_path)
	if not f then return nil, msg end
	local head = f:read(64 * 1024) or ""
	f:close()
	if head:sub(1, 2) == "#!" then
		local line = head:match("^#!([^\n]*)") or ""
		local interp, arg = line:match("^%s*(%S+)%s*(.-)%s*$")
		if not interp or interp:sub(1, 1) ~= "/" then return nil, "not executable, and its #! line names no path" end
		return arg ~= "" and { interp, arg } or { interp }
	end
	if head:sub(1, 4) == "\127ELF" then
		local interp = elf_interp(head)
		if not interp then return nil, "not executable, and a static ELF file (no loader to run it)" end
		return { interp }
	end
	return nil, "not executable, and neither a #! script nor an ELF file"
end

-- /proc/self/limits' rows by the names of core.rlimit_names
local limit_rows = {
	["Max cpu time"] = "cpu", ["Max file size"] = "fsize", ["Max data size"] = "data",
	["Max stack size"] = "stack", ["Max core file size"] = "core", ["Max resident set"] = "rss",
	["Max processes"] = "nproc", ["Max open files"] = "nofile", ["Max locked memory"] = "memlock",
	["Max address space"] = "as", ["Max file locks"] = "locks", ["Max pending signals"] = "sigpending",
	["Max msgqueue size"] = "msgqueue", ["Max nice priority"] = "nice",
	["Max realtime priority"] = "rtprio", ["Max realtime timeout"] = "rttime",
}

--- The caller's hard resource limits, read from the supervisor's own
-- /proc/self/limits (the host's procfs, before any box): name -> a number
-- or `"unlimited"`; empty when it cannot be read.
function M.caller_hard()
	local t = {}
	local f = io.open("/proc/self/limits")
	if not f then return t end
	for l in f:lines() do
		local row, hard = l:match("^(Max [%a ]-)%s%s+%S+%s+(%S+)")
		local name = row and limit_rows[row]
		if name then t[name] = hard == "unlimited" and hard or tonumber(hard) end
	end
	f:close()
	return t
end

-- The caller's home directories: $HOME and its /etc/passwd entry, as real
-- paths (each that resolves).
local function home_dirs()
	local homes = {}
	local h = os.getenv("HOME")
	if h and h ~= "" then homes[#homes + 1] = core.realpath(h) or h end
	local uid = core.ids().uid
	local f = io.open("/etc/passwd")
	if f then
		for l in f:lines() do
			local u, dir = l:match("^[^:]*:[^:]*:(%d+):%d+:[^:]*:([^:]*):")
			if tonumber(u) == uid and dir ~= "" then homes[#homes + 1] = core.realpath(dir) or dir end
		end
		f:close()
	end
	return homes
end

-- What sbxlua loads or runs: its scripts' directory, its modules'
-- directory (the same in the build tree), the compiled chunks, its
-- profiles and its executable, as real paths (each
-- that resolves).
local function own_files()
	local config = package.loaded["sbx.config"]
	local own = {}
	for _, p in ipairs {
		type(config) == "table" and config.luadir or false,
		type(config) == "table" and config.moddir or false,
		type(config) == "table" and config.luacdir or false,
		profile.dir() or false,
		standin.host() and standin.host().program:match("^(.*)/") or false,
		"/proc/self/exe",
	} do
		local real = p and core.realpath(p)
		if real then own[#own + 1] = real end
	end
	-- the compiled-program cache, made later when absent: its path as
	-- it will be (the part that exists resolved)
	local cache, rest = profile.cache_dir(), ""
	while cache and cache ~= "" and not core.realpath(cache) do
		local head, tail = cache:match("^(.*)(/[^/]*)$")
		cache, rest = head, tail .. rest
	end
	local real = cache and core.realpath(cache ~= "" and cache or "/")
	if real then own[#own + 1] = (real == "/" and "" or real) .. rest end
	return own
end

--- Checks a host directory the operator would make writable in the box
-- (`--rw`): never the host's root, a home directory of the caller or a
-- directory that holds one, nor sbxlua's own files (a box that rewrote
-- them would run its code in every later sbxlua, with the caller's
-- rights; the compiled-program cache is one: its entries become later
-- boxes' filters), nor anything but a directory.
-- @tparam string real a host path free of symlinks (`M.host_path`)
-- @return true, or nil, reason
function M.check_writable(real)
	if real == "/" then return nil, "refusing to make the host's root writable" end
	for _, h in ipairs(home_dirs()) do
		-- the home directory, or a directory that holds it
		if M.under(h, real) then return nil, "refusing to make the home directory writable" end
	end
	for _, own in ipairs(own_files()) do
		if M.under(own, real) or M.under(real, own) then
			return nil, "refusing to make sbxlua's own files writable"
		end
	end
	local st = core.lstat(real)
	if not st or st.type ~= "dir" then return nil, "not a directory" end
	return true
end

--- Whether the host id `id` (as uid and gid, with no supplementary group:
-- a box has none) may create files in the directory of `st` (an lstat
-- result): write and search bits of the class the kernel picks, owner,
-- else group, else others.  An ACL entry is not read (the group class
-- bits then hold its mask): a directory shared through an ACL alone is
-- refused, giving it to the id is the fix the refusal names.
function M.writable_by(st, id)
	local m = st.mode
	if st.uid == id then
		m = m >> 6
	elseif st.gid == id then
		m = m >> 3
	end
	return st.type == "dir" and m & 3 == 3
end

--- Bounds of the scan of each operator bind for unix sockets
-- (`core.find_sockets`): a bind the scan cannot finish is refused.
M.socket_scan = { max_depth = 128, max_entries = 100000 }

-- Whether a host directory surely stops the box's host id `id` from
-- entering it: not owned by it (an owner could chmod it), and no search
-- bit for the group class or others (the group class bits bound every ACL
-- entry beyond the owner's), so no group or ACL of the box's lets it in.
local function closed_to(st, id)
	return st.type == "dir" and st.uid ~= id and st.mode & 9 == 0 -- 0o011
end

-- Whether any directory from src down to the parent of rel is closed to id.
local function behind_closed(src, rel, id)
	local at = src
	local st = core.lstat(at)
	if not st or closed_to(st, id) then return true end
	for c in rel:gmatch("([^/]+)/") do
		at = at .. "/" .. c
		st = core.lstat(at)
		if not st or closed_to(st, id) then return true end
	end
	return false
end

--- The unix sockets an operator's bind would let the box connect to, as
-- paths inside the box, each to be covered with a `hide` entry.
-- connect() on a pathname socket needs only write permission on its inode:
-- a read-only mount does not stop it, Landlock does not cover it, seccomp
-- cannot read the address.  So every socket the box could reach through
-- the bind is covered before the box exists; one a host daemon creates
-- there later is not (docs/standard-box.md).  A socket behind a directory
-- closed to the box's host id `id` is left alone (the box cannot reach it,
-- nor could the box's own setup cover it).  A scan that cannot finish
-- refuses the bind rather than leave sockets unchecked.
-- @tparam table b `{src=, dst=}`, src a host path free of symlinks
-- @tparam integer id the box's host uid
-- @return a list of box paths, or nil, reason
function M.socket_hides(b, id)
	local st, msg = core.lstat(b.src)
	if not st then return nil, msg:match(": (.*)$") or msg end
	if st.type == "socket" then return { b.dst } end
	if st.type ~= "dir" then return {} end
	local lim = M.socket_scan
	local r, err = core.find_sockets(b.src, lim)
	if not r then return nil, err:match(": (.*)$") or err end
	if r.truncated == "entries" then
		return nil, ("more than %d entries: too many to check for unix sockets"
			.. " (bind a smaller directory)"):format(lim.max_entries)
	end
	for _, e in ipairs(r.errors) do
		if e.errname == "ELOOP" and r.truncated == "depth" then
			return nil, ("%s: deeper than %d directories: too deep to check for unix sockets")
				:format(e.path, lim.max_depth)
		end
		-- one the caller cannot read is no hole when the box cannot
		-- enter it either
		local dst = core.lstat(b.src .. "/" .. e.path)
		if not (dst and closed_to(dst, id)) then
			return nil, ("%s: cannot check for unix sockets: %s"):format(e.path, e.errname)
		end
	end
	local hides, base = {}, b.dst == "/" and "" or b.dst
	for _, f in ipairs(r.found) do
		if not behind_closed(b.src, f.path, id) then hides[#hides + 1] = base .. "/" .. f.path end
	end
	table.sort(hides)
	return hides
end

-- The interpreters whose first operand is a script they open, and their
-- options that take the next argument (`-W error`) or make the run one
-- of no script (`-c CODE`, `-m MODULE`, `-e CODE`): `M.script_operand`.
local INTERPRETERS = {
	python = { takes = { W = true, X = true }, none = { c = true, m = true } },
	sh = { takes = { o = true, O = true }, none = { c = true, s = true } },
	perl = { takes = { I = true, M = true, m = true }, none = { e = true, E = true } },
	ruby = { takes = { I = true, r = true }, none = { e = true } },
	node = { takes = { r = true }, none = { e = true, p = true } },
	lua = { takes = { l = true }, none = { e = true } },
	php = { takes = { d = true, c = true }, none = { r = true } },
}
local INTERPRETER_OF = { python3 = "python", python = "python", sh = "sh", bash = "sh", dash = "sh",
	perl = "perl", ruby = "ruby", node = "node", nodejs = "node", lua = "lua", php = "php" }

--- The script an interpreter named as the program will open: the index
-- in `args` of its first operand, or nil (not an interpreter sbxlua
-- knows, a run of no script such as `python3 -c CODE`, or no operand).
-- @tparam string prog the program as typed (`python3`, `/usr/bin/perl`)
-- @tparam table args its arguments
-- @treturn integer|nil
function M.script_operand(prog, args)
	if type(prog) ~= "string" or type(args) ~= "table" then
		error("bad argument to 'script_operand' (string and table expected)", 2)
	end
	local name = (M.basename(prog) or ""):gsub("[%d.]+$", "")
	local kind = INTERPRETERS[INTERPRETER_OF[name] or ""]
	if not kind then return nil end
	local i = 1
	while args[i] do
		local a = args[i]
		if a == "--" then return args[i + 1] and i + 1 or nil end
		if a == "-" or a:sub(1, 1) ~= "-" then return a ~= "-" and i or nil end
		local opt = a:sub(2, 2)
		if kind.none[opt] then return nil end
		i = i + ((kind.takes[opt] and #a == 2) and 2 or 1)
	end
	return nil
end

return M
