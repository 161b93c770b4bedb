-- SPDX-License-Identifier: MIT
--- Backends: what builds and runs a box.  One spec, three backends:
--  * `ns` (the default): the namespace box of `sbx.stdbox` and `sbx.core`;
--  * `process`: the same program under the same limits and filters, with
--    no namespace at all (`sbx.backend.process`), for hosts that forbid
--    user namespaces; its report says so in its first line;
--  * `oci`: the same spec as an OCI runtime bundle run by `runc` or `crun`
--    (`sbx.backend.oci`), whose own record is read back and compared.
-- A backend is chosen, never substituted: when the namespace box cannot be
-- built here, the run is refused (exit 126) with the backends that could
-- run (`M.refusal`), and nothing falls back on its own.
-- @module sbx.backend
local sbx = require "sbx"
local stdbox = require "sbx.stdbox"

local M = {}

-- whether o gives a list option (`--ro`, `--socket`, ...) at least once
local function some(k) return function(o) return o[k] ~= nil and #o[k] > 0 end end
local function set(k) return function(o) return o[k] ~= nil and o[k] ~= false end end

-- Refusals more than one backend shares: `{option, whether o gives it,
-- the refusal's words}`.
local NEEDS_NS = {
	{ "--keep", set "keep", "--keep: needs the namespace box (--backend ns)" },
	{ "--decoys", set "decoys", "--decoys: needs the namespace box (--backend ns)" },
}
local NO_SINK = { "--net", function(o) return o.net == "sink" end,
	"--net sink: needs the namespace box (--backend ns): the sink listens in a network namespace of the box's own" }
local NO_IMAGE = { "--image", set "image",
	"--image: needs the namespace box (--backend ns), or --backend oci --runtime podman" }

--- The backends: `name` (as `--backend` names it; `podman` is
-- `--backend oci --runtime podman`), `load(o)` (the module that builds and
-- runs o's box; nil: `sbx.stdbox`'s namespace box itself), and `refuses`,
-- what it cannot honour, in the order checked: `{option, whether the
-- options o give it, the refusal's words}` (a test may return its own
-- words and option after true).  The one place a combination
-- is refused: no backend checks one on its own.
M.registry = {
	{ name = "ns", load = function(o)
		if o.image ~= nil then return require "sbx.backend.image" end
		if o.rootfs then return require "sbx.backend.rootfs" end
		return nil
	end, refuses = {} },
	{ name = "process", load = function() return require "sbx.backend.process" end, refuses = {
		NEEDS_NS[1], NEEDS_NS[2], NO_IMAGE,
		{ "--socket", some "socket", "--socket: the process backend has no mounts" },
		{ "--tmp", some "tmp", "--tmp: the process backend has no mounts" },
		{ "--rootfs", set "rootfs", "--rootfs: the process backend has no root of its own" },
		-- binds cannot move a path without a mount namespace
		{ "--ro", function(o)
			for _, k in ipairs { "ro", "rw" } do
				for _, b in ipairs(o[k] or {}) do
					if b.dst ~= b.src then
						return true, ("--%s %s:%s: the process backend cannot move a path"):format(k, b.src, b.dst),
							"--" .. k
					end
				end
			end
			return false
		end },
		NO_SINK,
	} },
	{ name = "oci", load = function() return require "sbx.backend.oci" end, refuses = {
		NEEDS_NS[1], NEEDS_NS[2], NO_IMAGE,
		{ "--rootfs", set "rootfs", "--rootfs: the OCI backend takes the standard tree" },
		{ "--socket", some "socket", "--socket: not with the OCI backend" },
		NO_SINK,
	} },
	{ name = "podman", load = function() return require "sbx.backend.podman" end, refuses = {
		NEEDS_NS[1], NEEDS_NS[2],
		{ "--runtime", function(o) return not o.image end,
			"--runtime podman: needs --image (podman runs only a verified local image)" },
		{ "--rootfs", set "rootfs", "--rootfs: not with podman (give --image)" },
		{ "--socket", some "socket", "--socket: not with podman" },
		{ "--ro", function(o) return some "ro" (o) or some "rw" (o) or some "tmp" (o) end,
			"--ro, --rw, --tmp: not with podman (the image is the whole tree)" },
		{ "--net", function(o) return o.net ~= nil and o.net ~= "none" end,
			"--net: podman runs with no network only" },
	} },
}

local by_name = {}
for _, b in ipairs(M.registry) do by_name[b.name] = b end

--- The backends `--backend` names.
M.names = { "ns", "process", "oci" }

--- Checks a backend name.
-- @param name a string
-- @return the name, or nil, reason
function M.check(name)
	if type(name) ~= "string" or not by_name[name] or name == "podman" then
		return nil, ("expected one of %s"):format(table.concat(M.names, ", "))
	end
	return name
end

-- The backend of o (its registry entry).
local function backend_of(o)
	local name = o.backend or "ns"
	if name == "oci" and o.runtime == "podman" then name = "podman" end
	return by_name[name]
end

--- The first option of o that its backend cannot honour
-- (`M.registry`'s `refuses`).
-- @return nil, or the refusal's words and the option
function M.refused(o)
	local b = backend_of(o)
	for _, r in ipairs(b and b.refuses or {}) do
		local hit, words, option = r[2](o)
		if hit then return words or r[3], option or r[1] end
	end
	return nil
end

--- Loads the modules the backend of o needs, before any box runs (a
-- box may write into the caller's directory: nothing is loaded after).
-- @tparam table o
-- @return the module, or nil for the namespace box itself
function M.load(o)
	local b = backend_of(o)
	return b and b.load(o)
end

--- Builds the spec of a run for the backend `o.backend` (default `ns`)
-- from the options of `sbx.stdbox.build` (plus `rootfs` or `image` for
-- `ns`: `sbx.backend.rootfs`, `sbx.backend.image`).
-- @tparam table o
-- @return spec, info; or nil, msg and the option it concerns (nil: the program)
function M.build(o)
	local name, why = M.check(o.backend or "ns")
	if not name then return nil, ("--backend %s: %s"):format(tostring(o.backend), why), "--backend" end
	local no, option = M.refused(o)
	if no then return nil, no, option end
	local mod = M.load(o)
	if mod then return mod.build(o) end
	local spec, info, opt = stdbox.build(o)
	if spec then info.backend = "ns" end
	return spec, info, opt
end

--- Runs a spec built by `M.build` and cleans up after it (the process
-- backend's working directory, the OCI bundle and the runtime's state).
-- @return the core's result, or nil, msg
function M.run(spec, info)
	local b = by_name[info.backend or "ns"]
	local mod = b and b.name ~= "ns" and b.load(info)
	if mod then return mod.run(spec, info) end
	return sbx.run(spec)
end

-- Whether an OCI runtime that runs here is installed.
local function oci_here()
	local oci = require "sbx.backend.oci"
	local rt = oci.runtime()
	return rt ~= nil
end

--- The refusal of a run whose backend cannot be built on this host: the
-- namespace box failing at the creation of its namespaces (the report's
-- `cannot create namespaces` line says why; the run's exit is 126).
-- Names the backends that could run instead; sbxlua never runs one on
-- its own.
-- @tparam table r the result of `M.run`
-- @tparam table info
-- @return the message, or nil when the run is not refused
function M.refusal(r, info)
	if (info.backend or "ns") ~= "ns" or r.outcome ~= "cannot" then return nil end
	local c = r.cannot or {}
	if c.stage ~= "create namespaces" then return nil end
	local could = { "--backend process (no namespace: limits and filters only)" }
	if oci_here() then could[#could + 1] = "--backend oci (an OCI runtime is installed)" end
	return ("the namespace box cannot be built here; no other backend is used unless chosen;"
		.. " could run: %s"):format(table.concat(could, ", "))
end

return M
