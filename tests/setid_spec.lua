-- SPDX-License-Identifier: MIT
-- sbx.core.clear_setid and sbx.setid: the scan of a writable host
-- directory for set-id files after a run, on real trees planted on the
-- host as a hostile box would leave them (symlinks out, FIFOs, deep and
-- wide trees, unreadable directories, names with control bytes).
local core = require "sbx.core"
local setid = require "sbx.setid"
local report = require "sbx.report"
local S = require "support"

local function sh(cmd)
	local out, code = S.sh(cmd .. " 2>&1")
	assert(code == 0, cmd .. ": " .. out)
	return out
end

-- The mode bits of a host path, without following a final symlink.
local function mode(path)
	return assert(core.lstat(path)).mode
end

-- found records as "path action mode" lines, sorted
local function summary(r)
	local t = {}
	for _, f in ipairs(r.found) do t[#t + 1] = ("%s %s %o"):format(f.path, f.action, f.mode) end
	table.sort(t)
	return t
end

describe("sbx.core.clear_setid [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)
	local euid = S.euid()
	local d, rm

	before_each(function()
		d, rm = S.tmpdir()
		-- a tree a box could leave behind
		sh(("cd %s && cp /bin/true su && chmod 4755 su && mkdir -p a/b && cp /bin/true a/b/sg"
			.. " && chmod 2711 a/b/sg && cp /bin/true both && chmod 6755 both && cp /bin/true plain"
			.. " && chmod 0755 plain && mkfifo fifo && chmod 4755 fifo && mkdir sgdir && chmod 2755 sgdir"
			.. " && cp /bin/true sticky && chmod 1755 sticky"):format(S.q(d)))
	end)
	after_each(function() rm() end)

	it("clears both bits of regular files at any depth, and nothing else", function()
		-- a symlink to a set-id file outside the tree: never followed
		local out, rm2 = S.tmpdir()
		sh(("cp /bin/true %s/target && chmod 4755 %s/target && ln -s %s/target %s/link && ln -s / %s/root")
			:format(S.q(out), S.q(out), S.q(out), S.q(d), S.q(d)))
		local r = assert(core.clear_setid(d))
		local target = mode(out .. "/target")
		rm2()
		assert.are.same({ "a/b/sg cleared 2711", "both cleared 6755", "su cleared 4755" }, summary(r))
		assert.are.same({}, r.errors)
		assert.is_nil(r.truncated)
		assert.are.equal(11, r.entries)
		for _, f in ipairs(r.found) do
			assert.are.equal(euid, f.uid)
			assert.is_nil(f.errno)
		end
		assert.are.equal(tonumber("755", 8), mode(d .. "/su"))
		assert.are.equal(tonumber("711", 8), mode(d .. "/a/b/sg"))
		assert.are.equal(tonumber("755", 8), mode(d .. "/both"))
		-- not regular files: a FIFO cannot run, a directory's bit is inherited
		-- by what is made in it, not a privilege
		assert.are.equal(tonumber("4755", 8), mode(d .. "/fifo"))
		assert.are.equal(tonumber("2755", 8), mode(d .. "/sgdir"))
		assert.are.equal(tonumber("1755", 8), mode(d .. "/sticky"))
		assert.are.equal(tonumber("4755", 8), target)
		assert.are.equal("link", core.lstat(d .. "/link").type)
		-- a second scan finds nothing left
		assert.are.same({}, assert(core.clear_setid(d)).found)
	end)

	it("reports without changing anything on dry_run", function()
		local r = assert(core.clear_setid(d, { dry_run = true }))
		assert.are.same({ "a/b/sg found 2711", "both found 6755", "su found 4755" }, summary(r))
		assert.are.equal(tonumber("4755", 8), mode(d .. "/su"))
	end)

	it("with uid, clears only that owner's files and keeps the others", function()
		local other = euid == 4242 and 4243 or 4242
		local r = assert(core.clear_setid(d, { uid = other }))
		assert.are.same({ "a/b/sg kept 2711", "both kept 6755", "su kept 4755" }, summary(r))
		assert.are.equal(tonumber("4755", 8), mode(d .. "/su"))
		r = assert(core.clear_setid(d, { uid = euid }))
		assert.are.same({ "a/b/sg cleared 2711", "both cleared 6755", "su cleared 4755" }, summary(r))
	end)

	it("never follows a symlink to or above the directory", function()
		sh(("ln -s a %s/linkdir && ln -s %s %s/top"):format(S.q(d), S.q(d), S.q(d)))
		for _, p in ipairs { d .. "/top", d .. "/linkdir", d .. "/linkdir/b", d .. "/top/a" } do
			local r, msg, err = core.clear_setid(p)
			assert.is_nil(r, p)
			assert.are.equal("open " .. p .. ": Too many levels of symbolic links", msg)
			assert.are.equal(core.errno.ELOOP, err)
		end
		assert.are.equal(tonumber("4755", 8), mode(d .. "/su"))
		local r, msg, err = core.clear_setid(d .. "/su")
		assert.is_nil(r)
		assert.are.equal("open " .. d .. "/su: Not a directory", msg)
		assert.are.equal(core.errno.ENOTDIR, err)
		r, msg, err = core.clear_setid(d .. "/nonexistent")
		assert.is_nil(r)
		assert.are.equal("open " .. d .. "/nonexistent: No such file or directory", msg)
		assert.are.equal(core.errno.ENOENT, err)
	end)

	it("is bounded in depth and in entries, and says where it stopped", function()
		sh(("cd %s && mkdir -p d1/d2/d3/d4 && cp /bin/true d1/s1 && chmod 4755 d1/s1"
			.. " && cp /bin/true d1/d2/d3/s3 && chmod 4755 d1/d2/d3/s3"):format(S.q(d)))
		local r = assert(core.clear_setid(d, { max_depth = 3 }))
		assert.are.equal("depth", r.truncated)
		-- the walk went on beside the deep directory
		assert.are.same({ "a/b/sg cleared 2711", "both cleared 6755", "d1/s1 cleared 4755",
			"su cleared 4755" }, summary(r))
		assert.are.equal(1, #r.errors)
		assert.are.equal("d1/d2/d3", r.errors[1].path)
		assert.are.equal("unchecked", r.errors[1].action)
		assert.are.equal("ELOOP", r.errors[1].errname)
		assert.are.equal(tonumber("4755", 8), mode(d .. "/d1/d2/d3/s3"))
		r = assert(core.clear_setid(d, { max_entries = 3 }))
		assert.are.equal("entries", r.truncated)
		assert.are.equal(3, r.entries)
		assert.is_true(#r.found <= 3)
		r = assert(core.clear_setid(d))
		assert.are.same({ "d1/d2/d3/s3 cleared 4755" }, summary(r))
	end)

	it("says which directory it could not read", function()
		-- a box can leave a directory its own host id cannot list (0311):
		-- other users could still run a file in it by name
		sh(("cd %s && mkdir locked && cp /bin/true locked/s && chmod 4755 locked/s && chmod 0311 locked")
			:format(S.q(d)))
		local r = assert(core.clear_setid(d))
		sh("chmod 0755 " .. S.q(d .. "/locked"))
		if euid == 0 then
			-- root reads any directory: checked and cleared
			assert.are.same({}, r.errors)
			assert.are.equal(tonumber("755", 8), mode(d .. "/locked/s"))
		else
			assert.are.same({ { path = "locked", action = "unchecked", errno = core.errno.EACCES,
				errname = "EACCES" } }, r.errors)
			assert.are.equal(tonumber("4755", 8), mode(d .. "/locked/s"))
		end
	end)
end)

describe("sbx.setid [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("turns scans into events with the box's paths, sorted, and the report's lines", function()
		local d, rm = S.tmpdir()
		local d2, rm2 = S.tmpdir()
		sh(("cd %s && cp /bin/true zz && chmod 4755 zz && mkdir -p x/y && cp /bin/true x/y/s && chmod 2755 x/y/s"
			.. " && cp /bin/true \"$(printf 'bad\\nname\\\\\\033')\" && chmod 4755 \"$(printf 'bad\\nname\\\\\\033')\""
			.. " && cp /bin/true \"$(printf '\\303\\251t\\303\\251')\" && chmod 4755 \"$(printf '\\303\\251t\\303\\251')\"")
			:format(S.q(d)))
		sh(("cd %s && cp /bin/true a && chmod 6755 a"):format(S.q(d2)))
		local ev = setid.clear({ { src = d, dst = "/work" }, { src = d2, dst = "/data" },
			{ src = d .. "/nonexistent", dst = "/gone" } }, { uid = S.euid() })
		rm()
		rm2()
		local lines = {}
		for i, e in ipairs(ev) do
			assert.are.equal("setid", e.kind)
			lines[i] = report.line(e)
		end
		assert.are.same({
			"cleared set-id bits: /work/bad\\nname\\\\\\x1b",
			"cleared set-id bits: /work/x/y/s",
			"cleared set-id bits: /work/zz",
			"cleared set-id bits: /work/\\xc3\\xa9t\\xc3\\xa9",
			"cleared set-id bits: /data/a",
			"cannot check for set-id files: /gone: ENOENT",
		}, lines)
		-- exit codes do not change: the run's own event decides
		table.insert(ev, 1, { kind = "exit", code = 3 })
		assert.are.equal(3, report.exit_code(ev))
	end)

	it("names a walk it stopped, and another owner's file is not its business", function()
		local d, rm = S.tmpdir()
		sh(("cd %s && mkdir -p a/b && cp /bin/true s && chmod 4755 s && touch a/1 a/2 a/3 t1 t2 t3"):format(S.q(d)))
		local ev = setid.clear({ { src = d, dst = "/" } }, { uid = S.euid() == 1 and 2 or 1 })
		assert.are.same({}, ev)
		ev = setid.clear({ { src = d, dst = "/w" } }, { max_entries = 2, max_depth = 1 })
		rm()
		-- which two entries are seen is the file system's order
		local stopped = 0
		for _, e in ipairs(ev) do
			local l = report.line(e)
			if l == "cannot check for set-id files: /w: stopped after 2 entries" then
				stopped = stopped + 1
			else
				assert.is_truthy(l == "cleared set-id bits: /w/s"
					or l == "cannot check for set-id files: /w/a: ELOOP", l)
			end
		end
		assert.are.equal(1, stopped)
	end)

	it("after_run scans the standard box's --rw directories as its host id", function()
		local d, rm = S.tmpdir()
		sh(("cd %s && cp /bin/true s && chmod 4755 s"):format(S.q(d)))
		local host = S.euid() == 0 and require("sbx.stdbox").root_host_id or S.euid()
		local ev = setid.after_run { rw = { { src = d, dst = "/work" } }, host_uid = host }
		local m = mode(d .. "/s")
		rm()
		if S.euid() == 0 then
			-- root's own file: not the box's (it maps to its own host id)
			assert.are.same({}, ev)
			assert.are.equal(tonumber("4755", 8), m)
		else
			assert.are.same({ { kind = "setid", action = "cleared", path = "/work/s" } }, ev)
			assert.are.equal(tonumber("755", 8), m)
		end
		assert.are.same({}, setid.after_run { host_uid = host })
	end)
end)
