-- SPDX-License-Identifier: MIT
-- Every shell example of README.md and docs/*.md runs as written.
--
-- The convention (docs and this file agree on it):
-- - a fenced block whose first line begins with `$ ` is a session: each
--   `$ ` line is a command (lines after it that begin with `> ` continue
--   it, as the shell's second prompt shows a here-document), the lines
--   after it until the next `$ ` what it prints, stdout and stderr
--   together; a fenced block tagged `sh` is a script, run whole by
--   `sh -e`, which must exit 0;
-- - in what a command prints, a line `...` stands for any lines (none
--   too), and `...` inside a line for any text on that line: the parts
--   that differ from run to run or host to host;
-- - a command must exit 0, or N when what it prints shows `sandbox: exit N`
--   (run.lua's own statement of its status);
-- - a block that cannot run here says why on the line just before its
--   fence: `<!-- not run: REASON -->`; it is pending here, with its reason.
-- Each block runs in a fresh temporary directory holding a copy of the
-- tree (`./sbxlua`, `build/`, `tests/`...), so that what it writes stays
-- there.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"

-- Sections maintained with other tests, not run here: file -> section
-- heading -> why.
local ELSEWHERE = {
	["README.md"] = { ["Build and install"] = "builds and installs (make, make check, make install): "
		.. "the Makefile's own targets and tests/install_spec.lua" },
}

local function docs()
	local list = { "README.md" }
	local ls = assert(io.popen("ls docs/*.md"))
	for f in ls:lines() do list[#list + 1] = f end
	ls:close()
	return list
end

-- The blocks of one file: { file, line, kind = "session"|"script", skip,
-- lines }.
local function blocks(file)
	local out, cur, prev, section = {}, nil, "", nil
	local n = 0
	for l in io.lines(file) do
		n = n + 1
		section = l:match("^## (.+)$") or section
		if cur then
			if l == "```" then
				-- a block tagged otherwise (lua, ...) is not a shell example
				local session = cur.kind == "session" and (cur.lines[1] or ""):sub(1, 2) == "$ "
				if cur.kind == "script" or session then out[#out + 1] = cur end
				cur = nil
			else
				cur.lines[#cur.lines + 1] = l
			end
		else
			local tag = l:match("^```(%w*)$")
			if tag then
				local other = ELSEWHERE[file] and ELSEWHERE[file][section]
				cur = { file = file, line = n, kind = tag == "sh" and "script" or "session", lines = {},
					skip = prev:match("^<!%-%- not run: (.-) %-%->$") or other }
				if tag ~= "" and tag ~= "sh" then cur.kind = "other" end
			end
			prev = l
		end
	end
	return out
end

-- A session's steps: { cmd, expect = lines }.
local function steps(lines)
	local out = {}
	for _, l in ipairs(lines) do
		local step = out[#out]
		if l:sub(1, 2) == "$ " then
			out[#out + 1] = { cmd = l:sub(3), expect = {} }
		elseif step and #step.expect == 0 and l:sub(1, 2) == "> " then
			step.cmd = step.cmd .. "\n" .. l:sub(3)
		elseif step then
			step.expect[#step.expect + 1] = l
		end
	end
	return out
end

-- one shown line as a pattern: `...` any text, the rest as it is
local function pattern(l)
	local parts = {}
	for piece in (l .. "..."):gmatch("(.-)%.%.%.") do
		parts[#parts + 1] = piece:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0")
	end
	return "^" .. table.concat(parts, ".-") .. "$"
end

-- Whether got (lines) matches expect (lines, `...` any lines).
local function matches(expect, got, i, j)
	i, j = i or 1, j or 1
	if i > #expect then return j > #got end
	if expect[i] == "..." then
		for k = j, #got + 1 do
			if matches(expect, got, i + 1, k) then return true end
		end
		return false
	end
	return j <= #got and got[j]:find(pattern(expect[i])) ~= nil and matches(expect, got, i + 1, j + 1)
end

local function lines_of(s)
	local t = {}
	for l in s:gmatch("([^\n]*)\n") do t[#t + 1] = l end
	if s ~= "" and s:sub(-1) ~= "\n" then t[#t + 1] = s:match("([^\n]*)$") end
	return t
end

-- A fresh directory holding a copy of the tree (no symbolic link: a
-- batch refuses a path through one).
local function workdir()
	local d, rm = S.tmpdir()
	S.sh(("tar --exclude=./.git -cf - . | tar -C %s -xf -"):format(S.q(d)))
	return d, rm
end

-- Runs a command (shell text) in dir, stdout and stderr together.
local function run_in(dir, cmd)
	local f = os.tmpname()
	local h = assert(io.open(f, "w"))
	h:write(cmd, "\n")
	h:close()
	local out, code = S.sh("cd " .. S.q(dir) .. " && sh " .. S.q(f) .. " 2>&1 </dev/null")
	os.remove(f)
	return out, code
end

local function check_session(b)
	local d, rm = workdir()
	for _, st in ipairs(steps(b.lines)) do
		local out, code = run_in(d, st.cmd)
		local want = 0
		for _, l in ipairs(st.expect) do want = tonumber(l:match("^sandbox: exit (%d+)$")) or want end
		local where = ("%s:%d: $ %s"):format(b.file, b.line, st.cmd)
		if code ~= want or (#st.expect > 0 and not matches(st.expect, lines_of(out))) then
			rm()
			error(("%s\nexit %d (%d expected); printed:\n%s"):format(where, code, want, out), 0)
		end
	end
	rm()
end

local function check_script(b)
	local d, rm = workdir()
	local out, code = run_in(d, "set -e\n" .. table.concat(b.lines, "\n"))
	rm()
	if code ~= 0 then error(("%s:%d: exit %d; printed:\n%s"):format(b.file, b.line, code, out), 0) end
end

describe("doc examples [" .. S.priv .. "]", function()
	it("the shown output is matched with its variable parts", function()
		assert.is_true(matches({ "a", "...", "c ... d" }, { "a", "x", "y", "c 1 2 d" }))
		assert.is_true(matches({ "a", "...", "b" }, { "a", "b" }))
		assert.is_false(matches({ "a", "b" }, { "a", "b", "c" }))
		assert.is_false(matches({ "a (1%)" }, { "a (12)" }))
		assert.are.same({ { cmd = "cat > x <<'EOF'\nhi\nEOF", expect = {} }, { cmd = "cat x", expect = { "hi" } } },
			steps { "$ cat > x <<'EOF'", "> hi", "> EOF", "$ cat x", "hi" })
	end)

	for _, file in ipairs(docs()) do
		for _, b in ipairs(blocks(file)) do
			local name = ("%s:%d"):format(b.file, b.line)
			if b.skip then
				pending(name .. " not run: " .. b.skip)
			else
				it(name .. " runs as written", function()
					if b.kind == "script" then check_script(b) else check_session(b) end
				end)
			end
		end
	end
end)
