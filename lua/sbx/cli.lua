-- SPDX-License-Identifier: MIT
--- The command line of sbxlua's scripts (`run.lua`, `check.lua`): one
-- table of options per script, parsed by lua-argparse, with the same
-- `--help` and the same wording of a usage error in every script:
-- `sbxlua: <what is wrong> (see --help)` on stderr, then the script's own
-- exit status.
-- @module sbx.cli
local report = require "sbx.report"

local M = {}

-- lua-argparse from package.path; Debian may ship it for Lua 5.1 to 5.3
-- only, and the same pure Lua file serves 5.4: then from the system's own
-- directories, which only root writes
local function load_argparse()
	local ok, m = pcall(require, "argparse")
	if ok then return m end
	for _, v in ipairs { "5.4", "5.3", "5.2", "5.1" } do
		local f = loadfile("/usr/share/lua/" .. v .. "/argparse.lua", "t")
		if f then return f() end
	end
	error("sbx.cli: lua-argparse is not installed (Debian package lua-argparse)", 0)
end

-- loaded when a parser is first made (`M.parser`): a command line with
-- no option before the program needs none (`M.parse`)
local argparse

--- Applies what `M.parse` read to the options table o: each option's
-- setter (its fourth field, `function(o, typed, "--name")`) once per value
-- typed, or once with o alone for a flag given.
-- @tparam table options the script's options (as for `M.parser`)
-- @tparam table args what `M.parse` returned
-- @tparam table o the table the setters fill
-- @treturn table o
function M.apply(options, args, o)
	for _, opt in ipairs(options) do
		local name = opt[1]:match("%-%-(%S+)$")
		local got = args[(name:gsub("%-", "_"))]
		if type(got) == "table" then
			for _, typed in ipairs(got) do opt[4](o, typed, "--" .. name) end
		elseif got and got > 0 then
			opt[4](o)
		end
	end
	return o
end

--- A parser for a script from its table of options.
-- @tparam table t `name` (`run.lua`), `description`, `epilog`, `options`
--  (a list of `{ "--name", argname, help }`, `"-x --name"` for a short
--  form too; without argname, a flag; `hidden = true` left out of the
--  help), `arguments` (a list of `{ name,
--  help, args }`, args as lua-argparse's: `"?"`, `"*"`)
-- @return the parser
function M.parser(t)
	if type(t) ~= "table" or type(t.name) ~= "string" or type(t.options) ~= "table" then
		error("bad argument #1 to 'parser' (a table with name and options expected)", 2)
	end
	argparse = argparse or load_argparse()
	local p = argparse("sbxlua " .. t.name, t.description, t.epilog)
	p:help_max_width(79)
	for _, o in ipairs(t.options) do
		local opt
		if o[2] then
			opt = p:option(o[1], o[3]):argname(o[2]):args(1):count("*")
		else
			opt = p:flag(o[1], o[3]):count("*")
		end
		-- an old spelling, still taken (sbx.options)
		if o.hidden then opt:hidden(true) end
	end
	for _, a in ipairs(t.arguments or {}) do
		p:argument(a[1], a[2]):args(a[3] or 1)
	end
	-- every script's, as every command's: the version, exit 0
	p:flag("--version", "print sbxlua's version and exit"):action(function()
		io.stdout:write(("%s (sbxlua %s)\n"):format(t.name, require("sbx.core").version))
		os.exit(0)
	end)
	return p
end

--- Where the options end in argv: the index of the first argument that is
-- neither an option nor an option's value (a program's own arguments
-- follow it, options or not), or of `--`; #argv + 1 when there is none.
-- A script whose operands are its own (`t.operands_anywhere`: batch.lua's
-- paths, not a program's arguments) takes options after them too: its
-- options end at `--` only.
-- @tparam table argv
-- @tparam table t the parser's table (see `M.parser`)
-- @treturn integer
function M.options_end(argv, t)
	local takes = {}
	for _, o in ipairs(t.options) do
		for name in o[1]:gmatch("%S+") do takes[name] = o[2] ~= nil end
	end
	local i = 1
	while i <= #argv do
		local a = argv[i]
		if a == "--" then return i end
		if not t.operands_anywhere and (a:sub(1, 1) ~= "-" or a == "-") then return i end
		if takes[a] then i = i + 1 end
		i = i + 1
	end
	return i
end

--- Says a usage error in the words every script uses, and exits.
-- @tparam string msg what is wrong (escaped here)
-- @tparam integer code the exit status
function M.usage_error(msg, code)
	io.stderr:write("sbxlua: ", report.escape(msg), " (see --help)\n")
	os.exit(code)
end

-- What lua-argparse gives for an argv whose first word is the program
-- (no option before it): every option absent (a flag counted 0 times, an
-- option with no value), the arguments taken in order; nil when argv is
-- not of that kind or its words do not fit the arguments (lua-argparse
-- then says why).  The parser is not built: most of a plain run's parse.
local function plain(t, argv)
	if #argv == 0 or argv[1] == "--" or M.options_end(argv, t) ~= 1 then return nil end
	if t.operands_anywhere then return nil end
	local res, i = {}, 1
	for _, o in ipairs(t.options) do
		res[(o[1]:match("%-%-(%S+)$"):gsub("%-", "_"))] = o[2] and {} or 0
	end
	for _, a in ipairs(t.arguments or {}) do
		local n = a[3] or 1
		if n == 1 and argv[i] ~= nil then
			res[a[1]], i = argv[i], i + 1
		elseif (n == "*" or n == "+") and (n == "*" or argv[i] ~= nil) then
			res[a[1]], i = table.move(argv, i, #argv, 1, {}), #argv + 1
		else
			return nil
		end
	end
	if i <= #argv then return nil end
	return res
end

--- Parses argv with the parser of `t`; a usage error is said by
-- `M.usage_error` (lua-argparse's words, without its suggestions), and
-- `--help` prints the help and exits 0.  Everything after the options
-- (`M.options_end`) is the program's: a `--` goes before it for the parser.
-- @tparam table t the parser's table (see `M.parser`)
-- @tparam table argv
-- @tparam integer code the exit status of a usage error
-- @treturn table option name (dashes as underscores) -> list of values
--  (a count for a flag), argument name -> value
function M.parse(t, argv, code)
	local fast = plain(t, argv)
	if fast then return fast end
	local p = M.parser(t)
	local takes = {}
	for _, o in ipairs(t.options) do
		for name in o[1]:gmatch("%S+") do takes[name] = o[2] ~= nil end
	end
	local at, args, i = M.options_end(argv, t), {}, 1
	while i <= #argv do
		local a = argv[i]
		if i == at and a ~= "--" then args[#args + 1] = "--" end
		if i < at and takes[a] and argv[i + 1] then
			-- one word, so that a value such as -1 is not an option:
			-- --name=VALUE, or -xVALUE for a short option
			args[#args + 1] = a .. (a:match("^%-[^-]$") and "" or "=") .. argv[i + 1]
			i = i + 1
		else
			args[#args + 1] = a
		end
		i = i + 1
	end
	local ok, res = p:pparse(args)
	if not ok then M.usage_error((res:gsub("\nDid you mean.*$", "")), code) end
	return res
end

-- ---- what every script says of what the operator typed ----

--- Says one line `sbxlua: ...` (what the operator typed and what the host
-- said, escaped) and exits with `report.EXIT_CANNOT`.
function M.refuse(fmt, ...)
	io.stderr:write("sbxlua: ", report.escape(fmt:format(...)), "\n")
	os.exit(report.EXIT_CANNOT)
end

--- The words of an error of `sbx.pipeline` (`{ msg =, option =, typed =,
-- program = }`): `--opt TYPED: why`, `prog: why`, or the host's own.
-- @treturn string
function M.error_text(err)
	if err.option and err.typed then return ("%s %s: %s"):format(err.option, err.typed, err.msg) end
	if err.program then return ("%s: %s"):format(err.program, err.msg) end
	return err.msg
end

--- The exit status of an error of `sbx.pipeline`: `report.EXIT_NOT_FOUND`
-- when the program to run is not found, else `report.EXIT_CANNOT`.
function M.exit_status(err)
	if err.program and not err.option and err.msg == report.NOT_FOUND then return report.EXIT_NOT_FOUND end
	return report.EXIT_CANNOT
end

--- Says an error of `sbx.pipeline` (`M.error_text`) and exits with its
-- status (`M.exit_status`).
function M.fail(err)
	io.stderr:write("sbxlua: ", report.escape(M.error_text(err)), "\n")
	os.exit(M.exit_status(err))
end

--- `"<call> <operand>: <why>"` from the core, as `"<why>"` (said after the
-- option and the path the operator typed).
function M.reason(msg)
	return msg:match(": (.*)$") or msg
end

--- `PATH[:DEST]` as PATH, DEST (nil without one).
function M.split_dest(s)
	local a, b = s:match("^(.-):([^:]*)$")
	if a and a ~= "" then return a, b end
	return s, nil
end

--- A path in the box that an option names: absolute, without `.` or `..`,
-- else refused.
function M.clean_box_path(opt, typed, p)
	if p:sub(1, 1) ~= "/" or p:find("/%.%.?/") or p:find("/%.%.?$") then
		M.refuse("%s %s: DEST must be an absolute path without . or ..", opt, typed)
	end
	return p
end

--- A host path the operator typed (`PATH[:DEST]`), as the standard box
-- resolves it (`sbx.stdbox.host_path`): the path and DEST, or refused.
function M.host_path(opt, typed)
	local src, dst = M.split_dest(typed)
	local real, msg = require("sbx.stdbox").host_path(src)
	if not real then M.refuse("%s %s: %s", opt, typed, msg) end
	return real, dst
end

return M
