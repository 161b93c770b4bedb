-- SPDX-License-Identifier: MIT
-- Privilege escalation (TA0004): set-id bits, sudoers, escapes to the
-- host, and injection into another process.
local T = rulekit.technique

-- PTRACE_* requests that write or take over another process
local ATTACH = { [4] = "PTRACE_POKETEXT", [5] = "PTRACE_POKEDATA", [6] = "PTRACE_POKEUSER",
	[13] = "PTRACE_SETREGS", [16] = "PTRACE_ATTACH", [0x4206] = "PTRACE_SEIZE" }

-- the calls that make or enter namespaces or mount: refused, an escape tried
local NS_CALLS = { setns = true, unshare = true, pivot_root = true, mount = true, open_tree = true, fsopen = true,
	move_mount = true }

local rules = {
	T { id = "T1548.001", name = "setid_bit", tactic = "privilege-escalation", severity = 8,
		what = "set a set-user-id or set-group-id bit",
		exec = { "^chmod .*[ugoa]*%+[rwxXt]*s", "^chmod %-?%-?%a* ?0?[2467]%d%d%d " },
		check = function(_, F)
			for _, r in ipairs(F.refused) do
				-- the box's profiles refuse a chmod only for a set-id bit
				if r.call == "chmod" or r.call == "fchmod" or r.call == "fchmodat"
					or r.call == "fchmodat2" then
					return ("called %s on %s with a set-id bit (refused)"):format(r.call,
						tostring(r.path or "a file"))
				end
			end
			for _, d in ipairs(F.dropped) do
				if d.mode and d.mode & 3072 ~= 0 then return "left " .. d.path .. " set-id" end
			end
			return nil
		end },
	T { id = "T1548.003", name = "sudoers", tactic = "privilege-escalation", severity = 8,
		what = "changed the sudo rules",
		write = { "^/etc/sudoers$", "^/etc/sudoers%.d/", "^/var/run/sudo/ts/", "^/run/sudo/ts/", "^/etc/doas%.conf$",
			"^/usr/local/etc/doas%.conf$" },
		cmdline = { "NOPASSWD" } },
	T { id = "T1548.003", name = "sudo_use", tactic = "privilege-escalation", severity = 4,
		what = "used sudo",
		exec = { "^sudo ", "^sudoedit " },
		read = { "^/etc/sudoers$", "^/etc/sudoers%.d/", "^/var/run/sudo/", "^/run/sudo/" },
		cmdline = { "timestamp_timeout" } },
	T { id = "T1611", name = "escape_to_host", tactic = "privilege-escalation", severity = 8,
		what = "tried to escape to the host",
		exec = { "^nsenter ", "^unshare ", "^chroot /proc/", "^mount .*/dev/[sv]d", "^mount .*cgroup",
			"^docker .*%-v /:", "^docker .*%-%-privileged", "^capsh " },
		read = { "^/proc/1/root", "^/proc/1/ns/", "release_agent$", "^/var/run/docker%.sock$",
			"^/run/docker%.sock$", "^/run/containerd/containerd%.sock$" },
		write = { "release_agent$", "^/proc/sys/kernel/core_pattern$", "^/proc/sysrq%-trigger$" },
		check = function(_, F)
			-- the container clients talk to their daemon (discovery); a
			-- program of its own that does is after the daemon's rights
			local CLIENTS = { docker = true, podman = true, kubectl = true, crictl = true, ctr = true,
				nerdctl = true }
			for _, u in ipairs(F.unix) do
				if (u.path:find("docker%.sock$") or u.path:find("containerd%.sock$"))
					and not CLIENTS[rulekit.basename(u.image)] then
					return "connected to " .. u.path
				end
			end
			local ns = F.namespaces[1]
			if ns then return "called " .. tostring(ns.call) .. " for new namespaces" end
			return rulekit.refused_call(F, NS_CALLS)
		end },
	T { id = "T1055.008", name = "ptrace_injection", tactic = "privilege-escalation", severity = 8,
		what = "took over another process with ptrace",
		exec = { "^gdb .*%-p ", "^gdb .*%-%-pid", "^gdb %-?%-?batch .* %d+$" },
		check = function(_, F)
			for _, p in ipairs(F.ptraces) do
				local name = ATTACH[math.tointeger(p.request) or -1]
				if name then return "called ptrace " .. name end
			end
			return rulekit.refused_call(F, { process_vm_writev = true })
		end },
	T { id = "T1055.009", name = "proc_memory", tactic = "privilege-escalation", severity = 8,
		what = "wrote another process's memory",
		write = { "^/proc/%d+/mem$", "^/proc/%d+/task/%d+/mem$" },
		exec = { "^dd .*of=/proc/%d+/mem" } },
}

-- ---- more privilege escalation: valid local accounts, the PATH ----

-- programs a user or a script runs by name; one of these run from a
-- writable place was found there through PATH
local COMMON = { ls = true, ps = true, sudo = true, su = true, id = true, cat = true, netstat = true, ss = true,
	top = true, ssh = true, passwd = true, login = true, whoami = true, uname = true, grep = true, find = true,
	ifconfig = true, ip = true, lsof = true, kill = true, systemctl = true, apt = true, git = true }

local function path_hijack(_, F)
	for _, x in ipairs(F.execs) do
		local img = x.image or ""
		local writable = img:find("^/tmp/") or img:find("^/var/tmp/") or img:find("^/dev/shm/")
			or img:find("^/home/") or img:find("^/run/user/")
		if writable and COMMON[rulekit.basename(img)] then return ("ran %s for %s"):format(img, rulekit.basename(img)) end
	end
	return nil
end

local MORE = {
	T { id = "T1078.003", name = "local_account_use", tactic = "privilege-escalation", severity = 4,
		what = "switched to another local account",
		exec = { "^su %-? ?[%w_]+", "^su %-c", "^su %-l ", "^su %-s ", "^su$", "^runuser ", "^login %-f" } },
	T { id = "T1574.007", name = "path_interception", tactic = "privilege-escalation", severity = 6,
		what = "put a program of its own ahead in PATH",
		cmdline = { "PATH=/tmp", "PATH=/dev/shm", "PATH=/var/tmp", "PATH=%.:", "PATH=%./" },
		check = path_hijack },
	T { id = "T1068", name = "local_exploit", tactic = "privilege-escalation", severity = 6,
		what = "tried a local exploit",
		doc = "tried a local exploit: a function definition in a variable for bash (Shellshock), a run of "
			.. "64 or more A's in a command line (a stack overflow's padding), a link to an account file",
		cmdline = { "%(%)%s*{%s*:%s*;%s*}%s*;", ("A"):rep(64) },
		exec = { "^ln %-s%a* /etc/passwd ", "^ln %-s%a* /etc/shadow ", "^ln %-s%a* %-f /etc/passwd ",
			"^ln %-s%a* /etc/sudoers " } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- file capabilities, doas, sudo's chroot option ----

-- the capabilities that make a program root in all but name
local ROOT_CAPS = { "cap_setuid", "cap_setgid", "cap_sys_admin", "cap_dac_override", "cap_dac_read_search",
	"cap_sys_ptrace", "cap_sys_module", "cap_chown", "cap_fowner" }
local SETCAP = {}
for i, c in ipairs(ROOT_CAPS) do SETCAP[i] = "^setcap .*" .. c end

local ELEVATION = {
	T { id = "T1548.001", name = "file_capabilities", tactic = "privilege-escalation", severity = 8,
		what = "gave a program a capability that makes it root",
		exec = SETCAP },
	T { id = "T1548.003", name = "doas_use", tactic = "privilege-escalation", severity = 4,
		what = "used doas",
		exec = { "^doas " },
		read = { "^/etc/doas%.conf$", "^/usr/local/etc/doas%.conf$" } },
	-- only sudo's own options, before the command: `sudo chown -R` is not one
	T { id = "T1068", name = "sudo_chroot", tactic = "privilege-escalation", severity = 8,
		what = "gave sudo a root directory of its choosing (sudo then reads that root's name service "
			.. "configuration as root)",
		exec = { "^sudo %-[%a]*R", "^sudo %-%-chroot", "^sudo %-[%a]*[ugp] %S+ %-[%a]*R" } },
}
for _, r in ipairs(ELEVATION) do rules[#rules + 1] = r end

return rules
