-- SPDX-License-Identifier: MIT
-- Hostile programs against the explain channel's delete, rename and
-- attribute events (core/super/notify.c: describe_file, read_path, fd_path),
-- sbx.pool and the host-id check.  Each test runs the hostile program in a
-- real box and checks the report, the JSON and the host afterwards.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local cjson = require "cjson"

local PROFILE = "tests/profiles/attack2.lua"
local PROG = "build/tests/attack2"

-- runs PROG's ops under PROFILE in mode; stdout, stderr, code, the JSON
local function files(mode, ...)
	local json = os.tmpname()
	local out, err, code = S.runlua("--profile", PROFILE, "--mode", mode, "--json", json,
		PROG, "setup", ...)
	local text = assert(S.read(json), err)
	os.remove(json)
	return out, err, code, cjson.decode(text)
end

-- the events of these kinds, as "kind answer path [to] [syscall]"
local function calls(j)
	local out = {}
	for _, e in ipairs(j.events) do
		if e.kind == "delete" or e.kind == "rename" or e.kind == "attribute" then
			out[#out + 1] = table.concat({ e.kind, e.answer, tostring(e.path),
				e.kind == "rename" and tostring(e.to) or e.syscall }, " ")
		end
	end
	return out
end

-- every line of a report starts with "sandbox: " and is printable ASCII
local function one_line_each(err)
	for l in err:gmatch("([^\n]*)\n") do
		assert.truthy(l:find("^sandbox: [\32-\126]*$"), l)
	end
	assert.are.equal("\n", err:sub(-1))
end

describe("hostile file calls under the strict profile [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local FORGED = "/tmp/\\nsandbox: exit 0\\x1b[2J\\xff\\xfe"

	it("a newline, an escape and bytes not UTF-8 in a renamed name: one line, valid JSON (deny)", function()
		local out, err, code, j = files("deny", "forge")
		assert.are.equal("setup: ok\nforge: Permission denied\nforge: Operation not permitted\n"
			.. "forge: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to " .. FORGED .. " (EACCES)\n"
			.. "sandbox: denied: attribute " .. FORGED .. " (chmod) (EPERM)\n"
			-- the open failed (no such file): the descriptor has no name
			.. "sandbox: denied: attribute ? (fchmod) (EPERM)\n"
			.. "sandbox: exit 0\n", err)
		one_line_each(err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a " .. FORGED, "attribute deny " .. FORGED .. " chmod",
			"attribute deny ? fchmod" }, calls(j))
	end)

	it("the same name in stop mode: the refusal line is escaped", function()
		local out, err, code = files("stop", "forge")
		assert.are.equal("setup: ok\n", out)
		assert.are.equal("sandbox: refused: rename /tmp/ok/a to " .. FORGED .. "\n", err)
		assert.are.equal(125, code)
	end)

	it("log mode: the name, read back from /proc/PID/fd for fchmod, escaped in the JSON and the behaviour text", function()
		local out, err, code, j = files("log", "forge")
		assert.are.equal("setup: ok\nforge: ok\nforge: ok\nforge: ok\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename allow /tmp/ok/a " .. FORGED, "attribute allow " .. FORGED .. " chmod",
			"attribute allow " .. FORGED .. " fchmod" }, calls(j))
		-- the behaviour summary on stderr: no line of it starts with the
		-- report's prefix, a name's newline among them
		local json = os.tmpname()
		local _, e2 = S.runlua("--profile", PROFILE, "--mode", "log", "--behaviour", "--json", json,
			PROG, "setup", "forge")
		os.remove(json)
		local n = 0
		for l in e2:gmatch("([^\n]*)\n") do
			if l:find("^sandbox:") then n = n + 1 end
			assert.truthy(l:find("^[\32-\126]*$"), l)
		end
		assert.are.equal(1, n, e2)
		assert.truthy(e2:find("\nfiles_attribute_changed  /tmp/\\nsandbox: exit 0\\x1b[2J\\xff\\xfe\n", 1, true), e2)
	end)

	it("the behaviour text: a name's newline (valid UTF-8) does not start a line of its own", function()
		local out, err, code = S.runlua("--profile", PROFILE, "--mode", "deny", "--behaviour",
			PROG, "setup", "forge-utf8", "x\nsandbox: exit 0")
		assert.are.equal("setup: ok\nforge-utf8: ok\nx\nsandbox: exit 0: unknown\n", out)
		assert.are.equal(2, code)
		local n = 0
		for l in err:gmatch("([^\n]*)\n") do
			if l:find("^sandbox:") then n = n + 1 end
			assert.truthy(l:find("^[\32-\126]*$"), l)
		end
		assert.are.equal(1, n, err)
		assert.truthy(err:find("\n                         /tmp/ok/\\nsandbox: exit 0\n", 1, true), err)
		assert.truthy(err:find("\ncommand_executions       /work/attack2 setup forge-utf8 x\\nsandbox: exit 0\n",
			1, true), err)
	end)

	it("names unmapped or running into an unmapped page are '?' and refused", function()
		for _, o in ipairs { "unmapped", "edge" } do
			local out, err, code, j = files("deny", o)
			assert.are.equal("setup: ok\n" .. o .. ": Permission denied\n", out)
			assert.are.equal("sandbox: denied: rename /tmp/ok/a to ? (EACCES)\nsandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.same({ "rename deny /tmp/ok/a ?" }, calls(j))
		end
	end)

	it("a name longer than PATH_MAX is kept cut, with its length and a mark, and refused", function()
		local out, err, code, j = files("deny", "long")
		assert.are.equal("setup: ok\nlong: Permission denied\n", out)
		local cut = "/tmp/ok/" .. ("x"):rep(245) .. "[...]" .. ("x"):rep(253)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to " .. cut .. " (EACCES)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a " .. cut }, calls(j))
		for _, e in ipairs(j.events) do
			if e.kind == "rename" then assert.are.equal(4096, e.to_cut) end -- at least: PATH_MAX read
		end
	end)

	it("a relative name that does not fit the buffer after its cwd is named whole, cleaned, and refused", function()
		local out, err, code, j = files("deny", "long-rel")
		assert.are.equal("setup: ok\nlong-rel: Permission denied\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to /tmp/no/b (EACCES)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a /tmp/no/b" }, calls(j))
	end)

	it("renameat2 with RENAME_EXCHANGE or RENAME_WHITEOUT: both names checked, the flags kept", function()
		for o, f in pairs { exchange = { "/tmp/no/b", 2 }, whiteout = { "/tmp/no/w", 4 } } do
			local out, err, code, j = files("deny", o)
			assert.are.equal("setup: ok\n" .. o .. ": Permission denied\n", out)
			assert.are.equal(("sandbox: denied: rename /tmp/ok/a to %s (EACCES)\nsandbox: exit 0\n")
				:format(f[1]), err)
			assert.are.equal(0, code)
			assert.are.same({ "rename deny /tmp/ok/a " .. f[1] }, calls(j))
			for _, e in ipairs(j.events) do
				if e.kind == "rename" then assert.are.equal(f[2], e.flags) end
			end
		end
	end)

	it("a rename to an empty name against a pipe is refused like any unnamed one", function()
		local out, err, code, j = files("deny", "to-empty")
		assert.are.equal("setup: ok\nto-empty: Permission denied\n", out)
		assert.are.equal("sandbox: denied: rename /tmp/ok/a to ? (EACCES)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "rename deny /tmp/ok/a nil" }, calls(j))
	end)

	it("fchmod on a pipe, a socket, a closed descriptor: named by the link or '?', refused", function()
		local out, err, code, j = files("deny", "fchmod-pipe", "fchmod-socket", "fchmod-bad")
		assert.are.equal("setup: ok\nfchmod-pipe: Operation not permitted\n"
			.. "fchmod-socket: Operation not permitted\nfchmod-bad: Operation not permitted\n", out)
		local norm = err:gsub(":%[%d+%]", ":[N]")
		assert.are.equal("sandbox: denied: attribute pipe:[N] (fchmod) (EPERM)\n"
			.. "sandbox: denied: attribute socket:[N] (fchmod) (EPERM)\n"
			.. "sandbox: denied: attribute ? (fchmod) (EPERM)\n"
			.. "sandbox: exit 0\n", norm)
		assert.are.equal(0, code)
		assert.are.equal(3, #calls(j))
	end)

	it("fchmod with high bits over the descriptor is named by the descriptor the kernel uses", function()
		local out, err, code, j = files("log", "fchmod-high")
		assert.are.equal("setup: ok\nfchmod-high: ok\n", out)
		assert.are.equal("sandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "attribute allow /tmp/no/b fchmod" }, calls(j))
		out, err = files("deny", "fchmod-high")
		assert.are.equal("setup: ok\nfchmod-high: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: attribute /tmp/no/b (fchmod) (EPERM)\nsandbox: exit 0\n", err)
	end)

	it("fchownat with AT_EMPTY_PATH is named by its descriptor, or by the cwd", function()
		local out, err, code, j = files("deny", "fchownat-empty", "fchownat-cwd")
		assert.are.equal("setup: ok\nfchownat-empty: Operation not permitted\n"
			.. "fchownat-cwd: Operation not permitted\n", out)
		assert.are.equal("sandbox: denied: attribute /tmp/no/b (fchownat) (EPERM)\n"
			.. "sandbox: denied: attribute /tmp/no (fchownat) (EPERM)\nsandbox: exit 0\n", err)
		assert.are.equal(0, code)
		assert.are.same({ "attribute deny /tmp/no/b fchownat", "attribute deny /tmp/no fchownat" }, calls(j))
	end)

	it("3000 attribute events: all kept (within the budgets, notify.h), the JSON still valid", function()
		local out, err, code, j = files("log", "many")
		assert.are.equal("setup: ok\nmany: ok\n", out)
		assert.are.equal(0, code)
		local counted = 0
		for _, e in ipairs(j.events) do
			if e.kind == "attribute" then counted = counted + (e.count or 1) end
			assert.are_not.equal("dropped", e.kind)
		end
		assert.are.equal(3000, counted)
		assert.are.equal("sandbox: exit 0\n", err)
	end)
end)

describe("sbx.pool misused [" .. S.priv .. "]", function()
	local sbx = require "sbx"
	local profile = require "sbx.profile"
	S.leak_check(before_each, after_each, assert)

	local MINI = sbx.minimal_mounts()

	-- a box under tests/profiles/notify.lua (its opens notified) with rule
	local function ruled(argv, rule)
		local prof = assert(profile.load("tests/profiles/notify.lua"))
		local mode, ntable = profile.notify(prof)
		return { root = {}, mounts = MINI, argv = argv, env = { PATH = "/usr/bin:/bin" }, cwd = "/tmp",
			wall = 30, filter = assert(profile.compile(prof)), mode = mode, notify = ntable, rule = rule }
	end

	local holding = S.holding
	local function marked_sleep() return S.marked_sleep(MINI) end

	-- the children of the test process (a box's supervisor clone or init)
	local function children()
		local kids = {}
		local pid = S.pid()
		for tid in (S.sh("ls /proc/" .. pid .. "/task")):gmatch("%d+") do
			for c in (S.read("/proc/" .. pid .. "/task/" .. tid .. "/children") or ""):gmatch("%d+") do
				kids[#kids + 1] = c
			end
		end
		return kids
	end

	for _, what in ipairs { "wait", "close", "start" } do
		it("a rule that calls the pool's " .. what .. " during its wait raises there; the pool goes on", function()
			local p <close> = sbx.pool()
			local slow, marker = marked_sleep()
			assert(p:start(slow))
			local msg
			local t = assert(p:start(ruled({ "/bin/sh", "-c", "cat /usr/lib/os-release >/dev/null; echo $?" },
				function(ev)
					if ev.kind == "open" and ev.path == "/usr/lib/os-release" then
						local ok, m = pcall(p[what], p, what == "start" and slow or nil)
						msg = m
						assert(not ok)
					end
				end)))
			local got, r = p:wait()
			assert.are.equal(t, got)
			assert.matches("the pool is waiting", msg)
			assert.are.equal("exit", r.outcome, r.rule_error)
			-- the sleeper still runs, and is the pool's
			assert.are.equal(1, p:running())
			assert.are.equal(1, #holding(marker))
			p:close()
			assert.are.same({}, holding(marker))
		end)
	end

	it("a rule that raises the pool's error stops its own box only", function()
		local p <close> = sbx.pool()
		local t = assert(p:start(ruled({ "/bin/sh", "-c", "cat /usr/lib/os-release" }, function(ev)
			if ev.kind == "open" and ev.path == "/usr/lib/os-release" then p:close() end
		end)))
		local got, r = p:wait()
		assert.are.equal(t, got)
		assert.are.equal("refused", r.outcome)
		assert.matches("the pool is waiting", r.rule_error)
		assert.is_nil(p:wait())
	end)

	it("start after close raises; close stays idempotent", function()
		local p = sbx.pool()
		p:close()
		assert.has_error(function() p:start({ argv = { "/bin/true" }, mounts = MINI }) end,
			"attempt to use a closed pool")
		p:close()
		assert.is_nil(p:wait())
		assert.are.equal(0, p:running())
	end)

	it("a pool dropped with boxes running: the collector kills and reaps them", function()
		local markers = {}
		do
			local p = sbx.pool()
			for i = 1, 3 do
				local spec, m = marked_sleep()
				markers[i] = m
				assert(p:start(spec))
			end
			for _, m in ipairs(markers) do
				while #holding(m) == 0 do S.sh("sleep 0.02") end
			end
			p = nil -- luacheck: ignore 311
		end
		collectgarbage()
		collectgarbage()
		for _, m in ipairs(markers) do assert.are.same({}, holding(m), m) end
		assert.are.same({}, children())
	end)

	it("a box flooding its output while the caller works between waits: the cap holds, no deadlock", function()
		local p <close> = sbx.pool()
		local flood = assert(p:start({ argv = { "/bin/sh", "-c", "yes flood" }, mounts = MINI,
			stdout = "capture", output_limit = 65536, wall = 60 }))
		local quick = assert(p:start({ argv = { "/bin/sh", "-c", "echo quick" }, mounts = MINI,
			stdout = "capture" }))
		local got = {}
		for _ = 1, 2 do
			local t, r = p:wait()
			got[t] = r
			-- Lua work between the waits: a running flood's pipe fills
			-- and it blocks
			local x = 0
			for i = 1, 3e6 do x = x + i % 7 end
			assert.is_true(x > 0)
		end
		assert.are.equal("quick\n", got[quick].stdout)
		assert.are.equal("output", got[flood].outcome)
		assert.is_true(#got[flood].stdout <= 65536, #got[flood].stdout)
		assert.is_nil(p:wait())
	end)
end)

describe("the host-id check against a box's processes [" .. S.priv .. "]", function()
	local sbx = require "sbx"
	local core = require "sbx.core"
	local hostid = require "sbx._hostid"
	S.leak_check(before_each, after_each, assert)

	local holding = S.holding

	it("daemons a box starts (setsid, double fork) are not host processes of its id, and die with it", function()
		-- a root caller's box runs as the root host id; another caller's
		-- as the caller's own uid, which the test process holds already
		local root = core.ids().euid == 0
		local id = root and hostid.root_host_id or core.ids().euid
		-- the count is compared for a root caller only: an unprivileged
		-- caller's id is the suite's own, whose processes (another suite
		-- running beside this one) come and go meanwhile
		local before = root and assert(core.uid_users(id))
		local function ns(pid, kind) return (S.sh("readlink /proc/" .. pid .. "/ns/" .. kind)) end
		local marker = ("1000.%06d%d"):format(math.random(0, 999999), S.pid())
		local p <close> = sbx.pool()
		assert(p:start({ argv = { "/bin/sh", "-c", ("setsid /bin/sleep %s & "
			.. "(/bin/sleep %s &) ; exec /bin/sleep %s"):format(marker, marker, marker) },
			mounts = sbx.minimal_mounts() }))
		while #holding(marker) < 3 do S.sh("sleep 0.02") end
		-- they run as id on the host: only their namespaces set them apart
		for _, pid in ipairs(holding(marker)) do
			local uid = (S.read("/proc/" .. pid .. "/status") or ""):match("\nUid:%s*(%d+)")
			assert.are.equal(tostring(id), uid)
			-- what the check passes over: namespaces of their own
			assert.are_not.equal(ns("self", "user"), ns(pid, "user"))
			assert.are_not.equal(ns("self", "pid"), ns(pid, "pid"))
		end
		if root then
			assert.are.equal(before, assert(core.uid_users(id)))
			assert.is_true((hostid.check_host_id(id)))
		end
		p:close()
		assert.are.same({}, holding(marker))
		if root then assert.are.equal(before, assert(core.uid_users(id))) end
		-- the next run is let through, and runs
		assert.are.equal("exit", S.run("true").outcome)
	end)
end)

describe("--image: hard links in a layer [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local tmp, cleanup, L

	-- a layout of one image of the base layer (dash, its libraries) and
	-- a layer of `members` ({name, data=} a file, {name, hard=TARGET} a
	-- hard link, {name, sym=TARGET} a symbolic link); its reference
	local function image(members)
		local base = tmp .. "/base"
		local spec = tmp .. "/members.json"
		S.write(spec, cjson.encode(members))
		local out, code = S.sh("set -e; L=" .. S.q(L) .. "; B=" .. S.q(base) .. "; mkdir -p \"$L/blobs/sha256\" \"$B/bin\"; "
			.. "cp /usr/bin/dash \"$B/bin/sh\"; for l in $(ldd /usr/bin/dash | grep -o '/[^ ]*'); do "
			.. "mkdir -p \"$B$(dirname $l)\"; cp \"$l\" \"$B$l\"; done; tar -C \"$B\" -cf " .. S.q(tmp .. "/l1.tar") .. " .; "
			.. "/usr/bin/python3 -c '\n"
			.. "import hashlib, io, json, os, sys, tarfile\n"
			.. "L, tmp, spec = sys.argv[1:4]\n"
			.. "with tarfile.open(tmp + \"/l2.tar\", \"w\", format=tarfile.GNU_FORMAT) as t:\n"
			.. "    for m in json.load(open(spec)):\n"
			.. "        i = tarfile.TarInfo(m[\"1\"])\n"
			.. "        i.mode = 0o644; i.mtime = 1\n"
			.. "        if m.get(\"hard\"): i.type = tarfile.LNKTYPE; i.linkname = m[\"hard\"]; t.addfile(i)\n"
			.. "        elif m.get(\"sym\"): i.type = tarfile.SYMTYPE; i.linkname = m[\"sym\"]; t.addfile(i)\n"
			.. "        else: d = m.get(\"data\", \"\").encode(); i.size = len(d); t.addfile(i, io.BytesIO(d))\n"
			.. "def blob(data, media):\n"
			.. "    h = hashlib.sha256(data).hexdigest()\n"
			.. "    open(L + \"/blobs/sha256/\" + h, \"wb\").write(data)\n"
			.. "    return {\"mediaType\": media, \"digest\": \"sha256:\" + h, \"size\": len(data)}\n"
			.. "T = \"application/vnd.oci.image.layer.v1.tar\"\n"
			.. "ls = [blob(open(tmp + \"/l1.tar\", \"rb\").read(), T), blob(open(tmp + \"/l2.tar\", \"rb\").read(), T)]\n"
			.. "C = {\"architecture\": \"amd64\", \"os\": \"linux\",\n"
			.. "    \"rootfs\": {\"type\": \"layers\", \"diff_ids\": []}}\n"
			.. "c = blob(json.dumps(C).encode(), \"application/vnd.oci.image.config.v1+json\")\n"
			.. "M = \"application/vnd.oci.image.manifest.v1+json\"\n"
			.. "m = blob(json.dumps({\"schemaVersion\": 2, \"mediaType\": M, \"config\": c, \"layers\": ls}).encode(), M)\n"
			.. "open(L + \"/oci-layout\", \"w\").write(json.dumps({\"imageLayoutVersion\": \"1.0.0\"}))\n"
			.. "open(L + \"/index.json\", \"w\").write(json.dumps({\"schemaVersion\": 2, \"manifests\": [m]}))\n"
			.. "print(m[\"digest\"])\n' " .. S.q(L) .. " " .. S.q(tmp) .. " " .. S.q(spec) .. " 2>&1")
		assert.are.equal(0, code, out)
		return L .. "@" .. out:match("(sha256:%x+)")
	end

	before_each(function()
		tmp, cleanup = S.tmpdir()
		L = tmp .. "/layout"
	end)
	after_each(function() cleanup() end)

	local function run(ref, ...)
		return S.runlua_env("XDG_CACHE_HOME=" .. S.q(tmp .. "/cache"), "--image", ref, ...)
	end

	-- the host files a hard link must never reach
	local function host_links(path)
		return S.sh("stat -c %h " .. S.q(path)):gsub("%s+$", "")
	end

	it("a hard link to a host path (absolute, or the layout's own blob) is not made to the host's file", function()
		local secret = tmp .. "/secret"
		S.write(secret, "host\n")
		for _, target in ipairs { secret, "/etc/passwd", "/work/out/root/bin/sh", "/proc/self/exe" } do
			local ref = image { { "a", data = "x" }, { "h", hard = target } }
			local out, err, code = run(ref, "/bin/sh", "-c", "read x < /h; echo \"$x\"")
			-- refused (no such file inside the box's tree), or a link to the
			-- image's own file: never the host's
			-- tar strips the leading "/" and finds no such file in the
			-- image's tree: the image is refused, nothing cached
			assert.are.equal(126, code, err)
			assert.are.equal("", out)
			assert.truthy(err:find(": cannot unpack layer 2: tar: h: Cannot hard link to ", 1, true), err)
			assert.are.equal("", (S.sh("ls -A " .. S.q(tmp .. "/cache/sbxlua/images") .. " 2>/dev/null")))
			assert.are.equal("1", host_links(secret))
			assert.are.equal("1", host_links("/etc/passwd"))
		end
	end)

	it("a hard link to a planted symbolic link stays a link inside the tree", function()
		local ref = image { { "s", sym = "/etc/passwd" }, { "h", hard = "s" } }
		local out, err, code = run(ref, "/bin/sh", "-c", "while read l; do case $l in dana:*) echo dana;; esac; done < /h")
		-- the box's own /etc/passwd (sbxlua's, naming the box user), not the host's
		assert.are.equal(0, code, err)
		assert.are.equal("dana\n", out)
	end)
end)
