-- SPDX-License-Identifier: MIT
-- Persistence (TA0003): what a program leaves behind to run again: cron
-- and at jobs, systemd units and timers, shell start-up files, rc scripts,
-- kernel modules, SSH keys, accounts, the dynamic linker's preload list,
-- desktop autostart entries, PAM modules, web shells, udev rules, and
-- system binaries replaced.  Each rule quotes its first piece of evidence
-- (an attempt counts: the box's root is read-only, so most of these
-- writes fail in the box, and are still what the program tried).
local T = rulekit.technique

local rules = {
	T { id = "T1053.003", name = "cron", tactic = "persistence", severity = 6,
		what = "installed a cron job",
		write = { "^/etc/crontab$", "^/etc/cron%.[%w]+/", "^/var/spool/cron/", "^/etc/anacrontab$" },
		exec = { "^crontab [^%-]", "^crontab %-$", "^crontab %-e", "^crontab %-u %S+ [^%-]" } },
	T { id = "T1053.006", name = "systemd_timer", tactic = "persistence", severity = 6,
		what = "installed a systemd timer",
		write = { "/systemd/[%w/]*[^/]+%.timer$" },
		exec = { "^systemd%-run .*%-%-on%-", "^systemctl .*enable .*%.timer" } },
	T { id = "T1543.002", name = "systemd_service", tactic = "persistence", severity = 6,
		what = "installed a systemd service",
		write = { "/systemd/[%w/%-]*[^/]+%.service$", "/systemd/system/[^/]+%.wants/",
			"/%.config/systemd/user/" },
		exec = { "^systemctl .*enable" } },
	T { id = "T1546.004", name = "shell_startup", tactic = "persistence", severity = 6,
		what = "changed a shell start-up file",
		write = { "/%.bashrc$", "/%.bash_profile$", "/%.bash_login$", "/%.bash_logout$", "/%.profile$",
			"/%.zshrc$", "/%.zprofile$", "/%.zshenv$", "/%.zlogin$", "/%.kshrc$", "/%.cshrc$",
			"/%.tcshrc$", "^/etc/profile$", "^/etc/profile%.d/", "^/etc/bash%.bashrc$",
			"^/etc/zsh/", "^/etc/environment$", "/%.config/fish/config%.fish$" } },
	T { id = "T1037.004", name = "rc_scripts", tactic = "persistence", severity = 6,
		what = "changed a boot script",
		write = { "^/etc/rc%.local$", "^/etc/rc%.d/", "^/etc/rc%d%.d/", "^/etc/init%.d/",
			"^/etc/rc%.common$" },
		exec = { "^update%-rc%.d %S+ .*defaults", "^update%-rc%.d %S+ enable", "^chkconfig %S+ on" } },
	T { id = "T1547.006", name = "kernel_module", tactic = "persistence", severity = 8,
		what = "loaded or installed a kernel module",
		exec = { "^insmod ", "^modprobe [^%-]", "^modprobe %-[^rlcn]", "^depmod", "^kmod load" },
		write = { "^/etc/modules$", "^/etc/modules%-load%.d/", "^/etc/modprobe%.d/", "%.ko$",
			"^/lib/modules/", "^/usr/lib/modules/" },
		check = function(_, F) return rulekit.refused_call(F, { init_module = true, finit_module = true }) end },
	T { id = "T1098.004", name = "ssh_authorized_keys", tactic = "persistence", severity = 7,
		what = "added an SSH authorized key",
		write = { "/%.ssh/authorized_keys2?$", "^/etc/ssh/sshd_config", "^/etc/ssh/authorized_keys" } },
	T { id = "T1136.001", name = "local_account", tactic = "persistence", severity = 7,
		what = "created a local account",
		exec = { "^useradd ", "^adduser ", "^newusers" } },
	T { id = "T1574.006", name = "ld_preload", tactic = "persistence", severity = 8,
		what = "hijacked the dynamic linker",
		write = { "^/etc/ld%.so%.preload$", "^/etc/ld%.so%.conf$", "^/etc/ld%.so%.conf%.d/" },
		cmdline = { "LD_PRELOAD=", "LD_LIBRARY_PATH=/tmp", "LD_LIBRARY_PATH=/dev/shm" } },
	T { id = "T1547.013", name = "xdg_autostart", tactic = "persistence", severity = 6,
		what = "added a desktop autostart entry",
		write = { "/%.config/autostart/", "^/etc/xdg/autostart/" } },
	T { id = "T1053.002", name = "at_job", tactic = "persistence", severity = 5,
		what = "scheduled an at job",
		exec = { "^at [^%-]", "^at %-[ftmMqv]", "^at$", "^batch$" },
		write = { "^/var/spool/cron/atjobs/", "^/var/spool/at/" } },
	T { id = "T1556.003", name = "pam", tactic = "persistence", severity = 8,
		what = "changed the authentication modules",
		write = { "^/etc/pam%.d/", "^/etc/pam%.conf$", "/security/pam_[^/]*%.so$", "/pam_[^/]*%.so$" } },
	T { id = "T1505.003", name = "web_shell", tactic = "persistence", severity = 8,
		what = "dropped a web shell",
		write = { "^/var/www/.*%.ph[pt]%d?$", "^/var/www/.*%.jsp$", "^/var/www/.*%.aspx?$",
			"^/usr/share/nginx/.*%.php$", "^/srv/www/.*%.php$", "/cgi%-bin/[^/]+$" } },
	T { id = "T1546.017", name = "udev_rule", tactic = "persistence", severity = 7,
		what = "added a udev rule",
		write = { "^/etc/udev/rules%.d/", "^/lib/udev/rules%.d/", "^/usr/lib/udev/rules%.d/" } },
	T { id = "T1554", name = "system_binary", tactic = "persistence", severity = 8,
		what = "replaced a system program",
		write = { "^/usr/s?bin/", "^/s?bin/", "^/usr/local/s?bin/", "^/usr/lib/[^/]*%.so", "^/lib/[^/]*%.so",
			"^/usr/lib/x86_64%-linux%-gnu/[^/]*%.so" } },
}

-- ---- more persistence: browser extensions ----
local MORE = {
	T { id = "T1176", name = "browser_extension", tactic = "persistence", severity = 6,
		what = "installed a browser extension",
		write = { "/%.mozilla/firefox/[^/]+/extensions/", "/%.config/google%-chrome/[^/]+/Extensions/",
			"/%.config/chromium/[^/]+/Extensions/", "/External Extensions/", "^/usr/share/mozilla/extensions/",
			"^/opt/google/chrome/extensions/", "/%.config/BraveSoftware/.*/Extensions/" },
		exec = { "%-%-load%-extension=" } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- accounts and roles on a hypervisor ----

local HYPERVISOR_ACCOUNTS = {
	T { id = "T1136.001", name = "hypervisor_account", tactic = "persistence", severity = 7,
		what = "created an account on a hypervisor",
		exec = { "^esxcli .*system account add" } },
	T { id = "T1098", name = "hypervisor_role", tactic = "persistence", severity = 7,
		what = "gave an account a hypervisor's administrator role",
		exec = { "^esxcli .*system permission set.*Admin" } },
}
for _, r in ipairs(HYPERVISOR_ACCOUNTS) do rules[#rules + 1] = r end

-- ---- power settings: a machine kept awake for the miner ----
rules[#rules + 1] = T { id = "T1653", name = "power_settings", tactic = "persistence", severity = 6,
	what = "kept the machine from sleeping",
	exec = { "^systemctl .*mask .*sleep%.target", "^systemctl .*mask .*suspend%.target",
		"^systemctl .*mask .*hibernate%.target", "^gsettings set .*sleep%-inactive%-[%a]+%-timeout 0",
		"^gsettings set .*sleep%-inactive%-[%a]+%-type ['\"]?nothing" },
	write = { "^/etc/systemd/sleep%.conf", "^/etc/systemd/logind%.conf" } }

-- ---- a web shell at work: a web server's own process, one that bound a
-- socket, runs the commands an operator sends (two or more of the first
-- things one asks) ----
local WEB_SERVERS = { httpd = true, apache2 = true, nginx = true, lighttpd = true, caddy = true, node = true,
	["php-fpm"] = true, ["php-cgi"] = true, uwsgi = true, gunicorn = true }
local OPERATOR = { whoami = true, id = true, uname = true, hostname = true, ifconfig = true, ip = true,
	netstat = true, route = true, iptables = true, crontab = true, pwd = true }
local function web_server_commands(_, F)
	local serving = {}
	for _, b in ipairs(F.binds or {}) do
		if b.pid then serving[b.pid] = true end
	end
	local seen, first, n = {}, nil, 0
	for _, x in ipairs(F.execs) do
		local prog = rulekit.basename(x.image)
		if not x.attempt and serving[x.ppid] and WEB_SERVERS[rulekit.basename(x.parent_image)] and OPERATOR[prog]
			and not seen[prog] then
			seen[prog], n = true, n + 1
			first = first or ("%s ran `%s`"):format(rulekit.basename(x.parent_image), rulekit.command(x))
		end
	end
	if n >= 2 then return first, n end
	return nil
end
rules[#rules + 1] = T { id = "T1505.003", name = "web_shell_commands", tactic = "persistence", severity = 8,
	what = "ran an operator's commands from a web server", doc = "a web server's process (httpd, nginx, node...) that bound a"
		.. " socket ran two or more discovery commands (whoami, id, uname...): a web shell at work (evidence: exec)",
	check = web_server_commands }

return rules
