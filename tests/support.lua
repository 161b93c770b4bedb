-- SPDX-License-Identifier: MIT
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

--- The Lua interpreter the suite runs under (scripts/test.sh's
-- SBX_TEST_LUA): a child Lua that loads build/sbx.so uses it too.
S.lua = os.getenv("SBX_TEST_LUA") or "lua5.4"

--- True under `make asan`: sbxlua and sbx.so are instrumented, so a test
-- whose subject an instrumented build cannot be (a start under an
-- address-space limit, the calls a program makes under strace) is
-- pending there, with its reason.
S.asan = os.getenv("SBX_TEST_ASAN") == "1"

--- The arguments, each quoted for the shell, joined by spaces.
function S.quoted(...)
	local args = {}
	for i, a in ipairs { ... } do args[i] = S.q(a) end
	return table.concat(args, " ")
end

--- Runs a host shell command with stdin from /dev/null and stderr to a
-- temporary file; returns its stdout, its stderr and its exit status.
function S.sh_err(cmd)
	local err = os.tmpname()
	local out, code = S.sh(cmd .. " 2>" .. err .. " </dev/null")
	local e = assert(S.read(err))
	os.remove(err)
	return out, e, code
end

--- Runs `sbxlua script args...` (each argument quoted); returns stdout,
-- stderr and the exit status.
function S.sbxlua(script, ...)
	return S.sh_err(S.bin .. " " .. script .. " " .. S.quoted(...))
end

--- Runs `sbxlua run.lua args...` (each argument quoted); returns stdout,
-- stderr (the report) and the exit status.
function S.runlua(...)
	return S.runlua_env("", ...)
end

--- Like S.runlua, with environment assignments ("K=V K2=V2") first.
function S.runlua_env(env, ...)
	return S.sh_err("env " .. env .. " " .. S.bin .. " run.lua " .. S.quoted(...))
end

--- Runs `sbxlua run.lua --json FILE args...`; returns stdout, stderr (the
-- report), the exit status and the decoded JSON (nil when none was
-- written).
function S.json_run(...)
	local cjson = require "cjson"
	local j = os.tmpname()
	local out, err, code = S.runlua("--json", j, ...)
	local res = cjson.decode(S.read(j) or "null")
	os.remove(j)
	return out, err, code, res
end

--- Starts `sbxlua run.lua args...` (each argument quoted) in the
-- background: its stdout, stderr and status land in PREFIX.out,
-- PREFIX.err and PREFIX.status (the status written aside, then renamed,
-- so that the file appears whole).
function S.start_run(prefix, ...)
	local p = S.q(prefix)
	assert(os.execute(("(%s run.lua %s >%s.out 2>%s.err </dev/null; echo $? >%s.st; mv %s.st %s.status) &")
		:format(S.bin, S.quoted(...), p, p, p, p, p)))
end

--- Waits for path to exist (an event; the bound only stops a hang) or
-- the file `ended` to (the box has ended); true when path exists.
function S.wait_for(path, ended)
	for _ = 1, 6000 do
		if S.read(path) then return true end
		if S.read(ended) then return S.read(path) ~= nil end
		os.execute("sleep 0.01")
	end
	return false
end

--- Runs `sbxlua run.lua args...` in the background (S.start_run at
-- prefix) for a box that makes work/tried when it is ready and then
-- waits for work/done: calls during() while the box waits, then lets it
-- end and waits for PREFIX.status.  Returns whether work/tried appeared,
-- the box's stderr, and what during() returned.
function S.meanwhile(prefix, work, args, during)
	S.start_run(prefix, table.unpack(args))
	local tried = S.wait_for(work .. "/tried", prefix .. ".status")
	local r = table.pack(during())
	assert(os.execute("touch " .. S.q(work .. "/done")))
	assert(S.wait_for(prefix .. ".status", prefix .. ".status"))
	return tried, S.read(prefix .. ".err"), table.unpack(r, 1, r.n)
end

--- The end of a Python script for the box's side of S.meanwhile: takes
-- each lock of `locks` (the (name, callable) pairs the script defines
-- first), says what it got in /work/tried, holds on until /work/done
-- appears, then prints what it got.
S.PY_TRY_LOCKS = [[
out = []
for name, take in locks:
    try:
        take()
        out.append(name + " locked")
    except OSError as e:
        out.append(name + " " + errno.errorcode[e.errno])
with open("/work/tried", "w") as f:
    f.write("\n".join(out) + "\n")
while not os.path.exists("/work/done"):
    time.sleep(0.01)
print("\n".join(out))
]]

--- The host's /proc/locks lines on the inode of path (a link followed)
-- that stay there: a line is kept only when five reads 0.1 s apart all
-- have it.  The lines name a file by its inode and its file system's
-- device, which for a btrfs subvolume is not the device stat gives, so
-- they are matched by inode; a lock another process takes for a moment
-- on another file of that inode number (a suite run beside this one,
-- its own image's first file) is gone by a later read, while the lock
-- asked about is held through all five (the box holds its locks until
-- the host has looked).  Joined by newlines.
function S.proc_locks(path)
	local out, code = S.sh("stat -L -c %i " .. S.q(path) .. " 2>&1")
	assert(code == 0, path .. ": " .. out)
	local ino = out:gsub("%s+$", "")
	local kept
	for i = 1, 5 do
		local now = {}
		for l in (S.read("/proc/locks") or ""):gmatch("[^\n]+") do
			-- "1: FLOCK  ADVISORY  WRITE 8801 00:27:257 0 EOF": from the
			-- holder's pid on, without the line's own number
			local what = l:match("^%d+:%s*(.*)$") or l
			if what:find(":" .. ino .. " ", 1, true) and (not kept or kept[what]) then now[what] = true end
		end
		kept = now
		if not next(kept) then break end
		if i < 5 then os.execute("sleep 0.1") end
	end
	local lines = {}
	for l in pairs(kept) do lines[#lines + 1] = l end
	table.sort(lines)
	return table.concat(lines, "\n")
end

--- Digits no other test process picks at once: this process's pid, then
-- six random digits (busted seeds math.random with the time, so two
-- suites started in the same second, as make check-stress starts them,
-- draw the same numbers).
function S.unique()
	return ("%s%06d"):format(S.pid(), math.random(0, 999999))
end

--- How many processes on the host have tag in their command line, as a
-- string (the pattern's brackets keep pgrep's own shell from matching).
function S.host_procs(tag)
	local pat = "[" .. tag:sub(1, 1) .. "]" .. tag:sub(2)
	return (S.sh("pgrep -f -- " .. S.q(pat) .. " | wc -l")):match("%d+")
end

--- The pids of the host's processes whose command line holds marker
-- (read here, from /proc: a grep's own command line would hold it).
function S.holding(marker)
	local pids = {}
	local ls = assert(io.popen("ls /proc"))
	for pid in ls:lines() do
		local cmd = pid:match("^%d+$") and S.read("/proc/" .. pid .. "/cmdline")
		if cmd and cmd:find(marker, 1, true) then pids[#pids + 1] = pid end
	end
	ls:close()
	return pids
end

--- A spec of a sleep whose command line names it (GNU sleep takes a
-- fraction: 1000.<random><pid>), over mounts; and the marker.
function S.marked_sleep(mounts)
	local marker = ("1000.%06d%d"):format(math.random(0, 999999), S.pid())
	return { argv = { "/bin/sleep", marker }, mounts = mounts }, marker
end

--- Reads a whole file (nil if it cannot).
function S.read(path)
	local f = io.open(path)
	if not f then return nil end
	local s = f:read("a")
	f:close()
	return s
end

-- The exported program as a list of {code, jt, jf, k}.
function S.bpf_decode(bytes)
	local prog = {}
	for i = 1, #bytes, 8 do
		local code, jt, jf, k = string.unpack("<I2I1I1I4", bytes, i)
		prog[#prog + 1] = { code = code, jt = jt, jf = jf, k = k }
	end
	return prog
end

-- A classic-BPF interpreter for the instructions libseccomp emits, over a
-- struct seccomp_data {nr, arch, ip, args[6]}; returns the RET value.
function S.bpf_run(prog, data)
	local function load(off)
		if off == 0 then return data.nr & 0xffffffff end
		if off == 4 then return data.arch end
		if off >= 16 and off < 64 and off % 4 == 0 then
			local a = (data.args or {})[(off - 16) // 8 + 1] or 0
			if off % 8 == 0 then return a & 0xffffffff end
			return (a >> 32) & 0xffffffff
		end
		error(("load of offset %d"):format(off))
	end
	local A, X, M = 0, 0, {}
	local pc = 1
	for _ = 1, #prog + 1 do
		local ins = assert(prog[pc], "ran off the end of the program")
		local c, k = ins.code, ins.k
		local jump
		if c == 0x20 then A = load(k) -- ld [k]
		elseif c == 0x00 then A = k -- ld #k
		elseif c == 0x60 then A = assert(M[k]) -- ld M[k]
		elseif c == 0x02 then M[k] = A -- st M[k]
		elseif c == 0x07 then X = A -- tax
		elseif c == 0x87 then A = X -- txa
		elseif c == 0x54 then A = A & k -- and #k
		elseif c == 0x05 then pc = pc + k -- ja
		elseif c == 0x15 then jump = A == k -- jeq
		elseif c == 0x25 then jump = A > k -- jgt
		elseif c == 0x35 then jump = A >= k -- jge
		elseif c == 0x45 then jump = A & k ~= 0 -- jset
		elseif c == 0x06 then return k -- ret
		else error(("opcode 0x%02x"):format(c)) end
		if jump ~= nil then pc = pc + (jump and ins.jt or ins.jf) end
		pc = pc + 1
	end
	error("the program loops")
end

--- Writes text to path, its mode set when given ("0755").
function S.write(path, text, mode)
	local f = assert(io.open(path, "w"))
	assert(f:write(text))
	f:close()
	if mode then assert(os.execute(("chmod %s %s"):format(mode, S.q(path)))) end
end

--- The JSON file at path decoded, and the file removed.
function S.take_json(path)
	local t = require("cjson").decode((assert(S.read(path))))
	os.remove(path)
	return t
end

--- The lines of text that begin with prefix, each with its newline.
function S.lines_with(text, prefix)
	local out = {}
	for l in text:gmatch("[^\n]*\n") do
		if l:sub(1, #prefix) == prefix then out[#out + 1] = l end
	end
	return table.concat(out)
end

--- The lines of text, each without its newline; a last line without one
-- is left out.
function S.lines(text)
	return S.matches(text, "([^\n]*)\n")
end

--- What each match of pattern in text captures (the whole match when it
-- has no capture), as a list.
function S.matches(text, pattern)
	local t = {}
	for m in text:gmatch(pattern) do t[#t + 1] = m end
	return t
end

--- True when list (nil: none) holds v.
function S.has(list, v)
	for _, x in ipairs(list or {}) do
		if x == v then return true end
	end
	return false
end

--- The items of list for which keep(item) is true, in order.
function S.select(list, keep)
	local out = {}
	for _, x in ipairs(list) do
		if keep(x) then out[#out + 1] = x end
	end
	return out
end

--- The first finding of a list of findings (a verdict's `reasons`) by
-- the given rule, or nil.
function S.finding(reasons, rule)
	for _, f in ipairs(reasons) do
		if f.rule == rule then return f end
	end
	return nil
end

--- The first note of a result's events with the given cause, or nil.
function S.note(res, cause)
	for _, e in ipairs(res.events or {}) do
		if e.kind == "note" and e.cause == cause then return e end
	end
	return nil
end

return S
