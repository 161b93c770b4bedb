-- SPDX-License-Identifier: MIT
--- sbx.written: the files a box leaves in its writable places, and the
-- decoy credentials placed in it.
--
-- The core records the written places after the program ends and before
-- the box goes away (`spec.capture`, core/super/capture.c): through a descriptor
-- of the box's root that its init sends, never following a symlink; each
-- file's path as the box sees it, type, size, mode and SHA-256 (a
-- symlink's text, never followed), bounded in entries, depth and bytes.
-- This module says which places, places the decoys, and reads the record.
local M = {}

local ipairs, type, error, tonumber = ipairs, type, error, tonumber
local sort, concat = table.sort, table.concat
local io_open = io.open

--- The bounds of the walk (`spec.capture`'s fields).
M.bounds = { entries = 10000, depth = 32, read_bytes = 256 << 20,
	keep_bytes = 64 << 20, keep_total = 256 << 20 }

--- The most places a box's record walks (the core's SBX_PLACES_MAX).
M.places_max = 16

--- The writable places of the standard box: /work, /tmp, /dev/shm, the
-- box user's home (when it is a place of its own), every `--tmp` and
-- every `--rw` destination, each once, in that order.
-- @tparam table o the standard box's options (`tmp`, `rw` lists of `{dst=}`)
-- @tparam[opt] string home the home's path
-- @treturn table a list of paths inside the box; or nil, reason (more
-- than `M.places_max`)
function M.places(o, home)
	if type(o) ~= "table" then error("bad argument #1 to 'places' (table expected)", 2) end
	local list, seen = {}, {}
	local function add(p)
		if not seen[p] then
			seen[p] = true
			list[#list + 1] = p
		end
	end
	add("/work")
	add("/tmp")
	add("/dev/shm")
	if home then add(home) end
	for _, t in ipairs(o.tmp or {}) do add(t.dst) end
	for _, b in ipairs(o.rw or {}) do add(b.dst) end
	if #list > M.places_max then
		return nil, ("--tmp and --rw: at most %d writable places in all, with /work, /tmp, /dev/shm and the home")
			:format(M.places_max)
	end
	return list
end

-- the kernel's random bytes, read 4 KiB at a time; each handed out once
local pool, used = "", 0

--- n random bytes from the kernel (/dev/urandom), none handed out twice.
function M.random_bytes(n)
	if type(n) ~= "number" or math.type(n) ~= "integer" or n < 0 or n > 1 << 20 then
		error("bad argument #1 to 'random_bytes' (a count of bytes from 0 to 1 MiB expected)", 2)
	end
	if used + n > #pool then
		local f = assert(io_open("/dev/urandom", "rb"))
		pool, used = assert(f:read(math.max(4096, n))), 0
		f:close()
	end
	used = used + n
	return pool:sub(used - n + 1, used)
end

-- each alphabet's table from a byte to its character, or to "" for the
-- bytes past the last whole multiple of its length (drawn again, so that
-- every character is as likely)
local by_byte = {}

local function byte_map(abc)
	local m = by_byte[abc]
	if not m then
		m = {}
		local top = 256 - 256 % #abc
		for v = 0, 255 do
			local i = v % #abc + 1
			m[string.char(v)] = v < top and abc:sub(i, i) or ""
		end
		by_byte[abc] = m
	end
	return m
end

-- n random characters of the alphabet abc (fewer than 256 of them)
local function random_text(n, abc)
	local m, out, have = byte_map(abc), {}, 0
	while have < n do
		local s = M.random_bytes(n - have):gsub(".", m)
		out[#out + 1], have = s, have + #s
	end
	return concat(out)
end

local LOWER = "abcdefghijklmnopqrstuvwxyz0123456789"
local BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
local CRYPT = "./" .. ALNUM

--- A decoy's marker: 24 random lower-case letters and digits, unique per
-- run, that reads as part of the key material around it (a base64 key's
-- body, a secret, a hash) and holds no fixed word a sample could look for.
-- Lower case, as the sink's records are searched (a DNS name's case is
-- not kept).
function M.marker()
	return random_text(24, LOWER)
end

-- A decoy's contents around its marker: plausible to a reader, random
-- apart from each format's fixed parts.
local shapes = {
	{ name = "~/.ssh/id_rsa", path = "/.ssh/id_rsa", home = true, make = function(m)
		-- an RSA key's base64 body (1190 bytes of DER), the marker within
		local body = "MIIEpAIBAAKCAQEA" .. random_text(700, BASE64) .. m .. random_text(852, BASE64) .. "=="
		local lines = {}
		for i = 1, #body, 64 do lines[#lines + 1] = body:sub(i, i + 63) end
		return "-----BEGIN RSA PRIVATE KEY-----\n" .. concat(lines, "\n")
			.. "\n-----END RSA PRIVATE KEY-----\n"
	end },
	{ name = "~/.aws/credentials", path = "/.aws/credentials", home = true, make = function(m)
		return "[default]\naws_access_key_id = AKIA" .. random_text(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
			.. "\naws_secret_access_key = " .. random_text(9, ALNUM) .. m .. random_text(7, ALNUM .. "+/")
			.. "\nregion = us-east-1\n"
	end },
	{ name = "~/.config/google-chrome/Default/Login Data",
		path = "/.config/google-chrome/Default/Login Data", home = true, make = function(m)
			-- the header of an SQLite database, then a row's bytes
			return "SQLite format 3\0" .. ("\0"):rep(84)
				.. "https://accounts.example.com/login\0admin\0" .. m .. "\0"
		end },
	{ name = "/etc/shadow", path = "/etc/shadow", make = function(m, user)
		-- a SHA-512 crypt hash: 16 characters of salt, 86 of hash
		return "root:$6$" .. random_text(16, CRYPT) .. "$" .. m .. random_text(62, CRYPT)
			.. ":19700:0:99999:7:::\n" .. user .. ":!:19700:0:99999:7:::\n"
	end },
}

--- The decoys of a run: each with its name (`~/.ssh/id_rsa`), its path
-- in the box, a marker random per run (`M.marker`), its contents and
-- their SHA-256.  The home decoys are placed in the box user's home, and
-- only where it is the box's own tmpfs (never into a host directory
-- bound at /work when that is the home).
-- @tparam boolean work_host /work is a host directory (`--rw DIR:/work`)
-- @tparam function sha256 a string's SHA-256 as hex (`sbx.core.sha256`)
-- @tparam table user the box user (`name`, `home`: `sbx.stdbox.user`)
-- @treturn table a list of `{name, path, marker, data, sha256}`
function M.decoys(work_host, sha256, user)
	if type(sha256) ~= "function" then error("bad argument #2 to 'decoys' (function expected)", 2) end
	if type(user) ~= "table" then error("bad argument #3 to 'decoys' (table expected)", 2) end
	local home_host = work_host and user.home == "/work"
	local list = {}
	for _, s in ipairs(shapes) do
		if not (s.home and home_host) then
			local marker = M.marker()
			local data = s.make(marker, user.name)
			list[#list + 1] = { name = s.name, path = s.home and user.home .. s.path or s.path,
				marker = marker, data = data, sha256 = sha256(data) }
		end
	end
	return list
end

--- The mount operations that place the decoys: read-only files (0400)
-- of the box's user in its tree.
function M.decoy_mounts(decoys)
	local ops = {}
	for _, d in ipairs(decoys) do
		ops[#ops + 1] = { type = "file", dst = d.path, data = d.data, mode = tonumber("400", 8) }
	end
	return ops
end

--- The written files of a run's result, by path, with the decoys left as
-- they were placed marked `decoy` (not written by the program).  The
-- places are walked once the box has ended, each mount of its tree
-- detached by then: the node a mount covered (the empty file under the
-- program's bind at /work/prog) shows, and is the tree's, not the
-- program's (it could not touch it while covered).
-- @tparam table r the result of box:run()
-- @tparam[opt] table decoys from `M.decoys`
-- @tparam[opt] table mount_points a set of the tree's mount destinations;
-- a path whose value is a SHA-256 (hex) is a file the tree placed (a dot
-- file of the home), left out only while it still has that content
-- @treturn table the list (empty when the run had no record)
function M.files(r, decoys, mount_points)
	local placed = {}
	for _, d in ipairs(decoys or {}) do placed[d.path] = d end
	mount_points = mount_points or {}
	local list = {}
	for _, f in ipairs(r.files or {}) do
		local d = placed[f.path]
		if d and f.sha256 == d.sha256 then f.decoy = d.name end
		local m = mount_points[f.path]
		if type(m) == "string" then m = f.type == "file" and f.sha256 == m end
		if not m then list[#list + 1] = f end
	end
	sort(list, function(a, b) return a.path < b.path end)
	return list
end

--- The hashes of a file read whole (`core.hashes`): a dropped file's, a
-- memory payload's, the sample's (absent: none; `tlsh` below 256 bytes).
M.HASHES = { "md5", "sha1", "sha256", "ssdeep", "tlsh" }

--- The regular files the program wrote, as `files_dropped` (path, size,
-- mode, sha256; `type` and `mime`, libmagic's description and MIME type
-- of the file's first 64 KiB as the walk read them, named by the
-- inspection worker, for a file read whole and typed within the run's
-- budget: the result's `inspect_skipped` counts those left untyped).
function M.dropped(files)
	local out = {}
	for _, f in ipairs(files) do
		if f.type == "file" and not f.decoy then
			local d = { path = f.path, size = f.size, mode = ("%04o"):format(f.mode),
				type = f.filetype, mime = f.mime }
			for _, h in ipairs(M.HASHES) do d[h] = f[h] end
			out[#out + 1] = d
		end
	end
	return out
end

--- Where a decoy's marker appears: in a written file (not the decoy
-- itself as placed), in captured output, or in what the network sink
-- recorded (`--net sink`: a connection's or datagram's first bytes, a
-- name looked up).
-- @treturn table a list of `{decoy = name, where = path, "stdout",
-- "stderr", "tcp 10.0.0.1:4444" or "a dns lookup"}`, each once, in the
-- order of the decoys, then of the places
function M.marker_hits(r, files, decoys)
	local hits, seen = {}, {}
	local function add(h)
		local k = h.decoy .. "\0" .. h.where
		if not seen[k] then
			seen[k] = true
			hits[#hits + 1] = h
		end
	end
	for _, f in ipairs(files) do
		if not f.decoy then
			for _, i in ipairs(f.markers or {}) do
				if decoys[i] then add { decoy = decoys[i].name, where = f.path } end
			end
		end
	end
	for _, s in ipairs { "stdout", "stderr" } do
		if type(r[s]) == "string" then
			for _, d in ipairs(decoys) do
				if r[s]:find(d.marker, 1, true) then add { decoy = d.name, where = s } end
			end
		end
	end
	for _, e in ipairs(type(r.sink) == "table" and r.sink or {}) do
		local text, where = e.data, nil
		if e.kind == "dns" then
			text, where = e.name, "a dns lookup"
		elseif e.protocol and e.address and e.port then
			where = ("%s %s:%d"):format(e.protocol, e.address, e.port)
		end
		for _, d in ipairs(where and type(text) == "string" and decoys or {}) do
			if text:lower():find(d.marker, 1, true) then add { decoy = d.name, where = where } end
		end
	end
	-- one order whatever the order the sink's records completed in: by
	-- decoy as placed, then by place
	local rank = {}
	for i, d in ipairs(decoys) do rank[d.name] = i end
	sort(hits, function(a, b)
		if rank[a.decoy] ~= rank[b.decoy] then return rank[a.decoy] < rank[b.decoy] end
		return a.where < b.where
	end)
	return hits
end

--- The markers in the core's order (`spec.capture.markers`).
function M.markers(decoys)
	local m = {}
	for i, d in ipairs(decoys) do m[i] = d.marker end
	return m
end

return M
