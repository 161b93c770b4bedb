-- SPDX-License-Identifier: MIT
-- check.lua: what this host offers a box, and how each limit will be
-- enforced here.  Builds a real box (so a host that lets a user namespace
-- be created but refuses the first mount, as AppArmor may, is caught), then
-- reports Landlock, seccomp and the cgroup v2 base.
--   sbxlua check.lua [--cgroup DIR]
-- Exit 0 when the standard box can run here, 1 when it cannot, 126 on a
-- usage error (as every script).
local sbx = require "sbx"
local cli = require "sbx.cli"
local options = require "sbx.options"
local pipeline = require "sbx.pipeline"
local limits = require "sbx.limits"
local profile = require "sbx.profile"
local report = require "sbx.report"

local CLI = {
	name = "check.lua",
	description = "Says what this host offers a box, and how each limit is enforced here.",
	epilog = "Exit status: 0 when the standard box can run here, 1 when it cannot, 126 on a usage error (as every script).",
	options = options.of("check"),
}
-- the cgroup v2 base to check: --cgroup, else the environment's, else found
local base = options.parse(CLI, arg).cgroup or nil

-- paths and the host's messages escaped: one line each
local function say(fmt, ...) print("check: " .. report.escape(fmt:format(...))) end
local ok = true

-- A box of the standard box's options o, its output captured, through the
-- pipeline every run takes: the result, the build's info, the events and
-- the verified claims; or nil, the error (sbx.pipeline).
local function box(o)
	o.cgroup, o.stdout, o.stderr = base, "capture", "capture"
	local r, info = pipeline.run(o)
	if not r then return nil, info end
	return r, info, pipeline.collect(r, info)
end

-- 1. the whole set-up, for real: namespaces, mounts, walls
local filter = profile.compile(assert(profile.load("default")))
local r, info, ev, v = box { prog = "/bin/true", filter = filter or nil }
if not r and info.program then
	say("standard box: cannot build the spec: %s", info.msg)
	os.exit(1)
elseif not r then
	say("standard box: %s", cli.error_text(info))
	info, ok = {}, false
else
	if ev[1].kind == "exit" and ev[1].code == 0 then
		local unverified = {}
		for _, k in ipairs { "private_root", "read_only_root", "no_new_privs", "capabilities_dropped",
			"seccomp" } do
			if not v[k] then unverified[#unverified + 1] = k end
		end
		for n, yes in pairs(v.namespaces) do
			if not yes then unverified[#unverified + 1] = "namespace " .. n end
		end
		table.sort(unverified)
		if #unverified == 0 then
			say("standard box: works, every claim verified from inside")
		else
			say("standard box: runs, but not verified: %s", table.concat(unverified, ", "))
			ok = false
		end
	else
		print("check: standard box: " .. report.line(ev[1])) -- escaped already
		ok = false
	end
end

-- 2. the walls
local abi = sbx.landlock_abi()
say("landlock: %s", abi > 0 and ("ABI " .. abi) or "not offered by this kernel (boxes run without it)")
say("seccomp: %s", filter and "filters load (the default profile compiled and ran)" or "no filter")
say("host root: %s", info.host_root and "yes: the box runs as kernel uid 0" or "no")

-- the explain channel, for real: a box whose filter notifies (its execve
-- always is), the listener taken with pidfd_getfd, the call answered
local nfilter, nerr = profile.compile { default = "allow", rules = { { call = "getppid", action = "notify" } } }
local nr = nfilter and box { prog = "/bin/true", filter = nfilter, mode = "log" }
if not nfilter then
	say("seccomp user notification: absent: the filter does not compile (%s)", nerr)
	say("pidfd_getfd: untested (no notifying filter)")
elseif not nr or nr.outcome == "cannot" then
	local c = nr and nr.cannot or {}
	say("seccomp user notification: absent: a notifying filter does not load (%s)",
		c.errname or "the box did not run")
	say("pidfd_getfd: untested (no listener)")
elseif nr.notify_error then
	say("seccomp user notification: untested: the listener could not be taken")
	say("pidfd_getfd: refused (%s): the supervisor needs ptrace access to the box's command", nr.notify_error)
elseif nr.outcome == "exit" and (nr.notified or 0) >= 1 then
	say("seccomp user notification: works (%s)", nr.notify_sync and "with the synchronous wake-up flag"
		or "without the synchronous wake-up flag: this kernel lacks SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP")
	say("pidfd_getfd: works (the supervisor takes the box's listener)")
else
	say("seccomp user notification: fails: the box ended with %s", nr.outcome)
	say("pidfd_getfd: untested")
end

-- the two-stage user namespace probe: the box made its own (stage one,
-- the standard box above); can the program make another inside it?  Once
-- with no filter (what the kernel and the host allow), once with the
-- default profile (which refuses it, by name)
local function host_knob(path)
	local f = io.open(path)
	if not f then return "not in this kernel" end
	local val = f:read("l")
	f:close()
	return val or "unreadable"
end
say("user namespaces (host): max_user_namespaces %s; unprivileged_userns_clone: %s; "
	.. "AppArmor restrict_unprivileged_userns: %s",
	host_knob("/proc/sys/user/max_user_namespaces"),
	host_knob("/proc/sys/kernel/unprivileged_userns_clone"),
	host_knob("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"))
local function nested(f, mode)
	return r and box { prog = "/usr/bin/unshare", args = { "-U", "true" }, filter = f, mode = mode } or nil
end
local bare = nested(false)
local named = nested(profile.filter("default", { name_refusals = true }) or nil, "deny")
local refusal
for _, e in ipairs(named and named.events or {}) do
	if e.kind == "clone" and e.namespaces and e.answer == "deny" then
		refusal = ("%s with namespace flags, %s"):format(e.syscall, e.errno)
	end
end
local default_words = refusal and ("refused by the default profile (%s)"):format(refusal)
	or "not refused by the default profile (unexpected)"
if not r or r.outcome == "cannot" then
	say("nested user namespaces: untested: the box does not make its own (stage one)")
elseif not bare or bare.outcome ~= "exit" then
	say("nested user namespaces: untested: the probe did not run (%s)", bare and bare.outcome or "no box")
elseif bare.code == 0 then
	say("nested user namespaces: possible without a filter (the program can make one inside the box's); %s",
		default_words)
else
	local why = (bare.stderr or ""):match("unshare failed: ([^\n]+)") or ("exit " .. bare.code)
	say("nested user namespaces: absent: the box's user namespace refuses another (%s); %s", why,
		default_words)
end

-- 3. limits
local cg = sbx.cgroup_probe(base)
if cg and cg.usable then
	local ctl = {}
	for k, yes in pairs(cg.controllers or {}) do if yes then ctl[#ctl + 1] = k end end
	table.sort(ctl)
	say("cgroup v2: a box cgroup per run under %s (controllers: %s)%s", cg.base,
		#ctl > 0 and table.concat(ctl, " ") or "none",
		cg.note and ("; " .. cg.note) or "")
else
	say("cgroup v2: no usable base: %s", cg and cg.reason or "no cgroup v2 hierarchy")
end
-- as the core enforced them in the run above (none without a run)
local how = r and limits.enforcement(r) or {}
if r then
	local uncounted = { memory = report.uncounted { net_host = info.network == "host" } }
	for _, l in ipairs(report.limit_lines(info.limits, how, uncounted)) do say("%s", l) end
end
if how.memory == "sampled" then
	say("memory: sampled, not exact: %s; for an exact limit, give sbxlua a delegated cgroup v2 base "
		.. "with the memory controller (--cgroup DIR, see docs/limits.md)",
		report.uncounted { net_host = info.network == "host" })
end
os.exit(ok and 0 or 1)
