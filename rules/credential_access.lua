-- SPDX-License-Identifier: MIT
-- Credential access (TA0006): password hashes, private keys, credentials
-- in files and histories, browsers' and password stores' secrets, key
-- presses, other processes' memory, guessed logins and sniffed traffic.
local T = rulekit.technique

-- reads of /proc/PID/mem of another process than the reader (its maps
-- and environ are what ps and pmap read)
local function other_memory(_, F)
	for _, o in ipairs(F.opens) do
		local pid, what = o.path:match("^/proc/(%d+)/(%a+)$")
		if pid and what == "mem" and tonumber(pid) ~= o.pid then
			return ("read %s of another process"):format(o.path)
		end
	end
	return nil
end

-- five or more login attempts to one service (a host's port): connects
-- (a repeat folded into one event counts as many), less those the sink
-- captured sending what no login sends (control bytes, or text with no
-- line end and no SSH banner): a bot's C2 on the telnet port, which
-- reconnects with a binary hello, guesses nothing (its protocol is
-- `service_port_other_protocol`'s); a connection that sent nothing (a
-- client waiting for the server's greeting) may be a guess
local LOGIN = { [21] = true, [22] = true, [23] = true, [110] = true, [143] = true, [3306] = true,
	[5432] = true, [3389] = true, [5900] = true, [445] = true, [2323] = true }

local function not_login(b)
	return b ~= "" and (b:find("\\x[01]%x") ~= nil
		or (not b:find("^SSH%-") and not b:find("\\n", 1, true)))
end

-- the sink's records of each login service that sent no login
local function other_protocol(F)
	local other = {}
	for _, t in ipairs(F.traffic) do
		if LOGIN[t.port] and t.protocol == "tcp" and type(t.first_bytes) == "string"
			and not_login(t.first_bytes) then
			local key = ("%s:%d"):format(t.ip, t.port)
			other[key] = (other[key] or 0) + 1
		end
	end
	return other
end

local function guessing(_, F)
	local other, n = other_protocol(F), {}
	for _, c in ipairs(F.connects) do
		if LOGIN[c.port] and c.call ~= "sendto" and not c.loopback then
			local key = ("%s:%d"):format(c.ip, c.port)
			n[key] = (n[key] or 0) + (c.count or 1)
		end
	end
	for key, k in pairs(n) do
		k = k - (other[key] or 0)
		if k >= 5 then return ("%d logins tried at %s"):format(k, key), k end
	end
	return nil
end

local rules = {
	T { id = "T1003.008", name = "shadow", tactic = "credential-access", severity = 8,
		what = "read the password hashes",
		-- the account tools read it to do their own job
		not_by = { chage = true, passwd = true, su = true, sudo = true, login = true, unix_chkpwd = true,
			useradd = true, usermod = true, userdel = true, chpasswd = true, newusers = true, pwck = true,
			grpck = true, gpasswd = true, chfn = true, chsh = true, vipw = true },
		read = { "^/etc/shadow", "^/etc/gshadow", "^/etc/security/opasswd$", "^/etc/master%.passwd$" },
		exec = { "^unshadow ", "^john ", "^hashcat " } },
	T { id = "T1552.004", name = "private_keys", tactic = "credential-access", severity = 8,
		what = "read a private key",
		not_by = { ssh = true, scp = true, sftp = true, ["ssh-add"] = true, ["ssh-keygen"] = true,
			sshpass = true, rsync = true },
		read = { "/%.ssh/id_[%w]+$", "/%.ssh/[^/]*_rsa$", "/%.ssh/[^/]*_ed25519$", "/%.ssh/[^/]*%.pem$",
			"^/etc/ssh/ssh_host_[%w]+_key$", "%.pem$", "%.key$", "%.p12$", "%.pfx$", "/%.gnupg/private",
			"/%.gnupg/secring", "^/etc/ssl/private/" },
		-- certificates, not keys: what TLS libraries read
		unless = { "^/etc/ssl/certs/", "^/usr/share/ca%-certificates/", "^/usr/lib/ssl/", "^/etc/pki/",
			"^/usr/share/", "^/usr/lib/python3/dist%-packages/certifi/", "/site%-packages/certifi/",
			"^/etc/ca%-certificates" },
		exec = { "^find .*%-name '?\"?id_rsa", "^find .*%-name '?\"?%*%.pem", "^find .*%-name '?\"?%*%.key",
			"^find .*%-name '?\"?id_%*", "^grep .*PRIVATE KEY", "^locate .*id_rsa", "^locate .*%.pem" } },
	T { id = "T1552.001", name = "credentials_in_files", tactic = "credential-access", severity = 7,
		what = "read credentials in files",
		-- a client reading its own configuration
		not_by = { docker = true, kubectl = true, helm = true, aws = true, gcloud = true, az = true,
			git = true, ["git-remote-http"] = true, ["git-remote-https"] = true, npm = true, pip = true,
			pip3 = true, psql = true, mysql = true, podman = true, crictl = true },
		read = { "/%.aws/credentials$", "/%.aws/config$", "/%.netrc$", "/%.git%-credentials$", "/%.pgpass$",
			"/%.docker/config%.json$", "/%.kube/config$", "/%.my%.cnf$", "/%.config/gcloud/",
			"/%.azure/", "/wp%-config%.php$", "/%.env$", "/%.npmrc$", "/%.pypirc$", "/%.s3cfg$",
			"/%.boto$", "/credentials%.json$", "/%.vault%-token$", "/%.config/hub$", "/%.smbcredentials$",
			"/decoy", "/canary" },
		exec = { "^grep .*%-[%a]*r[%a]* .*[Pp][Aa][Ss][Ss]", "^grep .*[Pp][Aa][Ss][Ss][%a]* .*%-[%a]*r",
			"^grep .*%-[%a]*r[%a]* .*[Ss][Ee][Cc][Rr][Ee][Tt]", "^grep .*%-[%a]*r[%a]* .*[Tt][Oo][Kk][Ee][Nn]",
			"^grep .*%-[%a]*r[%a]* .*AKIA", "^grep .*%-[%a]*r[%a]* .*[Aa][Pp][Ii]_?[Kk][Ee][Yy]",
			"^grep .*%-[%a]*r[%a]* .*aws_access", "^grep .*%-[%a]*r[%a]* .*PRIVATE", "^find .*%-name .*cred",
			"^find .*%-name .*passw", "^find .*%-name .*%.env['\"]?$", "^grep .*aws_secret" } },
	T { id = "T1552.003", name = "history_read", tactic = "credential-access", severity = 5,
		what = "read a shell history",
		read = { "/%.bash_history$", "/%.zsh_history$", "/%.sh_history$", "/%.mysql_history$",
			"/%.psql_history$", "/%.python_history$", "/%.history$", "/%.ash_history$" } },
	T { id = "T1555.003", name = "browser_passwords", tactic = "credential-access", severity = 8,
		what = "read a browser's saved passwords",
		read = { "/logins%.json$", "/key[34]%.db$", "/signons%.sqlite$", "/Login Data$", "/Login Data For Account$",
			"/Local State$", "/Web Data$" } },
	T { id = "T1539", name = "browser_cookies", tactic = "credential-access", severity = 7,
		what = "read a browser's cookies",
		read = { "/cookies%.sqlite$", "/Cookies$", "/Network/Cookies$", "/sessionstore%.jsonlz4$",
			"/sessionstore%-backups/" } },
	T { id = "T1555", name = "password_stores", tactic = "credential-access", severity = 8,
		what = "read a password store",
		read = { "/%.local/share/keyrings/", "/%.password%-store/", "/%.local/share/kwalletd/",
			"/%.kde4?/share/apps/kwallet/", "%.kdbx$", "/%.config/Bitwarden/", "/%.gnome2/keyrings/" },
		exec = { "^secret%-tool ", "^kwallet%-query ", "^pass show", "^keepassxc%-cli ", "^gnome%-keyring" } },
	T { id = "T1056.001", name = "keylogging", tactic = "credential-access", severity = 8,
		what = "read the keyboard",
		read = { "^/dev/input/", "^/dev/tty%d+$", "^/dev/uinput$" },
		exec = { "^logkeys", "^xinput .*test", "^showkey", "^evtest", "^xspy", "^xkeysnail" } },
	T { id = "T1003.007", name = "proc_memory_read", tactic = "credential-access", severity = 7,
		what = "read another process's memory",
		check = other_memory,
		exec = { "^gcore ", "^gdb .*dump memory", "^dd .*if=/proc/%d+/mem" } },
	T { id = "T1110", name = "brute_force", tactic = "credential-access", severity = 6,
		what = "guessed logins",
		exec = { "^hydra ", "^medusa ", "^ncrack ", "^patator ", "^sshpass .*for " },
		check = guessing },
	T { id = "T1040", name = "sniffing", tactic = "credential-access", severity = 6,
		what = "captured network traffic",
		exec = { "^tcpdump", "^tshark", "^dumpcap", "^ettercap", "^dsniff", "^ngrep" } },
}

-- ---- more credential access: cloud and container secrets, cracking,
-- poisoned neighbours' caches, other users' SSH agents ----
local MORE = {
	T { id = "T1552.005", name = "cloud_metadata", tactic = "credential-access", severity = 6,
		what = "asked the cloud instance metadata service",
		exec = { "^curl .*169%.254%.169%.254", "^wget .*169%.254%.169%.254", "^curl .*metadata%.google%.internal",
			"^curl .*fd00:ec2::254", "^curl .*100%.100%.100%.200" },
		dns = { "^metadata%.google%.internal$", "^metadata$", "^instance%-data" },
		check = function(_, F)
			for _, c in ipairs(F.connects) do
				if c.ip == "169.254.169.254" or c.ip == "100.100.100.200" then
					return ("connected to %s:%s"):format(c.ip, tostring(c.port))
				end
			end
			return nil
		end },
	T { id = "T1552.007", name = "container_api", tactic = "credential-access", severity = 6,
		what = "asked a container API for secrets",
		read = { "/var/run/secrets/kubernetes%.io/serviceaccount/token$", "/run/secrets/kubernetes%.io/serviceaccount/token$" },
		exec = { "^curl .*%-%-unix%-socket .*docker%.sock", "^curl .*:2375/", "^curl .*:2376/", "^curl .*:10250/",
			"^curl .*kubernetes%.default", "^kubectl get secrets?", "^kubectl .*get secrets?", "^docker inspect .*Env" } },
	T { id = "T1110.002", name = "password_cracking", tactic = "credential-access", severity = 6,
		what = "cracked password hashes",
		exec = { "^john ", "^john$", "^hashcat ", "^unshadow ", "^ophcrack", "^rainbowcrack", "^rcrack " } },
	T { id = "T1557.002", name = "arp_poisoning", tactic = "credential-access", severity = 7,
		what = "poisoned the neighbours' ARP caches",
		exec = { "^arpspoof ", "^ettercap .*%-M ?arp", "^bettercap", "^arping .*%-U", "^arping .*%-A" },
		write = { "^/proc/sys/net/ipv4/ip_forward$", "^/proc/sys/net/ipv4/conf/[^/]+/forwarding$" } },
	T { id = "T1563.001", name = "ssh_hijacking", tactic = "lateral-movement", severity = 6,
		what = "looked for other users' SSH agents",
		exec = { "^find .*ssh%-%*", "^find .*agent%.%*", "^grep .*SSH_AUTH_SOCK .*/proc/", "^grep .*SSH_AUTH_SOCK /proc",
			"^ls .*/tmp/ssh%-%*" },
		read = { "^/tmp/ssh%-[^/]+/agent%.%d+$" } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- secret scanners run over the victim's files ----
-- a developer's own scanners (TruffleHog, gitleaks) turned on the home
-- directory by a poisoned package: tokens found are tokens stolen
rules[#rules + 1] = T { id = "T1552.001", name = "secret_scanner", tactic = "credential-access", severity = 7,
	what = "ran a secret scanner over the files",
	exec = { "^trufflehog ", "^gitleaks ", "^noseyparker ", "^detect%-secrets scan" } }

return rules
