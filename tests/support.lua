--- Shared helpers of the busted specs: host commands, a minimal box, and
-- the descriptor leak check.
local sbx = require "sbx"
local core = require "sbx.core"

local S = {}

--- "root", "user" (uid 65534 via setpriv) or "self".
S.priv = os.getenv("SBX_TEST_PRIV") or "self"

--- Runs a host shell command; returns its stdout and its exit status.
function S.sh(cmd)
	local f = assert(io.popen(cmd, "r"))
	local out = f:read("a")
	local ok, how, code = f:close()
	return out, ok and 0 or (how == "exit" and code or 128 + code)
end

--- The effective uid of the test process.
function S.euid()
	return tonumber((S.sh("id -u")))
end

--- The pid of the test process itself (not a child's).
function S.pid()
	local f = assert(io.open("/proc/self/stat"))
	local pid = f:read("a"):match("^(%d+)")
	f:close()
	return pid
end

--- The descriptors open in the test process, { [fd] = target }, read by
-- the process itself (no helper process, whose pipe would be counted while
-- the parent closes its own end: the count is exact).  Garbage is collected
-- first, so an object a test leaves to the collector is not a leak here;
-- `S.fds_now` is the same without collecting.
function S.fds_now()
	return assert(core.fds())
end

function S.fds()
	collectgarbage()
	collectgarbage()
	return S.fds_now()
end

--- The difference between two descriptor tables as text ("" if none).
function S.fds_diff(before, after)
	local d = {}
	for fd, t in pairs(after) do
		if before[fd] ~= t then d[#d + 1] = ("+%d %s"):format(fd, t) end
	end
	for fd, t in pairs(before) do
		if after[fd] ~= t then d[#d + 1] = ("-%d %s"):format(fd, t) end
	end
	table.sort(d)
	return table.concat(d, ", ")
end

--- A spec of the minimal box around `/bin/sh -c script`.
function S.spec(script, extra)
	local spec = {
		root = {},
		hostname = "sbxtest",
		mounts = sbx.minimal_mounts(),
		argv = { "/bin/sh", "-c", script },
		env = { PATH = "/usr/bin:/bin", HOME = "/tmp" },
		cwd = "/tmp",
		wall = 30,
	}
	for k, v in pairs(extra or {}) do spec[k] = v end
	return spec
end

--- Runs script in the minimal box; returns the result table.
function S.run(script, extra)
	return assert(sbx.run(S.spec(script, extra)))
end

--- Installs an after_each that fails a test leaking a descriptor (pass
-- busted's before_each, after_each and assert: they live in the spec's
-- environment, not in this module's).
function S.leak_check(before_each, after_each, assert)
	local before
	before_each(function() before = S.fds() end)
	after_each(function()
		assert.are.equal("", S.fds_diff(before, S.fds()), "descriptor leak")
	end)
end

--- A fresh temporary directory on the host, and a remover.
function S.tmpdir()
	local d = S.sh("mktemp -d /tmp/sbxtest.XXXXXX"):gsub("%s+$", "")
	return d, function() os.execute("rm -rf '" .. d .. "'") end
end

--- Quotes a string for the shell.
function S.q(s)
	return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

--- The sbxlua binary under test.
S.bin = os.getenv("SBX_BIN") or "./sbxlua"

--- Runs `sbxlua run.lua args...` (each argument quoted); returns stdout,
-- stderr (the report) and the exit status.
function S.runlua(...)
	return S.runlua_env("", ...)
end

--- Like S.runlua, with environment assignments ("K=V K2=V2") first.
function S.runlua_env(env, ...)
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	local err = os.tmpname()
	local out, code = S.sh("env " .. env .. " " .. S.bin .. " run.lua " .. table.concat(args, " ") .. " 2>" .. err .. " </dev/null")
	local f = assert(io.open(err))
	local e = f:read("a")
	f:close()
	os.remove(err)
	return out, e, code
end

--- Reads a whole file (nil if it cannot).
function S.read(path)
	local f = io.open(path)
	if not f then return nil end
	local s = f:read("a")
	f:close()
	return s
end

return S
