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

--- The backends, by name.
M.names = { "ns", "process", "oci" }

local known = { ns = true, process = true, oci = true }

--- Checks a backend name.
-- @param name a string
-- @return the name, or nil, reason
function M.check(name)
	if type(name) ~= "string" or not known[name] then
		return nil, ("expected one of %s"):format(table.concat(M.names, ", "))
	end
	return name
end

-- whether o gives a list option (`--ro`, `--socket`, ...) at least once
local function some(k) return function(o) return o[k] ~= nil and #o[k] > 0 end end
local function set(k) return function(o) return o[k] ~= nil and o[k] ~= false end end

--- What each backend cannot honour, in the order checked: the backends
-- it concerns (`podman` is `--backend oci --runtime podman`), the option,
-- whether the options o give it, and the refusal's words.  The one table
-- of these rules: no backend checks one on its own.
M.refusals = {
	{ "process oci podman", "--keep", set "keep", "--keep: needs the namespace box (--backend ns)" },
	{ "process oci podman", "--decoys", set "decoys", "--decoys: needs the namespace box (--backend ns)" },
	{ "process oci", "--image", set "image",
		"--image: needs the namespace box (--backend ns), or --backend oci --runtime podman" },
	{ "process", "--socket", some "socket", "--socket: the process backend has no mounts" },
	{ "process", "--tmp", some "tmp", "--tmp: the process backend has no mounts" },
	{ "process", "--rootfs", set "rootfs", "--rootfs: the process backend has no root of its own" },
	{ "oci", "--rootfs", set "rootfs", "--rootfs: the OCI backend takes the standard tree" },
	{ "oci", "--socket", some "socket", "--socket: not with the OCI backend" },
	{ "podman", "--runtime", function(o) return not o.image end,
		"--runtime podman: needs --image (podman runs only a verified local image)" },
	{ "podman", "--rootfs", set "rootfs", "--rootfs: not with podman (give --image)" },
	{ "podman", "--socket", some "socket", "--socket: not with podman" },
	{ "podman", "--ro", function(o) return some "ro" (o) or some "rw" (o) or some "tmp" (o) end,
		"--ro, --rw, --tmp: not with podman (the image is the whole tree)" },
	{ "podman", "--net", function(o) return o.net ~= nil and o.net ~= "none" end,
		"--net: podman runs with no network only" },
}

-- The backend of o by the table's names.
local function kind(o)
	local name = o.backend or "ns"
	if name == "oci" and o.runtime == "podman" then return "podman" end
	return name
end

--- The first option of o that its backend cannot honour (`M.refusals`).
-- @return nil, or the refusal's words and the option
function M.refused(o)
	local k = " " .. kind(o) .. " "
	for _, r in ipairs(M.refusals) do
		if (" " .. r[1] .. " "):find(k, 1, true) and r[3](o) then return r[4], r[2] end
	end
	return nil
end

local function module(name)
	if name == "process" then return require "sbx.backend.process" end
	if name == "oci" then return require "sbx.backend.oci" end
	if name == "podman" then return require "sbx.backend.podman" end
	return nil
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
	if name == "oci" and o.runtime == "podman" then return require("sbx.backend.podman").build(o) end
	-- an OCI image layout's image as the namespace box's root
	if o.image ~= nil then return require("sbx.backend.image").build(o) end
	local mod = module(name)
	if mod then return mod.build(o) end
	if o.rootfs then return require("sbx.backend.rootfs").build(o) end
	local spec, info, opt = stdbox.build(o)
	if spec then info.backend = "ns" end
	return spec, info, opt
end

--- Runs a spec built by `M.build` and cleans up after it (the process
-- backend's working directory, the OCI bundle and the runtime's state).
-- @return the core's result, or nil, msg
function M.run(spec, info)
	local mod = module(info.backend or "ns")
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
