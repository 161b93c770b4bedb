-- SPDX-License-Identifier: MIT
-- The stand-ins for the tools a host lacks (sbx.standin, core/standin/,
-- docs/standins.md): in the analysis box a tool absent from the host runs
-- as it would for an unprivileged user, so what the sample does next is
-- seen: `sudo CMD` runs CMD (its exec and its opens recorded, the rules
-- fire on them), `crontab -` tries to write the user's table where cron
-- keeps it.  A host tool is never shadowed, the jail has none, the
-- directory is read-only inside and the host's program unchanged after,
-- and no stand-in says what the box is.  Real boxes only.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local standin = require "sbx.standin"
local stdbox = require "sbx.stdbox"

-- run.lua --json with args; returns stdout, the report, the JSON
local function json_run(...)
	local out, err, code, res = S.json_run(...)
	assert.is_table(res, err)
	return out, err, code, res
end

-- the events of kind `kind` whose field `field` passes `ok`
local function events(res, kind, ok)
	local list = {}
	for _, e in ipairs(res.events or {}) do
		if e.kind == kind and ok(e) then list[#list + 1] = e end
	end
	return list
end

local function rules_of(res)
	local set = {}
	for _, r in ipairs(res.verdict and res.verdict.reasons or {}) do set[r.rule] = true end
	return set
end

-- the names the box links: every name of the program's list that no
-- directory of the box's PATH holds
local function linked_names()
	local h = assert(standin.host())
	local path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	return S.select(h.names, function(n) return not standin.present(n, path) end)
end

describe("stand-ins [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("plays at least 60 tools, sudo, crontab and nc among them", function()
		local h = assert(standin.host())
		assert.is_true(#h.names >= 60, #h.names .. " names")
		for _, n in ipairs { "sudo", "crontab", "at", "systemctl", "nc", "iptables", "useradd" } do
			assert.is_true(S.has(h.names, n), n)
		end
		assert.is_true(stdbox.ANALYSIS.standins)
	end)

	it("refuses bad input", function()
		assert.has_error(function() standin.present(nil, "/usr/bin") end)
		assert.has_error(function() standin.present("../sh", "/usr/bin") end)
		assert.has_error(function() standin.present("sudo", 7) end)
		assert.has_error(function() standin.tree(nil) end)
	end)

	it("sudo cat /etc/shadow: the cat runs, its read is recorded and the rule fires", function()
		local _, err, _, res = json_run("--explore", "sh", "-c", "sudo cat /etc/shadow >/dev/null; echo $?")
		local cats = events(res, "exec", function(e)
			return e.argv and e.argv[1] == "cat" and e.argv[2] == "/etc/shadow"
		end)
		assert.are.equal(1, #cats, err) -- found once, as sudo finds it
		assert.are.equal("/usr/bin/cat", cats[1].path)
		local sudo = events(res, "exec", function(e) return e.path == standin.box.dir .. "/sudo" end)
		assert.are.equal(1, #sudo, err)
		local opens = events(res, "open", function(e) return e.path == "/etc/shadow" and e.pid == cats[1].pid end)
		assert.is_true(#opens >= 1, err)
		local rules = rules_of(res)
		assert.is_true(rules.shadow, err)
		assert.is_true(rules.sudo_use, err)
	end)

	it("sudo -u root sh -c, sudo -s, sudo -- and sudo su -c run their command as the box user", function()
		local out, err = S.runlua("--explore", "sh", "-c",
			"sudo -u root sh -c 'echo $(id -u):$USER:$SUDO_USER'; sudo -s 'echo s:$(id -u)';"
			.. " sudo -n -- id -u; sudo su - root -c 'echo su:$(id -u)'; sudo nosuch; echo rc=$?")
		-- su run by sudo asks no password (root's su would not): the
		-- stand-in plays it even where the host has su
		assert.are.equal("1000:root:dana\ns:1000\n1000\nsu:1000\nrc=1\n", out, err)
		assert.matches("sudo: nosuch: command not found", err, 1, true)
	end)

	-- a long option's argument is its own, never the command (`--chroot
	-- DIR CMD` runs CMD); written `--opt=ARG` it is one word
	it("sudo's long options take their argument: --chroot DIR, --group G, --chdir DIR, --group=G", function()
		local out, err = S.runlua("--explore", "sh", "-c",
			"sudo --chroot /tmp id -u; sudo --group root --chdir /tmp id -u; sudo --group=root id -u")
		assert.are.equal("1000\n1000\n1000\n", out, err)
	end)

	it("crontab - reads its table and tries to write it where cron keeps it", function()
		local out, err, _, res = json_run("--explore", "sh", "-c",
			"crontab -l; echo l=$?; echo '*/5 * * * * /tmp/.x' | crontab -; echo w=$?")
		assert.are.equal("l=1\nw=1\n", out, err)
		assert.matches("no crontab for dana", err, 1, true)
		assert.matches("/var/spool/cron/crontabs/dana: No such file or directory", err, 1, true)
		assert.is_true(S.has(res.behaviour.files_written, "/var/spool/cron/crontabs/dana"), err)
		assert.is_true(rules_of(res).cron, err)
	end)

	it("at, systemctl, iptables and useradd fail as they do for a user; nc reaches the sink", function()
		local out, err = S.runlua("--explore", "sh", "-c",
			"echo id | at now + 5 minutes; echo at=$?;"
			-- systemctl is this host's own: its stand-in, by its name
			.. " bash -c 'exec -a systemctl " .. standin.box.program .. " stop cron'; echo sc=$?;"
			.. " bash -c 'exec -a iptables " .. standin.box.program .. " -F'; echo ipt=$?;"
			.. " bash -c 'exec -a useradd " .. standin.box.program .. " -o -u 0 toor'; echo ua=$?;"
			.. " printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc 203.0.113.9 80 | head -1")
		assert.matches("^at=1\nsc=4\nipt=4\nua=1\nHTTP/1%.%d 200", out)
		assert.matches("iptables v1.8.9 (nf_tables): Could not fetch rule set generation id: Permission denied"
			.. " (you must be root)", err, 1, true)
		assert.matches("useradd: Permission denied.\nuseradd: cannot lock /etc/passwd; try again later.", err, 1, true)
		assert.matches("Cannot open lockfile /var/spool/cron/atjobs/.SEQ", err, 1, true)
		assert.matches("Failed to stop cron.service: Access denied", err, 1, true)
	end)

	it("a host tool present is never shadowed: the box runs the host's", function()
		local linked = linked_names()
		local out, err = S.runlua("--explore", "sh", "-c",
			"command -v ls; command -v sh; ls " .. standin.box.dir)
		local lines = {}
		for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
		assert.are.equal("/usr/bin/ls", lines[1], err)
		assert.is_truthy(lines[2]:match("^/usr/bin/") or lines[2]:match("^/bin/"), err)
		table.remove(lines, 1)
		table.remove(lines, 1)
		table.sort(linked)
		assert.are.same(linked, lines)
		for _, n in ipairs(lines) do
			assert.is_false(standin.present(n, "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"), n)
		end
	end)

	it("the jail has none", function()
		local out, err = S.runlua("--", "sh", "-c",
			"echo $PATH; test -e /snap && echo there; command -v sudo || echo absent")
		assert.are.equal("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nabsent\n", out, err)
	end)

	it("is read-only inside, and the host's copy unchanged after", function()
		local h = assert(standin.host())
		local before = S.sh("sha256sum " .. S.q(h.program))
		local dir, prog = standin.box.dir, standin.box.program
		local out, err = S.runlua("--explore", "sh", "-c",
			("touch %s/x 2>/dev/null || echo a; echo x > %s 2>/dev/null || echo b;"
				.. " ln -s /tmp/evil %s/zz 2>/dev/null || echo c; rm -f %s/crontab 2>/dev/null; test -e %s/crontab && echo d;"
				.. " chmod 777 %s 2>/dev/null || echo e")
				:format(dir, prog, dir, dir, dir, prog))
		assert.are.equal("a\nb\nc\nd\ne\n", out, err)
		assert.are.equal(before, S.sh("sha256sum " .. S.q(h.program)))
	end)

	it("a --rw of the stand-ins' directory is refused (a box would rewrite them)", function()
		local h = assert(standin.host())
		local dir = h.program:match("^(.*)/")
		local _, err, code = S.runlua("--rw", dir .. ":/x", "--", "true")
		assert.are_not.equal(0, code)
		assert.matches("sbxlua's own files", err, 1, true)
	end)

	it("no stand-in's words, nor the mounts and links, name the sandbox", function()
		local calls = {}
		for _, n in ipairs(linked_names()) do
			calls[#calls + 1] = ("%s; %s --help; %s -l; %s -V"):format(n, n, n, n)
		end
		local out, err = S.runlua("--explore", "--wall", "60", "sh", "-c",
			"exec 2>&1 </dev/null; " .. table.concat(calls, "; ")
			-- nor what a sample reads of them: the mounts, the links
			.. "; cat /proc/self/mountinfo; ls -l " .. standin.box.dir .. "; echo end")
		assert.matches("end\n$", out, nil, false)
		assert.is_nil(out:lower():find("sbx", 1, true), out)
		assert.is_nil(out:lower():find("sandbox", 1, true), out)
		assert.is_nil(out:lower():find("standin", 1, true), out)
		assert.is_truthy(err)
	end)
end)
