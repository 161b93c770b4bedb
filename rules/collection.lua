-- SPDX-License-Identifier: MIT
-- Collection (TA0009) and exfiltration (TA0010): sensitive data archived,
-- the screen, the clipboard, the microphone and the camera, documents
-- gathered, and data sent out: uploads, a decoy's marker through the
-- sink, cloud storage.
local T = rulekit.technique

local SENSITIVE = "[ '\"=]/etc[/ '\"]?"
local CLOUD = { "transfer%.sh$", "dropbox", "mega%.nz$", "mega%.co%.nz$", "anonfiles", "file%.io$",
	"gofile%.io$", "pastebin%.com$", "paste%.ee$", "hastebin", "0x0%.st$", "s3[%.%-].*amazonaws%.com$",
	"storage%.googleapis%.com$", "blob%.core%.windows%.net$", "drive%.google%.com$", "onedrive",
	"api%.telegram%.org$", "discord%.com$", "discordapp%.com$", "webhook%.site$", "ngrok" }

-- credentials: the decoys, and the files the credential rules read
local SECRETS = { "/%.ssh/id_", "/%.ssh/[^/]*%.pem$", "^/etc/shadow", "/%.aws/credentials$",
	"/%.git%-credentials$", "/%.netrc$", "/%.docker/config%.json$", "/%.kube/config$", "/%.pgpass$",
	"/logins%.json$", "/key[34]%.db$", "/Login Data$", "/cookies%.sqlite$", "/Cookies$",
	"/%.gnupg/", "/%.password%-store/", "/%.local/share/keyrings/" }

-- programs that read their own credentials to do their job
local CLIENTS = { docker = true, kubectl = true, ssh = true, scp = true, git = true, aws = true,
	gcloud = true, podman = true }

-- a credential read, then data sent to an address (not the name server,
-- not the box's own loopback)
local function read_then_sent(F)
	local secret
	for _, o in ipairs(F.opens) do
		if not o.write and o.answer == "allow" and not CLIENTS[rulekit.basename(o.image)] then
			if rulekit.matches(o.path, SECRETS) then secret = secret or o.path end
			for _, d in ipairs(F.decoys) do
				if d.path == o.path then secret = secret or o.path end
			end
		end
	end
	if not secret then return nil end
	for _, t in ipairs(F.traffic) do
		if t.port ~= 53 and not t.loopback and (t.bytes or 0) > 0 then
			return ("read %s, then sent %d bytes to %s%s:%s"):format(secret, t.bytes,
				t.hostname and t.hostname .. " " or "", t.ip, tostring(t.port))
		end
	end
	return nil
end

-- a decoy's marker seen leaving, or a credential read and then data sent
local function exfil_c2(_, F)
	for _, d in ipairs(F.decoys_leaked) do
		local w = tostring(d.where)
		-- the sink's traffic ("tcp 10.0.0.2:80") or a name looked up; not
		-- the program's own output or a file it wrote
		if w == "a dns lookup" or w:find("^%a+ %S+:%d+$") then
			return ("decoy %s (%s) left through the network: %s"):format(tostring(d.decoy), tostring(d.path), w)
		end
	end
	return read_then_sent(F)
end

local function cloud_dns(_, F)
	for _, d in ipairs(F.dns) do
		if rulekit.matches(d.hostname:lower(), CLOUD) then return "looked up " .. d.hostname end
	end
	return nil
end

local rules = {
	T { id = "T1560.001", name = "archive_collected", tactic = "collection", severity = 5,
		what = "archived sensitive data",
		exec = { "^tar .*" .. SENSITIVE, "^tar .*/home", "^tar .*/root", "^tar .*%.ssh", "^tar .*%.gnupg",
			"^tar .*%.aws", "^zip .*%-[%a]*[Pe]", "^zip .*" .. SENSITIVE, "^zip .*%.ssh", "^zip .*/home",
			"^7za? a .*%-p", "^7za? a .*" .. SENSITIVE, "^7za? a .*%.ssh", "^rar a .*%-hp", "^rar a .*%-p",
			"^gpg .*%-c .*%.tar", "^openssl enc .*%.tar", "^tar .*/var/www", "^tar .*/var/lib/mysql",
			"^zip .*/var/www" } },
	T { id = "T1560.002", name = "archive_library", tactic = "collection", severity = 2,
		what = "archived data with a library (information)",
		cmdline = { "make_archive", "zipfile%.ZipFile", "tarfile%.open", "Archive::Tar", "IO::Compress" } },
	T { id = "T1074.001", name = "staging", tactic = "collection", severity = 4,
		what = "staged data in a temporary place",
		exec = { "^cp .*/etc/[%w%.%-/]+ .*/tmp/", "^cp .*%.ssh.* /tmp/", "^cp .*%-r .*/home/.* /tmp/",
			"^cp .*/etc/[%w%.%-/]+ .*/var/tmp/", "^cp .*/etc/[%w%.%-/]+ .*/dev/shm/", "^rsync .*/etc/ .*/tmp/" } },
	T { id = "T1030", name = "transfer_size", tactic = "exfiltration", severity = 3,
		what = "split data into pieces",
		exec = { "^split .*%-b", "^split .*%-%-bytes", "^split .*%-C" } },
	T { id = "T1132.001", name = "encoded_channel", tactic = "command-and-control", severity = 5,
		what = "encoded data it sent",
		cmdline = { "base64[^|]*|%s*curl", "base64[^|]*|%s*nc ", "base64[^|]*|%s*wget", "xxd[^|]*|%s*curl",
			"base64[^|]*|%s*ncat" } },
	T { id = "T1113", name = "screen_capture", tactic = "collection", severity = 6,
		what = "captured the screen",
		exec = { "^import .*%-window root", "^xwd ", "^xwd$", "^scrot", "^gnome%-screenshot", "^maim",
			"^grim", "^spectacle", "^ffmpeg .*x11grab", "^xdotool .*getwindow" } },
	T { id = "T1115", name = "clipboard", tactic = "collection", severity = 6,
		what = "read the clipboard",
		exec = { "^xclip .*%-o", "^xclip .*%-out", "^xsel .*%-[%a]*o", "^xsel$", "^wl%-paste", "^pbpaste",
			"^xclip .*%-selection" } },
	T { id = "T1123", name = "audio_capture", tactic = "collection", severity = 6,
		what = "recorded audio",
		exec = { "^arecord", "^parecord", "^pw%-record", "^sox .*%-d", "^rec ", "^ffmpeg .*alsa",
			"^ffmpeg .*pulse" },
		read = { "^/dev/snd/pcm.*c$", "^/dev/dsp", "^/dev/audio" } },
	T { id = "T1125", name = "video_capture", tactic = "collection", severity = 6,
		what = "captured video",
		exec = { "^ffmpeg .*v4l2", "^fswebcam", "^streamer ", "^v4l2%-ctl" },
		read = { "^/dev/video%d" } },
	T { id = "T1005", name = "local_data", tactic = "collection", severity = 4,
		what = "gathered documents",
		exec = { "^find .*%-name ['\"]?%*%.docx?", "^find .*%-name ['\"]?%*%.pdf", "^find .*%-name ['\"]?%*%.xlsx?",
			"^find .*%-name ['\"]?%*%.kdbx", "^find .*%-name ['\"]?%*%.sqlite", "^find .*%-i?name ['\"]?%*%.wallet",
			"^find .*%-name ['\"]?wallet%.dat", "^find .*%-iname ['\"]?%*%.docx?", "^find .*%-iname ['\"]?%*%.pdf",
			"^cp .*/Documents", "^cp .*/Desktop", "^cp .*%.kdbx", "^cp .*wallet%.dat" },
		read = { "/%.bitcoin/wallet%.dat$", "/%.electrum/wallets/", "/%.ethereum/keystore/",
			"/%.config/Exodus/", "/%.atomic/" } },
	T { id = "T1048.003", name = "upload", tactic = "exfiltration", severity = 7,
		what = "uploaded data",
		exec = { "^curl .*%-T ", "^curl .*%-%-upload%-file", "^curl .*%-F ['\"]?%w+=@", "^curl .*%-%-data%-binary @",
			"^curl .*%-d @", "^curl .*%-%-data @", "^wget .*%-%-post%-file", "^wget .*%-%-body%-file",
			"^ftp ", "^tftp .* put ", "^lftp .*put", "^nc .*<", "^ncat .*%-%-send%-only" },
		cmdline = { "nc [%w%.%-]+ %d+%s*<", "ncat [%w%.%-]+ %d+%s*<", "cat [^|]*|%s*nc ", "cat [^|]*|%s*ncat ",
			"tar [^|]*|%s*nc ", "curl .*%-T ", "> ?/dev/tcp/.*<", "< ?[^ ]+ ?> ?/dev/tcp/" } },
	T { id = "T1041", name = "exfil_c2", tactic = "exfiltration", severity = 9,
		what = "sent a credential out",
		check = exfil_c2 },
	T { id = "T1567.002", name = "cloud_storage", tactic = "exfiltration", severity = 7,
		what = "sent data to a storage service",
		exec = { "^rclone .*copy", "^rclone .*sync", "^rclone .*move", "^aws s3 cp", "^aws s3 sync",
			"^aws s3api put", "^gsutil cp", "^azcopy", "^megaput", "^mega%-put", "^dbxcli put" },
		check = cloud_dns },
}

-- ---- archives made at all (information), and more collection and
-- exfiltration: collection by a loop, mail, removable media, shared
-- drives, repeated and scheduled uploads, a code repository as a drop ----

-- three or more uploads by one tool (a loop over files)
local UPLOAD = { "^curl .*%-T ", "^curl .*%-%-upload%-file", "^curl .*%-F ['\"]?%w+=@", "^curl .*%-%-data%-binary @",
	"^wget .*%-%-post%-file", "^scp ", "^rsync .*[%w%.%-]+:" }

local function repeated_uploads(_, F)
	local n, first = 0, nil
	for _, x in ipairs(F.execs) do
		local cmd = rulekit.command(x)
		if rulekit.matches(cmd, UPLOAD) then n, first = n + 1, first or cmd end
	end
	if n >= 3 then return ("%d uploads, first `%s`"):format(n, first), n end
	return nil
end

local MORE = {
	T { id = "T1560.001", name = "archive_made", tactic = "collection", severity = 1,
		what = "made an archive (information)",
		exec = { "^tar %-?[%a]*c", "^tar .* %-%-create", "^tar .* %-[%a]*c", "^zip ", "^gzip", "^bzip2", "^xz ",
			"^xz$", "^7za? a ", "^rar a ", "^cpio %-[%a]*o", "^zstd ", "^lz4 " },
		unless = { "^gzip %-[%a]*d", "^bzip2 %-[%a]*d", "^xz %-[%a]*d", "^zstd %-[%a]*d", "^gzip %-[%a]*l",
			"^xz %-[%a]*l", "^gzip %-[%a]*t" } },
	T { id = "T1119", name = "automated_collection", tactic = "collection", severity = 4,
		what = "collected files by a search",
		exec = { "^find .*%-exec cp ", "^find .*%-exec tar ", "^xargs .*cp ", "^xargs .*tar " },
		cmdline = { "find .*|%s*xargs .*cp ", "find .*%-exec cp .*{}", "for [%w_]+ in %$%(find .*cp " } },
	T { id = "T1114.001", name = "local_email", tactic = "collection", severity = 5,
		what = "read local mail",
		read = { "^/var/mail/", "^/var/spool/mail/", "/Maildir/cur/", "/Maildir/new/", "/%.thunderbird/.*/Mail/",
			"/%.thunderbird/.*/ImapMail/", "/%.local/share/evolution/mail/", "/%.mbox$" },
		exec = { "^cat .*/var/mail/", "^cat .*/var/spool/mail/", "^find .*Maildir", "^find .*%.thunderbird" } },
	T { id = "T1025", name = "removable_media", tactic = "collection", severity = 4,
		what = "collected data from removable media",
		exec = { "^find /media", "^find /run/media", "^find /mnt/usb", "^ls .*%-R .*/media", "^cp .*/media/[^ ]+ ",
			"^cp .*/run/media/[^ ]+ " },
		read = { "^/media/[^/]+/[^/]+/", "^/run/media/[^/]+/[^/]+/" } },
	T { id = "T1039", name = "network_share_data", tactic = "collection", severity = 4,
		what = "collected data from a network share",
		exec = { "^find /mnt/[%w_%-]*share", "^find /mnt/[%w_%-]*smb", "^find /mnt/[%w_%-]*nfs", "^find /net/",
			"^cp .*/mnt/[%w_%-]*share", "^cp .*/mnt/[%w_%-]*nfs", "^smbclient .*%-c ['\"]?m?get", "^smbget " } },
	T { id = "T1052.001", name = "usb_exfiltration", tactic = "exfiltration", severity = 5,
		what = "copied data to removable media",
		write = { "^/media/[^/]+/[^/]+/", "^/run/media/[^/]+/[^/]+/", "^/mnt/usb[^/]*/" },
		exec = { "^cp .* /media/", "^cp .* /run/media/", "^rsync .* /media/", "^dd .*of=/media/" } },
	T { id = "T1020", name = "automated_exfiltration", tactic = "exfiltration", severity = 6,
		what = "uploaded files one after another",
		check = repeated_uploads },
	T { id = "T1029", name = "scheduled_transfer", tactic = "exfiltration", severity = 5,
		what = "scheduled an upload",
		exec = { "^systemd%-run .*%-%-on%-.* curl ", "^systemd%-run .*%-%-on%-.* scp ", "^systemd%-run .*%-%-on%-.* rsync ",
			"^watch %-n ?%d+ .*curl .*%-T", "^watch %-n ?%d+ .*rsync " },
		cmdline = { "%d+ %* %* %* %* .*curl .*%-T", "%d+ %* %* %* %* .*%-%-upload%-file", "%d+ %* %* %* %* .*rsync .*:",
			"%d+ %* %* %* %* .*scp " } },
	T { id = "T1567.001", name = "code_repository", tactic = "exfiltration", severity = 5,
		what = "sent data to a code repository",
		exec = { "^git push .*github%.com", "^git push .*gitlab%.com", "^git push .*bitbucket%.org", "^gh gist create",
			"^curl .*api%.github%.com/gists", "^curl .*api%.github%.com/repos/.*contents" },
		check = function(_, F)
			local remote
			for _, x in ipairs(F.execs) do
				local cmd = rulekit.command(x)
				remote = remote or cmd:match("^git remote add %S+ (%S*github%.com%S*)")
					or cmd:match("^git remote add %S+ (%S*gitlab%.com%S*)")
				if remote and cmd:find("^git push") then return ("pushed to %s"):format(remote) end
			end
			return nil
		end },
	T { id = "T1048.002", name = "encrypted_upload", tactic = "exfiltration", severity = 6,
		what = "uploaded data over an encrypted protocol",
		exec = { "^curl .*%-T .*https://", "^curl .*%-%-upload%-file .*https://", "^curl .*https://.*%-T ",
			"^curl .*https://.*%-%-upload%-file", "^openssl s_client .*%-quiet", "^curl .*%-F ['\"]?%w+=@.*https://",
			"^curl .*https://.*%-F ['\"]?%w+=@" } },
}
for _, r in ipairs(MORE) do rules[#rules + 1] = r end

-- ---- files offered to anyone over plain HTTP ----
rules[#rules + 1] = T { id = "T1048.003", name = "http_served", tactic = "exfiltration", severity = 5,
	what = "served files over plain HTTP",
	exec = { "^python[%d%.]* .*%-m ?http%.server", "^python[%d%.]* .*%-m ?SimpleHTTPServer", "^php .*%-S ",
		"^busybox httpd", "^ruby .*%-run .*httpd" } }

return rules
