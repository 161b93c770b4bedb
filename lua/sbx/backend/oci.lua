--- The OCI backend (see docs/backends.md).
-- @module sbx.backend.oci
local M = {}

--- The OCI runtime that runs here, or nil, why.
function M.runtime()
	return nil, "no OCI runtime"
end

function M.build()
	return nil, "--backend oci: not available"
end

function M.run()
	return nil, "--backend oci: not available"
end

return M
