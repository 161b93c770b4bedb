-- SPDX-License-Identifier: MIT
--- The verification of the box's claims against the kernel's view from
-- inside, the isolation record and the environment digest.
-- @module sbx.verify
local core = require "sbx.core"
local json = require "sbx.json"
local limits = require "sbx.limits"
local txt = require "sbx.text"
local words = require "sbx.words"

local M = {}

local proc_name = { mount = "mnt" }

--- Verifies the claims against the probe: the command's mounts and
-- namespaces read inside just before the filter, its status read from
-- outside after its execve (docs/standard-box.md).  Every entry is true
-- only when the kernel's view confirms it; false when it contradicts it or
-- could not be read.
-- @tparam table r the core result (with r.probe)
-- @tparam table info the claims
-- @tparam table host the host's namespace ids (sbx.core.ns_ids())
function M.verify(r, info, host)
	local v = { namespaces = {} }
	local p = r.probe
	local status, mountinfo, ns = p and p.status or "", p and p.mountinfo or "", {}
	for name, id in (p and p.ns or ""):gmatch("(%w+):(%S+)") do ns[name] = name .. ":" .. id end
	for _, n in ipairs(core.namespaces()) do
		local id = ns[proc_name[n] or n]
		v.namespaces[n] = id ~= nil and host[n] ~= nil and id ~= host[n]
	end
	v.no_new_privs = status:match("\nNoNewPrivs:%s*(%d+)") == "1"
	local caps = true
	for _, set in ipairs { "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb" } do
		caps = caps and status:match("\n" .. set .. ":%s*(%x+)") == "0000000000000000"
	end
	v.capabilities_dropped = caps
	v.seccomp = status:match("\nSeccomp:%s*(%d+)") == "2"
	local root
	for l in mountinfo:gmatch("[^\n]+") do
		local from, mp, opts, fstype = l:match("^%d+ %d+ %S+ (%S+) (%S+) (%S+).- %- (%S+)")
		if mp == "/" then root = { from = from, opts = opts, fstype = fstype } end
	end
	-- a tmpfs of the box's own, or a directory bound as the root (an OCI
	-- bundle's, --rootfs): never the whole of a host file system
	v.private_root = root ~= nil and (root.fstype == "tmpfs" or (info.root_dir and root.from ~= "/"))
	v.read_only_root = root ~= nil and (root.opts .. ","):match("^ro,") ~= nil
	local uid = status:match("\nUid:%s*(%d+)")
	v.uid = uid ~= nil and tonumber(uid) == (info.record_uid or 1000)
	-- Landlock keeps no trace in /proc: it is claimed when restrict_self
	-- succeeded (the run fails otherwise) but cannot be read back here.
	v.landlock = false
	v.rlimits = false -- the probe does not read /proc/self/limits
	-- a record read before the filter is set (an OCI runtime's)
	if info.seccomp_unread then v.seccomp = nil end
	return v
end

--- The isolation report: one boolean per protection.
function M.isolation(info)
	local ns = {}
	for _, n in ipairs(core.namespaces()) do ns[n] = false end
	for _, n in ipairs(info.namespaces) do ns[n] = true end
	local iso = {
		namespaces = ns,
		private_root = true,
		read_only_root = true,
		no_new_privs = true,
		capabilities_dropped = true,
		seccomp = info.seccomp,
		seccomp_profile = info.profile,
		landlock = info.landlock,
		landlock_abi = info.landlock_abi,
		rlimits = true,
		network = info.network,
		host_root = info.host_root,
	}
	-- what a backend other than the namespace box does not give
	for k, v in pairs(info.claims or {}) do iso[k] = v end
	return iso
end


--- The environment digest: sha256 over a versioned domain string, the
-- sandbox kind, OS, architecture, every protection flag, the limits, the
-- network mode, the environment and the read-only mounts.
function M.digest(info)
	local iso = M.isolation(info)
	local parts = { "sbxlua-environment-v1", "kind=" .. (info.kind or "namespaces"), "os=linux",
		"arch=x86_64" }
	-- a backend's own facts (the OCI runtime, another root's identity)
	for _, x in ipairs(info.digest_extra or {}) do parts[#parts + 1] = x end
	for _, n in ipairs(json.sorted_keys(iso.namespaces)) do
		parts[#parts + 1] = ("ns.%s=%s"):format(n, tostring(iso.namespaces[n]))
	end
	for _, k in ipairs { "private_root", "read_only_root", "no_new_privs",
		"capabilities_dropped", "seccomp", "seccomp_profile", "landlock", "landlock_abi",
		"rlimits", "network", "host_root" } do
		parts[#parts + 1] = ("%s=%s"):format(k, tostring(iso[k]))
	end
	if info.seccomp_program then parts[#parts + 1] = "seccomp_program=" .. info.seccomp_program end
	for _, k in ipairs(json.sorted_keys(info.limits)) do
		parts[#parts + 1] = ("limit.%s=%s"):format(k, tostring(info.limits[k]))
	end
	local env = info.digest_env or info.env
	for _, k in ipairs(json.sorted_keys(env)) do
		parts[#parts + 1] = ("env.%s=%s"):format(k, env[k])
	end
	local ro = {}
	for _, p in ipairs(info.ro_roots) do ro[#ro + 1] = p end
	table.sort(ro)
	for _, p in ipairs(ro) do parts[#parts + 1] = "ro=" .. p end
	-- lengths make the encoding unambiguous
	local buf = {}
	for _, s in ipairs(parts) do buf[#buf + 1] = #s .. ":" .. s end
	return "sha256:" .. core.sha256(table.concat(buf, "\n"))
end

--- The state of each claim, in the words of the text report: `verified`
-- (the kernel's view inside confirmed it), `failed` (the view was read and
-- does not confirm it), `unverifiable` (made, but nothing reads it back:
-- Landlock keeps no trace in /proc, resource limits are not probed; or
-- the box ended before the probe), `none` (not claimed: a namespace not
-- asked for, no filter, no Landlock).
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table verified from `M.verify`
-- @treturn table the same keys as `verified`, each a state
function M.verified_states(r, info, verified)
	local iso = M.isolation(info)
	local read = r.probe ~= nil and r.probe.status ~= nil
	local function state(claimed, ok, readable)
		if not claimed then return "none" end
		if readable == false or not read then return "unverifiable" end
		return ok and "verified" or "failed"
	end
	local out = { namespaces = {} }
	for n, claimed in pairs(iso.namespaces) do
		out.namespaces[n] = state(claimed, verified.namespaces[n])
	end
	for _, k in ipairs { "private_root", "read_only_root", "no_new_privs",
		"capabilities_dropped", "seccomp" } do
		out[k] = state(iso[k], verified[k], not (k == "seccomp" and info.seccomp_unread) and nil)
	end
	out.uid = state(true, verified.uid)
	out.landlock = state(iso.landlock, verified.landlock, false)
	out.rlimits = state(iso.rlimits, verified.rlimits, false)
	return out
end

--- The isolation report as `sandbox:` lines (for --verbose), each limit
-- with its enforcement as the core's result says it.
-- @tparam table r the core result
-- @tparam table info the claims
-- @tparam table verified from `M.verify`
function M.isolation_lines(r, info, verified)
	local iso = M.isolation(info)
	local function tag(ok) return ok and "verified" or "failed" end
	local out = {}
	local names = {}
	for _, n in ipairs(info.namespaces) do names[#names + 1] = n end
	local all = true
	for _, n in ipairs(info.namespaces) do all = all and verified.namespaces[n] end
	if #names == 0 then
		out[#out + 1] = "namespaces: none"
	else
		out[#out + 1] = ("namespaces: %s (%s)"):format(table.concat(names, " "), tag(all))
	end
	if iso.private_root then
		out[#out + 1] = ("root: %s (%s), read-only (%s)"):format(info.root_name or "private tmpfs",
			tag(verified.private_root), tag(verified.read_only_root))
	else
		out[#out + 1] = "root: the host's"
	end
	out[#out + 1] = ("no_new_privs: yes (%s)"):format(tag(verified.no_new_privs))
	if iso.capabilities_dropped then
		out[#out + 1] = ("capabilities: none (%s)"):format(tag(verified.capabilities_dropped))
	else
		out[#out + 1] = "capabilities: none held, bounding set kept"
	end
	if iso.seccomp then
		out[#out + 1] = ("seccomp: profile %s (%s)"):format(iso.seccomp_profile,
			info.seccomp_unread and "set after the runtime's record: unverifiable" or tag(verified.seccomp))
	else
		out[#out + 1] = "seccomp: none"
	end
	if iso.landlock then
		out[#out + 1] = ("landlock: ABI %d (set; unverifiable: the kernel offers no read-back)")
			:format(iso.landlock_abi)
	else
		out[#out + 1] = "landlock: none"
	end
	out[#out + 1] = ("network: %s"):format(iso.network)
	out[#out + 1] = ("host root: %s"):format(iso.host_root and "yes (the box runs as kernel uid 0)" or "no")
	for _, l in ipairs(words.limit_lines(info.limits, limits.enforcement(r), words.uncounted_of(info))) do
		out[#out + 1] = l
	end
	out[#out + 1] = ("digest: %s"):format(M.digest(info))
	for i, l in ipairs(out) do out[i] = txt.escape(l) end
	return out
end

return M
