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
	if name == "oci" and o.runtime == "podman" then return require("sbx.backend.podman").build(o) end
	if o.image ~= nil then
		-- an OCI image layout's image as the namespace box's root
		if name ~= "ns" then
			return nil, "--image: needs the namespace box (--backend ns), or --backend oci --runtime podman", "--image"
		end
		return require("sbx.backend.image").build(o)
	end
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
