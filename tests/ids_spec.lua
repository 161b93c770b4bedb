-- SPDX-License-Identifier: MIT
-- Ids outside the box: the standard box answers the id-changing and
-- ownership-changing calls with EPERM for an id it cannot hold, as a
-- normal system answers a process without CAP_SETUID, CAP_SETGID or
-- CAP_CHOWN (the kernel alone says EINVAL: the id is not mapped), while
-- the box's own id and -1 ("unchanged") work as before.  Every call is made
-- raw by tests/progs/idcalls inside a real box; the host's answer to the
-- same calls from an unprivileged process is the reference.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local box = require "sbx.stdbox"

local IDCALLS = "./build/tests/idcalls"
local B = box.user.uid
assert(box.user.gid == B, "the profile's BOX_ID is the box's uid and gid")

-- ids no box holds: root, nobody, others, the top of the range
local FOREIGN = { 0, 1, 999, 1001, 4242, 65534, 0x7fffffff, 0xfffffffe }

-- Runs idcalls with the cases in the standard box (extra run.lua options
-- first); returns { case = answer } and the report.
local function in_box(cases, opts)
	local args = {}
	for _, o in ipairs(opts or {}) do args[#args + 1] = o end
	args[#args + 1] = IDCALLS
	for _, c in ipairs(cases) do args[#args + 1] = c end
	local out, err, code = S.runlua(table.unpack(args))
	assert.equal(0, code, err)
	-- the profile's refusals are named (the explain channel), each with
	-- the errno the program got
	local rest = err:gsub("sandbox: denied: syscall %d+ %([%w_]+%) %(EPERM%)[ x%d]*\n", "")
		:gsub("sandbox: denied: attribute /[%w_./]+ %([%w_]+%) %(EPERM%)[ x%d]*\n", "")
	assert.equal("sandbox: exit 0\n", rest)
	local t = {}
	for k, v in out:gmatch("([^\n=]+)=([^\n]*)") do t[k] = v end
	return t
end

-- every case of a call with id arguments at n positions, each foreign id
-- in each position, the others -1
local function foreign_cases(call, n)
	local out = {}
	for _, id in ipairs(FOREIGN) do
		for pos = 1, n do
			local a = {}
			for k = 1, n do a[k] = k == pos and tostring(id) or "-1" end
			out[#out + 1] = call .. ":" .. table.concat(a, ":")
		end
	end
	return out
end

local CALLS = {
	{ "setuid", 1 }, { "setgid", 1 },
	{ "setreuid", 2 }, { "setregid", 2 },
	{ "setresuid", 3 }, { "setresgid", 3 },
	{ "chown", 2 }, { "fchown", 2 }, { "lchown", 2 }, { "fchownat", 2 },
}

describe("ids outside the box [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local cases = {}
	for _, c in ipairs(CALLS) do
		if c[2] == 1 then
			for _, id in ipairs(FOREIGN) do cases[#cases + 1] = c[1] .. ":" .. id end
		else
			for _, k in ipairs(foreign_cases(c[1], c[2])) do cases[#cases + 1] = k end
		end
	end
	local answers

	it("each foreign id fails with EPERM in every position of every call", function()
		answers = answers or in_box(cases)
		for _, k in ipairs(cases) do
			assert.equal("EPERM", answers[k], k)
		end
	end)

	it("a normal system (the host, an unprivileged process) says EPERM too", function()
		local dir, cleanup = S.tmpdir()
		local who = S.euid() == 0
			and "setpriv --reuid=65534 --regid=65534 --clear-groups " or ""
		-- a foreign id for the host's process: neither its own nor -1
		local some = { "setuid:4242", "setgid:4242", "setreuid:-1:4242",
			"setresgid:4242:-1:-1", "chown:4242:-1", "fchown:-1:4242",
			"lchown:4242:-1", "fchownat:-1:4242", "setgroups:4242" }
		os.execute("chmod 0777 " .. S.q(dir))
		local out = S.sh("cd " .. S.q(dir) .. " && " .. who .. S.q(S.sh("pwd"):gsub("%s+$", "") .. "/" .. IDCALLS)
			.. " " .. table.concat(some, " ") .. " 2>&1")
		cleanup()
		for _, k in ipairs(some) do
			assert.equal(k .. "=EPERM", out:match("[^\n]*" .. k:gsub("%-", "%%-") .. "=[^\n]*"), out)
		end
	end)

	it("the supervisor holds the errno of every call the default profile names a refusal of", function()
		-- one entry per call, however many argument cases refuse it (the
		-- id rules are hundreds): a call left out would be let through
		-- by a supervisor that cannot tell it is refused
		local profile = require "sbx.profile"
		local core = require "sbx.core"
		local spec = assert(profile.load("default"))
		local f = assert(profile.compile(spec, { name_refusals = true }))
		local errnos = f:info().errnos
		local want = 0
		for _, r in ipairs(spec.rules) do
			local e = type(r.action) == "table" and r.action.errno
			if e and e ~= "ENOSYS" and core.syscall_number(r.call) then
				want = want + 1
				assert.is_truthy(errnos[core.syscall_number(r.call)], r.call)
			end
		end
		assert.is_true(want > 100, "the id rules are there")
		for _, call in ipairs { "chown", "fchown", "lchown", "fchownat", "setuid", "setresgid" } do
			assert.are.equal(core.errno.EPERM, errnos[core.syscall_number(call)], call)
		end
	end)

	it("without the profile the kernel says EINVAL: the rules answered", function()
		local t = in_box({ "setuid:65534", "chown:65534:-1", "setresgid:-1:-1:0" },
			{ "--profile", "none" })
		assert.same({ ["setuid:65534"] = "EINVAL", ["chown:65534:-1"] = "EINVAL",
			["setresgid:-1:-1:0"] = "EINVAL" }, t)
	end)

	it("the box's own id and -1 work as before", function()
		local own = {
			"setuid:" .. B, "setgid:" .. B,
			"setreuid:-1:-1", "setreuid:" .. B .. ":" .. B, "setreuid:-1:" .. B,
			"setregid:-1:-1", "setregid:" .. B .. ":-1",
			"setresuid:-1:-1:-1", "setresuid:" .. B .. ":" .. B .. ":" .. B,
			"setresuid:-1:" .. B .. ":-1",
			"setresgid:-1:-1:-1", "setresgid:" .. B .. ":-1:" .. B,
		}
		for _, c in ipairs { "chown", "fchown", "lchown", "fchownat" } do
			for _, a in ipairs { B .. ":" .. B, "-1:-1", B .. ":-1", "-1:" .. B } do
				own[#own + 1] = c .. ":" .. a
			end
		end
		local t = in_box(own)
		for _, k in ipairs(own) do assert.equal("ok", t[k], k) end
	end)

	it("keeps the kernel's own answers where a normal system gives them", function()
		local t = in_box { "setuid:-1", "setgid:-1", "setgroups:" .. B, "setgroups:65534",
			"setfsuid:65534", "setfsgid:65534", "setfsuid:" .. B }
		assert.same({
			-- setuid(-1) is EINVAL on every system
			["setuid:-1"] = "EINVAL", ["setgid:-1"] = "EINVAL",
			-- setgroups needs CAP_SETGID, which the box never has
			["setgroups:" .. B] = "EPERM", ["setgroups:65534"] = "EPERM",
			-- setfsuid never fails: it returns the id in force
			["setfsuid:65534"] = tostring(B), ["setfsgid:65534"] = tostring(B),
			["setfsuid:" .. B] = tostring(B),
		}, t)
	end)

	it("reads an id as the kernel does: its low 32 bits", function()
		local t = in_box { "setuid:" .. (0x100000000 + B), "setuid:0x10000fffe",
			"chown:" .. (0x100000000 + B) .. ":-1", "chown:0x1ffffffff:0x1ffffffff" }
		assert.same({
			["setuid:" .. (0x100000000 + B)] = "ok", ["setuid:0x10000fffe"] = "EPERM",
			["chown:" .. (0x100000000 + B) .. ":-1"] = "ok",
			["chown:0x1ffffffff:0x1ffffffff"] = "ok",
		}, t)
	end)
end)
