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

local function is_interp(img)
	local n = basename(img)
	return n:find("^python") or n:find("^perl") or n:find("^ruby") or n:find("^php") or n:find("^node")
		or n == "lua" or n:find("^lua5")
end

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
-- input started by a process that connected (an interpreter's reverse
-- shell: a script it runs is a stage, not a shell on the socket)
local function shell_socket(_, F)
	local connected = {}
	for _, c in ipairs(F.connects) do
		if c.port ~= 53 then
			if SHELLS[basename(c.image)] then
				return ("a shell (%s) connected to %s:%s"):format(c.image, c.ip, tostring(c.port))
			end
			connected[c.image or ""] = ("%s:%s"):format(c.ip, tostring(c.port))
		end
	end
	for _, x in ipairs(F.execs) do
		local dest = x.parent_image and connected[x.parent_image]
		if dest and SHELLS[basename(x.image)] and interactive(x.argv) and (is_interp(x.parent_image)
			or basename(x.parent_image):find("^n?c?a?t$") or basename(x.parent_image) == "socat") then
			return ("%s connected to %s and started `%s`"):format(x.parent_image, dest, x.cmdline)
		end
	end
	return nil
end

local function first_connect(F, want)
	for _, c in ipairs(F.connects) do
		if want(c) then
			return ("connected to %s%s:%s (%s)"):format(c.hostname and c.hostname .. " " or "", c.ip,
				tostring(c.port), c.protocol)
		end
	end
	for _, t in ipairs(F.traffic) do
		if want(t) then
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

return {
	T { id = "T1059.004", name = "reverse_shell", tactic = "execution", severity = 9,
		what = "wired a shell to a socket",
		cmdline = { "/dev/tcp/", "/dev/udp/", "nc .*%-e ?/bin/", "nc .*%-e ?sh", "ncat .*%-e", "nc .*%-c ?sh",
			"ncat .*%-%-exec", "socat .*exec:", "socat .*EXEC:", "socat .*system:", "mkfifo .*nc ",
			"mknod .* p.*nc ", "telnet .*|%s*/bin/[bd]?a?sh", "sh %-i.*[<>]&" },
		check = shell_socket },
	T { id = "T1059.006", name = "python_shell", tactic = "execution", severity = 7,
		what = "ran a Python shell or socket one-liner",
		cmdline = { "pty%.spawn", "socket%.socket.*connect.*dup2", "os%.dup2.*subprocess",
			"socket%.socket.*subprocess", "import socket.*os%.dup2" } },
	T { id = "T1129", name = "shared_module", tactic = "execution", severity = 5,
		what = "loaded a shared library from a writable place",
		read = { "^/tmp/.*%.so[%.%d]*$", "^/dev/shm/.*%.so[%.%d]*$", "^/var/tmp/.*%.so[%.%d]*$" },
		cmdline = { "CDLL%(['\"]/tmp/", "CDLL%(['\"]/dev/shm/", "dlopen%(['\"]/tmp/" } },
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
			"^ngrok ", "^cloudflared .*tunnel", "^autossh ", "^sshuttle ", "^ligolo", "^stunnel" } },
}
