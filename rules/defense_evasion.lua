-- SPDX-License-Identifier: MIT
-- Stealth (TA0005, "Defense Evasion" before ATT&CK v19): history cleared,
-- files removed or hidden, times forged, permissions loosened, payloads
-- decoded, programs disguised, the sandbox or a debugger looked for, and
-- code run from memory; and Defense Impairment (TA0112): logs cleared,
-- history logging, tools, the firewall and the audit switched off.
local T = rulekit.technique
local basename = rulekit.basename

local HISTORY = { "/%.bash_history$", "/%.zsh_history$", "/%.sh_history$", "/%.history$",
	"/%.ash_history$", "/%.mysql_history$", "/%.psql_history$", "/%.python_history$",
	"/%.lesshst$", "/%.viminfo$", "/%.local/share/fish/fish_history$" }

-- a program's own path deleted by itself: the command's image, or the
-- script an interpreter was given
local INTERPRETERS = { sh = true, bash = true, dash = true, zsh = true, ksh = true, busybox = true,
	perl = true, ruby = true, node = true, php = true }

-- a command line that clears the history (`history -c`) other than in a
-- trap on EXIT (or 0): that is a shell's own set-up for its logout, as
-- a ~/.bash_logout holding `history -c` is; the same outside such a trap
-- is an act (docs/batch.md, "History cleared: an act or a logout")
local function at_will(cmdline)
	if type(cmdline) ~= "string" then return false end
	local s = cmdline:gsub("trap%s+%-?%-?%s*(['\"])(.-)%1%s+EXIT", ""):gsub("trap%s+%-?%-?%s*(['\"])(.-)%1%s+0%f[%D]", "")
	return s:find("history %-c") ~= nil
end

-- a script line that runs `history -c` as an act (at_will): a quoted
-- string is text (`printf 'history -c' > file`), a trap's command is not
local function runs_history_clear(text)
	if not at_will(text) then return false end
	local s = text:gsub("trap%s+%-?%-?%s*(['\"])(.-)%1", " %2 "):gsub("(['\"]).-%1", " ")
	return s:find("%f[%w]history%s+%-c") ~= nil
end

-- syslog(2)'s actions that clear the kernel's ring buffer or silence
-- its console (SYSLOG_ACTION_READ_CLEAR, _CLEAR, _CONSOLE_OFF), asked for
-- whatever the kernel answered (`dmesg -C`, `dmesg -D`)
local KLOG_ACTIONS = { [4] = "read and clear", [5] = "clear", [6] = "silence" }
local function kernel_log_cleared(_, F)
	for _, r in ipairs(F.refused or {}) do
		local what = r.call == "syslog" and KLOG_ACTIONS[r.a0]
		if what then return ("asked the kernel to %s its log (syslog action %d)"):format(what, r.a0) end
	end
	return nil
end

local function self_deleted(_, F)
	local mine = {}
	for i, x in ipairs(F.execs) do
		local name = basename(x.image)
		if i == 1 then mine[x.image or ""] = true end
		if INTERPRETERS[name] or name:find("^python") then
			for j = 2, #(x.argv or {}) do
				local a = x.argv[j]
				if a == "-c" or a == "-e" then break end
				if a:sub(1, 1) ~= "-" then
					mine[a] = true
					if a:sub(1, 1) ~= "/" and x.cwd then mine[x.cwd .. "/" .. a] = true end
					break
				end
			end
		end
	end
	for _, d in ipairs(F.deleted) do
		if mine[d.path] then return "deleted its own program " .. d.path end
	end
	return nil
end

-- programs named like a system daemon or a kernel thread, run from a
-- writable place; or run under another argv[0] than their file's name
local DAEMONS = { sshd = true, systemd = true, ["systemd-journald"] = true, cron = true,
	crond = true, rsyslogd = true, dbus = true, ["dbus-daemon"] = true, init = true,
	kthreadd = true, kworker = true, migration = true, ksoftirqd = true, udevd = true,
	["systemd-udevd"] = true, agetty = true, bash = true, sh = true, ["polkitd"] = true,
	["accounts-daemon"] = true, ["networkd-dispatcher"] = true, ["snapd"] = true,
	atd = true, nginx = true, httpd = true, apache2 = true, mysqld = true }

local function masquerade(_, F)
	for _, x in ipairs(F.execs) do
		local img = x.image or ""
		local name = basename(img):gsub("[%[%]]", ""):match("^[^/:]+") or ""
		local writable = img:find("^/tmp/") or img:find("^/dev/shm/") or img:find("^/var/tmp/")
			or img:find("^/work/") or img:find("^/run/user/")
		local a0 = x.argv and x.argv[1] or ""
		if writable and (DAEMONS[name] or img:find("/%[") or name:find("^kworker")) then
			return "ran " .. img
		end
		-- argv[0] a kernel thread's name ("[kworker/0:1]"), or a daemon's
		-- for a program in a writable place
		if a0:find("^%[.*%]$") or (writable and DAEMONS[basename(a0)]) then
			return ("ran %s as %s"):format(img, a0)
		end
	end
	return nil
end

-- a decoder and a shell reading its input started side by side by one
-- process (`... | base64 -d | sh`: a pipeline's processes are siblings)
local DECODERS = { "^base64 .*%-d", "^base64 .*%-%-decode", "^base32 .*%-d", "^xxd .*%-r", "^rev$",
	"^openssl .*%-d", "^gzip .*%-d", "^gunzip", "^zcat", "^uudecode", "^tr " }

local DECODER_IMAGES = { base64 = true, base32 = true, xxd = true, openssl = true, uudecode = true }

local function decoded_into_shell(_, F)
	-- a file a decoder wrote, then executed
	local decoded = {}
	for _, w in ipairs(F.written) do
		if DECODER_IMAGES[basename(w.image)] then decoded[w.path] = basename(w.image) end
	end
	for _, x in ipairs(F.execs) do
		if decoded[x.image or ""] then return ("ran %s, which %s decoded"):format(x.image, decoded[x.image]) end
	end
	local decoder = {}
	for _, x in ipairs(F.execs) do
		local cmd = rulekit.command(x)
		if x.ppid and rulekit.matches(cmd, DECODERS) then decoder[x.ppid] = decoder[x.ppid] or cmd end
	end
	for _, x in ipairs(F.execs) do
		local name = basename(x.image)
		local reads_input = #(x.argv or {}) == 1 or (x.argv[2] == "-" or x.argv[2] == "-s")
		if x.ppid and decoder[x.ppid] and reads_input
			and (name == "sh" or name == "bash" or name == "dash" or name:find("^python") or name == "perl") then
			return ("ran `%s` into `%s`"):format(decoder[x.ppid], x.cmdline)
		end
	end
	return nil
end

-- an anonymous executable mapping or a memfd executed
local function from_memory(_, F)
	for _, x in ipairs(F.execs) do
		-- the supervisor's word that the file executed was a memfd (a
		-- path "/memfd:x" the program named is only a path)
		if x.memfd then
			return ("executed %s from memory (%s)"):format(x.image,
				x.sha256 and "sha256:" .. x.sha256 or "not hashed: past the run's hashing budget")
		end
	end
	for _, x in ipairs(F.execs) do
		if (x.image or ""):find("^/proc/self/fd/") or (x.image or ""):find("^/dev/fd/") then
			return "executed " .. x.image
		end
	end
	return nil
end

-- A process's new name (prctl PR_SET_NAME) and argv[0] as its memory
-- held it then, against its exec's (`sbx.facts` renames): argv[0]
-- overwritten to name another program (a title that keeps its program's
-- name, as sshd's or postgres's, is not), or a kernel thread's name taken
local KTHREAD = { "^%[", "^kworker", "^ksoftirqd", "^kthreadd", "^migration/", "^rcu_", "^kswapd",
	"^watchdog/", "^jbd2/", "^irq/" }

local function kernel_name(s)
	return type(s) == "string" and rulekit.matches(s, KTHREAD)
end

local function renamed_itself(_, F)
	for _, r in ipairs(F.renames) do
		local was = basename(r.exec_argv0 or r.image)
		local now = r.argv0 and basename(r.argv0:match("^%S*"))
		local rewritten = now and now ~= "" and r.exec_argv0 and r.argv0 ~= r.exec_argv0
			and now:sub(1, #was) ~= was and was:sub(1, #now) ~= now
		if rewritten or kernel_name(r.name) or kernel_name(r.argv0) then
			return ("%s named itself %q (argv[0] %q, %q at its exec)"):format(tostring(r.image), r.name,
				tostring(r.argv0), tostring(r.exec_argv0))
		end
	end
	return nil
end

-- a TCP port bound on the loopback address by a process that also
-- reached out beyond the box (a bot's lock: a second copy's bind fails);
-- a server bound to 127.0.0.1 to serve the host itself reaches nowhere
local function port_lock(_, F)
	local out = {}
	for _, c in ipairs(F.connects) do
		if c.pid and not c.loopback and c.port ~= 53 then out[c.pid] = out[c.pid] or c end
	end
	for _, b in ipairs(F.binds) do
		local c = b.pid and out[b.pid]
		if c and b.loopback and b.protocol == "tcp" and b.answer == "allow" and b.port and b.port > 0 then
			return ("%s held %s:%d while reaching %s:%s"):format(tostring(b.image), b.ip, b.port,
				c.hostname or c.ip, tostring(c.port))
		end
	end
	return nil
end

local rules = {
	T { id = "T1070.003", name = "history_cleared", tactic = "stealth", severity = 6,
		what = "cleared the command history",
		delete = HISTORY, write = HISTORY,
		cmdline = { "history %-w /dev/null" },
		-- the builtin in a script's text (no exec shows it), as an act
		script = { "%f[%w]history%s+%-w%s+/dev/null" },
		check = function(_, F)
			-- `history -c` as an act; not in a trap on EXIT, where it is
			-- a shell's own set-up to keep no history at logout
			for _, x in ipairs(F.execs) do
				if at_will(x.cmdline) then return ("ran `%s`"):format(x.cmdline) end
			end
			-- the builtin in a script's text, where no exec shows it
			for _, l in ipairs(F.script_lines or {}) do
				if runs_history_clear(l.text) then return ("ran the script line `%s`"):format(l.text) end
			end
			for _, l in ipairs(F.links) do
				if rulekit.matches(l.path, HISTORY) then return ("linked %s to %s"):format(l.path, tostring(l.target)) end
			end
			return nil
		end },
	T { id = "T1690", name = "history_logging_off", tactic = "defense-impairment", severity = 5,
		what = "turned the command history off",
		cmdline = { "HISTFILE=/dev/null", "unset HISTFILE", "HISTSIZE=0", "HISTFILESIZE=0", "set %+o history",
			"HISTCONTROL=ignore", "HISTIGNORE=", "export HISTFILE=" },
		script = { "^unset%s+HISTFILE", "^export%s+HISTFILE=/dev/null", "^HISTFILE=/dev/null",
			"HISTSIZE=0%f[%D]", "HISTFILESIZE=0%f[%D]", "^set%s+%+o%s+history", "HISTCONTROL=[\"']?ignore",
			"HISTIGNORE=", "^shopt%s+%-u%s+histappend" } },
	T { id = "T1685", name = "logging_blocked", tactic = "defense-impairment", severity = 6,
		what = "stopped the system's logging",
		exec = { "^systemctl .*stop .*rsyslog", "^systemctl .*stop .*syslog", "^systemctl .*stop .*journald",
			"^systemctl .*disable .*rsyslog", "^service rsyslog stop", "^service syslog%-ng stop",
			"^pkill .*rsyslogd", "^killall .*rsyslogd", "^kill[%a]* .*syslog" },
		write = { "^/etc/rsyslog%.conf$", "^/etc/rsyslog%.d/", "^/etc/syslog%-ng/", "^/etc/systemd/journald%.conf" } },
	T { id = "T1070.008", name = "mailbox_cleared", tactic = "stealth", severity = 5,
		what = "cleared mailboxes",
		delete = { "^/var/mail/", "^/var/spool/mail/", "/Maildir/" },
		write = { "^/var/mail/", "^/var/spool/mail/" } },
	T { id = "T1553.004", name = "root_certificate", tactic = "stealth", severity = 7,
		what = "installed a root certificate",
		write = { "^/usr/local/share/ca%-certificates/", "^/usr/share/ca%-certificates/", "^/etc/ssl/certs/",
			"^/etc/pki/ca%-trust/", "^/etc/ca%-certificates", "/%.pki/nssdb/" },
		exec = { "^update%-ca%-certificates", "^update%-ca%-trust", "^trust anchor", "^certutil .*%-A" } },
	T { id = "T1036.003", name = "renamed_utility", tactic = "stealth", severity = 5,
		what = "ran a system program under another name",
		check = function(_, F)
			local copies = {}
			for _, x in ipairs(F.execs) do
				local src, dst = rulekit.command(x):match("^cp %-?%a* ?(/[%w/]*bin/[%w%.%-]+) (%S+)$")
				if src and dst then copies[#copies + 1] = { src, dst } end
			end
			for _, x in ipairs(F.execs) do
				for _, c in ipairs(copies) do
					local img = x.image or ""
					if basename(img) ~= basename(c[1]) and (img == c[2] or img:sub(1, #c[2] + 1) == c[2] .. "/") then
						return ("copied %s to %s and ran it"):format(c[1], img)
					end
				end
			end
			return nil
		end },
	T { id = "T1036.006", name = "space_after_name", tactic = "stealth", severity = 5,
		what = "ran a file whose name ends in a space",
		check = function(_, F)
			for _, x in ipairs(F.execs) do
				if (x.image or ""):find("%s$") then return ("ran '%s'"):format(x.image) end
			end
			return nil
		end },
	T { id = "T1027.001", name = "binary_padding", tactic = "stealth", severity = 4,
		what = "padded a binary",
		exec = { "^dd .*oflag=append", "^dd .*conv=notrunc.*of=", "^truncate .*%-s ?%+", "^truncate .*%-%-size=?%+" } },
	T { id = "T1027.002", name = "packing", tactic = "stealth", severity = 5,
		what = "packed or unpacked a program",
		exec = { "^upx ", "^upx$" } },
	T { id = "T1027.004", name = "compile_after_delivery", tactic = "stealth", severity = 2,
		what = "compiled a program (information: builds do)",
		exec = { "^gcc ", "^cc ", "^clang ", "^tcc ", "^g%+%+ ", "^go build", "^rustc " } },
	T { id = "T1546.005", name = "trap", tactic = "persistence", severity = 4,
		what = "set a signal trap that runs a command",
		-- a trap on EXIT alone is a script's clean-up: a trap on a signal,
		-- DEBUG, ERR or RETURN runs code at another moment
		cmdline = { "trap ['\"][^'\"]+['\"] [%u%d ]*%f[%u][A-DF-Z]%u*", "trap ['\"][^'\"]+['\"] [%u%d ]*EXIT%u",
			"trap ['\"][^'\"]+['\"] [%u%d ]*%f[%u]E[A-WYZ]", "trap %-%- ['\"][^'\"]+['\"] [%u%d ]*%f[%u][A-DF-Z]%u*",
			"trap ['\"][^'\"]+['\"] [%d ]*%f[%d][1-9]" },
		-- in a script's text only the DEBUG hook (run before every
		-- command): an EXIT or INT trap is how scripts clean up
		script = { "^trap%s.*%sDEBUG$" } },
	T { id = "T1685.006", name = "logs_cleared", tactic = "defense-impairment", severity = 7,
		what = "cleared system logs",
		delete = { "^/var/log/" }, write = { "^/var/log/[^/]*log", "^/var/log/[uw]tmp$",
			"^/var/log/btmp$", "^/var/log/lastlog$", "^/var/log/journal/", "^/run/log/journal/" },
		exec = { "^journalctl .*%-%-vacuum", "^journalctl .*%-%-rotate", "^shred .*/var/log/",
			"^truncate .*/var/log/", "^rm .*/var/log/" },
		check = kernel_log_cleared },
	T { id = "T1070.004", name = "file_deletion", tactic = "stealth", severity = 5,
		what = "removed its traces",
		exec = { "^shred ", "^srm ", "^wipe ", "^sdelete " },
		check = self_deleted },
	T { id = "T1070.006", name = "timestomp", tactic = "stealth", severity = 5,
		what = "forged a file's times",
		exec = { "^touch .*%-[acm]*[dtr]", "^touch .*%-%-date", "^touch .*%-%-reference",
			"^debugfs .*set_inode_field" } },
	T { id = "T1222.002", name = "permissions", tactic = "stealth", severity = 4,
		what = "loosened or locked a file's permissions",
		exec = { "^chmod .*%f[%d]0?777%f[%D]", "^chmod .*%f[%d]0?666%f[%D]", "^chmod .*[ao]%+w",
			"^chmod .*%f[%w]o%+[rwx]*w", "^chattr ", "^setfacl ", "^chown .*root", "^chgrp .*root",
			"^chmod .* /etc/", "^chmod .* /usr/" } },
	T { id = "T1222.002", name = "permissions_changed", tactic = "stealth", severity = 2,
		what = "changed a file's mode or owner (information: builds do)",
		exec = { "^chmod ", "^chown ", "^chgrp ", "^chattr ", "^setfacl " },
		check = function(_, F)
			for _, c in ipairs(F.changed) do
				if c.call and (c.call:find("chmod") or c.call:find("chown")) then
					return ("called %s on %s"):format(c.call, c.path)
				end
			end
			return nil
		end },
	T { id = "T1564.001", name = "hidden_files", tactic = "stealth", severity = 5,
		what = "hid files",
		write = { "^/tmp/%.[^/]", "^/dev/shm/%.[^/]", "^/var/tmp/%.[^/]", "/%.%.%.?/", "/%. /" },
		exec = { "^mkdir .*/tmp/%.[^/ ]", "^mkdir .*/dev/shm/%.", "^mkdir .*/%.%.%." } },
	T { id = "T1140", name = "decode", tactic = "stealth", severity = 2,
		what = "decoded data",
		exec = { "^base64 .*%-d", "^base64 .*%-%-decode", "^base32 .*%-d", "^xxd .*%-r",
			"^openssl .*enc .*%-d", "^openssl .*base64 .*%-d", "^uudecode" },
		-- an interpreter's own decoders, in its script's text
		script = { "base64%.b64decode%(", "decode_base64%(", "base64_decode%(", "Base64%.decode64",
			"zlib%.decompress%(", "Buffer%.from%(.-['\"]base64['\"]" } },
	T { id = "T1027", name = "obfuscated", tactic = "stealth", severity = 6,
		what = "ran an encoded command",
		check = decoded_into_shell,
		cmdline = { "base64 %-%-?d[^|]*|%s*[bd]?a?sh", "base64 %-%-?d[^|]*|%s*python", "b64decode.*exec",
			"exec%(.*b64decode", "exec%(.*decode%(", "eval.*base64", "base64 %-%-?d[^|]*|%s*bash",
			"xxd %-r[^|]*|%s*sh", "rev%s*|%s*[bd]?a?sh", "eval \"%$%(echo", "printf '\\x%x%x" },
		-- a command in a file's name, for a shell that expands it later
		write = { "{echo,[^/]*}|{base64,%-%-?d}", "{base64,%-%-?d}|[{]?[bd]?a?sh" },
		-- decoded or fetched text run by the interpreter itself
		script = { "base64 %-%-?d[^|]*|%s*[bd]?a?sh", "base64 %-%-?d[^|]*|%s*python", "xxd %-r[^|]*|%s*[bd]?a?sh",
			"^eval%s.*base64%s+%-%-?d", "^eval%s+[\"']?%$%(%s*echo", "^eval%s+[\"']?%$%(%s*curl%s",
			"^eval%s+[\"']?%$%(%s*wget%s", "exec%s*%(.*b64decode%(", "exec%s*%(.*decompress%(",
			"eval%s*%(?%s*decode_base64%(", "eval%s*%(?%s*base64_decode%(", "eval%s*%(?%s*gzinflate%(",
			"eval%s*%(?%s*Base64%.decode64", "eval%s*%(%s*Buffer%.from%(" } },
	T { id = "T1036.005", name = "masquerading", tactic = "stealth", severity = 6,
		what = "ran a program disguised as a system one",
		check = masquerade },
	T { id = "T1685", name = "defences_disabled", tactic = "defense-impairment", severity = 7,
		what = "disabled a security tool",
		exec = { "^setenforce 0", "^systemctl .*stop .*apparmor", "^systemctl .*disable .*apparmor",
			"^systemctl .*stop .*auditd", "^systemctl .*stop .*falco", "^systemctl .*stop .*clam",
			"^systemctl .*stop .*osquery", "^systemctl .*stop .*sysdig", "^systemctl .*stop .*wazuh",
			"^systemctl .*stop .*ossec", "^systemctl .*stop .*crowdstrike", "^systemctl .*stop .*falcon",
			"^service %S*apparmor %S*stop", "^service %S*auditd stop", "^aa%-teardown",
			"^apparmor_parser %-R", "^pkill .*audit", "^pkill .*falco", "^pkill .*clam", "^pkill .*osquery",
			"^killall .*audit", "^killall .*falco", "^killall .*clam", "^kill[%a]* .*wazuh",
			"^systemctl .*mask .*apparmor", "^sysctl .*kernel%.yama%.ptrace_scope=0",
			"^sysctl .*randomize_va_space=0" },
		write = { "^/etc/selinux/config$", "^/sys/fs/selinux/enforce$", "^/proc/sys/kernel/yama/",
			"^/proc/sys/kernel/randomize_va_space$" } },
	T { id = "T1686", name = "firewall_disabled", tactic = "defense-impairment", severity = 7,
		what = "changed the firewall",
		exec = { "^iptables .*%-F", "^iptables .*%-%-flush", "^iptables .*%-P %u+ ACCEPT", "^ip6tables .*%-F",
			"^iptables .*%-X", "^ufw disable", "^ufw .*allow", "^nft flush", "^nft .*delete table",
			"^systemctl .*stop .*firewalld", "^systemctl .*disable .*firewalld",
			"^systemctl .*stop .*ufw", "^firewall%-cmd .*%-%-add", "^iptables .*%-A INPUT.*ACCEPT",
			"^iptables .*%-I INPUT.*ACCEPT" },
		write = { "^/etc/iptables/", "^/etc/ufw/", "^/etc/nftables%.conf$", "^/etc/firewalld/" } },
	T { id = "T1685.004", name = "audit_disabled", tactic = "defense-impairment", severity = 7,
		what = "switched off the audit system",
		exec = { "^auditctl .*%-e ?0", "^auditctl .*%-D", "^auditctl .*%-d ", "^systemctl .*stop .*auditd",
			"^service auditd stop" },
		write = { "^/etc/audit/", "^/var/log/audit/" } },
	-- the places and programs of sbx.facts.ENVIRONMENT_CHECKS (the
	-- behaviour summary's tag `detect_debug_environment` is the same list)
	T { id = "T1497.001", name = "sandbox_checks", tactic = "stealth", severity = 3,
		what = "looked for a sandbox or a virtual machine",
		doc = "looked for a sandbox, a virtual machine or a debugger: a check of"
			.. " `sbx.facts.ENVIRONMENT_CHECKS` (evidence: exec, cmdline, read)",
		check = function(_, F)
			local list = F.environment_checks or {}
			if #list == 0 then return nil end
			return list[1].what, #list
		end },
	T { id = "T1622", name = "debugger_checks", tactic = "stealth", severity = 4,
		what = "looked for a debugger",
		check = function(_, F)
			for _, p in ipairs(F.ptraces) do
				if p.request == 0 then return "called ptrace PTRACE_TRACEME" end
			end
			return nil
		end,
		cmdline = { "TracerPid" } },
	T { id = "T1036.011", name = "process_renamed", tactic = "stealth", severity = 6,
		what = "overwrote its process name",
		check = renamed_itself },
	T { id = "T1480.002", name = "port_lock", tactic = "stealth", severity = 4,
		what = "held a loopback port as a single-instance lock",
		check = port_lock },
	T { id = "T1685", name = "watchdog_off", tactic = "defense-impairment", severity = 6,
		what = "disabled the hardware watchdog",
		not_by = { wdctl = true, watchdog = true, wd_keepalive = true, ["systemd-shutdown"] = true },
		read = { "^/dev/watchdog%d*$", "^/dev/misc/watchdog$" },
		write = { "^/dev/watchdog%d*$", "^/dev/misc/watchdog$" } },
	T { id = "T1620", name = "fileless", tactic = "stealth", severity = 7,
		what = "ran code from memory",
		check = from_memory },
}

-- ---- more defence evasion: disguised services, names and types,
-- detached process trees, persistence removed, obfuscated commands ----

-- document extensions a second extension hides behind
local DOCS = { pdf = true, doc = true, docx = true, xls = true, xlsx = true, jpg = true, jpeg = true, png = true,
	gif = true, txt = true, mp3 = true, mp4 = true, zip = true, odt = true, csv = true }

local function double_extension(_, F)
	for _, x in ipairs(F.execs) do
		local a, b = basename(x.image):match("%.(%w+)%.(%w+)$")
		if a and DOCS[a:lower()] and not DOCS[b:lower()] then return "ran " .. x.image end
	end
	for _, w in ipairs(F.written) do
		local a, b = basename(w.path):match("%.(%w+)%.(%w+)$")
		if a and DOCS[a:lower()] and (b == "sh" or b == "py" or b == "elf" or b == "bin" or b == "desktop") then
			return "wrote " .. w.path
		end
	end
	return nil
end

local function wrong_type(_, F)
	for _, x in ipairs(F.execs) do
		local ext = basename(x.image):match("%.(%w+)$")
		if ext and DOCS[ext:lower()] then return "ran " .. x.image end
	end
	for _, d in ipairs(F.dropped) do
		local ext = basename(d.path):match("%.(%w+)$")
		if ext and DOCS[ext:lower()] and type(d.type) == "string" and d.type:find("^ELF ") then
			return ("left %s, an ELF (%s)"):format(d.path, d.type)
		end
	end
	return nil
end

-- a process that runs an exec reparented to the box's init: its parent
-- left it (a double fork, a daemon), not the program started
local function detached(_, F)
	local first = F.execs[1] and F.execs[1].pid
	local tree = false
	for _, x in ipairs(F.execs) do
		if first and x.ppid == first then tree = true end
	end
	-- the program started children of its own (a tree to break away from)
	if not tree then return nil end
	for _, x in ipairs(F.execs) do
		if x.ppid == 1 and x.pid ~= first then return ("`%s` runs detached from its parent"):format(x.cmdline) end
	end
	return nil
end

local MORE = {
	T { id = "T1036.004", name = "masquerade_service", tactic = "stealth", severity = 6,
		what = "named a service or a task like a system one",
		write = { "/systemd/[%w/]*systemd%-[^/]*%.service$", "/systemd/[%w/]*dbus%-[^/]*%.service$",
			"/systemd/[%w/]*kworker[^/]*%.service$", "/systemd/[%w/]*systemd%-[^/]*%.timer$",
			"^/etc/cron%.d/[%w%-]*kernel", "^/etc/init%.d/kworker", "^/etc/init%.d/systemd%-" } },
	T { id = "T1036.007", name = "double_extension", tactic = "stealth", severity = 5,
		what = "hid a program behind a document's extension",
		check = double_extension },
	T { id = "T1036.008", name = "masquerade_file_type", tactic = "stealth", severity = 5,
		what = "disguised a program as another type of file",
		check = wrong_type },
	T { id = "T1036.009", name = "break_process_tree", tactic = "stealth", severity = 3,
		what = "detached a process from its parent",
		exec = { "^setsid ", "^daemonize ", "^start%-stop%-daemon .*%-%-background" },
		check = detached },
	T { id = "T1070.009", name = "persistence_cleared", tactic = "stealth", severity = 5,
		what = "removed persistence it had set",
		exec = { "^crontab %-r", "^atrm ", "^rm .*/etc/cron%.d/", "^rm .*%.config/autostart/", "^rm .*/systemd/system/[^ ]+%.service",
			"^rm .*%.config/systemd/user/" },
		delete = { "^/etc/cron%.d/", "^/var/spool/cron/", "/%.config/autostart/", "/systemd/system/[^/]+%.service$",
			"/%.config/systemd/user/[^/]+%.service$", "^/etc/rc%.local$" } },
	T { id = "T1027.010", name = "command_obfuscation", tactic = "stealth", severity = 5,
		what = "obfuscated a command",
		cmdline = { "%${IFS}", "%$IFS%$", "\\x%x%x\\x%x%x\\x%x%x", "%$'\\x%x%x", "%$'\\%d%d%d\\%d%d%d",
			"eval .*%$%(printf ", "eval .*%$%(echo .*|%s*rev", "eval .*%$%(echo .*|%s*tr ", "%${[%w_]+:%d+:%d+}%${[%w_]+:%d+:%d+}",
			"['\"][a-z]['\"][a-z]['\"][a-z]", "\\[a-z]\\[a-z]\\[a-z]" } },
	T { id = "T1027.003", name = "steganography", tactic = "stealth", severity = 6,
		what = "hid data in a picture",
		exec = { "^steghide embed", "^steghide extract", "^outguess ", "^stegseek ", "^zsteg ",
			"^cat %S+%.jpe?g %S+%.zip$", "^cat %S+%.png %S+%.zip$", "^cat %S+%.gif %S+%.zip$",
			"^unzip %S*%.jpe?g", "^unzip %S*%.png" } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- endpoint agents, a hypervisor's logs, hidden processes, kernel probes ----

-- security and monitoring agents on Linux servers, as their services and
-- packages are named (patterns)
local AGENTS = { "kesl", "klnagent", "mdatp", "sentinel", "cbagent", "esets", "sophos", "sav%-protect",
	"ds_agent", "bdsec", "cylancesvc", "xagt", "taniumclient", "auditd", "apparmor", "falcon", "osquery", "wazuh",
	"ossec", "clamav", "sysdig", "aliyun", "aegis", "cloudmonitor", "qcloud", "bcm%-agent", "crowdstrike",
	"filebeat", "auditbeat", "selinux%-policy", "fail2ban", "rkhunter", "chkrootkit" }
local AGENT_STOP = {}
for _, a in ipairs(AGENTS) do
	AGENT_STOP[#AGENT_STOP + 1] = "^systemctl .*stop .*" .. a
	AGENT_STOP[#AGENT_STOP + 1] = "^systemctl .*disable .*" .. a
	AGENT_STOP[#AGENT_STOP + 1] = "^systemctl .*mask .*" .. a
	AGENT_STOP[#AGENT_STOP + 1] = "^service " .. a .. "%S* stop"
	AGENT_STOP[#AGENT_STOP + 1] = "^%a*sh /etc/init%.d/" .. a .. "%S* stop"
	AGENT_STOP[#AGENT_STOP + 1] = "^" .. a .. "%S* stop"
end

local QUIETER = {
	T { id = "T1685", name = "endpoint_agent_stopped", tactic = "defense-impairment", severity = 7,
		what = "stopped an endpoint protection agent",
		exec = AGENT_STOP },
	T { id = "T1685", name = "hypervisor_logs_moved", tactic = "defense-impairment", severity = 6,
		what = "moved or switched off a hypervisor's logs",
		exec = { "^esxcli .*system syslog config set", "^esxcli .*system auditrecords local disable",
			"^esxcfg%-syslog " } },
	T { id = "T1564", name = "hidden_processes", tactic = "stealth", severity = 6,
		what = "hid processes from other users",
		exec = { "^mount .*hidepid=[12]", "^mount .*hidepid=invisible", "^mount .*hidepid=noaccess" } },
	T { id = "T1014", name = "kernel_probes", tactic = "stealth", severity = 7,
		what = "hooked the kernel through its tracing probes",
		write = { "/tracing/kprobe_events$", "/tracing/uprobe_events$", "/tracing/events/kprobes/.*/enable$",
			"/tracing/events/uprobes/.*/enable$" },
		cmdline = { "/tracing/kprobe_events", "/tracing/events/kprobes/", "/tracing/uprobe_events" },
		exec = { "^bpftrace .*%-%-unsafe" } },
}
for _, r in ipairs(QUIETER) do rules[#rules + 1] = r end

-- ---- security agents uninstalled; an eBPF program on the network path ----
-- a package manager's removal verb with a security or monitoring agent's
-- name on the same command line (a miner clears the host of them)
local REMOVE = { "^apt%-get .*remove ", "^apt%-get .*purge ", "^apt .*remove ", "^apt .*purge ", "^dpkg .*%-%-remove ",
	"^dpkg .*%-%-purge ", "^dpkg %-[rP] ", "^yum .*remove ", "^yum .*erase ", "^dnf .*remove ", "^rpm .*%-e ",
	"^zypper .*remove ", "^apk del " }
local function agents_removed(_, F)
	for _, x in ipairs(F.execs) do
		local c = rulekit.command(x)
		if rulekit.matches(c, REMOVE) and rulekit.matches(c, AGENTS) then return c end
	end
	return nil
end
rules[#rules + 1] = T { id = "T1685", name = "agents_removed", tactic = "defense-impairment", severity = 7,
	what = "uninstalled a security tool", doc = "uninstalled a security or monitoring agent with a package manager"
		.. " (evidence: exec)", check = agents_removed }
rules[#rules + 1] = T { id = "T1014", name = "ebpf_traffic_hook", tactic = "stealth", severity = 7,
	what = "attached an eBPF program to the network's traffic",
	exec = { "^tc .*filter .* bpf ", "^tc .*filter .*obj ", "^ip link set .* xdp", "^bpftool .*attach",
		"^bpftool prog load" } }


-- ---- a disk read past the file system: a block or character device
-- node made (the legacy mknod call; the kernel refuses it a box, as it
-- does any process without CAP_MKNOD) ----
local S_IFMT, S_IFBLK, S_IFCHR = 0xF000, 0x6000, 0x2000
local function device_node(_, F)
	for _, c in ipairs(F.calls or {}) do
		local t = c.call == "mknod" and c.mode and c.mode & S_IFMT
		if t == S_IFBLK or t == S_IFCHR then
			return ("made a %s device node %s"):format(t == S_IFBLK and "block" or "character", tostring(c.path))
		end
	end
	return nil
end
rules[#rules + 1] = T { id = "T1006", name = "device_node", tactic = "stealth", severity = 7,
	what = "made a device node to reach a disk past the file system", check = device_node }

return rules
