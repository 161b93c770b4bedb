-- SPDX-License-Identifier: MIT
-- The behaviour corpus (tests/progs/behave/): small benign and hostile
-- programs, each run in the standard box and its behaviour summary
-- (sbx.behaviour, run.lua --json's `behaviour`) checked field by field;
-- every program twice, its behash the same both times.  Then what the
-- capture and the sink promise, checked from the host: a symlink the
-- program left is never followed out of the box (--keep), and nothing
-- reaches a listener on the host with --net sink.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local core = require "sbx.core"
local behaviour = require "sbx.behaviour"
local cjson = require "cjson"

local B = "build/tests/behave/"
local LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
-- every call named (strict), the box goes on: refusals fail the call
local DENY = { "--profile", "strict", "--mode", "deny" }
-- every call named and let through (the walls still hold)
local LOG = { "--profile", "strict", "--mode", "log" }
local SINK = { "--net", "sink" }

local function cat(...)
	local out = {}
	for _, t in ipairs { ... } do
		for _, v in ipairs(t) do out[#out + 1] = v end
	end
	return out
end

-- A dropped file as expected: path, mode and contents (its size and
-- sha256 follow).
-- every hash of data (core.hashes: the walk's are the same digests)
local function with_hashes(t, data)
	for k, v in pairs(core.hashes(data)) do t[k] = v end
	return t
end

local function drop(path, mode, data, executed)
	local t, m = core.filetype(data) -- the walk's types are libmagic's on the same bytes
	return with_hashes({ path = path, mode = mode, size = #data, type = t, mime = m, executed = executed }, data)
end

-- A payload executed from a memfd, as expected: the bytes of the file at
-- path (a program that copied itself), hashed and typed.
local function from_memory(path)
	local data = assert(S.read(path))
	local t, m = core.filetype(data)
	return with_hashes({ path = "/memfd:payload (deleted)", executed_from_memory = true, size = #data,
		type = t, mime = m }, data)
end

-- The programs: options, arguments, and the fields expected.  A field not
-- named is empty; `opened` is a subset of files_opened (all of it under
-- the default profile, which names no open); `tree` the process chains.
local CORPUS = {
	{ "hello", DENY, expect = { tags = { "exec" } }, opened = { LIBC } },
	{ "reader", DENY, expect = { tags = { "exec" } }, opened = { LIBC, "/etc/passwd" } },
	{ "writer", DENY, opened = { "/work/out.txt" }, expect = {
		files_written = { "/work/out.txt" },
		files_dropped = { drop("/work/out.txt", "0644", "benign output\n") },
		tags = { "dropper", "exec" } } },
	{ "scratch", DENY, expect = {
		files_written = { "/tmp/scratch" }, files_deleted = { "/tmp/scratch" },
		tags = { "exec" } } },
	{ "spawner", DENY, tree = { "/work/spawner", "/work/spawner>/bin/true" }, expect = {
		command_executions = { "/bin/true child", "/work/spawner" },
		processes_created = { "/bin/true", "/work/spawner" },
		tags = { "exec" } } },
	{ "deleter", LOG, expect = {
		files_written = { "/work/a.txt", "/work/b.txt", "/work/d/c.txt", "/work/keep.txt" },
		files_deleted = { "/etc/passwd", "/tmp/e", "/work/a.txt", "/work/b.txt", "/work/d",
			"/work/d/c.txt" },
		files_dropped = { drop("/work/keep.txt", "0644", "kept\n") },
		tags = { "dropper", "exec" } } },
	{ "renamer", LOG, expect = {
		files_written = { "/work/dos", "/work/one", "/work/three", "/work/tres", "/work/two",
			"/work/uno" },
		files_deleted = { "/work/one", "/work/three", "/work/two" },
		files_dropped = { drop("/work/dos", "0644", "2\n"), drop("/work/tres", "0644", "3\n"),
			drop("/work/uno", "0644", "1\n") },
		tags = { "dropper", "exec" } } },
	{ "locker", LOG, expect = {
		files_written = { "/work/README_LOCKED.txt", "/work/report.doc",
			"/work/report.doc.locked", "/work/report.doc.tmp" },
		files_deleted = { "/work/report.doc", "/work/report.doc.tmp" },
		files_dropped = { drop("/work/README_LOCKED.txt", "0444", "pay up\n"),
			drop("/work/report.doc.locked", "0600", "\x13\x37 scrambled\n") },
		tags = { "dropper", "exec" } } },
	{ "chmodder", LOG, expect = {
		files_written = { "/work/m1", "/work/m2", "/work/m3", "/work/m4" },
		files_attribute_changed = { "/work/m1", "/work/m2", "/work/m3", "/work/m4" },
		files_dropped = { drop("/work/m1", "0755", "1\n"), drop("/work/m2", "0700", "2\n"),
			drop("/work/m3", "0600", "3\n"), drop("/work/m4", "0640", "4\n") },
		tags = { "dropper", "exec" } } },
	{ "chowner", LOG, expect = {
		files_written = { "/work/o1", "/work/o2", "/work/o3", "/work/o4" },
		files_attribute_changed = { "/work/o1", "/work/o2", "/work/o3", "/work/o4" },
		files_dropped = { drop("/work/o1", "0644", "1\n"), drop("/work/o2", "0644", "2\n"),
			drop("/work/o4", "0644", "4\n") },
		tags = { "dropper", "exec" } } },
	{ "toucher", LOG, expect = {
		files_written = { "/work/t1", "/work/t2", "/work/t3", "/work/t4" },
		files_attribute_changed = { "/work/t1", "/work/t2", "/work/t3", "/work/t4" },
		files_dropped = { drop("/work/t1", "0644", "1\n"), drop("/work/t2", "0644", "2\n"),
			drop("/work/t3", "0644", "3\n"), drop("/work/t4", "0644", "4\n") },
		tags = { "dropper", "exec" } } },
	{ "xattrs", LOG, expect = {
		files_written = { "/work/x1", "/work/x2", "/work/x3" },
		files_attribute_changed = { "/work/x1", "/work/x2", "/work/x3" },
		files_dropped = { drop("/work/x1", "0644", "1\n"), drop("/work/x2", "0644", "2\n"),
			drop("/work/x3", "0644", "3\n") },
		tags = { "dropper", "exec" } } },
	{ "symtrap", LOG, expect = {
		files_written = { "/tmp/key.lnk", "/tmp/slash.lnk", "/tmp/slash.lnk/work/through.txt",
			"/work/root.lnk", "/work/shadow.lnk", "/work/through.txt", "/work/up.lnk" },
		files_dropped = { drop("/work/through.txt", "0644", "through\n") },
		tags = { "dropper", "exec" } } },
	{ "shadow", cat(DENY, { "--decoys" }), opened = { "/etc/shadow", "/home/dana/.ssh/id_rsa" },
		expect = { tags = { "decoy_read", "exec" } } },
	{ "dropexec", LOG, tree = { "/work/dropexec", "/work/dropexec>/tmp/stage2.sh" }, expect = {
		files_written = { "/tmp/stage2.sh", "/work/owned.txt" },
		files_dropped = { drop("/tmp/stage2.sh", "0755", "#!/bin/sh\necho owned > /work/owned.txt\n", true),
			drop("/work/owned.txt", "0644", "owned\n") },
		command_executions = { "/tmp/stage2.sh", "/work/dropexec" },
		processes_created = { "/tmp/stage2.sh", "/work/dropexec" },
		-- the dropped script, as its interpreter read it (docs/behaviour.md, Scripts)
		scripts_run = { { source = "/tmp/stage2.sh", language = "sh", size = 39,
			sha256 = core.sha256("#!/bin/sh\necho owned > /work/owned.txt\n") } },
		tags = { "dropper", "exec" } } },
	{ "forker", DENY, tree = { "/work/forker", "/work/forker>/bin/true" }, expect = {
		command_executions = { "/bin/true one", "/bin/true three", "/bin/true two", "/work/forker" },
		processes_created = { "/bin/true", "/work/forker" },
		tags = { "exec" } } },
	{ "connector", DENY, expect = {
		ip_traffic = { { transport_layer_protocol = "tcp", destination_ip = "10.0.0.1",
			destination_port = 4444, answer = "deny" } },
		calls_highlighted = { "connect" },
		tags = { "exec", "network", "refused_calls" } } },
	{ "exfil", cat(SINK, { "--decoys" }), expect = {
		ip_traffic = { { transport_layer_protocol = "tcp", destination_ip = "10.0.0.1",
			destination_port = 4444, bytes = 256 } },
		tags = { "network" } } },
	{ "beacon", SINK, expect = {
		dns_lookups = { { hostname = "c2.evil.example", resolved_ips = { "10.0.0.2" } } },
		ip_traffic = { { transport_layer_protocol = "tcp", destination_ip = "10.0.0.2",
			destination_port = 443, bytes = 12 }, { transport_layer_protocol = "udp",
			destination_ip = "10.0.0.2", destination_port = 8080, bytes = 4 } },
		tags = { "network" } } },
	{ "resolver", SINK, expect = {
		dns_lookups = { { hostname = "mirror.example.net", resolved_ips = { "10.0.0.2" } },
			{ hostname = "update.example.org", resolved_ips = { "10.0.0.2" } } },
		tags = { "network" } } },
	-- the jail lets memfd_create through (the supervisor makes the memfd)
	-- and records the exec of it (execveat, watched): the payload runs
	{ "fileless", {}, tree = { "/memfd:payload (deleted)" }, expect = { memory_files = { "payload" },
		processes_created = { "/memfd:payload (deleted)" }, command_executions = { "/work/fileless again" },
		files_dropped = { from_memory(B .. "fileless") }, tags = { "dropper", "exec" } } },
	{ "escaper", {}, expect = { calls_highlighted = { "mount", "ptrace", "unshare" },
		tags = { "namespaces", "ptrace", "refused_calls" } } },
}

-- run.lua with opts on program: the summary and the result
local function summary(opts, prog, ...)
	local d, rm = S.tmpdir()
	local argv = cat(opts, { "--json", d .. "/r.json", B .. prog }, { ... })
	local _, err, code = S.runlua(table.unpack(argv))
	local text = S.read(d .. "/r.json")
	rm()
	assert.is_string(text, err)
	local r = cjson.decode(text)
	return r.behaviour, r, err, code
end

-- the process tree as chains of names from each root
local function chains(list, above, out)
	out = out or {}
	for _, p in ipairs(list or {}) do
		local c = above and above .. ">" .. p.name or p.name
		out[#out + 1] = c
		chains(p.children, c, out)
	end
	return out
end

local function uniq(list)
	local out, seen = {}, {}
	for _, v in ipairs(list) do
		if not seen[v] then seen[v] = true out[#out + 1] = v end
	end
	table.sort(out)
	return out
end

describe("the behaviour corpus [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)
	local behashes = {}

	it("holds at least 20 programs, each built", function()
		assert.is_true(#CORPUS >= 20)
		for _, c in ipairs(CORPUS) do assert.truthy(S.read(B .. c[1]), c[1]) end
	end)

	for _, c in ipairs(CORPUS) do
		local name, opts = c[1], c[2]
		it(name .. ": every field as expected, the behash the same over two runs", function()
			local b, r, err, code = summary(opts, name)
			assert.are.equal(0, code, err)
			local strict = opts[1] == "--profile"
			local want = {}
			for k, v in pairs(c.expect) do want[k] = v end
			if strict then
				-- the program's own exec, named by the strict profile
				want.command_executions = want.command_executions or { "/work/" .. name }
				want.processes_created = want.processes_created or { "/work/" .. name }
			end
			for _, f in ipairs(behaviour.FIELDS) do
				if f == "files_opened" then
					local got = {}
					for _, p in ipairs(b.files_opened) do got[p] = true end
					for _, p in ipairs(c.opened or {}) do assert.truthy(got[p], name .. ": opened " .. p) end
					if not strict then assert.are.same({}, b.files_opened, name) end
				elseif f == "processes_tree" then
					local tree = c.tree or (strict and { "/work/" .. name } or {})
					assert.are.same(tree, uniq(chains(b.processes_tree)), name .. ": " .. f)
				else
					assert.are.same(want[f] or {}, b[f], name .. ": " .. f)
				end
			end
			assert.truthy(b.behash:find("^sha256:%x+$"))
			local b2, _, err2, code2 = summary(opts, name)
			assert.are.equal(0, code2, err2)
			assert.are.equal(b.behash, b2.behash, name)
			behashes[name] = b.behash
			assert.are.equal(behaviour.canonical(b), behaviour.canonical(b2), name)
			assert.are.equal(behaviour.text(b), behaviour.text(b2), name)
			-- a file the capture lists is in the box's writable places
			for _, f in ipairs(r.files or {}) do
				assert.truthy(f.path:find("^/work/") or f.path:find("^/tmp/") or f.path:find("^/dev/shm/")
					or f.path:find("^/home/dana/"),
					f.path)
			end
		end)
	end

	it("no two programs share a behash", function()
		local seen, n = {}, 0
		for name, h in pairs(behashes) do
			assert.is_nil(seen[h], name .. " and " .. tostring(seen[h]))
			seen[h] = name
			n = n + 1
		end
		assert.are.equal(#CORPUS, n)
	end)
end)

describe("the corpus checked from the host [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("symtrap: the capture keeps its links as links, never what they point to", function()
		local d, rm = S.tmpdir()
		local keep = d .. "/keep"
		local b, r, err, code = summary(cat(LOG, { "--keep", keep }), "symtrap")
		assert.are.equal(0, code, err)
		local links = {}
		for _, f in ipairs(r.files) do
			if f.type == "link" then
				links[f.path] = f.link
				assert.is_nil(f.sha256, f.path)
			end
		end
		assert.are.same({ ["/tmp/key.lnk"] = "/root/.ssh/id_rsa", ["/tmp/slash.lnk"] = "/",
			["/work/root.lnk"] = "/proc/1/root", ["/work/shadow.lnk"] = "/etc/shadow",
			["/work/up.lnk"] = "../../../../../../etc/passwd" }, links)
		assert.are.same({ drop("/work/through.txt", "0644", "through\n") }, b.files_dropped)
		-- the host's copy: the one regular file written, no link, nothing
		-- of the host's, nor the empty node the program's own bind
		-- covered (the tree's, not the program's)
		local listing = S.sh("cd " .. S.q(keep) .. " && find . -mindepth 1 -printf '%y %p\\n' | sort; "
			.. "find . -type f -printf '%s %p\\n' | sort")
		assert.are.equal("d ./work\nf ./work/through.txt\n8 ./work/through.txt\n", listing)
		assert.are.equal("through\n", S.read(keep .. "/work/through.txt"))
		rm()
	end)

	-- A listener on the host, TCP and UDP on one port of every address;
	-- it reports what reached it once the caller closes its fifo.
	local LISTENER = [[
import os, socket, sys
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("0.0.0.0", 0)); t.listen(8); port = t.getsockname()[1]
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("0.0.0.0", port))
print(port, flush=True)
open(sys.argv[1]).read()
t.setblocking(False); u.setblocking(False)
n = 0
for s in (t, u):
    try:
        while True:
            (s.accept() if s is t else s.recvfrom(4096)); n += 1
    except BlockingIOError:
        pass
print("reached", n, flush=True)
]]

	-- runs exfil PORT with the options opts(PORT) gives beside a host
	-- listener: what reached it
	local function reached(opts)
		local d, rm = S.tmpdir()
		local fifo = d .. "/go"
		assert(os.execute("mkfifo " .. S.q(fifo)))
		local h = assert(io.popen("/usr/bin/python3 -c " .. S.q(LISTENER) .. " " .. S.q(fifo)))
		local port = assert(math.tointeger(tonumber(h:read("l"))))
		local b, _, err, code = summary(opts(port), "exfil", tostring(port))
		local f = assert(io.open(fifo, "w"))
		f:close()
		local out = h:read("a")
		h:close()
		rm()
		return out, b, port, err, code
	end

	it("exfil with --net sink: the sink records it, nothing reaches the host", function()
		local out, b, port, err, code = reached(function(p)
			return cat(SINK, { "--decoys", "--sink-ports", tostring(p) })
		end)
		assert.are.equal(0, code, err)
		assert.are.equal("reached 0\n", out)
		local seen = {}
		for _, t in ipairs(b.ip_traffic) do
			seen[#seen + 1] = ("%s %s:%d"):format(t.transport_layer_protocol, t.destination_ip,
				t.destination_port)
		end
		assert.are.same({ "tcp 127.0.0.1:" .. port, "udp 127.0.0.1:" .. port }, seen)
	end)

	it("the listener itself sees exfil run with --net host (the check can fail)", function()
		local out, _, _, err, code = reached(function() return { "--net", "host", "--decoys" } end)
		assert.are.equal(0, code, err)
		assert.are_not.equal("reached 0\n", out)
	end)
end)
