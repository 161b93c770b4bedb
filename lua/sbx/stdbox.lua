-- SPDX-License-Identifier: MIT
--- The standard box: the policy of `sbxlua run.lua`, as plain Lua data.
-- `M.build(opts)` turns command-line level options into a spec for
-- `sbx.core.box` and a description of every claim the report may make.
-- Operators copy and change this module, or pass their own opts.
-- @module sbx.stdbox
local core = require "sbx.core"

local M = {}

local limits = require "sbx.limits"
local owner = require "sbx._owner"
local hostid = require "sbx._hostid"
local profile = require "sbx.profile"
local written = require "sbx.written"
local sink = require "sbx.sink"
-- the words of a program that is not there: its exit status is 127
local NOT_FOUND = require("sbx.report").NOT_FOUND
local standin = require "sbx.standin"

local MiB = 1 << 20

--- Sizes of the tree (the limits proper are `sbx.limits.defaults`).
M.tree = {
	work = 64 * MiB, -- /work, when it is the box's own tmpfs
	inodes = 16384, -- per tmpfs
	shm = 16 * MiB, -- /dev/shm
}

--- The analysis box (`run.lua --explore`, `batch.lua` by default, the
-- REPL's `explore`): what it adds to the standard box's options.  The
-- watch profile (the default box's refusals, named; every open, exec,
-- connect, process, file change, signal and memfd recorded and let
-- through), the network sink, decoy credentials; the behaviour summary
-- and verdict are the scripts' (docs/explore.md).  `sleep_skip`: a sleep
-- longer than this many seconds is answered at once, as if it had
-- completed (core/super/sleep.c; the watch profile sends the sleeps); not
-- shorter: a short sleep a timer is meant to cut (`timeout 0.2 sleep 3`)
-- would end first.  `follow`: the box ends when its last process has (or
-- at the wall clock), not with the command: a payload a program leaves
-- running in the background (fork, setsid, parent exits) is seen; the
-- report says what ran on (docs/standard-box.md).  The jail ends with the
-- command.  `standins`: the tools a host lacks played by sbxlua's
-- stand-ins, from a read-only directory last on the PATH (sbx.standin,
-- docs/standins.md).  One owner: every analysis run takes it from here.
M.ANALYSIS = { profile = "watch", net = "sink", decoys = true, by_content = true, sleep_skip = 5,
	follow = true, standins = true, bind_args = true, refusal_end = true }

--- Fills the options o with the analysis box's (`M.ANALYSIS`) where o
-- does not set them already (an option the operator typed wins).
-- @tparam table o
-- @treturn table o
function M.analysis(o)
	for k, v in pairs(M.ANALYSIS) do
		if o[k] == nil then o[k] = v end
	end
	return o
end

--- The box user, inside: an ordinary account with a home of its own
-- (`M.host.home`); the program's working directory stays /work.
M.user = { name = "dana", uid = 1000, gid = 1000, home = "/home/dana" }

--- What the box shows of the machine it seems to be: a fixed, ordinary
-- host (the same in every run, so that reports stay reproducible), never
-- a name that says sandbox.  An operator changes any field before
-- `M.build`.
-- `hostname`: the UTS name and /etc/hostname.
-- `sys`: host /sys directories bound read-only where they exist (what
-- glibc, Python, lscpu and the JVM read at start-up: the CPUs online, the
-- NUMA nodes, the huge page sizes); never a writable mount, never the
-- device list (/sys/class, /sys/block, /sys/bus), DMI or the network
-- interfaces.
-- `home`: the size of the home's tmpfs, and its dot files (name -> text).
-- `uptime`: the range, in seconds, of the box's uptime at its start
-- (/proc/uptime, CLOCK_BOOTTIME, CLOCK_MONOTONIC: a time namespace), drawn
-- per run (`M.uptime`); false: the host's clocks.
-- `init`: the name (/proc/1/comm, at most 15 bytes) and command line
-- (/proc/1/cmdline, one word) of the box's pid 1, as a Debian host's
-- systemd shows them; false: sbxlua's name, no command line.
M.host = {
	hostname = "dana-laptop",
	init = { comm = "systemd", cmdline = "/sbin/init" },
	uptime = { 2 * 86400, 9 * 86400 },
	sys = { "/sys/devices/system/cpu", "/sys/devices/system/node",
		"/sys/kernel/mm/transparent_hugepage", "/sys/kernel/mm/hugepages" },
	home = {
		size = 16 * MiB,
		files = {
			[".bashrc"] = "# ~/.bashrc: executed by bash(1) for non-login shells.\n"
				.. "case $- in\n    *i*) ;;\n      *) return;;\nesac\n"
				.. "HISTCONTROL=ignoreboth\nshopt -s histappend\nHISTSIZE=1000\nHISTFILESIZE=2000\n"
				.. "shopt -s checkwinsize\nPS1='${debian_chroot:+($debian_chroot)}\\u@\\h:\\w\\$ '\n"
				.. "alias ls='ls --color=auto'\nalias ll='ls -alF'\nalias la='ls -A'\n"
				.. "if [ -f ~/.bash_aliases ]; then\n    . ~/.bash_aliases\nfi\n",
			[".profile"] = "# ~/.profile: executed by the command interpreter for login shells.\n"
				.. "if [ -n \"$BASH_VERSION\" ]; then\n    if [ -f \"$HOME/.bashrc\" ]; then\n"
				.. "\t. \"$HOME/.bashrc\"\n    fi\nfi\n"
				.. "if [ -d \"$HOME/bin\" ] ; then\n    PATH=\"$HOME/bin:$PATH\"\nfi\n"
				.. "if [ -d \"$HOME/.local/bin\" ] ; then\n    PATH=\"$HOME/.local/bin:$PATH\"\nfi\n",
			[".bash_logout"] = "# ~/.bash_logout: executed by bash(1) when login shell exits.\n"
				.. "if [ \"$SHLVL\" = 1 ]; then\n    [ -x /usr/bin/clear_console ] && /usr/bin/clear_console -q\nfi\n",
			[".bash_history"] = "ls\ncd projects\ngit status\ngit pull\nmake\n./build.sh\n"
				.. "vim notes.txt\nls -la\ncd ..\nsudo apt update\nsudo apt upgrade\n"
				.. "python3 -m venv .venv\nhtop\ndf -h\nhistory\n",
		},
	},
}

--- Host id (uid and gid) a root caller's box is mapped to (see
-- `sbx._hostid`, where it is explained and checked); `o.host_id` chooses
-- another.
M.root_host_id = hostid.root_host_id

--- Checks that id can be a root caller's box's host id: not root, not an
-- account or group of /etc/passwd or /etc/group, held by no process of the
-- host (a box's or a container's processes, in user or pid namespaces of
-- their own, do not count).
-- Accounts only a name service knows (LDAP...) are not seen.
-- @function check_host_id
-- @tparam integer id
-- @return true, or nil, reason
M.check_host_id = hostid.check_host_id

-- The accounts every Debian system has, before the box user's.
local SYSTEM_USERS = "root:x:0:0:root:/root:/bin/bash\n"
	.. "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nbin:x:2:2:bin:/bin:/usr/sbin/nologin\n"
	.. "sys:x:3:3:sys:/dev:/usr/sbin/nologin\nsync:x:4:65534:sync:/bin:/bin/sync\n"
	.. "games:x:5:60:games:/usr/games:/usr/sbin/nologin\nman:x:6:12:man:/var/cache/man:/usr/sbin/nologin\n"
	.. "lp:x:7:7:lp:/var/spool/lpd:/usr/sbin/nologin\nmail:x:8:8:mail:/var/mail:/usr/sbin/nologin\n"
	.. "news:x:9:9:news:/var/spool/news:/usr/sbin/nologin\n"
	.. "www-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n"
	.. "backup:x:34:34:backup:/var/backups:/usr/sbin/nologin\n"
	.. "_apt:x:42:65534::/nonexistent:/usr/sbin/nologin\n"
	.. "messagebus:x:100:102::/nonexistent:/usr/sbin/nologin\n"
local SYSTEM_GROUPS = "root:x:0:\ndaemon:x:1:\nbin:x:2:\nsys:x:3:\nadm:x:4:\ntty:x:5:\n"
	.. "disk:x:6:\nlp:x:7:\nmail:x:8:\nnews:x:9:\nman:x:12:\nwww-data:x:33:\nbackup:x:34:\n"
	.. "users:x:100:\nmessagebus:x:102:\n"

--- Files of the synthetic /etc (every other host file is absent); with
-- `net` "sink", names are also looked up at the sink's resolver.
-- @tparam table user `M.user`'s shape
-- @tparam string net the network mode
-- @tparam[opt] table host `M.host`'s shape (default `M.host`)
function M.etc_files(user, net, host)
	host = host or M.host
	local etc = {
		passwd = SYSTEM_USERS .. ("%s:x:%d:%d:%s,,,:%s:/bin/bash\n"
			.. "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
			:format(user.name, user.uid, user.gid, user.name:gsub("^%l", string.upper), user.home),
		group = SYSTEM_GROUPS .. ("%s:x:%d:\nnogroup:x:65534:\n"):format(user.name, user.gid),
		hosts = ("127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n")
			:format(host.hostname),
		["nsswitch.conf"] = "passwd: files\ngroup: files\nshadow: files\n"
			.. "hosts: files\nnetworks: files\nprotocols: files\nservices: files\n",
		["resolv.conf"] = "",
		hostname = host.hostname .. "\n",
		timezone = "Etc/UTC\n",
	}
	if net == "sink" then sink.etc(etc) end
	return etc
end

--- /proc entries made read-only, and hidden, wherever the kernel has them.
M.proc_readonly = { "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger" }
M.proc_hidden = { "/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/kmsg",
	"/proc/latency_stats", "/proc/sched_debug", "/proc/scsi", "/proc/timer_list",
	"/proc/timer_stats" }

--- Directories searched for a bare PROG name (the box sees them through /usr).
M.path = { "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin" }

local function basename(p) return p:match("([^/]+)/*$") end

--- Where a tree mounts something over a node of its own (not a `file` or
-- `symlink` it writes): in a written place, that node is the tree's, not
-- the program's (sbx.written leaves it out; --keep does not copy it).
-- @tparam table t a tree, with `mounts`
-- @treturn table list of box paths, in the tree's order
function M.mount_points(t)
	local list = {}
	for _, m in ipairs(t.mounts) do
		if m.dst and m.type ~= "file" and m.type ~= "symlink" then list[#list + 1] = m.dst end
	end
	return list
end

local function under(path, dir)
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

local function dev_rights() return { "read_file", "write_file", "read_dir" } end

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
		if under(h, real) then return nil, "refusing to make the home directory writable" end
	end
	for _, own in ipairs(own_files()) do
		if under(own, real) or under(real, own) then
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

-- The host id a root caller's box runs as (none for another caller), and
-- the caller's effective uid.
-- @return euid, host_id; or nil, reason, the option it concerns
local function host_identity(o)
	local euid = core.ids().euid
	local root_caller = euid == 0
	local host_id = root_caller and (o.host_id or M.root_host_id) or nil
	if o.host_id and not root_caller then return nil, "--host-id needs a root caller", "--host-id" end
	if host_id then
		-- at most once a second (a batch's boxes): sbx._hostid.checked
		local ok, why = hostid.checked(host_id, M.check_host_id)
		if not ok then return nil, why end
	end
	return euid, host_id
end

--- The profile the box's options name: `o.profile` (default "default"),
-- but "watch-rw" for "watch" with a `--rw` bind: a set-id file in a host
-- directory is one on the host while the box runs, so the analysis box
-- keeps the default's set-id refusals there (profiles/watch-rw.lua).
-- @tparam table o options of `M.build`
-- @treturn string
function M.profile_name(o)
	if type(o) ~= "table" then
		error(("bad argument #1 to 'profile_name' (table expected, got %s)"):format(type(o)), 2)
	end
	local name = o.profile or "default"
	if name == "watch" and type(o.rw) == "table" and #o.rw > 0 then return "watch-rw" end
	return name
end

-- The seccomp filter: `o.filter`, or the profile `o.profile` compiled
-- (or its cached program, `sbx.profile.filter`).
-- @return filter (false: none), profile name; or nil, reason
local function seccomp_filter(o)
	local filter, profile_name = o.filter, M.profile_name(o)
	if filter == nil then
		local prof
		filter, prof = profile.filter(profile_name)
		if filter == nil then
			if prof:find("^profile ") then return nil, prof end
			return nil, ("profile %s: %s"):format(profile_name, prof)
		end
		-- the explain channel's defaults from the profile (docs/seccomp.md)
		local mode, ntable = profile.notify(prof)
		o.mode = o.mode or mode
		if o.notify == nil then o.notify = ntable end
	end
	return filter, profile_name
end

-- The host directory bound at /work, if any; a --rw directory the box's
-- host id cannot write is refused with the fix.
-- @return work_host (false: none); or nil, reason, "--rw"
local function check_rw(o, host_id)
	local work_host = false
	for _, b in ipairs(o.rw or {}) do
		if b.dst == "/work" then work_host = b.src end
		-- the box writes there as its host id: a directory that id
		-- cannot write would fail later, inside the program, unexplained
		local st = host_id and core.lstat(b.src)
		if st and not M.writable_by(st, host_id) then
			return nil, ("--rw %s: the box's host id %d cannot write it"
				.. " (give it the directory: chown %d:%d %s)"):format(b.src, host_id, host_id, host_id, b.src), "--rw"
		end
	end
	return work_host
end

-- The tree under construction: mounts, Landlock rules, read-only roots.
local function add(t, mount, rule, ro_root)
	if mount then t.mounts[#t.mounts + 1] = mount end
	if rule then t.ll[#t.ll + 1] = rule end
	if ro_root then t.ro_roots[#t.ro_roots + 1] = ro_root end
end

-- The links of the synthetic /etc into /usr.
local ETC_LINKS = { ["/etc/os-release"] = "../usr/lib/os-release",
	["/etc/localtime"] = "/usr/share/zoneinfo/Etc/UTC" }

-- 16 random bytes as 32 hex digits, from the kernel
local function machine_id()
	local f = assert(io.open("/dev/urandom", "rb"))
	local b = f:read(16)
	f:close()
	return (b:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

-- /usr, the host's top-level links or directories into it, and the
-- synthetic /etc, in a fixed order: binds, then links, then files, each
-- by destination.
local function system_tree(t, net, o)
	local covered = {}
	for _, l in ipairs { o.ro or {}, o.rw or {}, o.tmp or {}, o.socket or {} } do
		for _, b in ipairs(l) do covered[b.dst or ""] = true end
	end
	add(t, { type = "bind", src = "/usr" }, { path = "/", access = { "read_dir" } }, "/usr")
	add(t, nil, { path = "/usr", access = "ro" })
	for _, l in ipairs { "bin", "sbin", "lib", "lib32", "lib64", "libx32" } do
		local st = core.lstat("/" .. l)
		if st and st.type == "link" then
			add(t, { type = "symlink", target = st.link, dst = "/" .. l })
		elseif st and st.type == "dir" then
			add(t, { type = "bind", src = "/" .. l }, { path = "/" .. l, access = "ro" }, "/" .. l)
		end
	end
	for name, data in pairs(M.etc_files(M.user, net)) do
		add(t, { type = "file", dst = "/etc/" .. name, data = data, mode = 420 })
	end
	-- a machine of its own: an id per run, as every installed system has
	add(t, { type = "file", dst = "/etc/machine-id", data = machine_id() .. "\n", mode = 292 })
	-- the system's own release (`platform`, `lsb_release`, os.release()
	-- read it) and time zone, as Debian links them
	-- (not where an operator's bind or tmpfs goes: a mount cannot land on
	-- a link)
	for dst, target in pairs(ETC_LINKS) do
		if not covered[dst] then add(t, { type = "symlink", target = target, dst = dst }) end
	end
	local rank = { bind = 1, symlink = 2, file = 3 }
	table.sort(t.mounts, function(a, b)
		if a.type ~= b.type then return rank[a.type] < rank[b.type] end
		return (a.dst or a.src) < (b.dst or b.src)
	end)
	add(t, { type = "bind", src = "/etc/ld.so.cache", optional = true }, { path = "/etc", access = "ro" })
	-- the links /usr's commands go through (awk, cc, editor, ...): without
	-- them /usr/bin/awk and /usr/bin/cc are dangling links in the box
	add(t, { type = "bind", src = "/etc/alternatives", optional = true })
end

-- /proc with its read-only and hidden entries, and /dev with the rights
-- its devices and terminals need.
local function kernel_tree(t)
	add(t, { type = "proc", dst = "/proc" })
	for _, p in ipairs(M.proc_readonly) do add(t, { type = "remount", dst = p, optional = true }) end
	for _, p in ipairs(M.proc_hidden) do add(t, { type = "hide", dst = p, optional = true }) end
	add(t, nil, { path = "/proc", access = "ro" })
	add(t, { type = "dev", dst = "/dev", shm_size = M.tree.shm, shm_inodes = 1024 },
		{ path = "/dev", access = dev_rights() })
	add(t, nil, { path = "/dev/shm", access = "rw" })
	-- the box's own mqueue instance (the core mounts it with its IPC
	-- namespace): mq_open's queues are files there
	add(t, nil, { path = "/dev/mqueue", access = "rw", optional = true })
	-- the box's own devpts instance: its ptys need their ioctls (a pty's
	-- number, unlocking, termios), and reach only the box's own terminals
	add(t, nil, { path = "/dev/pts", access = { "read_file", "write_file", "read_dir", "ioctl_dev" } })
	-- the box's terminal, by name (/dev/tty: the controlling terminal,
	-- /dev/console: its node): the ioctls a terminal needs (termios,
	-- size), on the terminal the box already holds as its stdio
	add(t, nil, { path = "/dev/tty", access = { "read_file", "write_file", "ioctl_dev" } })
	add(t, nil, { path = "/dev/console", access = { "read_file", "write_file", "ioctl_dev" }, optional = true })
end

-- The host's /sys directories of `M.host.sys` that exist here, each
-- bound read-only (a sysfs file's mode cannot open it for writing through
-- a read-only mount, whatever the box's ids), and what the box reads there.
-- With a network namespace of the box's own, its network devices (lo:
-- /sys/class/net/lo and what it links to) from a sysfs of its own
-- (the core's `sysnet`), never the host's.
local function sys_tree(t, net_host)
	for _, dir in ipairs(M.host.sys) do
		local st = core.lstat(dir)
		if st and st.type == "dir" then
			add(t, { type = "bind", src = dir, optional = true }, { path = dir, access = "ro" })
		end
	end
	if not net_host then
		add(t, { type = "sysnet", dst = "/sys" }, { path = "/sys/class/net", access = "ro" })
		add(t, nil, { path = "/sys/devices/virtual/net", access = "ro" })
	end
end

-- The box user's home: a tmpfs of its own with the usual dot files, each
-- written as the tree's (left out of the written files while unchanged).
local function home_tree(t)
	local home = M.user.home
	add(t, { type = "tmpfs", dst = home, size = M.host.home.size, nr_inodes = 1024,
		mode = tonumber("755", 8) }, { path = home, access = "rw" })
	local names = {}
	for name in pairs(M.host.home.files) do names[#names + 1] = name end
	table.sort(names)
	t.placed = t.placed or {}
	for _, name in ipairs(names) do
		local data = M.host.home.files[name]
		local path = home .. "/" .. name
		add(t, { type = "file", dst = path, data = data,
			mode = name:find("history$") and tonumber("600", 8) or tonumber("644", 8) })
		t.placed[path] = core.sha256(data)
	end
end

-- /tmp, the home, and /work when no host directory is bound there.
local function scratch_tree(t, lim, work_host)
	add(t, { type = "tmpfs", dst = "/tmp", size = lim.tmp, nr_inodes = M.tree.inodes,
		mode = tonumber("1777", 8) }, { path = "/tmp", access = "rw" })
	-- the box's own writable places, empty at every start (less what the
	-- tree places or mounts under one: fresh_roots)
	t.scratch = { "/tmp", "/dev/shm" }
	if M.user.home ~= "/work" then
		home_tree(t)
		t.scratch[#t.scratch + 1] = M.user.home
	end
	if not work_host then
		t.scratch[#t.scratch + 1] = "/work"
		add(t, { type = "tmpfs", dst = "/work", size = M.tree.work, nr_inodes = M.tree.inodes,
			mode = tonumber("755", 8) }, { path = "/work", access = "rw" })
	end
end

-- The operator's binds and tmpfs mounts.  Every unix socket of a bind is
-- covered right after that bind (a later bind over it is scanned on its
-- own); a socket the operator grants (--socket) is bound after them all,
-- over any cover.
-- @return true, or nil, reason, the option
local function operator_tree(t, o, lim, id)
	local granted = {}
	for _, g in ipairs(o.socket or {}) do granted[g.dst] = true end
	local function bind(b, opt, rw)
		add(t, { type = "bind", src = b.src, dst = b.dst, rw = rw or nil })
		local hides, why = M.socket_hides(b, id)
		if not hides then return nil, ("%s %s: %s"):format(opt, b.src, why), opt end
		for _, h in ipairs(hides) do
			if not granted[h] then add(t, { type = "hide", dst = h }) end
		end
		return true
	end
	for _, b in ipairs(o.rw or {}) do
		local ok, why, opt = bind(b, "--rw", true)
		if not ok then return nil, why, opt end
		add(t, nil, { path = b.dst, access = "rw" })
	end
	for _, b in ipairs(o.ro or {}) do
		local ok, why, opt = bind(b, "--ro")
		if not ok then return nil, why, opt end
		add(t, nil, { path = b.dst, access = "ro" }, b.dst)
	end
	for _, g in ipairs(o.socket or {}) do
		-- connect() needs no Landlock right (ABI 7 covers abstract
		-- sockets only) and no writable mount: a read-only bind serves
		add(t, { type = "bind", src = g.src, dst = g.dst })
	end
	for _, tm in ipairs(o.tmp or {}) do
		add(t, { type = "tmpfs", dst = tm.dst, size = tm.size or lim.tmp, nr_inodes = M.tree.inodes,
			mode = tonumber("1777", 8) }, { path = tm.dst, access = "rw" })
	end
	return true
end

-- The box's PATH (the stand-ins' directory goes after it).
local BOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

-- The stand-ins of the tools absent from the box's PATH (sbx.standin):
-- their program and a link per name, files of the read-only root.
-- @return true, or nil, reason
local function standin_tree(t)
	local mounts, rule, top = standin.tree(BOX_PATH)
	if not mounts then
		return nil, ("stand-ins: %s (make builds them; sbx.stdbox.ANALYSIS.standins = false goes without)")
			:format(rule)
	end
	for i, m in ipairs(mounts) do add(t, m, i == 1 and rule or nil, i == 1 and top or nil) end
	return true
end

-- The program's path in the box: visible through /usr, inside the --rw
-- /work, or bound read-only under /work (or /prog when /work is a host
-- directory).
local function place_program(t, host_path, work_host)
	if under(host_path, "/usr") then return host_path end
	if work_host and under(host_path, work_host) then
		return "/work" .. host_path:sub(#work_host + 1)
	end
	local path = (work_host and "/prog/" or "/work/") .. basename(host_path)
	add(t, { type = "bind", src = host_path, dst = path }, { path = path, access = "ro" }, path)
	return path
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
	local name = (basename(prog) or ""):gsub("[%d.]+$", "")
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

-- A file named on the command line, relative to the caller's current
-- directory, as the analysis box binds it (`o.bind_args`) at the path the
-- program looks for inside, its working directory /work: read-only, the
-- file the core opens with no link followed (`M.host_path` refuses one
-- the box could have planted).  Not bound: an option, an absolute path,
-- a name with `..`, what is no regular file on the host, a file inside a
-- `--rw` directory (the box could write it: it sees it there), or any
-- when /work is a host directory.  Returns the binds made ({ arg, dst })
-- and the script operand the box will lack, if any (`script_missing`:
-- in the analysis box only, relative, and not in a host /work either).
local function bind_args(t, o, c)
	local bound, missing, seen = {}, nil, {}
	local script = M.script_operand(o.run_as and o.run_as[1] or o.prog, o.args or {})
	for i, a in ipairs(o.args or {}) do
		local rel = a:gsub("^%./+", "")
		local st, real = nil, nil
		if a:sub(1, 1) ~= "/" and a:sub(1, 1) ~= "-" and rel ~= "" and not ("/" .. rel .. "/"):find("/%.%.?/")
			and not rel:find("[%c]") then
			real = M.host_path(rel)
			st = real and core.lstat(real)
		end
		local dst = "/work/" .. rel:gsub("/+$", "")
		local inside_rw = false
		for _, b in ipairs(o.rw or {}) do
			if real and under(real, core.realpath(b.src) or b.src) then inside_rw = true end
		end
		if st and st.type == "file" and o.bind_args and not c.work_host and not inside_rw
			and dst ~= c.path and (o.cwd or "/work") == "/work" then
			if not seen[dst] then
				add(t, { type = "bind", src = real, dst = dst }, { path = dst, access = "ro" }, dst)
				bound[#bound + 1] = { arg = a, dst = dst }
			end
			seen[dst] = true
		elseif i == script and o.bind_args and a:sub(1, 1) ~= "/" and (o.cwd or "/work") == "/work"
			and not (c.work_host and core.lstat(c.work_host .. "/" .. rel)) then
			missing = a
		end
	end
	return bound, missing
end

-- The command's argv (argv[0] as typed when it means the same file
-- inside), its environment, and the bytes execve copies onto the new
-- stack for them.
local function command(o, host_path, path)
	local env = { PATH = o.standins and BOX_PATH .. ":" .. standin.box.dir or BOX_PATH, HOME = M.user.home,
		USER = M.user.name, LOGNAME = M.user.name, LANG = "C.UTF-8" }
	for k, v in pairs(o.env or {}) do env[k] = v end
	local argv0 = o.prog
	if o.prog:find("/", 1, true) and not (o.prog:sub(1, 1) == "/" and under(host_path, "/usr")) then
		argv0 = path
	end
	local argv = { argv0 }
	-- a file run by its content: its interpreter, then its path
	if o.run_as then
		argv = {}
		for i, a in ipairs(o.run_as) do argv[i] = a end
		argv[#argv + 1] = path
	end
	for _, a in ipairs(o.args or {}) do argv[#argv + 1] = a end
	-- the strings and their pointers
	local arg_bytes = 8
	for _, a in ipairs(argv) do arg_bytes = arg_bytes + #a + 9 end
	for k, v in pairs(env) do arg_bytes = arg_bytes + #k + #v + 10 end
	return argv, env, arg_bytes
end

-- What the build starts from: the resolved limits, the program on the
-- host, the caller and the box's host id, the filter, the host /work.
-- @return a table; or nil, reason and the option it concerns (nil: the
-- program)
local function inputs(o)
	local c, err = {}
	c.lim, err = limits.resolve(o.limits or {})
	if not c.lim then return nil, err end
	c.host_path, err = M.find_program(o.prog)
	-- a sample that is not executable is run by its content when asked
	-- (the analysis box): its interpreter is the program
	if not c.host_path and err == "not executable" and o.by_content then
		local real = M.host_path(o.prog)
		local run_as, why = M.by_content(real)
		if not run_as then return nil, why end
		o.run_as, c.host_path = run_as, real
	end
	if not c.host_path then return nil, err end
	local opt
	c.euid, c.host_id, opt = host_identity(o)
	if not c.euid then return nil, c.host_id, opt end
	c.filter, c.profile_name = seccomp_filter(o)
	if c.filter == nil then return nil, c.profile_name end
	c.work_host, err, opt = check_rw(o, c.host_id)
	if c.work_host == nil then return nil, err, opt end
	c.net_host = o.net == "host"
	c.host_root = (c.host_id or c.euid) == 0
	c.landlock_abi = core.landlock_abi()
	c.use_landlock = o.landlock ~= false and c.landlock_abi > 0
	return c
end

-- The tree's own nodes: each file it placed (box path -> its sha256, the
-- tree's while unchanged) and each node it mounts over (-> true: under
-- the mount, the program could not touch it).  The capture spec's
-- `placed` (neither kept nor typed while the tree's) and the claims'
-- `mount_points` (sbx.written leaves them out).
local function placed_and_mounted(t)
	local set = {}
	for dst, sum in pairs(t.placed or {}) do set[dst] = sum end
	for _, dst in ipairs(M.mount_points(t)) do set[dst] = true end
	return set
end

-- The box's own writable places nothing is placed or mounted under: every
-- name under one, in any run, is one the program made (sbx.learn).
local function fresh_roots(t)
	local list = {}
	for _, root in ipairs(t.scratch or {}) do
		local taken = false
		for dst in pairs(placed_and_mounted(t)) do
			if dst ~= root and under(dst, root) then taken = true end
		end
		for _, d in ipairs(t.decoys or {}) do
			if under(d.path, root) then taken = true end
		end
		if not taken then list[#list + 1] = root end
	end
	table.sort(list)
	return list
end

-- The capture spec's `placed`: the tree's own nodes, and the decoys as
-- placed (recorded all the same, marked by sbx.written; typed and kept
-- only once the program changed one).
local function capture_placed(t)
	local set = placed_and_mounted(t)
	for _, d in ipairs(t.decoys or {}) do set[d.path] = set[d.path] or d.sha256 end
	return set
end

--- The files a sample is judged on, whose opens the supervisor keeps
-- whole in a budget of their own (`notify.keep`: never summarised with a
-- flood of other names; core/super/notify.h): the password and sudo
-- files, root's home, the credentials of the box user's home (`~`), and
-- every decoy the box places.
M.KEEP_OPENS = { "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/security/opasswd",
	"/root", "~/.ssh", "~/.aws", "~/.gnupg", "~/.netrc", "~/.git-credentials", "~/.pgpass", "~/.docker",
	"~/.kube", "~/.bash_history", "~/.config/google-chrome", "~/.mozilla", "~/.password-store" }

-- The spec for sbx.core.box, from the inputs c and the tree t.
-- The explain channel's table: the profile's (`o.notify`), with the
-- analysis box's sleep threshold (`o.sleep_skip`, seconds) in ns and the
-- opens kept whole (`M.KEEP_OPENS`, the decoys of tree t).
local function notify_table(o, tree)
	if not o.notify then return nil end
	local t = {}
	for k, v in pairs(o.notify) do t[k] = v end
	if o.sleep_skip then t.sleep_skip = math.floor(o.sleep_skip * 1e9) end
	local keep = {}
	for _, p in ipairs(o.notify.keep or {}) do keep[#keep + 1] = p end
	for _, p in ipairs(M.KEEP_OPENS) do keep[#keep + 1] = (p:gsub("^~", M.user.home)) end
	for _, d in ipairs(tree.decoys or {}) do keep[#keep + 1] = d.path end
	t.keep = keep
	return t
end

--- The box's uptime at its start for one run: a whole number of seconds
-- drawn from `M.host.uptime`'s range, or nil (the host's clocks).
-- @treturn integer|nil
function M.uptime()
	local r = M.host.uptime
	if not r then return nil end
	return math.random(r[1], r[2])
end

-- The written places, recorded after the program ends (sbx.written);
-- copied out with --keep.  Nil: no capture.
local function capture_spec(o, t)
	if o.capture == false then return nil end
	return {
		places = t.places, keep = o.keep,
		markers = t.decoys and written.markers(t.decoys) or nil,
		entries = written.bounds.entries, depth = written.bounds.depth,
		read_bytes = written.bounds.read_bytes, keep_bytes = written.bounds.keep_bytes,
		keep_total = written.bounds.keep_total,
		-- the nodes the tree mounts over (the program's own file among
		-- them) are not the program's: never kept nor typed; nor the
		-- home's dot files the tree placed (one the program changed is
		-- recorded, typed and kept as the program's)
		placed = capture_placed(t),
	}
end

local function box_spec(o, c, t)
	local lim = c.lim
	local argv, env, arg_bytes = command(o, c.host_path, c.path)
	local namespaces = { "user", "mount", "pid", "ipc", "uts", "cgroup" }
	if not c.net_host then table.insert(namespaces, 5, "net") end
	return {
		namespaces = namespaces,
		uid = M.user.uid, gid = M.user.gid,
		host_uid = c.host_id, host_gid = c.host_id,
		hostname = M.host.hostname,
		uptime = M.uptime(),
		init = M.host.init or nil,
		root = { size = 1 * MiB, nr_inodes = 1024 },
		read_only_root = true,
		mounts = t.mounts,
		argv = argv, path = o.run_as and o.run_as[1] or c.path,
		env = env,
		cwd = o.cwd or "/work",
		rlimits = limits.rlimits(lim, { host_root = c.host_root,
			caller_hard = M.caller_hard(), arg_bytes = arg_bytes }),
		sysctl = limits.sysctl(lim),
		filter = c.filter or nil,
		landlock = c.use_landlock and { rules = t.ll, net = false } or nil,
		stdin = o.stdin,
		pty = o.pty or nil,
		tty_raw = o.tty_raw or nil,
		stdout = o.stdout or (o.stdout_taken and "stderr") or "pass", stderr = o.stderr or "pass",
		-- what a page or a decoy's marker needs of output passed on
		keep_output = (o.html or o.decoys) and limits.OUTPUT_SHOWN or nil,
		output_limit = lim.output,
		wall = lim.wall,
		memory_limit = lim.memory,
		memory_backstop = limits.memory_backstop(lim),
		task_limit = lim.tasks,
		cpu_limit = lim.cpu,
		-- the whole box's memory and tasks: the core makes a cgroup v2
		-- where a base is usable (exact), else samples them (the
		-- result's `enforcement` says which); rlimits per process beside
		cgroup = o.cgroup ~= false and (o.cgroup or true),
		probe = true,
		-- the analysis box follows the program to its last process
		follow = o.follow or nil,
		capture = capture_spec(o, t),
		sink = o.net == "sink" and sink.spec { ports = o.sink_ports, nxdomain = o.sink_nxdomain } or nil,
		-- the explain channel (docs/seccomp.md): what a refusal does,
		-- the operator's rule, the supervisor's table
		mode = o.mode,
		rule = o.rule,
		notify = notify_table(o, t),
	}
end

-- The sha256 of each filter's program, by filter (a compiled filter is
-- immutable: a batch's boxes share one and hash it once).
local program_sums = setmetatable({}, { __mode = "k" })
local function program_sum(filter)
	local sum = program_sums[filter]
	if sum == nil then
		sum = core.sha256(filter:export())
		program_sums[filter] = sum
	end
	return sum
end

-- The claims the report may make of the box, and what sbx.setid needs
-- after the run.
local function claims(o, c, spec, t)
	return {
		namespaces = spec.namespaces,
		network = c.net_host and "host" or o.net == "sink" and "sink" or "none",
		host_root = c.host_root,
		seccomp = c.filter and true or false,
		profile = c.filter and c.profile_name or "none",
		-- the program the kernel gets, not only the profile's name: two
		-- versions of one profile are two environments
		seccomp_program = c.filter and program_sum(c.filter) or nil,
		mode = o.mode,
		notify = o.notify,
		landlock = c.use_landlock,
		landlock_abi = c.use_landlock and c.landlock_abi or 0,
		limits = c.lim,
		env = spec.env,
		ro_roots = t.ro_roots,
		program = c.path,
		-- a file that is not executable, run by its content: the
		-- interpreter and its arguments put before it
		run_as = o.run_as,
		-- the files of the command line bound at /work (`o.bind_args`),
		-- and the script operand the box lacks (`M.script_operand`)
		arg_binds = #c.arg_binds > 0 and c.arg_binds or nil,
		script_missing = c.script_missing,
		-- a refusal the program did not get past is said (sbx.verdict
		-- refusal_end): the analysis box's question, not the jail's
		refusal_end = o.refusal_end or nil,
		-- after the run: the writable host directories and the host id
		-- whose files the box could have made set-id (sbx.setid)
		rw = o.rw or {},
		host_uid = c.host_id or c.euid,
		-- the decoys placed (sbx.written), with their markers
		decoys = t.decoys,
		-- where the tree mounts something: in a written place, the node
		-- under the mount is the tree's, not the program's (sbx.written)
		-- and the files it placed there (path -> their sha256): the
		-- tree's too while unchanged
		mount_points = placed_and_mounted(t),
		-- the box's own writable places that start empty (sbx.learn)
		fresh = fresh_roots(t),
	}
end

--- The notes of the files the command line named that the box binds
-- (`note: bound from the command line: sample.py at /work/sample.py
-- (read-only)`) and of the script it lacks (`note: not in the box:
-- sample.py, the script python3 opens`).
-- @tparam table info the claims of `M.build`
-- @treturn table events
function M.arg_notes(info)
	if type(info) ~= "table" then
		error(("bad argument #1 to 'arg_notes' (table expected, got %s)"):format(type(info)), 2)
	end
	local out = {}
	for _, b in ipairs(info.arg_binds or {}) do
		out[#out + 1] = { kind = "note", cause = "argument", path = b.dst, arg = b.arg,
			text = ("note: bound from the command line: %s at %s (read-only)"):format(b.arg, b.dst) }
	end
	if info.script_missing then
		out[#out + 1] = { kind = "note", cause = "script_missing", arg = info.script_missing,
			text = ("note: not in the box: %s, the script the interpreter opens"):format(info.script_missing) }
	end
	return out
end

--- Builds the standard box.
-- The program's argv[0] is the name as typed when it means the same file
-- inside (a bare name, found in the same PATH; an absolute path under
-- /usr, the same in the box), else the path the box sees (`./sus` bound at
-- `/work/sus` is `/work/sus`): never a host path the box cannot resolve.
-- The seccomp filter is `o.filter`, or the profile `o.profile` (default
-- "default") loaded and compiled here; `filter = false` means none.
-- A root caller's `--rw` directory must be writable by the box's host id
-- (`M.writable_by`), else the build is refused with the fix.
-- @tparam table o options: `prog` (as typed), `args`, `ro`/`rw` lists of
--  `{src=, dst=}`, `tmp` list of `{dst=, size=}`, `env` (map), `cwd`,
--  `socket` list of `{src=, dst=}` (unix sockets the box may connect to;
--  every other socket in `ro`/`rw` is covered, see `M.socket_hides`),
--  `limits` (names of `sbx.limits`, parsed there), `net` ("none"|"host"|"sink": an empty namespace whose every IPv4 address
--  is a listener of the supervisor, `sbx.sink`; `sink_ports`, `sink_nxdomain`),
--  `stdin` (a string, or an `sbx.file` opened before), `cgroup` (a cgroup v2 base, or false for none),
--  `filter` (a compiled filter, false for none, default: the profile),
--  `profile` (its name, default "default"), `pty`
--  (stdio on a pseudo-terminal of the box's own, relaying the caller's),
--  `landlock` (default true), `host_id` (a root caller's box's host id,
--  default `M.root_host_id`, checked by `M.check_host_id`), `capture`
--  (false: the written places are not recorded), `keep` (a directory the
--  written files are copied into, made 0700), `decoys` (place decoy
--  credentials, `sbx.written.decoys`), `standins` (the tools the host
--  lacks played in a read-only directory last on the PATH, `sbx.standin`)
-- @return spec, info; or nil, msg and the option it concerns (nil: the program)
function M.build(o)
	local c, err, opt = inputs(o)
	if not c then return nil, err, opt end
	local t = { mounts = {}, ll = {}, ro_roots = {} }
	system_tree(t, o.net, o)
	kernel_tree(t)
	sys_tree(t, c.net_host)
	scratch_tree(t, c.lim, c.work_host)
	if o.standins then
		local sok, swhy = standin_tree(t)
		if not sok then return nil, swhy end
	end
	local ok, why, wopt = operator_tree(t, o, c.lim, c.host_id or c.euid)
	if not ok then return nil, why, wopt end
	if o.capture ~= false then
		local perr
		t.places, perr = written.places(o, M.user.home ~= "/work" and M.user.home or nil)
		if not t.places then return nil, perr, "--tmp" end
	end
	if o.decoys then
		t.decoys = written.decoys(c.work_host, core.sha256, M.user)
		for _, m in ipairs(written.decoy_mounts(t.decoys)) do add(t, m) end
	end
	c.path = place_program(t, c.host_path, c.work_host)
	c.arg_binds, c.script_missing = bind_args(t, o, c)
	local spec = box_spec(o, c, t)
	return spec, claims(o, c, spec, t)
end

return M
