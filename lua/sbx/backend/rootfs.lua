--- Another root for the namespace box (see docs/backends.md).
-- @module sbx.backend.rootfs
local M = {}

function M.build()
	return nil, "--rootfs: not available"
end

return M
