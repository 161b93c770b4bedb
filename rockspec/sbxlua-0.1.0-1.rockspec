-- SPDX-License-Identifier: MIT
-- The sbx module for a stock Lua 5.4: the C core (sbx.core, built against
-- the system's libseccomp, libcap and nettle) and the Lua modules.  The
-- sbxlua interpreter, its scripts, profiles, rules, man pages and
-- completions are make install's (README.md, "Build and install").
-- tests/install_spec.lua checks that the lists below are the tree's.
rockspec_format = "3.0"
package = "sbxlua"
version = "0.1.0-1"
-- the release archive: git archive --prefix=sbxlua-0.1.0/ -o sbxlua-0.1.0.tar.gz v0.1.0
-- (`luarocks make` in the tree reads the tree instead)
source = {
	url = "sbxlua-0.1.0.tar.gz",
	dir = "sbxlua-0.1.0",
	tag = "v0.1.0",
}
description = {
	summary = "A Lua-scriptable Linux sandbox: namespaces, Landlock, seccomp, limits",
	detailed = [[
sbx builds boxes from Linux namespaces, Landlock, a seccomp filter, dropped
capabilities and resource limits, runs a program in one and reports how it
ended: require "sbx".]],
	license = "MIT",
	labels = { "sandbox", "seccomp", "landlock", "linux" },
}
supported_platforms = { "linux" }
dependencies = {
	"lua == 5.4",
}
external_dependencies = {
	LIBSECCOMP = { header = "seccomp.h", library = "seccomp" },
	LIBCAP = { header = "sys/capability.h", library = "cap" },
	NETTLE = { header = "nettle/sha2.h", library = "nettle" },
	LIBFUZZY = { header = "fuzzy.h", library = "fuzzy" }, -- ssdeep
	LIBTLSH = { header = "tlsh.h", library = "tlsh" },
	LIBMAGIC = { header = "magic.h" }, -- opened by dlopen on the first file typed
	LIBYARA = { header = "yara.h" }, -- opened by dlopen in the inspection worker (--yara)
}
build = {
	type = "builtin",
	modules = {
		["sbx.core"] = {
			sources = {
				"core/api/box.c",
				"core/api/caps.c",
				"core/api/capture_lua.c",
				"core/api/cgroup_lua.c",
				"core/api/chunk.c",
				"core/api/event.c",
				"core/api/file.c",
				"core/api/filter.c",
				"core/api/fs.c",
				"core/api/heap.c",
				"core/api/json.c",
				"core/api/landlock.c",
				"core/api/limit.c",
				"core/api/magic_lua.c",
				"core/api/module.c",
				"core/api/mount.c",
				"core/api/ns.c",
				"core/api/sample_lua.c",
				"core/api/sink_lua.c",
				"core/api/spec.c",
				"core/api/util.c",
				"core/api/walk.c",
				"core/api/worker.c",
				"core/child/child.c",
				"core/child/handover.c",
				"core/child/lock.c",
				"core/child/net.c",
				"core/child/plancopy.c",
				"core/child/probe.c",
				"core/child/reap.c",
				"core/child/tree.c",
				"core/common/affinity.c",
				"core/common/digest.c",
				"core/common/fdpass.c",
				"core/common/fileio.c",
				"core/common/hashes.c",
				"core/common/stamp.c",
				-- libtlsh's C++ class behind a C interface (hashes.h)
				"core/common/tlsh.cc",
				"core/super/capture.c",
				"core/super/cgroup.c",
				"core/super/control.c",
				"core/super/end.c",
				"core/super/evlog.c",
				"core/super/inspect.c",
				"core/super/inspect_worker.c",
				"core/super/inspect_yara.c",
				"core/super/kmem.c",
				"core/super/lockguard.c",
				"core/super/loop.c",
				"core/super/notify.c",
				"core/super/pidfd.c",
				"core/super/procev.c",
				"core/super/relay.c",
				"core/super/sample.c",
				"core/super/script.c",
				"core/super/sink.c",
				"core/super/sleep.c",
				"core/super/start.c",
				"core/super/stop.c",
				"core/super/ttyfilter.c",
			},
			defines = { "_GNU_SOURCE", 'SBX_VERSION="0.1.0"' },
			incdirs = { "core/common", "core/child", "core/super", "core/api" },
			libraries = { "seccomp", "cap", "nettle", "fuzzy", "tlsh", "stdc++" },
		},
		["sbx"] = "lua/sbx/init.lua",
		["sbx._arg"] = "lua/sbx/_arg.lua",
		["sbx._hostid"] = "lua/sbx/_hostid.lua",
		["sbx._owner"] = "lua/sbx/_owner.lua",
		["sbx._shell"] = "lua/sbx/_shell.lua",
		["sbx._sigma_auditd"] = "lua/sbx/_sigma_auditd.lua",
		["sbx._sigma_events"] = "lua/sbx/_sigma_events.lua",
		["sbx._sigma_glob"] = "lua/sbx/_sigma_glob.lua",
		["sbx._sigma_regex"] = "lua/sbx/_sigma_regex.lua",
		["sbx._sigma_util"] = "lua/sbx/_sigma_util.lua",
		["sbx._sigma_yaml"] = "lua/sbx/_sigma_yaml.lua",
		["sbx.attack"] = "lua/sbx/attack.lua",
		["sbx.attack_data"] = "lua/sbx/attack_data.lua",
		["sbx.backend"] = "lua/sbx/backend/init.lua",
		["sbx.backend.image"] = "lua/sbx/backend/image.lua",
		["sbx.backend.oci"] = "lua/sbx/backend/oci.lua",
		["sbx.backend.podman"] = "lua/sbx/backend/podman.lua",
		["sbx.backend.process"] = "lua/sbx/backend/process.lua",
		["sbx.backend.rootfs"] = "lua/sbx/backend/rootfs.lua",
		["sbx.batch"] = "lua/sbx/batch.lua",
		["sbx.behaviour"] = "lua/sbx/behaviour.lua",
		["sbx.boxtree"] = "lua/sbx/boxtree.lua",
		["sbx.cli"] = "lua/sbx/cli.lua",
		["sbx.events"] = "lua/sbx/events.lua",
		["sbx.explore"] = "lua/sbx/explore.lua",
		["sbx.facts"] = "lua/sbx/facts.lua",
		["sbx.hostpath"] = "lua/sbx/hostpath.lua",
		["sbx.html"] = "lua/sbx/html.lua",
		["sbx.json"] = "lua/sbx/json.lua",
		["sbx.learn"] = "lua/sbx/learn.lua",
		["sbx.limits"] = "lua/sbx/limits.lua",
		["sbx.options"] = "lua/sbx/options.lua",
		["sbx.pcap"] = "lua/sbx/pcap.lua",
		["sbx.pipeline"] = "lua/sbx/pipeline.lua",
		["sbx.profile"] = "lua/sbx/profile.lua",
		["sbx.report"] = "lua/sbx/report.lua",
		["sbx.rulekit"] = "lua/sbx/rulekit.lua",
		["sbx.sample"] = "lua/sbx/sample.lua",
		["sbx.setid"] = "lua/sbx/setid.lua",
		["sbx.sigma"] = "lua/sbx/sigma.lua",
		["sbx.sink"] = "lua/sbx/sink.lua",
		["sbx.spread"] = "lua/sbx/spread.lua",
		["sbx.standin"] = "lua/sbx/standin.lua",
		["sbx.stdbox"] = "lua/sbx/stdbox.lua",
		["sbx.text"] = "lua/sbx/text.lua",
		["sbx.verdict"] = "lua/sbx/verdict.lua",
		["sbx.verify"] = "lua/sbx/verify.lua",
		["sbx.words"] = "lua/sbx/words.lua",
		["sbx.written"] = "lua/sbx/written.lua",
		["sbx.yara"] = "lua/sbx/yara.lua",
	},
	copy_directories = { "docs", "profiles", "rules" },
}
