-- SPDX-License-Identifier: MIT
-- Execution (TA0002) and command and control (TA0011): shells wired to a
-- socket, interpreters' one-liners, modules loaded from writable places,
-- the web, other ports, downloads, proxies and tunnels.
local T = rulekit.technique
local basename = rulekit.basename

local SHELLS = { sh = true, bash = true, dash = true, zsh = true, ksh = true, ash = true, busybox = true }
local WEB = { [80] = true, [443] = true, [8080] = true, [8443] = true, [8000] = true, [8888] = true }
-- ports of ordinary services: a connect elsewhere is a non-standard port
local USUAL = { [20] = true, [21] = true, [22] = true, [23] = true, [25] = true, [53] = true, [80] = true,
	[110] = true, [123] = true, [143] = true, [443] = true, [465] = true, [587] = true, [993] = true,
	[995] = true, [8080] = true, [8443] = true }

local LINKERS = { ld = true, ["ld.bfd"] = true, ["ld.gold"] = true, ["ld.lld"] = true, collect2 = true,
	gcc = true, cc = true, ["x86_64-linux-gnu-ld"] = true, ["x86_64-linux-gnu-ld.bfd"] = true,
	["x86_64-linux-gnu-gcc-12"] = true, clang = true, ["lto-wrapper"] = true, ldconfig = true }

-- a shell that reads its commands from its input: no script, no -c
-- (`sh`, `bash -i`, `/bin/sh -p`)
local function interactive(argv)
	for i = 2, #(argv or {}) do
		local a = argv[i]
		if a == "-c" or a:sub(1, 1) ~= "-" or (a:find("^%-%a*c") and a ~= "-i") then return false end
	end
	return true
end

-- a shell with a socket: a shell that connects, or a shell reading its
-- input started (or executed in place) by a process that connected (a
-- script it runs is a stage, not a shell on the socket); the process that
-- connected and its runtime
local function shell_on_socket(F)
	local connected = {}
	for _, c in ipairs(F.connects) do
		if c.port ~= 53 and not c.loopback then
			local dest = ("%s:%s"):format(c.ip, tostring(c.port))
			if SHELLS[basename(c.image)] then
				return ("a shell (%s) connected to %s"):format(c.image, dest), c.pid
			end
			if c.pid then connected[c.pid] = connected[c.pid] or dest end
		end
	end
	for _, x in ipairs(F.execs) do
		local by = (x.pid and connected[x.pid] and x.pid) or (x.ppid and connected[x.ppid] and x.ppid)
		if by and SHELLS[basename(x.image)] and interactive(x.argv) then
			return ("%s connected to %s and started `%s`"):format(tostring(x.pid == by and "it" or
				x.parent_image), connected[by], x.cmdline), by
		end
	end
	return nil
end

local function shell_socket(_, F)
	return (shell_on_socket(F))
end

-- an interpreter's reverse shell: the process that connected runs it
local function interpreter_shell(runtime)
	return function(_, F)
		local ev, pid = shell_on_socket(F)
		if ev and pid and F.runtime[pid] == runtime then return ("a %s program: %s"):format(runtime, ev) end
		return nil
	end
end

local function first_connect(F, want)
	for _, c in ipairs(F.connects) do
		if not c.loopback and want(c) then
			return ("connected to %s%s:%s (%s)"):format(c.hostname and c.hostname .. " " or "", c.ip,
				tostring(c.port), c.protocol)
		end
	end
	for _, t in ipairs(F.traffic) do
		if not t.loopback and want(t) then
			return ("sent %s bytes to %s%s:%s (%s)"):format(tostring(t.bytes or 0),
				t.hostname and t.hostname .. " " or "", t.ip, tostring(t.port), t.protocol)
		end
	end
	return nil
end

-- a file a download tool wrote, then executed or left executable
local DOWNLOADERS = { curl = true, wget = true, tftp = true, ftp = true, scp = true, sftp = true,
	rsync = true, aria2c = true, lftp = true, nc = true, ncat = true, socat = true }

local function downloaded_and_run(_, F)
	local fetched = {}
	for _, w in ipairs(F.written) do
		if DOWNLOADERS[basename(w.image)] then fetched[w.path] = w.image end
	end
	for _, x in ipairs(F.execs) do
		if fetched[x.image or ""] then return ("ran %s, which %s wrote"):format(x.image, fetched[x.image]) end
	end
	for _, d in ipairs(F.dropped) do
		if d.executable and fetched[d.path] then
			return ("left %s executable, which %s wrote"):format(d.path, fetched[d.path])
		end
	end
	return nil
end

local rules = {
	T { id = "T1059.004", name = "reverse_shell", tactic = "execution", severity = 9,
		what = "wired a shell to a socket",
		cmdline = { "/dev/tcp/", "/dev/udp/", "nc .*%-e ?/bin/", "nc .*%-e ?sh", "ncat .*%-e", "nc .*%-c ?sh",
			"ncat .*%-%-exec", "socat .*exec:", "socat .*EXEC:", "socat .*system:", "mkfifo .*nc ",
			"mknod .* p.*nc ", "telnet .*|%s*/bin/[bd]?a?sh", "sh %-i.*[<>]&" },
		check = shell_socket },
	T { id = "T1059.006", name = "python_shell", tactic = "execution", severity = 8,
		what = "ran a Python shell on a socket",
		cmdline = { "pty%.spawn", "socket%.socket.*connect.*dup2", "os%.dup2.*subprocess",
			"socket%.socket.*subprocess", "import socket.*os%.dup2" },
		check = interpreter_shell("python") },
	T { id = "T1129", name = "shared_module", tactic = "execution", severity = 5,
		what = "loaded a shared library from a writable place",
		cmdline = { "CDLL%(['\"]/tmp/", "CDLL%(['\"]/dev/shm/", "dlopen%(['\"]/tmp/" },
		check = function(_, F)
			for _, o in ipairs(F.opens) do
				-- a linker looking for a library in its working directory
				-- is a build, not a load
				if not o.write and not LINKERS[basename(o.image)]
					and (o.path:find("^/tmp/.*%.so[%.%d]*$") or o.path:find("^/dev/shm/.*%.so[%.%d]*$")
						or o.path:find("^/var/tmp/.*%.so[%.%d]*$")) then
					return ("%s opened %s"):format(tostring(o.image), o.path)
				end
			end
			return nil
		end },
	T { id = "T1071.001", name = "web_c2", tactic = "command-and-control", severity = 4,
		what = "reached a web server",
		check = function(_, F)
			return first_connect(F, function(c) return WEB[c.port] end)
		end },
	T { id = "T1571", name = "non_standard_port", tactic = "command-and-control", severity = 5,
		what = "reached a non-standard port",
		check = function(_, F)
			return first_connect(F, function(c)
				return c.port ~= nil and not USUAL[c.port] and c.protocol ~= "udp"
			end)
		end },
	T { id = "T1105", name = "ingress_transfer", tactic = "command-and-control", severity = 6,
		what = "downloaded a tool",
		cmdline = { "curl .*|%s*[bd]?a?sh", "wget .*|%s*[bd]?a?sh", "wget .*%-O%-? ?%-%s*|", "curl .*%-o ?/tmp/",
			"curl .*%-o ?/dev/shm/", "wget .*%-O ?/tmp/", "wget .*%-P ?/tmp/", "wget .*%-O ?/dev/shm/",
			"curl .*%-%-output ", "urlretrieve", "tftp .* get ", "curl .*%-O ", "wget http" },
		check = downloaded_and_run },
	T { id = "T1090", name = "proxy", tactic = "command-and-control", severity = 6,
		what = "set up a proxy",
		exec = { "^ssh .*%-D ?%d", "^proxychains", "^tor$", "^tor ", "^socat .*TCP4?%-LISTEN.*TCP",
			"^socat .*tcp4?%-listen.*tcp", "^microsocks", "^3proxy", "^gost ", "^frpc" } },
	T { id = "T1572", name = "tunnel", tactic = "command-and-control", severity = 6,
		what = "opened a tunnel",
		exec = { "^ssh .*%-[%a]*[LR] ?%d", "^ssh .*%-[%a]*[LR] ?%w+:", "^chisel ", "^iodine", "^dnscat",
			"^ngrok ", "^cloudflared .*tunnel", "^autossh ", "^sshuttle ", "^ligolo", "^stunnel" },
		dns = { "%.ngrok%.com$", "%.ngrok%.io$", "%.ngrok%-free%.app$", "%.localto%.net$", "%.localtonet%.com$",
			"%.trycloudflare%.com$", "^serveo%.net$", "%.loca%.lt$", "%.pinggy%.io$" } },
}

-- ---- techniques simply present, and more execution and command and
-- control: interpreters at info severity (0-2: listed, the run stays
-- clean; a more severe rule of the same id, such as reverse_shell, names
-- the act, and the behaviour summary and batch's tally count each id once,
-- from its most severe finding), container and deployment tools, remote
-- access software, protocols and channels ----

-- a process whose runtime (sbx.facts: by its image or the libraries it
-- read) is the one given
local function runtime_ran(want)
	return function(_, F)
		for _, x in ipairs(F.execs) do
			if x.pid and F.runtime[x.pid] == want then return ("%s ran `%s`"):format(want, x.cmdline) end
		end
		return nil
	end
end

-- DNS names that look generated: eight or more distinct names looked up
-- whose first label is ten or more letters and digits with few vowels
local function generated_names(_, F)
	local seen, n, first = {}, 0, nil
	for _, d in ipairs(F.dns) do
		local h = type(d.hostname) == "string" and d.hostname:lower() or ""
		local label = h:match("^([%l%d]+)%.")
		if label and #label >= 10 and not seen[h] then
			local vowels = select(2, label:gsub("[aeiou]", ""))
			if vowels * 4 < #label then
				seen[h], n, first = true, n + 1, first or h
			end
		end
	end
	if n >= 8 then return ("looked up %d generated-looking names, first %s"):format(n, first), n end
	return nil
end

-- a name looked up that carries data: a label of 30 or more characters
-- of hex or base32/base64 text, or twenty or more names under one domain
local function dns_tunnel(_, F)
	local under = {}
	for _, d in ipairs(F.dns) do
		local h = type(d.hostname) == "string" and d.hostname:lower() or ""
		for label in h:gmatch("[^%.]+") do
			if #label >= 30 and label:find("^[%w%-_]+$") then return "looked up " .. h end
		end
		local dom = h:match("([^%.]+%.[^%.]+)$")
		if dom then
			under[dom] = (under[dom] or 0) + 1
			if under[dom] >= 20 then return ("looked up %d names under %s"):format(under[dom], dom) end
		end
	end
	return nil
end

-- a datagram to a port that is not a usual UDP service
local UDP_USUAL = { [53] = true, [123] = true, [67] = true, [68] = true, [443] = true, [5353] = true }

local function udp_channel(_, F)
	for _, list in ipairs { F.connects, F.traffic } do
		for _, c in ipairs(list) do
			if c.protocol == "udp" and not c.loopback and c.port and not UDP_USUAL[c.port] then
				return ("sent datagrams to %s:%d (udp)"):format(tostring(c.ip), c.port)
			end
		end
	end
	return nil
end

-- connects to one of ports (a set)
local function connect_to(ports)
	return function(_, F)
		for _, c in ipairs(F.connects) do
			if not c.loopback and ports[c.port] then
				return ("connected to %s:%d"):format(tostring(c.ip), c.port)
			end
		end
		return nil
	end
end

local MORE = {
	T { id = "T1059.004", name = "shell_script", tactic = "execution", severity = 1,
		what = "ran a Unix shell script (information)",
		exec = { "^[bdkz]?a?sh [^%-]", "^[bdkz]?a?sh %-[%a]*c", "^[bdkz]?a?sh %-[%a]+ [^%-]", "^busybox sh",
			"^%S+%.sh$", "^%S+%.sh ", "^%S+%.bash$", "^%S+%.bash " } },
	T { id = "T1059.006", name = "python_script", tactic = "execution", severity = 1,
		what = "ran a Python program (information)",
		exec = { "^python[%d%.]* " },
		check = runtime_ran("python") },
	T { id = "T1059.007", name = "javascript", tactic = "execution", severity = 1,
		what = "ran a JavaScript program (information)",
		exec = { "^node ", "^nodejs ", "^deno ", "^bun " },
		check = runtime_ran("node") },
	T { id = "T1059.011", name = "lua_script", tactic = "execution", severity = 1,
		what = "ran a Lua program (information)",
		exec = { "^lua[%d%.]* ", "^lua[%d%.]*$", "^luajit " } },
	T { id = "T1059.001", name = "powershell", tactic = "execution", severity = 3,
		what = "ran PowerShell",
		exec = { "^pwsh", "^powershell" } },
	T { id = "T1609", name = "container_command", tactic = "execution", severity = 4,
		what = "ran a command in a container",
		exec = { "^docker exec ", "^docker container exec ", "^podman exec ", "^kubectl exec ", "^crictl exec ",
			"^nerdctl exec ", "^ctr .*task exec" } },
	T { id = "T1610", name = "deploy_container", tactic = "execution", severity = 4,
		what = "started a container",
		exec = { "^docker run ", "^docker container run ", "^docker create ", "^podman run ", "^kubectl run ",
			"^nerdctl run ", "^kubectl apply .*pod" } },
	T { id = "T1612", name = "build_image", tactic = "stealth", severity = 3,
		what = "built a container image on the host",
		exec = { "^docker build", "^docker image build", "^docker buildx build", "^podman build", "^buildah ",
			"^kaniko", "^nerdctl build" } },
	T { id = "T1053.007", name = "orchestration_job", tactic = "persistence", severity = 5,
		what = "scheduled a container orchestration job",
		exec = { "^kubectl create cronjob", "^kubectl create job", "^kubectl apply .*cron", "^kubectl run .*%-%-schedule" } },
	T { id = "T1072", name = "deployment_tools", tactic = "execution", severity = 4,
		what = "ran commands through a software deployment tool",
		exec = { "^ansible ", "^ansible%-playbook ", "^salt ", "^salt%-call ", "^puppet apply", "^chef%-client",
			"^pdsh ", "^clush " } },
	T { id = "T1219", name = "remote_access_tools", tactic = "command-and-control", severity = 5,
		what = "ran remote access software",
		exec = { "^anydesk", "^teamviewer", "^TeamViewer", "^rustdesk", "^x11vnc", "^vncserver", "^tigervncserver", "^meshagent",
			"^screenconnect", "^splashtop", "^remmina" } },
	T { id = "T1071.004", name = "dns_c2", tactic = "command-and-control", severity = 5,
		what = "carried data in DNS",
		exec = { "^dig .*TXT", "^dig .*txt", "^nslookup .*%-type=txt", "^nslookup .*%-q=txt", "^host %-t txt",
			"^dnscat", "^iodine" },
		check = dns_tunnel },
	T { id = "T1071.002", name = "file_transfer_c2", tactic = "command-and-control", severity = 4,
		what = "used a file transfer protocol",
		exec = { "^curl .*ftps?://", "^wget .*ftps?://", "^lftp ", "^tftp ", "^ftp " },
		check = connect_to { [21] = true, [69] = true, [989] = true, [990] = true } },
	T { id = "T1071.003", name = "mail_c2", tactic = "command-and-control", severity = 4,
		what = "used a mail protocol",
		exec = { "^sendmail ", "^mail ", "^mailx ", "^mutt ", "^swaks ", "^msmtp ", "^curl .*smtps?://" },
		check = connect_to { [25] = true, [465] = true, [587] = true, [110] = true, [143] = true, [993] = true,
			[995] = true } },
	T { id = "T1095", name = "non_app_protocol", tactic = "command-and-control", severity = 4,
		what = "talked over a non-application protocol",
		exec = { "^hping3? ", "^nping ", "^ping .*%-p ?%x+", "^icmpsh", "^ptunnel" },
		check = udp_channel },
	T { id = "T1102", name = "web_service", tactic = "command-and-control", severity = 5,
		what = "used a public web service as a channel",
		dns = { "^raw%.githubusercontent%.com$", "^gist%.github", "^pastebin%.com$", "^paste%.ee$",
			"^api%.telegram%.org$", "^docs%.google%.com$", "^dl%.dropboxusercontent%.com$", "^pastes%.io$",
			"^rentry%.co$", "^ghostbin" },
		exec = { "^curl .*pastebin%.com/raw", "^curl .*raw%.githubusercontent", "^wget .*pastebin%.com/raw",
			"^curl .*api%.telegram%.org", "^curl .*gist%.githubusercontent" } },
	T { id = "T1573.002", name = "asymmetric_channel", tactic = "command-and-control", severity = 5,
		what = "opened a TLS channel by hand",
		exec = { "^openssl s_client", "^ncat .*%-%-ssl", "^socat .*openssl", "^socat .*OPENSSL", "^stunnel" } },
	T { id = "T1568.002", name = "generated_domains", tactic = "command-and-control", severity = 6,
		what = "looked up generated domain names",
		check = generated_names },
	T { id = "T1090.003", name = "multi_hop_proxy", tactic = "command-and-control", severity = 5,
		what = "went through an anonymising network",
		dns = { "%.onion$", "%.i2p$" },
		exec = { "^torsocks ", "^torify ", "^proxychains", "^curl .*%-%-socks5%-hostname .*%.onion",
			"^curl .*%.onion" } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- a hypervisor's own command line ----

local HYPERVISOR = {
	T { id = "T1059.012", name = "hypervisor_cli", tactic = "execution", severity = 4,
		what = "ran a hypervisor's command-line interface",
		exec = { "^esxcli ", "^vim%-cmd ", "^esxcfg%-%a+", "^vmkfstools ", "^vmware%-cmd " } },
}
for _, r in ipairs(HYPERVISOR) do rules[#rules + 1] = r end

-- ---- attack tools brought in by the host's package manager ----

-- tools an intruder installs; each matched as a whole package name
local ATTACK_TOOLS = { "nmap", "masscan", "zmap", "netcat", "netcat%-openbsd", "netcat%-traditional", "ncat",
	"nc", "socat", "tshark", "wireshark", "tcpdump", "proxychains", "proxychains4", "openconnect", "hydra",
	"john", "hashcat", "sshpass", "tor" }
local INSTALLERS = { "^apt%-get .*install", "^apt .*install", "^yum .*install", "^dnf .*install",
	"^zypper .*in", "^apk .*add", "^pacman .*%-S", "^rpm .*%-[%a]*[iU]", "^dpkg .*%-i", "^dpkg .*%-%-install",
	"^pip3? .*install" }

-- the first package manager run that installs one of ATTACK_TOOLS
local function tools_installed(_, F)
	for _, x in ipairs(F.execs) do
		local cmd = rulekit.command(x)
		if rulekit.matches(cmd, INSTALLERS) then
			for word in cmd:gmatch("%S+") do
				local name = rulekit.basename(word):gsub("[_%-]%d[%w%.%-_]*%.[dr][ep][bm]$", "")
				for _, t in ipairs(ATTACK_TOOLS) do
					if name:find("^" .. t .. "$") then return ("ran `%s`"):format(cmd) end
				end
			end
		end
	end
	return nil
end

local TOOLS = {
	T { id = "T1105", name = "tools_installed", tactic = "command-and-control", severity = 6,
		what = "installed attack tools with the package manager",
		check = tools_installed },
}
for _, r in ipairs(TOOLS) do rules[#rules + 1] = r end


-- ---- a shell started by a tool that can start programs ----

-- a shell with no script of its own (it reads its commands, from a
-- terminal or a pipe), started through a tool's own way of running one
local SH = "/bin/%a*sh"
local ESCAPES = {
	T { id = "T1059.004", name = "shell_escape", tactic = "execution", severity = 5,
		what = "started a shell through a tool that can run programs",
		exec = { "^[gmn]?awk .*BEGIN%s*{%s*system%(\"" .. SH .. "\"%)", "^env " .. SH .. "$",
			"^find .*%-exec " .. SH .. " ;", "^flock .* " .. SH .. "$", "^nice " .. SH .. "$",
			"^nohup " .. SH .. "$", "^capsh .*%-%-$", "^gcc .*%-wrapper " .. SH .. ",%-s", "^cc .*%-wrapper " .. SH .. ",%-s",
			"^c[89]9 .*%-wrapper " .. SH .. ",%-s", "^apt .*APT::Update::Pre%-Invoke::=", "^apt%-get .*APT::Update::Pre%-Invoke::=",
			"^stdbuf .* " .. SH .. "$", "^timeout %d+ " .. SH .. "$" },
		cmdline = { "sh 0<&1" } },
}
for _, r in ipairs(ESCAPES) do rules[#rules + 1] = r end

-- ---- more command and control: a proxy from the environment, a cloud
-- provider's agent registered to another account, an exploit fetched ----
rules[#rules + 1] = T { id = "T1090", name = "proxy_env", tactic = "command-and-control", severity = 2,
	what = "sent a tool's traffic through a proxy given on its command line (information: networks with"
		.. " a proxy do)",
	cmdline = { "[Hh][Tt][Tt][Pp][Ss]?_[Pp][Rr][Oo][Xx][Yy]=%S", "ALL_PROXY=%S", "all_proxy=%S" } }
rules[#rules + 1] = T { id = "T1219", name = "cloud_agent_registered", tactic = "command-and-control", severity = 6,
	what = "registered a cloud management agent",
	exec = { "^amazon%-ssm%-agent .*%-register", "^ssm%-agent%-worker .*%-register", "^google_osconfig_agent .*register" } }
rules[#rules + 1] = T { id = "T1105", name = "exploit_fetched", tactic = "command-and-control", severity = 6,
	what = "fetched an exploit's source",
	exec = { "^git clone .*[Ee][Xx][Pp][Ll][Oo][Ii][Tt]", "^git clone .*CVE%-%d%d%d%d%-%d", "^git clone .*[%-_/][Pp][Oo][Cc]$",
		"^git clone .*[%-_/][Pp][Oo][Cc][%-_/ ]", "^git clone .*[Pp]rivesc", "^git clone .*[Rr]ootkit" } }

return rules
