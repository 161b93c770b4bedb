-- SPDX-License-Identifier: MIT
-- No lock of the box on a host file, written as the attack: a file whose
-- device no mount of the host lists (a nested btrfs subvolume, an overlay
-- over two file systems), the host's network namespace file under
-- --net host, a host tmpfs bound over a --tmp place.  The box is given the
-- file, tries every lock on it and holds it open; the host's `flock -n`
-- must succeed meanwhile, and the box's refusal is recorded.  The box's
-- own files (/tmp, its home, /dev/shm) lock as on a host.
-- scripts/test.sh runs this file as root and as uid 65534; the file
-- systems made from loop images need root (pending otherwise).
local S = require "support"

local PY = "/usr/bin/python3"

-- the box's side: open the file, take each lock (blocking ones where a
-- blocking wait could hang), say what it got in /work/tried, then hold the
-- file open until the host says done
local TRY = [[
import errno, fcntl, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
rd = struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, 0, 0, 0, 0)
locks = (("flock", lambda: fcntl.flock(fd, fcntl.LOCK_EX)),
         ("flock_nb", lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)),
         ("setlk", lambda: fcntl.fcntl(fd, fcntl.F_SETLK, rd)),
         ("setlkw", lambda: fcntl.fcntl(fd, fcntl.F_SETLKW, rd)),
         ("ofd", lambda: fcntl.fcntl(fd, fcntl.F_OFD_SETLKW, rd)))
]] .. S.PY_TRY_LOCKS
local REFUSED = "flock ENOLCK\nflock_nb ENOLCK\nsetlk ENOLCK\nsetlkw ENOLCK\nofd ENOLCK\n"

-- a host command that must succeed; its output
local function must(cmd)
	local out, code = S.sh(cmd .. " 2>&1")
	assert(code == 0, cmd .. ": " .. out)
	return out
end

-- the devices (major:minor) the host's mount table lists
local function host_devices()
	local d = {}
	for l in (S.read("/proc/self/mountinfo") or ""):gmatch("[^\n]+") do
		local dev = l:match("^%d+ %d+ (%d+:%d+) ")
		if dev then d[dev] = true end
	end
	return d
end

-- path's device as major:minor
local function device(path)
	local t = must("stat -c '%Hd:%Ld' " .. S.q(path)):gsub("%s+$", "")
	return t
end

describe("no lock on a host file [" .. S.priv .. "]", function()
	local dir, rm, undo

	before_each(function()
		dir, rm = S.tmpdir()
		assert(os.execute("chmod 755 " .. S.q(dir)))
		undo = {}
	end)
	after_each(function()
		-- mounts and loop devices go whatever the test did: in reverse
		for i = #undo, 1, -1 do os.execute(undo[i] .. " >/dev/null 2>&1") end
		rm()
	end)

	-- a work directory the box writes whoever runs it
	local function work()
		local w = dir .. "/work"
		must("mkdir " .. S.q(w) .. " && chmod 1777 " .. S.q(w))
		return w
	end

	-- `sbxlua run.lua --json dir/box.json options... --rw w:/work` runs
	-- TRY on dest in the background (stdout, stderr and status in
	-- box.out, box.err and box.status of dir); during() runs while the
	-- box holds dest open.  Whether the box tried, its stderr, and what
	-- during() returned.
	local function try_locks(w, dest, during, ...)
		local args = { "--json", dir .. "/box.json", ... }
		for _, a in ipairs { "--rw", w .. ":/work", PY, "-c", TRY, dest } do args[#args + 1] = a end
		return S.meanwhile(dir .. "/box", w, args, during)
	end

	-- the refusals the box's JSON recorded, as "syscall errno path" lines
	local function refusals()
		local cjson = require "cjson"
		local j = cjson.decode(S.read(dir .. "/box.json") or "null")
		local r = {}
		for _, e in ipairs(j and j.events or {}) do
			if e.answer == "deny" then
				r[#r + 1] = ("%s %s %s"):format(e.syscall, e.errno, e.path)
			end
		end
		return table.concat(r, "\n")
	end

	-- the box (options ...) tries every lock on the host's file, seen in
	-- the box at dest; the host tries `flock -n` while the box holds it
	-- open: the host gets it, the box ENOLCK, each refusal recorded
	local function attack(file, dest, ...)
		local tried, err, host, held = try_locks(work(), dest, function()
			local _, host = S.sh("flock -n " .. S.q(file) .. " true")
			return host, S.proc_locks(file)
		end, ...)
		assert.truthy(tried, err)
		assert.are.equal(0, host, "the host's flock -n failed while the box held " .. file)
		assert.are.equal("", held)
		assert.are.equal(REFUSED, S.read(dir .. "/box.out"), err)
		assert.are.equal("0\n", S.read(dir .. "/box.status"), err)
		local rec = refusals()
		for _, call in ipairs { "flock", "fcntl" } do
			assert.truthy(rec:find(call .. " ENOLCK " .. dest, 1, true), rec)
		end
	end

	describe("file systems whose devices no mount lists", function()
		local root = S.euid() == 0
		local function test(name, fn)
			if root then
				it(name, fn)
			else
				pending(name .. ": needs root (loop devices and mounts)")
			end
		end

		-- a loop device over a new image of size of dir; mkfs run on it
		local function loop_fs(name, size, mkfs)
			local img = dir .. "/" .. name .. ".img"
			must("truncate -s " .. size .. " " .. S.q(img))
			local dev = must("losetup -f --show " .. S.q(img)):gsub("%s+$", "")
			undo[#undo + 1] = "losetup -d " .. dev
			must(mkfs .. " " .. dev)
			local mnt = dir .. "/" .. name
			must("mkdir " .. S.q(mnt) .. " && mount " .. dev .. " " .. S.q(mnt))
			undo[#undo + 1] = "umount -l " .. S.q(mnt)
			return mnt
		end

		-- a file in a btrfs subvolume nested in the mounted one
		local function btrfs_file()
			local mnt = loop_fs("btrfs", "128M", "mkfs.btrfs -q -f")
			must("btrfs -q subvolume create " .. S.q(mnt .. "/sub"))
			local f = mnt .. "/sub/file"
			must("echo host >" .. S.q(f) .. " && chmod 644 " .. S.q(f))
			return f
		end

		-- a file of an overlay's lower layer (an ext4 image), its upper
		-- layer on another file system
		local function overlay_file()
			local low = loop_fs("ext4", "16M", "mkfs.ext4 -q -F")
			must("echo host >" .. S.q(low .. "/file") .. " && chmod 644 " .. S.q(low .. "/file"))
			local up, wk, m = dir .. "/upper", dir .. "/owork", dir .. "/overlay"
			must(("mkdir %s %s %s"):format(S.q(up), S.q(wk), S.q(m)))
			must(("mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s")
				:format(S.q(low), S.q(up), S.q(wk), S.q(m)))
			undo[#undo + 1] = "umount -l " .. S.q(m)
			return m .. "/file"
		end

		for _, fs in ipairs { { "a nested btrfs subvolume", btrfs_file }, { "an overlay", overlay_file } } do
			test(fs[1] .. ": the host's flock -n succeeds while the box tries every lock on an --ro file",
				function()
					local file = fs[2]()
					-- the hole itself: the file's device is in no mount
					assert.is_nil(host_devices()[device(file)], device(file))
					attack(file, "/srv/file", "--ro", file .. ":/srv/file")
				end)
		end

		test("a nested btrfs subvolume: a lock the host holds stays the host's, the box refused at once", function()
			local file = btrfs_file()
			local w = work()
			-- the host holds the file's flock until the box has tried
			must(("(flock %s sh -c 'touch %s; while [ ! -e %s ]; do sleep 0.01; done' >/dev/null 2>&1 &)")
				:format(S.q(file), S.q(dir .. "/held"), S.q(w .. "/done")))
			assert.truthy(S.wait_for(dir .. "/held", dir .. "/box.status"))
			local tried, err, again = try_locks(w, "/srv/file", function()
				return select(2, S.sh("flock -n " .. S.q(file) .. " true"))
			end, "--ro", file .. ":/srv/file")
			assert.truthy(tried, err)
			assert.are.equal(1, again, "the host's own lock was not held")
			assert.are.equal(REFUSED, S.read(dir .. "/box.out"), err)
		end)
	end)

	it("--net host: the host's network namespace file is not the box's to lock", function()
		-- the host's own /proc/self/ns/net: the same inode under --net host
		local tried, err, host = try_locks(work(), "/proc/self/ns/net", function()
			return select(2, S.sh("flock -n /proc/self/ns/net true"))
		end, "--net", "host")
		assert.truthy(tried, err)
		assert.are.equal(0, host, "the host's flock -n on its network namespace failed")
		assert.are.equal(REFUSED, S.read(dir .. "/box.out"), err)
		assert.truthy(refusals():find("flock ENOLCK net:[", 1, true), refusals())
	end)

	it("a host tmpfs bound over a tmpfs place of the box is not the box's tmpfs", function()
		-- run.lua mounts binds before tmpfs places; a spec may bind over
		-- one: the host's /dev/shm (a tmpfs) covers the box's /x, which
		-- init then leaves out (handover.c), so /x's files are the host's
		local sbx = require "sbx"
		local profile = require "sbx.profile"
		local shm = ("/dev/shm/sbxlock.%s"):format(S.unique())
		must("mkdir " .. S.q(shm) .. " && chmod 755 " .. S.q(shm))
		undo[#undo + 1] = "rm -rf " .. S.q(shm)
		must("echo host >" .. S.q(shm .. "/file") .. " && chmod 644 " .. S.q(shm .. "/file"))
		local prof = assert(profile.load("default"))
		local mode, ntable = profile.notify(prof)
		local mounts = sbx.minimal_mounts()
		mounts[#mounts + 1] = { type = "tmpfs", dst = "/x" }
		mounts[#mounts + 1] = { type = "bind", src = shm, dst = "/x" }
		local res = assert(sbx.run(S.spec(nil, {
			argv = { PY, "-c", [[
import errno, fcntl, os
for path in ("/x/file", "/tmp/own"):
    fd = os.open(path, os.O_RDONLY | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print(path, "locked")
    except OSError as e:
        print(path, errno.errorcode[e.errno])
]] },
			mounts = mounts, stdout = "capture",
			filter = assert(profile.compile(prof)), mode = mode, notify = ntable })))
		assert.are.equal("/x/file ENOLCK\n/tmp/own locked\n", res.stdout)
		local rec = {}
		for _, e in ipairs(res.events or {}) do
			if e.answer == "deny" then rec[#rec + 1] = ("%s %s %s"):format(e.syscall, e.errno, e.path) end
		end
		assert.are.equal("flock ENOLCK /x/file", table.concat(rec, "\n"))
	end)

	it("the box's own files lock as on a host: /tmp, its home, /dev/shm, a directory", function()
		local out, err, code = S.runlua(PY, "-c", [[
import fcntl, os, struct
wr = struct.pack("hhxxxxqqixxxx", fcntl.F_WRLCK, 0, 0, 0, 0)
for path in ("/tmp/own", os.environ["HOME"] + "/own", "/dev/shm/own", "/tmp"):
    fd = os.open(path, os.O_RDONLY) if path == "/tmp" else os.open(path, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    if path != "/tmp":
        fcntl.fcntl(fd, fcntl.F_SETLK, wr)
    pid = os.fork()
    if pid == 0:
        try:
            fcntl.flock(os.open(path, os.O_RDONLY), fcntl.LOCK_EX | fcntl.LOCK_NB)
            os._exit(0)
        except OSError as e:
            os._exit(e.errno)
    print(path.replace(os.environ["HOME"], "~"), os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
]])
		assert.are.equal(0, code, err)
		assert.are.equal("/tmp/own 11\n~/own 11\n/dev/shm/own 11\n/tmp 11\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
	end)
end)
