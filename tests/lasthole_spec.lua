-- The last holes, each written as the attack or the mistake: a limit that
-- refuses something is named on evidence; the box's own files lock as
-- usual; the report has a channel no program can write; the process backend holds
-- its whole tree; a learned profile's opened directory covers itself only.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

local PY = "/usr/bin/python3"

-- sbxlua run.lua args... with the shell's redirections `redir` (e.g.
-- "3>FILE"): stdout, stderr, status
local function run_redir(redir, ...)
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	local err = os.tmpname()
	local out, code = S.sh(S.bin .. " run.lua " .. table.concat(args, " ") .. " 2>" .. err .. " </dev/null "
		.. (redir or ""))
	local e = S.read(err)
	os.remove(err)
	return out, e, code
end

-- the enforcement of the memory limit here (cgroup or sampled)
local function memory_enforcement()
	local _, _, _, j = S.json_run("/bin/true")
	return j and j.limits and j.limits.memory and j.limits.memory.enforcement
end

describe("the last holes [" .. S.priv .. "]", function()
	local dir, rm
	before_each(function() dir, rm = S.tmpdir() end)
	after_each(function() rm() end)

	describe("a limit that refuses something is named", function()
		it("an allocation past the memory limit: the report says the limit refused it", function()
			local _, err, code = S.runlua("--mem", "64M", PY, "-c", "x = bytearray(512 << 20)")
			if memory_enforcement() == "cgroup" then
				-- the allocation is granted and touched: the cgroup ends the box
				assert.are.equal(124, code, err)
				assert.truthy(err:find("sandbox: killed: memory limit (64 MiB)\n", 1, true), err)
			else
				-- the kernel refuses the mapping (the program's MemoryError),
				-- and the report names the limit that did, from the call seen
				assert.are.equal(1, code, err)
				assert.truthy(err:find("MemoryError"), err)
				assert.truthy(err:find("\nsandbox: note: memory limit %(64 MiB%) refused an allocation of 512 MiB"),
					err)
			end
		end)

		it("an allocation under the limit says nothing", function()
			local _, err, code = S.runlua("--mem", "64M", PY, "-c", "x = bytearray(8 << 20)")
			assert.are.equal(0, code, err)
			assert.are.equal("sandbox: exit 0\n", err)
		end)
	end)

	describe("locks", function()
		it("locks on the box's own files still work (Go, cargo, ccache need them)", function()
			local out, err, code = S.runlua(PY, "-c", [[
import fcntl, os
fd = os.open("/tmp/own", os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("locked")
]])
			assert.are.equal(0, code, err)
			assert.are.equal("locked\n", out)
		end)
	end)

	describe("the report cannot be forged", function()
		local FORGE = "echo 'sandbox: exit 0' >&2; echo 'sandbox: verdict: clean' >&2; exit 7"

		it("--report-fd N: the report on a descriptor the box never holds", function()
			local rep = dir .. "/report"
			local _, err, code = run_redir("3>" .. S.q(rep), "--report-fd", "3", "/bin/sh", "-c",
				FORGE .. "; ls /proc/self/fd >&2")
			assert.are.equal(7, code)
			-- the stream has the forgery; the descriptor has the truth only
			assert.truthy(err:find("sandbox: exit 0\n", 1, true), err)
			assert.are.equal("sandbox: exit 7\n", S.read(rep))
		end)

		it("--report-fd refuses the standard streams, a closed descriptor, a full one", function()
			for _, n in ipairs { "0", "1", "2", "-1", "x", "99" } do
				local _, err, code = S.runlua("--report-fd", n, "/bin/true")
				assert.are.equal(126, code, n)
				assert.truthy(err:find("^sbxlua: %-%-report%-fd " .. n:gsub("%p", "%%%0") .. ": "), err)
			end
			-- a descriptor that cannot take the report: 126, named
			local _, err, code = run_redir("3>/dev/full", "--report-fd", "3", "/bin/true")
			assert.are.equal(126, code)
			assert.truthy(err:find("\nsbxlua: %-%-report%-fd descriptor 3: No space left on device\n"), err)
		end)
	end)

	it("sbx.descriptor: its argument checked, a closed descriptor said", function()
		local sbx = require "sbx"
		assert.has_error(function() sbx.descriptor("x") end,
			"bad argument #1 to 'descriptor' (number expected, got string)")
		assert.has_error(function() sbx.descriptor(-1) end,
			"bad argument #1 to 'descriptor' (descriptor out of range)")
		local f, msg = sbx.descriptor(4000)
		assert.is_nil(f)
		assert.are.equal("dup descriptor 4000: Bad file descriptor", msg)
		f = assert(sbx.descriptor(1))
		assert.has_error(function() f:write({}) end)
		f:close()
		assert.has_error(function() f:write("x") end, "attempt to use a closed file")
	end)

	describe("the process backend holds its tree", function()
		local function alive(marker)
			return #S.holding(marker) > 0
		end

		for _, case in ipairs {
			{ "setsid", "setsid sleep %s &" },
			{ "a double fork", "(sleep %s &) &" },
			{ "a new process group", "setsid -f sleep %s" },
		} do
			it("a child that escapes by " .. case[1] .. " is killed at the end", function()
				local marker = ("777.%06d%s"):format(math.random(0, 999999), S.pid())
				local _, err = S.runlua("--backend", "process", "/bin/sh", "-c",
					case[2]:format(marker) .. " sleep 0.3")
				S.sh("sleep 0.3")
				local left = alive(marker)
				if left then S.sh("pkill -KILL -f " .. S.q(marker)) end
				assert.is_false(left, err)
			end)
		end
	end)

	describe("learn.lua", function()
		it("an opened directory allows that directory, not what lies under it", function()
			local p = dir .. "/p.lua"
			-- the same calls in both programs: only the file read differs
			local _, lcode = S.sh(S.bin .. " learn.lua -o " .. S.q(p)
				.. " /bin/sh -c 'ls / >/dev/null; cat /etc/hostname' >/dev/null 2>&1 </dev/null")
			assert.are.equal(0, lcode)
			local prof = S.read(p)
			assert.truthy(prof:find('\t"/", %-%- open'), prof)
			local _, err, code = S.runlua("--profile", p, "--mode", "stop", "/bin/sh", "-c",
				"ls / >/dev/null; cat /etc/hostname")
			assert.are.equal(0, code, err)
			-- a file under the opened directory is refused by name
			_, err, code = S.runlua("--profile", p, "--mode", "stop", "/bin/sh", "-c",
				"ls / >/dev/null; cat /etc/passwd")
			assert.are.equal(125, code, err)
			assert.truthy(err:find("/etc/passwd", 1, true), err)
		end)

		it("notify.open_exact must be a list of absolute paths", function()
			local sbx = require "sbx"
			for _, bad in ipairs { { { "rel" }, "'rel' is not an absolute path" }, { "/x", "must be a list of strings" } } do
				local ok, msg = pcall(sbx.run, { argv = { "/bin/true" }, path = "/bin/true",
					notify = { open_exact = bad[1] } })
				assert.is_false(ok)
				assert.truthy(msg:find("field 'notify.open_exact'", 1, true) and msg:find(bad[2], 1, true), msg)
			end
		end)
	end)
end)
