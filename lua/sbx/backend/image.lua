-- SPDX-License-Identifier: MIT
--- A local OCI image as the namespace box's root: `--image DIR@sha256:HEX`.
--
-- DIR is an OCI image layout (`oci-layout`, `index.json`,
-- `blobs/sha256/...`, the image-layout specification's directory) and HEX
-- the digest of a manifest that its `index.json` lists.  Nothing is ever
-- pulled.  Every blob the image uses (the manifest, the config, each
-- layer) is read by descriptor (no symbolic link on its path followed),
-- its size and sha256 checked against the descriptor that names it, before
-- it is used; a missing blob, another size or sum, a media type or digest
-- algorithm not listed here, a manifest the index does not list: refused.
--
-- The layers are unpacked, in order, into a cache of the caller's own
-- (`<sbxlua cache>/images`, the compiled-program cache's directory,
-- `sbx.profile.cache_dir`, checked the same way: a directory owned by the
-- caller with no right for group or others), keyed by the manifest's
-- digest, made atomically: unpacked under a temporary name, renamed into
-- place when complete, re-used by later runs.  Then the box runs over it
-- as over `--rootfs` (`sbx.backend.rootfs`).
--
-- Trust boundary: a layer is hostile.  A tar member may be absolute,
-- hold `..`, or go through a symbolic link an earlier member or layer
-- planted; a whiteout may name `..`.  So no layer is ever extracted by
-- the caller on the host: `tar` runs inside a standard box (no network,
-- no capability, the default seccomp profile, Landlock), the layer on its
-- stdin, the temporary directory bound read-write at `/work/out` and
-- nothing else of the host writable.  Whatever a member names, the box
-- can write only there.  The sums are checked on the host side, on the
-- verified bytes copied into the temporary directory, which no box can
-- write: the bytes checked are the bytes unpacked.  The decompressed tar
-- streams are bounded in all (`M.MAX_UNPACKED`, each gzip layer measured
-- in a box before it is unpacked), so a small layer cannot fill the
-- caller's disk.  After the boxes the
-- host side renames one directory it checks is a directory (no link) and
-- removes the rest without following links.
-- @module sbx.backend.image
local core = require "sbx.core"
local cjson = require "cjson"
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"
local profile = require "sbx.profile"
local rootfs = require "sbx.backend.rootfs"

local M = {}

--- The media types taken: the manifest, the config, and each layer's
-- (value: the tar option that reads it).
M.MANIFEST = "application/vnd.oci.image.manifest.v1+json"
M.CONFIG = "application/vnd.oci.image.config.v1+json"
M.LAYERS = {
	["application/vnd.oci.image.layer.v1.tar"] = "",
	["application/vnd.oci.image.layer.v1.tar+gzip"] = "z",
}

--- Bounds: the JSON blobs (index, manifest, config) and each layer
-- (read whole into memory to be summed, then written to the cache); and
-- the tar streams of all the layers, decompressed, in bytes: what a
-- layer can write to the caller's disk (a file's data comes from its
-- stream, a sparse file's holes take no room, a hard link none), so that a
-- compressed layer of a few kilobytes cannot fill the disk.
M.MAX_JSON = 4 * 1024 * 1024
M.MAX_LAYER = 2 * 1024 * 1024 * 1024
M.MAX_UNPACKED = 8 * 1024 * 1024 * 1024

-- The limits of the box that unpacks a layer.
local UNPACK_LIMITS = { wall = 600, cpu = 600, file_size = 16 * 1024 * 1024 * 1024, tasks = 64 }

local shell = require "sbx._shell"
local q, sh = shell.quote, shell.run

local function why(msg) return (msg and (msg:match(": (.*)$") or msg)) or "unknown error" end

--- Splits an image reference `DIR@sha256:HEX` (HEX: 64 lowercase hex
-- digits; DIR taken as `sbx.stdbox.host_path` takes a path: a real path,
-- no symbolic link of another owner on it).
-- @tparam string ref
-- @return dir, "sha256:<hex>"; or nil, why
function M.parse(ref)
	if type(ref) ~= "string" then return nil, "expected DIR@sha256:<digest>" end
	local name, hex = ref:match("^(.+)@sha256:(.*)$")
	if not name then return nil, "expected DIR@sha256:<digest> (the digest of a manifest in DIR/index.json)" end
	if #hex ~= 64 or hex:find("[^0-9a-f]") then
		return nil, "the digest is sha256: and 64 lowercase hexadecimal digits"
	end
	local dir, msg = stdbox.host_path(name)
	if not dir then return nil, ("cannot open the image layout %s: %s"):format(name, msg) end
	local st = core.lstat(dir)
	if not st or st.type ~= "dir" then return nil, ("cannot open the image layout %s: not a directory"):format(name) end
	return dir, "sha256:" .. hex
end

-- A JSON object read from a file of the layout (no link followed).
local function read_json(path, what)
	local f <close>, msg = core.open_file(path)
	if not f then return nil, ("cannot read %s: %s"):format(what, why(msg)) end
	local text, rmsg = f:read(M.MAX_JSON)
	if not text then return nil, ("cannot read %s: %s"):format(what, why(rmsg)) end
	local ok, v = pcall(cjson.decode, text)
	if not ok or type(v) ~= "table" then return nil, ("cannot read %s: not a JSON object"):format(what) end
	return v
end

-- The hex of a descriptor's digest, its size; or nil, why.
local function check_descriptor(d, what, max)
	if type(d) ~= "table" then return nil, ("cannot use the %s: no descriptor"):format(what) end
	local dg = d.digest
	if type(dg) ~= "string" then return nil, ("cannot use the %s: its descriptor has no digest"):format(what) end
	local alg, hex = dg:match("^([%w+._-]+):(.*)$")
	if alg ~= "sha256" then
		return nil, ("cannot use the %s %s: unknown digest algorithm"):format(what, dg)
	end
	if #hex ~= 64 or hex:find("[^0-9a-f]") then
		return nil, ("cannot use the %s %s: malformed digest"):format(what, dg)
	end
	local size = d.size
	if math.type(size) ~= "integer" and not (type(size) == "number" and size == math.floor(size)) then
		return nil, ("cannot use the %s %s: its descriptor has no size"):format(what, dg)
	end
	size = math.tointeger(size)
	if size < 0 or size > max then
		return nil, ("cannot use the %s %s: size %d out of range (at most %d)"):format(what, dg, size, max)
	end
	return hex, size
end

--- Reads the blob a descriptor names from the layout `dir` and checks it:
-- present, a regular file reached with no symbolic link, of the size and
-- sha256 the descriptor says.
-- @tparam string dir the layout
-- @tparam table d the descriptor (`digest`, `size`)
-- @tparam string what its role, for the message (`manifest`, `layer 2`)
-- @tparam integer max the largest size taken
-- @return the bytes; or nil, why
function M.blob(dir, d, what, max)
	local hex, size = check_descriptor(d, what, max)
	if not hex then return nil, size end
	local name = "sha256:" .. hex
	local f <close>, msg, err = core.open_file(dir .. "/blobs/sha256/" .. hex)
	if not f then
		if err == core.errno.ENOENT then return nil, ("cannot use the %s %s: blob missing"):format(what, name) end
		return nil, ("cannot use the %s %s: %s"):format(what, name, why(msg))
	end
	local st = f:stat()
	if not st or st.size ~= size then
		return nil, ("cannot use the %s %s: size %s, the descriptor says %d"):format(what, name,
			st and tostring(st.size) or "unknown", size)
	end
	local data, rmsg = f:read(size)
	if not data or #data ~= size then
		return nil, ("cannot use the %s %s: %s"):format(what, name, data and "changed while read" or why(rmsg))
	end
	local sum = core.sha256(data)
	if sum ~= hex then
		return nil, ("cannot use the %s %s: its content's sha256 is %s (not verified)"):format(what, name, sum)
	end
	return data
end

--- Reads and checks the image `digest` of the layout `dir`: `oci-layout`,
-- the manifest `index.json` lists under that digest, the manifest and its
-- config (each blob's sum checked), the layers' descriptors (media types
-- and digests; their blobs are read by `M.unpack`).
-- @return `{digest=, manifest=, config=, layers = { {digest=, size=, z=} ... }}`; or nil, why
function M.read(dir, digest)
	local layout, lerr = read_json(dir .. "/oci-layout", "oci-layout")
	if not layout then return nil, lerr end
	if layout.imageLayoutVersion ~= "1.0.0" then
		return nil, ("cannot use the image layout: imageLayoutVersion %s (expected 1.0.0)")
			:format(tostring(layout.imageLayoutVersion))
	end
	local index, ierr = read_json(dir .. "/index.json", "index.json")
	if not index then return nil, ierr end
	local found
	for _, d in ipairs(type(index.manifests) == "table" and index.manifests or {}) do
		if type(d) == "table" and d.digest == digest then found = d end
	end
	if not found then return nil, ("cannot find the manifest %s in index.json"):format(digest) end
	if found.mediaType ~= M.MANIFEST then
		return nil, ("cannot use the manifest %s: unknown media type %s"):format(digest, tostring(found.mediaType))
	end
	local mtext, merr = M.blob(dir, found, "manifest", M.MAX_JSON)
	if not mtext then return nil, merr end
	local ok, manifest = pcall(cjson.decode, mtext)
	if not ok or type(manifest) ~= "table" or manifest.schemaVersion ~= 2 then
		return nil, ("cannot use the manifest %s: not an image manifest (schemaVersion 2)"):format(digest)
	end
	if manifest.mediaType ~= nil and manifest.mediaType ~= M.MANIFEST then
		return nil, ("cannot use the manifest %s: unknown media type %s"):format(digest, tostring(manifest.mediaType))
	end
	local cd = manifest.config
	if type(cd) ~= "table" or cd.mediaType ~= M.CONFIG then
		return nil, ("cannot use the config of %s: unknown media type %s"):format(digest,
			tostring(type(cd) == "table" and cd.mediaType or nil))
	end
	local ctext, cerr = M.blob(dir, cd, "config", M.MAX_JSON)
	if not ctext then return nil, cerr end
	local cok, config = pcall(cjson.decode, ctext)
	if not cok or type(config) ~= "table" then return nil, "cannot use the config: not a JSON object" end
	if config.os ~= "linux" or config.architecture ~= "amd64" then
		return nil, ("cannot use the image: it is for %s/%s, this host runs linux/amd64")
			:format(tostring(config.os), tostring(config.architecture))
	end
	if type(manifest.layers) ~= "table" then return nil, "cannot use the manifest: no layers" end
	local layers = {}
	for i, d in ipairs(manifest.layers) do
		local what = "layer " .. i
		local z = type(d) == "table" and M.LAYERS[d.mediaType]
		if not z then
			return nil, ("cannot use %s: unknown media type %s"):format(what,
				tostring(type(d) == "table" and d.mediaType or nil))
		end
		local hex, size = check_descriptor(d, what, M.MAX_LAYER)
		if not hex then return nil, size end
		layers[i] = { digest = d.digest, hex = hex, size = size, z = z, descriptor = d, what = what }
	end
	if #layers == 0 then return nil, "cannot use the manifest: no layers" end
	return { digest = digest, manifest = manifest, config = config, layers = layers, dir = dir }
end

local function owned(st, want)
	return st ~= nil and st.type == want and st.uid == core.ids().euid
end

-- A directory of the caller's own (made 0700 when absent): owned by the
-- caller, no link, no right for group or others; nil, why otherwise.
local function private_dir(path)
	local st = core.lstat(path)
	if st == nil then
		core.mkdir(path, tonumber("700", 8))
		st = core.lstat(path)
	end
	if not owned(st, "dir") then return nil, path .. ": not a directory of the caller's own" end
	if st.mode & tonumber("077", 8) ~= 0 then return nil, path .. ": open to group or others" end
	return path
end

--- The image cache: `<sbxlua cache>/images` (`sbx.profile.cache_dir`),
-- each directory made 0700 when absent and checked: the caller's own,
-- no link, no right for group or others.
-- @return the path; or nil, why
function M.cache_dir()
	local base = profile.cache_dir()
	if not base then return nil, "no cache directory ($XDG_CACHE_HOME or $HOME is not an absolute path)" end
	local parent = base:match("^(.*)/[^/]*$")
	if parent ~= "" and core.lstat(parent) == nil then core.mkdir(parent, tonumber("700", 8)) end
	local b, err = private_dir(base)
	if not b then return nil, err end
	return private_dir(base .. "/images")
end

-- The script of the box that unpacks one layer (stdin) into
-- /work/out/root (the entries under `dev/` left out: the box makes its
-- own /dev, and a device node cannot be made in a box): the first layer
-- straight there, another into a fresh directory, its whiteouts applied
-- to the layers below (`.wh.NAME` removes NAME, `.wh..wh..opq` empties its
-- directory) and removed, the rest copied over (holes kept: a sparse file
-- takes no more room below than in its layer), set-id bits cleared.  $1:
-- the tar option of its compression.  Runs in the box: nothing it names
-- reaches past /work/out.
local LAYER_SCRIPT = [[
set -e
cd /work/out
x() { tar -x"$1"f - -C "$2" --no-same-owner --no-same-permissions --anchored --exclude='./dev/*' --exclude='dev/*'; }
if [ ! -e root ]; then
	# the first layer: nothing below it to white out
	mkdir root
	x "$1" root
	find root -name '.wh.*' -exec rm -rf -- {} +
	find root -xdev -type f -perm /6000 -exec chmod ug-s -- {} +
	exit 0
fi
rm -rf layer
mkdir layer
x "$1" layer
find layer -name '.wh.*' -print0 | xargs -0 -r sh -c '
for w; do
	r=${w#layer}; d=${r%/*}; n=${r##*/}
	case $n in
	.wh..wh..opq) if [ -d "root$d" ] && [ ! -L "root$d" ]; then
		find "root$d" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +; fi ;;
	.wh.|.wh..|.wh...) ;;
	*) rm -rf -- "root$d/${n#.wh.}" ;;
	esac
	rm -rf -- "$w"
done' sh
tar -C layer --sparse -cf - . | tar -C root -xf - --no-same-owner --no-same-permissions
rm -rf layer
find root -xdev -type f -perm /6000 -exec chmod ug-s -- {} +
]]

-- The script of the box that measures one layer's tar stream (stdin,
-- decompressed with $1 = z): its length in bytes, at most $2 (head stops
-- reading there, and gzip with it).
local MEASURE_SCRIPT = [[
if [ "$1" = z ]; then gzip -dc; else cat; fi | head -c "$2" | wc -c
]]

-- Runs script in a box with the layer's verified copy on stdin (and out
-- bound read-write at /work/out, when given); its result, or nil, why.
local function layer_box(copy, layer, script, args, out)
	local stdin, msg = core.open_file(copy)
	if not stdin then return nil, ("cannot unpack %s: %s"):format(layer.what, why(msg)) end
	local spec, info = stdbox.build {
		prog = "/bin/sh", args = { "-c", script, "sh", table.unpack(args) },
		ro = {}, rw = out and { { src = out, dst = "/work/out" } } or {}, socket = {}, tmp = {}, env = {},
		limits = UNPACK_LIMITS, net = "none", stdin = stdin, capture = false,
		stdout = "capture", stderr = "capture", cgroup = false,
	}
	if not spec then
		stdin:close()
		return nil, ("cannot unpack %s: %s"):format(layer.what, info)
	end
	local r, rmsg = sbx.run(spec)
	stdin:close()
	if not r then return nil, ("cannot unpack %s: %s"):format(layer.what, why(rmsg)) end
	if r.outcome ~= "exit" or r.code ~= 0 then
		-- the first line that says what failed: not tar's warnings
		-- of names it rewrote, nor its closing summary
		local said
		for l in (r.stderr or ""):gmatch("[^\n]+") do
			if not said and not l:find("^tar: Removing leading") and not l:find("^tar: Exiting with failure") then
				said = l
			end
		end
		said = said or (r.stderr or ""):match("([^\n]+)\n?$")
		return nil, ("cannot unpack %s: %s"):format(layer.what,
			said or (r.outcome .. " " .. tostring(r.code or r.signal or "")))
	end
	return r
end

-- The length of the layer's tar stream (size: its blob's), when it is at
-- most left bytes; else nil, why.  A compressed stream is measured in a
-- box, from the verified copy the unpacking box reads next.
local function stream_size(copy, layer, size, left)
	if layer.z == "z" then
		local r, err = layer_box(copy, layer, MEASURE_SCRIPT, { layer.z, tostring(left + 1) })
		if not r then return nil, err end
		size = math.tointeger(tonumber((r.stdout or ""):match("^%s*(%d+)%s*$")))
		if not size then return nil, ("cannot unpack %s: its length was not measured"):format(layer.what) end
	end
	if size > left then
		return nil, ("cannot unpack %s: the image's layers hold more than %d bytes of tar "
			.. "(sbx.backend.image.MAX_UNPACKED)"):format(layer.what, M.MAX_UNPACKED)
	end
	return size
end

-- Each layer of img in turn: its blob read and checked, copied into tmp
-- (where no box can write), its stream measured against what is left of
-- `M.MAX_UNPACKED`, and unpacked by a box into out.  true, or nil, why.
local function unpack_layers(img, tmp, out)
	local left = M.MAX_UNPACKED
	for i, layer in ipairs(img.layers) do
		local data, berr = M.blob(img.dir, layer.descriptor, layer.what, M.MAX_LAYER)
		if not data then return nil, berr end
		-- the verified bytes, in a file no box can write
		local copy = tmp .. "/layer-" .. i
		local f = io.open(copy, "wb")
		if not f or not f:write(data) or not f:close() then
			return nil, "cannot use the image cache: cannot write " .. copy
		end
		local blob_size = #data
		data = nil -- luacheck: ignore 311
		collectgarbage()
		local size, serr = stream_size(copy, layer, blob_size, left)
		local ok, uerr = size, serr
		if size then
			left = left - size
			ok, uerr = layer_box(copy, layer, LAYER_SCRIPT, { layer.z }, out)
		end
		os.remove(copy)
		if not ok then return nil, uerr end
	end
	return true
end

--- Unpacks the image `img` (from `M.read`) into the cache, unless there
-- already: each layer's blob read and checked (`M.blob`), copied into a
-- temporary directory of the caller's, unpacked by a box (see the module's
-- comment), the result renamed into `<cache>/sha256-<hex>`.
-- @return the root's path, and whether it was unpacked now; or nil, why
function M.unpack(img)
	local cache, cerr = M.cache_dir()
	if not cache then return nil, "cannot use the image cache: " .. cerr end
	local final = cache .. "/" .. img.digest:gsub(":", "-")
	local st = core.lstat(final)
	if st then
		if not owned(st, "dir") then
			return nil, ("cannot use the image cache: %s: not a directory of the caller's own"):format(final)
		end
		return final, false
	end
	local tmp, _, code = sh("mktemp -d " .. q(cache .. "/.unpack-XXXXXXXX") .. " 2>&1")
	tmp = tmp:gsub("\n$", "")
	if code ~= 0 or not owned(core.lstat(tmp), "dir") then
		return nil, "cannot use the image cache: " .. tmp
	end
	local function fail(msg)
		os.execute("rm -rf -- " .. q(tmp))
		return nil, msg
	end
	-- the box's writable directory: a root caller's box writes as its
	-- host id, which must own it; nothing else of tmp is bound
	local out = tmp .. "/out"
	local euid = core.ids().euid
	if not core.mkdir(out, tonumber("700", 8)) then return fail("cannot use the image cache: " .. out) end
	if euid == 0 then
		local id = stdbox.root_host_id
		if not os.execute(("chown %d:%d %s"):format(id, id, q(out))) then
			return fail("cannot use the image cache: chown " .. out)
		end
	end
	local unpacked, lerr = unpack_layers(img, tmp, out)
	if not unpacked then return fail(lerr) end
	local root = out .. "/root"
	st = core.lstat(root)
	if not st or st.type ~= "dir" then return fail("cannot unpack the image: no root directory was made") end
	-- a root caller's tree back to the caller: links themselves, none followed
	if euid == 0 then
		local _, _, ccode = sh("chown -R -h -P 0:0 -- " .. q(root) .. " 2>&1")
		if ccode ~= 0 then return fail("cannot unpack the image: chown of the tree failed") end
	end
	os.execute("chmod 755 " .. q(root))
	local ok = os.rename(root, final)
	if not ok and not owned(core.lstat(final), "dir") then
		return fail("cannot use the image cache: cannot rename into " .. final)
	end
	os.execute("rm -rf -- " .. q(tmp))
	return final, true
end

--- The image `ref` (`DIR@sha256:HEX`, as `--image` gives it) parsed, read
-- and checked (`M.read`) and unpacked into the cache when not there
-- (`M.unpack`).
-- @param ref the option's value
-- @return the unpacked root directory and the image's digest; or nil, msg,
--  "--image"
function M.unpacked(ref)
	local dir, digest = M.parse(ref)
	if not dir then return nil, ("--image %s: %s"):format(tostring(ref), digest), "--image" end
	local img, err = M.read(dir, digest)
	if not img then return nil, ("--image %s: %s"):format(ref, err), "--image" end
	local root, uerr = M.unpack(img)
	if not root then return nil, ("--image %s: %s"):format(ref, uerr), "--image" end
	return root, digest
end

--- Builds the namespace box over the image `o.image` (`DIR@sha256:HEX`):
-- read and checked (`M.read`), unpacked into the cache when not there
-- (`M.unpack`), then run as `--rootfs` over it; the report and the
-- digest name the image by its manifest's digest.
-- @tparam table o the options of `sbx.stdbox.build`, with `image`
-- @return spec, info; or nil, msg, the option it concerns
function M.build(o)
	if o.rootfs then return nil, "--image: not with --rootfs", "--image" end
	local root, digest = M.unpacked(o.image)
	if not root then return nil, digest, "--image" end
	local o2 = {}
	for k, v in pairs(o) do o2[k] = v end
	o2.image, o2.rootfs = nil, root
	local spec, info, opt = rootfs.build(o2)
	if not spec then return nil, info, opt end
	info.image = digest
	info.root_name = "private tmpfs over the verified image " .. digest
	info.digest_extra = { "image=" .. digest }
	return spec, info
end

return M
