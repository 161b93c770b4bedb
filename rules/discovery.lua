-- SPDX-License-Identifier: MIT
-- Discovery (TA0007): what a program asks of the system it landed on.
-- Each alone is information (severity 1, verdict info: a run stays clean
-- on it; `uname` and `id` are ordinary); the last rule is the suspicion:
-- three or more kinds of discovery and then data sent out.
local T = rulekit.technique
local evidence = rulekit.evidence

-- A walk of /proc without a tool (a bot's killer, a miner looking for
-- rivals): the entries (exe, cmdline, fd, status...) of two or more other
-- processes read by one process that is no process lister (nor ss or
-- netstat, which name each socket's process; `sbx.facts` proc_reads)
local LISTERS = { ps = true, pgrep = true, pkill = true, top = true, htop = true, pidof = true,
	pstree = true, killall = true, lsof = true, fuser = true, pmap = true, pwdx = true, w = true,
	pidwait = true, ss = true, netstat = true, sockstat = true, ["systemd-cgls"] = true }

local function proc_walk(F)
	local by = {}
	for _, r in ipairs(F.proc_reads) do
		if r.by and not LISTERS[rulekit.basename(r.image)] then
			local pids = by[r.by] or { n = 0, image = r.image }
			if not pids[r.pid] then pids[r.pid], pids.n = true, pids.n + 1 end
			by[r.by] = pids
			if pids.n >= 2 then
				return ("%s read /proc of %d other processes"):format(tostring(pids.image), pids.n), pids.n
			end
		end
	end
	return nil
end

-- sysinfo(2) asked by a program of the sample's own (not one of the
-- system's places, whose tools and interpreters ask it to size their
-- buffers: sort, Python, the JVM)
local SYSTEM_PLACES = { "^/usr/", "^/bin/", "^/sbin/", "^/lib" }
local function asked_sysinfo(_, F)
	for _, c in ipairs(F.calls or {}) do
		local own = c.call == "sysinfo" and type(c.image) == "string" and not rulekit.matches(c.image, SYSTEM_PLACES)
		if own then return ("%s asked the kernel for the machine's uptime, memory and load (sysinfo)"):format(c.image) end
	end
	return nil
end

local SPECS = {
	{ id = "T1082", name = "system_info", what = "asked for the system's description", check = asked_sysinfo,
		exec = { "^uname", "^hostnamectl", "^lsb_release", "^lscpu", "^lshw", "^dmesg", "^cat .*/etc/os%-release",
			"^cat .*/etc/issue", "^cat .*/proc/version", "^cat .*/proc/cpuinfo", "^cat .*/etc/%a+%-release",
			"^getconf ", "^free" },
		read = { "^/proc/version$", "^/etc/issue$", "^/proc/cpuinfo$" } },
	{ id = "T1033", name = "user_discovery", what = "asked who it runs as",
		exec = { "^whoami", "^id$", "^id ", "^who$", "^who ", "^w$", "^w ", "^users$", "^logname", "^last " ,
			"^last$" } },
	{ id = "T1087.001", name = "account_discovery", what = "listed the local accounts",
		exec = { "^cat .*/etc/passwd", "^getent passwd", "^lastlog", "^compgen %-u", "^awk .*/etc/passwd",
			"^cut .*/etc/passwd", "^grep .*/etc/passwd", "^less .*/etc/passwd", "^head .*/etc/passwd" } },
	{ id = "T1069.001", name = "group_discovery", what = "listed the local groups",
		exec = { "^groups", "^getent group", "^cat .*/etc/group", "^grep .*/etc/group", "^lid ", "^id %-G" } },
	{ id = "T1016", name = "network_config", what = "asked for the network configuration",
		exec = { "^ifconfig", "^ip a", "^ip addr", "^ip link", "^ip r", "^ip %-%a+ a", "^route", "^arp",
			"^nmcli", "^iwconfig", "^hostname %-[Ii]", "^cat .*/etc/resolv%.conf", "^resolvectl",
			"^networkctl", "^iptables %-[LS]" },
		read = { "^/proc/net/route$", "^/proc/net/if_inet6$", "^/sys/class/net/[^/]+/address$",
			"^/proc/net/fib_trie$" },
		dns = { "^ifconfig%.me$", "icanhazip", "ipify%.org$", "^checkip%.", "ipecho%.net$", "ident%.me$" } },
	{ id = "T1049", name = "connections", what = "listed the network connections",
		exec = { "^netstat", "^ss$", "^ss ", "^lsof .*%-i", "^cat .*/proc/net/tcp", "^cat .*/proc/net/udp" },
		read = { "^/proc/net/tcp6?$", "^/proc/net/udp6?$", "^/proc/net/unix$" } },
	{ id = "T1057", name = "process_discovery", what = "listed the processes",
		exec = { "^ps$", "^ps ", "^pgrep", "^pstree", "^top .*%-b", "^htop", "^pidof" },
		check = function(_, F) return proc_walk(F) end },
	{ id = "T1083", name = "file_discovery", what = "searched the file system",
		exec = { "^find /$", "^find / ", "^find /home", "^find /root", "^find /etc", "^find ~", "^find /var",
			"^find /opt", "^find /mnt", "^find /media", "^ls .*%-[%a]*R[%a]* /", "^locate ", "^tree /",
			"^ls .*/root", "^ls .*/home", "^getcap %-r" } },
	{ id = "T1518", name = "software_discovery", what = "listed the installed software",
		exec = { "^dpkg %-l", "^dpkg %-%-list", "^dpkg%-query %-[lW]", "^rpm %-q[a]", "^apt list",
			"^apt%-mark showmanual", "^yum list", "^dnf list", "^pip3? list", "^snap list", "^flatpak list" } },
	{ id = "T1518.001", name = "security_software", what = "looked for security software",
		cmdline = { "[Cc]lam[Aa][Vv]", "clamd", "falco", "osquery", "auditd", "sysdig", "wazuh", "ossec",
			"crowdstrike", "falcon%-sensor", "sentinelone", "carbonblack", "cbagent", "aa%-status",
			"apparmor_status", "sestatus", "getenforce", "tripwire", "rkhunter", "chkrootkit", "sophos",
			"kaspersky", "bitdefender", "qualys", "tanium", "elastic%-agent", "auditbeat", "lynis" },
		exec = { "^aa%-status", "^apparmor_status", "^sestatus", "^getenforce", "^auditctl %-[ls]" } },
	{ id = "T1007", name = "service_discovery", what = "listed the services",
		exec = { "^systemctl .*list%-", "^systemctl .*status", "^service .*%-%-status%-all", "^chkconfig %-%-list",
			"^ls .*/etc/init%.d", "^ls .*/etc/systemd", "^initctl list", "^rc%-status" } },
	{ id = "T1124", name = "time_discovery", what = "asked for the system time",
		exec = { "^date$", "^date ", "^timedatectl", "^hwclock", "^uptime", "^cat .*/proc/uptime" } },
	{ id = "T1135", name = "share_discovery", what = "looked for network shares",
		exec = { "^showmount", "^smbclient .*%-L", "^smbtree", "^nmblookup", "^cat .*/etc/exports",
			"^cat .*/etc/fstab", "^mount$", "^df .*%-t ?nfs", "^findmnt .*nfs" },
		read = { "^/etc/exports$" } },
	{ id = "T1201", name = "password_policy", what = "read the password policy",
		exec = { "^chage %-l", "^cat .*/etc/login%.defs", "^cat .*/etc/pam%.d/common%-password",
			"^cat .*/etc/security/pwquality%.conf", "^grep .*PASS_MAX", "^pwpolicy" },
		read = { "^/etc/security/pwquality%.conf$", "^/etc/pam%.d/common%-password$",
			"^/etc/pam%.d/system%-auth$" } },
	{ id = "T1217", name = "browser_info", what = "read a browser's bookmarks or history",
		read = { "/places%.sqlite$", "/Bookmarks$", "/History$", "/favicons%.sqlite$", "/Top Sites$" } },
	{ id = "T1614", name = "location_discovery", what = "asked where the host is",
		dns = { "ipinfo%.io$", "ip%-api%.com$", "geoip", "ipapi%.co$", "ipgeolocation", "freegeoip" },
		exec = { "^curl .*ipinfo%.io", "^curl .*ip%-api%.com", "^wget .*ipinfo%.io", "^geoiplookup" } },
	{ id = "T1614.001", name = "language_discovery", what = "asked for the system's language",
		exec = { "^locale$", "^locale ", "^localectl", "^cat .*/etc/locale%.conf", "^cat .*/etc/default/locale",
			"^cat .*/etc/timezone" } },
	{ id = "T1018", name = "remote_systems", what = "looked for other hosts",
		exec = { "^arp %-a", "^ip neigh", "^cat .*/etc/hosts$", "^cat .*/%.ssh/known_hosts", "^nmap .*%-sn",
			"^fping", "^arp%-scan", "^netdiscover", "^ping .*%-c ?1 .*%d+%.%d+%.%d+%.%d+" },
		read = { "/%.ssh/known_hosts$", "^/proc/net/arp$" } },
	{ id = "T1613", name = "container_discovery", what = "listed containers",
		exec = { "^docker ps", "^docker images", "^docker info", "^docker container ls", "^kubectl get",
			"^kubectl describe", "^kubectl auth can%-i", "^crictl ", "^podman ps", "^ctr .*list", "^lxc list" },
		read = { "/var/run/secrets/kubernetes%.io/serviceaccount/" } },
}

-- data out: a connect or a send to an address that is not the name server
local function sent_out(F)
	for _, c in ipairs(F.connects) do
		if c.port ~= 53 and not c.loopback then return ("%s:%s"):format(c.ip, tostring(c.port)) end
	end
	for _, t in ipairs(F.traffic) do
		if t.port ~= 53 and not t.loopback and (t.bytes or 0) > 0 then return ("%s:%s"):format(t.ip, tostring(t.port)) end
	end
	return nil
end

local rules = {}
for _, s in ipairs(SPECS) do
	s.tactic, s.severity = "discovery", 1
	rules[#rules + 1] = T(s)
end

-- a scan: a raw socket, or connects to ten or more ports of one host, or
-- one port of ten or more hosts
local RAW_TOOLS = { ping = true, ping6 = true, traceroute = true, traceroute6 = true, mtr = true,
	["mtr-packet"] = true, arping = true, tcpdump = true, dhclient = true }
local function scanned(_, F)
	-- a raw IP socket asked for (a SYN scanner's; ping's is ICMP over a
	-- datagram socket, or its own tool): the kernel's answer is not seen,
	-- and a process without CAP_NET_RAW gets EPERM (the asking is the
	-- evidence)
	for _, r in ipairs(F.raw_sockets) do
		if (r.family == "inet" or r.family == "inet6") and not RAW_TOOLS[rulekit.basename(r.image)] then
			return ("%s asked for a raw %s socket%s"):format(tostring(r.image), r.family,
				r.answer == "allow" and "" or " (refused)")
		end
	end
	local ports, hosts = {}, {}
	for _, c in ipairs(F.connects) do
		if c.port and c.port ~= 53 and not c.loopback then
			local ph = ports[c.ip] or {}
			ph[c.port], ports[c.ip] = true, ph
			local hp = hosts[c.port] or {}
			hp[c.ip], hosts[c.port] = true, hp
		end
	end
	local function count(t)
		local n = 0
		for _ in pairs(t) do n = n + 1 end
		return n
	end
	for ip, ph in pairs(ports) do
		if count(ph) >= 10 then return ("connected to %d ports of %s"):format(count(ph), ip) end
	end
	for port, hp in pairs(hosts) do
		if count(hp) >= 10 then return ("connected to port %d of %d hosts"):format(port, count(hp)) end
	end
	return nil
end

rules[#rules + 1] = T { id = "T1046", name = "port_scan", tactic = "discovery", severity = 5,
	what = "scanned for network services",
	exec = { "^nmap ", "^masscan ", "^zmap ", "^nc .*%-[%a]*z", "^ncat .*%-[%a]*z", "^rustscan ", "^unicornscan ",
		"^pnscan " },
	check = scanned }

rules[#rules + 1] = {
	name = "discovery_sent", tactic = "discovery", severity = 5, attack = { "T1082", "T1041" },
	doc = "Three or more kinds of discovery (the rules above), then a connect or data sent to "
		.. "an address that is not the name server: reconnaissance that leaves.",
	fn = function(run, F)
		local kinds, ids = 0, {}
		for _, s in ipairs(SPECS) do
			if evidence(s, run, F) then
				kinds = kinds + 1
				ids[#ids + 1] = s.id
			end
		end
		local dest = kinds >= 3 and sent_out(F)
		if not dest then return nil end
		ids[#ids + 1] = "T1041"
		return { verdict = "suspicious", severity = 5, attack = ids,
			reason = ("%d kinds of discovery (%s), then sent to %s"):format(kinds,
				table.concat(ids, ",", 1, #ids - 1), dest) }
	end,
}

-- ---- more discovery, each information alone (severity 1): the host's
-- name, devices and drivers, windows, logs, the way out to the Internet,
-- cloud resources ----
local MORE = {
	{ id = "T1082", name = "host_name", what = "asked for the host's name",
		exec = { "^hostname$", "^hostname %-[sfdAa]", "^cat .*/etc/hostname", "^cat .*/etc/machine%-id",
			"^printenv HOSTNAME", "^uname %-n" },
		read = { "^/etc/hostname$", "^/proc/sys/kernel/hostname$" } },
	{ id = "T1120", name = "peripheral_discovery", what = "listed the attached devices",
		exec = { "^lsusb", "^lspci", "^lsblk", "^lshw", "^udevadm info", "^ls .*/sys/bus/usb", "^ls .*/dev/disk",
			"^cat .*/proc/bus/", "^hwinfo", "^lsscsi", "^blkid" },
		read = { "^/sys/bus/usb/devices/[^/]+/product$", "^/proc/bus/input/devices$", "^/proc/scsi/scsi$" } },
	{ id = "T1652", name = "driver_discovery", what = "listed the kernel's drivers",
		exec = { "^lsmod", "^modinfo ", "^cat .*/proc/modules", "^kmod list", "^ls .*/sys/module", "^ls .*/lib/modules" },
		read = { "^/proc/modules$" } },
	{ id = "T1010", name = "window_discovery", what = "listed the open windows",
		exec = { "^wmctrl %-l", "^xdotool search", "^xdotool getactivewindow", "^xprop %-root", "^xwininfo",
			"^xlsclients" } },
	{ id = "T1654", name = "log_enumeration", what = "read the system's logs",
		exec = { "^journalctl", "^cat .*/var/log/", "^tail .*/var/log/", "^grep .*/var/log/", "^less .*/var/log/",
			"^zcat .*/var/log/", "^lastb", "^last %-f", "^aureport", "^ausearch", "^dmesg" },
		read = { "^/var/log/auth%.log", "^/var/log/syslog", "^/var/log/secure", "^/var/log/messages",
			"^/var/log/audit/", "^/var/log/kern%.log", "^/var/log/wtmp$", "^/var/log/btmp$" } },
	{ id = "T1016.001", name = "internet_check", what = "checked its way out to the Internet",
		exec = { "^ping .*8%.8%.8%.8", "^ping .*1%.1%.1%.1", "^ping .*google%.com", "^ip route get", "^ip r get",
			"^traceroute", "^tracepath", "^mtr ", "^curl .*connectivity", "^curl .*generate_204",
			"^wget .*%-%-spider" },
		dns = { "^connectivity%-check", "^connectivitycheck%.", "^detectportal%.", "^captive%.", "^nmcheck%.",
			"^clients3%.google%.com$" } },
	{ id = "T1580", name = "cloud_infrastructure", what = "listed cloud infrastructure",
		exec = { "^aws ec2 describe", "^aws sts get%-caller%-identity", "^aws iam list", "^aws rds describe",
			"^gcloud compute .*list", "^gcloud projects list", "^az vm list", "^az account show", "^doctl " } },
	{ id = "T1619", name = "cloud_storage_discovery", what = "listed cloud storage",
		exec = { "^aws s3 ls", "^aws s3api list%-", "^gsutil ls", "^gcloud storage ls", "^az storage .*list",
			"^rclone ls", "^rclone lsd" } },
}
for _, s in ipairs(MORE) do
	s.tactic, s.severity = "discovery", 1
	rules[#rules + 1] = T(s)
end

return rules
