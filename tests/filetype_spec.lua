-- SPDX-License-Identifier: MIT
-- File types by libmagic (core/api/magic_lua.c): sbx.core.filetype and
-- its errors, the dropped files' `type` and `mime` (the walk's own bytes,
-- core/super/capture.c), the rule wrote_executable's type clause, and
-- what a hostile program leaves for the typing: random bytes, a symlink
-- swapped in at the dropped path, a FIFO, a huge file.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local sbx = require "sbx"

-- files_dropped by path, and the written record by path, of a run
local function dropped(...)
	local _, err, code, res = S.json_run(...)
	assert.is_table(res, err)
	local by, files = {}, {}
	for _, f in ipairs(res.behaviour.files_dropped) do by[f.path] = f end
	for _, f in ipairs(res.files or {}) do files[f.path] = f end
	return by, res, files, code, err
end

local function findings(res)
	local out = {}
	for _, v in ipairs(res.behaviour.verdicts or {}) do out[v.rule] = v.reason end
	return out
end

describe("sbx.core.filetype [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("names bytes, an sbx.file and a descriptor", function()
		assert.are.equal(core.filetype, sbx.filetype)
		local t, m = core.filetype("#!/bin/sh\necho hi\n")
		assert.truthy(t:find("shell script", 1, true), t)
		assert.are.equal("text/x-shellscript", m)
		local f = assert(core.open_file("/usr/bin/true"))
		t, m = core.filetype(f)
		assert.truthy(t:find("^ELF 64%-bit"), t)
		assert.truthy(m:find("^application/x%-"), m)
		f:close()
		assert.are.same({ "empty", "application/x-empty" }, { core.filetype("") })
	end)

	it("reads a descriptor from its start, whatever its offset", function()
		local h = assert(io.open("/usr/bin/true", "rb"))
		h:read(100) -- the stream's offset moves; pread does not care
		local fd
		for n, target in pairs(S.fds_now()) do
			if target == "/usr/bin/true" then fd = n end
		end
		assert.is_number(fd)
		local t = core.filetype(fd)
		h:close()
		assert.truthy(t:find("^ELF"), t)
	end)

	it("names a type whose words hold a date (a .pyc's timestamp: no time zone file in the worker)", function()
		-- CPython 3.11's magic, flags 0 (timestamp-based), a timestamp, a size
		local pyc = "\xa7\x0d\x0d\x0a" .. ("\0"):rep(4) .. "\x00\x00\x00\x60" .. "\x21\x00\x00\x00"
			.. ("\0"):rep(16)
		local t, m = core.filetype(pyc)
		assert.truthy(t and t:find("^Byte%-compiled Python module"), t or m)
		assert.truthy(t:find("timestamp", 1, true), t)
	end)

	it("looks at the first 64 KiB only", function()
		local t = core.filetype("#!/bin/sh\n" .. ("x"):rep(200000))
		assert.truthy(t:find("script", 1, true), t)
		t = core.filetype(("\0"):rep(65536) .. "#!/bin/sh\n")
		assert.is_nil(t:find("script", 1, true), t)
	end)

	it("raises for bad arguments and fails for an unreadable descriptor", function()
		-- the message names the function as the caller reached it
		local function raises(why, ...)
			local ok, msg = pcall(core.filetype, ...)
			assert.is_false(ok)
			assert.truthy(msg:find("^bad argument #1 to '[%w.]*filetype' %(" .. why:gsub("%p", "%%%0") .. "%)$"), msg)
		end
		raises("string, sbx.file or descriptor expected, got no value")
		raises("string, sbx.file or descriptor expected, got table", {})
		raises("string, sbx.file or descriptor expected, got number", 1.5)
		raises("invalid descriptor", -1)
		raises("invalid descriptor", 1 << 40)
		local f = assert(core.open_file("/usr/bin/true"))
		f:close()
		raises("file is closed", f)
		local d = assert(core.open_dir("/tmp"))
		raises("string, sbx.file or descriptor expected, got sbx.dir", d)
		d:close()
		local ok, msg, err = core.filetype(1000000)
		assert.is_nil(ok)
		assert.are.equal("read descriptor: Bad file descriptor", msg)
		assert.are.equal(core.errno.EBADF, err)
	end)
end)

describe("dropped files' types [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("types a dropped ELF and script; the rule reads the script's type", function()
		local by, res = dropped("--explore", "/bin/sh", "-c",
			'cp /bin/true /tmp/x; printf "#!/bin/sh\\necho hi\\n" > /work/s; chmod 644 /work/s')
		assert.truthy(by["/tmp/x"].type:find("^ELF 64%-bit LSB"), by["/tmp/x"].type)
		assert.truthy(by["/tmp/x"].mime:find("^application/x%-"), by["/tmp/x"].mime)
		assert.are.equal("POSIX shell script, ASCII text executable", by["/work/s"].type)
		assert.are.equal("text/x-shellscript", by["/work/s"].mime)
		assert.truthy(findings(res).wrote_executable)
		-- the script alone, mode 0644, no script's name: only its type says it
		by, res = dropped("--explore", "/bin/sh", "-c", 'printf "#!/bin/sh\\necho hi\\n" > /work/s')
		assert.are.equal("0644", by["/work/s"].mode)
		assert.are.equal("wrote an executable or a script: /work/s (POSIX shell script, ASCII text executable)",
			findings(res).wrote_executable)
	end)

	it("types a dropped file that ran", function()
		local by = dropped("--explore", "/bin/sh", "-c", "cp /bin/true /tmp/x && /tmp/x")
		assert.truthy(by["/tmp/x"].type:find("^ELF"), by["/tmp/x"].type)
		assert.is_true(by["/tmp/x"].executed)
	end)

	it("types a payload executed from a memfd, from the supervisor's read of it", function()
		local by, res = dropped("--explore", "build/tests/behave/fileless")
		local f = by["/memfd:payload (deleted)"]
		assert.is_true(f.executed_from_memory)
		assert.truthy(f.type:find("^ELF 64%-bit"), f.type)
		local typed = 0
		for _, e in ipairs(res.events) do
			if e.kind == "exec" and e.sha256 then
				assert.are.equal(f.type, e.type)
				assert.are.equal(f.mime, e.mime)
				typed = typed + 1
			end
		end
		assert.are.equal(1, typed)
	end)

	it("types random bytes as what they are, from the walk's own read", function()
		local by = dropped("--explore", "/bin/sh", "-c", "head -c 100000 /dev/urandom > /tmp/r")
		local f = by["/tmp/r"]
		assert.are.equal(100000, f.size)
		assert.is_string(f.type)
		assert.is_string(f.mime)
		assert.are.equal(64, #f.sha256)
	end)

	it("types no symlink swapped in at the dropped path, nor a FIFO", function()
		local by, _, files = dropped("--explore", "/bin/sh", "-c",
			"cp /bin/true /work/x && rm /work/x && ln -s /usr/bin/true /work/x; "
			.. "cp /bin/true /tmp/f && rm /tmp/f && mkfifo /tmp/f")
		assert.is_nil(by["/work/x"])
		assert.are.equal("link", files["/work/x"].type)
		assert.are.equal("/usr/bin/true", files["/work/x"].link)
		assert.is_nil(files["/work/x"].filetype)
		assert.is_nil(by["/tmp/f"])
		assert.are.equal("fifo", files["/tmp/f"].type)
		assert.is_nil(files["/tmp/f"].filetype)
	end)

	it("types at most 256 files a run, and says so", function()
		local _, res, files = dropped("--explore", "/bin/sh", "-c",
			"i=0; while [ $i -lt 300 ]; do echo $i > /work/f$i; i=$((i+1)); done")
		local typed, n = 0, 0
		for path, f in pairs(files) do
			if path:find("^/work/f%d+$") then n = n + 1 end
			if f.filetype then typed = typed + 1 end
		end
		assert.are.equal(300, n)
		assert.are.equal(256, typed) -- the decoys' and the others' in all
		assert.is_true(res.files_bounds.types)
	end)

	it("types a big file by its head, and no file past the read bound", function()
		-- five files of 60 MiB (under the box's file size limit) pass the
		-- walk's 256 MiB read bound
		local by = dropped("--explore", "/bin/sh", "-c",
			"cp /bin/true /tmp/big && head -c 20000000 /dev/zero >> /tmp/big")
		assert.truthy(by["/tmp/big"].size > 20000000)
		assert.truthy(by["/tmp/big"].type:find("^ELF"), by["/tmp/big"].type)
		local by2, _, files = dropped("--explore", "/bin/sh", "-c", "for i in 1 2 3 4 5; do truncate -s 60M /work/h$i; done")
		local bound = 0
		for i = 1, 5 do
			local f = files["/work/h" .. i]
			assert.are.equal(60 << 20, f.size)
			if f.unread == "bound" then
				bound = bound + 1
				assert.is_nil(f.filetype)
				assert.is_nil(by2[f.path].type)
			else
				assert.are.equal("data", f.filetype)
			end
		end
		assert.truthy(bound >= 1, "no file past the bound")
	end)
end)
