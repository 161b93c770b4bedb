-- SPDX-License-Identifier: MIT
-- --image DIR@sha256:HEX: a local OCI image layout's image as the
-- namespace box's root.  The images are made here, from directories and
-- from member lists (tar, gzip, sha256sum, JSON; hostile members through
-- Python's tarfile), never pulled.  Hostile layers first: each is either
-- refused (exit 126, nothing cached) or taken inside the image's own root,
-- and the host is checked afterwards.
-- Run as root and as uid 65534 (SBX_TEST_PRIV=user).
local S = require "support"
local cjson = require "cjson"
local sbx = require "sbx"

local MANIFEST = "application/vnd.oci.image.manifest.v1+json"
local CONFIG = "application/vnd.oci.image.config.v1+json"
local TAR = "application/vnd.oci.image.layer.v1.tar"
local TGZ = "application/vnd.oci.image.layer.v1.tar+gzip"
local PY = "/usr/bin/python3"

local function sh_ok(cmd)
	local out, code = S.sh(cmd)
	assert(code == 0, cmd .. ": " .. out)
	return out
end

-- A tar of the member list `members` (each `{name, data=}` a file,
-- `{name, dir=true}`, `{name, link=TARGET}` a symbolic link), made by
-- Python's tarfile: names as given, `..` and `/` included.
local function member_tar(path, members)
	local list = {}
	for i, m in ipairs(members) do
		list[i] = { name = m[1], data = m.data, dir = m.dir, link = m.link, chr = m.chr }
	end
	local spec = path .. ".json"
	S.write(spec, cjson.encode(list))
	sh_ok(PY .. [[ -c '
import io, json, sys, tarfile
with tarfile.open(sys.argv[1], "w", format=tarfile.GNU_FORMAT) as t:
    for m in json.load(open(sys.argv[2])):
        i = tarfile.TarInfo(m["name"]); i.mode = 0o755; i.mtime = 1
        if m.get("dir"):
            i.type = tarfile.DIRTYPE; t.addfile(i)
        elif m.get("chr"):
            i.type = tarfile.CHRTYPE; i.devmajor = 1; i.devminor = 3; t.addfile(i)
        elif m.get("link") is not None:
            i.type = tarfile.SYMTYPE; i.linkname = m["link"]; t.addfile(i)
        else:
            d = (m.get("data") or "").encode(); i.size = len(d); i.mode = 0o644
            t.addfile(i, io.BytesIO(d))
' ]] .. S.q(path) .. " " .. S.q(spec) .. " 2>&1")
	os.remove(spec)
end

describe("--image [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	local me = S.pid()
	local tmp, L, cache, base_tar, n_img
	local env

	setup(function()
		tmp = S.tmpdir()
		L = tmp .. "/layout"
		cache = tmp .. "/cache"
		-- the OCI backend's private directories under this test's own
		-- TMPDIR: podman's containers of another suite running beside
		-- this one are told apart by their label
		env = "XDG_CACHE_HOME=" .. S.q(cache) .. " TMPDIR=" .. S.q(tmp)
		n_img = 0
		sh_ok("mkdir -p " .. S.q(L .. "/blobs/sha256"))
		S.write(L .. "/oci-layout", '{"imageLayoutVersion":"1.0.0"}')
		S.write(L .. "/index.json", cjson.encode { schemaVersion = 2, manifests = {} })
		-- the base layer: the host's dash as /bin/sh and the libraries
		-- ldd lists
		local D = tmp .. "/base"
		sh_ok("D=" .. S.q(D) .. " && mkdir -p \"$D/bin\" \"$D/var/tmp\" && cp /usr/bin/dash \"$D/bin/sh\" && "
			.. "for l in $(ldd /usr/bin/dash | grep -o '/[^ ]*'); do mkdir -p \"$D$(dirname $l)\" && "
			.. "cp \"$l\" \"$D$l\"; done && echo base > \"$D/base\"")
		base_tar = tmp .. "/base.tar"
		sh_ok("tar -C " .. S.q(D) .. " -cf " .. S.q(base_tar) .. " .")
	end)

	teardown(function()
		os.execute("rm -rf " .. S.q(tmp))
	end)

	-- Puts the file at path into the layout as a blob; its descriptor.
	local function blob(path, media)
		local hex = sh_ok("sha256sum " .. S.q(path)):match("^(%x+)")
		local size = tonumber((sh_ok("stat -c %s " .. S.q(path))))
		sh_ok("cp " .. S.q(path) .. " " .. S.q(L .. "/blobs/sha256/" .. hex))
		return { mediaType = media, digest = "sha256:" .. hex, size = size }
	end

	local function blob_text(text, media)
		n_img = n_img + 1
		local p = ("%s/b%d"):format(tmp, n_img)
		S.write(p, text)
		return blob(p, media)
	end

	-- A layer: a tar of `members` (see member_tar) or of a directory
	-- (`dir=`), gzip-compressed with `gz`.
	local function layer(t)
		n_img = n_img + 1
		local p = ("%s/l%d.tar"):format(tmp, n_img)
		if t.dir then
			sh_ok("tar -C " .. S.q(t.dir) .. " -cf " .. S.q(p) .. " .")
		else
			member_tar(p, t)
		end
		if t.gz then
			sh_ok("gzip -n " .. S.q(p))
			p = p .. ".gz"
		end
		return blob(p, t.media or (t.gz and TGZ or TAR))
	end

	local function base() return blob(base_tar, TAR) end

	-- An image of these layer descriptors, listed in index.json; its
	-- reference DIR@sha256:HEX and its manifest's descriptor.
	local function image(layers, opts)
		opts = opts or {}
		local config = blob_text(cjson.encode { architecture = opts.arch or "amd64", os = "linux",
			rootfs = { type = "layers", diff_ids = {} }, n = n_img }, CONFIG)
		local m = blob_text(cjson.encode { schemaVersion = 2, mediaType = MANIFEST, config = config,
			layers = layers }, opts.media or MANIFEST)
		local index = cjson.decode(S.read(L .. "/index.json"))
		table.insert(index.manifests, m)
		S.write(L .. "/index.json", cjson.encode(index))
		return L .. "@" .. m.digest, m
	end

	local function entry(m) return cache .. "/sbxlua/images/" .. m.digest:gsub(":", "-") end

	-- Nothing cached for m, and no temporary directory left.
	local function nothing_cached(m)
		assert.is_nil(sbx.lstat(entry(m)))
		assert.are.equal("", S.sh("ls -A " .. S.q(cache .. "/sbxlua/images") .. " 2>/dev/null | grep '^\\.unpack' || true"))
	end

	local function run(ref, ...)
		return S.runlua_env(env, "--image", ref, ...)
	end

	describe("hostile layers", function()
		it("refuses a member that climbs out with ../, and writes nothing", function()
			local host = "/tmp/sbxtest-img-dotdot-" .. me
			local ref, m = image { base(), layer { { "../../../../../../../.." .. host, data = "x" } } }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code, err)
			assert.matches("sbxlua: --image " .. ref .. ": cannot unpack layer 2: tar: ", err, 1, true)
			assert.matches("Member name contains '..'", err, 1, true)
			assert.is_nil(sbx.lstat(host))
			nothing_cached(m)
		end)

		it("refuses the same in a first layer", function()
			local host = "/tmp/sbxtest-img-first-" .. me
			local ref, m = image { layer { { "../../../../../../../.." .. host, data = "x" } } }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code, err)
			assert.matches("cannot unpack layer 1: tar: ", err, 1, true)
			assert.is_nil(sbx.lstat(host))
			nothing_cached(m)
			ref, m = image { layer { { "l", link = "/tmp" }, { "l/sbxtest-img-first-" .. me, data = "x" } } }
			_, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code, err)
			assert.is_nil(sbx.lstat(host))
			nothing_cached(m)
		end)

		it("leaves a layer's dev/ out, and refuses a device node elsewhere", function()
			local ref = image { base(), layer { { "dev/null", chr = true }, { "dev/keep", data = "" } } }
			local out, err, code = run(ref, "/bin/sh", "-c", "[ -e /dev/keep ] || echo left-out")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("left-out\n", out)
			local m
			ref, m = image { base(), layer { { "null", chr = true } } }
			out, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal("", out)
			assert.are.equal(126, code)
			assert.matches("cannot unpack layer 2: tar: null: Cannot mknod: Operation not permitted\n", err, 1, true)
			nothing_cached(m)
		end)

		it("takes an absolute member inside the image's root, never the host's", function()
			local host = "/var/tmp/sbxtest-img-abs-" .. me
			local ref, m = image { base(), layer { { host, data = "abs" } } }
			local out, err, code = run(ref, "/bin/sh", "-c", "read x < " .. host .. "; echo $x")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("abs\n", out)
			assert.is_nil(sbx.lstat(host))
			assert.are.equal("file", sbx.lstat(entry(m) .. host).type)
		end)

		it("refuses a write through a symbolic link planted earlier in the same layer", function()
			local host = "/tmp/sbxtest-img-sym1-" .. me
			local ref, m = image { base(), layer { { "l", link = "/tmp" }, { "l/sbxtest-img-sym1-" .. me, data = "x" } } }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code, err)
			assert.matches("cannot unpack layer 2: tar: ", err, 1, true)
			assert.is_nil(sbx.lstat(host))
			nothing_cached(m)
		end)

		it("keeps a write through a symbolic link of a lower layer inside the image", function()
			-- layer 2 plants links to the host's /tmp (absolute, and
			-- relative past the top); layer 3 writes through them: the
			-- upper layer's directory replaces the link
			local a, r = "sbxtest-img-sym2-" .. me, "sbxtest-img-sym3-" .. me
			local ref, m = image { base(),
				layer { { "l", link = "/tmp" }, { "r", link = "../../../../../../../tmp" } },
				layer { { "l/" .. a, data = "a" }, { "r/" .. r, data = "r" } } }
			local out, err, code = run(ref, "/bin/sh", "-c", "read x < /l/" .. a .. "; read y < /r/" .. r .. "; echo $x$y")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("ar\n", out)
			assert.is_nil(sbx.lstat("/tmp/" .. a))
			assert.is_nil(sbx.lstat("/tmp/" .. r))
			assert.are.equal("dir", sbx.lstat(entry(m) .. "/l").type)
		end)

		it("refuses a whiteout of ../NAME, and one through a link removes nothing of the host", function()
			local victims = { cache .. "/sbxlua/images/victim", cache .. "/sbxlua/victim", tmp .. "/victim",
				"/tmp/sbxtest-img-victim-" .. me }
			sh_ok("mkdir -p " .. S.q(cache .. "/sbxlua/images") .. " && chmod 700 " .. S.q(cache)
				.. " " .. S.q(cache .. "/sbxlua") .. " " .. S.q(cache .. "/sbxlua/images"))
			for _, v in ipairs(victims) do S.write(v, "v") end
			local ref, m = image { base(), layer { { "../.wh.victim", data = "" } } }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code, err)
			assert.matches("cannot unpack layer 2: tar: ", err, 1, true)
			nothing_cached(m)
			-- links of a lower layer, whiteouts through them
			ref = image { base(),
				-- the unpacked root is <cache>/sbxlua/images/.unpack-X/out/root
				-- on the host: ../../.. is images/, ../../../.. sbxlua/
				layer { { "up", link = ".." }, { "up2", link = "../../../../../.." }, { "abs", link = "/tmp" },
					{ "abs2", link = cache .. "/sbxlua" }, { "up3", link = "../../.." }, { "up4", link = "../../../.." } },
				layer { { "up/.wh.victim", data = "" }, { "up2/.wh.victim", data = "" },
					{ "up3/.wh.victim", data = "" }, { "up4/.wh.victim", data = "" },
					{ "abs/.wh.sbxtest-img-victim-" .. me, data = "" }, { "abs2/.wh.victim", data = "" },
					{ "abs2/images/.wh.victim", data = "" }, { "up/.wh..wh..opq", data = "" } } }
			local _, err2, code2 = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal("sandbox: exit 0\n", err2)
			assert.are.equal(0, code2)
			for _, v in ipairs(victims) do
				assert.are.equal("v", S.read(v), v)
				os.remove(v)
			end
		end)

		-- sbx.backend.image.MAX_UNPACKED, lowered for the test: a layer
		-- of a few kilobytes of gzip that unpacks to megabytes
		it("refuses layers whose tar streams pass the image's bound, and writes nothing", function()
			local d = tmp .. "/bomb"
			sh_ok("mkdir -p " .. S.q(d) .. " && head -c 4194304 /dev/zero > " .. S.q(d .. "/zeros"))
			local bomb = layer { dir = d, gz = true }
			assert.is_true(bomb.size < 65536)
			local function run_bound(ref, bound)
				local err = os.tmpname()
				local _, code = S.sh("env " .. env .. " " .. S.bin .. " -e "
					.. S.q("require('sbx.backend.image').MAX_UNPACKED = " .. bound) .. " run.lua --image "
					.. S.q(ref) .. " /bin/sh -c true 2>" .. err .. " </dev/null")
				local e = S.read(err)
				os.remove(err)
				return e, code
			end
			-- the base layer (uncompressed: its blob's size) fits, the bomb does not
			local ref, m = image { base(), bomb }
			local base_size = base().size
			local err, code = run_bound(ref, base_size + 1048576)
			assert.are.equal(126, code)
			assert.matches(("cannot unpack layer 2: the image's layers hold more than %d bytes of tar "
				.. "(sbx.backend.image.MAX_UNPACKED)\n"):format(base_size + 1048576), err, 1, true)
			nothing_cached(m)
			-- an uncompressed layer past the bound, by its blob's size
			err, code = run_bound(ref, base_size - 1)
			assert.are.equal(126, code)
			assert.matches("cannot unpack layer 1: ", err, 1, true)
			assert.matches("more than " .. (base_size - 1) .. " bytes of tar", err, 1, true)
			nothing_cached(m)
			-- within the bound: the same image runs
			err, code = run_bound(ref, base_size + 8 * 1048576)
			assert.are.equal(0, code, err)
		end)

		it("keeps a sparse file of an upper layer sparse in the image", function()
			local d = tmp .. "/sparse"
			local p = ("%s/l-sparse.tar"):format(tmp)
			sh_ok("mkdir -p " .. S.q(d) .. " && truncate -s 1G " .. S.q(d .. "/big") .. " && tar -S -C "
				.. S.q(d) .. " -cf " .. S.q(p) .. " .")
			local ref, m = image { base(), blob(p, TAR) }
			local _, err, code = run(ref, "/bin/sh", "-c", "test -f /big")
			assert.are.equal(0, code, err)
			local big = entry(m) .. "/big"
			assert.are.equal("1073741824", (sh_ok("stat -c %s " .. S.q(big)):gsub("%s", "")))
			-- its blocks: no data was written for the holes
			assert.is_true(tonumber((sh_ok("du -k " .. S.q(big)):match("^(%d+)"))) < 1024)
		end)

		it("refuses a layer whose sha256 is not its descriptor's", function()
			local d = layer { { "f", data = "aaaa" } }
			local hex = d.digest:sub(8)
			-- the same size, another byte
			S.write(L .. "/blobs/sha256/" .. hex, (S.read(L .. "/blobs/sha256/" .. hex):gsub("aaaa", "aaab")))
			local ref, m = image { base(), d }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches(("cannot use the layer 2 %s: its content's sha256 is %%x+ %%(not verified%%)\n$")
				:format(d.digest), err)
			nothing_cached(m)
		end)

		it("refuses a manifest whose sha256 is not its descriptor's", function()
			local ref, m = image { base() }
			local p = L .. "/blobs/sha256/" .. m.digest:sub(8)
			S.write(p, (S.read(p):gsub("schemaVersion", "schemaVersioN")))
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches(("cannot use the manifest %s: its content's sha256 is "):format(m.digest), err, 1, true)
			nothing_cached(m)
		end)

		it("refuses a blob reached through a symbolic link", function()
			local d = layer { { "f", data = "link" } }
			local p = L .. "/blobs/sha256/" .. d.digest:sub(8)
			sh_ok("mv " .. S.q(p) .. " " .. S.q(tmp .. "/moved") .. " && ln -s " .. S.q(tmp .. "/moved") .. " " .. S.q(p))
			local ref, m = image { base(), d }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches(("cannot use the layer 2 %s: "):format(d.digest), err, 1, true)
			assert.matches("symbolic link", err, 1, true)
			nothing_cached(m)
		end)
	end)

	describe("refusals", function()
		it("refuses a missing blob, another size, an unknown media type", function()
			local gone = layer { { "f", data = "gone" } }
			os.remove(L .. "/blobs/sha256/" .. gone.digest:sub(8))
			local ref, m = image { base(), gone }
			local _, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches(("cannot use the layer 2 %s: blob missing\n"):format(gone.digest), err, 1, true)
			nothing_cached(m)

			local big = layer { { "f", data = "size" } }
			big.size = big.size + 1
			ref, m = image { base(), big }
			_, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches(("cannot use the layer 2 %s: size %d, the descriptor says %d\n")
				:format(big.digest, big.size - 1, big.size), err, 1, true)
			nothing_cached(m)

			local z = layer { { "f", data = "zstd" } }
			z.mediaType = "application/vnd.oci.image.layer.v1.tar+zstd"
			ref, m = image { base(), z }
			_, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches("cannot use layer 2: unknown media type application/vnd.oci.image.layer.v1.tar+zstd\n",
				err, 1, true)
			nothing_cached(m)

			ref, m = image({ base() }, { media = "application/vnd.oci.image.index.v1+json" })
			_, err, code = run(ref, "/bin/sh", "-c", "true")
			assert.are.equal(126, code)
			assert.matches("unknown media type application/vnd.oci.image.index.v1+json\n", err, 1, true)
			nothing_cached(m)
		end)

		it("refuses a digest the index does not list, a malformed reference, another architecture", function()
			local zero = ("0"):rep(64)
			local _, err, code = run(L .. "@sha256:" .. zero, "/bin/sh")
			assert.are.equal(126, code)
			assert.matches(("cannot find the manifest sha256:%s in index.json\n"):format(zero), err, 1, true)
			_, err, code = run(L .. "@sha256:abc", "/bin/sh")
			assert.are.equal(126, code)
			assert.matches("the digest is sha256: and 64 lowercase hexadecimal digits\n", err, 1, true)
			_, err, code = run(L, "/bin/sh")
			assert.are.equal(126, code)
			assert.matches("expected DIR@sha256:<digest>", err, 1, true)
			_, err, code = run(tmp .. "/none@sha256:" .. zero, "/bin/sh")
			assert.are.equal(126, code)
			assert.matches("cannot open the image layout " .. tmp .. "/none: ", err, 1, true)
			local ref, m = image({ base() }, { arch = "arm64" })
			_, err, code = run(ref, "/bin/sh")
			assert.are.equal(126, code)
			assert.matches("cannot use the image: it is for linux/arm64, this host runs linux/amd64\n", err, 1, true)
			nothing_cached(m)
			_, err, code = S.runlua_env(env, "--image", ref, "--backend", "process", "/bin/sh")
			assert.are.equal(126, code)
			assert.matches("--image: needs the namespace box (--backend ns)", err, 1, true)
		end)
	end)

	describe("a sound image", function()
		it("runs the image's own /bin/sh, read-only, with the synthetic /etc; cached once", function()
			local ref, m = image { base(), layer { { "hello", data = "hi\n" } , gz = true } }
			local script = "read x < /hello; echo $x; read b < /base; echo $b; { echo > /bin/x; } 2>/dev/null"
				.. " || echo read-only; read u < /etc/hostname; echo $u; echo w > /work/f && read y < /work/f && echo $y"
			local out, err, code = run(ref, "/bin/sh", "-c", script)
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("hi\nbase\nread-only\ndana-laptop\nw\n", out)
			local dir = entry(m)
			local st = sbx.lstat(dir)
			assert.are.equal("dir", st.type)
			assert.are.equal(S.euid(), st.uid)
			assert.are.equal(tonumber("700", 8), sbx.lstat(cache .. "/sbxlua/images").mode & tonumber("777", 8))
			nothing_cached { digest = "sha256:none" }
			-- a later run takes the same directory
			local ino = S.sh("stat -c %i " .. S.q(dir))
			out, err, code = run(ref, "/bin/sh", "-c", "read x < /hello; echo $x")
			assert.are.equal("hi\n", out)
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal(ino, S.sh("stat -c %i " .. S.q(dir)))
		end)

		it("applies the layers in order, with their whiteouts", function()
			local l1 = tmp .. "/l1"
			sh_ok("mkdir -p " .. S.q(l1) .. "/a " .. S.q(l1) .. "/d " .. S.q(l1) .. "/sub/g && cd " .. S.q(l1)
				.. " && echo > a/x && echo > a/y && echo > d/keep && echo > gone && echo > sub/g/f")
			local ref = image { base(), layer { dir = l1 },
				layer { { "a/.wh..wh..opq", data = "" }, { "a/z", data = "" }, { ".wh.gone", data = "" },
					{ "d/new", data = "" }, { "sub/.wh.g", data = "" }, gz = true } }
			local out, err, code = run(ref, "/bin/sh", "-c",
				"for f in /a/* /a/.wh* /d/* /gone /sub/* /.wh*; do [ -e \"$f\" ] && echo $f; done; true")
			assert.are.equal("sandbox: exit 0\n", err)
			assert.are.equal(0, code)
			assert.are.equal("/a/z\n/d/keep\n/d/new\n", out)
		end)

		it("names the image by its digest in the report and the environment digest", function()
			local ref, m = image { base(), layer { { "one", data = "1" } } }
			local ref2 = image { base(), layer { { "two", data = "2" } } }
			local d = tmp .. "/json"
			sh_ok("mkdir -p " .. S.q(d))
			local _, err = run(ref, "-v", "--json", d .. "/a.json", "/bin/sh", "-c", "true")
			assert.matches(("\nsandbox: root: private tmpfs over the verified image %s (verified), read-only (verified)\n")
				:format(m.digest), err, 1, true)
			run(ref2, "--json", d .. "/b.json", "/bin/sh", "-c", "true")
			run(ref, "--json", d .. "/c.json", "/bin/sh", "-c", "true")
			S.runlua_env(env, "--json", d .. "/n.json", "/bin/sh", "-c", "true")
			local a, b, c, n = cjson.decode(S.read(d .. "/a.json")), cjson.decode(S.read(d .. "/b.json")),
				cjson.decode(S.read(d .. "/c.json")), cjson.decode(S.read(d .. "/n.json"))
			assert.are.equal(a.digest, c.digest)
			assert.are_not.equal(a.digest, b.digest)
			assert.are_not.equal(a.digest, n.digest)
		end)

		it("is a key of sbx.backend.build's options", function()
			local ref = image { base(), layer { { "lua", data = "from lua\n" } } }
			local script = tmp .. "/spec.lua"
			S.write(script, ([[
local backend = require "sbx.backend"
local spec, info = assert(backend.build { image = %q, prog = "/bin/sh", args = { "-c", "read x < /lua; echo $x" },
	ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {}, stdout = "capture", stderr = "capture" })
local r = assert(backend.run(spec, info))
io.write(r.stdout, info.image, "\n")
assert(backend.build { image = "nothing", prog = "/bin/sh", ro = {}, rw = {}, socket = {}, tmp = {}, env = {},
	limits = {} } == nil)
]]):format(ref))
			local out, code = S.sh("env " .. env .. " " .. S.bin .. " " .. S.q(script) .. " 2>&1")
			assert.are.equal(0, code, out)
			assert.are.equal("from lua\n" .. ref:match("@(.*)$") .. "\n", out)
		end)
	end)

	-- podman: --backend oci --runtime podman over the same verified image
	describe("podman", function()
		local have = sbx.lstat("/usr/bin/podman") ~= nil
		local function prun(ref, ...)
			-- podman's storage and state: a rootless caller's own
			return S.runlua_env(env .. " HOME=" .. S.q(tmp) .. " XDG_RUNTIME_DIR=" .. S.q(tmp),
				"--backend", "oci", "--runtime", "podman", "--image", ref, ...)
		end
		-- this test's containers still there (their private directory,
		-- in their label, under its TMPDIR)
		local function left()
			local out = S.sh("env HOME=" .. S.q(tmp) .. " XDG_RUNTIME_DIR=" .. S.q(tmp)
				.. " podman --log-level=fatal --cgroup-manager=cgroupfs ps --all --filter name=sbxlua-"
				.. " --format '{{.ID}} {{index .Labels \"sbxlua.private\"}}' 2>&1")
			local mine = {}
			for id, priv in out:gmatch("(%S+) ([^\n]*)") do
				if priv:sub(1, #tmp + 1) == tmp .. "/" then mine[#mine + 1] = id end
			end
			return table.concat(mine, " ")
		end
		local FIRST = "^sandbox: isolation: oci %(podman [%d.]+, runc [^,)]+" .. (S.euid() == 0 and "" or ", rootless") .. "%)\n"

		it("runs the image, read-only, no network, no capability, no_new_privs, read back", function()
			if not have then return pending("podman is not installed") end
			local ref, m = image { base(), layer { { "hello", data = "hi\n" } } }
			local out, err, code = prun(ref, "-v", "/bin/sh", "-c", "read x < /hello; echo $x; { echo > /x; } 2>/dev/null"
				.. " || echo read-only; echo w > /work/f && read y < /work/f && echo $y;"
				.. " while read k v; do case $k in CapEff:|NoNewPrivs:|Seccomp:) echo $k $v;; esac; done < /proc/self/status")
			assert.are.equal(0, code, err)
			assert.are.equal("hi\nread-only\nw\nCapEff: 0000000000000000\nNoNewPrivs: 1\nSeccomp: 2\n", out)
			assert.matches(FIRST, err)
			assert.matches(("\nsandbox: root: the verified image %s (verified), read-only (verified)\n"):format(m.digest),
				err, 1, true)
			assert.matches("\nsandbox: no_new_privs: yes (verified)\nsandbox: capabilities: none (verified)\n", err, 1, true)
			assert.not_matches("not as asked", err, 1, true)
			assert.matches("\nsandbox: exit 0\n$", err)
			assert.are.equal("", left())
		end)

		it("says what podman did not do as asked", function()
			if not have then return pending("podman is not installed") end
			local ref = image { base(), layer { { "x", data = "x" } } }
			local script = tmp .. "/podman.lua"
			S.write(script, ([[
local backend = require "sbx.backend"
local spec, info = assert(backend.build { backend = "oci", runtime = "podman", image = %q, prog = "/bin/sh",
	args = { "-c", "true" }, ro = {}, rw = {}, socket = {}, tmp = {}, env = {}, limits = {},
	stdout = "capture", stderr = "capture" })
-- podman asked for less than the spec: no read-only root, capabilities
-- kept, no seccomp filter
local argv = {}
for _, a in ipairs(spec.argv) do
	if a:find("^seccomp=/") then a = "seccomp=unconfined" end
	if a ~= "--read-only" and a ~= "--cap-drop=all" then argv[#argv + 1] = a end
end
spec.argv = argv
local r = assert(backend.run(spec, info))
print(r.outcome, r.code)
for _, m in ipairs(info.mismatches) do print(m) end
]]):format(ref))
			local out, code = S.sh("env " .. env .. " HOME=" .. S.q(tmp) .. " XDG_RUNTIME_DIR=" .. S.q(tmp) .. " "
				.. S.bin .. " " .. S.q(script) .. " 2>&1")
			assert.are.equal(0, code, out)
			assert.matches("^exit\t0\n", out)
			assert.matches("\nroot: asked read-only, recorded writable\n", out, 1, true)
			assert.matches("\ncapabilities CapBnd: asked 0000000000000000, recorded ", out, 1, true)
			assert.matches("\npodman read-only root: asked true, recorded false\n", out, 1, true)
			assert.matches("\npodman seccomp: asked /[^\n]*/seccomp%.json, recorded unconfined\n", out)
			assert.are.equal("", left())
		end)

		it("is refused without --image, and with host binds", function()
			local _, err, code = S.runlua_env(env, "--backend", "oci", "--runtime", "podman", "/bin/true")
			assert.are.equal(126, code)
			assert.matches("--runtime podman: needs --image", err, 1, true)
			_, err, code = prun(L .. "@sha256:" .. ("0"):rep(64), "--tmp", "/x", "/bin/true")
			assert.are.equal(126, code)
			assert.matches("--ro, --rw, --tmp: not with podman", err, 1, true)
		end)
	end)
end)
