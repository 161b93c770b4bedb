-- SPDX-License-Identifier: MIT
-- tests/profiles/notify-open.lua: openat sent to the supervisor, the rest
-- allowed; for the explain channel's cost (scripts/bench-notify.sh).
return {
	default = "allow",
	rules = { { call = "openat", action = "notify" } },
	notify = { mode = "log" },
}
