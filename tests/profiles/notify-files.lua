-- SPDX-License-Identifier: MIT
-- tests/profiles/notify-files.lua: a profile for the explain channel's
-- delete, rename and attribute events.  Everything is allowed but those
-- calls, which go to the supervisor; the paths they may name are /work/ok
-- and /tmp: the `open` list, which changes follow when there is no
-- `change` list (opens are not notified here: a file is created anywhere
-- the walls let it).
local calls = { "unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2",
	"chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat",
	"utime", "utimes", "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr",
	"removexattr", "lremovexattr", "fremovexattr" }

local rules = {}
for i = 1, #calls do rules[i] = { call = calls[i], action = "notify" } end

return {
	default = "allow",
	rules = rules,
	notify = { mode = "stop", open = { "/work/ok", "/tmp" } },
}
