-- SPDX-License-Identifier: MIT
-- Impact (TA0040), account manipulation and lateral movement: data
-- destroyed or encrypted, recovery removed, services stopped, coins mined,
-- the host shut down, accounts locked or changed, files altered, pages
-- defaced; and logins to, and copies onto, other hosts.
local T = rulekit.technique
local basename = rulekit.basename

-- A locker that leaves no rename: three or more files read, each written
-- anew as NAME.EXT (one new extension) that stays (a lock file renamed
-- back over NAME, as git's are, is an update) and the original removed;
-- the compressors' own job (gzip, xz...) is not a locker's
local PACKERS = { gzip = true, pigz = true, bzip2 = true, pbzip2 = true, xz = true, lzma = true,
	zstd = true, lz4 = true, lzop = true, compress = true, brotli = true, lzip = true }

local function rewritten(F)
	local read, gone, ext, n = {}, {}, {}, 0
	for _, o in ipairs(F.opens) do
		if not o.write then read[o.path] = true end
	end
	for _, d in ipairs(F.deleted) do gone[d.path] = true end
	for _, r in ipairs(F.renamed) do gone[r.from] = true end
	for _, o in ipairs(F.opens) do
		local orig, e = o.path:match("^(.+)%.([%w]+)$")
		if o.create and orig and read[orig] and gone[orig] and not gone[o.path]
			and not PACKERS[basename(o.image)] then
			ext[e] = (ext[e] or 0) + 1
			if ext[e] >= 3 then n = ext[e] end
			if n > 0 then return ("rewrote %d files as .%s and removed them, e.g. %s"):format(n, e, o.path) end
		end
	end
	return nil
end

-- many files renamed to one new extension, or a ransom note
local function encrypted(_, F)
	local ext, first = {}, nil
	for _, r in ipairs(F.renamed) do
		local e = type(r.to) == "string" and r.to:match("%.([%w]+)$")
		local before = r.from:match("%.([%w]+)$")
		if e and e ~= before and r.to:sub(1, #r.from) == r.from then
			ext[e] = (ext[e] or 0) + 1
			if ext[e] >= 3 then first = first or ("renamed %d files to .%s, e.g. %s"):format(ext[e], e, r.to) end
		end
	end
	if first then return first end
	first = rewritten(F)
	if first then return first end
	for _, w in ipairs(F.writes) do
		local n = basename(w):upper()
		if n:find("DECRYPT") or n:find("RANSOM") or n:find("RESTORE_FILES") or n:find("HOW_TO_RECOVER")
			or n:find("YOUR_FILES") then
			return "wrote the note " .. w
		end
	end
	return nil
end

-- another process killed after its /proc entries were read: a bot's
-- killer, or a miner removing rivals (`sbx.facts` proc_reads, signals);
-- kill, pkill and killall are judged by their command lines
local KILLERS = { kill = true, pkill = true, killall = true, timeout = true }
local ENDING = { SIGKILL = true, SIGTERM = true, SIGSTOP = true, SIGINT = true, SIGHUP = true }

local function killed_found(_, F)
	local found = {}
	for _, r in ipairs(F.proc_reads) do found[r.pid] = true end
	for _, g in ipairs(F.signals) do
		local t = math.tointeger(g.target)
		if t and t > 1 and found[t] and ENDING[g.signame] and not KILLERS[basename(g.image)] then
			return ("%s sent %s to process %d after reading its /proc entries"):format(tostring(g.image),
				g.signame, t)
		end
	end
	return nil
end

-- a miner's pool protocol on any port: stratum's JSON-RPC (a Monero
-- pool's `login`, a Bitcoin-style pool's `mining.subscribe` or
-- `mining.authorize`, an Ethereum proxy's `eth_submitLogin`) in the first
-- bytes a connection sent (the sink's capture)
local STRATUM = { '"method"%s*:%s*"mining%.%a+"', '"method"%s*:%s*"eth_submitLogin"',
	'"method"%s*:%s*"login".*"params"%s*:%s*{.*"login"' }

local function stratum(_, F)
	for _, t in ipairs(F.traffic) do
		local b = t.first_bytes
		if type(b) == "string" and t.protocol == "tcp" and rulekit.matches(b, STRATUM) then
			return ("spoke stratum to %s:%d: %s"):format(t.hostname or t.ip, t.port, b:sub(1, 60))
		end
	end
	return nil
end

-- many files deleted that the run did not make
local function mass_delete(_, F)
	local made, n, first = {}, 0, nil
	for _, w in ipairs(F.writes) do made[w] = true end
	for _, d in ipairs(F.deleted) do
		-- /work is the program's own directory in the analysis box (its
		-- copy and what it makes there: a build's scratch directories)
		if not made[d.path] and not d.path:find("^/tmp/") and not d.path:find("^/dev/shm/")
			and not d.path:find("^/work/") then
			n, first = n + 1, first or d.path
		end
	end
	if n >= 20 then return ("deleted %d files it did not make, first %s"):format(n, first), n end
	return nil
end

local rules = {
	T { id = "T1485", name = "data_destruction", tactic = "impact", severity = 8,
		what = "destroyed data",
		exec = { "^shred .*/dev/", "^dd .*if=/dev/[zu]%w+ .*of=/dev/[sv]d", "^dd .*of=/dev/[sv]d", "^dd .*of=/dev/nvme",
			"^wipefs", "^rm .*%-%-no%-preserve%-root", "^rm %-[%a]*r[%a]*f?[%a]* /$", "^rm %-[%a]*r[%a]* /%*",
			"^mkfs", "^blkdiscard", "^sfdisk", "^dd .*of=/dev/mmcblk" },
		write = { "^/dev/[sv]d%a", "^/dev/nvme", "^/dev/mmcblk", "^/dev/mapper/" },
		check = mass_delete },
	T { id = "T1486", name = "encrypted_for_impact", tactic = "impact", severity = 9,
		what = "encrypted files for ransom",
		check = encrypted,
		exec = { "^openssl enc .*%-e?%-?aes.*%-in .*%-out .*%.enc", "^gpg .*%-%-symmetric .*%-%-batch",
			"^ccrypt", "^cryptsetup .*luksFormat" } },
	T { id = "T1490", name = "inhibit_recovery", tactic = "impact", severity = 8,
		what = "removed the means of recovery",
		delete = { "^/var/backups/", "^/backup", "^/var/lib/snapshots", "/%.snapshots/", "^/boot/" },
		exec = { "^rm .*/var/backups", "^rm .*/backup", "^btrfs subvolume delete", "^lvremove", "^zfs destroy",
			"^snapper .*delete", "^timeshift .*%-%-delete", "^rm .*/boot/", "^update%-grub", "^grub%-install" } },
	T { id = "T1489", name = "service_stop", tactic = "impact", severity = 6,
		what = "stopped a service",
		exec = { "^systemctl .*stop ", "^systemctl .*kill ", "^systemctl .*disable ", "^service %S+ stop",
			"^killall .*mysqld", "^killall .*postgres", "^killall .*nginx", "^killall .*apache", "^killall .*httpd",
			"^pkill .*mysqld", "^pkill .*postgres", "^pkill .*nginx", "^pkill .*apache", "^pkill .*httpd",
			"^pkill .*docker", "^killall .*docker", "^/etc/init%.d/%S+ stop", "^invoke%-rc%.d %S+ stop" },
		unless = { "auditd", "apparmor", "falco", "firewalld", "ufw", "syslog", "journald" },
		check = killed_found },
	T { id = "T1496", name = "resource_hijacking", tactic = "impact", severity = 8,
		what = "mined coins",
		cmdline = { "stratum%+tcp://", "stratum%+ssl://", "stratum2?%+", "xmrig", "minerd", "cpuminer", "cgminer",
			"ethminer", "nanopool", "nicehash", "%-%-donate%-level", "monero", "cryptonight", "randomx" },
		dns = { "pool%.", "xmr", "monero", "nanopool", "nicehash", "minexmr", "supportxmr", "2miners",
			"hashvault", "f2pool", "ethermine", "miningpool" } },
	T { id = "T1496.001", name = "pool_protocol", tactic = "impact", severity = 8,
		what = "mined coins for a pool",
		doc = "mined coins for a pool: stratum's JSON-RPC (login, mining.subscribe, mining.authorize, "
			.. "eth_submitLogin) on any port the sink captured (evidence: check)",
		check = stratum },
	T { id = "T1529", name = "shutdown", tactic = "impact", severity = 7,
		what = "shut down or rebooted the host",
		exec = { "^shutdown", "^reboot", "^halt", "^poweroff", "^init [06]$", "^telinit [06]$",
			"^systemctl .*reboot", "^systemctl .*poweroff", "^systemctl .*halt", "^systemctl .*kexec" },
		write = { "^/proc/sysrq%-trigger$" },
		check = function(_, F) return rulekit.refused_call(F, { reboot = true }) end },
	T { id = "T1531", name = "account_removal", tactic = "impact", severity = 7,
		what = "locked or removed an account",
		exec = { "^passwd .*%-l", "^passwd .*%-%-lock", "^passwd .*%-d", "^usermod .*%-L", "^usermod .*%-%-lock",
			"^usermod .*%-e ", "^usermod .*%-%-expiredate", "^userdel ", "^deluser ", "^chpasswd", "^chage .*%-E ?0",
			"^passwd [%w_]+$", "^passwd$" } },
	T { id = "T1565.001", name = "hosts_file", tactic = "impact", severity = 6,
		what = "changed stored data the host relies on",
		write = { "^/etc/hosts$", "^/etc/resolv%.conf$", "^/etc/nsswitch%.conf$", "^/etc/hosts%.allow$",
			"^/etc/hosts%.deny$" } },
	T { id = "T1491.001", name = "defacement", tactic = "impact", severity = 7,
		what = "defaced a web page",
		write = { "^/var/www/.*index%.html?$", "^/usr/share/nginx/html/", "^/srv/www/.*index%.html?$" } },
	T { id = "T1098", name = "account_manipulation", tactic = "persistence", severity = 7,
		what = "changed an account",
		write = { "^/etc/passwd$", "^/etc/shadow$", "^/etc/group$", "^/etc/gshadow$", "^/etc/subuid$",
			"^/etc/subgid$" },
		exec = { "^usermod .*%-[%a]*[aG]", "^gpasswd .*%-a", "^adduser %S+ sudo", "^adduser %S+ wheel",
			"^usermod .*%-o", "^usermod .*%-u 0", "^groupadd ", "^addgroup " } },
	T { id = "T1021.004", name = "ssh_remote", tactic = "lateral-movement", severity = 6,
		what = "logged in to another host over SSH",
		exec = { "^ssh [^%-]", "^ssh .*@", "^sshpass ", "^pssh ", "^parallel%-ssh", "^dbclient " },
		unless = { "^ssh %-[VQ]", "^ssh %-G", "%-%-help" } },
	T { id = "T1570", name = "lateral_transfer", tactic = "lateral-movement", severity = 6,
		what = "copied a file to another host",
		exec = { "^scp .*[%w%.%-]+:", "^rsync .*[%w%.%-]+:", "^sftp ", "^smbclient .*put", "^pscp " } },
}

-- ---- more impact: disks' structure and content, firmware, floods ----

-- a hundred or more connects or sends to one address (the events
-- coalesce repeats into a `count`), or as many datagrams the sink took
local function flood(run, F)
	local n = {}
	local function add(ip, k)
		n[ip] = (n[ip] or 0) + k
		return n[ip] >= 100 and ("%d connects or sends to %s"):format(n[ip], ip) or nil
	end
	for _, e in ipairs(run.events or {}) do
		if (e.kind == "connect" or e.kind == "send") and type(e.addr) == "string" then
			local ip, port = e.addr:match("^%[?([^%]]*)%]?:(%d+)$")
			if ip and port ~= "53" and not ip:find("^127%.") and ip ~= "::1" then
				local hit = add(ip, math.tointeger(e.count) or 1)
				if hit then return hit end
			end
		end
	end
	n = {}
	for _, t in ipairs(F.traffic) do
		if not t.loopback and t.port ~= 53 and t.ip then
			local hit = add(t.ip, 1)
			if hit then return hit end
		end
	end
	return nil
end

local MORE = {
	T { id = "T1561.002", name = "disk_structure_wipe", tactic = "impact", severity = 8,
		what = "wiped a disk's partition table or boot record",
		exec = { "^dd .*of=/dev/[svx]?[sv]?d%a+ .*count=1", "^dd .*count=1 .*of=/dev/[svx]?[sv]?d%a",
			"^dd .*of=/dev/nvme%d+n%d+ .*count=1",
			"^wipefs", "^sgdisk .*%-[%a]*Z", "^sgdisk .*%-%-zap", "^parted .*mklabel", "^sfdisk .*%-%-delete",
			"^fdisk /dev/" } },
	T { id = "T1561.001", name = "disk_content_wipe", tactic = "impact", severity = 8,
		what = "wiped a disk's content",
		exec = { "^shred .*/dev/[svn]", "^dd .*if=/dev/[zu]%w+ .*of=/dev/[sv]d%a+ .*bs=[%d]+[MG]", "^blkdiscard",
			"^hdparm .*%-%-security%-erase", "^nwipe", "^scrub /dev/" } },
	T { id = "T1495", name = "firmware_corruption", tactic = "impact", severity = 9,
		what = "changed the firmware",
		write = { "^/sys/firmware/efi/efivars/", "^/dev/mtd", "^/dev/mem$" },
		exec = { "^flashrom", "^efibootmgr .*%-[%a]*B", "^chattr %-i /sys/firmware/efi/efivars", "^fwupdmgr install",
			"^mtd_debug erase" } },
	T { id = "T1498", name = "network_flood", tactic = "impact", severity = 6,
		what = "flooded a host with traffic",
		exec = { "^hping3 .*%-%-flood", "^hping3 .*%-i u", "^slowhttptest", "^slowloris", "^ab %-n ?%d%d%d%d%d",
			"^siege .*%-c ?%d%d%d", "^t50 " },
		check = flood },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- virtual machines stopped, groups removed ----

local HOSTS = {
	T { id = "T1529", name = "vms_stopped", tactic = "impact", severity = 7,
		what = "stopped the host's virtual machines",
		exec = { "^esxcli .*vm process kill", "^vim%-cmd vmsvc/power%.off", "^vim%-cmd vmsvc/power%.shutdown",
			"^vim%-cmd vmsvc/power%.suspend", "^virsh destroy ", "^virsh shutdown " } },
	T { id = "T1531", name = "group_removal", tactic = "impact", severity = 6,
		what = "removed a group, and the rights of its members",
		exec = { "^groupdel ", "^delgroup ", "^esxcli .*system account remove" } },
}
for _, r in ipairs(HOSTS) do rules[#rules + 1] = r end

return rules
