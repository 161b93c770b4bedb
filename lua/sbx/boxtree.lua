-- SPDX-License-Identifier: MIT
--- The standard box's tree: the machine it shows (`M.user`, `M.host`),
-- the synthetic /etc, /proc, /dev and /sys, the box's own writable places,
-- the operator's binds, the stand-ins, the program and the files named on
-- its command line, as mounts, Landlock rules and read-only roots.  Its
-- public names are also `sbx.stdbox`'s.
-- @module sbx.boxtree
local core = require "sbx.core"
local hostpath = require "sbx.hostpath"
local sink = require "sbx.sink"
local standin = require "sbx.standin"
local written = require "sbx.written"

local M = {}

local MiB = 1 << 20

--- Sizes of the tree (the limits proper are `sbx.limits.defaults`).
M.tree = {
	work = 64 * MiB, -- /work, when it is the box's own tmpfs
	inodes = 16384, -- per tmpfs
	shm = 16 * MiB, -- /dev/shm
}

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

local function dev_rights() return { "read_file", "write_file", "read_dir" } end

-- The tree under construction: mounts, Landlock rules, read-only roots.
function M.add(t, mount, rule, ro_root)
	if mount then t.mounts[#t.mounts + 1] = mount end
	if rule then t.ll[#t.ll + 1] = rule end
	if ro_root then t.ro_roots[#t.ro_roots + 1] = ro_root end
end

-- The links of the synthetic /etc into /usr.
local ETC_LINKS = { ["/etc/os-release"] = "../usr/lib/os-release",
	["/etc/localtime"] = "/usr/share/zoneinfo/Etc/UTC" }

-- 16 random bytes as 32 hex digits, from the kernel
local function machine_id()
	return (written.random_bytes(16):gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

-- /usr, the host's top-level links or directories into it, and the
-- synthetic /etc, in a fixed order: binds, then links, then files, each
-- by destination.
function M.system_tree(t, net, o)
	local covered = {}
	for _, l in ipairs { o.ro or {}, o.rw or {}, o.tmp or {}, o.socket or {} } do
		for _, b in ipairs(l) do covered[b.dst or ""] = true end
	end
	M.add(t, { type = "bind", src = "/usr" }, { path = "/", access = { "read_dir" } }, "/usr")
	M.add(t, nil, { path = "/usr", access = "ro" })
	for _, l in ipairs { "bin", "sbin", "lib", "lib32", "lib64", "libx32" } do
		local st = core.lstat("/" .. l)
		if st and st.type == "link" then
			M.add(t, { type = "symlink", target = st.link, dst = "/" .. l })
		elseif st and st.type == "dir" then
			M.add(t, { type = "bind", src = "/" .. l }, { path = "/" .. l, access = "ro" }, "/" .. l)
		end
	end
	for name, data in pairs(M.etc_files(M.user, net)) do
		M.add(t, { type = "file", dst = "/etc/" .. name, data = data, mode = 420 })
	end
	-- a machine of its own: an id per run, as every installed system has
	M.add(t, { type = "file", dst = "/etc/machine-id", data = machine_id() .. "\n", mode = 292 })
	-- the system's own release (`platform`, `lsb_release`, os.release()
	-- read it) and time zone, as Debian links them
	-- (not where an operator's bind or tmpfs goes: a mount cannot land on
	-- a link)
	for dst, target in pairs(ETC_LINKS) do
		if not covered[dst] then M.add(t, { type = "symlink", target = target, dst = dst }) end
	end
	local rank = { bind = 1, symlink = 2, file = 3 }
	table.sort(t.mounts, function(a, b)
		if a.type ~= b.type then return rank[a.type] < rank[b.type] end
		return (a.dst or a.src) < (b.dst or b.src)
	end)
	M.add(t, { type = "bind", src = "/etc/ld.so.cache", optional = true }, { path = "/etc", access = "ro" })
	-- the links /usr's commands go through (awk, cc, editor, ...): without
	-- them /usr/bin/awk and /usr/bin/cc are dangling links in the box
	M.add(t, { type = "bind", src = "/etc/alternatives", optional = true })
end

-- /proc with its read-only and hidden entries, and /dev with the rights
-- its devices and terminals need.
function M.kernel_tree(t)
	M.add(t, { type = "proc", dst = "/proc" })
	for _, p in ipairs(M.proc_readonly) do M.add(t, { type = "remount", dst = p, optional = true }) end
	for _, p in ipairs(M.proc_hidden) do M.add(t, { type = "hide", dst = p, optional = true }) end
	M.add(t, nil, { path = "/proc", access = "ro" })
	M.add(t, { type = "dev", dst = "/dev", shm_size = M.tree.shm, shm_inodes = 1024 },
		{ path = "/dev", access = dev_rights() })
	M.add(t, nil, { path = "/dev/shm", access = "rw" })
	-- the box's own mqueue instance (the core mounts it with its IPC
	-- namespace): mq_open's queues are files there
	M.add(t, nil, { path = "/dev/mqueue", access = "rw", optional = true })
	-- the box's own devpts instance: its ptys need their ioctls (a pty's
	-- number, unlocking, termios), and reach only the box's own terminals
	M.add(t, nil, { path = "/dev/pts", access = { "read_file", "write_file", "read_dir", "ioctl_dev" } })
	-- the box's terminal, by name (/dev/tty: the controlling terminal,
	-- /dev/console: its node): the ioctls a terminal needs (termios,
	-- size), on the terminal the box already holds as its stdio
	M.add(t, nil, { path = "/dev/tty", access = { "read_file", "write_file", "ioctl_dev" } })
	M.add(t, nil, { path = "/dev/console", access = { "read_file", "write_file", "ioctl_dev" }, optional = true })
end

-- The host's /sys directories of `M.host.sys` that exist here, each
-- bound read-only (a sysfs file's mode cannot open it for writing through
-- a read-only mount, whatever the box's ids), and what the box reads there.
-- With a network namespace of the box's own, its network devices (lo:
-- /sys/class/net/lo and what it links to) from a sysfs of its own
-- (the core's `sysnet`), never the host's.
function M.sys_tree(t, net_host)
	for _, dir in ipairs(M.host.sys) do
		local st = core.lstat(dir)
		if st and st.type == "dir" then
			M.add(t, { type = "bind", src = dir, optional = true }, { path = dir, access = "ro" })
		end
	end
	if not net_host then
		M.add(t, { type = "sysnet", dst = "/sys" }, { path = "/sys/class/net", access = "ro" })
		M.add(t, nil, { path = "/sys/devices/virtual/net", access = "ro" })
	end
end

-- The box user's home: a tmpfs of its own with the usual dot files, each
-- written as the tree's (left out of the written files while unchanged).
local function home_tree(t)
	local home = M.user.home
	M.add(t, { type = "tmpfs", dst = home, size = M.host.home.size, nr_inodes = 1024,
		mode = tonumber("755", 8) }, { path = home, access = "rw" })
	local names = {}
	for name in pairs(M.host.home.files) do names[#names + 1] = name end
	table.sort(names)
	t.placed = t.placed or {}
	for _, name in ipairs(names) do
		local data = M.host.home.files[name]
		local path = home .. "/" .. name
		M.add(t, { type = "file", dst = path, data = data,
			mode = name:find("history$") and tonumber("600", 8) or tonumber("644", 8) })
		t.placed[path] = core.sha256(data)
	end
end

-- /tmp, the home, and /work when no host directory is bound there.
function M.scratch_tree(t, lim, work_host)
	M.add(t, { type = "tmpfs", dst = "/tmp", size = lim.tmp, nr_inodes = M.tree.inodes,
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
		M.add(t, { type = "tmpfs", dst = "/work", size = M.tree.work, nr_inodes = M.tree.inodes,
			mode = tonumber("755", 8) }, { path = "/work", access = "rw" })
	end
end

-- The operator's binds and tmpfs mounts.  Every unix socket of a bind is
-- covered right after that bind (a later bind over it is scanned on its
-- own); a socket the operator grants (--socket) is bound after them all,
-- over any cover.
-- @return true, or nil, reason, the option
function M.operator_tree(t, o, lim, id)
	local granted = {}
	for _, g in ipairs(o.socket or {}) do granted[g.dst] = true end
	local function bind(b, opt, rw)
		M.add(t, { type = "bind", src = b.src, dst = b.dst, rw = rw or nil })
		local hides, why = hostpath.socket_hides(b, id)
		if not hides then return nil, ("%s %s: %s"):format(opt, b.src, why), opt end
		for _, h in ipairs(hides) do
			if not granted[h] then M.add(t, { type = "hide", dst = h }) end
		end
		return true
	end
	for _, b in ipairs(o.rw or {}) do
		local ok, why, opt = bind(b, "--rw", true)
		if not ok then return nil, why, opt end
		M.add(t, nil, { path = b.dst, access = "rw" })
	end
	for _, b in ipairs(o.ro or {}) do
		local ok, why, opt = bind(b, "--ro")
		if not ok then return nil, why, opt end
		M.add(t, nil, { path = b.dst, access = "ro" }, b.dst)
	end
	for _, g in ipairs(o.socket or {}) do
		-- connect() needs no Landlock right (ABI 7 covers abstract
		-- sockets only) and no writable mount: a read-only bind serves
		M.add(t, { type = "bind", src = g.src, dst = g.dst })
	end
	for _, tm in ipairs(o.tmp or {}) do
		M.add(t, { type = "tmpfs", dst = tm.dst, size = tm.size or lim.tmp, nr_inodes = M.tree.inodes,
			mode = tonumber("1777", 8) }, { path = tm.dst, access = "rw" })
	end
	return true
end

-- The box's PATH (the stand-ins' directory goes after it).
M.BOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

-- The stand-ins of the tools absent from the box's PATH (sbx.standin):
-- their program and a link per name, files of the read-only root.
-- @return true, or nil, reason
function M.standin_tree(t)
	local mounts, rule, top = standin.tree(M.BOX_PATH)
	if not mounts then
		return nil, ("stand-ins: %s (make builds them; sbx.stdbox.ANALYSIS.standins = false goes without)")
			:format(rule)
	end
	for i, m in ipairs(mounts) do M.add(t, m, i == 1 and rule or nil, i == 1 and top or nil) end
	return true
end

-- The program's path in the box: visible through /usr, inside the --rw
-- /work, or bound read-only under /work (or /prog when /work is a host
-- directory).
function M.place_program(t, host_path, work_host)
	if hostpath.under(host_path, "/usr") then return host_path end
	if work_host and hostpath.under(host_path, work_host) then
		return "/work" .. host_path:sub(#work_host + 1)
	end
	local path = (work_host and "/prog/" or "/work/") .. hostpath.basename(host_path)
	M.add(t, { type = "bind", src = host_path, dst = path }, { path = path, access = "ro" }, path)
	return path
end

-- A file named on the command line, relative to the caller's current
-- directory, as the analysis box binds it (`o.bind_args`) at the path the
-- program looks for inside, its working directory /work: read-only, the
-- file the core opens with no link followed (`hostpath.host_path` refuses one
-- the box could have planted).  Not bound: an option, an absolute path,
-- a name with `..`, what is no regular file on the host, a file inside a
-- `--rw` directory (the box could write it: it sees it there), or any
-- when /work is a host directory.  Returns the binds made ({ arg, dst })
-- and the script operand the box will lack, if any (`script_missing`:
-- in the analysis box only, relative, and not in a host /work either).
function M.bind_args(t, o, c)
	local bound, missing, seen = {}, nil, {}
	local script = hostpath.script_operand(c.run_as and c.run_as[1] or o.prog, o.args or {})
	for i, a in ipairs(o.args or {}) do
		local rel = a:gsub("^%./+", "")
		local st, real = nil, nil
		if a:sub(1, 1) ~= "/" and a:sub(1, 1) ~= "-" and rel ~= "" and not ("/" .. rel .. "/"):find("/%.%.?/")
			and not rel:find("[%c]") then
			real = hostpath.host_path(rel)
			st = real and core.lstat(real)
		end
		local dst = "/work/" .. rel:gsub("/+$", "")
		local inside_rw = false
		for _, b in ipairs(o.rw or {}) do
			if real and hostpath.under(real, core.realpath(b.src) or b.src) then inside_rw = true end
		end
		if st and st.type == "file" and o.bind_args and not c.work_host and not inside_rw
			and dst ~= c.path and (o.cwd or "/work") == "/work" then
			if not seen[dst] then
				M.add(t, { type = "bind", src = real, dst = dst }, { path = dst, access = "ro" }, dst)
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

-- The tree's own nodes: each file it placed (box path -> its sha256, the
-- tree's while unchanged) and each node it mounts over (-> true: under
-- the mount, the program could not touch it).  The capture spec's
-- `placed` (neither kept nor typed while the tree's) and the claims'
-- `mount_points` (sbx.written leaves them out).
function M.placed_and_mounted(t)
	local set = {}
	for dst, sum in pairs(t.placed or {}) do set[dst] = sum end
	for _, dst in ipairs(M.mount_points(t)) do set[dst] = true end
	return set
end

-- The box's own writable places nothing is placed or mounted under: every
-- name under one, in any run, is one the program made (sbx.learn).  own:
-- `M.placed_and_mounted(t)` when the caller has it.
function M.fresh_roots(t, own)
	local roots, taken, list = {}, {}, {}
	for _, root in ipairs(t.scratch or {}) do roots[root] = true end
	-- takes each root that is a directory above p
	local function above(p)
		local dir = p:match("^(.+)/[^/]*$")
		while dir do
			if roots[dir] then taken[dir] = true end
			dir = dir:match("^(.+)/[^/]*$")
		end
	end
	for dst in pairs(own or M.placed_and_mounted(t)) do above(dst) end
	for _, d in ipairs(t.decoys or {}) do
		if roots[d.path] then taken[d.path] = true end
		above(d.path)
	end
	for _, root in ipairs(t.scratch or {}) do
		if not taken[root] then list[#list + 1] = root end
	end
	table.sort(list)
	return list
end

-- The capture spec's `placed`: the tree's own nodes, and the decoys as
-- placed (recorded all the same, marked by sbx.written; typed and kept
-- only once the program changed one).
function M.capture_placed(t)
	local set = M.placed_and_mounted(t)
	for _, d in ipairs(t.decoys or {}) do set[d.path] = set[d.path] or d.sha256 end
	return set
end

--- The tree of the standard box for the options o and the build's inputs
-- c (`sbx.stdbox.build`: the resolved limits `lim`, the program's
-- `host_path`, `work_host`, `net_host`, the box's host id); sets c's
-- `path` (the program in the box), `arg_binds` and `script_missing`.
-- @return the tree (`mounts`, `ll`, `ro_roots`, `scratch`, `placed`,
--  `places`, `decoys`); or nil, reason and the option it concerns
function M.make(o, c)
	local t = { mounts = {}, ll = {}, ro_roots = {} }
	M.system_tree(t, o.net, o)
	M.kernel_tree(t)
	M.sys_tree(t, c.net_host)
	M.scratch_tree(t, c.lim, c.work_host)
	if o.standins then
		local sok, swhy = M.standin_tree(t)
		if not sok then return nil, swhy end
	end
	local ok, why, wopt = M.operator_tree(t, o, c.lim, c.host_id or c.euid)
	if not ok then return nil, why, wopt end
	if o.capture ~= false then
		local perr
		t.places, perr = written.places(o, M.user.home ~= "/work" and M.user.home or nil)
		if not t.places then return nil, perr, "--tmp" end
	end
	if o.decoys then
		t.decoys = written.decoys(c.work_host, core.sha256, M.user)
		for _, m in ipairs(written.decoy_mounts(t.decoys)) do M.add(t, m) end
	end
	c.path = M.place_program(t, c.host_path, c.work_host)
	c.arg_binds, c.script_missing = M.bind_args(t, o, c)
	return t
end

return M
